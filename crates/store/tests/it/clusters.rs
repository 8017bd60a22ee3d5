//! Role clusters (reference §3.10): a new posting repeating an open role of the same company
//! is marked as a duplicate of the oldest one and not indexed; closing the canonical hands the
//! role to the next oldest.

use freehire_domain::{ClosedReason, JobId, JobPosting, Provider};
use freehire_store::{ClaimOptions, JobKey, ListPage, OutboxKind, Store, UnseenScope};

use crate::fixtures::{posting, t};

fn role(external_id: &str, fingerprint: &str, city: &str) -> JobPosting {
    let mut p = posting("greenhouse", external_id, "Backend Engineer");
    p.role_fingerprint = fingerprint.to_owned();
    p.location = format!("{city}, Germany");
    p.facets.cities = vec![city.to_owned()];
    p
}

fn key(p: &JobPosting) -> JobKey {
    JobKey { source: p.source.clone(), external_id: p.external_id.clone() }
}

async fn duplicate_of(s: &dyn Store, id: JobId) -> Option<JobId> {
    s.jobs_by_ids(&[id]).await.unwrap()[0].duplicate_of
}

/// Claims and acknowledges everything queued for indexing; returns the ids.
async fn take_index_queue(s: &dyn Store) -> Vec<JobId> {
    let items = s.claim_outbox(OutboxKind::Index, ClaimOptions::default(), t(28, 0)).await.unwrap();
    s.ack_outbox(OutboxKind::Index, &items).await.unwrap();
    let mut ids: Vec<JobId> = items.iter().map(|i| i.job_id).collect();
    ids.sort();
    ids
}

// scenario: A repost in another city
pub async fn reposts_point_at_the_oldest_open_role(s: &dyn Store) {
    let berlin = role("acme:1", "fp-backend", "Berlin");
    let other_role = role("acme:2", "fp-frontend", "Berlin");
    let no_fingerprint = role("acme:3", "", "Berlin");
    let first = s.upsert_jobs(&[berlin, other_role, no_fingerprint], t(1, 0)).await.unwrap();
    let (canonical, other, bare) = (first[0].id, first[1].id, first[2].id);
    assert_eq!(take_index_queue(s).await, vec![canonical, other, bare]);

    // Two reposts in one batch, and one from another company: only the same company's
    // repeats are duplicates, both of the oldest.
    let paris = role("acme:4", "fp-backend", "Paris");
    let munich = role("acme:5", "fp-backend", "Munich");
    let mut elsewhere = role("globex:1", "fp-backend", "Berlin");
    elsewhere.company = "Globex".into();
    let again = s.upsert_jobs(&[paris, munich, elsewhere], t(2, 0)).await.unwrap();
    assert_eq!(duplicate_of(s, again[0].id).await, Some(canonical));
    assert_eq!(duplicate_of(s, again[1].id).await, Some(canonical));
    assert_eq!(duplicate_of(s, again[2].id).await, None, "another company's role");
    assert_eq!(duplicate_of(s, canonical).await, None);
    assert_eq!(duplicate_of(s, bare).await, None);
    // Duplicates are not indexed; the canonical is re-indexed (its cluster grew).
    assert_eq!(take_index_queue(s).await, vec![canonical, again[2].id]);
    let cluster = s.open_duplicates_of(&[canonical]).await.unwrap();
    let cities: Vec<&str> = cluster.iter().map(|j| j.posting.facets.cities[0].as_str()).collect();
    assert_eq!(cities, ["Paris", "Munich"]);
    // The list hides them.
    assert_eq!(s.list_open_jobs(ListPage::default()).await.unwrap().total, 4);

    // A re-sighting of a duplicate (unchanged or changed) keeps it marked.
    let mut paris_changed = role("acme:4", "fp-backend", "Paris");
    paris_changed.description = "<p>Now with Rust.</p>".into();
    s.upsert_jobs(&[paris_changed], t(3, 0)).await.unwrap();
    assert_eq!(duplicate_of(s, again[0].id).await, Some(canonical));
}

/// One role posted in Berlin, Paris and Rome, stored in that order; returns the postings and
/// their ids.
async fn three_city_role(s: &dyn Store) -> ([JobPosting; 3], Vec<JobId>) {
    let postings = [
        role("acme:1", "fp", "Berlin"),
        role("acme:2", "fp", "Paris"),
        role("acme:3", "fp", "Rome"),
    ];
    let ids = s.upsert_jobs(&postings, t(1, 0)).await.unwrap().iter().map(|u| u.id).collect();
    (postings, ids)
}

// scenario: The canonical closes
pub async fn closing_the_canonical_hands_the_role_on(s: &dyn Store) {
    let (postings, ids) = three_city_role(s).await;
    assert_eq!(duplicate_of(s, ids[2]).await, Some(ids[0]));
    take_index_queue(s).await;

    s.close_jobs(&[key(&postings[0])], ClosedReason::Expired, t(2, 0)).await.unwrap();
    assert_eq!(duplicate_of(s, ids[1]).await, None, "the next oldest is the canonical now");
    assert_eq!(duplicate_of(s, ids[2]).await, Some(ids[1]));
    assert_eq!(take_index_queue(s).await, vec![ids[1], ids[2]], "released rows are re-read");
    assert_eq!(s.open_duplicates_of(&[ids[1]]).await.unwrap().len(), 1);

    // The board-scoped close releases the same way.
    s.upsert_jobs(&postings[2..], t(4, 0)).await.unwrap();
    let scope = UnseenScope {
        source: Provider::parse("greenhouse").unwrap(),
        board_prefixes: vec!["acme:".into()],
        last_seen_before: t(4, 0),
    };
    let closed = s.close_unseen(&scope, ClosedReason::BoardUnseen, t(4, 1)).await.unwrap();
    assert_eq!(closed, vec![ids[1]]);
    assert_eq!(duplicate_of(s, ids[2]).await, None, "the last of the role stands alone");
    assert_eq!(s.list_open_jobs(ListPage::default()).await.unwrap().total, 1);
}

// scenario: The old canonical comes back
pub async fn a_reopened_older_job_takes_its_role_back(s: &dyn Store) {
    let (postings, ids) = three_city_role(s).await;
    s.close_jobs(&[key(&postings[0])], ClosedReason::Expired, t(2, 0)).await.unwrap();
    assert_eq!(duplicate_of(s, ids[2]).await, Some(ids[1]));
    take_index_queue(s).await;

    // Seen again (an upsert reopens it): the oldest job is the role's canonical once more.
    s.upsert_jobs(&postings[..1], t(3, 0)).await.unwrap();
    assert_eq!(duplicate_of(s, ids[0]).await, None);
    assert_eq!(duplicate_of(s, ids[1]).await, Some(ids[0]));
    assert_eq!(duplicate_of(s, ids[2]).await, Some(ids[0]));
    assert_eq!(take_index_queue(s).await, ids, "the whole role is re-read");
    assert_eq!(s.list_open_jobs(ListPage::default()).await.unwrap().total, 1);

    // The same through a touch (listed without detail).
    s.close_jobs(&[key(&postings[0])], ClosedReason::Expired, t(4, 0)).await.unwrap();
    assert_eq!(duplicate_of(s, ids[1]).await, None);
    take_index_queue(s).await;
    s.touch_jobs(&[key(&postings[0])], t(5, 0)).await.unwrap();
    assert_eq!(duplicate_of(s, ids[1]).await, Some(ids[0]));
    assert_eq!(duplicate_of(s, ids[2]).await, Some(ids[0]));
    assert_eq!(take_index_queue(s).await, ids);
}
