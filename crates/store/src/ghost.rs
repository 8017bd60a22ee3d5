//! Ghost reports and the ghost signal's inputs ([`GhostRepo`](crate::GhostRepo), migration
//! 0024).

use chrono::{DateTime, Utc};
use freehire_domain::{Stage, UserId};

/// One application to a job, as the silence clock reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ApplicantClock {
    /// The applicant.
    pub user: UserId,
    /// Its stage (`None`: applied, no stage recorded).
    pub stage: Option<Stage>,
    /// When they applied.
    pub applied_at: DateTime<Utc>,
}

/// What the ghost signal of a job is read from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GhostInputs {
    /// Its applications with an applied date.
    pub applications: Vec<ApplicantClock>,
    /// The users with a live report on it.
    pub reporters: Vec<UserId>,
}
