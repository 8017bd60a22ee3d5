//! The turn registry: one running turn per session, one waiting, a third refused, Stop
//! cancelling both, and only the holding slot releasing.

use std::time::Duration;

use freehire_assistant::{AssistantError, Claim, SessionId, TurnRegistry};
use tokio_util::sync::CancellationToken;

fn run(claim: Result<Claim, AssistantError>) -> freehire_assistant::TurnSlot {
    match claim.unwrap() {
        Claim::Run(slot) => slot,
        Claim::Queued(_) => panic!("expected to run"),
    }
}

fn queued(claim: Result<Claim, AssistantError>) -> freehire_assistant::Waiter {
    match claim.unwrap() {
        Claim::Queued(w) => w,
        Claim::Run(_) => panic!("expected to queue"),
    }
}

#[tokio::test]
async fn one_turn_per_session_and_sessions_are_independent() {
    let reg = TurnRegistry::new();
    let (a, b) = (SessionId::random(), SessionId::random());
    let _sa = run(reg.claim(a, CancellationToken::new()));
    let _sb = run(reg.claim(b, CancellationToken::new()));
    assert_eq!(reg.len(), 2);
    let _w = queued(reg.claim(a, CancellationToken::new()));
    assert_eq!(reg.waiting(), 1);
}

#[tokio::test]
async fn a_finished_turn_is_forgotten() {
    let reg = TurnRegistry::new();
    let s = SessionId::random();
    let slot = run(reg.claim(s, CancellationToken::new()));
    slot.release();
    assert!(reg.is_empty());
    let _again = run(reg.claim(s, CancellationToken::new()));
}

#[tokio::test]
async fn cancel_reaches_a_running_turn_and_is_harmless_when_idle() {
    let reg = TurnRegistry::new();
    let s = SessionId::random();
    assert!(!reg.cancel(s));
    let token = CancellationToken::new();
    let _slot = run(reg.claim(s, token.clone()));
    assert!(reg.cancel(s));
    assert!(token.is_cancelled());
}

// scenario: Third message refused
#[tokio::test]
async fn a_second_claim_waits_for_the_first_and_a_third_is_refused() {
    let reg = TurnRegistry::new();
    let s = SessionId::random();
    let slot = run(reg.claim(s, CancellationToken::new()));
    let waiter = queued(reg.claim(s, CancellationToken::new()));
    let third = reg.claim(s, CancellationToken::new()).unwrap_err();
    assert_eq!(third, AssistantError::QueueFull);
    assert_eq!(third.to_string(), "this session already has a message waiting");
    let entered = tokio::spawn(waiter.enter());
    tokio::time::sleep(Duration::from_millis(20)).await;
    assert!(!entered.is_finished(), "waits while the first runs");
    drop(slot);
    let second =
        tokio::time::timeout(Duration::from_secs(5), entered).await.unwrap().unwrap().unwrap();
    assert_eq!(second.session(), s);
    assert_eq!(reg.waiting(), 0);
    assert_eq!(reg.len(), 1);
}

#[tokio::test]
async fn a_wait_gives_up_with_its_token_and_frees_its_place() {
    let reg = TurnRegistry::new();
    let s = SessionId::random();
    let _slot = run(reg.claim(s, CancellationToken::new()));
    let token = CancellationToken::new();
    let waiter = queued(reg.claim(s, token.clone()));
    let entered = tokio::spawn(waiter.enter());
    token.cancel();
    assert_eq!(entered.await.unwrap().unwrap_err(), AssistantError::WaitCancelled);
    assert_eq!(reg.waiting(), 0);
    let _next = queued(reg.claim(s, CancellationToken::new()));
}

// scenario: Stop also drops the queued message
#[tokio::test]
async fn cancel_reaches_a_queued_turn() {
    let reg = TurnRegistry::new();
    let s = SessionId::random();
    let running = CancellationToken::new();
    let _slot = run(reg.claim(s, running.clone()));
    let waiter = queued(reg.claim(s, CancellationToken::new()));
    let entered = tokio::spawn(waiter.enter());
    assert!(reg.cancel(s));
    assert!(running.is_cancelled());
    assert_eq!(entered.await.unwrap().unwrap_err(), AssistantError::WaitCancelled);
}

#[tokio::test]
async fn try_claim_never_queues_and_takes_an_idle_session() {
    let reg = TurnRegistry::new();
    let s = SessionId::random();
    let slot = reg.try_claim(s, CancellationToken::new()).expect("idle session");
    assert!(reg.try_claim(s, CancellationToken::new()).is_none());
    assert_eq!(reg.waiting(), 0);
    drop(slot);
    assert!(reg.try_claim(s, CancellationToken::new()).is_some());
}

#[tokio::test]
async fn only_the_slot_owner_releases() {
    let reg = TurnRegistry::new();
    let s = SessionId::random();
    let first = run(reg.claim(s, CancellationToken::new()));
    drop(first);
    let second = run(reg.claim(s, CancellationToken::new()));
    // The first slot's release (on drop) already happened; releasing is tied to the slot's
    // own id, so the new turn stays registered until `second` goes.
    assert_eq!(reg.len(), 1);
    drop(second);
    assert!(reg.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_registry_is_safe_under_concurrency() {
    let reg = TurnRegistry::new();
    let s = SessionId::random();
    let counter = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for _ in 0..50 {
        let reg = reg.clone();
        let counter = counter.clone();
        tasks.push(tokio::spawn(async move {
            loop {
                let slot = match reg.claim(s, CancellationToken::new()) {
                    Ok(Claim::Run(slot)) => slot,
                    Ok(Claim::Queued(w)) => match w.enter().await {
                        Ok(slot) => slot,
                        Err(_) => continue,
                    },
                    Err(_) => {
                        tokio::task::yield_now().await;
                        continue;
                    }
                };
                let now = counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                assert_eq!(now, 0, "two turns ran at once");
                tokio::task::yield_now().await;
                counter.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
                drop(slot);
                return;
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    assert!(reg.is_empty());
    assert_eq!(reg.waiting(), 0);
}

#[tokio::test]
async fn a_wait_gives_up_after_its_deadline_and_frees_its_place() {
    let reg = TurnRegistry::new();
    let s = SessionId::random();
    let _slot = run(reg.claim(s, CancellationToken::new()));
    let waiter = queued(reg.claim(s, CancellationToken::new()));
    let err = waiter.enter_within(Duration::from_millis(30)).await.unwrap_err();
    assert_eq!(err, AssistantError::WaitCancelled);
    assert_eq!(reg.waiting(), 0);
    assert_eq!(freehire_assistant::TURN_QUEUE_WAIT, Duration::from_secs(60));
}

// scenario: The queue keeps its order
#[tokio::test]
async fn a_new_claim_never_overtakes_the_queued_waiter() {
    let reg = TurnRegistry::new();
    let s = SessionId::random();
    let first = run(reg.claim(s, CancellationToken::new()));
    let waiter = queued(reg.claim(s, CancellationToken::new()));
    // The running turn ends before the waiter is even polled; a new message arrives at once.
    first.release();
    assert!(
        matches!(reg.claim(s, CancellationToken::new()), Ok(Claim::Queued(_))),
        "the newcomer queues behind the waiter that now holds the slot"
    );
    let late = queued(reg.claim(s, CancellationToken::new()));
    assert!(matches!(reg.claim(s, CancellationToken::new()), Err(AssistantError::QueueFull)));
    assert!(reg.try_claim(s, CancellationToken::new()).is_none());
    let slot = tokio::time::timeout(Duration::from_secs(1), waiter.enter())
        .await
        .expect("the handed slot is taken at once")
        .unwrap();
    assert_eq!(reg.len(), 1);
    drop(slot);
    let next = tokio::time::timeout(Duration::from_secs(1), late.enter()).await.unwrap().unwrap();
    drop(next);
    assert!(reg.is_empty());
}

#[tokio::test]
async fn a_waiter_that_gives_up_after_the_hand_over_passes_the_slot_on() {
    let reg = TurnRegistry::new();
    let s = SessionId::random();
    let first = run(reg.claim(s, CancellationToken::new()));
    let waiter = queued(reg.claim(s, CancellationToken::new()));
    first.release();
    drop(waiter);
    assert!(reg.is_empty(), "the handed slot was released");
    let _again = run(reg.claim(s, CancellationToken::new()));

    // A cancelled waiter is handed nothing.
    let reg = TurnRegistry::new();
    let first = run(reg.claim(s, CancellationToken::new()));
    let token = CancellationToken::new();
    let waiter = queued(reg.claim(s, token.clone()));
    token.cancel();
    first.release();
    assert!(reg.is_empty());
    assert!(matches!(waiter.enter().await, Err(AssistantError::WaitCancelled)));
}
