//! # freehire-app
//!
//! Application services that the binaries share, above storage and the source side:
//!
//! - [`ingest`]: one provider run (the pipeline: fetch each board, normalise every posting,
//!   write it with its search-outbox row in one transaction per board, record board health),
//!   the lifecycle that closes what fully listed boards no longer list, and the scheduler loop
//!   the worker runs;
//! - [`boards`]: adding boards from careers URLs and importing them from CSV files;
//! - [`rederive`]: re-deriving stored jobs' facets after a dictionary change;
//! - [`search`]: the command line's search, flags turned into the HTTP search grammar;
//! - [`search_sync`]: draining the search outboxes into a [`freehire_search::SearchIndex`];
//! - [`reindex`]: rebuilding the whole search index from the store (`freehire reindex`);
//! - [`search_engine`]: choosing the engine (embedded or Meilisearch) by configuration and
//!   opening it for reading or writing;
//! - [`process`]: logging set-up and the shutdown signal the servers share.
//!
//! Time, storage and the network come in as parameters (`&dyn Store`, a
//! [`freehire_ingest::Sources`], a clock), so every service runs in tests against real
//! databases and a local replay server.

pub mod boards;
mod error;
pub mod ingest;
pub mod process;
pub mod rederive;
pub mod reindex;
pub mod search;
pub mod search_engine;
pub mod search_sync;

pub use error::AppError;
