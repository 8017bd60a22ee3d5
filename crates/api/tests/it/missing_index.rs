//! A missing embedded index: search answers 503 `search_unavailable`, `/health` reports it,
//! nothing is created, and the index is picked up once the worker creates it.

use std::{sync::Arc, time::Duration};

use freehire_api::AppState;
use freehire_app::search_engine::SearchEngineConfig;
use freehire_app::startup::Services;
use freehire_search::{EmbeddedIndex, SearchIndex};
use freehire_store::testing::TestDb;
use serde_json::json;

use crate::{catalogue::stored, search::on_both_backends, server::Server};

// scenario: Missing index
async fn a_missing_index_is_503_until_the_worker_creates_it(db: TestDb) {
    let dir = tempfile::tempdir().unwrap();
    let index_dir = dir.path().join("index");
    let services = Services {
        store: db.store.clone(),
        engine: SearchEngineConfig::Embedded { dir: index_dir.clone() },
    };
    let accounts = freehire_app::accounts::Accounts::ephemeral(db.store.clone(), dir.path());
    let state = AppState::open(&services, accounts, Default::default()).await;
    let s = Server::start_state(db, state).await;
    for path in ["/api/v1/jobs/search?q=rust", "/api/v1/agent/jobs/search", "/api/v1/jobs/facets"] {
        let (status, body) = s.get(path).await;
        assert_eq!((status, &body["code"]), (503, &json!("search_unavailable")), "{path}: {body}");
    }
    assert!(!index_dir.exists(), "the API never creates the index");
    let (status, body) = s.get("/health").await;
    assert_eq!((status, &body["search"]), (200, &json!("missing")), "{body}");

    // The worker creates and fills it: the next search after the retry interval finds it.
    let docs = stored(&s.db).await;
    let writer = Arc::new(EmbeddedIndex::open(&index_dir).unwrap());
    writer.upsert(docs).await.unwrap();
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    let (status, body) = s.get("/api/v1/jobs/search?q=rust").await;
    assert_eq!((status, &body["meta"]["total"]), (200, &json!(2)), "{body}");
    let (_, body) = s.get("/health").await;
    assert_eq!(body["search"], "ok", "{body}");
    s.db.teardown().await;
}

on_both_backends![a_missing_index_is_503_until_the_worker_creates_it];
