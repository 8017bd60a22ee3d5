//! Keeping the search index in step with the catalogue: drain the two search outboxes in
//! waves. Each claimed job is re-read from the store and indexed when it is indexable (open,
//! not a duplicate, with a visible description) or removed otherwise, so the order in which
//! the two outboxes are drained cannot leave a closed job searchable. A failed wave is retried
//! item by item; an item that still fails is released with its error for a later attempt.

use chrono::{DateTime, Utc};
use freehire_domain::{Job, JobId};
use freehire_search::{SearchDocument, SearchIndex, indexable};
use freehire_store::{ClaimOptions, OutboxItem, OutboxKind, Store};

use crate::AppError;

/// What one drain did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DrainStats {
    /// Documents written.
    pub indexed: u64,
    /// Documents removed.
    pub removed: u64,
    /// Outbox rows released with an error.
    pub failed: u64,
}

/// A job's target state in the index.
enum Change {
    Put(Box<SearchDocument>),
    Remove(i64),
}

async fn apply(index: &dyn SearchIndex, changes: Vec<Change>) -> Result<(u64, u64), String> {
    let mut docs = Vec::new();
    let mut gone = Vec::new();
    for change in changes {
        match change {
            Change::Put(doc) => docs.push(*doc),
            Change::Remove(id) => gone.push(id),
        }
    }
    let (indexed, removed) = (docs.len() as u64, gone.len() as u64);
    if !docs.is_empty() {
        index.upsert(docs).await.map_err(|e| e.to_string())?;
    }
    if !gone.is_empty() {
        index.delete(&gone).await.map_err(|e| e.to_string())?;
    }
    Ok((indexed, removed))
}

/// The search documents of indexable `jobs`, each with its role cluster's geography (the
/// open duplicates' countries, regions and cities; reference §3.10).
pub async fn documents(
    store: &dyn Store,
    jobs: &[&Job],
    now: DateTime<Utc>,
) -> Result<Vec<SearchDocument>, AppError> {
    let ids: Vec<JobId> = jobs.iter().map(|j| j.id).collect();
    let duplicates = store.open_duplicates_of(&ids).await?;
    Ok(jobs
        .iter()
        .map(|job| {
            let mut doc = SearchDocument::from_job(job, now);
            doc.merge_cluster_geography(
                duplicates.iter().filter(|d| d.duplicate_of == Some(job.id)),
            );
            doc
        })
        .collect())
}

async fn changes(
    store: &dyn Store,
    items: &[OutboxItem],
    now: DateTime<Utc>,
) -> Result<Vec<Change>, AppError> {
    let ids: Vec<JobId> = items.iter().map(|i| i.job_id).collect();
    let jobs = store.jobs_by_ids(&ids).await?;
    let live: Vec<&Job> = jobs.iter().filter(|j| indexable(j)).collect();
    let mut docs: std::collections::HashMap<i64, SearchDocument> =
        documents(store, &live, now).await?.into_iter().map(|d| (d.id, d)).collect();
    Ok(ids
        .iter()
        .map(|id| match docs.remove(&id.get()) {
            Some(doc) => Change::Put(Box::new(doc)),
            None => Change::Remove(id.get()),
        })
        .collect())
}

/// Drains both outboxes until they are empty (or only hold rows that keep failing).
pub async fn drain(
    store: &dyn Store,
    index: &dyn SearchIndex,
    options: ClaimOptions,
    now: DateTime<Utc>,
) -> Result<DrainStats, AppError> {
    let mut stats = DrainStats::default();
    for kind in [OutboxKind::Index, OutboxKind::Delete] {
        loop {
            let items = store.claim_outbox(kind, options, now).await?;
            if items.is_empty() {
                break;
            }
            match apply(index, changes(store, &items, now).await?).await {
                Ok((indexed, removed)) => {
                    stats.indexed += indexed;
                    stats.removed += removed;
                    store.ack_outbox(kind, &items).await?;
                }
                Err(wave_error) => {
                    tracing::warn!(error = %wave_error, rows = items.len(), "search wave failed; retrying one by one");
                    for item in &items {
                        let one = std::slice::from_ref(item);
                        match apply(index, changes(store, one, now).await?).await {
                            Ok((indexed, removed)) => {
                                stats.indexed += indexed;
                                stats.removed += removed;
                                store.ack_outbox(kind, one).await?;
                            }
                            Err(e) => {
                                stats.failed += 1;
                                store.fail_outbox(kind, item, &e, now).await?;
                            }
                        }
                    }
                }
            }
        }
    }
    if stats != DrainStats::default() {
        tracing::info!(
            indexed = stats.indexed,
            removed = stats.removed,
            failed = stats.failed,
            "search index synced"
        );
    }
    Ok(stats)
}
