//! `GET /api/v1/agent/jobs/search`: search hits as full jobs from the store.

use freehire_domain::{ClosedReason, Provider};
use freehire_search::{SearchDocument, SearchIndex};
use freehire_store::{JobKey, ListPage, testing::TestDb};
use serde_json::{Value, json};

use crate::{
    catalogue::{day, indexed, rust_description},
    search::on_both_backends,
    server::Server,
};

fn first_description(body: &Value) -> &str {
    body["data"][0]["description"].as_str().unwrap()
}

// scenario: Full text, not the indexed cut
// scenario: Markdown for an agent
async fn full_descriptions_in_every_format(db: TestDb) {
    let (s, _dir, _) = indexed(db).await;
    let (status, body) = s.get("/api/v1/agent/jobs/search?q=rust&limit=1").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["meta"], json!({"total": 2, "limit": 1, "offset": 0}));
    let hit = &body["data"][0];
    assert_eq!(hit["title"], "Rust Engineer");
    assert!(hit.get("id").is_none());
    assert_eq!(hit["last_seen_at"], "2026-11-11T09:00:00Z", "the full job shape, from the store");
    assert_eq!(first_description(&body), rust_description(), "html is the default, verbatim");

    let (status, body) =
        s.get("/api/v1/agent/jobs/search?q=rust&limit=1&description_format=pdf").await;
    assert_eq!(status, 400, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(error.ends_with("allowed values are html, text, markdown"), "{body}");

    let (_, body) = s.get("/api/v1/agent/jobs/search?q=rust&limit=1&description_format=text").await;
    let text = first_description(&body);
    assert!(text.contains("Build fast services in Rust & SQL."), "{text}");
    assert!(!text.contains('<') && !text.contains("**"), "{text}");
    assert!(text.chars().count() > 1_000, "the full description, not the indexed cut");
    assert!(text.ends_with("[1]: https://acme.example/apply"), "{text}");

    let (_, body) =
        s.get("/api/v1/agent/jobs/search?q=rust&limit=1&description_format=markdown").await;
    let md = first_description(&body);
    assert!(md.starts_with("## About the role"), "{md}");
    assert!(md.contains("Build **fast** services in Rust & SQL."), "{md}");
    assert!(md.contains("[our site](https://acme.example/apply)"), "{md}");

    // The plain search route keeps the indexed text and rejects nothing it does not know.
    let (_, body) = s.get("/api/v1/jobs/search?q=rust&limit=1&description_format=text").await;
    assert_eq!(body["meta"]["ignored_params"], json!([{"param": "description_format"}]));
    s.db.teardown().await;
}

// scenario: A job the index still holds but the store lost
async fn vanished_and_closed_jobs(db: TestDb) {
    let (s, _dir, index) = indexed(db).await;
    // The index still holds a job the store never had (or lost): it is skipped, total stays.
    let open = s.db.store().list_open_jobs(ListPage::default()).await.unwrap().jobs;
    let stray = open.iter().find(|j| j.posting.title == "Rust Engineer").unwrap();
    let mut doc = SearchDocument::from_job(stray, day(20));
    doc.id = 999_999;
    doc.public_slug = "ghost-role-acme-aaaaaaaa".into();
    doc.title = "Ghost Role".into();
    index.upsert(vec![doc]).await.unwrap();
    // A job closed since it was indexed is still a hit until the next drain, shown closed.
    let key =
        JobKey { source: Provider::parse("greenhouse").unwrap(), external_id: "acme:2".into() };
    s.db.store().close_jobs(&[key], ClosedReason::Expired, day(19)).await.unwrap();

    let (status, body) = s.get("/api/v1/agent/jobs/search?work_mode=remote").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["meta"]["total"], 3, "the index's count");
    let titles: Vec<&str> =
        body["data"].as_array().unwrap().iter().map(|h| h["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Go Engineer", "Rust Engineer"], "the stray document is skipped");
    assert_eq!(body["data"][0]["closed_at"], "2026-11-19T09:00:00Z");
    assert_eq!(body["data"][0]["closed_reason"], "expired");
    s.db.teardown().await;
}

async fn agent_errors(db: TestDb) {
    let (s, _dir, _) = indexed(db).await;
    let (status, body) = s.get("/api/v1/agent/jobs/search?sort=salary_min&limit=x").await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("limit"), "{body}");
    s.db.store.close().await;
    let (status, body) = s.get("/api/v1/agent/jobs/search?q=rust").await;
    // A closed pool is an outage: 503, and the cause is not leaked.
    assert_eq!(
        (status, body),
        (503, json!({"error": "database unavailable", "code": "unavailable"})),
        "no cause leaked"
    );
    s.db.teardown().await;

    let bare = Server::start(TestDb::sqlite().await).await;
    let (status, body) = bare.get("/api/v1/agent/jobs/search").await;
    assert_eq!(status, 503);
    assert!(body["error"].as_str().unwrap().starts_with("search is not available"), "{body}");
    bare.db.teardown().await;
}

on_both_backends![full_descriptions_in_every_format, vanished_and_closed_jobs, agent_errors];
