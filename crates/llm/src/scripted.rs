//! [`ScriptedModel`]: a [`ChatModel`] that replays a script, for tests and offline demos.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};

use async_trait::async_trait;

use crate::{ChatModel, ChatRequest, Choice, LlmError, Message, ToolCall, ToolSpec};

/// One scripted answer.
#[derive(Debug, Clone)]
pub enum Scripted {
    /// Answer with this choice (text is streamed to the sink in two deltas).
    Reply(Choice),
    /// Fail with this error.
    Fail(LlmError),
    /// Panic with this message (to test that callers survive a panicking model).
    Panic(String),
}

impl Scripted {
    /// A plain text answer.
    pub fn text(content: impl Into<String>) -> Self {
        Self::Reply(Choice::text(content))
    }

    /// An answer calling one tool.
    pub fn call(id: &str, name: &str, arguments: &str) -> Self {
        Self::Reply(Choice::tool_calls(vec![ToolCall::new(id, name, arguments)]))
    }

    /// An answer calling several tools.
    pub fn calls(calls: Vec<ToolCall>) -> Self {
        Self::Reply(Choice::tool_calls(calls))
    }

    /// A failure.
    pub fn fail(message: impl Into<String>) -> Self {
        Self::Fail(LlmError::Scripted(message.into()))
    }
}

/// What one call to the scripted model was given.
#[derive(Debug, Clone)]
pub struct RecordedCall {
    /// The conversation.
    pub messages: Vec<Message>,
    /// The tools on offer.
    pub tools: Vec<ToolSpec>,
    /// The extra headers.
    pub headers: Vec<(String, String)>,
}

type Hook = Arc<dyn Fn(usize) + Send + Sync>;

#[derive(Default)]
struct State {
    script: VecDeque<Scripted>,
    calls: Vec<RecordedCall>,
    count: usize,
}

/// Replays its script in order, one entry per call; when the script runs out it answers with
/// its fallback (a failure unless [`ScriptedModel::with_fallback`] set one).
#[derive(Clone)]
pub struct ScriptedModel {
    state: Arc<Mutex<State>>,
    fallback: Scripted,
    on_call: Option<Hook>,
    record: bool,
    latency: Option<std::time::Duration>,
}

impl std::fmt::Debug for ScriptedModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScriptedModel").field("calls", &self.call_count()).finish()
    }
}

impl ScriptedModel {
    /// A model that answers with `script`, in order.
    pub fn new(script: impl IntoIterator<Item = Scripted>) -> Self {
        Self {
            state: Arc::new(Mutex::new(State {
                script: script.into_iter().collect(),
                ..State::default()
            })),
            fallback: Scripted::fail("scripted model: script exhausted"),
            on_call: None,
            record: true,
            latency: None,
        }
    }

    /// What to answer once the script is used up.
    #[must_use]
    pub fn with_fallback(mut self, fallback: Scripted) -> Self {
        self.fallback = fallback;
        self
    }

    /// Runs `hook(n)` at the start of the n-th call (0-based), e.g. to cancel a turn
    /// "during" a model call.
    #[must_use]
    pub fn on_call(mut self, hook: impl Fn(usize) + Send + Sync + 'static) -> Self {
        self.on_call = Some(Arc::new(hook));
        self
    }

    /// Waits this long before each answer, like a slow network call (the default answers at
    /// once, on the first poll).
    #[must_use]
    pub fn with_latency(mut self, latency: std::time::Duration) -> Self {
        self.latency = Some(latency);
        self
    }

    /// Stops recording calls (for long benchmarks).
    #[must_use]
    pub fn without_recording(mut self) -> Self {
        self.record = false;
        self
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// How many calls were made.
    pub fn call_count(&self) -> usize {
        self.lock().count
    }

    /// The recorded calls, in order.
    pub fn calls(&self) -> Vec<RecordedCall> {
        self.lock().calls.clone()
    }
}

#[async_trait]
impl ChatModel for ScriptedModel {
    async fn chat(&self, request: ChatRequest<'_>) -> Result<Choice, LlmError> {
        let (n, step) = {
            let mut state = self.lock();
            let n = state.count;
            state.count += 1;
            if self.record {
                state.calls.push(RecordedCall {
                    messages: request.messages.to_vec(),
                    tools: request.tools.to_vec(),
                    headers: request.headers.to_vec(),
                });
            }
            (n, state.script.pop_front().unwrap_or_else(|| self.fallback.clone()))
        };
        if let Some(hook) = &self.on_call {
            hook(n);
        }
        if let Some(latency) = self.latency {
            tokio::time::sleep(latency).await;
        }
        match step {
            Scripted::Fail(e) => Err(e),
            Scripted::Panic(message) => panic!("{message}"),
            Scripted::Reply(choice) => {
                if let Some(sink) = request.stream {
                    if !choice.reasoning.is_empty() {
                        sink.on_thinking(&choice.reasoning);
                    }
                    let text = &choice.content;
                    let mut mid = text.len() / 2;
                    while !text.is_char_boundary(mid) {
                        mid -= 1;
                    }
                    for part in [&text[..mid], &text[mid..]] {
                        if !part.is_empty() {
                            sink.on_text(part);
                        }
                    }
                }
                Ok(choice)
            }
        }
    }
}
