//! # freehire-cv
//!
//! CV documents (reference assistant.md §11) as plain data, and `cvedit`, the only writer of
//! their content.
//!
//! - [`document`]: [`CvDocument`] (header, summary, experience, projects, skills, education,
//!   extra sections) and the editable state [`CvState`] (title, template, document). The
//!   document is data: the PDF renderer reads it as JSON, never as markup.
//! - [`shape`]: the state's shape, generated from its JSON Schema.
//! - [`path`]: typed paths (`experience[2].bullets[1]`) checked against the shape, and the
//!   path vocabulary [`paths`].
//! - [`op`]: the ops `set`, `insert`, `remove`, `move`, each citing its evidence.
//! - [`order`]: [`order_against_original`], for batches the model writes against the
//!   document it read.
//! - [`policy`]: actors, origins, and the fields the agent never writes.
//! - [`gate`]: the evidence gate (one uncited claim refuses the whole batch).
//! - [`apply`]: all-or-nothing application with inverses; the diff between two states.
//! - [`sanitize`]: string cleaning, length limits, the bullet ceiling.
//! - [`job_like`]: the agent's rule against jobs disguised as projects.
//! - [`describe`]: server-made revision titles.
//! - [`coalesce`]: when a new change merges into the newest revision.
//! - [`commit`]: [`plan_commit`], [`plan_document`], [`plan_undo`]: everything decided before
//!   the store writes.
//! - [`error`]: the refusals, [`EditError`].
//! - [`fit`]: a vacancy's requirements and the deterministic CV-versus-vacancy score
//!   ([`job_match`]).
//! - [`import`]: reading a CV pasted as text into a document and the bank's employments and
//!   claims ([`import_text`]).
//! - [`letter`]: cover letters: the draft a model answers with and the gate that keeps only
//!   paragraphs backed by the candidate's publishable achievements ([`letter::gate`]).
//! - [`report`]: the tailor report of a tailored copy ([`TailorReport`]).
//!
//! Pure: no IO, no clock (coalescing takes `now`).

pub mod apply;
pub mod coalesce;
pub mod commit;
pub mod describe;
pub mod document;
pub mod error;
pub mod fit;
pub mod gate;
pub mod import;
pub mod job_like;
pub mod letter;
pub mod op;
pub mod order;
pub mod path;
pub mod policy;
pub mod report;
pub mod sanitize;
pub mod shape;

#[cfg(test)]
mod tests;

pub use apply::{Applied, apply, diff};
pub use coalesce::{COALESCE_WINDOW_SECS, Change, RevisionMeta, coalesces};
pub use commit::{Committed, EvidenceLookup, authorize, plan_commit, plan_document, plan_undo};
pub use describe::describe;
pub use document::{
    CvDocument, CvState, EducationEntry, ExperienceEntry, Header, Link, ProjectEntry, Section,
    SkillGroup, TemplateId,
};
pub use error::EditError;
pub use fit::{JobMatch, Priority, Requirement, Vacancy, job_match, requirements};
pub use import::{Imported, ImportedEmployment, MAX_IMPORT_CHARS, import_text};
pub use op::{Op, OpKind};
pub use order::{Ordered, order_against_original};
pub use path::{Path, Segment, paths};
pub use policy::{AGENT_DENIED, Actor, Origin};
pub use report::{ReportError, ReportItem, ReportItemInput, RequirementStatus, TailorReport};
pub use sanitize::{EditConfig, MAX_BULLETS};
