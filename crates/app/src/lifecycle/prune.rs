//! The prune (reference §3.9 `cmd/prune`): jobs closed more than a given age ago are
//! hard-deleted into `pruned_jobs`, in batches, a dry run unless applied. Applications keep
//! their company, role and snapshot; the search index dropped the jobs when they closed.

use chrono::{DateTime, Duration, Utc};
use freehire_store::{PrunedJob, Store};

use crate::AppError;

/// The default age: jobs closed more than 90 days ago.
pub const DEFAULT_AGE: Duration = Duration::days(90);
/// Jobs deleted per transaction.
pub const BATCH: u32 = 500;

/// Which jobs a prune takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PruneRule {
    /// Jobs closed longer ago than this.
    pub closed_for: Duration,
    /// At most this many jobs (all of them when `None`).
    pub limit: Option<u64>,
    /// Delete them; otherwise only list them.
    pub apply: bool,
}

impl Default for PruneRule {
    fn default() -> Self {
        Self { closed_for: DEFAULT_AGE, limit: None, apply: false }
    }
}

impl PruneRule {
    /// The rule's name as archived (`closed_90d`).
    pub fn name(&self) -> String {
        format!("closed_{}d", self.closed_for.num_days())
    }
}

/// Prunes (or, without `apply`, lists) the jobs `rule` takes at `now`, in batches of
/// [`BATCH`].
pub async fn prune(
    store: &dyn Store,
    rule: &PruneRule,
    now: DateTime<Utc>,
) -> Result<Vec<PrunedJob>, AppError> {
    let cutoff = now - rule.closed_for;
    let name = rule.name();
    let mut done: Vec<PrunedJob> = Vec::new();
    if !rule.apply {
        // A dry run changes nothing: one read lists them all (up to the limit).
        let limit = u32::try_from(rule.limit.unwrap_or(u64::from(u32::MAX))).unwrap_or(u32::MAX);
        return Ok(store.prune_closed(cutoff, &name, limit, false, now).await?);
    }
    loop {
        let left = rule.limit.map_or(u64::from(BATCH), |l| l.saturating_sub(done.len() as u64));
        let batch = u32::try_from(left.min(u64::from(BATCH))).unwrap_or(BATCH);
        if batch == 0 {
            break;
        }
        let found = store.prune_closed(cutoff, &name, batch, rule.apply, now).await?;
        let last = found.len() < batch as usize;
        done.extend(found);
        if last {
            break;
        }
    }
    Ok(done)
}
