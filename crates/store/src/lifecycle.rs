//! The lifecycle beyond a crawl ([`LifecycleRepo`](crate::LifecycleRepo), migration 0022): the
//! liveness probe's candidates and reads (open postings that no live board watches), and the
//! prune of long-closed jobs into `pruned_jobs`.

use freehire_domain::JobId;

use crate::JobKey;

/// What one liveness read of a posting's page found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LivenessRead {
    /// The page still shows the vacancy: strikes reset.
    Alive,
    /// The page says the vacancy is gone (404/410, a "position filled" notice, an empty
    /// page, a redirect to an error or listing page): one strike.
    Expired,
    /// The page could not be read (network, 5xx, refused): no strike either way.
    Unknown,
}

impl LivenessRead {
    /// The stored form.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Alive => "alive",
            Self::Expired => "expired",
            Self::Unknown => "unknown",
        }
    }
}

/// An open posting the liveness probe reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LivenessCandidate {
    /// The job.
    pub id: JobId,
    /// Its source and external id (what closing it takes).
    pub key: JobKey,
    /// The page read.
    pub url: String,
    /// Consecutive expired reads so far.
    pub strikes: u32,
}

/// A job a prune removed (or would remove, in a dry run).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrunedJob {
    /// Its id (applications keep addressing it by their own snapshot).
    pub id: JobId,
    /// Its source.
    pub source: String,
    /// Its id at the source.
    pub external_id: String,
    /// Its title.
    pub title: String,
    /// Its company's slug.
    pub company_slug: String,
}

/// A job's role cluster history ([`LifecycleRepo::role_history`](crate::LifecycleRepo)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoleHistory {
    /// The job.
    pub id: JobId,
    /// Postings of its role at its company ever seen, open or closed, itself included.
    pub postings: u32,
    /// Those open now.
    pub open: u32,
}
