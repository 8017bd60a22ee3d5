//! The chat-model port of the assistant and its adapters.
//!
//! - [`ChatModel`] is the one method the runner needs: `chat(request) -> Choice`. A
//!   [`ChatRequest`] carries the conversation ([`Message`]: system, user, assistant with tool
//!   calls, tool results), the tool definitions ([`ToolSpec`], the one definition type: the
//!   tool registry builds it, this crate sends it), an optional [`StreamSink`]
//!   that receives answer and reasoning deltas as they arrive, and extra HTTP headers for
//!   this call (per-user keys, spend tags such as `x-bf-dim-feature`). The returned
//!   [`Choice`] holds the final text, the assembled tool calls and the token [`Usage`] when
//!   the provider reported it (missing usage is `None`, never zero).
//! - [`OpenAiClient`] speaks `POST /v1/chat/completions` to any OpenAI-compatible endpoint:
//!   streamed (SSE deltas, tool-call argument fragments assembled by index, a new id under a
//!   reused index starting a new call, missing ids filled with unique `call_<n>`) whenever a
//!   sink is given, plain otherwise, and plain as a fallback when a streamed answer comes back
//!   empty (some servers stream nothing when tools are offered; the fallback is logged as a
//!   second billed call). Tool-call JSON a model leaks into its text (`<tool_call>` blocks, or
//!   a bare `{"name","arguments"}` object as the whole answer) never reaches the sink or the
//!   answer text ([`openai`] has the exact rule) and becomes the answer's calls when it has no
//!   real ones. Each call has a total deadline (300 s by default) and a streamed call an idle
//!   deadline between chunks (30 s by default). Per-call headers replace client-level ones of
//!   the same name. An assistant message is always sent with string content (`""`, never
//!   `null`) and `tool_choice` is not sent unless the client was built to force one
//!   ([`OpenAiClient::with_tool_choice`]; never on a tool-less call), because some servers
//!   reject `null` content and `"required"`. Failures are
//!   typed ([`LlmError`]): rate limiting (with `Retry-After` in seconds or as an HTTP date),
//!   other HTTP statuses with the provider's message, a stream cut mid-way, a malformed body,
//!   the total deadline, a stream that stalled past the idle deadline. A wrapped lower error is kept as the
//!   source ([`Cause`]) and not repeated in the message.
//! - [`ScriptedModel`] replays a script of replies and failures, streams them through the
//!   sink like a real model, and records what it was asked: for tests and offline demos.
//!
//! Deliberately absent: retries and backoff (the caller decides), tool execution, history,
//! anything freehire-specific.

mod error;
mod message;
mod model;
pub mod openai;
mod scripted;

pub use error::{Cause, LlmError};
pub use message::{Choice, Message, ToolCall, ToolSpec, Usage};
pub use model::{ChatModel, ChatRequest, NoStream, StreamSink};
pub use openai::{OpenAiClient, OpenAiConfig};
pub use scripted::{RecordedCall, Scripted, ScriptedModel};
