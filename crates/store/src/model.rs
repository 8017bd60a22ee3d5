//! Inputs and outputs of the repository operations.

use freehire_domain::{Job, JobId, Provider};

/// A job's identity at its source: the unique key `(source, external_id)`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct JobKey {
    /// The source.
    pub source: Provider,
    /// The id at the source (namespaced `<board>:<id>` for board-keyed providers).
    pub external_id: String,
}

/// What an upsert did to one posting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpsertOutcome {
    /// A new row.
    Inserted,
    /// An existing row whose content hash differed; its content was rewritten.
    Changed,
    /// An existing row with the same content hash; only `last_seen_at` moved (and it reopened).
    Unchanged,
}

/// The result for one posting of a batch upsert, in input order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Upserted {
    /// The row.
    pub id: JobId,
    /// What happened to it.
    pub outcome: UpsertOutcome,
    /// Whether the row was closed before this sighting (and is now open again).
    pub reopened: bool,
}

/// One item of a refresh-unchanged batch: the key plus the content hash the caller computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeenPosting {
    /// The job.
    pub key: JobKey,
    /// The content hash of the posting as just fetched.
    pub content_hash: String,
}

/// What a refresh did to one item, in input order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refreshed {
    /// Stored with the same hash and open: `last_seen_at` bumped.
    Touched(JobId),
    /// Stored with the same hash but closed: bumped and reopened.
    Reopened(JobId),
    /// Not stored, or stored with another hash: the caller must upsert it.
    Missed,
}

/// A page request for lists. Limits are clamped by [`ListPage::new`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListPage {
    limit: u32,
    offset: u64,
}

impl ListPage {
    /// The default page size.
    pub const DEFAULT_LIMIT: u32 = 20;
    /// The largest page size.
    pub const MAX_LIMIT: u32 = 100;
    /// The largest offset (the int32 range, as the reference clamps it).
    pub const MAX_OFFSET: u64 = i32::MAX as u64;

    /// A page of `limit` rows (clamped to 1..=100) starting at `offset` (clamped to the
    /// int32 range).
    pub fn new(limit: u32, offset: u64) -> Self {
        Self { limit: limit.clamp(1, Self::MAX_LIMIT), offset: offset.min(Self::MAX_OFFSET) }
    }

    /// Rows per page.
    pub fn limit(self) -> u32 {
        self.limit
    }

    /// Rows skipped.
    pub fn offset(self) -> u64 {
        self.offset
    }
}

impl Default for ListPage {
    fn default() -> Self {
        Self::new(Self::DEFAULT_LIMIT, 0)
    }
}

/// One page of jobs with the total of the whole list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobList {
    /// The rows of this page.
    pub jobs: Vec<Job>,
    /// Rows in the whole list.
    pub total: u64,
}

/// Filter for listing boards.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BoardFilter {
    /// Only this provider.
    pub provider: Option<Provider>,
    /// Only these statuses (empty = all).
    pub statuses: Vec<freehire_domain::BoardStatus>,
}

/// Result of adding a board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddedBoard {
    /// The board as stored (the existing one when it was a duplicate).
    pub board: freehire_domain::Board,
    /// False when an existing pending/active board with the same identity was found.
    pub created: bool,
}

/// Which backend a store talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// Embedded SQLite.
    Sqlite,
    /// PostgreSQL.
    Postgres,
}
