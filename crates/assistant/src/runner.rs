//! The turn runner (reference §6): a bounded tool-calling loop that always ends with exactly
//! one `result` event.

use std::collections::HashSet;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use freehire_llm::{
    Cause, ChatModel, ChatRequest, Choice, Message as ModelMessage, StreamSink, ToolCall, ToolSpec,
    Usage,
};
use freehire_tools::repair::{arguments_for_run, valid_json};
use freehire_tools::{CallContext, CallResult, Owner, Registry, panic_message};
use futures::FutureExt;
use tokio_util::sync::CancellationToken;

use crate::history;
use crate::message::{Role, decode_content, encode_assistant, encode_tool_result, encode_user};
use crate::{
    AssistantError, Event, EventSink, HistoryLimit, Message, NewMessage, SessionId, StepLimit,
    StopReason, ToolCallLimit, TranscriptStore,
};

/// The deadline of every transcript write, which runs detached from the turn's cancellation.
pub const PERSIST_TIMEOUT: Duration = Duration::from_secs(5);
/// The deadline of every transcript read inside a turn (the history, `continue`'s whole
/// transcript); a read is also abandoned as soon as the turn is cancelled.
pub const READ_TIMEOUT: Duration = Duration::from_secs(5);
/// The result stored in place of a tool result whose own write failed (a second, small write:
/// the replay then says what happened instead of inventing an interruption).
pub const LOST_RESULT: &str = r#"{"error":"this call ran, but its result could not be saved; check its effect before calling it again"}"#;
/// The note persisted and shown when the model answers with nothing.
pub const EMPTY_REPLY_NOTE: &str =
    "I didn't have anything to add there. Could you rephrase, or ask me to continue?";
/// The note persisted and shown when the step cap cut the turn and the wrap-up said nothing.
pub const STEP_LIMIT_NOTE: &str = "I hit the step limit for this turn before finishing. Send another message and I will continue.";
/// The longest session label taken from a prompt, in characters (our choice).
pub const LABEL_MAX_CHARS: usize = 200;

/// The runner's bounds (see [`StepLimit`], [`HistoryLimit`] and [`ToolCallLimit`] for the
/// defaults).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunnerConfig {
    /// Model calls with tools per turn before the wrap-up.
    pub max_steps: StepLimit,
    /// Transcript messages replayed.
    pub history_limit: HistoryLimit,
    /// Tool calls run per model reply (default 16); the rest of a longer reply are answered
    /// with a failed result without running.
    pub max_tool_calls: ToolCallLimit,
}

/// Per-turn settings chosen by the server, never by the client.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TurnConfig {
    /// Replaces the runner's step cap for this turn when set.
    pub max_steps: Option<StepLimit>,
    /// Extra headers sent with every model call of the turn (e.g. `x-bf-dim-preset`).
    pub headers: Vec<(String, String)>,
}

/// Everything one turn runs against, for a session owned by an `O`.
pub struct Turn<'a, O: Owner> {
    /// The session.
    pub session: SessionId,
    /// The session's owner; every tool and every store bookkeeping call receives it.
    pub owner: &'a O,
    /// The tools this session may call.
    pub registry: &'a Registry<O>,
    /// The system prompt (never stored); empty for none.
    pub system: &'a str,
    /// Per-turn settings.
    pub config: &'a TurnConfig,
    /// Cancels the turn (Stop): a model call, a tool call or a store read in flight is
    /// abandoned at once; every call of the current round still gets a (cancelled) result.
    pub cancel: &'a CancellationToken,
    /// Where events go.
    pub events: &'a dyn EventSink,
}

impl<O: Owner> Clone for Turn<'_, O> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<O: Owner> Copy for Turn<'_, O> {}

/// Runs turns of sessions owned by an `O`. Cheap to clone.
pub struct Runner<O: Owner> {
    model: Arc<dyn ChatModel>,
    store: Arc<dyn TranscriptStore<O>>,
    max_steps: StepLimit,
    history_limit: HistoryLimit,
    max_tool_calls: ToolCallLimit,
}

impl<O: Owner> Clone for Runner<O> {
    fn clone(&self) -> Self {
        Self {
            model: self.model.clone(),
            store: self.store.clone(),
            max_steps: self.max_steps,
            history_limit: self.history_limit,
            max_tool_calls: self.max_tool_calls,
        }
    }
}

impl<O: Owner> std::fmt::Debug for Runner<O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runner")
            .field("max_steps", &self.max_steps)
            .field("history_limit", &self.history_limit)
            .field("max_tool_calls", &self.max_tool_calls)
            .finish_non_exhaustive()
    }
}

/// Streams model deltas out as events and keeps the text of the current call, so what the
/// user already saw is persisted when the call is cancelled or fails.
struct Deltas<'a> {
    events: &'a dyn EventSink,
    text: Mutex<String>,
}

impl StreamSink for Deltas<'_> {
    fn on_text(&self, delta: &str) {
        self.text.lock().unwrap_or_else(PoisonError::into_inner).push_str(delta);
        self.events.emit(Event::AssistantText { text: delta.to_owned() });
    }
    fn on_thinking(&self, delta: &str) {
        self.events.emit(Event::AssistantThought { text: delta.to_owned() });
    }
}

/// What a turn accumulates across its model calls.
#[derive(Default)]
struct Tally {
    usage: Mutex<Option<Usage>>,
}

impl Tally {
    fn add(&self, usage: Option<Usage>) {
        if let Some(u) = usage {
            let mut sum = self.usage.lock().unwrap_or_else(PoisonError::into_inner);
            let total = sum.get_or_insert_with(Usage::default);
            total.input_tokens = total.input_tokens.saturating_add(u.input_tokens);
            total.output_tokens = total.output_tokens.saturating_add(u.output_tokens);
        }
    }

    fn total(&self) -> Option<Usage> {
        *self.usage.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl<O: Owner> Runner<O> {
    /// A runner over `model` and `store` with `config`'s bounds.
    pub fn new(
        model: Arc<dyn ChatModel>,
        store: Arc<dyn TranscriptStore<O>>,
        config: RunnerConfig,
    ) -> Self {
        Self {
            model,
            store,
            max_steps: config.max_steps,
            history_limit: config.history_limit,
            max_tool_calls: config.max_tool_calls,
        }
    }

    /// The same runner (bounds and store) over another model, e.g. one bound to the caller's
    /// own gateway key. `None` returns the runner unchanged.
    #[must_use]
    pub fn with(&self, model: Option<Arc<dyn ChatModel>>) -> Self {
        match model {
            Some(model) => Self { model, ..self.clone() },
            None => self.clone(),
        }
    }

    /// The runner's step cap.
    pub fn max_steps(&self) -> StepLimit {
        self.max_steps
    }

    /// The runner's history limit.
    pub fn history_limit(&self) -> HistoryLimit {
        self.history_limit
    }

    /// The most tool calls run per model reply.
    pub fn max_tool_calls(&self) -> ToolCallLimit {
        self.max_tool_calls
    }

    /// True when both runners share one store.
    pub fn same_store(&self, other: &Runner<O>) -> bool {
        Arc::ptr_eq(&self.store, &other.store)
    }

    /// Records `prompt` as a user message, then runs the loop. Ends with exactly one `result`
    /// event on every path, including a failed prompt write (the model is then never called).
    pub async fn run(&self, turn: Turn<'_, O>, prompt: &str) -> Result<StopReason, AssistantError> {
        let tally = Tally::default();
        self.guarded(turn, &tally, async {
            self.record_prompt(turn, prompt).await?;
            self.run_from_history(turn, &tally).await
        })
        .await
    }

    /// Runs the loop again on the stored transcript without a new prompt (retry). Fails with
    /// [`AssistantError::NothingToContinue`], and emits nothing, when the transcript has no
    /// user message.
    pub async fn continue_turn(&self, turn: Turn<'_, O>) -> Result<StopReason, AssistantError> {
        let tally = Tally::default();
        self.guarded(turn, &tally, async {
            let (store, session, owner) = (self.store.clone(), turn.session, turn.owner);
            let Some(all) = read(turn, store.transcript(session, owner)).await? else {
                return Ok(StopReason::Cancelled);
            };
            if !all.iter().any(|m| m.role == Role::User) {
                return Err(AssistantError::NothingToContinue);
            }
            self.touch(turn).await;
            self.run_from_history(turn, &tally).await
        })
        .await
    }

    /// Runs `body`, catching a panic, and emits the summed usage and the one terminal event
    /// for its outcome; both emits are guarded against a panicking sink.
    async fn guarded(
        &self,
        turn: Turn<'_, O>,
        tally: &Tally,
        body: impl Future<Output = Result<StopReason, AssistantError>>,
    ) -> Result<StopReason, AssistantError> {
        let outcome = match AssertUnwindSafe(body).catch_unwind().await {
            Ok(outcome) => outcome,
            Err(panic) => Err(AssistantError::Panicked(
                panic_message(panic.as_ref()).unwrap_or("panic").to_owned(),
            )),
        };
        if matches!(outcome, Err(AssistantError::NothingToContinue)) {
            return outcome;
        }
        if let Some(u) = tally.total() {
            emit_guarded(
                turn,
                Event::Usage { input_tokens: u.input_tokens, output_tokens: u.output_tokens },
            );
        }
        match &outcome {
            Ok(reason) => emit_guarded(turn, Event::result(*reason)),
            Err(e) => {
                tracing::warn!(session = %turn.session, error = %e, "assistant turn failed");
                emit_guarded(turn, Event::failed(e.public_message()));
            }
        }
        outcome
    }

    async fn record_prompt(&self, turn: Turn<'_, O>, prompt: &str) -> Result<(), AssistantError> {
        self.persist(turn, encode_user(prompt)).await?;
        let label: String = prompt.trim().chars().take(LABEL_MAX_CHARS).collect();
        let (store, session, owner) = (self.store.clone(), turn.session, turn.owner.clone());
        let stamped = detached(async move { store.label_and_touch(session, &owner, &label).await });
        if let Err(e) = stamped.await {
            tracing::warn!(%session, error = %e, "labelling or touching the session failed");
        }
        turn.events.emit(Event::UserPrompt { text: prompt.to_owned() });
        Ok(())
    }

    async fn touch(&self, turn: Turn<'_, O>) {
        let (store, session, owner) = (self.store.clone(), turn.session, turn.owner.clone());
        if let Err(e) = detached(async move { store.touch(session, &owner).await }).await {
            tracing::warn!(%session, error = %e, "touching the session failed");
        }
    }

    /// Appends on a task of its own with its own deadline: the write survives the turn being
    /// cancelled or its future being dropped.
    async fn persist(&self, turn: Turn<'_, O>, msg: NewMessage) -> Result<Message, AssistantError> {
        let (store, session, owner) = (self.store.clone(), turn.session, turn.owner.clone());
        detached(async move { store.append(session, &owner, &msg).await }).await
    }

    /// The replayed history for `owner`'s `session` (read with [`READ_TIMEOUT`]).
    pub async fn history(
        &self,
        session: SessionId,
        owner: &O,
        system: &str,
    ) -> Result<Vec<ModelMessage>, AssistantError> {
        let limit = self.history_limit.get();
        let rows = tokio::time::timeout(
            READ_TIMEOUT,
            self.store.recent(session, owner, history::rows_to_read(limit)),
        )
        .await
        .unwrap_or(Err(AssistantError::StoreTimeout))?;
        history::build(system, rows, limit)
    }

    async fn run_from_history(
        &self,
        turn: Turn<'_, O>,
        tally: &Tally,
    ) -> Result<StopReason, AssistantError> {
        let limit = self.history_limit.get();
        let store = self.store.clone();
        let read_rows = store.recent(turn.session, turn.owner, history::rows_to_read(limit));
        let Some(rows) = read(turn, read_rows).await? else {
            return Ok(StopReason::Cancelled);
        };
        let mut history = history::build(turn.system, rows, limit)?;
        let max_steps = turn.config.max_steps.unwrap_or(self.max_steps);
        let tools = turn.registry.definitions();
        for _ in 0..max_steps.get() {
            if turn.cancel.is_cancelled() {
                return Ok(StopReason::Cancelled);
            }
            let mut choice = match self.chat(turn, tally, &mut history, &tools).await? {
                Some(choice) => choice,
                None => return Ok(StopReason::Cancelled),
            };
            self.append_assistant(turn, &mut history, &choice.content, &mut choice.tool_calls)
                .await?;
            if choice.tool_calls.is_empty() {
                if choice.content.trim().is_empty() {
                    self.note(turn, &mut history, EMPTY_REPLY_NOTE).await?;
                }
                return Ok(StopReason::EndTurn);
            }
            self.run_tool_calls(turn, &mut history, &choice.tool_calls).await?;
            if turn.cancel.is_cancelled() {
                return Ok(StopReason::Cancelled);
            }
        }
        // The cap: one last call without tools so the turn ends in words.
        let mut choice = match self.chat(turn, tally, &mut history, &[]).await? {
            Some(choice) => choice,
            None => return Ok(StopReason::Cancelled),
        };
        self.append_assistant(turn, &mut history, &choice.content, &mut choice.tool_calls).await?;
        if !choice.tool_calls.is_empty() {
            // Some providers call tools even when offered none; answering them keeps the
            // transcript from ending on an unanswered call.
            tracing::info!(session = %turn.session, calls = choice.tool_calls.len(), "wrap-up returned tool calls; running them");
            self.run_tool_calls(turn, &mut history, &choice.tool_calls).await?;
        }
        if choice.content.trim().is_empty() {
            self.note(turn, &mut history, STEP_LIMIT_NOTE).await?;
        }
        Ok(StopReason::MaxSteps)
    }

    /// One model call, abandoned as soon as the turn is cancelled (`Ok(None)`). Its usage is
    /// added to the turn's tally. When the call is cancelled, fails or panics after text was
    /// streamed, that text is persisted as an assistant message (the user already saw it).
    async fn chat(
        &self,
        turn: Turn<'_, O>,
        tally: &Tally,
        history: &mut Vec<ModelMessage>,
        tools: &[ToolSpec],
    ) -> Result<Option<Choice>, AssistantError> {
        let deltas = Deltas { events: turn.events, text: Mutex::new(String::new()) };
        let answer = {
            let request = ChatRequest::new(history, tools)
                .streaming(&deltas)
                .with_headers(&turn.config.headers);
            tokio::select! {
                biased;
                answer = AssertUnwindSafe(self.model.chat(request)).catch_unwind() => match answer {
                    Ok(Ok(choice)) => Ok(choice),
                    Ok(Err(_)) if turn.cancel.is_cancelled() => Err(None),
                    Ok(Err(e)) => Err(Some(AssistantError::from(e))),
                    // A panicking model (or sink) still keeps what was streamed.
                    Err(panic) => Err(Some(AssistantError::Panicked(
                        panic_message(panic.as_ref()).unwrap_or("panic").to_owned(),
                    ))),
                },
                () = turn.cancel.cancelled() => Err(None),
            }
        };
        let failure = match answer {
            Ok(choice) => {
                tally.add(choice.usage);
                return Ok(Some(choice));
            }
            Err(failure) => failure,
        };
        let streamed =
            std::mem::take(&mut *deltas.text.lock().unwrap_or_else(PoisonError::into_inner));
        if !streamed.trim().is_empty() {
            let saved = self.save(turn, history, encode_assistant(&streamed, &[])).await;
            match (&failure, saved) {
                (None, Err(e)) => return Err(lost("the partial reply", e)),
                (Some(_), Err(e)) => {
                    tracing::warn!(session = %turn.session, error = %e, "persisting the partial reply failed");
                }
                (_, Ok(())) => {}
            }
        }
        match failure {
            None => Ok(None),
            Some(e) => Err(e),
        }
    }

    /// Persists an assistant message (even an empty one) after making its call ids unique,
    /// and appends its replay form unless it is blank. A failed write stops the turn.
    async fn append_assistant(
        &self,
        turn: Turn<'_, O>,
        history: &mut Vec<ModelMessage>,
        text: &str,
        calls: &mut [ToolCall],
    ) -> Result<(), AssistantError> {
        unique_call_ids(calls, history);
        let what =
            if calls.is_empty() { "the assistant's reply" } else { "the assistant's tool calls" };
        self.save(turn, history, encode_assistant(text, calls)).await.map_err(|e| lost(what, e))
    }

    async fn note(
        &self,
        turn: Turn<'_, O>,
        history: &mut Vec<ModelMessage>,
        note: &str,
    ) -> Result<(), AssistantError> {
        turn.events.emit(Event::Note { text: note.to_owned() });
        self.save(turn, history, encode_assistant(note, &[])).await.map_err(|e| lost("the note", e))
    }

    /// Persists `msg`, then appends its replay form (a blank assistant message is not
    /// replayed). Nothing is appended when the write fails.
    async fn save(
        &self,
        turn: Turn<'_, O>,
        history: &mut Vec<ModelMessage>,
        msg: NewMessage,
    ) -> Result<(), AssistantError> {
        let replay = decode_content(0, msg.role, &msg.content);
        self.persist(turn, msg).await?;
        match replay {
            Ok(replay) if !history::is_blank(&replay) => history.push(replay),
            Ok(_) => {}
            Err(e) => {
                tracing::warn!(session = %turn.session, error = %e, "decoding a new message failed")
            }
        }
        Ok(())
    }

    /// Runs a round of calls in order. Every call gets a result: the first
    /// [`RunnerConfig::max_tool_calls`] are run (a cancelled turn's calls answer "cancelled"
    /// at once), the rest are answered with a failed result without running. A failed write
    /// of a result stops the round and the turn.
    async fn run_tool_calls(
        &self,
        turn: Turn<'_, O>,
        history: &mut Vec<ModelMessage>,
        calls: &[ToolCall],
    ) -> Result<(), AssistantError> {
        let ctx = CallContext::new(turn.cancel.clone());
        let max = self.max_tool_calls.get();
        for (i, call) in calls.iter().enumerate() {
            let args = arguments_for_run(&call.arguments);
            turn.events.emit(Event::ToolUse {
                id: call.id.clone(),
                name: call.name.clone(),
                input: valid_json(&args),
            });
            let result = if i < max {
                turn.registry.call(&ctx, turn.owner, &call.name, &args).await
            } else {
                CallResult::error(&format!(
                    "too many tool calls in one reply: only the first {max} run; this one was not run — call it again in your next step if it is still needed"
                ))
            };
            turn.events.emit(Event::ToolResult {
                id: call.id.clone(),
                name: call.name.clone(),
                result: result.content.clone(),
                is_error: result.failed,
            });
            let msg = encode_tool_result(&call.id, &call.name, &result.content);
            if let Err(e) = self.save(turn, history, msg).await {
                // A second, small write says what happened, so the next turn does not replay
                // an invented interruption in place of the result that was produced.
                let marker = encode_tool_result(&call.id, &call.name, LOST_RESULT);
                if let Err(again) = self.persist(turn, marker).await {
                    tracing::warn!(session = %turn.session, error = %again, "recording a lost tool result failed");
                }
                let name = if call.name.is_empty() { "(unnamed)" } else { call.name.as_str() };
                return Err(lost(&format!("the result of tool {name}"), e));
            }
        }
        Ok(())
    }
}

/// The error ending a turn whose write of `what` failed.
fn lost(what: &str, source: AssistantError) -> AssistantError {
    AssistantError::WriteLost { what: what.to_owned(), source: Box::new(source) }
}

/// Makes the ids of `calls` non-empty and unique within the reply and the replayed history:
/// an empty id becomes `call_<n>`, a repeated one `<id>_<n>` (`n` the smallest free number).
fn unique_call_ids(calls: &mut [ToolCall], history: &[ModelMessage]) {
    let mut seen: HashSet<String> = history
        .iter()
        .filter_map(|m| match m {
            ModelMessage::Assistant { tool_calls, .. } => Some(tool_calls),
            _ => None,
        })
        .flatten()
        .map(|c| c.id.clone())
        .collect();
    for call in calls.iter_mut() {
        if call.id.is_empty() || seen.contains(&call.id) {
            let (base, first) =
                if call.id.is_empty() { ("call", 1) } else { (call.id.as_str(), 2) };
            let id = (first..)
                .map(|n| format!("{base}_{n}"))
                .find(|candidate| !seen.contains(candidate))
                .unwrap_or_default();
            call.id = id;
        }
        seen.insert(call.id.clone());
    }
}

/// Emits `event`, retrying once if the sink panics (a sink that panics on every call still
/// cannot unwind out of the turn).
fn emit_guarded<O: Owner>(turn: Turn<'_, O>, event: Event) {
    for _ in 0..2 {
        let attempt = event.clone();
        if std::panic::catch_unwind(AssertUnwindSafe(|| turn.events.emit(attempt))).is_ok() {
            return;
        }
    }
    tracing::error!(session = %turn.session, kind = event.kind(), "the event sink panicked twice; event dropped");
}

/// A store read inside a turn: [`READ_TIMEOUT`], abandoned at once (`Ok(None)`) when the turn
/// is cancelled.
async fn read<O: Owner, T>(
    turn: Turn<'_, O>,
    op: impl Future<Output = Result<T, AssistantError>>,
) -> Result<Option<T>, AssistantError> {
    tokio::select! {
        biased;
        () = turn.cancel.cancelled() => Ok(None),
        read = tokio::time::timeout(READ_TIMEOUT, op) => {
            read.unwrap_or(Err(AssistantError::StoreTimeout)).map(Some)
        }
    }
}

/// Runs a store operation on its own task with [`PERSIST_TIMEOUT`].
async fn detached<T: Send + 'static>(
    op: impl Future<Output = Result<T, AssistantError>> + Send + 'static,
) -> Result<T, AssistantError> {
    let task = tokio::spawn(async move {
        tokio::time::timeout(PERSIST_TIMEOUT, op).await.unwrap_or(Err(AssistantError::StoreTimeout))
    });
    task.await.unwrap_or_else(|e| Err(AssistantError::Store(Cause::new(e))))
}
