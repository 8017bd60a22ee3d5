//! `freehire chat` driven in a pseudo-terminal (so Ctrl-C is the terminal's real SIGINT)
//! against a real server: the API router in process on 127.0.0.1:0 over a SQLite file and an
//! embedded index holding the offline demo's catalogue, its assistant turning on a local
//! server that speaks the OpenAI chat-completions protocol, scripted per turn
//! ([`freehire_app::testing::openai`]). Authenticated by a key minted with `freehire keys
//! create`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use common::freehire;
use freehire_api::AppState;
use freehire_app::assistant::model::AssistantModel;
use freehire_app::assistant::service::AssistantService;
use freehire_app::assistant::turns::TurnLocks;
use freehire_app::plans::Plans;
use freehire_app::search_engine::SearchEngineArgs;
use freehire_app::search_slot::SearchSlot;
use freehire_app::testing::openai::{ModelReply, OpenAiServer};
use freehire_domain::plan::PlanPolicy;
use freehire_llm::{OpenAiClient, OpenAiConfig};
use freehire_store::{DatabaseUrl, Store};
use serde_json::json;

struct World {
    base: String,
    key: String,
    store: Arc<dyn Store>,
    slug: String,
    _dir: tempfile::TempDir,
}

/// The demo catalogue in a fresh database and index, an account with a key, and the API
/// served with its assistant on `model` (none: no model configured) under `policy`.
async fn world(model: Option<&OpenAiServer>, policy: PlanPolicy) -> World {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("freehire.db").display());
    let db = [("FREEHIRE_DATABASE_URL", url.as_str())];
    let (ok, _, err) =
        freehire(&db, &["users", "create", "me@example.com", "--verified"], "correct horse\n");
    assert!(ok, "{err}");
    let (ok, key, err) = freehire(&db, &["keys", "create", "--user", "me@example.com"], "");
    assert!(ok, "{err}");

    let parsed: DatabaseUrl = url.parse().unwrap();
    let search =
        SearchEngineArgs { index_dir: dir.path().join("index"), ..SearchEngineArgs::default() };
    let services = freehire_app::startup::open(&parsed, &search).await.unwrap();
    let writer = services.writer().await.unwrap();
    freehire_app::demo::ingest(services.store.as_ref(), writer.as_ref()).await.unwrap();
    drop(writer);
    let store = services.store.clone();
    let jobs = store.list_open_jobs(freehire_store::ListPage::new(1, 0)).await.unwrap();
    let slug = jobs.jobs[0].public_slug.as_str().to_owned();

    let mail = tempfile::tempdir().unwrap();
    let accounts = freehire_app::accounts::Accounts::ephemeral(store.clone(), mail.path());
    let slot = SearchSlot::lazy(services.engine.clone());
    slot.try_open().await.unwrap();
    let model = model.map(|m| {
        let config = OpenAiConfig::new(m.base_url(), "scripted");
        AssistantModel::new(OpenAiClient::new(config).unwrap(), None)
    });
    let assistant = AssistantService::new(
        store.clone(),
        slot,
        model,
        Plans::new(store.clone(), policy, Utc::now),
        TurnLocks::local(),
        Utc::now,
    );
    let state = AppState::new(store.clone(), accounts).with_assistant(assistant);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(freehire_api::serve(listener, state, std::future::pending()));
    World { base, key: key.trim().to_owned(), store, slug, _dir: dir }
}

/// `freehire chat ARGS` in a pseudo-terminal.
fn chat(w: &World, args: &[&str]) -> rexpect::session::PtySession {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_freehire"));
    cmd.arg("chat").args(args).env("FREEHIRE_API_URL", &w.base).env("FREEHIRE_API_KEY", &w.key);
    rexpect::session::spawn_command(cmd, Some(30_000)).unwrap()
}

/// `s` as the pty reader sees it: rexpect turns each byte into one char, so a UTF-8 `→`
/// arrives as its three bytes.
fn raw(s: &str) -> String {
    s.bytes().map(char::from).collect()
}

/// Runs blocking pty work off the runtime (the server answers on it meanwhile).
async fn pty<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    tokio::task::spawn_blocking(f).await.unwrap()
}

// scenario: The terminal chat streams a turn, cancels with Ctrl-C and exits on the second
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_terminal_chat_streams_cancels_and_exits() {
    let model = OpenAiServer::start([]).await;
    let w = world(Some(&model), PlanPolicy::default()).await;
    model.push([
        ModelReply::call("c1", "search_jobs", json!({"query": "engineer"})),
        ModelReply::call(
            "c2",
            "present_jobs",
            json!({"jobs": [{"slug": w.slug, "note": "Fully remote, Rust core"}]}),
        ),
        ModelReply::text("Here is one that fits: it is remote."),
        // The second turn hangs until it is cancelled.
        ModelReply::Hang,
    ]);
    let slug = w.slug.clone();
    let mut p = chat(&w, &[]);
    let session = pty(move || {
        p.exp_string("new chat session ").unwrap();
        let id = p.exp_regex("[0-9a-f-]{36}").unwrap().1;
        p.exp_string("> ").unwrap();
        p.send_line("find me remote Rust jobs in Germany").unwrap();
        p.exp_string(&raw(r#"→ search_jobs {"query":"engineer"}"#)).unwrap();
        p.exp_regex(&format!(r"{} search_jobs: \d+ results", raw("←"))).unwrap();
        p.exp_string(&raw("→ present_jobs")).unwrap();
        p.exp_string(&raw("← present_jobs: 1 shown")).unwrap();
        p.exp_string(&raw(&format!("• {slug}: Fully remote, Rust core"))).unwrap();
        p.exp_string("Here is one that fits: it is remote.").unwrap();
        p.exp_string("> ").unwrap();
        (p, id)
    })
    .await;
    let (mut p, id) = session;

    // A slow turn: Ctrl-C cancels it (the session goes on), /history prints the transcript.
    let mut p = pty(move || {
        p.send_line("and in Berlin?").unwrap();
        std::thread::sleep(Duration::from_millis(500));
        p.send_control('c').unwrap();
        p.exp_string("(cancelling").unwrap();
        p.exp_string("(cancelled)").unwrap();
        p.exp_string("> ").unwrap();
        p.send_line("/history").unwrap();
        p.exp_string("you: find me remote Rust jobs in Germany").unwrap();
        p.exp_string(&raw("→ present_jobs")).unwrap();
        p.exp_string("assistant: Here is one that fits").unwrap();
        p.exp_string("you: and in Berlin?").unwrap();
        p.send_line("/tools").unwrap();
        p.exp_string(&raw(r#"→ search_jobs {"query":"engineer"}"#)).unwrap();
        p.exp_string("> ").unwrap();
        p
    })
    .await;

    // The server's transcript shows the turn stopped: the prompt is there, nothing after it.
    let url = format!("{}/api/v1/assistant/sessions/{id}", w.base);
    let got: serde_json::Value = reqwest::Client::new()
        .get(&url)
        .bearer_auth(&w.key)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let messages = got["data"]["messages"].as_array().unwrap();
    let last = messages.last().unwrap();
    assert_eq!(last["role"], "user", "{got}");
    assert_eq!(last["content"]["text"], "and in Berlin?");
    assert_eq!(model.requests().len(), 4, "the hung call was the last one");

    // A second Ctrl-C while a turn runs exits; so does one while idle.
    model.push([ModelReply::Hang]);
    let status = pty(move || {
        p.send_line("one more").unwrap();
        std::thread::sleep(Duration::from_millis(500));
        p.send_control('c').unwrap();
        p.exp_string("(cancelling").unwrap();
        p.send_control('c').unwrap();
        p.exp_string("bye").unwrap();
        p.process.wait().unwrap()
    })
    .await;
    assert!(matches!(status, rexpect::process::wait::WaitStatus::Exited(_, 0)), "{status:?}");
    drop(w.store);
}

// scenario: The terminal chat shows the quota and the server's refusals
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_terminal_chat_shows_the_quota_when_refused() {
    let model = OpenAiServer::start([]).await;
    let vars = [
        ("PLAN_ENFORCE".to_owned(), "assistant".to_owned()),
        ("PLAN_FREE_DAILY_ASSISTANT".to_owned(), "0".to_owned()),
    ];
    let (policy, warnings) = PlanPolicy::from_vars(vars);
    assert!(warnings.is_empty(), "{warnings:?}");
    let w = world(Some(&model), policy).await;
    let mut p = chat(&w, &[]);
    let status = pty(move || {
        p.exp_string("> ").unwrap();
        p.send_line("hello").unwrap();
        p.exp_regex(r"quota: 0 of 0 assistant turns used today \(free plan\); resets at \d{4}-\d\d-\d\d 00:00 UTC").unwrap();
        p.exp_string("> ").unwrap();
        p.send_line("/usage").unwrap();
        p.exp_string("assistant: 0 of 0 today (free plan, enforced)").unwrap();
        p.send_line("/nonsense").unwrap();
        p.exp_string("unknown command /nonsense").unwrap();
        p.send_control('c').unwrap();
        p.exp_string("bye").unwrap();
        p.process.wait().unwrap()
    })
    .await;
    assert!(matches!(status, rexpect::process::wait::WaitStatus::Exited(_, 0)), "{status:?}");
    assert!(model.requests().is_empty(), "a refused turn never reaches the model");

    // An unknown session is the server's 404, before any chat.
    let (ok, _, err) = freehire(
        &[("FREEHIRE_API_URL", w.base.as_str()), ("FREEHIRE_API_KEY", w.key.as_str())],
        &["chat", "--session", "6f9619ff-8b86-d011-b42d-00c04fc964ff"],
        "",
    );
    assert!(!ok && err.contains("session not found"), "{err}");

    // Without a model the server's 503 names the variables; the chat goes on.
    let w = world(None, PlanPolicy::default()).await;
    let mut p = chat(&w, &[]);
    let status = pty(move || {
        p.exp_string("> ").unwrap();
        p.send_line("hello").unwrap();
        p.exp_regex("error: the assistant is not available: set LLM_BASE_URL.*LLM_MODEL").unwrap();
        p.exp_string("> ").unwrap();
        p.send_line("/quit").unwrap();
        p.exp_string("bye").unwrap();
        p.process.wait().unwrap()
    })
    .await;
    assert!(matches!(status, rexpect::process::wait::WaitStatus::Exited(_, 0)), "{status:?}");
}
