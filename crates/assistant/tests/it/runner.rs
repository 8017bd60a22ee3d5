//! The turn runner against the scripted model (reference §18.1): the step bound and its
//! wrap-up, events, persistence, cancellation, failures and panics, each ending with exactly
//! one result.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use freehire_assistant::message::encode_assistant;
use freehire_assistant::message::{encode_tool_result, encode_user};
use freehire_assistant::{
    AssistantError, EMPTY_REPLY_NOTE, Event, Role, Runner, RunnerConfig, STEP_LIMIT_NOTE,
    StopReason, TurnConfig,
};
use freehire_assistant::{HistoryLimit, StepLimit};
use freehire_llm::{ChatModel, Choice, LlmError, Message as M, Scripted, ScriptedModel, ToolCall};
use serde_json::{Value, json};

use crate::support::Fixture;
use uuid::Uuid;

fn echo_call(id: &str, text: &str) -> Scripted {
    Scripted::call(id, "echo", &json!({ "text": text }).to_string())
}

fn always_calling() -> ScriptedModel {
    ScriptedModel::new([]).with_fallback(echo_call("c", "again"))
}

#[tokio::test]
async fn with_swaps_the_model_and_keeps_the_bounds() {
    let f = Fixture::new(ScriptedModel::new([Scripted::text("old")]));
    let replacement = ScriptedModel::new([Scripted::text("new")]);
    let swapped = f.runner.with(Some(Arc::new(replacement.clone()) as Arc<dyn ChatModel>));
    assert_eq!(swapped.max_steps().get(), 3);
    assert_eq!(swapped.history_limit().get(), 50);
    assert!(swapped.same_store(&f.runner));
    let reason = swapped.run(f.turn(), "hi").await.unwrap();
    assert_eq!(reason, StopReason::EndTurn);
    assert_eq!(replacement.call_count(), 1);
    assert_eq!(f.model.call_count(), 0, "only the replacement model is called");
}

#[tokio::test]
async fn with_no_model_leaves_the_runner_usable() {
    let f = Fixture::new(ScriptedModel::new([Scripted::text("still here")]));
    let same = f.runner.with(None);
    assert_eq!(same.run(f.turn(), "hi").await, Ok(StopReason::EndTurn));
    assert_eq!(f.model.call_count(), 1);
}

#[tokio::test]
async fn a_turn_without_tools_ends_in_an_answer() {
    let f = Fixture::new(ScriptedModel::new([Scripted::text("Here are some jobs.")]));
    assert_eq!(f.run("find me go jobs").await, Ok(StopReason::EndTurn));
    let events = f.events();
    assert_eq!(events[0], Event::UserPrompt { text: "find me go jobs".into() });
    assert_eq!(f.texts().concat(), "Here are some jobs.");
    assert_eq!(f.last_result(), Event::result(StopReason::EndTurn));
    assert_eq!(f.roles().await, [Role::User, Role::Assistant]);
}

#[tokio::test]
async fn a_turn_runs_a_tool_then_answers() {
    let f = Fixture::new(ScriptedModel::new([echo_call("c1", "hello"), Scripted::text("Done.")]));
    assert_eq!(f.run("echo hello").await, Ok(StopReason::EndTurn));
    assert!(f.events().contains(&Event::ToolUse {
        id: "c1".into(),
        name: "echo".into(),
        input: json!({"text":"hello"})
    }));
    assert_eq!(f.tool_results(), [("echo".into(), r#"{"echoed":"hello"}"#.into(), false)]);
    assert_eq!(f.model.call_count(), 2);
    let second = &f.model.calls()[1].messages;
    assert!(matches!(second.last(), Some(M::Tool { call_id, .. }) if call_id == "c1"));
    assert_eq!(f.roles().await, [Role::User, Role::Assistant, Role::Tool, Role::Assistant]);
    assert_eq!(f.model.calls()[0].tools.len(), 4);
    assert!(matches!(&f.model.calls()[0].messages[0], M::System(s) if s == "You are a test."));
}

// scenario: Blank answer
#[tokio::test]
async fn an_empty_model_reply_gets_a_fallback_note_instead_of_vanishing() {
    let f = Fixture::new(ScriptedModel::new([Scripted::text("  ")]));
    assert_eq!(f.run("hm").await, Ok(StopReason::EndTurn));
    assert!(f.texts().contains(&EMPTY_REPLY_NOTE.to_owned()));
    let persisted = f.persisted().await;
    assert_eq!(persisted.len(), 3);
    let last = persisted.last().unwrap();
    assert_eq!(last.role, Role::Assistant);
    assert_ne!(last.content, r#"{"text":""}"#);
    assert_ne!(last.content, "{}");
    assert_eq!(f.last_result(), Event::result(StopReason::EndTurn));
}

// scenario: The model keeps calling tools
#[tokio::test]
async fn the_step_cap_forces_a_final_answer_without_tools() {
    let model = ScriptedModel::new([
        echo_call("a", "1"),
        echo_call("b", "2"),
        echo_call("c", "3"),
        Scripted::text("Summary so far."),
    ]);
    let f = Fixture::new(model);
    assert_eq!(f.run("loop").await, Ok(StopReason::MaxSteps));
    let calls = f.model.calls();
    assert_eq!(calls.len(), 4);
    assert!(calls[..3].iter().all(|c| c.tools.len() == 4));
    assert!(calls[3].tools.is_empty(), "the wrap-up offers no tools");
    assert_eq!(f.last_result(), Event::result(StopReason::MaxSteps));
    assert!(!f.texts().iter().any(|t| t.contains("step limit")), "a worded wrap-up needs no note");
}

// scenario: The wrap-up still calls tools
#[tokio::test]
async fn the_max_steps_wrap_up_runs_tool_calls_providers_still_emit() {
    let f = Fixture::new(always_calling());
    assert_eq!(f.run("loop").await, Ok(StopReason::MaxSteps));
    assert_eq!(f.tool_results().len(), 4, "the wrap-up's call ran too");
    assert!(f.texts().iter().any(|t| t.contains("step limit") && t == STEP_LIMIT_NOTE));
    let persisted = f.persisted().await;
    assert_eq!(persisted.last().unwrap().role, Role::Assistant);
    assert_eq!(f.model.call_count(), 4);
}

// scenario: A per-turn ceiling
#[tokio::test]
async fn a_per_turn_ceiling_replaces_the_runner_default() {
    let mut script: Vec<Scripted> = (0..4).map(|i| echo_call(&format!("c{i}"), "x")).collect();
    script.push(Scripted::text("finally"));
    let mut f = Fixture::new(ScriptedModel::new(script));
    f.config = TurnConfig { max_steps: StepLimit::positive(6), ..TurnConfig::default() };
    assert_eq!(f.run("go").await, Ok(StopReason::EndTurn));
    assert_eq!(f.model.call_count(), 5);
}

#[tokio::test]
async fn a_turn_naming_no_ceiling_uses_the_configured_default() {
    for ceiling in [0, -5] {
        let mut f = Fixture::new(always_calling());
        f.config = TurnConfig { max_steps: StepLimit::positive(ceiling), ..TurnConfig::default() };
        assert_eq!(f.run("go").await, Ok(StopReason::MaxSteps));
        assert_eq!(f.model.call_count(), 4, "three rounds and the wrap-up");
    }
}

#[tokio::test]
async fn zero_or_negative_runner_bounds_mean_the_defaults_never_unbounded() {
    let model = always_calling();
    let f = Fixture::with_config(
        model,
        RunnerConfig {
            max_steps: StepLimit::new(0),
            history_limit: HistoryLimit::new(-1),
            ..RunnerConfig::default()
        },
    );
    assert_eq!(f.runner.max_steps().get(), 8);
    assert_eq!(f.runner.history_limit().get(), 60);
    assert_eq!(f.run("go").await, Ok(StopReason::MaxSteps));
    assert_eq!(f.model.call_count(), 9);
}

// scenario: Malformed arguments
#[tokio::test]
async fn a_malformed_tool_call_is_correctable_in_the_same_turn() {
    let f = Fixture::new(ScriptedModel::new([
        Scripted::call("c1", "echo", r#"{"txt":"hi"}"#),
        echo_call("c2", "hi"),
        Scripted::text("ok"),
    ]));
    assert_eq!(f.run("echo").await, Ok(StopReason::EndTurn));
    let results = f.tool_results();
    assert!(results[0].2 && results[0].1.contains("txt"), "{results:?}");
    assert!(!results[1].2);
    // The model saw the error text in its next call.
    let second = &f.model.calls()[1].messages;
    assert!(matches!(second.last(), Some(M::Tool { content, .. }) if content.contains("txt")));
}

// scenario: Concatenated arguments
#[tokio::test]
async fn a_concatenated_tool_call_fails_instead_of_running_truncated() {
    let raw = r#"{"text":"first"}{"text":"second"}"#;
    let f =
        Fixture::new(ScriptedModel::new([Scripted::call("c1", "echo", raw), Scripted::text("ok")]));
    assert_eq!(f.run("echo").await, Ok(StopReason::EndTurn));
    let results = f.tool_results();
    assert!(results[0].2, "{results:?}");
    assert!(!results[0].1.contains("echoed"));
    assert!(results[0].1.contains("expected a single JSON object"));
    assert!(f.events().contains(&Event::ToolUse {
        id: "c1".into(),
        name: "echo".into(),
        input: Value::String(raw.into())
    }));
    // Stored as the model sent them, beside the error, and replayed so: the model's next call
    // sees the call it made next to the error about it.
    let stored: Value = serde_json::from_str(&f.persisted().await[1].content).unwrap();
    assert_eq!(stored["tool_calls"][0]["arguments"], raw);
    let replay = &f.model.calls()[1].messages;
    assert!(replay.iter().any(
        |m| matches!(m, M::Assistant { tool_calls, .. } if tool_calls.first().is_some_and(|c| c.arguments == raw))
    ));
}

#[tokio::test]
async fn trailing_junk_is_healed_before_the_tool_runs() {
    let f = Fixture::new(ScriptedModel::new([
        Scripted::call("c1", "echo", r#"{"text":"hi"}</invoke>"#),
        Scripted::text("ok"),
    ]));
    assert_eq!(f.run("echo").await, Ok(StopReason::EndTurn));
    assert_eq!(f.tool_results()[0], ("echo".into(), r#"{"echoed":"hi"}"#.into(), false));
}

#[tokio::test]
async fn a_failing_tool_does_not_abort_the_turn() {
    let f = Fixture::new(ScriptedModel::new([
        Scripted::call("c1", "fail", "{}"),
        Scripted::text("sorry"),
    ]));
    assert_eq!(f.run("try").await, Ok(StopReason::EndTurn));
    assert_eq!(
        f.tool_results()[0],
        ("fail".into(), r#"{"error":"the backend said no"}"#.into(), true)
    );
    assert_eq!(f.last_result(), Event::result(StopReason::EndTurn));
}

// scenario: Something panics
#[tokio::test]
async fn a_panicking_tool_becomes_a_failed_result() {
    let f = Fixture::new(ScriptedModel::new([
        Scripted::call("c1", "boom", ""),
        Scripted::text("recovered"),
    ]));
    assert_eq!(f.run("try").await, Ok(StopReason::EndTurn));
    let (_, result, failed) = &f.tool_results()[0];
    assert!(*failed && result.contains("tool exploded"), "{result}");
    assert_eq!(f.roles().await, [Role::User, Role::Assistant, Role::Tool, Role::Assistant]);
}

#[tokio::test]
async fn an_unknown_tool_is_answered_with_the_available_ones() {
    let f = Fixture::new(ScriptedModel::new([
        Scripted::call("c1", "serch", "{}"),
        Scripted::text("ok"),
    ]));
    assert_eq!(f.run("try").await, Ok(StopReason::EndTurn));
    let (_, result, failed) = &f.tool_results()[0];
    assert!(
        *failed && result.contains("serch") && result.contains("echo, fail, boom, stop"),
        "{result}"
    );
}

// scenario: Something panics
#[tokio::test]
async fn a_panicking_model_still_ends_with_one_error_result() {
    let f = Fixture::new(ScriptedModel::new([Scripted::Panic("model crashed".into())]));
    let err = f.run("hi").await.unwrap_err();
    assert!(matches!(err, AssistantError::Panicked(ref m) if m.contains("model crashed")));
    assert!(matches!(
        f.last_result(),
        Event::Result { stop_reason: StopReason::Error, is_error: true, message: Some(_) }
    ));
}

// scenario: Model fails
#[tokio::test]
async fn a_model_failure_ends_the_turn_with_an_error_result() {
    let f = Fixture::new(ScriptedModel::new([Scripted::fail("gateway down")]));
    let err = f.run("hi").await.unwrap_err();
    assert_eq!(err, AssistantError::Model(LlmError::Scripted("gateway down".into())));
    assert!(matches!(
        f.last_result(),
        Event::Result { stop_reason: StopReason::Error, is_error: true, message: Some(_) }
    ));
}

// scenario: Prompt write fails
#[tokio::test]
async fn a_failed_prompt_write_still_ends_the_turn() {
    let f = Fixture::new(ScriptedModel::new([Scripted::text("never")]));
    f.store.fail_all_appends.store(true, Ordering::SeqCst);
    assert!(f.run("hi").await.is_err());
    assert!(matches!(
        f.last_result(),
        Event::Result { stop_reason: StopReason::Error, is_error: true, message: Some(_) }
    ));
    assert_eq!(f.model.call_count(), 0);
    assert_eq!(f.events().len(), 1, "no user_prompt for an unrecorded prompt");
}

#[tokio::test]
async fn failing_label_and_touch_are_only_logged() {
    let f = Fixture::new(ScriptedModel::new([Scripted::text("fine")]));
    f.store.fail_bookkeeping.store(true, Ordering::SeqCst);
    assert_eq!(f.run("hi").await, Ok(StopReason::EndTurn));
}

#[tokio::test]
async fn cancellation_stops_before_the_next_model_call() {
    let f = Fixture::new(always_calling());
    let token = f.cancel.clone();
    let model = f.model.clone().on_call(move |_| token.cancel());
    let runner = f.runner.with(Some(Arc::new(model.clone()) as Arc<dyn ChatModel>));
    assert_eq!(runner.run(f.turn(), "go").await, Ok(StopReason::Cancelled));
    assert_eq!(model.call_count(), 1);
    assert!(!f.persisted().await.is_empty());
    assert_eq!(f.last_result(), Event::result(StopReason::Cancelled));
}

// scenario: Cancelled during a slow model call
#[tokio::test]
async fn cancellation_abandons_a_slow_model_call() {
    let f = Fixture::new(ScriptedModel::new([]));
    let slow =
        ScriptedModel::new([Scripted::text("too late")]).with_latency(Duration::from_secs(30));
    let runner = f.runner.with(Some(Arc::new(slow) as Arc<dyn ChatModel>));
    let token = f.cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(50)).await;
        token.cancel();
    });
    let started = std::time::Instant::now();
    assert_eq!(runner.run(f.turn(), "go").await, Ok(StopReason::Cancelled));
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(f.roles().await, [Role::User]);
    assert_eq!(f.last_result(), Event::result(StopReason::Cancelled));
}

#[tokio::test]
async fn a_turn_cancelled_before_it_starts_records_the_prompt_and_stops() {
    let f = Fixture::new(ScriptedModel::new([Scripted::text("no")]));
    f.cancel.cancel();
    assert_eq!(f.run("hi").await, Ok(StopReason::Cancelled));
    assert_eq!(f.model.call_count(), 0);
    assert_eq!(f.roles().await, [Role::User]);
}

#[tokio::test]
async fn a_cancelled_turn_still_persists_what_was_said() {
    let f = Fixture::new(ScriptedModel::new([Scripted::text("partial answer")]));
    let token = f.cancel.clone();
    let model = f.model.clone().on_call(move |_| token.cancel());
    let runner = f.runner.with(Some(Arc::new(model) as Arc<dyn ChatModel>));
    runner.run(f.turn(), "hi").await.unwrap();
    let persisted = f.persisted().await;
    assert_eq!(persisted.len(), 2);
    assert_eq!(persisted[1].role, Role::Assistant);
    assert_eq!(f.results().len(), 1);
}

#[tokio::test]
async fn a_cancelled_tool_round_keeps_its_results() {
    let f = Fixture::new(always_calling());
    let token = f.cancel.clone();
    let model = f.model.clone().on_call(move |_| token.cancel());
    let runner = f.runner.with(Some(Arc::new(model) as Arc<dyn ChatModel>));
    assert_eq!(runner.run(f.turn(), "go").await, Ok(StopReason::Cancelled));
    assert_eq!(f.roles().await, [Role::User, Role::Assistant, Role::Tool]);
}

// scenario: Stop pressed during a round
#[tokio::test]
async fn a_round_always_finishes_even_when_a_tool_presses_stop() {
    let calls = vec![
        ToolCall::new("c1", "stop", "{}"),
        ToolCall::new("c2", "echo", r#"{"text":"after stop"}"#),
    ];
    let f = Fixture::new(ScriptedModel::new([Scripted::calls(calls), Scripted::text("never")]));
    assert_eq!(f.run("go").await, Ok(StopReason::Cancelled));
    let results = f.tool_results();
    assert_eq!(results.len(), 2);
    assert!(!results[0].2);
    assert!(results[1].2 && results[1].1.contains("cancelled"), "not run once Stop was pressed");
    assert_eq!(f.roles().await, [Role::User, Role::Assistant, Role::Tool, Role::Tool]);
    assert_eq!(f.model.call_count(), 1);
}

// scenario: The caller drops the turn future mid-write
#[tokio::test]
async fn writes_survive_a_dropped_turn_future() {
    let f = Fixture::new(ScriptedModel::new([Scripted::text("answer")]));
    *f.store.append_delay.lock().unwrap() = Some(Duration::from_millis(100));
    let turn = f.runner.run(f.turn(), "hi");
    // Drop the turn while the prompt write is in flight.
    let _ = tokio::time::timeout(Duration::from_millis(20), turn).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(f.roles().await, [Role::User], "the detached write landed");
}

#[tokio::test]
async fn history_is_bounded_to_the_most_recent_messages() {
    let f = Fixture::with_config(
        ScriptedModel::new([Scripted::text("ok")]),
        RunnerConfig {
            max_steps: StepLimit::new(3),
            history_limit: HistoryLimit::new(4),
            ..RunnerConfig::default()
        },
    );
    let seeded = (0..10)
        .map(|i| {
            if i % 2 == 0 {
                encode_user(&format!("u{i}"))
            } else {
                encode_assistant(&format!("a{i}"), &[])
            }
        })
        .collect();
    f.seed(seeded).await;
    f.run("latest").await.unwrap();
    let first = &f.model.calls()[0].messages;
    assert_eq!(first.len(), 5);
    assert!(matches!(first[0], M::System(_)));
    assert_eq!(first[4], M::User("latest".into()));
}

#[tokio::test]
async fn history_never_starts_with_an_orphan_tool_result() {
    let f = Fixture::with_config(
        ScriptedModel::new([Scripted::text("ok")]),
        RunnerConfig {
            max_steps: StepLimit::new(3),
            history_limit: HistoryLimit::new(3),
            ..RunnerConfig::default()
        },
    );
    f.seed(vec![
        encode_assistant("", &[ToolCall::new("c1", "echo", r#"{"text":"x"}"#)]),
        encode_tool_result("c1", "echo", r#"{"echoed":"x"}"#),
        encode_assistant("answer", &[]),
    ])
    .await;
    f.run("next").await.unwrap();
    let first = &f.model.calls()[0].messages;
    assert!(matches!(first[0], M::System(_)));
    assert!(!matches!(first[1], M::Tool { .. }), "{first:?}");
}

// scenario: Interrupted turn replayed
#[tokio::test]
async fn history_closes_dangling_tool_calls_before_replay() {
    let f = Fixture::new(ScriptedModel::new([Scripted::text("ok")]));
    f.seed(vec![encode_assistant("", &[ToolCall::new("c1", "echo", "{}")]), encode_user("hello?")])
        .await;
    f.run("again").await.unwrap();
    let first = &f.model.calls()[0].messages;
    assert!(
        first
            .iter()
            .any(|m| matches!(m, M::Assistant { tool_calls, .. } if tool_calls[0].id == "c1"))
    );
    assert!(first.iter().any(|m| matches!(m, M::Tool { call_id, content, .. } if call_id == "c1" && content.contains("interrupted"))));
    assert_eq!(
        f.persisted().await.iter().filter(|m| m.role == Role::Tool).count(),
        0,
        "never persisted"
    );
}

#[tokio::test]
async fn the_first_user_message_labels_the_session() {
    let f = Fixture::new(ScriptedModel::new([Scripted::text("a"), Scripted::text("b")]));
    f.run("find me go jobs").await.unwrap();
    f.run("and rust ones").await.unwrap();
    assert_eq!(
        f.store.inner.label_of(f.session, &crate::support::owner()).as_deref(),
        Some("find me go jobs")
    );
    assert_eq!(f.store.inner.touches(f.session), 2);
}

#[tokio::test]
async fn continue_does_not_record_another_user_prompt() {
    let f =
        Fixture::new(ScriptedModel::new([Scripted::fail("flaky"), Scripted::text("second try")]));
    assert!(f.run("hi").await.is_err());
    assert_eq!(f.roles().await, [Role::User]);
    let log = freehire_assistant::EventLog::new();
    let turn = freehire_assistant::Turn { events: &log, ..f.turn() };
    assert_eq!(f.runner.continue_turn(turn).await, Ok(StopReason::EndTurn));
    let events = log.events();
    assert!(!events.iter().any(|e| matches!(e, Event::UserPrompt { .. })));
    assert_eq!(events.last(), Some(&Event::result(StopReason::EndTurn)));
    assert_eq!(f.roles().await, [Role::User, Role::Assistant]);
}

// scenario: Continue with nothing to continue
#[tokio::test]
async fn continue_with_an_empty_transcript_is_refused() {
    let f = Fixture::new(ScriptedModel::new([Scripted::text("no")]));
    assert_eq!(f.runner.continue_turn(f.turn()).await, Err(AssistantError::NothingToContinue));
    assert!(f.events().is_empty());
    assert_eq!(f.model.call_count(), 0);
}

// scenario: Usage over a turn
#[tokio::test]
async fn usage_is_reported_once_summed_over_every_call() {
    let f = Fixture::new(ScriptedModel::new([
        Scripted::Reply(
            Choice::tool_calls(vec![ToolCall::new("c1", "echo", r#"{"text":"x"}"#)])
                .with_usage(100, 5),
        ),
        Scripted::Reply(Choice::text("done").with_usage(130, 7)),
    ]));
    f.run("go").await.unwrap();
    let events = f.events();
    let usage: Vec<_> = events.iter().filter(|e| matches!(e, Event::Usage { .. })).collect();
    assert_eq!(usage, [&Event::Usage { input_tokens: 230, output_tokens: 12 }]);
    assert_eq!(events[events.len() - 2], Event::Usage { input_tokens: 230, output_tokens: 12 });
}

#[tokio::test]
async fn reasoning_streams_as_thoughts_and_headers_reach_every_call() {
    let mut choice = Choice::text("answer");
    choice.reasoning = "let me think".into();
    let mut f = Fixture::new(ScriptedModel::new([echo_call("c1", "x"), Scripted::Reply(choice)]));
    f.config.headers = vec![("x-bf-dim-preset".into(), "chat".into())];
    f.run("go").await.unwrap();
    assert!(f.events().contains(&Event::AssistantThought { text: "let me think".into() }));
    for call in f.model.calls() {
        assert_eq!(call.headers, [("x-bf-dim-preset".to_owned(), "chat".to_owned())]);
    }
}

#[tokio::test]
async fn the_replayed_turn_is_the_stored_turn() {
    // Within a turn the in-memory history must equal what the next turn rebuilds from the
    // store, or the provider's prompt cache misses.
    let f = Fixture::new(ScriptedModel::new([
        Scripted::call("c1", "echo", "{\"text\" : \"spaced\"}"),
        Scripted::text("done"),
        Scripted::text("next"),
    ]));
    f.run("one").await.unwrap();
    f.run("two").await.unwrap();
    let calls = f.model.calls();
    let in_turn = &calls[1].messages;
    let next_turn = &calls[2].messages;
    assert_eq!(&next_turn[..in_turn.len()], &in_turn[..]);
    let runner: &Runner<Uuid> = &f.runner;
    let rebuilt = runner.history(f.session, &f.owner, "You are a test.").await.unwrap();
    assert_eq!(rebuilt.len(), next_turn.len() + 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_can_be_spawned_and_outlive_its_caller() {
    use freehire_assistant::{EventLog, MemoryStore, Turn};
    use tokio_util::sync::CancellationToken;

    let store = Arc::new(MemoryStore::new());
    let session = store.create_session(crate::support::owner());
    let model = ScriptedModel::new([echo_call("c1", "x"), Scripted::text("spawned")]);
    let runner = Runner::new(Arc::new(model), store.clone(), RunnerConfig::default());
    let log = Arc::new(EventLog::new());
    let events = log.clone();
    let handle = tokio::spawn(async move {
        let cancel = CancellationToken::new();
        let registry = crate::support::registry(&cancel);
        let config = TurnConfig::default();
        let turn = Turn {
            session,
            owner: &crate::support::owner(),
            registry: &registry,
            system: "",
            config: &config,
            cancel: &cancel,
            events: &*events,
        };
        runner.run(turn, "hi").await
    });
    assert_eq!(handle.await.unwrap(), Ok(StopReason::EndTurn));
    assert_eq!(log.events().last(), Some(&Event::result(StopReason::EndTurn)));
    assert_eq!(
        freehire_assistant::TranscriptStore::transcript(&*store, session, &crate::support::owner())
            .await
            .unwrap()
            .len(),
        4
    );
}
