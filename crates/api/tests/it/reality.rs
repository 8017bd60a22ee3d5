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

/// A backend role posted and closed three times (March, May, July), then posted again on
/// 1 August (`acme:r4`) with the source's date `posted`.
async fn reposted_role(store: &dyn freehire_store::Store, posted: DateTime<Utc>) {
    for (i, month) in [(1, 3), (2, 5), (3, 7)] {
        let id = format!("r{i}");
        let first = at(2026, month, 1);
        store.upsert_jobs(&[role(&id, "Backend Engineer", "backend", first)], first).await.unwrap();
        store
            .close_jobs(&[key(&id)], ClosedReason::BoardUnseen, at(2026, month, 20))
            .await
            .unwrap();
    }
    let again = role("r4", "Backend Engineer", "backend", posted);
    store.upsert_jobs(&[again], at(2026, 8, 1)).await.unwrap();
}

async fn slug_of(s: &Server, id: &str) -> String {
    s.db.store().job_by_key(&key(id)).await.unwrap().unwrap().public_slug.as_str().to_owned()
}

// scenario: Reality signals on the detail and the hits
async fn the_detail_and_hits_carry_reality(db: TestDb) {
    let store = db.store();
    // A backend role posted three times and closed each time, then posted again in August:
    // old and reposted. Its source claims a date two days ago.
    reposted_role(store, at(2026, 11, 18)).await;
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

mod ghost {
    use reqwest::Method;
    use serde_json::json;

    use super::{at, slug_of};
    use crate::accounts::{Client, refused, verified_user};
    use crate::server::Server;

    both_backends! { reports_build_the_ghost_signal_and_closed_jobs_carry_none }

    // scenario: Ghost reports and the signal
    async fn reports_build_the_ghost_signal_and_closed_jobs_carry_none(s: &Server) {
        let store = s.db.store();
        // Old and reposted: likely evergreen, the first criterion.
        super::reposted_role(store, at(2026, 8, 1)).await;
        let slug = slug_of(s, "r4").await;
        let closed = slug_of(s, "r1").await;
        let path = format!("/jobs/{slug}/ghost-report");
        let ghost =
            || async { s.get(&format!("/api/v1/jobs/{slug}")).await.1["data"]["ghost"].clone() };

        assert_eq!(
            ghost().await,
            json!({"level": "none", "criteria": ["evergreen_posting"], "criteria_total": 4})
        );

        let ada = verified_user(s, "ada@example.com").await;
        let a = ada.call(Method::POST, &path, Some(json!({"applied_on": "2026-10-01"}))).await;
        assert_eq!(
            (a.status, a.body["data"].clone()),
            (200, json!({"applied_on": "2026-10-01"})),
            "{a:?}"
        );
        assert_eq!(
            ghost().await,
            json!({"level": "possible", "criteria": ["evergreen_posting", "user_reports"], "criteria_total": 4}),
            "one person: possible, no count"
        );
        let bob = verified_user(s, "bob@example.com").await;
        let key = bob.post("/me/api-keys", json!({"name": "cli"})).await;
        let bob = Client::with_key(s, key.body["data"]["token"].as_str().unwrap());
        assert_eq!(
            bob.call(Method::POST, &path, None).await.status,
            200,
            "the day defaults to today"
        );
        assert_eq!(
            ghost().await,
            json!({"level": "likely", "criteria": ["evergreen_posting", "user_reports"], "criteria_total": 4, "contributors": 2})
        );

        // Bad input names the field and changes nothing.
        for bad in ["2026-12-25", "2025-01-01", "yesterday"] {
            let a = ada.call(Method::POST, &path, Some(json!({"applied_on": bad}))).await;
            refused(&a, 400, "invalid_parameter", Some("applied_on"));
        }
        let a = ada.call(Method::POST, &path, Some(json!({"applied": "2026-10-01"}))).await;
        assert_eq!(a.status, 400, "{a:?}");
        assert_eq!(Client::new(s).call(Method::POST, &path, None).await.status, 401);
        let a = ada.call(Method::POST, "/jobs/nope-aaaaaaaa/ghost-report", None).await;
        refused(&a, 404, "not_found", None);
        // A closed job takes no report and carries no signal.
        let a = ada.call(Method::POST, &format!("/jobs/{closed}/ghost-report"), None).await;
        refused(&a, 400, "invalid_parameter", Some("slug"));
        let (_, body) = s.get(&format!("/api/v1/jobs/{closed}")).await;
        assert!(body["data"].get("ghost").is_none(), "{body}");

        // An application silent past its stage's threshold (21 days applied) is evidence too.
        let carol = verified_user(s, "carol@example.com").await;
        let applied = carol
            .call(
                Method::POST,
                &format!("/jobs/{slug}/apply"),
                Some(json!({"applied_on": "2026-10-15"})),
            )
            .await;
        assert_eq!(applied.status, 200, "{applied:?}");
        assert_eq!(
            ghost().await,
            json!({"level": "likely", "criteria": ["evergreen_posting", "silent_applications", "user_reports"], "criteria_total": 4, "contributors": 3})
        );

        // Retracting takes one person's evidence away; twice is harmless.
        assert_eq!(bob.call(Method::DELETE, &path, None).await.status, 204);
        assert_eq!(bob.call(Method::DELETE, &path, None).await.status, 204);
        assert_eq!(ghost().await["contributors"], 2);
        assert_eq!(ada.call(Method::DELETE, &path, None).await.status, 204);
        assert_eq!(
            ghost().await,
            json!({"level": "possible", "criteria": ["evergreen_posting", "silent_applications"], "criteria_total": 4})
        );
        let counted = store
            .ghost_inputs(store.job_by_key(&super::key("r4")).await.unwrap().unwrap().id)
            .await
            .unwrap();
        assert!(counted.reporters.is_empty(), "both reports retracted");
        assert_eq!(counted.applications.len(), 1);
    }
}
