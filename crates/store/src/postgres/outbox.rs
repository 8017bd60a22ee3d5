//! The search outboxes on PostgreSQL: enqueueing inside job writes, and the claim/ack contract
//! (`FOR UPDATE SKIP LOCKED`, so several drains share the queue).

use async_trait::async_trait;
use chrono::{DateTime, SubsecRound, Utc};
use sqlx::PgConnection;

use super::PgStore;
use crate::{
    ClaimOptions, OutboxItem, OutboxKind, OutboxRepo, Result,
    bind::{List, Stamp},
    plan::{ClaimedRow, OutboxSql, cut_error},
    rows::count,
};

const INDEX: OutboxSql =
    outbox_statements!("search_outbox", lock: " FOR UPDATE SKIP LOCKED", ids_in: "= ANY($1)");
const DELETE: OutboxSql = outbox_statements!("search_delete_outbox", lock: " FOR UPDATE SKIP LOCKED", ids_in: "= ANY($1)");

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
    at: Stamp,
) -> Result<()> {
    if ids.is_empty() {
        return Ok(());
    }
    sqlx::query(sql(kind.other()).drop_jobs).bind(List(ids)).execute(&mut *conn).await?;
    sqlx::query(sql(kind).enqueue).bind(List(ids)).bind(at).execute(&mut *conn).await?;
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
        let rows: Vec<ClaimedRow> = sqlx::query_as(sql(kind).claim)
            .bind(Stamp(now))
            .bind(Stamp(now - options.lease))
            .bind(i32::try_from(options.max_attempts).unwrap_or(i32::MAX))
            .bind(i64::from(options.limit))
            .fetch_all(&self.pool)
            .await?;
        ClaimedRow::items(rows)
    }

    async fn ack_outbox(&self, kind: OutboxKind, items: &[OutboxItem]) -> Result<u64> {
        let mut tx = self.pool.begin().await?;
        let mut done = 0;
        for item in items {
            done += sqlx::query(sql(kind).ack)
                .bind(item.id)
                .bind(Stamp(item.claimed_at))
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
            .bind(Stamp(at))
            .bind(cut_error(error))
            .bind(item.id)
            .bind(Stamp(item.claimed_at))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn outbox_depth(&self, kind: OutboxKind) -> Result<u64> {
        let n: i64 = sqlx::query_scalar(sql(kind).depth).fetch_one(&self.pool).await?;
        Ok(count(n))
    }

    async fn purge_outbox_before(&self, kind: OutboxKind, before: DateTime<Utc>) -> Result<u64> {
        let done = sqlx::query(sql(kind).purge_before)
            .bind(Stamp(before.trunc_subsecs(6)))
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }
}
