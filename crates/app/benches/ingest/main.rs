//! End-to-end ingest throughput: `cargo xtask bench` (or `cargo bench -p freehire-app --bench
//! ingest` with PostgreSQL reachable).
//!
//! The corpus is every recorded or constructed happy-path fixture of every platform
//! (`corpus.rs`): the recorded Ashby boards (`shared/fixtures/ats/ashby-boards`), the
//! Ashby facet-evaluation boards (`ashby-eval`, 90 boards), one board per careerkit fixture
//! (`careerkit/`: ashby, greenhouse, lever, workable, smartrecruiters, recruitee, personio,
//! pinpoint, bamboohr, rippling, teamtailor, workday, eightfold, oracle, icims, jobvite,
//! neogov, hrmdirect, paylocity, phenom) and one per fixture of the ingest crate's tests
//! (`crates/ingest/tests/fixtures/`: ashbygraphql, breezy, dayforce, gem, jazzhr, paycom,
//! successfactors, taleo, ukg, ukgready, zohorecruit) — 31 platforms, each board served with
//! the routes its adapter test serves for a successful crawl (listing pages, detail documents
//! and job pages, derived from the recorded shape where the fixture has none). Every board is
//! served under `BENCH_COPIES` board names (default 300), each copy its own company, except
//! Phenom and Teamtailor, one board each: their adapters pace the whole provider at 2
//! requests/s, which the client cannot turn off, so their lines show that pace. No platform
//! is left out.
//!
//! Each provider has its own replay server (so no provider's lookups scan another's routes)
//! and one provider run (`run_provider`) crawls its boards through the real pipeline: safe
//! HTTP client, adapter, sanitiser, facet derivation, batch write with outbox rows, board
//! health, board-scoped closes. The providers run in sequence, first crawl (inserts) then an
//! unchanged re-crawl. Printed per backend (SQLite, PostgreSQL): postings/s over all providers
//! (total postings / total seconds) of each crawl, one line per provider under it, and the
//! process's peak RSS (replay servers included). The first crawl must fail no board and leave
//! no posting unreadable; the re-crawl must insert and change nothing.
//!
//! `BENCH_COPIES` sets the copies; `BENCH_PROVIDERS=ashby,greenhouse` restricts the providers;
//! `BENCH_BOARD_CONCURRENCY` overrides the default boards at once (the worker's, 32);
//! `BENCH_WRITE_GROUP` the most boards one write transaction holds (1: a transaction per
//! board), `BENCH_PG_WRITERS` the transactions written at once on PostgreSQL; `BENCH_RECRAWLS`
//! repeats the re-crawl (the fastest pass reported); `BENCH_BACKENDS=sqlite|postgres` runs one
//! backend. The client's per-host pacing is off: the copies of a board are on one recorded
//! host, which a real crawl paces.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod corpus;

use std::time::Instant;

use chrono::Utc;
use freehire_app::ingest::{GroupLimits, IngestConfig, RunStats, run_provider};
use freehire_domain::{BoardKey, BoardStatus, NewBoard, Provider};
use freehire_ingest::{
    SourceConfig, Sources,
    http::{ClientConfig, HostPacing, HttpClient},
    replay::ReplayServer,
};
use freehire_store::{Store, testing::TestDb};
use tokio_util::sync::CancellationToken;

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn peak_rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// One provider of the corpus behind its own replay server.
struct Served {
    provider: Provider,
    boards: Vec<(String, String)>,
    registry: Sources,
    _server: ReplayServer,
}

async fn serve(platform: corpus::Platform) -> Served {
    let mut builder = ReplayServer::builder();
    for route in platform.routes {
        builder = builder.route(route);
    }
    let server = builder.start().await.unwrap();
    // The copies of a board are on one recorded host: the per-host pace would measure the
    // pace, not the client, so the bench turns it off.
    let config =
        ClientConfig { host_pacing: HostPacing::Off, ..ClientConfig::replaying(server.origin()) };
    let http = HttpClient::new(config).unwrap();
    Served {
        provider: Provider::parse(platform.provider).unwrap(),
        boards: platform.boards,
        registry: Sources::new(&http, SourceConfig::default()),
        _server: server,
    }
}

/// One provider run, timed.
async fn crawl(store: &dyn Store, served: &Served) -> (RunStats, f64) {
    let config = IngestConfig {
        board_concurrency: env_usize(
            "BENCH_BOARD_CONCURRENCY",
            IngestConfig::default().board_concurrency,
        ),
        write_group: GroupLimits {
            boards: env_usize("BENCH_WRITE_GROUP", GroupLimits::default().boards),
            postgres_writers: env_usize(
                "BENCH_PG_WRITERS",
                GroupLimits::default().postgres_writers,
            ),
            ..GroupLimits::default()
        },
        ..IngestConfig::default()
    };
    let start = Instant::now();
    let stats = run_provider(
        store,
        &served.registry,
        &served.provider,
        &config,
        &CancellationToken::new(),
        &Utc::now,
    )
    .await
    .unwrap();
    (stats, start.elapsed().as_secs_f64())
}

/// Every provider run once, in sequence: each one's stats and seconds.
type Pass = Vec<(RunStats, f64)>;

fn seconds(pass: &Pass) -> f64 {
    pass.iter().map(|(_, t)| t).sum()
}

/// The total line of a pass (its shape is the bench's interface) and one line per provider.
fn report(name: &str, label: &str, served: &[Served], pass: &Pass) {
    let postings: u64 = pass.iter().map(|(s, _)| s.ingested).sum();
    let boards: u64 = pass.iter().map(|(s, _)| s.crawled).sum();
    let t = seconds(pass);
    println!(
        "{name:<9} {label:<12} {:>7.0} postings/s ({postings} postings, {boards} boards, {t:.2} s)",
        postings as f64 / t
    );
    for (s, (stats, t)) in served.iter().zip(pass) {
        println!(
            "{name:<9}   {:<16} {:>7.0} postings/s ({} postings, {} boards, {t:.2} s)",
            s.provider.as_str(),
            stats.ingested as f64 / t,
            stats.ingested,
            stats.crawled
        );
    }
}

async fn bench(name: &str, db: TestDb, platforms: &[(&str, corpus::Build)], copies: usize) {
    let store = db.store();
    let mut served = Vec::new();
    for (provider, build) in platforms {
        let s = serve(build(copies)).await;
        let boards: Vec<NewBoard> = s
            .boards
            .iter()
            .map(|(board, company)| NewBoard {
                key: BoardKey::new(s.provider.clone(), board, "").unwrap(),
                company: company.clone(),
                url: None,
                status: BoardStatus::Active,
            })
            .collect();
        for chunk in boards.chunks(1000) {
            let added = store.add_boards(chunk, Utc::now()).await.unwrap();
            assert_eq!(added.len(), chunk.len(), "{provider}: two boards of one identity");
        }
        served.push(s);
    }

    let mut first = Pass::new();
    for s in &served {
        let (stats, t) = crawl(store, s).await;
        assert!(
            stats.failed == 0 && stats.unreadable == 0,
            "{}: the first crawl failed: {stats:?}",
            s.provider
        );
        first.push((stats, t));
    }
    // `BENCH_RECRAWLS` unchanged re-crawls (default 1); the fastest pass is reported.
    let mut best: Option<Pass> = None;
    for _ in 0..env_usize("BENCH_RECRAWLS", 1).max(1) {
        let mut pass = Pass::new();
        for s in &served {
            let (stats, t) = crawl(store, s).await;
            assert_eq!((stats.inserted, stats.changed), (0, 0), "{}: {stats:?}", s.provider);
            pass.push((stats, t));
        }
        if best.as_ref().is_none_or(|b| seconds(&pass) < seconds(b)) {
            best = Some(pass);
        }
    }
    report(name, "first crawl", &served, &first);
    if let Some(second) = best {
        report(name, "re-crawl", &served, &second);
    }
    drop(served);
    db.teardown().await;
}

fn main() {
    let copies = env_usize("BENCH_COPIES", 300);
    // `BENCH_PROVIDERS=ashby,greenhouse` crawls those providers only.
    let platforms: Vec<(&str, corpus::Build)> = match std::env::var("BENCH_PROVIDERS") {
        Ok(list) => {
            let wanted: Vec<&str> =
                list.split(',').map(str::trim).filter(|p| !p.is_empty()).collect();
            for p in &wanted {
                assert!(
                    corpus::PLATFORMS.iter().any(|(key, _)| key == p),
                    "BENCH_PROVIDERS: no corpus for {p:?}; known: {}",
                    corpus::PLATFORMS.iter().map(|(key, _)| *key).collect::<Vec<_>>().join(",")
                );
            }
            corpus::PLATFORMS.iter().copied().filter(|(key, _)| wanted.contains(key)).collect()
        }
        Err(_) => corpus::PLATFORMS.to_vec(),
    };
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    rt.block_on(async {
        println!(
            "ingest bench: {} platforms, {copies} copies of each recorded board (phenom and \
             teamtailor: one board, paced at 2 requests/s)",
            platforms.len()
        );
        // `BENCH_BACKENDS=sqlite` (or `postgres`) runs one backend only.
        let backends = std::env::var("BENCH_BACKENDS").unwrap_or_else(|_| "sqlite,postgres".into());
        if backends.contains("sqlite") {
            bench("sqlite", TestDb::sqlite().await, &platforms, copies).await;
        }
        if backends.contains("postgres") {
            bench("postgres", TestDb::postgres().await, &platforms, copies).await;
        }
        println!("peak RSS {:.0} MB (bench process, replay servers included)", peak_rss_mb());
    });
}
