//! [`needs_retry`]: whether a stored transcript's last turn ended without an answer, so a
//! client rendering it (the web page, the API's `retryable`) offers Retry after a reload as it
//! does on a live error result.
//!
//! The rule, in one place: the transcript has a last user message with text (what the retry
//! route runs again; without one a retry is `nothing_to_retry`), and the transcript does not
//! end with an assistant answer, an assistant message with text and no tool calls. So it is
//! true when nothing was written after the user's message (the model failed, the turn was
//! cancelled before any text), when the last round's tool results or the answer after them
//! are missing (a failed call after the tools ran, a lost write), and false once an answer or
//! one of the runner's own notes (the step-limit and empty-reply texts, stored as assistant
//! text) closes the turn, including text kept from a turn cancelled mid-answer.

use freehire_assistant::{Message, Role};
use serde_json::Value;

/// The message's JSON payload (`Null` when it does not parse).
fn payload(message: &Message) -> Value {
    serde_json::from_str(&message.content).unwrap_or(Value::Null)
}

fn has_text(content: &Value) -> bool {
    content.get("text").and_then(Value::as_str).is_some_and(|t| !t.trim().is_empty())
}

fn is_answer(message: &Message) -> bool {
    if message.role != Role::Assistant {
        return false;
    }
    let content = payload(message);
    let calls = content.get("tool_calls").and_then(Value::as_array).is_some_and(|c| !c.is_empty());
    has_text(&content) && !calls
}

/// Whether the last turn of `messages` (a whole transcript, by `seq`) did not finish with an
/// assistant answer, so Retry applies (see the module docs).
pub fn needs_retry(messages: &[Message]) -> bool {
    let Some(last_user) = messages.iter().rposition(|m| m.role == Role::User) else {
        return false;
    };
    if !has_text(&payload(&messages[last_user])) {
        return false;
    }
    !messages.last().is_some_and(is_answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seq: i32, role: Role, content: Value) -> Message {
        Message { seq, role, content: content.to_string() }
    }

    fn transcript(rows: &[(Role, Value)]) -> Vec<Message> {
        rows.iter()
            .enumerate()
            .map(|(i, (role, content))| at(i32::try_from(i).unwrap() + 1, *role, content.clone()))
            .collect()
    }

    use Role::{Assistant, Tool, User};
    use serde_json::json;

    #[test]
    fn nothing_to_retry_without_a_user_message_with_text() {
        assert!(!needs_retry(&[]));
        assert!(!needs_retry(&transcript(&[(Assistant, json!({"text": "hello"}))])));
        assert!(!needs_retry(&transcript(&[(User, json!({"text": "  "}))])), "a blank prompt");
        assert!(!needs_retry(&transcript(&[(User, json!("not an object"))])));
    }

    #[test]
    fn a_prompt_with_nothing_after_it_needs_a_retry() {
        // The model failed, or the turn was cancelled before any text.
        assert!(needs_retry(&transcript(&[(User, json!({"text": "hello"}))])));
        // A later turn failed after an earlier one was answered.
        assert!(needs_retry(&transcript(&[
            (User, json!({"text": "hello"})),
            (Assistant, json!({"text": "hi"})),
            (User, json!({"text": "and now?"})),
        ])));
        // A blank assistant message is no answer.
        assert!(needs_retry(&transcript(&[
            (User, json!({"text": "hello"})),
            (Assistant, json!({})),
            (Assistant, json!({"text": " "})),
        ])));
    }

    #[test]
    fn a_turn_cut_after_its_tools_needs_a_retry() {
        let call = json!({"text": "Let me look.", "tool_calls": [{"id": "c1", "name": "search_jobs", "arguments": "{}"}]});
        // The tools ran, the next model call failed.
        assert!(needs_retry(&transcript(&[
            (User, json!({"text": "rust jobs"})),
            (Assistant, call.clone()),
            (Tool, json!({"tool_call_id": "c1", "name": "search_jobs", "result": "{}"})),
        ])));
        // The tool result's write was lost.
        assert!(needs_retry(&transcript(&[
            (User, json!({"text": "rust jobs"})),
            (Assistant, call)
        ])));
    }

    #[test]
    fn an_answer_or_a_note_closes_the_turn() {
        assert!(!needs_retry(&transcript(&[
            (User, json!({"text": "rust jobs"})),
            (
                Assistant,
                json!({"tool_calls": [{"id": "c1", "name": "search_jobs", "arguments": "{}"}]})
            ),
            (Tool, json!({"tool_call_id": "c1", "name": "search_jobs", "result": "{}"})),
            (Assistant, json!({"text": "Two fit.", "tool_calls": []})),
        ])));
        let note = freehire_assistant::STEP_LIMIT_NOTE;
        assert!(!needs_retry(&transcript(&[
            (User, json!({"text": "rust jobs"})),
            (Assistant, json!({"text": note})),
        ])));
    }
}
