//! The worker's loop: claim the most overdue provider, run it, record how it ended; sleep a
//! tick when nothing is due. Several workers may share one database: claims are exclusive.
//!
//! A run renews its claim every [`WorkerConfig::heartbeat`] (30 s by default); a claim whose
//! holder missed three heartbeats (90 s, [`ScheduleDefaults::timeout`]) is dead, and its
//! provider is due at once, so a killed worker blocks its provider for about a minute and a
//! half, not for its 50-minute run timeout. A run whose renewal finds the claim taken over
//! stops writing new boards (started boards finish) and releases nothing. Every worker sharing
//! a database must use the same heartbeat.
//!
//! The search drain runs beside the ingest loop (every tick), into a [`DrainTarget`]: with
//! Meilisearch every worker drains; with the embedded index only the holder of the writer
//! lease does (renewed every heartbeat, taken over when its holder stops renewing).

use std::time::Duration;

use freehire_domain::Provider;
use freehire_ingest::{Sources, error_chain};
use freehire_store::{ClaimOptions, RunStatus, ScheduleDefaults, Store};
use tokio_util::sync::CancellationToken;

use super::{Clock, IngestConfig, RunStats};
use crate::{
    AppError, BusyProvider,
    search_sync::{DrainTarget, drain},
};

/// The providers the reference runs every 3 h instead of hourly (§3.6): slow listings, detail
/// fan-out or tight quotas. Those we do not adapt yet are kept, so an adapter added later
/// starts at its cadence.
pub const SLOW_PROVIDERS: &[&str] = &[
    "apple",
    "bamboohr",
    "careerplug",
    "gupy",
    "icims",
    "jazzhr",
    "jibe",
    "mycareersfuture",
    "paycom",
    "taleo",
    "ukg",
    "vagas",
];

/// How a worker schedules runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerConfig {
    /// This worker's name in claims (host and pid by default).
    pub worker_id: String,
    /// Sleep between polls when nothing is due (the reference ticks every minute).
    pub tick: Duration,
    /// How often a run renews its claim and the drain holder its writer lease (30 s).
    pub heartbeat: Duration,
    /// Cadence and claim expiry for providers without an override.
    pub schedule: ScheduleDefaults,
    /// How each run behaves.
    pub ingest: IngestConfig,
}

impl WorkerConfig {
    /// A worker named `worker_id` with the default tick (60 s), heartbeat (30 s), schedule
    /// (hourly, [`SLOW_PROVIDERS`] every 3 h, a fleet cap of 10 runs) and ingest settings.
    pub fn new(worker_id: impl Into<String>) -> Self {
        Self {
            worker_id: worker_id.into(),
            tick: Duration::from_secs(60),
            heartbeat: Duration::from_secs(30),
            schedule: ScheduleDefaults { slow: SLOW_PROVIDERS, ..ScheduleDefaults::default() },
            ingest: IngestConfig::default(),
        }
    }

    /// Sets the heartbeat and the claim expiry that goes with it (three heartbeats).
    #[must_use]
    pub fn with_heartbeat(mut self, heartbeat: Duration) -> Self {
        self.heartbeat = heartbeat;
        self.schedule.timeout = chrono::Duration::from_std(heartbeat * 3)
            .unwrap_or(ScheduleDefaults::default().timeout);
        self
    }
}

/// Runs one provider now (`--once`), unless another worker holds it (then the error names the
/// holder and how to proceed) or `take_over` is set (then its claim is taken, and the previous
/// holder logged); then drains the search outboxes into `search` when this process may.
#[allow(clippy::too_many_arguments)]
pub async fn run_once(
    store: &dyn Store,
    registry: &Sources,
    provider: &Provider,
    config: &WorkerConfig,
    take_over: bool,
    search: Option<&DrainTarget>,
    cancel: &CancellationToken,
    clock: Clock<'_>,
) -> Result<RunStats, AppError> {
    let silent = crate::progress::Silent;
    run_once_with(store, registry, provider, config, take_over, search, cancel, clock, &silent)
        .await
}

/// [`run_once`], telling `progress` of the boards as they finish.
#[allow(clippy::too_many_arguments)]
pub async fn run_once_with(
    store: &dyn Store,
    registry: &Sources,
    provider: &Provider,
    config: &WorkerConfig,
    take_over: bool,
    search: Option<&DrainTarget>,
    cancel: &CancellationToken,
    clock: Clock<'_>,
    progress: &dyn crate::progress::Progress,
) -> Result<RunStats, AppError> {
    let (worker, defaults) = (&config.worker_id, config.schedule);
    if take_over {
        if let Some(previous) =
            store.take_over_provider(provider, worker, defaults, clock()).await?
        {
            tracing::warn!(%provider, previous = %previous.worker, since = %previous.since,
                last_heartbeat = %previous.heartbeat, "took the provider claim over");
        }
    } else if !store.claim_provider(provider, worker, defaults, clock()).await? {
        let holder = store.provider_claim(provider).await?;
        return Err(AppError::Busy(Box::new(BusyProvider {
            provider: provider.to_string(),
            holder,
            expiry: defaults.timeout,
        })));
    }
    let stats = run_claimed(store, registry, provider, config, cancel, clock, progress).await?;
    if let Some(target) = search {
        sync_search(store, target, clock).await;
        target.release(store).await;
    }
    Ok(stats)
}

/// Drains the search outboxes into the index when this process may write it, logging (never
/// propagating) a failure: the rows stay queued for the next drain.
async fn sync_search(store: &dyn Store, target: &DrainTarget, clock: Clock<'_>) {
    if let Some(index) = target.acquire(store, clock()).await
        && let Err(e) = drain(store, index.as_ref(), ClaimOptions::default(), clock()).await
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
    progress: &dyn crate::progress::Progress,
) -> Result<RunStats, AppError> {
    let stop = cancel.child_token();
    let run = crate::ingest::run::run_provider_with(
        store,
        registry,
        provider,
        &config.ingest,
        &stop,
        clock,
        progress,
    );
    tokio::pin!(run);
    let mut beat = tokio::time::interval_at(
        tokio::time::Instant::now() + config.heartbeat,
        config.heartbeat.max(Duration::from_millis(10)),
    );
    beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let result = loop {
        tokio::select! {
            result = &mut run => break result,
            _ = beat.tick() => {
                match store.renew_provider_claim(provider, &config.worker_id, clock()).await {
                    Ok(true) => {}
                    Ok(false) if !stop.is_cancelled() => {
                        tracing::warn!(%provider, worker = %config.worker_id,
                            "the provider claim was taken over; stopping after started boards");
                        stop.cancel();
                    }
                    Ok(false) => {}
                    Err(e) => tracing::warn!(%provider, error = %error_chain(&e), "cannot renew the provider claim"),
                }
            }
        }
    };
    match &result {
        Ok(stats) => {
            let outcome = if stats.interrupted() { "interrupted" } else { "ok" };
            crate::telemetry::ingest_run(provider.as_str(), outcome, stats);
        }
        Err(_) => crate::telemetry::ingest_run_failed(provider.as_str()),
    }
    let status = match &result {
        Ok(stats) if stats.interrupted() => RunStatus::Interrupted,
        Ok(_) => RunStatus::Ok,
        Err(e) => RunStatus::Failed(error_chain(e)),
    };
    store.finish_provider_run(provider, &config.worker_id, &status, clock()).await?;
    result
}

async fn pause(period: Duration, cancel: &CancellationToken) {
    tokio::select! {
        () = tokio::time::sleep(period) => {}
        () = cancel.cancelled() => {}
    }
}

/// Claims and runs due providers until `cancel` fires; a run in progress finishes its started
/// boards first. Beside it, every tick, the search outboxes are drained into `search` (when
/// this process may write it; the writer lease is renewed every heartbeat). Storage errors are
/// logged and retried after a tick, never fatal. On the way out the writer lease is released.
pub async fn run_worker(
    store: &dyn Store,
    registry: &Sources,
    config: &WorkerConfig,
    search: Option<&DrainTarget>,
    cancel: &CancellationToken,
    clock: Clock<'_>,
) {
    tracing::info!(worker = %config.worker_id, "worker started");
    let ingest = async {
        while !cancel.is_cancelled() {
            match store.claim_due_provider(&config.worker_id, config.schedule, clock()).await {
                Ok(Some(provider)) => {
                    if let Err(e) = run_claimed(
                        store,
                        registry,
                        &provider,
                        config,
                        cancel,
                        clock,
                        &crate::progress::Silent,
                    )
                    .await
                    {
                        tracing::error!(%provider, error = %error_chain(&e), "ingest run failed");
                    }
                }
                Ok(None) => pause(config.tick, cancel).await,
                Err(e) => {
                    tracing::error!(error = %error_chain(&e), "cannot claim a provider; retrying after a tick");
                    pause(config.tick, cancel).await;
                }
            }
        }
    };
    let sync = async {
        let Some(target) = search else { return };
        while !cancel.is_cancelled() {
            sync_search(store, target, clock).await;
            pause(config.tick, cancel).await;
        }
    };
    let lease = async {
        let Some(target) = search.filter(|t| t.leased()) else { return };
        while !cancel.is_cancelled() {
            pause(config.heartbeat, cancel).await;
            if !cancel.is_cancelled() {
                target.acquire(store, clock()).await;
            }
        }
    };
    tokio::join!(ingest, sync, lease);
    if let Some(target) = search {
        target.release(store).await;
    }
    tracing::info!(worker = %config.worker_id, "worker stopped");
}
