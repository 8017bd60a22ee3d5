//! Education level and English level (reference §3.11): structured value → English-prose
//! matchers. Several levels in one text give the lowest ("Bachelor's required, Master's
//! preferred" → bachelor); an explicit "no degree required" gives `none`.

use freehire_domain::{EducationLevel, EnglishLevel};

use crate::description::Term;
use crate::lexicon::Hit;

const EDUCATION: &[(&str, EducationLevel)] = {
    use EducationLevel::*;
    &[
        ("bachelor's", Bachelor),
        ("bachelor’s", Bachelor),
        ("bachelors", Bachelor),
        ("bachelor degree", Bachelor),
        ("bachelor of science", Bachelor),
        ("bachelor of arts", Bachelor),
        ("bs degree", Bachelor),
        ("ba degree", Bachelor),
        ("b.s.", Bachelor),
        ("b.a.", Bachelor),
        ("bsc", Bachelor),
        ("b.sc", Bachelor),
        ("undergraduate degree", Bachelor),
        ("4-year degree", Bachelor),
        ("four-year degree", Bachelor),
        ("college degree", Bachelor),
        ("master's", Master),
        ("master’s", Master),
        ("masters degree", Master),
        ("master degree", Master),
        ("master of science", Master),
        ("ms degree", Master),
        ("m.s.", Master),
        ("msc", Master),
        ("m.sc", Master),
        ("mba", Master),
        ("graduate degree", Master),
        ("ms or phd", Master),
        ("ms/phd", Master),
        ("bs/ms", Bachelor),
        ("bs or ms", Bachelor),
        ("ba/bs", Bachelor),
        ("bs/ba", Bachelor),
        ("ba or bs", Bachelor),
        ("bs or ba", Bachelor),
        ("phd", Phd),
        ("ph.d", Phd),
        ("ph.d.", Phd),
        ("doctorate", Phd),
        ("doctoral degree", Phd),
        ("no degree required", None),
        ("degree not required", None),
        ("no college degree required", None),
        ("no degree is required", None),
        ("a degree is not required", None),
        ("without a degree", None),
    ]
};

const CEFR: &[(&str, EnglishLevel)] = &[
    ("a1", EnglishLevel::A1),
    ("a2", EnglishLevel::A2),
    ("b1", EnglishLevel::B1),
    ("b2", EnglishLevel::B2),
    ("c1", EnglishLevel::C1),
    ("c2", EnglishLevel::C2),
];

const ENGLISH_PROSE: &[(&str, EnglishLevel)] = {
    use EnglishLevel::*;
    &[
        ("pre-intermediate english", A2),
        ("intermediate english", B1),
        ("upper-intermediate english", B2),
        ("upper intermediate english", B2),
        ("english upper-intermediate", B2),
        ("english: upper-intermediate", B2),
        ("advanced english", C1),
        ("fluent english", C1),
        ("fluent in english", C1),
        ("fluency in english", C1),
        ("english fluency", C1),
        ("proficient in english", C1),
        ("proficiency in english", C1),
        ("excellent english", C1),
        ("native english", Native),
        ("native-level english", Native),
        ("native level english", Native),
        ("english native", Native),
        ("native english speaker", Native),
        ("native speaker of english", Native),
    ]
};

/// The education phrases, for the shared lexicon.
pub fn education_phrases() -> Vec<(&'static str, Term)> {
    EDUCATION.iter().map(|(p, l)| (*p, Term::Education(*l))).collect()
}

/// The English phrases (prose and CEFR forms), for the shared lexicon.
pub fn english_phrases() -> Vec<(String, Term)> {
    let mut out: Vec<(String, Term)> =
        ENGLISH_PROSE.iter().map(|(p, l)| ((*p).to_owned(), Term::English(*l))).collect();
    for (code, level) in CEFR {
        for form in cefr_forms(code) {
            out.push((form, Term::English(*level)));
        }
    }
    out
}

/// "english b2", "b2 english", "english level b2", "english (b2)", "english: b2", "b2+ english".
fn cefr_forms(code: &str) -> [String; 11] {
    [
        format!("english {code}"),
        format!("{code} english"),
        format!("{code}+ english"),
        format!("english level {code}"),
        format!("english level: {code}"),
        format!("english ({code}"),
        format!("english: {code}"),
        format!("english - {code}"),
        format!("english – {code}"),
        format!("{code} level english"),
        format!("{code} level of english"),
    ]
}

/// The education level a description requires.
pub fn education(hits: &[Hit<Term>]) -> Option<EducationLevel> {
    let levels = hits.iter().filter_map(|h| match h.term {
        Term::Education(l) => Some(l),
        _ => None,
    });
    let levels: Vec<EducationLevel> = levels.collect();
    if levels.contains(&EducationLevel::None) {
        return Some(EducationLevel::None);
    }
    levels.into_iter().min()
}

/// The English level a description requires.
pub fn english(hits: &[Hit<Term>]) -> Option<EnglishLevel> {
    hits.iter()
        .filter_map(|h| match h.term {
            Term::English(l) => Some(l),
            _ => None,
        })
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::description::scan;

    // scenario: Lowest requirement
    #[test]
    fn education_table() {
        let cases = [
            (
                "Bachelor's degree in CS required; Master's preferred.",
                Some(EducationLevel::Bachelor),
            ),
            ("PhD in machine learning", Some(EducationLevel::Phd)),
            ("MS or PhD in a related field", Some(EducationLevel::Master)),
            ("No degree required.", Some(EducationLevel::None)),
            ("Scrum master experience", None),
            ("Master the craft", None),
        ];
        for (t, want) in cases {
            assert_eq!(education(&scan(t)), want, "{t:?}");
        }
    }

    #[test]
    fn english_table() {
        let cases = [
            ("English B2 or higher", Some(EnglishLevel::B2)),
            ("Upper-intermediate English", Some(EnglishLevel::B2)),
            ("Fluent English and German", Some(EnglishLevel::C1)),
            ("Native English speaker", Some(EnglishLevel::Native)),
            ("English (C1)", Some(EnglishLevel::C1)),
            ("We write in English.", None),
            ("B2B sales", None),
        ];
        for (t, want) in cases {
            assert_eq!(english(&scan(t)), want, "{t:?}");
        }
    }
}
