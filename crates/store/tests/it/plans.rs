//! Plans and gateway keys: every `PlanRepo` and `LlmKeyRepo` method, the tier read from the
//! account, idempotent charges and releases, enforced allowances under 20 concurrent charges,
//! and that the key claim keeps the first of racing claims.

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use freehire_domain::{
    User,
    plan::{Feature, PlanPolicy, Tier},
};
use freehire_store::{Store, StoredKey, testing::TestDb};
use secrecy::ExposeSecret;

use crate::fixtures::t;

async fn user(s: &dyn Store, address: &str) -> User {
    freehire_store::testing::user(s, address, t(1, 9)).await
}

fn enforced() -> PlanPolicy {
    PlanPolicy::default().enforcing(&Feature::ALL)
}

fn stamp(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
}

pub async fn a_charge_counts_once_per_reference_and_refuses_at_the_limit(db: &TestDb) {
    let s = db.store();
    let u = user(s, "ann@example.com").await;
    let other = user(s, "bob@example.com").await;
    let policy = enforced();
    let now = t(3, 10);
    let d = s.consume(u.id, Feature::Tailor, "a", &policy, now).await.unwrap();
    assert!(d.allowed && d.charge == 1 && d.used == 1 && d.tier == Tier::Free);
    // The same reference again: allowed, free.
    let d = s.consume(u.id, Feature::Tailor, "a", &policy, now).await.unwrap();
    assert!(d.allowed && d.charge == 0 && d.used == 1);
    let d = s.consume(u.id, Feature::Tailor, "b", &policy, now).await.unwrap();
    assert!(d.allowed && d.used == 2);
    let d = s.consume(u.id, Feature::Tailor, "c", &policy, now).await.unwrap();
    assert!(!d.allowed && d.charge == 0 && d.used == 2 && !d.fair_use);
    // Nothing was written for the refusal.
    let rows = db
        .scalar(&format!("SELECT count(*) FROM usage_ledger WHERE user_id = {}", u.id.get()))
        .await;
    assert_eq!(rows, 2);
    // Another feature, another user and another day have their own counters.
    assert!(s.consume(u.id, Feature::Match, "c", &policy, now).await.unwrap().allowed);
    assert!(s.consume(other.id, Feature::Tailor, "c", &policy, now).await.unwrap().allowed);
    let tomorrow = now + Duration::days(1);
    let d = s.consume(u.id, Feature::Tailor, "c", &policy, tomorrow).await.unwrap();
    assert!(d.allowed && d.used == 1);
    // A reference charged yesterday is still charged today.
    let d = s.consume(u.id, Feature::Tailor, "a", &policy, tomorrow).await.unwrap();
    assert!(d.allowed && d.charge == 0 && d.used == 1);
}

pub async fn shadow_mode_counts_over_the_limit(db: &TestDb) {
    let s = db.store();
    let u = user(s, "ann@example.com").await;
    let shadow = PlanPolicy::default();
    for n in 0..12 {
        let d =
            s.consume(u.id, Feature::Assistant, &format!("t{n}"), &shadow, t(3, 10)).await.unwrap();
        assert!(d.allowed, "turn {n}");
        assert_eq!(d.shadowed, n >= 10, "turn {n}");
    }
    let st = s.standing(u.id, Feature::Assistant, &shadow, t(3, 11)).await.unwrap();
    assert_eq!((st.used, st.limit), (12, 10));
    assert!(st.exhausted() && !st.refuses());
}

pub async fn the_tier_comes_from_the_account_columns(db: &TestDb) {
    let s = db.store();
    let u = user(s, "ann@example.com").await;
    let now = t(3, 10);
    let policy = enforced();
    db.execute(&format!(
        "UPDATE users SET pro_until = '{}' WHERE id = {}",
        stamp(now + Duration::days(30)),
        u.id.get()
    ))
    .await;
    let d = s.consume(u.id, Feature::Tailor, "a", &policy, now).await.unwrap();
    assert!(d.allowed && d.tier == Tier::Pro && d.unlimited && d.limit == 40);
    db.execute(&format!(
        "UPDATE users SET ultra_until = '{}' WHERE id = {}",
        stamp(now + Duration::days(1)),
        u.id.get()
    ))
    .await;
    let st = s.standing(u.id, Feature::Tailor, &policy, now).await.unwrap();
    assert_eq!((st.tier, st.used, st.limit), (Tier::Ultra, 1, 120));
    // Exactly at the expiry the tier has ended.
    let st = s.standing(u.id, Feature::Tailor, &policy, now + Duration::days(30)).await.unwrap();
    assert_eq!(st.tier, Tier::Free);
}

// scenario: A released charge is refunded
pub async fn a_release_voids_the_charge_once_and_never_goes_below_zero(db: &TestDb) {
    let s = db.store();
    let u = user(s, "ann@example.com").await;
    let policy = enforced();
    let now = t(3, 10);
    s.consume(u.id, Feature::Assistant, "s#turn-1", &policy, now).await.unwrap();
    s.consume(u.id, Feature::Assistant, "s#turn-2", &policy, now).await.unwrap();
    assert!(s.release(u.id, Feature::Assistant, "s#turn-1", now).await.unwrap());
    assert!(!s.release(u.id, Feature::Assistant, "s#turn-1", now).await.unwrap());
    assert!(!s.release(u.id, Feature::Assistant, "never", now).await.unwrap());
    let st = s.standing(u.id, Feature::Assistant, &policy, now).await.unwrap();
    assert_eq!(st.used, 1);
    let kinds = db
        .scalar(&format!(
            "SELECT count(*) FROM usage_ledger WHERE user_id = {} AND ref = 's#turn-1' AND kind = 'release'",
            u.id.get()
        ))
        .await;
    assert_eq!(kinds, 1, "the released row is kept as the audit trail");
    // Released on the day it was charged, even a day later.
    s.consume(u.id, Feature::Match, "m", &policy, now).await.unwrap();
    assert!(s.release(u.id, Feature::Match, "m", now + Duration::days(1)).await.unwrap());
    assert_eq!(s.standing(u.id, Feature::Match, &policy, now).await.unwrap().used, 0);
    // A counter someone zeroed stays at 0 on release.
    s.consume(u.id, Feature::Dictation, "d", &policy, now).await.unwrap();
    db.execute("UPDATE usage_daily SET used = 0 WHERE feature = 'dictation'").await;
    assert!(s.release(u.id, Feature::Dictation, "d", now).await.unwrap());
    assert_eq!(s.standing(u.id, Feature::Dictation, &policy, now).await.unwrap().used, 0);
    // A released reference may be charged again.
    let d = s.consume(u.id, Feature::Assistant, "s#turn-1", &policy, now).await.unwrap();
    assert!(d.allowed && d.charge == 1 && d.used == 2);
}

pub async fn usage_lists_every_reported_feature_and_refs_match_by_prefix(db: &TestDb) {
    let s = db.store();
    let u = user(s, "ann@example.com").await;
    let policy = PlanPolicy::default();
    let now = t(3, 10);
    for r in ["sess-1#1", "sess-1#2", "sess-12#1", "sess-1"] {
        s.consume(u.id, Feature::Tailor, r, &policy, now).await.unwrap();
    }
    s.consume(u.id, Feature::Assistant, "sess-1#turn-1", &policy, now).await.unwrap();
    s.release(u.id, Feature::Tailor, "sess-1#2", now).await.unwrap();
    let refs = s.consumption_refs(u.id, Feature::Tailor, "sess-1#").await.unwrap();
    assert_eq!(refs, ["sess-1#1"]);
    let usage = s.usage(u.id, &policy, now).await.unwrap();
    let features: Vec<_> = usage.iter().map(|st| st.feature).collect();
    assert_eq!(features, Feature::REPORTED);
    let used: Vec<_> = usage.iter().map(|st| st.used).collect();
    assert_eq!(used, [3, 0, 1, 0, 0]);
    // Tomorrow everything is back at 0.
    let usage = s.usage(u.id, &policy, now + Duration::days(1)).await.unwrap();
    assert!(usage.iter().all(|st| st.used == 0));
    // A user's rows go with the account.
    s.delete_user(u.id).await.unwrap();
    assert_eq!(db.scalar("SELECT count(*) FROM usage_ledger").await, 0);
    assert_eq!(db.scalar("SELECT count(*) FROM usage_daily").await, 0);
}

// scenario: Concurrent charges never pass an enforced allowance
pub async fn concurrent_charges_never_pass_an_enforced_allowance(db: &TestDb) {
    let u = user(db.store(), "ann@example.com").await;
    let policy = PlanPolicy::default()
        .with_allowance(
            Tier::Free,
            Feature::Assistant,
            freehire_domain::plan::Allowance { limit: 10, unlimited: false },
        )
        .enforcing(&[Feature::Assistant]);
    let stores: Vec<Arc<dyn Store>> = vec![db.second_store().await, db.second_store().await];
    let mut set = tokio::task::JoinSet::new();
    for n in 0..20 {
        let store = Arc::clone(&stores[n % 2]);
        let policy = policy.clone();
        set.spawn(async move {
            store
                .consume(u.id, Feature::Assistant, &format!("r{n}"), &policy, t(3, 10))
                .await
                .unwrap()
        });
    }
    // The same reference four times at once, through both stores: charged once.
    for n in 0..4 {
        let store = Arc::clone(&stores[n % 2]);
        let policy = PlanPolicy::default();
        set.spawn(async move {
            store.consume(u.id, Feature::Match, "same", &policy, t(3, 10)).await.unwrap()
        });
    }
    let mut allowed = 0;
    let mut match_charges = 0;
    while let Some(d) = set.join_next().await {
        let d = d.unwrap();
        match d.feature {
            Feature::Assistant => allowed += i32::from(d.allowed),
            _ => match_charges += d.charge,
        }
    }
    assert_eq!(allowed, 10);
    assert_eq!(match_charges, 1);
    let st = db.store().standing(u.id, Feature::Assistant, &policy, t(3, 10)).await.unwrap();
    assert_eq!(st.used, 10);
    assert!(st.refuses());
    // The ledger agrees with the counter: no charge counted twice or lost.
    let ledger =
        "SELECT count(*) FROM usage_ledger WHERE feature = 'assistant' AND kind = 'consume'";
    assert_eq!(db.scalar(ledger).await, 10);
    for s in stores {
        s.close().await;
    }
}

pub async fn a_key_is_claimed_once_and_cleared_only_by_its_secret(db: &TestDb) {
    let s = db.store();
    let u = user(s, "ann@example.com").await;
    assert!(s.llm_key(u.id).await.unwrap().is_none());
    let first = StoredKey::new("sk-first", Some("vk-1".to_owned()));
    let second = StoredKey::new("sk-second", Some("vk-2".to_owned()));
    let won = s.claim_llm_key(u.id, &first).await.unwrap().unwrap();
    assert!(won.is("sk-first"));
    // The loser adopts the winner's key.
    let lost = s.claim_llm_key(u.id, &second).await.unwrap().unwrap();
    assert!(lost.is("sk-first") && lost.id.as_deref() == Some("vk-1"));
    let stored = s.llm_key(u.id).await.unwrap().unwrap();
    assert_eq!(stored.secret.expose_secret(), "sk-first");
    // Clearing with another secret leaves it; with its own clears it.
    assert!(!s.clear_llm_key(u.id, "sk-second").await.unwrap());
    assert!(s.llm_key(u.id).await.unwrap().is_some());
    assert!(s.clear_llm_key(u.id, "sk-first").await.unwrap());
    assert!(s.llm_key(u.id).await.unwrap().is_none());
    // A key without an id (stored before ids were kept) reads with none.
    db.execute(&format!("UPDATE users SET llm_key = 'sk-old' WHERE id = {}", u.id.get())).await;
    let old = s.llm_key(u.id).await.unwrap().unwrap();
    assert!(old.is("sk-old") && old.id.is_none());
    // No account: nothing stored, nothing claimed.
    s.delete_user(u.id).await.unwrap();
    assert!(s.claim_llm_key(u.id, &first).await.unwrap().is_none());
    assert!(s.llm_key(u.id).await.unwrap().is_none());
}
