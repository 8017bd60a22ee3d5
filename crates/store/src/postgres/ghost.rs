//! [`GhostRepo`] on PostgreSQL: `Shared`'s bodies.

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, SubsecRound, Utc};
use freehire_domain::{JobId, UserId};

use super::{PgStore, Shared, retry_once_if_lost};
use crate::{GhostInputs, GhostRepo, Result};

#[async_trait]
impl GhostRepo for PgStore {
    async fn report_ghost(
        &self,
        owner: UserId,
        job: JobId,
        applied_on: NaiveDate,
        at: DateTime<Utc>,
    ) -> Result<()> {
        let tx = self.pool.begin().await?;
        Shared::report_ghost(tx, owner, job, applied_on, at.trunc_subsecs(6)).await
    }

    async fn retract_ghost(&self, owner: UserId, job: JobId, at: DateTime<Utc>) -> Result<bool> {
        let tx = self.pool.begin().await?;
        Shared::retract_ghost(tx, owner, job, at.trunc_subsecs(6)).await
    }

    async fn my_ghost_report(&self, owner: UserId, job: JobId) -> Result<Option<NaiveDate>> {
        retry_once_if_lost(|| Shared::my_ghost_report(&self.pool, owner, job)).await
    }

    async fn ghost_inputs(&self, job: JobId) -> Result<GhostInputs> {
        retry_once_if_lost(|| Shared::ghost_inputs(&self.pool, job)).await
    }
}
