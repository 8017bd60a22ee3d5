//! [`RateLimits`]: one governor GCRA per [`Bucket`], keyed by subject, checking every subject
//! of a request before counting any.
//!
//! - **All or nothing.** A request names one or more subjects (its IP, its account). Each is
//!   first *peeked*: governor's GCRA decides on the subject's stored cell without writing it
//!   back (the store below writes only for a committing probe). Only when every subject would
//!   pass is each one counted; a refusal by one subject leaves the others' cells untouched.
//!   Peeks and counts of one bucket run under one lock, so no other request slips between the
//!   two (time only refills a bucket, so a subject that passed its peek passes its count).
//! - **Headers.** A counted request gets a [`RateInfo`] for its most constrained subject
//!   (fewest remaining): `remaining` from governor's state snapshot, `reset_secs` the time
//!   until that subject's bucket is full again (a peek of a whole burst: governor's answer is
//!   exactly that wait). A refusal is a [`Limited`]: `retry_after_secs` the wait until every
//!   refusing subject has a cell again.
//! - **Bounded memory.** A bucket keeps one cell (a GCRA arrival time) per subject, keyed by a
//!   fixed-size key: an IPv4 address, an IPv6 /64, or the SHA-256 of an account, so an entry
//!   costs about 50 bytes however long the account string. Cells whose bucket is full again
//!   (indistinguishable from a new subject) are dropped every [`RETAIN_EVERY`] counted
//!   requests of a bucket, and whenever a new subject finds the bucket at its cap
//!   ([`super::MAX_SUBJECTS`] by default, [`RateLimitConfig::with_max_subjects`]). A new
//!   subject that still finds it full passes uncounted, without headers (failing open, as
//!   the reference's limiter does), and a warning is logged at most once a minute; subjects
//!   already counted stay limited.

use std::{
    cmp::Reverse,
    collections::HashMap,
    fmt,
    net::IpAddr,
    num::NonZeroU32,
    sync::{Arc, Mutex, MutexGuard, PoisonError},
    time::{Duration, Instant},
};

use governor::{
    RateLimiter,
    clock::{Clock, FakeRelativeClock},
    middleware::StateInformationMiddleware,
    nanos::Nanos,
    state::{StateStore, keyed::ShrinkableKeyedStateStore},
};
use sha2::{Digest, Sha256};

use super::{Bucket, Limited, RateInfo, RateLimitConfig, Subject};

/// Counted requests of one bucket between two sweeps of the cells that are full again.
pub const RETAIN_EVERY: u32 = 1024;

/// How often at most the "too many subjects" warning is logged, per bucket.
const WARN_EVERY: Duration = Duration::from_secs(60);

/// The limits of every bucket, cheap to clone (shared state); off limits nothing.
///
/// Memory stays bounded: a bucket keeps one cell per subject, keyed by an IPv4 address, an
/// IPv6 /64 or the SHA-256 of an account (about 50 bytes an entry, however long the account).
/// Cells whose bucket is full again are dropped every [`RETAIN_EVERY`] counted requests of a
/// bucket, on [`Self::retain_recent`], and when a new subject finds the bucket at its cap
/// ([`super::MAX_SUBJECTS`] by default: about 6 MB). A new subject that still finds it full
/// passes uncounted and without headers (the limiter fails open, as the reference's does;
/// a warning is logged at most once a minute), while subjects already counted stay limited.
#[derive(Clone)]
pub struct RateLimits(Option<Arc<[Limiter; Bucket::ALL.len()]>>);

impl RateLimits {
    /// The limits `config` describes.
    pub fn new(config: &RateLimitConfig) -> Self {
        if !config.enabled {
            return Self(None);
        }
        Self(Some(Arc::new(Bucket::ALL.map(|bucket| Limiter::new(bucket, config)))))
    }

    /// No limit: every check passes without [`RateInfo`].
    pub fn off() -> Self {
        Self(None)
    }

    /// Whether requests are limited.
    pub fn is_enabled(&self) -> bool {
        self.0.is_some()
    }

    /// Counts a request to `bucket` against each of `subjects` (duplicates count once), or
    /// refuses it, counting none, when any subject has no request left.
    ///
    /// `Ok(None)` when the limits are off, no subject is given, or the request passes
    /// uncounted (the bucket is at its subject cap); the caller then sends no header.
    pub fn check(&self, bucket: Bucket, subjects: &[Subject]) -> Result<Option<RateInfo>, Limited> {
        match &self.0 {
            Some(limiters) => limiters[bucket.index()].check(subjects),
            None => Ok(None),
        }
    }

    /// Drops now, in every bucket, the cells whose bucket is full again (the limiter also does
    /// so by itself: see the module doc).
    pub fn retain_recent(&self) {
        for limiter in self.0.iter().flat_map(|limiters| limiters.iter()) {
            limiter.retain(&mut limiter.gate());
        }
    }

    /// How many subjects `bucket` keeps a cell for.
    pub fn subjects(&self, bucket: Bucket) -> usize {
        self.0.as_ref().map_or(0, |limiters| limiters[bucket.index()].cells.lock().len())
    }
}

impl Default for RateLimits {
    /// The reference's limits ([`RateLimitConfig::default`]).
    fn default() -> Self {
        Self::new(&RateLimitConfig::default())
    }
}

impl fmt::Debug for RateLimits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RateLimits").field("enabled", &self.is_enabled()).finish_non_exhaustive()
    }
}

/// A clock tests advance by hand ([`RateLimitConfig::with_clock`]); clones share the time.
#[derive(Debug, Clone, Default)]
pub struct ManualClock(FakeRelativeClock);

impl ManualClock {
    /// A clock at its origin.
    pub fn new() -> Self {
        Self::default()
    }

    /// Moves the time forward by `by`.
    pub fn advance(&self, by: Duration) {
        self.0.advance(by);
    }
}

/// The limiter's time: nanoseconds since its creation (monotonic) or a [`ManualClock`].
#[derive(Debug, Clone)]
pub(crate) struct LimitClock(ClockKind);

#[derive(Debug, Clone)]
enum ClockKind {
    Monotonic(Instant),
    Manual(FakeRelativeClock),
}

impl LimitClock {
    pub(crate) fn monotonic() -> Self {
        Self(ClockKind::Monotonic(Instant::now()))
    }

    pub(crate) fn manual(clock: &ManualClock) -> Self {
        Self(ClockKind::Manual(clock.0.clone()))
    }
}

impl Clock for LimitClock {
    type Instant = Nanos;

    fn now(&self) -> Nanos {
        match &self.0 {
            ClockKind::Monotonic(origin) => {
                Nanos::new(u64::try_from(origin.elapsed().as_nanos()).unwrap_or(u64::MAX))
            }
            ClockKind::Manual(clock) => clock.now(),
        }
    }
}

/// What a cell is kept under: fixed-size, so every entry costs the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Key {
    V4([u8; 4]),
    /// The first 64 bits of an IPv6 address.
    V6Net([u8; 8]),
    /// The SHA-256 of the account string.
    Account([u8; 32]),
}

impl Key {
    fn of(subject: &Subject) -> Self {
        match subject {
            Subject::Ip(ip) => match ip.to_canonical() {
                IpAddr::V4(v4) => Self::V4(v4.octets()),
                IpAddr::V6(v6) => {
                    let [a, b, c, d, e, f, g, h, ..] = v6.octets();
                    Self::V6Net([a, b, c, d, e, f, g, h])
                }
            },
            Subject::Account(account) => Self::Account(Sha256::digest(account.as_bytes()).into()),
        }
    }
}

/// How the shared cells ([`super::SharedLimits`]) store `subject`: a tag byte, then its
/// fixed-size [`Key`] (the IPv4 address, the IPv6 /64, or the account's SHA-256).
pub(crate) fn subject_bytes(subject: &Subject) -> Vec<u8> {
    let key = Key::of(subject);
    let (tag, bytes): (u8, &[u8]) = match &key {
        Key::V4(octets) => (4, octets),
        Key::V6Net(net) => (6, net),
        Key::Account(digest) => (b'a', digest),
    };
    let mut out = Vec::with_capacity(1 + bytes.len());
    out.push(tag);
    out.extend_from_slice(bytes);
    out
}

/// A key as governor sees it: `commit: false` is a peek, decided but not written back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Probe {
    key: Key,
    commit: bool,
}

impl Probe {
    const fn peek(key: Key) -> Self {
        Self { key, commit: false }
    }

    const fn commit(key: Key) -> Self {
        Self { key, commit: true }
    }
}

/// governor's keyed state: each subject's theoretical arrival time, written only by a
/// committing [`Probe`]. Shared with the [`Limiter`], which reads its size.
#[derive(Debug, Clone, Default)]
struct Cells(Arc<Mutex<HashMap<Key, Nanos>>>);

impl Cells {
    fn lock(&self) -> MutexGuard<'_, HashMap<Key, Nanos>> {
        // A panic cannot leave the map half-written: every write is one insert.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl StateStore for Cells {
    type Key = Probe;

    fn measure_and_replace<T, F, E>(&self, probe: &Probe, f: F) -> Result<T, E>
    where
        F: Fn(Option<Nanos>) -> Result<(T, Nanos), E>,
    {
        let mut cells = self.lock();
        let (outcome, arrival) = f(cells.get(&probe.key).copied())?;
        if probe.commit {
            cells.insert(probe.key, arrival);
        }
        Ok(outcome)
    }
}

impl ShrinkableKeyedStateStore<Probe> for Cells {
    fn retain_recent(&self, drop_below: Nanos) {
        // As governor's own stores: a cell at or below `drop_below` is a full bucket.
        self.lock().retain(|_, arrival| *arrival > drop_below);
    }

    fn shrink_to_fit(&self) {
        let mut cells = self.lock();
        if cells.len() * 4 < cells.capacity() {
            cells.shrink_to_fit();
        }
    }

    fn len(&self) -> usize {
        self.lock().len()
    }

    fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }
}

type Gcra = RateLimiter<Probe, Cells, LimitClock, StateInformationMiddleware>;

/// One bucket's limiter.
struct Limiter {
    bucket: Bucket,
    limit: NonZeroU32,
    gcra: Gcra,
    cells: Cells,
    clock: LimitClock,
    max_subjects: usize,
    /// Held for a whole check (peeks then counts) and a sweep.
    gate: Mutex<Gate>,
}

#[derive(Debug, Default)]
struct Gate {
    /// Counted requests since the last sweep.
    counted: u32,
    /// When the subject cap was last warned about.
    warned_at: Option<Nanos>,
}

impl Limiter {
    fn new(bucket: Bucket, config: &RateLimitConfig) -> Self {
        let quota = config.quota(bucket);
        let cells = Cells::default();
        let gcra = Gcra::new(quota.governor(), cells.clone(), config.clock.clone());
        Self {
            bucket,
            limit: NonZeroU32::new(quota.limit()).unwrap_or(NonZeroU32::MIN),
            gcra,
            cells,
            clock: config.clock.clone(),
            max_subjects: config.max_subjects,
            gate: Mutex::new(Gate::default()),
        }
    }

    fn gate(&self) -> MutexGuard<'_, Gate> {
        self.gate.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn check(&self, subjects: &[Subject]) -> Result<Option<RateInfo>, Limited> {
        let mut keys: Vec<Key> = Vec::with_capacity(subjects.len());
        for key in subjects.iter().map(Key::of) {
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        if keys.is_empty() {
            return Ok(None);
        }
        let mut gate = self.gate();
        let mut refused: Option<Limited> = None;
        for &key in &keys {
            if let Err(not_until) = self.gcra.check_key(&Probe::peek(key)) {
                let limited = Limited {
                    retry_after_secs: ceil_secs(not_until.wait_time_from(self.clock.now())).max(1),
                    limit: self.limit.get(),
                    reset_secs: self.until_full(key),
                };
                refused = Some(match refused {
                    Some(before) if before.retry_after_secs >= limited.retry_after_secs => before,
                    _ => limited,
                });
            }
        }
        if let Some(limited) = refused {
            return Err(limited);
        }
        if !self.room_for(&keys, &mut gate) {
            return Ok(None);
        }
        let mut tightest: Option<RateInfo> = None;
        for &key in &keys {
            // Passes: its peek did, under the same gate, and time only refills a bucket.
            let remaining = self
                .gcra
                .check_key(&Probe::commit(key))
                .map_or(0, |snapshot| snapshot.remaining_burst_capacity());
            let info =
                RateInfo { limit: self.limit.get(), remaining, reset_secs: self.until_full(key) };
            // The most constrained: fewest remaining, then the longest until full.
            let tighter = |a: &RateInfo, b: &RateInfo| {
                (a.remaining, Reverse(a.reset_secs)) < (b.remaining, Reverse(b.reset_secs))
            };
            tightest = Some(match tightest {
                Some(before) if !tighter(&info, &before) => before,
                _ => info,
            });
        }
        gate.counted += 1;
        if gate.counted >= RETAIN_EVERY {
            self.retain(&mut gate);
        }
        Ok(tightest)
    }

    /// Seconds until `key`'s bucket is full again: governor refuses a whole burst exactly
    /// until then (a peek: nothing is written).
    fn until_full(&self, key: Key) -> u64 {
        match self.gcra.check_key_n(&Probe::peek(key), self.limit) {
            Ok(Err(not_until)) => ceil_secs(not_until.wait_time_from(self.clock.now())),
            Ok(Ok(_)) | Err(_) => 0,
        }
    }

    /// Whether the cells of `keys` fit under the cap, sweeping first if they do not.
    fn room_for(&self, keys: &[Key], gate: &mut Gate) -> bool {
        let (held, new) = {
            let cells = self.cells.lock();
            (cells.len(), keys.iter().filter(|key| !cells.contains_key(key)).count())
        };
        if new == 0 || held + new <= self.max_subjects {
            return true;
        }
        self.retain(gate);
        if self.cells.lock().len() + new <= self.max_subjects {
            return true;
        }
        let now = self.clock.now();
        let quiet = gate.warned_at.is_some_and(|at| {
            Duration::from_nanos(now.as_u64().saturating_sub(at.as_u64())) < WARN_EVERY
        });
        if !quiet {
            gate.warned_at = Some(now);
            tracing::warn!(
                bucket = %self.bucket,
                max_subjects = self.max_subjects,
                "rate limit bucket full: new subjects pass uncounted until counters refill"
            );
        }
        false
    }

    /// Drops the cells whose bucket is full again.
    fn retain(&self, gate: &mut Gate) {
        self.gcra.retain_recent();
        self.gcra.shrink_to_fit();
        gate.counted = 0;
    }
}

/// `d` in whole seconds, rounded up.
fn ceil_secs(d: Duration) -> u64 {
    d.as_secs() + u64::from(d.subsec_nanos() > 0)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::net::{Ipv4Addr, Ipv6Addr};

    use super::*;
    use crate::ratelimit::Quota;

    const MINUTE: Duration = Duration::from_secs(60);

    fn limits(clock: &ManualClock, quota: Quota) -> RateLimits {
        RateLimits::new(&RateLimitConfig::on().with_clock(clock).with_quota(Bucket::Login, quota))
    }

    fn ip(last: u8) -> Subject {
        Subject::ip(Ipv4Addr::new(192, 0, 2, last))
    }

    fn info(limit: u32, remaining: u32, reset_secs: u64) -> Option<RateInfo> {
        Some(RateInfo { limit, remaining, reset_secs })
    }

    #[test]
    fn a_burst_counts_down_then_refills_one_cell_per_interval() {
        let clock = ManualClock::new();
        let limits = limits(&clock, Quota::new(3, MINUTE));
        let a = [ip(1)];
        assert_eq!(limits.check(Bucket::Login, &a), Ok(info(3, 2, 20)));
        assert_eq!(limits.check(Bucket::Login, &a), Ok(info(3, 1, 40)));
        assert_eq!(limits.check(Bucket::Login, &a), Ok(info(3, 0, 60)));
        let refused = Limited { retry_after_secs: 20, limit: 3, reset_secs: 60 };
        assert_eq!(limits.check(Bucket::Login, &a), Err(refused));
        // A refusal counts nothing: the wait is the same a second later.
        clock.advance(Duration::from_secs(1));
        let refused = Limited { retry_after_secs: 19, limit: 3, reset_secs: 59 };
        assert_eq!(limits.check(Bucket::Login, &a), Err(refused));
        // One cell back after an interval (60 s / 3).
        clock.advance(Duration::from_secs(19));
        assert_eq!(limits.check(Bucket::Login, &a), Ok(info(3, 0, 60)));
        assert!(limits.check(Bucket::Login, &a).is_err());
        // Full again after the period.
        clock.advance(MINUTE);
        assert_eq!(limits.check(Bucket::Login, &a), Ok(info(3, 2, 20)));
    }

    #[test]
    fn the_reference_numbers_apply_by_default() {
        let clock = ManualClock::new();
        let limits = RateLimits::new(&RateLimitConfig::on().with_clock(&clock));
        let a = [ip(1)];
        for left in (0..3).rev() {
            assert_eq!(limits.check(Bucket::PasswordForgot, &a).unwrap().unwrap().remaining, left);
        }
        let refused = limits.check(Bucket::PasswordForgot, &a).unwrap_err();
        assert_eq!(refused, Limited { retry_after_secs: 100, limit: 3, reset_secs: 300 });
        // Other buckets count separately.
        assert_eq!(limits.check(Bucket::Login, &a), Ok(info(10, 9, 6)));
    }

    #[test]
    fn a_refusal_by_one_subject_counts_none() {
        let clock = ManualClock::new();
        let limits = limits(&clock, Quota::new(2, MINUTE));
        let account = Subject::account("ada@example.org");
        // The account is exhausted from two addresses.
        for last in [1, 2] {
            limits.check(Bucket::Login, &[ip(last), account.clone()]).unwrap();
        }
        // A third address is refused by the account, and its own cell is not used...
        assert!(limits.check(Bucket::Login, &[ip(3), account.clone()]).is_err());
        assert_eq!(limits.check(Bucket::Login, &[ip(3)]), Ok(info(2, 1, 30)));
        // ...and an exhausted address naming a fresh account leaves that account whole.
        let other = Subject::account("grace@example.org");
        limits.check(Bucket::Login, &[ip(3)]).unwrap();
        assert!(limits.check(Bucket::Login, &[ip(3), other.clone()]).is_err());
        assert_eq!(limits.check(Bucket::Login, &[ip(4), other]), Ok(info(2, 1, 30)));
    }

    #[test]
    fn the_most_constrained_subject_is_reported_and_the_longest_wait() {
        let clock = ManualClock::new();
        let limits = limits(&clock, Quota::new(4, MINUTE));
        let account = Subject::account("ada@example.org");
        for _ in 0..3 {
            limits.check(Bucket::Login, &[ip(1)]).unwrap();
        }
        // ip(1) has 0 left after this one, the account 3.
        assert_eq!(limits.check(Bucket::Login, &[account.clone(), ip(1)]), Ok(info(4, 0, 60)));
        // A duplicate subject counts once.
        assert_eq!(limits.check(Bucket::Login, &[ip(2), ip(2)]), Ok(info(4, 3, 15)));
        // Both refuse (the account emptied later, so it waits longer): the longer wait is
        // answered, and the time until that subject is full again.
        clock.advance(Duration::from_secs(20));
        for _ in 0..4 {
            limits.check(Bucket::Login, std::slice::from_ref(&account)).unwrap();
        }
        limits.check(Bucket::Login, &[ip(1)]).unwrap();
        let refused = limits.check(Bucket::Login, &[ip(1), account]).unwrap_err();
        assert_eq!(refused, Limited { retry_after_secs: 15, limit: 4, reset_secs: 60 });
    }

    #[test]
    fn ipv6_clients_are_counted_by_their_64() {
        let clock = ManualClock::new();
        let limits = limits(&clock, Quota::new(2, MINUTE));
        let host =
            |last: u16, net: u16| Subject::ip(Ipv6Addr::new(0x2001, 0xdb8, 0, net, 0, 0, 0, last));
        limits.check(Bucket::Login, &[host(1, 0)]).unwrap();
        limits.check(Bucket::Login, &[host(2, 0)]).unwrap();
        assert!(limits.check(Bucket::Login, &[host(3, 0)]).is_err(), "same /64");
        assert!(limits.check(Bucket::Login, &[host(1, 1)]).is_ok(), "another /64");
        // An IPv4-mapped address is its IPv4 address.
        limits.check(Bucket::Login, &[ip(9)]).unwrap();
        let mapped = Subject::ip(Ipv4Addr::new(192, 0, 2, 9).to_ipv6_mapped());
        assert_eq!(limits.check(Bucket::Login, &[mapped]), Ok(info(2, 0, 60)));
    }

    #[test]
    fn off_limits_nothing_and_reports_nothing() {
        let limits = RateLimits::new(&RateLimitConfig::off());
        assert!(!limits.is_enabled());
        for _ in 0..100 {
            assert_eq!(limits.check(Bucket::PasswordForgot, &[ip(1)]), Ok(None));
        }
        assert_eq!(limits.subjects(Bucket::PasswordForgot), 0);
        let on = RateLimits::default();
        assert_eq!(on.check(Bucket::Login, &[]), Ok(None), "no subject: nothing counted");
        assert!(on.check(Bucket::Login, &[ip(1)]).unwrap().is_some());
    }

    #[test]
    fn cells_of_full_buckets_are_swept_every_nth_count() {
        let clock = ManualClock::new();
        let limits = limits(&clock, Quota::new(10, MINUTE));
        for last in 0..100 {
            limits.check(Bucket::Login, &[ip(last)]).unwrap();
        }
        assert_eq!(limits.subjects(Bucket::Login), 100);
        // Six seconds refill one cell: every one of them is a full bucket again.
        clock.advance(Duration::from_secs(12));
        let busy = Subject::account("busy");
        for _ in 0..(RETAIN_EVERY - 101) {
            limits.check(Bucket::Login, std::slice::from_ref(&busy)).unwrap();
            clock.advance(Duration::from_secs(6));
        }
        assert_eq!(limits.subjects(Bucket::Login), 101, "not swept yet");
        limits.check(Bucket::Login, &[busy]).unwrap();
        assert_eq!(limits.subjects(Bucket::Login), 1, "only the busy subject is kept");
        limits.retain_recent();
        assert_eq!(limits.subjects(Bucket::Login), 1);
        clock.advance(MINUTE);
        limits.retain_recent();
        assert_eq!(limits.subjects(Bucket::Login), 0);
    }

    #[test]
    fn a_full_bucket_lets_new_subjects_pass_uncounted() {
        let clock = ManualClock::new();
        let config = RateLimitConfig::on()
            .with_clock(&clock)
            .with_quota(Bucket::Login, Quota::new(1, MINUTE))
            .with_max_subjects(3);
        let limits = RateLimits::new(&config);
        for last in 1..=3 {
            limits.check(Bucket::Login, &[ip(last)]).unwrap();
        }
        // A fourth subject passes without headers, and is not kept; known ones stay limited.
        assert_eq!(limits.check(Bucket::Login, &[ip(4)]), Ok(None));
        assert_eq!(limits.check(Bucket::Login, &[ip(4)]), Ok(None));
        assert!(limits.check(Bucket::Login, &[ip(1)]).is_err());
        assert_eq!(limits.subjects(Bucket::Login), 3);
        // Once the others are full again, the new one is counted (the sweep makes room).
        clock.advance(Duration::from_secs(121));
        assert_eq!(limits.check(Bucket::Login, &[ip(4)]), Ok(info(1, 0, 60)));
        assert_eq!(limits.subjects(Bucket::Login), 1);
    }

    #[test]
    fn keys_are_fixed_size() {
        let long = Key::of(&Subject::account("a".repeat(10_000)));
        assert_eq!(long, Key::of(&Subject::account("a".repeat(10_000))));
        assert_ne!(long, Key::of(&Subject::account("b")));
        assert!(std::mem::size_of::<Key>() <= 33);
    }
}
