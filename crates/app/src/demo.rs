//! The offline demo (`cargo xtask run --demo`, the browser suite): real recorded boards crawled
//! through the real adapters over the replay mechanism, so a machine without network shows
//! real postings.
//!
//! The recordings are committed under `crates/app/catalogue/demo/` (real Ashby board API
//! responses, MIT, licence beside them) and compiled into the binary: [`BOARDS`] lists the
//! boards as a catalogue file, [`replay_server`] serves their recordings on a local port as
//! `api.ashbyhq.com` would. The worker's `--demo-replay` starts that server in-process and
//! points its HTTP client at it (`FREEHIRE_ATS_REPLAY_URL`'s mechanism), so under the demo no
//! request leaves the machine. [`ingest`] is the whole path in one call (seed, crawl, drain),
//! for tests and the browser suite; [`ingest_into`] does it on a data folder laid out like
//! `./data`.

use std::path::{Path, PathBuf};

use chrono::Utc;
use freehire_domain::{BoardStatus, Provider};
use freehire_ingest::replay::{ReplayServer, Reply, Route};
use freehire_search::SearchIndex;
use freehire_store::{ClaimOptions, DatabaseUrl, Store};
use tokio_util::sync::CancellationToken;

use crate::AppError;
use crate::board_catalogue::{CatalogueFile, SeedReport};
use crate::ingest::{IngestConfig, RunStats};
use crate::search_sync::DrainStats;

/// The recorded demo boards, as a catalogue file (`name,url`).
pub const BOARDS: &[CatalogueFile] =
    &[CatalogueFile { name: "demo", csv: include_str!("../catalogue/demo/boards.csv") }];

macro_rules! recordings {
    ($($board:literal),* $(,)?) => {
        &[$(($board, include_str!(concat!("../catalogue/demo/ashby/", $board, ".json")))),*]
    };
}

/// Each demo board's recorded Ashby board API response, by board key.
const RECORDINGS: &[(&str, &str)] = recordings![
    "anara",
    "cartesia",
    "Diagrid",
    "hiverge",
    "langchain",
    "lovable",
    "mobbin.com",
    "mural",
    "omi",
    "pylon-labs",
    "reedsy",
    "Windsurf",
    "yutori",
];

/// The upstream the recordings answer for.
const ASHBY_API: &str = "https://api.ashbyhq.com";

/// A replay server on 127.0.0.1 answering Ashby's board API for every demo board (any other
/// request gets a 404, as for an unknown board). Stops when dropped.
pub async fn replay_server() -> Result<ReplayServer, AppError> {
    let builder = RECORDINGS.iter().fold(ReplayServer::builder(), |b, (board, body)| {
        b.route(
            Route::get(ASHBY_API, &format!("/posting-api/job-board/{board}"))
                .reply(Reply::json(*body)),
        )
    });
    Ok(builder.start().await?)
}

/// What [`ingest`] did.
#[derive(Debug, Clone, Default)]
pub struct DemoIngest {
    /// The seed of the demo boards.
    pub seeded: SeedReport,
    /// The crawl of their provider.
    pub run: RunStats,
    /// The drain into the index.
    pub drained: DrainStats,
}

/// Seeds the demo boards into `store`, crawls them through the real Ashby adapter against a
/// [`replay_server`], and drains what was written into `index`. Run twice, it adds no board
/// and writes no new job.
pub async fn ingest(store: &dyn Store, index: &dyn SearchIndex) -> Result<DemoIngest, AppError> {
    let seeded =
        crate::board_catalogue::seed(store, BOARDS, BoardStatus::Pending, Utc::now()).await?;
    let server = replay_server().await?;
    // The recordings are served in-process and nothing leaves the machine: no host to spare,
    // so this path (tests, the browser suite) crawls unpaced. The worker's `--demo-replay`
    // keeps its configured pace.
    let registry = crate::ingest::registry(
        Some(server.origin().url().as_str()),
        crate::ingest::HostPacing::Off,
    )?;
    let ashby = Provider::parse("ashby")?;
    let run = crate::ingest::run_provider(
        store,
        &registry,
        &ashby,
        &IngestConfig::default(),
        &CancellationToken::new(),
        &Utc::now,
    )
    .await?;
    let drained =
        crate::search_sync::drain(store, index, ClaimOptions::default(), Utc::now()).await?;
    Ok(DemoIngest { seeded, run, drained })
}

/// [`ingest`] on a data folder laid out like `./data`: the SQLite file `freehire.db` (created
/// and migrated if missing) and the embedded index `index/`. Returns the database URL and the
/// index folder with the outcome, for a server to be started on them.
pub async fn ingest_into(data_dir: &Path) -> Result<(DatabaseUrl, PathBuf, DemoIngest), AppError> {
    let url: DatabaseUrl =
        format!("sqlite://{}", data_dir.join("freehire.db").display()).parse()?;
    let index_dir = data_dir.join("index");
    let store = crate::startup::open_store(&url).await?;
    let engine = crate::search_engine::SearchEngineConfig::Embedded { dir: index_dir.clone() };
    let index =
        crate::search_engine::open_named(&engine, crate::search_engine::Access::Write).await?;
    let result = ingest(store.as_ref(), index.as_ref()).await;
    drop(index);
    store.close().await;
    Ok((url, index_dir, result?))
}
