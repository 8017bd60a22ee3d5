//! `freehire reindex`: rebuild the whole search index from the store (reference §5.11.3),
//! the companies index too (`company_index::rebuild`).
//!
//! Every job is read in id order (`jobs_after`); the indexable ones (open, not a duplicate,
//! with a visible description) become documents carrying their role cluster's geography, and [`SearchIndex::rebuild`] replaces the
//! index's content in one step (the embedded engine in one commit; Meilisearch fills
//! `<uid>_rebuild` and swaps it in). Then the `search_outbox` rows queued before the run
//! started are purged: the rebuild read the catalogue after them. Rows queued during the run
//! stay for the drain, so a change made while the rebuild ran is not lost, provided no drain
//! runs meanwhile: a drain acknowledges what it wrote into the index the swap then replaces
//! (the reference pauses the drain during a rebuild; here the operator stops the worker).

use chrono::{DateTime, Utc};
use freehire_domain::{Job, JobId};
use freehire_search::{SearchIndex, indexable};
use freehire_store::{OutboxKind, Store};

use crate::AppError;

/// Jobs read per store call.
const PAGE: u32 = 1_000;

/// What a reindex did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReindexStats {
    /// Jobs read from the store (open or closed).
    pub scanned: u64,
    /// Documents in the rebuilt index.
    pub indexed: u64,
    /// `search_outbox` rows purged (queued before the run).
    pub purged: u64,
    /// Companies in the rebuilt companies index.
    pub companies: u64,
}

/// Rebuilds `index` from every indexable job of `store`. `started` is the instant the run
/// began (the purge cut) and anchors the documents' effective posted dates.
pub async fn reindex(
    store: &dyn Store,
    index: &dyn SearchIndex,
    started: DateTime<Utc>,
) -> Result<ReindexStats, AppError> {
    reindex_with(store, index, started, &crate::progress::Silent).await
}

/// [`reindex`], telling `progress` of the jobs read (the total is not known up front).
pub async fn reindex_with(
    store: &dyn Store,
    index: &dyn SearchIndex,
    started: DateTime<Utc>,
    progress: &dyn crate::progress::Progress,
) -> Result<ReindexStats, AppError> {
    let phase = crate::progress::Phase::begin(progress, "jobs", None);
    let mut stats = ReindexStats::default();
    let mut docs = Vec::new();
    let mut after: Option<JobId> = None;
    loop {
        let page = store.jobs_after(after, PAGE).await?;
        let Some(last) = page.last() else { break };
        after = Some(last.id);
        stats.scanned += page.len() as u64;
        progress.advance(page.len() as u64);
        let live: Vec<&Job> = page.iter().filter(|j| indexable(j)).collect();
        docs.extend(crate::search_sync::documents(store, &live, started).await?);
        if page.len() < PAGE as usize {
            break;
        }
    }
    stats.indexed = docs.len() as u64;
    drop(phase);
    index.rebuild(docs).await?;
    stats.purged = store.purge_outbox_before(OutboxKind::Index, started).await?;
    stats.companies = crate::company_index::rebuild(store, index, started).await?;
    tracing::info!(
        scanned = stats.scanned,
        indexed = stats.indexed,
        purged = stats.purged,
        companies = stats.companies,
        "search index rebuilt"
    );
    Ok(stats)
}
