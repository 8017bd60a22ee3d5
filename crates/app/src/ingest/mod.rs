//! Ingest runs: [`run_provider`] crawls every board of one provider; [`scheduler`] decides
//! which provider runs next.
//!
//! Per board (at most [`IngestConfig::board_concurrency`] at once):
//! 1. skip it while its health says it is cooling down;
//! 2. load its seen set (stored ids, minus young rows without a description so their detail
//!    is retried);
//! 3. fetch (a hydrating adapter skips the detail of the ids in the seen set);
//! 4. normalise every posting into a [`freehire_domain::JobPosting`] (namespaced external id,
//!    facets from `freehire-normalize`), skipping invalid ones: the hashing, sanitising and
//!    deriving run on the blocking pool, because the boards crawled at once are polled by one
//!    task and would otherwise share one core (on the 2-core bench machine this took the first
//!    crawl from about 2,100 to 2,900 postings/s);
//! 5. write them in one transaction (inserted/changed rows are queued for search in it) and
//!    touch the ids listed without detail;
//! 6. record health (failures back off; success heals and activates a pending board);
//! 7. when the provider proves complete listings and the listing named anything, close the
//!    board's jobs it did not list (`board_unseen`).
//!
//! After all boards, the unseen sweep closes jobs of successfully listed boards not seen for
//! the grace period (`unseen`). A failed, truncated or partial listing never licenses a close.

mod board;
mod convert;
mod run;
pub mod scheduler;
mod writer;

pub use convert::{Converted, to_posting};

/// The time source of a run (tests pin it; binaries pass `&Utc::now`).
pub type Clock<'a> = &'a (dyn Fn() -> chrono::DateTime<chrono::Utc> + Sync);
pub use run::{
    BoardFailure, BoardOutcome, FailedBoard, GroupLimits, IngestConfig, RunStats, run_provider,
};

pub use freehire_ingest::http::{HostPace, HostPacing};

/// The registry of built-in adapters over the safe HTTP client. With `replay_origin` (the
/// value of `FREEHIRE_ATS_REPLAY_URL`), every ATS request goes to that origin instead, with
/// the original scheme and host in `X-Upstream-Host`. `host_pacing` paces the requests per
/// upstream host (`FREEHIRE_INGEST_HOST_RATE`); under replay the key stays the original host.
pub fn registry(
    replay_origin: Option<&str>,
    host_pacing: HostPacing,
) -> Result<freehire_ingest::Sources, crate::AppError> {
    Ok(freehire_ingest::Sources::new(
        &freehire_ingest::http::HttpClient::new(client_config(replay_origin, host_pacing)?)?,
        freehire_ingest::SourceConfig::default(),
    ))
}

/// The outbound client's configuration of a deployment: every request to `replay_origin`
/// when one is given (the demo, the scale run), paced per host by `host_pacing`.
pub fn client_config(
    replay_origin: Option<&str>,
    host_pacing: HostPacing,
) -> Result<freehire_ingest::http::ClientConfig, crate::AppError> {
    use freehire_ingest::http::{ClientConfig, ReplayOrigin};
    let config = match replay_origin.filter(|o| !o.trim().is_empty()) {
        Some(origin) => ClientConfig::replaying(ReplayOrigin::parse(origin)?),
        None => ClientConfig::default(),
    };
    Ok(ClientConfig { host_pacing, ..config })
}
