//! The `freehire-worker` process: it claims the due provider, crawls it from the replay server,
//! and stops cleanly on SIGTERM.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::{
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use chrono::Utc;
use freehire_app::testing::{ashby_replay, indexed_total, output, terminate};
use freehire_domain::{BoardKey, BoardStatus, NewBoard, Provider};
use freehire_ingest::replay::{ReplayServer, Reply, Route};
use freehire_store::{
    BoardRepo, JobRepo, ListPage, ScheduleRepo, SqliteLocation, SqliteStore, Store,
};

/// The process tests run one at a time: each starts worker processes and a replay server
/// with deadlines of a few seconds, which parallel runs on a 2-core machine would stretch.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

#[tokio::test]
async fn the_worker_crawls_due_providers_and_stops_on_sigterm() {
    let _serial = SERIAL.lock().await;
    let server = ashby_replay(env!("CARGO_MANIFEST_DIR")).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("freehire.db");
    let store = SqliteStore::connect(&SqliteLocation::File(path.clone())).await.unwrap();
    store.migrate().await.unwrap();
    let key = BoardKey::new(Provider::parse("ashby").unwrap(), "reedsy", "").unwrap();
    let board = NewBoard { key, company: "Reedsy".into(), url: None, status: BoardStatus::Pending };
    store.add_board(&board, Utc::now()).await.unwrap();

    let metrics = {
        let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        free.local_addr().unwrap()
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_freehire-worker"))
        .env("FREEHIRE_WORKER_METRICS_ADDR", metrics.to_string())
        .env("FREEHIRE_DATABASE_URL", format!("sqlite://{}", path.display()))
        .env("FREEHIRE_ATS_REPLAY_URL", server.origin().url().to_string())
        .env("FREEHIRE_INGEST_HOST_RATE", "1000")
        .env("FREEHIRE_WORKER_TICK_SECS", "1")
        .env("FREEHIRE_WORKER_ID", "test-worker")
        .env("FREEHIRE_INDEX_DIR", dir.path().join("index"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();

    let deadline = Instant::now() + Duration::from_secs(60);
    let total = loop {
        let total = store.list_open_jobs(ListPage::default()).await.unwrap().total;
        if total > 0 {
            break total;
        }
        assert!(Instant::now() < deadline, "the worker never ingested");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert!(total >= 5, "{total}");
    // Within a tick the worker drains the search outbox into its index; a read-only open (what
    // the API does) sees the documents.
    let deadline = Instant::now() + Duration::from_secs(60);
    index_reaches(&dir.path().join("index"), total, deadline, "the index never caught up").await;

    // scenario: The worker serves its ingest metrics
    // The run is counted on the worker's own metrics listener.
    let deadline = Instant::now() + Duration::from_secs(30);
    let text = loop {
        let text = match reqwest::get(format!("http://{metrics}/metrics")).await {
            Ok(res) => res.text().await.unwrap_or_default(),
            Err(_) => String::new(),
        };
        if text.contains("freehire_ingest_runs_total{provider=\"ashby\",outcome=\"ok\"}") {
            break text;
        }
        assert!(Instant::now() < deadline, "no ingest run on /metrics:\n{text}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let inserted = text
        .lines()
        .find(|l| {
            l.starts_with("freehire_ingest_postings_total{provider=\"ashby\",outcome=\"inserted\"}")
        })
        .unwrap_or_else(|| panic!("{text}"));
    let counted: f64 = inserted.rsplit(' ').next().unwrap().parse().unwrap();
    assert!(counted >= total as f64, "every job ingested is counted: {inserted}");
    let boards = store.list_boards(&Default::default()).await.unwrap();
    assert_eq!(boards[0].status, BoardStatus::Active, "the first crawl activates the board");

    let status =
        terminate(&mut child, Duration::from_secs(20), "the worker did not stop on SIGTERM").await;
    assert!(status.success(), "{status}");
}

/// A worker on `db` and `index` with a 1 s tick and 2 s heartbeats (a 6 s claim expiry).
fn worker(db: &std::path::Path, index: &std::path::Path, origin: &str, id: &str) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_freehire-worker"));
    c.env("FREEHIRE_DATABASE_URL", format!("sqlite://{}", db.display()))
        .env("FREEHIRE_ATS_REPLAY_URL", origin)
        .env("FREEHIRE_INGEST_HOST_RATE", "1000")
        .env("FREEHIRE_WORKER_TICK_SECS", "1")
        .env("FREEHIRE_WORKER_HEARTBEAT_SECS", "2")
        .env("FREEHIRE_WORKER_ID", id)
        .env("FREEHIRE_INDEX_DIR", index)
        .env_remove("FREEHIRE_MEILI_URL")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    c
}

/// Waits until a read-only open of `index` finds `total` documents, panicking with `what`
/// (and how far it got) after `deadline`.
async fn index_reaches(index: &std::path::Path, total: u64, deadline: Instant, what: &str) {
    let reader = freehire_search::EmbeddedIndex::open_read_only(index).unwrap();
    loop {
        let found = indexed_total(&reader).await.unwrap();
        if found == total {
            return;
        }
        assert!(Instant::now() < deadline, "{what} ({found} of {total})");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Worker A claims ashby and hangs on a slow board; kill -9 leaves its claim and its writer
/// lease behind. Right after, `--once` is refused with the holder's name and the way out;
/// a second and a third worker start on the same database and index directory (no "lock busy"
/// exit), one of them gets the provider within the claim expiry (three 2 s heartbeats), and
/// the writer lease passes on, so the index ends complete.
// scenario: A killed worker does not block its provider
#[tokio::test]
async fn a_killed_worker_releases_its_provider_and_the_drain_within_the_expiry() {
    let _serial = SERIAL.lock().await;
    let fixtures = freehire_app::testing::ats_fixtures(env!("CARGO_MANIFEST_DIR"));
    let reedsy = fixtures.join("ashby-boards/reedsy.json");
    let slow = Route::get("https://api.ashbyhq.com", "/posting-api/job-board/reedsy")
        .reply(Reply::file(&reedsy).unwrap().delayed(Duration::from_secs(120)))
        .reply(Reply::file(&reedsy).unwrap());
    let server = ReplayServer::builder().route(slow).start().await.unwrap();
    let origin = server.origin().url().to_string();
    let dir = tempfile::tempdir().unwrap();
    let (db, index) = (dir.path().join("freehire.db"), dir.path().join("index"));
    let store = SqliteStore::connect(&SqliteLocation::File(db.clone())).await.unwrap();
    store.migrate().await.unwrap();
    let ashby = Provider::parse("ashby").unwrap();
    let key = BoardKey::new(ashby.clone(), "reedsy", "").unwrap();
    let board = NewBoard { key, company: "Reedsy".into(), url: None, status: BoardStatus::Pending };
    store.add_board(&board, Utc::now()).await.unwrap();

    let mut a = worker(&db, &index, &origin, "worker-a").spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while store.provider_claim(&ashby).await.unwrap().is_none_or(|h| h.worker != "worker-a") {
        assert!(Instant::now() < deadline, "worker A never claimed ashby");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    Command::new("kill").args(["-KILL", &a.id().to_string()]).status().unwrap();
    a.wait().unwrap();
    let killed = Instant::now();

    let mut once = worker(&db, &index, &origin, "cli");
    once.args(["--once", "ashby"]).stdout(Stdio::piped()).stderr(Stdio::piped());
    let (ok, stdout, stderr) = output(&mut once);
    let said = format!("{stdout}{stderr}");
    assert!(!ok, "the claim is still live right after the kill");
    assert!(said.contains("worker-a, since") && said.contains("--take-over"), "{said}");

    // Two workers on one database and one index directory: neither exits on a busy lock.
    let mut b = worker(&db, &index, &origin, "worker-b").spawn().unwrap();
    let mut c = worker(&db, &index, &origin, "worker-c").spawn().unwrap();
    let deadline = killed + Duration::from_secs(30);
    let total = loop {
        let total = store.list_open_jobs(ListPage::default()).await.unwrap().total;
        if total > 0 {
            break total;
        }
        assert!(Instant::now() < deadline, "nobody took the dead worker's provider over");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let took = killed.elapsed();
    assert!(took < Duration::from_secs(15), "taken over after {took:?}; the expiry is 6 s");
    index_reaches(&index, total, deadline, "the drain was never taken over").await;
    assert!(b.try_wait().unwrap().is_none(), "worker B runs on");
    assert!(c.try_wait().unwrap().is_none(), "worker C runs on");
    for child in [&mut b, &mut c] {
        let status = terminate(child, Duration::from_secs(20), "a worker did not stop").await;
        assert!(status.success(), "{status}");
    }
    eprintln!("taken over {took:?} after kill -9; index complete {:?} after", killed.elapsed());
}

/// Worker processes killed (SIGKILL) when the test ends, so a failed assertion leaves none
/// running.
struct Reap(Vec<std::process::Child>);

impl Drop for Reap {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Every JSON log line in `path`, parsed (empty while the file is not there yet).
fn log_lines(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .collect()
}

/// The `"ingest run finished"` lines of a worker's log: the provider and how many jobs it
/// inserted.
fn finished_runs(log: &[serde_json::Value]) -> Vec<(String, u64)> {
    log.iter()
        .filter(|l| l["fields"]["message"] == "ingest run finished")
        .map(|l| {
            let fields = &l["fields"];
            (fields["provider"].as_str().unwrap().to_owned(), fields["inserted"].as_u64().unwrap())
        })
        .collect()
}

/// Two worker processes on one SQLite file and one embedded index directory, two providers due
/// (Ashby's `reedsy` board and Lever's `idealistconsulting`, both answered 2 s late so the
/// first worker cannot run both before the second one claims): each worker runs one provider
/// (its own JSON log names the run), neither exits nor logs an error (no busy lock), exactly
/// one holds the writer lease, and the index ends with every open job of both providers.
///
/// Fixtures: `ashby-boards/reedsy.json` (stapply-ai/ats-scrapers, MIT) and
/// `careerkit/lever.json` (careerkit, MIT, Omid Mojtahedi), real recorded board responses;
/// see the LICENSE and README.md beside them.
// scenario: Two worker processes share one SQLite file and one index directory
#[tokio::test]
async fn two_worker_processes_on_one_embedded_engine_both_ingest() {
    let _serial = SERIAL.lock().await;
    let started = Instant::now();
    let fixtures = freehire_app::testing::ats_fixtures(env!("CARGO_MANIFEST_DIR"));
    let late =
        |path: &str| Reply::file(fixtures.join(path)).unwrap().delayed(Duration::from_secs(2));
    let ashby_route = Route::get("https://api.ashbyhq.com", "/posting-api/job-board/reedsy")
        .reply(late("ashby-boards/reedsy.json"));
    let lever_route = Route::get("https://api.lever.co", "/v0/postings/idealistconsulting")
        .query("mode=json")
        .reply(late("careerkit/lever.json"));
    let server =
        ReplayServer::builder().route(ashby_route).route(lever_route).start().await.unwrap();
    let origin = server.origin().url().to_string();
    let dir = tempfile::tempdir().unwrap();
    let (db, index) = (dir.path().join("freehire.db"), dir.path().join("index"));
    let store = SqliteStore::connect(&SqliteLocation::File(db.clone())).await.unwrap();
    store.migrate().await.unwrap();
    for (provider, board, company) in
        [("ashby", "reedsy", "Reedsy"), ("lever", "idealistconsulting", "Idealist Consulting")]
    {
        let key = BoardKey::new(Provider::parse(provider).unwrap(), board, "").unwrap();
        let new =
            NewBoard { key, company: company.into(), url: None, status: BoardStatus::Pending };
        store.add_board(&new, Utc::now()).await.unwrap();
    }

    let logs = [dir.path().join("worker-a.log"), dir.path().join("worker-b.log")];
    let mut workers = Reap(Vec::new());
    for (id, log) in ["worker-a", "worker-b"].into_iter().zip(&logs) {
        let mut command = worker(&db, &index, &origin, id);
        command
            .env("FREEHIRE_LOG_FORMAT", "json")
            .env("RUST_LOG", "info")
            .stdout(std::fs::File::create(log).unwrap())
            .stderr(std::fs::File::create(log.with_extension("stderr")).unwrap());
        workers.0.push(command.spawn().unwrap());
    }

    // Each worker's log shows one finished run, of a different provider.
    let deadline = Instant::now() + Duration::from_secs(30);
    let runs = loop {
        let runs: Vec<_> = logs.iter().map(|l| finished_runs(&log_lines(l))).collect();
        if runs.iter().all(|r| !r.is_empty()) {
            break runs;
        }
        for (child, log) in workers.0.iter_mut().zip(&logs) {
            let exited = child.try_wait().unwrap();
            assert!(exited.is_none(), "{} exited {exited:?}: {:?}", log.display(), log_lines(log));
        }
        if Instant::now() >= deadline {
            let said: Vec<_> = logs.iter().map(|l| log_lines(l)).collect();
            let asked = server.requests();
            panic!("not both workers ran a provider: {runs:?}; logs {said:?}; requests {asked:?}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let mut providers: Vec<_> = runs.iter().flatten().map(|(p, _)| p.as_str()).collect();
    providers.sort_unstable();
    assert_eq!(providers, ["ashby", "lever"], "one run each, never the same provider: {runs:?}");
    assert!(runs.iter().flatten().all(|(_, inserted)| *inserted > 0), "{runs:?}");
    let inserted: u64 = runs.iter().flatten().map(|(_, n)| n).sum();
    let ran = started.elapsed();

    // Every job of both providers is stored, and the one drain puts them all in the index.
    let total = store.list_open_jobs(ListPage::default()).await.unwrap().total;
    assert_eq!(total, inserted, "the store holds what both runs inserted");
    index_reaches(&index, total, deadline, "the index never caught up").await;

    // Who drained while both ran: once the holder stops it gives the lease up, and the other
    // may take the drain over before it is stopped too.
    let running: Vec<_> = logs.iter().map(|l| log_lines(l)).collect();
    let drainers = running
        .iter()
        .filter(|log| {
            log.iter().any(|l| {
                l["fields"]["message"]
                    .as_str()
                    .is_some_and(|m| m.starts_with("holding the embedded index's writer lease"))
            })
        })
        .count();
    let leases: Vec<Vec<&serde_json::Value>> = running
        .iter()
        .map(|log| log.iter().filter(|l| l.to_string().contains("lease")).collect())
        .collect();
    assert_eq!(drainers, 1, "exactly one worker writes the index: {leases:?}");
    for child in &mut workers.0 {
        assert!(child.try_wait().unwrap().is_none(), "both workers run on");
        let status = terminate(child, Duration::from_secs(20), "a worker did not stop").await;
        assert!(status.success(), "{status}");
    }
    let logs: Vec<_> = logs.iter().map(|l| log_lines(l)).collect();
    for log in &logs {
        let errors: Vec<_> = log.iter().filter(|l| l["level"] == "ERROR").collect();
        assert!(errors.is_empty(), "{errors:?}");
    }
    eprintln!(
        "two workers: {runs:?}; runs done {ran:?}, index complete ({total} jobs) {:?}",
        started.elapsed()
    );
}

/// `--demo-replay`: the worker serves the committed demo recordings itself; a run crawls every
/// demo board through the real Ashby adapter with no replay URL given, and drains the index.
// scenario: The worker replays the demo
#[tokio::test]
async fn the_demo_replay_crawls_the_recorded_boards_in_process() {
    let _serial = SERIAL.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("freehire.db");
    let store = SqliteStore::connect(&SqliteLocation::File(path.clone())).await.unwrap();
    store.migrate().await.unwrap();
    let seeded = freehire_app::board_catalogue::seed(
        &store,
        freehire_app::demo::BOARDS,
        BoardStatus::Pending,
        Utc::now(),
    )
    .await
    .unwrap();
    assert!(seeded.total().added > 10, "{seeded:?}");

    let (ok, _, err) = output(
        Command::new(env!("CARGO_BIN_EXE_freehire-worker"))
            .args(["--once", "ashby", "--demo-replay"])
            .env("FREEHIRE_DATABASE_URL", format!("sqlite://{}", path.display()))
            .env_remove("FREEHIRE_ATS_REPLAY_URL")
            .env("FREEHIRE_INDEX_DIR", dir.path().join("index"))
            .env_remove("FREEHIRE_SEARCH_ENGINE")
            .env("FREEHIRE_LOG_FORMAT", "json"),
    );
    assert!(ok, "{err}");
    let total = store.list_open_jobs(ListPage::default()).await.unwrap().total;
    assert!(total > 100, "{total}");
    let boards = store.list_boards(&Default::default()).await.unwrap();
    assert!(boards.iter().all(|b| b.status == BoardStatus::Active), "every demo board crawled");
    let deadline = Instant::now() + Duration::from_secs(10);
    index_reaches(&dir.path().join("index"), total, deadline, "the demo was not indexed").await;

    // The flag and a replay URL are exclusive.
    let (ok, _, err) = output(
        Command::new(env!("CARGO_BIN_EXE_freehire-worker"))
            .args(["--demo-replay", "--replay-url", "http://127.0.0.1:9"])
            .env("FREEHIRE_DATABASE_URL", format!("sqlite://{}", path.display())),
    );
    assert!(!ok && err.contains("cannot be used with"), "{err}");
}
