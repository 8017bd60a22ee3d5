//! Sanitising a state before it is stored: the document is data, so strings are cleaned, not
//! escaped.
//!
//! Every string: control and invisible formatting characters (zero-width, bidi overrides)
//! removed, markup tags (`<b>`, `</p>`, `<!-- -->`: a `<` followed by a letter, `/`, `!` or `?`
//! up to the next `>`) stripped, whitespace runs collapsed to one space and trimmed, then
//! clipped to its limit in characters ([`text_limit`]). `summary` alone keeps line breaks (at
//! most one blank line between paragraphs). Blank lines of a list of strings (bullets,
//! skills, details, items) are dropped; entries are kept even when empty, so the editor can add
//! one and fill it in. Lists are bounded: bullets by [`EditConfig::max_bullets`] (refused as
//! [`EditError::BulletCap`] unless truncation is allowed), the others by [`list_limit`]
//! (always refused as [`EditError::ListCap`]).

use serde_json::Value;

use crate::CvState;
use crate::error::EditError;

/// The ceiling on bullets per entry when `CV_MAX_BULLETS` is not set.
pub const MAX_BULLETS: usize = 20;

/// Limits the caller reads from its configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EditConfig {
    /// Bullets per experience or project entry (`CV_MAX_BULLETS`, default 20).
    pub max_bullets: usize,
    /// Cut bullets over the ceiling instead of refusing (`CV_EDIT_ALLOW_BULLET_TRUNCATION`).
    pub allow_bullet_truncation: bool,
}

impl Default for EditConfig {
    fn default() -> Self {
        EditConfig { max_bullets: MAX_BULLETS, allow_bullet_truncation: false }
    }
}

/// The longest a string at `pattern` may be, in characters: bullets and list lines 300, the
/// summary 1,200, a project's summary 400, URLs 500, an email 254, a phone 40, dates 40,
/// everything else (names, roles, headings) 200.
pub fn text_limit(pattern: &str) -> usize {
    match pattern {
        "summary" => 1200,
        "projects[].summary" => 400,
        "header.links[].url" | "projects[].link" => 500,
        "header.email" => 254,
        "header.phone" => 40,
        p if p.ends_with("[]") => 300,
        p if p.ends_with(".start") || p.ends_with(".end") => 40,
        _ => 200,
    }
}

/// The most entries a list other than bullets may hold: 30 jobs, projects or skill groups,
/// 60 skills per group, 20 education entries, details or extra sections, 40 lines per section,
/// 10 links.
pub fn list_limit(pattern: &str) -> usize {
    match pattern {
        "experience" | "projects" | "skills" => 30,
        "skills[].items" => 60,
        "sections[].items" => 40,
        "header.links" => 10,
        _ => 20,
    }
}

fn is_bullets(pattern: &str) -> bool {
    pattern.ends_with("].bullets")
}

/// Sanitises `state` (see the module doc). Idempotent: a sanitised state sanitises to itself.
pub fn sanitize(state: &CvState, config: &EditConfig) -> Result<CvState, EditError> {
    let mut doc = serde_json::to_value(state)
        .map_err(|e| EditError::invalid("", format!("the document does not serialise: {e}")))?;
    walk(&mut doc, &mut String::new(), &mut String::new(), config)?;
    serde_json::from_value(doc)
        .map_err(|e| EditError::invalid("", format!("the document does not read back: {e}")))
}

/// `path` is the concrete path (for errors), `pattern` the same with `[]` (for limits).
fn walk(
    v: &mut Value,
    path: &mut String,
    pattern: &mut String,
    config: &EditConfig,
) -> Result<(), EditError> {
    match v {
        Value::String(s) => *s = clean(s, pattern == "summary", text_limit(pattern)),
        Value::Object(fields) => {
            for (k, child) in fields.iter_mut() {
                let sep = if path.is_empty() { "" } else { "." };
                let (pl, ql) = (path.len(), pattern.len());
                path.push_str(&format!("{sep}{k}"));
                pattern.push_str(&format!("{sep}{k}"));
                walk(child, path, pattern, config)?;
                path.truncate(pl);
                pattern.truncate(ql);
            }
        }
        Value::Array(items) => {
            let (pl, ql) = (path.len(), pattern.len());
            pattern.push_str("[]");
            for (i, item) in items.iter_mut().enumerate() {
                path.push_str(&format!("[{i}]"));
                walk(item, path, pattern, config)?;
                path.truncate(pl);
            }
            pattern.truncate(ql);
            items.retain(|item| item.as_str().is_none_or(|s| !s.is_empty()));
            cap(items, path, pattern, config)?;
        }
        _ => {}
    }
    Ok(())
}

fn cap(
    items: &mut Vec<Value>,
    path: &str,
    pattern: &str,
    config: &EditConfig,
) -> Result<(), EditError> {
    let count = items.len();
    if is_bullets(pattern) {
        if count > config.max_bullets {
            if !config.allow_bullet_truncation {
                return Err(EditError::BulletCap {
                    path: path.into(),
                    count,
                    max: config.max_bullets,
                });
            }
            items.truncate(config.max_bullets);
        }
    } else if count > list_limit(pattern) {
        return Err(EditError::ListCap { path: path.into(), count, max: list_limit(pattern) });
    }
    Ok(())
}

/// Invisible characters that reorder or hide text.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}' | '\u{00AD}')
}

/// Cleans one string (see the module doc).
pub fn clean(raw: &str, multiline: bool, limit: usize) -> String {
    let text = strip_tags(raw);
    let lines: Vec<String> = text
        .split(['\n', '\r'])
        .map(|line| {
            line.chars()
                .map(|c| if c.is_whitespace() { ' ' } else { c })
                .filter(|c| !c.is_control() && !is_invisible(*c))
                .collect::<String>()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let joined = if multiline {
        let mut out = String::new();
        let mut blank = false;
        for line in lines {
            if line.is_empty() {
                blank = !out.is_empty();
                continue;
            }
            if !out.is_empty() {
                out.push_str(if blank { "\n\n" } else { "\n" });
            }
            out.push_str(&line);
            blank = false;
        }
        out
    } else {
        lines.into_iter().filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ")
    };
    match joined.char_indices().nth(limit) {
        Some((cut, _)) => joined[..cut].trim_end().to_owned(),
        None => joined,
    }
}

/// Removes markup tags: `<` followed by a letter, `/`, `!` or `?`, through the next `>`. A
/// lone `<` ("a < b", "<3") is kept.
fn strip_tags(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let tag_like = after
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, '/' | '!' | '?'));
        match after.find('>') {
            Some(close) if tag_like => rest = &after[close + 1..],
            _ => {
                out.push('<');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::path::paths;
    use crate::{ExperienceEntry, ProjectEntry};

    #[test]
    fn every_limit_names_a_real_path() {
        let vocabulary = paths();
        for p in [
            "summary",
            "projects[].summary",
            "header.links[].url",
            "projects[].link",
            "header.email",
            "header.phone",
        ] {
            assert!(vocabulary.iter().any(|v| v == p), "{p}");
        }
        for p in [
            "experience",
            "projects",
            "skills",
            "skills[].items",
            "sections[].items",
            "header.links",
        ] {
            assert!(vocabulary.iter().any(|v| v == p), "{p}");
        }
        assert!(vocabulary.iter().filter(|p| is_bullets(p)).count() == 2);
    }

    // scenario: Sanitising cleans strings and drops blank lines
    #[test]
    fn strings_are_trimmed_stripped_and_clipped() {
        assert_eq!(clean("  Led <b>the</b>\tteam\u{200B}\u{0007} ", false, 300), "Led the team");
        assert_eq!(clean("a < b and <3 <script>x</script>", false, 300), "a < b and <3 x");
        assert_eq!(clean("one\n\n\n two  \nthree", true, 1200), "one\n\ntwo\nthree");
        assert_eq!(clean("one\ntwo", false, 300), "one two");
        assert_eq!(clean(&"é".repeat(400), false, 300).chars().count(), 300);
        let mut s = CvState::default();
        s.document.summary = format!("  {}  ", "word ".repeat(400));
        s.document.experience.push(ExperienceEntry {
            company: " Acme ".into(),
            bullets: vec!["  ".into(), "Shipped <i>it</i>".into(), String::new()],
            ..Default::default()
        });
        s.document.projects.push(ProjectEntry::default());
        let out = sanitize(&s, &EditConfig::default()).unwrap();
        assert_eq!(out.document.experience[0].company, "Acme");
        assert_eq!(out.document.experience[0].bullets, ["Shipped it"]);
        assert!(out.document.summary.chars().count() <= 1200);
        assert_eq!(out.document.projects.len(), 1, "an empty entry is kept");
        assert_eq!(sanitize(&out, &EditConfig::default()).unwrap(), out, "idempotent");
    }

    // scenario: The bullet ceiling refuses unless truncation is allowed
    #[test]
    fn bullets_over_the_ceiling_are_refused_or_truncated() {
        let mut s = CvState::default();
        s.document.experience.push(ExperienceEntry::default());
        s.document.experience.push(ExperienceEntry {
            bullets: (0..5).map(|i| format!("Did {i}")).chain(["".into()]).collect(),
            ..Default::default()
        });
        let strict = EditConfig { max_bullets: 4, allow_bullet_truncation: false };
        let e = sanitize(&s, &strict).unwrap_err();
        assert_eq!(
            e,
            EditError::BulletCap { path: "experience[1].bullets".into(), count: 5, max: 4 }
        );
        let lax = EditConfig { allow_bullet_truncation: true, ..strict };
        assert_eq!(sanitize(&s, &lax).unwrap().document.experience[1].bullets.len(), 4);
        assert!(
            sanitize(&s, &EditConfig { max_bullets: 5, ..strict }).is_ok(),
            "blank lines do not count"
        );
        s.document.header.links = vec![crate::Link { label: "x".into(), url: "y".into() }; 11];
        assert!(matches!(sanitize(&s, &lax), Err(EditError::ListCap { max: 10, .. })));
    }
}
