//! The notification engines over real databases, the file mailer and a local webhook receiver:
//! digests listed and capped, recorded before sending, retried with backoff, webhooks signed
//! and refused at send time, reminders and nudges once, and two workers never sending one
//! digest twice.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::{Router, body::Bytes, extract::State, http::HeaderMap, http::StatusCode, routing::post};
use chrono::{DateTime, Utc};
use freehire_app::notify::{Notifier, NotifyConfig, WebhookConfig, WebhookSender, webhook};
use freehire_domain::{
    Channel, CountryCode, DigestFrequency, Email, Facets, JobId, JobPosting, Language, Provider,
    Region, Role, Stage, SubscriptionId, User, UserId,
};
use freehire_mail::FileMailer;
use freehire_store::{DigestSettings, NewUser, Store, testing::TestDb};

use crate::support::t;

pub fn posting(external_id: &str, title: &str, skills: &[&str]) -> JobPosting {
    JobPosting {
        source: Provider::parse("greenhouse").unwrap(),
        external_id: external_id.to_owned(),
        url: format!("https://jobs.example.com/{external_id}"),
        title: title.to_owned(),
        company: "Acme".to_owned(),
        location: "Berlin, Germany".to_owned(),
        description: format!("<p>{title}: build reliable systems.</p>"),
        remote: false,
        posted_at: Some(t(1, 9)),
        facets: Facets {
            countries: vec![CountryCode::parse("de").unwrap()],
            regions: vec![Region::Eu],
            skills: skills.iter().map(|s| (*s).to_owned()).collect(),
            ..Facets::default()
        },
        salary: None,
        role_fingerprint: String::new(),
        structured: Default::default(),
    }
}

pub async fn user(s: &dyn Store, name: &str) -> User {
    let email = Email::parse(&format!("{name}@example.com")).unwrap();
    let language = Language::parse("en").unwrap();
    let new = NewUser {
        email: &email,
        password_hash: None,
        role: Role::User,
        email_verified: true,
        language: &language,
    };
    s.create_user(&new, t(1, 8)).await.unwrap()
}

pub async fn jobs(s: &dyn Store, prefix: &str, n: usize, at: DateTime<Utc>) -> Vec<JobId> {
    let postings: Vec<_> = (0..n)
        .map(|i| posting(&format!("{prefix}:{i}"), &format!("Engineer {i}"), &["rust"]))
        .collect();
    s.upsert_jobs(&postings, at).await.unwrap().into_iter().map(|u| u.id).collect()
}

fn instant() -> DigestSettings {
    DigestSettings { frequency: DigestFrequency::Instant, ..DigestSettings::default() }
}

pub fn notifier(store: Arc<dyn Store>, mail: &Path, worker: &str) -> Notifier {
    let mut config = NotifyConfig::new(worker);
    config.public_url = "http://freehire.test".to_owned();
    let webhook =
        WebhookSender::new(WebhookConfig { allow_private: true, timeout: Duration::from_secs(5) })
            .unwrap();
    Notifier::new(store, Arc::new(FileMailer::new(mail)), webhook, config)
}

/// A subscription of `owner` to a saved search `query` on `channel` (email when `url` is none).
async fn subscribe(
    db: &TestDb,
    owner: UserId,
    query: &str,
    url: Option<&str>,
    start_at: DateTime<Utc>,
) -> SubscriptionId {
    let seed = db.seed().await;
    let search = seed.saved_search(owner, &format!("Search {query}"), query, t(1, 8)).await;
    match url {
        Some(url) => {
            seed.subscription(owner, search, Channel::Webhook, Some(url), Some("s3cret"), start_at)
                .await
        }
        None => seed.subscription(owner, search, Channel::Email, None, None, start_at).await,
    }
}

fn mail_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.ends_with(".eml"))
            .collect(),
        Err(_) => Vec::new(),
    };
    names.sort();
    names
}

fn body_of(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap();
    let parsed = mail_parser::MessageParser::default().parse(&bytes).unwrap();
    parsed.body_text(0).unwrap().into_owned()
}

// scenario: A digest email lists ten jobs, how many more, and the notification's page
pub async fn a_digest_email_lists_ten_jobs_and_links_its_page(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada").await;
    db.seed().await.settings(ada.id, &instant(), t(1, 8)).await;
    let sub = subscribe(db, ada.id, "skills=rust", None, t(1, 8)).await;
    let ids = jobs(s, "b", 25, t(1, 9)).await;
    db.seed().await.matches_of(sub, &ids, t(2, 9)).await;
    let mail = tempfile::tempdir().unwrap();
    let n = notifier(db.store.clone(), mail.path(), "w1");
    let stats = n.run_pass(t(3, 9)).await.unwrap();
    assert_eq!((stats.digests, stats.sent, stats.failed), (1, 1, 0));
    let files = mail_files(mail.path());
    assert_eq!(files.len(), 1);
    let note = &s.notifications_of(ada.id).await.unwrap()[0];
    assert_eq!(note.title, "25 new jobs for Search skills=rust");
    let delivery = &s.deliveries_of(ada.id).await.unwrap()[0];
    assert_eq!(files[0], format!("delivery-{}.eml", delivery.id));
    let text = body_of(&mail.path().join(&files[0]));
    assert_eq!(text.matches("http://freehire.test/jobs/").count(), 10, "{text}");
    assert!(text.contains("Engineer 0 — Acme (Berlin, Germany)"), "{text}");
    assert!(text.contains("and 15 more"), "{text}");
    assert!(text.contains(&format!("http://freehire.test/notifications/{}", note.id)), "{text}");
    // Nothing left to send.
    assert_eq!(n.run_pass(t(3, 10)).await.unwrap(), Default::default());
}

// scenario: A digest claims at most 200 matches and the rest go in the next one
pub async fn a_digest_claims_at_most_200_and_the_rest_wait(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada").await;
    db.seed().await.settings(ada.id, &instant(), t(1, 8)).await;
    let sub = subscribe(db, ada.id, "skills=rust", None, t(1, 8)).await;
    let ids = jobs(s, "b", 250, t(1, 9)).await;
    db.seed().await.matches_of(sub, &ids, t(2, 9)).await;
    let mail = tempfile::tempdir().unwrap();
    let n = notifier(db.store.clone(), mail.path(), "w1");
    assert_eq!(n.send_digests(t(3, 9)).await.unwrap(), 1);
    assert_eq!(db.seed().await.matches(sub).await, (250, 200));
    assert_eq!(n.send_digests(t(3, 10)).await.unwrap(), 1);
    let notes = s.notifications_of(ada.id).await.unwrap();
    let sizes: Vec<usize> = notes.iter().map(|n| n.jobs.len()).collect();
    assert_eq!(sizes, [200, 50]);
}

// scenario: A digest is recorded before it is sent
pub async fn a_digest_is_recorded_before_sending_and_a_failure_is_kept(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada").await;
    db.seed().await.settings(ada.id, &instant(), t(1, 8)).await;
    let sub = subscribe(db, ada.id, "skills=rust", None, t(1, 8)).await;
    let ids = jobs(s, "b", 3, t(1, 9)).await;
    db.seed().await.matches_of(sub, &ids, t(2, 9)).await;
    // A mail folder that cannot be created: every send fails.
    let temp = tempfile::tempdir().unwrap();
    let blocked = temp.path().join("file");
    std::fs::write(&blocked, b"not a folder").unwrap();
    let n = notifier(db.store.clone(), &blocked.join("mail"), "w1");
    let stats = n.run_pass(t(3, 9)).await.unwrap();
    assert_eq!((stats.digests, stats.sent, stats.failed), (1, 0, 1));
    assert_eq!(s.notifications_of(ada.id).await.unwrap().len(), 1, "recorded anyway");
    let d = &s.deliveries_of(ada.id).await.unwrap()[0];
    assert_eq!((d.status.as_str(), d.attempts), ("pending", 1));
    assert!(d.last_error.as_deref().unwrap().contains("mail"), "{:?}", d.last_error);
    assert_eq!(d.next_attempt_at, t(3, 9) + chrono::Duration::minutes(1));
}

// scenario: A failed delivery is retried with backoff and fails for good after eight attempts
pub async fn a_failed_delivery_backs_off_then_fails_for_good(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada").await;
    db.seed().await.settings(ada.id, &instant(), t(1, 8)).await;
    let sub = subscribe(db, ada.id, "skills=rust", None, t(1, 8)).await;
    let ids = jobs(s, "b", 1, t(1, 9)).await;
    db.seed().await.matches_of(sub, &ids, t(2, 9)).await;
    let temp = tempfile::tempdir().unwrap();
    let blocked = temp.path().join("file");
    std::fs::write(&blocked, b"x").unwrap();
    let n = notifier(db.store.clone(), &blocked.join("mail"), "w1");
    n.send_digests(t(3, 9)).await.unwrap();
    let mut now = t(3, 9);
    let mut delays = Vec::new();
    for _ in 0..8 {
        let (sent, failed) = n.deliver(now).await.unwrap();
        assert_eq!((sent, failed), (0, 1));
        let d = &s.deliveries_of(ada.id).await.unwrap()[0];
        if d.status == "failed" {
            break;
        }
        assert_eq!(
            n.deliver(d.next_attempt_at - chrono::Duration::seconds(1)).await.unwrap(),
            (0, 0)
        );
        delays.push((d.next_attempt_at - now).num_minutes());
        now = d.next_attempt_at;
    }
    assert_eq!(delays, [1, 2, 4, 8, 16, 32, 64]);
    let d = &s.deliveries_of(ada.id).await.unwrap()[0];
    assert_eq!((d.status.as_str(), d.attempts), ("failed", 8));
    assert_eq!(n.deliver(t(30, 9)).await.unwrap(), (0, 0));
}

/// What the local webhook receiver got: (headers, body).
type Received = Arc<Mutex<Vec<(HeaderMap, Bytes)>>>;

/// A local webhook receiver answering `status` after `delay`.
pub async fn receiver(status: StatusCode, delay: Duration) -> (SocketAddr, Received) {
    let received: Received = Arc::default();
    let app = Router::new()
        .route(
            "/hook",
            post(move |State(got): State<Received>, headers: HeaderMap, body: Bytes| async move {
                tokio::time::sleep(delay).await;
                got.lock().unwrap().push((headers, body));
                status
            }),
        )
        .with_state(received.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (addr, received)
}

// scenario: A webhook digest is signed with the subscription's secret
pub async fn a_webhook_digest_is_signed_and_received(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada").await;
    db.seed().await.settings(ada.id, &instant(), t(1, 8)).await;
    let (addr, received) = receiver(StatusCode::NO_CONTENT, Duration::ZERO).await;
    let url = format!("http://{addr}/hook");
    let sub = subscribe(db, ada.id, "skills=rust", Some(&url), t(1, 8)).await;
    let ids = jobs(s, "b", 12, t(1, 9)).await;
    db.seed().await.matches_of(sub, &ids, t(2, 9)).await;
    let mail = tempfile::tempdir().unwrap();
    let stats = notifier(db.store.clone(), mail.path(), "w1").run_pass(t(3, 9)).await.unwrap();
    assert_eq!((stats.sent, stats.failed), (1, 0));
    let got = received.lock().unwrap().clone();
    assert_eq!(got.len(), 1);
    let (headers, body) = &got[0];
    let header = |name: &str| headers.get(name).unwrap().to_str().unwrap().to_owned();
    assert_eq!(header("x-freehire-signature"), webhook::signature("s3cret", body));
    assert_ne!(header("x-freehire-signature"), webhook::signature("other", body));
    let delivery = &s.deliveries_of(ada.id).await.unwrap()[0];
    assert_eq!(header("x-freehire-delivery"), delivery.id.to_string());
    assert_eq!(header("x-freehire-timestamp"), t(3, 9).timestamp().to_string());
    let json: serde_json::Value = serde_json::from_slice(body).unwrap();
    assert_eq!(json["kind"], "digest");
    assert_eq!(json["total"], 12);
    assert_eq!(json["jobs"].as_array().unwrap().len(), 12);
    assert_eq!(json["saved_search"]["name"], "Search skills=rust");
    assert!(
        json["notification_url"]
            .as_str()
            .unwrap()
            .starts_with("http://freehire.test/notifications/")
    );
    assert!(mail_files(mail.path()).is_empty(), "a webhook subscription sends no email");
    assert_eq!(delivery.status, "sent");
}

// scenario: A webhook to a private address is refused at send time
pub async fn a_private_webhook_target_is_refused_at_send_time(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada").await;
    db.seed().await.settings(ada.id, &instant(), t(1, 8)).await;
    let (addr, received) = receiver(StatusCode::OK, Duration::ZERO).await;
    let sub =
        subscribe(db, ada.id, "skills=rust", Some(&format!("http://{addr}/hook")), t(1, 8)).await;
    let ids = jobs(s, "b", 1, t(1, 9)).await;
    db.seed().await.matches_of(sub, &ids, t(2, 9)).await;
    let mail = tempfile::tempdir().unwrap();
    let mut config = NotifyConfig::new("w1");
    config.public_url = "http://freehire.test".into();
    let guarded = WebhookSender::new(WebhookConfig::default()).unwrap();
    let n =
        Notifier::new(db.store.clone(), Arc::new(FileMailer::new(mail.path())), guarded, config);
    let stats = n.run_pass(t(3, 9)).await.unwrap();
    assert_eq!((stats.sent, stats.failed), (0, 1));
    assert!(received.lock().unwrap().is_empty(), "nothing was dialled");
    let d = &s.deliveries_of(ada.id).await.unwrap()[0];
    assert_eq!(d.status, "failed", "a refused target is not retried");
    assert!(d.last_error.as_deref().unwrap().contains("refused"), "{:?}", d.last_error);
}

// scenario: A webhook answering an error is retried
pub async fn a_webhook_answering_an_error_is_retried(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada").await;
    db.seed().await.settings(ada.id, &instant(), t(1, 8)).await;
    let (addr, received) = receiver(StatusCode::SERVICE_UNAVAILABLE, Duration::ZERO).await;
    let sub =
        subscribe(db, ada.id, "skills=rust", Some(&format!("http://{addr}/hook")), t(1, 8)).await;
    let ids = jobs(s, "b", 1, t(1, 9)).await;
    db.seed().await.matches_of(sub, &ids, t(2, 9)).await;
    let mail = tempfile::tempdir().unwrap();
    let stats = notifier(db.store.clone(), mail.path(), "w1").run_pass(t(3, 9)).await.unwrap();
    assert_eq!((stats.sent, stats.failed), (0, 1));
    assert_eq!(received.lock().unwrap().len(), 1);
    let d = &s.deliveries_of(ada.id).await.unwrap()[0];
    assert_eq!((d.status.as_str(), d.attempts), ("pending", 1));
    assert!(d.last_error.as_deref().unwrap().contains("503"), "{:?}", d.last_error);
}

// scenario: A due reminder fires once unless the job was applied to or unsaved
pub async fn a_due_reminder_fires_once_unless_it_no_longer_applies(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada").await;
    let ids = jobs(s, "b", 3, t(1, 9)).await;
    let seed = db.seed().await;
    seed.save_job(ada.id, ids[0], Some(t(1, 10))).await;
    seed.save_job(ada.id, ids[1], None).await;
    seed.save_job(ada.id, ids[2], Some(t(1, 10))).await;
    let slug = s.jobs_by_ids(&ids[2..]).await.unwrap()[0].public_slug.as_str().to_owned();
    seed.application(
        ada.id,
        Some((ids[2], &slug)),
        "acme",
        "Engineer 2",
        Some(Stage::Applied),
        Some(t(2, 9)),
        t(2, 9),
    )
    .await;
    let fire =
        freehire_app::notify::schedule::reminder_fire_at(&DigestSettings::default(), t(1, 10));
    assert_eq!(fire, t(4, 9));
    let keep = seed.reminder(ada.id, ids[0], fire, t(1, 10)).await;
    let unsaved = seed.reminder(ada.id, ids[1], fire, t(1, 10)).await;
    let applied = seed.reminder(ada.id, ids[2], fire, t(1, 10)).await;
    let mail = tempfile::tempdir().unwrap();
    let n = notifier(db.store.clone(), mail.path(), "w1");
    assert_eq!(n.fire_reminders(t(4, 8)).await.unwrap(), (0, 0), "not yet");
    let stats = n.run_pass(t(4, 9)).await.unwrap();
    assert_eq!((stats.reminders, stats.cancelled, stats.sent), (1, 2, 1));
    assert_eq!(seed.reminder_status(keep).await, "fired");
    assert_eq!(seed.reminder_status(unsaved).await, "cancelled");
    assert_eq!(seed.reminder_status(applied).await, "cancelled");
    let notes = s.notifications_of(ada.id).await.unwrap();
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].title, "Still interested in Engineer 0 at Acme?");
    let files = mail_files(mail.path());
    assert_eq!(files.len(), 1);
    assert!(body_of(&mail.path().join(&files[0])).contains("http://freehire.test/jobs/"));
    assert_eq!(n.run_pass(t(5, 9)).await.unwrap(), Default::default());
}

// scenario: A silent application is nudged once per episode
pub async fn a_silent_application_is_nudged_once_per_episode(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada").await;
    let ids = jobs(s, "b", 1, t(1, 9)).await;
    let slug = s.jobs_by_ids(&ids).await.unwrap()[0].public_slug.as_str().to_owned();
    let seed = db.seed().await;
    let app = seed
        .application(
            ada.id,
            Some((ids[0], &slug)),
            "Acme",
            "Rust Engineer",
            Some(Stage::Applied),
            Some(t(1, 9)),
            t(1, 9),
        )
        .await;
    let mail = tempfile::tempdir().unwrap();
    let n = notifier(db.store.clone(), mail.path(), "w1");
    // 21 days is still tolerated at `applied`; the 22nd is silent.
    assert_eq!(n.nudge(t(22, 9)).await.unwrap(), 0);
    assert_eq!(n.nudge(t(23, 9)).await.unwrap(), 1);
    assert_eq!(n.nudge(t(24, 9)).await.unwrap(), 0, "once per episode");
    let notes = s.notifications_of(ada.id).await.unwrap();
    assert_eq!(notes[0].title, "No reply in 22 days — Following up: Rust Engineer application");
    // A new stage starts a new episode (screening: 18 days).
    seed.set_stage(app, Some(Stage::Screening), Some(t(1, 9))).await;
    assert_eq!(n.nudge(t(24, 9)).await.unwrap(), 1);
    assert_eq!(n.nudge(t(25, 9)).await.unwrap(), 0);
    assert_eq!(n.deliver(t(25, 9)).await.unwrap(), (2, 0));
}

// scenario: A move into interview is nudged once
pub async fn a_move_into_interview_is_nudged_once(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada").await;
    let seed = db.seed().await;
    let app = seed
        .application(
            ada.id,
            None,
            "Acme",
            "Rust Engineer",
            Some(Stage::Interview),
            Some(t(20, 9)),
            t(20, 9),
        )
        .await;
    seed.event(ada.id, app, "stage_set", Some("interview"), t(21, 9)).await;
    let mail = tempfile::tempdir().unwrap();
    let n = notifier(db.store.clone(), mail.path(), "w1");
    assert_eq!(n.nudge(t(21, 10)).await.unwrap(), 1);
    assert_eq!(n.nudge(t(21, 11)).await.unwrap(), 0);
    let notes = s.notifications_of(ada.id).await.unwrap();
    assert_eq!(notes[0].title, "Interview coming up: Rust Engineer at Acme");
}

// scenario: Two workers never send one digest twice
pub async fn two_workers_send_every_digest_exactly_once(db: &TestDb) {
    let s = db.store();
    let mut owners = Vec::new();
    let ids = jobs(s, "b", 5, t(1, 9)).await;
    for i in 0..12 {
        let owner = user(s, &format!("u{i}")).await;
        db.seed().await.settings(owner.id, &instant(), t(1, 8)).await;
        for q in 0..4 {
            let sub = subscribe(db, owner.id, &format!("skills=rust&q=x{q}"), None, t(1, 8)).await;
            db.seed().await.matches_of(sub, &ids, t(2, 9)).await;
        }
        owners.push(owner.id);
    }
    let mail = tempfile::tempdir().unwrap();
    let first = notifier(db.store.clone(), mail.path(), "w1");
    let second = notifier(db.second_store().await, mail.path(), "w2");
    let (a, b) = tokio::join!(first.run_pass(t(3, 9)), second.run_pass(t(3, 9)));
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(a.digests + b.digests, 48, "{a:?} {b:?}");
    assert_eq!(a.sent + b.sent, 48, "{a:?} {b:?}");
    let mut per_delivery: HashMap<String, u32> = HashMap::new();
    for name in mail_files(mail.path()) {
        *per_delivery.entry(name).or_default() += 1;
    }
    assert_eq!(per_delivery.len(), 48);
    for owner in owners {
        let notes = s.notifications_of(owner).await.unwrap();
        assert_eq!(notes.len(), 4);
        let deliveries = s.deliveries_of(owner).await.unwrap();
        assert!(deliveries.iter().all(|d| d.status == "sent" && d.attempts == 1), "{deliveries:?}");
    }
}
