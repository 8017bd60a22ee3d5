//! Re-deriving the facets of stored jobs after a dictionary change: every job (open or
//! closed) is re-derived from its text and its stored structured values; changed ones are
//! rewritten in batches and queued for re-indexing.

use chrono::{DateTime, Utc};
use freehire_store::{DerivedUpdate, Store};

use crate::AppError;

/// What a re-derivation did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RederiveStats {
    /// Jobs read.
    pub scanned: u64,
    /// Jobs whose facets or role fingerprint changed (rewritten and queued).
    pub changed: u64,
}

/// Re-derives every stored job, `batch` jobs per read and write.
pub async fn rederive_all(
    store: &dyn Store,
    batch: u32,
    at: DateTime<Utc>,
) -> Result<RederiveStats, AppError> {
    rederive_all_with(store, batch, at, &crate::progress::Silent).await
}

/// [`rederive_all`], telling `progress` of the jobs read (the total is not known up front).
pub async fn rederive_all_with(
    store: &dyn Store,
    batch: u32,
    at: DateTime<Utc>,
    progress: &dyn crate::progress::Progress,
) -> Result<RederiveStats, AppError> {
    let _phase = crate::progress::Phase::begin(progress, "jobs", None);
    let mut stats = RederiveStats::default();
    let mut after = None;
    loop {
        let jobs = store.jobs_after(after, batch).await?;
        let Some(last) = jobs.last() else { break };
        after = Some(last.id);
        stats.scanned += jobs.len() as u64;
        let updates: Vec<DerivedUpdate> = jobs
            .iter()
            .filter_map(|job| {
                let r = freehire_normalize::rederive(&job.posting, &job.posting.structured);
                let mut posting = job.posting.clone();
                posting.facets = r.facets;
                posting.facets.canonicalize();
                posting.role_fingerprint = r.role_fingerprint;
                let same = posting.facets == job.posting.facets
                    && posting.role_fingerprint == job.posting.role_fingerprint;
                (!same).then(|| DerivedUpdate {
                    id: job.id,
                    content_hash: posting.content_hash(),
                    facets: posting.facets,
                    role_fingerprint: posting.role_fingerprint,
                })
            })
            .collect();
        stats.changed += store.rewrite_derived(&updates, at).await?;
        progress.advance(jobs.len() as u64);
        tracing::info!(scanned = stats.scanned, changed = stats.changed, "re-deriving facets");
    }
    Ok(stats)
}
