//! The shared rate-limit cells of [`RateCellRepo`](crate::RateCellRepo): a GCRA (a leaky
//! bucket) per bucket and subject, kept as one theoretical arrival time (`tat`).
//!
//! A [`RateQuota`] lets `limit` requests through at once, then one more every `interval`
//! (`period / limit`); an idle subject is full again after `period`. A request at `now` is
//! counted when `max(tat, now) + interval - now <= period`, and the cell moves to
//! `max(tat, now) + interval`; otherwise nothing changes. The answer ([`RateTake`]) carries
//! what the headers need: how many requests are left, when the bucket is full again, and on a
//! refusal when the next one will pass.

/// A GCRA quota in microseconds: one request every `interval_us`, a bucket refilling from
/// empty in `period_us` (so a burst of `period_us / interval_us`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateQuota {
    /// The time one request takes to drip out (`period / limit`), at least 1 µs.
    pub interval_us: i64,
    /// The time an emptied bucket takes to be full again, at least `interval_us`.
    pub period_us: i64,
}

impl RateQuota {
    /// `limit` requests per `period_us` microseconds (a `limit` of 0 is taken as 1).
    pub fn new(limit: u32, period_us: i64) -> Self {
        let limit = i64::from(limit.max(1));
        let interval_us = (period_us / limit).max(1);
        Self { interval_us, period_us: period_us.max(interval_us) }
    }
}

/// What one take did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateTake {
    /// Whether the request was counted (else it is refused and the cell is unchanged).
    pub counted: bool,
    /// The database's time of the take, in microseconds.
    pub now_us: i64,
    /// The cell after the take (counted) or as it stood (refused); `now_us` when unknown.
    pub tat_us: i64,
}

impl RateTake {
    /// The time until the bucket is full again, in microseconds.
    pub fn reset_us(&self) -> i64 {
        (self.tat_us - self.now_us).max(0)
    }

    /// How many more requests would pass right now.
    pub fn remaining(&self, quota: RateQuota) -> u64 {
        let room = quota.period_us - self.reset_us();
        u64::try_from(room / quota.interval_us.max(1)).unwrap_or(0)
    }

    /// After a refusal: the time until one more request passes, in microseconds (at least 1).
    pub fn retry_after_us(&self, quota: RateQuota) -> i64 {
        (self.reset_us() + quota.interval_us - quota.period_us).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINUTE: i64 = 60_000_000;

    #[test]
    fn a_fresh_take_leaves_the_burst_less_one() {
        let quota = RateQuota::new(600, MINUTE);
        assert_eq!(quota.interval_us, 100_000);
        let take = RateTake { counted: true, now_us: 0, tat_us: 100_000 };
        assert_eq!(take.remaining(quota), 599);
        assert_eq!(take.reset_us(), 100_000);
    }

    #[test]
    fn an_emptied_bucket_waits_one_interval() {
        let quota = RateQuota::new(3, MINUTE);
        // Three taken at once: the cell is a whole period ahead.
        let full = RateTake { counted: false, now_us: 5, tat_us: 5 + MINUTE };
        assert_eq!(full.remaining(quota), 0);
        assert_eq!(full.retry_after_us(quota), 20_000_000);
        assert_eq!(full.reset_us(), MINUTE);
    }

    #[test]
    fn zero_limits_and_periods_stay_sane() {
        let quota = RateQuota::new(0, 0);
        assert_eq!(quota, RateQuota { interval_us: 1, period_us: 1 });
    }
}
