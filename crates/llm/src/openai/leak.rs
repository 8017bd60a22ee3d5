//! Tool-call JSON a model leaks into its text content, kept out of the user's text.
//!
//! Some models (and servers that do not parse their tool-call syntax) write a tool call into
//! the answer text instead of the protocol's `tool_calls`. [`TextFilter`] sits between the
//! content deltas and the sink and applies two rules:
//!
//! 1. **Tagged calls.** A `<tool_call>` … `</tool_call>` block (those exact tags) anywhere in
//!    the content is removed, tags included; an unclosed block runs to the end of the content.
//!    A delta ending in a proper prefix of `<tool_call>` (`<tool_`) is held back until the
//!    next delta says whether the tag follows.
//! 2. **A bare call as the whole answer.** Content whose first non-whitespace character is
//!    `{` is held back until it is decided. When the whole content, trimmed, is one or more
//!    JSON objects (separated by nothing but whitespace), each with a non-empty string `name`
//!    and an `arguments` or `parameters` member, it is removed. As soon as the held text can no
//!    longer be that (a value of another shape, other text after an object, text that is not
//!    JSON), it is released unchanged and the content streams on normally (rule 1 still
//!    applies). Held text beyond [`HOLD_LIMIT`] bytes is released.
//!
//! Removed text never reaches the sink or the answer's `content`; a removed block whose JSON
//! has that call shape is returned as a leaked call (the client turns it into a tool call
//! when the answer has no real ones). Reasoning deltas are not filtered.

use serde_json::Value;

/// The most text held back while deciding whether a leading `{` starts a leaked call.
pub(crate) const HOLD_LIMIT: usize = 64 * 1024;

const OPEN: &str = "<tool_call>";
const CLOSE: &str = "</tool_call>";

/// A call found in the text: its name and its argument JSON as a string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Leaked {
    pub name: String,
    pub arguments: String,
}

/// The streaming filter; see the module docs for the rules.
#[derive(Debug, Default)]
pub(crate) struct TextFilter {
    /// Rule 2 is still deciding (nothing but whitespace or a possible leaked call so far).
    leading_done: bool,
    /// Text held for rule 2.
    leading: String,
    /// Rule 1: inside a `<tool_call>` block.
    inside: bool,
    /// Rule 1: held text (a partial tag outside, the block's body inside).
    held: String,
    /// Calls found so far.
    leaked: Vec<Leaked>,
}

enum Verdict {
    Leak,
    Undecided,
    NotLeak,
}

impl TextFilter {
    /// Filters one content delta; returns the text that may be shown now (possibly empty).
    pub fn push(&mut self, delta: &str) -> String {
        if !self.leading_done {
            self.leading.push_str(delta);
            let start = self.leading.trim_start();
            if start.is_empty() {
                return String::new();
            }
            if start.starts_with('{') {
                match judge(start, false) {
                    Verdict::Undecided if self.leading.len() <= HOLD_LIMIT => {
                        return String::new();
                    }
                    // Only decided at the end of the content.
                    Verdict::Leak | Verdict::Undecided | Verdict::NotLeak => {}
                }
            }
            self.leading_done = true;
            let held = std::mem::take(&mut self.leading);
            return self.tags(&held);
        }
        self.tags(delta)
    }

    /// Ends the content: returns the last text that may be shown and the leaked calls.
    pub fn finish(mut self) -> (String, Vec<Leaked>) {
        let mut out = String::new();
        if !self.leading_done {
            self.leading_done = true;
            let held = std::mem::take(&mut self.leading);
            let start = held.trim();
            if start.is_empty() {
                return (String::new(), self.leaked);
            }
            if matches!(judge(start, true), Verdict::Leak) {
                self.leaked.extend(calls_in(start));
                return (String::new(), self.leaked);
            }
            out = self.tags(&held);
        }
        if self.inside {
            // An unclosed block: still a call, never text.
            let body = std::mem::take(&mut self.held);
            self.leaked.extend(calls_in(body.trim()));
        } else {
            out.push_str(&std::mem::take(&mut self.held));
        }
        (out, self.leaked)
    }

    /// Rule 1 over `text`: returns what may be shown.
    fn tags(&mut self, text: &str) -> String {
        self.held.push_str(text);
        let mut out = String::new();
        loop {
            if self.inside {
                let Some(end) = self.held.find(CLOSE) else { return out };
                let body: String = self.held[..end].to_owned();
                self.leaked.extend(calls_in(body.trim()));
                self.held.drain(..end + CLOSE.len());
                self.inside = false;
            } else if let Some(start) = self.held.find(OPEN) {
                out.push_str(&self.held[..start]);
                self.held.drain(..start + OPEN.len());
                self.inside = true;
            } else {
                let keep = partial_tag_suffix(&self.held);
                let cut = self.held.len() - keep;
                out.push_str(&self.held[..cut]);
                self.held.drain(..cut);
                return out;
            }
        }
    }
}

/// The length of the longest suffix of `s` that is a proper prefix of `<tool_call>`.
fn partial_tag_suffix(s: &str) -> usize {
    (1..OPEN.len()).rev().find(|&n| s.ends_with(&OPEN[..n])).unwrap_or(0)
}

/// Whether `text` (starting with `{`) is, or may still become, a run of leaked calls.
fn judge(text: &str, at_end: bool) -> Verdict {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    let mut any = false;
    loop {
        match stream.next() {
            None => {
                return match (any, at_end) {
                    (true, true) => Verdict::Leak,
                    (false, true) => Verdict::NotLeak,
                    (_, false) => Verdict::Undecided,
                };
            }
            Some(Ok(value)) => {
                if leaked(&value).is_none() {
                    return Verdict::NotLeak;
                }
                any = true;
            }
            Some(Err(e)) if e.is_eof() && !at_end => return Verdict::Undecided,
            Some(Err(_)) => return Verdict::NotLeak,
        }
    }
}

/// The leaked calls in `text`: every JSON object in it that has the call shape.
fn calls_in(text: &str) -> Vec<Leaked> {
    serde_json::Deserializer::from_str(text)
        .into_iter::<Value>()
        .map_while(Result::ok)
        .filter_map(|v| leaked(&v))
        .collect()
}

/// `value` as a call: an object with a non-empty string `name` and `arguments` or
/// `parameters`.
fn leaked(value: &Value) -> Option<Leaked> {
    let object = value.as_object()?;
    let name = object.get("name")?.as_str().filter(|n| !n.trim().is_empty())?;
    let arguments = object.get("arguments").or_else(|| object.get("parameters"))?;
    let arguments = match arguments {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    Some(Leaked { name: name.to_owned(), arguments })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `deltas`, returning the shown text (concatenated) and the leaked calls.
    fn run(deltas: &[&str]) -> (String, Vec<Leaked>) {
        let mut f = TextFilter::default();
        let mut shown: String = deltas.iter().map(|d| f.push(d)).collect();
        let (rest, leaked) = f.finish();
        shown.push_str(&rest);
        (shown, leaked)
    }

    fn call(name: &str, arguments: &str) -> Leaked {
        Leaked { name: name.into(), arguments: arguments.into() }
    }

    #[test]
    fn a_bare_call_as_the_whole_answer_is_removed() {
        let (shown, leaked) =
            run(&["  {\"name\":\"search_", "jobs\",\"arguments\":{\"query\":\"rust\"}}", "\n"]);
        assert_eq!(shown, "");
        assert_eq!(leaked, [call("search_jobs", "{\"query\":\"rust\"}")]);
        let (shown, leaked) = run(&[
            "{\"name\":\"a\",\"parameters\":{}}\n{\"name\":\"b\",\"arguments\":\"{\\\"x\\\":1}\"}",
        ]);
        assert_eq!(shown, "");
        assert_eq!(leaked, [call("a", "{}"), call("b", "{\"x\":1}")]);
    }

    #[test]
    fn json_that_is_not_a_call_is_released_unchanged() {
        for deltas in [
            &["{\"jobs\": 3}", " and more"][..],
            &["{\"name\":\"a\",\"arguments\":{}}", " is how you call it"],
            &["{not json", " at all"],
            &["{\"name\":\"\",\"arguments\":{}}"],
            &["{\"name\":\"a\"}"],
        ] {
            let (shown, leaked) = run(deltas);
            assert_eq!(shown, deltas.concat(), "{deltas:?}");
            assert!(leaked.is_empty());
        }
        // Released as soon as it is decided, not at the end.
        let mut f = TextFilter::default();
        assert_eq!(f.push("{\"a\":"), "");
        assert_eq!(f.push("1} then"), "{\"a\":1} then");
        assert_eq!(f.push(" text"), " text");
    }

    #[test]
    fn a_cut_call_is_released_as_text() {
        let (shown, leaked) = run(&["{\"name\":\"a\",\"argu"]);
        assert_eq!(shown, "{\"name\":\"a\",\"argu");
        assert!(leaked.is_empty());
    }

    #[test]
    fn tagged_calls_are_removed_anywhere_even_split_across_deltas() {
        let (shown, leaked) = run(&[
            "Let me look.",
            " <tool_",
            "call>{\"name\":\"facets\",\"arguments\":{}}</tool",
            "_call> Done <t",
            "able>",
        ]);
        assert_eq!(shown, "Let me look.  Done <table>");
        assert_eq!(leaked, [call("facets", "{}")]);
        let (shown, leaked) = run(&["Sure <tool_call>{\"name\":\"x\",\"arguments\":{}}"]);
        assert_eq!(shown, "Sure ");
        assert_eq!(leaked, [call("x", "{}")], "an unclosed block is still a call");
        let (shown, _) = run(&["ends with <tool_"]);
        assert_eq!(shown, "ends with <tool_", "a partial tag at the end is text");
    }

    #[test]
    fn plain_text_streams_through_at_once() {
        let mut f = TextFilter::default();
        assert_eq!(f.push("Hel"), "Hel");
        assert_eq!(
            f.push("lo {\"name\":\"a\",\"arguments\":{}}"),
            "lo {\"name\":\"a\",\"arguments\":{}}"
        );
        assert_eq!(f.finish(), (String::new(), Vec::new()));
    }
}
