//! Starts the real router over a test database.

use chrono::{DateTime, TimeZone, Utc};
use freehire_api::AppState;
use freehire_store::testing::TestDb;

/// The pinned clock of the tests.
pub fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 20, 12, 0, 0).unwrap()
}

pub struct Server {
    pub base: String,
    pub db: TestDb,
    pub http: reqwest::Client,
}

impl Server {
    pub async fn start(db: TestDb) -> Self {
        Self::start_with(db, None).await
    }

    pub async fn start_with(
        db: TestDb,
        search: Option<std::sync::Arc<dyn freehire_search::SearchIndex>>,
    ) -> Self {
        let state = AppState { clock: now, ..AppState::new(db.store.clone()) };
        let state = match search {
            Some(index) => state.with_search(index),
            None => state,
        };
        Self::start_state(db, state).await
    }

    /// The server over `state` (its clock is replaced by the pinned one).
    pub async fn start_state(db: TestDb, state: AppState) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let state = AppState { clock: now, ..state };
        tokio::spawn(freehire_api::serve(listener, state, std::future::pending()));
        Self { base, db, http: reqwest::Client::new() }
    }

    /// The router over another store (the database stays for tear-down).
    pub async fn start_over(db: TestDb, store: std::sync::Arc<dyn freehire_store::Store>) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let state = AppState { clock: now, ..AppState::new(store) };
        tokio::spawn(freehire_api::serve(listener, state, std::future::pending()));
        Self { base, db, http: reqwest::Client::new() }
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
