//! `freehire reindex`: rebuild the whole search index from the store (embedded: one-step
//! replace; Meilisearch: `<uid>_rebuild` filled, then swapped in), then purge the outbox rows
//! the rebuild made moot.

use std::io::Write;

use anyhow::Context;
use chrono::Utc;
use clap::Args;
use freehire_app::search_engine::{self, Access, SearchEngineArgs};
use freehire_store::Store;

/// Arguments of `freehire reindex`.
#[derive(Debug, Args)]
pub struct ReindexArgs {
    /// The index to rebuild (the same options as the worker's). Stop the worker first: with
    /// the embedded engine it holds the index directory's writer, and with Meilisearch a drain
    /// during the rebuild writes into the index the swap replaces (the reference pauses the
    /// drain while it rebuilds).
    #[command(flatten)]
    search: SearchEngineArgs,
}

/// Rebuilds the index and prints how many documents it holds.
pub async fn run(store: &dyn Store, args: ReindexArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let engine = args.search.config()?;
    let index = search_engine::open_named(&engine, Access::Write).await?;
    let progress = super::progress::CliProgress::new("reindex");
    let stats = freehire_app::reindex::reindex_with(store, index.as_ref(), Utc::now(), &progress)
        .await
        .context("rebuilding the search index")?;
    writeln!(
        out,
        "{engine}: indexed {} documents from {} jobs and {} companies; purged {} outbox rows",
        stats.indexed, stats.scanned, stats.companies, stats.purged
    )?;
    Ok(())
}
