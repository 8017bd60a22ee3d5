//! [`AssistantRepo`](crate::AssistantRepo) and [`TurnLeaseRepo`](crate::TurnLeaseRepo) on
//! PostgreSQL: `Shared`'s bodies on the pool. Reads run once more if they lost their
//! connection ([`retry_once_if_lost`]); the single-statement writes do not. Two concurrent
//! appends to one session may compute the same `seq`: the later insert's unique violation is
//! reported, and the caller retries.

use super::{PgStore, Shared, retry_once_if_lost};

crate::shared::assistant::assistant_repos!(PgStore, Shared, pool, pool, retry_once_if_lost);
