//! Reality signals (reference search-ingest §5.10, thresholds §15.6): whether a posting looks
//! like a real, current vacancy or a standing advert, from its age, its role's history at the
//! company (the `(company_slug, role_fingerprint)` cluster) and its wording. Time-dependent,
//! so computed when served or indexed, never stored.

use chrono::{DateTime, Utc};

use crate::RealityClass;

/// A posting this young (days since first seen) and without evergreen wording is fresh.
pub const FRESH_DAYS: i64 = 14;
/// A posting this old (days since first seen) is old.
pub const OLD_DAYS: i64 = 90;
/// Earlier postings of the role (closed and posted again) that make it reposted.
pub const REPOST_MIN: u32 = 3;
/// Open postings of the role at once that make it mass-posted.
pub const MASS_MIN: u32 = 5;
/// Signals that together say "likely evergreen".
pub const CONVERGENCE: usize = 2;
/// An old posting whose source claims a date this recent has fake freshness.
pub const FAKE_FRESHNESS_DAYS: i64 = 14;

/// What the signals are read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RealityInputs {
    /// When the catalogue first saw the posting.
    pub created_at: DateTime<Utc>,
    /// The date the source claims, if any.
    pub source_posted_at: Option<DateTime<Utc>>,
    /// Postings of the role at the company ever seen, open or closed, this one included.
    pub repost_count: u32,
    /// Postings of the role open at once, this one included.
    pub mass_posting_count: u32,
    /// Whether the title or text says it is a standing advert ("talent pool", "evergreen").
    pub evergreen_text: bool,
}

/// The signals' verdict, as served (`reality` on a job and a hit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reality {
    /// The class.
    pub class: RealityClass,
    /// Whole days since first seen.
    pub age_days: i64,
    /// Postings of the role ever seen.
    pub repost_count: u32,
    /// Postings of the role open at once.
    pub mass_posting_count: u32,
    /// Old, yet the source claims a date within [`FAKE_FRESHNESS_DAYS`].
    pub fake_freshness: bool,
}

/// Classifies a posting at `now`: old (≥ 90 days), reposted (≥ 3 earlier postings of the role
/// beyond those open now), mass-posted (≥ 5 open at once) and evergreen wording are the
/// signals; two or more make it `likely-evergreen`, else it is `fresh` within 14 days without
/// evergreen wording, else `stale`.
pub fn classify(inputs: &RealityInputs, now: DateTime<Utc>) -> Reality {
    let age_days = (now - inputs.created_at).num_days().max(0);
    let old = age_days >= OLD_DAYS;
    let reposted = inputs.repost_count.saturating_sub(inputs.mass_posting_count) >= REPOST_MIN;
    let mass = inputs.mass_posting_count >= MASS_MIN;
    let signals = [old, reposted, mass, inputs.evergreen_text].into_iter().filter(|s| *s).count();
    let class = if signals >= CONVERGENCE {
        RealityClass::LikelyEvergreen
    } else if age_days <= FRESH_DAYS && !inputs.evergreen_text {
        RealityClass::Fresh
    } else {
        RealityClass::Stale
    };
    let claimed_recent = inputs
        .source_posted_at
        .is_some_and(|at| (now - at).num_days() <= FAKE_FRESHNESS_DAYS && at <= now);
    Reality {
        class,
        age_days,
        repost_count: inputs.repost_count,
        mass_posting_count: inputs.mass_posting_count,
        fake_freshness: old && claimed_recent,
    }
}

#[cfg(test)]
mod tests {
    use chrono::{Duration, TimeZone};

    use super::*;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 12, 1, 12, 0, 0).unwrap()
    }

    fn aged(days: i64) -> RealityInputs {
        RealityInputs {
            created_at: now() - Duration::days(days),
            source_posted_at: None,
            repost_count: 1,
            mass_posting_count: 1,
            evergreen_text: false,
        }
    }

    // The reference's expectations (§16.5).
    #[test]
    fn the_reference_cases() {
        assert_eq!(classify(&aged(5), now()).class, RealityClass::Fresh);
        assert_eq!(classify(&aged(100), now()).class, RealityClass::Stale);
        let reposted = RealityInputs { repost_count: 4, ..aged(100) };
        assert_eq!(classify(&reposted, now()).class, RealityClass::LikelyEvergreen);
        let claimed =
            RealityInputs { source_posted_at: Some(now() - Duration::days(3)), ..aged(95) };
        let r = classify(&claimed, now());
        assert!(r.fake_freshness);
        assert_eq!(r.age_days, 95);
    }

    #[test]
    fn each_signal_alone_is_not_enough_and_two_are() {
        let evergreen = RealityInputs { evergreen_text: true, ..aged(3) };
        assert_eq!(classify(&evergreen, now()).class, RealityClass::Stale, "not fresh");
        let mass = RealityInputs { repost_count: 5, mass_posting_count: 5, ..aged(3) };
        assert_eq!(classify(&mass, now()).class, RealityClass::Fresh);
        let both = RealityInputs { evergreen_text: true, ..mass };
        assert_eq!(classify(&both, now()).class, RealityClass::LikelyEvergreen);
        // Open copies are not reposts: 7 ever, 5 open is 2 earlier postings.
        let copies = RealityInputs { repost_count: 7, mass_posting_count: 5, ..aged(3) };
        assert_eq!(classify(&copies, now()).class, RealityClass::Fresh);
        let reposted = RealityInputs { repost_count: 8, ..copies };
        assert_eq!(classify(&reposted, now()).class, RealityClass::LikelyEvergreen);
    }

    #[test]
    fn boundaries() {
        assert_eq!(classify(&aged(14), now()).class, RealityClass::Fresh);
        assert_eq!(classify(&aged(15), now()).class, RealityClass::Stale);
        let at_89 = RealityInputs { evergreen_text: true, ..aged(89) };
        assert_eq!(classify(&at_89, now()).class, RealityClass::Stale);
        let at_90 = RealityInputs { evergreen_text: true, ..aged(90) };
        assert_eq!(classify(&at_90, now()).class, RealityClass::LikelyEvergreen);
        // Fake freshness needs an old posting and a recent claimed date, not a future one.
        let young = RealityInputs { source_posted_at: Some(now()), ..aged(30) };
        assert!(!classify(&young, now()).fake_freshness);
        let future =
            RealityInputs { source_posted_at: Some(now() + Duration::days(2)), ..aged(120) };
        assert!(!classify(&future, now()).fake_freshness);
        let stale_claim =
            RealityInputs { source_posted_at: Some(now() - Duration::days(15)), ..aged(120) };
        assert!(!classify(&stale_claim, now()).fake_freshness);
        // A clock behind the first sighting is age 0, not negative.
        assert_eq!(classify(&aged(-1), now()).age_days, 0);
    }
}
