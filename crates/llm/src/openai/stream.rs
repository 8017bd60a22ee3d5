//! Assembling a streamed answer from its chunks.
//!
//! Tool-call fragments are assembled by their `index` (the protocol's way): a fragment
//! extends the newest call with its index, except that a fragment carrying a new non-empty
//! `id` under an index already in use starts a new call (servers that number every call 0).
//! Without an index, a named fragment starts a call and a nameless one continues the previous
//! call (a leading nameless one is dropped). Calls with no id get one ([`fill_ids`]); a call
//! with no name is kept (the caller answers it) unless it carried nothing at all. Text content
//! passes through [`TextFilter`](super::leak::TextFilter), so tool-call JSON the model leaks
//! into its text never reaches the sink; leaked calls become the answer's tool calls when it
//! has no real ones.

use super::leak::TextFilter;
use super::wire::{Chunk, arguments_text};
use crate::message::fill_ids;
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
    filter: TextFilter,
    reasoning: String,
    calls: Vec<Partial>,
    usage: Option<Usage>,
    finish_reason: Option<String>,
    /// Number of chunks seen.
    pub chunks: usize,
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
                let shown = self.filter.push(&text);
                self.show(&shown, sink);
            }
            if let Some(text) =
                delta.reasoning_content.or(delta.reasoning).filter(|t| !t.is_empty())
            {
                sink.on_thinking(&text);
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

    fn show(&mut self, text: &str, sink: &dyn StreamSink) {
        if !text.is_empty() {
            sink.on_text(text);
            self.content.push_str(text);
        }
    }

    fn fragment(&mut self, frag: super::wire::CallFragment) {
        let (name, args) = match frag.function {
            Some(f) => (f.name.unwrap_or_default(), arguments_text(f.arguments)),
            None => (String::new(), String::new()),
        };
        let id = frag.id.unwrap_or_default();
        let slot = match frag.index {
            // The protocol's way: fragments carry the index of the call they extend.
            // A new non-empty id under an index in use starts a new call.
            Some(index) => match self.calls.iter().rposition(|c| c.index == Some(index)) {
                Some(i)
                    if id.is_empty() || self.calls[i].id.is_empty() || self.calls[i].id == id =>
                {
                    i
                }
                _ => {
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

    /// True when a chunk said why the answer finished.
    pub fn finished(&self) -> bool {
        self.finish_reason.is_some()
    }

    /// The assembled choice: held-back text released to `sink`, leaked calls adopted when
    /// there is no real one, calls that carried nothing dropped, missing ids filled.
    pub fn finish(mut self, sink: &dyn StreamSink) -> Choice {
        let filter = std::mem::take(&mut self.filter);
        let (rest, leaked) = filter.finish();
        self.show(&rest, sink);
        let mut tool_calls: Vec<ToolCall> = self
            .calls
            .into_iter()
            .filter(|c| !(c.name.is_empty() && c.id.is_empty() && c.arguments.is_empty()))
            .map(|c| ToolCall { id: c.id, name: c.name, arguments: c.arguments })
            .collect();
        if tool_calls.is_empty() {
            tool_calls =
                leaked.into_iter().map(|l| ToolCall::new("", l.name, l.arguments)).collect();
        }
        fill_ids(&mut tool_calls);
        Choice {
            content: self.content,
            reasoning: self.reasoning,
            tool_calls,
            usage: self.usage,
            finish_reason: self.finish_reason,
        }
    }
}

/// Filters a whole (non-streamed) answer the way [`Assembler`] filters a stream: leaked
/// tool-call JSON leaves the text and becomes the calls when there are no real ones.
pub(crate) fn filter_whole(mut choice: Choice) -> Choice {
    let mut filter = TextFilter::default();
    let mut content = filter.push(&choice.content);
    let (rest, leaked) = filter.finish();
    content.push_str(&rest);
    choice.content = content;
    if choice.tool_calls.is_empty() {
        choice.tool_calls =
            leaked.into_iter().map(|l| ToolCall::new("", l.name, l.arguments)).collect();
    }
    fill_ids(&mut choice.tool_calls);
    choice
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
        let c = a.finish(&NoStream);
        assert_eq!(
            c.tool_calls,
            vec![ToolCall::new("a", "f", "{\"x\":1}"), ToolCall::new("b", "g", "{}")]
        );
    }

    fn assemble(chunks: &[&str]) -> Choice {
        let mut a = Assembler::default();
        for data in chunks {
            a.push(data, &NoStream).unwrap();
        }
        a.finish(&NoStream)
    }

    #[test]
    fn a_new_id_under_a_reused_index_starts_a_new_call() {
        let c = assemble(&[
            r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{\"x\""}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":":1}"}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"b","function":{"name":"g","arguments":"{}"}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"b","function":{"arguments":""}}]},"finish_reason":"tool_calls"}]}"#,
        ]);
        assert_eq!(
            c.tool_calls,
            vec![ToolCall::new("a", "f", "{\"x\":1}"), ToolCall::new("b", "g", "{}")]
        );
    }

    #[test]
    fn calls_without_ids_get_unique_ones_and_nameless_calls_are_kept() {
        let c = assemble(&[
            r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"name":"f","arguments":"{}"}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"index":1,"id":"call_1","function":{"name":"g","arguments":"{}"}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"index":2,"function":{"arguments":"{\"q\":1}"}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"index":3}]},"finish_reason":"tool_calls"}]}"#,
        ]);
        let ids: Vec<&str> = c.tool_calls.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(c.tool_calls.len(), 3, "an empty slot is dropped: {:?}", c.tool_calls);
        assert_eq!(ids[1], "call_1");
        assert!(ids.iter().all(|i| !i.is_empty()));
        let mut unique = ids.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), 3, "{ids:?}");
        assert_eq!(c.tool_calls[2].name, "", "a nameless call is kept for the caller to answer");
    }
}
