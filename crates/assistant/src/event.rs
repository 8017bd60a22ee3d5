//! Turn events and their wire shape (reference §6.1).
//!
//! An [`Event`] serialises as `{"type", "id"?, "text"?, "synthetic"?, "name"?, "input"?,
//! "result"?, "is_error"?, "input_tokens"?, "output_tokens"?, "stop_reason"?, "message"?}`;
//! every field but `type` is omitted when empty. `id` is the tool call's id on `tool_use` and
//! `tool_result` (so a client pairs them); a synthetic note (the empty-reply and step-limit
//! texts the runner writes itself) is an `assistant_text` with `"synthetic": true`; an error
//! `result` carries a `message` saying what failed. Every turn ends with exactly one
//! [`Event::Result`].

use std::sync::{Mutex, PoisonError};

use serde::Serialize;
use serde_json::Value;

/// Why a turn ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StopReason {
    /// The model answered in text.
    EndTurn,
    /// The step cap was reached and the tool-less wrap-up answered.
    MaxSteps,
    /// The turn's token was cancelled.
    Cancelled,
    /// The turn failed (store, model, crash).
    Error,
}

impl StopReason {
    /// The wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::EndTurn => "end_turn",
            Self::MaxSteps => "max_steps",
            Self::Cancelled => "cancelled",
            Self::Error => "error",
        }
    }
}

impl Serialize for StopReason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// One thing that happened in a turn.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// Emitted by the HTTP layer (never the runner) when a message waits behind a turn.
    Queued,
    /// The prompt was recorded (`run` only).
    UserPrompt {
        /// The prompt.
        text: String,
    },
    /// An answer delta from the model.
    AssistantText {
        /// The delta.
        text: String,
    },
    /// A note the runner wrote itself (empty reply, step limit): `assistant_text` on the wire,
    /// marked `"synthetic": true`.
    Note {
        /// The note.
        text: String,
    },
    /// A reasoning delta.
    AssistantThought {
        /// The delta.
        text: String,
    },
    /// A tool is about to run.
    ToolUse {
        /// The call's id (unique within the reply).
        id: String,
        /// The tool's name.
        name: String,
        /// Its arguments: the JSON itself when valid, else the raw string.
        input: Value,
    },
    /// A tool ran.
    ToolResult {
        /// The id of the call it answers.
        id: String,
        /// The tool's name.
        name: String,
        /// The result content (valid JSON).
        result: String,
        /// True when the result is an error envelope.
        is_error: bool,
    },
    /// Token counts summed over every model call of the turn, when the provider reported them.
    Usage {
        /// Prompt tokens.
        input_tokens: u64,
        /// Completion tokens.
        output_tokens: u64,
    },
    /// The terminal event; exactly one per turn.
    Result {
        /// Why the turn ended.
        stop_reason: StopReason,
        /// True only for [`StopReason::Error`].
        is_error: bool,
        /// What failed, for an error (shown to the user; never an internal cause).
        message: Option<String>,
    },
}

impl Event {
    /// The terminal event for `reason`.
    pub fn result(reason: StopReason) -> Self {
        Self::Result { stop_reason: reason, is_error: reason == StopReason::Error, message: None }
    }

    /// The terminal error event, saying what failed.
    pub fn failed(message: impl Into<String>) -> Self {
        Self::Result {
            stop_reason: StopReason::Error,
            is_error: true,
            message: Some(message.into()),
        }
    }

    /// The wire `type`.
    pub const fn kind(&self) -> &'static str {
        match self {
            Self::Queued => "queued",
            Self::UserPrompt { .. } => "user_prompt",
            Self::AssistantText { .. } | Self::Note { .. } => "assistant_text",
            Self::AssistantThought { .. } => "assistant_thought",
            Self::ToolUse { .. } => "tool_use",
            Self::ToolResult { .. } => "tool_result",
            Self::Usage { .. } => "usage",
            Self::Result { .. } => "result",
        }
    }

    /// True for the terminal event.
    pub const fn is_terminal(&self) -> bool {
        matches!(self, Self::Result { .. })
    }
}

#[derive(Serialize)]
struct Wire<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<&'a str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    synthetic: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    input: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<&'a str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    is_error: bool,
    #[serde(skip_serializing_if = "is_zero")]
    input_tokens: u64,
    #[serde(skip_serializing_if = "is_zero")]
    output_tokens: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    stop_reason: Option<StopReason>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'a str>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn non_empty(s: &str) -> Option<&str> {
    (!s.is_empty()).then_some(s)
}

impl Serialize for Event {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut w = Wire {
            kind: self.kind(),
            id: None,
            text: None,
            synthetic: false,
            name: None,
            input: None,
            result: None,
            is_error: false,
            input_tokens: 0,
            output_tokens: 0,
            stop_reason: None,
            message: None,
        };
        match self {
            Self::Queued => {}
            Self::UserPrompt { text }
            | Self::AssistantText { text }
            | Self::AssistantThought { text } => {
                w.text = non_empty(text);
            }
            Self::Note { text } => {
                w.text = non_empty(text);
                w.synthetic = true;
            }
            Self::ToolUse { id, name, input } => {
                w.id = non_empty(id);
                w.name = non_empty(name);
                w.input = Some(input);
            }
            Self::ToolResult { id, name, result, is_error } => {
                w.id = non_empty(id);
                w.name = non_empty(name);
                w.result = non_empty(result);
                w.is_error = *is_error;
            }
            Self::Usage { input_tokens, output_tokens } => {
                w.input_tokens = *input_tokens;
                w.output_tokens = *output_tokens;
            }
            Self::Result { stop_reason, is_error, message } => {
                w.stop_reason = Some(*stop_reason);
                w.is_error = *is_error;
                w.message = message.as_deref();
            }
        }
        w.serialize(s)
    }
}

/// Where a turn's events go. Emitting must not block for long; a sink whose reader has gone
/// simply drops events (a turn outlives its reader).
pub trait EventSink: Send + Sync {
    /// Receives one event.
    fn emit(&self, event: Event);
}

impl<F: Fn(Event) + Send + Sync> EventSink for F {
    fn emit(&self, event: Event) {
        self(event);
    }
}

/// An [`EventSink`] that keeps every event, for tests, demos and synchronous callers.
#[derive(Debug, Default)]
pub struct EventLog(Mutex<Vec<Event>>);

impl EventLog {
    /// An empty log.
    pub fn new() -> Self {
        Self::default()
    }

    /// The events so far.
    pub fn events(&self) -> Vec<Event> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }
}

impl EventSink for EventLog {
    fn emit(&self, event: Event) {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).push(event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn wire(e: &Event) -> Value {
        serde_json::to_value(e).unwrap()
    }

    #[test]
    fn the_wire_shape_omits_empty_fields() {
        assert_eq!(wire(&Event::Queued), json!({"type":"queued"}));
        assert_eq!(
            wire(&Event::UserPrompt { text: "hi".into() }),
            json!({"type":"user_prompt","text":"hi"})
        );
        assert_eq!(
            wire(&Event::ToolUse { id: "c1".into(), name: "echo".into(), input: json!({"a":1}) }),
            json!({"type":"tool_use","id":"c1","name":"echo","input":{"a":1}})
        );
        assert_eq!(
            wire(&Event::ToolResult {
                id: "c1".into(),
                name: "echo".into(),
                result: "{}".into(),
                is_error: false
            }),
            json!({"type":"tool_result","id":"c1","name":"echo","result":"{}"})
        );
        assert_eq!(
            wire(&Event::ToolResult {
                id: String::new(),
                name: "echo".into(),
                result: "{\"error\":\"x\"}".into(),
                is_error: true
            }),
            json!({"type":"tool_result","name":"echo","result":"{\"error\":\"x\"}","is_error":true})
        );
        assert_eq!(
            wire(&Event::Usage { input_tokens: 10, output_tokens: 2 }),
            json!({"type":"usage","input_tokens":10,"output_tokens":2})
        );
        assert_eq!(
            wire(&Event::result(StopReason::EndTurn)),
            json!({"type":"result","stop_reason":"end_turn"})
        );
        assert_eq!(
            wire(&Event::result(StopReason::Error)),
            json!({"type":"result","stop_reason":"error","is_error":true})
        );
        assert_eq!(
            wire(&Event::failed("the model is unreachable")),
            json!({"type":"result","stop_reason":"error","is_error":true,"message":"the model is unreachable"})
        );
        assert_eq!(
            wire(&Event::Note { text: "n".into() }),
            json!({"type":"assistant_text","text":"n","synthetic":true})
        );
    }
}
