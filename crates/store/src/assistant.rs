//! The assistant's sessions and transcripts (reference §2, migration 0010): the shapes of
//! [`AssistantRepo`](crate::AssistantRepo), and [`Transcripts`], the
//! [`TranscriptStore`] the turn runner writes through, over any [`Store`].
//!
//! A session is owned by one account; every owner-scoped read or write puts the owner in its
//! `WHERE` clause, so another user's session is exactly like one that does not exist. A
//! message's `seq` is computed by its insert (`coalesce(max(seq), 0) + 1` of the owner's
//! session); two writers that computed the same number collide on the primary key, which the
//! port reports as [`StoreError::Conflict`](crate::StoreError::Conflict) on `seq` and
//! [`Transcripts`] as [`AssistantError::SeqConflict`] (retried by
//! [`TranscriptStore::append`]). Content goes in and comes out as JSON text, never parsed
//! here: SQLite returns the very bytes written, PostgreSQL (`jsonb`) its normal form of them.
//!
//! The turn leases of [`TurnLeaseRepo`](crate::TurnLeaseRepo) (one running turn per session
//! across API processes, its one queue place and the cancel generation) are in the same
//! migration; their semantics are on the trait.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_assistant::{AssistantError, Message, NewMessage, SessionId, TranscriptStore};
use freehire_domain::{JobId, UserId};

use crate::{Store, StoreError};

/// The presets a session may be created with (the `assistant_sessions_preset_check`
/// vocabulary, reference §2.1).
pub const SESSION_PRESETS: [&str; 6] =
    ["chat", "tailor", "profile", "browse", "interview", "debrief"];

/// The presets the session rail lists
/// ([`AssistantRepo::chat_sessions`](crate::AssistantRepo::chat_sessions)): tailoring and
/// browsing conversations are reached from their CV and page, not the rail.
pub const RAIL_PRESETS: [&str; 4] = ["chat", "profile", "interview", "debrief"];

/// A stored assistant session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssistantSession {
    /// Random, never sequential.
    pub id: SessionId,
    /// The account that owns it.
    pub owner: UserId,
    /// One of [`SESSION_PRESETS`] (the database refuses anything else).
    pub preset: String,
    /// The label (the first message's text, cut by the caller); `None` until set.
    pub label: Option<String>,
    /// The CV copy a tailoring session edits; nulled when the CV is deleted.
    pub cv_id: Option<freehire_domain::CvId>,
    /// The job the session is about; nulled when the job row is deleted.
    pub job_id: Option<JobId>,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// When it was last used (a turn touches it).
    pub updated_at: DateTime<Utc>,
}

/// A session to create.
#[derive(Debug, Clone, Copy)]
pub struct NewSession<'a> {
    /// Its owner.
    pub owner: UserId,
    /// One of [`SESSION_PRESETS`]; another value is refused by the database's CHECK.
    pub preset: &'a str,
    /// A label to start with (`None` or empty: none).
    pub label: Option<&'a str>,
    /// The bound CV.
    pub cv_id: Option<freehire_domain::CvId>,
    /// The bound job.
    pub job_id: Option<JobId>,
}

/// [`TranscriptStore<UserId>`] over any [`Store`]: message times come from `clock`, store
/// failures become [`AssistantError::Store`] with the [`StoreError`] as their source.
#[derive(Clone)]
pub struct Transcripts {
    store: Arc<dyn Store>,
    clock: fn() -> DateTime<Utc>,
}

impl std::fmt::Debug for Transcripts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Transcripts").field("backend", &self.store.backend()).finish()
    }
}

impl Transcripts {
    /// Transcripts in `store`, stamped by `clock`.
    pub fn new(store: Arc<dyn Store>, clock: fn() -> DateTime<Utc>) -> Self {
        Self { store, clock }
    }
}

/// A store failure as the runner's error.
fn failed(e: StoreError) -> AssistantError {
    AssistantError::Store(freehire_llm::Cause::new(e))
}

#[async_trait]
impl TranscriptStore<UserId> for Transcripts {
    async fn insert_next(
        &self,
        session: SessionId,
        owner: &UserId,
        msg: &NewMessage,
    ) -> Result<Message, AssistantError> {
        match self.store.insert_message(session, *owner, msg, (self.clock)()).await {
            Ok(Some(message)) => Ok(message),
            Ok(None) => Err(AssistantError::NotFound),
            Err(StoreError::Conflict { field: "seq" }) => Err(AssistantError::SeqConflict),
            Err(e) => Err(failed(e)),
        }
    }

    async fn recent(
        &self,
        session: SessionId,
        owner: &UserId,
        limit: usize,
    ) -> Result<Vec<Message>, AssistantError> {
        let limit = u32::try_from(limit).unwrap_or(u32::MAX);
        self.store
            .session_messages(session, *owner, Some(limit))
            .await
            .map_err(failed)?
            .ok_or(AssistantError::NotFound)
    }

    async fn transcript(
        &self,
        session: SessionId,
        owner: &UserId,
    ) -> Result<Vec<Message>, AssistantError> {
        self.store
            .session_messages(session, *owner, None)
            .await
            .map_err(failed)?
            .ok_or(AssistantError::NotFound)
    }

    async fn touch(&self, session: SessionId, owner: &UserId) -> Result<(), AssistantError> {
        self.store.touch_session(session, *owner, (self.clock)()).await.map_err(failed)?;
        Ok(())
    }

    async fn label_and_touch(
        &self,
        session: SessionId,
        owner: &UserId,
        label: &str,
    ) -> Result<(), AssistantError> {
        self.store
            .label_and_touch_session(session, *owner, label, (self.clock)())
            .await
            .map_err(failed)?;
        Ok(())
    }

    async fn label(
        &self,
        session: SessionId,
        owner: &UserId,
        label: &str,
    ) -> Result<(), AssistantError> {
        self.store.set_session_label(session, *owner, label).await.map_err(failed)
    }
}
