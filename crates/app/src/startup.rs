//! The start-up assembly the binaries and tests share: configuration → connect → migrate →
//! (search engine) → services. [`open`] checks the engine choice first (a bad one fails before
//! any connection), then connects and applies pending migrations (idempotent and cheap); the
//! [`Services`] it returns open the search index for writing (the worker, `freehire reindex`:
//! a failure is fatal) or for reading (the API: a failure turns search off, answered 503).
//! The API's state is built from them by `freehire_api::AppState::open`.

use std::sync::Arc;

use freehire_search::SearchIndex;
use freehire_store::{DatabaseUrl, PoolSizes, Store};

use crate::AppError;
use crate::search_engine::{self, Access, SearchEngineArgs, SearchEngineConfig};

/// What a process runs on: the migrated store and the checked engine choice.
#[derive(Clone)]
pub struct Services {
    /// The connected, migrated store.
    pub store: Arc<dyn Store>,
    /// The search engine the configuration names (not opened yet).
    pub engine: SearchEngineConfig,
}

/// Checks the engine choice, connects to `url` and applies pending migrations.
pub async fn open(url: &DatabaseUrl, search: &SearchEngineArgs) -> Result<Services, AppError> {
    let engine = search.config()?;
    let store = open_store(url).await?;
    Ok(Services { store, engine })
}

/// Connects to `url` (a PostgreSQL store's pools sized by `FREEHIRE_DATABASE_POOL_SIZE`,
/// `FREEHIRE_DATABASE_COORDINATION_POOL_SIZE` and `FREEHIRE_DATABASE_TRANSCRIPT_POOL_SIZE`,
/// [`PoolSizes::from_lookup`]) and applies
/// pending migrations.
pub async fn open_store(url: &DatabaseUrl) -> Result<Arc<dyn Store>, AppError> {
    let sizes = PoolSizes::from_lookup(|name| std::env::var(name).ok());
    let store = freehire_store::connect_sized(url, sizes)
        .await
        .map_err(|source| AppError::Open { url: url.to_string(), source })?;
    store.migrate().await.map_err(AppError::Migrate)?;
    Ok(store)
}

impl Services {
    /// The search index opened for writing; a failure names the engine.
    pub async fn writer(&self) -> Result<Arc<dyn SearchIndex>, AppError> {
        search_engine::open_named(&self.engine, Access::Write).await
    }

    /// The search index opened for reading, or `None` (logged as a warning) when it cannot be
    /// opened: the API then answers search with 503.
    pub async fn reader(&self) -> Option<Arc<dyn SearchIndex>> {
        match search_engine::open(&self.engine, Access::Read).await {
            Ok(index) => Some(index),
            Err(e) => {
                tracing::warn!(error = %e, engine = %self.engine, "search is off: cannot open the index");
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[tokio::test]
    async fn services_open_a_migrated_store_and_the_index_for_writing_then_reading() {
        let dir = tempfile::tempdir().unwrap();
        let url: DatabaseUrl =
            format!("sqlite://{}", dir.path().join("freehire.db").display()).parse().unwrap();
        let search =
            SearchEngineArgs { index_dir: dir.path().join("index"), ..SearchEngineArgs::default() };
        let services = open(&url, &search).await.unwrap();
        assert_eq!(
            services.store.list_boards(&Default::default()).await.unwrap().len(),
            0,
            "migrated"
        );
        let writer = services.writer().await.unwrap();
        writer.upsert(Vec::new()).await.unwrap();
        assert!(services.reader().await.is_some());
    }

    #[tokio::test]
    async fn a_bad_engine_choice_fails_before_connecting() {
        let search = SearchEngineArgs {
            search_engine: search_engine::EngineKind::Meilisearch,
            ..SearchEngineArgs::default()
        };
        // Nothing listens there: the engine check must fail first.
        let url: DatabaseUrl = "postgres://nobody@127.0.0.1:1/none".parse().unwrap();
        let e = open(&url, &search).await.err().unwrap();
        assert!(matches!(e, AppError::Config(_)), "{e}");
    }
}
