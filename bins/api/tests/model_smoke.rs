//! The opt-in real-model smoke through a real `freehire-api` process (docs/model-smoke.md).
//! Ignored by default; `cargo xtask model-smoke` serves SmolLM2 locally and runs it with
//! `FREEHIRE_SMOKE_LLM_URL` (and `FREEHIRE_SMOKE_LLM_MODEL`, default `smollm2`).
//!
//! The process runs on an embedded SQLite database with `LLM_BASE_URL`/`LLM_MODEL` naming the
//! local server and `ASSISTANT_MAX_STEPS=2`; one message goes through
//! `POST /api/v1/assistant/sessions/{id}/messages`. It asserts the protocol, not the answer's
//! quality: a `text/event-stream` that opens with `: open`, names each frame's type, ends with
//! exactly one `result` (last, `end_turn` or `max_steps`, not an error), and a stored
//! transcript holding the prompt and an assistant message. It prints the time to the first
//! model text and to the `result`. The process's log is `target/tmp/model-smoke-api.log`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::time::{Duration, Instant};

use freehire_app::testing::terminate;
use freehire_store::testing::TestDb;
use serde_json::Value;
use support::{Api, ApiConfig, account_token, create_session, database_url, send, stream};

/// The prompt of the turn.
const PROMPT: &str = "Say hello in one short sentence.";

/// The longest the whole turn may take (a CPU model, a long system prompt).
const TURN_DEADLINE: Duration = Duration::from_secs(300);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a local model server: see docs/model-smoke.md"]
async fn model_smoke_one_real_turn_through_a_freehire_api_process() {
    let llm = std::env::var("FREEHIRE_SMOKE_LLM_URL").unwrap_or_default();
    assert!(!llm.is_empty(), "FREEHIRE_SMOKE_LLM_URL is not set (docs/model-smoke.md)");
    let model = std::env::var("FREEHIRE_SMOKE_LLM_MODEL").unwrap_or_else(|_| "smollm2".into());
    let db = TestDb::sqlite().await;
    let token = account_token(db.store.clone(), "ada@example.com").await;
    let log = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("model-smoke-api.log");
    let _ = std::fs::remove_file(&log);
    let config = ApiConfig {
        llm_base_url: &llm,
        llm_model: &model,
        env: &[("ASSISTANT_MAX_STEPS", "2"), ("RUST_LOG", "info")],
        log: Some(&log),
    };
    let mut api = Api::start_with(&database_url(&db), &config).await;
    let client = reqwest::Client::new();
    let id = create_session(&client, &api, &token, "chat").await;

    let sent = Instant::now();
    let res = send(&client, &api, &token, &id, PROMPT).await;
    let content_type = res.headers().get("content-type").map(|v| v.to_str().unwrap().to_owned());
    assert_eq!(content_type.as_deref(), Some("text/event-stream"), "API log: {}", log.display());
    let mut s = stream(res).await;
    let opened = sent.elapsed();
    let mut events: Vec<Value> = Vec::new();
    let mut first_text = None;
    while let Some(frame) = s.next(TURN_DEADLINE.saturating_sub(sent.elapsed())).await {
        if frame.starts_with(':') {
            continue;
        }
        let (kind, data) = frame.split_once("\ndata: ").expect("an event frame");
        let event: Value = serde_json::from_str(data).unwrap();
        assert_eq!(kind.strip_prefix("event: "), event["type"].as_str(), "{frame}");
        eprintln!("{frame}");
        if event["type"] == "assistant_text" && event["synthetic"] != true {
            first_text.get_or_insert_with(|| sent.elapsed());
        }
        events.push(event);
    }
    let whole = sent.elapsed();
    assert!(whole < TURN_DEADLINE, "the stream ended within {TURN_DEADLINE:?}");
    let results: Vec<&Value> = events.iter().filter(|e| e["type"] == "result").collect();
    assert_eq!(results.len(), 1, "exactly one result: {events:?}");
    assert_eq!(events.last(), Some(results[0]), "the result is last");
    let result = results[0];
    assert_ne!(result["is_error"], true, "the turn did not fail: {result}; see {}", log.display());
    let stop = result["stop_reason"].as_str().unwrap_or_default();
    assert!(["end_turn", "max_steps"].contains(&stop), "the turn ended normally: {result}");

    let url = api.url(&format!("/assistant/sessions/{id}"));
    let read = client.get(url).bearer_auth(&token).send().await.unwrap();
    let session: Value = read.json().await.unwrap();
    let messages = session["data"]["messages"].as_array().expect("a transcript");
    assert_eq!(messages[0]["role"], "user", "{messages:?}");
    assert_eq!(messages[0]["content"]["text"], PROMPT, "{messages:?}");
    assert!(messages.iter().any(|m| m["role"] == "assistant"), "{messages:?}");
    let text: String = events
        .iter()
        .filter(|e| e["type"] == "assistant_text")
        .filter_map(|e| e["text"].as_str())
        .collect();
    eprintln!(
        "model-smoke: {stop} in {whole:?}; `: open` after {opened:?}, first model text after \
         {first_text:?}; {} events, {} stored messages; answer: {text:?}",
        events.len(),
        messages.len()
    );

    let status = terminate(&mut api.child, Duration::from_secs(10), "did not stop").await;
    assert!(status.success(), "{status}");
    db.teardown().await;
}
