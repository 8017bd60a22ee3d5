//! Boards (a company's listing on one provider) and their runtime health.

use chrono::{DateTime, Duration, Utc};

use crate::{BoardId, BoardKey, BoardStatus, FailureClass};

/// Consecutive failures below which a board is never cooled down.
pub const COOLDOWN_THRESHOLD: u32 = 3;
/// Cooldown after [`COOLDOWN_THRESHOLD`] failures; doubles with each further failure.
pub const COOLDOWN_BASE: Duration = Duration::hours(6);
/// Longest cooldown.
pub const COOLDOWN_CAP: Duration = Duration::hours(24);

/// A curated board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    /// Internal id.
    pub id: BoardId,
    /// Provider, board and region.
    pub key: BoardKey,
    /// The company's display name.
    pub company: String,
    /// The board's public careers URL, if known.
    pub url: Option<String>,
    /// Curation status.
    pub status: BoardStatus,
    /// Why it was rejected, for `rejected` boards.
    pub rejected_reason: Option<String>,
    /// When it was added.
    pub created_at: DateTime<Utc>,
    /// When it first crawled successfully.
    pub activated_at: Option<DateTime<Utc>>,
}

/// A board to add.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewBoard {
    /// Provider, board and region.
    pub key: BoardKey,
    /// The company's display name.
    pub company: String,
    /// The public careers URL, if known.
    pub url: Option<String>,
    /// `active` for curated adds, `pending` for contributions.
    pub status: BoardStatus,
}

/// Runtime crawl state of a board (`board_health`). Holds no curation data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardHealth {
    /// The board.
    pub key: BoardKey,
    /// Failures since the last success.
    pub consecutive_failures: u32,
    /// Not crawled before this instant.
    pub cooldown_until: Option<DateTime<Utc>>,
    /// The last board-level error.
    pub last_error: Option<String>,
    /// What kind of failure it was (rows written before classes were kept have none).
    pub last_error_class: Option<FailureClass>,
    /// When it happened.
    pub last_error_at: Option<DateTime<Utc>>,
    /// The last successful crawl.
    pub last_success_at: Option<DateTime<Utc>>,
    /// Postings named by the last successful crawl.
    pub last_ingested_count: i64,
    /// The last crawl attempt, successful or not.
    pub last_run_at: Option<DateTime<Utc>>,
    /// The first crawl attempt.
    pub first_seen_at: DateTime<Utc>,
    /// The last successful crawl that named at least one posting.
    pub last_yield_at: Option<DateTime<Utc>>,
}

impl BoardHealth {
    /// The end of the last error, at most `max` characters, marked `…` when cut: an error chain
    /// ends with its root cause (`Connection refused`, `HTTP 503`, `missing field …`), the part
    /// a table cell has room for.
    pub fn error_tail(&self, max: usize) -> Option<String> {
        self.last_error.as_deref().map(|text| tail(text, max))
    }

    /// Whether the board is cooling down at `now`.
    pub fn is_cooling(&self, now: DateTime<Utc>) -> bool {
        self.cooldown_until.is_some_and(|until| until > now)
    }
}

fn tail(text: &str, max: usize) -> String {
    let chars = text.chars().count();
    if chars <= max {
        return text.to_owned();
    }
    let start = text.char_indices().nth(chars - max).map_or(0, |(at, _)| at);
    format!("…{}", &text[start..])
}

/// `CooldownFor(failures)`: none below 3 consecutive failures, then 6 h × 2^(failures − 3),
/// capped at 24 h.
pub fn cooldown_for(consecutive_failures: u32) -> Option<Duration> {
    if consecutive_failures < COOLDOWN_THRESHOLD {
        return None;
    }
    let doublings = (consecutive_failures - COOLDOWN_THRESHOLD).min(8);
    let factor = 1i64 << doublings;
    Some((COOLDOWN_BASE * factor as i32).min(COOLDOWN_CAP))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_error_tail_keeps_the_root_cause() {
        assert_eq!(tail("HTTP 503", 90), "HTTP 503");
        let chain =
            "GET https://api.example/jobs: network error: tcp connect error: Connection refused";
        assert_eq!(tail(chain, 18), "…Connection refused");
        assert_eq!(tail("ééééé", 2), "…éé", "cut on a character boundary");
    }

    #[test]
    fn cooldown_schedule() {
        assert_eq!(cooldown_for(0), None);
        assert_eq!(cooldown_for(2), None);
        assert_eq!(cooldown_for(3), Some(Duration::hours(6)));
        assert_eq!(cooldown_for(4), Some(Duration::hours(12)));
        assert_eq!(cooldown_for(5), Some(Duration::hours(24)));
        assert_eq!(cooldown_for(6), Some(Duration::hours(24)));
        assert_eq!(cooldown_for(u32::MAX), Some(Duration::hours(24)));
    }
}
