//! Process plumbing the servers share: their `main` ([`serve_main`]), the log format flag,
//! logging set-up, and the shutdown signal (SIGINT or SIGTERM).

use std::fmt::Display;
use std::process::ExitCode;

pub use crate::error_reporting::SentryArgs;

/// How log lines are written. Levels come from `RUST_LOG` (default `info`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

/// How a server reports: its log format and where its errors go.
#[derive(Debug, Clone)]
pub struct Observability {
    /// The log lines' format.
    pub log_format: LogFormat,
    /// Errors to Sentry, when a DSN is set.
    pub sentry: SentryArgs,
}

/// A server's `main`: parses its configuration (deprecated aliases included, see
/// [`crate::config::parse`]), starts error reporting (`release` names the binary and its
/// version) and logging as `observability` reads them from it, warns of the aliases used, runs
/// `run`, and logs a failure with its causes (`{:#}`) as the exit code. Queued error reports
/// are sent before it returns.
pub async fn serve_main<C, E, F>(
    release: &'static str,
    observability: fn(&C) -> Observability,
    run: impl FnOnce(C) -> F,
) -> ExitCode
where
    C: clap::Parser,
    E: Display,
    F: Future<Output = Result<(), E>>,
{
    let (config, aliases) = crate::config::parse::<C>();
    let seen = observability(&config);
    let reporting = match crate::error_reporting::init(&seen.sentry, release) {
        Ok(reporting) => reporting,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    init_logging(seen.log_format, reporting.enabled());
    crate::config::warn_deprecated(&aliases);
    let code = match run(config).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("{e:#}");
            ExitCode::FAILURE
        }
    };
    drop(reporting);
    code
}

/// Installs the global tracing subscriber; with `report_errors`, `ERROR` events also go to
/// Sentry ([`crate::error_reporting::layer`]).
pub fn init_logging(format: LogFormat, report_errors: bool) {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let sentry = report_errors.then(crate::error_reporting::layer);
    let registry = tracing_subscriber::registry().with(filter).with(sentry);
    match format {
        LogFormat::Text => registry.with(tracing_subscriber::fmt::layer()).init(),
        LogFormat::Json => registry.with(tracing_subscriber::fmt::layer().json()).init(),
    }
}

/// Resolves on the first SIGINT or SIGTERM. A signal that cannot be listened for is logged
/// and never fires (the other one still does).
pub async fn shutdown_signal() {
    let interrupt = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::error!(error = %e, "cannot listen for SIGINT");
            std::future::pending::<()>().await;
        }
    };
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(e) => {
                tracing::error!(error = %e, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    tokio::select! {
        () = interrupt => {},
        () = terminate => {},
    }
}
