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

#[tokio::test]
async fn the_worker_crawls_due_providers_and_stops_on_sigterm() {
    let server = ashby_replay(env!("CARGO_MANIFEST_DIR")).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("freehire.db");
    let store = SqliteStore::connect(&SqliteLocation::File(path.clone())).await.unwrap();
    store.migrate().await.unwrap();
    let key = BoardKey::new(Provider::parse("ashby").unwrap(), "reedsy", "").unwrap();
    let board = NewBoard { key, company: "Reedsy".into(), url: None, status: BoardStatus::Pending };
    store.add_board(&board, Utc::now()).await.unwrap();

    let mut child = Command::new(env!("CARGO_BIN_EXE_freehire-worker"))
        .env("FREEHIRE_DATABASE_URL", format!("sqlite://{}", path.display()))
        .env("FREEHIRE_ATS_REPLAY_URL", server.origin().url().to_string())
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
    let index = freehire_search::EmbeddedIndex::open_read_only(&dir.path().join("index")).unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let found = indexed_total(&index).await.unwrap();
        if found == total {
            break;
        }
        assert!(Instant::now() < deadline, "the index never caught up ({found} of {total})");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
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
        .env("FREEHIRE_WORKER_TICK_SECS", "1")
        .env("FREEHIRE_WORKER_HEARTBEAT_SECS", "2")
        .env("FREEHIRE_WORKER_ID", id)
        .env("FREEHIRE_INDEX_DIR", index)
        .env_remove("FREEHIRE_MEILI_URL")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    c
}

/// Worker A claims ashby and hangs on a slow board; kill -9 leaves its claim and its writer
/// lease behind. Right after, `--once` is refused with the holder's name and the way out;
/// a second and a third worker start on the same database and index directory (no "lock busy"
/// exit), one of them gets the provider within the claim expiry (three 2 s heartbeats), and
/// the writer lease passes on, so the index ends complete.
// scenario: A killed worker does not block its provider
#[tokio::test]
async fn a_killed_worker_releases_its_provider_and_the_drain_within_the_expiry() {
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
    let reader = freehire_search::EmbeddedIndex::open_read_only(&index).unwrap();
    loop {
        let found = indexed_total(&reader).await.unwrap();
        if found == total {
            break;
        }
        assert!(Instant::now() < deadline, "the drain was never taken over ({found} of {total})");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(b.try_wait().unwrap().is_none(), "worker B runs on");
    assert!(c.try_wait().unwrap().is_none(), "worker C runs on");
    for child in [&mut b, &mut c] {
        let status = terminate(child, Duration::from_secs(20), "a worker did not stop").await;
        assert!(status.success(), "{status}");
    }
    eprintln!("taken over {took:?} after kill -9; index complete {:?} after", killed.elapsed());
}
