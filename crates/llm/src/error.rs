//! The one error type of the llm crate, and [`Cause`], the shared source it keeps.

use std::error::Error;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// Why a chat call failed. A variant that wraps a lower error keeps it as its
/// [`source`](Error::source) and does not repeat it in its own message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LlmError {
    /// The client could not be configured (bad base URL, bad header).
    #[error("llm: invalid configuration: {0}")]
    Config(String),
    /// The HTTP client itself could not be built.
    #[error("llm: the HTTP client could not be built")]
    Client(#[source] Cause),
    /// The request could not be sent or the connection failed before a response.
    #[error("llm: request failed")]
    Transport(#[source] Cause),
    /// The call's own (total) deadline passed.
    #[error("llm: no answer within {0:?}")]
    Timeout(Duration),
    /// A streamed answer stopped arriving: no chunk for this long after the previous one.
    #[error("llm: the answer stalled: no data for {0:?}")]
    Idle(Duration),
    /// HTTP 429 from the provider or gateway.
    #[error("llm: rate limited (HTTP 429): {message}")]
    RateLimited {
        /// The provider's message.
        message: String,
        /// The `Retry-After` delay, when given (in seconds or as an HTTP date).
        retry_after: Option<Duration>,
    },
    /// Any other non-success HTTP status.
    #[error("llm: HTTP {status}: {message}")]
    Status {
        /// The status code.
        status: u16,
        /// The provider's message, or the start of the body.
        message: String,
    },
    /// The body did not parse as the protocol says.
    #[error("llm: malformed response: {body}")]
    Malformed {
        /// Which part was malformed and the start of it (the first 300 characters).
        body: String,
        /// The parse error.
        #[source]
        source: Cause,
    },
    /// A streamed answer stopped before it was complete.
    #[error("llm: stream ended before the answer was complete: {reason}")]
    StreamCut {
        /// What was missing or what the provider said.
        reason: String,
        /// The transport error that cut the stream, when there was one.
        #[source]
        source: Option<Cause>,
    },
    /// The provider answered with zero choices.
    #[error("llm: model returned no choices")]
    NoChoices,
    /// A scripted failure (tests and demos).
    #[error("llm: {0}")]
    Scripted(String),
}

impl LlmError {
    /// A stream cut for `reason`, with no lower error behind it.
    pub fn stream_cut(reason: impl Into<String>) -> Self {
        Self::StreamCut { reason: reason.into(), source: None }
    }
}

/// A lower error kept as a source: shared, so the errors holding it stay `Clone`, and
/// compared by its message, so tests can compare whole errors. Its `Display` is the lower
/// error's own message and its `source` that error's source, so a chain prints each level
/// once.
#[derive(Clone)]
pub struct Cause(Arc<dyn Error + Send + Sync>);

impl Cause {
    /// Keeps `error` as a source.
    pub fn new(error: impl Error + Send + Sync + 'static) -> Self {
        Self(Arc::new(error))
    }
}

impl From<&str> for Cause {
    fn from(message: &str) -> Self {
        Self(Arc::from(Box::<dyn Error + Send + Sync>::from(message)))
    }
}

impl From<String> for Cause {
    fn from(message: String) -> Self {
        Self(Arc::from(Box::<dyn Error + Send + Sync>::from(message)))
    }
}

impl fmt::Debug for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

impl Error for Cause {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.0.source()
    }
}

impl PartialEq for Cause {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.to_string() == other.0.to_string()
    }
}

impl Eq for Cause {}
