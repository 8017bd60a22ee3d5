//! Client configuration: plain data with the reference's defaults, and the per-host pacing
//! ([`HostPacing`], [`HostPace`]: 5 requests/s with a burst of 10 per upstream host unless a
//! platform or the operator says otherwise).

use std::num::NonZeroU32;
use std::str::FromStr;
use std::time::Duration;

use governor::Quota;

use url::Url;

use crate::IngestError;

/// Our User-Agent: names the product and its URL.
pub const USER_AGENT: &str = "freehire-rs/0.1 (+https://github.com/freehire/freehire-rs)";

/// Response body cap (`maxResponseBody`): 64 MiB.
pub const MAX_BODY_BYTES: usize = 64 * 1024 * 1024;

/// The environment variable the binaries read into [`ClientConfig::replay`] (this crate never
/// reads the environment itself).
pub const REPLAY_ENV: &str = "FREEHIRE_ATS_REPLAY_URL";

/// The header that carries the original `scheme://host[:port]` of a replayed request.
pub const UPSTREAM_HOST_HEADER: &str = "x-upstream-host";

/// Configuration of [`crate::http::HttpClient`].
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// Whole-request timeout, body included.
    pub timeout: Duration,
    /// The User-Agent header.
    pub user_agent: String,
    /// Largest body read; past it the request fails with a non-transient error.
    pub max_body_bytes: usize,
    /// The retry on network errors, 5xx and 429.
    pub retry: RetryConfig,
    /// The extra 403/429 backoff for providers whose policy asks for it.
    pub rate_limit_backoff: BackoffConfig,
    /// Which targets may be dialled.
    pub ssrf: SsrfPolicy,
    /// When set, every request goes to this origin instead (see [`ReplayOrigin`]).
    pub replay: Option<ReplayOrigin>,
    /// Redirect hops followed per request.
    pub max_redirects: usize,
    /// The pace of requests per upstream host (on by default; also under replay, where the
    /// key stays the original host).
    pub host_pacing: HostPacing,
}

impl Default for ClientConfig {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(15),
            user_agent: USER_AGENT.to_owned(),
            max_body_bytes: MAX_BODY_BYTES,
            retry: RetryConfig::default(),
            rate_limit_backoff: BackoffConfig::default(),
            ssrf: SsrfPolicy::Enforce,
            replay: None,
            max_redirects: 5,
            host_pacing: HostPacing::default(),
        }
    }
}

impl ClientConfig {
    /// The defaults with every request sent to a replay origin (the SSRF guard then allows
    /// that one origin).
    pub fn replaying(origin: ReplayOrigin) -> Self {
        Self { replay: Some(origin), ..Self::default() }
    }
}

/// Whether requests are paced per upstream host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostPacing {
    /// Every request waits for a token of its upstream host (the host of the URL asked for,
    /// not the replay origin it may be sent to): at this pace, or at its platform's
    /// [`crate::http::ProviderPolicy::host_pace`] override.
    Paced(HostPace),
    /// No per-host pacing. Only for tests and benches against a local replay server; a real
    /// deployment always paces. Provider-wide pacers ([`crate::http::ProviderPolicy`]) still
    /// apply.
    Off,
}

impl Default for HostPacing {
    fn default() -> Self {
        Self::Paced(HostPace::DEFAULT)
    }
}

/// A per-host pace: one request every `interval`, with up to `burst` at once after a quiet
/// spell (governor's GCRA quota).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HostPace {
    interval: Duration,
    burst: NonZeroU32,
}

impl HostPace {
    /// The default (our choice: the reference names no per-host rate for the platforms we
    /// crawl): 5 requests/s with a burst of 10 per host.
    pub const DEFAULT: Self = Self::per_second(non_zero(5), non_zero(10));

    /// `rate` requests per second with a burst of `burst`.
    pub const fn per_second(rate: NonZeroU32, burst: NonZeroU32) -> Self {
        Self { interval: Duration::from_nanos(1_000_000_000 / rate.get() as u64), burst }
    }

    /// `rate` requests per second (fractions allowed, e.g. `0.5`), with a burst of twice the
    /// rate rounded up (at least 1): what `FREEHIRE_INGEST_HOST_RATE` sets. The rate must be
    /// positive and at most 10 000.
    pub fn from_rate(rate: f64) -> Result<Self, IngestError> {
        if !(rate.is_finite() && rate > 0.0 && rate <= 10_000.0) {
            return Err(IngestError::config_only(format!(
                "host rate {rate} must be a number of requests per second above 0 and at most 10000"
            )));
        }
        let burst = (rate * 2.0).ceil() as u32;
        Ok(Self {
            interval: Duration::from_secs_f64(1.0 / rate),
            burst: NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN),
        })
    }

    /// Time between requests at the steady pace.
    pub fn interval(&self) -> Duration {
        self.interval
    }

    /// Requests allowed at once after a quiet spell.
    pub fn burst(&self) -> NonZeroU32 {
        self.burst
    }

    /// The governor quota.
    pub(crate) fn quota(&self) -> Quota {
        // `interval` is never zero: at most 10 000/s from a rate, at most 1e9/s from a
        // `NonZeroU32`.
        Quota::with_period(self.interval)
            .unwrap_or_else(|| Quota::per_second(NonZeroU32::MAX))
            .allow_burst(self.burst)
    }
}

/// `n` as a [`NonZeroU32`] in a constant (0 becomes 1).
pub(crate) const fn non_zero(n: u32) -> NonZeroU32 {
    match NonZeroU32::new(n) {
        Some(n) => n,
        None => NonZeroU32::MIN,
    }
}

impl FromStr for HostPace {
    type Err = IngestError;

    /// Parses a rate in requests per second (see [`HostPace::from_rate`]).
    fn from_str(raw: &str) -> Result<Self, Self::Err> {
        let rate: f64 = raw.trim().parse().map_err(|_| {
            IngestError::config_only(format!(
                "host rate {raw:?} must be a number of requests per second, e.g. 5 or 0.5"
            ))
        })?;
        Self::from_rate(rate)
    }
}

/// The constant-delay retry on transient failures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryConfig {
    /// Retries after the first attempt.
    pub retries: usize,
    /// Delay between attempts.
    pub delay: Duration,
}

impl Default for RetryConfig {
    fn default() -> Self {
        Self { retries: 2, delay: Duration::from_millis(500) }
    }
}

/// The exponential backoff on 403/429 (workday).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BackoffConfig {
    /// Retries after the first attempt.
    pub retries: usize,
    /// First delay; each next one doubles.
    pub base: Duration,
    /// Longest single delay.
    pub cap: Duration,
}

impl Default for BackoffConfig {
    fn default() -> Self {
        Self { retries: 6, base: Duration::from_secs(1), cap: Duration::from_secs(30) }
    }
}

/// Which targets the client may dial.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SsrfPolicy {
    /// Refuse loopback, private, link-local, shared, multicast and metadata addresses: every
    /// address a host resolves to is checked.
    #[default]
    Enforce,
    /// Dial anything. Only for tests that talk to a local server without the replay origin.
    AllowPrivateTargets,
}

/// The origin (`http://127.0.0.1:9000`) that replays recorded ATS responses. Every request
/// keeps its path and query and carries its original `scheme://host` in
/// [`UPSTREAM_HOST_HEADER`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayOrigin(Url);

impl ReplayOrigin {
    /// Parses an `http(s)://host[:port]` origin; a path, query or credentials are rejected.
    pub fn parse(raw: &str) -> Result<Self, IngestError> {
        let url = Url::parse(raw.trim())
            .map_err(|e| IngestError::config(format!("replay URL {raw:?}"), e))?;
        let bad = !matches!(url.scheme(), "http" | "https")
            || url.host_str().is_none()
            || !(url.path().is_empty() || url.path() == "/")
            || url.query().is_some()
            || url.fragment().is_some()
            || !url.username().is_empty()
            || url.password().is_some();
        if bad {
            return Err(IngestError::config_only(format!(
                "replay URL {raw:?} must be an http(s) origin such as http://127.0.0.1:9000"
            )));
        }
        Ok(Self(url))
    }

    /// The origin as a URL.
    pub fn url(&self) -> &Url {
        &self.0
    }

    /// The URL a request for `upstream` is sent to: this origin with the same path and query.
    pub fn rewrite(&self, upstream: &Url) -> Url {
        let mut out = self.0.clone();
        out.set_path(upstream.path());
        out.set_query(upstream.query());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replay_origin_shape() {
        let o = ReplayOrigin::parse("http://127.0.0.1:9000").unwrap();
        let up = Url::parse("https://api.ashbyhq.com/posting-api/job-board/x?a=1&b=2").unwrap();
        assert_eq!(
            o.rewrite(&up).as_str(),
            "http://127.0.0.1:9000/posting-api/job-board/x?a=1&b=2"
        );
        for bad in ["ftp://h", "http://h/x", "http://h/?q", "nonsense", "http://u:p@h"] {
            assert!(ReplayOrigin::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn host_pace_parses_rates_and_defaults_to_five_per_second() {
        assert_eq!(ClientConfig::default().host_pacing, HostPacing::Paced(HostPace::DEFAULT));
        assert_eq!(HostPace::DEFAULT.interval(), Duration::from_millis(200));
        assert_eq!(HostPace::DEFAULT.burst().get(), 10);
        assert_eq!("5".parse::<HostPace>().unwrap(), HostPace::DEFAULT);
        let half: HostPace = " 0.5 ".parse().unwrap();
        assert_eq!((half.interval(), half.burst().get()), (Duration::from_secs(2), 1));
        for bad in ["0", "-1", "nan", "inf", "fast", "", "20000"] {
            assert!(bad.parse::<HostPace>().is_err(), "{bad}");
        }
    }
}
