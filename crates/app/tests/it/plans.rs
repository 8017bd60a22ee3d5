//! Turn metering (reference §13.5, §18.5 "Metering") on both backends: a chat turn counts
//! once, a retry costs nothing, an enforced spent allowance refuses with its allowance, a
//! failed turn is refunded, tailoring turns use their session ceiling and no assistant
//! allowance, and a failing store lets the turn run.

use std::sync::Arc;

use chrono::{DateTime, TimeZone, Utc};
use freehire_app::{
    assistant::Preset,
    plans::{Charge, Metered, Plans, turn_ref},
};
use freehire_assistant::SessionId;
use freehire_domain::{
    UserId,
    plan::{Allowance, Feature, PlanPolicy, Tier},
};
use freehire_store::{Store, testing::TestDb};

fn clock() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 3, 10, 0, 0).unwrap()
}

async fn user(s: &dyn Store, address: &str) -> UserId {
    freehire_store::testing::user(s, address, clock()).await.id
}

async fn assistant_used(plans: &Plans, u: UserId) -> i64 {
    plans.standing(u, Feature::Assistant).await.unwrap().used
}

fn charge(m: &Metered) -> Option<Charge> {
    match m {
        Metered::Allowed(c) => c.clone(),
        Metered::Refused(r) => panic!("refused: {}", r.message),
    }
}

// scenario: A chat turn is counted once
pub async fn a_chat_turn_counts_once_and_a_retry_costs_nothing(db: &TestDb) {
    let store = db.second_store().await;
    let plans = Plans::new(Arc::clone(&store), PlanPolicy::default(), clock);
    let u = user(store.as_ref(), "ann@example.com").await;
    let session = SessionId::random();
    let first = plans.meter_turn(u, session, Preset::Chat, 0).await;
    assert_eq!(
        charge(&first),
        Some(Charge { feature: Feature::Assistant, reference: turn_ref(session, 1) })
    );
    assert_eq!(assistant_used(&plans, u).await, 1);
    let rows = db.scalar("SELECT used FROM usage_daily WHERE feature = 'assistant'").await;
    assert_eq!(rows, 1);
    // The retry of turn 1 names the same reference: nothing more is charged (and there is
    // nothing to refund if the retry fails).
    let retry = plans.meter_retry(u, session, Preset::Chat, 1).await;
    assert_eq!(charge(&retry), None);
    assert_eq!(assistant_used(&plans, u).await, 1);
    // A retry before any turn charges nothing.
    assert_eq!(charge(&plans.meter_retry(u, session, Preset::Chat, 0).await), None);
    // The next turn is the second charge.
    let second = plans.meter_turn(u, session, Preset::Interview, 1).await;
    assert_eq!(charge(&second).unwrap().reference, format!("{session}#turn-2"));
    assert_eq!(assistant_used(&plans, u).await, 2);
    store.close().await;
}

// scenario: A spent allowance refuses with the allowance
pub async fn a_spent_enforced_allowance_refuses_with_the_allowance(db: &TestDb) {
    let store = db.second_store().await;
    let (policy, warnings) = PlanPolicy::from_vars([
        ("PLAN_ENFORCE".to_owned(), "assistant".to_owned()),
        ("PLAN_FREE_DAILY_ASSISTANT".to_owned(), "2".to_owned()),
    ]);
    assert!(warnings.is_empty());
    let plans = Plans::new(Arc::clone(&store), policy, clock);
    let u = user(store.as_ref(), "ann@example.com").await;
    let session = SessionId::random();
    for turns in 0..2 {
        assert!(charge(&plans.meter_turn(u, session, Preset::Chat, turns).await).is_some());
    }
    let Metered::Refused(refusal) = plans.meter_turn(u, session, Preset::Chat, 2).await else {
        panic!("the third turn must be refused");
    };
    let body = refusal.body.to_string();
    assert!(body.contains("allowance"), "{body}");
    assert!(!body.contains("event:") && !body.contains("data:"), "{body}");
    assert_eq!(refusal.body["code"], "quota_exceeded");
    assert_eq!(refusal.body["error"], refusal.message.as_str());
    assert_eq!(refusal.body["allowance"]["feature"], "assistant");
    assert_eq!(refusal.body["allowance"]["used"], 2);
    assert_eq!(refusal.body["allowance"]["limit"], 2);
    assert_eq!(refusal.body["allowance"]["enforced"], true);
    assert_eq!(refusal.body["allowance"]["resets_at"], "2026-11-04T00:00:00Z");
    assert_eq!(assistant_used(&plans, u).await, 2, "a refusal charges nothing");
    // Shadow mode (the default) counts the same turn and lets it run.
    let shadow = Plans::new(Arc::clone(&store), PlanPolicy::default(), clock);
    assert!(charge(&shadow.meter_turn(u, session, Preset::Chat, 2).await).is_some());
    assert_eq!(assistant_used(&shadow, u).await, 3);
    // A zero free allowance refuses even in shadow mode.
    let (zero, _) =
        PlanPolicy::from_vars([("PLAN_FREE_DAILY_ASSISTANT".to_owned(), "0".to_owned())]);
    let zero = Plans::new(Arc::clone(&store), zero, clock);
    let other = user(store.as_ref(), "bob@example.com").await;
    assert!(matches!(zero.meter_turn(other, session, Preset::Chat, 0).await, Metered::Refused(_)));
    store.close().await;
}

pub async fn a_released_charge_is_refunded(db: &TestDb) {
    let store = db.second_store().await;
    let plans = Plans::new(Arc::clone(&store), PlanPolicy::default(), clock);
    let u = user(store.as_ref(), "ann@example.com").await;
    let session = SessionId::random();
    let held = charge(&plans.meter_turn(u, session, Preset::Chat, 0).await).unwrap();
    assert_eq!(assistant_used(&plans, u).await, 1);
    plans.release(u, &held).await;
    assert_eq!(assistant_used(&plans, u).await, 0);
    // Releasing again is harmless; the retry of the failed turn charges again.
    plans.release(u, &held).await;
    assert_eq!(assistant_used(&plans, u).await, 0);
    let again = plans.meter_retry(u, session, Preset::Chat, 1).await;
    assert_eq!(charge(&again), Some(held));
    assert_eq!(assistant_used(&plans, u).await, 1);
    let ledger = db.scalar("SELECT count(*) FROM usage_ledger WHERE kind = 'release'").await;
    assert_eq!(ledger, 1);
    store.close().await;
}

// scenario: A tailoring session runs up to its ceiling
pub async fn a_tailor_turn_uses_its_ceiling_and_no_assistant_allowance(db: &TestDb) {
    let store = db.second_store().await;
    let policy =
        PlanPolicy::default().with_tailor_turns_per_session(1).enforcing(&[Feature::Tailor]);
    let plans = Plans::new(Arc::clone(&store), policy, clock);
    let u = user(store.as_ref(), "ann@example.com").await;
    let session = SessionId::random();
    assert_eq!(charge(&plans.meter_turn(u, session, Preset::Tailor, 0).await), None);
    assert_eq!(assistant_used(&plans, u).await, 0, "a tailoring turn consumes no assistant turn");
    let Metered::Refused(refusal) = plans.meter_turn(u, session, Preset::Tailor, 1).await else {
        panic!("the second turn is past a ceiling of 1");
    };
    assert_eq!(refusal.body["allowance"]["feature"], "tailor");
    assert_eq!(refusal.body["session"]["ceiling"], 1);
    assert_eq!(refusal.body["session"]["turns"], 1);
    assert_eq!(refusal.body["session"]["id"], session.to_string());
    assert_eq!(refusal.body["can_extend"], true);
    // A second ceiling (an extension charged as `<session>#2`) admits another turn.
    store
        .consume(u, Feature::Tailor, &format!("{session}#2"), plans.policy(), clock())
        .await
        .unwrap();
    assert!(matches!(
        plans.meter_turn(u, session, Preset::Tailor, 1).await,
        Metered::Allowed(None)
    ));
    // A retry of a tailoring turn is never checked.
    assert!(matches!(
        plans.meter_retry(u, session, Preset::Tailor, 9).await,
        Metered::Allowed(None)
    ));
    // Unenforced, past the ceiling is shadowed; paid tiers have none.
    let shadow = Plans::new(
        Arc::clone(&store),
        PlanPolicy::default().with_tailor_turns_per_session(1),
        clock,
    );
    assert!(matches!(
        shadow.meter_turn(u, session, Preset::Tailor, 5).await,
        Metered::Allowed(None)
    ));
    db.execute(&format!(
        "UPDATE users SET pro_until = '2099-01-01T00:00:00.000000Z' WHERE id = {}",
        u.get()
    ))
    .await;
    assert!(matches!(
        plans.meter_turn(u, session, Preset::Tailor, 500).await,
        Metered::Allowed(None)
    ));
    assert_eq!(plans.standing(u, Feature::Tailor).await.unwrap().tier, Tier::Pro);
    store.close().await;
}

pub async fn usage_reports_every_feature_and_a_failing_store_fails_open(db: &TestDb) {
    let store = db.second_store().await;
    let policy = PlanPolicy::default().with_allowance(
        Tier::Free,
        Feature::Assistant,
        Allowance { limit: 1, unlimited: false },
    );
    let plans = Plans::new(Arc::clone(&store), policy.enforcing(&[Feature::Assistant]), clock);
    let u = user(store.as_ref(), "ann@example.com").await;
    plans.meter_turn(u, SessionId::random(), Preset::Chat, 0).await;
    let usage = plans.usage(u).await.unwrap();
    assert_eq!(usage.len(), Feature::REPORTED.len());
    let assistant = usage.iter().find(|s| s.feature == Feature::Assistant).unwrap();
    assert!(assistant.refuses());
    // With the store gone, a turn runs uncharged instead of failing.
    store.close().await;
    assert_eq!(
        plans.meter_turn(u, SessionId::random(), Preset::Chat, 0).await,
        Metered::Allowed(None)
    );
    assert!(plans.usage(u).await.is_err());
}
