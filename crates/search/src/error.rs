//! The one error of the crate: a query the grammar refuses. Every variant names the parameter
//! (or the rule) so the HTTP layer can answer 400 with the message as it is. A value past a
//! length bound ([`SearchError::TooLong`]) is not quoted back: its size is.

use crate::page::MAX_WINDOW;

/// A query parameter the grammar refuses. Maps to HTTP 400; [`SearchError::param`] names the
/// parameter at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// A value outside a closed vocabulary.
    #[error("invalid {param} {value:?}: allowed values are {allowed}")]
    UnknownValue {
        /// The parameter as given (`seniority`, `seniority_exclude`, …).
        param: String,
        /// The offending value.
        value: String,
        /// The allowed values, comma-separated.
        allowed: String,
    },
    /// A value with the wrong shape (not an integer, negative offset, bad country code…).
    #[error("invalid {param} {value:?}: {reason}")]
    Invalid {
        /// The parameter as given.
        param: String,
        /// The offending value.
        value: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A value (or a list of values) past its length bound: `q` past its bytes or words, a
    /// value past [`MAX_VALUE_CHARS`](crate::MAX_VALUE_CHARS), a facet past
    /// [`MAX_VALUES`](crate::MAX_VALUES) values.
    #[error("{param} is too long: {actual} {unit} (at most {max})")]
    TooLong {
        /// The parameter as given.
        param: String,
        /// The size of what was sent.
        actual: usize,
        /// The bound.
        max: usize,
        /// What is counted: `bytes`, `words`, `characters` or `values`.
        unit: &'static str,
    },
    /// `offset + limit` reaches past the deepest page the engines serve.
    #[error("offset + limit must be at most {MAX_WINDOW} (offset {offset} + limit {limit})")]
    WindowTooDeep {
        /// The offset as sent (trimmed).
        offset: String,
        /// The requested limit (after clamping to 1..=100).
        limit: u32,
    },
    /// `facets=` and `disjunctive=true` were given together.
    #[error("facets cannot be combined with disjunctive=true")]
    FacetsWithDisjunctive,
}

impl SearchError {
    /// The parameter the error is about (`offset` for the window rule, `facets` for the
    /// disjunctive conflict).
    pub fn param(&self) -> &str {
        match self {
            Self::UnknownValue { param, .. }
            | Self::Invalid { param, .. }
            | Self::TooLong { param, .. } => param,
            Self::WindowTooDeep { .. } => "offset",
            Self::FacetsWithDisjunctive => "facets",
        }
    }

    pub(crate) fn invalid(param: &str, value: &str, reason: impl Into<String>) -> Self {
        Self::Invalid { param: param.to_owned(), value: value.to_owned(), reason: reason.into() }
    }

    pub(crate) fn unknown(param: &str, value: &str, allowed: impl Into<String>) -> Self {
        Self::UnknownValue {
            param: param.to_owned(),
            value: value.to_owned(),
            allowed: allowed.into(),
        }
    }

    pub(crate) fn too_long(param: &str, actual: usize, max: usize, unit: &'static str) -> Self {
        Self::TooLong { param: param.to_owned(), actual, max, unit }
    }

    /// Re-labels a domain parse error with the parameter it came from.
    pub(crate) fn from_domain(param: &str, err: freehire_domain::DomainError) -> Self {
        match err {
            freehire_domain::DomainError::UnknownValue { value, allowed, .. } => {
                Self::UnknownValue { param: param.to_owned(), value, allowed }
            }
            freehire_domain::DomainError::Invalid { value, reason, .. } => {
                Self::Invalid { param: param.to_owned(), value, reason: reason.to_owned() }
            }
        }
    }
}
