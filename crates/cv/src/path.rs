//! Typed paths into [`CvState`](crate::CvState): `summary`, `header.email`,
//! `experience[2].bullets[1]`, `skills[0].items[3]`, `template_id`. A path is parsed against
//! the [state shape](crate::shape::state_shape), so every field it names is a serde field of
//! the document; the vocabulary ([`paths`]) is generated from the same shape.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::EditError;
use crate::shape::{Shape, state_shape};

/// One step of a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Segment {
    /// A record field, by its serde name.
    Field(&'static str),
    /// A list position, from 0.
    Index(usize),
}

/// A checked path: it names existing fields and indexes only lists. Whether an index is in
/// range is decided against a document, when the op is applied. Equality and hashing follow
/// the segments (the shape follows from them).
#[derive(Clone)]
pub struct Path {
    segments: Vec<Segment>,
    shape: &'static Shape,
}

impl Path {
    /// Parses and checks `text`. An empty path, an unknown field, an index into something that
    /// is not a list, a negative or non-numeric index are [`EditError::InvalidOp`] naming the
    /// path and what is allowed there.
    pub fn parse(text: &str) -> Result<Path, EditError> {
        let bad = |reason: String| EditError::invalid(text, reason);
        if text.trim().is_empty() {
            return Err(bad(format!(
                "an empty path; a path starts with one of {}",
                state_shape().field_names()
            )));
        }
        let mut shape = state_shape();
        let mut segments = Vec::new();
        let mut rest = text;
        let mut expect_field = true;
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix('[') {
                let Some(close) = after.find(']') else {
                    return Err(bad("an unclosed `[`".into()));
                };
                let raw = &after[..close];
                let Shape::List(item) = shape else {
                    return Err(bad(format!("`[{raw}]` indexes something that is not a list")));
                };
                if !raw.bytes().all(|b| b.is_ascii_digit()) || raw.is_empty() {
                    return Err(bad(format!(
                        "`[{raw}]` is not an index; an index is a number from 0"
                    )));
                }
                let index = raw.parse().map_err(|_| bad(format!("`[{raw}]` is too large")))?;
                segments.push(Segment::Index(index));
                shape = item;
                rest = &after[close + 1..];
                expect_field = false;
                continue;
            }
            let name_part = if expect_field && segments.is_empty() {
                rest
            } else if let Some(after) = rest.strip_prefix('.') {
                after
            } else {
                return Err(bad(format!("unexpected `{rest}`; expected `.field` or `[index]`")));
            };
            let end = name_part.find(['.', '[']).unwrap_or(name_part.len());
            let name = &name_part[..end];
            let Some(field) = shape.field(name) else {
                let allowed = shape.field_names();
                return Err(bad(if allowed.is_empty() {
                    format!("`{name}`: {} has no fields", shape.describe())
                } else {
                    format!("unknown field `{name}`; allowed fields here are {allowed}")
                }));
            };
            segments.push(Segment::Field(field.name.as_str()));
            shape = &field.shape;
            rest = &name_part[end..];
            expect_field = false;
        }
        Ok(Path { segments, shape })
    }

    /// The steps, from the top of the state.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// What the path's location holds.
    pub fn shape(&self) -> &'static Shape {
        self.shape
    }

    /// The top-level field (`experience` for `experience[2].bullets[1]`).
    pub fn root(&self) -> &'static str {
        match self.segments.first() {
            Some(Segment::Field(f)) => f,
            _ => "",
        }
    }

    /// For a path ending in an index: the list's path and the index.
    pub fn split_index(&self) -> Option<(&[Segment], usize)> {
        match self.segments.split_last() {
            Some((Segment::Index(i), parent)) => Some((parent, *i)),
            _ => None,
        }
    }

    /// The path with indices written as `[]`: its entry in the vocabulary.
    pub fn pattern(&self) -> String {
        render(&self.segments, |_| String::new())
    }

    /// Whether `self` is `other` or below it.
    pub fn is_within(&self, other: &[Segment]) -> bool {
        self.segments.starts_with(other)
    }
}

/// Writes segments as a path, indices through `index`.
pub(crate) fn render(segments: &[Segment], index: impl Fn(usize) -> String) -> String {
    let mut out = String::new();
    for s in segments {
        match s {
            Segment::Field(f) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(f);
            }
            Segment::Index(i) => out.push_str(&format!("[{}]", index(*i))),
        }
    }
    out
}

impl PartialEq for Path {
    fn eq(&self, other: &Self) -> bool {
        self.segments == other.segments
    }
}

impl Eq for Path {}

impl std::hash::Hash for Path {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.segments.hash(state);
    }
}

impl fmt::Debug for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Path({self})")
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&render(&self.segments, |i| i.to_string()))
    }
}

impl Serialize for Path {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Path {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Path::parse(&raw).map_err(serde::de::Error::custom)
    }
}

/// The path vocabulary: every addressable location as a pattern (`experience[].bullets[]`),
/// generated once from the state shape, in schema order. The `cv_edit` tool's schema lists
/// them.
pub fn paths() -> &'static [String] {
    fn walk(shape: &Shape, prefix: &str, out: &mut Vec<String>) {
        match shape {
            Shape::Record(fields) => {
                for f in fields {
                    let p = if prefix.is_empty() {
                        f.name.clone()
                    } else {
                        format!("{prefix}.{}", f.name)
                    };
                    out.push(p.clone());
                    walk(&f.shape, &p, out);
                }
            }
            Shape::List(item) => {
                let p = format!("{prefix}[]");
                out.push(p.clone());
                walk(item, &p, out);
            }
            _ => {}
        }
    }
    static PATHS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    PATHS.get_or_init(|| {
        let mut out = Vec::new();
        walk(state_shape(), "", &mut out);
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        CvState, EducationEntry, ExperienceEntry, Link, ProjectEntry, Section, SkillGroup,
    };
    use serde_json::Value;

    fn parse(s: &str) -> Path {
        Path::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn paths_parse_to_typed_segments() {
        let p = parse("experience[2].bullets[1]");
        assert_eq!(
            p.segments(),
            [
                Segment::Field("experience"),
                Segment::Index(2),
                Segment::Field("bullets"),
                Segment::Index(1)
            ]
        );
        assert_eq!(p.to_string(), "experience[2].bullets[1]");
        assert_eq!(p.pattern(), "experience[].bullets[]");
        assert_eq!(p.shape(), &Shape::Text);
        for ok in [
            "summary",
            "header.email",
            "skills[0].items[3]",
            "education[1].degree",
            "title",
            "template_id",
            "header.links[0].url",
            "experience",
            "experience[0]",
        ] {
            assert_eq!(parse(ok).to_string(), ok);
        }
    }

    // scenario: A bad path is refused naming what is allowed
    #[test]
    fn bad_paths_are_invalid_ops_naming_the_path_and_the_allowed_fields() {
        for (bad, says) in [
            ("", "summary"),
            ("   ", "an empty path"),
            ("sumary", "allowed fields here are"),
            ("experience[0].bulets", "company"),
            ("experience[-1]", "not an index"),
            ("experience[x]", "not an index"),
            ("experience[]", "not an index"),
            ("experience[0", "unclosed"),
            ("summary[0]", "not a list"),
            ("summary.text", "has no fields"),
            ("experience[0]bullets", "expected"),
            ("header..email", "unknown field ``"),
            ("experience[99999999999999999999999]", "too large"),
        ] {
            let err = Path::parse(bad).unwrap_err();
            let EditError::InvalidOp { path, reason, .. } = &err else {
                panic!("{bad}: {err:?}");
            };
            assert_eq!(path, bad);
            assert!(reason.contains(says), "{bad}: {reason}");
        }
        let e = Path::parse("experience[0].bulets").unwrap_err().to_string();
        assert!(e.contains("experience[0].bulets") && e.contains("bullets"), "{e}");
    }

    /// Every location `serde_json` writes for a fully populated state, as a pattern.
    fn serde_patterns(v: &Value, prefix: &str, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                for (k, v) in m {
                    let p = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                    out.push(p.clone());
                    serde_patterns(v, &p, out);
                }
            }
            Value::Array(items) => {
                let p = format!("{prefix}[]");
                out.push(p.clone());
                if let Some(first) = items.first() {
                    serde_patterns(first, &p, out);
                }
            }
            _ => {}
        }
    }

    // scenario: The path vocabulary is the document's fields
    #[test]
    fn every_serde_field_has_a_path_and_every_path_a_field() {
        let mut s = CvState::default();
        s.document.header.links.push(Link::default());
        s.document
            .experience
            .push(ExperienceEntry { bullets: vec![String::new()], ..Default::default() });
        s.document
            .projects
            .push(ProjectEntry { bullets: vec![String::new()], ..Default::default() });
        s.document.skills.push(SkillGroup { items: vec![String::new()], ..Default::default() });
        s.document
            .education
            .push(EducationEntry { details: vec![String::new()], ..Default::default() });
        s.document.sections.push(Section { items: vec![String::new()], ..Default::default() });
        let mut from_serde = Vec::new();
        serde_patterns(&serde_json::to_value(&s).unwrap(), "", &mut from_serde);
        let mut vocabulary = paths().to_vec();
        from_serde.sort();
        vocabulary.sort();
        assert_eq!(from_serde, vocabulary);
        assert!(vocabulary.len() > 40, "{vocabulary:?}");
        for pattern in vocabulary {
            let concrete = pattern.replace("[]", "[0]");
            assert_eq!(parse(&concrete).pattern(), pattern);
        }
    }

    #[test]
    fn paths_are_strings_on_the_wire() {
        let p: Path = serde_json::from_str(r#""skills[1].items[0]""#).unwrap();
        assert_eq!(serde_json::to_string(&p).unwrap(), r#""skills[1].items[0]""#);
        let e = serde_json::from_str::<Path>(r#""skils""#).unwrap_err().to_string();
        assert!(e.contains("unknown field `skils`"), "{e}");
    }
}
