//! The replayed history: a block-aligned window over the transcript (reference §6.6).
//!
//! Providers cache prompts by prefix. A window of "the newest N messages" moves its first
//! message every turn and loses the cache every turn; here the window's first `seq` is
//! quantised to a block (`clamp(limit / 3, 1, 20)`), so the prompt prefix stays
//! byte-identical for a block's worth of messages. Once a session is long enough the window
//! holds between `limit` and `limit + block - 1` messages.
//!
//! Repairs apply to the replay only, never to storage: tool results whose call was cut away
//! at the head are dropped, a blank assistant message (no text, no calls: a model that said
//! nothing, stored as the reference does, followed by the runner's note) is left out, and a
//! tool call with no recorded result (a turn interrupted mid-round) gets a synthetic error
//! result right after its answered siblings. A call whose result the runner produced but could
//! not store is not such a call: the runner then stores [`LOST_RESULT`](crate::LOST_RESULT)
//! in its place and stops the turn, so the replay says what happened.

use freehire_llm::Message as ModelMessage;

use crate::AssistantError;
use crate::message::{Message, Role, conversation};

/// The largest block the window start moves by; also the extra rows read.
pub const HISTORY_BLOCK: usize = 20;
/// The content of a synthetic result closing a dangling tool call.
pub const INTERRUPTED_RESULT: &str = r#"{"error":"previous turn interrupted before this tool result was recorded; retry if still needed"}"#;

/// True for an assistant message with blank text and no tool calls (never replayed).
pub fn is_blank(msg: &ModelMessage) -> bool {
    matches!(msg, ModelMessage::Assistant { text, tool_calls } if text.trim().is_empty() && tool_calls.is_empty())
}

/// The block size for a history limit: `clamp(limit / 3, 1, 20)`.
pub fn block_for(limit: usize) -> usize {
    (limit / 3).clamp(1, HISTORY_BLOCK)
}

/// The first `seq` kept for a window ending at `newest_seq`: `((newest - limit + 1) / block) *
/// block`, or 0 (keep everything) when that is negative.
pub fn block_anchor(newest_seq: i64, limit: usize) -> i64 {
    let block = block_for(limit) as i64;
    let start = newest_seq.saturating_sub(limit as i64).saturating_add(1);
    if start <= 0 { 0 } else { start / block * block }
}

/// How many rows to read for a window of `limit` messages.
pub fn rows_to_read(limit: usize) -> usize {
    limit.saturating_add(HISTORY_BLOCK)
}

/// Cuts `msgs` (ascending by seq) to the block-aligned window and drops leading orphan
/// tool results.
pub fn trim(mut msgs: Vec<Message>, limit: usize) -> Vec<Message> {
    if let Some(last) = msgs.last().filter(|_| limit > 0) {
        let anchor = block_anchor(i64::from(last.seq), limit);
        msgs.retain(|m| i64::from(m.seq) >= anchor);
    }
    let orphans = msgs.iter().take_while(|m| m.role == Role::Tool).count();
    msgs.drain(..orphans);
    msgs
}

/// Inserts a synthetic error result for every tool call (with an id) that the tool messages
/// right after it do not answer, and keeps only the first of several results for one call.
pub fn close_dangling_tool_calls(msgs: Vec<ModelMessage>) -> Vec<ModelMessage> {
    let mut out = Vec::with_capacity(msgs.len());
    let mut iter = msgs.into_iter().peekable();
    while let Some(msg) = iter.next() {
        let calls = match &msg {
            ModelMessage::Assistant { tool_calls, .. } if !tool_calls.is_empty() => {
                tool_calls.clone()
            }
            _ => {
                out.push(msg);
                continue;
            }
        };
        out.push(msg);
        let mut answered: Vec<String> = Vec::new();
        while let Some(ModelMessage::Tool { call_id, .. }) = iter.peek() {
            // A second result for one call (a write that timed out but still committed, then
            // its lost-result marker) is dropped: providers refuse two answers to one call,
            // and the first stored is the one the tool produced.
            let repeat = answered.contains(call_id);
            if !repeat {
                answered.push(call_id.clone());
            }
            if let Some(tool) = iter.next()
                && !repeat
            {
                out.push(tool);
            }
        }
        for call in calls {
            if !call.id.is_empty() && !answered.contains(&call.id) {
                out.push(ModelMessage::Tool {
                    call_id: call.id,
                    name: call.name,
                    content: INTERRUPTED_RESULT.to_owned(),
                });
            }
        }
    }
    out
}

/// The model-facing history: the system prompt (when non-empty), then the trimmed, decoded
/// and repaired window of `stored` (ascending by seq).
pub fn build(
    system: &str,
    stored: Vec<Message>,
    limit: usize,
) -> Result<Vec<ModelMessage>, AssistantError> {
    let window = trim(stored, limit);
    let mut decoded = conversation(&window)?;
    decoded.retain(|m| !is_blank(m));
    let decoded = close_dangling_tool_calls(decoded);
    let mut out = Vec::with_capacity(decoded.len() + 1);
    if !system.is_empty() {
        out.push(ModelMessage::System(system.to_owned()));
    }
    out.extend(decoded);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{encode_assistant, encode_tool_result, encode_user};
    use freehire_llm::ToolCall;

    fn stored(seq: i32, m: crate::NewMessage) -> Message {
        Message { seq, role: m.role, content: m.content }
    }

    #[test]
    fn blocks_follow_the_formula() {
        assert_eq!(block_for(60), 20);
        assert_eq!(block_for(3), 1);
        assert_eq!(block_for(0), 1);
        assert_eq!(block_for(4), 1);
        assert_eq!(block_for(30), 10);
        assert_eq!(block_for(600), 20);
        assert_eq!(block_anchor(10, 60), 0);
        assert_eq!(block_anchor(200, 60), 140);
        assert_eq!(block_anchor(219, 60), 160);
        assert_eq!(block_anchor(10, 4), 7);
    }

    #[test]
    fn the_head_moves_in_blocks_and_the_window_stays_bounded() {
        // Reference: limit 60, newest seq 200..224, 80 rows read: at most two distinct heads.
        let mut heads = std::collections::BTreeSet::new();
        for newest in 200..225 {
            heads.insert(block_anchor(newest, 60));
        }
        assert!(heads.len() <= 2, "{heads:?}");
        for newest in 200..400i64 {
            let len = newest - block_anchor(newest, 60) + 1;
            assert!((60..80).contains(&len), "newest {newest}: {len}");
        }
    }

    #[test]
    fn leading_orphans_are_dropped_and_dangling_calls_closed() {
        let msgs = vec![
            stored(1, encode_assistant("", &[ToolCall::new("c1", "echo", "{}")])),
            stored(2, encode_tool_result("c1", "echo", "{}")),
            stored(3, encode_assistant("done", &[])),
        ];
        let h = build("", msgs, 2).unwrap();
        assert!(matches!(h[0], ModelMessage::Assistant { .. }));

        let msgs = vec![
            stored(
                1,
                encode_assistant(
                    "",
                    &[
                        ToolCall::new("c1", "a", "{}"),
                        ToolCall::new("c2", "b", "{}"),
                        ToolCall::new("", "c", "{}"),
                    ],
                ),
            ),
            stored(2, encode_tool_result("c1", "a", "{}")),
            stored(3, encode_user("hello?")),
        ];
        let h = build("sys", msgs, 60).unwrap();
        assert_eq!(h.len(), 5);
        assert_eq!(
            h[2],
            ModelMessage::Tool { call_id: "c1".into(), name: "a".into(), content: "{}".into() }
        );
        assert_eq!(
            h[3],
            ModelMessage::Tool {
                call_id: "c2".into(),
                name: "b".into(),
                content: INTERRUPTED_RESULT.into()
            }
        );
        assert_eq!(h[4], ModelMessage::User("hello?".into()));
    }

    // scenario: A second result for one call is not replayed
    #[test]
    fn a_second_result_for_one_call_is_not_replayed() {
        use freehire_llm::ToolCall;
        let msgs = vec![
            ModelMessage::Assistant {
                text: String::new(),
                tool_calls: vec![ToolCall::new("c1", "echo", "{}")],
            },
            ModelMessage::Tool {
                call_id: "c1".into(),
                name: "echo".into(),
                content: "{\"ok\":1}".into(),
            },
            ModelMessage::Tool {
                call_id: "c1".into(),
                name: "echo".into(),
                content: "{\"lost\":1}".into(),
            },
        ];
        let out = close_dangling_tool_calls(msgs);
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(matches!(&out[1], ModelMessage::Tool { content, .. } if content.contains("ok")));
    }
}
