//! The opt-in real-model smoke test (see docs/model-smoke.md). Ignored by default; run with
//! `FREEHIRE_SMOKE_LLM_URL=http://127.0.0.1:8000 cargo test -p freehire-assistant --test it smoke -- --ignored`.
//! It checks the protocol and the turn invariants against a real OpenAI-compatible server
//! (SmolLM2-135M under llama-cpp-python), not the quality of the answers.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use freehire_assistant::message::decode;
use freehire_assistant::{
    Event, EventLog, MemoryStore, Role, Runner, RunnerConfig, StopReason, TranscriptStore, Turn,
    TurnConfig,
};
use freehire_assistant::{HistoryLimit, StepLimit};
use freehire_llm::{
    ChatModel, ChatRequest, Choice, LlmError, Message as M, NoStream, OpenAiClient, OpenAiConfig,
    StreamSink, ToolCall, ToolSpec,
};
use freehire_tools::{Registry, Tool, from_fn};
use tokio_util::sync::CancellationToken;

use crate::support::owner;
use uuid::Uuid;

fn client() -> OpenAiClient {
    let url = std::env::var("FREEHIRE_SMOKE_LLM_URL").unwrap_or_default();
    assert!(
        !url.is_empty(),
        "FREEHIRE_SMOKE_LLM_URL is not set: start the local model server first (docs/model-smoke.md)"
    );
    let model = std::env::var("FREEHIRE_SMOKE_LLM_MODEL").unwrap_or_else(|_| "smollm2".into());
    let mut config = OpenAiConfig::new(url, model);
    config.timeout = Duration::from_secs(180);
    OpenAiClient::new(config).expect("a usable base URL")
}

struct Counting {
    inner: OpenAiClient,
    calls: AtomicUsize,
    with_tools: AtomicUsize,
}

#[async_trait]
impl ChatModel for Counting {
    async fn chat(&self, request: ChatRequest<'_>) -> Result<Choice, LlmError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        if !request.tools.is_empty() {
            self.with_tools.fetch_add(1, Ordering::SeqCst);
        }
        self.inner.chat(request).await
    }
}

#[derive(Default)]
struct Deltas(AtomicUsize);

impl StreamSink for Deltas {
    fn on_text(&self, _: &str) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
    fn on_thinking(&self, _: &str) {}
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct WeatherArgs {
    /// The city, e.g. "Berlin".
    city: String,
}

fn weather_tool() -> Arc<dyn Tool<Uuid>> {
    Arc::new(from_fn(
        "get_weather",
        "Get the current weather for a city.",
        |_ctx, _, a: WeatherArgs| async move {
            Ok::<_, String>(serde_json::json!({"city": a.city, "weather": "sunny", "celsius": 21}))
        },
    ))
}

fn weather_spec() -> Vec<ToolSpec> {
    weather_tool_registry()
        .definitions()
        .into_iter()
        .map(|d| ToolSpec { name: d.name, description: d.description, parameters: d.parameters })
        .collect()
}

fn weather_tool_registry() -> Registry<Uuid> {
    Registry::new([weather_tool()]).with_max_result_bytes(60_000)
}

#[tokio::test]
#[ignore = "needs a local model server: see docs/model-smoke.md"]
async fn smoke_plain_and_streamed_chat() {
    let c = client();
    let msgs = vec![
        M::System("You are a helpful assistant.".into()),
        M::User("Say hello in one word.".into()),
    ];
    let plain = c.chat(ChatRequest::new(&msgs, &[])).await.expect("plain chat works");
    assert!(plain.tool_calls.is_empty());
    let sink = Deltas::default();
    let streamed =
        c.chat(ChatRequest::new(&msgs, &[]).streaming(&sink)).await.expect("streamed chat works");
    assert!(
        streamed.content.is_empty() || sink.0.load(Ordering::SeqCst) > 0,
        "streamed text arrives as deltas"
    );
}

#[tokio::test]
#[ignore = "needs a local model server: see docs/model-smoke.md"]
async fn smoke_a_replayed_tool_round_is_accepted() {
    // An assistant message with tool calls goes out with content "" (never null), and a tool
    // result follows it; the server must accept both, streamed (with tools) and plain.
    let c = client();
    let msgs = vec![
        M::System("You are a helpful assistant.".into()),
        M::User("What is the weather in Berlin?".into()),
        M::Assistant {
            text: String::new(),
            tool_calls: vec![ToolCall::new("call_1", "get_weather", r#"{"city":"Berlin"}"#)],
        },
        M::Tool {
            call_id: "call_1".into(),
            name: "get_weather".into(),
            content: r#"{"weather":"sunny","celsius":21}"#.into(),
        },
    ];
    let tools = weather_spec();
    c.chat(ChatRequest::new(&msgs, &tools)).await.expect("plain call with a replayed tool round");
    c.chat(ChatRequest::new(&msgs, &tools).streaming(&NoStream))
        .await
        .expect("streamed call with tools (falls back to plain when the stream is empty)");
}

#[tokio::test]
#[ignore = "needs a local model server: see docs/model-smoke.md"]
async fn smoke_a_real_turn_keeps_the_invariants() {
    let model = Arc::new(Counting {
        inner: client(),
        calls: AtomicUsize::new(0),
        with_tools: AtomicUsize::new(0),
    });
    let store = Arc::new(MemoryStore::new());
    let session = store.create_session(owner());
    let max_steps = 2;
    let runner = Runner::new(
        model.clone(),
        store.clone(),
        RunnerConfig {
            max_steps: StepLimit::new(max_steps),
            history_limit: HistoryLimit::new(60),
            ..RunnerConfig::default()
        },
    );
    let registry = weather_tool_registry();
    let log = EventLog::new();
    let cancel = CancellationToken::new();
    let config = TurnConfig {
        max_steps: None,
        headers: vec![("x-bf-dim-feature".into(), "assistant".into())],
    };
    let turn = Turn {
        session,
        owner: &owner(),
        registry: &registry,
        system: "You are a helpful assistant with tools. Use get_weather for weather questions.",
        config: &config,
        cancel: &cancel,
        events: &log,
    };
    let reason =
        runner.run(turn, "What is the weather in Berlin?").await.expect("the turn completes");
    assert!(matches!(reason, StopReason::EndTurn | StopReason::MaxSteps), "{reason:?}");

    let events = log.events();
    assert_eq!(events.iter().filter(|e| e.is_terminal()).count(), 1, "{events:?}");
    assert_eq!(events.last(), Some(&Event::result(reason)));
    assert!(model.with_tools.load(Ordering::SeqCst) <= max_steps as usize);
    assert!(model.calls.load(Ordering::SeqCst) <= max_steps as usize + 1);

    let transcript = store.transcript(session, &owner()).await.expect("transcript");
    assert_eq!(transcript[0].role, Role::User);
    let mut open: Vec<String> = Vec::new();
    for m in &transcript {
        match decode(m).expect("every stored message decodes") {
            M::Assistant { tool_calls, .. } => {
                open.extend(tool_calls.into_iter().map(|c| c.id).filter(|id| !id.is_empty()))
            }
            M::Tool { call_id, content, .. } => {
                open.retain(|id| *id != call_id);
                assert!(
                    serde_json::from_str::<serde_json::Value>(&content).is_ok(),
                    "tool results are JSON"
                );
            }
            _ => {}
        }
    }
    assert!(open.is_empty(), "unanswered tool calls: {open:?}");
    let uses = events.iter().filter(|e| matches!(e, Event::ToolUse { .. })).count();
    let results = events.iter().filter(|e| matches!(e, Event::ToolResult { .. })).count();
    assert_eq!(uses, results);
    eprintln!(
        "smoke turn: stop_reason={}, model calls={}, tool calls={uses}, transcript={} messages",
        reason.as_str(),
        model.calls.load(Ordering::SeqCst),
        transcript.len()
    );
}

/// SmolLM2 rarely calls a tool on its own; forcing one by name makes it call tools on every
/// step, which is the provider behaviour the bound and the tool-less wrap-up exist for.
#[tokio::test]
#[ignore = "needs a local model server: see docs/model-smoke.md"]
async fn smoke_a_model_that_keeps_calling_tools_is_bounded() {
    let forced = client().with_tool_choice(Some(serde_json::json!({
        "type": "function",
        "function": {"name": "get_weather"}
    })));
    let model = Arc::new(Counting {
        inner: forced,
        calls: AtomicUsize::new(0),
        with_tools: AtomicUsize::new(0),
    });
    let store = Arc::new(MemoryStore::new());
    let session = store.create_session(owner());
    let runner = Runner::new(
        model.clone(),
        store.clone(),
        RunnerConfig {
            max_steps: StepLimit::new(2),
            history_limit: HistoryLimit::new(60),
            ..RunnerConfig::default()
        },
    );
    let registry = weather_tool_registry();
    let log = EventLog::new();
    let cancel = CancellationToken::new();
    let config = TurnConfig::default();
    let turn = Turn {
        session,
        owner: &owner(),
        registry: &registry,
        system: "You are a helpful assistant with tools.",
        config: &config,
        cancel: &cancel,
        events: &log,
    };
    let reason =
        runner.run(turn, "What is the weather in Berlin?").await.expect("the turn completes");
    assert_eq!(reason, StopReason::MaxSteps);
    let events = log.events();
    assert_eq!(events.iter().filter(|e| e.is_terminal()).count(), 1, "{events:?}");
    assert_eq!(events.last(), Some(&Event::result(StopReason::MaxSteps)));
    assert_eq!(model.with_tools.load(Ordering::SeqCst), 2);
    assert_eq!(model.calls.load(Ordering::SeqCst), 3, "two steps and the tool-less wrap-up");
    let results = events.iter().filter(|e| matches!(e, Event::ToolResult { .. })).count();
    assert!(results >= 2, "{events:?}");
    let transcript = store.transcript(session, &owner()).await.expect("transcript");
    let mut open: Vec<String> = Vec::new();
    for m in &transcript {
        match decode(m).expect("every stored message decodes") {
            M::Assistant { tool_calls, .. } => open.extend(tool_calls.into_iter().map(|c| c.id)),
            M::Tool { call_id, .. } => open.retain(|id| *id != call_id),
            _ => {}
        }
    }
    assert!(open.is_empty(), "unanswered tool calls: {open:?}");
    eprintln!(
        "forced-tools turn: stop_reason={}, model calls={}, tool results={results}, transcript={} messages",
        reason.as_str(),
        model.calls.load(Ordering::SeqCst),
        transcript.len()
    );
}
