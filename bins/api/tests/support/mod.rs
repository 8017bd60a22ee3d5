//! Support for tests and benches that run `freehire-api` processes against one database with
//! the assistant on: spawning a process (with variables of its own), an account with an API key
//! (and a password), reading an SSE stream
//! frame by frame. Included with `mod support;` (tests) or `#[path]` (benches).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

pub mod scale;

use std::{
    path::Path,
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use freehire_app::accounts::{KeyRequest, OperatorAccount, Operators, password::PasswordHasher};
use freehire_domain::{ApiKeyName, ApiKeyScope, Email, Password, Role, UserId};
use freehire_store::{Store, testing::TestDb};
use serde_json::{Value, json};

/// An account with a full-scope API key, created through the store; the key's token.
pub async fn account_token(store: std::sync::Arc<dyn Store>, address: &str) -> String {
    account(store, address, None).await.1
}

/// An account (signing in with `password` when given) with a full-scope API key, created
/// through the store: its id and the key's token.
pub async fn account(
    store: std::sync::Arc<dyn Store>,
    address: &str,
    password: Option<&str>,
) -> (UserId, String) {
    let operators = Operators::new(store, PasswordHasher::owasp());
    let email = Email::parse(address).unwrap();
    let password = password.map(|p| Password::parse(p).unwrap());
    let account =
        OperatorAccount { email: email.clone(), password, role: Role::User, verified: true };
    let user = operators.create_account(&account).await.unwrap();
    let request = KeyRequest {
        name: ApiKeyName::parse("processes").unwrap(),
        scope: ApiKeyScope::Full,
        expires_at: None,
    };
    (user.id, operators.create_key(&email, &request).await.unwrap().token)
}

/// The database URL a process opens for `db`: the SQLite file, or the PostgreSQL URL with
/// the test's schema as its search path.
pub fn database_url(db: &TestDb) -> String {
    if let Some(file) = db.sqlite_file() {
        return format!("sqlite://{}", file.display());
    }
    let (url, schema) = db.postgres_schema().expect("a PostgreSQL test database");
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}options=-csearch_path%3D{schema}")
}

/// Where an API process answers.
#[derive(Debug, Clone)]
pub struct Endpoint {
    /// `http://127.0.0.1:<port>`.
    pub base: String,
}

impl Endpoint {
    /// The URL of an API path (under `/api/v1`).
    pub fn url(&self, path: &str) -> String {
        format!("{}/api/v1{path}", self.base)
    }
}

/// One API process (in a folder of its own).
pub struct Api {
    pub child: Child,
    pub endpoint: Endpoint,
    _dir: tempfile::TempDir,
}

impl std::ops::Deref for Api {
    type Target = Endpoint;
    fn deref(&self) -> &Endpoint {
        &self.endpoint
    }
}

/// What an API process is told beyond its database: its model and any other variables.
#[derive(Debug, Clone, Copy)]
pub struct ApiConfig<'a> {
    /// `LLM_BASE_URL`.
    pub llm_base_url: &'a str,
    /// `LLM_MODEL`.
    pub llm_model: &'a str,
    /// More variables, e.g. `ASSISTANT_MAX_STEPS`.
    pub env: &'a [(&'a str, &'a str)],
    /// The file its stdout and stderr go to (else nowhere).
    pub log: Option<&'a Path>,
}

impl Api {
    /// Starts a process on `database_url` whose model (`scripted`) is at `llm_base_url`.
    pub async fn start(database_url: &str, llm_base_url: &str) -> Self {
        let config = ApiConfig { llm_base_url, llm_model: "scripted", env: &[], log: None };
        Self::start_with(database_url, &config).await
    }

    /// Starts a process on `database_url` as `config` says; waits until it answers.
    pub async fn start_with(database_url: &str, config: &ApiConfig<'_>) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let output = || match config.log {
            Some(path) => Stdio::from(
                std::fs::OpenOptions::new().create(true).append(true).open(path).unwrap(),
            ),
            None => Stdio::null(),
        };
        let child = Command::new(env!("CARGO_BIN_EXE_freehire-api"))
            .current_dir(dir.path())
            .env("FREEHIRE_LISTEN", format!("127.0.0.1:{port}"))
            .env("FREEHIRE_DATABASE_URL", database_url)
            // Every process on one PostgreSQL database shares the session secret.
            .env("FREEHIRE_SESSION_SECRET", "a-test-secret-of-at-least-32-bytes-0123456789")
            .env_remove("DATABASE_URL")
            .env("LLM_BASE_URL", config.llm_base_url)
            .env("LLM_API_KEY", "test-key")
            .env("LLM_MODEL", config.llm_model)
            .envs(config.env.iter().copied())
            .stdout(output())
            .stderr(output())
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
        Self { child, endpoint: Endpoint { base }, _dir: dir }
    }
}

impl Drop for Api {
    /// A test that fails before it stops its process does not leave the process running.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A reader of one SSE response: frames as they arrive.
pub struct Stream {
    response: reqwest::Response,
    buffer: String,
}

impl Stream {
    /// The next frame (`event: …\ndata: …` or a comment), waiting at most `within`.
    pub async fn next(&mut self, within: Duration) -> Option<String> {
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
    pub async fn until(&mut self, kind: &str, within: Duration) -> Value {
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

/// Sends a message to a session and returns the response (a stream or a refusal).
pub async fn send(
    client: &reqwest::Client,
    api: &Endpoint,
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

/// The stream of a 200 response, after its `: open`.
pub async fn stream(res: reqwest::Response) -> Stream {
    assert_eq!(res.status(), 200, "a streamed turn");
    let mut s = Stream { response: res, buffer: String::new() };
    assert_eq!(s.next(Duration::from_secs(10)).await.as_deref(), Some(": open"));
    s
}

/// Creates a session of `preset` through the API; its id.
pub async fn create_session(
    client: &reqwest::Client,
    api: &Endpoint,
    token: &str,
    preset: &str,
) -> String {
    let created: Value = client
        .post(api.url(&format!("/assistant/sessions?preset={preset}")))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    created["data"]["id"].as_str().expect("a session id").to_owned()
}
