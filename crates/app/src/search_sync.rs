//! Keeping the search index and the companies table in step with the catalogue: drain the
//! two search outboxes in waves, then recompute the companies the same writes marked stale,
//! then write the changed companies to the companies index (`company_index::sync`). Each claimed job is re-read from the store and indexed when it is indexable (open,
//! not a duplicate, with a visible description) or removed otherwise, so the order in which
//! the two outboxes are drained cannot leave a closed job searchable. A failed wave is retried
//! item by item; an item that still fails is released with its error for a later attempt.
//!
//! A wave's lease ([`ClaimOptions::lease`], 60 s) is renewed every third of it while the wave
//! is being indexed, so a slow engine keeps its rows and a killed drain's rows are claimable
//! again about a minute after its last renewal.
//!
//! Exactly one process writes the embedded index: the holder of the writer lease in the
//! database ([`DrainTarget`]); the others leave the drain to it and take it over when its
//! lease expires (three missed heartbeats). With Meilisearch every worker drains.

use std::sync::Arc;
use std::time::Instant;

use chrono::{DateTime, Utc};
use freehire_domain::{Job, JobId};
use freehire_search::{SearchDocument, SearchIndex, indexable};
use freehire_store::{ClaimOptions, OutboxItem, OutboxKind, Store};

use crate::AppError;
use crate::search_engine::{self, Access, SearchEngineConfig};

/// Where a process drains the search outboxes.
pub struct DrainTarget {
    kind: TargetKind,
    slot: tokio::sync::Mutex<Option<Arc<dyn SearchIndex>>>,
}

enum TargetKind {
    /// An index every process may write (Meilisearch).
    Shared(Arc<dyn SearchIndex>),
    /// The embedded index: written only under the writer lease.
    Leased { engine: SearchEngineConfig, holder: String, expiry: chrono::Duration },
}

impl DrainTarget {
    /// An index every process may write at once (Meilisearch), or any index in a test.
    pub fn shared(index: Arc<dyn SearchIndex>) -> Self {
        Self { kind: TargetKind::Shared(index), slot: tokio::sync::Mutex::new(None) }
    }

    /// The target for `engine`: Meilisearch is opened for writing now (every worker drains);
    /// the embedded index is opened only once `holder` holds the writer lease, whose holder
    /// is dead `expiry` after its last renewal.
    pub async fn open(
        engine: &SearchEngineConfig,
        holder: &str,
        expiry: chrono::Duration,
    ) -> Result<Self, AppError> {
        Ok(match engine {
            SearchEngineConfig::Meilisearch(_) => {
                Self::shared(search_engine::open_named(engine, Access::Write).await?)
            }
            SearchEngineConfig::Embedded { .. } => Self {
                kind: TargetKind::Leased {
                    engine: engine.clone(),
                    holder: holder.to_owned(),
                    expiry,
                },
                slot: tokio::sync::Mutex::new(None),
            },
        })
    }

    /// Whether the target is written under the writer lease (the embedded index).
    pub fn leased(&self) -> bool {
        matches!(self.kind, TargetKind::Leased { .. })
    }

    /// Takes or renews the writer lease and returns the index to drain into now; `None` when
    /// another process holds the lease (its writer is closed here if this process lost it) or
    /// the index writer cannot be opened yet (the previous holder may still hold its lock).
    pub async fn acquire(
        &self,
        store: &dyn Store,
        now: DateTime<Utc>,
    ) -> Option<Arc<dyn SearchIndex>> {
        let (engine, holder, expiry) = match &self.kind {
            TargetKind::Shared(index) => return Some(Arc::clone(index)),
            TargetKind::Leased { engine, holder, expiry } => (engine, holder, *expiry),
        };
        let mut slot = self.slot.lock().await;
        match store.hold_writer_lease(holder, expiry, now).await {
            Ok(true) if slot.is_none() => match search_engine::open(engine, Access::Write).await {
                Ok(index) => {
                    tracing::info!(worker = %holder, "holding the embedded index's writer lease: this worker drains the search outboxes");
                    *slot = Some(index);
                }
                Err(e) => {
                    tracing::warn!(error = %e, worker = %holder, "holding the writer lease but the index writer is still locked; retrying");
                }
            },
            Ok(true) => {}
            Ok(false) => {
                if slot.take().is_some() {
                    tracing::warn!(worker = %holder, "lost the embedded index's writer lease; closed the index writer");
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot renew the writer lease");
                return None;
            }
        }
        slot.clone()
    }

    /// Closes the index writer and gives the writer lease up (a clean shutdown), so another
    /// process takes the drain over at once.
    pub async fn release(&self, store: &dyn Store) {
        if let TargetKind::Leased { holder, .. } = &self.kind {
            let had = self.slot.lock().await.take().is_some();
            if had && let Err(e) = store.release_writer_lease(holder).await {
                tracing::warn!(error = %e, "cannot release the writer lease; it expires on its own");
            }
        }
    }
}

/// Runs `work` on a claimed wave, renewing the wave's lease every third of it meanwhile
/// (`now` advanced by the time spent since `started`).
async fn renewing<T>(
    store: &dyn Store,
    kind: OutboxKind,
    items: &[OutboxItem],
    options: ClaimOptions,
    (now, started): (DateTime<Utc>, Instant),
    work: impl std::future::Future<Output = T>,
) -> T {
    let every =
        (options.lease / 3).to_std().unwrap_or_default().max(std::time::Duration::from_millis(10));
    tokio::pin!(work);
    let mut beat = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    loop {
        tokio::select! {
            out = &mut work => return out,
            _ = beat.tick() => {
                let at = now + chrono::Duration::from_std(started.elapsed()).unwrap_or_default();
                if let Err(e) = store.renew_outbox(kind, items, at).await {
                    tracing::warn!(error = %e, "cannot renew the search wave's lease");
                }
            }
        }
    }
}

/// What one drain did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DrainStats {
    /// Documents written.
    pub indexed: u64,
    /// Documents removed.
    pub removed: u64,
    /// Outbox rows released with an error.
    pub failed: u64,
    /// Companies recomputed into (or deleted from) the companies table.
    pub companies: u64,
    /// Companies written to (or removed from) the companies index.
    pub companies_indexed: u64,
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

/// Stale-company marks one refresh round reads.
const COMPANY_BATCH: u32 = 5_000;

/// Drains both outboxes until they are empty (or only hold rows that keep failing), then
/// refreshes every stale company of the companies table.
pub async fn drain(
    store: &dyn Store,
    index: &dyn SearchIndex,
    options: ClaimOptions,
    now: DateTime<Utc>,
) -> Result<DrainStats, AppError> {
    let mut stats = DrainStats::default();
    let started = Instant::now();
    for kind in [OutboxKind::Index, OutboxKind::Delete] {
        loop {
            let items = store.claim_outbox(kind, options, now).await?;
            if items.is_empty() {
                break;
            }
            let wave =
                async { Ok::<_, AppError>(apply(index, changes(store, &items, now).await?).await) };
            match renewing(store, kind, &items, options, (now, started), wave).await? {
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
    // The companies table follows the same writes (marked stale by trigger).
    loop {
        let refresh = store.refresh_companies(COMPANY_BATCH, now).await?;
        if refresh.is_empty() {
            break;
        }
        stats.companies += (refresh.refreshed.len() + refresh.removed.len()) as u64;
    }
    // And the companies index follows the table (every row write marked it, by trigger).
    match crate::company_index::sync(store, index).await {
        Ok(synced) => stats.companies_indexed += synced.written + synced.removed,
        Err(e) => {
            tracing::warn!(error = %format!("{e:#}"), "companies index sync failed; retrying at the next drain");
        }
    }
    if stats != DrainStats::default() {
        tracing::info!(
            indexed = stats.indexed,
            removed = stats.removed,
            failed = stats.failed,
            companies = stats.companies,
            companies_indexed = stats.companies_indexed,
            "search index synced"
        );
    }
    Ok(stats)
}
