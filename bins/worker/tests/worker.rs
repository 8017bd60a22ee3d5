//! The `freehire-worker` process: it claims the due provider, crawls it from the replay server,
//! and stops cleanly on SIGTERM.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::{
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use chrono::Utc;
use freehire_app::testing::{ashby_replay, indexed_total, terminate};
use freehire_domain::{BoardKey, BoardStatus, NewBoard, Provider};
use freehire_store::{BoardRepo, JobRepo, ListPage, SqliteLocation, SqliteStore, Store};

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
