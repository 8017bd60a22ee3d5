//! [`PlanRepo`] and [`LlmKeyRepo`] on SQLite: `Shared`'s bodies, reads on the reader pool,
//! writes on the one writer connection, and a charge or release in a `BEGIN IMMEDIATE`
//! transaction (which holds the database, so the day's counter needs no lock of its own).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::{
    UserId,
    plan::{Decision, Feature, PlanPolicy, Standing},
};

use super::{Shared, SqliteStore};
use crate::{LlmKeyRepo, PlanRepo, Result, StoredKey};

#[async_trait]
impl PlanRepo for SqliteStore {
    async fn consume(
        &self,
        user: UserId,
        feature: Feature,
        reference: &str,
        policy: &PlanPolicy,
        now: DateTime<Utc>,
    ) -> Result<Decision> {
        let tx = self.write().await?;
        Shared::consume(tx, user, feature, reference, policy, now).await
    }

    async fn release(
        &self,
        user: UserId,
        feature: Feature,
        reference: &str,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let Some(day) = Shared::consumption_day(&self.pool, user, feature, reference).await? else {
            return Ok(false);
        };
        let tx = self.write().await?;
        Shared::release(tx, user, feature, reference, day, now).await
    }

    async fn standing(
        &self,
        user: UserId,
        feature: Feature,
        policy: &PlanPolicy,
        now: DateTime<Utc>,
    ) -> Result<Standing> {
        Shared::standing(&self.pool, user, feature, policy, now).await
    }

    async fn usage(
        &self,
        user: UserId,
        policy: &PlanPolicy,
        now: DateTime<Utc>,
    ) -> Result<Vec<Standing>> {
        Shared::usage(&self.pool, user, policy, now).await
    }

    async fn consumption_refs(
        &self,
        user: UserId,
        feature: Feature,
        prefix: &str,
    ) -> Result<Vec<String>> {
        Shared::consumption_refs(&self.pool, user, feature, prefix).await
    }
}

#[async_trait]
impl LlmKeyRepo for SqliteStore {
    async fn llm_key(&self, user: UserId) -> Result<Option<StoredKey>> {
        Shared::llm_key(&self.pool, user).await
    }

    async fn claim_llm_key(&self, user: UserId, key: &StoredKey) -> Result<Option<StoredKey>> {
        Shared::claim_llm_key(&self.writer, &self.pool, user, key).await
    }

    async fn clear_llm_key(&self, user: UserId, secret: &str) -> Result<bool> {
        Shared::clear_llm_key(&self.writer, user, secret).await
    }
}
