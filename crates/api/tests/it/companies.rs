//! `GET /api/v1/companies` and `GET /api/v1/companies/{slug}`.

use freehire_domain::{ClosedReason, Provider};
use std::sync::Arc;

use freehire_search::EmbeddedIndex;
use freehire_store::{ClaimOptions, JobKey, testing::TestDb};
use serde_json::{Value, json};

use crate::{
    catalogue::{day, postings},
    search::on_both_backends,
    server::Server,
};

/// The catalogue in the store, plus a closed Acme job and Hooli, whose only job is closed;
/// drained into an embedded index as the worker drains (the companies list is served from
/// its companies index). The tempdir holds the index.
async fn stored(db: TestDb) -> (Server, tempfile::TempDir, Arc<EmbeddedIndex>) {
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
    let dir = tempfile::tempdir().unwrap();
    let index = Arc::new(EmbeddedIndex::open(dir.path()).unwrap());
    let drained =
        freehire_app::search_sync::drain(store, index.as_ref(), ClaimOptions::default(), day(20))
            .await
            .unwrap();
    assert_eq!(drained.companies_indexed, 3, "three companies written: {drained:?}");
    (Server::start_with(db, Some(index.clone())).await, dir, index)
}

fn slugs(body: &Value) -> Vec<&str> {
    body["data"].as_array().unwrap().iter().map(|c| c["slug"].as_str().unwrap()).collect()
}

// scenario: Closed jobs count for nothing
// scenario: Search by name
async fn company_list(db: TestDb) {
    let (s, _dir, _index) = stored(db).await;
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
    // Words of the name, with a typo tolerated in a word of five letters or more.
    let (_, body) = s.get("/api/v1/companies?q=intech").await;
    assert_eq!(slugs(&body), ["initech"]);
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
    let (s, _dir, _index) = stored(db).await;
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

// scenario: Companies filter by region, country, work mode, source and skill
async fn company_filters(db: TestDb) {
    let (s, _dir, _index) = stored(db).await;
    let listed = |body: &Value| (slugs(body).join(","), body["meta"]["total"].as_u64().unwrap());
    for (query, expected) in [
        ("work_mode=remote", ("acme", 1)),
        ("work_mode=hybrid,onsite", ("globex,initech", 2)),
        ("countries=de&countries=us", ("globex,initech", 2)),
        ("countries=de,us&work_mode=onsite", ("initech", 1)),
        ("regions=north_america", ("initech", 1)),
        ("regions=eu", ("acme,globex", 2)),
        ("source=greenhouse&skills=Rust", ("acme,globex", 2)),
        ("skills=go&q=acme", ("acme", 1)),
        ("countries=jp", ("", 0)),
    ] {
        let (status, body) = s.get(&format!("/api/v1/companies?{query}")).await;
        assert_eq!(status, 200, "{query}: {body}");
        assert_eq!(listed(&body), (expected.0.to_owned(), expected.1), "{query}");
    }
    for (query, param) in [
        ("work_mode=remote,sometimes", "work_mode"),
        ("regions=mars", "regions"),
        ("countries=germany", "countries"),
        ("source=monster", "source"),
    ] {
        let (status, body) = s.get(&format!("/api/v1/companies?{query}")).await;
        assert_eq!((status, &body["param"]), (400, &json!(param)), "{query}: {body}");
        assert_eq!(body["code"], "invalid_parameter");
        assert!(
            body["error"].as_str().unwrap().starts_with(&format!("invalid {param} ")),
            "{body}"
        );
    }
    let (_, body) = s.get("/api/v1/companies?work_mode=sometimes").await;
    assert_eq!(
        body["error"],
        "invalid work_mode \"sometimes\": allowed values are remote, hybrid, onsite"
    );
    s.db.teardown().await;
}

// scenario: A merged company slug answers 301
async fn merged_company(db: TestDb) {
    let (s, _dir, index) = stored(db).await;
    let (initech, globex) = (
        freehire_domain::CompanySlug::parse("initech").unwrap(),
        freehire_domain::CompanySlug::parse("globex").unwrap(),
    );
    let store = s.db.store();
    let merged = store
        .merge_companies(&initech, &globex, freehire_domain::AliasReason::Spelling, day(17))
        .await
        .unwrap();
    assert_eq!(merged.jobs_moved, 1);

    let raw =
        reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let res = raw.get(format!("{}/api/v1/companies/initech?limit=1", s.base)).send().await.unwrap();
    assert_eq!(res.status().as_u16(), 301);
    assert_eq!(
        res.headers().get("location").and_then(|v| v.to_str().ok()),
        Some("/api/v1/companies/globex?limit=1"),
        "the query is kept"
    );
    // A client that follows lands on the company it was merged into.
    let (status, body) = s.get("/api/v1/companies/initech").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["company"]["slug"], "globex");
    assert_eq!(body["data"]["company"]["name"], "Globex", "its own name, not the merged one");
    assert_eq!(body["data"]["company"]["job_count"], 2);
    let titles: Vec<&str> = body["data"]["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles, ["Product Designer", "Staff Rust Engineer"]);
    // The list follows once the worker has drained the merge.
    freehire_app::search_sync::drain(
        s.db.store(),
        index.as_ref(),
        ClaimOptions::default(),
        day(20),
    )
    .await
    .unwrap();
    let (_, body) = s.get("/api/v1/companies").await;
    assert_eq!(slugs(&body), ["acme", "globex"], "the merged company is listed once");
    let (status, _) = s.get("/api/v1/companies/hooli").await;
    assert_eq!(status, 404, "a slug never merged is still not found");
    s.db.teardown().await;
}

on_both_backends![company_list, company_detail, company_filters, merged_company];
