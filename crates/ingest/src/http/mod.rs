//! The safe HTTP client every adapter uses (reference §3.3).
//!
//! - [`ClientConfig`]: timeout (15 s), User-Agent, body cap (64 MiB), retries (2 × 500 ms on
//!   network errors, 5xx and 429), the 403/429 exponential backoff for providers that need it
//!   (6 retries, 1 s doubling, capped at 30 s), the SSRF policy, the replay origin and the
//!   per-host pacing ([`HostPacing`]: by default 5 requests/s, burst 10, per upstream host).
//! - [`HttpClient`]: one shared `reqwest` client with the SSRF-checking resolver; redirects are
//!   followed by hand so every hop is checked and, under replay, rewritten.
//! - [`Fetcher`]: a per-provider handle ([`ProviderPolicy`]: a per-host pace override, a
//!   provider-wide pacer, the rate-limit backoff) with typed JSON / XML helpers that reject
//!   HTML block pages. Every hop of every request waits for its upstream host's token (keyed
//!   by the host asked for, also under replay), with `governor`'s keyed limiter: waiting,
//!   never dropping.
//!
//! Deliberately absent: cookies, proxies (the client ignores proxy environment variables so
//! nothing bypasses the SSRF guard) and any per-adapter transport.

mod client;
mod config;
mod decode;
mod pacing;
mod ssrf;

pub use client::{Fetched, Fetcher, HttpClient, ProviderPolicy};
pub use config::{
    BackoffConfig, ClientConfig, HostPace, HostPacing, MAX_BODY_BYTES, REPLAY_ENV, ReplayOrigin,
    RetryConfig, SsrfPolicy, UPSTREAM_HOST_HEADER, USER_AGENT,
};
pub use ssrf::{
    RESOLVE_TIMEOUT, check_public_destination, check_target, guarded_client_builder,
    is_forbidden_ip, refusal_of,
};

pub(crate) use config::non_zero;
pub(crate) use decode::json as decode_json;
pub(crate) use ssrf::Unresolved;
