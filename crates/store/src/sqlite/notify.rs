//! [`NotifyRepo`] on SQLite: `Shared`'s bodies, reads on the reader pool, writes on the one
//! writer connection, claims in `BEGIN IMMEDIATE` transactions (which hold the database, so no
//! row needs a lock of its own and two claims take turns).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::{JobId, NotificationId, SubscriptionId, UserId};

use super::{Shared, SqliteStore};
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
         SELECT s.value, j.value, $3 FROM json_each($1) AS s JOIN json_each($2) AS j \
           ON j.key = s.key \
         WHERE EXISTS (SELECT 1 FROM subscriptions WHERE id = s.value) \
           AND EXISTS (SELECT 1 FROM jobs WHERE id = j.value) \
         ON CONFLICT DO NOTHING",
    lock_subscription: lock_subscription!("IS", ""),
    mark_matches: "UPDATE subscription_matches SET notification_id = $1, notified_at = $2 \
         WHERE subscription_id = $3 AND job_id IN (SELECT value FROM json_each($4))",
    claim_deliveries: claim_deliveries!(""),
    deliveries_by_ids: deliveries_by_ids!("IN (SELECT value FROM json_each($1))"),
    claim_reminders: claim_reminders!(""),
    reminders_by_ids: reminders_by_ids!("IN (SELECT value FROM json_each($1))"),
};

#[async_trait]
impl NotifyRepo for SqliteStore {
    async fn engine_cursor(&self, name: &str) -> Result<i64> {
        Shared::engine_cursor(&self.pool, name).await
    }

    async fn insert_horizon(&self) -> Result<Option<JobId>> {
        let max: Option<i64> =
            sqlx::query_scalar(crate::sql::notify::MAX_JOB_ID).fetch_one(&self.pool).await?;
        Ok(max.and_then(|id| JobId::new(id).ok()))
    }

    async fn subscribers(&self) -> Result<Vec<Subscriber>> {
        Shared::subscribers(&self.pool).await
    }

    async fn record_matches(
        &self,
        name: &str,
        from: i64,
        to: i64,
        matches: &[(SubscriptionId, JobId)],
        at: DateTime<Utc>,
    ) -> Result<bool> {
        let tx = self.write().await?;
        Shared::record_matches(tx, &SQL, name, from, to, matches, at).await
    }

    async fn digest_candidates(&self) -> Result<Vec<DigestCandidate>> {
        Shared::digest_candidates(&self.pool).await
    }

    async fn take_digest(
        &self,
        claim: &DigestClaim<'_>,
        now: DateTime<Utc>,
    ) -> Result<Option<Digest>> {
        let tx = self.write().await?;
        Shared::take_digest(tx, &SQL, claim, now).await
    }

    async fn claim_deliveries(
        &self,
        worker: &str,
        limit: u32,
        lease: chrono::Duration,
        now: DateTime<Utc>,
    ) -> Result<Vec<DueDelivery>> {
        Shared::claim_deliveries(&self.writer, &SQL, worker, limit, lease, now).await
    }

    async fn finish_delivery(
        &self,
        id: DeliveryId,
        worker: &str,
        outcome: &DeliveryOutcome,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        Shared::finish_delivery(&self.writer, id, worker, outcome, now).await
    }

    async fn claim_reminders(
        &self,
        worker: &str,
        limit: u32,
        lease: chrono::Duration,
        now: DateTime<Utc>,
    ) -> Result<Vec<DueReminder>> {
        Shared::claim_reminders(&self.writer, &SQL, worker, limit, lease, now).await
    }

    async fn fire_reminder(
        &self,
        id: ReminderId,
        worker: &str,
        notification: &NewNotification,
        now: DateTime<Utc>,
    ) -> Result<Option<NotificationId>> {
        let tx = self.write().await?;
        Shared::fire_reminder(tx, id, worker, notification, now).await
    }

    async fn cancel_reminder(&self, id: ReminderId, worker: &str) -> Result<bool> {
        Shared::cancel_due_reminder(&self.writer, id, worker).await
    }

    async fn nudge_candidates(&self, since: DateTime<Utc>) -> Result<Vec<NudgeCandidate>> {
        Shared::nudge_candidates(&self.pool, since).await
    }

    async fn record_nudge(
        &self,
        nudge: &NewNudge,
        now: DateTime<Utc>,
    ) -> Result<Option<NotificationId>> {
        let tx = self.write().await?;
        Shared::record_nudge(tx, nudge, now).await
    }

    async fn notifications_of(&self, owner: UserId) -> Result<Vec<NotificationRecord>> {
        Shared::notifications_of(&self.pool, owner).await
    }

    async fn deliveries_of(&self, owner: UserId) -> Result<Vec<DeliveryRecord>> {
        Shared::deliveries_of(&self.pool, owner).await
    }
}
