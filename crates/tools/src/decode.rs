//! Strict argument decoding (reference §5.3, with our case-sensitive keys).
//!
//! The rules, in order: surrounding whitespace is ignored; empty arguments and a literal
//! `null` mean "no fields" (`{}`); anything other than a JSON object is rejected; a key the
//! type does not declare is rejected by name (with the allowed keys, when a schema is given);
//! a type mismatch or a missing required field names the field; and any content after the
//! first JSON value is rejected with "expected a single JSON object".

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::ToolError;

/// Decodes `args` strictly into `T`. See the module docs for the rules.
pub fn decode_args<T: DeserializeOwned>(args: &str) -> Result<T, ToolError> {
    decode(args, None)
}

/// Like [`decode_args`], and an unknown-field error also lists the keys `schema` allows at
/// that place, so the model can pick the right one.
pub fn decode_args_with_schema<T: DeserializeOwned>(
    args: &str,
    schema: &Value,
) -> Result<T, ToolError> {
    decode(args, Some(schema))
}

/// One step of a path into the arguments.
#[derive(Debug, Clone)]
enum Seg {
    Key(String),
    Index(usize),
}

fn decode<T: DeserializeOwned>(args: &str, schema: Option<&Value>) -> Result<T, ToolError> {
    let trimmed = args.trim();
    let text = if trimmed.is_empty() || trimmed == "null" { "{}" } else { trimmed };
    if crate::repair::not_json(text) {
        return Err(invalid(format!(
            "the arguments are not JSON (got {:?}); send one JSON object",
            preview(text)
        )));
    }
    if !text.starts_with('{') {
        return Err(invalid(format!("expected a JSON object, got {}", preview(text))));
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let mut unknown: Vec<Vec<Seg>> = Vec::new();
    let decoded: Result<T, serde_path_to_error::Error<serde_json::Error>> = {
        let mut record = |path: serde_ignored::Path<'_>| unknown.push(segments(&path));
        let ignoring = serde_ignored::Deserializer::new(&mut de, &mut record);
        serde_path_to_error::deserialize(ignoring)
    };
    if let Some(path) = unknown.first() {
        return Err(unknown_field(path, schema));
    }
    let value = decoded.map_err(|e| {
        let path = e.path().to_string();
        let inner = strip_position(&e.inner().to_string());
        if path == "." { invalid(inner) } else { invalid(format!("{path}: {inner}")) }
    })?;
    de.end().map_err(|_| invalid("expected a single JSON object".to_owned()))?;
    Ok(value)
}

fn invalid(message: String) -> ToolError {
    ToolError::InvalidArguments(message)
}

fn preview(text: &str) -> String {
    let cut: String = text.chars().take(40).collect();
    if cut.len() < text.len() { format!("{cut}…") } else { cut }
}

/// serde_json appends " at line L column C"; the model gains nothing from it.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_owned(),
        None => message.to_owned(),
    }
}

fn segments(path: &serde_ignored::Path<'_>) -> Vec<Seg> {
    use serde_ignored::Path;
    match path {
        Path::Root => Vec::new(),
        Path::Seq { parent, index } => {
            let mut v = segments(parent);
            v.push(Seg::Index(*index));
            v
        }
        Path::Map { parent, key } => {
            let mut v = segments(parent);
            v.push(Seg::Key(key.clone()));
            v
        }
        Path::Some { parent }
        | Path::NewtypeStruct { parent }
        | Path::NewtypeVariant { parent } => segments(parent),
    }
}

fn unknown_field(path: &[Seg], schema: Option<&Value>) -> ToolError {
    let Some((Seg::Key(key), parent)) = path.split_last() else {
        return invalid("unexpected value".to_owned());
    };
    let place = display_path(parent);
    let mut message = format!("unknown field {key:?}");
    if !place.is_empty() {
        message.push_str(&format!(" in {place}"));
    }
    if let Some(allowed) = schema.and_then(|s| allowed_keys(s, parent)) {
        if allowed.is_empty() {
            message.push_str(" (this object takes no fields)");
        } else {
            let list: Vec<String> = allowed.iter().map(|k| format!("{k:?}")).collect();
            message.push_str(&format!(" (allowed: {})", list.join(", ")));
        }
    }
    invalid(message)
}

fn display_path(path: &[Seg]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Seg::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// The property names the schema allows at `path`, following `properties`, `items`,
/// `anyOf`/`oneOf` branches and local `$ref`s. `None` when the path cannot be resolved.
fn allowed_keys(root: &Value, path: &[Seg]) -> Option<Vec<String>> {
    let mut node = resolve(root, root)?;
    for seg in path {
        node = match seg {
            Seg::Key(k) => object_branch(root, node)?.get("properties")?.get(k)?,
            Seg::Index(_) => resolve(root, node)?.get("items")?,
        };
        node = resolve(root, node)?;
    }
    let props = object_branch(root, node)?.get("properties")?.as_object()?;
    Some(props.keys().cloned().collect())
}

fn resolve<'a>(root: &'a Value, node: &'a Value) -> Option<&'a Value> {
    match node.get("$ref").and_then(Value::as_str) {
        Some(r) => root.pointer(r.strip_prefix('#')?),
        None => Some(node),
    }
}

/// The branch of `node` that has `properties` (the node itself, or one of `anyOf`/`oneOf`,
/// which is how schemars spells `Option<Struct>`).
fn object_branch<'a>(root: &'a Value, node: &'a Value) -> Option<&'a Value> {
    if node.get("properties").is_some() {
        return Some(node);
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(branches) = node.get(key).and_then(Value::as_array) {
            for b in branches {
                let b = resolve(root, b)?;
                if b.get("properties").is_some() {
                    return Some(b);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema_for;

    #[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
    struct Echo {
        text: String,
    }

    #[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
    struct Entry {
        slug: String,
        note: Option<String>,
    }

    #[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
    struct Present {
        heading: Option<String>,
        limit: Option<u32>,
        jobs: Vec<Entry>,
    }

    fn err<T: DeserializeOwned + std::fmt::Debug>(args: &str) -> String {
        decode_args::<T>(args).unwrap_err().to_string()
    }

    #[test]
    fn empty_and_null_mean_no_fields() {
        #[derive(Debug, serde::Deserialize)]
        struct Opt {
            q: Option<String>,
        }
        assert_eq!(decode_args::<Opt>("").unwrap().q, None);
        assert_eq!(decode_args::<Opt>("  \n ").unwrap().q, None);
        assert_eq!(decode_args::<Opt>("null").unwrap().q, None);
        assert_eq!(decode_args::<crate::NoArgs>("{}").unwrap(), crate::NoArgs {});
    }

    #[test]
    fn unknown_fields_are_named_with_the_allowed_ones() {
        let e = err::<Echo>(r#"{"txt":"hi"}"#);
        assert!(e.starts_with("invalid arguments: "), "{e}");
        assert!(e.contains("\"txt\""), "{e}");
        let schema = schema_for::<Echo>();
        let e = decode_args_with_schema::<Echo>(r#"{"text":"a","txt":"hi"}"#, &schema)
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown field \"txt\"") && e.contains("allowed: \"text\""), "{e}");
    }

    #[test]
    fn nested_unknown_fields_name_their_place() {
        let schema = schema_for::<Present>();
        let e = decode_args_with_schema::<Present>(
            r#"{"jobs":[{"slug":"a"},{"slug":"b","nte":"x"}]}"#,
            &schema,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("\"nte\"") && e.contains("jobs[1]"), "{e}");
        assert!(e.contains("\"slug\"") && e.contains("\"note\""), "{e}");
    }

    #[test]
    fn keys_are_case_sensitive() {
        let e = err::<Echo>(r#"{"Text":"hi"}"#);
        assert!(e.contains("\"Text\""), "{e}");
    }

    #[test]
    fn trailing_content_is_refused() {
        let e = err::<Echo>(r#"{"text":"first"}{"text":"second"}"#);
        assert_eq!(e, "invalid arguments: expected a single JSON object");
        let e = err::<Echo>(r#"{"text":"first"} </invoke>"#);
        assert_eq!(e, "invalid arguments: expected a single JSON object");
        assert_eq!(decode_args::<Echo>("  {\"text\":\"a\"}  \n").unwrap().text, "a");
    }

    #[test]
    fn type_mismatches_name_the_field() {
        let e = err::<Present>(r#"{"jobs":[],"limit":"ten"}"#);
        assert!(e.contains("limit") && e.contains("invalid type"), "{e}");
        assert!(!e.contains("line 1"), "{e}");
        let e = err::<Present>(r#"{"jobs":[{"slug":3}]}"#);
        assert!(e.contains("jobs[0].slug"), "{e}");
    }

    #[test]
    fn missing_required_fields_are_named() {
        let e = err::<Echo>("{}");
        assert!(e.contains("missing field `text`"), "{e}");
    }

    #[test]
    fn non_objects_are_refused() {
        assert!(err::<Echo>(r#"["text"]"#).contains("expected a JSON object"));
        assert!(err::<Echo>("42").contains("expected a JSON object"));
        assert!(err::<Echo>("{\"text\":").contains("invalid arguments"));
        let e = err::<Echo>("find rust jobs");
        assert_eq!(
            e,
            "invalid arguments: the arguments are not JSON (got \"find rust jobs\"); send one JSON object"
        );
    }
}
