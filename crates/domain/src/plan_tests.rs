//! The reference's §18.6 plan tests: `decide`, tiers and allowances, the environment
//! overrides, tailoring session ceilings; plus properties of `decide`.
#![allow(clippy::unwrap_used)]

use chrono::{DateTime, Duration, TimeZone, Utc};
use proptest::prelude::*;

use super::*;

fn at(h: u32, m: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 14, h, m, 0).unwrap()
}

fn vars(pairs: &[(&str, &str)]) -> (PlanPolicy, Vec<String>) {
    PlanPolicy::from_vars(pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())))
}

fn enforced_all() -> PlanPolicy {
    vars(&[("PLAN_ENFORCE", "all")]).0
}

// scenario: Within the allowance a use is charged once
#[test]
fn within_the_allowance_charges_one_and_resets_at_utc_midnight() {
    let d = decide(&enforced_all(), Tier::Free, Feature::Tailor, 1, false, at(13, 5));
    assert!(d.allowed);
    assert_eq!((d.charge, d.used, d.limit), (1, 2, 2));
    assert_eq!(d.resets_at, Utc.with_ymd_and_hms(2026, 3, 15, 0, 0, 0).unwrap());
    assert!(!d.shadowed && !d.fair_use && !d.unlimited);
}

#[test]
fn at_the_allowance_is_refused_without_charge_and_not_fair_use() {
    let d = decide(&enforced_all(), Tier::Free, Feature::Tailor, 2, false, at(1, 0));
    assert!(!d.allowed);
    assert_eq!((d.charge, d.used), (0, 2));
    assert!(!d.fair_use && !d.shadowed);
}

// scenario: A reference already charged costs nothing
#[test]
fn an_already_paid_reference_is_allowed_free_even_at_99() {
    for tier in Tier::ALL {
        let d = decide(&enforced_all(), tier, Feature::Tailor, 99, true, at(1, 0));
        assert!(d.allowed, "{tier}");
        assert_eq!((d.charge, d.used), (0, 99));
    }
}

// scenario: Shadow mode counts but does not refuse
#[test]
fn shadow_mode_allows_over_the_limit_and_says_so() {
    let d = decide(&PlanPolicy::default(), Tier::Free, Feature::Assistant, 10, false, at(9, 0));
    assert!(d.allowed && d.shadowed);
    assert_eq!((d.charge, d.used, d.limit), (1, 11, 10));
    assert!(!d.enforced);
}

#[test]
fn pro_has_no_ceiling_and_is_unlimited() {
    let d = decide(&enforced_all(), Tier::Pro, Feature::Tailor, 39, false, at(9, 0));
    assert!(d.allowed && d.unlimited && !d.shadowed);
    assert_eq!(d.charge, 1);
}

#[test]
fn the_fair_use_guard_stops_a_script_even_in_shadow_mode() {
    let policy = PlanPolicy::default();
    assert!(!policy.enforced(Feature::Assistant));
    let d = decide(&policy, Tier::Pro, Feature::Assistant, 200, false, at(9, 0));
    assert!(!d.allowed && d.fair_use);
    assert_eq!(d.charge, 0);
}

#[test]
fn an_unconfigured_feature_is_refused_even_in_shadow_mode() {
    let policy = PlanPolicy::default();
    let d = decide(&policy, Tier::Free, Feature::AutoApply, 0, false, at(9, 0));
    assert!(!d.allowed && !d.fair_use);
    let (zero, warnings) = vars(&[("PLAN_FREE_DAILY_MATCH", "0")]);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(!zero.enforced(Feature::Match));
    let d = decide(&zero, Tier::Free, Feature::Match, 0, false, at(9, 0));
    assert!(!d.allowed && !d.shadowed && !d.fair_use);
}

#[test]
fn tier_of_prefers_ultra_and_compares_strictly() {
    let now = at(12, 0);
    let later = now + Duration::days(3);
    let further = now + Duration::days(30);
    assert_eq!(tier_of(None, None, now), Tier::Free);
    assert_eq!(tier_of(Some(later), None, now), Tier::Pro);
    assert_eq!(tier_of(None, Some(later), now), Tier::Ultra);
    // Both live.
    assert_eq!(tier_of(Some(later), Some(later), now), Tier::Ultra);
    // Ultra wins over a pro date that reaches further.
    assert_eq!(tier_of(Some(further), Some(later), now), Tier::Ultra);
    // Strict at the boundary: a tier ends exactly at its expiry.
    assert_eq!(tier_of(Some(now), None, now), Tier::Free);
    assert_eq!(tier_of(Some(later), Some(now), now), Tier::Pro);
    assert_eq!(tier_of(None, Some(now + Duration::microseconds(1)), now), Tier::Ultra);
    // Expired dates.
    assert_eq!(tier_of(Some(now - Duration::days(1)), None, now), Tier::Free);
    assert!(!Tier::Free.paid() && Tier::Pro.paid() && Tier::Ultra.paid());
}

#[test]
fn allowances_for_every_tier() {
    let p = PlanPolicy::default();
    let a = |t, f| p.allowance(t, f);
    assert_eq!(a(Tier::Free, Feature::Tailor), Allowance { limit: 2, unlimited: false });
    assert_eq!(a(Tier::Pro, Feature::Tailor), Allowance { limit: 40, unlimited: true });
    assert_eq!(a(Tier::Ultra, Feature::Tailor), Allowance { limit: 120, unlimited: true });
    let table = [
        (Feature::Match, 3, 60, 180),
        (Feature::Assistant, 10, 200, 600),
        (Feature::Dictation, 10, 200, 600),
        (Feature::CoverLetter, 3, 60, 180),
    ];
    for (f, free, pro, ultra) in table {
        assert_eq!(a(Tier::Free, f), Allowance { limit: free, unlimited: false }, "{f}");
        assert_eq!(a(Tier::Pro, f), Allowance { limit: pro, unlimited: true }, "{f}");
        assert_eq!(a(Tier::Ultra, f), Allowance { limit: ultra, unlimited: true }, "{f}");
    }
}

#[test]
fn an_unknown_feature_allows_nothing_on_every_tier() {
    let p = enforced_all();
    for tier in Tier::ALL {
        assert_eq!(p.allowance_named(tier, "teleport"), Allowance::NONE);
        assert_eq!(p.allowance_named(tier, "tailor"), p.allowance(tier, Feature::Tailor));
    }
    assert_eq!(Feature::parse("teleport"), None);
    let (_, warnings) = vars(&[("PLAN_FREE_DAILY_TELEPORT", "5")]);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
}

#[test]
fn auto_apply_is_a_real_ceiling_and_alone_enforced_by_default() {
    let p = PlanPolicy::default();
    assert_eq!(p.allowance(Tier::Free, Feature::AutoApply), Allowance::NONE);
    assert_eq!(
        p.allowance(Tier::Pro, Feature::AutoApply),
        Allowance { limit: 3, unlimited: false }
    );
    assert!(p.allowance(Tier::Ultra, Feature::AutoApply).unlimited);
    for f in Feature::ALL {
        assert_eq!(p.enforced(f), f == Feature::AutoApply, "{f}");
    }
    let d = decide(&p, Tier::Pro, Feature::AutoApply, 3, false, at(1, 0));
    assert!(!d.allowed && !d.fair_use && !d.shadowed);
}

#[test]
fn ultra_is_never_given_less_than_pro_and_turns_are_unlimited_for_both() {
    let p = PlanPolicy::default();
    for f in Feature::ALL {
        let (pro, ultra) = (p.allowance(Tier::Pro, f), p.allowance(Tier::Ultra, f));
        assert!(ultra.limit >= pro.limit, "{f}");
        assert!(ultra.unlimited || !pro.unlimited, "{f}");
    }
    for tier in [Tier::Pro, Tier::Ultra] {
        let t = decide_turn(&enforced_all(), tier, 1, 10_000);
        assert!(t.allowed && t.unlimited && !t.shadowed);
    }
    // An override that would give ultra less is raised, with a warning.
    let (p, warnings) = vars(&[("PLAN_ULTRA_DAILY_TAILOR", "10")]);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(p.allowance(Tier::Ultra, Feature::Tailor).limit, 40);
}

#[test]
fn ultras_fair_use_guard_refuses_at_120_and_allows_119() {
    let p = PlanPolicy::default();
    let d = decide(&p, Tier::Ultra, Feature::Tailor, 119, false, at(1, 0));
    assert!(d.allowed && d.charge == 1);
    let d = decide(&p, Tier::Ultra, Feature::Tailor, 120, false, at(1, 0));
    assert!(!d.allowed && d.fair_use);
}

// scenario: The free assistant allowance is configurable
#[test]
fn the_assistant_free_default_is_10_and_configurable_and_0_refuses() {
    assert_eq!(PlanPolicy::default().allowance(Tier::Free, Feature::Assistant).limit, 10);
    let (p, w) = vars(&[("PLAN_FREE_DAILY_ASSISTANT", "25")]);
    assert!(w.is_empty());
    assert_eq!(p.allowance(Tier::Free, Feature::Assistant).limit, 25);
    let (p, w) = vars(&[("PLAN_FREE_DAILY_ASSISTANT", "0")]);
    assert!(w.is_empty());
    let d = decide(&p, Tier::Free, Feature::Assistant, 0, false, at(1, 0));
    assert!(!d.allowed, "a zero allowance refuses even in shadow mode");
    // Paid tiers keep theirs.
    assert!(decide(&p, Tier::Pro, Feature::Assistant, 0, false, at(1, 0)).allowed);
}

#[test]
fn overrides_and_their_warnings() {
    let (p, w) = vars(&[
        ("PLAN_PRO_DAILY_COVER-LETTER", "70"),
        ("PLAN_FAIR_USE_MATCH", "90"),
        ("PLAN_FAIR_USE_TAILOR", "1"),
        ("PLAN_PRO_DAILY_TAILOR", "50"),
        ("PLAN_ULTRA_DAILY_ASSISTANT", "900"),
        ("PLAN_TAILOR_TURNS_PER_SESSION", "20"),
        ("PLAN_ENFORCE", "assistant, Tailor,bogus"),
        ("HOME", "/root"),
    ]);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].contains("bogus"));
    assert_eq!(
        p.allowance(Tier::Pro, Feature::CoverLetter),
        Allowance { limit: 70, unlimited: true }
    );
    assert_eq!(p.allowance(Tier::Pro, Feature::Match).limit, 90);
    // The new name wins over the legacy one.
    assert_eq!(p.allowance(Tier::Pro, Feature::Tailor).limit, 50);
    assert_eq!(p.allowance(Tier::Ultra, Feature::Assistant).limit, 900);
    assert_eq!(p.tailor_turns_per_session(), 20);
    assert!(p.enforced(Feature::Assistant) && p.enforced(Feature::Tailor));
    assert!(p.enforced(Feature::AutoApply) && !p.enforced(Feature::Match));

    for (name, value) in [
        ("PLAN_FREE_DAILY_MATCH", "-1"),
        ("PLAN_FREE_DAILY_MATCH", "lots"),
        ("PLAN_PRO_DAILY_MATCH", "0"),
        ("PLAN_ULTRA_DAILY_MATCH", "1.5"),
        ("PLAN_TAILOR_TURNS_PER_SESSION", "0"),
        ("PLAN_SOMETHING_ELSE", "1"),
    ] {
        let (p, w) = vars(&[(name, value)]);
        assert_eq!(w.len(), 1, "{name}={value}: {w:?}");
        assert_eq!(p, PlanPolicy::default(), "{name}={value} keeps the defaults");
    }
    let (p, _) = vars(&[("PLAN_ENFORCE", "ALL")]);
    assert!(Feature::ALL.iter().all(|f| p.enforced(*f)));
}

#[test]
fn features_round_trip_and_the_report_leaves_out_auto_apply() {
    for f in Feature::ALL {
        assert_eq!(Feature::parse(f.as_str()), Some(f));
    }
    assert_eq!(Feature::CoverLetter.as_str(), "cover-letter");
    assert_eq!(Feature::REPORTED.len(), 5);
    assert!(!Feature::REPORTED.contains(&Feature::AutoApply));
}

#[test]
fn standing_exhausted_and_refuses() {
    let shadow = PlanPolicy::default();
    let s = Standing::of(&shadow, Tier::Free, Feature::Assistant, 10, at(1, 0));
    assert!(s.exhausted() && !s.refuses());
    let s = Standing::of(&enforced_all(), Tier::Free, Feature::Assistant, 10, at(1, 0));
    assert!(s.exhausted() && s.refuses());
    let s = Standing::of(&enforced_all(), Tier::Free, Feature::Assistant, 9, at(1, 0));
    assert!(!s.exhausted() && !s.refuses());
    let s = Standing::of(&enforced_all(), Tier::Pro, Feature::Assistant, 900, at(1, 0));
    assert!(!s.exhausted() && !s.refuses(), "unlimited is never exhausted");
}

#[test]
fn days_are_utc_and_reset_at_the_next_midnight() {
    let late = Utc.with_ymd_and_hms(2026, 12, 31, 23, 59, 59).unwrap();
    assert_eq!(day(late).to_string(), "2026-12-31");
    assert_eq!(resets_at(late), Utc.with_ymd_and_hms(2027, 1, 1, 0, 0, 0).unwrap());
    let midnight = Utc.with_ymd_and_hms(2027, 1, 1, 0, 0, 0).unwrap();
    assert_eq!(day(midnight).to_string(), "2027-01-01");
    assert_eq!(resets_at(midnight), Utc.with_ymd_and_hms(2027, 1, 2, 0, 0, 0).unwrap());
}

// scenario: A tailoring session runs up to its ceiling
#[test]
fn tailoring_session_ceilings() {
    let enforced = enforced_all();
    assert_eq!(session_ref("sess-1", 2), "sess-1#2");
    let prefix = session_prefix("sess-1");
    assert_eq!(highest_slot(&prefix, ["sess-1#1", "sess-1#3", "sess-1#x"]), 3);
    assert_eq!(highest_slot(&prefix, ["sess-1#turn-4"]), 0);
    assert_eq!(highest_slot(&prefix, std::iter::empty()), 0);
    assert_eq!(ceilings_held(0), 1);
    assert_eq!(ceilings_held(3), 3);
    let t = decide_turn(&enforced, Tier::Free, 0, 14);
    assert!(t.allowed && !t.shadowed);
    assert_eq!(t.ceiling, 15);
    let t = decide_turn(&enforced, Tier::Free, 1, 15);
    assert!(!t.allowed);
    let t = decide_turn(&enforced, Tier::Free, 2, 15);
    assert!(t.allowed && t.ceiling == 30);
    let t = decide_turn(&PlanPolicy::default(), Tier::Free, 1, 15);
    assert!(t.allowed && t.shadowed);
}

fn any_tier() -> impl Strategy<Value = Tier> {
    prop::sample::select(Tier::ALL.to_vec())
}

fn any_feature() -> impl Strategy<Value = Feature> {
    prop::sample::select(Feature::ALL.to_vec())
}

proptest! {
    #[test]
    fn decide_charges_at_most_once_and_counts_what_it_charges(
        tier in any_tier(), feature in any_feature(), used in 0i64..1000,
        charged in any::<bool>(), enforce in any::<bool>(), minute in 0u32..1440,
    ) {
        let policy = if enforce { enforced_all() } else { PlanPolicy::default() };
        let now = at(minute / 60, minute % 60);
        let d = decide(&policy, tier, feature, used, charged, now);
        prop_assert!(d.charge == 0 || d.charge == 1);
        prop_assert_eq!(d.used, used + d.charge);
        prop_assert!(d.charge == 0 || d.allowed);
        prop_assert!(!(charged && d.charge == 1));
        prop_assert!(!(d.shadowed && d.fair_use));
        prop_assert!(!d.shadowed || (!d.enforced && d.allowed && !d.unlimited && used >= d.limit));
        prop_assert!(!d.fair_use || (!d.allowed && d.unlimited));
        prop_assert!(d.resets_at > now && d.resets_at - now <= Duration::days(1));
        // What the standing before the decision says about refusing is what decide does
        // (for a reference not yet charged, a configured allowance).
        let s = Standing::of(&policy, tier, feature, used, now);
        if !charged && d.limit > 0 && !d.unlimited {
            prop_assert_eq!(s.refuses(), !d.allowed);
        }
    }

    #[test]
    fn enforcing_never_allows_more(
        tier in any_tier(), feature in any_feature(), used in 0i64..1000,
    ) {
        let now = at(6, 0);
        let shadow = decide(&PlanPolicy::default(), tier, feature, used, false, now);
        let strict = decide(&enforced_all(), tier, feature, used, false, now);
        prop_assert!(shadow.allowed || !strict.allowed);
    }

    #[test]
    fn the_free_allowance_is_exactly_the_configured_count(limit in 1i64..50) {
        let (policy, w) = PlanPolicy::from_vars([
            ("PLAN_FREE_DAILY_ASSISTANT".to_owned(), limit.to_string()),
            ("PLAN_ENFORCE".to_owned(), "assistant".to_owned()),
        ]);
        prop_assert!(w.is_empty());
        let mut used = 0;
        let mut allowed = 0;
        for _ in 0..limit + 5 {
            let d = decide(&policy, Tier::Free, Feature::Assistant, used, false, at(3, 0));
            used = d.used;
            allowed += i64::from(d.allowed);
        }
        prop_assert_eq!(allowed, limit);
        prop_assert_eq!(used, limit);
    }
}
