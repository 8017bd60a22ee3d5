//! `cvedit` commit latency on both backends: `cargo xtask bench` (or
//! `cargo bench -p freehire-store --bench cvedit` with PostgreSQL reachable).
//!
//! A CV of 5 jobs with 4 bullets each; every commit is one agent batch of 20 `set`s (every
//! bullet rewritten, each citing a publishable atom) in its own batch, so none coalesces:
//! authorise, lock the row, plan, save, file the revision, trim the feed (past 100
//! revisions every commit also deletes one). Prints p50/p99 over `BENCH_COMMITS` commits
//! (default 300). `BENCH_BACKEND=sqlite|postgres` runs one.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use chrono::Utc;
use freehire_cv::{Actor, CvState, EditConfig, Op, Origin, Path};
use freehire_domain::{AtomId, Provenance};
use freehire_store::{CommitOutcome, CvEdit, testing::TestDb};
use serde_json::json;

const JOBS: usize = 5;
const BULLETS: usize = 4;

fn state() -> CvState {
    let experience: Vec<_> = (0..JOBS)
        .map(|j| {
            json!({
                "company": format!("Company {j}"),
                "role": "Backend engineer",
                "start": "2020", "end": "2023",
                "bullets": (0..BULLETS).map(|b| format!("Shipped thing {b} at company {j}")).collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::from_value(json!({
        "title": "Base CV",
        "header": {"full_name": "Ada Lovelace", "email": "ada@example.com"},
        "summary": "Builds reliable systems.",
        "experience": experience,
        "skills": [{"name": "Languages", "items": ["Rust", "Go", "SQL"]}],
    }))
    .unwrap()
}

fn batch(n: usize) -> Vec<Op> {
    let evidence = AtomId::new(1).unwrap();
    (0..JOBS)
        .flat_map(|j| (0..BULLETS).map(move |b| (j, b)))
        .map(|(j, b)| {
            let path = Path::parse(&format!("experience[{j}].bullets[{b}]")).unwrap();
            Op::set(
                path,
                json!(format!("Led migration {n} of system {b} at company {j}, cutting cost 30%")),
            )
            .citing(evidence)
        })
        .collect()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

async fn run(name: &str, db: TestDb, commits: usize) {
    let s = db.store();
    let user = freehire_store::testing::user(s, "bench@example.com", Utc::now()).await;
    let cv = s.create_base_cv(user.id, &state(), Utc::now()).await.unwrap();
    let lookup = |_: AtomId| Some(Provenance::Manual);
    let config = EditConfig::default();
    let mut times = Vec::with_capacity(commits);
    for n in 0..commits {
        let ops = batch(n);
        let tag = format!("run-{n}");
        let edit = CvEdit {
            ops: &ops,
            actor: Actor::Agent,
            origin: Origin::TailorAgent,
            batch: Some(&tag),
            note: None,
        };
        let started = Instant::now();
        let outcome =
            s.commit_cv(user.id, cv.id, &edit, &lookup, &config, Utc::now()).await.unwrap();
        times.push(started.elapsed());
        assert!(
            matches!(outcome, Some(CommitOutcome::Committed { ref revisions, .. }) if revisions.len() == 1)
        );
    }
    times.sort();
    println!(
        "cvedit {name}: {commits} commits of a 20-op batch: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(&times, 0.50).as_secs_f64() * 1e3,
        percentile(&times, 0.99).as_secs_f64() * 1e3,
        times[times.len() - 1].as_secs_f64() * 1e3,
    );
    db.teardown().await;
}

#[tokio::main]
async fn main() {
    let commits = std::env::var("BENCH_COMMITS").ok().and_then(|v| v.parse().ok()).unwrap_or(300);
    let only = std::env::var("BENCH_BACKEND").unwrap_or_default();
    if only.is_empty() || only == "sqlite" {
        run("sqlite", TestDb::sqlite().await, commits).await;
    }
    if only.is_empty() || only == "postgres" {
        run("postgres", TestDb::postgres().await, commits).await;
    }
}
