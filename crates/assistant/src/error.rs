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

impl AssistantError {
    /// What the person who sent the turn is told when it fails (the `message` of the error
    /// `result` event): what went wrong in their terms, never an internal cause. A provider's
    /// own error text, a database error or a panic message stay in the logs (the runner logs
    /// the whole chain); the HTTP status of a model failure is kept because it tells an
    /// operator which way to look.
    pub fn public_message(&self) -> String {
        match self {
            Self::NotFound => "session not found".to_owned(),
            Self::SeqConflict | Self::Store(_) | Self::StoreTimeout | Self::Transcript { .. } => {
                "the conversation could not be read or saved; try again in a moment".to_owned()
            }
            Self::WriteLost { .. } | Self::QueueFull => self.to_string(),
            Self::Model(e) => model_message(e),
            Self::NothingToContinue => "nothing to continue — send a message first".to_owned(),
            Self::Panicked(_) => "the turn crashed; send another message to continue".to_owned(),
            Self::WaitCancelled => "the queued message was cancelled".to_owned(),
        }
    }
}

fn model_message(e: &LlmError) -> String {
    match e {
        LlmError::RateLimited { .. } => {
            "the model is rate limited (HTTP 429); try again shortly".to_owned()
        }
        LlmError::Status { status, .. } => format!("the model answered with HTTP {status}"),
        LlmError::Timeout(_) | LlmError::Idle(_) => "the model did not answer in time".to_owned(),
        LlmError::Transport(_) => "the model could not be reached".to_owned(),
        LlmError::Malformed { .. } => "the model's answer could not be read".to_owned(),
        LlmError::StreamCut { .. } => "the model's answer was cut off".to_owned(),
        LlmError::NoChoices => "the model returned no answer".to_owned(),
        LlmError::Config(_) | LlmError::Client(_) => {
            "the model is not configured correctly".to_owned()
        }
        // Scripted failures are the tests' and demos' own words.
        LlmError::Scripted(_) => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // scenario: A provider's error text stays in the logs
    #[test]
    fn public_messages_never_carry_the_internal_cause() {
        let provider = AssistantError::Model(LlmError::Status {
            status: 500,
            message: "upstream pg: password authentication failed for user admin".into(),
        });
        assert_eq!(provider.public_message(), "the model answered with HTTP 500");
        let store = AssistantError::Store("relation assistant_messages does not exist".into());
        assert!(!store.public_message().contains("relation"));
        let panic = AssistantError::Panicked("index out of bounds at src/x.rs:3".into());
        assert!(!panic.public_message().contains("src/x.rs"));
        assert_eq!(AssistantError::NotFound.public_message(), "session not found");
        let lost = AssistantError::WriteLost {
            what: "the result of tool echo".into(),
            source: Box::new(AssistantError::StoreTimeout),
        };
        assert!(lost.public_message().starts_with("the result of tool echo could not be saved"));
    }
}
