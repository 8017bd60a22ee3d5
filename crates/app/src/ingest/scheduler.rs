//! The worker's loop: claim the most overdue provider, run it, record how it ended; sleep a
//! tick when nothing is due. Several workers may share one database: claims are exclusive.

use freehire_domain::Provider;
use freehire_ingest::Sources;
use freehire_search::SearchIndex;
use freehire_store::{ClaimOptions, RunStatus, ScheduleDefaults, Store};
use tokio_util::sync::CancellationToken;

use super::{Clock, IngestConfig, RunStats, run_provider};
use crate::{AppError, search_sync::drain};
use freehire_ingest::error_chain;

/// How a worker schedules runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerConfig {
    /// This worker's name in claims (host and pid by default).
    pub worker_id: String,
    /// Sleep between polls when nothing is due (the reference ticks every minute).
    pub tick: std::time::Duration,
    /// Cadence and timeout for providers without an override.
    pub schedule: ScheduleDefaults,
    /// How each run behaves.
    pub ingest: IngestConfig,
}

/// Runs one provider now (`--once`), unless another worker holds it; then drains the search
/// outboxes into `search` when there is one.
pub async fn run_once(
    store: &dyn Store,
    registry: &Sources,
    provider: &Provider,
    config: &WorkerConfig,
    search: Option<&dyn SearchIndex>,
    cancel: &CancellationToken,
    clock: Clock<'_>,
) -> Result<RunStats, AppError> {
    if !store.claim_provider(provider, &config.worker_id, config.schedule, clock()).await? {
        return Err(AppError::Busy(provider.to_string()));
    }
    let stats = run_claimed(store, registry, provider, config, cancel, clock).await?;
    sync_search(store, search, clock).await;
    Ok(stats)
}

/// Drains the search outboxes into the index, logging (never propagating) a failure: the rows
/// stay queued for the next drain.
async fn sync_search(store: &dyn Store, search: Option<&dyn SearchIndex>, clock: Clock<'_>) {
    if let Some(index) = search
        && let Err(e) = drain(store, index, ClaimOptions::default(), clock()).await
    {
        tracing::error!(error = %error_chain(&e), "search sync failed; retrying on the next tick");
    }
}

async fn run_claimed(
    store: &dyn Store,
    registry: &Sources,
    provider: &Provider,
    config: &WorkerConfig,
    cancel: &CancellationToken,
    clock: Clock<'_>,
) -> Result<RunStats, AppError> {
    let result = run_provider(store, registry, provider, &config.ingest, cancel, clock).await;
    let status = match &result {
        Ok(stats) if stats.interrupted() => RunStatus::Interrupted,
        Ok(_) => RunStatus::Ok,
        Err(e) => RunStatus::Failed(error_chain(e)),
    };
    store.finish_provider_run(provider, &config.worker_id, &status, clock()).await?;
    result
}

/// Claims and runs due providers until `cancel` fires; a run in progress finishes its started
/// boards first. Between runs (and every tick) the search outboxes are drained into `search`.
/// Storage errors are logged and retried after a tick, never fatal.
pub async fn run_worker(
    store: &dyn Store,
    registry: &Sources,
    config: &WorkerConfig,
    search: Option<&dyn SearchIndex>,
    cancel: &CancellationToken,
    clock: Clock<'_>,
) {
    tracing::info!(worker = %config.worker_id, "worker started");
    while !cancel.is_cancelled() {
        sync_search(store, search, clock).await;
        let claimed = store.claim_due_provider(&config.worker_id, config.schedule, clock()).await;
        match claimed {
            Ok(Some(provider)) => {
                if let Err(e) = run_claimed(store, registry, &provider, config, cancel, clock).await
                {
                    tracing::error!(%provider, error = %error_chain(&e), "ingest run failed");
                }
            }
            Ok(None) => {
                tokio::select! {
                    () = tokio::time::sleep(config.tick) => {}
                    () = cancel.cancelled() => {}
                }
            }
            Err(e) => {
                tracing::error!(
                    error = %error_chain(&e),
                    "cannot claim a provider; retrying after a tick",
                );
                tokio::select! {
                    () = tokio::time::sleep(config.tick) => {}
                    () = cancel.cancelled() => {}
                }
            }
        }
    }
    tracing::info!(worker = %config.worker_id, "worker stopped");
}
