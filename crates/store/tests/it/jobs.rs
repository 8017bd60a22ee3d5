//! Job catalogue behaviour.

use freehire_domain::{ClosedReason, EducationLevel, EnglishLevel, JobId, JobPosting, PublicSlug};
use freehire_store::{JobKey, ListPage, Refreshed, SeenPosting, Store, UpsertOutcome};

use crate::fixtures::{posting, t};

fn key(p: &JobPosting) -> JobKey {
    JobKey { source: p.source.clone(), external_id: p.external_id.clone() }
}

fn seen(p: &JobPosting) -> SeenPosting {
    SeenPosting { key: key(p), content_hash: p.content_hash() }
}

// scenario: First sighting
// scenario: Same content
pub async fn upsert_reports_inserted_unchanged_changed(s: &dyn Store) {
    let a = posting("greenhouse", "acme:1", "Backend Engineer");
    let b = posting("greenhouse", "acme:2", "Frontend Engineer");
    let first = s.upsert_jobs(&[a.clone(), b.clone()], t(2, 10)).await.unwrap();
    assert_eq!(first.len(), 2);
    assert!(first.iter().all(|u| u.outcome == UpsertOutcome::Inserted && !u.reopened));
    assert_ne!(first[0].id, first[1].id);
    for p in [&a, &b] {
        let job = s.job_by_key(&key(p)).await.unwrap().unwrap();
        let stamps = (job.created_at, job.updated_at, job.last_seen_at);
        assert_eq!(stamps, (t(2, 10), t(2, 10), t(2, 10)), "a first sighting stamps all three");
    }

    let mut b2 = b.clone();
    b2.description = "<p>Now with React.</p>".to_owned();
    let second = s.upsert_jobs(&[a.clone(), b2.clone()], t(3, 10)).await.unwrap();
    assert_eq!(second[0].outcome, UpsertOutcome::Unchanged);
    assert_eq!(second[0].id, first[0].id);
    assert_eq!(second[1].outcome, UpsertOutcome::Changed);
    assert_eq!(second[1].id, first[1].id);

    let stored_a = s.job_by_key(&key(&a)).await.unwrap().unwrap();
    assert_eq!(stored_a.created_at, t(2, 10));
    assert_eq!(stored_a.updated_at, t(2, 10), "unchanged content keeps updated_at");
    assert_eq!(stored_a.last_seen_at, t(3, 10));
    let stored_b = s.job_by_key(&key(&b)).await.unwrap().unwrap();
    assert_eq!(stored_b.updated_at, t(3, 10));
    assert_eq!(stored_b.posting.description, "<p>Now with React.</p>");
    assert_eq!(stored_b.content_hash, b2.content_hash());
}

// scenario: Listing without detail
pub async fn upsert_never_blanks_a_description(s: &dyn Store) {
    let full = posting("lever", "acme:9", "Data Engineer");
    s.upsert_jobs(std::slice::from_ref(&full), t(2, 10)).await.unwrap();
    let mut listing_only = full.clone();
    listing_only.description = String::new();
    let out = s.upsert_jobs(&[listing_only], t(3, 10)).await.unwrap();
    assert_eq!(out[0].outcome, UpsertOutcome::Changed, "the hash differs, so it is a change");
    let stored = s.job_by_key(&key(&full)).await.unwrap().unwrap();
    assert_eq!(stored.posting.description, full.description);
    assert_eq!(stored.last_seen_at, t(3, 10));

    // A new row may be stored without a description.
    let mut bare = posting("lever", "acme:10", "QA Engineer");
    bare.description = String::new();
    s.upsert_jobs(std::slice::from_ref(&bare), t(3, 10)).await.unwrap();
    assert_eq!(s.job_by_key(&key(&bare)).await.unwrap().unwrap().posting.description, "");
}

// scenario: New content
pub async fn change_keeps_slug_and_created_at(s: &dyn Store) {
    let p = posting("ashby", "acme:uuid-1", "Senior Go Developer");
    s.upsert_jobs(std::slice::from_ref(&p), t(2, 10)).await.unwrap();
    let before = s.job_by_key(&key(&p)).await.unwrap().unwrap();
    assert_eq!(before.public_slug, p.public_slug());
    assert_eq!(before.company_slug.as_str(), "acme-labs");

    let mut renamed = p.clone();
    renamed.title = "Staff Go Developer".to_owned();
    let out = s.upsert_jobs(&[renamed], t(4, 10)).await.unwrap();
    assert_eq!(out[0].outcome, UpsertOutcome::Changed);
    let after = s.job_by_key(&key(&p)).await.unwrap().unwrap();
    assert_eq!(after.posting.title, "Staff Go Developer");
    assert_eq!(after.public_slug, before.public_slug, "links never break");
    assert_eq!(after.created_at, t(2, 10));
    assert_eq!(after.updated_at, t(4, 10));
}

// scenario: Unknown or changed item
pub async fn refresh_unchanged_bumps_only_last_seen(s: &dyn Store) {
    let a = posting("workable", "acme:a", "SRE");
    let b = posting("workable", "acme:b", "DevOps Engineer");
    s.upsert_jobs(&[a.clone(), b.clone()], t(2, 10)).await.unwrap();
    let before_b = s.job_by_key(&key(&b)).await.unwrap().unwrap();

    let mut b_changed = b.clone();
    b_changed.title = "Platform Engineer".to_owned();
    let unknown = posting("workable", "acme:zzz", "Ghost");
    let out =
        s.refresh_unchanged(&[seen(&a), seen(&b_changed), seen(&unknown)], t(5, 10)).await.unwrap();
    assert!(matches!(out[0], Refreshed::Touched(_)));
    assert_eq!(out[1], Refreshed::Missed, "a different hash must be upserted instead");
    assert_eq!(out[2], Refreshed::Missed);

    let after_a = s.job_by_key(&key(&a)).await.unwrap().unwrap();
    assert_eq!(after_a.last_seen_at, t(5, 10));
    assert_eq!(after_a.updated_at, t(2, 10));
    assert_eq!(after_a.posting, a);
    let after_b = s.job_by_key(&key(&b)).await.unwrap().unwrap();
    assert_eq!(after_b, before_b, "a missed refresh touches nothing");
    assert!(s.job_by_key(&key(&unknown)).await.unwrap().is_none());
    assert!(s.refresh_unchanged(&[], t(5, 10)).await.unwrap().is_empty());
}

pub async fn refresh_reopens_a_closed_job(s: &dyn Store) {
    let a = posting("recruitee", "acme:1", "Designer");
    s.upsert_jobs(std::slice::from_ref(&a), t(2, 10)).await.unwrap();
    s.close_jobs(&[key(&a)], ClosedReason::BoardUnseen, t(3, 10)).await.unwrap();
    let out = s.refresh_unchanged(&[seen(&a)], t(4, 10)).await.unwrap();
    assert!(matches!(out[0], Refreshed::Reopened(_)));
    let job = s.job_by_key(&key(&a)).await.unwrap().unwrap();
    assert!(job.is_open());
    assert_eq!(job.closed_reason, None);
    assert_eq!(job.last_seen_at, t(4, 10));
}

// scenario: Close twice
// scenario: Re-sight
pub async fn close_is_soft_and_resight_reopens(s: &dyn Store) {
    let a = posting("greenhouse", "acme:1", "Backend Engineer");
    let b = posting("greenhouse", "acme:2", "Frontend Engineer");
    let ids = s.upsert_jobs(&[a.clone(), b.clone()], t(2, 10)).await.unwrap();

    let closed = s.close_jobs(&[key(&a)], ClosedReason::Unseen, t(3, 10)).await.unwrap();
    assert_eq!(closed, vec![ids[0].id]);
    let again = s.close_jobs(&[key(&a), key(&b)], ClosedReason::Removed, t(3, 11)).await.unwrap();
    assert_eq!(again, vec![ids[1].id], "closing a closed job is a no-op");

    let job = s.job_by_key(&key(&a)).await.unwrap().unwrap();
    assert_eq!(job.closed_at, Some(t(3, 10)));
    assert_eq!(job.closed_reason, Some(ClosedReason::Unseen));
    assert_eq!(job.posting, a, "closing keeps the content");
    assert_eq!(s.list_open_jobs(ListPage::default()).await.unwrap().total, 0);

    let out = s.upsert_jobs(std::slice::from_ref(&a), t(4, 10)).await.unwrap();
    assert_eq!(out[0].outcome, UpsertOutcome::Unchanged);
    assert!(out[0].reopened);
    let job = s.job_by_key(&key(&a)).await.unwrap().unwrap();
    assert!(job.is_open() && job.closed_reason.is_none());
    assert_eq!(s.list_open_jobs(ListPage::default()).await.unwrap().total, 1);
}

// scenario: Closed and duplicate jobs are not listed
pub async fn list_is_open_non_duplicate_newest_first(s: &dyn Store) {
    let old = posting("lever", "acme:old", "Old Role");
    let mid = posting("lever", "acme:mid", "Mid Role");
    let new = posting("lever", "acme:new", "New Role");
    let dup = posting("lever", "acme:dup", "Mid Role Repost");
    let gone = posting("lever", "acme:gone", "Gone Role");
    s.upsert_jobs(std::slice::from_ref(&old), t(1, 10)).await.unwrap();
    let mid_id = s.upsert_jobs(std::slice::from_ref(&mid), t(2, 10)).await.unwrap()[0].id;
    let later = s.upsert_jobs(&[new.clone(), dup.clone(), gone.clone()], t(3, 10)).await.unwrap();
    assert!(s.set_duplicate_of(later[1].id, Some(mid_id)).await.unwrap());
    s.close_jobs(&[key(&gone)], ClosedReason::Expired, t(3, 11)).await.unwrap();
    // Seeing an old job again does not move it up: the order is by first sighting.
    s.upsert_jobs(std::slice::from_ref(&old), t(4, 10)).await.unwrap();

    let list = s.list_open_jobs(ListPage::default()).await.unwrap();
    let titles: Vec<&str> = list.jobs.iter().map(|j| j.posting.title.as_str()).collect();
    assert_eq!(titles, ["New Role", "Mid Role", "Old Role"]);
    assert_eq!(list.total, 3);

    assert!(s.set_duplicate_of(later[1].id, None).await.unwrap());
    assert_eq!(s.list_open_jobs(ListPage::default()).await.unwrap().total, 4);
    assert!(!s.set_duplicate_of(JobId::new(999_999).unwrap(), None).await.unwrap());
}

pub async fn list_pages_and_counts(s: &dyn Store) {
    let postings: Vec<JobPosting> = (0..25)
        .map(|i| posting("smartrecruiters", &format!("acme:{i:03}"), &format!("Role {i}")))
        .collect();
    // Same created_at for all: ties fall back to id, newest first.
    s.upsert_jobs(&postings, t(2, 10)).await.unwrap();
    let page1 = s.list_open_jobs(ListPage::new(10, 0)).await.unwrap();
    let page3 = s.list_open_jobs(ListPage::new(10, 20)).await.unwrap();
    assert_eq!(page1.total, 25);
    assert_eq!(page1.jobs.len(), 10);
    assert_eq!(page1.jobs[0].posting.title, "Role 24");
    assert_eq!(page3.jobs.len(), 5);
    assert_eq!(page3.jobs[4].posting.title, "Role 0");
    let beyond = s.list_open_jobs(ListPage::new(10, 1000)).await.unwrap();
    assert!(beyond.jobs.is_empty());
    assert_eq!(beyond.total, 25);
    let clamped = s.list_open_jobs(ListPage::new(0, 0)).await.unwrap();
    assert_eq!(clamped.jobs.len(), 1, "a limit below 1 is clamped to 1");
}

// scenario: Closed job by slug
pub async fn slug_lookup_includes_closed_jobs(s: &dyn Store) {
    let p = posting("manual", "42", "Senior Go Developer");
    let mut p = p;
    p.company = "Acme".to_owned();
    s.upsert_jobs(std::slice::from_ref(&p), t(2, 10)).await.unwrap();
    let slug = PublicSlug::parse("senior-go-developer-acme-t35nijto").unwrap();
    assert_eq!(s.job_by_slug(&slug).await.unwrap().unwrap().posting.external_id, "42");
    s.close_jobs(&[key(&p)], ClosedReason::Moderated, t(3, 10)).await.unwrap();
    let closed = s.job_by_slug(&slug).await.unwrap().unwrap();
    assert_eq!(closed.closed_at, Some(t(3, 10)));
    assert_eq!(closed.closed_reason, Some(ClosedReason::Moderated));
    let missing = PublicSlug::parse("senior-go-developer-acme-aaaaaaaa").unwrap();
    assert!(s.job_by_slug(&missing).await.unwrap().is_none());
}

// scenario: Invalid posting
pub async fn invalid_posting_rejects_whole_batch(s: &dyn Store) {
    let good = posting("greenhouse", "acme:1", "Backend Engineer");
    let mut bad = posting("greenhouse", "acme:2", "x");
    bad.title = "   ".to_owned();
    let err = s.upsert_jobs(&[good.clone(), bad], t(2, 10)).await.unwrap_err();
    assert!(err.to_string().contains("title"), "{err}");
    assert!(s.job_by_key(&key(&good)).await.unwrap().is_none(), "nothing was written");
    let mut unkeyed = posting("greenhouse", "acme:3", "Backend Engineer");
    unkeyed.external_id = String::new();
    let err = s.upsert_jobs(&[good.clone(), unkeyed], t(2, 10)).await.unwrap_err();
    assert!(err.to_string().contains("external_id"), "{err}");
    assert!(s.job_by_key(&key(&good)).await.unwrap().is_none(), "nothing was written");
    assert!(s.upsert_jobs(&[], t(2, 10)).await.unwrap().is_empty());
}

// scenario: Repeated key
pub async fn repeated_key_in_batch_writes_last(s: &dyn Store) {
    let first = posting("teamtailor", "acme:1", "First Title");
    let mut last = first.clone();
    last.title = "Last Title".to_owned();
    let out = s.upsert_jobs(&[first.clone(), last.clone()], t(2, 10)).await.unwrap();
    assert_eq!(out.len(), 2);
    assert_eq!(out[0], out[1]);
    assert_eq!(out[0].outcome, UpsertOutcome::Inserted);
    let job = s.job_by_key(&key(&first)).await.unwrap().unwrap();
    assert_eq!(job.posting.title, "Last Title");
}

pub async fn every_field_round_trips(s: &dyn Store) {
    let mut p = posting("ashby", "acme:rich", "Principal ML Engineer");
    p.facets.education_level = Some(EducationLevel::Master);
    p.facets.english_level = Some(EnglishLevel::C1);
    p.facets.experience_years_min = Some(7);
    p.facets.requires_clearance = Some(true);
    p.facets.posting_language = Some("en".to_owned());
    // List values with the characters an array literal must quote read back as they were.
    p.facets.cities =
        ["Berlin", "São Paulo, \"SP\"", r"a\b", "NULL", "{x}", " y "].map(str::to_owned).to_vec();
    p.facets.skills = ["c++", "c#", "node.js", "f,g"].map(str::to_owned).to_vec();
    p.remote = true;
    p.role_fingerprint = "abc123".to_owned();
    p.description = "<p>Ünïcödé — “quotes” 日本語 🚀</p>".to_owned();
    p.structured.countries = vec![freehire_domain::CountryCode::parse("de").unwrap()];
    p.structured.work_mode = Some(freehire_domain::WorkMode::Remote);
    s.upsert_jobs(std::slice::from_ref(&p), t(2, 10)).await.unwrap();
    let job = s.job_by_key(&key(&p)).await.unwrap().unwrap();
    assert_eq!(job.posting, p);
    assert_eq!(job.content_hash, p.content_hash());
    assert_eq!(job.public_slug, p.public_slug());
    assert_eq!(job.duplicate_of, None);

    let mut bare = posting("manual", "bare-1", "Support Agent");
    bare.posted_at = None;
    bare.salary = None;
    bare.facets = Default::default();
    bare.company = String::new();
    s.upsert_jobs(std::slice::from_ref(&bare), t(2, 10)).await.unwrap();
    let job = s.job_by_key(&key(&bare)).await.unwrap().unwrap();
    assert_eq!(job.posting, bare);
    assert_eq!(job.company_slug.as_str(), "");
}

// scenario: 3,000 postings
pub async fn thousands_per_transaction(s: &dyn Store) {
    let postings: Vec<JobPosting> = (0..3000)
        .map(|i| posting("workday", &format!("acme.wd5/External:{i}"), &format!("Role {i}")))
        .collect();
    let out = s.upsert_jobs(&postings, t(2, 10)).await.unwrap();
    assert_eq!(out.len(), 3000);
    assert!(out.iter().all(|u| u.outcome == UpsertOutcome::Inserted));
    let items: Vec<SeenPosting> = postings.iter().map(seen).collect();
    let refreshed = s.refresh_unchanged(&items, t(3, 10)).await.unwrap();
    assert!(refreshed.iter().all(|r| matches!(r, Refreshed::Touched(_))));
    let keys: Vec<JobKey> = postings.iter().take(1500).map(key).collect();
    assert_eq!(
        s.close_jobs(&keys, ClosedReason::SourceUnseen, t(4, 10)).await.unwrap().len(),
        1500
    );
    assert_eq!(s.list_open_jobs(ListPage::default()).await.unwrap().total, 1500);
}

// scenario: NUL in a title
pub async fn nul_bytes_are_dropped(s: &dyn Store) {
    let mut p = posting("bamboohr", "acme:7", "Account\0 Executive");
    p.description = "<p>a\0b</p>".to_owned();
    s.upsert_jobs(std::slice::from_ref(&p), t(2, 10)).await.unwrap();
    let job = s.job_by_key(&key(&p)).await.unwrap().unwrap();
    assert_eq!(job.posting.title, "Account Executive");
    assert_eq!(job.posting.description, "<p>ab</p>");
    // Seeing the same raw posting again is not a change.
    let out = s.upsert_jobs(&[p], t(3, 10)).await.unwrap();
    assert_eq!(out[0].outcome, UpsertOutcome::Unchanged);
}

pub async fn duplicate_of_cannot_point_at_itself(s: &dyn Store) {
    let p = posting("pinpoint", "acme:1", "Engineer");
    let id = s.upsert_jobs(&[p], t(2, 10)).await.unwrap()[0].id;
    let err = s.set_duplicate_of(id, Some(id)).await.unwrap_err();
    assert!(err.to_string().contains("duplicate_of"), "{err}");
}

pub async fn rederive_rewrites_facets_and_requeues_listed_jobs(s: &dyn Store) {
    let open = posting("greenhouse", "acme:1", "Backend Engineer");
    let closed = posting("greenhouse", "acme:2", "Designer");
    let ids = s.upsert_jobs(&[open.clone(), closed.clone()], t(2, 0)).await.unwrap();
    s.close_jobs(&[key(&closed)], ClosedReason::Expired, t(3, 0)).await.unwrap();
    let items = s
        .claim_outbox(freehire_store::OutboxKind::Index, Default::default(), t(3, 1))
        .await
        .unwrap();
    s.ack_outbox(freehire_store::OutboxKind::Index, &items).await.unwrap();

    let by_id = s.jobs_by_ids(&[ids[1].id, JobId::new(987_654).unwrap(), ids[0].id]).await.unwrap();
    let found: Vec<JobId> = by_id.iter().map(|j| j.id).collect();
    assert_eq!(found, vec![ids[0].id, ids[1].id], "by id, closed included, unknown skipped");
    assert!(s.jobs_by_ids(&[]).await.unwrap().is_empty());

    let page = s.jobs_after(None, 1).await.unwrap();
    assert_eq!(page.len(), 1);
    let rest = s.jobs_after(Some(page[0].id), 100).await.unwrap();
    assert_eq!(rest.len(), 1, "closed jobs are scanned too");

    let mut updates = Vec::new();
    for (id, p) in [(ids[0].id, &open), (ids[1].id, &closed)] {
        let mut changed = p.clone();
        changed.facets.skills = vec!["kubernetes".into()];
        changed.role_fingerprint = "fp".into();
        updates.push(freehire_store::DerivedUpdate {
            id,
            facets: changed.facets.clone(),
            role_fingerprint: changed.role_fingerprint.clone(),
            content_hash: changed.content_hash(),
        });
    }
    assert_eq!(s.rewrite_derived(&updates, t(4, 0)).await.unwrap(), 2);
    let job = s.job_by_key(&key(&open)).await.unwrap().unwrap();
    assert_eq!(job.posting.facets.skills, ["kubernetes"]);
    assert_eq!(job.posting.role_fingerprint, "fp");
    assert_eq!(job.content_hash, updates[0].content_hash);
    assert_eq!(job.updated_at, t(4, 0));
    assert_eq!(job.last_seen_at, t(2, 0), "a re-derivation is not a sighting");
    let still_closed = s.job_by_key(&key(&closed)).await.unwrap().unwrap();
    assert!(!still_closed.is_open(), "a re-derivation does not reopen");
    let queued = s
        .claim_outbox(freehire_store::OutboxKind::Index, Default::default(), t(4, 1))
        .await
        .unwrap();
    let queued: Vec<JobId> = queued.iter().map(|i| i.job_id).collect();
    assert_eq!(queued, vec![ids[0].id], "only listed jobs are re-indexed");
    // The same posting seen again is unchanged: the stored hash matches the new facets.
    let mut again = open.clone();
    again.facets = updates[0].facets.clone();
    again.role_fingerprint = "fp".into();
    assert_eq!(
        s.upsert_jobs(&[again], t(5, 0)).await.unwrap()[0].outcome,
        UpsertOutcome::Unchanged
    );
}
