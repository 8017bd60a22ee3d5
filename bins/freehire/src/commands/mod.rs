//! One module per command group.

pub mod auth;
pub mod board;
pub mod boards;
pub mod chat;
pub mod companies;
pub mod cv;
pub mod discover;
pub mod experience;
pub mod filters;
pub mod ingest;
pub mod jobs;
pub mod letters;
pub mod lookup;
pub mod mcp;
pub mod migrate;
pub mod progress;
pub mod reindex;
pub mod remote;
pub mod screening;
pub mod search;
pub mod users;

use std::sync::Arc;

use freehire_store::{DatabaseUrl, Store};

/// Opens the store and applies pending migrations ([`freehire_app::startup::open_store`]).
pub async fn open(url: &DatabaseUrl) -> anyhow::Result<Arc<dyn Store>> {
    Ok(freehire_app::startup::open_store(url).await?)
}
