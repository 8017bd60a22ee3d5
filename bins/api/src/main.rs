//! `freehire-api`: serves the HTTP API and the web pages.
//!
//! Thin on purpose: parse the config, open the store, apply pending migrations, compose the
//! JSON API's router with the web pages (`freehire_web::app`: `/api/*`, `/health`, `/metrics` and `/mcp` to the
//! API, everything else to the pages, over one accounts service and one search slot), serve until
//! SIGINT/SIGTERM (within the header-read timeout and connection cap of
//! `freehire_api::ServerLimits`), then finish in-flight requests and close the pool.

use std::{net::SocketAddr, time::Duration};

use anyhow::Context;
use freehire_api::{
    AppState, ServerLimits, auth::cookie::CookieConfig, client_ip::TrustedProxies,
    ratelimit::RateLimitConfig,
};
use freehire_app::accounts::AccountsArgs;
use freehire_app::process::LogFormat;
use freehire_app::search_engine::SearchEngineArgs;
use freehire_store::{DEFAULT_DATABASE_URL, DatabaseUrl};
use freehire_web::WebState;

/// Serves the freehire HTTP API (job search, job detail, accounts, health).
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

    /// Seconds a client may take to send a request head before it is disconnected.
    #[arg(long, env = "FREEHIRE_HEADER_READ_TIMEOUT_SECS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    header_read_timeout_secs: u64,

    /// Most connections open at once; more wait in the listen backlog until one closes.
    #[arg(long, env = "FREEHIRE_MAX_CONNECTIONS", default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_connections: u64,

    /// Accounts: the session secret and lifetime, the cookie, and where mail goes.
    #[command(flatten)]
    accounts: AccountsArgs,

    /// Rate limits on the sign-up, sign-in and code routes (the reference's numbers), per client
    /// IP and per account, in this process: `on` or `off` (when a proxy in front limits).
    #[arg(long, env = "FREEHIRE_RATE_LIMITS", default_value = "on")]
    rate_limits: RateLimitConfig,

    /// Proxies whose `X-Forwarded-For` names the client (comma-separated IPs or CIDRs, e.g.
    /// `10.0.0.0/8,::1`); the client is the right-most address not in the list. Empty: the
    /// socket peer is the client.
    #[arg(long, env = "FREEHIRE_TRUSTED_PROXIES", default_value = "")]
    trusted_proxies: TrustedProxies,

    /// Log format. Log levels come from `RUST_LOG` (default `info`).
    #[arg(long, env = "FREEHIRE_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,

    /// Errors to Sentry (off by default).
    #[command(flatten)]
    sentry: freehire_app::process::SentryArgs,
}

async fn shutdown_signal() {
    freehire_app::process::shutdown_signal().await;
    tracing::info!("shutting down: finishing in-flight requests");
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    freehire_app::process::serve_main(
        concat!("freehire-api@", env!("CARGO_PKG_VERSION")),
        |c: &Config| freehire_app::process::Observability {
            log_format: c.log_format,
            sentry: c.sentry.clone(),
        },
        run,
    )
    .await
}

async fn run(config: Config) -> anyhow::Result<()> {
    let services = freehire_app::startup::open(&config.database_url, &config.search).await?;
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .with_context(|| format!("listening on {}", config.listen))?;
    tracing::info!(
        address = %config.listen,
        database = %config.database_url,
        "freehire-api listening: open http://{}/ (the API is under /api/v1)",
        config.listen
    );
    let accounts = config
        .accounts
        .accounts(services.store.clone(), &config.database_url)
        .context("setting up accounts")?;
    tracing::info!(mail = %accounts.mailer().describe(), "account mail goes here");
    let cookie = CookieConfig { secure: config.accounts.cookie_secure };
    let state = AppState::open(&services, accounts, cookie)
        .await
        .with_rate_limits(&config.rate_limits)
        .with_trusted_proxies(config.trusted_proxies.clone());
    let limits = ServerLimits {
        header_read_timeout: Duration::from_secs(config.header_read_timeout_secs),
        max_connections: usize::try_from(config.max_connections).unwrap_or(usize::MAX),
        ..ServerLimits::default()
    };
    let pages = WebState {
        secure_cookies: state.cookie.secure,
        ..WebState::new(
            services.store.clone(),
            state.accounts.clone(),
            state.search.clone(),
            state.throttle(),
        )
    }
    .with_assistant(state.assistant.clone())
    .with_cvs(state.cvs());
    let app = freehire_web::app(pages, freehire_api::router(state));
    freehire_api::serve_router(listener, app, limits, shutdown_signal())
        .await
        .context("serving")?;
    services.store.close().await;
    tracing::info!("stopped");
    Ok(())
}
