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
    let d = ScheduleDefaults::default();

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
    let d = ScheduleDefaults { cadence: Duration::hours(1), timeout: Duration::minutes(50) };
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
