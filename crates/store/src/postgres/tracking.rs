//! [`TrackingRepo`] on PostgreSQL: `Shared`'s bodies; every mutation is a transaction that
//! first locks the job row (`SELECT … FROM jobs … FOR UPDATE`), so concurrent requests on one
//! job take turns and `applied_count` and `view_count` move once per user. Reads and the
//! transactions run once more if they lost their connection before committing
//! ([`retry_once_if_lost`]); the single-statement delete does not.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::{ApplicationId, PublicSlug, UserId};

use super::{PgStore, Shared, retry_once_if_lost};
use crate::{
    Result, TrackingRepo,
    shared::tracking::{AppOp, JobOp},
    tracking::{
        Application, ApplyOptions, CardList, ExportRow, ImportRow, Imported, SlugSet, StageCounts,
        Track, TrackChange, TrackedDetail, TrackingFilter,
    },
};

/// The job of a slug, locked until the transaction ends.
const JOB_FOR: &str = crate::sql::tracking::job_for!(" FOR UPDATE");
/// The job of an id, locked until the transaction ends.
const JOB_BY_ID_FOR: &str = crate::sql::tracking::job_by_id_for!(" FOR UPDATE");

impl PgStore {
    async fn job_op(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        op: JobOp<'_>,
        now: DateTime<Utc>,
    ) -> Result<Option<Track>> {
        retry_once_if_lost(|| async move {
            Shared::mutate_job(self.pool.begin().await?, JOB_FOR, owner, slug, op, now).await
        })
        .await
    }

    async fn app_op(
        &self,
        owner: UserId,
        id: ApplicationId,
        op: AppOp<'_>,
        now: DateTime<Utc>,
    ) -> Result<Option<Application>> {
        retry_once_if_lost(|| async move {
            let tx = self.pool.begin().await?;
            Shared::mutate_application(tx, JOB_BY_ID_FOR, owner, id, op, now).await
        })
        .await
    }
}

#[async_trait]
impl TrackingRepo for PgStore {
    async fn track_view(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        now: DateTime<Utc>,
    ) -> Result<Option<Track>> {
        self.job_op(owner, slug, JobOp::View, now).await
    }

    async fn track_save(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        saved: bool,
        now: DateTime<Utc>,
    ) -> Result<Option<Track>> {
        self.job_op(owner, slug, JobOp::Save(saved), now).await
    }

    async fn track_dismiss(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        dismissed: bool,
        now: DateTime<Utc>,
    ) -> Result<Option<Track>> {
        self.job_op(owner, slug, JobOp::Dismiss(dismissed), now).await
    }

    async fn track_apply(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        apply: &ApplyOptions,
        now: DateTime<Utc>,
    ) -> Result<Option<Track>> {
        self.job_op(owner, slug, JobOp::Apply(apply), now).await
    }

    async fn track_update(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        change: &TrackChange,
        now: DateTime<Utc>,
    ) -> Result<Option<Track>> {
        self.job_op(owner, slug, JobOp::Update(change), now).await
    }

    async fn track_clear_stage(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        now: DateTime<Utc>,
    ) -> Result<Option<Track>> {
        self.job_op(owner, slug, JobOp::ClearStage, now).await
    }

    async fn track_clear(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        now: DateTime<Utc>,
    ) -> Result<Option<Track>> {
        self.job_op(owner, slug, JobOp::Clear, now).await
    }

    async fn track_followed_up(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        now: DateTime<Utc>,
    ) -> Result<Option<Track>> {
        self.job_op(owner, slug, JobOp::FollowedUp, now).await
    }

    async fn update_application(
        &self,
        owner: UserId,
        id: ApplicationId,
        change: &TrackChange,
        now: DateTime<Utc>,
    ) -> Result<Option<Application>> {
        self.app_op(owner, id, AppOp::Update(change), now).await
    }

    async fn clear_application_stage(
        &self,
        owner: UserId,
        id: ApplicationId,
        now: DateTime<Utc>,
    ) -> Result<Option<Application>> {
        self.app_op(owner, id, AppOp::ClearStage, now).await
    }

    async fn delete_application(&self, owner: UserId, id: ApplicationId) -> Result<bool> {
        Shared::delete_application(&self.pool, owner, id).await
    }

    async fn track_of(&self, owner: UserId, slug: &PublicSlug) -> Result<Option<Track>> {
        retry_once_if_lost(|| Shared::track_of(&self.pool, owner, slug)).await
    }

    async fn tracking_list(
        &self,
        owner: UserId,
        filter: TrackingFilter,
        limit: u32,
        offset: u64,
    ) -> Result<CardList> {
        retry_once_if_lost(|| Shared::tracking_list(&self.pool, owner, filter, limit, offset)).await
    }

    async fn tracking_slugs(&self, owner: UserId, set: SlugSet) -> Result<Vec<String>> {
        retry_once_if_lost(|| Shared::tracking_slugs(&self.pool, owner, set)).await
    }

    async fn stage_counts(&self, owner: UserId) -> Result<StageCounts> {
        retry_once_if_lost(|| Shared::stage_counts(&self.pool, owner)).await
    }

    async fn tracking_detail(&self, owner: UserId, slug: &str) -> Result<Option<TrackedDetail>> {
        retry_once_if_lost(|| Shared::tracking_detail(&self.pool, owner, slug)).await
    }

    async fn export_applications(&self, owner: UserId) -> Result<Vec<ExportRow>> {
        retry_once_if_lost(|| Shared::export_applications(&self.pool, owner)).await
    }

    async fn import_application_row(
        &self,
        owner: UserId,
        row: &ImportRow<'_>,
        now: DateTime<Utc>,
    ) -> Result<Imported> {
        retry_once_if_lost(|| async move {
            Shared::import_row(self.pool.begin().await?, JOB_FOR, owner, row, now).await
        })
        .await
    }
}
