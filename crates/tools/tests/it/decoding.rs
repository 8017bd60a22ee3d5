//! Strict decoding properties: well-formed arguments round-trip, concatenated payloads and
//! unknown fields are refused, the argument repair is idempotent.

use freehire_tools::repair::{heal_arguments, looks_concatenated};
use freehire_tools::{ToolError, decode_args};
use proptest::prelude::*;

#[derive(Debug, PartialEq, serde::Deserialize, serde::Serialize)]
struct Args {
    text: String,
    limit: Option<u32>,
    tags: Option<Vec<String>>,
}

fn args() -> impl Strategy<Value = Args> {
    (
        ".{0,12}",
        proptest::option::of(any::<u32>()),
        proptest::option::of(prop::collection::vec("[a-z]{0,5}", 0..3)),
    )
        .prop_map(|(text, limit, tags)| Args { text, limit, tags })
}

proptest! {
    #[test]
    fn any_string_decodes_or_fails_without_panicking(s in ".{0,64}") {
        let _ = decode_args::<Args>(&s);
        let healed = heal_arguments(&s);
        prop_assert!(serde_json::from_str::<serde_json::Value>(&healed).is_ok());
        let _ = looks_concatenated(&s);
    }

    #[test]
    fn well_formed_arguments_round_trip(a in args(), pad in "[ \n\t]{0,3}") {
        let text = format!("{pad}{}{pad}", serde_json::to_string(&a).unwrap());
        prop_assert_eq!(decode_args::<Args>(&text).unwrap(), a);
        prop_assert_eq!(heal_arguments(&text), text.clone());
        prop_assert!(!looks_concatenated(&text));
    }

    #[test]
    fn a_second_payload_is_always_refused(a in args(), b in args(), sep in "[ \n]{0,2}") {
        let text = format!("{}{sep}{}", serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
        prop_assert_eq!(
            decode_args::<Args>(&text),
            Err(ToolError::InvalidArguments("expected a single JSON object".into()))
        );
        prop_assert!(looks_concatenated(&text));
        let healed: Args = serde_json::from_str(&heal_arguments(&text)).unwrap();
        prop_assert_eq!(healed, a);
    }

    #[test]
    fn an_unknown_key_is_always_named(a in args(), key in "[a-zA-Z_]{1,8}") {
        prop_assume!(!["text", "limit", "tags"].contains(&key.as_str()));
        let mut v = serde_json::to_value(&a).unwrap();
        v[&key] = serde_json::json!(1);
        let err = decode_args::<Args>(&v.to_string()).unwrap_err().to_string();
        prop_assert!(err.contains(&format!("{key:?}")), "{}", err);
    }
}
