//! The digest step: each subscription with waiting matches that is due by its owner's settings
//! ([`schedule::digest_due`]) gets one digest, taken by the store in one transaction under the
//! subscription's lock and compare-and-set on its last digest (so two workers never take one
//! digest twice): at most [`SNAPSHOT_CAP`] oldest matches, the notification recorded first,
//! its delivery queued. Overflow waits for the next digest.

use chrono::{DateTime, Utc};
use freehire_store::DigestClaim;

use super::{Notifier, SNAPSHOT_CAP, schedule};
use crate::AppError;

/// "N new jobs for <search name>" ("1 new job" for one).
pub fn digest_title(total: u64, name: &str) -> String {
    let noun = if total == 1 { "job" } else { "jobs" };
    format!("{total} new {noun} for {name}")
}

impl Notifier {
    /// Takes every due digest; returns how many were recorded.
    pub async fn send_digests(&self, now: DateTime<Utc>) -> Result<u64, AppError> {
        let mut taken = 0;
        for candidate in self.store.digest_candidates().await? {
            if !schedule::digest_due(&candidate.settings, candidate.last_digest_sent_at, now) {
                continue;
            }
            let claim = DigestClaim {
                subscription: candidate.subscription,
                expected_last_sent: candidate.last_digest_sent_at,
                cap: SNAPSHOT_CAP,
                title: &digest_title,
            };
            if let Some(digest) = self.store.take_digest(&claim, now).await? {
                tracing::info!(
                    subscription = %candidate.subscription,
                    notification = %digest.notification,
                    jobs = digest.jobs.len(),
                    total = digest.total,
                    "digest recorded"
                );
                taken += 1;
            }
        }
        Ok(taken)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_title_counts_the_jobs() {
        assert_eq!(super::digest_title(1, "Rust"), "1 new job for Rust");
        assert_eq!(super::digest_title(250, "Rust in Berlin"), "250 new jobs for Rust in Berlin");
    }
}
