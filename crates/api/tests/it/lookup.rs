//! The catalogue's lookups and sitemaps over the real router, on both backends:
//! `GET /jobs/find?url=` (canonicalised), `GET /jobs/{slug}/copies`, `GET /geo/cities` and the
//! jobs and companies sitemaps.

use chrono::{TimeZone, Utc};
use freehire_domain::{ClosedReason, Provider};
use freehire_store::{JobKey, SuggestFloors, testing::TestDb};
use serde_json::Value;

use crate::{jobs::posting, search::on_both_backends, server::Server};

fn key(id: &str) -> JobKey {
    JobKey { source: Provider::parse("greenhouse").unwrap(), external_id: format!("acme:{id}") }
}

/// Job 1 alone; jobs 2 (Berlin) and 3 (Paris) one role, 3 marked a copy of 2; job 9 closed;
/// Globex's job 4. Sitemaps point at `https://jobs.example`.
async fn stored(db: TestDb) -> Server {
    let store = db.store();
    let day = |d| Utc.with_ymd_and_hms(2026, 11, d, 9, 0, 0).unwrap();
    let mut berlin = posting("2", "Data Engineer");
    berlin.location = "Berlin".into();
    let mut paris = posting("3", "Data Engineer");
    paris.location = "Paris".into();
    let mut globex = posting("4", "Designer");
    globex.company = "Globex".into();
    let batch = [posting("1", "Rust Engineer"), berlin, paris, posting("9", "Old Role"), globex];
    store.upsert_jobs(&batch, day(11)).await.unwrap();
    let id = |j: Option<freehire_domain::Job>| j.unwrap().id;
    let two = id(store.job_by_key(&key("2")).await.unwrap());
    let three = id(store.job_by_key(&key("3")).await.unwrap());
    assert!(store.set_duplicate_of(three, Some(two)).await.unwrap());
    store.close_jobs(&[key("9")], ClosedReason::BoardUnseen, day(12)).await.unwrap();
    Server::start_mapped(db, |state| {
        state
            .with_public_url("https://jobs.example/")
            .with_suggest_floors(SuggestFloors { title: 1, company: 2 })
    })
    .await
}

async fn slug_of(s: &Server, id: &str) -> String {
    s.db.store().job_by_key(&key(id)).await.unwrap().unwrap().public_slug.as_str().to_owned()
}

fn slugs(body: &Value) -> Vec<&str> {
    body["data"].as_array().unwrap().iter().map(|j| j["public_slug"].as_str().unwrap()).collect()
}

/// Status, content type and body of `GET path`.
async fn raw(s: &Server, path: &str) -> (u16, String, String) {
    let res = s.http.get(format!("{}{path}", s.base)).send().await.unwrap();
    let status = res.status().as_u16();
    let kind = res.headers()["content-type"].to_str().unwrap().to_owned();
    (status, kind, res.text().await.unwrap())
}

// scenario: A posting is found by its address however it is pasted
async fn find_by_url(db: TestDb) {
    let s = stored(db).await;
    let one = slug_of(&s, "1").await;
    let pasted = "HTTP://WWW.Boards.Greenhouse.io/acme/jobs/1/?utm_source=li%26x&gh_src=abc#apply";
    let path = format!("/api/v1/jobs/find?url={}", urlencoding(pasted));
    let (status, body) = s.get(&path).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["public_slug"], one.as_str());

    // A closed posting is still found (it is readable by slug).
    let (status, body) =
        s.get("/api/v1/jobs/find?url=https://boards.greenhouse.io/acme/jobs/9").await;
    assert_eq!(status, 200, "{body}");
    assert!(body["data"]["closed_at"].is_string(), "{body}");

    let (status, body) =
        s.get("/api/v1/jobs/find?url=https://boards.greenhouse.io/acme/jobs/404").await;
    assert_eq!((status, body["code"].as_str()), (404, Some("not_found")), "{body}");
    for bad in [
        "/api/v1/jobs/find",
        "/api/v1/jobs/find?url=acme.com/jobs/1",
        "/api/v1/jobs/find?url=ftp://x.io/a",
    ] {
        let (status, body) = s.get(bad).await;
        assert_eq!((status, body["param"].as_str()), (400, Some("url")), "{bad}: {body}");
    }
    s.db.teardown().await;
}

/// `text` percent-encoded for a query value.
fn urlencoding(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

// scenario: A job's copies are the other open postings of its role
async fn copies(db: TestDb) {
    let s = stored(db).await;
    let (two, three, one) =
        (slug_of(&s, "2").await, slug_of(&s, "3").await, slug_of(&s, "1").await);
    let (status, body) = s.get(&format!("/api/v1/jobs/{two}/copies")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(slugs(&body), [three.as_str()]);
    let (_, body) = s.get(&format!("/api/v1/jobs/{three}/copies")).await;
    assert_eq!(slugs(&body), [two.as_str()], "a copy's copies include its canonical row");
    let (_, body) = s.get(&format!("/api/v1/jobs/{one}/copies")).await;
    assert!(slugs(&body).is_empty());
    let (status, _) = s.get("/api/v1/jobs/no-such-job-abcd2345/copies").await;
    assert_eq!(status, 404);
    let (status, body) = s.get("/api/v1/jobs/NOT_A_SLUG/copies").await;
    assert_eq!((status, body["param"].as_str()), (400, Some("slug")));
    s.db.teardown().await;
}

// scenario: City names complete from the gazetteer
async fn cities(db: TestDb) {
    let s = stored(db).await;
    let (status, body) = s.get("/api/v1/geo/cities?q=ber&country=DE").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"][0], serde_json::json!({"value": "Berlin", "country": "de"}));
    let (_, body) = s.get("/api/v1/geo/cities?q=sao%20pau&limit=3").await;
    let values: Vec<&str> =
        body["data"].as_array().unwrap().iter().map(|c| c["value"].as_str().unwrap()).collect();
    assert!(values.contains(&"São Paulo"), "{body}");
    assert!(values.len() <= 3);
    let (_, body) = s.get("/api/v1/geo/cities?q=").await;
    assert_eq!(body["data"], serde_json::json!([]));
    let (status, body) = s.get("/api/v1/geo/cities?q=a&country=zzz").await;
    assert_eq!((status, body["param"].as_str()), (400, Some("country")), "{body}");
    let (status, body) = s.get("/api/v1/geo/cities?q=a&limit=many").await;
    assert_eq!((status, body["param"].as_str()), (400, Some("limit")), "{body}");
    s.db.teardown().await;
}

// scenario: Sitemaps list the open canonical jobs and the companies
async fn sitemaps(db: TestDb) {
    let s = stored(db).await;
    let (status, kind, index) = raw(&s, "/api/v1/jobs/sitemap").await;
    assert_eq!(status, 200);
    assert!(kind.starts_with("application/xml"), "{kind}");
    assert!(index.contains("<sitemapindex"), "{index}");
    assert!(
        index.contains("<loc>https://jobs.example/api/v1/jobs/sitemap?page=1</loc>"),
        "{index}"
    );
    assert!(!index.contains("page=2"), "{index}");

    let (status, _, page) = raw(&s, "/api/v1/jobs/sitemap?page=1").await;
    assert_eq!(status, 200);
    assert!(page.contains("<urlset"), "{page}");
    for listed in ["1", "2", "4"] {
        let loc = format!("<loc>https://jobs.example/jobs/{}</loc>", slug_of(&s, listed).await);
        assert!(page.contains(&loc), "{listed}: {page}");
    }
    for hidden in ["3", "9"] {
        assert!(!page.contains(&slug_of(&s, hidden).await), "{hidden} (a copy, a closed job)");
    }
    assert!(page.contains("<lastmod>2026-11-11T09:00:00Z</lastmod>"), "{page}");

    let (status, _, companies) = raw(&s, "/api/v1/companies/sitemap?page=1").await;
    assert_eq!(status, 200);
    assert!(companies.contains("<loc>https://jobs.example/companies/acme</loc>"), "{companies}");
    assert!(companies.contains("<loc>https://jobs.example/companies/globex</loc>"), "{companies}");

    let (status, body) = s.get("/api/v1/jobs/sitemap?page=2").await;
    assert_eq!((status, body["code"].as_str()), (404, Some("not_found")));
    let (status, body) = s.get("/api/v1/companies/sitemap?page=0").await;
    assert_eq!((status, body["param"].as_str()), (400, Some("page")));
    s.db.teardown().await;
}

// scenario: Suggestions complete titles, companies and skills above their floors
async fn suggest(db: TestDb) {
    let s = stored(db).await;
    let texts = |body: &Value| -> Vec<String> {
        body["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["text"].as_str().unwrap().to_owned())
            .collect()
    };
    let (status, body) = s.get("/api/v1/suggest?q=R").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(texts(&body), ["Rust", "Rust Engineer"], "whole prefixes, most jobs first");
    assert_eq!(
        body["data"][0],
        serde_json::json!({"text": "Rust", "parts": [{"kind": "skill", "slug": "rust", "text": "Rust"}], "jobs": 3})
    );
    assert_eq!(
        body["data"][1]["parts"][0],
        serde_json::json!({"kind": "title", "text": "Rust Engineer"})
    );
    // A word inside a title; a company at its floor; one below it is not suggested.
    let (_, body) = s.get("/api/v1/suggest?q=eng").await;
    assert_eq!(texts(&body), ["Data Engineer", "Rust Engineer"]);
    let (_, body) = s.get("/api/v1/suggest?q=ac").await;
    assert_eq!(
        body["data"][0]["parts"][0],
        serde_json::json!({"kind": "company", "slug": "acme", "text": "Acme"})
    );
    assert_eq!(body["data"][0]["jobs"], 2, "the copy and the closed job do not count");
    let (_, body) = s.get("/api/v1/suggest?q=glob").await;
    assert_eq!(body["data"], serde_json::json!([]));
    let (_, body) = s.get("/api/v1/suggest?q=").await;
    assert_eq!(body["data"], serde_json::json!([]));
    let (_, body) = s.get("/api/v1/suggest?q=e&limit=1").await;
    assert_eq!(texts(&body).len(), 1);
    let (status, body) = s.get("/api/v1/suggest?q=e&limit=lots").await;
    assert_eq!((status, body["param"].as_str()), (400, Some("limit")));
    s.db.teardown().await;
}

on_both_backends![find_by_url, copies, cities, sitemaps, suggest];
