//! The production adapter: PostgreSQL through sqlx.
//!
//! Batch writes are one statement and one round trip for thousands of rows: the jobs upsert
//! sends its rows as column arrays read back with `UNNEST` ([`upsert_columns`]), smaller
//! batches one `jsonb` array read with `jsonb_to_recordset`. The jobs table keeps
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
//!
//! Pools ([`PoolSizes`]): the main pool (at most [`DEFAULT_POOL_SIZE`], 10, connections;
//! `FREEHIRE_DATABASE_POOL_SIZE`) serves the reads and every write that must survive a crash
//! of the database server, each commit waiting for its WAL flush; the transcript pool (at most
//! [`DEFAULT_TRANSCRIPT_POOL_SIZE`], 10; `FREEHIRE_DATABASE_TRANSCRIPT_POOL_SIZE`) serves the
//! assistant's message appends, which also wait for their flush and come in bursts while
//! turns stream, so that they never hold the connections a request's reads wait for; the
//! coordination pool (at most [`DEFAULT_COORDINATION_POOL_SIZE`], 4;
//! `FREEHIRE_DATABASE_COORDINATION_POOL_SIZE`) serves the writes a turn makes around its
//! start whose loss in such a crash is harmless, which commit without waiting for the flush
//! (see [`PgStore`]'s `quick`). Connections open on demand, so an idle process holds one or
//! two; a busy API process at most the sum, which must fit the server's `max_connections`
//! (100 by default) with every other process on it.

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
mod upsert_columns;

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
    /// for the writes a turn makes around its first byte: the turn leases, the plan charges
    /// and the session's label and last use. Such a commit is visible to every other session
    /// at once and is never torn; only a crash of the database server can lose the last few
    /// hundred milliseconds of them, and then a lease is meaningless anyway (every turn's
    /// connection died), a lost charge is one free turn, a lost label is given by the next
    /// message and a lost last use only orders the rail a little differently. The
    /// transcript's messages are never written here. The flush costs 1–5 ms per commit on the machines measured
    /// (`docs/ARCHITECTURE.md`, "Turn start on PostgreSQL").
    quick: PgPool,
    /// The transcript pool: the assistant's message appends (see the module docs). Each
    /// waits for its WAL flush (1–5 ms, shared by the commits flushed together); with 200
    /// turns streaming they held every connection of the main pool, so a new turn's reads
    /// before its first byte queued behind them (`docs/ARCHITECTURE.md`, "Turn start on
    /// PostgreSQL").
    transcript: PgPool,
}

/// The main pool's connections unless configured. Larger pools did not shorten the turn start
/// of the `assistant` bench on a 2-core machine (more backends only share the same CPUs);
/// raise it where the database server has cores to spare.
pub const DEFAULT_POOL_SIZE: u32 = 10;

/// The transcript pool's connections unless configured (the appends of the turns streaming
/// at once; group commit flushes them together).
pub const DEFAULT_TRANSCRIPT_POOL_SIZE: u32 = 10;

/// The coordination pool's connections unless configured (the lease claims and plan charges
/// of turns starting together, and their label and last-use stamps).
pub const DEFAULT_COORDINATION_POOL_SIZE: u32 = 4;

/// The most connections each of a [`PgStore`]'s pools opens (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolSizes {
    /// The main pool: reads and the writes that wait for the WAL flush.
    pub main: u32,
    /// The coordination pool: the writes that do not ([`PgStore`]'s `quick`).
    pub coordination: u32,
    /// The transcript pool: the assistant's message appends ([`PgStore`]'s `transcript`).
    pub transcript: u32,
}

impl Default for PoolSizes {
    fn default() -> Self {
        Self {
            main: DEFAULT_POOL_SIZE,
            coordination: DEFAULT_COORDINATION_POOL_SIZE,
            transcript: DEFAULT_TRANSCRIPT_POOL_SIZE,
        }
    }
}

impl PoolSizes {
    /// The sizes from `FREEHIRE_DATABASE_POOL_SIZE`,
    /// `FREEHIRE_DATABASE_COORDINATION_POOL_SIZE` and `FREEHIRE_DATABASE_TRANSCRIPT_POOL_SIZE`
    /// as `lookup` reads them; one missing, not a
    /// number or below 1 is its default.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Self {
        let size = |name: &str, default: u32| {
            lookup(name)
                .and_then(|v| v.trim().parse::<u32>().ok())
                .filter(|n| *n > 0)
                .unwrap_or(default)
        };
        Self {
            main: size("FREEHIRE_DATABASE_POOL_SIZE", DEFAULT_POOL_SIZE),
            coordination: size(
                "FREEHIRE_DATABASE_COORDINATION_POOL_SIZE",
                DEFAULT_COORDINATION_POOL_SIZE,
            ),
            transcript: size(
                "FREEHIRE_DATABASE_TRANSCRIPT_POOL_SIZE",
                DEFAULT_TRANSCRIPT_POOL_SIZE,
            ),
        }
    }
}

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
    /// Connects to `url` with the default [`PoolSizes`].
    pub async fn connect(url: &str) -> Result<Self> {
        Self::connect_sized(url, PoolSizes::default()).await
    }

    /// Connects to `url` with pools of at most `sizes` connections.
    pub async fn connect_sized(url: &str, sizes: PoolSizes) -> Result<Self> {
        Self::connect_with_sizes(PgConnectOptions::from_str(url)?, sizes).await
    }

    /// Connects with explicit options (tests use this to pin a schema via `search_path`) and
    /// the default [`PoolSizes`].
    pub async fn connect_with(options: PgConnectOptions) -> Result<Self> {
        Self::connect_with_sizes(options, PoolSizes::default()).await
    }

    /// Connects with explicit options and pools of at most `sizes` connections.
    pub async fn connect_with_sizes(options: PgConnectOptions, sizes: PoolSizes) -> Result<Self> {
        let pool = pool_options(sizes.main).connect_with(options.clone()).await?;
        let transcript = pool_options(sizes.transcript).connect_lazy_with(options.clone());
        // The coordination pool's commits skip the WAL flush (see [`PgStore::quick`]).
        let quick = pool_options(sizes.coordination)
            .connect_with(options.options([("synchronous_commit", "off")]))
            .await?;
        Ok(Self { pool, quick, transcript })
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

    fn handle(&self) -> std::sync::Arc<dyn Store> {
        std::sync::Arc::new(self.clone())
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
        self.transcript.close().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // scenario: Pool sizes come from the environment
    #[test]
    fn pool_sizes_come_from_the_environment_with_defaults() {
        for coordination in [Some("0"), Some("many"), None] {
            let sizes = PoolSizes::from_lookup(|name| match name {
                "FREEHIRE_DATABASE_POOL_SIZE" => Some(" 40 ".to_owned()),
                "FREEHIRE_DATABASE_COORDINATION_POOL_SIZE" => coordination.map(str::to_owned),
                "FREEHIRE_DATABASE_TRANSCRIPT_POOL_SIZE" => Some("12".to_owned()),
                _ => None,
            });
            assert_eq!(
                sizes,
                PoolSizes {
                    main: 40,
                    coordination: DEFAULT_COORDINATION_POOL_SIZE,
                    transcript: 12
                }
            );
        }
        assert_eq!(PoolSizes::from_lookup(|_| None), PoolSizes::default());
        assert_eq!(PoolSizes::default(), PoolSizes { main: 10, coordination: 4, transcript: 10 });
    }
}
