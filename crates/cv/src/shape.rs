//! The shape of [`CvState`](crate::CvState), generated from the JSON Schema schemars derives
//! for it: which fields exist, what each holds, and each field's default. Paths are checked
//! against it and op values are checked (and completed with defaults) by it, so the editor's
//! vocabulary cannot drift from the document's serde field names.

use std::sync::OnceLock;

use serde_json::{Map, Value};

/// What a location in the document holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A string.
    Text,
    /// `true` or `false`.
    Bool,
    /// One of a closed set of strings (`template_id`).
    Choice(Vec<String>),
    /// A list of items of one shape.
    List(Box<Shape>),
    /// An object with fixed fields, in schema order, each with its default.
    Record(Vec<Field>),
}

/// A field of a [`Shape::Record`].
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The serde (wire) name.
    pub name: String,
    /// What it holds.
    pub shape: Shape,
    /// Its value when an op's object leaves it out.
    pub default: Value,
}

/// The editable state's shape, built once from `schema_for!(CvState)`.
pub fn state_shape() -> &'static Shape {
    static SHAPE: OnceLock<Shape> = OnceLock::new();
    SHAPE.get_or_init(|| {
        let schema =
            serde_json::to_value(schemars::schema_for!(crate::CvState)).unwrap_or(Value::Null);
        let defs = schema.get("$defs").and_then(Value::as_object).cloned().unwrap_or_default();
        shape_of(&schema, &defs)
    })
}

fn shape_of(node: &Value, defs: &Map<String, Value>) -> Shape {
    if let Some(target) = node.get("$ref").and_then(Value::as_str) {
        let name = target.rsplit('/').next().unwrap_or_default();
        return defs.get(name).map(|d| shape_of(d, defs)).unwrap_or(Shape::Text);
    }
    let choices = node
        .get("enum")
        .and_then(Value::as_array)
        .map(|v| v.iter().filter_map(Value::as_str).map(str::to_owned).collect::<Vec<_>>())
        .or_else(|| {
            node.get("oneOf").and_then(Value::as_array).map(|v| {
                v.iter()
                    .filter_map(|alt| alt.get("const").and_then(Value::as_str))
                    .map(str::to_owned)
                    .collect()
            })
        });
    if let Some(choices) = choices {
        return Shape::Choice(choices);
    }
    match node.get("type").and_then(Value::as_str) {
        Some("boolean") => Shape::Bool,
        Some("array") => {
            Shape::List(Box::new(node.get("items").map_or(Shape::Text, |i| shape_of(i, defs))))
        }
        Some("object") => Shape::Record(
            node.get("properties")
                .and_then(Value::as_object)
                .map(|props| {
                    props
                        .iter()
                        .map(|(name, prop)| {
                            let shape = shape_of(prop, defs);
                            let default =
                                prop.get("default").cloned().unwrap_or_else(|| shape.empty());
                            Field { name: name.clone(), shape, default }
                        })
                        .collect()
                })
                .unwrap_or_default(),
        ),
        _ => Shape::Text,
    }
}

impl Shape {
    /// The field named `name` of a record.
    pub fn field(&self, name: &str) -> Option<&Field> {
        match self {
            Shape::Record(fields) => fields.iter().find(|f| f.name == name),
            _ => None,
        }
    }

    /// The field names of a record, comma-separated (for error messages).
    pub fn field_names(&self) -> String {
        match self {
            Shape::Record(fields) => {
                fields.iter().map(|f| f.name.as_str()).collect::<Vec<_>>().join(", ")
            }
            _ => String::new(),
        }
    }

    /// A short description of what a value of this shape is ("a string", "a list of objects
    /// {company, role, …}").
    pub fn describe(&self) -> String {
        match self {
            Shape::Text => "a string".into(),
            Shape::Bool => "true or false".into(),
            Shape::Choice(c) => format!("one of {}", c.join(", ")),
            Shape::List(item) => format!("a list of {}", item.describe_plural()),
            Shape::Record(_) => format!("an object {{{}}}", self.field_names()),
        }
    }

    fn describe_plural(&self) -> String {
        match self {
            Shape::Text => "strings".into(),
            Shape::Record(_) => format!("objects {{{}}}", self.field_names()),
            other => other.describe(),
        }
    }

    /// The value of this shape with every field at its default.
    pub fn empty(&self) -> Value {
        match self {
            Shape::Text => Value::String(String::new()),
            Shape::Bool => Value::Bool(false),
            Shape::Choice(c) => c.first().cloned().map_or(Value::Null, Value::String),
            Shape::List(_) => Value::Array(Vec::new()),
            Shape::Record(fields) => {
                Value::Object(fields.iter().map(|f| (f.name.clone(), f.default.clone())).collect())
            }
        }
    }

    /// Checks `value` against this shape and completes left-out record fields with their
    /// defaults. `Err` holds the JSON path inside the value (`""` for the value itself,
    /// `.bullets[2]` below it) and what was expected there.
    pub fn conform(&self, value: Value) -> Result<Value, (String, String)> {
        let wrong = || Err((String::new(), self.describe()));
        match (self, value) {
            (Shape::Text, v @ Value::String(_)) | (Shape::Bool, v @ Value::Bool(_)) => Ok(v),
            (Shape::Choice(c), Value::String(s)) if c.contains(&s) => Ok(Value::String(s)),
            (Shape::List(item), Value::Array(items)) => items
                .into_iter()
                .enumerate()
                .map(|(i, v)| item.conform(v).map_err(|(p, e)| (format!("[{i}]{p}"), e)))
                .collect::<Result<Vec<_>, _>>()
                .map(Value::Array),
            (Shape::Record(fields), Value::Object(mut given)) => {
                if let Some(unknown) = given.keys().find(|k| self.field(k).is_none()) {
                    return Err((
                        format!(".{unknown}"),
                        format!("unknown field; allowed fields are {}", self.field_names()),
                    ));
                }
                let mut out = Map::new();
                for f in fields {
                    let v = match given.remove(&f.name) {
                        Some(v) => {
                            f.shape.conform(v).map_err(|(p, e)| (format!(".{}{p}", f.name), e))?
                        }
                        None => f.default.clone(),
                    };
                    out.insert(f.name.clone(), v);
                }
                Ok(Value::Object(out))
            }
            _ => wrong(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shape_follows_the_schema() {
        let root = state_shape();
        assert_eq!(root.field("summary").map(|f| &f.shape), Some(&Shape::Text));
        let Some(Shape::Choice(templates)) = root.field("template_id").map(|f| &f.shape) else {
            panic!("template_id is not a choice: {root:?}");
        };
        let wire: Vec<_> = crate::TemplateId::ALL.iter().map(|t| t.as_str()).collect();
        assert_eq!(templates, &wire);
        let Some(Shape::List(entry)) = root.field("experience").map(|f| &f.shape) else {
            panic!("experience is not a list");
        };
        assert_eq!(entry.field("current").map(|f| &f.shape), Some(&Shape::Bool));
        assert_eq!(
            entry.field("bullets").map(|f| &f.shape),
            Some(&Shape::List(Box::new(Shape::Text)))
        );
    }

    #[test]
    fn conform_completes_defaults_and_names_what_is_wrong() {
        let Some(Shape::List(entry)) = state_shape().field("experience").map(|f| f.shape.clone())
        else {
            panic!("experience is not a list");
        };
        let full = entry.conform(serde_json::json!({"company": "Acme"})).unwrap();
        assert_eq!(full["bullets"], serde_json::json!([]));
        assert_eq!(full["current"], false);
        let (at, want) = entry.conform(serde_json::json!({"bullets": ["ok", 3]})).unwrap_err();
        assert_eq!((at.as_str(), want.as_str()), (".bullets[1]", "a string"));
        let (at, want) = entry.conform(serde_json::json!({"skill": "x"})).unwrap_err();
        assert_eq!(at, ".skill");
        assert!(want.contains("company") && want.contains("bullets"), "{want}");
        assert!(entry.conform(serde_json::json!("text")).unwrap_err().1.starts_with("an object"));
    }
}
