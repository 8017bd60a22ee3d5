//! Tracking: marks, applications, the event ledger, reminders and counters, on both backends.
//! Each test takes the whole test database: some read or change what no port offers (the
//! counters, the reminder rows, deleting a job row as a prune would).

use chrono::{DateTime, Duration, TimeZone, Utc};
use freehire_domain::{
    ApplicationId, Email, EventKind, EventSource, JobPosting, Language, PublicSlug, Role, Stage,
    User,
};
use freehire_store::{
    ApplyOptions, ImportEvent, ImportRow, NewUser, SlugSet, Store, TrackChange, TrackingFilter,
    testing::TestDb,
};

use crate::fixtures::{posting, t};

async fn user(s: &dyn Store, address: &str) -> User {
    let email = Email::parse(address).unwrap();
    let language = Language::english();
    let new = NewUser {
        email: &email,
        password_hash: None,
        role: Role::User,
        email_verified: true,
        language: &language,
    };
    s.create_user(&new, t(1, 9)).await.unwrap()
}

/// Stores postings and returns their slugs, in order.
async fn jobs(s: &dyn Store, postings: &[JobPosting]) -> Vec<PublicSlug> {
    let written = s.upsert_jobs(postings, t(1, 8)).await.unwrap();
    let ids: Vec<_> = written.iter().map(|w| w.id).collect();
    let mut found = s.jobs_by_ids(&ids).await.unwrap();
    found.sort_by_key(|j| ids.iter().position(|i| *i == j.id));
    found.into_iter().map(|j| j.public_slug).collect()
}

async fn one_job(s: &dyn Store, id: &str, title: &str) -> PublicSlug {
    jobs(s, &[posting("greenhouse", id, title)]).await.remove(0)
}

fn apply_now(at: DateTime<Utc>) -> ApplyOptions {
    ApplyOptions { applied_at: at, explicit_date: false, cv_id: None, source: EventSource::User }
}

async fn counter(db: &TestDb, column: &str, slug: &PublicSlug) -> i64 {
    db.scalar(&format!("SELECT {column} FROM jobs WHERE public_slug = '{}'", slug.as_str())).await
}

async fn reminders(db: &TestDb, status: &str) -> i64 {
    db.scalar(&format!("SELECT count(*) FROM job_reminders WHERE status = '{status}'")).await
}

fn kinds(events: &[freehire_store::TrackedEvent]) -> Vec<EventKind> {
    events.iter().map(|e| e.kind).collect()
}

pub async fn marks_are_set_cleared_and_read_as_slug_sets(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let a = one_job(s, "acme:1", "Backend Engineer").await;
    let b = one_job(s, "acme:2", "Frontend Engineer").await;

    let track = s.track_view(ada.id, &a, t(2, 9)).await.unwrap().unwrap();
    assert_eq!(track.job_slug, a.as_str());
    assert_eq!(track.marks.viewed_at, Some(t(2, 9)));
    assert!(track.application.is_none());
    // A second view moves viewed_at but counts once.
    let track = s.track_view(ada.id, &a, t(3, 9)).await.unwrap().unwrap();
    assert_eq!(track.marks.viewed_at, Some(t(3, 9)));
    assert_eq!(counter(db, "view_count", &a).await, 1);

    let track = s.track_save(ada.id, &a, true, t(3, 10)).await.unwrap().unwrap();
    assert_eq!(track.marks.saved_at, Some(t(3, 10)));
    // Saving again keeps the first save.
    let track = s.track_save(ada.id, &a, true, t(4, 10)).await.unwrap().unwrap();
    assert_eq!(track.marks.saved_at, Some(t(3, 10)));
    s.track_dismiss(ada.id, &b, true, t(3, 11)).await.unwrap().unwrap();
    s.track_save(ada.id, &b, true, t(3, 12)).await.unwrap().unwrap();

    let slugs = |set| async move { s.tracking_slugs(ada.id, set).await.unwrap() };
    assert_eq!(slugs(SlugSet::Viewed).await, [a.as_str()]);
    let mut saved = vec![a.as_str().to_owned(), b.as_str().to_owned()];
    saved.sort();
    assert_eq!(slugs(SlugSet::Saved).await, saved);
    assert_eq!(slugs(SlugSet::Dismissed).await, [b.as_str()]);

    let track = s.track_save(ada.id, &b, false, t(4, 9)).await.unwrap().unwrap();
    assert_eq!(track.marks.saved_at, None);
    let track = s.track_dismiss(ada.id, &b, false, t(4, 9)).await.unwrap().unwrap();
    assert_eq!(track.marks.dismissed_at, None);
    assert_eq!(slugs(SlugSet::Saved).await, [a.as_str()]);
    assert!(slugs(SlugSet::Dismissed).await.is_empty());

    // Each change was appended to the ledger, the no-ops were not.
    let detail = s.tracking_detail(ada.id, b.as_str()).await.unwrap().unwrap();
    assert_eq!(
        kinds(&detail.events),
        [EventKind::Dismissed, EventKind::Saved, EventKind::Unsaved, EventKind::Undismissed]
    );
    assert!(detail.events.iter().all(|e| e.source == EventSource::User));
    let detail = s.tracking_detail(ada.id, a.as_str()).await.unwrap().unwrap();
    assert_eq!(kinds(&detail.events), [EventKind::Viewed, EventKind::Saved]);

    // A slug that names no job is None.
    let ghost = PublicSlug::parse("ghost-role-at-nowhere-zzzzzzzz").unwrap();
    assert!(s.track_view(ada.id, &ghost, t(4, 9)).await.unwrap().is_none());
    assert!(s.track_of(ada.id, &ghost).await.unwrap().is_none());
}

pub async fn applying_snapshots_the_posting_and_counts_once_per_user(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let grace = user(s, "grace@example.com").await;
    let a = one_job(s, "acme:1", "Backend Engineer").await;

    let track = s.track_apply(ada.id, &a, &apply_now(t(5, 9)), t(5, 9)).await.unwrap().unwrap();
    let app = track.application.unwrap();
    assert_eq!(app.stage, Some(Stage::Applied));
    assert_eq!(app.applied_at, Some(t(5, 9)));
    assert_eq!(
        (app.company.as_str(), app.role_title.as_str()),
        ("Acme Labs, Inc.", "Backend Engineer")
    );
    assert_eq!(app.job_slug.as_deref(), Some(a.as_str()));
    assert!(!app.job_closed);
    assert_eq!(app.snapshot.url.as_deref(), Some("https://jobs.example.com/acme:1"));
    assert_eq!(app.snapshot.location.as_deref(), Some("Berlin, Germany"));
    assert!(app.snapshot.description.as_deref().unwrap().contains("build reliable systems"));
    let facts = app.snapshot.facts.unwrap();
    assert_eq!(facts["title"], "Backend Engineer");
    assert_eq!(facts["work_mode"], "hybrid");
    assert_eq!(facts["countries"][0], "de");
    assert_eq!(facts["seniority"], "senior");
    assert_eq!(facts["salary"]["currency"], "EUR");

    // Applying again (even after clearing the whole track) does not count again.
    s.track_apply(ada.id, &a, &apply_now(t(6, 9)), t(6, 9)).await.unwrap().unwrap();
    s.track_clear(ada.id, &a, t(6, 10)).await.unwrap().unwrap();
    s.track_apply(ada.id, &a, &apply_now(t(6, 11)), t(6, 11)).await.unwrap().unwrap();
    assert_eq!(counter(db, "applied_count", &a).await, 1);
    s.track_apply(grace.id, &a, &apply_now(t(6, 9)), t(6, 9)).await.unwrap().unwrap();
    assert_eq!(counter(db, "applied_count", &a).await, 2);

    // A stage further on is kept by a re-apply.
    let change = TrackChange { stage: Some(Stage::Interview), notes: None };
    s.track_update(grace.id, &a, &change, t(7, 9)).await.unwrap().unwrap();
    let track = s.track_apply(grace.id, &a, &apply_now(t(7, 10)), t(7, 10)).await.unwrap().unwrap();
    assert_eq!(track.application.unwrap().stage, Some(Stage::Interview));
}

pub async fn reapplying_on_another_day_redates_the_applied_event(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let a = one_job(s, "acme:1", "Backend Engineer").await;
    s.track_apply(ada.id, &a, &apply_now(t(10, 9)), t(10, 9)).await.unwrap().unwrap();
    let on = |day| ApplyOptions {
        applied_at: t(day, 12),
        explicit_date: true,
        cv_id: Some(7),
        source: EventSource::User,
    };
    // The same day changes nothing but the CV.
    let track = s.track_apply(ada.id, &a, &on(10), t(11, 9)).await.unwrap().unwrap();
    let app = track.application.unwrap();
    assert_eq!((app.applied_at, app.cv_id), (Some(t(10, 9)), Some(7)));
    let track = s.track_apply(ada.id, &a, &on(8), t(11, 9)).await.unwrap().unwrap();
    assert_eq!(track.application.unwrap().applied_at, Some(t(8, 12)));
    let detail = s.tracking_detail(ada.id, a.as_str()).await.unwrap().unwrap();
    let applied: Vec<_> = detail.events.iter().filter(|e| e.kind == EventKind::Applied).collect();
    assert_eq!(applied.len(), 1, "re-dated, not appended");
    assert_eq!(applied[0].occurred_at, t(8, 12));
    assert_eq!(applied[0].recorded_at, t(10, 9));
    assert_eq!(applied[0].signal.as_deref(), Some("2026-11-08"));
}

// scenario: applied_count moves once per user under concurrency
pub async fn concurrent_applies_count_each_user_once(db: &TestDb) {
    let store = db.store.clone();
    let a = one_job(store.as_ref(), "acme:1", "Backend Engineer").await;
    let mut users = Vec::new();
    for n in 0..3 {
        users.push(user(store.as_ref(), &format!("u{n}@example.com")).await);
    }
    let mut tasks = Vec::new();
    for u in &users {
        for attempt in 0..6 {
            let (store, slug, owner) = (store.clone(), a.clone(), u.id);
            tasks.push(tokio::spawn(async move {
                let at = t(5, 9) + Duration::minutes(attempt);
                store.track_apply(owner, &slug, &apply_now(at), at).await.unwrap().unwrap()
            }));
        }
    }
    for task in tasks {
        assert!(task.await.unwrap().application.is_some());
    }
    assert_eq!(counter(db, "applied_count", &a).await, 3);
    assert_eq!(db.scalar("SELECT count(*) FROM applications").await, 3);
    assert_eq!(
        db.scalar("SELECT count(*) FROM application_events WHERE kind = 'applied'").await,
        3,
        "one applied event per user"
    );
}

pub async fn stage_and_notes_changes_are_ledgered_and_counted(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let slugs = jobs(
        s,
        &[
            posting("greenhouse", "acme:1", "Backend Engineer"),
            posting("greenhouse", "acme:2", "Data Engineer"),
            posting("greenhouse", "acme:3", "SRE"),
        ],
    )
    .await;
    let (a, b, c) = (&slugs[0], &slugs[1], &slugs[2]);
    // Notes alone make an application without a stage or an applied date.
    let notes = TrackChange { stage: None, notes: Some("ask about on-call".into()) };
    let track = s.track_update(ada.id, a, &notes, t(5, 9)).await.unwrap().unwrap();
    let app = track.application.unwrap();
    assert_eq!((app.stage, app.applied_at, app.notes.as_str()), (None, None, "ask about on-call"));
    // `preparing` does not apply; `interview` does (dated now, counted once).
    let prep = TrackChange { stage: Some(Stage::Preparing), notes: None };
    let track = s.track_update(ada.id, a, &prep, t(5, 10)).await.unwrap().unwrap();
    assert_eq!(track.application.as_ref().unwrap().applied_at, None);
    assert_eq!(counter(db, "applied_count", a).await, 0);
    let interview = TrackChange { stage: Some(Stage::Interview), notes: None };
    let track = s.track_update(ada.id, a, &interview, t(6, 9)).await.unwrap().unwrap();
    let app = track.application.unwrap();
    assert_eq!((app.stage, app.applied_at), (Some(Stage::Interview), Some(t(6, 9))));
    assert_eq!(counter(db, "applied_count", a).await, 1);
    let detail = s.tracking_detail(ada.id, a.as_str()).await.unwrap().unwrap();
    assert_eq!(
        kinds(&detail.events),
        [EventKind::Note, EventKind::StageSet, EventKind::Applied, EventKind::StageSet]
    );
    assert_eq!(detail.events[3].signal.as_deref(), Some("interview"));

    let offer = TrackChange { stage: Some(Stage::Offer), notes: None };
    s.track_apply(ada.id, b, &apply_now(t(6, 9)), t(6, 9)).await.unwrap().unwrap();
    s.track_update(ada.id, c, &offer, t(6, 9)).await.unwrap().unwrap();
    let counts = s.stage_counts(ada.id).await.unwrap();
    let mut counts = counts.counts;
    counts.sort();
    assert_eq!(counts, [(Stage::Applied, 1), (Stage::Interview, 1), (Stage::Offer, 1)]);

    // Clearing the stage keeps the save and the notes.
    s.track_save(ada.id, a, true, t(7, 9)).await.unwrap().unwrap();
    let track = s.track_clear_stage(ada.id, a, t(7, 10)).await.unwrap().unwrap();
    let app = track.application.unwrap();
    assert_eq!((app.stage, app.applied_at), (None, None));
    assert_eq!(app.notes, "ask about on-call");
    assert!(track.marks.saved_at.is_some());
    // Clearing the track keeps only the view.
    s.track_view(ada.id, a, t(7, 11)).await.unwrap().unwrap();
    let track = s.track_clear(ada.id, a, t(7, 12)).await.unwrap().unwrap();
    assert!(track.application.is_none());
    assert_eq!(track.marks.saved_at, None);
    assert_eq!(track.marks.viewed_at, Some(t(7, 11)));
    let detail = s.tracking_detail(ada.id, a.as_str()).await.unwrap().unwrap();
    assert_eq!(detail.events.last().unwrap().kind, EventKind::TrackCleared);

    // The follow-up is recorded on the application.
    let track = s.track_followed_up(ada.id, b, t(8, 9)).await.unwrap().unwrap();
    assert_eq!(track.application.unwrap().followed_up_at, Some(t(8, 9)));
    let track = s.track_followed_up(ada.id, a, t(8, 9)).await.unwrap().unwrap();
    assert!(track.application.is_none(), "nothing to follow up");
}

pub async fn a_save_schedules_a_reminder_that_unsave_dismiss_and_apply_cancel(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let slugs = jobs(
        s,
        &[
            posting("greenhouse", "acme:1", "Backend Engineer"),
            posting("greenhouse", "acme:2", "Data Engineer"),
            posting("greenhouse", "acme:3", "SRE"),
        ],
    )
    .await;
    // Default: 09:00 UTC. Saved on the 2nd at 10:00 → the 5th has passed nine → the 6th 09:00.
    s.track_save(ada.id, &slugs[0], true, t(2, 10)).await.unwrap().unwrap();
    let fire = |at: &str| {
        format!("SELECT count(*) FROM job_reminders WHERE status = 'pending' AND fire_at = '{at}'")
    };
    assert_eq!(db.scalar(&fire("2026-11-06T09:00:00.000000Z")).await, 1);
    // The digest hour and zone of the notification settings: 07:00 in Berlin (06:00 UTC).
    db.execute(&format!(
        "INSERT INTO notification_settings (user_id, digest_hour, timezone, updated_at) \
         VALUES ({}, 7, 'Europe/Berlin', '2026-11-01T00:00:00.000000Z')",
        ada.id.get()
    ))
    .await;
    s.track_save(ada.id, &slugs[1], true, t(2, 5)).await.unwrap().unwrap();
    assert_eq!(db.scalar(&fire("2026-11-05T06:00:00.000000Z")).await, 1);
    s.track_save(ada.id, &slugs[2], true, t(2, 5)).await.unwrap().unwrap();
    assert_eq!(reminders(db, "pending").await, 3);

    s.track_save(ada.id, &slugs[0], false, t(3, 9)).await.unwrap().unwrap();
    s.track_dismiss(ada.id, &slugs[1], true, t(3, 9)).await.unwrap().unwrap();
    s.track_apply(ada.id, &slugs[2], &apply_now(t(3, 9)), t(3, 9)).await.unwrap().unwrap();
    assert_eq!(reminders(db, "pending").await, 0);
    assert_eq!(reminders(db, "cancelled").await, 3);
    // Saving an applied job schedules nothing.
    s.track_save(ada.id, &slugs[2], false, t(3, 10)).await.unwrap().unwrap();
    s.track_save(ada.id, &slugs[2], true, t(3, 11)).await.unwrap().unwrap();
    assert_eq!(reminders(db, "pending").await, 0);
}

// scenario: An application outlives its posting
pub async fn an_application_survives_its_jobs_deletion(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let a = one_job(s, "acme:1", "Backend Engineer").await;
    let track = s.track_apply(ada.id, &a, &apply_now(t(5, 9)), t(5, 9)).await.unwrap().unwrap();
    let id = track.application.unwrap().id;
    let deleted =
        db.execute(&format!("DELETE FROM jobs WHERE public_slug = '{}'", a.as_str())).await;
    assert_eq!(deleted, 1);

    let list = s.tracking_list(ada.id, TrackingFilter::All, 100, 0).await.unwrap();
    assert_eq!(list.total, 1);
    let card = &list.cards[0];
    assert_eq!(card.application_id, Some(id));
    assert!(card.job_closed);
    assert_eq!(card.job_slug.as_deref(), Some(a.as_str()));
    assert_eq!(
        (card.title.as_str(), card.company.as_str()),
        ("Backend Engineer", "Acme Labs, Inc.")
    );
    assert_eq!(card.url, "https://jobs.example.com/acme:1");
    // The full view by the kept slug, with the snapshot's description and the timeline.
    let detail = s.tracking_detail(ada.id, a.as_str()).await.unwrap().unwrap();
    assert!(detail.description.unwrap().contains("build reliable systems"));
    assert_eq!(kinds(&detail.events), [EventKind::Applied]);
    // Addressed by its id: stage changes and clears work without a posting.
    let change = TrackChange { stage: Some(Stage::Rejected), notes: Some("no reply".into()) };
    let app = s.update_application(ada.id, id, &change, t(6, 9)).await.unwrap().unwrap();
    assert_eq!(
        (app.stage, app.notes.as_str(), app.job_id),
        (Some(Stage::Rejected), "no reply", None)
    );
    let app = s.clear_application_stage(ada.id, id, t(6, 10)).await.unwrap().unwrap();
    assert_eq!((app.stage, app.applied_at), (None, None));
    assert!(s.delete_application(ada.id, id).await.unwrap());
    assert!(!s.delete_application(ada.id, id).await.unwrap());
    assert_eq!(
        db.scalar("SELECT count(*) FROM application_events WHERE application_id IS NOT NULL").await,
        0
    );
}

// scenario: Another user's application is not reached
pub async fn owner_scoped_methods_never_reach_another_users_rows(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let eve = user(s, "eve@example.com").await;
    let a = one_job(s, "acme:1", "Backend Engineer").await;
    let track = s.track_apply(ada.id, &a, &apply_now(t(5, 9)), t(5, 9)).await.unwrap().unwrap();
    let id = track.application.unwrap().id;
    let change = TrackChange { stage: Some(Stage::Offer), notes: None };
    assert!(s.update_application(eve.id, id, &change, t(6, 9)).await.unwrap().is_none());
    assert!(s.clear_application_stage(eve.id, id, t(6, 9)).await.unwrap().is_none());
    assert!(!s.delete_application(eve.id, id).await.unwrap());
    assert!(s.tracking_detail(eve.id, a.as_str()).await.unwrap().is_none());
    assert_eq!(s.tracking_list(eve.id, TrackingFilter::All, 100, 0).await.unwrap().total, 0);
    assert!(s.export_applications(eve.id).await.unwrap().is_empty());
    assert!(s.track_of(eve.id, &a).await.unwrap().unwrap().application.is_none());
    // Ada's is untouched.
    let mine = s.track_of(ada.id, &a).await.unwrap().unwrap().application.unwrap();
    assert_eq!(mine.stage, Some(Stage::Applied));
    let missing = ApplicationId::new(999_999).unwrap();
    assert!(s.update_application(ada.id, missing, &change, t(6, 9)).await.unwrap().is_none());
}

pub async fn the_list_filters_pages_and_orders_by_last_change(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let postings: Vec<_> =
        (0..6).map(|n| posting("greenhouse", &format!("acme:{n}"), &format!("Role {n}"))).collect();
    let slugs = jobs(s, &postings).await;
    s.track_view(ada.id, &slugs[0], t(2, 9)).await.unwrap();
    s.track_save(ada.id, &slugs[1], true, t(2, 10)).await.unwrap();
    s.track_apply(ada.id, &slugs[2], &apply_now(t(2, 11)), t(2, 11)).await.unwrap();
    let stage = TrackChange { stage: Some(Stage::Preparing), notes: None };
    s.track_update(ada.id, &slugs[3], &stage, t(2, 12)).await.unwrap();
    s.track_dismiss(ada.id, &slugs[4], true, t(2, 13)).await.unwrap();
    // Saving an applied job moves its card up.
    s.track_save(ada.id, &slugs[2], true, t(2, 14)).await.unwrap();

    let list = |filter, limit, offset| async move {
        let l = s.tracking_list(ada.id, filter, limit, offset).await.unwrap();
        (l.total, l.cards.into_iter().map(|c| c.job_slug.unwrap()).collect::<Vec<_>>())
    };
    let slug = |n: usize| slugs[n].as_str().to_owned();
    assert_eq!(
        list(TrackingFilter::All, 100, 0).await,
        (5, vec![slug(2), slug(4), slug(3), slug(1), slug(0)])
    );
    assert_eq!(list(TrackingFilter::All, 2, 1).await, (5, vec![slug(4), slug(3)]));
    assert_eq!(list(TrackingFilter::Viewed, 100, 0).await, (1, vec![slug(0)]));
    assert_eq!(list(TrackingFilter::Saved, 100, 0).await, (2, vec![slug(2), slug(1)]));
    assert_eq!(list(TrackingFilter::Applied, 100, 0).await, (1, vec![slug(2)]));
    assert_eq!(list(TrackingFilter::Board, 100, 0).await, (2, vec![slug(2), slug(3)]));
    let cards = s.tracking_list(ada.id, TrackingFilter::All, 100, 0).await.unwrap().cards;
    let applied = &cards[0];
    assert_eq!(applied.stage, Some(Stage::Applied));
    assert_eq!(applied.marks.saved_at, Some(t(2, 14)));
    assert_eq!(applied.updated_at, t(2, 14));
    let viewed = &cards[4];
    assert_eq!((viewed.application_id, viewed.stage, viewed.notes.as_str()), (None, None, ""));
    assert_eq!(viewed.title, "Role 0");
}

pub async fn export_lists_every_application_with_its_events(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let a = one_job(s, "acme:1", "Backend Engineer").await;
    s.track_save(ada.id, &a, true, t(2, 9)).await.unwrap();
    s.track_apply(ada.id, &a, &apply_now(t(3, 9)), t(3, 9)).await.unwrap();
    let interview = TrackChange { stage: Some(Stage::Interview), notes: Some("panel".into()) };
    s.track_update(ada.id, &a, &interview, t(4, 9)).await.unwrap();
    let rows = s.export_applications(ada.id).await.unwrap();
    let events: Vec<_> = rows.iter().map(|r| r.event.as_ref().unwrap().kind).collect();
    assert_eq!(
        events,
        [EventKind::Saved, EventKind::Applied, EventKind::StageSet, EventKind::Note]
    );
    assert!(rows.iter().all(|r| r.stage == Some(Stage::Interview) && r.notes == "panel"));
}

pub async fn importing_twice_creates_nothing_new(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let a = one_job(s, "acme:1", "Backend Engineer").await;
    let at = Utc.with_ymd_and_hms(2026, 10, 1, 9, 0, 0).unwrap();
    let rows = [
        // Matches the live job by slug.
        ImportRow {
            job_slug: Some(a.as_str()),
            company: "Acme Labs, Inc.",
            company_slug: "acme-labs",
            role_title: "Backend Engineer",
            stage: Some(Stage::Applied),
            applied_at: Some(at),
            notes: "",
            event: Some(ImportEvent {
                kind: EventKind::Applied,
                signal: Some("2026-10-01"),
                occurred_at: at,
                source_ref: "ref-1",
            }),
        },
        // No job: matched by company and role on the second row.
        ImportRow {
            job_slug: Some("gone-role-at-initech-zzzzzzzz"),
            company: "Initech",
            company_slug: "initech",
            role_title: "SRE",
            stage: Some(Stage::Rejected),
            applied_at: Some(at),
            notes: "old",
            event: Some(ImportEvent {
                kind: EventKind::Applied,
                signal: None,
                occurred_at: at,
                source_ref: "ref-2",
            }),
        },
        ImportRow {
            job_slug: None,
            company: "Initech",
            company_slug: "initech",
            role_title: "SRE",
            stage: Some(Stage::Rejected),
            applied_at: Some(at),
            notes: "old",
            event: Some(ImportEvent {
                kind: EventKind::StageSet,
                signal: Some("rejected"),
                occurred_at: at + Duration::days(3),
                source_ref: "ref-3",
            }),
        },
    ];
    let mut first = Vec::new();
    for row in &rows {
        first.push(s.import_application_row(ada.id, row, t(5, 9)).await.unwrap());
    }
    let created: Vec<_> = first.iter().map(|i| (i.application_created, i.event_created)).collect();
    assert_eq!(created, [(true, true), (true, true), (false, true)]);
    for row in &rows {
        let again = s.import_application_row(ada.id, row, t(6, 9)).await.unwrap();
        assert_eq!((again.application_created, again.event_created), (false, false));
    }
    let list = s.tracking_list(ada.id, TrackingFilter::All, 100, 0).await.unwrap();
    assert_eq!(list.total, 2);
    let detail = s.tracking_detail(ada.id, a.as_str()).await.unwrap().unwrap();
    assert_eq!(detail.events.len(), 1);
    assert_eq!(detail.events[0].source, EventSource::Import);
    assert_eq!(detail.card.stage, Some(Stage::Applied));
    let initech =
        s.tracking_detail(ada.id, "gone-role-at-initech-zzzzzzzz").await.unwrap().unwrap();
    assert_eq!(kinds(&initech.events), [EventKind::Applied, EventKind::StageSet]);
    assert!(initech.card.job_closed);
}

// The assistant's tools: `apply_job` records its source; `my_jobs` lists dismissed jobs;
// `present_jobs` resolves several slugs in one read.
pub async fn the_assistant_records_its_source_lists_dismissed_and_reads_slugs(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let grace = user(s, "grace@example.com").await;
    let slugs =
        jobs(s, &[posting("greenhouse", "a1", "SRE"), posting("greenhouse", "a2", "DBA")]).await;
    let by_assistant = ApplyOptions { source: EventSource::Assistant, ..apply_now(t(2, 9)) };
    s.track_apply(ada.id, &slugs[0], &by_assistant, t(2, 9)).await.unwrap();
    let detail = s.tracking_detail(ada.id, slugs[0].as_str()).await.unwrap().unwrap();
    let applied: Vec<_> = detail.events.iter().filter(|e| e.kind == EventKind::Applied).collect();
    assert_eq!(applied.len(), 1);
    assert_eq!(applied[0].source, EventSource::Assistant);

    s.track_dismiss(ada.id, &slugs[1], true, t(2, 10)).await.unwrap();
    s.track_dismiss(grace.id, &slugs[0], true, t(2, 10)).await.unwrap();
    let dismissed = s.tracking_list(ada.id, TrackingFilter::Dismissed, 10, 0).await.unwrap();
    assert_eq!(dismissed.total, 1);
    assert_eq!(dismissed.cards[0].job_slug.as_deref(), Some(slugs[1].as_str()));
    assert_eq!(TrackingFilter::parse("dismissed"), Some(TrackingFilter::Dismissed));

    let unknown = PublicSlug::parse("no-such-job-aaaaaaaa").unwrap();
    let found = s.jobs_by_slugs(&[slugs[1].clone(), unknown, slugs[0].clone()]).await.unwrap();
    let mut got: Vec<&str> = found.iter().map(|j| j.public_slug.as_str()).collect();
    got.sort_unstable();
    let mut want = vec![slugs[0].as_str(), slugs[1].as_str()];
    want.sort_unstable();
    assert_eq!(got, want);
    assert!(s.jobs_by_slugs(&[]).await.unwrap().is_empty());
}
