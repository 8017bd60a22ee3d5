//! The start-up assembly the binaries and tests share: a database URL becomes a migrated
//! store (connect, then apply pending migrations: idempotent and cheap).

use std::sync::Arc;

use freehire_store::{DatabaseUrl, Store};

use crate::AppError;

/// Connects to `url` and applies pending migrations.
pub async fn open_store(url: &DatabaseUrl) -> Result<Arc<dyn Store>, AppError> {
    let store = freehire_store::connect(url)
        .await
        .map_err(|source| AppError::Open { url: url.to_string(), source })?;
    store.migrate().await.map_err(AppError::Migrate)?;
    Ok(store)
}
