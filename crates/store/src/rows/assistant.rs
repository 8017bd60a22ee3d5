//! Assistant rows as read (`assistant_sessions`, `assistant_messages`), decoded on both
//! backends through the [`bind`](crate::bind) types and parsed totally: a stored role outside
//! its vocabulary (or `system`, which is never written) is [`StoreError::Corrupt`] naming its
//! column.

use freehire_assistant::{Message, Role, SessionId};
use freehire_domain::{JobId, UserId};

use crate::{
    Result, StoreError,
    assistant::AssistantSession,
    bind::{RawJson, Stamp, Uid},
};

/// A session row (the columns of `session_columns!`).
#[derive(sqlx::FromRow)]
pub(crate) struct SessionRecord {
    id: Uid,
    user_id: i64,
    preset: String,
    label: Option<String>,
    cv_id: Option<i64>,
    job_id: Option<i64>,
    created_at: Stamp,
    updated_at: Stamp,
}

impl SessionRecord {
    pub fn into_session(self) -> Result<AssistantSession> {
        Ok(AssistantSession {
            id: SessionId::from_uuid(self.id.0),
            owner: UserId::new(self.user_id).map_err(|e| StoreError::corrupt("user_id", e))?,
            preset: self.preset,
            label: self.label,
            cv_id: self
                .cv_id
                .map(freehire_domain::CvId::new)
                .transpose()
                .map_err(|e| StoreError::corrupt("cv_id", e))?,
            job_id: self
                .job_id
                .map(JobId::new)
                .transpose()
                .map_err(|e| StoreError::corrupt("job_id", e))?,
            created_at: self.created_at.into(),
            updated_at: self.updated_at.into(),
        })
    }
}

/// A message row; all `None` for the one row of a session without messages (a left join).
#[derive(sqlx::FromRow)]
pub(crate) struct MessageRecord {
    seq: Option<i32>,
    role: Option<String>,
    content: Option<RawJson>,
}

impl MessageRecord {
    /// The message; `None` for the row of a session without messages.
    pub fn into_message(self) -> Result<Option<Message>> {
        let (Some(seq), Some(role), Some(content)) = (self.seq, self.role, self.content) else {
            return Ok(None);
        };
        let role = Role::parse(&role)
            .ok_or_else(|| StoreError::corrupt("role", format!("unknown role {role:?}")))?;
        Ok(Some(Message { seq, role, content: content.0 }))
    }
}

/// The messages of `rows` (dropping the empty session's row of NULLs); `None` when there are
/// no rows at all (the session is not the owner's).
pub(crate) fn messages(rows: Vec<MessageRecord>) -> Result<Option<Vec<Message>>> {
    if rows.is_empty() {
        return Ok(None);
    }
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        if let Some(message) = row.into_message()? {
            out.push(message);
        }
    }
    Ok(Some(out))
}
