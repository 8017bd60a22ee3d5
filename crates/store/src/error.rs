//! The store's error type. Every variant keeps its cause as a `source` and does not repeat it
//! in its own message, so `{:#}` and `anyhow` chains print each cause once.
//!
//! sqlx's own errors print their source inside their message (`error returned from database:
//! …` and then the same text as the source), so they are never kept as they are: [`cause`]
//! keeps the innermost driver error instead (the database's message, the IO error), and
//! migration steps become a [`Layer`] naming the step.
//!
//! Unavailability is sorted out here, once, from the driver's error: IO errors, TLS, pool
//! time-outs, a closed pool, a crashed SQLite worker; PostgreSQL SQLSTATE class `08`
//! (connection exception), `57P01`–`57P03` (terminated, crashed, starting up), `53300` (no free
//! slot) and `25006` (read-only transaction on a standby); SQLite primary codes `SQLITE_CANTOPEN`
//! (14: the file is gone), `SQLITE_READONLY` (8), `SQLITE_IOERR` (10), `SQLITE_FULL` (13),
//! `SQLITE_NOTADB` (26: the file was replaced), `SQLITE_BUSY`/`SQLITE_LOCKED` (5/6, after the
//! busy timeout). A connection-level loss also marks the time of the loss
//! ([`connection_lost_since`]), so the PostgreSQL pool tests the connections opened before it
//! instead of failing a request on each of them.
//!
//! A connection loss is [retryable](StoreError::is_retryable_loss) unless it came at a commit
//! point: the server rolls back what an uncommitted transaction did when its connection dies,
//! so an operation that lost its connection before committing did nothing and may run again;
//! one that lost it while committing ([`committing`]) may or may not have been saved, and is
//! reported as it is.

use std::sync::atomic::{AtomicU64, Ordering};

use sqlx::error::DatabaseError;

/// A cause kept behind an error.
pub type Cause = Box<dyn std::error::Error + Send + Sync>;

/// Everything a store operation can fail with.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database URL is not one this store understands.
    #[error("invalid database URL {url:?}: {reason}")]
    BadUrl {
        /// The URL with any password removed.
        url: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A value handed to the store failed validation; nothing was written.
    #[error(transparent)]
    Invalid(#[from] freehire_domain::DomainError),
    /// A stored value no longer parses (a vocabulary value outside the enum, a bad timestamp),
    /// or a value could not be encoded for a statement.
    #[error("corrupt stored value in {column}")]
    Corrupt {
        /// The column.
        column: &'static str,
        /// What failed.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// Applying migrations failed (for a reason other than the database being unavailable).
    #[error("migration failed")]
    Migrate(#[source] Cause),
    /// A unique value is taken (an account's email, a key's token hash); nothing was written.
    #[error("{field} is already taken")]
    Conflict {
        /// The field whose value is taken.
        field: &'static str,
    },
    /// The database reported an error.
    #[error("database error")]
    Database(#[source] Cause),
    /// The database cannot be used now: the server refuses, drops or terminates connections,
    /// no connection was free in time, the SQLite file is gone, read-only or on a full disk.
    /// Nothing was done; retrying later may succeed (the API answers 503).
    #[error("database unavailable: {reason}")]
    Unavailable {
        /// What an operator should look at, in our words.
        reason: &'static str,
        /// The driver's error.
        #[source]
        source: Cause,
    },
    /// Creating the SQLite file's folder failed.
    #[error("cannot create data directory {path}")]
    DataDir {
        /// The folder.
        path: String,
        /// The IO error.
        #[source]
        source: std::io::Error,
    },
    /// The lock file beside the SQLite database (taken while migrating) cannot be created or
    /// opened for writing: the data directory or the file is read-only.
    #[error("cannot create or write the lock file {path} (is the data directory read-only?)")]
    LockFile {
        /// The lock file.
        path: String,
        /// The IO error.
        #[source]
        source: std::io::Error,
    },
}

impl StoreError {
    pub(crate) fn corrupt(
        column: &'static str,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Self {
        Self::Corrupt { column, source: source.into() }
    }
}

impl StoreError {
    /// Whether this is a connection the server dropped (terminated, reset, closed) before the
    /// operation reached a commit point: nothing was done, and running the operation again on
    /// a fresh connection is safe. A refused connect, a pool time-out and a loss while
    /// committing are not.
    pub(crate) fn is_retryable_loss(&self) -> bool {
        let Self::Unavailable { source, .. } = self else {
            return false;
        };
        if let Some(io) = source.downcast_ref::<std::io::Error>() {
            return io.kind() != std::io::ErrorKind::ConnectionRefused;
        }
        source
            .downcast_ref::<sqlx::postgres::PgDatabaseError>()
            .is_some_and(|pg| is_lost_code(pg.code()))
    }
}

/// The error of a statement that commits (a `COMMIT`): a connection lost there leaves the
/// outcome unknown, so it is reported as unavailable but never retried (its cause is kept
/// behind a "while committing" [`Layer`]).
pub(crate) fn committing(e: sqlx::Error) -> StoreError {
    if !is_connection_loss(&e) {
        return e.into();
    }
    note_connection_lost();
    StoreError::Unavailable {
        reason: "the connection was lost while committing (the change may or may not be saved)",
        source: Box::new(Layer { what: "while committing".to_owned(), source: cause(e) }),
    }
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        match unavailable(&e) {
            Some(reason) => Self::Unavailable { reason, source: cause(e) },
            None => Self::Database(cause(e)),
        }
    }
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(e: sqlx::migrate::MigrateError) -> Self {
        use sqlx::migrate::MigrateError as M;
        let (step, e) = match e {
            M::Execute(e) => ("while executing migrations".to_owned(), e),
            M::ExecuteMigration(e, version) => (format!("while executing migration {version}"), e),
            M::Source(source) => {
                return Self::Migrate(Box::new(Layer {
                    what: "while resolving migrations".to_owned(),
                    source,
                }));
            }
            other => return Self::Migrate(Box::new(other)),
        };
        match unavailable(&e) {
            Some(reason) => Self::Unavailable { reason, source: cause(e) },
            None => Self::Migrate(Box::new(Layer { what: step, source: cause(e) })),
        }
    }
}

/// A step that failed, its cause kept as the source (not printed in its message).
#[derive(Debug)]
pub struct Layer {
    what: String,
    source: Cause,
}

impl std::fmt::Display for Layer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.what)
    }
}

impl std::error::Error for Layer {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(self.source.as_ref())
    }
}

/// The sqlx error as a cause that does not print its source twice: the inner error of the
/// variants whose message embeds it, the error itself otherwise.
fn cause(e: sqlx::Error) -> Cause {
    use sqlx::Error as E;
    match e {
        E::Database(db) => db,
        E::Io(io) => Box::new(io),
        E::Tls(inner)
        | E::Configuration(inner)
        | E::Encode(inner)
        | E::Decode(inner)
        | E::AnyDriverError(inner) => inner,
        E::ColumnDecode { index, source } => {
            Box::new(Layer { what: format!("cannot decode column {index}"), source })
        }
        E::Migrate(m) => Box::new(StoreError::from(*m)),
        other => Box::new(other),
    }
}

/// Why `e` means the database cannot be used now, if it does.
fn unavailable(e: &sqlx::Error) -> Option<&'static str> {
    use sqlx::Error as E;
    let reason = match e {
        E::Io(_) => "cannot reach the database server (connection refused, reset or closed)",
        E::Tls(_) => "cannot establish TLS with the database server",
        E::PoolTimedOut => "no database connection within the acquire timeout (is the server up?)",
        E::PoolClosed => "the connection pool is closed (shutting down)",
        E::WorkerCrashed => "the SQLite connection's worker stopped",
        E::Database(db) => database_unavailable(db.as_ref())?,
        _ => return None,
    };
    if is_connection_loss(e) {
        note_connection_lost();
    }
    Some(reason)
}

/// A connection the server closed under us (as opposed to one never opened).
fn is_connection_loss(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Io(io) => io.kind() != std::io::ErrorKind::ConnectionRefused,
        sqlx::Error::Database(db) => db
            .try_downcast_ref::<sqlx::postgres::PgDatabaseError>()
            .is_some_and(|pg| is_lost_code(pg.code())),
        _ => false,
    }
}

/// PostgreSQL SQLSTATEs of a connection the server closed: class `08`, `57P01`–`57P03`.
fn is_lost_code(code: &str) -> bool {
    code.starts_with("08") || code.starts_with("57P0")
}

fn database_unavailable(db: &dyn DatabaseError) -> Option<&'static str> {
    if let Some(pg) = db.try_downcast_ref::<sqlx::postgres::PgDatabaseError>() {
        let code = pg.code();
        return match code {
            _ if code.starts_with("08") => Some("the server dropped the connection"),
            "57P01" => Some("the server terminated the connection (administrator command)"),
            "57P02" | "57P03" => Some("the server is restarting or not accepting connections"),
            "53300" => Some("the database server has no free connection slot"),
            "25006" => Some("the database is read-only (a standby?)"),
            _ => None,
        };
    }
    if let Some(lite) = db.try_downcast_ref::<sqlx::sqlite::SqliteError>() {
        let primary = lite.code().and_then(|c| c.parse::<i32>().ok()).map(|c| c & 0xff);
        return match primary? {
            14 => Some("the SQLite file cannot be opened (deleted or moved?)"),
            8 => Some("the SQLite database is read-only (file or data directory not writable)"),
            10 => Some("disk I/O error on the SQLite file"),
            13 => Some("the disk holding the SQLite file is full"),
            26 => Some("the SQLite file is not a database (replaced?)"),
            5 | 6 => Some("the SQLite database stayed locked by another connection"),
            _ => None,
        };
    }
    None
}

/// Nanoseconds since [`epoch`] of the last connection-level loss seen, 0 for none.
static LAST_LOSS: AtomicU64 = AtomicU64::new(0);

fn epoch() -> std::time::Instant {
    static EPOCH: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    *EPOCH.get_or_init(std::time::Instant::now)
}

/// Records that a server dropped a connection now.
fn note_connection_lost() {
    let since = epoch().elapsed().as_nanos().try_into().unwrap_or(u64::MAX).max(1);
    LAST_LOSS.fetch_max(since, Ordering::Relaxed);
}

/// How long ago a server last dropped a connection of this process, if it ever did: pools
/// test the connections older than that before handing them out.
pub(crate) fn connection_lost_since() -> Option<std::time::Duration> {
    match LAST_LOSS.load(Ordering::Relaxed) {
        0 => None,
        at => Some(epoch().elapsed().saturating_sub(std::time::Duration::from_nanos(at))),
    }
}

/// Shorthand for store results.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    fn io(kind: std::io::ErrorKind) -> sqlx::Error {
        sqlx::Error::Io(std::io::Error::from(kind))
    }

    #[test]
    fn a_lost_connection_is_retried_only_before_a_commit() {
        use std::io::ErrorKind as K;
        assert!(StoreError::from(io(K::ConnectionReset)).is_retryable_loss());
        assert!(StoreError::from(io(K::UnexpectedEof)).is_retryable_loss());
        // Never connected: waiting again is the pool's business, not a second run.
        assert!(!StoreError::from(io(K::ConnectionRefused)).is_retryable_loss());
        assert!(!StoreError::from(sqlx::Error::PoolTimedOut).is_retryable_loss());
        // Lost while committing: the change may be saved, so it is reported, not repeated.
        let at_commit = committing(io(K::ConnectionReset));
        assert!(matches!(at_commit, StoreError::Unavailable { .. }), "{at_commit:?}");
        assert!(!at_commit.is_retryable_loss());
        assert!(!committing(io(K::ConnectionRefused)).is_retryable_loss());
    }
}
