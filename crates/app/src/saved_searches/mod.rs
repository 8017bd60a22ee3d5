//! Saved searches (reference §8.3, §15.5, §16.6) as one service, [`SavedSearches`], that the
//! API and the web pages call: a user's saved searches, their subscriptions (email, or a
//! webhook signed with a per-subscription secret), notification settings, the notification
//! history, and the public read-only shared board of a saved search.
//!
//! Rules, checked here before any write:
//! - a name is trimmed and 1–[`MAX_NAME_CHARS`] (100) characters; names are unique per user,
//!   compared case-insensitively (the store keeps that under a race);
//! - at most [`MAX_PER_USER`] (50) saved searches per user (the 51st is refused; the store
//!   counts in the insert's transaction);
//! - a query is at most [`MAX_QUERY_CHARS`] (2,000) characters in the search grammar of
//!   `GET /jobs/search`, parsed by [`JobQuery`]; a parameter the grammar does not know is
//!   refused (a saved search would otherwise silently mean less than the user typed), paging
//!   is dropped, and the query is stored in its [canonical form](canonical_query) so identical
//!   searches group;
//! - an empty query is a valid saved search ("every job"), but subscribing to a query that
//!   does not narrow ([`JobQuery::narrows`]) is [`SavedSearchError::UnfilteredSearch`], and so
//!   is widening a subscribed search to everything;
//! - a webhook URL is `http` or `https` and must not point at (or resolve to) a private,
//!   loopback or link-local address: the ingest crate's SSRF guard
//!   ([`freehire_ingest::http::check_public_destination`]). [`WebhookPolicy::AllowPrivate`]
//!   (`FREEHIRE_WEBHOOK_ALLOW_PRIVATE=1`, off by default) lets tests and local development
//!   point webhooks at their own machine;
//! - the webhook secret is 32 random bytes, hex, generated here and returned once;
//! - a shared board's slug is random (80 bits, base32) and stays while the search is shared;
//! - notification settings: the hour 0–23, quiet hours both or neither (each 0–23), the time
//!   zone an IANA name.
//!
//! Another user's saved search, subscription or notification is [`SavedSearchError::NotFound`],
//! exactly like one that does not exist.

mod canonical;

use std::sync::Arc;

use chrono::{DateTime, Utc};
use freehire_domain::{
    Channel, DigestFrequency, DomainError, NotificationId, SavedSearchId, SubscriptionId, Timezone,
    UserId,
};
use freehire_search::{Endpoint, JobQuery, SearchDocument};
use freehire_store::{
    ListPage, NewSavedSearch, NewSubscription, NotificationJobs, NotificationPage,
    NotificationSettings, SavedSearch, SavedSearchInsert, SavedSearchPatch, Store, StoreError,
    Subscription,
};
use rand::RngCore;

pub use canonical::canonical_query;

use crate::AppError;
use crate::search_slot::{SearchSlot, SearchStatus};

/// The longest name, in characters (reference §15.5).
pub const MAX_NAME_CHARS: usize = 100;
/// The most saved searches one user may have (reference §15.5).
pub const MAX_PER_USER: u32 = 50;
/// The longest query, in characters (reference §15.5).
pub const MAX_QUERY_CHARS: usize = 2_000;
/// The longest webhook URL, in characters.
pub const MAX_URL_CHARS: usize = 2_000;
/// The variable that lets webhooks point at private and loopback addresses (`1` or `true`).
pub const ALLOW_PRIVATE_ENV: &str = "FREEHIRE_WEBHOOK_ALLOW_PRIVATE";

/// Which webhook destinations are accepted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum WebhookPolicy {
    /// Only public addresses (the SSRF guard): the default.
    #[default]
    PublicOnly,
    /// Any `http`/`https` URL, private and loopback ones included (tests, local development).
    AllowPrivate,
}

impl WebhookPolicy {
    /// The policy [`ALLOW_PRIVATE_ENV`] asks for: `1`/`true` allows private addresses,
    /// anything else (or nothing) keeps the guard.
    pub fn from_env() -> Self {
        match crate::config::var(ALLOW_PRIVATE_ENV).as_deref().map(str::trim) {
            Some("1" | "true" | "TRUE" | "yes") => Self::AllowPrivate,
            _ => Self::PublicOnly,
        }
    }
}

/// What a saved-search operation can fail with. Every refusal of input names its field.
#[derive(Debug, thiserror::Error)]
pub enum SavedSearchError {
    /// A field's value is not accepted (`field` names it).
    #[error("{message}")]
    Invalid {
        /// The field at fault.
        field: &'static str,
        /// What is wrong, for the user.
        message: String,
    },
    /// A value of a closed vocabulary or a domain type failed to parse (names its field).
    #[error(transparent)]
    Domain(#[from] DomainError),
    /// Subscribing to (or widening a subscribed search to) a query that selects every job.
    #[error("a search for every job cannot be subscribed to: add a filter or a text query")]
    UnfilteredSearch,
    /// The user has [`MAX_PER_USER`] saved searches already.
    #[error("at most {MAX_PER_USER} saved searches per user: delete one first")]
    LimitReached,
    /// The value is taken (`field` names it: `name`, `channel`, `url`).
    #[error("{message}")]
    Conflict {
        /// The field whose value is taken.
        field: &'static str,
        /// What is taken, for the user.
        message: String,
    },
    /// No such saved search, subscription, notification or shared board (another user's is
    /// not found either).
    #[error("{0} not found")]
    NotFound(&'static str),
    /// The search index cannot be read now (a shared board).
    #[error("search is not available")]
    SearchUnavailable(SearchStatus),
    /// Searching failed.
    #[error(transparent)]
    Search(#[from] AppError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl SavedSearchError {
    fn invalid(field: &'static str, message: impl Into<String>) -> Self {
        Self::Invalid { field, message: message.into() }
    }
}

type Result<T> = std::result::Result<T, SavedSearchError>;

/// A saved search to create, as the user typed it.
#[derive(Debug, Clone, Default)]
pub struct SavedSearchInput {
    /// The name (trimmed here).
    pub name: String,
    /// The query string in the search grammar (`skills=rust&countries=de`; empty: every job).
    pub query: String,
}

/// A change to a saved search: `None` leaves a field as it is; at least one is needed.
#[derive(Debug, Clone, Default)]
pub struct SavedSearchUpdate {
    /// A new name.
    pub name: Option<String>,
    /// A new query.
    pub query: Option<String>,
    /// Share it on a public board (`true`) or take the board down (`false`).
    pub shared: Option<bool>,
}

/// The channel of a new subscription.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubscribeInput {
    /// Digests to the account's address.
    Email,
    /// Digests posted to this URL, signed with a secret generated for it.
    Webhook {
        /// The URL, as given.
        url: String,
    },
}

/// A subscription just created, with its webhook secret: the only time it is shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscribed {
    /// The subscription.
    pub subscription: Subscription,
    /// The webhook's HMAC-SHA256 key, hex (`None` for email).
    pub secret: Option<String>,
}

/// Notification settings as the user sent them (the numbers checked here).
#[derive(Debug, Clone)]
pub struct SettingsInput {
    /// Whether anything is sent.
    pub enabled: bool,
    /// `instant`, `daily` or `weekly`.
    pub digest_frequency: String,
    /// The local hour digests go out at, 0–23.
    pub digest_hour: i64,
    /// Quiet hours' start, 0–23 (with an end, or neither).
    pub quiet_hours_start: Option<i64>,
    /// Quiet hours' end, 0–23 (with a start, or neither).
    pub quiet_hours_end: Option<i64>,
    /// An IANA time zone; `None`: the account's, else UTC.
    pub timezone: Option<String>,
}

/// A shared board: the saved search's name and query and the first page of its results.
#[derive(Debug, Clone)]
pub struct SharedBoard {
    /// The saved search's name.
    pub name: String,
    /// Its query.
    pub query: String,
    /// The first page of hits, as the index holds them.
    pub jobs: Vec<SearchDocument>,
    /// How many jobs match in all.
    pub total: u64,
}

/// The saved-search service over a store and the search index a server reads.
#[derive(Clone)]
pub struct SavedSearches {
    store: Arc<dyn Store>,
    search: SearchSlot,
    webhooks: WebhookPolicy,
}

impl SavedSearches {
    /// The service; webhooks are held to public addresses.
    pub fn new(store: Arc<dyn Store>, search: SearchSlot) -> Self {
        Self { store, search, webhooks: WebhookPolicy::PublicOnly }
    }

    /// The same service under another webhook policy.
    pub fn with_webhooks(self, webhooks: WebhookPolicy) -> Self {
        Self { webhooks, ..self }
    }

    /// The owner's saved searches with their subscriptions, oldest first.
    pub async fn list(&self, owner: UserId) -> Result<Vec<SavedSearch>> {
        Ok(self.store.list_saved_searches(owner).await?)
    }

    /// One of the owner's saved searches.
    pub async fn get(&self, owner: UserId, id: SavedSearchId) -> Result<SavedSearch> {
        self.store.saved_search(owner, id).await?.ok_or(SavedSearchError::NotFound("saved search"))
    }

    /// Creates a saved search (see the module docs for the rules).
    pub async fn create(
        &self,
        owner: UserId,
        input: &SavedSearchInput,
        now: DateTime<Utc>,
    ) -> Result<SavedSearch> {
        let name = check_name(&input.name)?;
        let (query, _) = check_query(&input.query)?;
        let new = NewSavedSearch { name, query: &query, max_per_user: MAX_PER_USER };
        match self.store.create_saved_search(owner, &new, now).await.map_err(name_taken)? {
            SavedSearchInsert::Created(search) => Ok(search),
            SavedSearchInsert::LimitReached => Err(SavedSearchError::LimitReached),
        }
    }

    /// Renames, re-queries, shares or unshares one of the owner's saved searches.
    pub async fn update(
        &self,
        owner: UserId,
        id: SavedSearchId,
        update: &SavedSearchUpdate,
        now: DateTime<Utc>,
    ) -> Result<SavedSearch> {
        if update.name.is_none() && update.query.is_none() && update.shared.is_none() {
            return Err(SavedSearchError::invalid(
                "body",
                "give at least one of name, query, shared",
            ));
        }
        let name = update.name.as_deref().map(check_name).transpose()?;
        let query = update.query.as_deref().map(check_query).transpose()?;
        if let Some((_, parsed)) = &query
            && !parsed.narrows()
            && !self.get(owner, id).await?.subscriptions.is_empty()
        {
            return Err(SavedSearchError::UnfilteredSearch);
        }
        let slug = update.shared.filter(|s| *s).map(|_| shared_slug());
        let patch = SavedSearchPatch {
            name,
            query: query.as_ref().map(|(q, _)| q.as_str()),
            share: update.shared.map(|_| slug.as_deref()),
        };
        self.store
            .update_saved_search(owner, id, &patch, now)
            .await
            .map_err(name_taken)?
            .ok_or(SavedSearchError::NotFound("saved search"))
    }

    /// Deletes one of the owner's saved searches and its subscriptions.
    pub async fn delete(&self, owner: UserId, id: SavedSearchId) -> Result<()> {
        if self.store.delete_saved_search(owner, id).await? {
            Ok(())
        } else {
            Err(SavedSearchError::NotFound("saved search"))
        }
    }

    /// Subscribes one of the owner's saved searches on a channel, from `now` on.
    pub async fn subscribe(
        &self,
        owner: UserId,
        id: SavedSearchId,
        input: &SubscribeInput,
        now: DateTime<Utc>,
    ) -> Result<Subscribed> {
        let search = self.get(owner, id).await?;
        let query =
            JobQuery::from_query_str(&search.query, Endpoint::Search).map_err(stored_query)?;
        if !query.narrows() {
            return Err(SavedSearchError::UnfilteredSearch);
        }
        let (channel, url, secret) = match input {
            SubscribeInput::Email => (Channel::Email, None, None),
            SubscribeInput::Webhook { url } => {
                let url = self.check_webhook(url).await?;
                (Channel::Webhook, Some(url), Some(webhook_secret()))
            }
        };
        let new =
            NewSubscription { channel, destination: url.as_deref(), secret: secret.as_deref() };
        let subscription = self
            .store
            .create_subscription(owner, id, &new, now)
            .await
            .map_err(|e| match e {
                StoreError::Conflict { .. } => match channel {
                    Channel::Email => SavedSearchError::Conflict {
                        field: "channel",
                        message: "this search already has an email subscription".to_owned(),
                    },
                    Channel::Webhook => SavedSearchError::Conflict {
                        field: "url",
                        message: "this search already has a webhook to this URL".to_owned(),
                    },
                },
                e => e.into(),
            })?
            .ok_or(SavedSearchError::NotFound("saved search"))?;
        Ok(Subscribed { subscription, secret })
    }

    /// Deletes one of the owner's subscriptions.
    pub async fn unsubscribe(&self, owner: UserId, id: SubscriptionId) -> Result<()> {
        if self.store.delete_subscription(owner, id).await? {
            Ok(())
        } else {
            Err(SavedSearchError::NotFound("subscription"))
        }
    }

    /// A page of the owner's notification history, newest first, with its counts.
    pub async fn notifications(&self, owner: UserId, page: ListPage) -> Result<NotificationPage> {
        Ok(self.store.notifications(owner, page).await?)
    }

    /// One of the owner's notifications with its jobs, marked read (the first read is kept).
    pub async fn notification_jobs(
        &self,
        owner: UserId,
        id: NotificationId,
        now: DateTime<Utc>,
    ) -> Result<NotificationJobs> {
        let missing = SavedSearchError::NotFound("notification");
        if !self.store.mark_notification_read(owner, id, now).await? {
            return Err(missing);
        }
        self.store.notification(owner, id).await?.ok_or(missing)
    }

    /// The owner's notification settings (the defaults until they write some).
    pub async fn settings(&self, owner: UserId) -> Result<NotificationSettings> {
        Ok(self.store.notification_settings(owner).await?)
    }

    /// Checks and writes the owner's notification settings.
    pub async fn put_settings(
        &self,
        owner: UserId,
        input: &SettingsInput,
        now: DateTime<Utc>,
    ) -> Result<NotificationSettings> {
        let settings = check_settings(input)?;
        Ok(self.store.put_notification_settings(owner, &settings, now).await?)
    }

    /// The shared board with this slug: the search's name and query and the first page of its
    /// hits from the search index.
    pub async fn shared_board(&self, slug: &str, now: DateTime<Utc>) -> Result<SharedBoard> {
        let missing = SavedSearchError::NotFound("shared board");
        if slug.is_empty() || slug.len() > 64 {
            return Err(missing);
        }
        let shared = self.store.shared_search(slug).await?.ok_or(missing)?;
        let query =
            JobQuery::from_query_str(&shared.query, Endpoint::Search).map_err(stored_query)?;
        let index = self.search.get().await.map_err(SavedSearchError::SearchUnavailable)?;
        let (results, _) = crate::search::hits(index.as_ref(), &query, now).await?;
        Ok(SharedBoard {
            name: shared.name,
            query: shared.query,
            jobs: results.hits,
            total: results.total,
        })
    }

    /// The webhook URL, parsed and checked against the policy.
    async fn check_webhook(&self, raw: &str) -> Result<String> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err(SavedSearchError::invalid("url", "a webhook needs a url"));
        }
        if raw.chars().count() > MAX_URL_CHARS {
            return Err(SavedSearchError::invalid(
                "url",
                format!("the url is longer than {MAX_URL_CHARS} characters"),
            ));
        }
        let url = url::Url::parse(raw)
            .map_err(|e| SavedSearchError::invalid("url", format!("invalid url: {e}")))?;
        match self.webhooks {
            WebhookPolicy::PublicOnly => {
                freehire_ingest::http::check_public_destination(&url).await.map_err(|e| {
                    let reason = match e {
                        freehire_ingest::IngestError::Refused { reason, .. } => reason,
                        other => other.to_string(),
                    };
                    SavedSearchError::invalid(
                        "url",
                        format!("the webhook url is refused: {reason}"),
                    )
                })?;
            }
            WebhookPolicy::AllowPrivate => {
                if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
                    return Err(SavedSearchError::invalid(
                        "url",
                        "the webhook url must be http or https with a host",
                    ));
                }
            }
        }
        Ok(url.to_string())
    }
}

/// A stored query the grammar no longer reads: our fault, not the caller's.
fn stored_query(e: freehire_search::SearchError) -> SavedSearchError {
    SavedSearchError::Search(AppError::Config(format!(
        "a stored saved-search query no longer parses: {e}"
    )))
}

/// A taken name from the store, in the service's words.
fn name_taken(e: StoreError) -> SavedSearchError {
    match e {
        StoreError::Conflict { field: "name" } => SavedSearchError::Conflict {
            field: "name",
            message: "you already have a saved search with this name".to_owned(),
        },
        StoreError::Conflict { field } => SavedSearchError::Conflict {
            field,
            message: format!("{field} is already taken; try again"),
        },
        e => e.into(),
    }
}

/// The name, trimmed, when it has 1–100 characters.
fn check_name(raw: &str) -> Result<&str> {
    let name = raw.trim();
    if name.is_empty() {
        return Err(SavedSearchError::invalid("name", "the name must not be empty"));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(SavedSearchError::invalid(
            "name",
            format!("the name is longer than {MAX_NAME_CHARS} characters"),
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(SavedSearchError::invalid("name", "the name must not hold control characters"));
    }
    Ok(name)
}

/// The query's canonical form and the parsed query, when it is at most 2,000 characters in
/// the search grammar with no parameter the grammar ignores.
fn check_query(raw: &str) -> Result<(String, JobQuery)> {
    let raw = raw.trim().trim_start_matches('?');
    if raw.chars().count() > MAX_QUERY_CHARS {
        return Err(SavedSearchError::invalid(
            "query",
            format!("the query is longer than {MAX_QUERY_CHARS} characters"),
        ));
    }
    let query = JobQuery::from_query_str(raw, Endpoint::Search)
        .map_err(|e| SavedSearchError::invalid("query", e.to_string()))?;
    if let Some(unknown) = query.ignored_params.first() {
        let hint = unknown
            .did_you_mean
            .as_deref()
            .map(|d| format!(" (did you mean {d}?)"))
            .unwrap_or_default();
        return Err(SavedSearchError::invalid(
            "query",
            format!("unknown search parameter {}{hint}", unknown.param),
        ));
    }
    Ok((canonical_query(&query), query))
}

/// The settings, when the hours are 0–23, quiet hours come both or not at all, and the zone
/// is an IANA name.
fn check_settings(input: &SettingsInput) -> Result<NotificationSettings> {
    let hour = |field: &'static str, value: i64| {
        u8::try_from(value).ok().filter(|h| *h < 24).ok_or_else(|| {
            SavedSearchError::invalid(field, format!("{field} must be an hour from 0 to 23"))
        })
    };
    let quiet_hours = match (input.quiet_hours_start, input.quiet_hours_end) {
        (Some(start), Some(end)) => {
            Some((hour("quiet_hours_start", start)?, hour("quiet_hours_end", end)?))
        }
        (None, None) => None,
        (Some(_), None) => {
            return Err(SavedSearchError::invalid(
                "quiet_hours_end",
                "quiet hours need both a start and an end",
            ));
        }
        (None, Some(_)) => {
            return Err(SavedSearchError::invalid(
                "quiet_hours_start",
                "quiet hours need both a start and an end",
            ));
        }
    };
    Ok(NotificationSettings {
        enabled: input.enabled,
        digest_frequency: DigestFrequency::parse(input.digest_frequency.trim())?,
        digest_hour: hour("digest_hour", input.digest_hour)?,
        quiet_hours,
        timezone: input.timezone.as_deref().map(Timezone::parse).transpose()?,
        updated_at: None,
    })
}

/// A webhook's secret: 32 random bytes, hex.
fn webhook_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    data_encoding::HEXLOWER.encode(&bytes)
}

/// A shared board's slug: 10 random bytes (80 bits), lower-case base32 (16 characters).
fn shared_slug() -> String {
    let mut bytes = [0u8; 10];
    rand::rng().fill_bytes(&mut bytes);
    data_encoding::BASE32_NOPAD.encode(&bytes).to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn field(e: SavedSearchError) -> &'static str {
        match e {
            SavedSearchError::Invalid { field, .. } => field,
            SavedSearchError::Domain(DomainError::Invalid { field, .. })
            | SavedSearchError::Domain(DomainError::UnknownValue { field, .. }) => field,
            other => panic!("not a refusal of input: {other:?}"),
        }
    }

    #[test]
    fn names_are_trimmed_and_bounded_in_characters() {
        assert_eq!(check_name("  Rust jobs \n").unwrap(), "Rust jobs");
        assert_eq!(check_name(&"é".repeat(100)).unwrap().chars().count(), 100);
        assert_eq!(field(check_name(&"é".repeat(101)).unwrap_err()), "name");
        assert_eq!(field(check_name("   ").unwrap_err()), "name");
        assert_eq!(field(check_name("a\u{7}b").unwrap_err()), "name");
    }

    #[test]
    fn queries_are_bounded_parsed_and_canonical() {
        assert_eq!(check_query("").unwrap().0, "");
        assert_eq!(check_query("?skills=rust&countries=DE").unwrap().0, "countries=de&skills=rust");
        let long = format!("q={}", "a".repeat(MAX_QUERY_CHARS));
        assert_eq!(field(check_query(&long).unwrap_err()), "query");
        let err = check_query("seniority=wizard").unwrap_err();
        assert!(err.to_string().contains("seniority"), "{err}");
        assert_eq!(field(err), "query");
        let err = check_query("skils=rust").unwrap_err();
        assert!(err.to_string().contains("unknown search parameter skils"), "{err}");
    }

    fn input() -> SettingsInput {
        SettingsInput {
            enabled: true,
            digest_frequency: "weekly".into(),
            digest_hour: 8,
            quiet_hours_start: Some(22),
            quiet_hours_end: Some(7),
            timezone: Some("Europe/Berlin".into()),
        }
    }

    #[test]
    fn settings_are_checked_field_by_field() {
        let ok = check_settings(&input()).unwrap();
        assert_eq!((ok.digest_hour, ok.quiet_hours), (8, Some((22, 7))));
        type Spoil = fn(&mut SettingsInput);
        let cases: [(&str, Spoil); 7] = [
            ("digest_hour", |i| i.digest_hour = 24),
            ("digest_hour", |i| i.digest_hour = -1),
            ("quiet_hours_end", |i| i.quiet_hours_end = None),
            ("quiet_hours_start", |i| i.quiet_hours_start = None),
            ("quiet_hours_start", |i| i.quiet_hours_start = Some(30)),
            ("timezone", |i| i.timezone = Some("Mars/Olympus".into())),
            ("digest_frequency", |i| i.digest_frequency = "hourly".into()),
        ];
        for (name, spoil) in cases {
            let mut i = input();
            spoil(&mut i);
            assert_eq!(field(check_settings(&i).unwrap_err()), name);
        }
        let mut none = input();
        (none.quiet_hours_start, none.quiet_hours_end, none.timezone) = (None, None, None);
        assert_eq!(check_settings(&none).unwrap().quiet_hours, None);
    }

    #[test]
    fn secrets_and_slugs_are_random_and_well_formed() {
        let (a, b) = (webhook_secret(), webhook_secret());
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
        let slug = shared_slug();
        assert_eq!(slug.len(), 16);
        assert!(slug.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()));
        assert_ne!(slug, shared_slug());
    }
}
