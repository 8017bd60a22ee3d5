//! `freehire ingest --once PROVIDER`: crawl one provider's boards now, in this process.

use std::io::Write;

use chrono::Utc;
use clap::Args;
use freehire_app::ingest::{
    HostPace, HostPacing, IngestConfig,
    scheduler::{WorkerConfig, run_once_with},
};
use freehire_domain::Provider;
use freehire_store::Store;
use tokio_util::sync::CancellationToken;

/// Arguments of `freehire ingest`.
#[derive(Debug, Args)]
pub struct IngestArgs {
    /// The provider to crawl now (e.g. `ashby`); its run is claimed like a worker's.
    #[arg(long, value_name = "PROVIDER")]
    once: Provider,
    /// Send every ATS request to this origin instead (a replay server).
    #[arg(long, env = "FREEHIRE_ATS_REPLAY_URL")]
    replay_url: Option<String>,
    /// Fetch every detail again, ignoring what is stored.
    #[arg(long)]
    refetch_all: bool,
    /// Requests per second to each upstream host (fractions allowed; burst twice the rate).
    #[arg(long, env = "FREEHIRE_INGEST_HOST_RATE", default_value = "5")]
    host_rate: HostPace,
    /// Take the provider's claim even when a worker holds it (the holder is logged; its run
    /// stops writing at its next heartbeat). For a worker that died holding the claim.
    #[arg(long)]
    take_over: bool,
}

/// Runs the provider and prints what happened.
pub async fn run(store: &dyn Store, args: IngestArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let registry = freehire_app::ingest::registry(
        args.replay_url.as_deref(),
        HostPacing::Paced(args.host_rate),
    )?;
    let mut config = WorkerConfig::new(format!("cli-{}", std::process::id()));
    config.ingest = IngestConfig { refetch_all: args.refetch_all, ..IngestConfig::default() };
    let cancel = CancellationToken::new();
    let stop = cancel.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            stop.cancel();
        }
    });
    let progress = super::progress::CliProgress::new(format!("ingest {}", args.once));
    let s = run_once_with(
        store,
        &registry,
        &args.once,
        &config,
        args.take_over,
        None,
        &cancel,
        &Utc::now,
        &progress,
    )
    .await?;
    writeln!(
        out,
        "{}: {} boards, {} crawled, {} failed, {} cooling; {} postings ({} new, {} changed, {} only seen), \
         {} unreadable, {} skipped; closed {} (board) + {} (sweep)",
        args.once,
        s.boards,
        s.crawled,
        s.failed,
        s.cooled,
        s.ingested,
        s.inserted,
        s.changed,
        s.touched,
        s.unreadable,
        s.skipped,
        s.closed_board,
        s.closed_swept
    )?;
    for failed in &s.failures {
        writeln!(
            out,
            "  failed {} ({}): {}: {}",
            failed.key,
            failed.company,
            failed.failure.class.as_str(),
            failed.failure.message
        )?;
    }
    Ok(())
}
