//! The embedded adapter: SQLite through sqlx, a file under the data dir in WAL mode.
//!
//! Dialect notes: timestamps are fixed-width RFC 3339 UTC text (so text order is time order),
//! arrays are JSON text, booleans 0/1 (the [`bind`](crate::bind) types encode them). Batch statements take one JSON array parameter and read
//! it with `json_each`. Write transactions start with `BEGIN IMMEDIATE` so a read-then-write
//! batch never fails on a lock upgrade, on a single writer connection so writers of this
//! process queue fairly; `busy_timeout` covers other processes (the API, the CLI, a worker).

mod boards;
mod clusters;
mod companies;
mod ingest;
mod jobs;
mod outbox;
mod schedule;

/// The adapter bodies both backends share, on SQLite.
type Shared = crate::shared::Shared<sqlx::Sqlite>;

use std::{str::FromStr, time::Duration};

use async_trait::async_trait;
use sqlx::{
    SqlitePool,
    sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous},
};

use crate::{Backend, Result, Store, StoreError, url::SqliteLocation};

/// Embedded migrations for SQLite.
static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations/sqlite");

/// The SQLite store.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    /// The database file (none in memory), for the migration lock.
    file: Option<std::path::PathBuf>,
    /// Readers (WAL lets them run beside the writer).
    pool: SqlitePool,
    /// The one writer connection: writers queue on the pool's fair semaphore instead of
    /// sleep-polling SQLite's busy handler.
    writer: SqlitePool,
}

impl SqliteStore {
    /// Opens (creating if missing, with its folder) the database.
    pub async fn connect(location: &SqliteLocation) -> Result<Self> {
        let (options, max) = match location {
            SqliteLocation::File(path) => {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir).map_err(|source| StoreError::DataDir {
                        path: dir.display().to_string(),
                        source,
                    })?;
                }
                (SqliteConnectOptions::new().filename(path).create_if_missing(true), 8)
            }
            // One connection: every connection to `:memory:` is its own database.
            SqliteLocation::Memory => (SqliteConnectOptions::from_str("sqlite::memory:")?, 1),
        };
        let options = options
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        // No ping before each acquire: a connection to a local file cannot go stale, and the
        // ping is one more round trip to the connection's worker thread per statement.
        let pool = SqlitePoolOptions::new()
            .max_connections(max)
            .test_before_acquire(false)
            .connect_with(options.clone())
            .await?;
        let writer = match location {
            // Another connection to `:memory:` would be another database.
            SqliteLocation::Memory => pool.clone(),
            SqliteLocation::File(_) => {
                SqlitePoolOptions::new()
                    .max_connections(1)
                    .test_before_acquire(false)
                    .connect_with(options)
                    .await?
            }
        };
        let file = match location {
            SqliteLocation::File(path) => Some(path.clone()),
            SqliteLocation::Memory => None,
        };
        Ok(Self { file, pool, writer })
    }

    /// The pool, for adapters of later capabilities that share the database.
    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// A write transaction on the writer connection, holding the write lock from the start.
    async fn write(&self) -> Result<sqlx::Transaction<'static, sqlx::Sqlite>> {
        Ok(self.writer.begin_with("BEGIN IMMEDIATE").await?)
    }
}

#[async_trait]
impl Store for SqliteStore {
    fn backend(&self) -> Backend {
        Backend::Sqlite
    }

    async fn migrate(&self) -> Result<()> {
        // SQLite has no advisory lock for the migrator: processes starting together on a fresh
        // file (the API and the worker) take turns through a lock file beside the database.
        let _guard = match &self.file {
            Some(path) => {
                let mut lock_path = path.as_os_str().to_owned();
                lock_path.push(".migrate-lock");
                let lock_path = std::path::PathBuf::from(lock_path);
                let shown = lock_path.display().to_string();
                let lock = tokio::task::spawn_blocking(move || {
                    let file = std::fs::OpenOptions::new()
                        .create(true)
                        .truncate(false)
                        .write(true)
                        .open(&lock_path)?;
                    file.lock()?;
                    Ok::<_, std::io::Error>(file)
                })
                .await
                .map_err(|e| StoreError::DataDir {
                    path: shown.clone(),
                    source: std::io::Error::other(e),
                })?
                .map_err(|source| StoreError::DataDir { path: shown, source })?;
                Some(lock)
            }
            None => None,
        };
        MIGRATOR.run(&self.writer).await?;
        Ok(())
    }

    async fn ping(&self) -> Result<()> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    async fn close(&self) {
        self.writer.close().await;
        self.pool.close().await;
    }
}
