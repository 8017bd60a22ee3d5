//! [`CvRepo`] on PostgreSQL: `Shared`'s bodies; a commit, undo or revert runs in a
//! transaction that locks the CV's row (`FOR UPDATE`), so concurrent edits of one CV take
//! turns and each plans against the state the one before saved. Reads and the transactions
//! run once more if they lost their connection before committing ([`retry_once_if_lost`]);
//! the single-statement creates do not.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_cv::{Actor, CvState, EditConfig};
use freehire_domain::{CvId, JobId, UserId};

use super::{PgStore, Shared, retry_once_if_lost};
use crate::{
    CvRepo, Result,
    cvs::{CommitOutcome, Cv, CvEdit, CvEvidence, CvRevision, RevisionId, without_contacts},
    shared::cvs::{Pick, authorize},
};

/// The CV row, locked until the change commits.
const CV_LOCK: &str = crate::sql::cvs::cv_for!(" FOR UPDATE");

impl PgStore {
    async fn undo_with(
        &self,
        owner: UserId,
        id: CvId,
        pick: Pick<'_>,
        actor: Actor,
        config: &EditConfig,
        now: DateTime<Utc>,
    ) -> Result<Option<CommitOutcome>> {
        retry_once_if_lost(|| async move {
            let tx = self.pool.begin().await?;
            Shared::undo_cv(tx, CV_LOCK, owner, id, pick, actor, config, now).await
        })
        .await
    }
}

#[async_trait]
impl CvRepo for PgStore {
    async fn create_base_cv(
        &self,
        owner: UserId,
        state: &CvState,
        now: DateTime<Utc>,
    ) -> Result<Cv> {
        Shared::create_base_cv(&self.pool, owner, state, now).await
    }

    async fn base_cv(&self, owner: UserId) -> Result<Option<Cv>> {
        retry_once_if_lost(|| Shared::base_cv(&self.pool, owner)).await
    }

    async fn get_cv(&self, owner: UserId, id: CvId) -> Result<Option<Cv>> {
        retry_once_if_lost(|| Shared::get_cv(&self.pool, owner, id)).await
    }

    async fn list_cvs(&self, owner: UserId) -> Result<Vec<Cv>> {
        retry_once_if_lost(|| Shared::list_cvs(&self.pool, owner)).await
    }

    async fn tailor_cv(
        &self,
        owner: UserId,
        job: JobId,
        now: DateTime<Utc>,
    ) -> Result<Option<(Cv, bool)>> {
        Shared::tailor_cv(&self.pool, owner, job, now).await
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
        retry_once_if_lost(|| async move {
            let tx = self.pool.begin().await?;
            Shared::commit_cv(tx, CV_LOCK, owner, id, edit, evidence, config, now).await
        })
        .await
    }

    async fn cv_revisions(
        &self,
        owner: UserId,
        id: CvId,
        limit: u32,
    ) -> Result<Option<Vec<CvRevision>>> {
        retry_once_if_lost(|| Shared::cv_revisions(&self.pool, owner, id, limit)).await
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
        self.undo_with(owner, id, Pick::One(revision), actor, config, now).await
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
        self.undo_with(owner, id, Pick::Batch(batch), actor, config, now).await
    }

    async fn set_cv_session(&self, owner: UserId, id: CvId, session: &str) -> Result<bool> {
        Shared::set_cv_session(&self.pool, owner, id, session).await
    }

    async fn set_tailor_report(
        &self,
        owner: UserId,
        id: CvId,
        report: &freehire_cv::TailorReport,
    ) -> Result<bool> {
        Shared::set_tailor_report(&self.pool, owner, id, report).await
    }

    async fn merge_tailor_entry(
        &self,
        owner: UserId,
        id: CvId,
        item: &freehire_cv::ReportItem,
    ) -> Result<bool> {
        let tx = self.pool.begin().await?;
        Shared::merge_tailor_entry(tx, CV_LOCK, owner, id, item).await
    }

    async fn cv_for_model(&self, owner: UserId, id: CvId) -> Result<Option<CvState>> {
        let cv = retry_once_if_lost(|| Shared::get_cv(&self.pool, owner, id)).await?;
        Ok(cv.map(|cv| without_contacts(cv.state)))
    }
}
