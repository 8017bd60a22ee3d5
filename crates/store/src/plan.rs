//! The backend-neutral part of a batch write: classifying each posting against what is stored
//! (insert, rewrite, or only bump) and assembling the per-posting results in input order.

use std::collections::HashMap;

use freehire_domain::JobId;

use crate::{
    Refreshed, Result, SeenJob, SeenPosting, StoreError, UpsertOutcome, Upserted,
    bind::Stamp,
    rows::{Batch, JobRow, job_id},
};

/// A stored row of a batch, as the adapter read (and on PostgreSQL, locked) it.
pub(crate) struct Existing {
    pub id: JobId,
    pub hash: String,
    pub closed: bool,
}

/// A stored row of a batch as the lookup statement returns it.
#[derive(sqlx::FromRow)]
pub(crate) struct ExistingRow {
    id: i64,
    source: String,
    external_id: String,
    content_hash: String,
    closed: bool,
}

impl ExistingRow {
    /// The row as an entry of [`Found`].
    pub fn entry(self) -> Result<((String, String), Existing)> {
        let e = Existing { id: job_id(self.id)?, hash: self.content_hash, closed: self.closed };
        Ok(((self.source, self.external_id), e))
    }
}

/// A row of a board's seen set: external id, tech flag, source hash, needs detail.
pub(crate) type SeenRow = (String, Option<bool>, String, bool);

/// A seen-set row as the ingest pipeline reads it.
pub(crate) fn seen_job((external_id, is_tech, source_hash, needs_detail): SeenRow) -> SeenJob {
    SeenJob { external_id, is_tech, source_hash, needs_detail }
}

/// Refuses to make a job a duplicate of itself.
pub(crate) fn not_self_duplicate(id: JobId, canonical: Option<JobId>) -> Result<()> {
    if canonical == Some(id) {
        return Err(StoreError::Invalid(freehire_domain::DomainError::Invalid {
            field: "duplicate_of",
            value: id.to_string(),
            reason: "a job cannot duplicate itself",
        }));
    }
    Ok(())
}

/// Stored rows by `(source, external_id)`.
pub(crate) type Found = HashMap<(String, String), Existing>;

fn lookup<'f>(found: &'f Found, source: &str, external_id: &str) -> Option<&'f Existing> {
    // The map is keyed by owned strings; one short-lived key per lookup is cheap next to IO.
    found.get(&(source.to_owned(), external_id.to_owned()))
}

/// What one batch upsert must do.
pub(crate) struct UpsertPlan<'b, 'a> {
    results: Vec<Option<Upserted>>,
    slots: HashMap<(&'a str, &'a str), usize>,
    /// Rows to insert or rewrite.
    pub to_write: Vec<&'b JobRow<'a>>,
    /// Ids whose only change is `last_seen_at` (and reopening).
    pub bumped: Vec<i64>,
}

impl<'b, 'a> UpsertPlan<'b, 'a> {
    /// Classifies every row of the batch by its stored content hash.
    pub fn new(batch: &'b Batch<'a>, found: &Found) -> Self {
        let mut plan = Self {
            results: vec![None; batch.rows.len()],
            slots: HashMap::new(),
            to_write: Vec::new(),
            bumped: Vec::new(),
        };
        for (i, row) in batch.rows.iter().enumerate() {
            match lookup(found, row.source, row.external_id) {
                Some(e) if e.hash == row.content_hash => {
                    plan.bumped.push(e.id.get());
                    plan.results[i] = Some(Upserted {
                        id: e.id,
                        outcome: UpsertOutcome::Unchanged,
                        reopened: e.closed,
                    });
                }
                other => {
                    plan.slots.insert((row.source, row.external_id), i);
                    plan.to_write.push(row);
                    plan.results[i] = other.map(|e| Upserted {
                        id: e.id,
                        outcome: UpsertOutcome::Changed,
                        reopened: e.closed,
                    });
                }
            }
        }
        plan
    }

    /// Records a row the upsert statement returned.
    pub fn written(&mut self, source: &str, external_id: &str, id: JobId) -> Result<()> {
        let Some(&i) = self.slots.get(&(source, external_id)) else {
            return Err(StoreError::corrupt("jobs", "the upsert returned a key it was not given"));
        };
        self.results[i] = Some(match self.results[i] {
            Some(changed) => Upserted { id, ..changed },
            None => Upserted { id, outcome: UpsertOutcome::Inserted, reopened: false },
        });
        Ok(())
    }

    /// The results in the caller's input order (`slot` maps input → batch row).
    pub fn finish(self, slot: &[usize]) -> Result<Vec<Upserted>> {
        slot.iter()
            .map(|&i| {
                self.results.get(i).copied().flatten().ok_or_else(|| {
                    StoreError::corrupt("jobs", "a posting got no result from the upsert")
                })
            })
            .collect()
    }
}

/// The rows whose search document must be (re)built after an upsert: inserted, changed or
/// reopened ones, each once.
pub(crate) fn index_ids(results: &[Upserted]) -> Vec<i64> {
    let mut ids: Vec<i64> = results
        .iter()
        .filter(|u| u.outcome != UpsertOutcome::Unchanged || u.reopened)
        .map(|u| u.id.get())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// The reopened rows of a refresh or touch.
pub(crate) fn reopened_ids(results: &[Refreshed]) -> Vec<i64> {
    let mut ids: Vec<i64> = results
        .iter()
        .filter_map(|r| match r {
            Refreshed::Reopened(id) => Some(id.get()),
            _ => None,
        })
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// Classifies refresh items: those stored with the same hash are bumped (and reopened).
pub(crate) fn refresh_plan(items: &[SeenPosting], found: &Found) -> (Vec<Refreshed>, Vec<i64>) {
    let mut bumped = Vec::new();
    let out = items
        .iter()
        .map(|item| match lookup(found, item.key.source.as_str(), &item.key.external_id) {
            Some(e) if e.hash == item.content_hash => {
                bumped.push(e.id.get());
                if e.closed { Refreshed::Reopened(e.id) } else { Refreshed::Touched(e.id) }
            }
            _ => Refreshed::Missed,
        })
        .collect();
    (out, bumped)
}

/// The statements of one outbox table in one dialect.
pub(crate) struct OutboxSql {
    /// Queue jobs `$1` at `$2` (a re-enqueue resets the row).
    pub enqueue: &'static str,
    /// Drop the rows of jobs `$1`.
    pub drop_jobs: &'static str,
    pub claim: &'static str,
    pub ack: &'static str,
    /// Renew the lease of row `$2` claimed at `$3` to `$1` (the claim instant stays the
    /// row's version).
    pub renew: &'static str,
    pub fail: &'static str,
    pub depth: &'static str,
    /// Delete the rows queued before `$1`.
    pub purge_before: &'static str,
}

/// Both outboxes' statements in one dialect.
pub(crate) struct Outboxes {
    pub index: OutboxSql,
    pub delete: OutboxSql,
}

impl Outboxes {
    /// The statements of the `kind` outbox.
    pub fn of(&self, kind: crate::OutboxKind) -> &OutboxSql {
        match kind {
            crate::OutboxKind::Index => &self.index,
            crate::OutboxKind::Delete => &self.delete,
        }
    }
}

/// An outbox row a claim returned.
#[derive(sqlx::FromRow)]
pub(crate) struct ClaimedRow {
    id: i64,
    job_id: i64,
    attempts: i32,
    claimed_at: Stamp,
}

impl ClaimedRow {
    /// The claimed items, oldest first.
    pub fn items(rows: Vec<Self>) -> Result<Vec<crate::OutboxItem>> {
        let mut items = rows
            .into_iter()
            .map(|r| {
                Ok(crate::OutboxItem {
                    id: r.id,
                    job_id: JobId::new(r.job_id).map_err(|e| StoreError::corrupt("job_id", e))?,
                    attempts: u32::try_from(r.attempts).unwrap_or(u32::MAX),
                    claimed_at: r.claimed_at.into(),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        items.sort_by_key(|i| i.id);
        Ok(items)
    }
}

/// Longest outbox error kept.
pub(crate) const MAX_OUTBOX_ERROR: usize = 2000;

/// Cuts an error message to `MAX_OUTBOX_ERROR` bytes on a character boundary.
pub(crate) fn cut_error(error: &str) -> &str {
    let mut cut = error.len().min(MAX_OUTBOX_ERROR);
    while !error.is_char_boundary(cut) {
        cut -= 1;
    }
    &error[..cut]
}

/// The exclusive upper bound of the strings starting with `prefix` in byte order (the last
/// character incremented), for index range scans of `<board>:` prefixes. `None` for an empty
/// prefix or one ending in `char::MAX`.
pub(crate) fn prefix_upper_bound(prefix: &str) -> Option<String> {
    let last = prefix.chars().next_back()?;
    let next = char::from_u32(u32::from(last) + 1)?;
    let mut upper = prefix[..prefix.len() - last.len_utf8()].to_owned();
    upper.push(next);
    Some(upper)
}

/// Refresh results for touched keys: found rows are touched (or reopened), the rest missed.
pub(crate) fn touch_plan(keys: &[crate::JobKey], found: &Found) -> (Vec<Refreshed>, Vec<i64>) {
    let mut bumped = Vec::new();
    let out = keys
        .iter()
        .map(|k| match lookup(found, k.source.as_str(), &k.external_id) {
            Some(e) => {
                bumped.push(e.id.get());
                if e.closed { Refreshed::Reopened(e.id) } else { Refreshed::Touched(e.id) }
            }
            None => Refreshed::Missed,
        })
        .collect();
    (out, bumped)
}

/// The `(id, source hash)` pairs a board write stores for its upserted postings, one per row
/// (a posting repeated in the batch keeps its last hash); none when the caller gave no hashes.
pub(crate) fn source_hash_pairs<'h>(
    upserted: &[Upserted],
    hashes: &'h [String],
) -> Result<(Vec<i64>, Vec<&'h str>)> {
    if hashes.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    if hashes.len() != upserted.len() {
        return Err(StoreError::corrupt(
            "source_hashes",
            format!("{} source hashes for {} postings", hashes.len(), upserted.len()),
        ));
    }
    let mut by_id: HashMap<i64, &str> = HashMap::with_capacity(hashes.len());
    for (u, h) in upserted.iter().zip(hashes) {
        by_id.insert(u.id.get(), h.as_str());
    }
    let mut pairs: Vec<(i64, &str)> = by_id.into_iter().collect();
    pairs.sort_unstable();
    Ok(pairs.into_iter().unzip())
}

/// Open rows a touch bumped in one statement, by `(source, external_id)`.
pub(crate) type Bumped = HashMap<(String, String), JobId>;

/// The keys a touch's open-row bump did not reach (closed, missing, or closed since they
/// were read): they go through [`touch_plan`].
pub(crate) fn touch_rest(keys: &[crate::JobKey], bumped: &Bumped) -> Vec<crate::JobKey> {
    keys.iter()
        .filter(|k| !bumped.contains_key(&(k.source.as_str().to_owned(), k.external_id.clone())))
        .cloned()
        .collect()
}

/// Puts a touch's results back in input order: keys the open-row bump reached are
/// [`Refreshed::Touched`], the others take the next result of `rest` (the [`touch_plan`] of
/// [`touch_rest`], in the same order).
pub(crate) fn touch_merge(
    keys: &[crate::JobKey],
    bumped: &Bumped,
    rest: Vec<Refreshed>,
) -> Vec<Refreshed> {
    let mut rest = rest.into_iter();
    keys.iter()
        .map(|k| match bumped.get(&(k.source.as_str().to_owned(), k.external_id.clone())) {
            Some(id) => Refreshed::Touched(*id),
            None => rest.next().unwrap_or(Refreshed::Missed),
        })
        .collect()
}

/// A claim's last sign of life: its last heartbeat, or the claim instant before the first one
/// (and never earlier than the claim).
pub(crate) fn last_beat(
    claimed_at: chrono::DateTime<chrono::Utc>,
    heartbeat_at: Option<chrono::DateTime<chrono::Utc>>,
) -> chrono::DateTime<chrono::Utc> {
    heartbeat_at.unwrap_or(claimed_at).max(claimed_at)
}

/// The holder of a claim as the store reports it.
pub(crate) fn claim_holder(
    worker: String,
    since: chrono::DateTime<chrono::Utc>,
    heartbeat_at: Option<chrono::DateTime<chrono::Utc>>,
) -> crate::ClaimHolder {
    crate::ClaimHolder { worker, since, heartbeat: last_beat(since, heartbeat_at) }
}

/// A provider's run state as the scheduler reads it.
pub(crate) struct RunCandidate {
    pub provider: String,
    pub claimed_at: Option<chrono::DateTime<chrono::Utc>>,
    /// The holder's last heartbeat (`None` for a claim made before heartbeats existed).
    pub heartbeat_at: Option<chrono::DateTime<chrono::Utc>>,
    pub cadence_sec: Option<i64>,
    pub timeout_sec: Option<i64>,
    pub enabled: bool,
}

impl RunCandidate {
    /// Whether another worker holds a live claim at `now`: claimed, and its last heartbeat
    /// (the claim instant before the first one) is younger than the claim expiry.
    pub fn held(
        &self,
        defaults: crate::ScheduleDefaults,
        now: chrono::DateTime<chrono::Utc>,
    ) -> bool {
        let timeout = self.timeout_sec.map_or(defaults.timeout, chrono::Duration::seconds);
        self.claimed_at.is_some_and(|at| last_beat(at, self.heartbeat_at) + timeout > now)
    }

    /// Who holds the live claim at `now` (see [`RunCandidate::held`]), if anyone.
    pub fn holder(
        &self,
        worker: Option<String>,
        defaults: crate::ScheduleDefaults,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Option<crate::ClaimHolder> {
        let since = self.claimed_at.filter(|_| self.held(defaults, now))?;
        Some(claim_holder(worker.unwrap_or_default(), since, self.heartbeat_at))
    }

    /// The provider's cadence: its override, else the slow cadence for a slow provider, else
    /// the default.
    pub fn cadence(&self, defaults: crate::ScheduleDefaults) -> chrono::Duration {
        let default = if defaults.slow.contains(&self.provider.as_str()) {
            defaults.slow_cadence
        } else {
            defaults.cadence
        };
        self.cadence_sec.map_or(default, chrono::Duration::seconds)
    }
}

/// `(last_status, last_error)` columns of a finished run.
pub(crate) fn run_status_columns(status: &crate::RunStatus) -> (&'static str, Option<&str>) {
    match status {
        crate::RunStatus::Ok => ("ok", None),
        crate::RunStatus::Interrupted => ("interrupted", None),
        crate::RunStatus::Failed(e) => ("failed", Some(cut_error(e))),
    }
}

/// `a` and `b` as one sorted list, each id once.
pub(crate) fn union(mut a: Vec<i64>, b: Vec<i64>) -> Vec<i64> {
    a.extend(b);
    a.sort_unstable();
    a.dedup();
    a
}

/// The rows an upsert reopened (closed before this sighting).
pub(crate) fn reopened_upserts(results: &[Upserted]) -> Vec<i64> {
    results.iter().filter(|u| u.reopened).map(|u| u.id.get()).collect()
}

/// The rows an upsert inserted.
pub(crate) fn inserted_ids(results: &[Upserted]) -> Vec<i64> {
    results.iter().filter(|u| u.outcome == UpsertOutcome::Inserted).map(|u| u.id.get()).collect()
}

/// The rows to index once reposts are marked: a marked duplicate is not indexed, its canonical
/// is (its document's cluster geography grew). Each once, sorted.
pub(crate) fn after_reposts(mut ids: Vec<i64>, marked: &[(i64, i64)]) -> Vec<i64> {
    ids.retain(|id| !marked.iter().any(|(dup, _)| dup == id));
    ids.extend(marked.iter().map(|(_, canonical)| *canonical));
    ids.sort_unstable();
    ids.dedup();
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_bounds() {
        assert_eq!(prefix_upper_bound("acme:").as_deref(), Some("acme;"));
        assert_eq!(prefix_upper_bound("é").as_deref(), Some("ê"));
        assert_eq!(prefix_upper_bound(""), None);
    }
}
