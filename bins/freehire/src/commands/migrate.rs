//! `freehire migrate`.

use freehire_store::{DatabaseUrl, Store};

/// Migrations were applied when the store was opened; this reports it.
pub async fn run(store: &dyn Store, url: &DatabaseUrl) -> anyhow::Result<()> {
    store.ping().await?;
    println!("{url}: schema is up to date");
    Ok(())
}
