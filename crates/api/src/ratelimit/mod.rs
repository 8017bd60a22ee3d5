//! In-process rate limits: governor's GCRA (a leaky bucket, like the reference's Redis one)
//! per [`Bucket`], each subject (client IP, account) with its own counter.
//!
//! The numbers ([`Bucket::quota`], reference §6.3 and §15.4): a subject may send `limit`
//! requests at once, then one more every `period / limit`; an idle subject is full again after
//! `period`.
//!
//! | bucket | limit | period | one more every | used by |
//! |---|---|---|---|---|
//! | [`Bucket::PublicRead`] | 600 | 1 min | 100 ms | the job list, a job, search, facets, companies, a company ([`public`]) |
//! | [`Bucket::AgentSearch`] | 300 | 1 min | 200 ms | agent search ([`public`]) |
//! | [`Bucket::Register`] | 5 | 1 min | 12 s | `POST /auth/register` |
//! | [`Bucket::Login`] | 10 | 1 min | 6 s | `POST /auth/login` |
//! | [`Bucket::VerifyRequest`] | 5 | 1 min | 12 s | `POST /auth/verify/request` |
//! | [`Bucket::VerifyConfirm`] | 10 | 15 min | 90 s | `POST /auth/verify/confirm` |
//! | [`Bucket::PasswordForgot`] | 3 | 5 min | 100 s | `POST /auth/password/forgot` |
//! | [`Bucket::PasswordReset`] | 10 | 15 min | 90 s | `POST /auth/password/reset` |
//! | [`Bucket::TracerLink`] | 60 | 1 min | 1 s | (later) `GET /cv/:token` |
//! | [`Bucket::Contribution`] | 20 | 1 min | 3 s | (later) outbound-fetch endpoints, per user |
//!
//! Three ways to use it, one per bucket on a route:
//!
//! - **The public reads**, per API key or client IP: [`public::public_limits`], a route layer
//!   of the whole router, limits the routes of [`public::PUBLIC_ROUTES`].
//!
//! - **By client IP, as a route layer**: `.route(path, post(h).layer(limit(&state,
//!   Bucket::Register)))` ([`limit`]); the client IP is [`crate::client_ip::ClientIp`].
//! - **By IP and account, in the handler** once the body is parsed:
//!   `let info = state.limits.check(Bucket::Login, &[Subject::Ip(ip), Subject::account(email)])?;`
//!   then answer `(info, Json(body))`. Every subject is checked before any is counted, so a
//!   refusal by one (an exhausted account) costs the others (the caller's IP) nothing.
//!   Using both the layer and the handler call on one bucket counts the IP twice.
//!
//! A counted request answers `X-RateLimit-Limit`, `X-RateLimit-Remaining` and
//! `X-RateLimit-Reset` (seconds until the bucket is full again) for its most constrained
//! subject ([`RateInfo`]); a refused one 429 `{"error", "code": "rate_limited"}` with
//! `Retry-After` (seconds) and the same three headers ([`Limited`], rendered through
//! [`crate::ApiError`]). [`RateLimitConfig::off`] (`FREEHIRE_RATE_LIMITS=off`, for operators
//! whose proxy limits) limits nothing and sends no header. Memory is bounded: see
//! [`RateLimits`] for the sweep ([`RETAIN_EVERY`]) and the cap ([`MAX_SUBJECTS`]).
//!
//! The web pages' forms count against the same buckets through [`EdgeLimits`] (their
//! `freehire_app::throttle::Throttle`).
//!
//! The state is per process, except for the public reads on PostgreSQL: there
//! [`SharedLimits`] keeps their buckets in the database (`rate_cells`), so every API process
//! on it counts a caller together (one statement a check, failing open). The sign-in routes'
//! buckets stay per process.

mod headers;
mod layer;
mod limiter;
mod policy;
pub mod public;
mod shared;
mod throttle;

pub use headers::{LIMIT, Limited, REMAINING, RESET, RateInfo};
pub use layer::{RateLimitLayer, RateLimited, limit};
pub use limiter::{ManualClock, RETAIN_EVERY, RateLimits};
pub use policy::{Bucket, MAX_SUBJECTS, Quota, RateLimitConfig, Subject, SwitchError};
pub use shared::{SWEEP_EVERY, SharedLimits};
pub use throttle::EdgeLimits;
