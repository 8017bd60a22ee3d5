//! [`ClientError`]: what can go wrong talking to the API, each with a message a person can act on.

/// A failed call.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The base URL is not an absolute http(s) URL.
    #[error("invalid API URL {url:?}: {reason}")]
    BadUrl {
        /// What was given.
        url: String,
        /// Why it was refused.
        reason: &'static str,
    },
    /// The server could not be reached or the connection broke.
    #[error("cannot reach the API at {url}")]
    Unreachable {
        /// The request's URL.
        url: String,
        /// The transport's error.
        #[source]
        source: reqwest::Error,
    },
    /// The server refused the request with its JSON error body.
    #[error("{message} ({status}{}{})", code.as_deref().map(|c| format!(", {c}")).unwrap_or_default(), param.as_deref().map(|p| format!(", field {p}")).unwrap_or_default())]
    Refused {
        /// The HTTP status.
        status: u16,
        /// The machine code (`invalid_parameter`, `not_found`, …), when the body had one.
        code: Option<String>,
        /// The server's message (or the status line when the body was not JSON).
        message: String,
        /// The request parameter at fault, when the server named one.
        param: Option<String>,
        /// A 402 `quota_exceeded`'s standing: used, limit and when it resets.
        allowance: Option<Box<crate::wire::Allowance>>,
    },
    /// The MCP bridge could not connect to the server's `/mcp`, or its own transport failed.
    #[error("MCP with {url}: {message}")]
    Mcp {
        /// The MCP endpoint (or `stdio`).
        url: String,
        /// What went wrong.
        message: String,
    },
    /// The server answered 2xx with a body this client cannot read.
    #[error("unexpected answer from {url}: {reason}")]
    Unexpected {
        /// The request's URL.
        url: String,
        /// What was wrong with it.
        reason: String,
    },
}

impl ClientError {
    /// The standing of a refusal for a spent allowance (402 `quota_exceeded`).
    pub fn allowance(&self) -> Option<&crate::wire::Allowance> {
        match self {
            ClientError::Refused { allowance, .. } => allowance.as_deref(),
            _ => None,
        }
    }

    /// The HTTP status of a refusal.
    pub fn status(&self) -> Option<u16> {
        match self {
            ClientError::Refused { status, .. } => Some(*status),
            _ => None,
        }
    }
}
