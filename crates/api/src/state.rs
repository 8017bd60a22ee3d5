//! [`AppState`], what every handler reaches (the store, the accounts service, the search slot,
//! the clock, the webhook policy, the assistant). The search slot is [`freehire_app::search_slot::SearchSlot`] (re-exported here):
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
use freehire_app::assistant::model::{AssistantModel, MODEL_VARIABLES};
use freehire_app::assistant::service::{AssistantConfig, AssistantService};
use freehire_app::assistant::turns::TurnLocks;
use freehire_app::plans::Plans;
use freehire_app::saved_searches::{SavedSearches, WebhookPolicy};
pub use freehire_app::search_slot::{RETRY_EVERY, SearchSlot, SearchStatus};
use freehire_domain::plan::PlanPolicy;
use freehire_search::SearchIndex;
use freehire_store::Store;

use crate::auth::cookie::CookieConfig;
use crate::client_ip::TrustedProxies;
use crate::ratelimit::{RateLimitConfig, RateLimits, SharedLimits};
use crate::sse::SseConfig;

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
    /// The public reads' buckets kept in the database, on PostgreSQL (every API process on it
    /// counts a caller together); `None` on SQLite or with the limits off.
    pub shared_limits: Option<SharedLimits>,
    /// The proxies whose `X-Forwarded-For` is believed.
    pub trusted_proxies: TrustedProxies,
    /// Which webhook destinations saved-search subscriptions may name.
    pub webhooks: WebhookPolicy,
    /// The assistant: sessions, transcripts, streamed turns, metering.
    pub assistant: AssistantService,
    /// The timings of the assistant's event streams.
    pub sse: SseConfig,
    /// The CV renderer (one per process: its semaphore bounds the renders of every request).
    pub renderer: Arc<freehire_app::cvs::Renderer>,
    /// The process's suggestion index (`GET /suggest`), rebuilt from the store when stale.
    pub suggestions: freehire_app::suggest::Suggestions,
    /// The bearer token `GET /metrics` wants (`FREEHIRE_METRICS_TOKEN`); none: open.
    pub metrics_token: Option<String>,
    /// The public site sitemaps point at (`FREEHIRE_PUBLIC_URL`).
    pub public_url: String,
    /// The limits of CV edits (`CV_MAX_BULLETS`, `CV_EDIT_ALLOW_BULLET_TRUNCATION`).
    pub cv_edit: freehire_cv::EditConfig,
    /// `GET /jobs/facets` answers, kept 60 s per canonical query.
    pub facets_cache: freehire_app::facets_cache::FacetsCache,
}

impl AppState {
    /// What the assistant's tools are built from, for the MCP server: the store, the search
    /// slot, the clock and the CV service (no cover letters: they need a session).
    pub fn tool_deps(&self) -> freehire_app::assistant::tools::ToolDeps {
        freehire_app::assistant::tools::ToolDeps {
            store: self.store.clone(),
            search: self.search.clone(),
            clock: self.clock,
            cvs: self.assistant.cvs().cloned(),
            cover_letters: None,
        }
    }

    /// State over a store and its accounts service, with the system clock, a cookie without
    /// `Secure`, no search index, the reference's rate limits and no trusted proxy.
    pub fn new(store: Arc<dyn Store>, accounts: Accounts) -> Self {
        let plans = Plans::new(store.clone(), PlanPolicy::default(), Utc::now);
        let assistant = AssistantService::new(
            store.clone(),
            SearchSlot::none(),
            None,
            plans,
            TurnLocks::for_store(store.clone()),
            Utc::now,
        );
        let renderer =
            Arc::new(freehire_app::cvs::Renderer::new(freehire_app::cvs::RenderConfig::default()));
        let cv_edit = cv_edit_from_env();
        let cvs = freehire_app::cvs::Cvs::new(store.clone(), renderer.clone(), cv_edit);
        let shared_limits = shared_limits(&store, &RateLimitConfig::default());
        Self {
            suggestions: freehire_app::suggest::Suggestions::new(store.clone()),
            facets_cache: freehire_app::facets_cache::FacetsCache::default(),
            shared_limits,
            public_url: freehire_app::notify::DEFAULT_PUBLIC_URL.to_owned(),
            metrics_token: None,
            assistant: assistant.with_cvs(cvs),
            sse: SseConfig::default(),
            store,
            accounts,
            cookie: CookieConfig::default(),
            search: SearchSlot::none(),
            clock: Utc::now,
            limits: RateLimits::default(),
            trusted_proxies: TrustedProxies::none(),
            webhooks: WebhookPolicy::PublicOnly,
            renderer,
            cv_edit,
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
        let store = services.store.clone();
        let model = match AssistantModel::from_env(store.clone()) {
            Ok(Some(model)) => {
                tracing::info!(
                    model = model.model_name(),
                    per_user_keys = model.per_user_keys(),
                    "the assistant is on"
                );
                Some(model)
            }
            Ok(None) => {
                tracing::warn!("the assistant answers 503 until {MODEL_VARIABLES} are set");
                None
            }
            Err(e) => {
                tracing::error!(error = %e, "the assistant's model is misconfigured; it answers 503");
                None
            }
        };
        // Deleting an account blocks its own gateway key first (reference §14.2 `Revoke`).
        let accounts = match model.clone().filter(AssistantModel::per_user_keys) {
            Some(keys) => accounts.with_before_delete(std::sync::Arc::new(move |user| {
                let keys = keys.clone();
                Box::pin(async move { keys.revoke_key(user).await })
            })),
            None => accounts,
        };
        let assistant = AssistantService::new(
            store.clone(),
            search.clone(),
            model,
            Plans::from_env(store.clone(), Utc::now),
            // Shared through the database on PostgreSQL (several API processes may serve
            // it), per process on SQLite.
            TurnLocks::for_store(store.clone()),
            Utc::now,
        )
        .with_config(AssistantConfig::from_env());
        let base = Self::new(store, accounts);
        let assistant = assistant.with_cvs(base.cvs());
        let public_url = std::env::var("FREEHIRE_PUBLIC_URL")
            .ok()
            .map(|u| u.trim().to_owned())
            .filter(|u| !u.is_empty())
            .unwrap_or(base.public_url.clone());
        let metrics_token = std::env::var("FREEHIRE_METRICS_TOKEN")
            .ok()
            .map(|t| t.trim().to_owned())
            .filter(|t| !t.is_empty());
        Self { search, cookie, webhooks, assistant, public_url, metrics_token, ..base }
    }

    /// The same state suggesting titles and companies from these floors on.
    pub fn with_suggest_floors(self, floors: freehire_store::SuggestFloors) -> Self {
        let suggestions = self.suggestions.clone().with_floors(floors);
        Self { suggestions, ..self }
    }

    /// The same state with sitemaps pointing at `public_url`.
    pub fn with_public_url(self, public_url: impl Into<String>) -> Self {
        Self { public_url: public_url.into(), ..self }
    }

    /// The same state with this assistant service.
    /// Its tailoring sessions edit and render through this state's CV service.
    pub fn with_assistant(self, assistant: AssistantService) -> Self {
        let assistant = assistant.with_cvs(self.cvs());
        Self { assistant, ..self }
    }

    /// The same state streaming with these timings.
    pub fn with_sse(self, sse: SseConfig) -> Self {
        Self { sse, ..self }
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

    /// The CV service over the state's store and renderer (what the CV routes call).
    pub fn cvs(&self) -> freehire_app::cvs::Cvs {
        freehire_app::cvs::Cvs::new(self.store.clone(), self.renderer.clone(), self.cv_edit)
    }

    /// The CV import over the state's CV and experience services (`POST /me/cvs/import`).
    pub fn cv_import(&self) -> freehire_app::cv_import::CvImport {
        freehire_app::cv_import::CvImport::new(self.cvs(), self.experience())
    }

    /// The screening-answers service over the state's store (`/me/screening-answers`).
    pub fn screening(&self) -> freehire_app::screening::Screening {
        freehire_app::screening::Screening::new(self.store.clone())
    }

    /// The experience-bank service over the state's store (what the experience routes call).
    pub fn experience(&self) -> freehire_app::experience::Experience {
        freehire_app::experience::Experience::new(self.store.clone())
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
        let search = SearchSlot::open(index);
        let assistant = self.assistant.clone().with_search(search.clone());
        Self { search, assistant, ..self }
    }

    /// The same state with fresh rate limits under `config`.
    pub fn with_rate_limits(self, config: &RateLimitConfig) -> Self {
        let shared_limits = shared_limits(&self.store, config);
        Self { limits: RateLimits::new(config), shared_limits, ..self }
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

/// The CV edit limits from `CV_MAX_BULLETS` (bullets per entry, default 20) and
/// `CV_EDIT_ALLOW_BULLET_TRUNCATION` (`true`: cut instead of refusing); a bad value keeps the
/// default with a warning.
fn cv_edit_from_env() -> freehire_cv::EditConfig {
    let mut config = freehire_cv::EditConfig::default();
    if let Ok(raw) = std::env::var("CV_MAX_BULLETS") {
        match raw.trim().parse::<usize>() {
            Ok(n) if n > 0 => config.max_bullets = n,
            _ => tracing::warn!(value = %raw, "CV_MAX_BULLETS is not a positive number; using 20"),
        }
    }
    config.allow_bullet_truncation = std::env::var("CV_EDIT_ALLOW_BULLET_TRUNCATION")
        .is_ok_and(|v| v.trim().eq_ignore_ascii_case("true"));
    config
}

/// The shared public buckets on PostgreSQL ([`SharedLimits`]); none on SQLite, whose one
/// process limits in memory.
fn shared_limits(store: &Arc<dyn Store>, config: &RateLimitConfig) -> Option<SharedLimits> {
    match store.backend() {
        freehire_store::Backend::Postgres => SharedLimits::new(store.clone(), config),
        freehire_store::Backend::Sqlite => None,
    }
}
