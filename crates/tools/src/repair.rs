//! The one repair applied to a model's tool-argument string (reference §3.3).
//!
//! Some providers append junk after the arguments (a stray `</invoke>`); [`heal_arguments`]
//! keeps the first JSON value and drops the rest. Two whole payloads run together are a
//! different case: [`looks_concatenated`] spots them so the runner can pass them raw and let
//! strict decoding fail loudly, instead of silently running on only the first.

use serde_json::Value;

/// The first JSON object or array in `s` (starting at its first `{` or `[`), with the text
/// after it; `None` when no value decodes from there.
pub fn first_json_value(s: &str) -> Option<(Value, &str)> {
    let start = s.find(['{', '['])?;
    let rest = &s[start..];
    let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
    match stream.next() {
        Some(Ok(value)) => {
            let end = stream.byte_offset();
            Some((value, &rest[end..]))
        }
        _ => None,
    }
}

/// Valid JSON that parses into a value: `IgnoredAny` would accept numbers out of `f64`'s
/// range (found by the fuzzer), which no consumer can read back.
fn is_json(s: &str) -> bool {
    serde_json::from_str::<Value>(s).is_ok()
}

/// The argument string to store and replay: `{}` when blank, the string unchanged when it
/// is valid JSON, the first JSON value when one decodes (trailing junk dropped), else `{}`.
pub fn heal_arguments(args: &str) -> String {
    let trimmed = args.trim();
    if trimmed.is_empty() {
        return "{}".to_owned();
    }
    if is_json(args) {
        return args.to_owned();
    }
    // Padding JSON does not count as whitespace (a vertical tab, say) is dropped.
    if is_json(trimmed) {
        return trimmed.to_owned();
    }
    match first_json_value(trimmed) {
        Some((value, _)) => value.to_string(),
        None => "{}".to_owned(),
    }
}

/// True when `args` is two whole JSON payloads run together: not valid JSON itself, its first
/// value decodes, and what follows (trimmed) is valid JSON too.
pub fn looks_concatenated(args: &str) -> bool {
    let trimmed = args.trim();
    if is_json(trimmed) {
        return false;
    }
    match first_json_value(trimmed) {
        Some((_, rest)) => is_json(rest.trim()),
        None => false,
    }
}

/// The arguments a tool is run with: the raw string when it looks concatenated (so strict
/// decoding refuses it), the healed string otherwise.
pub fn arguments_for_run(raw: &str) -> String {
    if looks_concatenated(raw) { raw.to_owned() } else { heal_arguments(raw) }
}

/// `args` itself when it is valid JSON, else the raw string as a JSON string (the `input` of
/// a `tool_use` event).
pub fn valid_json(args: &str) -> Value {
    match serde_json::from_str::<Value>(args) {
        Ok(v) => v,
        Err(_) => Value::String(args.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn healing_keeps_valid_json_byte_for_byte() {
        let raw = "{ \"b\": 1,\n \"a\": [1, 2] }";
        assert_eq!(heal_arguments(raw), raw);
        assert_eq!(heal_arguments("  "), "{}");
        assert_eq!(heal_arguments(""), "{}");
    }

    #[test]
    fn healing_drops_trailing_junk() {
        assert_eq!(heal_arguments("{\"a\":1}</invoke>"), "{\"a\":1}");
        assert_eq!(heal_arguments("junk {\"a\":1} more"), "{\"a\":1}");
        assert_eq!(heal_arguments("not json at all"), "{}");
        assert_eq!(heal_arguments("{\"a\":"), "{}");
    }

    #[test]
    fn healed_output_is_always_json() {
        // Found by the fuzzer: Unicode whitespace that JSON does not allow around a value.
        assert_eq!(heal_arguments("\n81\u{b}"), "81");
        assert_eq!(heal_arguments("\u{a0}{}\u{2003}"), "{}");
        assert_eq!(heal_arguments("6666666666.66666666666e6666"), "{}");
    }

    #[test]
    fn concatenation_is_spotted() {
        assert!(looks_concatenated("{\"text\":\"first\"}{\"text\":\"second\"}"));
        assert!(looks_concatenated(" {\"a\":1} \n [2] "));
        assert!(!looks_concatenated("{\"a\":1}"));
        assert!(!looks_concatenated("{\"a\":1}</invoke>"));
        assert!(!looks_concatenated(""));
        assert_eq!(
            arguments_for_run("{\"text\":\"first\"}{\"text\":\"second\"}"),
            "{\"text\":\"first\"}{\"text\":\"second\"}"
        );
        assert_eq!(arguments_for_run("{\"a\":1}</invoke>"), "{\"a\":1}");
    }

    #[test]
    fn valid_json_falls_back_to_a_string() {
        assert_eq!(valid_json("{\"a\":1}"), serde_json::json!({"a":1}));
        assert_eq!(valid_json("{oops"), Value::String("{oops".into()));
    }
}
