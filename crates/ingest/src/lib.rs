//! # freehire-ingest
//!
//! The source side of ingest: reading open jobs straight from companies' ATS platforms.
//!
//! - [`Source`]: the adapter contract (one board and its [`SeenSet`] in, [`RawPosting`]s
//!   out; a hydrating adapter skips the detail of seen ids), its [`Capabilities`]
//!   (`full_board_listing`, `hydrating`) and its offline board rules
//!   ([`Source::validate_board`], [`Source::recognize`]).
//! - [`Sources`]: the adapters of the registered platforms keyed by
//!   [`freehire_domain::Provider`] (greenhouse, lever, ashby, workday, smartrecruiters,
//!   workable, recruitee, personio, teamtailor, bamboohr, pinpoint, rippling), one file each;
//!   [`provider_keys`] lists them.
//! - [`http`]: the safe HTTP client (timeouts, retries, backoff, pacing, body cap, SSRF guard,
//!   replay routing).
//! - [`recognize()`]: board URL recognition and [`validate_board`]: board shapes, both pure and
//!   offline, dispatched to the platform's own rules; [`board_identity`]: the duplicate-board
//!   fold; [`parse_board_csv`]: board import files; [`parse_catalogue_csv`]: catalogue
//!   files (`name,url`, read by recognition).
//! - [`sanitize_html`]: the description allowlist, applied by the pipeline (adapters hand over
//!   the description as stated, decoded but not sanitised); [`external_id`]: `<board>:<native id>`.
//! - [`IngestError`]: the one error type (causes kept as sources, never in its own message);
//!   [`error_chain`]: an error and its causes as one line, the text board health records.
//! - [`replay`]: a local server that replays recorded ATS responses for tests and benches.
//!
//! Public paths: the client ([`http`]) and the replay server ([`replay`]) are modules; every
//! other item is re-exported here from a private module. No item has two paths.
//!
//! Deliberately absent: storage, the pipeline, lifecycle and scheduling (they live with the
//! callers), and facet derivation (`freehire-normalize`).

mod adapters;
mod error;
#[doc(hidden)]
pub mod fuzzing;
pub mod http;
mod identity;
mod import;
mod posting;
mod recognize;
pub mod replay;
mod sanitize;
mod source;

pub use adapters::{provider_keys, sweep_grace, validate_board};
pub use error::{BoxedCause, IngestError, error_chain};
pub use identity::board_identity;
pub use import::{BoardRow, CatalogueRow, parse_board_csv, parse_catalogue_csv};
pub use posting::{BoardListing, RawDate, RawPosting, SeenSet, Unreadable, external_id};
pub use recognize::{BoardMatch, BoardUrl, Recognized, recognize};
pub use sanitize::{
    decode_encoded_html, decode_maybe_encoded_html, sanitize_encoded_html, sanitize_html,
    sanitize_maybe_encoded_html,
};
pub use source::{BoardTarget, Capabilities, Source, SourceConfig, Sources};
