//! The one error type of the domain crate: a value that failed to parse at the edge.

/// A value rejected while parsing it into a domain type.
///
/// Every variant names the field (or vocabulary) and the offending value, so the message can
/// be shown to a user or a model as it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DomainError {
    /// A vocabulary value outside the allowed set.
    #[error("invalid {field} {value:?}: allowed values are {allowed}")]
    UnknownValue {
        /// The vocabulary's name, e.g. `work_mode`.
        field: &'static str,
        /// The value that was given.
        value: String,
        /// The allowed values, comma-separated.
        allowed: String,
    },
    /// A value with the wrong shape (empty, too long, bad characters…).
    #[error("invalid {field} {value:?}: {reason}")]
    Invalid {
        /// The field's name, e.g. `provider`.
        field: &'static str,
        /// The value that was given.
        value: String,
        /// What was wrong with it.
        reason: &'static str,
    },
}

impl DomainError {
    pub(crate) fn invalid(
        field: &'static str,
        value: impl Into<String>,
        reason: &'static str,
    ) -> Self {
        Self::Invalid { field, value: value.into(), reason }
    }
}
