//! [`WebState`]: what every page handler reaches. Built from the same parts as the JSON API's
//! state (the binary and the tests build both from one set), so a session cookie set by a page
//! is the one the API reads, and both read one search slot.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use freehire_app::accounts::Accounts;
use freehire_app::catalogue::Catalogue;
use freehire_app::search_slot::SearchSlot;
use freehire_store::Store;

/// What every page can reach.
#[derive(Clone)]
pub struct WebState {
    /// Accounts, sessions and API keys (the API's service).
    pub accounts: Accounts,
    /// Jobs and companies.
    pub catalogue: Catalogue,
    /// The search index (the API's slot).
    pub search: SearchSlot,
    /// The clock (tests pin it).
    pub clock: fn() -> DateTime<Utc>,
    /// Whether cookies are sent with `Secure` (serve over HTTPS in production).
    pub secure_cookies: bool,
}

impl WebState {
    /// The state over `store` (held only inside the catalogue service), its accounts service
    /// and search slot, with the system clock.
    pub fn new(store: Arc<dyn Store>, accounts: Accounts, search: SearchSlot) -> Self {
        Self {
            accounts,
            catalogue: Catalogue::new(store),
            search,
            clock: Utc::now,
            secure_cookies: false,
        }
    }
}
