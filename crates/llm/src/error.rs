//! The one error type of the llm crate.

use std::time::Duration;

/// Why a chat call failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LlmError {
    /// The client could not be configured (bad base URL, bad header).
    #[error("llm: invalid configuration: {0}")]
    Config(String),
    /// The request could not be sent or the connection failed before a response.
    #[error("llm: request failed: {0}")]
    Transport(String),
    /// The call's own deadline passed.
    #[error("llm: no answer within {0:?}")]
    Timeout(Duration),
    /// HTTP 429 from the provider or gateway.
    #[error("llm: rate limited (HTTP 429): {message}")]
    RateLimited {
        /// The provider's message.
        message: String,
        /// The `Retry-After` delay, when given in seconds.
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
    #[error("llm: malformed response: {0}")]
    Malformed(String),
    /// A streamed answer stopped before it was complete.
    #[error("llm: stream ended before the answer was complete: {0}")]
    StreamCut(String),
    /// The provider answered with zero choices.
    #[error("llm: model returned no choices")]
    NoChoices,
    /// A scripted failure (tests and demos).
    #[error("llm: {0}")]
    Scripted(String),
}
