//! The shapes [`SavedSearchRepo`](crate::SavedSearchRepo) takes and returns: saved searches
//! with their subscriptions, notification settings, and the notification history as a user
//! reads it (reference §4.2, §8). The store checks nothing the service already checked (name
//! and query rules live in `freehire-app`); it keeps the rules only the database can keep: a
//! name is unique per user case-insensitively, the per-user cap holds under concurrent
//! inserts, a channel and destination appear once per saved search.

use chrono::{DateTime, Utc};
use freehire_domain::{
    Channel, DigestFrequency, NotificationId, NotificationKind, SavedSearchId, SubscriptionId,
    Timezone, UserId,
};
use serde::{Deserialize, Serialize};

/// A stored saved search with its subscriptions (oldest first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedSearch {
    /// Its id.
    pub id: SavedSearchId,
    /// Its owner.
    pub user_id: UserId,
    /// The owner's name for it (unique per owner, compared case-insensitively).
    pub name: String,
    /// The query string in the search grammar; empty means every job.
    pub query: String,
    /// The public board's slug while it is shared.
    pub public_slug: Option<String>,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
    /// Its subscriptions, oldest first.
    pub subscriptions: Vec<Subscription>,
}

/// A saved search to create.
#[derive(Debug, Clone, Copy)]
pub struct NewSavedSearch<'a> {
    /// The name (checked by the caller).
    pub name: &'a str,
    /// The query (checked and canonicalised by the caller).
    pub query: &'a str,
    /// The most saved searches the owner may have; the insert is refused at this many.
    pub max_per_user: u32,
}

/// What inserting a saved search did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SavedSearchInsert {
    /// It was created.
    Created(SavedSearch),
    /// The owner already has [`NewSavedSearch::max_per_user`] saved searches; nothing was
    /// written.
    LimitReached,
}

/// A change to a saved search: `None` leaves a field as it is.
#[derive(Debug, Clone, Copy, Default)]
pub struct SavedSearchPatch<'a> {
    /// A new name.
    pub name: Option<&'a str>,
    /// A new query.
    pub query: Option<&'a str>,
    /// Share it (`Some(slug)`: the slug is used only when it is not shared yet, so a shared
    /// board keeps its address) or stop sharing it (`None` inside).
    pub share: Option<Option<&'a str>>,
}

/// The public read of a shared saved search (no owner, no subscriptions).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedSearch {
    /// Its name.
    pub name: String,
    /// Its query.
    pub query: String,
}

/// One channel of a saved search's digests. The webhook secret never comes back out of the
/// store through this type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    /// Its id.
    pub id: SubscriptionId,
    /// Its owner.
    pub user_id: UserId,
    /// The saved search it follows.
    pub saved_search_id: SavedSearchId,
    /// How digests go out.
    pub channel: Channel,
    /// The webhook URL; `None` for email (the account's address).
    pub destination: Option<String>,
    /// Whether digests go out.
    pub active: bool,
    /// Jobs indexed before this are never matched.
    pub start_at: DateTime<Utc>,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// When its last digest went out.
    pub last_digest_sent_at: Option<DateTime<Utc>>,
}

/// A subscription to create; it starts at the instant it is created.
#[derive(Debug, Clone, Copy)]
pub struct NewSubscription<'a> {
    /// The channel.
    pub channel: Channel,
    /// The webhook URL (`None` for email).
    pub destination: Option<&'a str>,
    /// The webhook's HMAC key, hex (`None` for email).
    pub secret: Option<&'a str>,
}

/// A user's notification settings; [`Default`] is what a user without a row has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotificationSettings {
    /// Whether anything is sent at all.
    pub enabled: bool,
    /// How often digests go out.
    pub digest_frequency: DigestFrequency,
    /// The local hour (0–23) daily and weekly digests go out at.
    pub digest_hour: u8,
    /// Local quiet hours `[start, end)`, both hours 0–23, when nothing is sent.
    pub quiet_hours: Option<(u8, u8)>,
    /// The zone the hours are in; `None`: the account's, else UTC.
    pub timezone: Option<Timezone>,
    /// When they were last written (`None`: never, these are the defaults).
    pub updated_at: Option<DateTime<Utc>>,
}

impl Default for NotificationSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            digest_frequency: DigestFrequency::Daily,
            digest_hour: DEFAULT_DIGEST_HOUR,
            quiet_hours: None,
            timezone: None,
            updated_at: None,
        }
    }
}

/// The digest hour of a user without settings (09:00, reference §15.5).
pub const DEFAULT_DIGEST_HOUR: u8 = 9;

/// An entry of the notification history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notification {
    /// Its id.
    pub id: NotificationId,
    /// What it is.
    pub kind: NotificationKind,
    /// Its title.
    pub title: String,
    /// Its text.
    pub body: String,
    /// The saved search's or job's public slug it is about, if any.
    pub public_slug: Option<String>,
    /// The subscription that produced it (a digest), while it exists.
    pub subscription_id: Option<SubscriptionId>,
    /// That subscription's saved search.
    pub saved_search_id: Option<SavedSearchId>,
    /// When it was recorded.
    pub created_at: DateTime<Utc>,
    /// When the user opened it.
    pub read_at: Option<DateTime<Utc>>,
    /// How many jobs matched in all (the stored list holds at most the snapshot cap).
    pub total: u32,
}

/// One job a notification lists, as the engine snapshotted it (`user_notifications.jobs`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotifiedJob {
    /// The job's public slug.
    pub slug: String,
    /// Its title.
    pub title: String,
    /// Its company.
    #[serde(default)]
    pub company: String,
    /// Its location.
    #[serde(default)]
    pub location: String,
    /// Where to apply, when the snapshot has it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// A notification with the jobs it lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotificationJobs {
    /// The notification.
    pub notification: Notification,
    /// The jobs it lists, in the order recorded.
    pub jobs: Vec<NotifiedJob>,
}

/// A page of the history, newest first, with the counts of the whole history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotificationPage {
    /// The page.
    pub notifications: Vec<Notification>,
    /// Every notification of the user.
    pub total: u64,
    /// Those not read yet.
    pub unread: u64,
}
