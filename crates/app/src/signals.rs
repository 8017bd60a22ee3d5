//! Reality signals served with jobs and hits (reference search-ingest §5.10): the pure
//! classification ([`freehire_domain::reality`]) fed from the store's role history (one read
//! for a page of jobs) and the posting's wording ([`freehire_normalize::evergreen_text`]).
//! Time-dependent, so computed when served, never stored. The ghost signal of a job reads its
//! reality, its applications' silence clocks and its live reports.

use std::collections::HashMap;

use chrono::{DateTime, TimeZone, Utc};
use freehire_domain::ghost::{Ghost, GhostEvidence, ghost};
use freehire_domain::reality::{Reality, RealityInputs, classify};
use freehire_domain::{Job, JobId, RealityClass, SilenceState, silence};
use freehire_search::SearchDocument;
use freehire_store::{RoleHistory, Store};

use crate::AppError;

/// The role histories of `ids`, by job (one store read).
async fn histories(
    store: &dyn Store,
    ids: &[JobId],
) -> Result<HashMap<JobId, RoleHistory>, AppError> {
    Ok(store.role_history(ids).await?.into_iter().map(|h| (h.id, h)).collect())
}

/// The counts of a job without a role history (no fingerprint): itself alone.
fn alone(open: bool) -> (u32, u32) {
    (1, u32::from(open))
}

/// The reality of each of `jobs` at `now`, in order.
pub async fn of_jobs(
    store: &dyn Store,
    jobs: &[Job],
    now: DateTime<Utc>,
) -> Result<Vec<Reality>, AppError> {
    let ids: Vec<JobId> = jobs.iter().map(|j| j.id).collect();
    let known = histories(store, &ids).await?;
    Ok(jobs
        .iter()
        .map(|job| {
            let (repost_count, mass_posting_count) =
                known.get(&job.id).map_or_else(|| alone(job.is_open()), |h| (h.postings, h.open));
            let inputs = RealityInputs {
                created_at: job.created_at,
                source_posted_at: job.posting.posted_at,
                repost_count,
                mass_posting_count,
                evergreen_text: freehire_normalize::evergreen_text(
                    &job.posting.title,
                    &job.posting.description,
                ),
            };
            classify(&inputs, now)
        })
        .collect())
}

/// The reality of each indexed document at `now`, in order: the document's first-seen date,
/// its indexed title and text, and the store's role history (hits are open jobs; a document
/// whose job the store lost counts itself alone). The source's own date is not indexed, so
/// hits never claim fake freshness; the job's detail does.
pub async fn of_hits(
    store: &dyn Store,
    docs: &[SearchDocument],
    now: DateTime<Utc>,
) -> Result<Vec<Reality>, AppError> {
    let ids: Vec<JobId> = docs.iter().filter_map(|d| JobId::new(d.id).ok()).collect();
    let known = histories(store, &ids).await?;
    Ok(docs
        .iter()
        .map(|doc| {
            let history = JobId::new(doc.id).ok().and_then(|id| known.get(&id));
            let (repost_count, mass_posting_count) =
                history.map_or_else(|| alone(true), |h| (h.postings, h.open));
            let inputs = RealityInputs {
                created_at: Utc.timestamp_opt(doc.created_ts, 0).single().unwrap_or(now),
                source_posted_at: None,
                repost_count,
                mass_posting_count,
                evergreen_text: freehire_normalize::evergreen_text(&doc.title, &doc.description),
            };
            classify(&inputs, now)
        })
        .collect())
}

/// The ghost signal of `job` at `now` given its `reality`: `None` when it is closed.
pub async fn ghost_of(
    store: &dyn Store,
    job: &Job,
    reality: &Reality,
    now: DateTime<Utc>,
) -> Result<Option<Ghost>, AppError> {
    if !job.is_open() {
        return Ok(None);
    }
    let inputs = store.ghost_inputs(job.id).await?;
    let evidence = GhostEvidence {
        evergreen: reality.class == RealityClass::LikelyEvergreen,
        // No aggregator source is read, so no posting is cross-checked against its board.
        ats_absent_at: None,
        silent_applicants: inputs
            .applications
            .iter()
            .filter(|a| {
                silence(a.stage, Some(a.applied_at), now)
                    .is_some_and(|s| s.state == SilenceState::Silent)
            })
            .map(|a| a.user)
            .collect(),
        reporters: inputs.reporters.into_iter().collect(),
    };
    Ok(ghost(&evidence, job.is_open()))
}
