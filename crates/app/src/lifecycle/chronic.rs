//! The chronic-board close (reference §3.8, our rule): a live board failing since its last
//! success more than [`CHRONIC_AFTER`] ago has its open postings closed `board_failing`, so
//! a board that broke for good leaves no dead links. Its next successful crawl reopens them
//! (the upsert reopens what it sees again).

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, Utc};
use freehire_domain::{BoardHealth, BoardKey, BoardStatus, ClosedReason, Provider};
use freehire_store::{Store, UnseenScope};

use crate::{
    AppError,
    boards::{BoardListing, list_with_health},
};

/// A board failing this long after its last success (or its first crawl) is chronic.
pub const CHRONIC_AFTER: Duration = Duration::days(7);

/// What a chronic close did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChronicClose {
    /// The chronic boards.
    pub boards: Vec<BoardKey>,
    /// Postings closed.
    pub closed: u64,
}

/// Whether a board with health `h` is chronically failing at `now`: failing since its last
/// success, which (or, never having succeeded, its first crawl) is over [`CHRONIC_AFTER`] old.
pub fn is_chronic(h: &BoardHealth, now: DateTime<Utc>) -> bool {
    h.consecutive_failures > 0 && h.last_success_at.unwrap_or(h.first_seen_at) < now - CHRONIC_AFTER
}

/// Closes the open postings of every chronically failing live board.
pub async fn close_chronic_boards(
    store: &dyn Store,
    now: DateTime<Utc>,
) -> Result<ChronicClose, AppError> {
    let failing =
        list_with_health(store, &BoardListing { provider: None, failing_only: true }).await?;
    let mut by_provider: BTreeMap<Provider, Vec<String>> = BTreeMap::new();
    let mut report = ChronicClose::default();
    for row in failing {
        let live = matches!(row.board.status, BoardStatus::Pending | BoardStatus::Active);
        if live && row.health.as_ref().is_some_and(|h| is_chronic(h, now)) {
            by_provider
                .entry(row.board.key.provider.clone())
                .or_default()
                .push(row.board.key.external_id_prefix());
            report.boards.push(row.board.key);
        }
    }
    for (source, board_prefixes) in by_provider {
        let scope = UnseenScope { source, board_prefixes, last_seen_before: now };
        report.closed +=
            store.close_unseen(&scope, ClosedReason::BoardFailing, now).await?.len() as u64;
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;
    use freehire_domain::Provider;

    use super::*;

    fn health(
        failures: u32,
        last_success_days_ago: Option<i64>,
        now: DateTime<Utc>,
    ) -> BoardHealth {
        BoardHealth {
            key: BoardKey::new(Provider::parse("lever").unwrap(), "acme", "").unwrap(),
            consecutive_failures: failures,
            cooldown_until: None,
            last_error: None,
            last_error_class: None,
            last_error_at: None,
            last_success_at: last_success_days_ago.map(|d| now - Duration::days(d)),
            last_ingested_count: 0,
            last_run_at: None,
            first_seen_at: now - Duration::days(30),
            last_yield_at: None,
        }
    }

    #[test]
    fn chronic_means_failing_for_over_a_week() {
        let now = Utc.with_ymd_and_hms(2026, 11, 20, 12, 0, 0).unwrap();
        assert!(is_chronic(&health(3, Some(8), now), now));
        assert!(!is_chronic(&health(3, Some(6), now), now), "six days is not a week");
        assert!(!is_chronic(&health(0, Some(30), now), now), "healthy, however old");
        assert!(is_chronic(&health(1, None, now), now), "never succeeded in 30 days");
    }
}
