//! [`CvRepo`] on SQLite: `Shared`'s bodies, reads on the reader pool, writes on the one writer
//! connection, and a commit, undo or revert in a `BEGIN IMMEDIATE` transaction (which holds
//! the database, so the CV row needs no lock of its own).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_cv::{Actor, CvState, EditConfig};
use freehire_domain::{CvId, JobId, UserId};

use super::{Shared, SqliteStore};
use crate::{
    CvRepo, Result,
    cvs::{CommitOutcome, Cv, CvEdit, CvEvidence, CvRevision, RevisionId, without_contacts},
    shared::cvs::{Pick, authorize},
};

/// The CV row (no lock: the write transaction holds the database).
const CV_LOCK: &str = crate::sql::cvs::cv_for!("");

#[async_trait]
impl CvRepo for SqliteStore {
    async fn create_base_cv(
        &self,
        owner: UserId,
        state: &CvState,
        now: DateTime<Utc>,
    ) -> Result<Cv> {
        Shared::create_base_cv(&self.writer, owner, state, now).await
    }

    async fn base_cv(&self, owner: UserId) -> Result<Option<Cv>> {
        Shared::base_cv(&self.pool, owner).await
    }

    async fn get_cv(&self, owner: UserId, id: CvId) -> Result<Option<Cv>> {
        Shared::get_cv(&self.pool, owner, id).await
    }

    async fn list_cvs(&self, owner: UserId) -> Result<Vec<Cv>> {
        Shared::list_cvs(&self.pool, owner).await
    }

    async fn tailor_cv(
        &self,
        owner: UserId,
        job: JobId,
        now: DateTime<Utc>,
    ) -> Result<Option<(Cv, bool)>> {
        Shared::tailor_cv(&self.writer, owner, job, now).await
    }

    async fn commit_cv(
        &self,
        owner: UserId,
        id: CvId,
        edit: &CvEdit<'_>,
        evidence: CvEvidence<'_>,
        config: &EditConfig,
        now: DateTime<Utc>,
    ) -> Result<Option<CommitOutcome>> {
        if let Some(refused) = authorize(edit, evidence) {
            return Ok(Some(refused));
        }
        let tx = self.write().await?;
        Shared::commit_cv(tx, CV_LOCK, owner, id, edit, evidence, config, now).await
    }

    async fn cv_revisions(
        &self,
        owner: UserId,
        id: CvId,
        limit: u32,
    ) -> Result<Option<Vec<CvRevision>>> {
        Shared::cv_revisions(&self.pool, owner, id, limit).await
    }

    async fn undo_cv(
        &self,
        owner: UserId,
        id: CvId,
        revision: RevisionId,
        actor: Actor,
        config: &EditConfig,
        now: DateTime<Utc>,
    ) -> Result<Option<CommitOutcome>> {
        let tx = self.write().await?;
        Shared::undo_cv(tx, CV_LOCK, owner, id, Pick::One(revision), actor, config, now).await
    }

    async fn revert_batch(
        &self,
        owner: UserId,
        id: CvId,
        batch: &str,
        actor: Actor,
        config: &EditConfig,
        now: DateTime<Utc>,
    ) -> Result<Option<CommitOutcome>> {
        let tx = self.write().await?;
        Shared::undo_cv(tx, CV_LOCK, owner, id, Pick::Batch(batch), actor, config, now).await
    }

    async fn set_cv_session(&self, owner: UserId, id: CvId, session: &str) -> Result<bool> {
        Shared::set_cv_session(&self.writer, owner, id, session).await
    }

    async fn set_tailor_report(
        &self,
        owner: UserId,
        id: CvId,
        report: &freehire_cv::TailorReport,
    ) -> Result<bool> {
        Shared::set_tailor_report(&self.writer, owner, id, report).await
    }

    async fn merge_tailor_entry(
        &self,
        owner: UserId,
        id: CvId,
        item: &freehire_cv::ReportItem,
    ) -> Result<bool> {
        let tx = self.write().await?;
        Shared::merge_tailor_entry(tx, CV_LOCK, owner, id, item).await
    }

    async fn cv_for_model(&self, owner: UserId, id: CvId) -> Result<Option<CvState>> {
        Ok(Shared::get_cv(&self.pool, owner, id).await?.map(|cv| without_contacts(cv.state)))
    }
}
