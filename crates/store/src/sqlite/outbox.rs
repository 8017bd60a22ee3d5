//! The search outboxes on SQLite: enqueueing inside job writes, and the claim/ack contract.

use async_trait::async_trait;
use chrono::{DateTime, SubsecRound, Utc};
use freehire_domain::JobId;
use sqlx::{Row, SqliteConnection};

use super::SqliteStore;
use crate::{
    ClaimOptions, OutboxItem, OutboxKind, OutboxRepo, Result, StoreError,
    plan::{OutboxSql, cut_error},
    rows::ts,
};

const INDEX: OutboxSql = outbox_statements!("search_outbox", "$1", "$2", "$3", "$4", "", ids_in: "IN (SELECT value FROM json_each($1))");
const DELETE: OutboxSql = outbox_statements!("search_delete_outbox", "$1", "$2", "$3", "$4", "", ids_in: "IN (SELECT value FROM json_each($1))");

fn sql(kind: OutboxKind) -> &'static OutboxSql {
    match kind {
        OutboxKind::Index => &INDEX,
        OutboxKind::Delete => &DELETE,
    }
}

fn ids_json(ids: &[i64]) -> Result<String> {
    serde_json::to_string(ids).map_err(|e| StoreError::corrupt("batch", e))
}

/// Queues jobs in the `kind` outbox and drops their pending rows in the other one, so the
/// latest change wins.
pub(super) async fn enqueue(
    conn: &mut SqliteConnection,
    kind: OutboxKind,
    ids: &[i64],
    at: &str,
) -> Result<()> {
    if ids.is_empty() {
        return Ok(());
    }
    let ids = ids_json(ids)?;
    sqlx::query(sql(kind.other()).drop_jobs).bind(&ids).execute(&mut *conn).await?;
    sqlx::query(sql(kind).enqueue).bind(&ids).bind(at).execute(&mut *conn).await?;
    Ok(())
}

#[async_trait]
impl OutboxRepo for SqliteStore {
    async fn claim_outbox(
        &self,
        kind: OutboxKind,
        options: ClaimOptions,
        now: DateTime<Utc>,
    ) -> Result<Vec<OutboxItem>> {
        let now = now.trunc_subsecs(6);
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let rows = sqlx::query(sql(kind).claim)
            .bind(ts(now))
            .bind(ts(now - options.lease))
            .bind(i64::from(options.max_attempts))
            .bind(i64::from(options.limit))
            .fetch_all(&mut *tx)
            .await?;
        tx.commit().await?;
        let mut items = rows
            .iter()
            .map(|r| {
                Ok(OutboxItem {
                    id: r.try_get("id")?,
                    job_id: JobId::new(r.try_get("job_id")?)
                        .map_err(|e| StoreError::corrupt("job_id", e))?,
                    attempts: u32::try_from(r.try_get::<i64, _>("attempts")?).unwrap_or(u32::MAX),
                    claimed_at: r.try_get("claimed_at")?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        items.sort_by_key(|i| i.id);
        Ok(items)
    }

    async fn ack_outbox(&self, kind: OutboxKind, items: &[OutboxItem]) -> Result<u64> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let mut done = 0;
        for item in items {
            done += sqlx::query(sql(kind).ack)
                .bind(item.id)
                .bind(ts(item.claimed_at))
                .execute(&mut *tx)
                .await?
                .rows_affected();
        }
        tx.commit().await?;
        Ok(done)
    }

    async fn fail_outbox(
        &self,
        kind: OutboxKind,
        item: &OutboxItem,
        error: &str,
        at: DateTime<Utc>,
    ) -> Result<()> {
        sqlx::query(sql(kind).fail)
            .bind(ts(at))
            .bind(cut_error(error))
            .bind(item.id)
            .bind(ts(item.claimed_at))
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    async fn outbox_depth(&self, kind: OutboxKind) -> Result<u64> {
        let n: i64 = sqlx::query_scalar(sql(kind).depth).fetch_one(&self.pool).await?;
        Ok(u64::try_from(n).unwrap_or_default())
    }

    async fn purge_outbox_before(&self, kind: OutboxKind, before: DateTime<Utc>) -> Result<u64> {
        let before = ts(before.trunc_subsecs(6));
        let done = sqlx::query(sql(kind).purge_before).bind(before).execute(&self.writer).await?;
        Ok(done.rows_affected())
    }
}
