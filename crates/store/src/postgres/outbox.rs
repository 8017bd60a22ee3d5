//! The search outboxes on PostgreSQL: enqueueing inside job writes, and the claim/ack contract
//! (`FOR UPDATE SKIP LOCKED`, so several drains share the queue).

use async_trait::async_trait;
use chrono::{DateTime, SubsecRound, Utc};
use sqlx::PgConnection;

use super::{PgStore, Shared, retry_once_if_lost};
use crate::{
    ClaimOptions, OutboxItem, OutboxKind, OutboxRepo, Result,
    bind::Stamp,
    plan::{ClaimedRow, Outboxes},
};

pub(super) const OUTBOXES: Outboxes = Outboxes {
    index: outbox_statements!("search_outbox", lock: " FOR UPDATE SKIP LOCKED", ids_in: "= ANY($1)"),
    delete: outbox_statements!("search_delete_outbox", lock: " FOR UPDATE SKIP LOCKED", ids_in: "= ANY($1)"),
};

/// Queues jobs in the `kind` outbox and drops their pending rows in the other one, so the
/// latest change wins.
pub(super) async fn enqueue(
    conn: &mut PgConnection,
    kind: OutboxKind,
    ids: &[i64],
    at: Stamp,
) -> Result<()> {
    Shared::enqueue(conn, &OUTBOXES, kind, ids, at).await
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
        let rows: Vec<ClaimedRow> = sqlx::query_as(OUTBOXES.of(kind).claim)
            .bind(Stamp(now))
            .bind(Stamp(now - options.lease))
            .bind(i32::try_from(options.max_attempts).unwrap_or(i32::MAX))
            .bind(i64::from(options.limit))
            .fetch_all(&self.pool)
            .await?;
        ClaimedRow::items(rows)
    }

    async fn ack_outbox(&self, kind: OutboxKind, items: &[OutboxItem]) -> Result<u64> {
        retry_once_if_lost(|| async move {
            Shared::ack_outbox(self.pool.begin().await?, &OUTBOXES, kind, items).await
        })
        .await
    }

    async fn fail_outbox(
        &self,
        kind: OutboxKind,
        item: &OutboxItem,
        error: &str,
        at: DateTime<Utc>,
    ) -> Result<()> {
        Shared::fail_outbox(&self.pool, &OUTBOXES, kind, item, error, at).await
    }

    async fn renew_outbox(
        &self,
        kind: OutboxKind,
        items: &[OutboxItem],
        now: DateTime<Utc>,
    ) -> Result<u64> {
        let now = now.trunc_subsecs(6);
        retry_once_if_lost(|| async move {
            Shared::renew_outbox(self.pool.begin().await?, &OUTBOXES, kind, items, now).await
        })
        .await
    }

    async fn hold_writer_lease(
        &self,
        holder: &str,
        expiry: chrono::Duration,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        Shared::hold_writer_lease(&self.pool, holder, expiry, now.trunc_subsecs(6)).await
    }

    async fn release_writer_lease(&self, holder: &str) -> Result<()> {
        Shared::release_writer_lease(&self.pool, holder).await
    }

    async fn outbox_depth(&self, kind: OutboxKind) -> Result<u64> {
        retry_once_if_lost(
            || async move { Shared::outbox_depth(&self.pool, &OUTBOXES, kind).await },
        )
        .await
    }

    async fn purge_outbox_before(&self, kind: OutboxKind, before: DateTime<Utc>) -> Result<u64> {
        Shared::purge_outbox_before(&self.pool, &OUTBOXES, kind, before).await
    }
}
