//! Work mode (reference §3.11): structured value → location marker → description phrase.
//! Only role-level statements count; conflicting statements settle nothing. Never inferred
//! from the title.

use freehire_domain::WorkMode;

use crate::description::Term;
use crate::lexicon::{Hit, unanimous};

const REMOTE: &[&str] = &[
    "fully remote",
    "fully-remote",
    "100% remote",
    "remote position",
    "remote role",
    "remote opportunity",
    "remote job",
    "this is a remote",
    "this role is remote",
    "this position is remote",
    "this role is fully remote",
    "this position is fully remote",
    "work remotely from anywhere",
    "can be performed remotely",
    "remote-based role",
];
const HYBRID: &[&str] = &[
    "hybrid role",
    "hybrid position",
    "hybrid schedule",
    "this is a hybrid",
    "this role is hybrid",
    "days per week in the office",
    "days a week in the office",
    "days per week in office",
    "days a week in office",
    "days in the office",
    "days per week on-site",
    "days a week on-site",
    "days per week onsite",
    "days a week onsite",
    "days per week in-office",
    "days a week in-office",
    "the office 1 day",
    "the office 2 days",
    "the office 3 days",
    "the office 4 days",
    "the office one day",
    "the office two days",
    "the office three days",
    "the office four days",
    "we are hybrid",
    "will be hybrid",
    "office 3 days a week",
    "office 4 days a week",
    "office 4+ days a week",
    "office three days a week",
    "office four days a week",
    "in office at least",
    "in-office at least",
    "in-person 3 days",
    "in person 3 days",
    "in-person 4 days",
    "in person 4 days",
    "in office tuesday",
    "in-office tuesday",
    "office tuesday through thursday",
];
const ONSITE: &[&str] = &[
    "on-site role",
    "onsite role",
    "on-site position",
    "onsite position",
    "this role is onsite",
    "this role is on-site",
    "this is an onsite",
    "this is an on-site",
    "in-person role",
    "in person role",
    "fully onsite",
    "fully on-site",
    "100% onsite",
    "100% on-site",
    "in-office role",
    "an in-person team",
    "an in-person company",
    "fully in-person",
    "an in-office team",
    "the office 5 days",
    "the office five days",
    "5 days a week in the office",
    "five days a week in the office",
    "5 days per week in the office",
    "five days per week in the office",
    "this role is in-office",
    "this position is onsite",
    "this position is on-site",
    "this role is in-person",
    "located in-person",
    "located in person",
    "working in-person",
    "working in person in",
    "based in person",
    "based in-person",
    "company is in-office",
    "will be in-office",
    "is in-office at our",
    "5 days onsite",
    "5 days on-site",
    "5 days in-office",
    "5 days in office",
    "five days in office",
    "in-office presence 5 days",
    "in-person 5 days",
    "in person 5 days",
    "location (on-site)",
    "in-person startup",
];

/// The description phrases, for the shared lexicon.
pub fn description_phrases() -> Vec<(&'static str, Term)> {
    REMOTE
        .iter()
        .map(|p| (*p, Term::WorkMode(WorkMode::Remote)))
        .chain(HYBRID.iter().map(|p| (*p, Term::WorkMode(WorkMode::Hybrid))))
        .chain(ONSITE.iter().map(|p| (*p, Term::WorkMode(WorkMode::Onsite))))
        .collect()
}

/// The one work mode the description states, if it states exactly one.
pub fn from_description(hits: &[Hit<Term>]) -> Option<WorkMode> {
    unanimous(hits.iter().filter_map(|hit| match hit.term {
        Term::WorkMode(m) => Some(m),
        _ => None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::description::scan;

    // scenario: Hybrid days
    // scenario: Conflict
    #[test]
    fn description_table() {
        let cases = [
            ("This is a remote position open to the US.", Some(WorkMode::Remote)),
            ("We work 3 days a week in the office.", Some(WorkMode::Hybrid)),
            ("This role is on-site in Austin.", Some(WorkMode::Onsite)),
            ("This is a remote role; 3 days a week in the office", None),
            ("We are a remote-first company.", None),
            ("Our hybrid work policy lets you work from anywhere.", None),
            ("Able to come into the office 2 days per week.", Some(WorkMode::Hybrid)),
            ("We're an in-person team based out of San Francisco.", Some(WorkMode::Onsite)),
            ("Remote work stipend", None),
            ("Work from our office five days a week in the office", Some(WorkMode::Onsite)),
        ];
        for (text, want) in cases {
            assert_eq!(from_description(&scan(text)), want, "{text:?}");
        }
    }
}
