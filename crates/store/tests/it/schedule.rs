//! The provider schedule and its claims.

use chrono::Duration;
use freehire_domain::{BoardStatus, NewBoard, Provider};
use freehire_store::{RunStatus, ScheduleDefaults, ScheduleOverride, Store};

use crate::{boards::key, fixtures::t};

async fn add(s: &dyn Store, provider: &str, board: &str) {
    let b = NewBoard {
        key: key(provider, board),
        company: board.into(),
        url: None,
        status: BoardStatus::Active,
    };
    s.add_board(&b, t(1, 0)).await.unwrap();
}

fn p(name: &str) -> Provider {
    Provider::parse(name).unwrap()
}

// scenario: Two workers
// scenario: Outage
pub async fn due_providers_are_claimed_once_per_cadence(s: &dyn Store) {
    add(s, "lever", "acme").await;
    add(s, "ashby", "beta").await;
    add(s, "ashby", "gamma").await;
    assert_eq!(s.provider_roster().await.unwrap(), vec![p("ashby"), p("lever")]);
    // Claims that live an hour without heartbeats, so w2's silent claim holds until then.
    let d = ScheduleDefaults { timeout: Duration::hours(1), ..ScheduleDefaults::default() };

    let first = s.claim_due_provider("w1", d, t(2, 0)).await.unwrap();
    let second = s.claim_due_provider("w2", d, t(2, 0)).await.unwrap();
    assert_eq!(first, Some(p("ashby")));
    assert_eq!(second, Some(p("lever")), "a held provider is skipped by another worker");
    assert_eq!(s.claim_due_provider("w3", d, t(2, 0)).await.unwrap(), None);

    s.finish_provider_run(&p("ashby"), "w1", &RunStatus::Ok, t(2, 0) + Duration::minutes(10))
        .await
        .unwrap();
    assert_eq!(
        s.claim_due_provider("w1", d, t(2, 0) + Duration::minutes(30)).await.unwrap(),
        None,
        "not due before its cadence"
    );
    assert_eq!(s.claim_due_provider("w1", d, t(2, 1)).await.unwrap(), Some(p("ashby")));
    // An outage owes one run, not many: two days later each provider is claimed once, most
    // overdue first (lever's dead claim from w2 has long expired), then nothing is due.
    s.finish_provider_run(&p("ashby"), "w1", &RunStatus::Ok, t(2, 1)).await.unwrap();
    assert_eq!(s.claim_due_provider("w1", d, t(4, 0)).await.unwrap(), Some(p("lever")));
    assert_eq!(s.claim_due_provider("w1", d, t(4, 0)).await.unwrap(), Some(p("ashby")));
    s.finish_provider_run(&p("ashby"), "w1", &RunStatus::Ok, t(4, 0)).await.unwrap();
    s.finish_provider_run(&p("lever"), "w1", &RunStatus::Ok, t(4, 0)).await.unwrap();
    assert_eq!(s.claim_due_provider("w1", d, t(4, 0)).await.unwrap(), None);
}

pub async fn overrides_disable_and_stretch(s: &dyn Store) {
    add(s, "bamboohr", "acme").await;
    add(s, "lever", "acme").await;
    let d = ScheduleDefaults::default();
    let slow = ScheduleOverride {
        cadence: Some(Duration::hours(3)),
        timeout: None,
        disabled_reason: None,
    };
    s.set_provider_schedule(&p("bamboohr"), &slow).await.unwrap();
    let off = ScheduleOverride {
        cadence: None,
        timeout: None,
        disabled_reason: Some("blocks us".into()),
    };
    s.set_provider_schedule(&p("lever"), &off).await.unwrap();

    assert_eq!(s.claim_due_provider("w", d, t(2, 0)).await.unwrap(), Some(p("bamboohr")));
    assert_eq!(s.claim_due_provider("w", d, t(2, 0)).await.unwrap(), None, "lever is disabled");
    s.finish_provider_run(&p("bamboohr"), "w", &RunStatus::Ok, t(2, 0)).await.unwrap();
    assert_eq!(s.claim_due_provider("w", d, t(2, 2)).await.unwrap(), None);
    assert_eq!(s.claim_due_provider("w", d, t(2, 3)).await.unwrap(), Some(p("bamboohr")));
    // --once runs a disabled provider when an operator asks.
    assert!(s.claim_provider(&p("lever"), "cli", d, t(2, 3)).await.unwrap());
}

pub async fn dead_claims_expire_and_interrupted_runs_return(s: &dyn Store) {
    add(s, "workday", "acme").await;
    let d = ScheduleDefaults {
        cadence: Duration::hours(1),
        timeout: Duration::minutes(50),
        ..ScheduleDefaults::default()
    };
    assert_eq!(s.claim_due_provider("w1", d, t(2, 0)).await.unwrap(), Some(p("workday")));
    assert!(!s.claim_provider(&p("workday"), "cli", d, t(2, 0)).await.unwrap(), "held by w1");
    // w1 died: after its timeout (and once due), another worker takes over.
    assert_eq!(s.claim_due_provider("w2", d, t(2, 1)).await.unwrap(), Some(p("workday")));
    // A stale finish from w1 does not release w2's claim.
    s.finish_provider_run(&p("workday"), "w1", &RunStatus::Ok, t(2, 1)).await.unwrap();
    assert!(!s.claim_provider(&p("workday"), "cli", d, t(2, 1)).await.unwrap());
    s.finish_provider_run(&p("workday"), "w2", &RunStatus::Interrupted, t(2, 1)).await.unwrap();
    assert_eq!(
        s.claim_due_provider("w3", d, t(2, 1)).await.unwrap(),
        Some(p("workday")),
        "an interrupted run is due at once"
    );
    s.finish_provider_run(&p("workday"), "w3", &RunStatus::Failed("boom".into()), t(2, 1))
        .await
        .unwrap();
    assert!(s.claim_provider(&p("workday"), "cli", d, t(2, 1)).await.unwrap());
}

// scenario: A killed worker's claim expires
pub async fn heartbeats_keep_a_claim_and_a_dead_one_is_due_at_once(s: &dyn Store) {
    add(s, "ashby", "acme").await;
    let d = ScheduleDefaults::default();
    assert_eq!(d.timeout, Duration::seconds(90), "three missed 30 s heartbeats");
    let at = |secs: i64| t(2, 0) + Duration::seconds(secs);
    assert_eq!(s.claim_due_provider("w1", d, at(0)).await.unwrap(), Some(p("ashby")));
    // A live run renews its claim: long past the first expiry it is still held.
    for beat in [30, 60, 90, 120] {
        assert!(s.renew_provider_claim(&p("ashby"), "w1", at(beat)).await.unwrap());
    }
    assert!(!s.claim_provider(&p("ashby"), "cli", d, at(200)).await.unwrap(), "renewed at 120 s");
    let holder = s.provider_claim(&p("ashby")).await.unwrap().unwrap();
    assert_eq!((holder.worker.as_str(), holder.since, holder.heartbeat), ("w1", at(0), at(120)));
    // w1 is killed: 90 s after its last heartbeat the claim is dead, and although its next
    // run is an hour away the provider is due at once (the dead run owes a run).
    assert_eq!(s.claim_due_provider("w2", d, at(209)).await.unwrap(), None);
    assert_eq!(s.claim_due_provider("w2", d, at(211)).await.unwrap(), Some(p("ashby")));
    // w1's heartbeat fails once w2 holds the claim: its run stops writing.
    assert!(!s.renew_provider_claim(&p("ashby"), "w1", at(212)).await.unwrap());
    assert!(s.renew_provider_claim(&p("ashby"), "w2", at(212)).await.unwrap());
    s.finish_provider_run(&p("ashby"), "w2", &RunStatus::Ok, at(300)).await.unwrap();
    assert_eq!(s.provider_claim(&p("ashby")).await.unwrap(), None);
    assert_eq!(s.claim_due_provider("w3", d, at(400)).await.unwrap(), None, "ran; not due");
}

// scenario: Taking over a claim
pub async fn take_over_claims_a_held_provider_and_names_the_holder(s: &dyn Store) {
    add(s, "ashby", "acme").await;
    let d = ScheduleDefaults::default();
    let at = |secs: i64| t(2, 0) + Duration::seconds(secs);
    assert!(s.claim_provider(&p("ashby"), "w1", d, at(0)).await.unwrap());
    assert!(s.renew_provider_claim(&p("ashby"), "w1", at(30)).await.unwrap());
    let previous = s.take_over_provider(&p("ashby"), "cli", d, at(40)).await.unwrap().unwrap();
    assert_eq!(
        (previous.worker.as_str(), previous.since, previous.heartbeat),
        ("w1", at(0), at(30))
    );
    assert_eq!(s.provider_claim(&p("ashby")).await.unwrap().unwrap().worker, "cli");
    assert!(!s.renew_provider_claim(&p("ashby"), "w1", at(50)).await.unwrap(), "w1 lost it");
    // Taking over a dead or free claim names no previous holder.
    s.finish_provider_run(&p("ashby"), "cli", &RunStatus::Ok, at(60)).await.unwrap();
    assert_eq!(s.take_over_provider(&p("ashby"), "cli2", d, at(70)).await.unwrap(), None);
    assert_eq!(s.take_over_provider(&p("ashby"), "cli3", d, at(500)).await.unwrap(), None);
}

// scenario: The fleet cap and slow providers
pub async fn the_fleet_cap_holds_and_slow_providers_wait_three_hours(s: &dyn Store) {
    for provider in ["ashby", "bamboohr", "lever"] {
        add(s, provider, "acme").await;
    }
    let d = ScheduleDefaults {
        timeout: Duration::hours(1),
        slow: &["bamboohr"],
        fleet_cap: 2,
        ..ScheduleDefaults::default()
    };
    assert_eq!(s.claim_due_provider("w1", d, t(2, 0)).await.unwrap(), Some(p("ashby")));
    assert_eq!(s.claim_due_provider("w2", d, t(2, 0)).await.unwrap(), Some(p("bamboohr")));
    assert_eq!(
        s.claim_due_provider("w3", d, t(2, 0)).await.unwrap(),
        None,
        "two runs stand: lever waits although it is due"
    );
    s.finish_provider_run(&p("ashby"), "w1", &RunStatus::Ok, t(2, 0)).await.unwrap();
    assert_eq!(s.claim_due_provider("w3", d, t(2, 0)).await.unwrap(), Some(p("lever")));
    s.finish_provider_run(&p("bamboohr"), "w2", &RunStatus::Ok, t(2, 0)).await.unwrap();
    s.finish_provider_run(&p("lever"), "w3", &RunStatus::Ok, t(2, 0)).await.unwrap();
    // An hour later the hourly providers are due again; the slow one only after three.
    let due = |at| async move {
        let mut due = Vec::new();
        while let Some(provider) = s.claim_due_provider("w", d, at).await.unwrap() {
            s.finish_provider_run(&provider, "w", &RunStatus::Ok, at).await.unwrap();
            due.push(provider.to_string());
        }
        due.sort();
        due
    };
    assert_eq!(due(t(2, 1)).await, ["ashby", "lever"]);
    assert_eq!(due(t(2, 2)).await, ["ashby", "lever"]);
    assert_eq!(due(t(2, 3)).await, ["ashby", "bamboohr", "lever"]);
}
