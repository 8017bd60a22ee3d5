//! CV rows as read (`cvs`, `cv_revisions`), decoded on both backends through the
//! [`bind`](crate::bind) types and parsed totally: a stored vocabulary value, id or JSON
//! document that no longer parses is [`StoreError::Corrupt`] naming its column.

use freehire_cv::{Change, CvDocument, CvState, Op, TemplateId};
use freehire_domain::{CvId, JobId, UserId};
use serde::de::DeserializeOwned;

use crate::{
    Result, StoreError,
    bind::{Stamp, StoredJson},
    cvs::{Cv, CvKind, CvRevision, RevisionId},
};

/// A snake-case vocabulary value (actor, origin, template) through its serde form.
fn word<T: DeserializeOwned>(value: String, column: &'static str) -> Result<T> {
    serde_json::from_value(serde_json::Value::String(value))
        .map_err(|e| StoreError::corrupt(column, e))
}

/// A CV row (the columns of `cv_columns!`).
#[derive(sqlx::FromRow)]
pub(crate) struct CvRecord {
    id: i64,
    user_id: i64,
    kind: String,
    job_id: Option<i64>,
    agent_session_id: Option<String>,
    title: String,
    template_id: String,
    data: StoredJson,
    autopilot_report: Option<StoredJson>,
    created_at: Stamp,
    updated_at: Stamp,
}

impl CvRecord {
    pub fn into_cv(self) -> Result<Cv> {
        let kind = match self.kind.as_str() {
            "base" => CvKind::Base,
            "tailored" => CvKind::Tailored,
            other => return Err(StoreError::corrupt("kind", format!("unknown kind {other:?}"))),
        };
        let template_id: TemplateId = word(self.template_id, "template_id")?;
        let document: CvDocument = self.data.parse("data")?;
        Ok(Cv {
            id: CvId::new(self.id).map_err(|e| StoreError::corrupt("id", e))?,
            owner: UserId::new(self.user_id).map_err(|e| StoreError::corrupt("user_id", e))?,
            kind,
            job_id: self
                .job_id
                .map(JobId::new)
                .transpose()
                .map_err(|e| StoreError::corrupt("job_id", e))?,
            session_id: self.agent_session_id,
            state: CvState { title: self.title, template_id, document },
            autopilot_report: self
                .autopilot_report
                .map(|r| r.parse("autopilot_report"))
                .transpose()?,
            created_at: self.created_at.into(),
            updated_at: self.updated_at.into(),
        })
    }
}

/// A revision row (the columns of `revision_columns!`).
#[derive(sqlx::FromRow)]
pub(crate) struct RevisionRecord {
    id: i64,
    seq: i64,
    actor: String,
    origin: String,
    batch: Option<String>,
    title: String,
    note: Option<String>,
    ops: StoredJson,
    inverse: StoredJson,
    reverts: Option<i64>,
    is_undo: bool,
    reverted: bool,
    created_at: Stamp,
}

impl RevisionRecord {
    pub fn into_revision(self) -> Result<CvRevision> {
        let ops: Vec<Op> = self.ops.parse("ops")?;
        let inverse: Vec<Op> = self.inverse.parse("inverse")?;
        Ok(CvRevision {
            id: RevisionId(self.id),
            seq: self.seq,
            change: Change {
                actor: word(self.actor, "actor")?,
                origin: word(self.origin, "origin")?,
                batch: self.batch,
            },
            title: self.title,
            note: self.note,
            ops,
            inverse,
            reverts: self.reverts.map(RevisionId),
            is_undo: self.is_undo,
            reverted: self.reverted,
            created_at: self.created_at.into(),
        })
    }
}
