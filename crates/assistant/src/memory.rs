//! [`MemoryStore`]: the in-process [`TranscriptStore`], for tests, demos and services that do
//! not need transcripts to outlive the process.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use async_trait::async_trait;
use freehire_tools::Owner;

use crate::{AssistantError, Message, NewMessage, SessionId, TranscriptStore};

#[derive(Debug)]
struct Record<O> {
    owner: O,
    label: Option<String>,
    touches: u64,
    messages: Vec<Message>,
}

/// Sessions and transcripts in memory, owned by `O`s compared with `==`.
#[derive(Debug)]
pub struct MemoryStore<O> {
    sessions: Mutex<HashMap<SessionId, Record<O>>>,
}

impl<O> Default for MemoryStore<O> {
    fn default() -> Self {
        Self { sessions: Mutex::new(HashMap::new()) }
    }
}

impl<O: Owner + Eq> MemoryStore<O> {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<SessionId, Record<O>>> {
        self.sessions.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The session's record, when `owner` owns it.
    fn owned<'a>(
        sessions: &'a mut HashMap<SessionId, Record<O>>,
        session: SessionId,
        owner: &O,
    ) -> Option<&'a mut Record<O>> {
        sessions.get_mut(&session).filter(|r| r.owner == *owner)
    }

    /// Creates a session owned by `owner` and returns its id.
    pub fn create_session(&self, owner: O) -> SessionId {
        let id = SessionId::random();
        self.lock().insert(id, Record { owner, label: None, touches: 0, messages: Vec::new() });
        id
    }

    /// The session's label, when it is `owner`'s and has one.
    pub fn label_of(&self, session: SessionId, owner: &O) -> Option<String> {
        Self::owned(&mut self.lock(), session, owner).and_then(|r| r.label.clone())
    }

    /// How many times the session was touched.
    pub fn touches(&self, session: SessionId) -> u64 {
        self.lock().get(&session).map_or(0, |r| r.touches)
    }
}

#[async_trait]
impl<O: Owner + Eq> TranscriptStore<O> for MemoryStore<O> {
    async fn insert_next(
        &self,
        session: SessionId,
        owner: &O,
        msg: &NewMessage,
    ) -> Result<Message, AssistantError> {
        let mut sessions = self.lock();
        let record = Self::owned(&mut sessions, session, owner).ok_or(AssistantError::NotFound)?;
        let seq = record.messages.last().map_or(1, |m| m.seq + 1);
        let stored = Message { seq, role: msg.role, content: msg.content.clone() };
        record.messages.push(stored.clone());
        Ok(stored)
    }

    async fn recent(
        &self,
        session: SessionId,
        owner: &O,
        limit: usize,
    ) -> Result<Vec<Message>, AssistantError> {
        let mut sessions = self.lock();
        let record = Self::owned(&mut sessions, session, owner).ok_or(AssistantError::NotFound)?;
        let start = record.messages.len().saturating_sub(limit);
        Ok(record.messages[start..].to_vec())
    }

    async fn transcript(
        &self,
        session: SessionId,
        owner: &O,
    ) -> Result<Vec<Message>, AssistantError> {
        let mut sessions = self.lock();
        let record = Self::owned(&mut sessions, session, owner).ok_or(AssistantError::NotFound)?;
        Ok(record.messages.clone())
    }

    async fn touch(&self, session: SessionId, owner: &O) -> Result<(), AssistantError> {
        if let Some(r) = Self::owned(&mut self.lock(), session, owner) {
            r.touches += 1;
        }
        Ok(())
    }

    async fn label(
        &self,
        session: SessionId,
        owner: &O,
        label: &str,
    ) -> Result<(), AssistantError> {
        if let Some(r) = Self::owned(&mut self.lock(), session, owner)
            .filter(|r| r.label.is_none() && !label.is_empty())
        {
            r.label = Some(label.to_owned());
        }
        Ok(())
    }
}
