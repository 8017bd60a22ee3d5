//! [`PlanRepo`] and [`LlmKeyRepo`] on PostgreSQL: `Shared`'s bodies; a charge and a release
//! run in a transaction on the coordination pool that locks the day's counter (the row lock
//! of [`LOCK_DAY`](crate::sql::plans::LOCK_DAY)'s upsert), so concurrent charges of one user
//! and feature take turns and an enforced allowance holds. Reads and the
//! transactions run once more if they lost their connection before committing
//! ([`retry_once_if_lost`]); the single-statement key writes do not.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::{
    UserId,
    plan::{Decision, Feature, PlanPolicy, Standing},
};

use super::{PgStore, Shared, retry_once_if_lost};
use crate::{LlmKeyRepo, PlanRepo, Result, StoredKey};

#[async_trait]
impl PlanRepo for PgStore {
    async fn consume(
        &self,
        user: UserId,
        feature: Feature,
        reference: &str,
        policy: &PlanPolicy,
        now: DateTime<Utc>,
    ) -> Result<Decision> {
        retry_once_if_lost(|| async move {
            let tx = self.quick.begin().await?;
            Shared::consume(tx, user, feature, reference, policy, now).await
        })
        .await
    }

    async fn release(
        &self,
        user: UserId,
        feature: Feature,
        reference: &str,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        retry_once_if_lost(|| async move {
            let Some(day) = Shared::consumption_day(&self.pool, user, feature, reference).await?
            else {
                return Ok(false);
            };
            let tx = self.quick.begin().await?;
            Shared::release(tx, user, feature, reference, day, now).await
        })
        .await
    }

    async fn standing(
        &self,
        user: UserId,
        feature: Feature,
        policy: &PlanPolicy,
        now: DateTime<Utc>,
    ) -> Result<Standing> {
        retry_once_if_lost(|| Shared::standing(&self.pool, user, feature, policy, now)).await
    }

    async fn usage(
        &self,
        user: UserId,
        policy: &PlanPolicy,
        now: DateTime<Utc>,
    ) -> Result<Vec<Standing>> {
        retry_once_if_lost(|| Shared::usage(&self.pool, user, policy, now)).await
    }

    async fn consumption_refs(
        &self,
        user: UserId,
        feature: Feature,
        prefix: &str,
    ) -> Result<Vec<String>> {
        retry_once_if_lost(|| Shared::consumption_refs(&self.pool, user, feature, prefix)).await
    }
}

#[async_trait]
impl LlmKeyRepo for PgStore {
    async fn llm_key(&self, user: UserId) -> Result<Option<StoredKey>> {
        retry_once_if_lost(|| Shared::llm_key(&self.pool, user)).await
    }

    async fn claim_llm_key(&self, user: UserId, key: &StoredKey) -> Result<Option<StoredKey>> {
        Shared::claim_llm_key(&self.pool, &self.pool, user, key).await
    }

    async fn clear_llm_key(&self, user: UserId, secret: &str) -> Result<bool> {
        Shared::clear_llm_key(&self.pool, user, secret).await
    }
}
