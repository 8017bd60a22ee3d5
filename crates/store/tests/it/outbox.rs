//! Search outboxes: what enqueues, and the claim/ack/fail contract.

use chrono::Duration;
use freehire_domain::{ClosedReason, JobId, JobPosting};
use freehire_store::{ClaimOptions, JobKey, OutboxKind, SeenPosting, Store};

use crate::fixtures::{posting, t};

fn key(p: &JobPosting) -> JobKey {
    JobKey { source: p.source.clone(), external_id: p.external_id.clone() }
}

async fn queued(s: &dyn Store, kind: OutboxKind) -> Vec<JobId> {
    let items = s.claim_outbox(kind, ClaimOptions::default(), t(28, 0)).await.unwrap();
    // Give the rows back so the test can look again.
    for item in &items {
        s.fail_outbox(kind, item, "peek", t(28, 0)).await.unwrap();
    }
    let mut ids: Vec<JobId> = items.iter().map(|i| i.job_id).collect();
    ids.sort();
    ids
}

// scenario: Lifecycle of one job
pub async fn writes_enqueue_in_the_same_transaction(s: &dyn Store) {
    let a = posting("greenhouse", "acme:1", "Backend Engineer");
    let b = posting("greenhouse", "acme:2", "Frontend Engineer");
    let ids = s.upsert_jobs(&[a.clone(), b.clone()], t(2, 0)).await.unwrap();
    let (ia, ib) = (ids[0].id, ids[1].id);
    assert_eq!(queued(s, OutboxKind::Index).await, vec![ia, ib], "inserts are indexed");

    let items = s.claim_outbox(OutboxKind::Index, ClaimOptions::default(), t(3, 0)).await.unwrap();
    assert_eq!(s.ack_outbox(OutboxKind::Index, &items).await.unwrap(), 2);
    assert_eq!(s.outbox_depth(OutboxKind::Index).await.unwrap(), 0);

    s.upsert_jobs(std::slice::from_ref(&a), t(4, 0)).await.unwrap();
    assert_eq!(s.outbox_depth(OutboxKind::Index).await.unwrap(), 0, "unchanged is not re-indexed");
    let mut b2 = b.clone();
    b2.title = "Frontend Engineer II".into();
    s.upsert_jobs(&[b2.clone()], t(4, 0)).await.unwrap();
    assert_eq!(queued(s, OutboxKind::Index).await, vec![ib], "changes are re-indexed");

    s.close_jobs(&[key(&b)], ClosedReason::BoardUnseen, t(5, 0)).await.unwrap();
    assert_eq!(queued(s, OutboxKind::Delete).await, vec![ib], "closes are de-indexed");
    assert_eq!(
        s.outbox_depth(OutboxKind::Index).await.unwrap(),
        0,
        "a pending re-index of a closed job is dropped"
    );

    let seen = SeenPosting { key: key(&b2), content_hash: b2.content_hash() };
    s.refresh_unchanged(&[seen], t(6, 0)).await.unwrap();
    assert_eq!(queued(s, OutboxKind::Index).await, vec![ib], "a reopened job is indexed again");
    assert_eq!(s.outbox_depth(OutboxKind::Delete).await.unwrap(), 0, "and its removal is dropped");

    s.set_duplicate_of(ib, Some(ia)).await.unwrap();
    assert_eq!(queued(s, OutboxKind::Delete).await, vec![ib], "duplicates leave the index");
    s.set_duplicate_of(ib, None).await.unwrap();
    assert_eq!(queued(s, OutboxKind::Index).await, vec![ib]);
}

// scenario: A drain dies
pub async fn claims_lease_and_retry(s: &dyn Store) {
    let postings: Vec<JobPosting> =
        (0..5).map(|i| posting("lever", &format!("acme:{i}"), &format!("Role {i}"))).collect();
    s.upsert_jobs(&postings, t(2, 0)).await.unwrap();
    let opts = ClaimOptions { limit: 3, lease: Duration::minutes(10), max_attempts: 2 };

    let first = s.claim_outbox(OutboxKind::Index, opts, t(3, 0)).await.unwrap();
    assert_eq!(first.len(), 3);
    assert!(first.iter().all(|i| i.attempts == 1 && i.claimed_at == t(3, 0)));
    let second = s.claim_outbox(OutboxKind::Index, opts, t(3, 0)).await.unwrap();
    assert_eq!(second.len(), 2, "claimed rows are not handed out twice");
    assert!(s.claim_outbox(OutboxKind::Index, opts, t(3, 0)).await.unwrap().is_empty());

    // The first drain dies; after the lease its rows are claimable again.
    assert!(
        s.claim_outbox(OutboxKind::Index, opts, t(3, 0) + Duration::minutes(5))
            .await
            .unwrap()
            .is_empty()
    );
    let retried = s.claim_outbox(OutboxKind::Index, opts, t(3, 1)).await.unwrap();
    assert_eq!(retried.len(), 3);
    assert!(retried.iter().all(|i| i.attempts == 2));

    // A failure releases the row with its error; past max_attempts it stays for an operator.
    assert_eq!(s.ack_outbox(OutboxKind::Index, &second).await.unwrap(), 2);
    s.fail_outbox(OutboxKind::Index, &retried[0], &"x".repeat(5000), t(3, 2)).await.unwrap();
    assert!(
        s.claim_outbox(OutboxKind::Index, opts, t(3, 3)).await.unwrap().is_empty(),
        "attempts exhausted"
    );
    assert_eq!(s.outbox_depth(OutboxKind::Index).await.unwrap(), 3);
}

// scenario: A change during a claim
pub async fn a_change_during_a_claim_is_not_lost(s: &dyn Store) {
    let mut p = posting("ashby", "acme:1", "Engineer");
    s.upsert_jobs(&[p.clone()], t(2, 0)).await.unwrap();
    let claimed =
        s.claim_outbox(OutboxKind::Index, ClaimOptions::default(), t(3, 0)).await.unwrap();
    p.title = "Senior Engineer".into();
    s.upsert_jobs(&[p], t(3, 1)).await.unwrap();
    assert_eq!(
        s.ack_outbox(OutboxKind::Index, &claimed).await.unwrap(),
        0,
        "the row was re-enqueued"
    );
    let again = s.claim_outbox(OutboxKind::Index, ClaimOptions::default(), t(3, 2)).await.unwrap();
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].attempts, 1, "a re-enqueue resets the attempts");
}

/// `freehire reindex` purges what its rebuild made moot: rows queued before the run; a row
/// queued (or re-queued) at or after the cut stays, claimed rows included.
pub async fn rows_queued_before_a_rebuild_are_purged(s: &dyn Store) {
    let a = posting("lever", "acme:a", "Role A");
    let b = posting("lever", "acme:b", "Role B");
    let c = posting("lever", "acme:c", "Role C");
    let ids = s.upsert_jobs(&[a.clone(), b.clone()], t(2, 0)).await.unwrap();
    s.upsert_jobs(std::slice::from_ref(&c), t(4, 0)).await.unwrap();
    // b changes after the cut: its row is re-queued then and must stay.
    let mut b2 = b.clone();
    b2.title = "Role B, changed".into();
    s.upsert_jobs(&[b2], t(5, 0)).await.unwrap();
    // A claimed row is purged too (its ack then finds nothing to delete).
    let claimed =
        s.claim_outbox(OutboxKind::Index, ClaimOptions::default(), t(6, 0)).await.unwrap();
    assert_eq!(claimed.len(), 3);
    s.close_jobs(&[key(&a)], ClosedReason::BoardUnseen, t(7, 0)).await.unwrap();

    let purged = s.purge_outbox_before(OutboxKind::Index, t(4, 0)).await.unwrap();
    assert_eq!(purged, 0, "a's row went with its close; b and c were queued at or after the cut");
    assert_eq!(s.outbox_depth(OutboxKind::Index).await.unwrap(), 2);
    assert_eq!(s.purge_outbox_before(OutboxKind::Index, t(5, 0)).await.unwrap(), 1, "c");
    let left = s.claim_outbox(OutboxKind::Index, ClaimOptions::default(), t(30, 0)).await.unwrap();
    assert_eq!(left.iter().map(|i| i.job_id).collect::<Vec<_>>(), vec![ids[1].id], "b stays");
    assert_eq!(s.ack_outbox(OutboxKind::Index, &claimed).await.unwrap(), 0, "purged rows are gone");
    // The other outbox is purged independently.
    assert_eq!(s.purge_outbox_before(OutboxKind::Delete, t(7, 0)).await.unwrap(), 0);
    assert_eq!(s.purge_outbox_before(OutboxKind::Delete, t(8, 0)).await.unwrap(), 1, "a's removal");
}

// scenario: A drain renews its wave's lease
pub async fn a_renewed_lease_holds_and_an_expired_one_is_claimable(s: &dyn Store) {
    let postings: Vec<JobPosting> =
        (0..4).map(|i| posting("lever", &format!("acme:{i}"), &format!("Role {i}"))).collect();
    s.upsert_jobs(&postings, t(2, 0)).await.unwrap();
    let opts = ClaimOptions::default();
    assert_eq!(opts.lease, Duration::seconds(60), "a dead drain's rows wait about a minute");
    let at = |secs: i64| t(3, 0) + Duration::seconds(secs);

    let wave = s.claim_outbox(OutboxKind::Index, opts, at(0)).await.unwrap();
    assert_eq!(wave.len(), 4);
    // The drain renews its wave while it runs: past the first lease nothing is claimable.
    assert_eq!(s.renew_outbox(OutboxKind::Index, &wave, at(40)).await.unwrap(), 4);
    assert!(s.claim_outbox(OutboxKind::Index, opts, at(90)).await.unwrap().is_empty());
    // The renewal keeps the claim instant, so acknowledging still works.
    assert_eq!(s.ack_outbox(OutboxKind::Index, &wave[..1]).await.unwrap(), 1);
    // The drain dies (no more renewals): a minute after its last one, the rows return.
    let again = s.claim_outbox(OutboxKind::Index, opts, at(101)).await.unwrap();
    assert_eq!(again.len(), 3);
    assert!(again.iter().all(|i| i.attempts == 2));
    // The dead drain's renewal of its old claim touches nothing.
    assert_eq!(s.renew_outbox(OutboxKind::Index, &wave, at(102)).await.unwrap(), 0);
}
