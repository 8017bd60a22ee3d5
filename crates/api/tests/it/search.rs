//! `GET /api/v1/jobs/search` over the embedded index, fed from the store like the worker does.

use freehire_store::testing::TestDb;
use serde_json::{Value, json};

use crate::{catalogue::indexed, server::Server};

fn titles(body: &Value) -> Vec<&str> {
    body["data"].as_array().unwrap().iter().map(|h| h["title"].as_str().unwrap()).collect()
}

// scenario: Text search
async fn search_finds_and_pages(db: TestDb) {
    let (s, _dir, _) = indexed(db).await;
    let (status, body) = s.get("/api/v1/jobs/search?q=rust").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["meta"], json!({"total": 2, "limit": 20, "offset": 0}));
    assert_eq!(titles(&body), ["Rust Engineer", "Staff Rust Engineer"], "title match first");
    assert!(body["data"][0].get("id").is_none(), "internal ids never leave");

    let (_, body) = s.get("/api/v1/jobs/search?limit=1&offset=1").await;
    assert_eq!(body["meta"], json!({"total": 4, "limit": 1, "offset": 1}));
    assert_eq!(titles(&body), ["Staff Rust Engineer"], "newest posted first");

    let (_, body) = s.get("/api/v1/jobs/search?work_mode=remote&senority=senior").await;
    assert_eq!(body["meta"]["total"], 2);
    assert_eq!(body["meta"]["ignored_params"], json!([{"param": "senority"}]));
    let (_, body) = s.get("/api/v1/jobs/search?countries=de&seniority_exclude=staff").await;
    assert_eq!(body["meta"]["total"], 0);
    s.db.teardown().await;
}

// scenario: A hit is the job as the detail route shows it
/// A hit is the job as `/jobs/{slug}` shows it, less what the index does not hold, with the
/// description as cut visible text.
async fn hits_are_the_public_job_shape(db: TestDb) {
    let (s, _dir, _) = indexed(db).await;
    let (_, body) = s.get("/api/v1/jobs/search?q=rust&limit=100").await;
    for hit in body["data"].as_array().unwrap() {
        let slug = hit["public_slug"].as_str().unwrap();
        let (_, job) = s.get(&format!("/api/v1/jobs/{slug}")).await;
        let mut expected = job["data"].as_object().unwrap().clone();
        for gone in ["remote", "last_seen_at", "description"] {
            expected.remove(gone);
        }
        let mut actual = hit.as_object().unwrap().clone();
        let description = actual.remove("description").unwrap();
        assert_eq!(actual, expected, "{slug}");
        let description = description.as_str().unwrap();
        assert!(!description.contains('<'), "visible text: {description}");
        assert!(description.chars().count() <= 1_000, "{}", description.len());
    }
    let rust = &body["data"][0];
    assert!(rust["description"].as_str().unwrap().starts_with("About the role Build fast"));
    assert_eq!(
        rust["salary"],
        json!({"min": 80000, "max": 100000, "currency": "EUR", "period": "year"})
    );
    assert_eq!(rust["seniority"], "senior");
    assert_eq!(rust["closed_at"], Value::Null);
    assert_eq!(body["data"][1]["experience_years_min"], 8);
    assert_eq!(body["data"][1]["countries"], json!(["de"]));
    s.db.teardown().await;
}

// scenario: No index
async fn bad_queries_and_no_index(db: TestDb) {
    let (s, _dir, _) = indexed(db).await;
    let (status, body) = s.get("/api/v1/jobs/search?work_mode=office").await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().starts_with("invalid work_mode \"office\""), "{body}");
    let (status, body) = s.get("/api/v1/jobs/search?offset=9995&limit=10").await;
    assert_eq!(
        (status, body),
        (
            400,
            json!({"error": "offset + limit must be at most 10000 (offset 9995 + limit 10)", "code": "invalid_parameter", "param": "offset"})
        )
    );
    let (status, body) = s.get("/api/v1/jobs/search?limit=ten").await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("limit"), "{body}");
    s.db.teardown().await;

    let bare = Server::start(TestDb::sqlite().await).await;
    let (status, body) = bare.get("/api/v1/jobs/search?q=rust").await;
    assert_eq!(
        (status, body),
        (
            503,
            json!({"error": "search is not available: no search index is configured", "code": "search_unavailable"})
        )
    );
    let (status, _) = bare.get("/api/v1/jobs/search?work_mode=office").await;
    assert_eq!(status, 400, "a bad query is the caller's fault even without an index");
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
pub(crate) use on_both_backends;

on_both_backends![search_finds_and_pages, hits_are_the_public_job_shape, bad_queries_and_no_index];
