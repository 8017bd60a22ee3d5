//! The production adapter: PostgreSQL through sqlx.
//!
//! Batch writes send one `jsonb` array parameter and read it with `jsonb_to_recordset`, so a
//! batch of thousands of postings is one statement and one round trip. The jobs table keeps
//! free space on its pages and no index on `last_seen_at`, so a re-crawl's bump is a HOT
//! update.

mod boards;
mod clusters;
mod companies;
mod ingest;
mod jobs;
mod outbox;
mod schedule;

/// The adapter bodies both backends share, on PostgreSQL.
type Shared = crate::shared::Shared<sqlx::Postgres>;

use std::str::FromStr;

use async_trait::async_trait;
use sqlx::{
    PgPool,
    postgres::{PgConnectOptions, PgPoolOptions},
};

use crate::{Backend, Result, Store};

/// Embedded migrations for PostgreSQL.
static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations/postgres");

/// Connections idle for longer than this are pinged before they are handed out.
const PING_WHEN_IDLE_FOR: std::time::Duration = std::time::Duration::from_secs(1);

/// The PostgreSQL store.
#[derive(Clone, Debug)]
pub struct PgStore {
    pool: PgPool,
}

impl PgStore {
    /// Connects to `url`.
    pub async fn connect(url: &str) -> Result<Self> {
        Self::connect_with(PgConnectOptions::from_str(url)?).await
    }

    /// Connects with explicit options (tests use this to pin a schema via `search_path`).
    pub async fn connect_with(options: PgConnectOptions) -> Result<Self> {
        // A connection used within the last second is known to be alive: only one idle for
        // longer is pinged before it is handed out (sqlx pings every acquire by default, one
        // more round trip per acquire; a crawl acquires twice per board).
        let pool = PgPoolOptions::new()
            .max_connections(10)
            .test_before_acquire(false)
            .before_acquire(|conn, meta| {
                Box::pin(async move {
                    if meta.idle_for > PING_WHEN_IDLE_FOR {
                        sqlx::Connection::ping(conn).await?;
                    }
                    Ok(true)
                })
            })
            .connect_with(options)
            .await?;
        Ok(Self { pool })
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
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    async fn close(&self) {
        self.pool.close().await;
    }
}
