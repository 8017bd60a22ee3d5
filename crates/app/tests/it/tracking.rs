//! The tracking service on both backends: the `applied_on` window and the patch rules, the
//! pipeline's full tables, silence, follow-ups most overdue first, and the CSV round trip
//! (export, import into another account, import again: nothing new).

use std::sync::Arc;

use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};
use freehire_app::tracking::{ApplyInput, TrackPatch, Tracking, TrackingError, TrackingFilter};
use freehire_domain::{JobPosting, PublicSlug, SilenceState, Stage, StageGroup, User};
use freehire_store::{Store, testing::TestDb};

macro_rules! both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite { $(
            #[tokio::test]
            async fn $name() {
                let db = freehire_store::testing::TestDb::sqlite().await;
                super::$name(&db).await;
                db.teardown().await;
            }
        )* }
        mod postgres { $(
            #[tokio::test]
            async fn $name() {
                let db = freehire_store::testing::TestDb::postgres().await;
                super::$name(&db).await;
                db.teardown().await;
            }
        )* }
    };
}

both_backends! {
    applied_on_and_patches_are_checked_before_anything_is_written,
    the_pipeline_counts_every_stage_and_group,
    followups_are_the_silent_applications_most_overdue_first,
    the_csv_round_trips_and_a_second_import_creates_nothing,
}

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 20, 12, 0, 0).unwrap()
}

fn days_ago(n: i64) -> NaiveDate {
    (now() - Duration::days(n)).date_naive()
}

async fn user(s: &dyn Store, address: &str) -> User {
    crate::support::user(s, address, now()).await
}

use crate::support::posting;

async fn jobs(s: &dyn Store, postings: &[JobPosting]) -> Vec<PublicSlug> {
    let written = s.upsert_jobs(postings, now() - Duration::days(90)).await.unwrap();
    let mut slugs = Vec::new();
    for w in written {
        slugs.push(s.jobs_by_ids(&[w.id]).await.unwrap().remove(0).public_slug);
    }
    slugs
}

fn service(db: &TestDb) -> Tracking {
    Tracking::new(Arc::clone(&db.store))
}

async fn applied_on(t: &Tracking, owner: &User, slug: &PublicSlug, days: i64) {
    let input = ApplyInput { applied_on: Some(days_ago(days)), cv_id: None };
    t.apply(owner.id, slug, input, now()).await.unwrap();
}

// scenario: applied_on outside its window is refused
async fn applied_on_and_patches_are_checked_before_anything_is_written(db: &TestDb) {
    let t = service(db);
    let ada = user(db.store(), "ada@example.com").await;
    let slug = jobs(db.store(), &[posting("1", "SRE", "Initech")]).await.remove(0);
    for bad in [days_ago(-1), days_ago(366)] {
        let input = ApplyInput { applied_on: Some(bad), cv_id: None };
        let err = t.apply(ada.id, &slug, input, now()).await.unwrap_err();
        assert!(
            matches!(
                &err,
                TrackingError::Domain(freehire_domain::DomainError::Invalid {
                    field: "applied_on",
                    ..
                })
            ),
            "{err:?}"
        );
    }
    let err = t.update(ada.id, &slug, TrackPatch::default(), now()).await.unwrap_err();
    assert!(matches!(err, TrackingError::Invalid { field: "body", .. }), "{err:?}");
    let long = TrackPatch { stage: None, notes: Some("x".repeat(10_001)) };
    let err = t.update(ada.id, &slug, long, now()).await.unwrap_err();
    assert!(matches!(err, TrackingError::Invalid { field: "notes", .. }), "{err:?}");
    let err = t.list(ada.id, TrackingFilter::All, 501, 0, now()).await.unwrap_err();
    assert!(matches!(err, TrackingError::Invalid { field: "limit", .. }), "{err:?}");
    assert_eq!(t.list(ada.id, TrackingFilter::All, 100, 0, now()).await.unwrap().total, 0);
    // A year ago is still allowed, dated at noon UTC.
    let state = t
        .apply(ada.id, &slug, ApplyInput { applied_on: Some(days_ago(365)), cv_id: None }, now())
        .await
        .unwrap();
    let app = state.track.application.unwrap();
    assert_eq!(app.applied_at.unwrap().date_naive(), days_ago(365));
    assert_eq!(state.silence.unwrap().state, SilenceState::Silent);
}

async fn the_pipeline_counts_every_stage_and_group(db: &TestDb) {
    let t = service(db);
    let ada = user(db.store(), "ada@example.com").await;
    let slugs = jobs(
        db.store(),
        &[
            posting("1", "SRE", "Initech"),
            posting("2", "DBA", "Initech"),
            posting("3", "QA", "Hooli"),
        ],
    )
    .await;
    applied_on(&t, &ada, &slugs[0], 3).await;
    let screening = TrackPatch { stage: Some(Stage::Screening), notes: None };
    t.update(ada.id, &slugs[1], screening, now()).await.unwrap();
    let rejected = TrackPatch { stage: Some(Stage::Rejected), notes: None };
    t.update(ada.id, &slugs[2], rejected, now()).await.unwrap();
    let p = t.pipeline(ada.id).await.unwrap();
    assert_eq!(p.stages.len(), 10);
    assert_eq!(p.groups.len(), 5);
    let stage = |s| p.stages.iter().find(|(x, _)| *x == s).unwrap().1;
    let group = |g| p.groups.iter().find(|(x, _)| *x == g).unwrap().1;
    assert_eq!((stage(Stage::Applied), stage(Stage::Screening), stage(Stage::Offer)), (1, 1, 0));
    assert_eq!(
        (group(StageGroup::Applied), group(StageGroup::Closed), group(StageGroup::Offer)),
        (2, 1, 0)
    );
    assert_eq!(p.total, 3);
}

// scenario: Follow-ups list the silent applications, most overdue first
async fn followups_are_the_silent_applications_most_overdue_first(db: &TestDb) {
    let t = service(db);
    let ada = user(db.store(), "ada@example.com").await;
    let slugs = jobs(
        db.store(),
        &[
            posting("1", "SRE", "Initech"),
            posting("2", "DBA", "Hooli"),
            posting("3", "QA", "Globex"),
            posting("4", "PM", "Umbrella"),
        ],
    )
    .await;
    // Applied 30 days ago: 9 over the threshold of 21.
    applied_on(&t, &ada, &slugs[0], 30).await;
    // Offer 20 days ago: 15 over its 5.
    applied_on(&t, &ada, &slugs[1], 20).await;
    let offer = TrackPatch { stage: Some(Stage::Offer), notes: None };
    t.update(ada.id, &slugs[1], offer, now()).await.unwrap();
    // Applied 10 days ago: waiting.
    applied_on(&t, &ada, &slugs[2], 10).await;
    // Rejected: settled.
    applied_on(&t, &ada, &slugs[3], 60).await;
    let rejected = TrackPatch { stage: Some(Stage::Rejected), notes: None };
    t.update(ada.id, &slugs[3], rejected, now()).await.unwrap();

    let list = t.followups(ada.id, now()).await.unwrap();
    let order: Vec<_> = list.iter().map(|f| f.card.card.company.as_str()).collect();
    assert_eq!(order, ["Hooli", "Initech"]);
    assert_eq!(list[1].draft.subject, "Following up: SRE application");
    assert!(
        list[1].draft.body.contains("I applied for the SRE role at Initech four weeks ago"),
        "{}",
        list[1].draft.body
    );

    let draft = t.followup_draft(ada.id, slugs[0].as_str(), now()).await.unwrap();
    assert_eq!(draft.days_silent, 30);
    for waiting in [&slugs[2], &slugs[3]] {
        let err = t.followup_draft(ada.id, waiting.as_str(), now()).await.unwrap_err();
        assert!(matches!(err, TrackingError::NotSilent), "{err:?}");
    }
    let state = t.record_followup(ada.id, &slugs[0], now()).await.unwrap();
    assert_eq!(state.track.application.unwrap().followed_up_at, Some(now()));
}

// scenario: The tracking CSV round-trips and imports once
async fn the_csv_round_trips_and_a_second_import_creates_nothing(db: &TestDb) {
    let t = service(db);
    let ada = user(db.store(), "ada@example.com").await;
    let grace = user(db.store(), "grace@example.com").await;
    let slugs =
        jobs(db.store(), &[posting("1", "SRE", "Initech, Inc."), posting("2", "DBA", "Hooli")])
            .await;
    t.save(ada.id, &slugs[0], now()).await.unwrap();
    applied_on(&t, &ada, &slugs[0], 5).await;
    let patch = TrackPatch {
        stage: Some(Stage::Interview),
        notes: Some("panel, \"tough\"\nbring laptop".into()),
    };
    t.update(ada.id, &slugs[0], patch, now()).await.unwrap();
    applied_on(&t, &ada, &slugs[1], 2).await;

    let csv = t.export_csv(ada.id).await.unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "application_id,job_slug,company,company_slug,role_title,stage,applied_at,notes,event_kind,event_signal,occurred_at,source"
    );
    assert!(csv.contains("\"panel, \"\"tough\"\"\nbring laptop\""), "RFC 4180 quoting: {csv}");

    // Into another account: the applications and every event.
    let first = t.import_csv(grace.id, &csv, now()).await.unwrap();
    assert!(first.errors.is_empty(), "{:?}", first.errors);
    assert_eq!((first.applications_created, first.events_created), (2, 5));
    let again = t.import_csv(grace.id, &csv, now()).await.unwrap();
    assert_eq!((again.applications_created, again.events_created, again.skipped), (0, 0, 5));
    let mine = t.list(grace.id, TrackingFilter::Board, 100, 0, now()).await.unwrap();
    assert_eq!(mine.total, 2);
    let detail = t.detail(grace.id, slugs[0].as_str(), now()).await.unwrap();
    assert_eq!(detail.card.card.stage, Some(Stage::Interview));
    assert_eq!(detail.events.len(), 4);
    // Into the same account: everything is there already.
    let own = t.import_csv(ada.id, &csv, now()).await.unwrap();
    assert_eq!((own.applications_created, own.events_created, own.skipped), (0, 0, 5));

    // A bad row names its line and field; the good ones still land.
    let mixed = "company,role_title,stage,event_kind,occurred_at\n\
                 Globex,Designer,ghosted,,\n\
                 Globex,Designer,applied,applied,2026-11-01\n\
                 Globex,,applied,,\n";
    let report = t.import_csv(grace.id, mixed, now()).await.unwrap();
    assert_eq!((report.applications_created, report.events_created), (1, 1));
    let issues: Vec<_> = report.errors.iter().map(|e| (e.line, e.field.as_str())).collect();
    assert_eq!(issues, [(2, "stage"), (4, "role_title")]);
    let err = t.import_csv(grace.id, "name,when\nx,y\n", now()).await.unwrap_err();
    assert!(matches!(err, TrackingError::Invalid { field: "csv", .. }), "{err:?}");
}
