//! `GET /api/v1/jobs/search` over the embedded index, fed from the store like the worker does.

use std::sync::Arc;

use chrono::{TimeZone, Utc};
use freehire_search::{EmbeddedIndex, SearchDocument, SearchIndex, indexable};
use freehire_store::{ListPage, testing::TestDb};
use serde_json::json;

use crate::{jobs::posting, server::Server};

async fn indexed(db: TestDb) -> (Server, tempfile::TempDir) {
    let day = |d| Utc.with_ymd_and_hms(2026, 11, d, 9, 0, 0).unwrap();
    db.store().upsert_jobs(&[posting("1", "Rust Engineer")], day(11)).await.unwrap();
    db.store().upsert_jobs(&[posting("2", "Go Engineer")], day(12)).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let index = EmbeddedIndex::open(dir.path()).unwrap();
    let jobs = db.store().list_open_jobs(ListPage::default()).await.unwrap().jobs;
    let docs: Vec<SearchDocument> = jobs
        .iter()
        .filter(|j| indexable(j))
        .map(|j| SearchDocument::from_job(j, day(20)))
        .collect();
    index.upsert(docs).await.unwrap();
    (Server::start_with(db, Some(Arc::new(index))).await, dir)
}

async fn search_finds_and_pages(db: TestDb) {
    let (s, _dir) = indexed(db).await;
    let (status, body) = s.get("/api/v1/jobs/search?q=rust").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["meta"], json!({"total": 1, "limit": 20, "offset": 0}));
    assert_eq!(body["data"][0]["title"], "Rust Engineer");
    assert!(body["data"][0].get("id").is_none(), "internal ids never leave");
    assert!(body["data"][0]["public_slug"].as_str().unwrap().starts_with("rust-engineer-acme-"));

    let (_, body) = s.get("/api/v1/jobs/search?limit=1").await;
    assert_eq!(body["meta"]["total"], 2);
    assert_eq!(body["data"].as_array().unwrap().len(), 1);
    assert_eq!(body["data"][0]["title"], "Go Engineer", "newest posted first");

    let (_, body) = s.get("/api/v1/jobs/search?work_mode=remote&senority=senior").await;
    assert_eq!(body["meta"]["total"], 2);
    assert_eq!(body["meta"]["ignored_params"][0]["param"], "senority");
    s.db.teardown().await;
}

async fn bad_queries_and_no_index(db: TestDb) {
    let (s, _dir) = indexed(db).await;
    let (status, body) = s.get("/api/v1/jobs/search?work_mode=office").await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("work_mode"), "{body}");
    let (status, body) = s.get("/api/v1/jobs/search?offset=9995&limit=10").await;
    assert_eq!(status, 400, "{body}");
    s.db.teardown().await;

    let bare = Server::start(TestDb::sqlite().await).await;
    let (status, body) = bare.get("/api/v1/jobs/search?q=rust").await;
    assert_eq!(status, 503);
    assert!(body["error"].as_str().unwrap().contains("search"), "{body}");
    bare.db.teardown().await;
}

macro_rules! on_both_backends {
    ($($test:ident),* $(,)?) => {
        mod sqlite { $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $test() { super::$test(freehire_store::testing::TestDb::sqlite().await).await }
        )* }
        mod postgres { $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $test() { super::$test(freehire_store::testing::TestDb::postgres().await).await }
        )* }
    };
}

on_both_backends![search_finds_and_pages, bad_queries_and_no_index];
