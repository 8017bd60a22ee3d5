//! What the notification engines read and write ([`NotifyRepo`](crate::NotifyRepo)): the
//! subscribers the match step percolates, the digest candidates and the digest a claim takes,
//! the delivery queue, due reminders, and the applications the nudge engine watches.
//!
//! The store decides nothing about *when* a digest is due (time zones, quiet hours: that is the
//! app's schedule); it guarantees that what is taken is taken once: a digest claim is
//! compare-and-set on `last_digest_sent_at` under the subscription's row lock, a delivery is
//! leased to one worker, a reminder fires once, a nudge is unique per episode.

use chrono::{DateTime, Utc};
use freehire_domain::{
    ApplicationId, Channel, DigestFrequency, Email, JobId, NotificationId, NotificationKind, Stage,
    SubscriptionId, UserId,
};
use serde::{Deserialize, Serialize};

/// A row of `notification_deliveries`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DeliveryId(pub i64);

impl std::fmt::Display for DeliveryId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// A row of `job_reminders`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ReminderId(pub i64);

/// An active subscription and its saved search's query, as the match step percolates it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscriber {
    /// The subscription.
    pub subscription: SubscriptionId,
    /// Its owner.
    pub owner: UserId,
    /// The saved search's query string (the search grammar).
    pub query: String,
    /// Jobs created before this are never matched.
    pub start_at: DateTime<Utc>,
}

/// A user's notification settings as the engines apply them: the stored row, or the
/// defaults (enabled, daily at 09:00, no quiet hours) when there is none. The time zone is the
/// settings' own, else the account's, else `None` (UTC).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DigestSettings {
    /// `false`: no digest at all.
    pub enabled: bool,
    /// Instant, daily or weekly.
    pub frequency: DigestFrequency,
    /// The local hour (0–23) digests and reminders go out at.
    pub digest_hour: u32,
    /// Local quiet hours `[start, end)` when no digest is sent.
    pub quiet_hours: Option<(u32, u32)>,
    /// An IANA zone name.
    pub timezone: Option<String>,
    /// Whether reminder and nudge emails are sent (the in-app notification always is).
    pub alerts_email: bool,
}

impl Default for DigestSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            frequency: DigestFrequency::Daily,
            digest_hour: 9,
            quiet_hours: None,
            timezone: None,
            alerts_email: true,
        }
    }
}

/// An active subscription with unnotified matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DigestCandidate {
    /// The subscription.
    pub subscription: SubscriptionId,
    /// Its owner.
    pub owner: UserId,
    /// When its last digest was taken (`None`: never).
    pub last_digest_sent_at: Option<DateTime<Utc>>,
    /// Its owner's settings.
    pub settings: DigestSettings,
    /// How many matches wait.
    pub pending: u64,
}

/// Words a digest's title is made of: `title(total, search name)`.
pub type DigestTitle = dyn Fn(u64, &str) -> String + Send + Sync;

/// What a digest claim takes, and on what condition.
pub struct DigestClaim<'a> {
    /// The subscription.
    pub subscription: SubscriptionId,
    /// The `last_digest_sent_at` the caller judged the digest due from: the claim takes
    /// nothing when another worker moved it since (compare-and-set).
    pub expected_last_sent: Option<DateTime<Utc>>,
    /// Most matches one digest takes (`SnapshotCap`); the rest wait for the next one.
    pub cap: u32,
    /// The notification's title.
    pub title: &'a DigestTitle,
}

/// One job as a notification lists it: the history's own shape (`user_notifications.jobs`).
pub use crate::saved_searches::NotifiedJob;

/// A digest a claim took: recorded, its deliveries queued, its matches marked notified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Digest {
    /// The `user_notifications` row.
    pub notification: NotificationId,
    /// Its owner.
    pub owner: UserId,
    /// The deliveries queued for it.
    pub deliveries: Vec<DeliveryId>,
    /// The matches it took, oldest first (at most the cap).
    pub jobs: Vec<NotifiedJob>,
    /// How many matches waited when it was taken (≥ `jobs.len()`).
    pub total: u64,
}

/// A delivery to queue with a notification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewDelivery {
    /// Email or webhook.
    pub channel: Channel,
    /// The address or URL.
    pub destination: String,
    /// The subscription it serves, if any.
    pub subscription: Option<SubscriptionId>,
}

/// A notification to record (reminders and nudges; digests are made by their claim).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewNotification {
    /// Its owner.
    pub owner: UserId,
    /// What it is.
    pub kind: NotificationKind,
    /// Its title.
    pub title: String,
    /// Its body text.
    pub body: String,
    /// The job's public slug it is about, if any.
    pub public_slug: Option<String>,
    /// The jobs it lists.
    pub jobs: Vec<NotifiedJob>,
    /// Its deliveries.
    pub deliveries: Vec<NewDelivery>,
}

/// A delivery leased to one worker, with everything its message is made of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DueDelivery {
    /// The delivery.
    pub id: DeliveryId,
    /// Its notification.
    pub notification: NotificationId,
    /// The owner.
    pub owner: UserId,
    /// Email or webhook.
    pub channel: Channel,
    /// The address or URL.
    pub destination: String,
    /// The webhook's HMAC key (hex), from its subscription.
    pub secret: Option<String>,
    /// Attempts made before this one.
    pub attempts: u32,
    /// The notification's kind.
    pub kind: NotificationKind,
    /// Its title.
    pub title: String,
    /// Its body.
    pub body: String,
    /// The jobs it lists.
    pub jobs: Vec<NotifiedJob>,
    /// How many matched in all.
    pub total: u64,
    /// The saved search's name (digests).
    pub saved_search: Option<String>,
    /// The saved search's id (digests).
    pub saved_search_id: Option<i64>,
}

/// How an attempt at a delivery ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeliveryOutcome {
    /// Sent: done.
    Sent,
    /// Failed; try again at `next_attempt_at`.
    Retry {
        /// Why it failed.
        error: String,
        /// When to try again.
        next_attempt_at: DateTime<Utc>,
    },
    /// Failed for the last time.
    Failed {
        /// Why.
        error: String,
    },
}

/// A delivery as stored (for tests and the operator).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryRecord {
    /// The delivery.
    pub id: DeliveryId,
    /// Its notification.
    pub notification: NotificationId,
    /// Email or webhook.
    pub channel: Channel,
    /// `pending`, `sent` or `failed`.
    pub status: String,
    /// Attempts made.
    pub attempts: u32,
    /// When it is tried next.
    pub next_attempt_at: DateTime<Utc>,
    /// The last failure.
    pub last_error: Option<String>,
}

/// A notification as stored (for tests and the operator; the history reads are the saved
/// searches' slice).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotificationRecord {
    /// The row.
    pub id: NotificationId,
    /// Its owner.
    pub owner: UserId,
    /// Its kind.
    pub kind: NotificationKind,
    /// Its title.
    pub title: String,
    /// The jobs it lists.
    pub jobs: Vec<NotifiedJob>,
    /// How many matched in all.
    pub total: u64,
}

/// A pending reminder whose time has come, leased to one worker, with what decides whether it
/// still fires.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DueReminder {
    /// The reminder.
    pub id: ReminderId,
    /// Its owner.
    pub owner: UserId,
    /// The owner's address.
    pub email: Email,
    /// The owner's settings.
    pub settings: DigestSettings,
    /// The job.
    pub job: JobId,
    /// Its public slug.
    pub job_slug: String,
    /// Its title.
    pub title: String,
    /// Its company.
    pub company: String,
    /// Its location.
    pub location: String,
    /// Whether it is still open.
    pub job_open: bool,
    /// Whether the owner still has it saved.
    pub saved: bool,
    /// Whether the owner applied to it.
    pub applied: bool,
}

/// What a nudge is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NudgeKind {
    /// The application went silent.
    Silent,
    /// It moved into `interview`.
    InterviewPrep,
}

impl NudgeKind {
    /// The stored value.
    pub const fn as_str(self) -> &'static str {
        match self {
            NudgeKind::Silent => "silent",
            NudgeKind::InterviewPrep => "interview_prep",
        }
    }
}

/// An applied application the nudge engine looks at, with the silence episodes already
/// nudged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NudgeCandidate {
    /// The application.
    pub application: ApplicationId,
    /// Its owner.
    pub owner: UserId,
    /// The owner's address.
    pub email: Email,
    /// The owner's settings.
    pub settings: DigestSettings,
    /// The posting, while it exists.
    pub job: Option<JobId>,
    /// The posting's slug when applied.
    pub job_slug: Option<String>,
    /// The role.
    pub role_title: String,
    /// The company's name.
    pub company: String,
    /// Its stage.
    pub stage: Option<Stage>,
    /// When it was applied.
    pub applied_at: Option<DateTime<Utc>>,
    /// The `silent` episode keys already nudged.
    pub silent_episodes: Vec<String>,
    /// The `stage_set interview` events not yet nudged (their event ids).
    pub interview_events: Vec<i64>,
}

/// A nudge to record once per episode, with its notification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewNudge {
    /// The application.
    pub application: ApplicationId,
    /// Its posting, if it still exists.
    pub job: Option<JobId>,
    /// Silence or interview prep.
    pub kind: NudgeKind,
    /// What makes this occurrence distinct.
    pub episode_key: String,
    /// The notification it sends.
    pub notification: NewNotification,
}
