//! The embedded adapter: SQLite through sqlx, a file under the data dir in WAL mode.
//!
//! Dialect notes: timestamps are fixed-width RFC 3339 UTC text (so text order is time order),
//! arrays are JSON text, booleans 0/1 (the [`bind`](crate::bind) types encode them). Batch statements take one JSON array parameter and read
//! it with `json_each`. Write transactions start with `BEGIN IMMEDIATE` so a read-then-write
//! batch never fails on a lock upgrade, on a single writer connection so writers of this
//! process queue fairly; `busy_timeout` covers other processes (the API, the CLI, a worker).
//!
//! Outages: only the first open creates the file (and its folder); the pools then open the
//! existing file without create, so a file deleted under a running process is an error
//! (`StoreError::Unavailable`), never a fresh empty database. A connection whose file was
//! deleted or replaced since it opened is dropped before it is handed out (one `stat` of the
//! path per acquire, about a microsecond), so reads and writes never go to an unlinked file;
//! the health check stats the file too. Start-up first checks it can create or write the
//! migration lock file beside the database, so a read-only data directory is named in the
//! error (`StoreError::LockFile`).

/// WAL pages written before a commit copies them back into the database file (SQLite's
/// default is 1,000, 4 MB). At 16,384 (64 MB of WAL at most, while no reader pins it) an index
/// page written many times between checkpoints is copied back once instead of many times, and
/// the one writer's commits pause for a checkpoint a sixteenth as often: a first crawl of
/// 109,600 Ashby postings runs about a fifth faster (docs/ingest.md).
const WAL_AUTOCHECKPOINT_PAGES: &str = "16384";

mod accounts;
mod assistant;
// CV documents (issue 16).
mod boards;
mod clusters;
mod companies;
mod cvs;
mod experience;
mod ghost;
mod ingest;
mod jobs;
mod letters;
mod lifecycle;
mod notify;
mod outbox;
mod plans;
mod rates;
mod saved_searches;
mod schedule;
mod screening;
mod stats;
mod tracking;

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
    /// Opens the database, creating it (with its folder) if missing; later connections of
    /// the pools open the existing file only.
    pub async fn connect(location: &SqliteLocation) -> Result<Self> {
        let (options, max) = match location {
            SqliteLocation::File(path) => {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir).map_err(|source| StoreError::DataDir {
                        path: dir.display().to_string(),
                        source,
                    })?;
                }
                open_lock_file(&lock_path(path))?;
                (SqliteConnectOptions::new().filename(path).create_if_missing(false), 8)
            }
            // One connection: every connection to `:memory:` is its own database.
            SqliteLocation::Memory => (SqliteConnectOptions::from_str("sqlite::memory:")?, 1),
        };
        let options = options
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10))
            .pragma("wal_autocheckpoint", WAL_AUTOCHECKPOINT_PAGES);
        let identity = match location {
            SqliteLocation::File(path) => {
                if !path.exists() {
                    // The first open creates the file; no connection after this one may.
                    let first = options.clone().create_if_missing(true);
                    sqlx::Connection::close(sqlx::ConnectOptions::connect(&first).await?).await?;
                }
                Some((path.clone(), FileId::of(path)))
            }
            SqliteLocation::Memory => None,
        };
        // No ping before each acquire (one more round trip to the connection's worker thread
        // per statement): only a check that the file is still the one opened.
        let pool_options = |max: u32| {
            let identity = identity.clone();
            SqlitePoolOptions::new().max_connections(max).test_before_acquire(false).before_acquire(
                move |_, _| {
                    let identity = identity.clone();
                    Box::pin(async move {
                        Ok(identity
                            .is_none_or(|(path, id)| id.is_some() && FileId::of(&path) == id))
                    })
                },
            )
        };
        let pool = pool_options(max).connect_with(options.clone()).await?;
        let writer = match location {
            // Another connection to `:memory:` would be another database.
            SqliteLocation::Memory => pool.clone(),
            SqliteLocation::File(_) => pool_options(1).connect_with(options).await?,
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

    /// The one writer connection's pool (test support writes rows the ports do not).
    #[cfg(feature = "testing")]
    pub(crate) fn writer(&self) -> &SqlitePool {
        &self.writer
    }

    /// A write transaction on the writer connection, holding the write lock from the start.
    async fn write(&self) -> Result<sqlx::Transaction<'static, sqlx::Sqlite>> {
        Ok(self.writer.begin_with("BEGIN IMMEDIATE").await?)
    }
}

/// The migration lock file beside the database.
fn lock_path(db: &std::path::Path) -> std::path::PathBuf {
    let mut path = db.as_os_str().to_owned();
    path.push(".migrate-lock");
    std::path::PathBuf::from(path)
}

/// Opens (creating if missing) the lock file for writing, naming it when that fails.
fn open_lock_file(path: &std::path::Path) -> Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map_err(|source| StoreError::LockFile { path: path.display().to_string(), source })
}

/// Which file a path names (device and inode on Unix), to notice it was deleted or replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FileId(#[allow(dead_code)] u64, #[allow(dead_code)] u64);

impl FileId {
    /// The file at `path` now, `None` when there is none.
    fn of(path: &std::path::Path) -> Option<Self> {
        let meta = std::fs::metadata(path).ok()?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Some(Self(meta.dev(), meta.ino()))
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            Some(Self(0, 0))
        }
    }
}

#[async_trait]
impl Store for SqliteStore {
    fn backend(&self) -> Backend {
        Backend::Sqlite
    }

    fn handle(&self) -> std::sync::Arc<dyn Store> {
        std::sync::Arc::new(self.clone())
    }

    async fn migrate(&self) -> Result<()> {
        // SQLite has no advisory lock for the migrator: processes starting together on a fresh
        // file (the API and the worker) take turns through a lock file beside the database.
        let _guard = match &self.file {
            Some(path) => {
                let lock_path = lock_path(path);
                let shown = lock_path.display().to_string();
                let lock = tokio::task::spawn_blocking(move || {
                    let file = open_lock_file(&lock_path)?;
                    file.lock().map_err(|source| StoreError::LockFile {
                        path: lock_path.display().to_string(),
                        source,
                    })?;
                    Ok::<_, StoreError>(file)
                })
                .await
                .map_err(|e| StoreError::LockFile {
                    path: shown,
                    source: std::io::Error::other(e),
                })??;
                Some(lock)
            }
            None => None,
        };
        MIGRATOR.run(&self.writer).await?;
        Ok(())
    }

    async fn ping(&self) -> Result<()> {
        if let Some(path) = &self.file
            && let Err(source) = std::fs::metadata(path)
        {
            return Err(StoreError::Unavailable {
                reason: "the SQLite file is gone (deleted or moved?)",
                source: Box::new(source),
            });
        }
        sqlx::query(crate::CATALOGUE_PROBE).execute(&self.pool).await?;
        Ok(())
    }

    async fn close(&self) {
        self.writer.close().await;
        self.pool.close().await;
    }
}
