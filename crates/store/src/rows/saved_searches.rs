//! Saved-search, subscription, settings and notification rows as read, decoded on both
//! backends through the [`bind`](crate::bind) types and parsed totally into the shapes of
//! [`saved_searches`](crate::saved_searches): a stored value that no longer parses is
//! [`StoreError::Corrupt`] naming its column.

use freehire_domain::{
    Channel, DigestFrequency, NotificationId, NotificationKind, SavedSearchId, SubscriptionId,
    Timezone, UserId,
};

use crate::{
    Notification, NotificationSettings, NotifiedJob, Result, SavedSearch, StoreError, Subscription,
    bind::{Stamp, StoredJson},
};

fn user_id(raw: i64) -> Result<UserId> {
    UserId::new(raw).map_err(|e| StoreError::corrupt("user_id", e))
}

fn search_id(raw: i64) -> Result<SavedSearchId> {
    SavedSearchId::new(raw).map_err(|e| StoreError::corrupt("saved_search_id", e))
}

/// A `saved_searches` row (the columns of `saved_search_columns!`).
#[derive(sqlx::FromRow)]
pub(crate) struct SavedSearchRecord {
    id: i64,
    user_id: i64,
    name: String,
    query: String,
    public_slug: Option<String>,
    created_at: Stamp,
    updated_at: Stamp,
}

impl SavedSearchRecord {
    /// The saved search with `subscriptions` (the caller picked them).
    pub fn into_saved_search(self, subscriptions: Vec<Subscription>) -> Result<SavedSearch> {
        Ok(SavedSearch {
            id: SavedSearchId::new(self.id).map_err(|e| StoreError::corrupt("id", e))?,
            user_id: user_id(self.user_id)?,
            name: self.name,
            query: self.query,
            public_slug: self.public_slug,
            created_at: self.created_at.into(),
            updated_at: self.updated_at.into(),
            subscriptions,
        })
    }

    /// The row's id, unchecked (for grouping subscriptions by it).
    pub fn raw_id(&self) -> i64 {
        self.id
    }
}

/// A `subscriptions` row (the columns of `subscription_columns!`).
#[derive(sqlx::FromRow)]
pub(crate) struct SubscriptionRecord {
    id: i64,
    user_id: i64,
    saved_search_id: i64,
    channel: String,
    destination: Option<String>,
    active: bool,
    start_at: Stamp,
    created_at: Stamp,
    last_digest_sent_at: Option<Stamp>,
}

impl SubscriptionRecord {
    pub fn into_subscription(self) -> Result<Subscription> {
        Ok(Subscription {
            id: SubscriptionId::new(self.id).map_err(|e| StoreError::corrupt("id", e))?,
            user_id: user_id(self.user_id)?,
            saved_search_id: search_id(self.saved_search_id)?,
            channel: Channel::parse(&self.channel)
                .map_err(|e| StoreError::corrupt("channel", e))?,
            destination: self.destination,
            active: self.active,
            start_at: self.start_at.into(),
            created_at: self.created_at.into(),
            last_digest_sent_at: self.last_digest_sent_at.map(Into::into),
        })
    }

    /// The saved search it follows, unchecked (for grouping).
    pub fn raw_saved_search_id(&self) -> i64 {
        self.saved_search_id
    }
}

/// A `notification_settings` row.
#[derive(sqlx::FromRow)]
pub(crate) struct SettingsRecord {
    enabled: bool,
    digest_frequency: String,
    digest_hour: i32,
    quiet_hours_start: Option<i32>,
    quiet_hours_end: Option<i32>,
    timezone: Option<String>,
    updated_at: Stamp,
}

/// An hour column (0–23).
fn hour(column: &'static str, raw: i32) -> Result<u8> {
    u8::try_from(raw)
        .ok()
        .filter(|h| *h < 24)
        .ok_or_else(|| StoreError::corrupt(column, format!("hour {raw} is outside 0..=23")))
}

impl SettingsRecord {
    pub fn into_settings(self) -> Result<NotificationSettings> {
        let quiet_hours = match (self.quiet_hours_start, self.quiet_hours_end) {
            (Some(start), Some(end)) => {
                Some((hour("quiet_hours_start", start)?, hour("quiet_hours_end", end)?))
            }
            (None, None) => None,
            _ => return Err(StoreError::corrupt("quiet_hours_end", "only one quiet hour is set")),
        };
        Ok(NotificationSettings {
            enabled: self.enabled,
            digest_frequency: DigestFrequency::parse(&self.digest_frequency)
                .map_err(|e| StoreError::corrupt("digest_frequency", e))?,
            digest_hour: hour("digest_hour", self.digest_hour)?,
            quiet_hours,
            timezone: self
                .timezone
                .as_deref()
                .map(Timezone::parse)
                .transpose()
                .map_err(|e| StoreError::corrupt("timezone", e))?,
            updated_at: Some(self.updated_at.into()),
        })
    }
}

/// A `user_notifications` row joined with its subscription's saved search (the columns of
/// `notification_columns!`).
#[derive(sqlx::FromRow)]
pub(crate) struct NotificationRecord {
    id: i64,
    kind: String,
    title: String,
    body: String,
    public_slug: Option<String>,
    subscription_id: Option<i64>,
    saved_search_id: Option<i64>,
    created_at: Stamp,
    read_at: Option<Stamp>,
    total: i32,
}

impl NotificationRecord {
    pub fn into_notification(self) -> Result<Notification> {
        Ok(Notification {
            id: NotificationId::new(self.id).map_err(|e| StoreError::corrupt("id", e))?,
            kind: NotificationKind::parse(&self.kind)
                .map_err(|e| StoreError::corrupt("kind", e))?,
            title: self.title,
            body: self.body,
            public_slug: self.public_slug,
            subscription_id: self
                .subscription_id
                .map(SubscriptionId::new)
                .transpose()
                .map_err(|e| StoreError::corrupt("subscription_id", e))?,
            saved_search_id: self.saved_search_id.map(search_id).transpose()?,
            created_at: self.created_at.into(),
            read_at: self.read_at.map(Into::into),
            total: u32::try_from(self.total).map_err(|e| StoreError::corrupt("total", e))?,
        })
    }
}

/// A notification row with its jobs.
#[derive(sqlx::FromRow)]
pub(crate) struct NotificationJobsRecord {
    #[sqlx(flatten)]
    notification: NotificationRecord,
    jobs: StoredJson,
}

impl NotificationJobsRecord {
    pub fn into_parts(self) -> Result<(Notification, Vec<NotifiedJob>)> {
        Ok((self.notification.into_notification()?, self.jobs.parse("jobs")?))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use chrono::Utc;

    use super::*;

    fn settings() -> SettingsRecord {
        SettingsRecord {
            enabled: true,
            digest_frequency: "weekly".into(),
            digest_hour: 7,
            quiet_hours_start: Some(22),
            quiet_hours_end: Some(6),
            timezone: Some("Europe/Berlin".into()),
            updated_at: Stamp(Utc::now()),
        }
    }

    #[test]
    fn stored_settings_parse_and_spoiled_ones_are_corrupt_naming_the_column() {
        let s = settings().into_settings().unwrap();
        assert_eq!(s.digest_frequency, DigestFrequency::Weekly);
        assert_eq!(s.quiet_hours, Some((22, 6)));
        type Spoil = fn(&mut SettingsRecord);
        let cases: [(&str, Spoil); 4] = [
            ("digest_frequency", |r| r.digest_frequency = "hourly".into()),
            ("digest_hour", |r| r.digest_hour = 24),
            ("quiet_hours_end", |r| r.quiet_hours_end = None),
            ("timezone", |r| r.timezone = Some("Mars/Olympus".into())),
        ];
        for (column, spoil) in cases {
            let mut r = settings();
            spoil(&mut r);
            let err = r.into_settings().unwrap_err();
            assert!(
                matches!(err, StoreError::Corrupt { column: c, .. } if c == column),
                "{column}: {err:?}"
            );
        }
        let jobs = StoredJson::Text(r#"[{"slug": "a"}]"#.into()).parse::<Vec<NotifiedJob>>("jobs");
        assert!(matches!(jobs, Err(StoreError::Corrupt { column: "jobs", .. })), "title missing");
    }
}
