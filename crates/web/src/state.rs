//! [`WebState`]: what every page handler reaches. Built from the same parts as the JSON API's
//! state (the binary and the tests build both from one set), so a session cookie set by a page
//! is the one the API reads, both read one search slot, and the forms count against the
//! API's rate limits (the throttle).

use std::sync::Arc;

use chrono::{DateTime, Utc};
use freehire_app::accounts::Accounts;
use freehire_app::assistant::service::AssistantService;
use freehire_app::assistant::turns::TurnLocks;
use freehire_app::catalogue::Catalogue;
use freehire_app::cvs::{Cvs, RenderConfig, Renderer};
use freehire_app::experience::Experience;
use freehire_app::plans::Plans;
use freehire_app::saved_searches::SavedSearches;
use freehire_app::screening::Screening;
use freehire_app::search_slot::SearchSlot;
use freehire_app::throttle::Throttle;
use freehire_app::tracking::Tracking;
use freehire_domain::plan::PlanPolicy;
use freehire_store::Store;

/// What every page can reach.
#[derive(Clone)]
pub struct WebState {
    /// Accounts, sessions and API keys (the API's service).
    pub accounts: Accounts,
    /// Jobs and companies.
    pub catalogue: Catalogue,
    /// The ingest fleet's health and the catalogue's size (`/status`).
    pub status: freehire_app::status::Status,
    /// The search index (the API's slot).
    pub search: SearchSlot,
    /// Saves, dismissals, applications and their stages.
    pub tracking: Tracking,
    /// Saved searches, subscriptions, notification settings and history.
    pub saved: SavedSearches,
    /// The experience bank.
    pub experience: Experience,
    /// The screening answers.
    pub screening: Screening,
    /// CVs: edits through `cvedit`, revisions, the preview and the PDF (the binary passes the
    /// API's with [`WebState::with_cvs`]; `new` makes one with default limits).
    pub cvs: Cvs,
    /// The clock (tests pin it).
    pub clock: fn() -> DateTime<Utc>,
    /// Whether cookies are sent with `Secure` (serve over HTTPS in production).
    pub secure_cookies: bool,
    /// Counts sign-up, sign-in and code attempts (the API's buckets).
    pub throttle: Arc<dyn Throttle>,
    /// The assistant's sessions and transcripts (the API's service, so both share its turn
    /// locks: deleting a session here stops its turn there).
    pub assistant: AssistantService,
}

impl WebState {
    /// The state over `store` (held only inside the services), its accounts service, search
    /// slot and throttle, with the system clock, cookies without `Secure` and an assistant
    /// with no model (pass the API's with [`WebState::with_assistant`]).
    pub fn new(
        store: Arc<dyn Store>,
        accounts: Accounts,
        search: SearchSlot,
        throttle: Arc<dyn Throttle>,
    ) -> Self {
        let assistant = AssistantService::new(
            store.clone(),
            search.clone(),
            None,
            Plans::new(store.clone(), PlanPolicy::default(), Utc::now),
            TurnLocks::local(),
            Utc::now,
        );
        Self {
            assistant,
            accounts,
            tracking: Tracking::new(store.clone()),
            experience: Experience::new(store.clone()),
            screening: Screening::new(store.clone()),
            cvs: Cvs::new(
                store.clone(),
                Arc::new(Renderer::new(RenderConfig::default())),
                freehire_cv::EditConfig::default(),
            ),
            saved: SavedSearches::new(store.clone(), search.clone()),
            catalogue: Catalogue::new(store.clone()),
            status: freehire_app::status::Status::new(store),
            search,
            clock: Utc::now,
            secure_cookies: false,
            throttle,
        }
    }

    /// The same state editing and rendering CVs through `cvs` (the API's: one renderer, so one
    /// semaphore bounds every render of the process, and the same edit limits).
    #[must_use]
    pub fn with_cvs(self, cvs: Cvs) -> Self {
        Self { cvs, ..self }
    }

    /// The same state reading sessions through `assistant` (the API's).
    #[must_use]
    pub fn with_assistant(self, assistant: AssistantService) -> Self {
        Self { assistant, ..self }
    }
}
