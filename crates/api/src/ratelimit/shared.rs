//! [`SharedLimits`]: the public reads' buckets kept in the database
//! ([`freehire_store::RateCellRepo`]), so every API process on one PostgreSQL database counts
//! a caller together. The same GCRA as the in-process limiter, with the same quotas and the
//! same headers; each check is one statement on the coordination pool. A check the database
//! cannot answer passes uncounted and without headers (the limiter fails open).
//!
//! Memory stays bounded in the database: every [`SWEEP_EVERY`] checks a process deletes, in
//! the background, the cells whose bucket is full again (they read exactly like a new
//! subject).

use std::sync::{
    Arc,
    atomic::{AtomicU32, Ordering},
};

use freehire_store::Store;
use freehire_store::rates::{RateQuota, RateTake};

use super::limiter::subject_bytes;
use super::{Bucket, Limited, Quota, RateInfo, RateLimitConfig, Subject};

/// Checks of one process between two background sweeps of the cells that are full again.
pub const SWEEP_EVERY: u32 = 4096;

/// The shared buckets of one configuration, cheap to clone.
#[derive(Clone)]
pub struct SharedLimits {
    store: Arc<dyn Store>,
    quotas: [Quota; Bucket::ALL.len()],
    checks: Arc<AtomicU32>,
}

impl SharedLimits {
    /// The buckets `config` describes, kept in `store`; `None` when the limits are off.
    pub fn new(store: Arc<dyn Store>, config: &RateLimitConfig) -> Option<Self> {
        config.is_enabled().then(|| Self {
            store,
            quotas: Bucket::ALL.map(|b| config.quota(b)),
            checks: Arc::default(),
        })
    }

    /// Counts a request to `bucket` against `subject`, or refuses it; `Ok(None)` when the
    /// database could not answer (the request passes uncounted, without headers).
    pub async fn check(
        &self,
        bucket: Bucket,
        subject: &Subject,
    ) -> Result<Option<RateInfo>, Limited> {
        let quota = self.quotas[bucket.index()];
        let cell = cell_quota(quota);
        let take = self.store.take_rate_cell(bucket.name(), &subject_bytes(subject), cell).await;
        if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            let store = self.store.clone();
            tokio::spawn(async move {
                if let Err(e) = store.sweep_rate_cells().await {
                    tracing::warn!(error = %e, "shared rate limits: the sweep failed");
                }
            });
        }
        match take {
            Ok(take) => answer(quota, cell, take),
            Err(e) => {
                tracing::warn!(error = %e, bucket = %bucket, "shared rate limits: the database did not answer; the request passes uncounted");
                Ok(None)
            }
        }
    }

    /// Drops now the cells whose bucket is full again, for every process on the database;
    /// how many (also done in the background: see the module docs).
    pub async fn sweep(&self) -> freehire_store::Result<u64> {
        self.store.sweep_rate_cells().await
    }
}

impl std::fmt::Debug for SharedLimits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedLimits").finish_non_exhaustive()
    }
}

/// A quota as the cells count it: one request every `period / limit`.
fn cell_quota(quota: Quota) -> RateQuota {
    let period_us = i64::try_from(quota.period().as_micros()).unwrap_or(i64::MAX);
    RateQuota::new(quota.limit(), period_us)
}

/// The headers of a counted take, the refusal of a refused one.
fn answer(quota: Quota, cell: RateQuota, take: RateTake) -> Result<Option<RateInfo>, Limited> {
    let reset_secs = ceil_secs(take.reset_us());
    if take.counted {
        let remaining = u32::try_from(take.remaining(cell)).unwrap_or(u32::MAX).min(quota.limit());
        Ok(Some(RateInfo { limit: quota.limit(), remaining, reset_secs }))
    } else {
        Err(Limited {
            retry_after_secs: ceil_secs(take.retry_after_us(cell)).max(1),
            limit: quota.limit(),
            reset_secs,
        })
    }
}

/// Microseconds in whole seconds, rounded up.
fn ceil_secs(us: i64) -> u64 {
    u64::try_from(us.max(0)).unwrap_or(0).div_ceil(1_000_000)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::time::Duration;

    use super::*;

    #[test]
    fn takes_answer_like_the_in_process_limiter() {
        let quota = Quota::new(3, Duration::from_secs(60));
        let cell = cell_quota(quota);
        let first = RateTake { counted: true, now_us: 0, tat_us: 20_000_000 };
        assert_eq!(
            answer(quota, cell, first),
            Ok(Some(RateInfo { limit: 3, remaining: 2, reset_secs: 20 }))
        );
        let refused = RateTake { counted: false, now_us: 1, tat_us: 60_000_001 };
        assert_eq!(
            answer(quota, cell, refused),
            Err(Limited { retry_after_secs: 20, limit: 3, reset_secs: 60 })
        );
    }
}
