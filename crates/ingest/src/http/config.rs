//! Client configuration: plain data with the reference's defaults.

use std::time::Duration;

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
}
