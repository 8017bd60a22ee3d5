//! Per-host pacing: every request of a paced client waits (never fails) for a token of its
//! upstream host, the host of the URL asked for (under replay, the original host, not the
//! replay origin), from a keyed `governor` limiter. A client holds one limiter per pace in use
//! (the default, or a platform's override), so hosts shared by platforms with the same pace
//! share their tokens. Memory stays bounded: every [`RETAIN_EVERY`] requests the limiter
//! drops the hosts whose state is back to fresh (`retain_recent`).

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use governor::{DefaultKeyedRateLimiter, RateLimiter};
use url::Url;

use super::config::HostPace;

/// Requests between two sweeps of the idle hosts.
pub(crate) const RETAIN_EVERY: u64 = 1024;

/// One pace's limiter, keyed by upstream host.
pub(crate) struct HostLimiter {
    pace: HostPace,
    limiter: DefaultKeyedRateLimiter<String>,
    calls: AtomicU64,
}

impl fmt::Debug for HostLimiter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HostLimiter")
            .field("pace", &self.pace)
            .field("hosts", &self.limiter.len())
            .finish()
    }
}

impl HostLimiter {
    pub(crate) fn new(pace: HostPace) -> Self {
        Self { pace, limiter: RateLimiter::keyed(pace.quota()), calls: AtomicU64::new(0) }
    }

    /// Waits until `url`'s host may be sent another request.
    pub(crate) async fn wait(&self, url: &Url) {
        self.limiter.until_key_ready(&host_key(url)).await;
        if (self.calls.fetch_add(1, Ordering::Relaxed) + 1).is_multiple_of(RETAIN_EVERY) {
            self.limiter.retain_recent();
            self.limiter.shrink_to_fit();
        }
    }

    /// Hosts with state held.
    #[cfg(test)]
    pub(crate) fn hosts(&self) -> usize {
        self.limiter.len()
    }
}

/// The limiters of one client, one per pace.
#[derive(Debug, Default)]
pub(crate) struct HostLimiters(Mutex<HashMap<HostPace, Arc<HostLimiter>>>);

impl HostLimiters {
    /// The limiter of `pace`, created on first use.
    pub(crate) fn get(&self, pace: HostPace) -> Arc<HostLimiter> {
        let mut map = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        map.entry(pace).or_insert_with(|| Arc::new(HostLimiter::new(pace))).clone()
    }
}

/// The key of `url`: its host, with its port when one is written.
fn host_key(url: &Url) -> String {
    let host = url.host_str().unwrap_or_default();
    match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::time::{Duration, Instant};

    use super::*;
    use crate::http::config::non_zero;

    fn url(host: &str, i: usize) -> Url {
        Url::parse(&format!("https://{host}/jobs/{i}")).unwrap()
    }

    async fn burst_of(limiter: &HostLimiter, host: &str, n: usize) -> Duration {
        let start = Instant::now();
        for i in 0..n {
            limiter.wait(&url(host, i)).await;
        }
        start.elapsed()
    }

    #[tokio::test]
    async fn one_host_is_spaced_while_two_hosts_proceed_in_parallel() {
        // 50/s, no burst: 11 requests to one host span at least 10 intervals of 20 ms.
        let limiter = HostLimiter::new(HostPace::per_second(non_zero(50), non_zero(1)));
        let (a, b) =
            tokio::join!(burst_of(&limiter, "a.example", 11), burst_of(&limiter, "b.example", 11));
        let paced = Duration::from_millis(195);
        assert!(a >= paced && b >= paced, "each host is paced: {a:?} {b:?}");
        // Serialised, the two hosts would take at least 21 intervals (420 ms).
        assert!(a.max(b) < Duration::from_millis(400), "the hosts run side by side: {a:?} {b:?}");
        assert_eq!(limiter.hosts(), 2);
        // The key is the host (and a written port), not the path.
        assert_eq!(host_key(&url("A.Example", 3)), "a.example");
        assert_eq!(host_key(&Url::parse("http://h:8080/x").unwrap()), "h:8080");
    }

    #[tokio::test]
    async fn idle_hosts_are_dropped() {
        let limiter = HostLimiter::new(HostPace::per_second(non_zero(1000), non_zero(1)));
        for i in 0..RETAIN_EVERY - 1 {
            limiter.wait(&url(&format!("h{i}.example"), 0)).await;
        }
        assert_eq!(limiter.hosts() as u64, RETAIN_EVERY - 1);
        // Past one interval every host's state is fresh again; the next sweep drops them.
        tokio::time::sleep(Duration::from_millis(5)).await;
        limiter.wait(&url("last.example", 0)).await;
        assert!(limiter.hosts() <= 1, "{} hosts kept", limiter.hosts());
    }

    #[test]
    fn one_limiter_per_pace() {
        let limiters = HostLimiters::default();
        let fast = HostPace::per_second(non_zero(50), non_zero(1));
        assert!(Arc::ptr_eq(&limiters.get(fast), &limiters.get(fast)));
        assert!(!Arc::ptr_eq(&limiters.get(fast), &limiters.get(HostPace::DEFAULT)));
    }
}
