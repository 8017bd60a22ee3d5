//! Seniority (reference §3.11): structured value → title dictionary → description. English
//! and Russian whole-word aliases; grade-blind phrases ("Member of Technical Staff", "Lead
//! Generation", "Middle East", "Chief of Staff") are masked first. Several grades in one
//! title give the highest ("Senior Staff Engineer" → staff).

use freehire_domain::Seniority;

use crate::description::Term;
use crate::lexicon::Hit;
use crate::title::TitleTerm;

/// Title aliases per grade.
pub const TITLE_ALIASES: &[(&str, Seniority)] = &[
    ("intern", Seniority::Intern),
    ("interns", Seniority::Intern),
    ("internship", Seniority::Intern),
    ("trainee", Seniority::Intern),
    ("werkstudent", Seniority::Intern),
    ("working student", Seniority::Intern),
    ("apprentice", Seniority::Intern),
    ("praktikant", Seniority::Intern),
    ("стажер", Seniority::Intern),
    ("стажёр", Seniority::Intern),
    ("junior", Seniority::Junior),
    ("jr", Seniority::Junior),
    ("entry level", Seniority::Junior),
    ("entry-level", Seniority::Junior),
    ("graduate", Seniority::Junior),
    ("new grad", Seniority::Junior),
    ("младший", Seniority::Junior),
    ("джуниор", Seniority::Junior),
    ("middle", Seniority::Middle),
    ("mid-level", Seniority::Middle),
    ("mid level", Seniority::Middle),
    ("intermediate", Seniority::Middle),
    ("мидл", Seniority::Middle),
    ("senior", Seniority::Senior),
    ("sr", Seniority::Senior),
    ("snr", Seniority::Senior),
    ("старший", Seniority::Senior),
    ("сеньор", Seniority::Senior),
    ("синьор", Seniority::Senior),
    ("lead", Seniority::Lead),
    ("team lead", Seniority::Lead),
    ("tech lead", Seniority::Lead),
    ("teamlead", Seniority::Lead),
    ("тимлид", Seniority::Lead),
    ("ведущий", Seniority::Lead),
    ("staff", Seniority::Staff),
    ("principal", Seniority::Principal),
    ("ceo", Seniority::CLevel),
    ("cto", Seniority::CLevel),
    ("cfo", Seniority::CLevel),
    ("coo", Seniority::CLevel),
    ("cmo", Seniority::CLevel),
    ("cio", Seniority::CLevel),
    ("ciso", Seniority::CLevel),
    ("cpo", Seniority::CLevel),
    ("cro", Seniority::CLevel),
    ("chief executive officer", Seniority::CLevel),
    ("chief technology officer", Seniority::CLevel),
    ("chief technical officer", Seniority::CLevel),
    ("chief financial officer", Seniority::CLevel),
    ("chief operating officer", Seniority::CLevel),
    ("chief marketing officer", Seniority::CLevel),
    ("chief product officer", Seniority::CLevel),
    ("chief information officer", Seniority::CLevel),
    ("chief information security officer", Seniority::CLevel),
    ("chief revenue officer", Seniority::CLevel),
    ("chief people officer", Seniority::CLevel),
    ("chief data officer", Seniority::CLevel),
    ("chief ai officer", Seniority::CLevel),
    ("chief scientist", Seniority::CLevel),
];

/// Grade-blind phrases masked before the grades are read.
pub const MASKS: &[&str] = &[
    "member of technical staff",
    "members of technical staff",
    "lead generation",
    "lead gen",
    "lead qualification",
    "middle east",
    "middle school",
    "middle office",
    "middle market",
    "chief of staff",
    "staff accountant",
    "staff nurse",
    "support staff",
    "medical staff",
    "senior living",
    "senior care",
    "junior high",
    "graduate school",
    "graduate research",
    "graduate teaching",
    "executive assistant",
    "assistant to",
    "to ceo",
    "to the ceo",
    "to cto",
    "to the cto",
    "to cfo",
    "to the cfo",
    "to coo",
    "to the coo",
];

/// The highest grade among the title's hits.
pub fn from_title(hits: &[Hit<TitleTerm>]) -> Option<Seniority> {
    let grades = hits.iter().filter_map(|h| match h.term {
        TitleTerm::Seniority(s) => Some(s),
        _ => None,
    });
    // An intern is an intern whoever they work for ("CEO Founder Associate Intern").
    let mut highest = None;
    for grade in grades {
        if grade == Seniority::Intern {
            return Some(grade);
        }
        highest = highest.max(Some(grade));
    }
    highest
}

/// Whether a title part is only grades ("Senior" of "Senior / Staff SRE"): a grade
/// alternative within one title, not a title of its own.
fn grades_only(part: &str) -> bool {
    let hits = crate::title::scan_title(part);
    let lower = part.to_lowercase();
    let mut rest = lower.clone().into_bytes();
    for h in hits.iter().filter(|h| matches!(h.term, TitleTerm::Seniority(_))) {
        for b in rest.iter_mut().take(h.end.min(lower.len())).skip(h.start) {
            *b = b' ';
        }
    }
    let grades: Vec<&Hit<TitleTerm>> =
        hits.iter().filter(|h| matches!(h.term, TitleTerm::Seniority(_))).collect();
    // "Tech Lead" and "Team Lead" name a role: a part of them is a title.
    let one_word = grades.iter().all(|h| !lower.get(h.start..h.end).unwrap_or(" ").contains(' '));
    !grades.is_empty()
        && one_word
        && !String::from_utf8_lossy(&rest).chars().any(char::is_alphabetic)
}

/// The grade of a title that may offer alternatives ("Solution Architect / Senior Solution
/// Architect"): alternatives with different grades settle nothing.
#[cfg(test)] // the tests' entry point; the pipeline reuses its scan
pub fn from_title_text(title: &str) -> Option<Seniority> {
    from_title_and_hits(title, &crate::title::scan_title(title))
}

/// [`from_title_text`] reusing the hits of the whole title.
pub fn from_title_and_hits(title: &str, hits: &[Hit<TitleTerm>]) -> Option<Seniority> {
    if !(title.contains(" / ") || title.contains(" or ")) {
        return from_title(hits);
    }
    let lower = title.to_lowercase();
    // Only spaced separators split alternatives: "UI/UX" is one word pair, not two titles. A
    // bar sets off a team or a place ("Senior Software Engineer | Backend"), never a title; a
    // part that is only grades ("Senior / Staff SRE") is a grade choice within one title.
    let alternatives: Vec<&str> = lower
        .split(" / ")
        .flat_map(|a| a.split(" or "))
        .filter(|part| !grades_only(part))
        .collect();
    if alternatives.len() > 1 {
        let grades: Vec<Option<Seniority>> =
            alternatives.iter().map(|a| from_title(&crate::title::scan_title(a))).collect();
        if grades.iter().any(|g| *g != grades[0]) {
            return None;
        }
    }
    from_title(hits)
}

/// Role-level statements of grade in a description.
const DESCRIPTION: &[(&str, Seniority)] = &[
    ("this is an entry-level", Seniority::Junior),
    ("this is an entry level", Seniority::Junior),
    ("entry-level position", Seniority::Junior),
    ("entry-level role", Seniority::Junior),
    ("this is a senior-level", Seniority::Senior),
    ("this is a senior role", Seniority::Senior),
    ("this is a senior position", Seniority::Senior),
    ("this is a staff-level", Seniority::Staff),
    ("this is a principal-level", Seniority::Principal),
    ("this internship", Seniority::Intern),
    ("internship program", Seniority::Intern),
];

/// The description phrases, for the shared lexicon.
pub fn description_phrases() -> Vec<(&'static str, Term)> {
    DESCRIPTION.iter().map(|(p, s)| (*p, Term::Seniority(*s))).collect()
}

/// The grade a description states, when it states exactly one.
pub fn from_description(hits: &[Hit<Term>]) -> Option<Seniority> {
    let mut found = None;
    for h in hits {
        if let Term::Seniority(s) = h.term {
            if found.is_some_and(|f| f != s) {
                return None;
            }
            found = Some(s);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    // scenario: Grades
    // scenario: Masks
    #[test]
    fn title_table() {
        let cases = [
            ("Senior Software Engineer", Some(Seniority::Senior)),
            ("Sr. Data Analyst", Some(Seniority::Senior)),
            ("Junior Developer", Some(Seniority::Junior)),
            ("Software Engineering Intern", Some(Seniority::Intern)),
            ("Middle Backend Developer", Some(Seniority::Middle)),
            ("Team Lead, Platform", Some(Seniority::Lead)),
            ("Staff Engineer", Some(Seniority::Staff)),
            ("Senior Staff Engineer", Some(Seniority::Staff)),
            ("Principal Designer", Some(Seniority::Principal)),
            ("Chief Technology Officer", Some(Seniority::CLevel)),
            ("CTO", Some(Seniority::CLevel)),
            ("Старший разработчик", Some(Seniority::Senior)),
            ("Member of Technical Staff", None),
            ("Lead Generation Specialist", None),
            ("Sales Manager, Middle East", None),
            ("Chief of Staff", None),
            ("Software Engineer", None),
            ("Leadership Coach", None),
            ("Seniority Analyst", None),
            ("Mid-Market Account Executive", None),
            ("Executive Assistant to CEO", None),
            ("Solution Architect / Senior Solution Architect", None),
            ("Senior Engineer / Tech Lead", None),
            ("Senior UI/UX Designer", Some(Seniority::Senior)),
        ];
        for (title, want) in cases {
            assert_eq!(from_title_text(title), want, "{title:?}");
        }
    }

    #[test]
    fn description_table() {
        use crate::description::scan;
        assert_eq!(
            from_description(&scan("This is an entry-level role.")),
            Some(Seniority::Junior)
        );
        assert_eq!(from_description(&scan("Senior leadership team")), None);
    }
}
