//! The ghost-job signal (reference search-ingest §5.10, constants §15.6): whether a posting
//! is likely a vacancy nobody is filling, from four criteria (evergreen posting, absent from
//! the employer's own board, silent applications, applicants' reports), said only when two
//! agree, and `likely` only on outcome evidence from two different people. Closed jobs carry
//! no signal.

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};

use crate::{GhostCriterion, GhostLevel, UserId};

/// The criteria there are.
pub const CRITERIA_TOTAL: u32 = 4;
/// Criteria that must agree before anything is said.
pub const CONVERGENCE: usize = 2;
/// People whose outcomes (a silent application, a report) must back `likely`; below it the
/// count is withheld (`ContributorGate`).
pub const CONTRIBUTOR_GATE: usize = 2;

/// What the signal is read from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GhostEvidence {
    /// The reality signals say `likely-evergreen`.
    pub evergreen: bool,
    /// When a cross-check found it missing from the employer's own board (within 14 days);
    /// `None`: not checked or found (no aggregator source is read today).
    pub ats_absent_at: Option<DateTime<Utc>>,
    /// The applicants whose application went silent.
    pub silent_applicants: BTreeSet<UserId>,
    /// The applicants who reported it and did not retract.
    pub reporters: BTreeSet<UserId>,
}

/// The signal as served (`ghost` on a job).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ghost {
    /// The level.
    pub level: GhostLevel,
    /// The criteria met, in the vocabulary's order.
    pub criteria: Vec<GhostCriterion>,
    /// [`CRITERIA_TOTAL`].
    pub criteria_total: u32,
    /// The people behind the outcome evidence, when at least [`CONTRIBUTOR_GATE`].
    pub contributors: Option<u32>,
    /// When the board cross-check ran, if it found the posting absent.
    pub ats_checked_at: Option<DateTime<Utc>>,
}

/// The signal of a posting: `None` when it is closed.
pub fn ghost(evidence: &GhostEvidence, open: bool) -> Option<Ghost> {
    if !open {
        return None;
    }
    let met = [
        (evidence.evergreen, GhostCriterion::EvergreenPosting),
        (evidence.ats_absent_at.is_some(), GhostCriterion::AtsAbsent),
        (!evidence.silent_applicants.is_empty(), GhostCriterion::SilentApplications),
        (!evidence.reporters.is_empty(), GhostCriterion::UserReports),
    ];
    let criteria: Vec<GhostCriterion> =
        met.into_iter().filter(|(m, _)| *m).map(|(_, c)| c).collect();
    let people = evidence.silent_applicants.union(&evidence.reporters).count();
    let level = if criteria.len() < CONVERGENCE {
        GhostLevel::None
    } else if people >= CONTRIBUTOR_GATE {
        GhostLevel::Likely
    } else {
        GhostLevel::Possible
    };
    Some(Ghost {
        level,
        criteria,
        criteria_total: CRITERIA_TOTAL,
        contributors: (people >= CONTRIBUTOR_GATE)
            .then(|| u32::try_from(people).unwrap_or(u32::MAX)),
        ats_checked_at: evidence.ats_absent_at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(id: i64) -> UserId {
        UserId::new(id).unwrap()
    }

    fn people(ids: &[i64]) -> BTreeSet<UserId> {
        ids.iter().map(|&i| user(i)).collect()
    }

    // The reference's expectations (§16.5).
    #[test]
    fn the_reference_cases() {
        let one = GhostEvidence { evergreen: true, ..GhostEvidence::default() };
        let g = ghost(&one, true).unwrap();
        assert_eq!(
            (g.level, g.criteria.clone()),
            (GhostLevel::None, vec![GhostCriterion::EvergreenPosting])
        );

        let two_one_person =
            GhostEvidence { evergreen: true, reporters: people(&[1]), ..GhostEvidence::default() };
        let g = ghost(&two_one_person, true).unwrap();
        assert_eq!(g.level, GhostLevel::Possible);
        assert_eq!(g.contributors, None, "withheld below two");

        let two_two_people = GhostEvidence {
            silent_applicants: people(&[1]),
            reporters: people(&[2]),
            ..GhostEvidence::default()
        };
        let g = ghost(&two_two_people, true).unwrap();
        assert_eq!(g.level, GhostLevel::Likely);
        assert_eq!(g.contributors, Some(2));
        assert_eq!(
            g.criteria,
            vec![GhostCriterion::SilentApplications, GhostCriterion::UserReports]
        );
        assert_eq!(g.criteria_total, 4);

        assert_eq!(ghost(&two_two_people, false), None, "a closed job carries no signal");
    }

    #[test]
    fn one_person_silent_and_reporting_is_one_contributor() {
        let same = GhostEvidence {
            silent_applicants: people(&[7]),
            reporters: people(&[7]),
            ..GhostEvidence::default()
        };
        let g = ghost(&same, true).unwrap();
        assert_eq!((g.level, g.contributors), (GhostLevel::Possible, None));
        // Two people behind one criterion say nothing.
        let one_criterion =
            GhostEvidence { reporters: people(&[1, 2, 3]), ..GhostEvidence::default() };
        assert_eq!(ghost(&one_criterion, true).unwrap().level, GhostLevel::None);
    }
}
