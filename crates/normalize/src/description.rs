//! The description lexicon: every phrase dictionary that reads the posting's body (skills,
//! work mode, seniority, employment type, education, English, clearance, eligibility) in one
//! automaton, so the text is scanned once.

use std::sync::LazyLock;

use freehire_domain::{EducationLevel, EmploymentType, EnglishLevel, Seniority, WorkMode};

use crate::lexicon::{Hit, Lexicon};
use crate::skills::{Guard, SKILL_TABLE};
use crate::{clearance, eligibility, employment, schooling, seniority, work_mode};

/// What a description phrase stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Term {
    /// A skill (index into the skill table) and the guard for this spelling.
    Skill(u16, Guard),
    /// A work-mode statement.
    WorkMode(WorkMode),
    /// A seniority statement.
    Seniority(Seniority),
    /// An employment-type statement.
    Employment(EmploymentType),
    /// A required education level.
    Education(EducationLevel),
    /// A required English level.
    English(EnglishLevel),
    /// A clearance requirement, with the country whose clearance it is (empty: unknown).
    Clearance(&'static str),
    /// "No clearance required" and the like.
    NoClearance,
    /// A phrase after which a place names who may apply ("eligible to work in").
    Eligibility,
    /// A citizenship requirement naming its country.
    Citizenship(&'static str),
    /// "year(s)"/"yr(s)": where an experience figure may stand.
    Years,
}

/// The description automaton.
pub static LEXICON: LazyLock<Lexicon<Term>> = LazyLock::new(|| {
    let mut entries: Vec<(String, Term)> = Vec::new();
    entries.extend(SKILL_TABLE.phrases.iter().map(|(p, i, g)| (p.clone(), Term::Skill(*i, *g))));
    let mut add = |list: &[(&str, Term)]| {
        entries.extend(list.iter().map(|(p, t)| ((*p).to_owned(), *t)));
    };
    add(&work_mode::description_phrases());
    add(&seniority::description_phrases());
    add(&employment::description_phrases());
    add(&schooling::education_phrases());
    add(clearance::PHRASES);
    add(eligibility::PHRASES);
    add(&[
        ("year", Term::Years),
        ("years", Term::Years),
        ("yr", Term::Years),
        ("yrs", Term::Years),
    ]);
    entries.extend(schooling::english_phrases());
    Lexicon::new(entries)
});

/// Scans a description's visible text once.
#[cfg(test)] // the tests' entry point; the pipeline reuses its scan
pub fn scan(text: &str) -> Vec<Hit<Term>> {
    LEXICON.scan(text)
}

/// [`scan`] with the ASCII-lowercased text already at hand.
pub fn scan_lowered(text: &str, lower: &str) -> Vec<Hit<Term>> {
    LEXICON.scan_lowered(text, lower)
}
