//! The backend-neutral part of a batch write: classifying each posting against what is stored
//! (insert, rewrite, or only bump) and assembling the per-posting results in input order.

use std::collections::HashMap;

use freehire_domain::JobId;

use crate::{
    Refreshed, Result, SeenPosting, StoreError, UpsertOutcome, Upserted,
    rows::{Batch, JobRow},
};

/// A stored row of a batch, as the adapter read (and on PostgreSQL, locked) it.
pub(crate) struct Existing {
    pub id: JobId,
    pub hash: String,
    pub closed: bool,
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
