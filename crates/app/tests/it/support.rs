//! Replay servers over the recorded fixtures, and registries that talk to them.

use std::{path::PathBuf, time::Duration};

use chrono::{DateTime, TimeZone, Utc};
use freehire_ingest::{
    SourceConfig, Sources,
    http::{BackoffConfig, ClientConfig, HttpClient, RetryConfig},
    replay::{ReplayServer, Reply, Route},
};

/// `shared/fixtures/ats`, found above the crate (or `FREEHIRE_ATS_FIXTURES`).
pub fn fixtures() -> PathBuf {
    freehire_ingest::replay::recorded_fixtures(std::path::Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("shared/fixtures/ats not found above the crate; set FREEHIRE_ATS_FIXTURES")
}

/// A recorded Ashby board as JSON.
pub fn ashby_board(name: &str) -> serde_json::Value {
    let path = fixtures().join("ashby-boards").join(format!("{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Serves Ashby boards (name → body) on a fresh replay server.
pub async fn ashby_server(boards: &[(&str, Reply)]) -> (ReplayServer, Sources) {
    let mut builder = ReplayServer::builder();
    for (name, reply) in boards {
        builder = builder.route(
            Route::get("https://api.ashbyhq.com", &format!("/posting-api/job-board/{name}"))
                .reply(reply.clone()),
        );
    }
    serve(builder).await
}

/// Starts a replay server and a registry replaying to it with millisecond retry delays.
pub async fn serve(builder: freehire_ingest::replay::ReplayBuilder) -> (ReplayServer, Sources) {
    let server = builder.start().await.unwrap();
    let config = ClientConfig {
        retry: RetryConfig { retries: 2, delay: Duration::from_millis(1) },
        rate_limit_backoff: BackoffConfig {
            retries: 2,
            base: Duration::from_millis(1),
            cap: Duration::from_millis(2),
        },
        ..ClientConfig::replaying(server.origin())
    };
    let registry = Sources::new(&HttpClient::new(config).unwrap(), SourceConfig::default());
    (server, registry)
}

/// A fixed instant: day `d`, hour `h` of November 2026.
pub fn t(d: u32, h: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, d, h, 0, 0).unwrap()
}
