//! The catalogue's lifecycle beyond a provider run (reference search-ingest §3.8–§3.9), so no
//! link stays dead:
//!
//! - [`chronic`]: the open postings of a board failing for over a week are closed
//!   `board_failing`; the board's next successful crawl reopens them;
//! - [`liveness`]: postings no live board watches (manual entries, a provider whose boards were
//!   all retired) are read at their page; two expired reads in a row close one `expired`
//!   (never reopened);
//! - [`prune`]: jobs closed long ago are hard-deleted into `pruned_jobs` (an operator's
//!   command, a dry run unless applied; applications keep their company and role);
//! - [`moderate`]: an operator closes one job `moderated`.
//!
//! The worker runs the first two every [`EVERY`] ([`run_lifecycle`]).

pub mod chronic;
pub mod liveness;
pub mod prune;

use std::time::Duration;

use chrono::{DateTime, Utc};
use freehire_domain::{ClosedReason, PublicSlug};
use freehire_store::{JobKey, Store};
use tokio_util::sync::CancellationToken;

use crate::AppError;

/// How often the worker runs the chronic close and a liveness pass.
pub const EVERY: Duration = Duration::from_secs(60 * 60);

/// Closes the open job `slug` with `moderated` (an operator's call); `None` when no open job
/// has that slug.
pub async fn moderate(
    store: &dyn Store,
    slug: &PublicSlug,
    now: DateTime<Utc>,
) -> Result<Option<JobKey>, AppError> {
    let Some(job) = store.job_by_slug(slug).await? else { return Ok(None) };
    if job.closed_at.is_some() {
        return Ok(None);
    }
    let key = JobKey { source: job.posting.source.clone(), external_id: job.posting.external_id };
    let closed = store.close_jobs(std::slice::from_ref(&key), ClosedReason::Moderated, now).await?;
    Ok((!closed.is_empty()).then_some(key))
}

/// The worker's lifecycle loop: the chronic close and a liveness pass now and every [`EVERY`]
/// until `cancel`; a failed step is logged and tried again next time.
pub async fn run_lifecycle(
    store: &dyn Store,
    prober: &liveness::Prober,
    config: &liveness::LivenessConfig,
    cancel: &CancellationToken,
    clock: &(dyn Fn() -> DateTime<Utc> + Send + Sync),
) {
    let mut every = tokio::time::interval(EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = cancel.cancelled() => break,
            _ = every.tick() => {
                match chronic::close_chronic_boards(store, clock()).await {
                    Ok(c) if c.closed > 0 => tracing::info!(
                        boards = c.boards.len(), closed = c.closed, "closed the postings of chronically failing boards"
                    ),
                    Ok(_) => {}
                    Err(e) => tracing::warn!(error = %e, "chronic-board close failed; retrying next hour"),
                }
                match liveness::pass(store, prober, config, clock).await {
                    Ok(r) => tracing::info!(read = r.reads.len(), closed = r.closed(), "liveness pass"),
                    Err(e) => tracing::warn!(error = %e, "liveness pass failed; retrying next hour"),
                }
            }
        }
    }
}
