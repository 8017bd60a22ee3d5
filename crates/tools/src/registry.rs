//! The ordered [`Registry`], the [`ToolSpec`]s it offers the model and the never-failing
//! [`Registry::call`].

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use freehire_llm::ToolSpec;
use futures::FutureExt;
use serde_json::json;

use crate::{CallContext, Owner, Tool, ToolError, panic_message};

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

/// The tools one session may call, in a fixed order, plus the result cap. Every tool acts
/// for owners of type `O`.
pub struct Registry<O: Owner> {
    tools: Vec<Arc<dyn Tool<O>>>,
    max_result_bytes: usize,
}

impl<O: Owner> Clone for Registry<O> {
    fn clone(&self) -> Self {
        Self { tools: self.tools.clone(), max_result_bytes: self.max_result_bytes }
    }
}

impl<O: Owner> Default for Registry<O> {
    fn default() -> Self {
        Self { tools: Vec::new(), max_result_bytes: 0 }
    }
}

impl<O: Owner> std::fmt::Debug for Registry<O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registry")
            .field("tools", &self.names())
            .field("max_result_bytes", &self.max_result_bytes)
            .finish()
    }
}

impl<O: Owner> Registry<O> {
    /// A registry of `tools` in order, without a result cap. A later tool with the same name
    /// replaces the earlier one and keeps the earlier one's position.
    pub fn new(tools: impl IntoIterator<Item = Arc<dyn Tool<O>>>) -> Self {
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
    pub fn register(&mut self, tool: Arc<dyn Tool<O>>) {
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

    /// The registry of the tools named in `names` that this one holds, in the order of
    /// `names` (a name it does not hold is skipped), with the same result cap.
    #[must_use]
    pub fn subset(&self, names: &[&str]) -> Self {
        let tools = names
            .iter()
            .filter_map(|name| self.tools.iter().find(|t| t.name() == *name).cloned())
            .collect::<Vec<_>>();
        Self::new(tools).with_max_result_bytes(self.max_result_bytes)
    }

    /// The tool definitions the model is given, in order.
    pub fn definitions(&self) -> Vec<ToolSpec> {
        self.tools
            .iter()
            .map(|t| ToolSpec {
                name: t.name().to_owned(),
                description: t.description().to_owned(),
                parameters: t.schema().clone(),
            })
            .collect()
    }

    /// Calls the tool `name` for `owner`. Never fails: every problem becomes a failed
    /// [`CallResult`] whose message names what was wrong and what is allowed. A panic inside
    /// the tool is caught and reported the same way.
    pub async fn call(&self, ctx: &CallContext, owner: &O, name: &str, args: &str) -> CallResult {
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
                panic_message(panic.as_ref()).unwrap_or("panicked")
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

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
