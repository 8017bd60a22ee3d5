//! Fetch + parse throughput of the recorded Ashby boards (`shared/fixtures/ats/ashby-boards`)
//! served over local HTTP by the replay server, through the real client (SSRF guard, retries,
//! body cap) and the Ashby adapter (JSON decode, sanitising, compensation).
//!
//! `cargo bench -p freehire-ingest --bench fetch` prints postings/s for one board at a time
//! and for 8 boards in flight (the pipeline's default board concurrency). The per-host pacing
//! is off: every board is on one recorded host, which a real crawl paces.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use freehire_domain::{BoardKey, Provider};
use freehire_ingest::http::{ClientConfig, HostPacing, HttpClient};
use freehire_ingest::replay::ReplayServer;
use freehire_ingest::{BoardTarget, SeenSet, Source, SourceConfig, Sources};
use futures::StreamExt;

const ROUNDS: usize = 200;
const TIME_LIMIT: Duration = Duration::from_secs(20);

fn boards_dir() -> PathBuf {
    freehire_ingest::replay::recorded_fixtures(std::path::Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("shared/fixtures/ats not found; set FREEHIRE_ATS_FIXTURES")
        .join("ashby-boards")
}

/// Fetches every board `ROUNDS` times (or until `TIME_LIMIT`): (postings, boards, elapsed).
async fn run(
    source: &Arc<dyn Source>,
    targets: &[BoardTarget],
    in_flight: usize,
) -> (usize, usize, Duration) {
    let start = Instant::now();
    let seen = SeenSet::new();
    let seen = &seen;
    let mut postings = 0;
    let mut boards = 0;
    for _ in 0..ROUNDS {
        let counts: Vec<usize> = futures::stream::iter(targets.iter())
            .map(|t| async move { source.fetch(t, seen).await.expect("fetch").postings.len() })
            .buffer_unordered(in_flight)
            .collect()
            .await;
        postings += counts.iter().sum::<usize>();
        boards += counts.len();
        if start.elapsed() > TIME_LIMIT {
            break;
        }
    }
    (postings, boards, start.elapsed())
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let dir = boards_dir();
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok()?.path().file_stem()?.to_str().map(str::to_owned))
            .filter(|n| n != "LICENSE")
            .collect();
        names.sort();
        let server = ReplayServer::builder()
            .directory("https://api.ashbyhq.com", "/posting-api/job-board/", &dir, "json")
            .unwrap()
            .start()
            .await
            .unwrap();
        // Every fake board is on one recorded host: the per-host pace would measure the pace,
        // not the client, so the bench turns it off.
        let config = ClientConfig { host_pacing: HostPacing::Off, ..ClientConfig::replaying(server.origin()) };
        let http = HttpClient::new(config).unwrap();
        let registry = Sources::new(&http, SourceConfig::default());
        let ashby = Provider::parse("ashby").unwrap();
        let source = registry.require(&ashby).unwrap().clone();
        let targets: Vec<BoardTarget> = names
            .iter()
            .map(|n| BoardTarget::new(BoardKey::new(ashby.clone(), n, "").unwrap(), n))
            .collect();
        // Warm-up: connections, allocator, the lazily built sanitiser.
        run(&source, &targets, 8).await;
        for in_flight in [1, 8] {
            let (postings, boards, elapsed) = run(&source, &targets, in_flight).await;
            let secs = elapsed.as_secs_f64();
            println!(
                "ashby fetch+parse, {in_flight} board(s) in flight: {postings} postings from {boards} board fetches in {secs:.2} s = {:.0} postings/s, {:.0} boards/s",
                postings as f64 / secs,
                boards as f64 / secs,
            );
        }
    });
}
