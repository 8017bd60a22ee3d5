//! The ordered [`Registry`], the [`ToolSpec`]s it offers the model and the never-failing
//! [`Registry::call`].

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

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

/// How long one tool call may run before [`Registry::call`] gives up on it (our choice: a
/// tool is a database query or a search, never a long job; a slower one sets its own limit
/// with [`Registry::with_call_timeout`]).
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// The tools one session may call, in a fixed order, plus the result cap and the per-call
/// deadline. Every tool acts for owners of type `O`.
pub struct Registry<O: Owner> {
    tools: Vec<Arc<dyn Tool<O>>>,
    max_result_bytes: usize,
    call_timeout: Duration,
}

impl<O: Owner> Clone for Registry<O> {
    fn clone(&self) -> Self {
        Self {
            tools: self.tools.clone(),
            max_result_bytes: self.max_result_bytes,
            call_timeout: self.call_timeout,
        }
    }
}

impl<O: Owner> Default for Registry<O> {
    fn default() -> Self {
        Self { tools: Vec::new(), max_result_bytes: 0, call_timeout: DEFAULT_CALL_TIMEOUT }
    }
}

impl<O: Owner> std::fmt::Debug for Registry<O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registry")
            .field("tools", &self.names())
            .field("max_result_bytes", &self.max_result_bytes)
            .field("call_timeout", &self.call_timeout)
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

    /// Sets how long one call may run ([`DEFAULT_CALL_TIMEOUT`] unless set; a zero duration
    /// means the default, never "no deadline").
    #[must_use]
    pub fn with_call_timeout(mut self, timeout: Duration) -> Self {
        self.call_timeout = if timeout.is_zero() { DEFAULT_CALL_TIMEOUT } else { timeout };
        self
    }

    /// How long one call may run.
    pub fn call_timeout(&self) -> Duration {
        self.call_timeout
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
    /// `names` (a name it does not hold is skipped), with the same result cap and deadline.
    #[must_use]
    pub fn subset(&self, names: &[&str]) -> Self {
        let tools = names
            .iter()
            .filter_map(|name| self.tools.iter().find(|t| t.name() == *name).cloned())
            .collect::<Vec<_>>();
        Self::new(tools)
            .with_max_result_bytes(self.max_result_bytes)
            .with_call_timeout(self.call_timeout)
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
    /// the tool is caught and reported the same way. The call is raced with its deadline
    /// ([`Registry::call_timeout`]) and with `ctx`'s cancellation token: whichever comes first
    /// abandons the tool's future (dropping it) and answers with a failed result naming the
    /// tool and the limit, or saying it was cancelled. A call whose token is already cancelled
    /// does not start the tool at all. Runs on a Tokio runtime (the deadline is a Tokio timer).
    pub async fn call(&self, ctx: &CallContext, owner: &O, name: &str, args: &str) -> CallResult {
        let Some(tool) = self.tools.iter().find(|t| t.name() == name) else {
            return CallResult::error(&self.unknown_tool(name));
        };
        let run = AssertUnwindSafe(tool.run(ctx, owner, args)).catch_unwind();
        let limit = self.call_timeout;
        let run = tokio::select! {
            biased;
            () = ctx.cancel_token().cancelled() => {
                return CallResult::error(&format!(
                    "tool {name:?} was cancelled: the turn was stopped before it finished"
                ));
            }
            run = tokio::time::timeout(limit, run) => match run {
                Ok(run) => run,
                Err(_) => {
                    return CallResult::error(&format!(
                        "tool {name:?} did not finish within its limit of {} and was abandoned; try again later or with a narrower request",
                        human(limit)
                    ));
                }
            },
        };
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

    /// The message for a call of a tool this registry does not hold (an empty name included).
    fn unknown_tool(&self, name: &str) -> String {
        let names = self.names();
        let allowed = if names.is_empty() { "(none)".to_owned() } else { names.join(", ") };
        if name.trim().is_empty() {
            format!(
                "a tool call without a tool name — name one of the tools you were given: {allowed}"
            )
        } else {
            format!("unknown tool {name:?} — call one of the tools you were given: {allowed}")
        }
    }

    /// `payload` unchanged when it fits the cap, else the truncation envelope.
    fn capped(&self, payload: String) -> String {
        cap_payload(payload, self.max_result_bytes)
    }
}

/// Applies a byte cap to a successful payload (reference §5.2): a longer payload becomes
/// `{"truncated":true,"note":"result was N bytes, truncated to M — …","partial":"<prefix>"}`,
/// with `partial` cut on a character boundary. The cap bounds what the model receives: the
/// whole envelope, escaping included, is at most `cap` bytes (`partial` is the longest prefix
/// that fits). A cap too small for the envelope with an empty `partial` gets
/// `{"truncated":true,"note":"result too large"}`, or `{"truncated":true}` when even that
/// does not fit.
pub(crate) fn cap_payload(payload: String, cap: usize) -> String {
    if cap == 0 || payload.len() <= cap {
        return payload;
    }
    let note = format!(
        "result was {} bytes, truncated to {cap} — narrow the call (fewer results, a tighter filter) to see the rest",
        payload.len()
    );
    let envelope = |cut: usize| {
        serde_json::to_string(
            &json!({ "truncated": true, "note": &note, "partial": &payload[..cut] }),
        )
        .unwrap_or_default()
    };
    let mut cut = floor_char_boundary(&payload, cap);
    loop {
        let out = envelope(cut);
        if !out.is_empty() && out.len() <= cap {
            return out;
        }
        if cut == 0 {
            break;
        }
        // Every byte of `partial` costs at least one byte of the envelope, so dropping the
        // excess from `partial` fits in one step, bar a character boundary.
        let excess = out.len().saturating_sub(cap).max(1);
        cut = floor_char_boundary(&payload, cut.saturating_sub(excess));
    }
    const SHORT: &str = r#"{"truncated":true,"note":"result too large"}"#;
    if SHORT.len() <= cap { SHORT.to_owned() } else { r#"{"truncated":true}"#.to_owned() }
}

/// The largest character boundary of `s` at or below `i`.
fn floor_char_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// A deadline for a message: whole seconds when it has no fraction, else milliseconds.
fn human(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{} ms", d.as_millis())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn capping_cuts_on_a_char_boundary_and_bounds_the_envelope() {
        let payload = serde_json::to_string(&"é".repeat(200)).unwrap(); // 402 bytes
        for cap in [170, 171, 200, 300, 401] {
            let out = cap_payload(payload.clone(), cap);
            assert!(out.len() <= cap, "cap {cap}: {} bytes", out.len());
            let v: Value = serde_json::from_str(&out).unwrap();
            assert_eq!(v["truncated"], true);
            let partial = v["partial"].as_str().unwrap();
            assert!(payload.starts_with(partial));
            assert!(
                v["note"]
                    .as_str()
                    .unwrap()
                    .contains(&format!("result was 402 bytes, truncated to {cap}"))
            );
        }
        // Quotes escape to two bytes each: the envelope still fits.
        let quoted = serde_json::to_string(&"\"".repeat(300)).unwrap();
        let out = cap_payload(quoted, 250);
        assert!(out.len() <= 250, "{}", out.len());
        assert_eq!(
            cap_payload(payload.clone(), 60),
            r#"{"truncated":true,"note":"result too large"}"#
        );
        assert_eq!(cap_payload(payload.clone(), 20), r#"{"truncated":true}"#);
        assert_eq!(cap_payload(payload.clone(), 0), payload);
        assert_eq!(cap_payload(payload.clone(), 402), payload);
    }
}
