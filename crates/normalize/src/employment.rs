//! Employment type (reference §3.11): structured value → title → description. A description
//! counts only when it names exactly one type.

use freehire_domain::EmploymentType;

use crate::description::Term;
use crate::lexicon::Hit;
use crate::title::TitleTerm;

/// Title words per type.
pub const TITLE_WORDS: &[(&str, EmploymentType)] = &[
    ("full-time", EmploymentType::FullTime),
    ("full time", EmploymentType::FullTime),
    ("part-time", EmploymentType::PartTime),
    ("part time", EmploymentType::PartTime),
    ("contract", EmploymentType::Contract),
    ("contractor", EmploymentType::Contract),
    ("freelance", EmploymentType::Contract),
    ("freelancer", EmploymentType::Contract),
    ("temporary", EmploymentType::Contract),
    ("fixed-term", EmploymentType::Contract),
    ("intern", EmploymentType::Internship),
    ("interns", EmploymentType::Internship),
    ("internship", EmploymentType::Internship),
    ("werkstudent", EmploymentType::Internship),
    ("working student", EmploymentType::Internship),
    ("fellowship", EmploymentType::Fellowship),
    ("fellow", EmploymentType::Fellowship),
];

const DESCRIPTION: &[(&str, EmploymentType)] = &[
    ("full-time position", EmploymentType::FullTime),
    ("full-time role", EmploymentType::FullTime),
    ("full time position", EmploymentType::FullTime),
    ("full time role", EmploymentType::FullTime),
    ("this is a full-time", EmploymentType::FullTime),
    ("this is a full time", EmploymentType::FullTime),
    ("permanent full-time", EmploymentType::FullTime),
    ("part-time position", EmploymentType::PartTime),
    ("part-time role", EmploymentType::PartTime),
    ("part time position", EmploymentType::PartTime),
    ("part time role", EmploymentType::PartTime),
    ("this is a part-time", EmploymentType::PartTime),
    ("this is a part time", EmploymentType::PartTime),
    ("contract position", EmploymentType::Contract),
    ("contract role", EmploymentType::Contract),
    ("this is a contract", EmploymentType::Contract),
    ("contract-to-hire", EmploymentType::Contract),
    ("contract to hire", EmploymentType::Contract),
    ("fixed-term contract", EmploymentType::Contract),
    ("independent contractor", EmploymentType::Contract),
    ("freelance position", EmploymentType::Contract),
    ("this internship", EmploymentType::Internship),
    ("internship program", EmploymentType::Internship),
    ("this is an internship", EmploymentType::Internship),
    ("this fellowship", EmploymentType::Fellowship),
    ("fellowship program", EmploymentType::Fellowship),
];

/// The description phrases, for the shared lexicon.
pub fn description_phrases() -> Vec<(&'static str, Term)> {
    DESCRIPTION.iter().map(|(p, e)| (*p, Term::Employment(*e))).collect()
}

fn single<T: Copy + PartialEq>(items: impl Iterator<Item = T>) -> Option<T> {
    let mut found = None;
    for item in items {
        if found.is_some_and(|f| f != item) {
            return None;
        }
        found = Some(item);
    }
    found
}

/// The one type the title names.
pub fn from_title(hits: &[Hit<TitleTerm>]) -> Option<EmploymentType> {
    single(hits.iter().filter_map(|h| match h.term {
        TitleTerm::Employment(e) => Some(e),
        _ => None,
    }))
}

/// The one type the description names.
pub fn from_description(hits: &[Hit<Term>]) -> Option<EmploymentType> {
    single(hits.iter().filter_map(|h| match h.term {
        Term::Employment(e) => Some(e),
        _ => None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::description::scan;
    use crate::title::scan_title;

    // scenario: Title
    #[test]
    fn title_and_description() {
        let titles = [
            ("Learning Course Instructor (part-time) - Remote", Some(EmploymentType::PartTime)),
            ("Research Intern", Some(EmploymentType::Internship)),
            ("Contract Data Engineer", Some(EmploymentType::Contract)),
            ("Senior Engineer", None),
            ("Full-time or Part-time Tutor", None),
        ];
        for (t, want) in titles {
            assert_eq!(from_title(&scan_title(t)), want, "{t:?}");
        }
        let texts = [
            ("This is a full-time position.", Some(EmploymentType::FullTime)),
            ("Independent contractor engagement", Some(EmploymentType::Contract)),
            ("full-time role or part-time role", None),
            ("We build smart contracts", None),
        ];
        for (t, want) in texts {
            assert_eq!(from_description(&scan(t)), want, "{t:?}");
        }
    }
}
