//! `freehire-api`: serves the HTTP API.
//!
//! Thin on purpose: parse the config, open the store, apply pending migrations, serve until
//! SIGINT/SIGTERM, then finish in-flight requests and close the pool.

use std::net::SocketAddr;

use anyhow::Context;
use freehire_api::AppState;
use freehire_app::process::LogFormat;
use freehire_app::search_engine::SearchEngineArgs;
use freehire_store::{DEFAULT_DATABASE_URL, DatabaseUrl};

/// Serves the freehire HTTP API (job search, job detail, health).
#[derive(Debug, clap::Parser)]
#[command(name = "freehire-api", version, about, long_about = None)]
struct Config {
    /// Address and port to listen on.
    #[arg(long, env = "FREEHIRE_LISTEN", default_value = "127.0.0.1:8080")]
    listen: SocketAddr,

    /// Database: `sqlite://PATH` (embedded; file and folder are created) or
    /// `postgres://USER[:PASSWORD]@HOST[:PORT]/DB`.
    #[arg(long, env = "FREEHIRE_DATABASE_URL", default_value = DEFAULT_DATABASE_URL, hide_env_values = true)]
    database_url: DatabaseUrl,

    /// The search index, opened for reading (the worker writes it). Search answers 503 when
    /// it cannot be opened.
    #[command(flatten)]
    search: SearchEngineArgs,

    /// Log format. Log levels come from `RUST_LOG` (default `info`).
    #[arg(long, env = "FREEHIRE_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
}

async fn shutdown_signal() {
    freehire_app::process::shutdown_signal().await;
    tracing::info!("shutting down: finishing in-flight requests");
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    freehire_app::process::serve_main(|c: &Config| c.log_format, run).await
}

async fn run(config: Config) -> anyhow::Result<()> {
    let services = freehire_app::startup::open(&config.database_url, &config.search).await?;
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .with_context(|| format!("listening on {}", config.listen))?;
    tracing::info!(
        address = %config.listen,
        database = %config.database_url,
        "freehire-api listening: try http://{}/api/v1/jobs",
        config.listen
    );
    let state = AppState::open(&services).await;
    freehire_api::serve(listener, state, shutdown_signal()).await.context("serving")?;
    services.store.close().await;
    tracing::info!("stopped");
    Ok(())
}
