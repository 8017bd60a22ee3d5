//! The search outboxes on PostgreSQL: enqueueing inside job writes, and the claim/ack contract
//! (`FOR UPDATE SKIP LOCKED`, so several drains share the queue).

use async_trait::async_trait;
use chrono::{DateTime, SubsecRound, Utc};
use freehire_domain::JobId;
use sqlx::{PgConnection, Row};

use super::PgStore;
use crate::{
    ClaimOptions, OutboxItem, OutboxKind, OutboxRepo, Result, StoreError,
    plan::{OutboxSql, cut_error},
};

const INDEX: OutboxSql = outbox_statements!("search_outbox", "$1", "$2", "$3", "$4", " FOR UPDATE SKIP LOCKED", ids_in: "= ANY($1)");
const DELETE: OutboxSql = outbox_statements!("search_delete_outbox", "$1", "$2", "$3", "$4", " FOR UPDATE SKIP LOCKED", ids_in: "= ANY($1)");

fn sql(kind: OutboxKind) -> &'static OutboxSql {
    match kind {
        OutboxKind::Index => &INDEX,
        OutboxKind::Delete => &DELETE,
    }
}

/// Queues jobs in the `kind` outbox and drops their pending rows in the other one, so the
/// latest change wins.
pub(super) async fn enqueue(
    conn: &mut PgConnection,
    kind: OutboxKind,
    ids: &[i64],
    at: DateTime<Utc>,
) -> Result<()> {
    if ids.is_empty() {
        return Ok(());
    }
    sqlx::query(sql(kind.other()).drop_jobs).bind(ids).execute(&mut *conn).await?;
    sqlx::query(sql(kind).enqueue).bind(ids).bind(at).execute(&mut *conn).await?;
    Ok(())
}

#[async_trait]
impl OutboxRepo for PgStore {
    async fn claim_outbox(
        &self,
        kind: OutboxKind,
        options: ClaimOptions,
        now: DateTime<Utc>,
    ) -> Result<Vec<OutboxItem>> {
        let now = now.trunc_subsecs(6);
        let rows = sqlx::query(sql(kind).claim)
            .bind(now)
            .bind(now - options.lease)
            .bind(i32::try_from(options.max_attempts).unwrap_or(i32::MAX))
            .bind(i64::from(options.limit))
            .fetch_all(&self.pool)
            .await?;
        let mut items = rows
            .iter()
            .map(|r| {
                Ok(OutboxItem {
                    id: r.try_get("id")?,
                    job_id: JobId::new(r.try_get("job_id")?)
                        .map_err(|e| StoreError::corrupt("job_id", e))?,
                    attempts: u32::try_from(r.try_get::<i32, _>("attempts")?).unwrap_or(u32::MAX),
                    claimed_at: r.try_get("claimed_at")?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        items.sort_by_key(|i| i.id);
        Ok(items)
    }

    async fn ack_outbox(&self, kind: OutboxKind, items: &[OutboxItem]) -> Result<u64> {
        let mut tx = self.pool.begin().await?;
        let mut done = 0;
        for item in items {
            done += sqlx::query(sql(kind).ack)
                .bind(item.id)
                .bind(item.claimed_at)
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
            .bind(at)
            .bind(cut_error(error))
            .bind(item.id)
            .bind(item.claimed_at)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn outbox_depth(&self, kind: OutboxKind) -> Result<u64> {
        let n: i64 = sqlx::query_scalar(sql(kind).depth).fetch_one(&self.pool).await?;
        Ok(u64::try_from(n).unwrap_or_default())
    }

    async fn purge_outbox_before(&self, kind: OutboxKind, before: DateTime<Utc>) -> Result<u64> {
        let done = sqlx::query(sql(kind).purge_before)
            .bind(before.trunc_subsecs(6))
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }
}
