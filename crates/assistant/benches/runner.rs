//! Runner benchmarks (`cargo bench -p freehire-assistant --bench runner`). Prints:
//!
//! 1. runner overhead per step, excluding the model: scripted model, 60-message history,
//!    3 tools (target ≤ 200 µs);
//! 2. history rebuild time for a 10,000-message session (target ≤ 5 ms);
//! 3. the prompt-cache figure over a 200-turn scripted session: the share of prompt bytes that
//!    are an exact prefix of the previous request's prompt (target ≥ 80%).
//!
//! The system prompt is `fixtures/system_prompt.txt`, freehire's chat prompt in English as the
//! app layer composes it (the library has no prompts of its own); the owner is a UUID, as a
//! service with UUID principals would use.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use freehire_assistant::message::{encode_assistant, encode_tool_result, encode_user};
use freehire_assistant::{
    Event, EventSink, HistoryLimit, MemoryStore, Runner, RunnerConfig, SessionId, StepLimit,
    TranscriptStore, Turn, TurnConfig,
};
use freehire_llm::openai::request_body;
use freehire_llm::{ChatModel, ChatRequest, Choice, LlmError, Scripted, ScriptedModel, ToolCall};
use freehire_tools::{Registry, Tool, from_fn};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

/// A realistic system prompt (about 3 KB).
const SYSTEM: &str = include_str!("fixtures/system_prompt.txt");

/// Wraps a model and adds up the time spent inside it.
struct Timed {
    inner: ScriptedModel,
    nanos: AtomicU64,
}

#[async_trait]
impl ChatModel for Timed {
    async fn chat(&self, request: ChatRequest<'_>) -> Result<Choice, LlmError> {
        let start = Instant::now();
        let out = self.inner.chat(request).await;
        self.nanos.fetch_add(start.elapsed().as_nanos() as u64, Ordering::Relaxed);
        out
    }
}

struct Discard;
impl EventSink for Discard {
    fn emit(&self, event: Event) {
        std::hint::black_box(event);
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct SearchArgs {
    /// Free text.
    query: String,
    /// How many results.
    limit: Option<u32>,
}

fn tools() -> Registry<Uuid> {
    let t = |name: &'static str| -> Arc<dyn Tool<Uuid>> {
        Arc::new(from_fn(
            name,
            "A benchmark tool that answers with a small JSON object.",
            |_ctx, _, a: SearchArgs| async move {
                Ok::<_, String>(
                    serde_json::json!({"query": a.query, "results": [{"slug": "rust-engineer-acme-x1y2"}, {"slug": "go-dev-beta-z9"}]}),
                )
            },
        ))
    };
    Registry::new([t("search_jobs"), t("get_job"), t("facets")]).with_max_result_bytes(60_000)
}

fn seed_line(i: usize) -> String {
    format!(
        "message {i}: I led the migration of our billing service to Kubernetes and cut deploy time by 40%."
    )
}

async fn seed(store: &MemoryStore<Uuid>, session: SessionId, n: usize) {
    for i in 0..n {
        let m = match i % 4 {
            0 => encode_user(&seed_line(i)),
            1 => encode_assistant(
                "",
                &[ToolCall::new(format!("s{i}"), "search_jobs", r#"{"query":"rust"}"#)],
            ),
            2 => encode_tool_result(&format!("s{}", i - 1), "search_jobs", r#"{"results":[]}"#),
            _ => encode_assistant(&seed_line(i), &[]),
        };
        store.append(session, &owner(), &m).await.unwrap_or_else(|e| panic!("seed: {e}"));
    }
}

fn owner() -> Uuid {
    Uuid::from_u128(1)
}

/// What every turn of a benchmark session runs against.
struct Bound {
    session: SessionId,
    owner: Uuid,
    registry: Registry<Uuid>,
    config: TurnConfig,
    cancel: CancellationToken,
}

impl Bound {
    fn new(session: SessionId) -> Self {
        Self {
            session,
            owner: owner(),
            registry: tools(),
            config: TurnConfig::default(),
            cancel: CancellationToken::new(),
        }
    }

    fn turn(&self) -> Turn<'_, Uuid> {
        Turn {
            session: self.session,
            owner: &self.owner,
            registry: &self.registry,
            system: SYSTEM,
            config: &self.config,
            cancel: &self.cancel,
            events: &Discard,
        }
    }
}

async fn step_overhead() -> (f64, usize) {
    let store = Arc::new(MemoryStore::new());
    let session = store.create_session(owner());
    seed(&store, session, 60).await;
    let bound = Bound::new(session);
    let turns = 300;
    let steps_per_turn = 8;
    let mut script = Vec::new();
    for t in 0..turns {
        for s in 0..steps_per_turn - 1 {
            script.push(Scripted::call(
                &format!("c{t}_{s}"),
                "search_jobs",
                r#"{"query":"rust","limit":5}"#,
            ));
        }
        script.push(Scripted::text("Here is what I found."));
    }
    let model = Arc::new(Timed {
        inner: ScriptedModel::new(script).without_recording(),
        nanos: AtomicU64::new(0),
    });
    let runner = Runner::new(
        model.clone(),
        store.clone(),
        RunnerConfig {
            max_steps: StepLimit::new(steps_per_turn as i64),
            history_limit: HistoryLimit::new(60),
            ..RunnerConfig::default()
        },
    );
    let start = Instant::now();
    for _ in 0..turns {
        runner
            .run(bound.turn(), "find me rust jobs in Berlin")
            .await
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let total = start.elapsed();
    let model_time = Duration::from_nanos(model.nanos.load(Ordering::Relaxed));
    let steps = turns * steps_per_turn;
    ((total - model_time).as_secs_f64() * 1e6 / steps as f64, steps)
}

async fn rebuild() -> (f64, f64) {
    let store = Arc::new(MemoryStore::new());
    let session = store.create_session(owner());
    seed(&store, session, 10_000).await;
    let runner =
        Runner::new(Arc::new(ScriptedModel::new([])), store.clone(), RunnerConfig::default());
    let rounds = 2_000;
    let start = Instant::now();
    for _ in 0..rounds {
        std::hint::black_box(
            runner.history(session, &owner(), SYSTEM).await.unwrap_or_else(|e| panic!("{e}")),
        );
    }
    let window = start.elapsed().as_secs_f64() * 1e3 / rounds as f64;
    // For scale: reading and decoding the whole 10,000-message transcript.
    let start = Instant::now();
    let all = store.transcript(session, &owner()).await.unwrap_or_else(|e| panic!("{e}"));
    std::hint::black_box(
        freehire_assistant::message::conversation(&all).unwrap_or_else(|e| panic!("{e}")),
    );
    let full = start.elapsed().as_secs_f64() * 1e3;
    (window, full)
}

async fn prompt_cache() -> (f64, usize, usize) {
    let store = Arc::new(MemoryStore::new());
    let session = store.create_session(owner());
    let bound = Bound::new(session);
    let turns = 200;
    let mut script = Vec::new();
    for t in 0..turns {
        if t % 2 == 0 {
            script.push(Scripted::call(&format!("c{t}"), "search_jobs", r#"{"query":"rust"}"#));
        }
        script.push(Scripted::text(format!(
            "Answer {t}: here are three vacancies that match what you asked for."
        )));
    }
    let model = ScriptedModel::new(script);
    let runner = Runner::new(Arc::new(model.clone()), store.clone(), RunnerConfig::default());
    for t in 0..turns {
        runner
            .run(bound.turn(), &format!("turn {t}: anything new for a senior rust engineer?"))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let mut previous: Option<String> = None;
    let (mut cached, mut total) = (0usize, 0usize);
    let calls = model.calls();
    for call in &calls {
        let prompt = request_body("model", &call.messages, &call.tools, true);
        if let Some(prev) = &previous {
            cached += common_prefix(prev.as_bytes(), prompt.as_bytes());
        }
        total += prompt.len();
        previous = Some(prompt);
    }
    (cached as f64 * 100.0 / total as f64, calls.len(), total)
}

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

fn main() {
    let rt = tokio::runtime::Runtime::new().unwrap_or_else(|e| panic!("{e}"));
    rt.block_on(async {
        let (per_step, steps) = step_overhead().await;
        println!("runner overhead per step (excluding the model): {per_step:.1} µs over {steps} steps (target ≤ 200 µs)");
        let (window, full) = rebuild().await;
        println!("history rebuild, 10,000-message session: {window:.3} ms per rebuild (target ≤ 5 ms); whole-transcript decode for scale: {full:.1} ms");
        let (share, requests, bytes) = prompt_cache().await;
        println!("prompt cache, 200-turn session: {share:.1}% of prompt bytes are a prefix of the previous request ({requests} requests, {bytes} prompt bytes; target ≥ 80%)");
    });
}
