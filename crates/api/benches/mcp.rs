//! What MCP adds to a search: `cargo xtask bench` (or `cargo bench -p freehire-api --bench
//! mcp`).
//!
//! Over the real router (`tower::ServiceExt::oneshot`, no sockets) on SQLite with an embedded
//! index of `BENCH_MCP_JOBS` synthetic jobs (default 5,000): MCP's `search` tool (`POST /mcp`,
//! one stateless `tools/call`: the rmcp transport, the handler, the tool registry, the same
//! agent search underneath) against the HTTP route doing the same work, `GET
//! /api/v1/agent/jobs/search?description_format=markdown` (full jobs, Markdown descriptions),
//! and the plain `GET /api/v1/jobs/search` for scale. 2,000 requests of each, interleaved, after
//! a warm-up; p50 and p99 per kind and the overhead (MCP minus the agent route; target p99
//! ≤ 1 ms).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::{body::Body, extract::ConnectInfo, http::Request};
use chrono::Utc;
use freehire_api::ratelimit::RateLimitConfig;
use freehire_app::{accounts::Accounts, search_slot::SearchSlot};
use freehire_domain::{Facets, JobPosting, Provider};
use freehire_search::{EmbeddedIndex, SearchDocument, SearchIndex, indexable};
use freehire_store::{ListPage, testing::TestDb};
use tower::ServiceExt;

const ROUNDS: usize = 2_000;

fn posting(i: usize) -> JobPosting {
    const ROLES: [&str; 6] = [
        "Backend Engineer",
        "Data Engineer",
        "Product Manager",
        "Platform Engineer",
        "Designer",
        "Sales Engineer",
    ];
    const SKILLS: [&str; 6] = ["rust", "python", "go", "kubernetes", "postgresql", "react"];
    let role = ROLES[i % ROLES.len()];
    let paragraph = format!(
        "<p>We build {role} tooling for teams of every size. You will own services end to end, \
         review designs and mentor others. Our stack: {}, {} and a lot of SQL.</p>",
        SKILLS[i % SKILLS.len()],
        SKILLS[(i / 6) % SKILLS.len()]
    );
    JobPosting {
        source: Provider::parse("manual").unwrap(),
        external_id: format!("bench:{i}"),
        url: format!("https://jobs.example.com/{i}"),
        title: format!("{role} {}", i % 97),
        company: format!("Company {}", i % 311),
        location: "Berlin, Germany".into(),
        description: paragraph.repeat(6),
        remote: i.is_multiple_of(3),
        posted_at: None,
        facets: Facets { skills: vec![SKILLS[i % SKILLS.len()].into()], ..Facets::default() },
        salary: None,
        role_fingerprint: String::new(),
        structured: Default::default(),
    }
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at].as_secs_f64() * 1e3
}

fn main() {
    let jobs: usize =
        std::env::var("BENCH_MCP_JOBS").ok().and_then(|v| v.parse().ok()).unwrap_or(5_000);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let db = TestDb::sqlite().await;
        let store = db.store.clone();
        let postings: Vec<JobPosting> = (0..jobs).map(posting).collect();
        for chunk in postings.chunks(500) {
            store.upsert_jobs(chunk, Utc::now()).await.unwrap();
        }
        let dir = tempfile::tempdir().unwrap();
        let index = EmbeddedIndex::open(dir.path()).unwrap();
        let mut offset = 0;
        loop {
            let page = store.list_open_jobs(ListPage::new(100, offset)).await.unwrap().jobs;
            if page.is_empty() {
                break;
            }
            offset += page.len() as u64;
            let docs = page
                .iter()
                .filter(|j| indexable(j))
                .map(|j| SearchDocument::from_job(j, Utc::now()));
            index.upsert(docs.collect()).await.unwrap();
        }
        let index: Arc<dyn SearchIndex> = Arc::new(index);
        let mail = tempfile::tempdir().unwrap();
        let state = freehire_api::AppState {
            search: SearchSlot::open(index),
            ..freehire_api::AppState::new(store.clone(), Accounts::ephemeral(store, mail.path()))
        };
        let router = freehire_api::router(state.with_rate_limits(&RateLimitConfig::off()));
        let peer: SocketAddr = "127.0.0.1:40000".parse().unwrap();
        let call = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "search", "arguments": {"query": "engineer", "limit": 10}}})
        .to_string();
        let request = |kind: usize| {
            let mut r = match kind {
                0 => Request::post("/mcp")
                    .header("host", "127.0.0.1")
                    .header("content-type", "application/json")
                    .header("accept", "application/json, text/event-stream")
                    .header("mcp-protocol-version", "2025-06-18")
                    .body(Body::from(call.clone()))
                    .unwrap(),
                1 => Request::get(
                    "/api/v1/agent/jobs/search?q=engineer&limit=10&description_format=markdown",
                )
                .body(Body::empty())
                .unwrap(),
                _ => Request::get("/api/v1/jobs/search?q=engineer&limit=10")
                    .body(Body::empty())
                    .unwrap(),
            };
            r.extensions_mut().insert(ConnectInfo(peer));
            r
        };
        let mut times: [Vec<Duration>; 3] = Default::default();
        for round in 0..ROUNDS + 200 {
            for (kind, samples) in times.iter_mut().enumerate() {
                let started = Instant::now();
                let answer = router.clone().oneshot(request(kind)).await.unwrap();
                let status = answer.status();
                let body = axum::body::to_bytes(answer.into_body(), 1 << 24).await.unwrap();
                let took = started.elapsed();
                assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
                if kind == 0 {
                    let rpc: serde_json::Value = serde_json::from_slice(&body).unwrap();
                    assert_eq!(rpc["result"]["structuredContent"]["limit"], 10, "{rpc}");
                }
                if round >= 200 {
                    samples.push(took);
                }
            }
        }
        for samples in &mut times {
            samples.sort();
        }
        let names =
            ["MCP tools/call search", "GET agent/jobs/search (markdown)", "GET jobs/search"];
        println!("mcp: {jobs} jobs, {ROUNDS} requests each, query \"engineer\", 10 hits");
        for (name, samples) in names.iter().zip(&times) {
            println!(
                "mcp: {name:<34} p50 {:>7.3} ms  p99 {:>7.3} ms",
                percentile(samples, 0.5),
                percentile(samples, 0.99)
            );
        }
        println!(
            "mcp: overhead over the agent route: p50 {:+.3} ms, p99 {:+.3} ms (target p99 <= 1 ms)",
            percentile(&times[0], 0.5) - percentile(&times[1], 0.5),
            percentile(&times[0], 0.99) - percentile(&times[1], 0.99)
        );
        db.teardown().await;
    });
}
