//! The `freehire-worker` process and the notification engines: `--notify-once` sends what is
//! due and exits, and SIGKILL mid-pass, again and again, loses nothing and sends nothing twice.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::{Router, extract::State, http::HeaderMap, routing::post};
use chrono::{TimeZone, Utc};
use freehire_domain::{
    Channel, DigestFrequency, Email, Facets, JobPosting, Language, Provider, Role, UserId,
};
use freehire_store::{
    AccountRepo, DigestSettings, JobRepo, NewUser, NotifyRepo, SqliteLocation, SqliteStore, Store,
    testing::seed::Seed,
};

fn posting(i: usize) -> JobPosting {
    JobPosting {
        source: Provider::parse("greenhouse").unwrap(),
        external_id: format!("b:{i}"),
        url: format!("https://jobs.example.com/{i}"),
        title: format!("Engineer {i}"),
        company: "Acme".into(),
        location: "Berlin".into(),
        description: "<p>Build things.</p>".into(),
        remote: false,
        posted_at: None,
        facets: Facets::default(),
        salary: None,
        role_fingerprint: String::new(),
        structured: Default::default(),
    }
}

/// The delivery ids a slow local webhook receiver got, in order (one entry per request).
type Got = Arc<Mutex<Vec<String>>>;

async fn slow_receiver(delay: Duration) -> (String, Got) {
    let got: Got = Arc::default();
    let app = Router::new()
        .route(
            "/hook",
            post(move |State(got): State<Got>, headers: HeaderMap| async move {
                // Counted on arrival: a request whose sender is killed before the answer
                // still counts, so a resend shows.
                let id = headers.get("x-freehire-delivery").unwrap().to_str().unwrap().to_owned();
                got.lock().unwrap().push(id);
                tokio::time::sleep(delay).await;
                axum::http::StatusCode::OK
            }),
        )
        .with_state(got.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, got)
}

fn worker(db: &Path, mail: &Path, id: &str) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_freehire-worker"));
    c.arg("--notify-once")
        .env("FREEHIRE_DATABASE_URL", format!("sqlite://{}", db.display()))
        .env("FREEHIRE_MAIL_DIR", mail)
        .env("FREEHIRE_WEBHOOK_ALLOW_PRIVATE", "1")
        .env("FREEHIRE_NOTIFY_LEASE_SECS", "1")
        .env("FREEHIRE_WORKER_ID", id)
        .env_remove("FREEHIRE_SMTP_URL")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    c
}

fn mail_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| d.map(|e| e.unwrap().file_name().into_string().unwrap()).collect())
        .unwrap_or_default();
    names.retain(|n| n.ends_with(".eml"));
    names.sort();
    names
}

// scenario: A worker killed mid-pass loses no delivery and sends none twice
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_mid_pass_loses_nothing_and_sends_nothing_twice() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("freehire.db");
    let mail = dir.path().join("mail");
    let store = SqliteStore::connect(&SqliteLocation::File(db.clone())).await.unwrap();
    store.migrate().await.unwrap();
    let at = Utc.with_ymd_and_hms(2026, 11, 1, 9, 0, 0).unwrap();
    let postings: Vec<_> = (0..4).map(posting).collect();
    let jobs: Vec<_> =
        store.upsert_jobs(&postings, at).await.unwrap().into_iter().map(|u| u.id).collect();
    let (url, got) = slow_receiver(Duration::from_millis(400)).await;
    let seed = Seed::sqlite_file(&db).await;
    let instant = DigestSettings { frequency: DigestFrequency::Instant, ..Default::default() };
    let mut owners: Vec<UserId> = Vec::new();
    for i in 0..6 {
        let email = Email::parse(&format!("u{i}@example.com")).unwrap();
        let language = Language::parse("en").unwrap();
        let user = store
            .create_user(
                &NewUser {
                    email: &email,
                    password_hash: None,
                    role: Role::User,
                    email_verified: true,
                    language: &language,
                },
                at,
            )
            .await
            .unwrap();
        seed.settings(user.id, &instant, at).await;
        for q in 0..4 {
            let search = seed.saved_search(user.id, &format!("s{q}"), "skills=rust", at).await;
            let (channel, dest, secret) = if q % 2 == 0 {
                (Channel::Webhook, Some(url.as_str()), Some("k"))
            } else {
                (Channel::Email, None, None)
            };
            let sub = seed.subscription(user.id, search, channel, dest, secret, at).await;
            seed.matches_of(sub, &jobs, at).await;
        }
        owners.push(user.id);
    }

    // Kill the worker mid-pass, again and again: each run claims what the last one left
    // (its leases run out after a second) and is killed while the slow receiver answers.
    for round in 0..6 {
        let mut child = worker(&db, &mail, &format!("k{round}")).spawn().unwrap();
        tokio::time::sleep(Duration::from_millis(300 + 170 * round)).await;
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        tokio::time::sleep(Duration::from_millis(1100)).await;
    }
    let mut sent_after_kills = 0;
    for owner in &owners {
        let deliveries = store.deliveries_of(*owner).await.unwrap();
        sent_after_kills += deliveries.iter().filter(|d| d.status == "sent").count();
    }
    assert!(sent_after_kills < 24, "the kills interrupted the passes");
    // Then let runs finish until nothing is pending.
    for round in 0..10 {
        let status = worker(&db, &mail, &format!("f{round}")).status().unwrap();
        assert!(status.success(), "{status}");
        let pending = {
            let mut n = 0;
            for owner in &owners {
                n += store
                    .deliveries_of(*owner)
                    .await
                    .unwrap()
                    .iter()
                    .filter(|d| d.status != "sent")
                    .count();
            }
            n
        };
        if pending == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(1100)).await;
    }

    let mut webhook_ids = BTreeSet::new();
    let mut email_files = BTreeSet::new();
    for owner in &owners {
        let notes = store.notifications_of(*owner).await.unwrap();
        assert_eq!(notes.len(), 4, "one digest per subscription, never two");
        assert!(notes.iter().all(|n| n.jobs.len() == 4));
        let deliveries = store.deliveries_of(*owner).await.unwrap();
        assert_eq!(deliveries.len(), 4, "one delivery per digest");
        for d in deliveries {
            assert_eq!(d.status, "sent", "{d:?}");
            match d.channel {
                Channel::Webhook => webhook_ids.insert(d.id.to_string()),
                Channel::Email => email_files.insert(format!("delivery-{}.eml", d.id)),
            };
        }
    }
    // Email: exactly one file per delivery (a resend replaced its file).
    assert_eq!(mail_files(&mail).into_iter().collect::<BTreeSet<_>>(), email_files);
    // Webhook: every delivery arrived; a resend after a kill carries the same delivery id, so
    // the receiver sees each delivery once by id.
    let requests = got.lock().unwrap().clone();
    let mut per_id: BTreeMap<String, usize> = BTreeMap::new();
    for id in &requests {
        *per_id.entry(id.clone()).or_default() += 1;
    }
    assert_eq!(per_id.keys().cloned().collect::<BTreeSet<_>>(), webhook_ids);
    let resent = per_id.values().filter(|n| **n > 1).count();
    eprintln!(
        "{} webhook requests for {} deliveries ({resent} resent after a kill, same id); \
         {sent_after_kills} of 24 sent during the killed runs",
        requests.len(),
        webhook_ids.len()
    );
    store.close().await;
}
