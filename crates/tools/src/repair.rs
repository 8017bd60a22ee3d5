//! The one repair applied to a model's tool-argument string (reference §3.3), and what the
//! runner runs a tool with.
//!
//! Some providers append junk after the arguments (a stray `</invoke>`); [`heal_arguments`]
//! keeps the first JSON value and drops the rest. Two whole payloads run together are a
//! different case: [`looks_concatenated`] spots them so the runner can pass them raw and let
//! strict decoding fail loudly, instead of silently running on only the first.
//!
//! The rules, for a raw argument string from the model:
//!
//! | raw | run with ([`arguments_for_run`]) | stored and replayed ([`stored_arguments`]) |
//! |---|---|---|
//! | blank | `{}` | `{}` |
//! | valid JSON | itself | itself, byte for byte |
//! | one JSON value, then junk | the value | the value |
//! | two JSON payloads run together | raw: decoding fails, "expected a single JSON object" | raw, as the model sent it |
//! | no JSON value at all | raw: decoding fails, "the arguments are not JSON" | `{}` |
//!
//! A refused call is stored beside its error so the replay explains itself: concatenated
//! arguments as the model sent them (the error names the second payload), arguments that are
//! not JSON as `{}` (providers and gateways that parse replayed arguments refuse anything but
//! JSON there; the error quotes what the model sent).

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

/// True when `args` is not blank and holds no JSON value at all (not itself JSON, and no
/// object or array decodes from its first `{` or `[`).
pub fn not_json(args: &str) -> bool {
    let trimmed = args.trim();
    !trimmed.is_empty() && !is_json(trimmed) && first_json_value(trimmed).is_none()
}

/// The arguments a tool is run with: the raw string when it looks concatenated or holds no
/// JSON at all (so strict decoding refuses it, saying why), the healed string otherwise.
pub fn arguments_for_run(raw: &str) -> String {
    if looks_concatenated(raw) || not_json(raw) { raw.to_owned() } else { heal_arguments(raw) }
}

/// The argument string stored in the transcript and replayed to the model: the raw string
/// when it looks concatenated (the replayed call then matches its "expected a single JSON
/// object" error), the healed string otherwise. Idempotent.
pub fn stored_arguments(raw: &str) -> String {
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
    fn arguments_that_are_not_json_are_run_raw_and_stored_as_nothing() {
        for raw in ["search rust jobs", "query=rust", "{oops"] {
            assert!(not_json(raw), "{raw}");
            assert_eq!(arguments_for_run(raw), raw);
            assert_eq!(stored_arguments(raw), "{}");
        }
        for raw in ["", "  ", "{}", "{\"a\":1} junk", "[1]"] {
            assert!(!not_json(raw), "{raw}");
        }
        assert_eq!(arguments_for_run(" "), "{}");
        let two = "{\"text\":\"first\"}{\"text\":\"second\"}";
        assert_eq!(stored_arguments(two), two);
        assert_eq!(stored_arguments(&stored_arguments(two)), two);
        assert_eq!(stored_arguments("{\"a\":1}</invoke>"), "{\"a\":1}");
    }

    #[test]
    fn valid_json_falls_back_to_a_string() {
        assert_eq!(valid_json("{\"a\":1}"), serde_json::json!({"a":1}));
        assert_eq!(valid_json("{oops"), Value::String("{oops".into()));
    }
}
