//! The [`TranscriptStore`] port (reference §2.3): what the runner needs from storage.
//!
//! Every write is scoped: `touch` and `label` take the owner and silently do nothing for
//! anyone else. `append` assigns the next `seq` itself and retries when a concurrent writer
//! took it ([`AssistantError::SeqConflict`]), up to [`APPEND_ATTEMPTS`] attempts in total;
//! any other error stops at once.

use async_trait::async_trait;
use freehire_tools::Owner;

use crate::{AssistantError, Message, NewMessage, SessionId};

/// Attempts `append` makes in total when the sequence number is contested.
pub const APPEND_ATTEMPTS: usize = 3;

/// Storage for the transcripts of sessions owned by an `O` (the embedding service's owner
/// id; a store compares it, never interprets it).
#[async_trait]
pub trait TranscriptStore<O: Owner>: Send + Sync {
    /// Inserts `msg` with `seq = max(seq) + 1`; [`AssistantError::SeqConflict`] when another
    /// writer took that number first.
    async fn insert_next(
        &self,
        session: SessionId,
        msg: &NewMessage,
    ) -> Result<Message, AssistantError>;

    /// Appends `msg`, retrying a sequence conflict up to [`APPEND_ATTEMPTS`] attempts in total.
    async fn append(
        &self,
        session: SessionId,
        msg: &NewMessage,
    ) -> Result<Message, AssistantError> {
        let mut attempt = 1;
        loop {
            match self.insert_next(session, msg).await {
                Err(AssistantError::SeqConflict) if attempt < APPEND_ATTEMPTS => attempt += 1,
                other => return other,
            }
        }
    }

    /// The newest `limit` messages, ascending by `seq`.
    async fn recent(
        &self,
        session: SessionId,
        limit: usize,
    ) -> Result<Vec<Message>, AssistantError>;

    /// Every message, ascending by `seq`.
    async fn transcript(&self, session: SessionId) -> Result<Vec<Message>, AssistantError>;

    /// Marks the session as just used, when `owner` owns it.
    async fn touch(&self, session: SessionId, owner: &O) -> Result<(), AssistantError>;

    /// Sets the session's label when it has none and `owner` owns it; an empty label is "none".
    async fn label(&self, session: SessionId, owner: &O, label: &str)
    -> Result<(), AssistantError>;
}
