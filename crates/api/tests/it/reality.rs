//! Reality signals on the job detail, search hits and agent search (reference §5.10, §16.5).

use std::sync::Arc;

use chrono::{DateTime, TimeZone, Utc};
use freehire_domain::{ClosedReason, JobPosting, Provider};
use freehire_search::{EmbeddedIndex, SearchDocument, SearchIndex, indexable};
use freehire_store::{JobKey, ListPage, testing::TestDb};
use serde_json::{Value, json};

use crate::{jobs::posting, search::on_both_backends, server::Server};

fn at(y: i32, m: u32, d: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, m, d, 9, 0, 0).unwrap()
}

fn role(id: &str, title: &str, fingerprint: &str, posted: DateTime<Utc>) -> JobPosting {
    JobPosting {
        role_fingerprint: fingerprint.to_owned(),
        posted_at: Some(posted),
        description: format!("<p>{title}: build and run our payments platform.</p>"),
        ..posting(id, title)
    }
}

fn key(id: &str) -> JobKey {
    JobKey { source: Provider::parse("greenhouse").unwrap(), external_id: format!("acme:{id}") }
}

async fn slug_of(s: &Server, id: &str) -> String {
    s.db.store().job_by_key(&key(id)).await.unwrap().unwrap().public_slug.as_str().to_owned()
}

// scenario: Reality signals on the detail and the hits
async fn the_detail_and_hits_carry_reality(db: TestDb) {
    let store = db.store();
    // A backend role posted three times and closed each time, then posted again in August:
    // old and reposted. Its source claims a date two days ago.
    for (i, month) in [(1, 3), (2, 5), (3, 7)] {
        let id = format!("r{i}");
        store
            .upsert_jobs(
                &[role(&id, "Backend Engineer", "backend", at(2026, month, 1))],
                at(2026, month, 1),
            )
            .await
            .unwrap();
        store
            .close_jobs(&[key(&id)], ClosedReason::BoardUnseen, at(2026, month, 20))
            .await
            .unwrap();
    }
    let reposted = role("r4", "Backend Engineer", "backend", at(2026, 11, 18));
    store.upsert_jobs(&[reposted], at(2026, 8, 1)).await.unwrap();
    // Three days old: fresh; a talent pool of the same age: not fresh.
    store
        .upsert_jobs(&[role("f1", "Rust Engineer", "rust", at(2026, 11, 17))], at(2026, 11, 17))
        .await
        .unwrap();
    store
        .upsert_jobs(
            &[role("t1", "Engineering Talent Pool", "pool", at(2026, 11, 17))],
            at(2026, 11, 17),
        )
        .await
        .unwrap();

    let dir = tempfile::tempdir().unwrap();
    let index = Arc::new(EmbeddedIndex::open(dir.path()).unwrap());
    let jobs = store.list_open_jobs(ListPage::default()).await.unwrap().jobs;
    let docs: Vec<SearchDocument> = jobs
        .iter()
        .filter(|j| indexable(j))
        .map(|j| SearchDocument::from_job(j, at(2026, 11, 20)))
        .collect();
    assert_eq!(docs.len(), 3);
    index.upsert(docs).await.unwrap();
    let search: Arc<dyn SearchIndex> = index.clone();
    let s = Server::start_with(db, Some(search)).await;

    let (status, body) = s.get(&format!("/api/v1/jobs/{}", slug_of(&s, "r4").await)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["data"]["reality"],
        json!({"class": "likely-evergreen", "age_days": 111, "repost_count": 4, "mass_posting_count": 1, "fake_freshness": true})
    );
    let (_, body) = s.get(&format!("/api/v1/jobs/{}", slug_of(&s, "f1").await)).await;
    assert_eq!(
        body["data"]["reality"],
        json!({"class": "fresh", "age_days": 3, "repost_count": 1, "mass_posting_count": 1, "fake_freshness": false})
    );
    let (_, body) = s.get(&format!("/api/v1/jobs/{}", slug_of(&s, "t1").await)).await;
    assert_eq!(body["data"]["reality"]["class"], "stale", "evergreen wording is never fresh");
    // A closed posting still says what it was.
    let (_, body) = s.get(&format!("/api/v1/jobs/{}", slug_of(&s, "r1").await)).await;
    assert_eq!(body["data"]["reality"]["repost_count"], 4);
    assert_eq!(body["data"]["reality"]["mass_posting_count"], 1);

    let classes = |body: &Value| -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = body["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                (
                    h["external_id"].as_str().unwrap().to_owned(),
                    h["reality"]["class"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        v.sort();
        v
    };
    let want = vec![
        ("acme:f1".to_owned(), "fresh".to_owned()),
        ("acme:r4".to_owned(), "likely-evergreen".to_owned()),
        ("acme:t1".to_owned(), "stale".to_owned()),
    ];
    let (status, hits) = s.get("/api/v1/jobs/search").await;
    assert_eq!(status, 200, "{hits}");
    assert_eq!(classes(&hits), want);
    let r4 =
        hits["data"].as_array().unwrap().iter().find(|h| h["external_id"] == "acme:r4").unwrap();
    assert_eq!(r4["reality"]["fake_freshness"], false, "hits do not carry the source's date");
    assert_eq!(r4["reality"]["repost_count"], 4);
    let (status, agent) = s.get("/api/v1/agent/jobs/search").await;
    assert_eq!(status, 200, "{agent}");
    assert_eq!(classes(&agent), want);
    s.db.teardown().await;
}

on_both_backends![the_detail_and_hits_carry_reality];
