//! [`LifecycleRepo`] on PostgreSQL: `Shared`'s bodies; the candidates read runs once more if it
//! lost its connection.

use async_trait::async_trait;
use chrono::{DateTime, SubsecRound, Utc};
use freehire_domain::JobId;

use super::{PgStore, Shared, retry_once_if_lost};
use crate::{
    LifecycleRepo, LivenessCandidate, LivenessRead, PrunedJob, Result, RoleHistory, bind::List,
    sql::lifecycle as sql,
};

#[async_trait]
impl LifecycleRepo for PgStore {
    async fn liveness_candidates(
        &self,
        checked_before: DateTime<Utc>,
        limit: u32,
    ) -> Result<Vec<LivenessCandidate>> {
        retry_once_if_lost(|| Shared::liveness_candidates(&self.pool, checked_before, limit)).await
    }

    async fn record_liveness(
        &self,
        id: JobId,
        read: LivenessRead,
        reason: Option<&str>,
        at: DateTime<Utc>,
        strike_after: DateTime<Utc>,
    ) -> Result<u32> {
        let (at, after) = (at.trunc_subsecs(6), strike_after.trunc_subsecs(6));
        Shared::record_liveness(self.pool.begin().await?, id, read, reason, at, after).await
    }

    async fn prune_closed(
        &self,
        closed_before: DateTime<Utc>,
        rule: &str,
        limit: u32,
        apply: bool,
        at: DateTime<Utc>,
    ) -> Result<Vec<PrunedJob>> {
        let at = at.trunc_subsecs(6);
        let tx = self.pool.begin().await?;
        Shared::prune_closed(tx, closed_before, rule, limit, apply, at).await
    }

    async fn role_history(&self, ids: &[JobId]) -> Result<Vec<RoleHistory>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let raw: Vec<i64> = ids.iter().map(|i| i.get()).collect();
        let rows: Vec<(i64, i64, i64)> =
            sqlx::query_as(sql::ROLE_HISTORY_PG).bind(List(&raw)).fetch_all(&self.pool).await?;
        crate::shared::role_histories(rows)
    }
}
