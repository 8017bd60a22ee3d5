//! The match step (reference §8.2 MATCH, issue 14 item 7): instead of one search per
//! subscription, every active subscription's parsed query is filed once in a
//! [`Percolator`] (identical canonical queries grouped, each filed under its most selective
//! required value) and each batch of new jobs is evaluated against all of them in memory.
//!
//! The jobs are those after the `notify` cursor (by id), made into search documents exactly as
//! indexing makes them ([`search_sync::documents`](crate::search_sync::documents): indexable
//! jobs only, with their role cluster's geography), so a subscription matches what its saved
//! search would find. A subscription whose query does not parse or does not narrow is never
//! matched, and no job created before its `start_at` is. The matches and the cursor's move
//! are one transaction, compare-and-set on the cursor: two workers on one batch record it
//! once. The cursor never passes the store's insert horizon
//! ([`NotifyRepo::insert_horizon`](freehire_store::NotifyRepo::insert_horizon)): on
//! PostgreSQL, writers commit out of id order, and a job with a lower id than one already
//! matched could otherwise become visible behind the cursor and never be matched.
//!
//! Not yet applied: the subscriber's avoided skills as a post-filter (reference §8.2): there
//! is no profile data to take them from. When profiles exist, filter `found` here.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use freehire_domain::{Job, JobId, SubscriptionId};
use freehire_search::{Endpoint, JobQuery, Percolator, indexable};

use super::{CURSOR, Notifier};
use crate::{AppError, search_sync};

/// Most batches one pass percolates.
const MAX_ROUNDS: u32 = 1000;

impl Notifier {
    /// Percolates the jobs after the cursor; returns `(jobs read, matches recorded)`.
    pub async fn match_new_jobs(&self, now: DateTime<Utc>) -> Result<(u64, u64), AppError> {
        let subscribers = self.store.subscribers().await?;
        let start_at: HashMap<SubscriptionId, DateTime<Utc>> =
            subscribers.iter().map(|s| (s.subscription, s.start_at)).collect();
        let queries = subscribers.iter().filter_map(|s| {
            let query = JobQuery::from_query_str(&s.query, Endpoint::Search).ok()?;
            query.narrows().then_some((s.subscription, query))
        });
        let percolator = Percolator::new(queries, now);
        let (mut read, mut recorded) = (0_u64, 0_u64);
        // Only up to the insert horizon: a job with a lower id still being written by another
        // process would otherwise be passed by the cursor before it is visible.
        let Some(horizon) = self.store.insert_horizon().await? else { return Ok((0, 0)) };
        for _ in 0..MAX_ROUNDS {
            let from = self.store.engine_cursor(CURSOR).await?;
            if from >= horizon.get() {
                break;
            }
            let after = JobId::new(from).ok();
            let mut batch = self.store.jobs_after(after, self.config.match_batch).await?;
            batch.retain(|j| j.id <= horizon);
            let Some(last) = batch.last() else { break };
            let to = last.id.get();
            let live: Vec<&Job> = batch.iter().filter(|j| indexable(j)).collect();
            let found: Vec<(SubscriptionId, JobId)> = if percolator.is_empty() || live.is_empty() {
                Vec::new()
            } else {
                let docs = search_sync::documents(self.store.as_ref(), &live, now).await?;
                percolator
                    .matches(&docs)
                    .into_iter()
                    .filter_map(|(sub, i)| {
                        let job = live.get(i)?;
                        let start = start_at.get(&sub)?;
                        (job.created_at >= *start).then_some((sub, job.id))
                    })
                    .collect()
            };
            if self.store.record_matches(CURSOR, from, to, &found, now).await? {
                read += u64::try_from(batch.len()).unwrap_or_default();
                recorded += u64::try_from(found.len()).unwrap_or_default();
            }
        }
        Ok((read, recorded))
    }
}
