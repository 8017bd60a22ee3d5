//! `GET /api/v1/companies` and `GET /api/v1/companies/{slug}`.

use freehire_domain::{ClosedReason, Provider};
use freehire_store::{JobKey, testing::TestDb};
use serde_json::{Value, json};

use crate::{
    catalogue::{day, postings},
    search::on_both_backends,
    server::Server,
};

/// The catalogue in the store (no index needed), plus a closed Acme job and Hooli, whose only
/// job is closed.
async fn stored(db: TestDb) -> Server {
    let store = db.store();
    for (i, p) in postings().into_iter().enumerate() {
        store.upsert_jobs(&[p], day(11 + i as u32)).await.unwrap();
    }
    let mut closed = crate::jobs::posting("9", "Old Role");
    closed.facets.countries = vec![freehire_domain::CountryCode::parse("fr").unwrap()];
    let mut hooli = crate::jobs::posting("hooli", "Gone Role");
    hooli.company = "Hooli".into();
    store.upsert_jobs(&[closed, hooli], day(15)).await.unwrap();
    let key = |id: &str| JobKey {
        source: Provider::parse("greenhouse").unwrap(),
        external_id: format!("acme:{id}"),
    };
    store.close_jobs(&[key("9"), key("hooli")], ClosedReason::BoardUnseen, day(16)).await.unwrap();
    Server::start(db).await
}

fn slugs(body: &Value) -> Vec<&str> {
    body["data"].as_array().unwrap().iter().map(|c| c["slug"].as_str().unwrap()).collect()
}

// scenario: Closed jobs count for nothing
// scenario: Search by name
async fn company_list(db: TestDb) {
    let s = stored(db).await;
    let (status, body) = s.get("/api/v1/companies").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(slugs(&body), ["acme", "globex", "initech"], "most open jobs first, then slug");
    assert_eq!(body["meta"], json!({"total": 3, "limit": 20, "offset": 0}));
    assert_eq!(
        body["data"][0],
        json!({
            "slug": "acme",
            "name": "Acme",
            "job_count": 2,
            "latest_posted_at": "2026-11-10T08:00:00Z",
            "regions": ["eu"],
            "countries": [],
            "work_modes": ["remote"],
            "top_skills": ["postgresql", "go", "rust"],
            "sources": ["greenhouse"],
        }),
        "closed jobs count for nothing"
    );

    let (_, body) = s.get("/api/v1/companies?limit=1&offset=1").await;
    assert_eq!(slugs(&body), ["globex"]);
    assert_eq!(body["meta"], json!({"total": 3, "limit": 1, "offset": 1}));
    let (_, body) = s.get("/api/v1/companies?q=Init").await;
    assert_eq!((slugs(&body), &body["meta"]["total"]), (vec!["initech"], &json!(1)));
    let (_, body) = s.get("/api/v1/companies?q=hooli").await;
    assert_eq!(body, json!({"data": [], "meta": {"total": 0, "limit": 20, "offset": 0}}));

    let (status, body) = s.get("/api/v1/companies?limit=many").await;
    assert_eq!(
        (status, body),
        (
            400,
            json!({"error": "invalid limit \"many\": must be an integer", "code": "invalid_parameter", "param": "limit"})
        )
    );
    s.db.teardown().await;
}

async fn company_detail(db: TestDb) {
    let s = stored(db).await;
    let (status, body) = s.get("/api/v1/companies/acme?limit=1").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["company"]["name"], "Acme");
    assert_eq!(body["data"]["company"]["job_count"], 2);
    assert_eq!(body["meta"], json!({"total": 2, "limit": 1, "offset": 0}));
    let jobs = body["data"]["jobs"].as_array().unwrap();
    assert_eq!(jobs.len(), 1);
    assert_eq!(jobs[0]["title"], "Go Engineer", "newest first");
    assert_eq!(jobs[0]["description"], "<p>Hello</p>", "the full job shape");
    assert!(jobs[0].get("id").is_none());
    let (_, body) = s.get("/api/v1/companies/acme?offset=1").await;
    assert_eq!(body["data"]["jobs"][0]["title"], "Rust Engineer");

    for missing in ["hooli", "nobody"] {
        let (status, body) = s.get(&format!("/api/v1/companies/{missing}")).await;
        assert_eq!(
            (status, body),
            (404, json!({"error": "company not found", "code": "not_found"})),
            "{missing}"
        );
    }
    for bad in ["Acme", "acme--labs", "a%20b", "-acme"] {
        let (status, body) = s.get(&format!("/api/v1/companies/{bad}")).await;
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(body["error"].as_str().unwrap().starts_with("invalid slug"), "{body}");
    }
    let (status, _) = s.get("/api/v1/companies/acme?offset=-3").await;
    assert_eq!(status, 400);
    s.db.store.close().await;
    let (status, body) = s.get("/api/v1/companies/acme").await;
    assert_eq!(
        (status, body),
        (503, json!({"error": "database unavailable", "code": "unavailable"}))
    );
    s.db.teardown().await;
}

on_both_backends![company_list, company_detail];
