//! [`TrackingError`]: what the tracking service can fail with. A value the caller sent that
//! breaks a rule names its field; storage failures keep their cause.

use freehire_domain::DomainError;
use freehire_store::StoreError;

/// What a tracking operation can fail with.
#[derive(Debug, thiserror::Error)]
pub enum TrackingError {
    /// The job, or the user's application, does not exist (or is another user's).
    #[error("{0}")]
    NotFound(&'static str),
    /// A request value breaks a rule; `field` names it.
    #[error("invalid {field}: {message}")]
    Invalid {
        /// The field at fault (`stage`, `applied_on`, `body`, `limit`, …).
        field: &'static str,
        /// What is wrong with it.
        message: String,
    },
    /// A follow-up draft was asked for an application that is not silent.
    #[error("the application is not silent: a follow-up is not due yet (or it is settled)")]
    NotSilent,
    /// A domain value failed validation.
    #[error(transparent)]
    Domain(#[from] DomainError),
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl TrackingError {
    /// An invalid `field`.
    pub fn invalid(field: &'static str, message: impl Into<String>) -> Self {
        Self::Invalid { field, message: message.into() }
    }
}
