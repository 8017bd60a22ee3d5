//! [`GhostRepo`] on SQLite: `Shared`'s bodies, writes on the writer connection.

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, SubsecRound, Utc};
use freehire_domain::{JobId, UserId};

use super::{Shared, SqliteStore};
use crate::{GhostInputs, GhostRepo, Result};

#[async_trait]
impl GhostRepo for SqliteStore {
    async fn report_ghost(
        &self,
        owner: UserId,
        job: JobId,
        applied_on: NaiveDate,
        at: DateTime<Utc>,
    ) -> Result<()> {
        Shared::report_ghost(self.write().await?, owner, job, applied_on, at.trunc_subsecs(6)).await
    }

    async fn retract_ghost(&self, owner: UserId, job: JobId, at: DateTime<Utc>) -> Result<bool> {
        Shared::retract_ghost(self.write().await?, owner, job, at.trunc_subsecs(6)).await
    }

    async fn my_ghost_report(&self, owner: UserId, job: JobId) -> Result<Option<NaiveDate>> {
        Shared::my_ghost_report(&self.pool, owner, job).await
    }

    async fn ghost_inputs(&self, job: JobId) -> Result<GhostInputs> {
        Shared::ghost_inputs(&self.pool, job).await
    }
}
