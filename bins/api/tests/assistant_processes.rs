//! Two `freehire-api` processes on one PostgreSQL database with a scripted OpenAI-protocol
//! model server: one turn per session holds across the processes (a message on A runs, a
//! second on B queues behind it, a third is 409 on either) and a cancel sent to B stops the
//! turn running on A; afterwards B runs the next message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::{
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use freehire_app::{
    accounts::{KeyRequest, OperatorAccount, Operators, password::PasswordHasher},
    testing::{
        openai::{ModelReply, OpenAiServer},
        terminate,
    },
};
use freehire_domain::{ApiKeyName, ApiKeyScope, Email, Role};
use freehire_store::testing::TestDb;
use serde_json::{Value, json};

/// One API process on the test's schema.
struct Api {
    child: Child,
    base: String,
    _dir: tempfile::TempDir,
}

impl Api {
    async fn start(database_url: &str, model: &OpenAiServer) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = Command::new(env!("CARGO_BIN_EXE_freehire-api"))
            .current_dir(dir.path())
            .env("FREEHIRE_LISTEN", format!("127.0.0.1:{port}"))
            .env("FREEHIRE_DATABASE_URL", database_url)
            // Every process on one PostgreSQL database shares the session secret.
            .env("FREEHIRE_SESSION_SECRET", "a-test-secret-of-at-least-32-bytes-0123456789")
            .env_remove("DATABASE_URL")
            .env("LLM_BASE_URL", model.base_url())
            .env("LLM_API_KEY", "test-key")
            .env("LLM_MODEL", "scripted")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let base = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            match reqwest::get(format!("{base}/health")).await {
                Ok(_) => break,
                Err(_) if Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(e) => panic!("the API process never answered: {e}"),
            }
        }
        Self { child, base, _dir: dir }
    }

    fn url(&self, path: &str) -> String {
        format!("{}/api/v1{path}", self.base)
    }
}

/// A reader of one SSE response: frames as they arrive.
struct Stream {
    response: reqwest::Response,
    buffer: String,
}

impl Stream {
    /// The next frame (`event: …\ndata: …` or a comment), waiting at most `within`.
    async fn next(&mut self, within: Duration) -> Option<String> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let frame = self.buffer[..end].to_owned();
                self.buffer.drain(..end + 2);
                return Some(frame);
            }
            let chunk = tokio::time::timeout_at(deadline, self.response.chunk()).await.ok()?;
            match chunk.unwrap() {
                Some(bytes) => self.buffer.push_str(&String::from_utf8_lossy(&bytes)),
                None => return None,
            }
        }
    }

    /// Frames until one of event `kind` (returned) or the stream's end / `within`.
    async fn until(&mut self, kind: &str, within: Duration) -> Value {
        let deadline = Instant::now() + within;
        let marker = format!("event: {kind}\n");
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let frame = self.next(left).await.unwrap_or_else(|| panic!("no {kind} event"));
            if let Some(data) = frame.strip_prefix(&marker) {
                return serde_json::from_str(data.strip_prefix("data: ").unwrap()).unwrap();
            }
        }
    }
}

async fn send(
    client: &reqwest::Client,
    api: &Api,
    token: &str,
    id: &str,
    text: &str,
) -> reqwest::Response {
    client
        .post(api.url(&format!("/assistant/sessions/{id}/messages")))
        .bearer_auth(token)
        .json(&json!({ "text": text }))
        .send()
        .await
        .unwrap()
}

async fn stream(res: reqwest::Response) -> Stream {
    assert_eq!(res.status(), 200, "a streamed turn");
    let mut s = Stream { response: res, buffer: String::new() };
    assert_eq!(s.next(Duration::from_secs(10)).await.as_deref(), Some(": open"));
    s
}

/// The PostgreSQL URL of the test's schema.
fn schema_url(db: &TestDb) -> String {
    let (url, schema) = db.postgres_schema().expect("a PostgreSQL test database");
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}options=-csearch_path%3D{schema}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_turn_per_session_holds_across_two_api_processes_and_cancel_reaches_it() {
    let db = TestDb::postgres().await;
    let operators = Operators::new(db.store.clone(), PasswordHasher::owasp());
    let email = Email::parse("ada@example.com").unwrap();
    let account =
        OperatorAccount { email: email.clone(), password: None, role: Role::User, verified: true };
    operators.create_account(&account).await.unwrap();
    let request = KeyRequest {
        name: ApiKeyName::parse("processes").unwrap(),
        scope: ApiKeyScope::Full,
        expires_at: None,
    };
    let token = operators.create_key(&email, &request).await.unwrap().token;
    // The first turn's model call never answers: it runs until cancelled. The next one
    // answers at once.
    let model = OpenAiServer::start([ModelReply::Hang, ModelReply::text("Here you go.")]).await;
    let url = schema_url(&db);
    let (mut a, mut b) = (Api::start(&url, &model).await, Api::start(&url, &model).await);
    let client = reqwest::Client::new();

    let created: Value = client
        .post(a.url("/assistant/sessions?preset=chat"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["data"]["id"].as_str().unwrap().to_owned();

    // A runs the first turn (its model call hangs).
    let mut first = stream(send(&client, &a, &token, &id, "find me remote Rust jobs").await).await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while model.requests().is_empty() {
        assert!(Instant::now() < deadline, "the first turn never reached the model");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // B queues the second behind it.
    let mut second = stream(send(&client, &b, &token, &id, "and in Germany?").await).await;
    let queued = second.until("queued", Duration::from_secs(10)).await;
    assert_eq!(queued["type"], "queued");
    // A third is refused by either process.
    for api in [&a, &b] {
        let third = send(&client, api, &token, &id, "third").await;
        assert_eq!(third.status(), 409);
        let body: Value = third.json().await.unwrap();
        assert_eq!(body["code"], "turn_queue_full", "{body}");
    }

    // Cancel sent to B stops the turn running on A (and B's queued one).
    let sent = Instant::now();
    let cancel = client
        .post(b.url(&format!("/assistant/sessions/{id}/cancel")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(cancel.status(), 204);
    let ended = first.until("result", Duration::from_secs(10)).await;
    let took = sent.elapsed();
    eprintln!("cancel sent to B: the turn on A ended {took:?} later");
    assert!(took < Duration::from_secs(3), "A's turn ended {took:?} after the cancel on B");
    assert_eq!(ended["stop_reason"], "cancelled", "{ended}");
    let waited = second.until("result", Duration::from_secs(10)).await;
    assert_eq!(waited["stop_reason"], "cancelled", "the queued turn was cancelled: {waited}");
    assert_eq!(model.requests().len(), 1, "the queued turn never ran");

    // The lease is free again: B runs the next message.
    let mut next = stream(send(&client, &b, &token, &id, "try again").await).await;
    let done = next.until("result", Duration::from_secs(20)).await;
    assert_ne!(done["is_error"], true, "{done}");
    assert_ne!(done["stop_reason"], "cancelled", "{done}");
    assert_eq!(model.requests().len(), 2);

    for api in [&mut a, &mut b] {
        let status = terminate(&mut api.child, Duration::from_secs(10), "did not stop").await;
        assert!(status.success(), "{status}");
    }
    db.teardown().await;
}
