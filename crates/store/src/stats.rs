//! The operators' figures ([`StatsRepo`](crate::StatsRepo)): the ingest fleet's health per
//! provider ([`FleetStatus`]), the catalogue's scale ([`CatalogCounts`]) and the daily rollups
//! the worker writes ([`DailyStats`]).

use chrono::{DateTime, NaiveDate, Utc};
use freehire_domain::{BoardHealth, FailureClass};

/// The ingest fleet now: when a job was last added, and each provider's boards.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FleetStatus {
    /// The newest job's first sighting; `None` for an empty catalogue.
    pub last_job_added_at: Option<DateTime<Utc>>,
    /// One row per provider with a live (pending or active) board or an open job, by name.
    pub providers: Vec<ProviderStatus>,
}

/// One provider's boards and open jobs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderStatus {
    /// The provider (`greenhouse`, …).
    pub provider: String,
    /// Live boards (pending or active).
    pub boards: u64,
    /// Boards whose last crawl succeeded.
    pub healthy: u64,
    /// Boards failing since their last success.
    pub failing: u64,
    /// Boards in a cooldown now.
    pub cooling: u64,
    /// Boards never crawled yet.
    pub never_crawled: u64,
    /// The provider's last successful crawl of any board.
    pub last_success_at: Option<DateTime<Utc>>,
    /// Its open, non-duplicate jobs.
    pub open_jobs: u64,
    /// Its newest job's first sighting.
    pub last_job_added_at: Option<DateTime<Utc>>,
}

/// The catalogue's scale, counted exactly.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CatalogCounts {
    /// Open, non-duplicate jobs.
    pub open_jobs: u64,
    /// Open jobs marked as copies of another.
    pub duplicates: u64,
    /// Companies with an open job.
    pub companies: u64,
    /// Providers with an open job.
    pub providers: u64,
    /// Live boards (pending or active).
    pub boards: u64,
}

/// What the worker records of the fleet for a day ([`crate::StatsRepo::record_daily`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayVerdict {
    /// The fleet's verdict (`ok`, `degraded`, `down`, `empty`).
    pub verdict: String,
    /// Live boards.
    pub boards: u64,
    /// Failing boards.
    pub failing: u64,
}

/// One search outbox's backlog: rows waiting for the drain and the oldest one's age.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OutboxDepth {
    /// Rows waiting.
    pub rows: u64,
    /// The oldest waiting row's creation.
    pub oldest: Option<DateTime<Utc>>,
}

/// One UTC day of the catalogue, as the worker's rollup wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DailyStats {
    /// The day.
    pub day: NaiveDate,
    /// Jobs first seen that day.
    pub added: u64,
    /// Jobs closed that day.
    pub removed: u64,
    /// Open, non-duplicate jobs when it was computed.
    pub open_jobs: u64,
    /// The fleet's verdict when it was computed, if recorded.
    pub verdict: Option<String>,
    /// When it was computed.
    pub computed_at: DateTime<Utc>,
}

/// The live boards failing since their last success
/// ([`BoardHealthRepo::failing_boards`](crate::BoardHealthRepo::failing_boards)).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FailingBoards {
    /// The worst boards of each provider, by provider, then most consecutive failures.
    pub boards: Vec<FailingBoard>,
    /// Every failing board counted per provider and class (a row written before classes were
    /// kept counts as `other`), by provider, then most boards first.
    pub classes: Vec<ClassCount>,
}

/// One failing board: its listing's spelling and company beside its health.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailingBoard {
    /// The board as curated (its health key is folded to lowercase).
    pub board: String,
    /// The company's display name.
    pub company: String,
    /// Its health row.
    pub health: BoardHealth,
}

/// How many of a provider's failing boards last failed with `class`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassCount {
    /// The provider.
    pub provider: String,
    /// The class of their last failure.
    pub class: FailureClass,
    /// Boards.
    pub boards: u64,
}
