//! [`PlanRepo`](crate::PlanRepo) and [`LlmKeyRepo`](crate::LlmKeyRepo) bodies both backends
//! run unchanged, over the statements of [`sql::plans`]. The adapters pass their pool (on
//! SQLite, the writer pool for writes) and the transaction (`BEGIN IMMEDIATE` on SQLite).
//!
//! SQLite's charge (PostgreSQL's adapter charges with a compare-and-set and falls back to this
//! one after lost races, `postgres::plans`) is one transaction of as few round trips as its
//! rules allow (six when it
//! charges, four when it does not, `BEGIN` and the end included): ensure and lock the day's
//! counter in one upsert ([`sql::LOCK_DAY`]), read in one statement whether the reference is
//! already charged and the tier ([`sql::CHARGE_READS`], after the lock), [`decide`], and when
//! it charges insert the ledger row and set the counter. A release finds the charge's day
//! without a lock, then in one transaction locks that day's counter (always the counter
//! before the ledger, as a charge does), voids the ledger row and takes the voided units off,
//! never below 0.

use chrono::{DateTime, NaiveDate, Utc};
use freehire_domain::{
    UserId,
    plan::{self, Decision, Feature, PlanPolicy, Standing, decide},
};
use secrecy::ExposeSecret;
use sqlx::{Database, Encode, Executor, FromRow, IntoArguments, Pool, Transaction, Type};

use super::{RowsAffected, Shared};
use crate::{
    Result, StoredKey,
    bind::Stamp,
    rows::plans::{ChargeRecord, KeyRecord, TierRecord},
    sql::plans as sql,
};

impl<DB> Shared<DB>
where
    DB: Database,
    DB::QueryResult: RowsAffected,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    for<'q> Option<&'q str>: Encode<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> Stamp: Encode<'q, DB> + Type<DB>,
    for<'q> NaiveDate: Encode<'q, DB> + Type<DB>,
    (i64,): for<'r> FromRow<'r, DB::Row>,
    (NaiveDate,): for<'r> FromRow<'r, DB::Row>,
    (String,): for<'r> FromRow<'r, DB::Row>,
    (String, i64): for<'r> FromRow<'r, DB::Row>,
    TierRecord: for<'r> FromRow<'r, DB::Row>,
    ChargeRecord: for<'r> FromRow<'r, DB::Row>,
    KeyRecord: for<'r> FromRow<'r, DB::Row>,
{
    /// Creates (unless it exists) and locks the day's counter in `tx`, returning its count
    /// ([`sql::LOCK_DAY`]).
    async fn lock_counter(
        tx: &mut Transaction<'_, DB>,
        user: UserId,
        feature: Feature,
        day: NaiveDate,
        now: DateTime<Utc>,
    ) -> Result<i64> {
        let (used,): (i64,) = sqlx::query_as(sql::LOCK_DAY)
            .bind(user.get())
            .bind(feature.as_str())
            .bind(day)
            .bind(Stamp(now))
            .fetch_one(&mut **tx)
            .await?;
        Ok(used)
    }

    /// Charges `reference` in the caller's transaction (see the module docs).
    pub async fn consume(
        mut tx: Transaction<'_, DB>,
        user: UserId,
        feature: Feature,
        reference: &str,
        policy: &PlanPolicy,
        now: DateTime<Utc>,
    ) -> Result<Decision> {
        let day = plan::day(now);
        let used = Self::lock_counter(&mut tx, user, feature, day, now).await?;
        let reads: Option<ChargeRecord> = sqlx::query_as(sql::CHARGE_READS)
            .bind(user.get())
            .bind(feature.as_str())
            .bind(reference)
            .fetch_optional(&mut *tx)
            .await?;
        let (charged, tier_row) = ChargeRecord::split(reads);
        let decision =
            decide(policy, TierRecord::tier(tier_row, now), feature, used, charged > 0, now);
        if decision.charge > 0 {
            sqlx::query(sql::INSERT_CONSUMPTION)
                .bind(user.get())
                .bind(feature.as_str())
                .bind(day)
                .bind(decision.charge)
                .bind(reference)
                .bind(Stamp(now))
                .execute(&mut *tx)
                .await?;
            sqlx::query(sql::SET_DAY)
                .bind(user.get())
                .bind(feature.as_str())
                .bind(day)
                .bind(decision.used)
                .bind(Stamp(now))
                .execute(&mut *tx)
                .await?;
            tx.commit().await.map_err(crate::error::committing)?;
        } else {
            tx.rollback().await?;
        }
        Ok(decision)
    }

    /// The day `reference`'s standing charge was counted on, if it stands (no lock).
    pub async fn consumption_day(
        pool: &Pool<DB>,
        user: UserId,
        feature: Feature,
        reference: &str,
    ) -> Result<Option<NaiveDate>> {
        let row: Option<(NaiveDate,)> = sqlx::query_as(sql::CONSUMPTION_DAY)
            .bind(user.get())
            .bind(feature.as_str())
            .bind(reference)
            .fetch_optional(pool)
            .await?;
        Ok(row.map(|(d,)| d))
    }

    /// Voids `reference`'s charge counted on `day` in the caller's transaction (see the
    /// module docs); whether a charge was voided.
    pub async fn release(
        mut tx: Transaction<'_, DB>,
        user: UserId,
        feature: Feature,
        reference: &str,
        day: NaiveDate,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        Self::lock_counter(&mut tx, user, feature, day, now).await?;
        let voided = sqlx::query(sql::RELEASE_CONSUMPTION)
            .bind(user.get())
            .bind(feature.as_str())
            .bind(reference)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if voided == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        sqlx::query(sql::DECREMENT_DAY)
            .bind(user.get())
            .bind(feature.as_str())
            .bind(day)
            .bind(i64::try_from(voided).unwrap_or(i64::MAX))
            .bind(Stamp(now))
            .execute(&mut *tx)
            .await?;
        tx.commit().await.map_err(crate::error::committing)?;
        Ok(true)
    }

    async fn tier(pool: &Pool<DB>, user: UserId, now: DateTime<Utc>) -> Result<plan::Tier> {
        let row: Option<TierRecord> =
            sqlx::query_as(sql::TIER_OF).bind(user.get()).fetch_optional(pool).await?;
        Ok(TierRecord::tier(row, now))
    }

    pub async fn standing(
        pool: &Pool<DB>,
        user: UserId,
        feature: Feature,
        policy: &PlanPolicy,
        now: DateTime<Utc>,
    ) -> Result<Standing> {
        let tier = Self::tier(pool, user, now).await?;
        let used: Option<(i64,)> = sqlx::query_as(sql::USED_ON)
            .bind(user.get())
            .bind(feature.as_str())
            .bind(plan::day(now))
            .fetch_optional(pool)
            .await?;
        Ok(Standing::of(policy, tier, feature, used.map_or(0, |(u,)| u), now))
    }

    pub async fn usage(
        pool: &Pool<DB>,
        user: UserId,
        policy: &PlanPolicy,
        now: DateTime<Utc>,
    ) -> Result<Vec<Standing>> {
        let tier = Self::tier(pool, user, now).await?;
        let rows: Vec<(String, i64)> = sqlx::query_as(sql::DAY_OF)
            .bind(user.get())
            .bind(plan::day(now))
            .fetch_all(pool)
            .await?;
        Ok(Feature::REPORTED
            .into_iter()
            .map(|f| {
                let used = rows.iter().find(|(name, _)| name == f.as_str()).map_or(0, |r| r.1);
                Standing::of(policy, tier, f, used, now)
            })
            .collect())
    }

    pub async fn consumption_refs(
        pool: &Pool<DB>,
        user: UserId,
        feature: Feature,
        prefix: &str,
    ) -> Result<Vec<String>> {
        let rows: Vec<(String,)> = sqlx::query_as(sql::REFS_BY_PREFIX)
            .bind(user.get())
            .bind(feature.as_str())
            .bind(prefix)
            .fetch_all(pool)
            .await?;
        Ok(rows.into_iter().map(|(r,)| r).collect())
    }

    // ---- gateway keys ----

    pub async fn llm_key(pool: &Pool<DB>, user: UserId) -> Result<Option<StoredKey>> {
        let row: Option<KeyRecord> =
            sqlx::query_as(sql::KEY_OF).bind(user.get()).fetch_optional(pool).await?;
        Ok(row.and_then(KeyRecord::into_key))
    }

    pub async fn claim_llm_key(
        writer: &Pool<DB>,
        reader: &Pool<DB>,
        user: UserId,
        key: &StoredKey,
    ) -> Result<Option<StoredKey>> {
        let claimed = sqlx::query(sql::CLAIM_KEY)
            .bind(user.get())
            .bind(key.secret.expose_secret())
            .bind(key.id.as_deref())
            .execute(writer)
            .await?
            .rows_affected();
        if claimed > 0 {
            return Ok(Some(key.clone()));
        }
        Self::llm_key(reader, user).await
    }

    pub async fn clear_llm_key(pool: &Pool<DB>, user: UserId, secret: &str) -> Result<bool> {
        let cleared = sqlx::query(sql::CLEAR_KEY)
            .bind(user.get())
            .bind(secret)
            .execute(pool)
            .await?
            .rows_affected();
        Ok(cleared > 0)
    }
}
