//! Strict argument decoding and the argument repair must never panic, and must keep their
//! promises on any input: healing yields valid JSON and is idempotent, a concatenated
//! payload never decodes, and whatever decodes re-encodes to an equivalent object.
#![no_main]

use freehire_tools::repair::{
    arguments_for_run, heal_arguments, looks_concatenated, not_json, stored_arguments, valid_json,
};
use freehire_tools::{decode_args, decode_args_with_schema};
use libfuzzer_sys::fuzz_target;
use serde::{Deserialize, Serialize};

#[derive(Debug, PartialEq, Deserialize, Serialize)]
struct Entry {
    slug: String,
    note: Option<String>,
}

#[derive(Debug, PartialEq, Deserialize, Serialize)]
struct Args {
    query: Option<String>,
    limit: Option<u32>,
    jobs: Option<Vec<Entry>>,
}

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else { return };

    let healed = heal_arguments(s);
    assert!(serde_json::from_str::<serde_json::Value>(&healed).is_ok(), "healed is JSON");
    assert_eq!(heal_arguments(&healed), healed, "healing is idempotent");
    let _ = valid_json(s);
    let stored = stored_arguments(s);
    assert_eq!(stored_arguments(&stored), stored, "storing is idempotent");
    if not_json(s) {
        assert!(decode_args::<Args>(&arguments_for_run(s)).is_err(), "non-JSON never decodes");
    }

    let decoded = decode_args::<Args>(s);
    if looks_concatenated(s) {
        assert!(decode_args::<Args>(&arguments_for_run(s)).is_err(), "two payloads never decode");
    }
    if let Ok(args) = decoded {
        let again = serde_json::to_string(&args).unwrap_or_default();
        assert_eq!(decode_args::<Args>(&again).ok(), Some(args), "decoding round-trips");
    }

    let schema = serde_json::json!({
        "type": "object",
        "properties": {
            "query": {"type": "string"},
            "limit": {"type": "integer"},
            "jobs": {"type": "array", "items": {"type": "object", "properties": {"slug": {}, "note": {}}}}
        }
    });
    let _ = decode_args_with_schema::<Args>(s, &schema);
});
