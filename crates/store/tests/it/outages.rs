//! Storage outages: what the store answers when its database goes away under it. Each test
//! breaks its own database the way an operator or an outage would (the SQLite file deleted,
//! PostgreSQL backends terminated, a server that is not there) and checks the store answers
//! [`StoreError::Unavailable`], recovers when it can, and never invents an empty database.

use std::{str::FromStr, time::Duration};

use freehire_store::{
    JobRepo, ListPage, PgStore, SqliteLocation, SqliteStore, Store, StoreError, testing::TestDb,
};
use sqlx::{Connection, Executor, PgConnection, postgres::PgConnectOptions};

fn is_unavailable<T: std::fmt::Debug>(r: &freehire_store::Result<T>) -> bool {
    matches!(r, Err(StoreError::Unavailable { .. }))
}

/// A migrated SQLite store in its own folder.
async fn sqlite_in(dir: &std::path::Path) -> (SqliteStore, std::path::PathBuf) {
    let path = dir.join("freehire.db");
    let store = SqliteStore::connect(&SqliteLocation::File(path.clone())).await.unwrap();
    store.migrate().await.unwrap();
    (store, path)
}

fn remove_database(path: &std::path::Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut p = path.as_os_str().to_owned();
        p.push(suffix);
        let _ = std::fs::remove_file(std::path::PathBuf::from(p));
    }
}

// scenario: A deleted SQLite file is an outage, never a new database
#[tokio::test]
async fn a_deleted_sqlite_file_is_unavailable_and_never_recreated() {
    let dir = tempfile::tempdir().unwrap();
    let (store, path) = sqlite_in(dir.path()).await;
    store.ping().await.unwrap();
    store.list_open_jobs(ListPage::default()).await.unwrap();

    remove_database(&path);

    let ping = store.ping().await;
    assert!(is_unavailable(&ping), "the health check sees the file is gone: {ping:?}");
    for _ in 0..3 {
        let read = store.list_open_jobs(ListPage::default()).await;
        assert!(is_unavailable(&read), "reads are an outage: {read:?}");
    }
    assert!(!path.exists(), "no new empty database was created");
    let message = format!("{:#}", anyhow_like(&ping.unwrap_err()));
    assert!(message.contains("database unavailable"), "{message}");
    store.close().await;
}

// scenario: The health check needs the catalogue, not only a connection
#[tokio::test]
async fn ping_fails_without_the_catalogue_on_both_backends() {
    let dir = tempfile::tempdir().unwrap();
    // A database that answers but was never migrated.
    let bare =
        SqliteStore::connect(&SqliteLocation::File(dir.path().join("bare.db"))).await.unwrap();
    assert!(bare.ping().await.is_err(), "an empty SQLite file is not a healthy catalogue");
    bare.close().await;

    let db = TestDb::postgres().await;
    db.store().ping().await.unwrap();
    let (url, schema) = db.postgres_schema().unwrap();
    let mut admin = PgConnection::connect(&url).await.unwrap();
    admin.execute(format!("ALTER TABLE {schema}.jobs RENAME TO jobs_gone").as_str()).await.unwrap();
    assert!(db.store().ping().await.is_err(), "a schema without the jobs table is not healthy");
    admin.execute(format!("ALTER TABLE {schema}.jobs_gone RENAME TO jobs").as_str()).await.unwrap();
    admin.close().await.unwrap();
    db.store().ping().await.unwrap();
    db.teardown().await;
}

/// Terminates every backend of the test database's pool (its connections carry the schema as
/// their application name); returns how many were terminated.
async fn terminate_backends(db: &TestDb) -> i64 {
    let (url, schema) = db.postgres_schema().unwrap();
    let mut admin = PgConnection::connect(&url).await.unwrap();
    let terminated: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE application_name = $1) t",
    )
    .bind(&schema)
    .fetch_one(&mut admin)
    .await
    .unwrap();
    admin.close().await.unwrap();
    // Let the backends exit, so the pool's connections are dead when next used.
    tokio::time::sleep(Duration::from_millis(100)).await;
    terminated
}

/// Fills the pool with several connections, all used within the last second (so none is
/// pinged on acquire for being idle).
async fn fill_pool(db: &TestDb) {
    let pool = db.postgres_pool().unwrap();
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(pool.acquire().await.unwrap());
    }
    drop(held);
    db.store().list_open_jobs(ListPage::default()).await.unwrap();
}

// scenario: Terminated PostgreSQL backends fail no request
#[tokio::test]
async fn terminated_postgres_backends_fail_no_request() {
    let db = TestDb::postgres().await;
    let store = db.store();

    // Reads: the first one after the terminations picks a dead connection, and still answers.
    fill_pool(&db).await;
    let terminated = terminate_backends(&db).await;
    assert!(terminated >= 4, "the pool held several connections: {terminated}");
    for i in 0..10 {
        let read = store.list_open_jobs(ListPage::default()).await;
        assert!(read.is_ok(), "read {i} after {terminated} terminations: {read:?}");
    }
    store.ping().await.unwrap();

    // A write transaction that meets a dead connection at its BEGIN runs again, once, whole.
    fill_pool(&db).await;
    terminate_backends(&db).await;
    let posting = crate::fixtures::posting("greenhouse", "after-terminate", "Backend Engineer");
    let written = store.upsert_jobs(std::slice::from_ref(&posting), crate::fixtures::t(2, 9)).await;
    assert!(written.is_ok(), "the first write after the terminations: {written:?}");
    let listed = store.list_open_jobs(ListPage::default()).await.unwrap();
    assert_eq!(listed.total, 1, "written exactly once");

    // The health check likewise.
    fill_pool(&db).await;
    terminate_backends(&db).await;
    let ping = store.ping().await;
    assert!(ping.is_ok(), "the first health check after the terminations: {ping:?}");
    db.teardown().await;
}

// scenario: An unreachable database server is unavailable
#[tokio::test]
async fn an_unreachable_postgres_server_is_unavailable() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let options =
        PgConnectOptions::from_str(&format!("postgres://postgres@127.0.0.1:{port}/x")).unwrap();
    let started = std::time::Instant::now();
    let r = PgStore::connect_with(options).await;
    assert!(matches!(r, Err(StoreError::Unavailable { .. })), "{r:?}");
    assert!(started.elapsed() < Duration::from_secs(15), "bounded wait: {:?}", started.elapsed());
}

/// `{:#}` of a std error: its message, then each source, as anyhow prints it.
fn anyhow_like(e: &(dyn std::error::Error + 'static)) -> String {
    let mut out = e.to_string();
    let mut next = e.source();
    while let Some(s) = next {
        out.push_str(": ");
        out.push_str(&s.to_string());
        next = s.source();
    }
    out
}

// scenario: Store errors print each cause once
#[tokio::test]
async fn store_errors_print_each_cause_once() {
    let dir = tempfile::tempdir().unwrap();
    let (store, path) = sqlite_in(dir.path()).await;
    remove_database(&path);
    let e = store.list_open_jobs(ListPage::default()).await.unwrap_err();
    let line = anyhow_like(&e);
    let segments: Vec<&str> = line.split(": ").collect();
    for (i, s) in segments.iter().enumerate() {
        assert!(!segments[i + 1..].contains(s), "{s:?} repeats in {line:?}");
    }
    // The same for an error the database reports on a live connection.
    let db = TestDb::postgres().await;
    let e = sqlx::query("SELECT nope FROM nowhere")
        .execute(db.postgres_pool().unwrap())
        .await
        .map_err(StoreError::from)
        .unwrap_err();
    let line = anyhow_like(&e);
    assert_eq!(line.matches("nowhere").count(), 1, "{line}");
    db.teardown().await;
    store.close().await;
}
