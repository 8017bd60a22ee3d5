//! What is limited and how much: the [`Bucket`]s and their [`Quota`]s (the one table), the
//! [`Subject`]s a request is counted against, and [`RateLimitConfig`] (on with the reference's
//! numbers, off, or test quotas and a manual clock).

use std::{fmt, net::IpAddr, num::NonZeroU32, str::FromStr, time::Duration};

use super::limiter::{LimitClock, ManualClock};

/// A family of routes sharing one limit. Each bucket counts every subject separately.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bucket {
    /// Public reads (job search, facets, a job, companies…): 600 per minute per caller,
    /// shared by those routes.
    PublicRead,
    /// Agent search: 300 per minute, its own bucket.
    AgentSearch,
    /// `POST /auth/register`: 5 per minute.
    Register,
    /// `POST /auth/login`: 10 per minute.
    Login,
    /// `POST /auth/verify/request`: 5 per minute.
    VerifyRequest,
    /// `POST /auth/verify/confirm`: 10 per 15 minutes.
    VerifyConfirm,
    /// `POST /auth/password/forgot`: 3 per 5 minutes.
    PasswordForgot,
    /// `POST /auth/password/reset`: 10 per 15 minutes.
    PasswordReset,
    /// The CV tracer-link redirect: 60 per minute per IP.
    TracerLink,
    /// Outbound-fetch endpoints (resolve a URL, …): 20 per minute per user (our choice).
    Contribution,
}

impl Bucket {
    /// Every bucket, in table order.
    pub const ALL: [Self; 10] = [
        Self::PublicRead,
        Self::AgentSearch,
        Self::Register,
        Self::Login,
        Self::VerifyRequest,
        Self::VerifyConfirm,
        Self::PasswordForgot,
        Self::PasswordReset,
        Self::TracerLink,
        Self::Contribution,
    ];

    /// The bucket's quota: the one table (reference §6.3 and §15.4).
    pub const fn quota(self) -> Quota {
        const MINUTE: u64 = 60;
        match self {
            Self::PublicRead => Quota::new(600, Duration::from_secs(MINUTE)),
            Self::AgentSearch => Quota::new(300, Duration::from_secs(MINUTE)),
            Self::Register => Quota::new(5, Duration::from_secs(MINUTE)),
            Self::Login => Quota::new(10, Duration::from_secs(MINUTE)),
            Self::VerifyRequest => Quota::new(5, Duration::from_secs(MINUTE)),
            Self::VerifyConfirm => Quota::new(10, Duration::from_secs(15 * MINUTE)),
            Self::PasswordForgot => Quota::new(3, Duration::from_secs(5 * MINUTE)),
            Self::PasswordReset => Quota::new(10, Duration::from_secs(15 * MINUTE)),
            Self::TracerLink => Quota::new(60, Duration::from_secs(MINUTE)),
            Self::Contribution => Quota::new(20, Duration::from_secs(MINUTE)),
        }
    }

    /// The bucket's position in [`Self::ALL`].
    pub(crate) const fn index(self) -> usize {
        self as usize
    }

    /// The bucket's name in logs (`login`, `verify_confirm`, …).
    pub const fn name(self) -> &'static str {
        match self {
            Self::PublicRead => "public_read",
            Self::AgentSearch => "agent_search",
            Self::Register => "register",
            Self::Login => "login",
            Self::VerifyRequest => "verify_request",
            Self::VerifyConfirm => "verify_confirm",
            Self::PasswordForgot => "password_forgot",
            Self::PasswordReset => "password_reset",
            Self::TracerLink => "tracer_link",
            Self::Contribution => "contribution",
        }
    }
}

impl fmt::Display for Bucket {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `limit` requests per `period`, as a GCRA (leaky) bucket: a subject may send `limit` at once,
/// then one more every `period / limit`; an idle subject is full again after `period`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quota {
    limit: NonZeroU32,
    period: Duration,
}

impl Quota {
    /// The longest period a quota may have (a day).
    pub const MAX_PERIOD: Duration = Duration::from_secs(24 * 60 * 60);

    /// `limit` requests per `period` (a `limit` of 0 is taken as 1; `period` is clamped to
    /// 1 ms..=[`Self::MAX_PERIOD`]).
    pub const fn new(limit: u32, period: Duration) -> Self {
        let limit = match NonZeroU32::new(limit) {
            Some(limit) => limit,
            None => NonZeroU32::MIN,
        };
        let floor = Duration::from_millis(1);
        let period = if period.as_nanos() < floor.as_nanos() {
            floor
        } else if period.as_nanos() > Self::MAX_PERIOD.as_nanos() {
            Self::MAX_PERIOD
        } else {
            period
        };
        Self { limit, period }
    }

    /// Most requests in a burst (`X-RateLimit-Limit`).
    pub const fn limit(self) -> u32 {
        self.limit.get()
    }

    /// Time for an emptied bucket to be full again.
    pub const fn period(self) -> Duration {
        self.period
    }

    /// The same quota as governor's (one cell every `period / limit`, a burst of `limit`).
    pub(crate) fn governor(self) -> governor::Quota {
        let interval = (self.period / self.limit.get()).max(Duration::from_nanos(1));
        match governor::Quota::with_period(interval) {
            Some(quota) => quota.allow_burst(self.limit),
            // Unreachable: the interval is at least 1 ns.
            None => governor::Quota::per_second(self.limit),
        }
    }
}

/// Who a request is counted against; each subject has its own counter per bucket.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Subject {
    /// The client IP ([`crate::client_ip::ClientIp`]). IPv4-mapped IPv6 addresses count as
    /// their IPv4 address, other IPv6 addresses by their /64 (one subscriber's network).
    Ip(IpAddr),
    /// An account: the normalised email or the user id. Kept only as its SHA-256, so a long
    /// value costs no more memory than a short one.
    Account(String),
}

impl Subject {
    /// The client IP.
    pub fn ip(ip: impl Into<IpAddr>) -> Self {
        Self::Ip(ip.into())
    }

    /// An account (the caller normalises it: the same account must give the same string).
    pub fn account(account: impl Into<String>) -> Self {
        Self::Account(account.into())
    }
}

/// Most subjects one bucket keeps by default (~6 MB at most per bucket; see
/// [`RateLimitConfig::with_max_subjects`]).
pub const MAX_SUBJECTS: usize = 100_000;

/// Whether requests are limited, and with what quotas, memory cap and clock.
///
/// [`Default`] is on, with the numbers of [`Bucket::quota`], [`MAX_SUBJECTS`] and the
/// monotonic clock. [`RateLimitConfig::off`] limits nothing and sends no header (for operators
/// whose proxy limits); `FREEHIRE_RATE_LIMITS=on|off` parses with [`FromStr`].
#[derive(Debug, Clone)]
pub struct RateLimitConfig {
    pub(crate) enabled: bool,
    pub(crate) quotas: [Quota; Bucket::ALL.len()],
    pub(crate) max_subjects: usize,
    pub(crate) clock: LimitClock,
}

impl Default for RateLimitConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            quotas: Bucket::ALL.map(Bucket::quota),
            max_subjects: MAX_SUBJECTS,
            clock: LimitClock::monotonic(),
        }
    }
}

impl RateLimitConfig {
    /// Limits on, with the reference's numbers.
    pub fn on() -> Self {
        Self::default()
    }

    /// Limits off: nothing is limited and no `X-RateLimit-*` header is sent.
    pub fn off() -> Self {
        Self { enabled: false, ..Self::default() }
    }

    /// Whether requests are limited.
    pub fn is_enabled(&self) -> bool {
        self.enabled
    }

    /// The quota of `bucket` under this config.
    pub fn quota(&self, bucket: Bucket) -> Quota {
        self.quotas[bucket.index()]
    }

    /// The same config with another quota for `bucket` (tests use tight ones).
    pub fn with_quota(mut self, bucket: Bucket, quota: Quota) -> Self {
        self.quotas[bucket.index()] = quota;
        self
    }

    /// The same config keeping at most `max` subjects per bucket (at least 1). A request that
    /// would add a subject to a full bucket, once the subjects whose counters are full again
    /// have been dropped, is let through uncounted and without headers (the limiter fails
    /// open, as the reference's does), and a warning is logged at most once a minute.
    pub fn with_max_subjects(self, max: usize) -> Self {
        Self { max_subjects: max.max(1), ..self }
    }

    /// The same config on a clock the caller advances (tests).
    pub fn with_clock(self, clock: &ManualClock) -> Self {
        Self { clock: LimitClock::manual(clock), ..self }
    }
}

/// `on` or `off` (any case), the value of `FREEHIRE_RATE_LIMITS`.
impl FromStr for RateLimitConfig {
    type Err = SwitchError;

    fn from_str(s: &str) -> Result<Self, SwitchError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "on" => Ok(Self::on()),
            "off" => Ok(Self::off()),
            _ => Err(SwitchError(s.to_owned())),
        }
    }
}

/// A rate-limit switch that is neither `on` nor `off`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid rate-limit switch {0:?}: expected `on` or `off`")]
pub struct SwitchError(String);

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn the_table_has_the_reference_numbers() {
        let table: Vec<(&str, u32, u64)> = Bucket::ALL
            .iter()
            .map(|b| (b.name(), b.quota().limit(), b.quota().period().as_secs()))
            .collect();
        assert_eq!(
            table,
            [
                ("public_read", 600, 60),
                ("agent_search", 300, 60),
                ("register", 5, 60),
                ("login", 10, 60),
                ("verify_request", 5, 60),
                ("verify_confirm", 10, 900),
                ("password_forgot", 3, 300),
                ("password_reset", 10, 900),
                ("tracer_link", 60, 60),
                ("contribution", 20, 60),
            ]
        );
        for (i, bucket) in Bucket::ALL.iter().enumerate() {
            assert_eq!(bucket.index(), i, "{bucket}");
        }
    }

    #[test]
    fn a_quota_is_a_burst_refilled_over_its_period() {
        let q = Bucket::VerifyConfirm.quota().governor();
        assert_eq!((q.burst_size().get(), q.replenish_interval()), (10, Duration::from_secs(90)));
        let q = Bucket::PasswordForgot.quota().governor();
        assert_eq!((q.burst_size().get(), q.replenish_interval()), (3, Duration::from_secs(100)));
        assert_eq!(q.burst_size_replenished_in(), Duration::from_secs(300));
        let q = Quota::new(0, Duration::ZERO);
        assert_eq!((q.limit(), q.period()), (1, Duration::from_millis(1)));
        assert_eq!(Quota::new(1, Duration::MAX).period(), Quota::MAX_PERIOD);
    }

    #[test]
    fn the_switch_parses() {
        assert!("on".parse::<RateLimitConfig>().unwrap().is_enabled());
        assert!(!" OFF ".parse::<RateLimitConfig>().unwrap().is_enabled());
        let e = "no".parse::<RateLimitConfig>().unwrap_err();
        assert_eq!(e.to_string(), r#"invalid rate-limit switch "no": expected `on` or `off`"#);
        assert!(RateLimitConfig::default().is_enabled());
        let tight =
            RateLimitConfig::on().with_quota(Bucket::Login, Quota::new(2, Duration::from_secs(9)));
        assert_eq!(tight.quota(Bucket::Login).limit(), 2);
        assert_eq!(tight.quota(Bucket::Register), Bucket::Register.quota());
    }
}
