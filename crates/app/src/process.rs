//! Process plumbing the servers share: their `main` ([`serve_main`]), the log format flag,
//! logging set-up, and the shutdown signal (SIGINT or SIGTERM).

use std::fmt::Display;
use std::process::ExitCode;

/// How log lines are written. Levels come from `RUST_LOG` (default `info`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

/// A server's `main`: parses its configuration (deprecated aliases included, see
/// [`crate::config::parse`]), sets up logging in the format `log_format` reads from it, warns of
/// the aliases used, runs `run`, and logs a failure with its causes (`{:#}`) as the exit code.
pub async fn serve_main<C, E, F>(
    log_format: fn(&C) -> LogFormat,
    run: impl FnOnce(C) -> F,
) -> ExitCode
where
    C: clap::Parser,
    E: Display,
    F: Future<Output = Result<(), E>>,
{
    let (config, aliases) = crate::config::parse::<C>();
    init_logging(log_format(&config));
    crate::config::warn_deprecated(&aliases);
    match run(config).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("{e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Installs the global tracing subscriber.
pub fn init_logging(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder.json().init(),
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
