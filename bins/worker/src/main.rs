//! `freehire-worker`: the ingest scheduler loop, the notification engines, the hourly
//! daily rollups (`job_daily_stats`, `site_status_daily`) and the hourly lifecycle (the
//! chronic-board close and a liveness pass over postings no live board watches).
//!
//! Thin on purpose: parse the config, open and migrate the store, build the adapter registry,
//! then either run one provider now (`--once`) or claim due providers until SIGINT/SIGTERM.
//! Beside the runs it drains the search outboxes into the search index: with Meilisearch
//! every worker drains; with the embedded index only the worker holding the writer lease in
//! the database does (the others ingest and take the drain over when its lease expires). A
//! shutdown lets started boards finish, records the run as interrupted (so the next claim runs
//! it again) and releases the writer lease. `--demo-replay` serves the offline demo's recorded
//! boards in-process and sends every ATS request there.
//!
//! Beside ingest it runs the notification engines on their cadences (match and digests every
//! 5 min, deliveries every minute, reminders every 15 min, nudges hourly; `FREEHIRE_*_EVERY_SECS`);
//! `--notify-once` runs one pass of every engine and exits (tests, the browser suite).

use chrono::Utc;
use freehire_app::ingest::{
    HostPace, HostPacing, IngestConfig,
    scheduler::{WorkerConfig, run_once, run_worker},
};
use freehire_app::notify::{NotifyArgs, run_engines};
use freehire_app::process::LogFormat;
use freehire_app::search_engine::SearchEngineArgs;
use freehire_app::search_sync::DrainTarget;
use freehire_domain::Provider;
use freehire_store::{DEFAULT_DATABASE_URL, DatabaseUrl};
use tokio_util::sync::CancellationToken;

/// Crawls companies' job boards on a schedule (hourly per provider unless overridden in
/// `ingest_schedule`). Several workers may share one database.
#[derive(Debug, clap::Parser)]
#[command(name = "freehire-worker", version, about, long_about = None)]
struct Config {
    /// Run this provider once now (even if disabled or not due) and exit.
    #[arg(long, value_name = "PROVIDER")]
    once: Option<Provider>,

    /// Run one pass of every notification engine (match, digests, reminders, nudges,
    /// deliveries) and exit, without ingesting.
    #[arg(long, conflicts_with = "once")]
    notify_once: bool,

    /// With `--once`: take the provider's claim even when another worker holds it (its run
    /// stops writing at its next heartbeat).
    #[arg(long, requires = "once")]
    take_over: bool,

    /// Database: `sqlite://PATH` (embedded) or `postgres://USER[:PASSWORD]@HOST[:PORT]/DB`.
    #[arg(long, env = "FREEHIRE_DATABASE_URL", default_value = DEFAULT_DATABASE_URL, hide_env_values = true)]
    database_url: DatabaseUrl,

    /// Send every ATS request to this origin instead (a replay server), e.g.
    /// `http://127.0.0.1:9000`; the original scheme and host go in `X-Upstream-Host`.
    #[arg(long, env = "FREEHIRE_ATS_REPLAY_URL")]
    replay_url: Option<String>,

    /// The offline demo: serve the recorded demo boards on a local port in this process and
    /// send every ATS request there (seed them with `freehire boards seed --demo`). Nothing
    /// leaves the machine.
    #[arg(long, conflicts_with = "replay_url")]
    demo_replay: bool,

    /// The search index the worker keeps in step with the catalogue (for the embedded engine
    /// it holds the index's writer; the API opens it read-only).
    #[command(flatten)]
    search: SearchEngineArgs,

    /// Seconds between polls when no provider is due (at least 1).
    #[arg(long, env = "FREEHIRE_WORKER_TICK_SECS", default_value_t = 60,
        value_parser = clap::value_parser!(u64).range(1..))]
    tick_secs: u64,

    /// Seconds between heartbeats of a run's claim and of the writer lease (at least 1); a
    /// claim or lease three heartbeats old is dead. Every worker on a database must agree.
    #[arg(long, env = "FREEHIRE_WORKER_HEARTBEAT_SECS", default_value_t = 30,
        value_parser = clap::value_parser!(u64).range(1..))]
    heartbeat_secs: u64,

    /// Default minutes between runs of a provider (at least 1).
    #[arg(long, env = "FREEHIRE_INGEST_CADENCE_MINUTES", default_value_t = 60,
        value_parser = clap::value_parser!(i64).range(1..))]
    cadence_minutes: i64,

    /// Provider runs held at once across every worker on the database (the fleet cap, at
    /// least 1).
    #[arg(long, env = "FREEHIRE_INGEST_FLEET_CAP", default_value_t = 10,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    fleet_cap: usize,

    /// Boards crawled at once (at least 1).
    #[arg(long, env = "FREEHIRE_INGEST_BOARD_CONCURRENCY", default_value_t = 32,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    board_concurrency: usize,

    /// Fetch every detail again, ignoring what is stored (a repair run).
    #[arg(long, env = "FREEHIRE_INGEST_REFETCH_ALL")]
    refetch_all: bool,

    /// Requests per second to each upstream host (fractions allowed; burst twice the rate).
    /// Pacing is always on; under replay it still keys by the original host.
    #[arg(long, env = "FREEHIRE_INGEST_HOST_RATE", default_value = "5")]
    host_rate: HostPace,

    /// This worker's name in claims (default: host name and process id).
    #[arg(long, env = "FREEHIRE_WORKER_ID")]
    worker_id: Option<String>,

    /// The notification engines.
    #[command(flatten)]
    notify: NotifyArgs,

    /// Serve this process's metrics (Prometheus text at `/metrics`: ingest runs, postings,
    /// deliveries) on this address, e.g. `127.0.0.1:9187`. Unset: not served.
    #[arg(long, env = "FREEHIRE_WORKER_METRICS_ADDR")]
    metrics_addr: Option<std::net::SocketAddr>,

    /// Log format. Levels come from `RUST_LOG` (default `info`).
    #[arg(long, env = "FREEHIRE_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,

    /// Errors to Sentry (off by default).
    #[command(flatten)]
    sentry: freehire_app::process::SentryArgs,
}

/// Cancels `token` on SIGINT or SIGTERM.
fn cancel_on_signal(token: CancellationToken) {
    tokio::spawn(async move {
        freehire_app::process::shutdown_signal().await;
        tracing::info!("shutting down: finishing started boards");
        token.cancel();
    });
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    freehire_app::process::serve_main(
        concat!("freehire-worker@", env!("CARGO_PKG_VERSION")),
        |c: &Config| freehire_app::process::Observability {
            log_format: c.log_format,
            sentry: c.sentry.clone(),
        },
        run,
    )
    .await
}

async fn run(config: Config) -> anyhow::Result<()> {
    if let Some(addr) = config.metrics_addr {
        metrics_exporter_prometheus::PrometheusBuilder::new()
            .set_buckets(&freehire_app::telemetry::BUCKETS)?
            .with_http_listener(addr)
            .install()
            .map_err(|e| anyhow::anyhow!("cannot serve metrics on {addr}: {e}"))?;
        tracing::info!(%addr, "metrics served at /metrics");
    }
    let worker_id = config
        .worker_id
        .clone()
        .unwrap_or_else(|| format!("{}-{}", hostname(), std::process::id()));
    if config.notify_once {
        let store = freehire_app::startup::open_store(&config.database_url).await?;
        let notifier = config.notify.notifier(store.clone(), &worker_id)?;
        let stats = notifier.run_pass(Utc::now()).await?;
        tracing::info!(?stats, "notification pass done");
        store.close().await;
        return Ok(());
    }
    let services = freehire_app::startup::open(&config.database_url, &config.search).await?;
    let demo =
        if config.demo_replay { Some(freehire_app::demo::replay_server().await?) } else { None };
    let replay_url = match &demo {
        Some(server) => {
            tracing::info!(origin = %server.origin().url(), "demo: replaying the recorded boards");
            Some(server.origin().url().to_string())
        }
        None => config.replay_url.clone(),
    };
    let pacing = HostPacing::Paced(config.host_rate);
    let registry = freehire_app::ingest::registry(replay_url.as_deref(), pacing)?;
    let prober = freehire_app::lifecycle::liveness::Prober::new(
        freehire_app::ingest::client_config(replay_url.as_deref(), pacing)?,
    )?;
    let store = services.store;
    let notifier = config.notify.notifier(store.clone(), &worker_id)?;
    let cadences = config.notify.cadences();
    let mut worker = WorkerConfig::new(worker_id)
        .with_heartbeat(std::time::Duration::from_secs(config.heartbeat_secs));
    worker.tick = std::time::Duration::from_secs(config.tick_secs);
    worker.schedule.cadence = chrono::Duration::minutes(config.cadence_minutes);
    worker.schedule.fleet_cap = config.fleet_cap;
    worker.ingest = IngestConfig {
        board_concurrency: config.board_concurrency,
        refetch_all: config.refetch_all,
        ..IngestConfig::default()
    };
    let index =
        DrainTarget::open(&services.engine, &worker.worker_id, worker.schedule.timeout).await?;
    let cancel = CancellationToken::new();
    cancel_on_signal(cancel.clone());
    match &config.once {
        Some(provider) => {
            let stats = run_once(
                store.as_ref(),
                &registry,
                provider,
                &worker,
                config.take_over,
                Some(&index),
                &cancel,
                &Utc::now,
            )
            .await?;
            tracing::info!(?stats, "done");
        }
        None => {
            let engines = run_engines(&notifier, cadences, &cancel, &Utc::now);
            let ingest =
                run_worker(store.as_ref(), &registry, &worker, Some(&index), &cancel, &Utc::now);
            let status = freehire_app::status::Status::new(store.clone());
            let rollups = freehire_app::status::run_rollups(&status, &cancel, &Utc::now);
            let liveness = freehire_app::lifecycle::liveness::LivenessConfig::default();
            let lifecycle = freehire_app::lifecycle::run_lifecycle(
                store.as_ref(),
                &prober,
                &liveness,
                &cancel,
                &Utc::now,
            );
            tokio::join!(engines, ingest, rollups, lifecycle);
        }
    }
    store.close().await;
    Ok(())
}

fn hostname() -> String {
    std::fs::read_to_string("/etc/hostname")
        .map(|h| h.trim().to_owned())
        .unwrap_or_else(|_| "worker".to_owned())
}
