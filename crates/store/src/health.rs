//! The board-health transitions, computed in Rust so both adapters record exactly the same
//! state (each adapter reads the row, applies one of these, and writes it back in one
//! transaction).

use crate::plan::cut_error;
use chrono::{DateTime, SubsecRound, Utc};
use freehire_domain::{BoardHealth, BoardKey, FailureClass, cooldown_for};

/// Health rows are keyed by board identity: the board folded to lowercase.
pub(crate) fn health_key(key: &BoardKey) -> BoardKey {
    BoardKey { board: key.board.to_ascii_lowercase(), ..key.clone() }
}

fn fresh(key: &BoardKey, at: DateTime<Utc>) -> BoardHealth {
    BoardHealth {
        key: health_key(key),
        consecutive_failures: 0,
        cooldown_until: None,
        last_error: None,
        last_error_class: None,
        last_error_at: None,
        last_success_at: None,
        last_ingested_count: 0,
        last_run_at: None,
        first_seen_at: at,
        last_yield_at: None,
    }
}

/// Success heals the board: failures and cooldown reset; success, run and (when the listing
/// named anything) yield are stamped.
pub(crate) fn on_success(
    prev: Option<BoardHealth>,
    key: &BoardKey,
    ingested: u64,
    at: DateTime<Utc>,
) -> BoardHealth {
    // Both databases keep microseconds; so does what we return.
    let at = at.trunc_subsecs(6);
    let mut h = prev.unwrap_or_else(|| fresh(key, at));
    h.consecutive_failures = 0;
    h.cooldown_until = None;
    h.last_success_at = Some(at);
    h.last_ingested_count = i64::try_from(ingested).unwrap_or(i64::MAX);
    h.last_run_at = Some(at);
    if ingested > 0 {
        h.last_yield_at = Some(at);
    }
    h
}

/// A board-level failure: failures increment; the cooldown follows the schedule.
pub(crate) fn on_failure(
    prev: Option<BoardHealth>,
    key: &BoardKey,
    class: FailureClass,
    error: &str,
    at: DateTime<Utc>,
) -> BoardHealth {
    // Both databases keep microseconds; so does what we return.
    let at = at.trunc_subsecs(6);
    let mut h = prev.unwrap_or_else(|| fresh(key, at));
    h.consecutive_failures = h.consecutive_failures.saturating_add(1);
    h.cooldown_until = cooldown_for(h.consecutive_failures).map(|d| at + d);
    h.last_error = Some(cut_error(error).to_owned());
    h.last_error_class = Some(class);
    h.last_error_at = Some(at);
    h.last_run_at = Some(at);
    h
}
