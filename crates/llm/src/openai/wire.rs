//! The OpenAI chat-completions wire format: request bodies out, responses and stream chunks in.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{Cause, Choice, LlmError, Message, ToolCall, ToolSpec, Usage};

#[derive(Serialize)]
struct Body<'a> {
    model: &'a str,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    tools: &'a [ToolSpec],
    messages: Vec<WireMessage<'a>>,
    stream: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    stream_options: Option<StreamOptions>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_choice: Option<&'a Value>,
}

#[derive(Serialize)]
struct StreamOptions {
    include_usage: bool,
}

#[derive(Serialize)]
#[serde(tag = "role", rename_all = "lowercase")]
enum WireMessage<'a> {
    System {
        content: &'a str,
    },
    User {
        content: &'a str,
    },
    Assistant {
        /// Always a string: some servers reject `null`.
        content: &'a str,
        #[serde(skip_serializing_if = "<[_]>::is_empty")]
        tool_calls: Vec<WireCallOut<'a>>,
    },
    Tool {
        tool_call_id: &'a str,
        content: &'a str,
    },
}

#[derive(Serialize)]
struct WireCallOut<'a> {
    id: &'a str,
    r#type: &'static str,
    function: WireFunctionOut<'a>,
}

#[derive(Serialize)]
struct WireFunctionOut<'a> {
    name: &'a str,
    arguments: &'a str,
}

/// The JSON body of a chat-completions request, as sent. Tools come before messages so the
/// serialised prompt grows at its end (which is also how providers lay out the prompt).
pub fn request_body(model: &str, messages: &[Message], tools: &[ToolSpec], stream: bool) -> String {
    encode_request(model, messages, tools, stream, None)
}

/// [`request_body`] with a `tool_choice`, sent only when tools are offered.
pub(crate) fn encode_request(
    model: &str,
    messages: &[Message],
    tools: &[ToolSpec],
    stream: bool,
    tool_choice: Option<&Value>,
) -> String {
    let body = Body {
        model,
        tools,
        messages: messages.iter().map(wire_message).collect(),
        stream,
        stream_options: stream.then_some(StreamOptions { include_usage: true }),
        tool_choice: tool_choice.filter(|_| !tools.is_empty()),
    };
    // Serialising borrowed strings and `Value`s into a `String` cannot fail.
    serde_json::to_string(&body).unwrap_or_default()
}

fn wire_message(m: &Message) -> WireMessage<'_> {
    match m {
        Message::System(text) => WireMessage::System { content: text },
        Message::User(text) => WireMessage::User { content: text },
        Message::Assistant { text, tool_calls } => WireMessage::Assistant {
            content: text,
            tool_calls: tool_calls
                .iter()
                .map(|c| WireCallOut {
                    id: &c.id,
                    r#type: "function",
                    function: WireFunctionOut { name: &c.name, arguments: &c.arguments },
                })
                .collect(),
        },
        Message::Tool { call_id, content, .. } => {
            WireMessage::Tool { tool_call_id: call_id, content }
        }
    }
}

#[derive(Deserialize)]
pub(crate) struct WireUsage {
    #[serde(default)]
    prompt_tokens: u64,
    #[serde(default)]
    completion_tokens: u64,
}

impl From<WireUsage> for Usage {
    fn from(u: WireUsage) -> Self {
        Usage { input_tokens: u.prompt_tokens, output_tokens: u.completion_tokens }
    }
}

#[derive(Deserialize)]
struct Response {
    #[serde(default, deserialize_with = "null_as_default")]
    choices: Vec<ResponseChoice>,
    usage: Option<WireUsage>,
}

#[derive(Deserialize)]
struct ResponseChoice {
    message: ResponseMessage,
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct ResponseMessage {
    content: Option<String>,
    reasoning_content: Option<String>,
    reasoning: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    tool_calls: Vec<ResponseCall>,
}

#[derive(Deserialize)]
struct ResponseCall {
    #[serde(default, deserialize_with = "null_as_default")]
    id: String,
    function: Option<ResponseFunction>,
}

#[derive(Deserialize)]
struct ResponseFunction {
    #[serde(default, deserialize_with = "null_as_default")]
    name: String,
    #[serde(default)]
    arguments: Option<Value>,
}

/// Servers send `null` where the protocol allows a missing field (`"tool_calls": null` in a
/// delta, for one); read both as the default.
fn null_as_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// Arguments arrive as a string per the protocol; a few servers send an object instead.
pub(crate) fn arguments_text(v: Option<Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s,
        Some(other) => other.to_string(),
    }
}

/// Parses a non-streamed chat-completions response body. Tool-call JSON leaked into the text
/// is removed from it as in a stream (the rule is in the [`openai`](super) module docs);
/// calls without an id get one.
pub fn parse_response(body: &str) -> Result<Choice, LlmError> {
    let resp: Response = serde_json::from_str(body)
        .map_err(|e| LlmError::Malformed { body: super::snippet(body), source: Cause::new(e) })?;
    let choice = resp.choices.into_iter().next().ok_or(LlmError::NoChoices)?;
    let tool_calls =
        choice
            .message
            .tool_calls
            .into_iter()
            .filter_map(|c| {
                let f = c.function?;
                let arguments = arguments_text(f.arguments);
                // A call that carried nothing is dropped; a nameless one is kept for the caller
                // to answer.
                (!(f.name.is_empty() && c.id.is_empty() && arguments.is_empty()))
                    .then_some(ToolCall { id: c.id, name: f.name, arguments })
            })
            .collect();
    Ok(super::stream::filter_whole(Choice {
        content: choice.message.content.unwrap_or_default(),
        reasoning: choice
            .message
            .reasoning_content
            .or(choice.message.reasoning)
            .unwrap_or_default(),
        tool_calls,
        usage: resp.usage.map(Usage::from),
        finish_reason: choice.finish_reason,
    }))
}

/// One `data:` payload of a streamed response.
#[derive(Deserialize)]
pub(crate) struct Chunk {
    #[serde(default, deserialize_with = "null_as_default")]
    pub choices: Vec<ChunkChoice>,
    pub usage: Option<WireUsage>,
    pub error: Option<Value>,
}

#[derive(Deserialize)]
pub(crate) struct ChunkChoice {
    #[serde(default, deserialize_with = "null_as_default")]
    pub delta: Delta,
    pub finish_reason: Option<String>,
}

#[derive(Deserialize, Default)]
pub(crate) struct Delta {
    pub content: Option<String>,
    pub reasoning_content: Option<String>,
    pub reasoning: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub tool_calls: Vec<CallFragment>,
}

#[derive(Deserialize)]
pub(crate) struct CallFragment {
    pub index: Option<u64>,
    pub id: Option<String>,
    pub function: Option<FragmentFunction>,
}

#[derive(Deserialize)]
pub(crate) struct FragmentFunction {
    pub name: Option<String>,
    pub arguments: Option<Value>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assistant_content_is_never_null() {
        let msgs = [
            Message::System("sys".into()),
            Message::User("hi".into()),
            Message::Assistant {
                text: String::new(),
                tool_calls: vec![ToolCall::new("c1", "echo", "{\"text\":\"a\"}")],
            },
            Message::Tool { call_id: "c1".into(), name: "echo".into(), content: "{}".into() },
        ];
        let body: Value = serde_json::from_str(&request_body("m", &msgs, &[], false)).unwrap();
        assert_eq!(body["messages"][2]["content"], "");
        assert_eq!(body["messages"][2]["tool_calls"][0]["type"], "function");
        assert_eq!(
            body["messages"][2]["tool_calls"][0]["function"]["arguments"],
            "{\"text\":\"a\"}"
        );
        assert_eq!(body["messages"][3]["tool_call_id"], "c1");
        assert!(body.get("tools").is_none());
        assert!(body.get("tool_choice").is_none());
        assert!(body.get("stream_options").is_none());
    }

    #[test]
    fn responses_parse_with_null_content_and_object_arguments() {
        let c = parse_response(
            r#"{"choices":[{"message":{"content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":{"x":1}}}]},"finish_reason":"tool_calls"}]}"#,
        )
        .unwrap();
        assert_eq!(c.content, "");
        assert_eq!(c.tool_calls, vec![ToolCall::new("a", "f", "{\"x\":1}")]);
        assert_eq!(c.usage, None);
        assert_eq!(parse_response(r#"{"choices":[]}"#), Err(LlmError::NoChoices));
        assert!(matches!(parse_response("<html>"), Err(LlmError::Malformed { .. })));
    }

    #[test]
    fn nulls_read_as_missing() {
        let c = parse_response(
            r#"{"choices":[{"message":{"content":"hi","tool_calls":null,"function_call":null},"finish_reason":"stop"}],"usage":null}"#,
        )
        .unwrap();
        assert_eq!(c.content, "hi");
        assert!(c.tool_calls.is_empty());
        let chunk: Chunk = serde_json::from_str(
            r#"{"choices":[{"index":0,"finish_reason":null,"delta":{"role":"assistant","content":null,"function_call":null,"tool_calls":null}}]}"#,
        )
        .unwrap();
        assert!(chunk.choices[0].delta.tool_calls.is_empty());
        let chunk: Chunk = serde_json::from_str(r#"{"choices":null,"usage":null}"#).unwrap();
        assert!(chunk.choices.is_empty());
    }
}
