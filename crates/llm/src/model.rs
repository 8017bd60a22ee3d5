//! The [`ChatModel`] port.

use async_trait::async_trait;

use crate::{Choice, LlmError, Message, ToolSpec};

/// Receives deltas while a model answers. Called from inside the chat call, in order.
pub trait StreamSink: Send + Sync {
    /// A piece of the answer text.
    fn on_text(&self, delta: &str);
    /// A piece of the model's reasoning, when the provider streams it.
    fn on_thinking(&self, delta: &str);
}

/// A sink that drops everything.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoStream;

impl StreamSink for NoStream {
    fn on_text(&self, _: &str) {}
    fn on_thinking(&self, _: &str) {}
}

/// One chat call: the conversation, the tools on offer, an optional stream sink and extra
/// headers for this call only.
#[derive(Clone, Copy)]
pub struct ChatRequest<'a> {
    /// The conversation, system prompt first when there is one.
    pub messages: &'a [Message],
    /// The tools the model may call; empty for a tool-less call.
    pub tools: &'a [ToolSpec],
    /// Where deltas go; `None` asks for a plain (non-streamed) answer.
    pub stream: Option<&'a dyn StreamSink>,
    /// Extra HTTP headers for this call (e.g. spend tags), added after the client's own.
    pub headers: &'a [(String, String)],
}

impl<'a> ChatRequest<'a> {
    /// A non-streamed request without extra headers.
    pub fn new(messages: &'a [Message], tools: &'a [ToolSpec]) -> Self {
        Self { messages, tools, stream: None, headers: &[] }
    }

    /// The same request, streaming into `sink`.
    #[must_use]
    pub fn streaming(mut self, sink: &'a dyn StreamSink) -> Self {
        self.stream = Some(sink);
        self
    }

    /// The same request with extra headers.
    #[must_use]
    pub fn with_headers(mut self, headers: &'a [(String, String)]) -> Self {
        self.headers = headers;
        self
    }
}

/// A chat model. Implementations must be cheap to share (`Arc<dyn ChatModel>`).
#[async_trait]
pub trait ChatModel: Send + Sync {
    /// Asks the model for its next step. Dropping the future abandons the call.
    async fn chat(&self, request: ChatRequest<'_>) -> Result<Choice, LlmError>;
}
