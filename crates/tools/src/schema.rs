//! JSON Schemas for tool arguments, generated from Rust types with schemars.
//!
//! Every object in a generated schema gets `required` (possibly empty) and
//! `additionalProperties: false`, matching what the strict decoder enforces, and subschemas
//! are inlined so a model sees one self-contained object.

use schemars::JsonSchema;
use serde_json::{Map, Value};

/// The argument type of a tool that takes no arguments: decodes `""`, `{}` and `null`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

/// The strict JSON Schema of `T` (see [`strict_schema`]).
pub fn schema_for<T: JsonSchema>() -> Value {
    let settings = schemars::generate::SchemaSettings::draft2020_12().with(|s| {
        s.inline_subschemas = true;
        s.meta_schema = None;
    });
    let schema = settings.into_generator().into_root_schema_for::<T>();
    strict_schema(schema.to_value())
}

/// Makes a schema strict: the root is an object; every object schema with `properties`
/// carries `required` and `additionalProperties: false`; the root's `title` and `$schema`
/// are dropped (the tool's name and description say that).
pub fn strict_schema(mut schema: Value) -> Value {
    if let Value::Object(root) = &mut schema {
        root.remove("$schema");
        root.remove("title");
        if !root.contains_key("type") {
            root.insert("type".into(), Value::from("object"));
        }
        if root.get("type").and_then(Value::as_str) == Some("object") {
            root.entry("properties").or_insert_with(|| Value::Object(Map::new()));
        }
    }
    tighten(&mut schema);
    schema
}

fn tighten(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if map.contains_key("properties") {
                map.entry("required").or_insert_with(|| Value::Array(Vec::new()));
                map.entry("additionalProperties").or_insert(Value::Bool(false));
            }
            for child in map.values_mut() {
                tighten(child);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(tighten),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[allow(dead_code)]
    #[derive(serde::Deserialize, JsonSchema)]
    struct Inner {
        slug: String,
        note: Option<String>,
    }

    #[allow(dead_code)]
    #[derive(serde::Deserialize, JsonSchema)]
    /// Search arguments.
    struct Args {
        /// Free text.
        query: String,
        limit: Option<u32>,
        jobs: Vec<Inner>,
    }

    #[test]
    fn generated_schemas_are_strict_objects_all_the_way_down() {
        let schema = schema_for::<Args>();
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["additionalProperties"], false);
        assert_eq!(schema["required"], json!(["query", "jobs"]));
        assert!(schema.get("$schema").is_none());
        let inner = &schema["properties"]["jobs"]["items"];
        assert_eq!(inner["additionalProperties"], false);
        assert_eq!(inner["required"], json!(["slug"]));
    }

    #[test]
    fn no_args_is_an_empty_strict_object() {
        let schema = schema_for::<NoArgs>();
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["properties"], json!({}));
        assert_eq!(schema["required"], json!([]));
        assert_eq!(schema["additionalProperties"], false);
    }
}
