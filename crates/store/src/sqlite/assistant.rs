//! [`AssistantRepo`](crate::AssistantRepo) and [`TurnLeaseRepo`](crate::TurnLeaseRepo) on
//! SQLite: `Shared`'s bodies, reads on the reader pool, every write (one statement each) on the
//! one writer connection, which also makes a message's `seq` uncontested within one database
//! file.

use super::{Shared, SqliteStore};
use crate::Result;

/// Runs a read once (SQLite has no connection to lose).
async fn once<T, F, Fut>(op: F) -> Result<T>
where
    F: FnOnce() -> Fut,
    Fut: std::future::Future<Output = Result<T>>,
{
    op().await
}

crate::shared::assistant::assistant_repos!(SqliteStore, Shared, writer, pool, writer, writer, once);

impl SqliteStore {
    /// This machine's clock: every process on a SQLite file runs on it
    /// ([`TurnLeaseRepo::lease_clock`](crate::TurnLeaseRepo)).
    #[allow(clippy::unused_async)]
    async fn lease_clock_now(&self) -> crate::Result<chrono::DateTime<chrono::Utc>> {
        Ok(chrono::Utc::now())
    }
}
