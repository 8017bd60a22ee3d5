//! The runner's hardening (issue 15, item 11): deadlines and Stop against a hung tool or
//! store, a panicking sink, streamed text kept on cancellation and failure, the owner check,
//! lost writes, arguments that are not JSON, nameless and surplus calls, unique call ids and
//! blank answers left out of the replay.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use freehire_assistant::message::encode_user;
use freehire_assistant::{
    AssistantError, EMPTY_REPLY_NOTE, Event, EventSink, LOST_RESULT, Role, RunnerConfig,
    StopReason, ToolCallLimit, Turn,
};
use freehire_assistant::{HistoryLimit, StepLimit};
use freehire_llm::{
    ChatModel, ChatRequest, Choice, LlmError, Message as M, Scripted, ScriptedModel, ToolCall,
};
use freehire_tools::{NoArgs, Registry, Tool, from_fn};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::support::Fixture;

fn echo_call(id: &str, text: &str) -> ToolCall {
    ToolCall::new(id, "echo", json!({ "text": text }).to_string())
}

/// A tool that never returns (a backend that hangs).
fn hang() -> Arc<dyn Tool<Uuid>> {
    Arc::new(from_fn("hang", "Never answers.", |_ctx, _, _: NoArgs| async {
        std::future::pending::<()>().await;
        Ok::<_, String>(Value::Null)
    }))
}

/// `turn`'s outcome, failing the test when it takes more than 3 s after Stop was pressed.
async fn promptly<T>(turn: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(3), turn).await.expect("Stop ended the turn promptly")
}

fn cancel_after(f: &Fixture, after: Duration) {
    let token = f.cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(after).await;
        token.cancel();
    });
}

// scenario: A tool that never returns
#[tokio::test]
async fn stop_ends_a_turn_whose_tool_never_returns() {
    let mut f = Fixture::new(ScriptedModel::new([Scripted::call("c1", "hang", "{}")]));
    f.registry = Registry::new([hang()]);
    cancel_after(&f, Duration::from_millis(50));
    assert_eq!(promptly(f.run("go")).await, Ok(StopReason::Cancelled));
    let (name, result, failed) = f.tool_results().remove(0);
    assert!(name == "hang" && failed && result.contains("cancelled"), "{result}");
    assert_eq!(f.roles().await, [Role::User, Role::Assistant, Role::Tool]);
    assert_eq!(f.last_result(), Event::result(StopReason::Cancelled));
}

// scenario: A tool that never returns
#[tokio::test]
async fn a_tool_past_its_deadline_fails_and_the_turn_goes_on() {
    let mut f = Fixture::new(ScriptedModel::new([
        Scripted::call("c1", "hang", "{}"),
        Scripted::text("It timed out."),
    ]));
    f.registry = Registry::new([hang()]).with_call_timeout(Duration::from_millis(100));
    assert_eq!(f.run("go").await, Ok(StopReason::EndTurn));
    let (_, result, failed) = f.tool_results().remove(0);
    assert!(failed && result.contains(r#"tool \"hang\""#) && result.contains("100 ms"), "{result}");
}

// scenario: A store read that never returns
#[tokio::test]
async fn stop_ends_a_turn_whose_store_read_never_returns() {
    let f = Fixture::new(ScriptedModel::new([Scripted::text("never")]));
    f.store.hang_reads.store(true, Ordering::SeqCst);
    cancel_after(&f, Duration::from_millis(50));
    assert_eq!(promptly(f.run("go")).await, Ok(StopReason::Cancelled));
    assert_eq!(f.model.call_count(), 0);
    assert_eq!(f.last_result(), Event::result(StopReason::Cancelled));

    // continue reads the whole transcript first: Stop ends that read too.
    let log = freehire_assistant::EventLog::new();
    let cancel = tokio_util::sync::CancellationToken::new();
    let stopper = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(50)).await;
        stopper.cancel();
    });
    let turn = Turn { events: &log, cancel: &cancel, ..f.turn() };
    assert_eq!(promptly(f.runner.continue_turn(turn)).await, Ok(StopReason::Cancelled));
    assert_eq!(log.events(), [Event::result(StopReason::Cancelled)]);
}

// scenario: A store read that never returns
#[tokio::test]
async fn a_store_read_that_never_returns_ends_the_turn_at_its_deadline() {
    let f = Fixture::new(ScriptedModel::new([Scripted::text("never")]));
    f.store.hang_reads.store(true, Ordering::SeqCst);
    let started = Instant::now();
    assert_eq!(f.run("go").await, Err(AssistantError::StoreTimeout));
    let took = started.elapsed();
    assert!(took >= freehire_assistant::READ_TIMEOUT && took < Duration::from_secs(9), "{took:?}");
    assert!(f.failure().is_some_and(|m| m.contains("could not be read or saved")));
    assert_eq!(f.model.call_count(), 0);
}

/// A sink that panics on the first `user_prompt` and on the first `result` it is given.
#[derive(Default)]
struct Grumpy {
    seen: Mutex<Vec<Event>>,
    panicked_on_result: Mutex<bool>,
}

impl EventSink for Grumpy {
    fn emit(&self, event: Event) {
        if matches!(event, Event::UserPrompt { .. }) {
            panic!("the client went away badly");
        }
        if event.is_terminal() {
            let first = !std::mem::replace(&mut *self.panicked_on_result.lock().unwrap(), true);
            if first {
                panic!("and again");
            }
        }
        self.seen.lock().unwrap().push(event);
    }
}

// scenario: The sink panics
#[tokio::test]
async fn the_result_is_produced_even_when_the_sink_panics_in_the_body_and_on_the_result() {
    let f = Fixture::new(ScriptedModel::new([Scripted::text("hello")]));
    let sink = Grumpy::default();
    let turn = Turn { events: &sink, ..f.turn() };
    let outcome = f.runner.run(turn, "hi").await;
    assert!(matches!(outcome, Err(AssistantError::Panicked(ref m)) if m.contains("went away")));
    let seen = sink.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert!(matches!(
        &seen[0],
        Event::Result { stop_reason: StopReason::Error, message: Some(_), .. }
    ));
}

/// How a [`Streams`] call ends after its text.
#[derive(Clone, Copy)]
enum End {
    Hang,
    Fail,
    Panic,
}

/// Streams `parts`, then ends as `end` says.
struct Streams {
    parts: Vec<&'static str>,
    end: End,
}

#[async_trait]
impl ChatModel for Streams {
    async fn chat(&self, request: ChatRequest<'_>) -> Result<Choice, LlmError> {
        if let Some(sink) = request.stream {
            for part in &self.parts {
                sink.on_text(part);
            }
        }
        match self.end {
            End::Fail => Err(LlmError::stream_cut("the connection dropped")),
            End::Panic => panic!("the decoder crashed"),
            End::Hang => {
                std::future::pending::<()>().await;
                Ok(Choice::text("never"))
            }
        }
    }
}

fn with_model(f: &Fixture, model: Streams) -> freehire_assistant::Runner<Uuid> {
    f.runner.with(Some(Arc::new(model) as Arc<dyn ChatModel>))
}

// scenario: Streamed text kept
#[tokio::test]
async fn streamed_text_is_kept_when_the_turn_is_cancelled() {
    let f = Fixture::new(ScriptedModel::new([]));
    let runner = with_model(&f, Streams { parts: vec!["Here are ", "three jobs"], end: End::Hang });
    cancel_after(&f, Duration::from_millis(50));
    assert_eq!(runner.run(f.turn(), "go").await, Ok(StopReason::Cancelled));
    let persisted = f.persisted().await;
    assert_eq!(persisted.len(), 2);
    assert_eq!(persisted[1].role, Role::Assistant);
    assert_eq!(persisted[1].content, r#"{"text":"Here are three jobs"}"#);
    assert_eq!(f.last_result(), Event::result(StopReason::Cancelled));
}

// scenario: Streamed text kept
#[tokio::test]
async fn streamed_text_is_kept_when_the_stream_fails_mid_way() {
    let f = Fixture::new(ScriptedModel::new([]));
    let runner = with_model(&f, Streams { parts: vec!["Half an ", "answer"], end: End::Fail });
    assert!(matches!(runner.run(f.turn(), "go").await, Err(AssistantError::Model(_))));
    let persisted = f.persisted().await;
    assert_eq!(persisted.len(), 2);
    assert_eq!(persisted[1].content, r#"{"text":"Half an answer"}"#);
    assert!(f.failure().is_some());

    let f = Fixture::new(ScriptedModel::new([]));
    let runner = with_model(&f, Streams { parts: vec!["Before the crash"], end: End::Panic });
    assert!(matches!(runner.run(f.turn(), "go").await, Err(AssistantError::Panicked(_))));
    assert_eq!(f.persisted().await[1].content, r#"{"text":"Before the crash"}"#);
    assert!(f.failure().is_some());

    // Nothing streamed: nothing extra is stored.
    let f = Fixture::new(ScriptedModel::new([]));
    let runner = with_model(&f, Streams { parts: vec![], end: End::Fail });
    assert!(runner.run(f.turn(), "go").await.is_err());
    assert_eq!(f.roles().await, [Role::User]);
}

// scenario: Someone else's session
#[tokio::test]
async fn a_turn_for_someone_who_does_not_own_the_session_is_not_found_before_any_write() {
    let f = Fixture::new(ScriptedModel::new([Scripted::text("no")]));
    let stranger = Uuid::from_u128(7);
    let turn = Turn { owner: &stranger, ..f.turn() };
    assert_eq!(f.runner.run(turn, "hi").await, Err(AssistantError::NotFound));
    assert!(f.failure().is_some_and(|m| m.contains("not found")), "{:?}", f.events());
    assert!(f.persisted().await.is_empty());
    assert_eq!(f.store.inner.touches(f.session), 0);
    assert_eq!(f.store.inner.label_of(f.session, &f.owner), None);
    assert_eq!(f.model.call_count(), 0);

    f.seed(vec![encode_user("an earlier prompt")]).await;
    let log = freehire_assistant::EventLog::new();
    let turn = Turn { owner: &stranger, events: &log, ..f.turn() };
    assert_eq!(f.runner.continue_turn(turn).await, Err(AssistantError::NotFound));
    let events = log.events();
    assert_eq!(events.len(), 1);
    assert!(
        matches!(&events[0], Event::Result { stop_reason: StopReason::Error, message: Some(m), .. } if m.contains("not found"))
    );
    assert_eq!(f.persisted().await.len(), 1);
    assert_eq!(f.store.inner.touches(f.session), 0);
    assert_eq!(f.model.call_count(), 0);
}

// scenario: A tool result cannot be saved
#[tokio::test]
async fn a_lost_tool_result_ends_the_turn_and_is_never_replayed_as_an_interruption() {
    let f = Fixture::new(ScriptedModel::new([
        Scripted::calls(vec![echo_call("c1", "x"), echo_call("c2", "y")]),
        Scripted::text("never asked"),
        Scripted::text("next turn"),
    ]));
    // Writes: 0 the prompt, 1 the assistant's calls, 2 the first result (fails), 3 its marker.
    f.store.fail_appends_at.lock().unwrap().insert(2);
    let err = f.run("go").await.unwrap_err();
    assert!(matches!(err, AssistantError::WriteLost { .. }), "{err:?}");
    let message = f.failure().unwrap();
    assert!(message.starts_with("the result of tool echo could not be saved"), "{message}");
    assert_eq!(f.model.call_count(), 1, "no later model call depends on the lost result");
    assert_eq!(f.tool_results().len(), 1, "the round stopped at the lost write");
    let persisted = f.persisted().await;
    assert_eq!(
        persisted.iter().map(|m| m.role).collect::<Vec<_>>(),
        [Role::User, Role::Assistant, Role::Tool]
    );
    assert!(persisted[2].content.contains("could not be saved"));

    f.run("again").await.unwrap();
    let replay = &f.model.calls()[1].messages;
    let c1 = replay.iter().find_map(|m| match m {
        M::Tool { call_id, content, .. } if call_id == "c1" => Some(content.clone()),
        _ => None,
    });
    assert_eq!(c1.as_deref(), Some(LOST_RESULT), "the stored marker, not an invented interruption");
}

// scenario: An assistant message cannot be saved
#[tokio::test]
async fn a_lost_assistant_message_stops_the_turn_before_its_tools_run() {
    let f = Fixture::new(ScriptedModel::new([Scripted::calls(vec![echo_call("c1", "x")])]));
    f.store.fail_appends_at.lock().unwrap().insert(1);
    assert!(matches!(f.run("go").await, Err(AssistantError::WriteLost { .. })));
    assert!(f.failure().unwrap().starts_with("the assistant's tool calls could not be saved"));
    assert!(!f.events().iter().any(|e| matches!(e, Event::ToolUse { .. })));
    assert_eq!(f.roles().await, [Role::User]);

    // A final answer that cannot be saved is reported too.
    let f = Fixture::new(ScriptedModel::new([Scripted::text("the answer")]));
    f.store.fail_appends_at.lock().unwrap().insert(1);
    assert!(f.run("go").await.is_err());
    assert!(f.failure().unwrap().starts_with("the assistant's reply could not be saved"));
}

// scenario: Arguments that are not JSON
#[tokio::test]
async fn arguments_that_are_not_json_fail_the_call_and_blank_ones_mean_no_fields() {
    let f = Fixture::new(ScriptedModel::new([
        Scripted::calls(vec![
            ToolCall::new("c1", "echo", "say hello"),
            ToolCall::new("c2", "fail", "  "),
        ]),
        Scripted::text("ok"),
    ]));
    assert_eq!(f.run("go").await, Ok(StopReason::EndTurn));
    let results = f.tool_results();
    assert!(results[0].2 && results[0].1.contains("not JSON"), "{results:?}");
    assert_eq!(results[1].1, r#"{"error":"the backend said no"}"#, "blank arguments ran the tool");
    let stored: Value = serde_json::from_str(&f.persisted().await[1].content).unwrap();
    assert_eq!(stored["tool_calls"][0]["arguments"], "{}");
    assert_eq!(stored["tool_calls"][1]["arguments"], "{}");
}

// scenario: Too many calls in one reply
#[tokio::test]
async fn a_reply_with_too_many_calls_runs_the_first_and_answers_the_rest() {
    let calls: Vec<ToolCall> =
        (0..4).map(|i| echo_call(&format!("c{i}"), &i.to_string())).collect();
    let f = Fixture::with_config(
        ScriptedModel::new([Scripted::calls(calls), Scripted::text("done")]),
        RunnerConfig {
            max_steps: StepLimit::new(3),
            history_limit: HistoryLimit::new(50),
            max_tool_calls: ToolCallLimit::new(2),
        },
    );
    assert_eq!(RunnerConfig::default().max_tool_calls.get(), 16);
    assert_eq!(f.run("go").await, Ok(StopReason::EndTurn));
    let results = f.tool_results();
    assert_eq!(results.len(), 4);
    assert!(!results[0].2 && !results[1].2);
    assert!(results[2].2 && results[2].1.contains("too many tool calls"), "{results:?}");
    assert!(results[3].2);
    assert_eq!(f.roles().await.iter().filter(|r| **r == Role::Tool).count(), 4);
}

// scenario: A call without a name
#[tokio::test]
async fn a_call_without_a_name_is_answered_with_the_offered_tools() {
    let f = Fixture::new(ScriptedModel::new([
        Scripted::calls(vec![ToolCall::new("c1", "", "{}")]),
        Scripted::text("ok"),
    ]));
    assert_eq!(f.run("go").await, Ok(StopReason::EndTurn));
    let results = f.tool_results();
    assert!(results[0].2 && results[0].1.contains("echo, fail, boom, stop"), "{results:?}");
    assert!(f.events().contains(&Event::ToolUse {
        id: "c1".into(),
        name: String::new(),
        input: json!({})
    }));
    assert_eq!(f.roles().await, [Role::User, Role::Assistant, Role::Tool, Role::Assistant]);
    let second = &f.model.calls()[1].messages;
    assert!(matches!(second.last(), Some(M::Tool { call_id, .. }) if call_id == "c1"));
}

// scenario: Duplicate and empty call ids
#[tokio::test]
async fn duplicate_and_empty_call_ids_are_made_unique_before_they_are_stored_or_replayed() {
    let f = Fixture::new(ScriptedModel::new([
        Scripted::calls(vec![
            echo_call("", "a"),
            echo_call("", "b"),
            echo_call("d", "c"),
            echo_call("d", "e"),
        ]),
        Scripted::calls(vec![echo_call("d", "f")]),
        Scripted::text("ok"),
    ]));
    assert_eq!(f.run("go").await, Ok(StopReason::EndTurn));
    let ids: Vec<String> = f
        .events()
        .into_iter()
        .filter_map(|e| match e {
            Event::ToolResult { id, .. } => Some(id),
            _ => None,
        })
        .collect();
    assert_eq!(ids, ["call_1", "call_2", "d", "d_2", "d_3"]);
    let stored: Value = serde_json::from_str(&f.persisted().await[1].content).unwrap();
    let stored_ids: Vec<&str> = stored["tool_calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(stored_ids, ["call_1", "call_2", "d", "d_2"]);
    let replay = &f.model.calls()[2].messages;
    let answered: Vec<&str> = replay
        .iter()
        .filter_map(|m| match m {
            M::Tool { call_id, .. } => Some(call_id.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(answered, ["call_1", "call_2", "d", "d_2", "d_3"]);
}

// scenario: Blank answer
#[tokio::test]
async fn a_blank_answer_is_not_replayed_but_its_note_is() {
    let f = Fixture::new(ScriptedModel::new([Scripted::text(" "), Scripted::text("ok")]));
    f.run("hm").await.unwrap();
    assert!(f.events().contains(&Event::Note { text: EMPTY_REPLY_NOTE.into() }));
    f.run("again").await.unwrap();
    let replay = &f.model.calls()[1].messages;
    let assistants: Vec<&M> = replay.iter().filter(|m| matches!(m, M::Assistant { .. })).collect();
    assert_eq!(assistants, [&M::Assistant { text: EMPTY_REPLY_NOTE.into(), tool_calls: vec![] }]);
}
