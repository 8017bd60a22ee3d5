//! [`TrackingRepo`] on SQLite: `Shared`'s bodies, reads on the reader pool, every mutation in a
//! `BEGIN IMMEDIATE` transaction on the one writer connection (which holds the database, so
//! the job row needs no lock of its own: `applied_count` and `view_count` are read and bumped
//! in the same write transaction).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::{ApplicationId, PublicSlug, UserId};

use super::{Shared, SqliteStore};
use crate::{
    Result, TrackingRepo,
    shared::tracking::{AppOp, JobOp},
    tracking::{
        Application, ApplyOptions, CardList, ExportRow, ImportRow, Imported, SlugSet, StageCounts,
        Track, TrackChange, TrackedDetail, TrackingFilter,
    },
};

/// The job of a slug (no lock: the write transaction holds the database).
const JOB_FOR: &str = crate::sql::tracking::job_for!("");
/// The job of an id.
const JOB_BY_ID_FOR: &str = crate::sql::tracking::job_by_id_for!("");

impl SqliteStore {
    async fn job_op(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        op: JobOp<'_>,
        now: DateTime<Utc>,
    ) -> Result<Option<Track>> {
        Shared::mutate_job(self.write().await?, JOB_FOR, owner, slug, op, now).await
    }

    async fn app_op(
        &self,
        owner: UserId,
        id: ApplicationId,
        op: AppOp<'_>,
        now: DateTime<Utc>,
    ) -> Result<Option<Application>> {
        Shared::mutate_application(self.write().await?, JOB_BY_ID_FOR, owner, id, op, now).await
    }
}

#[async_trait]
impl TrackingRepo for SqliteStore {
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
        Shared::delete_application(&self.writer, owner, id).await
    }

    async fn track_of(&self, owner: UserId, slug: &PublicSlug) -> Result<Option<Track>> {
        Shared::track_of(&self.pool, owner, slug).await
    }

    async fn tracking_list(
        &self,
        owner: UserId,
        filter: TrackingFilter,
        limit: u32,
        offset: u64,
    ) -> Result<CardList> {
        Shared::tracking_list(&self.pool, owner, filter, limit, offset).await
    }

    async fn tracking_slugs(&self, owner: UserId, set: SlugSet) -> Result<Vec<String>> {
        Shared::tracking_slugs(&self.pool, owner, set).await
    }

    async fn stage_counts(&self, owner: UserId) -> Result<StageCounts> {
        Shared::stage_counts(&self.pool, owner).await
    }

    async fn tracking_detail(&self, owner: UserId, slug: &str) -> Result<Option<TrackedDetail>> {
        Shared::tracking_detail(&self.pool, owner, slug).await
    }

    async fn export_applications(&self, owner: UserId) -> Result<Vec<ExportRow>> {
        Shared::export_applications(&self.pool, owner).await
    }

    async fn import_application_row(
        &self,
        owner: UserId,
        row: &ImportRow<'_>,
        now: DateTime<Utc>,
    ) -> Result<Imported> {
        Shared::import_row(self.write().await?, JOB_FOR, owner, row, now).await
    }
}
