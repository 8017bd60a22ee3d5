//! Another service embedding the assistant: its own UUID principals as session owners, its
//! own tool and system prompt, the in-memory transcript store, and a model client configured
//! for an OpenAI-compatible endpoint. Nothing of freehire's domain is needed. By default the turn runs
//! against a scripted model, so the example needs no network and no key:
//!
//! ```text
//! cargo run -p freehire-assistant --example embed
//! ```
//!
//! Set `EMBED_LIVE=1` with `LLM_BASE_URL` (and `LLM_MODEL`, `LLM_API_KEY` if needed) to
//! send the same turn to a real endpoint instead.

use std::sync::Arc;

use freehire_assistant::{
    Event, EventSink, HistoryLimit, MemoryStore, Runner, RunnerConfig, StepLimit, StopReason, Turn,
    TurnConfig,
};
use freehire_llm::{ChatModel, OpenAiClient, OpenAiConfig, Scripted, ScriptedModel};
use freehire_tools::{Registry, Tool, from_fn};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

/// The arguments of the warehouse's own tool.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct StockArgs {
    /// The product's SKU, e.g. `KB-104`.
    sku: String,
}

#[derive(serde::Serialize)]
struct Stock {
    sku: String,
    in_stock: u32,
    warehouse: &'static str,
}

/// The host service's tool: it sees the session owner's id (the service's own UUID
/// principal), never a credential.
fn stock_tool() -> Arc<dyn Tool<Uuid>> {
    Arc::new(from_fn(
        "stock_level",
        "Look up how many units of a product are in stock. Pass the SKU exactly as the user wrote it.",
        |_ctx, _owner: Uuid, args: StockArgs| async move {
            if args.sku.is_empty() {
                return Err("sku is required".to_owned());
            }
            Ok(Stock { sku: args.sku, in_stock: 17, warehouse: "Rotterdam" })
        },
    ))
}

/// Prints each event in its wire shape, one JSON object per line (what an SSE stream sends).
struct PrintEvents;

impl EventSink for PrintEvents {
    fn emit(&self, event: Event) {
        match serde_json::to_string(&event) {
            Ok(line) => println!("event: {}\ndata: {line}\n", event.kind()),
            Err(e) => eprintln!("unprintable event: {e}"),
        }
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Configured for an OpenAI-compatible endpoint (building the client sends nothing).
    let mut config = OpenAiConfig::new(
        std::env::var("LLM_BASE_URL").unwrap_or_else(|_| "http://127.0.0.1:8000".into()),
        std::env::var("LLM_MODEL").unwrap_or_else(|_| "gpt-4o-mini".into()),
    );
    config.api_key = std::env::var("LLM_API_KEY").ok().map(Into::into);
    let client =
        OpenAiClient::new(config)?.with_header("x-bf-dim-feature", "warehouse-assistant")?;

    let store = Arc::new(MemoryStore::new());
    let runner = Runner::new(
        Arc::new(client),
        store.clone(),
        RunnerConfig {
            max_steps: StepLimit::new(4),
            history_limit: HistoryLimit::new(40),
            ..RunnerConfig::default()
        },
    );

    // Offline by default: the same runner, bounds and store over a scripted model.
    let live = std::env::var("EMBED_LIVE").is_ok_and(|v| v == "1");
    let runner = if live {
        runner
    } else {
        let script = ScriptedModel::new([
            Scripted::call("call_1", "stock_level", r#"{"sku":"KB-104"}"#),
            Scripted::text("KB-104 is in stock: 17 units in Rotterdam."),
        ]);
        runner.with(Some(Arc::new(script) as Arc<dyn ChatModel>))
    };

    let owner = Uuid::from_u128(0x5eed);
    let session = store.create_session(owner);
    let registry = Registry::new([stock_tool()]).with_max_result_bytes(16_000);
    let cancel = CancellationToken::new();
    let turn_config = TurnConfig::default();
    let turn = Turn {
        session,
        owner: &owner,
        registry: &registry,
        system: "You answer warehouse questions. Use stock_level for any stock question.",
        config: &turn_config,
        cancel: &cancel,
        events: &PrintEvents,
    };
    let reason = runner.run(turn, "Do we have KB-104?").await?;
    assert!(matches!(reason, StopReason::EndTurn | StopReason::MaxSteps));

    let transcript =
        freehire_assistant::TranscriptStore::transcript(&*store, session, &owner).await?;
    println!("transcript ({} messages):", transcript.len());
    for m in transcript {
        println!("  {}", serde_json::to_string(&m)?);
    }
    Ok(())
}
