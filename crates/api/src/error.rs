//! [`ApiError`]: the one error type of the HTTP layer and its mapping to status codes.
//!
//! Every error body is `{"error": "message"}`. Internal errors are logged with their cause and
//! answered with a generic message: causes never leak to clients.

use axum::{
    Json,
    http::StatusCode,
    response::{IntoResponse, Response},
};
use freehire_store::StoreError;

/// What a handler can fail with.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// A request parameter is malformed; the message names it.
    #[error("{0}")]
    BadRequest(String),
    /// The addressed resource does not exist (or is not the caller's).
    #[error("{0}")]
    NotFound(&'static str),
    /// A dependency is down; the message says which.
    #[error("{0}")]
    Unavailable(&'static str),
    /// Anything else: logged, answered with a generic 500.
    #[error("internal error")]
    Internal(#[source] Box<dyn std::error::Error + Send + Sync>),
}

impl ApiError {
    /// A 400 naming the parameter and what is wrong with it.
    pub fn bad_param(name: &str, value: &str, rule: &str) -> Self {
        Self::BadRequest(format!("invalid {name} {value:?}: {rule}"))
    }

    /// The status code this error maps to.
    pub fn status(&self) -> StatusCode {
        match self {
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            // Validation failures are the caller's; an outage is a 503 (retry later); everything
            // else is ours.
            StoreError::Invalid(d) => Self::BadRequest(d.to_string()),
            e @ StoreError::Unavailable { .. } => {
                tracing::warn!(error = %Chain(&e), "database unavailable");
                Self::Unavailable("database unavailable")
            }
            other => Self::Internal(Box::new(other)),
        }
    }
}

/// `error: source: source…` for the log line.
struct Chain<'a>(&'a (dyn std::error::Error + 'static));

impl std::fmt::Display for Chain<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)?;
        let mut next = self.0.source();
        while let Some(e) = next {
            write!(f, ": {e}")?;
            next = e.source();
        }
        Ok(())
    }
}

/// The error body.
#[derive(Debug, serde::Serialize)]
pub struct ErrorBody {
    /// Human-readable message.
    pub error: String,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        if let Self::Internal(cause) = &self {
            tracing::error!(error = %cause, "internal error");
        }
        (status, Json(ErrorBody { error: self.to_string() })).into_response()
    }
}
