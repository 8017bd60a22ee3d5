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
/// A hit is the job as `/jobs/{slug}` shows it, less what the index does not hold (and the
/// ghost signal, the detail's alone), with the description as cut visible text.
async fn hits_are_the_public_job_shape(db: TestDb) {
    let (s, _dir, _) = indexed(db).await;
    let (_, body) = s.get("/api/v1/jobs/search?q=rust&limit=100").await;
    for hit in body["data"].as_array().unwrap() {
        let slug = hit["public_slug"].as_str().unwrap();
        let (_, job) = s.get(&format!("/api/v1/jobs/{slug}")).await;
        let mut expected = job["data"].as_object().unwrap().clone();
        for gone in ["remote", "last_seen_at", "description", "ghost"] {
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

/// Values the grammar cannot use, and values past its bounds, are 400s naming the parameter,
/// before any engine work (a 1,000-character free-text value was a 503 from the regex limit).
async fn unusable_and_oversized_values_are_400(db: TestDb) {
    let (s, _dir, _) = indexed(db).await;
    let long = "x".repeat(1_000);
    let words = vec!["a"; 40].join("+");
    let cases = [
        (format!("/api/v1/jobs/search?skills={long}"), "skills is too long: 1000 characters"),
        (format!("/api/v1/jobs/search?cities_exclude={long}"), "cities_exclude is too long"),
        (format!("/api/v1/jobs/search?collections={long}"), "collections is too long"),
        (format!("/api/v1/jobs/search?posting_language={long}"), "posting_language is too long"),
        (format!("/api/v1/jobs/search?q={words}"), "q is too long: 40 words (at most 32)"),
        (format!("/api/v1/jobs/search?q={}", "a".repeat(600)), "q is too long: 600 bytes"),
        ("/api/v1/jobs/search?sort=nosuch".into(), "invalid sort \"nosuch\": allowed values are"),
        ("/api/v1/jobs/search?sort=posted_at&order=sideways".into(), "invalid order \"sideways\""),
        ("/api/v1/jobs/search?visa_sponsorship=maybe".into(), "allowed values are true, false"),
        ("/api/v1/jobs/search?q_fields=bogus".into(), "invalid q_fields \"bogus\""),
        ("/api/v1/jobs/facets?disjunctive=maybe".into(), "invalid disjunctive \"maybe\""),
        ("/api/v1/jobs/search?offset=99999999999".into(), "(offset 99999999999 + limit 20)"),
    ];
    for (path, expected) in &cases {
        let (status, body) = s.get(path).await;
        let path: String = path.chars().take(80).collect();
        assert_eq!(status, 400, "{path}: {body}");
        let error = body["error"].as_str().unwrap();
        assert!(error.contains(expected), "{path}: {error}");
        assert!(error.len() < 300, "the value is not quoted back: {error}");
    }
    s.db.teardown().await;
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

on_both_backends![
    search_finds_and_pages,
    hits_are_the_public_job_shape,
    bad_queries_and_no_index,
    unusable_and_oversized_values_are_400,
];
