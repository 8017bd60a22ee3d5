//! # freehire-cv
//!
//! CV documents (reference assistant.md §11) as plain data, and `cvedit`, the only writer of
//! their content.
//!
//! - [`document`]: [`CvDocument`] (header, summary, experience, projects, skills, education,
//!   extra sections) and the editable state [`CvState`] (title, template, document). The
//!   document is data: the PDF renderer reads it as JSON, never as markup.
//!
//! Pure: no IO, no clock.

pub mod document;

pub use document::{
    CvDocument, CvState, EducationEntry, ExperienceEntry, Header, Link, ProjectEntry, Section,
    SkillGroup, TemplateId,
};
