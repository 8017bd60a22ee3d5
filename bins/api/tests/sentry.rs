//! Errors to Sentry: `freehire-api` with `FREEHIRE_SENTRY_DSN` pointing at a local server that
//! speaks Sentry's envelope protocol (`POST /api/{project}/envelope/`) fails to start, and the
//! server receives exactly that one error as an event: level `error`, the release and
//! environment set, the failure's text with the email address in it scrubbed, no user, no
//! request, no host name. Without a DSN nothing is sent.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::{Router, body::Bytes, extract::Path, routing::post};
use serde_json::Value;

type Received = Arc<Mutex<Vec<(String, Vec<u8>)>>>;

/// A Sentry ingestion endpoint on loopback: every envelope it is sent, with its project.
async fn sentry_server() -> (String, Received) {
    let received: Received = Arc::default();
    let sink = received.clone();
    let app = Router::new().route(
        "/api/{project}/envelope/",
        post(move |Path(project): Path<String>, body: Bytes| {
            let sink = sink.clone();
            async move {
                sink.lock().unwrap().push((project, body.to_vec()));
                axum::Json(serde_json::json!({"id": "00000000000000000000000000000000"}))
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://publickey@{addr}/42"), received)
}

/// The event items of an envelope (header line, then item header and payload lines).
fn events(envelope: &[u8]) -> Vec<Value> {
    let text = String::from_utf8_lossy(envelope);
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for pair in lines.windows(2) {
        let header: Value = serde_json::from_str(pair[0]).unwrap_or(Value::Null);
        if header["type"] == "event" {
            out.push(serde_json::from_str(pair[1]).unwrap());
        }
    }
    out
}

fn failing_api(dsn: Option<&str>) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    // A database in a folder that cannot be made: the start fails naming the path, which
    // carries an email address (as a misconfigured path or URL could).
    let url = "sqlite:///proc/ada.lovelace@example.com/freehire.db";
    let mut command = Command::new(env!("CARGO_BIN_EXE_freehire-api"));
    command
        .current_dir(dir.path())
        .env("FREEHIRE_LISTEN", "127.0.0.1:0")
        .env("FREEHIRE_DATABASE_URL", url)
        .env("FREEHIRE_SENTRY_ENVIRONMENT", "ci")
        .env("RUST_LOG", "error")
        .env_remove("DATABASE_URL")
        .env_remove("FREEHIRE_SENTRY_DSN");
    if let Some(dsn) = dsn {
        command.env("FREEHIRE_SENTRY_DSN", dsn);
    }
    command.output().unwrap()
}

// scenario: An error reaches Sentry without personal data
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_start_up_error_reaches_sentry_scrubbed() {
    let (dsn, received) = sentry_server().await;
    let out = tokio::task::spawn_blocking(move || failing_api(Some(&dsn))).await.unwrap();
    assert!(!out.status.success());
    let log =
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(log.contains("ada.lovelace@example.com"), "the local log keeps it: {log}");

    let deadline = Instant::now() + Duration::from_secs(10);
    let envelopes = loop {
        let got = received.lock().unwrap().clone();
        if !got.is_empty() || Instant::now() > deadline {
            break got;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let all: Vec<Value> = envelopes.iter().flat_map(|(_, body)| events(body)).collect();
    assert_eq!(all.len(), 1, "one error, one event: {all:?}");
    assert_eq!(envelopes[0].0, "42", "the DSN's project");
    let event = &all[0];
    let raw = event.to_string();
    // `error` is the protocol's default level, left out of the payload.
    assert!(event["level"].is_null() || event["level"] == "error", "{raw}");
    assert!(raw.contains("cannot create data directory"), "{raw}");
    assert_eq!(event["environment"], "ci", "{raw}");
    assert!(event["release"].as_str().unwrap().starts_with("freehire-api@"), "{raw}");
    assert!(raw.contains("[email]") && !raw.contains("lovelace"), "scrubbed: {raw}");
    assert!(event.get("user").is_none() && event.get("request").is_none(), "{raw}");
    assert!(event.get("server_name").is_none(), "{raw}");
}

// (the same scenario: without a DSN nothing is sent)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_dsn_nothing_is_sent() {
    let (_dsn, received) = sentry_server().await;
    let out = tokio::task::spawn_blocking(|| failing_api(None)).await.unwrap();
    assert!(!out.status.success());
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(received.lock().unwrap().is_empty());
}
