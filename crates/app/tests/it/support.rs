//! Replay servers over the recorded fixtures, registries that talk to them, and the Ashby
//! `cartesia` board added and crawled from them.

use std::{path::PathBuf, time::Duration};

use chrono::{DateTime, TimeZone, Utc};
use freehire_app::ingest::{IngestConfig, RunStats, run_provider};
use freehire_domain::{BoardKey, BoardStatus, NewBoard, Provider};
use freehire_ingest::{
    SourceConfig, Sources,
    http::{BackoffConfig, ClientConfig, HostPacing, HttpClient, RetryConfig},
    replay::{ReplayServer, Reply, Route},
};
use freehire_store::Store;
use tokio_util::sync::CancellationToken;

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

/// Starts a replay server and a registry replaying to it with millisecond retry delays and
/// no per-host pacing (the tests crawl many fake boards on one recorded host).
pub async fn serve(builder: freehire_ingest::replay::ReplayBuilder) -> (ReplayServer, Sources) {
    let server = builder.start().await.unwrap();
    let config = ClientConfig {
        host_pacing: HostPacing::Off,
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

/// Adds the active Ashby board `cartesia` (company Cartesia) at `at`.
pub async fn add_cartesia(s: &dyn Store, at: DateTime<Utc>) {
    let key = BoardKey::new(Provider::parse("ashby").unwrap(), "cartesia", "").unwrap();
    let board =
        NewBoard { key, company: "Cartesia".into(), url: None, status: BoardStatus::Active };
    s.add_board(&board, at).await.unwrap();
}

/// One run of the Ashby provider with the `cartesia` board answering `body`.
pub async fn crawl_cartesia(s: &dyn Store, body: serde_json::Value, at: DateTime<Utc>) -> RunStats {
    let (_server, registry) =
        ashby_server(&[("cartesia", Reply::json(serde_json::to_vec(&body).unwrap()))]).await;
    run_provider(
        s,
        &registry,
        &Provider::parse("ashby").unwrap(),
        &IngestConfig::default(),
        &CancellationToken::new(),
        &move || at,
    )
    .await
    .unwrap()
}

/// A verified, English-speaking user at `address`, created at `at`.
pub async fn user(s: &dyn Store, address: &str, at: DateTime<Utc>) -> freehire_domain::User {
    let email = freehire_domain::Email::parse(address).unwrap();
    let language = freehire_domain::Language::english();
    let new = freehire_store::NewUser {
        email: &email,
        password_hash: None,
        role: freehire_domain::Role::User,
        email_verified: true,
        language: &language,
    };
    s.create_user(&new, at).await.unwrap()
}

/// A remote Greenhouse posting `id` with no facets.
pub fn posting(id: &str, title: &str, company: &str) -> freehire_domain::JobPosting {
    freehire_domain::JobPosting {
        source: freehire_domain::Provider::parse("greenhouse").unwrap(),
        external_id: id.to_owned(),
        url: format!("https://jobs.example.com/{id}"),
        title: title.to_owned(),
        company: company.to_owned(),
        location: "Remote".to_owned(),
        description: format!("<p>{title}</p>"),
        remote: true,
        posted_at: None,
        facets: freehire_domain::Facets::default(),
        salary: None,
        role_fingerprint: String::new(),
        structured: Default::default(),
    }
}
