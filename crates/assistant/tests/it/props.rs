//! Property: whatever the model, the tools and the store do, a turn ends with exactly one
//! terminal event (and it is the last), never runs more than the bound plus one wrap-up
//! model call, and never leaves the transcript on an unanswered tool call unless the store
//! refused that very write.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use freehire_assistant::message::{decode, encode_assistant, encode_user};
use freehire_assistant::{AssistantError, Event, Role, RunnerConfig, StopReason, TurnConfig};
use freehire_assistant::{HistoryLimit, StepLimit};
use freehire_llm::{ChatModel, Choice, Message as M, Scripted, ScriptedModel, ToolCall};
use proptest::prelude::*;

use crate::support::Fixture;

#[derive(Debug, Clone)]
enum CallKind {
    Echo,
    Unknown,
    Malformed,
    Concatenated,
    Junk,
    Fail,
    Panic,
    Stop,
}

#[derive(Debug, Clone)]
enum Step {
    Text(String),
    Calls(Vec<CallKind>, Option<String>),
    ModelError,
    ModelPanic,
}

fn call_kind() -> impl Strategy<Value = CallKind> {
    prop_oneof![
        4 => Just(CallKind::Echo),
        1 => Just(CallKind::Unknown),
        1 => Just(CallKind::Malformed),
        1 => Just(CallKind::Concatenated),
        1 => Just(CallKind::Junk),
        1 => Just(CallKind::Fail),
        1 => Just(CallKind::Panic),
        1 => Just(CallKind::Stop),
    ]
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => prop_oneof![Just(String::new()), Just("  ".to_owned()), "[a-z ]{1,12}"].prop_map(Step::Text),
        6 => (prop::collection::vec(call_kind(), 1..4), proptest::option::of("[a-z]{0,6}"))
            .prop_map(|(k, t)| Step::Calls(k, t)),
        1 => Just(Step::ModelError),
        1 => Just(Step::ModelPanic),
    ]
}

#[derive(Debug, Clone)]
struct Case {
    script: Vec<Step>,
    runner_steps: i64,
    turn_steps: i64,
    failing_inserts: HashSet<usize>,
    fail_all: bool,
    cancel_at_call: Option<usize>,
    cancel_before: bool,
    seed_dangling: bool,
    use_continue: bool,
}

prop_compose! {
    fn case()(
        script in prop::collection::vec(step(), 0..12),
        runner_steps in -1i64..5,
        turn_steps in -2i64..7,
        failing_inserts in prop::collection::hash_set(0usize..30, 0..3),
        fail_all in prop::bool::weighted(0.05),
        cancel_at_call in proptest::option::of(0usize..8),
        cancel_before in prop::bool::weighted(0.05),
        seed_dangling in prop::bool::weighted(0.2),
        use_continue in prop::bool::weighted(0.2),
    ) -> Case {
        Case {
            script,
            runner_steps,
            turn_steps,
            failing_inserts,
            fail_all,
            cancel_at_call,
            cancel_before,
            seed_dangling,
            use_continue,
        }
    }
}

fn scripted(steps: &[Step]) -> Vec<Scripted> {
    steps
        .iter()
        .enumerate()
        .map(|(i, s)| match s {
            Step::Text(t) => Scripted::text(t.clone()),
            Step::ModelError => Scripted::fail("provider hiccup"),
            Step::ModelPanic => Scripted::Panic("model adapter bug".into()),
            Step::Calls(kinds, text) => {
                let calls = kinds
                    .iter()
                    .enumerate()
                    .map(|(j, k)| {
                        let id = format!("c{i}_{j}");
                        let (name, args) = match k {
                            CallKind::Echo => ("echo", r#"{"text":"hi"}"#),
                            CallKind::Unknown => ("no_such_tool", "{}"),
                            CallKind::Malformed => ("echo", r#"{"txt": 1"#),
                            CallKind::Concatenated => ("echo", r#"{"text":"a"}{"text":"b"}"#),
                            CallKind::Junk => ("echo", r#"{"text":"a"}</invoke>"#),
                            CallKind::Fail => ("fail", ""),
                            CallKind::Panic => ("boom", "{}"),
                            CallKind::Stop => ("stop", "null"),
                        };
                        ToolCall::new(id, name, args)
                    })
                    .collect();
                let mut choice = Choice::tool_calls(calls);
                choice.content = text.clone().unwrap_or_default();
                Scripted::Reply(choice)
            }
        })
        .collect()
}

/// The ids of tool calls in `msgs` that no tool message right after their assistant message
/// answers.
fn unanswered(msgs: &[freehire_assistant::Message]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, m) in msgs.iter().enumerate() {
        let Ok(M::Assistant { tool_calls, .. }) = decode(m) else { continue };
        let answered: Vec<String> = msgs[i + 1..]
            .iter()
            .take_while(|n| n.role == Role::Tool)
            .filter_map(|n| match decode(n) {
                Ok(M::Tool { call_id, .. }) => Some(call_id),
                _ => None,
            })
            .collect();
        out.extend(
            tool_calls
                .into_iter()
                .map(|c| c.id)
                .filter(|id| !id.is_empty() && !answered.contains(id)),
        );
    }
    out
}

async fn check(case: Case) -> Result<(), TestCaseError> {
    let model =
        ScriptedModel::new(scripted(&case.script)).with_fallback(Scripted::text("fallback"));
    let mut f = Fixture::with_config(
        model.clone(),
        RunnerConfig {
            max_steps: StepLimit::new(case.runner_steps),
            history_limit: HistoryLimit::new(50),
            ..RunnerConfig::default()
        },
    );
    f.config =
        TurnConfig { max_steps: StepLimit::positive(case.turn_steps), ..TurnConfig::default() };
    let mut seeded_dangling = Vec::new();
    if case.seed_dangling {
        f.seed(vec![
            encode_user("earlier"),
            encode_assistant("", &[ToolCall::new("old", "echo", "{}")]),
        ])
        .await;
        seeded_dangling.push("old".to_owned());
    }
    let before = f.store.inserts.load(Ordering::SeqCst);
    *f.store.fail_appends_at.lock().unwrap() =
        case.failing_inserts.iter().map(|n| n + before).collect();
    f.store.fail_all_appends.store(case.fail_all, Ordering::SeqCst);
    let token = f.cancel.clone();
    let cancel_at = case.cancel_at_call;
    let model = model.on_call(move |n| {
        if Some(n) == cancel_at {
            token.cancel();
        }
    });
    let runner = f.runner.with(Some(Arc::new(model.clone()) as Arc<dyn ChatModel>));
    if case.cancel_before {
        f.cancel.cancel();
    }
    let outcome = if case.use_continue {
        runner.continue_turn(f.turn()).await
    } else {
        runner.run(f.turn(), "go").await
    };

    let events = f.events();
    if outcome == Err(AssistantError::NothingToContinue) {
        prop_assert!(case.use_continue && !case.seed_dangling);
        prop_assert!(events.is_empty());
        return Ok(());
    }
    // Exactly one terminal event, and it is the last.
    let terminals = events.iter().filter(|e| e.is_terminal()).count();
    prop_assert_eq!(terminals, 1, "events: {:?}", events);
    let last = events.last().cloned().unwrap();
    match &outcome {
        Ok(reason) => prop_assert_eq!(last, Event::result(*reason)),
        Err(e) => prop_assert_eq!(last, Event::failed(e.public_message())),
    }
    // The bound: at most max_steps calls with tools plus one wrap-up without.
    let bound = if case.turn_steps > 0 {
        case.turn_steps
    } else if case.runner_steps > 0 {
        case.runner_steps
    } else {
        8
    };
    let calls = model.calls();
    prop_assert!(calls.len() as i64 <= bound + 1, "{} calls for bound {}", calls.len(), bound);
    prop_assert!(calls.iter().filter(|c| !c.tools.is_empty()).count() as i64 <= bound);
    if outcome == Ok(StopReason::MaxSteps) {
        prop_assert!(calls.last().unwrap().tools.is_empty());
    }
    // The transcript: every call answered unless the store refused writes.
    let persisted = f.persisted().await;
    let failed_writes = case.fail_all
        || f.store.inserts.load(Ordering::SeqCst) > before
            && case
                .failing_inserts
                .iter()
                .any(|n| n + before < f.store.inserts.load(Ordering::SeqCst));
    let open: Vec<String> =
        unanswered(&persisted).into_iter().filter(|id| !seeded_dangling.contains(id)).collect();
    if !failed_writes {
        prop_assert!(open.is_empty(), "unanswered {:?} in {:?}", open, persisted);
    }
    // Replay always closes what is open.
    let history = runner.history(f.session, &f.owner, "").await.unwrap();
    for (i, m) in history.iter().enumerate() {
        if let M::Assistant { tool_calls, .. } = m {
            for c in tool_calls {
                let answered = history[i + 1..]
                    .iter()
                    .take_while(|n| matches!(n, M::Tool { .. }))
                    .any(|n| matches!(n, M::Tool { call_id, .. } if *call_id == c.id));
                prop_assert!(answered, "replayed call {} unanswered", c.id);
            }
        }
    }
    // A turn that was cancelled before any model call never called the model.
    if case.cancel_before {
        prop_assert!(calls.is_empty());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_turn_ends_once_within_its_bound_and_answers_its_calls(case in case()) {
        let rt = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
        rt.block_on(check(case))?;
    }
}
