//! Shared test helpers: fixture paths, a fast client configuration, a registry behind a
//! replay server.

use std::path::PathBuf;
use std::time::Duration;

use freehire_domain::{BoardKey, CountryCode, Provider};
use freehire_ingest::http::{BackoffConfig, ClientConfig, HostPacing, HttpClient, RetryConfig};
use freehire_ingest::replay::{ReplayServer, Route};
use freehire_ingest::{BoardListing, BoardTarget, IngestError, SeenSet, SourceConfig, Sources};

/// `shared/fixtures/ats`, found by walking up from the crate (override with
/// `FREEHIRE_ATS_FIXTURES`).
pub fn fixtures() -> PathBuf {
    freehire_ingest::replay::recorded_fixtures(std::path::Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("shared/fixtures/ats not found above the crate; set FREEHIRE_ATS_FIXTURES")
}

pub fn careerkit(name: &str) -> PathBuf {
    fixtures().join("careerkit").join(name)
}

pub fn read(name: &str) -> String {
    std::fs::read_to_string(careerkit(name)).unwrap()
}

/// The defaults with millisecond retry delays and no per-host pacing (the adapters' tests
/// send many requests to one recorded host; `http.rs` tests the pacing), replaying to
/// `server`.
pub fn fast_config(server: &ReplayServer) -> ClientConfig {
    ClientConfig {
        host_pacing: HostPacing::Off,
        retry: RetryConfig { retries: 2, delay: Duration::from_millis(1) },
        rate_limit_backoff: BackoffConfig {
            retries: 6,
            base: Duration::from_millis(1),
            cap: Duration::from_millis(4),
        },
        ..ClientConfig::replaying(server.origin())
    }
}

/// A replay server with `routes` and a registry whose client replays to it.
pub async fn setup(routes: Vec<Route>) -> (ReplayServer, Sources) {
    let mut b = ReplayServer::builder();
    for r in routes {
        b = b.route(r);
    }
    let server = b.start().await.unwrap();
    let config = fast_config(&server);
    let registry = Sources::new(&HttpClient::new(config).unwrap(), SourceConfig::default());
    (server, registry)
}

pub fn target(provider: &str, board: &str, region: &str) -> BoardTarget {
    BoardTarget::new(
        BoardKey::new(Provider::parse(provider).unwrap(), board, region).unwrap(),
        "Co",
    )
}

pub async fn fetch(registry: &Sources, t: &BoardTarget) -> Result<BoardListing, IngestError> {
    registry.require(&t.key.provider).unwrap().fetch(t, &SeenSet::new()).await
}

pub async fn fetch_new(
    registry: &Sources,
    t: &BoardTarget,
    seen: &[&str],
) -> Result<BoardListing, IngestError> {
    let seen: SeenSet = seen.iter().map(|s| (*s).to_owned()).collect();
    registry.require(&t.key.provider).unwrap().fetch(t, &seen).await
}

pub fn codes(c: &[CountryCode]) -> Vec<&str> {
    c.iter().map(CountryCode::as_str).collect()
}
