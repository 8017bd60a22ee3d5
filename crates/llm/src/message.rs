//! The conversation as a model sees it, and what a model answers.

use serde::{Deserialize, Serialize};

/// One message of the conversation sent to the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    /// Instructions; first when present.
    System(String),
    /// What the human (or a server brief on their behalf) wrote.
    User(String),
    /// A model turn: text (possibly empty) and the tool calls it made.
    Assistant {
        /// The answer text.
        text: String,
        /// The tool calls, in order.
        tool_calls: Vec<ToolCall>,
    },
    /// The result of one tool call.
    Tool {
        /// The id of the call this answers.
        call_id: String,
        /// The tool's name.
        name: String,
        /// The result, a JSON string.
        content: String,
    },
}

/// One tool call made by the model. `arguments` is the argument JSON as a string, exactly as
/// the model produced it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The provider's call id.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The argument JSON, as a string.
    pub arguments: String,
}

impl ToolCall {
    /// A call with the given id, name and arguments.
    pub fn new(
        id: impl Into<String>,
        name: impl Into<String>,
        arguments: impl Into<String>,
    ) -> Self {
        Self { id: id.into(), name: name.into(), arguments: arguments.into() }
    }
}

/// A tool as offered to the model: name, description and JSON Schema of its arguments. The
/// one tool-definition type: the tool registry produces it, the model port sends it.
/// Serialises in the OpenAI `tools` shape:
/// `{"type":"function","function":{"name","description","parameters"}}`.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSpec {
    /// The tool's name.
    pub name: String,
    /// The paragraph the model reads.
    pub description: String,
    /// The JSON Schema of its arguments.
    pub parameters: serde_json::Value,
}

impl Serialize for ToolSpec {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        #[derive(Serialize)]
        struct Function<'a> {
            name: &'a str,
            description: &'a str,
            parameters: &'a serde_json::Value,
        }
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("type", "function")?;
        map.serialize_entry(
            "function",
            &Function {
                name: &self.name,
                description: &self.description,
                parameters: &self.parameters,
            },
        )?;
        map.end()
    }
}

/// Token counts reported by the provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    /// Prompt tokens.
    pub input_tokens: u64,
    /// Completion tokens.
    pub output_tokens: u64,
}

/// The model's answer to one chat call.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Choice {
    /// The answer text (may be empty).
    pub content: String,
    /// Reasoning text, when the provider exposes it.
    pub reasoning: String,
    /// The tool calls, in order; empty when the model answered in text.
    pub tool_calls: Vec<ToolCall>,
    /// Token usage, `None` when the provider reported none (never a made-up zero).
    pub usage: Option<Usage>,
    /// The provider's finish reason, when given.
    pub finish_reason: Option<String>,
}

impl Choice {
    /// A plain text answer.
    pub fn text(content: impl Into<String>) -> Self {
        Self { content: content.into(), ..Self::default() }
    }

    /// An answer that calls tools.
    pub fn tool_calls(calls: Vec<ToolCall>) -> Self {
        Self { tool_calls: calls, ..Self::default() }
    }

    /// The same choice with usage set.
    #[must_use]
    pub fn with_usage(mut self, input_tokens: u64, output_tokens: u64) -> Self {
        self.usage = Some(Usage { input_tokens, output_tokens });
        self
    }
}

/// Gives every call without an id a unique one, `call_<n>` (`n` from 1, skipping ids the
/// calls already use); calls with an id keep it.
pub(crate) fn fill_ids(calls: &mut [ToolCall]) {
    let mut n = 0usize;
    for i in 0..calls.len() {
        if !calls[i].id.is_empty() {
            continue;
        }
        let id = loop {
            n += 1;
            let candidate = format!("call_{n}");
            if !calls.iter().any(|c| c.id == candidate) {
                break candidate;
            }
        };
        calls[i].id = id;
    }
}
