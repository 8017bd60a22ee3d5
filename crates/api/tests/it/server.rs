//! Starts the real router over a test database.

use std::sync::Arc;

use chrono::{DateTime, TimeZone, Utc};
use freehire_api::{AppState, ServerLimits};
use freehire_app::accounts::Accounts;
use freehire_store::{Store, testing::TestDb};

/// The pinned clock of the tests.
pub fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 20, 12, 0, 0).unwrap()
}

pub struct Server {
    pub base: String,
    pub db: TestDb,
    pub http: reqwest::Client,
    /// Where the server's mail is written (the file mailer).
    pub mail: tempfile::TempDir,
}

/// The state the tests serve over `store`, mailing into `mail`.
pub fn state(store: Arc<dyn Store>, mail: &std::path::Path) -> AppState {
    AppState { clock: now, ..AppState::new(store.clone(), Accounts::ephemeral(store, mail)) }
}

impl Server {
    pub async fn start(db: TestDb) -> Self {
        Self::start_with(db, None).await
    }

    pub async fn start_with(
        db: TestDb,
        search: Option<std::sync::Arc<dyn freehire_search::SearchIndex>>,
    ) -> Self {
        let mail = tempfile::tempdir().unwrap();
        let state = state(db.store.clone(), mail.path());
        let state = match search {
            Some(index) => state.with_search(index),
            None => state,
        };
        Self::serve(db, state, mail).await
    }

    /// The server over the tests' state as `map` changes it (mail still lands in `mail`).
    pub async fn start_mapped(db: TestDb, map: impl FnOnce(AppState) -> AppState) -> Self {
        Self::start_mapped_within(db, ServerLimits::default(), map).await
    }

    /// [`Server::start_mapped`] with these connection limits.
    pub async fn start_mapped_within(
        db: TestDb,
        limits: ServerLimits,
        map: impl FnOnce(AppState) -> AppState,
    ) -> Self {
        let mail = tempfile::tempdir().unwrap();
        let state = map(state(db.store.clone(), mail.path()));
        Self::serve_within(db, state, mail, limits).await
    }

    /// The server over `state` (its clock is replaced by the pinned one).
    pub async fn start_state(db: TestDb, state: AppState) -> Self {
        Self::serve(db, state, tempfile::tempdir().unwrap()).await
    }

    async fn serve(db: TestDb, state: AppState, mail: tempfile::TempDir) -> Self {
        Self::serve_within(db, state, mail, ServerLimits::default()).await
    }

    async fn serve_within(
        db: TestDb,
        state: AppState,
        mail: tempfile::TempDir,
        limits: ServerLimits,
    ) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let state = AppState { clock: now, ..state };
        tokio::spawn(freehire_api::serve_with(listener, state, limits, std::future::pending()));
        Self { base, db, http: reqwest::Client::new(), mail }
    }

    /// The router over another store (the database stays for tear-down).
    pub async fn start_over(db: TestDb, store: std::sync::Arc<dyn freehire_store::Store>) -> Self {
        let mail = tempfile::tempdir().unwrap();
        let state = state(store, mail.path());
        Self::serve(db, state, mail).await
    }

    pub async fn get(&self, path: &str) -> (u16, serde_json::Value) {
        let res = self.http.get(format!("{}{path}", self.base)).send().await.unwrap();
        let status = res.status().as_u16();
        assert_eq!(
            res.headers().get("content-type").and_then(|v| v.to_str().ok()),
            Some("application/json"),
            "every answer is JSON ({path})"
        );
        (status, res.json().await.unwrap())
    }

    /// The raw body of a 200 answer (for what a parsed value cannot show, like key order).
    pub async fn get_text(&self, path: &str) -> String {
        let res = self.http.get(format!("{}{path}", self.base)).send().await.unwrap();
        assert_eq!(res.status().as_u16(), 200, "{path}");
        res.text().await.unwrap()
    }
}
