//! Turn locks across API processes: two `TurnLocks::shared` over two store connections to one
//! database (two processes' pools), on both backends (production shares them on PostgreSQL;
//! SQLite keeps the local variant, but the shared one holds on it too). Timing bounds are
//! generous ceilings, never the figure measured.

use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};
use freehire_app::assistant::turns::{
    Claim, LeaseTiming, QueuedTurn, TurnGuard, TurnLockError, TurnLocks,
};
use freehire_assistant::SessionId;
use freehire_domain::{Email, Language, Role};
use freehire_store::{Backend, NewSession, NewUser, Store, testing::TestDb};
use tokio_util::sync::CancellationToken;

/// A session of a fresh user.
async fn session(store: &dyn Store) -> SessionId {
    let email = Email::parse("ada@example.com").unwrap();
    let language = Language::english();
    let at = Utc.with_ymd_and_hms(2026, 11, 2, 9, 0, 0).unwrap();
    let new = NewUser {
        email: &email,
        password_hash: None,
        role: Role::User,
        email_verified: true,
        language: &language,
    };
    let user = store.create_user(&new, at).await.unwrap();
    let new = NewSession { owner: user.id, preset: "chat", label: None, cv_id: None, job_id: None };
    store.create_session(new, at).await.unwrap().id
}

/// Lease timing for tests: `ttl` and `renew_every` as given, polls every 100 ms.
fn fast(ttl: Duration, renew_every: Duration) -> LeaseTiming {
    let poll = Duration::from_millis(100);
    LeaseTiming { ttl, renew_every, poll_every: poll, queue_poll: poll }
}

/// Two "processes": shared locks over two pools of one database.
async fn two_processes(db: &TestDb, timing: LeaseTiming) -> (TurnLocks, TurnLocks, SessionId) {
    let id = session(db.store()).await;
    let a = TurnLocks::shared_with(db.store.clone(), timing);
    let b = TurnLocks::shared_with(db.second_store().await, timing);
    (a, b, id)
}

async fn run(locks: &TurnLocks, id: SessionId, cancel: &CancellationToken) -> TurnGuard {
    match locks.claim(id, cancel.clone()).await.unwrap() {
        Claim::Run(guard) => guard,
        Claim::Queued(_) => panic!("expected to run at once"),
    }
}

async fn queued(locks: &TurnLocks, id: SessionId, cancel: &CancellationToken) -> QueuedTurn {
    match locks.claim(id, cancel.clone()).await.unwrap() {
        Claim::Queued(q) => q,
        Claim::Run(_) => panic!("expected to queue"),
    }
}

/// Waits (bounded) for `token` to be cancelled; how long it took.
async fn cancelled_within(token: &CancellationToken, bound: Duration) -> Duration {
    let started = Instant::now();
    tokio::time::timeout(bound, token.cancelled()).await.expect("the token was cancelled in time");
    started.elapsed()
}

pub async fn one_turn_runs_across_processes_the_second_waits_and_the_third_is_refused(db: &TestDb) {
    let (a, b, id) = two_processes(db, LeaseTiming::default()).await;
    let running = CancellationToken::new();
    let guard = run(&a, id, &running).await;
    assert_eq!(a.running(), 1);
    let waiting = CancellationToken::new();
    let second = queued(&b, id, &waiting).await;
    for locks in [&a, &b] {
        let third = locks.claim(id, CancellationToken::new()).await;
        assert!(matches!(third, Err(TurnLockError::QueueFull)), "{third:?}");
    }
    let entered = tokio::spawn(second.enter_within(Duration::from_secs(20)));
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert!(!entered.is_finished(), "the second waits while the first runs");

    let released = Instant::now();
    drop(guard);
    let guard_b = entered.await.unwrap().unwrap();
    assert!(released.elapsed() < Duration::from_secs(3), "entered {:?} after", released.elapsed());
    assert_eq!((a.running(), b.running()), (0, 1));
    assert!(!waiting.is_cancelled() && !running.is_cancelled());

    // The lease moved to B: A queues behind it now, and a third is refused again.
    let again = queued(&a, id, &CancellationToken::new()).await;
    assert!(matches!(b.claim(id, CancellationToken::new()).await, Err(TurnLockError::QueueFull)));
    drop(again);
    drop(guard_b);
    // Both given back (detached): a fresh claim runs at once.
    let mut fresh = None;
    for _ in 0..50 {
        // Until the detached releases land, a claim may still queue or find the queue full.
        if let Ok(Claim::Run(g)) = b.claim(id, CancellationToken::new()).await {
            fresh = Some(g);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(fresh.is_some(), "the lease and the queue place were given back");
}

pub async fn a_cancel_sent_to_another_process_stops_the_turn_and_its_waiter(db: &TestDb) {
    let (a, b, id) = two_processes(db, LeaseTiming::default()).await;
    let running = CancellationToken::new();
    let _guard = run(&a, id, &running).await;
    let waiting = CancellationToken::new();
    let second = queued(&a, id, &waiting).await;
    let entered = tokio::spawn(second.enter_within(Duration::from_secs(20)));
    tokio::time::sleep(Duration::from_millis(100)).await;

    assert!(b.cancel(id).await.unwrap(), "a turn was running (in the other process)");
    let took = cancelled_within(&running, Duration::from_secs(3)).await;
    assert!(took <= Duration::from_millis(1500), "A's turn stopped {took:?} after the cancel");
    let waited = tokio::time::timeout(Duration::from_secs(3), entered).await.unwrap().unwrap();
    assert!(matches!(waited, Err(TurnLockError::WaitCancelled)), "{waited:?}");
    assert!(!b.cancel(SessionId::random()).await.unwrap(), "nothing runs there");
}

pub async fn a_cancel_in_the_same_process_stops_its_turn_at_once(db: &TestDb) {
    let (a, _b, id) = two_processes(db, LeaseTiming::default()).await;
    let running = CancellationToken::new();
    let _guard = run(&a, id, &running).await;
    assert!(a.cancel(id).await.unwrap());
    assert!(running.is_cancelled(), "cancelled before cancel returned");
}

pub async fn an_expired_lease_of_a_killed_holder_is_taken_over(db: &TestDb) {
    let timing = fast(Duration::from_secs(1), Duration::from_millis(300));
    let (_a, b, id) = two_processes(db, timing).await;
    // A process took the lease and was killed: its row stays, never renewed.
    let now = Utc::now();
    let killed = db
        .store()
        .acquire_turn_lease(
            id,
            uuid::Uuid::new_v4(),
            uuid::Uuid::new_v4(),
            now + chrono::Duration::seconds(1),
            now,
        )
        .await
        .unwrap();
    assert_eq!(killed, Some(0));
    let second = queued(&b, id, &CancellationToken::new()).await;
    let started = Instant::now();
    let guard = second.enter_within(Duration::from_secs(10)).await.unwrap();
    assert!(started.elapsed() < Duration::from_secs(5), "taken over {:?} later", started.elapsed());
    // The new holder's renewals keep it past its TTL.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let other = TurnLocks::shared_with(db.second_store().await, timing);
    let third = queued(&other, id, &CancellationToken::new()).await;
    drop(third);
    drop(guard);
}

pub async fn a_turn_whose_lease_was_taken_over_is_stopped(db: &TestDb) {
    let timing = fast(Duration::from_secs(30), Duration::from_millis(200));
    let (a, _b, id) = two_processes(db, timing).await;
    let running = CancellationToken::new();
    let _guard = run(&a, id, &running).await;
    // Another process took the lease over (as after a stall longer than the TTL).
    let taken = db
        .execute(&format!(
            "UPDATE assistant_turn_leases SET holder = '{}' WHERE session_id = '{id}'",
            uuid::Uuid::new_v4()
        ))
        .await;
    assert_eq!(taken, 1);
    cancelled_within(&running, Duration::from_secs(3)).await;
}

pub async fn a_turn_whose_lease_cannot_be_renewed_for_a_ttl_is_stopped(db: &TestDb) {
    let timing = fast(Duration::from_secs(1), Duration::from_millis(200));
    let (a, _b, id) = two_processes(db, timing).await;
    let running = CancellationToken::new();
    let _guard = run(&a, id, &running).await;
    // The database stops taking writes: every renewal hangs past its deadline.
    let block = db.block_writes("assistant_turn_leases").await;
    let took = cancelled_within(&running, Duration::from_secs(5)).await;
    drop(block);
    assert!(took >= Duration::from_millis(600), "stopped after {took:?}, before the TTL ran out");
}

pub async fn the_variant_follows_the_backend(db: &TestDb) {
    let locks = TurnLocks::for_store(db.store.clone());
    assert_eq!(locks.is_shared(), db.store().backend() == Backend::Postgres);
    // Either variant: one runs, one waits, a third is refused; a cancel stops both.
    let id = session(db.store()).await;
    let running = CancellationToken::new();
    let _guard = run(&locks, id, &running).await;
    let waiting = CancellationToken::new();
    let second = queued(&locks, id, &waiting).await;
    let third = locks.claim(id, CancellationToken::new()).await;
    assert!(matches!(third, Err(TurnLockError::QueueFull)), "{third:?}");
    assert!(locks.cancel(id).await.unwrap());
    assert!(running.is_cancelled() && waiting.is_cancelled());
    let waited = second.enter_within(Duration::from_secs(5)).await;
    assert!(matches!(waited, Err(TurnLockError::WaitCancelled)), "{waited:?}");
}
