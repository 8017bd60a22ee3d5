//! [`NotifyRepo`](crate::NotifyRepo) bodies both backends run unchanged, over the statements of
//! [`sql::notify`]: the adapters pass their pool (on SQLite, the writer pool for writes), their
//! transaction (`BEGIN IMMEDIATE` on SQLite, which holds the database) and the
//! [`NotifySql`] statements their dialect writes its own way (`FOR UPDATE SKIP LOCKED` on
//! PostgreSQL).
//!
//! Each claim is one transaction that either takes its rows whole or takes nothing: the match
//! cursor moves by compare-and-set with its matches, a digest is recorded with its delivery
//! and its matches marked in the transaction that locked its subscription, a reminder fires
//! with its notification, a nudge's unique episode key decides whether it is new.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use freehire_domain::{ApplicationId, JobId, NotificationId, SubscriptionId, UserId};
use sqlx::{Database, Encode, Executor, FromRow, IntoArguments, Pool, Transaction, Type};

use super::{RowsAffected, Shared};
use crate::{
    DeliveryId, DeliveryOutcome, DeliveryRecord, Digest, DigestCandidate, DigestClaim, DueDelivery,
    DueReminder, NewNotification, NewNudge, NotificationRecord, NotifiedJob, NudgeCandidate,
    ReminderId, Result, Subscriber,
    bind::{List, Stamp},
    error::committing,
    rows::notify::{
        CandidateRecord, DeliveryRow, DueDeliveryRecord, LockedSubscription, NotificationRow,
        NudgeRecord, PendingMatch, ReminderRecord, SubscriberRecord,
    },
    sql::notify::{self as sql, NotifySql},
};

/// The longest error text kept on a delivery.
const ERROR_MAX_CHARS: usize = 1000;

fn cut(error: &str) -> String {
    error.chars().take(ERROR_MAX_CHARS).collect()
}

fn to_i32(n: u64) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

impl<DB> Shared<DB>
where
    DB: Database,
    DB::QueryResult: RowsAffected,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    for<'q> Option<&'q str>: Encode<'q, DB>,
    for<'q> Option<String>: Encode<'q, DB> + Type<DB>,
    for<'q> i32: Encode<'q, DB> + Type<DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> Stamp: Encode<'q, DB> + Type<DB>,
    for<'q> Option<Stamp>: Encode<'q, DB>,
    for<'q, 'a> List<'a, i64>: Encode<'q, DB> + Type<DB>,
    for<'q, 'a> sqlx::types::Json<&'a [NotifiedJob]>: Encode<'q, DB> + Type<DB>,
    (i64,): for<'r> FromRow<'r, DB::Row>,
    (i64, i64): for<'r> FromRow<'r, DB::Row>,
    (i64, String): for<'r> FromRow<'r, DB::Row>,
    SubscriberRecord: for<'r> FromRow<'r, DB::Row>,
    CandidateRecord: for<'r> FromRow<'r, DB::Row>,
    LockedSubscription: for<'r> FromRow<'r, DB::Row>,
    PendingMatch: for<'r> FromRow<'r, DB::Row>,
    DueDeliveryRecord: for<'r> FromRow<'r, DB::Row>,
    ReminderRecord: for<'r> FromRow<'r, DB::Row>,
    NudgeRecord: for<'r> FromRow<'r, DB::Row>,
    NotificationRow: for<'r> FromRow<'r, DB::Row>,
    DeliveryRow: for<'r> FromRow<'r, DB::Row>,
{
    pub async fn engine_cursor(pool: &Pool<DB>, name: &str) -> Result<i64> {
        let row: Option<(i64,)> =
            sqlx::query_as(sql::CURSOR).bind(name).fetch_optional(pool).await?;
        Ok(row.map_or(0, |(p,)| p))
    }

    pub async fn subscribers(pool: &Pool<DB>) -> Result<Vec<Subscriber>> {
        let rows: Vec<SubscriberRecord> = sqlx::query_as(sql::SUBSCRIBERS).fetch_all(pool).await?;
        rows.into_iter().map(SubscriberRecord::into_subscriber).collect()
    }

    #[allow(clippy::too_many_arguments)]
    pub async fn record_matches(
        mut tx: Transaction<'_, DB>,
        dialect: &NotifySql,
        name: &str,
        from: i64,
        to: i64,
        matches: &[(SubscriptionId, JobId)],
        at: DateTime<Utc>,
    ) -> Result<bool> {
        sqlx::query(sql::CURSOR_INIT).bind(name).bind(Stamp(at)).execute(&mut *tx).await?;
        let moved = sqlx::query(sql::CURSOR_ADVANCE)
            .bind(name)
            .bind(from)
            .bind(to)
            .bind(Stamp(at))
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if moved != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        if !matches.is_empty() {
            let subs: Vec<i64> = matches.iter().map(|(s, _)| s.get()).collect();
            let jobs: Vec<i64> = matches.iter().map(|(_, j)| j.get()).collect();
            sqlx::query(dialect.insert_matches)
                .bind(List(&subs))
                .bind(List(&jobs))
                .bind(Stamp(at))
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await.map_err(committing)?;
        Ok(true)
    }

    pub async fn digest_candidates(pool: &Pool<DB>) -> Result<Vec<DigestCandidate>> {
        let rows: Vec<CandidateRecord> =
            sqlx::query_as(sql::DIGEST_CANDIDATES).fetch_all(pool).await?;
        rows.into_iter().map(CandidateRecord::into_candidate).collect()
    }

    /// Inserts a notification row and its deliveries on `tx`.
    #[allow(clippy::too_many_arguments)]
    async fn insert_notification(
        tx: &mut Transaction<'_, DB>,
        owner: UserId,
        kind: &str,
        title: &str,
        body: &str,
        public_slug: Option<&str>,
        subscription: Option<SubscriptionId>,
        jobs: &[NotifiedJob],
        total: u64,
        now: DateTime<Utc>,
    ) -> Result<NotificationId> {
        let (id,): (i64,) = sqlx::query_as(sql::INSERT_NOTIFICATION)
            .bind(owner.get())
            .bind(kind)
            .bind(title)
            .bind(body)
            .bind(public_slug)
            .bind(subscription.map(SubscriptionId::get))
            .bind(Stamp(now))
            .bind(sqlx::types::Json(jobs))
            .bind(to_i32(total))
            .fetch_one(&mut **tx)
            .await?;
        NotificationId::new(id).map_err(|e| crate::StoreError::corrupt("id", e))
    }

    async fn insert_delivery(
        tx: &mut Transaction<'_, DB>,
        notification: NotificationId,
        owner: UserId,
        channel: &str,
        destination: &str,
        subscription: Option<SubscriptionId>,
        now: DateTime<Utc>,
    ) -> Result<DeliveryId> {
        let (id,): (i64,) = sqlx::query_as(sql::INSERT_DELIVERY)
            .bind(notification.get())
            .bind(owner.get())
            .bind(channel)
            .bind(destination)
            .bind(subscription.map(SubscriptionId::get))
            .bind(Stamp(now))
            .fetch_one(&mut **tx)
            .await?;
        Ok(DeliveryId(id))
    }

    /// Records `n` (its notification and deliveries) on `tx`.
    async fn insert_new(
        tx: &mut Transaction<'_, DB>,
        n: &NewNotification,
        now: DateTime<Utc>,
    ) -> Result<NotificationId> {
        let total = u64::try_from(n.jobs.len()).unwrap_or(u64::MAX);
        let id = Self::insert_notification(
            tx,
            n.owner,
            n.kind.as_str(),
            &n.title,
            &n.body,
            n.public_slug.as_deref(),
            None,
            &n.jobs,
            total,
            now,
        )
        .await?;
        for d in &n.deliveries {
            Self::insert_delivery(
                tx,
                id,
                n.owner,
                d.channel.as_str(),
                &d.destination,
                d.subscription,
                now,
            )
            .await?;
        }
        Ok(id)
    }

    pub async fn take_digest(
        mut tx: Transaction<'_, DB>,
        dialect: &NotifySql,
        claim: &DigestClaim<'_>,
        now: DateTime<Utc>,
    ) -> Result<Option<Digest>> {
        let locked: Option<LockedSubscription> = sqlx::query_as(dialect.lock_subscription)
            .bind(claim.subscription.get())
            .bind(Stamp::opt(claim.expected_last_sent))
            .fetch_optional(&mut *tx)
            .await?;
        let Some(locked) = locked else {
            tx.rollback().await?;
            return Ok(None);
        };
        let taken: Vec<PendingMatch> = sqlx::query_as(sql::PENDING_MATCHES)
            .bind(locked.id)
            .bind(i64::from(claim.cap))
            .fetch_all(&mut *tx)
            .await?;
        if taken.is_empty() {
            tx.rollback().await?;
            return Ok(None);
        }
        let (pending,): (i64,) =
            sqlx::query_as(sql::PENDING_COUNT).bind(locked.id).fetch_one(&mut *tx).await?;
        let total = crate::rows::count(pending);
        let owner = locked.owner()?;
        let subscription = locked.subscription()?;
        let (channel, destination) = locked.target()?;
        let jobs: Vec<NotifiedJob> = taken.iter().map(PendingMatch::listed).collect();
        let title = (claim.title)(total, &locked.search_name);
        let notification = Self::insert_notification(
            &mut tx,
            owner,
            freehire_domain::NotificationKind::Digest.as_str(),
            &title,
            "",
            None,
            Some(subscription),
            &jobs,
            total,
            now,
        )
        .await?;
        let delivery = Self::insert_delivery(
            &mut tx,
            notification,
            owner,
            channel.as_str(),
            &destination,
            Some(subscription),
            now,
        )
        .await?;
        let job_ids: Vec<i64> = taken.iter().map(|m| m.job_id).collect();
        sqlx::query(dialect.mark_matches)
            .bind(notification.get())
            .bind(Stamp(now))
            .bind(locked.id)
            .bind(List(&job_ids))
            .execute(&mut *tx)
            .await?;
        sqlx::query(sql::SET_LAST_DIGEST)
            .bind(Stamp(now))
            .bind(locked.id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await.map_err(committing)?;
        Ok(Some(Digest { notification, owner, deliveries: vec![delivery], jobs, total }))
    }

    pub async fn claim_deliveries(
        pool: &Pool<DB>,
        dialect: &NotifySql,
        worker: &str,
        limit: u32,
        lease: chrono::Duration,
        now: DateTime<Utc>,
    ) -> Result<Vec<DueDelivery>> {
        let ids: Vec<(i64,)> = sqlx::query_as(dialect.claim_deliveries)
            .bind(worker)
            .bind(Stamp(now + lease))
            .bind(Stamp(now))
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await?;
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let ids: Vec<i64> = ids.into_iter().map(|(id,)| id).collect();
        let rows: Vec<DueDeliveryRecord> = sqlx::query_as(dialect.deliveries_by_ids)
            .bind(List(&ids))
            .bind(worker)
            .fetch_all(pool)
            .await?;
        rows.into_iter().map(DueDeliveryRecord::into_delivery).collect()
    }

    pub async fn finish_delivery(
        pool: &Pool<DB>,
        id: DeliveryId,
        worker: &str,
        outcome: &DeliveryOutcome,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let (status, next, error, sent) = match outcome {
            DeliveryOutcome::Sent => ("sent", None, None, Some(Stamp(now))),
            DeliveryOutcome::Retry { error, next_attempt_at } => {
                ("pending", Some(Stamp(*next_attempt_at)), Some(cut(error)), None)
            }
            DeliveryOutcome::Failed { error } => ("failed", None, Some(cut(error)), None),
        };
        let done = sqlx::query(sql::FINISH_DELIVERY)
            .bind(status)
            .bind(next)
            .bind(error)
            .bind(sent)
            .bind(id.0)
            .bind(worker)
            .execute(pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    pub async fn claim_reminders(
        pool: &Pool<DB>,
        dialect: &NotifySql,
        worker: &str,
        limit: u32,
        lease: chrono::Duration,
        now: DateTime<Utc>,
    ) -> Result<Vec<DueReminder>> {
        let ids: Vec<(i64,)> = sqlx::query_as(dialect.claim_reminders)
            .bind(worker)
            .bind(Stamp(now))
            .bind(Stamp(now - lease))
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await?;
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let ids: Vec<i64> = ids.into_iter().map(|(id,)| id).collect();
        let rows: Vec<ReminderRecord> = sqlx::query_as(dialect.reminders_by_ids)
            .bind(List(&ids))
            .bind(worker)
            .fetch_all(pool)
            .await?;
        rows.into_iter().map(ReminderRecord::into_reminder).collect()
    }

    pub async fn fire_reminder(
        mut tx: Transaction<'_, DB>,
        id: ReminderId,
        worker: &str,
        notification: &NewNotification,
        now: DateTime<Utc>,
    ) -> Result<Option<NotificationId>> {
        let fired = sqlx::query(sql::FIRE_REMINDER)
            .bind(Stamp(now))
            .bind(id.0)
            .bind(worker)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if fired != 1 {
            tx.rollback().await?;
            return Ok(None);
        }
        let recorded = Self::insert_new(&mut tx, notification, now).await?;
        tx.commit().await.map_err(committing)?;
        Ok(Some(recorded))
    }

    pub async fn cancel_reminder(pool: &Pool<DB>, id: ReminderId, worker: &str) -> Result<bool> {
        let done = sqlx::query(sql::CANCEL_REMINDER).bind(id.0).bind(worker).execute(pool).await?;
        Ok(done.rows_affected() == 1)
    }

    pub async fn nudge_candidates(
        pool: &Pool<DB>,
        since: DateTime<Utc>,
    ) -> Result<Vec<NudgeCandidate>> {
        let rows: Vec<NudgeRecord> =
            sqlx::query_as(sql::NUDGE_CANDIDATES).bind(Stamp(since)).fetch_all(pool).await?;
        let mut candidates: Vec<NudgeCandidate> =
            rows.into_iter().map(NudgeRecord::into_candidate).collect::<Result<_>>()?;
        let at: HashMap<ApplicationId, usize> =
            candidates.iter().enumerate().map(|(i, c)| (c.application, i)).collect();
        let slot = |raw: i64| ApplicationId::new(raw).ok().and_then(|id| at.get(&id).copied());
        let episodes: Vec<(i64, String)> =
            sqlx::query_as(sql::SILENT_EPISODES).fetch_all(pool).await?;
        for (application, key) in episodes {
            if let Some(i) = slot(application) {
                candidates[i].silent_episodes.push(key);
            }
        }
        let events: Vec<(i64, i64)> =
            sqlx::query_as(sql::INTERVIEW_EVENTS).bind(Stamp(since)).fetch_all(pool).await?;
        for (application, event) in events {
            if let Some(i) = slot(application) {
                candidates[i].interview_events.push(event);
            }
        }
        Ok(candidates)
    }

    pub async fn record_nudge(
        mut tx: Transaction<'_, DB>,
        nudge: &NewNudge,
        now: DateTime<Utc>,
    ) -> Result<Option<NotificationId>> {
        let inserted: Option<(i64,)> = sqlx::query_as(sql::INSERT_NUDGE)
            .bind(nudge.notification.owner.get())
            .bind(nudge.application.get())
            .bind(nudge.job.map(JobId::get))
            .bind(nudge.kind.as_str())
            .bind(nudge.episode_key.as_str())
            .bind(Stamp(now))
            .fetch_optional(&mut *tx)
            .await?;
        let Some((nudge_id,)) = inserted else {
            tx.rollback().await?;
            return Ok(None);
        };
        let notification = Self::insert_new(&mut tx, &nudge.notification, now).await?;
        sqlx::query(sql::SET_NUDGE_NOTIFICATION)
            .bind(notification.get())
            .bind(nudge_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await.map_err(committing)?;
        Ok(Some(notification))
    }

    pub async fn notifications_of(
        pool: &Pool<DB>,
        owner: UserId,
    ) -> Result<Vec<NotificationRecord>> {
        let rows: Vec<NotificationRow> =
            sqlx::query_as(sql::NOTIFICATIONS_OF).bind(owner.get()).fetch_all(pool).await?;
        rows.into_iter().map(NotificationRow::into_record).collect()
    }

    pub async fn deliveries_of(pool: &Pool<DB>, owner: UserId) -> Result<Vec<DeliveryRecord>> {
        let rows: Vec<DeliveryRow> =
            sqlx::query_as(sql::DELIVERIES_OF).bind(owner.get()).fetch_all(pool).await?;
        rows.into_iter().map(DeliveryRow::into_record).collect()
    }
}
