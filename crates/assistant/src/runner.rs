//! The turn runner (reference §6): a bounded tool-calling loop that always ends with exactly
//! one `result` event.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use freehire_llm::{
    Cause, ChatModel, ChatRequest, Choice, Message as ModelMessage, StreamSink, ToolCall, ToolSpec,
};
use freehire_tools::repair::{arguments_for_run, valid_json};
use freehire_tools::{CallContext, Owner, Registry, panic_message};
use futures::FutureExt;
use tokio_util::sync::CancellationToken;

use crate::history;
use crate::message::{Role, decode_content, encode_assistant, encode_tool_result, encode_user};
use crate::{
    AssistantError, Event, EventSink, HistoryLimit, Message, NewMessage, SessionId, StepLimit,
    StopReason, TranscriptStore,
};

/// The deadline of every transcript write, which runs detached from the turn's cancellation.
pub const PERSIST_TIMEOUT: Duration = Duration::from_secs(5);
/// The note persisted and shown when the model answers with nothing.
pub const EMPTY_REPLY_NOTE: &str =
    "I didn't have anything to add there. Could you rephrase, or ask me to continue?";
/// The note persisted and shown when the step cap cut the turn and the wrap-up said nothing.
pub const STEP_LIMIT_NOTE: &str = "I hit the step limit for this turn before finishing. Send another message and I will continue.";
/// The longest session label taken from a prompt, in characters (our choice).
pub const LABEL_MAX_CHARS: usize = 200;

/// The runner's bounds (see [`StepLimit`] and [`HistoryLimit`] for the defaults).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunnerConfig {
    /// Model calls with tools per turn before the wrap-up.
    pub max_steps: StepLimit,
    /// Transcript messages replayed.
    pub history_limit: HistoryLimit,
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
    /// Cancels the turn (Stop). A round of tool calls always finishes first.
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
}

impl<O: Owner> Clone for Runner<O> {
    fn clone(&self) -> Self {
        Self {
            model: self.model.clone(),
            store: self.store.clone(),
            max_steps: self.max_steps,
            history_limit: self.history_limit,
        }
    }
}

impl<O: Owner> std::fmt::Debug for Runner<O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runner")
            .field("max_steps", &self.max_steps)
            .field("history_limit", &self.history_limit)
            .finish_non_exhaustive()
    }
}

/// Streams model deltas out as events.
struct Deltas<'a>(&'a dyn EventSink);

impl StreamSink for Deltas<'_> {
    fn on_text(&self, delta: &str) {
        self.0.emit(Event::AssistantText { text: delta.to_owned() });
    }
    fn on_thinking(&self, delta: &str) {
        self.0.emit(Event::AssistantThought { text: delta.to_owned() });
    }
}

/// How a model call ended short of an answer.
enum ChatFailure {
    Cancelled,
    Failed(AssistantError),
}

impl<O: Owner> Runner<O> {
    /// A runner over `model` and `store` with `config`'s bounds.
    pub fn new(
        model: Arc<dyn ChatModel>,
        store: Arc<dyn TranscriptStore<O>>,
        config: RunnerConfig,
    ) -> Self {
        Self { model, store, max_steps: config.max_steps, history_limit: config.history_limit }
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

    /// True when both runners share one store.
    pub fn same_store(&self, other: &Runner<O>) -> bool {
        Arc::ptr_eq(&self.store, &other.store)
    }

    /// Records `prompt` as a user message, then runs the loop. Ends with exactly one `result`
    /// event on every path, including a failed prompt write (the model is then never called).
    pub async fn run(&self, turn: Turn<'_, O>, prompt: &str) -> Result<StopReason, AssistantError> {
        self.guarded(turn, async {
            self.record_prompt(turn, prompt).await?;
            self.run_from_history(turn).await
        })
        .await
    }

    /// Runs the loop again on the stored transcript without a new prompt (retry). Fails with
    /// [`AssistantError::NothingToContinue`], and emits nothing, when the transcript has no
    /// user message.
    pub async fn continue_turn(&self, turn: Turn<'_, O>) -> Result<StopReason, AssistantError> {
        self.guarded(turn, async {
            let all = self.store.transcript(turn.session, turn.owner).await?;
            if !all.iter().any(|m| m.role == Role::User) {
                return Err(AssistantError::NothingToContinue);
            }
            self.touch(turn).await;
            self.run_from_history(turn).await
        })
        .await
    }

    /// Runs `body`, catching a panic, and emits the one terminal event for its outcome.
    async fn guarded(
        &self,
        turn: Turn<'_, O>,
        body: impl Future<Output = Result<StopReason, AssistantError>>,
    ) -> Result<StopReason, AssistantError> {
        let outcome = match AssertUnwindSafe(body).catch_unwind().await {
            Ok(outcome) => outcome,
            Err(panic) => Err(AssistantError::Panicked(
                panic_message(panic.as_ref()).unwrap_or("panic").to_owned(),
            )),
        };
        match &outcome {
            Ok(reason) => turn.events.emit(Event::result(*reason)),
            Err(AssistantError::NothingToContinue) => {}
            Err(e) => {
                tracing::warn!(session = %turn.session, error = %e, "assistant turn failed");
                turn.events.emit(Event::failed(e.to_string()));
            }
        }
        outcome
    }

    async fn record_prompt(&self, turn: Turn<'_, O>, prompt: &str) -> Result<(), AssistantError> {
        self.persist(turn, encode_user(prompt)).await?;
        let label: String = prompt.trim().chars().take(LABEL_MAX_CHARS).collect();
        let (store, session, owner) = (self.store.clone(), turn.session, turn.owner.clone());
        if let Err(e) = detached(async move { store.label(session, &owner, &label).await }).await {
            tracing::warn!(%session, error = %e, "labelling the session failed");
        }
        self.touch(turn).await;
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

    /// The replayed history for `owner`'s `session`.
    pub async fn history(
        &self,
        session: SessionId,
        owner: &O,
        system: &str,
    ) -> Result<Vec<ModelMessage>, AssistantError> {
        let limit = self.history_limit.get();
        let rows = self.store.recent(session, owner, history::rows_to_read(limit)).await?;
        history::build(system, rows, limit)
    }

    async fn run_from_history(&self, turn: Turn<'_, O>) -> Result<StopReason, AssistantError> {
        let mut history = self.history(turn.session, turn.owner, turn.system).await?;
        let max_steps = turn.config.max_steps.unwrap_or(self.max_steps);
        let tools = turn.registry.definitions();
        for _ in 0..max_steps.get() {
            if turn.cancel.is_cancelled() {
                return Ok(StopReason::Cancelled);
            }
            let choice = match self.chat(turn, &history, &tools).await {
                Ok(choice) => choice,
                Err(ChatFailure::Cancelled) => return Ok(StopReason::Cancelled),
                Err(ChatFailure::Failed(e)) => return Err(e),
            };
            self.append_assistant(turn, &mut history, &choice.content, &choice.tool_calls).await;
            if choice.tool_calls.is_empty() {
                if choice.content.trim().is_empty() {
                    self.note(turn, &mut history, EMPTY_REPLY_NOTE).await;
                }
                emit_usage(turn, &choice);
                return Ok(StopReason::EndTurn);
            }
            self.run_tool_calls(turn, &mut history, &choice.tool_calls).await;
            if turn.cancel.is_cancelled() {
                return Ok(StopReason::Cancelled);
            }
        }
        // The cap: one last call without tools so the turn ends in words.
        let choice = match self.chat(turn, &history, &[]).await {
            Ok(choice) => choice,
            Err(ChatFailure::Cancelled) => return Ok(StopReason::Cancelled),
            Err(ChatFailure::Failed(e)) => return Err(e),
        };
        self.append_assistant(turn, &mut history, &choice.content, &choice.tool_calls).await;
        if !choice.tool_calls.is_empty() {
            // Some providers call tools even when offered none; answering them keeps the
            // transcript from ending on an unanswered call.
            tracing::info!(session = %turn.session, calls = choice.tool_calls.len(), "wrap-up returned tool calls; running them");
            self.run_tool_calls(turn, &mut history, &choice.tool_calls).await;
        }
        if choice.content.trim().is_empty() {
            self.note(turn, &mut history, STEP_LIMIT_NOTE).await;
        }
        emit_usage(turn, &choice);
        Ok(StopReason::MaxSteps)
    }

    /// One model call, abandoned as soon as the turn is cancelled.
    async fn chat(
        &self,
        turn: Turn<'_, O>,
        history: &[ModelMessage],
        tools: &[ToolSpec],
    ) -> Result<Choice, ChatFailure> {
        let deltas = Deltas(turn.events);
        let request =
            ChatRequest::new(history, tools).streaming(&deltas).with_headers(&turn.config.headers);
        tokio::select! {
            biased;
            answer = self.model.chat(request) => answer.map_err(|e| {
                if turn.cancel.is_cancelled() { ChatFailure::Cancelled } else { ChatFailure::Failed(e.into()) }
            }),
            () = turn.cancel.cancelled() => Err(ChatFailure::Cancelled),
        }
    }

    /// Persists an assistant message (even an empty one) and appends its replay form.
    async fn append_assistant(
        &self,
        turn: Turn<'_, O>,
        history: &mut Vec<ModelMessage>,
        text: &str,
        calls: &[ToolCall],
    ) {
        let msg = encode_assistant(text, calls);
        self.persist_and_replay(turn, history, msg).await;
    }

    async fn note(&self, turn: Turn<'_, O>, history: &mut Vec<ModelMessage>, note: &str) {
        turn.events.emit(Event::Note { text: note.to_owned() });
        self.append_assistant(turn, history, note, &[]).await;
    }

    async fn persist_and_replay(
        &self,
        turn: Turn<'_, O>,
        history: &mut Vec<ModelMessage>,
        msg: NewMessage,
    ) {
        match decode_content(0, msg.role, &msg.content) {
            Ok(replay) => history.push(replay),
            Err(e) => {
                tracing::warn!(session = %turn.session, error = %e, "decoding a new message failed")
            }
        }
        if let Err(e) = self.persist(turn, msg).await {
            tracing::warn!(session = %turn.session, error = %e, "persisting a message failed");
        }
    }

    /// Runs a round of calls in order; cancellation is not checked between them.
    async fn run_tool_calls(
        &self,
        turn: Turn<'_, O>,
        history: &mut Vec<ModelMessage>,
        calls: &[ToolCall],
    ) {
        let ctx = CallContext::new(turn.cancel.clone());
        for call in calls.iter().filter(|c| !c.name.is_empty()) {
            let args = arguments_for_run(&call.arguments);
            turn.events.emit(Event::ToolUse {
                id: call.id.clone(),
                name: call.name.clone(),
                input: valid_json(&args),
            });
            let result = turn.registry.call(&ctx, turn.owner, &call.name, &args).await;
            turn.events.emit(Event::ToolResult {
                id: call.id.clone(),
                name: call.name.clone(),
                result: result.content.clone(),
                is_error: result.failed,
            });
            let msg = encode_tool_result(&call.id, &call.name, &result.content);
            self.persist_and_replay(turn, history, msg).await;
        }
    }
}

fn emit_usage<O: Owner>(turn: Turn<'_, O>, choice: &Choice) {
    if let Some(u) = choice.usage {
        turn.events
            .emit(Event::Usage { input_tokens: u.input_tokens, output_tokens: u.output_tokens });
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
