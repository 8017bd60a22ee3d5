//! The ordered [`Registry`], its OpenAI-shaped [`Definition`]s and the never-failing
//! [`Registry::call`].

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use freehire_domain::UserId;
use futures::FutureExt;
use serde::Serialize;
use serde::ser::SerializeMap;
use serde_json::{Value, json};

use crate::{CallContext, Tool, ToolError};

/// The outcome of one tool call, as the model will read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallResult {
    /// Always valid JSON: the tool's payload (possibly capped) or `{"error": "..."}`.
    pub content: String,
    /// True when `content` is an error envelope.
    pub failed: bool,
}

impl CallResult {
    /// A failed result carrying `{"error": message}`.
    pub fn error(message: &str) -> Self {
        let content = serde_json::to_string(&json!({ "error": message }))
            .unwrap_or_else(|_| r#"{"error":"tool failed"}"#.to_owned());
        Self { content, failed: true }
    }
}

/// A tool as the model is told about it. Serialises in the OpenAI `tools` shape:
/// `{"type":"function","function":{"name","description","parameters"}}`.
#[derive(Debug, Clone, PartialEq)]
pub struct Definition {
    /// The tool's name.
    pub name: String,
    /// The tool's description.
    pub description: String,
    /// The JSON Schema of its arguments.
    pub parameters: Value,
}

impl Serialize for Definition {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Function<'a> {
            name: &'a str,
            description: &'a str,
            parameters: &'a Value,
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

/// The tools one session may call, in a fixed order, plus the result cap.
#[derive(Clone, Default)]
pub struct Registry {
    tools: Vec<Arc<dyn Tool>>,
    max_result_bytes: usize,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registry")
            .field("tools", &self.names())
            .field("max_result_bytes", &self.max_result_bytes)
            .finish()
    }
}

impl Registry {
    /// A registry of `tools` in order, without a result cap. A later tool with the same name
    /// replaces the earlier one and keeps the earlier one's position.
    pub fn new(tools: impl IntoIterator<Item = Arc<dyn Tool>>) -> Self {
        let mut registry = Self::default();
        for tool in tools {
            registry.register(tool);
        }
        registry
    }

    /// Sets the result cap in bytes (0 = no cap).
    #[must_use]
    pub fn with_max_result_bytes(mut self, bytes: usize) -> Self {
        self.max_result_bytes = bytes;
        self
    }

    /// The result cap in bytes (0 = no cap).
    pub fn max_result_bytes(&self) -> usize {
        self.max_result_bytes
    }

    /// Adds a tool, or replaces the one with the same name in place.
    pub fn register(&mut self, tool: Arc<dyn Tool>) {
        match self.tools.iter_mut().find(|t| t.name() == tool.name()) {
            Some(slot) => *slot = tool,
            None => self.tools.push(tool),
        }
    }

    /// The tool names, in order.
    pub fn names(&self) -> Vec<&str> {
        self.tools.iter().map(|t| t.name()).collect()
    }

    /// Number of tools.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// True when there are no tools.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The tool definitions the model is given, in order.
    pub fn definitions(&self) -> Vec<Definition> {
        self.tools
            .iter()
            .map(|t| Definition {
                name: t.name().to_owned(),
                description: t.description().to_owned(),
                parameters: t.schema().clone(),
            })
            .collect()
    }

    /// Calls the tool `name` for `owner`. Never fails: every problem becomes a failed
    /// [`CallResult`] whose message names what was wrong and what is allowed. A panic inside
    /// the tool is caught and reported the same way.
    pub async fn call(
        &self,
        ctx: &CallContext,
        owner: UserId,
        name: &str,
        args: &str,
    ) -> CallResult {
        let Some(tool) = self.tools.iter().find(|t| t.name() == name) else {
            let names = self.names();
            let allowed = if names.is_empty() { "(none)".to_owned() } else { names.join(", ") };
            return CallResult::error(&format!(
                "unknown tool {name:?} — call one of the tools you were given: {allowed}"
            ));
        };
        let run = AssertUnwindSafe(tool.run(ctx, owner, args)).catch_unwind().await;
        match run {
            Err(panic) => CallResult::error(&format!(
                "tool {name:?} crashed: {}",
                panic_message(panic.as_ref())
            )),
            Ok(Err(ToolError::Unencodable(e))) => CallResult::error(&format!(
                "tool {name:?} produced a result that could not be encoded: {e}"
            )),
            Ok(Err(e)) => CallResult::error(&e.to_string()),
            Ok(Ok(value)) => match serde_json::to_string(&value) {
                Ok(payload) => CallResult { content: self.capped(payload), failed: false },
                Err(e) => CallResult::error(&format!(
                    "tool {name:?} produced a result that could not be encoded: {e}"
                )),
            },
        }
    }

    /// `payload` unchanged when it fits the cap, else the truncation envelope.
    fn capped(&self, payload: String) -> String {
        cap_payload(payload, self.max_result_bytes)
    }
}

/// Applies a byte cap to a successful payload (reference §5.2): a longer payload becomes
/// `{"truncated":true,"note":"result was N bytes, truncated to M — …","partial":"<first ≤M bytes>"}`,
/// with `partial` cut on a character boundary.
pub(crate) fn cap_payload(payload: String, cap: usize) -> String {
    if cap == 0 || payload.len() <= cap {
        return payload;
    }
    let mut cut = cap;
    while !payload.is_char_boundary(cut) {
        cut -= 1;
    }
    let envelope = json!({
        "truncated": true,
        "note": format!(
            "result was {} bytes, truncated to {cap} — narrow the call (fewer results, a tighter filter) to see the rest",
            payload.len()
        ),
        "partial": &payload[..cut],
    });
    serde_json::to_string(&envelope)
        .unwrap_or_else(|_| r#"{"truncated":true,"note":"result too large"}"#.to_owned())
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "panicked".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capping_cuts_on_a_char_boundary() {
        let payload = serde_json::to_string("ééééé").unwrap(); // "\"ééééé\"" = 12 bytes
        let out = cap_payload(payload.clone(), 4);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["truncated"], true);
        assert_eq!(v["partial"], "\"é"); // 3 bytes: the 4th would split 'é'
        assert!(v["note"].as_str().unwrap().contains("result was 12 bytes, truncated to 4"));
        assert_eq!(cap_payload(payload.clone(), 0), payload);
        assert_eq!(cap_payload(payload.clone(), 12), payload);
    }
}
