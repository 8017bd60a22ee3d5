//! Application tracking's pure rules (reference §7.2, §15.5): which board column a stage
//! belongs to, the forward and terminal ranking, the silence thresholds, and the `applied_on`
//! window. The silence clock and the follow-up draft live in the `followup` module.

use chrono::{Duration, NaiveDate};

use crate::{DomainError, Stage, StageGroup};

/// How far back `applied_on` may go (reference §15.5: at most a year old).
pub const APPLIED_ON_MAX_AGE_DAYS: i64 = 366;

impl Stage {
    /// The board column the stage is shown in.
    pub const fn group(self) -> StageGroup {
        match self {
            Stage::Preparing => StageGroup::Preparing,
            Stage::Applied | Stage::Screening | Stage::Responded => StageGroup::Applied,
            Stage::Interview => StageGroup::Interview,
            Stage::Offer => StageGroup::Offer,
            Stage::Accepted | Stage::Rejected | Stage::Withdrawn | Stage::Expired => {
                StageGroup::Closed
            }
        }
    }

    /// The forward order of the pipeline: a move to a higher rank is progress. The terminal
    /// stages share the top rank (none of them is "further" than another).
    pub const fn rank(self) -> u8 {
        match self {
            Stage::Preparing => 0,
            Stage::Applied => 1,
            Stage::Screening => 2,
            Stage::Responded => 3,
            Stage::Interview => 4,
            Stage::Offer => 5,
            Stage::Accepted | Stage::Rejected | Stage::Withdrawn | Stage::Expired => 6,
        }
    }

    /// Whether the application is settled: nothing more is expected (no silence clock).
    pub const fn is_terminal(self) -> bool {
        matches!(self, Stage::Accepted | Stage::Rejected | Stage::Withdrawn | Stage::Expired)
    }

    /// Whether the stage counts as having applied (everything past `preparing`).
    pub const fn is_applied(self) -> bool {
        !matches!(self, Stage::Preparing)
    }

    /// The silence ladder (reference §7.3): the last tolerated day with no reply, counted from
    /// the last activity. `None` for settled stages. `preparing` has one (21) but it is
    /// unreachable: a preparing application has not been sent.
    pub const fn silence_threshold_days(self) -> Option<u32> {
        match self {
            Stage::Preparing | Stage::Applied => Some(21),
            Stage::Screening => Some(18),
            Stage::Responded => Some(15),
            Stage::Interview => Some(12),
            Stage::Offer => Some(5),
            Stage::Accepted | Stage::Rejected | Stage::Withdrawn | Stage::Expired => None,
        }
    }
}

impl StageGroup {
    /// The stages shown in this column, in pipeline order.
    pub const fn stages(self) -> &'static [Stage] {
        match self {
            StageGroup::Preparing => &[Stage::Preparing],
            StageGroup::Applied => &[Stage::Applied, Stage::Screening, Stage::Responded],
            StageGroup::Interview => &[Stage::Interview],
            StageGroup::Offer => &[Stage::Offer],
            StageGroup::Closed => {
                &[Stage::Accepted, Stage::Rejected, Stage::Withdrawn, Stage::Expired]
            }
        }
    }

    /// The column's heading.
    pub const fn label(self) -> &'static str {
        match self {
            StageGroup::Preparing => "Preparing",
            StageGroup::Applied => "Applied",
            StageGroup::Interview => "Interview",
            StageGroup::Offer => "Offer",
            StageGroup::Closed => "Closed",
        }
    }
}

impl Stage {
    /// The stage's label for people.
    pub const fn label(self) -> &'static str {
        match self {
            Stage::Preparing => "Preparing",
            Stage::Applied => "Applied",
            Stage::Screening => "Screening",
            Stage::Responded => "Responded",
            Stage::Interview => "Interview",
            Stage::Offer => "Offer",
            Stage::Accepted => "Accepted",
            Stage::Rejected => "Rejected",
            Stage::Withdrawn => "Withdrawn",
            Stage::Expired => "Expired",
        }
    }
}

/// Checks an `applied_on` date (reference §15.5): not after `today`, at most a year before it.
pub fn check_applied_on(applied_on: NaiveDate, today: NaiveDate) -> Result<NaiveDate, DomainError> {
    if applied_on > today {
        return Err(DomainError::Invalid {
            field: "applied_on",
            value: applied_on.to_string(),
            reason: "must not be in the future",
        });
    }
    if today - applied_on > Duration::days(APPLIED_ON_MAX_AGE_DAYS - 1) {
        return Err(DomainError::Invalid {
            field: "applied_on",
            value: applied_on.to_string(),
            reason: "must be at most one year ago",
        });
    }
    Ok(applied_on)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stage_is_in_exactly_its_group() {
        for stage in Stage::ALL {
            let holders: Vec<_> =
                StageGroup::ALL.iter().filter(|g| g.stages().contains(stage)).collect();
            assert_eq!(holders, vec![&stage.group()], "{stage}");
        }
        assert_eq!(Stage::ALL.len(), 10);
        assert_eq!(StageGroup::ALL.len(), 5);
    }

    #[test]
    fn ranks_move_forward_and_terminals_tie() {
        let forward = [
            Stage::Preparing,
            Stage::Applied,
            Stage::Screening,
            Stage::Responded,
            Stage::Interview,
            Stage::Offer,
        ];
        assert!(forward.windows(2).all(|w| w[0].rank() < w[1].rank()));
        for s in Stage::ALL.iter().filter(|s| s.is_terminal()) {
            assert_eq!(s.rank(), 6);
            assert_eq!(s.silence_threshold_days(), None);
        }
        assert_eq!(Stage::Offer.silence_threshold_days(), Some(5));
    }

    #[test]
    fn unknown_stage_names_the_allowed_set() {
        let err = Stage::parse("ghosted").unwrap_err().to_string();
        assert!(err.contains("stage") && err.contains("interview") && err.contains("ghosted"));
    }

    #[test]
    fn applied_on_window() {
        let today = NaiveDate::from_ymd_opt(2026, 12, 1).unwrap();
        assert!(check_applied_on(today, today).is_ok());
        assert!(check_applied_on(today.succ_opt().unwrap(), today).is_err());
        let year_ago = NaiveDate::from_ymd_opt(2025, 12, 1).unwrap();
        assert!(check_applied_on(year_ago, today).is_ok());
        assert!(check_applied_on(year_ago.pred_opt().unwrap(), today).is_err());
    }
}
