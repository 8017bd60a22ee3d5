//! [`ExperienceError`]: what the experience bank's service can fail with. Another user's
//! employment or atom is "not found", exactly like a missing one.

use freehire_domain::DomainError;
use freehire_domain::experience::MergeError;
use freehire_store::StoreError;

/// What an experience-bank operation can fail with.
#[derive(Debug, thiserror::Error)]
pub enum ExperienceError {
    /// The employment or atom does not exist, or is another user's.
    #[error("{0}")]
    NotFound(&'static str),
    /// A value breaks a rule; the message names the field.
    #[error(transparent)]
    Invalid(#[from] DomainError),
    /// The candidate asked that every new achievement carry its context.
    #[error(
        "context is required: the candidate asked that every achievement say what made it hard \
         or what it changed (experience_require_context is on)"
    )]
    ContextRequired,
    /// The two atoms cannot be merged.
    #[error(transparent)]
    Merge(#[from] MergeError),
    /// One of the atoms changed between the read and the merge.
    #[error("one of the two achievements changed since it was read; read them again and retry")]
    MergeConflict,
    /// The claim is already another atom's.
    #[error("that claim is already in the bank as another achievement")]
    ClaimTaken,
    /// Storage failed.
    #[error(transparent)]
    Store(StoreError),
}

impl From<StoreError> for ExperienceError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Invalid(d) => Self::Invalid(d),
            StoreError::Conflict { field: "claim" } => Self::ClaimTaken,
            other => Self::Store(other),
        }
    }
}
