//! Transcript messages: the stored rows and their payloads (reference §2.4, §3).
//!
//! A [`Message`] is `{seq, role, content}` where `content` is raw JSON kept byte-for-byte:
//!
//! | role | content |
//! |---|---|
//! | `user` | `{"text": string}` |
//! | `assistant` | `{"text"?: string, "tool_calls"?: [{"id","name","arguments"}]}` (`{}` when empty) |
//! | `tool` | `{"tool_call_id","name","result"}`; `result` is a string holding valid JSON |
//!
//! Tool-argument strings are stored exactly as the model emitted them except for the one
//! repair ([`stored_arguments`]: trailing junk dropped, blank or non-JSON as `{}`, two
//! payloads run together kept raw beside their error). Calls without a name are kept (the
//! runner answered them with a failed result, and the replay must show both). [`decode`] turns a row into the model-facing
//! [`freehire_llm::Message`]; a row that does not decode is an error, never skipped.

use freehire_llm::{Cause, Message as ModelMessage, ToolCall};
use freehire_tools::repair::stored_arguments;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::AssistantError;

/// Who wrote a transcript message. The system prompt is never stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// The candidate (or a server brief on their behalf).
    User,
    /// The model.
    Assistant,
    /// A tool result.
    Tool,
}

impl Role {
    /// The stored spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::User => "user",
            Self::Assistant => "assistant",
            Self::Tool => "tool",
        }
    }

    /// Parses the stored spelling.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "user" => Some(Self::User),
            "assistant" => Some(Self::Assistant),
            "tool" => Some(Self::Tool),
            _ => None,
        }
    }
}

impl Serialize for Role {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Role {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Self::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("unknown role {s:?}")))
    }
}

/// A message about to be appended; the store assigns its `seq`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMessage {
    /// Who wrote it.
    pub role: Role,
    /// The JSON payload, as stored.
    pub content: String,
}

/// A stored transcript message. Serialises as `{"seq","role","content"}` with `content` as
/// the stored JSON, unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// Position in the transcript, from 1.
    pub seq: i32,
    /// Who wrote it.
    pub role: Role,
    /// The JSON payload, byte-for-byte as stored.
    pub content: String,
}

impl Serialize for Message {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let raw: &RawValue =
            serde_json::from_str(&self.content).map_err(serde::ser::Error::custom)?;
        let mut st = s.serialize_struct("Message", 3)?;
        st.serialize_field("seq", &self.seq)?;
        st.serialize_field("role", &self.role)?;
        st.serialize_field("content", raw)?;
        st.end()
    }
}

#[derive(Serialize, Deserialize)]
struct UserPayload {
    text: String,
}

#[derive(Serialize, Deserialize, Default)]
struct AssistantPayload {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    text: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    tool_calls: Vec<StoredCall>,
}

#[derive(Serialize, Deserialize)]
struct StoredCall {
    #[serde(default)]
    id: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    arguments: String,
}

#[derive(Serialize, Deserialize)]
struct ToolPayload {
    tool_call_id: String,
    name: String,
    result: String,
}

fn to_json<T: Serialize>(value: &T) -> String {
    // The payloads are plain strings and vectors of strings: serialising cannot fail.
    serde_json::to_string(value).unwrap_or_else(|_| "{}".to_owned())
}

/// A user message.
pub fn encode_user(text: &str) -> NewMessage {
    NewMessage { role: Role::User, content: to_json(&UserPayload { text: text.to_owned() }) }
}

/// An assistant message; arguments are stored with [`stored_arguments`].
pub fn encode_assistant(text: &str, calls: &[ToolCall]) -> NewMessage {
    let payload = AssistantPayload {
        text: text.to_owned(),
        tool_calls: calls
            .iter()
            .map(|c| StoredCall {
                id: c.id.clone(),
                name: c.name.clone(),
                arguments: stored_arguments(&c.arguments),
            })
            .collect(),
    };
    NewMessage { role: Role::Assistant, content: to_json(&payload) }
}

/// A tool result; `result` must be valid JSON (a [`CallResult`](freehire_tools::CallResult)'s
/// content always is).
pub fn encode_tool_result(call_id: &str, name: &str, result: &str) -> NewMessage {
    let payload = ToolPayload {
        tool_call_id: call_id.to_owned(),
        name: name.to_owned(),
        result: result.to_owned(),
    };
    NewMessage { role: Role::Tool, content: to_json(&payload) }
}

/// The model-facing form of a stored payload.
pub fn decode_content(seq: i32, role: Role, content: &str) -> Result<ModelMessage, AssistantError> {
    let bad = |e: serde_json::Error| AssistantError::Transcript { seq, source: Cause::new(e) };
    Ok(match role {
        Role::User => {
            ModelMessage::User(serde_json::from_str::<UserPayload>(content).map_err(bad)?.text)
        }
        Role::Assistant => {
            let p: AssistantPayload = serde_json::from_str(content).map_err(bad)?;
            ModelMessage::Assistant {
                text: p.text,
                tool_calls: p
                    .tool_calls
                    .into_iter()
                    .map(|c| ToolCall {
                        id: c.id,
                        name: c.name,
                        arguments: stored_arguments(&c.arguments),
                    })
                    .collect(),
            }
        }
        Role::Tool => {
            let p: ToolPayload = serde_json::from_str(content).map_err(bad)?;
            ModelMessage::Tool { call_id: p.tool_call_id, name: p.name, content: p.result }
        }
    })
}

/// The model-facing form of a stored message.
pub fn decode(msg: &Message) -> Result<ModelMessage, AssistantError> {
    decode_content(msg.seq, msg.role, &msg.content)
}

/// Decodes every message in order, failing on the first that does not decode.
pub fn conversation(msgs: &[Message]) -> Result<Vec<ModelMessage>, AssistantError> {
    msgs.iter().map(decode).collect()
}

/// The text of a user message, when it decodes.
pub fn user_text(msg: &Message) -> Option<String> {
    (msg.role == Role::User)
        .then(|| serde_json::from_str::<UserPayload>(&msg.content).ok().map(|p| p.text))
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payload_shapes_match_the_reference() {
        assert_eq!(encode_user("hi").content, r#"{"text":"hi"}"#);
        assert_eq!(encode_assistant("", &[]).content, "{}");
        assert_eq!(encode_assistant("ok", &[]).content, r#"{"text":"ok"}"#);
        let calls =
            [ToolCall::new("c1", "echo", "{\"a\":1}</invoke>"), ToolCall::new("c2", "", "{}")];
        assert_eq!(
            encode_assistant("", &calls).content,
            r#"{"tool_calls":[{"id":"c1","name":"echo","arguments":"{\"a\":1}"},{"id":"c2","name":"","arguments":"{}"}]}"#
        );
        assert_eq!(
            encode_tool_result("c1", "echo", r#"{"ok":true}"#).content,
            r#"{"tool_call_id":"c1","name":"echo","result":"{\"ok\":true}"}"#
        );
    }

    #[test]
    fn raw_arguments_are_stored_byte_for_byte() {
        let raw = "{ \"text\" :  \"spaced\"\n}";
        let m = encode_assistant("", &[ToolCall::new("c", "echo", raw)]);
        let v: serde_json::Value = serde_json::from_str(&m.content).unwrap();
        assert_eq!(v["tool_calls"][0]["arguments"], raw);
        let concatenated = r#"{"text":"first"}{"text":"second"}"#;
        let m = encode_assistant("", &[ToolCall::new("c", "echo", concatenated)]);
        let v: serde_json::Value = serde_json::from_str(&m.content).unwrap();
        assert_eq!(v["tool_calls"][0]["arguments"], concatenated, "kept beside its error");
        let m = encode_assistant("", &[ToolCall::new("c", "echo", "{\"a\":1}</invoke>")]);
        let v: serde_json::Value = serde_json::from_str(&m.content).unwrap();
        assert_eq!(v["tool_calls"][0]["arguments"], "{\"a\":1}", "the one repair");
    }

    #[test]
    fn messages_serialise_with_the_content_unchanged() {
        let m = Message { seq: 3, role: Role::User, content: "{ \"text\" : \"a\" }".into() };
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            r#"{"seq":3,"role":"user","content":{ "text" : "a" }}"#
        );
    }

    #[test]
    fn undecodable_rows_are_errors() {
        let m = Message { seq: 4, role: Role::Tool, content: r#"{"text":"x"}"#.into() };
        assert!(matches!(decode(&m), Err(AssistantError::Transcript { seq: 4, .. })));
        assert!(Role::parse("system").is_none());
    }
}
