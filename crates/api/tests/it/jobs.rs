//! `/health` and `/api/v1/jobs`.

use chrono::{TimeZone, Utc};
use freehire_domain::{ClosedReason, Facets, JobPosting, Provider, Region, WorkMode};
use freehire_store::{JobKey, testing::TestDb};
use serde_json::json;

use crate::server::Server;

pub fn posting(external_id: &str, title: &str) -> JobPosting {
    JobPosting {
        source: Provider::parse("greenhouse").unwrap(),
        external_id: format!("acme:{external_id}"),
        url: format!("https://boards.greenhouse.io/acme/jobs/{external_id}"),
        title: title.to_owned(),
        company: "Acme".to_owned(),
        location: "Remote - EU".to_owned(),
        description: "<p>Hello</p>".to_owned(),
        remote: true,
        posted_at: Some(Utc.with_ymd_and_hms(2026, 11, 10, 8, 0, 0).unwrap()),
        facets: Facets {
            regions: vec![Region::Eu],
            work_mode: Some(WorkMode::Remote),
            is_tech: Some(true),
            skills: vec!["rust".into()],
            ..Facets::default()
        },
        salary: None,
        role_fingerprint: String::new(),
        structured: Default::default(),
    }
}

async fn seeded(db: TestDb) -> Server {
    let s = Server::start(db).await;
    let store = s.db.store();
    let day = |d| Utc.with_ymd_and_hms(2026, 11, d, 9, 0, 0).unwrap();
    store.upsert_jobs(&[posting("1", "Rust Engineer")], day(11)).await.unwrap();
    let mut future = posting("2", "Go Engineer");
    future.posted_at = Some(Utc.with_ymd_and_hms(2027, 1, 1, 0, 0, 0).unwrap());
    store.upsert_jobs(&[future], day(12)).await.unwrap();
    store.upsert_jobs(&[posting("3", "Closed Role")], day(13)).await.unwrap();
    let key =
        JobKey { source: Provider::parse("greenhouse").unwrap(), external_id: "acme:3".into() };
    store.close_jobs(&[key], ClosedReason::BoardUnseen, day(14)).await.unwrap();
    s
}

// scenario: Empty catalogue
async fn health_and_empty_list(db: TestDb) {
    let s = Server::start(db).await;
    assert_eq!(s.get("/health").await, (200, json!({"status": "ok", "search": "off"})));
    let (status, body) = s.get("/api/v1/jobs").await;
    assert_eq!(status, 200);
    assert_eq!(body, json!({"data": [], "meta": {"total": 0, "limit": 20, "offset": 0}}));
    s.db.teardown().await;
}

// scenario: Effective posted date
// scenario: No internal id
async fn list_shape_and_order(db: TestDb) {
    let s = seeded(db).await;
    let (status, body) = s.get("/api/v1/jobs?limit=10").await;
    assert_eq!(status, 200);
    assert_eq!(body["meta"], json!({"total": 2, "limit": 10, "offset": 0}));
    let data = body["data"].as_array().unwrap();
    let titles: Vec<&str> = data.iter().map(|j| j["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Go Engineer", "Rust Engineer"], "newest first; closed hidden");
    let rust = &data[1];
    assert!(rust.get("id").is_none(), "internal ids are never exposed");
    assert_eq!(
        rust["public_slug"],
        "rust-engineer-acme-".to_owned() + &freehire_domain::shortcode("greenhouse", "acme:1")
    );
    assert_eq!(rust["company_slug"], "acme");
    assert_eq!(rust["source"], "greenhouse");
    assert_eq!(rust["external_id"], "acme:1");
    assert_eq!(rust["manually_added"], false);
    assert_eq!(rust["regions"], json!(["eu"]));
    assert_eq!(rust["countries"], json!([]));
    assert_eq!(rust["work_mode"], "remote");
    assert_eq!(rust["is_tech"], "tech");
    assert_eq!(rust["skills"], json!(["rust"]));
    assert_eq!(rust["posted_at"], "2026-11-10T08:00:00Z");
    assert_eq!(rust["closed_at"], json!(null));
    assert!(rust.get("seniority").is_none(), "unknown facets are omitted");
    assert!(rust.get("requires_clearance").is_none());
    // A posted date in the future falls back to the first-seen date.
    assert_eq!(data[0]["posted_at"], "2026-11-12T09:00:00Z");
    s.db.teardown().await;
}

// scenario: Clamped list limit
// scenario: Malformed parameter
async fn pagination_and_bad_parameters(db: TestDb) {
    let s = seeded(db).await;
    let (_, body) = s.get("/api/v1/jobs?limit=1&offset=1").await;
    assert_eq!(body["data"][0]["title"], "Rust Engineer");
    assert_eq!(body["meta"], json!({"total": 2, "limit": 1, "offset": 1}));
    let (_, body) = s.get("/api/v1/jobs?limit=1000").await;
    assert_eq!(body["meta"]["limit"], 100);
    let (_, body) = s.get("/api/v1/jobs?limit=0").await;
    assert_eq!(body["meta"]["limit"], 1);
    let (status, body) = s.get("/api/v1/jobs?limit=abc").await;
    assert_eq!(
        (status, body),
        (
            400,
            json!({"error": "invalid limit \"abc\": must be an integer", "code": "invalid_parameter", "param": "limit"})
        )
    );
    let (status, body) = s.get("/api/v1/jobs?offset=-1").await;
    assert_eq!(
        (status, body),
        (
            400,
            json!({"error": "invalid offset \"-1\": must be 0 or more", "code": "invalid_parameter", "param": "offset"})
        )
    );
    s.db.teardown().await;
}

// scenario: Closed job
async fn detail_by_slug(db: TestDb) {
    let s = seeded(db).await;
    let slug = |id: &str, title: &str| {
        format!("{title}-acme-{}", freehire_domain::shortcode("greenhouse", &format!("acme:{id}")))
    };
    let (status, body) = s.get(&format!("/api/v1/jobs/{}", slug("1", "rust-engineer"))).await;
    assert_eq!(status, 200);
    assert_eq!(body["data"]["title"], "Rust Engineer");
    assert_eq!(body["data"]["description"], "<p>Hello</p>");
    let (status, body) = s.get(&format!("/api/v1/jobs/{}", slug("3", "closed-role"))).await;
    assert_eq!(status, 200, "closed jobs stay readable by slug");
    assert_eq!(body["data"]["closed_at"], "2026-11-14T09:00:00Z");
    assert_eq!(body["data"]["closed_reason"], "board_unseen");
    // A malformed slug answers as on every route (crate::errors); an unknown one is not found.
    for malformed in ["NOT-A-SLUG", "x"] {
        let (status, body) = s.get(&format!("/api/v1/jobs/{malformed}")).await;
        assert_eq!(
            (status, &body["code"], &body["param"]),
            (400, &json!("invalid_parameter"), &json!("slug")),
            "{body}"
        );
    }
    for missing in ["rust-engineer-acme-aaaaaaaa"] {
        let (status, body) = s.get(&format!("/api/v1/jobs/{missing}")).await;
        assert_eq!(
            (status, body),
            (404, json!({"error": "job not found", "code": "not_found"})),
            "{missing}"
        );
    }
    s.db.teardown().await;
}

async fn unknown_routes_and_methods(db: TestDb) {
    let s = Server::start(db).await;
    assert_eq!(
        s.get("/api/v1/nope").await,
        (404, json!({"error": "not found", "code": "not_found"}))
    );
    let res = s.http.post(format!("{}/api/v1/jobs", s.base)).send().await.unwrap();
    assert_eq!(res.status().as_u16(), 405);
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(body, json!({"error": "method POST not allowed", "code": "method_not_allowed"}));
    s.db.teardown().await;
}

// scenario: Database down
// scenario: Internal failure
async fn health_reports_a_dead_database(db: TestDb) {
    let s = Server::start(db).await;
    s.db.store.close().await;
    let (status, body) = s.get("/health").await;
    assert_eq!(
        (status, body),
        (503, json!({"error": "database unavailable", "code": "unavailable"}))
    );
    let (status, body) = s.get("/api/v1/jobs").await;
    // A closed pool is an outage: 503, and the cause is not leaked.
    assert_eq!(
        (status, body),
        (503, json!({"error": "database unavailable", "code": "unavailable"})),
        "no cause leaked"
    );
    s.db.teardown().await;
}

macro_rules! on_both_backends {
    ($($test:ident),* $(,)?) => {
        mod sqlite { $(
            #[tokio::test]
            async fn $test() { super::$test(freehire_store::testing::TestDb::sqlite().await).await }
        )* }
        mod postgres { $(
            #[tokio::test]
            async fn $test() { super::$test(freehire_store::testing::TestDb::postgres().await).await }
        )* }
    };
}

on_both_backends![
    health_and_empty_list,
    list_shape_and_order,
    pagination_and_bad_parameters,
    detail_by_slug,
    unknown_routes_and_methods,
    health_reports_a_dead_database,
];
