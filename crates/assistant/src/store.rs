//! The [`TranscriptStore`] port (reference §2.3): what the runner needs from storage.
//!
//! Every operation takes the session's owner. `insert_next`, `append`, `recent` and
//! `transcript` fail with [`AssistantError::NotFound`] when `owner` does not own the session
//! (a missing session and another owner's are indistinguishable), before anything is written;
//! `touch` and `label` silently do nothing for anyone else. `append` assigns the next `seq` itself and retries when a concurrent writer
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
    /// writer took that number first, [`AssistantError::NotFound`] when `owner` does not own
    /// the session.
    async fn insert_next(
        &self,
        session: SessionId,
        owner: &O,
        msg: &NewMessage,
    ) -> Result<Message, AssistantError>;

    /// Appends `msg`, retrying a sequence conflict up to [`APPEND_ATTEMPTS`] attempts in total.
    async fn append(
        &self,
        session: SessionId,
        owner: &O,
        msg: &NewMessage,
    ) -> Result<Message, AssistantError> {
        let mut attempt = 1;
        loop {
            match self.insert_next(session, owner, msg).await {
                Err(AssistantError::SeqConflict) if attempt < APPEND_ATTEMPTS => attempt += 1,
                other => return other,
            }
        }
    }

    /// The newest `limit` messages, ascending by `seq`; [`AssistantError::NotFound`] when
    /// `owner` does not own the session.
    async fn recent(
        &self,
        session: SessionId,
        owner: &O,
        limit: usize,
    ) -> Result<Vec<Message>, AssistantError>;

    /// Every message, ascending by `seq`; [`AssistantError::NotFound`] when `owner` does not
    /// own the session.
    async fn transcript(
        &self,
        session: SessionId,
        owner: &O,
    ) -> Result<Vec<Message>, AssistantError>;

    /// Marks the session as just used, when `owner` owns it.
    async fn touch(&self, session: SessionId, owner: &O) -> Result<(), AssistantError>;

    /// Sets the session's label when it has none and `owner` owns it; an empty label is "none".
    async fn label(&self, session: SessionId, owner: &O, label: &str)
    -> Result<(), AssistantError>;

    /// [`label`](Self::label) then [`touch`](Self::touch), after a prompt is stored; a store
    /// that can do both in one write overrides it (the database adapter: one commit instead
    /// of two per turn). Both are attempted; the first failure is returned.
    async fn label_and_touch(
        &self,
        session: SessionId,
        owner: &O,
        label: &str,
    ) -> Result<(), AssistantError> {
        let labelled = self.label(session, owner, label).await;
        self.touch(session, owner).await?;
        labelled
    }
}
