//! [`NotifyRepo`] on PostgreSQL: `Shared`'s bodies; every claim locks the rows it takes with
//! `FOR UPDATE SKIP LOCKED`, so concurrent workers take disjoint rows and never wait on each
//! other, and the match cursor moves by compare-and-set. Reads run once more if they lost
//! their connection ([`retry_once_if_lost`]); writes do not.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::{JobId, NotificationId, SubscriptionId, UserId};

use super::{PgStore, Shared, retry_once_if_lost};
use crate::{
    DeliveryId, DeliveryOutcome, DeliveryRecord, Digest, DigestCandidate, DigestClaim, DueDelivery,
    DueReminder, NewNotification, NewNudge, NotificationRecord, NotifyRepo, NudgeCandidate,
    ReminderId, Result, Subscriber,
    sql::notify::{
        NotifySql, claim_deliveries, claim_reminders, deliveries_by_ids, lock_subscription,
        reminders_by_ids,
    },
};

const SQL: NotifySql = NotifySql {
    insert_matches: "INSERT INTO subscription_matches (subscription_id, job_id, matched_at) \
         SELECT u.s, u.j, $3 FROM UNNEST($1::bigint[], $2::bigint[]) AS u(s, j) \
         WHERE EXISTS (SELECT 1 FROM subscriptions WHERE id = u.s) \
           AND EXISTS (SELECT 1 FROM jobs WHERE id = u.j) \
         ON CONFLICT DO NOTHING",
    lock_subscription: lock_subscription!("IS NOT DISTINCT FROM", " FOR UPDATE OF s SKIP LOCKED"),
    mark_matches: "UPDATE subscription_matches SET notification_id = $1, notified_at = $2 \
         WHERE subscription_id = $3 AND job_id = ANY($4)",
    claim_deliveries: claim_deliveries!(" FOR UPDATE SKIP LOCKED"),
    deliveries_by_ids: deliveries_by_ids!("= ANY($1)"),
    claim_reminders: claim_reminders!(" FOR UPDATE SKIP LOCKED"),
    reminders_by_ids: reminders_by_ids!("= ANY($1)"),
};

#[async_trait]
impl NotifyRepo for PgStore {
    async fn engine_cursor(&self, name: &str) -> Result<i64> {
        retry_once_if_lost(|| Shared::engine_cursor(&self.pool, name)).await
    }

    async fn insert_horizon(&self) -> Result<Option<JobId>> {
        use crate::sql::notify::{JOB_INSERT_LOCK, LOCK_JOB_INSERTS, MAX_JOB_ID};
        retry_once_if_lost(|| async {
            let mut tx = self.pool.begin().await?;
            sqlx::query(LOCK_JOB_INSERTS).bind(JOB_INSERT_LOCK).execute(&mut *tx).await?;
            let max: Option<i64> = sqlx::query_scalar(MAX_JOB_ID).fetch_one(&mut *tx).await?;
            tx.commit().await.map_err(crate::error::committing)?;
            Ok(max.and_then(|id| JobId::new(id).ok()))
        })
        .await
    }

    async fn subscribers(&self) -> Result<Vec<Subscriber>> {
        retry_once_if_lost(|| Shared::subscribers(&self.pool)).await
    }

    async fn record_matches(
        &self,
        name: &str,
        from: i64,
        to: i64,
        matches: &[(SubscriptionId, JobId)],
        at: DateTime<Utc>,
    ) -> Result<bool> {
        let tx = self.pool.begin().await?;
        Shared::record_matches(tx, &SQL, name, from, to, matches, at).await
    }

    async fn digest_candidates(&self) -> Result<Vec<DigestCandidate>> {
        retry_once_if_lost(|| Shared::digest_candidates(&self.pool)).await
    }

    async fn take_digest(
        &self,
        claim: &DigestClaim<'_>,
        now: DateTime<Utc>,
    ) -> Result<Option<Digest>> {
        let tx = self.pool.begin().await?;
        Shared::take_digest(tx, &SQL, claim, now).await
    }

    async fn claim_deliveries(
        &self,
        worker: &str,
        limit: u32,
        lease: chrono::Duration,
        now: DateTime<Utc>,
    ) -> Result<Vec<DueDelivery>> {
        Shared::claim_deliveries(&self.pool, &SQL, worker, limit, lease, now).await
    }

    async fn finish_delivery(
        &self,
        id: DeliveryId,
        worker: &str,
        outcome: &DeliveryOutcome,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        Shared::finish_delivery(&self.pool, id, worker, outcome, now).await
    }

    async fn claim_reminders(
        &self,
        worker: &str,
        limit: u32,
        lease: chrono::Duration,
        now: DateTime<Utc>,
    ) -> Result<Vec<DueReminder>> {
        Shared::claim_reminders(&self.pool, &SQL, worker, limit, lease, now).await
    }

    async fn fire_reminder(
        &self,
        id: ReminderId,
        worker: &str,
        notification: &NewNotification,
        now: DateTime<Utc>,
    ) -> Result<Option<NotificationId>> {
        let tx = self.pool.begin().await?;
        Shared::fire_reminder(tx, id, worker, notification, now).await
    }

    async fn cancel_reminder(&self, id: ReminderId, worker: &str) -> Result<bool> {
        Shared::cancel_due_reminder(&self.pool, id, worker).await
    }

    async fn nudge_candidates(&self, since: DateTime<Utc>) -> Result<Vec<NudgeCandidate>> {
        retry_once_if_lost(|| Shared::nudge_candidates(&self.pool, since)).await
    }

    async fn record_nudge(
        &self,
        nudge: &NewNudge,
        now: DateTime<Utc>,
    ) -> Result<Option<NotificationId>> {
        let tx = self.pool.begin().await?;
        Shared::record_nudge(tx, nudge, now).await
    }

    async fn notifications_of(&self, owner: UserId) -> Result<Vec<NotificationRecord>> {
        retry_once_if_lost(|| Shared::notifications_of(&self.pool, owner)).await
    }

    async fn deliveries_of(&self, owner: UserId) -> Result<Vec<DeliveryRecord>> {
        retry_once_if_lost(|| Shared::deliveries_of(&self.pool, owner)).await
    }
}
