//! [`ScheduleRepo`] on PostgreSQL: due providers are claimed `FOR UPDATE SKIP LOCKED`, so
//! several workers share one database and never run the same provider at once.

use async_trait::async_trait;
use chrono::{DateTime, SubsecRound, Utc};
use freehire_domain::Provider;
use sqlx::{PgConnection, Row, postgres::PgRow};

use super::{PgStore, Shared, retry_once_if_lost};
use crate::plan::claim_holder;
use crate::{
    ClaimHolder, Result, RunStatus, ScheduleDefaults, ScheduleOverride, ScheduleRepo, StoreError,
    plan::{RunCandidate, run_status_columns},
    sql::PROVIDER_CLAIM,
};

fn candidate(row: &PgRow) -> Result<RunCandidate> {
    Ok(RunCandidate {
        provider: row.try_get("provider")?,
        claimed_at: row.try_get("claimed_at")?,
        heartbeat_at: row.try_get("heartbeat_at")?,
        cadence_sec: row.try_get::<Option<i32>, _>("cadence_sec")?.map(i64::from),
        timeout_sec: row.try_get::<Option<i32>, _>("timeout_sec")?.map(i64::from),
        enabled: row.try_get("enabled")?,
    })
}

async fn take(
    conn: &mut PgConnection,
    c: &RunCandidate,
    worker: &str,
    defaults: ScheduleDefaults,
    now: DateTime<Utc>,
) -> Result<()> {
    sqlx::query(
        "UPDATE ingest_run_state SET claimed_at = $1, heartbeat_at = $1, claimed_by = $2, \
         last_started_at = $1, next_due_at = $3 WHERE provider = $4",
    )
    .bind(now)
    .bind(worker)
    .bind(now + c.cadence(defaults))
    .bind(&c.provider)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

#[async_trait]
impl ScheduleRepo for PgStore {
    async fn provider_roster(&self) -> Result<Vec<Provider>> {
        retry_once_if_lost(|| async move {
        let rows: Vec<String> = sqlx::query_scalar(
            "SELECT DISTINCT provider FROM boards WHERE status IN ('pending', 'active') ORDER BY provider",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|p| Provider::parse(p).map_err(|e| StoreError::corrupt("provider", e)))
            .collect()
        })
        .await
    }

    async fn set_provider_schedule(
        &self,
        provider: &Provider,
        schedule: &ScheduleOverride,
    ) -> Result<()> {
        let secs = |d: Option<chrono::Duration>| {
            d.map(|d| i32::try_from(d.num_seconds()).unwrap_or(i32::MAX))
        };
        sqlx::query(
            "INSERT INTO ingest_schedule (provider, cadence_sec, timeout_sec, enabled, disabled_reason) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (provider) DO UPDATE SET \
             cadence_sec = excluded.cadence_sec, timeout_sec = excluded.timeout_sec, \
             enabled = excluded.enabled, disabled_reason = excluded.disabled_reason",
        )
        .bind(provider.as_str())
        .bind(secs(schedule.cadence))
        .bind(secs(schedule.timeout))
        .bind(schedule.disabled_reason.is_none())
        .bind(schedule.disabled_reason.as_deref())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn claim_due_provider(
        &self,
        worker: &str,
        defaults: ScheduleDefaults,
        now: DateTime<Utc>,
    ) -> Result<Option<Provider>> {
        let now = now.trunc_subsecs(6);
        retry_once_if_lost(|| async move {
        let mut tx = self.pool.begin().await?;
        // Claims are taken one at a time across workers, so the fleet cap counts every live
        // claim (a claim in flight in another transaction would otherwise be skipped unseen).
        sqlx::query("SELECT pg_advisory_xact_lock(hashtext('freehire_ingest_claim'))")
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO ingest_run_state (provider, next_due_at) \
             SELECT DISTINCT provider, $1::timestamptz FROM boards WHERE status IN ('pending', 'active') \
             ON CONFLICT (provider) DO NOTHING",
        )
        .bind(now)
        .execute(&mut *tx)
        .await?;
        // Rows held by other workers' open transactions are skipped, never waited for.
        let rows = sqlx::query(
            "SELECT r.provider, r.claimed_at, r.heartbeat_at, s.cadence_sec, s.timeout_sec, \
             coalesce(s.enabled, true) AS enabled \
             FROM ingest_run_state AS r LEFT JOIN ingest_schedule AS s ON s.provider = r.provider \
             WHERE r.provider IN (SELECT provider FROM boards WHERE status IN ('pending', 'active')) \
               AND (r.next_due_at <= $1 OR r.claimed_at IS NOT NULL) \
             ORDER BY r.next_due_at, r.provider \
             FOR UPDATE OF r SKIP LOCKED",
        )
        .bind(now)
        .fetch_all(&mut *tx)
        .await?;
        let candidates = rows.iter().map(candidate).collect::<Result<Vec<_>>>()?;
        // The fleet cap: every live claim is among the rows (claimed rows are always read).
        let live = candidates.iter().filter(|c| c.held(defaults, now)).count();
        let mut claimed = None;
        for c in candidates.iter().filter(|_| live < defaults.fleet_cap) {
            if c.enabled && !c.held(defaults, now) {
                take(&mut tx, c, worker, defaults, now).await?;
                claimed = Some(
                    Provider::parse(&c.provider).map_err(|e| StoreError::corrupt("provider", e))?,
                );
                break;
            }
        }
        tx.commit().await.map_err(crate::error::committing)?;
        Ok(claimed)
        })
        .await
    }

    async fn claim_provider(
        &self,
        provider: &Provider,
        worker: &str,
        defaults: ScheduleDefaults,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let now = now.trunc_subsecs(6);
        retry_once_if_lost(|| async move {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO ingest_run_state (provider, next_due_at) VALUES ($1, $2) \
             ON CONFLICT (provider) DO NOTHING",
        )
        .bind(provider.as_str())
        .bind(now)
        .execute(&mut *tx)
        .await?;
        let row = sqlx::query(
            "SELECT r.provider, r.claimed_at, r.heartbeat_at, s.cadence_sec, s.timeout_sec, true AS enabled \
             FROM ingest_run_state AS r LEFT JOIN ingest_schedule AS s ON s.provider = r.provider \
             WHERE r.provider = $1 FOR UPDATE OF r",
        )
        .bind(provider.as_str())
        .fetch_one(&mut *tx)
        .await?;
        let c = candidate(&row)?;
        let free = !c.held(defaults, now);
        if free {
            take(&mut tx, &c, worker, defaults, now).await?;
        }
        tx.commit().await.map_err(crate::error::committing)?;
        Ok(free)
        })
        .await
    }

    async fn renew_provider_claim(
        &self,
        provider: &Provider,
        worker: &str,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        Shared::renew_provider_claim(&self.pool, provider.as_str(), worker, now.trunc_subsecs(6))
            .await
    }

    async fn provider_claim(&self, provider: &Provider) -> Result<Option<ClaimHolder>> {
        retry_once_if_lost(|| async move {
            let row = sqlx::query(PROVIDER_CLAIM)
                .bind(provider.as_str())
                .fetch_optional(&self.pool)
                .await?;
            row.map(|row| {
                let since: DateTime<Utc> = row.try_get("claimed_at")?;
                let heartbeat: Option<DateTime<Utc>> = row.try_get("heartbeat_at")?;
                Ok(claim_holder(row.try_get("claimed_by")?, since, heartbeat))
            })
            .transpose()
        })
        .await
    }

    async fn take_over_provider(
        &self,
        provider: &Provider,
        worker: &str,
        defaults: ScheduleDefaults,
        now: DateTime<Utc>,
    ) -> Result<Option<ClaimHolder>> {
        let now = now.trunc_subsecs(6);
        retry_once_if_lost(|| async move {
            let mut tx = self.pool.begin().await?;
            sqlx::query(
                "INSERT INTO ingest_run_state (provider, next_due_at) VALUES ($1, $2) \
             ON CONFLICT (provider) DO NOTHING",
            )
            .bind(provider.as_str())
            .bind(now)
            .execute(&mut *tx)
            .await?;
            let row = sqlx::query(
                "SELECT r.provider, r.claimed_at, r.heartbeat_at, r.claimed_by, s.cadence_sec, \
             s.timeout_sec, true AS enabled \
             FROM ingest_run_state AS r LEFT JOIN ingest_schedule AS s ON s.provider = r.provider \
             WHERE r.provider = $1 FOR UPDATE OF r",
            )
            .bind(provider.as_str())
            .fetch_one(&mut *tx)
            .await?;
            let c = candidate(&row)?;
            let previous = c.holder(row.try_get("claimed_by")?, defaults, now);
            take(&mut tx, &c, worker, defaults, now).await?;
            tx.commit().await.map_err(crate::error::committing)?;
            Ok(previous)
        })
        .await
    }

    async fn finish_provider_run(
        &self,
        provider: &Provider,
        worker: &str,
        status: &RunStatus,
        at: DateTime<Utc>,
    ) -> Result<()> {
        let (label, error) = run_status_columns(status);
        sqlx::query(
            "UPDATE ingest_run_state SET claimed_at = NULL, claimed_by = NULL, heartbeat_at = NULL, \
             last_finished_at = $1, last_status = $2, last_error = $3, \
             next_due_at = CASE WHEN $2 = 'interrupted' THEN $1 ELSE next_due_at END \
             WHERE provider = $4 AND claimed_by = $5",
        )
        .bind(at)
        .bind(label)
        .bind(error)
        .bind(provider.as_str())
        .bind(worker)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
