//! Test seeding of the rows other slices' repositories own (saved searches, subscriptions,
//! settings, saved jobs, reminders, applications and their events), so the notification
//! engines' tests run on real rows in both dialects before those repositories exist. The same
//! statement runs on either pool; panics on failure (tests only).

use chrono::{DateTime, Utc};
use freehire_domain::{
    ApplicationId, Channel, JobId, SavedSearchId, Stage, SubscriptionId, UserId,
};
use sqlx::{PgPool, SqlitePool};

use crate::{DigestSettings, ReminderId, SqliteLocation, SqliteStore, bind::Stamp};

/// Seeds rows on one test database.
#[derive(Clone)]
pub enum Seed {
    /// A SQLite database's writer pool.
    Sqlite(SqlitePool),
    /// A PostgreSQL pool.
    Postgres(PgPool),
}

/// Runs `$q` (a query builder expression over the pool `$p`) on whichever pool `$seed` is.
macro_rules! on_pool {
    ($seed:expr, |$p:ident| $q:expr) => {
        match $seed {
            Seed::Sqlite($p) => $q,
            Seed::Postgres($p) => $q,
        }
    };
}

fn id(row: (i64,)) -> i64 {
    row.0
}

#[allow(clippy::expect_used)]
impl Seed {
    /// Seeds the SQLite file at `file` (through a store of its own).
    pub async fn sqlite_file(file: &std::path::Path) -> Self {
        let store = SqliteStore::connect(&SqliteLocation::File(file.to_path_buf()))
            .await
            .expect("open sqlite for seeding");
        Seed::Sqlite(store.writer_pool().clone())
    }

    /// A saved search.
    pub async fn saved_search(
        &self,
        owner: UserId,
        name: &str,
        query: &str,
        at: DateTime<Utc>,
    ) -> SavedSearchId {
        const SQL: &str = "INSERT INTO saved_searches (user_id, name, query, created_at, \
             updated_at) VALUES ($1, $2, $3, $4, $4) RETURNING id";
        let raw = on_pool!(self, |p| sqlx::query_as(SQL)
            .bind(owner.get())
            .bind(name)
            .bind(query)
            .bind(Stamp(at))
            .fetch_one(p)
            .await
            .map(id))
        .expect("seed saved search");
        SavedSearchId::new(raw).expect("id")
    }

    /// A subscription (webhook: `destination` is the URL, `secret` its key).
    pub async fn subscription(
        &self,
        owner: UserId,
        search: SavedSearchId,
        channel: Channel,
        destination: Option<&str>,
        secret: Option<&str>,
        start_at: DateTime<Utc>,
    ) -> SubscriptionId {
        const SQL: &str = "INSERT INTO subscriptions (user_id, saved_search_id, channel, \
             destination, secret, active, start_at, created_at) \
             VALUES ($1, $2, $3, $4, $5, true, $6, $6) RETURNING id";
        let raw = on_pool!(self, |p| sqlx::query_as(SQL)
            .bind(owner.get())
            .bind(search.get())
            .bind(channel.as_str())
            .bind(destination)
            .bind(secret)
            .bind(Stamp(start_at))
            .fetch_one(p)
            .await
            .map(id))
        .expect("seed subscription");
        SubscriptionId::new(raw).expect("id")
    }

    /// Sets a subscription's `last_digest_sent_at`.
    pub async fn last_digest(&self, subscription: SubscriptionId, at: Option<DateTime<Utc>>) {
        const SQL: &str = "UPDATE subscriptions SET last_digest_sent_at = $1 WHERE id = $2";
        on_pool!(self, |p| sqlx::query(SQL)
            .bind(Stamp::opt(at))
            .bind(subscription.get())
            .execute(p)
            .await
            .map(|_| ()))
        .expect("seed last digest");
    }

    /// The owner's notification settings.
    pub async fn settings(&self, owner: UserId, s: &DigestSettings, at: DateTime<Utc>) {
        const SQL: &str = "INSERT INTO notification_settings (user_id, enabled, \
             digest_frequency, digest_hour, quiet_hours_start, quiet_hours_end, timezone, \
             alerts_email_enabled, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";
        let hour = |h: u32| i16::try_from(h).expect("hour");
        on_pool!(self, |p| sqlx::query(SQL)
            .bind(owner.get())
            .bind(s.enabled)
            .bind(s.frequency.as_str())
            .bind(hour(s.digest_hour))
            .bind(s.quiet_hours.map(|q| hour(q.0)))
            .bind(s.quiet_hours.map(|q| hour(q.1)))
            .bind(s.timezone.as_deref())
            .bind(s.alerts_email)
            .bind(Stamp(at))
            .execute(p)
            .await
            .map(|_| ()))
        .expect("seed settings");
    }

    /// Marks a job saved (or unsaved with `None`) by the owner.
    pub async fn save_job(&self, owner: UserId, job: JobId, saved_at: Option<DateTime<Utc>>) {
        const SQL: &str = "INSERT INTO user_jobs (user_id, job_id, saved_at) VALUES ($1, $2, $3) \
             ON CONFLICT (user_id, job_id) DO UPDATE SET saved_at = excluded.saved_at";
        on_pool!(self, |p| sqlx::query(SQL)
            .bind(owner.get())
            .bind(job.get())
            .bind(Stamp::opt(saved_at))
            .execute(p)
            .await
            .map(|_| ()))
        .expect("seed saved job");
    }

    /// A pending reminder.
    pub async fn reminder(
        &self,
        owner: UserId,
        job: JobId,
        fire_at: DateTime<Utc>,
        at: DateTime<Utc>,
    ) -> ReminderId {
        const SQL: &str = "INSERT INTO job_reminders (user_id, job_id, fire_at, status, attempts, \
             created_at) VALUES ($1, $2, $3, 'pending', 0, $4) RETURNING id";
        let raw = on_pool!(self, |p| sqlx::query_as(SQL)
            .bind(owner.get())
            .bind(job.get())
            .bind(Stamp(fire_at))
            .bind(Stamp(at))
            .fetch_one(p)
            .await
            .map(id))
        .expect("seed reminder");
        ReminderId(raw)
    }

    /// A reminder's status.
    pub async fn reminder_status(&self, reminder: ReminderId) -> String {
        const SQL: &str = "SELECT status FROM job_reminders WHERE id = $1";
        on_pool!(self, |p| sqlx::query_as(SQL)
            .bind(reminder.0)
            .fetch_one(p)
            .await
            .map(|(s,): (String,)| s))
        .expect("read reminder")
    }

    /// An application.
    #[allow(clippy::too_many_arguments)]
    pub async fn application(
        &self,
        owner: UserId,
        job: Option<(JobId, &str)>,
        company: &str,
        role: &str,
        stage: Option<Stage>,
        applied_at: Option<DateTime<Utc>>,
        at: DateTime<Utc>,
    ) -> ApplicationId {
        const SQL: &str = "INSERT INTO applications (user_id, job_id, job_slug, company_slug, \
             company, role_title, stage, applied_at, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $4, $5, $6, $7, $8, $8) RETURNING id";
        let raw = on_pool!(self, |p| sqlx::query_as(SQL)
            .bind(owner.get())
            .bind(job.map(|(j, _)| j.get()))
            .bind(job.map(|(_, s)| s))
            .bind(company)
            .bind(role)
            .bind(stage.map(|s| s.as_str()))
            .bind(Stamp::opt(applied_at))
            .bind(Stamp(at))
            .fetch_one(p)
            .await
            .map(id))
        .expect("seed application");
        ApplicationId::new(raw).expect("id")
    }

    /// Sets an application's stage and applied date.
    pub async fn set_stage(
        &self,
        application: ApplicationId,
        stage: Option<Stage>,
        applied_at: Option<DateTime<Utc>>,
    ) {
        const SQL: &str = "UPDATE applications SET stage = $1, applied_at = $2 WHERE id = $3";
        on_pool!(self, |p| sqlx::query(SQL)
            .bind(stage.map(|s| s.as_str()))
            .bind(Stamp::opt(applied_at))
            .bind(application.get())
            .execute(p)
            .await
            .map(|_| ()))
        .expect("seed stage");
    }

    /// An application event (`kind`, `signal`) recorded at `at`; returns its id.
    pub async fn event(
        &self,
        owner: UserId,
        application: ApplicationId,
        kind: &str,
        signal: Option<&str>,
        at: DateTime<Utc>,
    ) -> i64 {
        const SQL: &str = "INSERT INTO application_events (user_id, application_id, kind, \
             signal, occurred_at, recorded_at, source) VALUES ($1, $2, $3, $4, $5, $5, 'user') \
             RETURNING id";
        on_pool!(self, |p| sqlx::query_as(SQL)
            .bind(owner.get())
            .bind(application.get())
            .bind(kind)
            .bind(signal)
            .bind(Stamp(at))
            .fetch_one(p)
            .await
            .map(id))
        .expect("seed event")
    }

    /// How many matches a subscription has, and how many of them are notified.
    pub async fn matches(&self, subscription: SubscriptionId) -> (u64, u64) {
        const SQL: &str = "SELECT count(*), count(notified_at) FROM subscription_matches \
             WHERE subscription_id = $1";
        let (all, notified): (i64, i64) =
            on_pool!(self, |p| sqlx::query_as(SQL).bind(subscription.get()).fetch_one(p).await)
                .expect("count matches");
        (u64::try_from(all).unwrap_or_default(), u64::try_from(notified).unwrap_or_default())
    }

    /// Adds `n` matches of open jobs to a subscription, one a second from `at` (for digest tests
    /// that need many): each `job` of `jobs`.
    pub async fn matches_of(
        &self,
        subscription: SubscriptionId,
        jobs: &[JobId],
        at: DateTime<Utc>,
    ) {
        const SQL: &str = "INSERT INTO subscription_matches (subscription_id, job_id, matched_at) \
             VALUES ($1, $2, $3)";
        for (i, job) in jobs.iter().enumerate() {
            let when = at + chrono::Duration::seconds(i64::try_from(i).unwrap_or_default());
            on_pool!(self, |p| sqlx::query(SQL)
                .bind(subscription.get())
                .bind(job.get())
                .bind(Stamp(when))
                .execute(p)
                .await
                .map(|_| ()))
            .expect("seed match");
        }
    }
}
