//! [`PlanRepo`] and [`LlmKeyRepo`] on PostgreSQL: `Shared`'s bodies, but for the charge.
//!
//! A charge is two statements on the coordination pool and no open transaction, because a
//! turn's first byte waits for it: one read of the day's count, the reference's standing charge
//! and the tier ([`CHARGE_SNAPSHOT`](crate::sql::plans::CHARGE_SNAPSHOT)), [`decide`], then,
//! when it charges, one compare-and-set that moves the counter from the count read to the new
//! one and inserts the ledger row in the same statement
//! ([`CAS_CHARGE`](crate::sql::plans::CAS_CHARGE)). A charge or release of the same counter
//! committed in between makes the compare fail and the charge reads again, so an enforced
//! allowance holds and a reference is charged once, as under the lock. After
//! [`CAS_ATTEMPTS`] lost races (a user's many charges at once) it takes the lock: `Shared`'s
//! transaction, which locks the counter with [`LOCK_DAY`](crate::sql::plans::LOCK_DAY)'s
//! upsert. The transaction held a pooled connection over six round trips, each waiting for
//! the API process to send the next statement; with 200 turns starting the coordination
//! pool's four connections were the queue in front of every first byte.
//!
//! A release runs in a transaction that locks the day's counter. Reads and the transactions run
//! once more if they lost their connection before committing ([`retry_once_if_lost`]); the
//! single-statement writes (the compare-and-set, the key writes) do not.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::{
    UserId,
    plan::{self, Decision, Feature, PlanPolicy, Standing, decide},
};

use super::{PgStore, Shared, retry_once_if_lost};
use crate::{
    LlmKeyRepo, PlanRepo, Result, StoredKey,
    bind::Stamp,
    rows::plans::{ChargeSnapshot, TierRecord},
    sql::plans as sql,
};

/// Compare-and-set charges tried before a charge takes the counter's lock.
const CAS_ATTEMPTS: usize = 4;

impl PgStore {
    /// One optimistic charge: `None` when the compare lost to a concurrent charge or release.
    async fn try_consume(
        &self,
        user: UserId,
        feature: Feature,
        reference: &str,
        policy: &PlanPolicy,
        now: DateTime<Utc>,
    ) -> Result<Option<Decision>> {
        let day = plan::day(now);
        let snapshot: Option<ChargeSnapshot> = retry_once_if_lost(|| async {
            Ok(sqlx::query_as(sql::CHARGE_SNAPSHOT)
                .bind(user.get())
                .bind(feature.as_str())
                .bind(day)
                .bind(reference)
                .fetch_optional(&self.quick)
                .await?)
        })
        .await?;
        let (used, charged, tier_row) = ChargeSnapshot::split(snapshot);
        let decision =
            decide(policy, TierRecord::tier(tier_row, now), feature, used, charged > 0, now);
        if decision.charge <= 0 {
            return Ok(Some(decision));
        }
        let moved = sqlx::query(sql::CAS_CHARGE)
            .bind(user.get())
            .bind(feature.as_str())
            .bind(day)
            .bind(reference)
            .bind(used)
            .bind(decision.used)
            .bind(Stamp(now))
            .bind(decision.charge)
            .execute(&self.quick)
            .await;
        match moved {
            Ok(done) => Ok((done.rows_affected() > 0).then_some(decision)),
            // The same reference charged meanwhile (its standing charge is unique), with the
            // count back where it was read: a lost race too, and the statement undid itself.
            Err(sqlx::Error::Database(db)) if db.is_unique_violation() => Ok(None),
            Err(e) => Err(crate::error::committing(e)),
        }
    }
}

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
        for _ in 0..CAS_ATTEMPTS {
            if let Some(decision) = self.try_consume(user, feature, reference, policy, now).await? {
                return Ok(decision);
            }
        }
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
