//! [`ScheduleRepo`] on SQLite: claims are single-writer (`BEGIN IMMEDIATE`), so two workers
//! on one file never claim the same provider.

use async_trait::async_trait;
use chrono::{DateTime, SubsecRound, Utc};
use freehire_domain::Provider;
use sqlx::{Row, SqliteConnection};

use super::{Shared, SqliteStore};
use crate::plan::claim_holder;
use crate::{
    ClaimHolder, Result, RunStatus, ScheduleDefaults, ScheduleOverride, ScheduleRepo, StoreError,
    bind::Stamp,
    plan::{RunCandidate, run_status_columns},
    sql::PROVIDER_CLAIM,
};

const CANDIDATES: &str = "SELECT r.provider, r.claimed_at, r.heartbeat_at, s.cadence_sec, s.timeout_sec, \
     coalesce(s.enabled, 1) AS enabled \
     FROM ingest_run_state AS r LEFT JOIN ingest_schedule AS s ON s.provider = r.provider \
     WHERE r.provider IN (SELECT provider FROM boards WHERE status IN ('pending', 'active')) \
       AND (r.next_due_at <= $1 OR r.claimed_at IS NOT NULL) \
     ORDER BY r.next_due_at, r.provider";

fn candidate(row: &sqlx::sqlite::SqliteRow) -> Result<RunCandidate> {
    Ok(RunCandidate {
        provider: row.try_get("provider")?,
        claimed_at: row.try_get("claimed_at")?,
        heartbeat_at: row.try_get("heartbeat_at")?,
        cadence_sec: row.try_get("cadence_sec")?,
        timeout_sec: row.try_get("timeout_sec")?,
        enabled: row.try_get("enabled")?,
    })
}

async fn take(
    conn: &mut SqliteConnection,
    c: &RunCandidate,
    worker: &str,
    defaults: ScheduleDefaults,
    now: DateTime<Utc>,
) -> Result<()> {
    sqlx::query(
        "UPDATE ingest_run_state SET claimed_at = $1, heartbeat_at = $1, claimed_by = $2, \
         last_started_at = $1, next_due_at = $3 WHERE provider = $4",
    )
    .bind(Stamp(now))
    .bind(worker)
    .bind(Stamp(now + c.cadence(defaults)))
    .bind(&c.provider)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

#[async_trait]
impl ScheduleRepo for SqliteStore {
    async fn provider_roster(&self) -> Result<Vec<Provider>> {
        let rows: Vec<String> = sqlx::query_scalar(
            "SELECT DISTINCT provider FROM boards WHERE status IN ('pending', 'active') ORDER BY provider",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|p| Provider::parse(p).map_err(|e| StoreError::corrupt("provider", e)))
            .collect()
    }

    async fn set_provider_schedule(
        &self,
        provider: &Provider,
        schedule: &ScheduleOverride,
    ) -> Result<()> {
        sqlx::query(
            "INSERT INTO ingest_schedule (provider, cadence_sec, timeout_sec, enabled, disabled_reason) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (provider) DO UPDATE SET \
             cadence_sec = excluded.cadence_sec, timeout_sec = excluded.timeout_sec, \
             enabled = excluded.enabled, disabled_reason = excluded.disabled_reason",
        )
        .bind(provider.as_str())
        .bind(schedule.cadence.map(|d| d.num_seconds()))
        .bind(schedule.timeout.map(|d| d.num_seconds()))
        .bind(schedule.disabled_reason.is_none())
        .bind(schedule.disabled_reason.as_deref())
        .execute(&self.writer)
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
        let mut tx = self.write().await?;
        sqlx::query(
            "INSERT INTO ingest_run_state (provider, next_due_at) \
             SELECT DISTINCT provider, $1 FROM boards WHERE status IN ('pending', 'active') \
             ON CONFLICT (provider) DO NOTHING",
        )
        .bind(Stamp(now))
        .execute(&mut *tx)
        .await?;
        let rows = sqlx::query(CANDIDATES).bind(Stamp(now)).fetch_all(&mut *tx).await?;
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
        tx.commit().await?;
        Ok(claimed)
    }

    async fn claim_provider(
        &self,
        provider: &Provider,
        worker: &str,
        defaults: ScheduleDefaults,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let now = now.trunc_subsecs(6);
        let mut tx = self.write().await?;
        sqlx::query("INSERT INTO ingest_run_state (provider, next_due_at) VALUES ($1, $2) ON CONFLICT (provider) DO NOTHING")
            .bind(provider.as_str())
            .bind(Stamp(now))
            .execute(&mut *tx)
            .await?;
        let row = sqlx::query(
            "SELECT r.provider, r.claimed_at, r.heartbeat_at, s.cadence_sec, s.timeout_sec, 1 AS enabled \
             FROM ingest_run_state AS r LEFT JOIN ingest_schedule AS s ON s.provider = r.provider \
             WHERE r.provider = $1",
        )
        .bind(provider.as_str())
        .fetch_one(&mut *tx)
        .await?;
        let c = candidate(&row)?;
        let free = !c.held(defaults, now);
        if free {
            take(&mut tx, &c, worker, defaults, now).await?;
        }
        tx.commit().await?;
        Ok(free)
    }

    async fn renew_provider_claim(
        &self,
        provider: &Provider,
        worker: &str,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        Shared::renew_provider_claim(&self.writer, provider.as_str(), worker, now.trunc_subsecs(6))
            .await
    }

    async fn provider_claim(&self, provider: &Provider) -> Result<Option<ClaimHolder>> {
        let row =
            sqlx::query(PROVIDER_CLAIM).bind(provider.as_str()).fetch_optional(&self.pool).await?;
        row.map(|row| {
            let since: DateTime<Utc> = row.try_get("claimed_at")?;
            let heartbeat: Option<DateTime<Utc>> = row.try_get("heartbeat_at")?;
            Ok(claim_holder(row.try_get("claimed_by")?, since, heartbeat))
        })
        .transpose()
    }

    async fn take_over_provider(
        &self,
        provider: &Provider,
        worker: &str,
        defaults: ScheduleDefaults,
        now: DateTime<Utc>,
    ) -> Result<Option<ClaimHolder>> {
        let now = now.trunc_subsecs(6);
        let mut tx = self.write().await?;
        sqlx::query(
            "INSERT INTO ingest_run_state (provider, next_due_at) VALUES ($1, $2) \
             ON CONFLICT (provider) DO NOTHING",
        )
        .bind(provider.as_str())
        .bind(Stamp(now))
        .execute(&mut *tx)
        .await?;
        let row = sqlx::query(
            "SELECT r.provider, r.claimed_at, r.heartbeat_at, r.claimed_by, s.cadence_sec, \
             s.timeout_sec, 1 AS enabled \
             FROM ingest_run_state AS r LEFT JOIN ingest_schedule AS s ON s.provider = r.provider \
             WHERE r.provider = $1",
        )
        .bind(provider.as_str())
        .fetch_one(&mut *tx)
        .await?;
        let c = candidate(&row)?;
        let previous = c.holder(row.try_get("claimed_by")?, defaults, now);
        take(&mut tx, &c, worker, defaults, now).await?;
        tx.commit().await?;
        Ok(previous)
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
        .bind(Stamp(at))
        .bind(label)
        .bind(error)
        .bind(provider.as_str())
        .bind(worker)
        .execute(&self.writer)
        .await?;
        Ok(())
    }
}
