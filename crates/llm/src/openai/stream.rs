//! Assembling a streamed answer from its chunks.

use super::wire::{Chunk, arguments_text};
use crate::{Cause, Choice, LlmError, StreamSink, ToolCall, Usage};

#[derive(Default)]
struct Partial {
    index: Option<u64>,
    id: String,
    name: String,
    arguments: String,
}

/// Accumulates stream chunks into a [`Choice`], forwarding text and reasoning deltas.
#[derive(Default)]
pub(crate) struct Assembler {
    content: String,
    reasoning: String,
    calls: Vec<Partial>,
    usage: Option<Usage>,
    finish_reason: Option<String>,
    /// Number of chunks seen.
    pub chunks: usize,
    /// True once anything was forwarded to the sink.
    pub emitted: bool,
}

impl Assembler {
    /// Applies one `data:` payload.
    pub fn push(&mut self, data: &str, sink: &dyn StreamSink) -> Result<(), LlmError> {
        let chunk: Chunk = serde_json::from_str(data).map_err(|e| LlmError::Malformed {
            body: format!("stream chunk: {}", super::snippet(data)),
            source: Cause::new(e),
        })?;
        self.chunks += 1;
        if let Some(err) = chunk.error {
            let message = err
                .get("message")
                .and_then(|m| m.as_str())
                .map_or_else(|| err.to_string(), str::to_owned);
            return Err(LlmError::stream_cut(format!("provider error mid-stream: {message}")));
        }
        if let Some(u) = chunk.usage {
            self.usage = Some(u.into());
        }
        for choice in chunk.choices {
            let delta = choice.delta;
            if let Some(text) = delta.content.filter(|t| !t.is_empty()) {
                sink.on_text(&text);
                self.emitted = true;
                self.content.push_str(&text);
            }
            if let Some(text) =
                delta.reasoning_content.or(delta.reasoning).filter(|t| !t.is_empty())
            {
                sink.on_thinking(&text);
                self.emitted = true;
                self.reasoning.push_str(&text);
            }
            for frag in delta.tool_calls {
                self.fragment(frag);
            }
            if choice.finish_reason.is_some() {
                self.finish_reason = choice.finish_reason;
            }
        }
        Ok(())
    }

    fn fragment(&mut self, frag: super::wire::CallFragment) {
        let (name, args) = match frag.function {
            Some(f) => (f.name.unwrap_or_default(), arguments_text(f.arguments)),
            None => (String::new(), String::new()),
        };
        let id = frag.id.unwrap_or_default();
        let slot = match frag.index {
            // The protocol's way: fragments carry the index of the call they extend.
            Some(index) => match self.calls.iter().position(|c| c.index == Some(index)) {
                Some(i) => i,
                None => {
                    self.calls.push(Partial { index: Some(index), ..Partial::default() });
                    self.calls.len() - 1
                }
            },
            // Without an index: a named fragment starts a call, a nameless one continues the
            // previous call, and a leading nameless one is dropped.
            None if !name.is_empty() => {
                self.calls.push(Partial::default());
                self.calls.len() - 1
            }
            None => match self.calls.len() {
                0 => return,
                n => n - 1,
            },
        };
        let call = &mut self.calls[slot];
        if call.id.is_empty() {
            call.id = id;
        }
        if call.name.is_empty() {
            call.name = name;
        }
        call.arguments.push_str(&args);
    }

    /// True when the stream produced no answer at all.
    pub fn is_empty(&self) -> bool {
        self.content.trim().is_empty() && self.calls.iter().all(|c| c.name.is_empty())
    }

    /// True when a chunk said why the answer finished.
    pub fn finished(&self) -> bool {
        self.finish_reason.is_some()
    }

    /// The assembled choice; calls without a name are dropped.
    pub fn finish(self) -> Choice {
        Choice {
            content: self.content,
            reasoning: self.reasoning,
            tool_calls: self
                .calls
                .into_iter()
                .filter(|c| !c.name.is_empty())
                .map(|c| ToolCall { id: c.id, name: c.name, arguments: c.arguments })
                .collect(),
            usage: self.usage,
            finish_reason: self.finish_reason,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NoStream;

    #[test]
    fn fragments_without_an_index_follow_the_name_rule() {
        let mut a = Assembler::default();
        for data in [
            r#"{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"lost"}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"id":"a","function":{"name":"f","arguments":"{\"x\""}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":":1}"}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"id":"b","function":{"name":"g","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}"#,
        ] {
            a.push(data, &NoStream).unwrap();
        }
        let c = a.finish();
        assert_eq!(
            c.tool_calls,
            vec![ToolCall::new("a", "f", "{\"x\":1}"), ToolCall::new("b", "g", "{}")]
        );
    }
}
