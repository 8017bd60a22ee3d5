//! [`AssistantRepo`](crate::AssistantRepo) and [`TurnLeaseRepo`](crate::TurnLeaseRepo) on
//! PostgreSQL: `Shared`'s bodies on the pool. Reads run once more if they lost their
//! connection ([`retry_once_if_lost`]); the single-statement writes do not. Two concurrent
//! appends to one session may compute the same `seq`: the later insert's unique violation is
//! reported, and the caller retries. The lease writes and the session's label and last use
//! go through the coordination pool ([`PgStore`]'s `quick`: commits that skip the WAL flush);
//! the messages (the transcript) commit on the transcript pool ([`PgStore`]'s `transcript`),
//! each waiting for its flush, so a burst of them never holds the connections a request's reads
//! wait for. Lease times are the server's clock.

use super::{PgStore, Shared, retry_once_if_lost};

crate::shared::assistant::assistant_repos!(
    PgStore,
    Shared,
    pool,
    pool,
    quick,
    transcript,
    retry_once_if_lost
);

impl PgStore {
    /// The database server's clock ([`TurnLeaseRepo::lease_clock`](crate::TurnLeaseRepo)).
    async fn lease_clock_now(&self) -> crate::Result<chrono::DateTime<chrono::Utc>> {
        retry_once_if_lost(|| async {
            let (now,): (chrono::DateTime<chrono::Utc>,) =
                sqlx::query_as("SELECT clock_timestamp()").fetch_one(&self.quick).await?;
            Ok(now)
        })
        .await
    }
}
