//! Requires clearance (reference §3.11): true or unknown, from the description. Covers UK
//! SC/DV/BPSS, US Secret/TS-SCI/polygraph and AU baseline/NV1/NV2. An explicit "no clearance
//! required" vetoes. The clearance's country also pins an unpinned posting.

use crate::description::Term;
use crate::lexicon::Hit;

/// Clearance phrases with the country whose clearance they name ("" when any).
pub const PHRASES: &[(&str, Term)] = &[
    ("security clearance", Term::Clearance("")),
    ("active clearance", Term::Clearance("")),
    ("clearance required", Term::Clearance("")),
    ("secret clearance", Term::Clearance("us")),
    ("secret security clearance", Term::Clearance("us")),
    ("active secret", Term::Clearance("us")),
    ("top secret clearance", Term::Clearance("us")),
    ("top secret security clearance", Term::Clearance("us")),
    ("top secret/sci", Term::Clearance("us")),
    ("top-secret clearance", Term::Clearance("us")),
    ("ts/sci", Term::Clearance("us")),
    ("ts sci", Term::Clearance("us")),
    ("ts/sci clearance", Term::Clearance("us")),
    ("polygraph", Term::Clearance("us")),
    ("full scope poly", Term::Clearance("us")),
    ("ci poly", Term::Clearance("us")),
    ("dod clearance", Term::Clearance("us")),
    ("sc clearance", Term::Clearance("gb")),
    ("sc cleared", Term::Clearance("gb")),
    ("dv clearance", Term::Clearance("gb")),
    ("dv cleared", Term::Clearance("gb")),
    ("developed vetting", Term::Clearance("gb")),
    ("security check (sc)", Term::Clearance("gb")),
    ("bpss", Term::Clearance("gb")),
    ("baseline clearance", Term::Clearance("au")),
    ("baseline security clearance", Term::Clearance("au")),
    ("nv1", Term::Clearance("au")),
    ("nv2", Term::Clearance("au")),
    ("negative vetting", Term::Clearance("au")),
    ("agsva", Term::Clearance("au")),
    ("no security clearance required", Term::NoClearance),
    ("no clearance required", Term::NoClearance),
    ("clearance is not required", Term::NoClearance),
    ("clearance not required", Term::NoClearance),
    ("does not require a security clearance", Term::NoClearance),
    ("does not require security clearance", Term::NoClearance),
    ("no security clearance is required", Term::NoClearance),
];

/// `Some(true)` when the description requires a clearance and does not say the opposite.
pub fn requires(hits: &[Hit<Term>]) -> Option<bool> {
    let mut yes = false;
    for h in hits {
        match h.term {
            Term::NoClearance => return None,
            Term::Clearance(_) => yes = true,
            _ => {}
        }
    }
    yes.then_some(true)
}

/// Countries whose clearance the description names.
pub fn countries(hits: &[Hit<Term>]) -> Vec<&'static str> {
    if requires(hits).is_none() {
        return Vec::new();
    }
    let mut out: Vec<&'static str> = hits
        .iter()
        .filter_map(|h| match h.term {
            Term::Clearance(c) if !c.is_empty() => Some(c),
            _ => None,
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::description::scan;

    // scenario: Clearance
    #[test]
    fn clearance_table() {
        let cases: &[(&str, Option<bool>, &[&str])] = &[
            ("Active TS/SCI with polygraph required.", Some(true), &["us"]),
            ("Must hold SC clearance or be willing to obtain DV.", Some(true), &["gb"]),
            ("BPSS checks apply", Some(true), &["gb"]),
            ("Australian citizens with NV1", Some(true), &["au"]),
            ("Baseline clearance", Some(true), &["au"]),
            ("Requires a security clearance", Some(true), &[]),
            ("No security clearance required.", None, &[]),
            ("Our top secret sauce is culture", None, &[]),
            ("Clearing the backlog", None, &[]),
        ];
        for (t, want, cs) in cases {
            let hits = scan(t);
            assert_eq!(requires(&hits), *want, "{t:?}");
            assert_eq!(countries(&hits), *cs, "{t:?}");
        }
    }
}
