//! The input bounds a render checks before anything compiles: how many entries each list
//! holds, how many lines each entry holds, and the size of the JSON the template reads.

use std::fmt;

use freehire_cv::CvDocument;

use crate::{RenderConfig, RenderError};

/// Which bound a document is over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Limit {
    /// The document's JSON size in bytes (`max_input_bytes`).
    InputBytes,
    /// The entries of one list (`max_entries`): `experience`, `header.links`, ….
    Entries {
        /// The list's path.
        list: &'static str,
    },
    /// The lines of one entry (`max_bullets`): `experience[2].bullets`, `skills[0].items`, ….
    Bullets {
        /// The entry's list path.
        path: String,
    },
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::InputBytes => f.write_str("max_input_bytes (the document's JSON size in bytes)"),
            Limit::Entries { list } => write!(f, "max_entries (the number of entries in {list})"),
            Limit::Bullets { path } => write!(f, "max_bullets (the number of lines in {path})"),
        }
    }
}

/// Checks one count against its bound.
fn within(limit: impl FnOnce() -> Limit, actual: usize, max: usize) -> Result<(), RenderError> {
    if actual > max { Err(RenderError::TooLarge { limit: limit(), actual, max }) } else { Ok(()) }
}

/// Checks a list's length, then each entry's lines.
fn list<T>(
    name: &'static str,
    entries: &[T],
    lines: impl Fn(&T) -> &[String],
    lines_name: &str,
    config: &RenderConfig,
) -> Result<(), RenderError> {
    within(|| Limit::Entries { list: name }, entries.len(), config.max_entries)?;
    for (i, entry) in entries.iter().enumerate() {
        let n = lines(entry).len();
        within(
            || Limit::Bullets { path: format!("{name}[{i}].{lines_name}") },
            n,
            config.max_bullets,
        )?;
    }
    Ok(())
}

/// The document's JSON for the template, once every bound holds.
pub(crate) fn checked_json(
    doc: &CvDocument,
    config: &RenderConfig,
) -> Result<Vec<u8>, RenderError> {
    within(|| Limit::Entries { list: "header.links" }, doc.header.links.len(), config.max_entries)?;
    list("experience", &doc.experience, |e| &e.bullets, "bullets", config)?;
    list("projects", &doc.projects, |p| &p.bullets, "bullets", config)?;
    list("skills", &doc.skills, |s| &s.items, "items", config)?;
    list("education", &doc.education, |e| &e.details, "details", config)?;
    list("sections", &doc.sections, |s| &s.items, "items", config)?;
    let json = serde_json::to_vec(doc)?;
    within(|| Limit::InputBytes, json.len(), config.max_input_bytes)?;
    Ok(json)
}
