//! The notification engines' storage: the match cursor's compare-and-set, digest claims
//! (capped, recorded before delivery, taken once), the delivery queue's lease and retries,
//! reminders firing once, nudges once per episode.

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use freehire_domain::{
    Channel, Email, JobId, Language, NotificationKind, Role, Stage, SubscriptionId, User, UserId,
};
use freehire_store::{
    DeliveryOutcome, DigestClaim, NewDelivery, NewNotification, NewNudge, NotifiedJob, NudgeKind,
    Store, testing::TestDb,
};

use crate::fixtures::{posting, t};

pub async fn user(s: &dyn Store, name: &str) -> User {
    let email = Email::parse(&format!("{name}@example.com")).unwrap();
    let language = Language::parse("en").unwrap();
    let new = freehire_store::NewUser {
        email: &email,
        password_hash: None,
        role: Role::User,
        email_verified: true,
        language: &language,
    };
    s.create_user(&new, t(1, 8)).await.unwrap()
}

pub async fn jobs(s: &dyn Store, prefix: &str, n: usize) -> Vec<JobId> {
    let postings: Vec<_> =
        (0..n).map(|i| posting("greenhouse", &format!("{prefix}:{i}"), "Engineer")).collect();
    s.upsert_jobs(&postings, t(1, 9)).await.unwrap().into_iter().map(|u| u.id).collect()
}

fn title(total: u64, name: &str) -> String {
    format!("{total} new jobs for {name}")
}

fn claim(
    subscription: SubscriptionId,
    last: Option<DateTime<Utc>>,
    cap: u32,
) -> DigestClaim<'static> {
    DigestClaim { subscription, expected_last_sent: last, cap, title: &title }
}

async fn email_subscription(db: &TestDb, owner: UserId, query: &str) -> SubscriptionId {
    let seed = db.seed().await;
    let search = seed.saved_search(owner, &format!("search {query}"), query, t(1, 8)).await;
    seed.subscription(owner, search, Channel::Email, None, None, t(1, 8)).await
}

pub async fn the_cursor_moves_by_compare_and_set_with_its_matches(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada").await;
    let sub = email_subscription(db, ada.id, "skills=go").await;
    let ids = jobs(s, "b", 3).await;
    assert_eq!(s.engine_cursor("notify").await.unwrap(), 0);
    let subscribers = s.subscribers().await.unwrap();
    assert_eq!(subscribers.len(), 1);
    assert_eq!(subscribers[0].query, "skills=go");
    let matches: Vec<_> = ids.iter().map(|j| (sub, *j)).collect();
    let to = ids[2].get();
    assert!(s.record_matches("notify", 0, to, &matches, t(2, 9)).await.unwrap());
    assert_eq!(s.engine_cursor("notify").await.unwrap(), to);
    // A second worker that read the cursor at 0 loses, writing nothing.
    assert!(!s.record_matches("notify", 0, to, &matches[..1], t(2, 9)).await.unwrap());
    // Recording a match twice is a no-op (idempotent by primary key).
    assert!(s.record_matches("notify", to, to, &matches, t(2, 10)).await.unwrap());
    assert_eq!(db.seed().await.matches(sub).await, (3, 0));
}

pub async fn a_digest_takes_at_most_the_cap_and_is_recorded_with_its_delivery(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada").await;
    let sub = email_subscription(db, ada.id, "skills=go").await;
    let ids = jobs(s, "b", 250).await;
    db.seed().await.matches_of(sub, &ids, t(2, 9)).await;
    let candidates = s.digest_candidates().await.unwrap();
    assert_eq!(candidates.len(), 1);
    assert_eq!(candidates[0].pending, 250);
    assert!(candidates[0].settings.enabled, "no settings row: the defaults");

    let first = s.take_digest(&claim(sub, None, 200), t(3, 9)).await.unwrap().unwrap();
    assert_eq!(first.jobs.len(), 200);
    assert_eq!(first.total, 250);
    assert_eq!(db.seed().await.matches(sub).await, (250, 200));
    // Oldest first.
    let first_slug = s.jobs_by_ids(&ids[..1]).await.unwrap()[0].public_slug.as_str().to_owned();
    assert_eq!(first.jobs[0].slug, first_slug);
    let notes = s.notifications_of(ada.id).await.unwrap();
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].kind, NotificationKind::Digest);
    assert_eq!(notes[0].title, "250 new jobs for search skills=go");
    assert_eq!(notes[0].jobs.len(), 200);
    let deliveries = s.deliveries_of(ada.id).await.unwrap();
    assert_eq!(deliveries.len(), 1);
    assert_eq!(deliveries[0].status, "pending");
    assert_eq!(deliveries[0].notification, first.notification);

    // A claim judged on the stale `last_digest_sent_at` takes nothing.
    assert!(s.take_digest(&claim(sub, None, 200), t(3, 10)).await.unwrap().is_none());
    let second = s.take_digest(&claim(sub, Some(t(3, 9)), 200), t(4, 9)).await.unwrap().unwrap();
    assert_eq!(second.jobs.len(), 50);
    assert_eq!(db.seed().await.matches(sub).await, (250, 250));
    assert!(s.digest_candidates().await.unwrap().is_empty());
    assert!(s.take_digest(&claim(sub, Some(t(4, 9)), 200), t(5, 9)).await.unwrap().is_none());
}

pub async fn deliveries_are_leased_retried_and_finished(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada").await;
    let sub = email_subscription(db, ada.id, "skills=go").await;
    let ids = jobs(s, "b", 2).await;
    db.seed().await.matches_of(sub, &ids, t(2, 9)).await;
    s.take_digest(&claim(sub, None, 200), t(3, 9)).await.unwrap().unwrap();
    let lease = Duration::minutes(5);
    let due = s.claim_deliveries("w1", 10, lease, t(3, 9)).await.unwrap();
    assert_eq!(due.len(), 1);
    let d = &due[0];
    assert_eq!(d.destination, "ada@example.com");
    assert_eq!(d.channel, Channel::Email);
    assert_eq!(d.jobs.len(), 2);
    assert_eq!(d.saved_search.as_deref(), Some("search skills=go"));
    // Leased: nobody else gets it while the lease runs.
    assert!(s.claim_deliveries("w2", 10, lease, t(3, 9)).await.unwrap().is_empty());
    let retry = DeliveryOutcome::Retry { error: "smtp 451".into(), next_attempt_at: t(3, 10) };
    assert!(s.finish_delivery(d.id, "w1", &retry, t(3, 9)).await.unwrap());
    assert!(!s.finish_delivery(d.id, "w1", &retry, t(3, 9)).await.unwrap(), "lease released");
    let stored = &s.deliveries_of(ada.id).await.unwrap()[0];
    assert_eq!((stored.attempts, stored.status.as_str()), (1, "pending"));
    assert_eq!(stored.last_error.as_deref(), Some("smtp 451"));
    assert_eq!(stored.next_attempt_at, t(3, 10));
    // Not due before its next attempt.
    assert!(s.claim_deliveries("w1", 10, lease, t(3, 9)).await.unwrap().is_empty());
    // A lease that ran out is claimable again (a killed worker).
    let again = s.claim_deliveries("w1", 10, lease, t(3, 10)).await.unwrap();
    assert_eq!(again[0].attempts, 1);
    let later = t(3, 10) + lease + Duration::seconds(1);
    let taken_over = s.claim_deliveries("w2", 10, lease, later).await.unwrap();
    assert_eq!(taken_over.len(), 1);
    assert!(!s.finish_delivery(d.id, "w1", &DeliveryOutcome::Sent, later).await.unwrap());
    assert!(s.finish_delivery(d.id, "w2", &DeliveryOutcome::Sent, later).await.unwrap());
    let stored = &s.deliveries_of(ada.id).await.unwrap()[0];
    assert_eq!((stored.attempts, stored.status.as_str()), (2, "sent"));
    assert!(s.claim_deliveries("w1", 10, lease, t(9, 9)).await.unwrap().is_empty());
}

fn reminder_note(owner: UserId) -> NewNotification {
    NewNotification {
        owner,
        kind: NotificationKind::Reminder,
        title: "Still interested?".into(),
        body: String::new(),
        public_slug: None,
        jobs: vec![NotifiedJob {
            slug: "s".into(),
            title: "t".into(),
            company: "c".into(),
            location: "l".into(),
            url: None,
        }],
        deliveries: vec![NewDelivery {
            channel: Channel::Email,
            destination: "ada@example.com".into(),
            subscription: None,
        }],
    }
}

pub async fn reminders_fire_once_and_say_whether_they_still_apply(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada").await;
    let ids = jobs(s, "b", 2).await;
    let seed = db.seed().await;
    seed.save_job(ada.id, ids[0], Some(t(1, 9))).await;
    let due = seed.reminder(ada.id, ids[0], t(4, 9), t(1, 9)).await;
    let unsaved = seed.reminder(ada.id, ids[1], t(4, 9), t(1, 9)).await;
    let lease = Duration::minutes(5);
    assert!(s.claim_reminders("w1", 10, lease, t(4, 8)).await.unwrap().is_empty(), "not yet");
    let claimed = s.claim_reminders("w1", 10, lease, t(4, 9)).await.unwrap();
    assert_eq!(claimed.len(), 2);
    assert!(s.claim_reminders("w2", 10, lease, t(4, 9)).await.unwrap().is_empty(), "leased");
    let first = claimed.iter().find(|r| r.id == due).unwrap();
    assert!(first.saved && first.job_open && !first.applied);
    let second = claimed.iter().find(|r| r.id == unsaved).unwrap();
    assert!(!second.saved);
    assert!(s.fire_reminder(due, "w1", &reminder_note(ada.id), t(4, 9)).await.unwrap().is_some());
    assert!(s.fire_reminder(due, "w1", &reminder_note(ada.id), t(4, 9)).await.unwrap().is_none());
    assert!(s.cancel_reminder(unsaved, "w1").await.unwrap());
    assert_eq!(seed.reminder_status(due).await, "fired");
    assert_eq!(seed.reminder_status(unsaved).await, "cancelled");
    assert_eq!(s.notifications_of(ada.id).await.unwrap().len(), 1);
    assert_eq!(s.deliveries_of(ada.id).await.unwrap().len(), 1);
}

pub async fn a_nudge_is_recorded_once_per_episode(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada").await;
    let ids = jobs(s, "b", 1).await;
    let seed = db.seed().await;
    let slug = s.jobs_by_ids(&ids).await.unwrap()[0].public_slug.as_str().to_owned();
    let app = seed
        .application(
            ada.id,
            Some((ids[0], &slug)),
            "Acme",
            "Engineer",
            Some(Stage::Applied),
            Some(t(1, 9)),
            t(1, 9),
        )
        .await;
    let event = seed.event(ada.id, app, "stage_set", Some("interview"), t(5, 9)).await;
    let candidates = s.nudge_candidates(t(1, 0)).await.unwrap();
    assert_eq!(candidates.len(), 1);
    assert_eq!(candidates[0].interview_events, vec![event]);
    assert!(candidates[0].silent_episodes.is_empty());
    let nudge = |kind, key: &str| NewNudge {
        application: app,
        job: Some(ids[0]),
        kind,
        episode_key: key.to_owned(),
        notification: NewNotification {
            kind: NotificationKind::NudgeSilent,
            ..reminder_note(ada.id)
        },
    };
    assert!(
        s.record_nudge(&nudge(NudgeKind::Silent, "applied:2026-11-01"), t(30, 9))
            .await
            .unwrap()
            .is_some()
    );
    assert!(
        s.record_nudge(&nudge(NudgeKind::Silent, "applied:2026-11-01"), t(30, 10))
            .await
            .unwrap()
            .is_none()
    );
    let key = format!("event:{event}");
    assert!(
        s.record_nudge(&nudge(NudgeKind::InterviewPrep, &key), t(30, 9)).await.unwrap().is_some()
    );
    let candidates = s.nudge_candidates(t(1, 0)).await.unwrap();
    assert_eq!(candidates[0].silent_episodes, vec!["applied:2026-11-01".to_owned()]);
    assert!(candidates[0].interview_events.is_empty());
    // Events recorded before the window are not nudged.
    seed.set_stage(app, Some(Stage::Rejected), Some(t(1, 9))).await;
    seed.event(ada.id, app, "stage_set", Some("interview"), t(2, 9)).await;
    assert!(s.nudge_candidates(t(3, 0)).await.unwrap().is_empty());
    assert_eq!(s.notifications_of(ada.id).await.unwrap().len(), 2);
}

pub async fn concurrent_digest_claims_take_each_digest_once(db: &TestDb) {
    let first = db.store.clone();
    let second: Arc<dyn Store> = db.second_store().await;
    let owner = user(first.as_ref(), "ada").await;
    let ids = jobs(first.as_ref(), "b", 3).await;
    let mut subs = Vec::new();
    for i in 0..30 {
        let sub = email_subscription(db, owner.id, &format!("skills=go{i}")).await;
        db.seed().await.matches_of(sub, &ids, t(2, 9)).await;
        subs.push(sub);
    }
    let run = |store: Arc<dyn Store>, subs: Vec<SubscriptionId>| {
        tokio::spawn(async move {
            let mut taken = Vec::new();
            for sub in subs {
                if let Some(d) = store.take_digest(&claim(sub, None, 200), t(3, 9)).await.unwrap() {
                    taken.push((sub, d.notification));
                }
            }
            taken
        })
    };
    let mut reversed = subs.clone();
    reversed.reverse();
    let (a, b) = tokio::join!(run(first.clone(), subs.clone()), run(second.clone(), reversed));
    let mut all: Vec<SubscriptionId> =
        a.unwrap().into_iter().chain(b.unwrap()).map(|(s, _)| s).collect();
    all.sort();
    let mut expected = subs.clone();
    expected.sort();
    assert_eq!(all, expected, "every digest taken exactly once");
    assert_eq!(first.notifications_of(owner.id).await.unwrap().len(), 30);
    assert_eq!(first.deliveries_of(owner.id).await.unwrap().len(), 30);
    second.close().await;
}

// scenario: The match cursor never passes a job still being written
pub async fn the_insert_horizon_waits_for_job_writes_in_flight(db: &TestDb) {
    let s = db.store.as_ref();
    assert_eq!(s.insert_horizon().await.unwrap(), None, "no jobs, no horizon");
    let first = jobs(s, "h", 2).await;
    assert_eq!(s.insert_horizon().await.unwrap(), Some(first[1]));
    let Some(pool) = db.postgres_pool() else {
        // SQLite: one writer, ids allocated in commit order; the highest id is the horizon.
        return;
    };
    // A writer in another process: it allocated a lower id and has not committed yet.
    let mut late = pool.begin().await.unwrap();
    sqlx::query("SELECT pg_advisory_xact_lock_shared($1)")
        .bind(0x6672_6565_6869_7265_i64)
        .execute(&mut *late)
        .await
        .unwrap();
    let late_id: i64 = sqlx::query_scalar(
        "INSERT INTO jobs (source, external_id, public_slug, title, created_at, updated_at, \
         last_seen_at, content_hash) VALUES ('greenhouse', 'late:1', 'late-job-aaaaaaaa', \
         'Late', now(), now(), now(), 'h') RETURNING id",
    )
    .fetch_one(&mut *late)
    .await
    .unwrap();
    // A higher id commits meanwhile (writers do not wait for each other).
    let after = jobs(s, "h2", 1).await[0];
    assert!(late_id < after.get());
    // The horizon waits: reading it now would let a cursor pass the uncommitted lower id.
    let store = db.store.clone();
    let horizon = tokio::spawn(async move { store.insert_horizon().await.unwrap() });
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    assert!(!horizon.is_finished(), "the horizon waited for the write in flight");
    late.commit().await.unwrap();
    let horizon = tokio::time::timeout(std::time::Duration::from_secs(10), horizon)
        .await
        .expect("the horizon answers once the write commits")
        .unwrap();
    assert_eq!(horizon, Some(after));
    let visible: i64 = db.scalar(&format!("SELECT count(*) FROM jobs WHERE id = {late_id}")).await;
    assert_eq!(visible, 1, "every id up to the horizon is committed");
}
