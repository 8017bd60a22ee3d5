//! One module per command group.

pub mod boards;
pub mod ingest;
pub mod jobs;
pub mod migrate;
pub mod reindex;
pub mod search;

use std::sync::Arc;

use anyhow::Context;
use freehire_store::{DatabaseUrl, Store};

/// Opens the store and applies pending migrations (idempotent and cheap).
pub async fn open(url: &DatabaseUrl) -> anyhow::Result<Arc<dyn Store>> {
    let store = freehire_store::connect(url).await.with_context(|| format!("opening {url}"))?;
    store.migrate().await.context("applying migrations")?;
    Ok(store)
}
