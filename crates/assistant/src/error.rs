//! The one error type of the assistant crate.

use freehire_llm::{Cause, LlmError};

/// Why a turn (or a store or registry operation) failed. A variant that wraps a lower error
/// keeps it as its source and does not repeat it in its own message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AssistantError {
    /// The session does not exist or belongs to someone else (indistinguishable on purpose).
    #[error("assistant: session not found")]
    NotFound,
    /// Another writer took the transcript's next sequence number; retried by
    /// [`TranscriptStore::append`](crate::TranscriptStore::append).
    #[error("assistant: transcript sequence number already taken")]
    SeqConflict,
    /// The transcript store failed (a store adapter wraps its own error with
    /// [`Cause::new`]; a plain message converts with `.into()`).
    #[error("assistant: transcript store failed")]
    Store(#[source] Cause),
    /// A transcript write or a read inside a turn did not finish within its deadline.
    #[error("assistant: the transcript store did not answer in time")]
    StoreTimeout,
    /// A write after the prompt failed (a tool result, an assistant message): the turn
    /// stopped right after it so nothing later depends on the lost message.
    #[error("{what} could not be saved; the turn stopped there — send another message to continue")]
    WriteLost {
        /// What was lost, e.g. "the result of tool search_jobs".
        what: String,
        /// Why the write failed.
        #[source]
        source: Box<AssistantError>,
    },
    /// A stored message could not be decoded.
    #[error("assistant: transcript message {seq} does not decode")]
    Transcript {
        /// The message's sequence number.
        seq: i32,
        /// What was wrong with it.
        #[source]
        source: Cause,
    },
    /// The model call failed.
    #[error(transparent)]
    Model(#[from] LlmError),
    /// `continue` was asked for a transcript that has no user message.
    #[error("assistant: nothing to continue")]
    NothingToContinue,
    /// A turn panicked; the panic was caught and the turn ended with an error result.
    #[error("assistant: turn crashed: {0}")]
    Panicked(String),
    /// A third message for a session that already has a turn running and one waiting.
    #[error("this session already has a message waiting")]
    QueueFull,
    /// A queued turn was cancelled (or gave up) before it could start.
    #[error("assistant: the queued turn was cancelled")]
    WaitCancelled,
}
