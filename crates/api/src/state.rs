//! [`AppState`], what every handler reaches (the store, the accounts service, the search slot,
//! the clock, the webhook policy). The search slot is [`freehire_app::search_slot::SearchSlot`] (re-exported here):
//! the API never creates an index, search answers 503 `search_unavailable` while the slot
//! cannot open one, and `/health` reports what the slot says.
//!
//! The state also holds the rate limits ([`RateLimits`], on with the reference's numbers unless
//! [`AppState::with_rate_limits`] says otherwise) and the [`TrustedProxies`] whose
//! `X-Forwarded-For` gives the client IP (none unless [`AppState::with_trusted_proxies`]).

use std::sync::Arc;

use axum::extract::FromRef;
use chrono::{DateTime, Utc};
use freehire_app::accounts::Accounts;
use freehire_app::saved_searches::{SavedSearches, WebhookPolicy};
pub use freehire_app::search_slot::{RETRY_EVERY, SearchSlot, SearchStatus};
use freehire_search::SearchIndex;
use freehire_store::Store;

use crate::auth::cookie::CookieConfig;
use crate::client_ip::TrustedProxies;
use crate::ratelimit::{RateLimitConfig, RateLimits};

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    /// The catalogue.
    pub store: Arc<dyn Store>,
    /// Accounts, sessions and API keys.
    pub accounts: Accounts,
    /// How the session cookie is sent.
    pub cookie: CookieConfig,
    /// The search index, opened when it can be (search answers 503 without it).
    pub search: SearchSlot,
    /// The clock (tests pin it).
    pub clock: fn() -> DateTime<Utc>,
    /// The rate limits of the routes that use them.
    pub limits: RateLimits,
    /// The proxies whose `X-Forwarded-For` is believed.
    pub trusted_proxies: TrustedProxies,
    /// Which webhook destinations saved-search subscriptions may name.
    pub webhooks: WebhookPolicy,
}

impl AppState {
    /// State over a store and its accounts service, with the system clock, a cookie without
    /// `Secure`, no search index, the reference's rate limits and no trusted proxy.
    pub fn new(store: Arc<dyn Store>, accounts: Accounts) -> Self {
        Self {
            store,
            accounts,
            cookie: CookieConfig::default(),
            search: SearchSlot::none(),
            clock: Utc::now,
            limits: RateLimits::default(),
            trusted_proxies: TrustedProxies::none(),
            webhooks: WebhookPolicy::PublicOnly,
        }
    }

    /// The state the binary serves: `services`' store, `accounts` over it, and its search
    /// engine opened for reading now if it can be, else on a later request
    /// ([`SearchSlot::lazy`]).
    pub async fn open(
        services: &freehire_app::startup::Services,
        accounts: Accounts,
        cookie: CookieConfig,
    ) -> Self {
        let search = SearchSlot::lazy(services.engine.clone());
        if let Err(e) = search.try_open().await {
            tracing::warn!(error = %e, engine = %services.engine, "search answers 503 until the index can be opened");
        }
        let webhooks = WebhookPolicy::from_env();
        if webhooks == WebhookPolicy::AllowPrivate {
            tracing::warn!(
                "FREEHIRE_WEBHOOK_ALLOW_PRIVATE is set: webhooks may point at private and loopback addresses"
            );
        }
        Self { search, cookie, webhooks, ..Self::new(services.store.clone(), accounts) }
    }

    /// The saved-search service over the state's store and search slot (what the saved-search,
    /// subscription, notification and shared-board routes call).
    pub fn saved_searches(&self) -> SavedSearches {
        SavedSearches::new(self.store.clone(), self.search.clone()).with_webhooks(self.webhooks)
    }

    /// The same state accepting webhooks under `webhooks`.
    pub fn with_webhooks(self, webhooks: WebhookPolicy) -> Self {
        Self { webhooks, ..self }
    }

    /// The catalogue service over the state's store (what the job and company routes call).
    pub fn catalogue(&self) -> freehire_app::catalogue::Catalogue {
        freehire_app::catalogue::Catalogue::new(self.store.clone())
    }

    /// The tracking service over the state's store (what the tracking routes call).
    pub fn tracking(&self) -> freehire_app::tracking::Tracking {
        freehire_app::tracking::Tracking::new(self.store.clone())
    }

    /// The state's rate limits and trusted proxies as the pages' throttle (the same buckets).
    pub fn throttle(&self) -> Arc<dyn freehire_app::throttle::Throttle> {
        Arc::new(crate::ratelimit::EdgeLimits::new(
            self.limits.clone(),
            self.trusted_proxies.clone(),
        ))
    }

    /// The same state with an open search index.
    pub fn with_search(self, index: Arc<dyn SearchIndex>) -> Self {
        Self { search: SearchSlot::open(index), ..self }
    }

    /// The same state with fresh rate limits under `config`.
    pub fn with_rate_limits(self, config: &RateLimitConfig) -> Self {
        Self { limits: RateLimits::new(config), ..self }
    }

    /// The same state believing `X-Forwarded-For` from these proxies.
    pub fn with_trusted_proxies(self, trusted_proxies: TrustedProxies) -> Self {
        Self { trusted_proxies, ..self }
    }
}

impl FromRef<AppState> for TrustedProxies {
    fn from_ref(state: &AppState) -> Self {
        state.trusted_proxies.clone()
    }
}

impl FromRef<AppState> for RateLimits {
    fn from_ref(state: &AppState) -> Self {
        state.limits.clone()
    }
}
