//! Tracking reads for a user with 2,000 tracked jobs: `cargo xtask bench` (or
//! `cargo bench -p freehire-api --bench tracking`, PostgreSQL when reachable).
//!
//! The jobs are seeded through the store and tracked through the store's own operations (a
//! mix of views, saves, applications and stages); then `GET /api/v1/me/tracking` (the default
//! page of 100 cards) and `GET /api/v1/me/tracking/pipeline` are requested one after another
//! through the real server on loopback with an API key, and the p50 and p99 of the whole
//! request (as the client sees it) are printed. Target: p99 ≤ 10 ms on SQLite.
//!
//! `BENCH_BACKEND=sqlite|postgres` runs one backend; `BENCH_ROUNDS` changes the requests per
//! route (default 300).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};
use freehire_app::accounts::Accounts;
use freehire_domain::{Facets, JobPosting, Provider, Stage};
use freehire_store::{ApplyOptions, TrackChange, testing::TestDb};
use serde_json::json;

const TRACKED: usize = 2_000;

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let only = std::env::var("BENCH_BACKEND").ok();
        for backend in ["sqlite", "postgres"] {
            if only.as_deref().is_some_and(|b| b != backend) {
                continue;
            }
            let db =
                if backend == "sqlite" { TestDb::sqlite().await } else { TestDb::postgres().await };
            run(backend, &db).await;
            db.teardown().await;
        }
    });
}

fn posting(n: usize) -> JobPosting {
    JobPosting {
        source: Provider::parse("greenhouse").unwrap(),
        external_id: format!("bench:{n}"),
        url: format!("https://boards.greenhouse.io/bench/jobs/{n}"),
        title: format!("Engineer {n}"),
        company: format!("Company {}", n % 97),
        location: "Remote".to_owned(),
        description: "<p>A role.</p>".repeat(40),
        remote: true,
        posted_at: None,
        facets: Facets::default(),
        salary: None,
        role_fingerprint: String::new(),
        structured: Default::default(),
    }
}

async fn run(backend: &str, db: &TestDb) {
    let mail = tempfile::tempdir().unwrap();
    let accounts = Accounts::ephemeral(db.store.clone(), mail.path());
    let state = freehire_api::AppState::new(db.store.clone(), accounts);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    tokio::spawn(freehire_api::serve(listener, state, std::future::pending()));
    let http = reqwest::Client::new();
    let base = format!("http://{addr}/api/v1");
    let key = sign_up(&http, &base, mail.path()).await;
    let owner = db
        .store
        .credentials_by_email(&freehire_domain::Email::parse("bench@example.com").unwrap())
        .await
        .unwrap()
        .unwrap()
        .user
        .id;

    // Seed and track.
    let seeded = Instant::now();
    let at = Utc.with_ymd_and_hms(2026, 10, 1, 9, 0, 0).unwrap();
    let postings: Vec<_> = (0..TRACKED).map(posting).collect();
    let mut slugs = Vec::new();
    for chunk in postings.chunks(500) {
        let written = db.store.upsert_jobs(chunk, at).await.unwrap();
        let ids: Vec<_> = written.iter().map(|w| w.id).collect();
        slugs.extend(db.store.jobs_by_ids(&ids).await.unwrap().into_iter().map(|j| j.public_slug));
    }
    let stages = [Stage::Screening, Stage::Interview, Stage::Offer, Stage::Rejected];
    for (n, slug) in slugs.iter().enumerate() {
        let now = at + chrono::Duration::minutes(n as i64);
        let s = &db.store;
        match n % 4 {
            0 => drop(s.track_view(owner, slug, now).await.unwrap()),
            1 => drop(s.track_save(owner, slug, true, now).await.unwrap()),
            2 => {
                let apply = ApplyOptions {
                    applied_at: now,
                    explicit_date: false,
                    cv_id: None,
                    source: freehire_domain::EventSource::User,
                };
                drop(s.track_apply(owner, slug, &apply, now).await.unwrap());
            }
            _ => {
                let change =
                    TrackChange { stage: Some(stages[n / 4 % 4]), notes: Some("notes".into()) };
                drop(s.track_update(owner, slug, &change, now).await.unwrap());
            }
        }
    }
    println!(
        "{backend}: seeded and tracked {TRACKED} jobs in {:.1} s",
        seeded.elapsed().as_secs_f64()
    );

    let rounds: usize =
        std::env::var("BENCH_ROUNDS").ok().and_then(|s| s.parse().ok()).unwrap_or(300);
    for path in ["/me/tracking", "/me/tracking/pipeline"] {
        let url = format!("{base}{path}");
        let mut times = Vec::with_capacity(rounds);
        for round in 0..rounds + 20 {
            let started = Instant::now();
            let res = http.get(&url).bearer_auth(&key).send().await.unwrap();
            assert_eq!(res.status(), 200);
            let body = res.bytes().await.unwrap();
            if round >= 20 {
                times.push(started.elapsed());
            }
            if round == 0 && path == "/me/tracking" {
                let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
                assert_eq!(v["total"], TRACKED);
                assert_eq!(v["data"].as_array().unwrap().len(), 100);
            }
        }
        times.sort();
        let p = |q: f64| ms(times[((times.len() as f64 - 1.0) * q).round() as usize]);
        println!(
            "{backend}: GET {path} ({TRACKED} tracked): p50 {:.2} ms, p99 {:.2} ms ({rounds} requests)",
            p(0.5),
            p(0.99)
        );
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Registers, verifies (the code from the mail file) and mints a key.
async fn sign_up(http: &reqwest::Client, base: &str, mail: &std::path::Path) -> String {
    let res = http
        .post(format!("{base}/auth/register"))
        .json(&json!({"email": "bench@example.com", "password": "correct horse"}))
        .send()
        .await
        .unwrap();
    let cookie =
        res.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_owned();
    let path = std::fs::read_dir(mail).unwrap().next().unwrap().unwrap().path();
    let text = std::fs::read_to_string(path).unwrap();
    let subject = text.lines().find(|l| l.starts_with("Subject: ")).unwrap();
    let code = subject["Subject: ".len()..][..6].to_owned();
    let res = http
        .post(format!("{base}/auth/verify/confirm"))
        .header("cookie", &cookie)
        .json(&json!({"code": code}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let minted: serde_json::Value = http
        .post(format!("{base}/me/api-keys"))
        .header("cookie", &cookie)
        .json(&json!({"name": "bench"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    minted["data"]["token"].as_str().unwrap().to_owned()
}
