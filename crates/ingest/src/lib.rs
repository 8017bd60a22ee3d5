//! # freehire-ingest
//!
//! The source side of ingest: reading open jobs straight from companies' ATS platforms.
//!
//! - [`Source`]: the adapter contract (one board in, [`RawPosting`]s out), with an optional
//!   hydrating form ([`Source::fetch_new`]) and [`Capabilities`] (`full_board_listing`).
//! - [`Sources`]: the twelve built-in adapters keyed by [`freehire_domain::Provider`]
//!   (greenhouse, lever, ashby, workday, smartrecruiters, workable, recruitee, personio,
//!   teamtailor, bamboohr, pinpoint, rippling).
//! - [`http`]: the safe HTTP client (timeouts, retries, backoff, pacing, body cap, SSRF guard,
//!   replay routing).
//! - [`recognize()`]: board URL recognition; [`board_identity`]: the duplicate-board fold;
//!   [`parse_board_csv`]: board import files.
//! - [`sanitize_html`]: the description allowlist, applied by the pipeline (adapters hand over
//!   the description as stated, decoded but not sanitised); [`external_id`]: `<board>:<native id>`.
//! - [`replay`]: a local server that replays recorded ATS responses for tests and benches.
//!
//! Deliberately absent: storage, the pipeline, lifecycle and scheduling (they live with the
//! callers), and facet derivation (`freehire-normalize`).

mod adapters;
mod error;
pub mod http;
mod identity;
mod import;
mod posting;
mod recognize;
pub mod replay;
mod sanitize;
mod source;

pub use adapters::PROVIDERS;
pub use error::IngestError;
pub use identity::board_identity;
pub use import::{BoardRow, parse_board_csv};
pub use posting::{BoardListing, RawDate, RawPosting, SeenSet, Unreadable, external_id};
pub use recognize::{Recognized, recognize};
pub use sanitize::{
    decode_encoded_html, decode_maybe_encoded_html, sanitize_encoded_html, sanitize_html,
    sanitize_maybe_encoded_html,
};
pub use source::{BoardTarget, Capabilities, Source, SourceConfig, Sources};

/// Checks a board's shape for its provider without any request.
pub fn validate_board(key: &freehire_domain::BoardKey) -> Result<(), IngestError> {
    adapters::validate_board(key)
}
