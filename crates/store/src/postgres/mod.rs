//! The production adapter: PostgreSQL through sqlx.
//!
//! Batch writes send one `jsonb` array parameter and read it with `jsonb_to_recordset`, so a
//! batch of thousands of postings is one statement and one round trip. The jobs table keeps
//! free space on its pages and no index on `last_seen_at`, so a re-crawl's bump is a HOT
//! update.
//!
//! Outages: a connection is handed out without a ping when it was used within the last second
//! ([`PING_WHEN_IDLE_FOR`]); one idle for longer, or opened before the last time a server
//! dropped a connection of this process (a restart, `pg_terminate_backend`), is pinged first and
//! replaced when dead. The request that finds out (its connection was used less than a second
//! ago, so it was not pinged) runs again, once, whole, on a tested connection
//! ([`retry_once_if_lost`]): reads and transactions whose connection was lost before their
//! `COMMIT` was sent did nothing (the server rolls back a transaction whose connection dies).
//! A loss at `COMMIT`, and the single-statement writes (each its own commit: `fail_outbox`,
//! the leases and claims, board status, …), leave the outcome unknown and are never retried.
//! So a server that terminates every backend of the pool fails no read and no transaction, and
//! costs nothing extra in normal operation. Waiting for a connection (an unreachable server:
//! sqlx retries a refused connect with backoff) gives up after [`ACQUIRE_TIMEOUT`], 5 s, so
//! requests answer "unavailable" well inside the API's 30 s request timeout.

mod accounts;
mod assistant;
// CV documents (issue 16).
mod boards;
mod clusters;
mod companies;
mod cvs;
mod experience;
mod ingest;
mod jobs;
mod notify;
mod outbox;
mod plans;
mod saved_searches;
mod schedule;
mod tracking;

/// The adapter bodies both backends share, on PostgreSQL.
type Shared = crate::shared::Shared<sqlx::Postgres>;

use std::str::FromStr;

use async_trait::async_trait;
use sqlx::{
    PgPool,
    postgres::{PgConnectOptions, PgPoolOptions},
};

use crate::{Backend, Result, Store};

/// Runs `op`, and once more if it lost its connection before reaching a commit point
/// ([`StoreError::is_retryable_loss`](crate::StoreError::is_retryable_loss)). The loss was
/// recorded, so the second run gets a connection that was pinged (or a new one). Only for
/// operations that are reads, or transactions that commit through
/// [`committing`](crate::error::committing): never for a single-statement write.
pub(crate) async fn retry_once_if_lost<T, F, Fut>(mut op: F) -> Result<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T>>,
{
    match op().await {
        Err(e) if e.is_retryable_loss() => {
            tracing::debug!(
                error = &e as &dyn std::error::Error,
                "connection lost before committing, running the operation again"
            );
            op().await
        }
        done => done,
    }
}

/// Embedded migrations for PostgreSQL.
static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations/postgres");

/// Connections idle for longer than this are pinged before they are handed out.
const PING_WHEN_IDLE_FOR: std::time::Duration = std::time::Duration::from_secs(1);

/// Longest wait for a pooled connection (or a new one) before the store answers unavailable.
pub const ACQUIRE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// The PostgreSQL store.
#[derive(Clone, Debug)]
pub struct PgStore {
    pool: PgPool,
    /// Connections whose commits do not wait for the WAL flush (`synchronous_commit = off`),
    /// for the writes a turn makes before its first byte: the turn leases and the plan
    /// charges. Such a commit is visible to every other session at once and is never torn;
    /// only a crash of the database server can lose the last few hundred milliseconds of
    /// them, and then a lease is meaningless anyway (every turn's connection died) and a lost
    /// charge is one free turn. The flush costs 1–5 ms per commit on the machines measured
    /// (`docs/ARCHITECTURE.md`, "Turn start on PostgreSQL").
    quick: PgPool,
}

/// Connections of the coordination pool ([`PgStore::quick`]).
const QUICK_CONNECTIONS: u32 = 4;

/// A pool of at most `max` connections: a connection used within the last second is known
/// to be alive, so only one idle for longer, or older than the last connection loss seen, is
/// pinged before it is handed out (sqlx pings every acquire by default, one more round trip
/// per acquire; a crawl acquires twice per board).
fn pool_options(max: u32) -> PgPoolOptions {
    PgPoolOptions::new()
        .max_connections(max)
        .acquire_timeout(ACQUIRE_TIMEOUT)
        .test_before_acquire(false)
        .before_acquire(|conn, meta| {
            Box::pin(async move {
                let predates_a_loss =
                    crate::error::connection_lost_since().is_some_and(|ago| meta.age > ago);
                if meta.idle_for > PING_WHEN_IDLE_FOR || predates_a_loss {
                    sqlx::Connection::ping(conn).await?;
                }
                Ok(true)
            })
        })
}

impl PgStore {
    /// Connects to `url`.
    pub async fn connect(url: &str) -> Result<Self> {
        Self::connect_with(PgConnectOptions::from_str(url)?).await
    }

    /// Connects with explicit options (tests use this to pin a schema via `search_path`).
    pub async fn connect_with(options: PgConnectOptions) -> Result<Self> {
        let pool = pool_options(10).connect_with(options.clone()).await?;
        // The coordination pool's commits skip the WAL flush (see [`PgStore::quick`]).
        let quick = pool_options(QUICK_CONNECTIONS)
            .connect_with(options.options([("synchronous_commit", "off")]))
            .await?;
        Ok(Self { pool, quick })
    }

    /// The pool, for adapters of later capabilities that share the database.
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }
}

#[async_trait]
impl Store for PgStore {
    fn backend(&self) -> Backend {
        Backend::Postgres
    }

    async fn migrate(&self) -> Result<()> {
        MIGRATOR.run(&self.pool).await?;
        Ok(())
    }

    async fn ping(&self) -> Result<()> {
        retry_once_if_lost(|| async {
            sqlx::query(crate::CATALOGUE_PROBE).execute(&self.pool).await?;
            Ok(())
        })
        .await
    }

    async fn close(&self) {
        self.pool.close().await;
        self.quick.close().await;
    }
}
