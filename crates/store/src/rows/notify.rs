//! Notification-engine rows as read (subscriptions, matches, notifications, deliveries,
//! reminders, applications), decoded on both backends through the [`bind`](crate::bind) types
//! and parsed totally: a stored value that no longer parses is [`StoreError::Corrupt`] naming
//! its column.

use freehire_domain::{
    ApplicationId, Channel, DigestFrequency, Email, JobId, NotificationId, NotificationKind, Stage,
    SubscriptionId, UserId,
};

use crate::{
    DeliveryId, DeliveryRecord, DigestCandidate, DigestSettings, DueDelivery, DueReminder,
    NotificationRecord, NotifiedJob, NudgeCandidate, ReminderId, Result, StoreError, Subscriber,
    bind::{Stamp, StoredJson},
    rows::count,
};

fn user(id: i64) -> Result<UserId> {
    UserId::new(id).map_err(|e| StoreError::corrupt("user_id", e))
}

fn subscription(id: i64) -> Result<SubscriptionId> {
    SubscriptionId::new(id).map_err(|e| StoreError::corrupt("subscription_id", e))
}

fn notification(id: i64) -> Result<NotificationId> {
    NotificationId::new(id).map_err(|e| StoreError::corrupt("notification_id", e))
}

fn job(id: i64) -> Result<JobId> {
    JobId::new(id).map_err(|e| StoreError::corrupt("job_id", e))
}

fn email(raw: &str) -> Result<Email> {
    Email::parse(raw).map_err(|e| StoreError::corrupt("email", e))
}

fn channel(raw: &str) -> Result<Channel> {
    Channel::parse(raw).map_err(|e| StoreError::corrupt("channel", e))
}

fn kind(raw: &str) -> Result<NotificationKind> {
    NotificationKind::parse(raw).map_err(|e| StoreError::corrupt("kind", e))
}

fn hour(value: i16, column: &'static str) -> Result<u32> {
    u32::try_from(value)
        .ok()
        .filter(|h| *h < 24)
        .ok_or_else(|| StoreError::corrupt(column, format!("{value} is not an hour")))
}

/// The settings columns of `settings_columns!` (all NULL without a settings row).
#[derive(sqlx::FromRow)]
pub(crate) struct SettingsColumns {
    s_enabled: Option<bool>,
    s_frequency: Option<String>,
    s_hour: Option<i16>,
    s_quiet_start: Option<i16>,
    s_quiet_end: Option<i16>,
    s_timezone: Option<String>,
    s_alerts_email: Option<bool>,
}

impl SettingsColumns {
    fn into_settings(self) -> Result<DigestSettings> {
        let defaults = DigestSettings::default();
        let quiet_hours = match (self.s_quiet_start, self.s_quiet_end) {
            (Some(start), Some(end)) => {
                Some((hour(start, "quiet_hours_start")?, hour(end, "quiet_hours_end")?))
            }
            _ => None,
        };
        Ok(DigestSettings {
            enabled: self.s_enabled.unwrap_or(defaults.enabled),
            frequency: match self.s_frequency.as_deref() {
                Some(raw) => DigestFrequency::parse(raw)
                    .map_err(|e| StoreError::corrupt("digest_frequency", e))?,
                None => defaults.frequency,
            },
            digest_hour: match self.s_hour {
                Some(h) => hour(h, "digest_hour")?,
                None => defaults.digest_hour,
            },
            quiet_hours,
            timezone: self.s_timezone,
            alerts_email: self.s_alerts_email.unwrap_or(defaults.alerts_email),
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct SubscriberRecord {
    id: i64,
    user_id: i64,
    query: String,
    start_at: Stamp,
}

impl SubscriberRecord {
    pub fn into_subscriber(self) -> Result<Subscriber> {
        Ok(Subscriber {
            subscription: subscription(self.id)?,
            owner: user(self.user_id)?,
            query: self.query,
            start_at: self.start_at.into(),
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct CandidateRecord {
    id: i64,
    user_id: i64,
    last_digest_sent_at: Option<Stamp>,
    pending: i64,
    #[sqlx(flatten)]
    settings: SettingsColumns,
}

impl CandidateRecord {
    pub fn into_candidate(self) -> Result<DigestCandidate> {
        Ok(DigestCandidate {
            subscription: subscription(self.id)?,
            owner: user(self.user_id)?,
            last_digest_sent_at: self.last_digest_sent_at.map(Into::into),
            settings: self.settings.into_settings()?,
            pending: count(self.pending),
        })
    }
}

/// The subscription a digest claim locked.
#[derive(sqlx::FromRow)]
pub(crate) struct LockedSubscription {
    pub id: i64,
    pub user_id: i64,
    pub channel: String,
    pub destination: Option<String>,
    pub search_name: String,
    pub email: String,
}

impl LockedSubscription {
    /// The channel, and where its message goes (the account's address for email).
    pub fn target(&self) -> Result<(Channel, String)> {
        let channel = channel(&self.channel)?;
        let destination = match channel {
            Channel::Email => self.email.clone(),
            Channel::Webhook => self
                .destination
                .clone()
                .ok_or_else(|| StoreError::corrupt("destination", "a webhook without a URL"))?,
        };
        Ok((channel, destination))
    }

    pub fn owner(&self) -> Result<UserId> {
        user(self.user_id)
    }

    pub fn subscription(&self) -> Result<SubscriptionId> {
        subscription(self.id)
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct PendingMatch {
    pub job_id: i64,
    public_slug: String,
    title: String,
    company: String,
    location: String,
}

impl PendingMatch {
    pub fn listed(&self) -> NotifiedJob {
        NotifiedJob {
            slug: self.public_slug.clone(),
            title: self.title.clone(),
            company: self.company.clone(),
            location: self.location.clone(),
            url: None,
        }
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct DueDeliveryRecord {
    id: i64,
    notification_id: i64,
    user_id: i64,
    channel: String,
    destination: Option<String>,
    secret: Option<String>,
    attempts: i32,
    kind: String,
    title: String,
    body: String,
    jobs: StoredJson,
    total: i32,
    saved_search: Option<String>,
    saved_search_id: Option<i64>,
}

impl DueDeliveryRecord {
    pub fn into_delivery(self) -> Result<DueDelivery> {
        Ok(DueDelivery {
            id: DeliveryId(self.id),
            notification: notification(self.notification_id)?,
            owner: user(self.user_id)?,
            channel: channel(&self.channel)?,
            destination: self
                .destination
                .ok_or_else(|| StoreError::corrupt("destination", "no destination"))?,
            secret: self.secret,
            attempts: u32::try_from(self.attempts).unwrap_or_default(),
            kind: kind(&self.kind)?,
            title: self.title,
            body: self.body,
            jobs: self.jobs.parse("jobs")?,
            total: u64::try_from(self.total).unwrap_or_default(),
            saved_search: self.saved_search,
            saved_search_id: self.saved_search_id,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct ReminderRecord {
    id: i64,
    user_id: i64,
    email: String,
    #[sqlx(flatten)]
    settings: SettingsColumns,
    job_id: i64,
    public_slug: String,
    title: String,
    company: String,
    location: String,
    job_open: bool,
    saved: bool,
    applied: bool,
}

impl ReminderRecord {
    pub fn into_reminder(self) -> Result<DueReminder> {
        Ok(DueReminder {
            id: ReminderId(self.id),
            owner: user(self.user_id)?,
            email: email(&self.email)?,
            settings: self.settings.into_settings()?,
            job: job(self.job_id)?,
            job_slug: self.public_slug,
            title: self.title,
            company: self.company,
            location: self.location,
            job_open: self.job_open,
            saved: self.saved,
            applied: self.applied,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct NudgeRecord {
    id: i64,
    user_id: i64,
    email: String,
    #[sqlx(flatten)]
    settings: SettingsColumns,
    job_id: Option<i64>,
    job_slug: Option<String>,
    role_title: String,
    company: String,
    stage: Option<String>,
    applied_at: Option<Stamp>,
}

impl NudgeRecord {
    pub fn into_candidate(self) -> Result<NudgeCandidate> {
        Ok(NudgeCandidate {
            application: ApplicationId::new(self.id)
                .map_err(|e| StoreError::corrupt("application_id", e))?,
            owner: user(self.user_id)?,
            email: email(&self.email)?,
            settings: self.settings.into_settings()?,
            job: self.job_id.map(job).transpose()?,
            job_slug: self.job_slug,
            role_title: self.role_title,
            company: self.company,
            stage: self
                .stage
                .as_deref()
                .map(Stage::parse)
                .transpose()
                .map_err(|e| StoreError::corrupt("stage", e))?,
            applied_at: self.applied_at.map(Into::into),
            silent_episodes: Vec::new(),
            interview_events: Vec::new(),
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct NotificationRow {
    id: i64,
    user_id: i64,
    kind: String,
    title: String,
    jobs: StoredJson,
    total: i32,
}

impl NotificationRow {
    pub fn into_record(self) -> Result<NotificationRecord> {
        Ok(NotificationRecord {
            id: notification(self.id)?,
            owner: user(self.user_id)?,
            kind: kind(&self.kind)?,
            title: self.title,
            jobs: self.jobs.parse("jobs")?,
            total: u64::try_from(self.total).unwrap_or_default(),
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct DeliveryRow {
    id: i64,
    notification_id: i64,
    channel: String,
    status: String,
    attempts: i32,
    next_attempt_at: Stamp,
    last_error: Option<String>,
}

impl DeliveryRow {
    pub fn into_record(self) -> Result<DeliveryRecord> {
        Ok(DeliveryRecord {
            id: DeliveryId(self.id),
            notification: notification(self.notification_id)?,
            channel: channel(&self.channel)?,
            status: self.status,
            attempts: u32::try_from(self.attempts).unwrap_or_default(),
            next_attempt_at: self.next_attempt_at.into(),
            last_error: self.last_error,
        })
    }
}
