//! `EditError`: every way `cvedit` refuses an edit. Messages are written for the reader who
//! made the edit (the candidate's editor or the model) and name the op, the path and the atom.

use freehire_domain::AtomId;
use thiserror::Error;

/// Why an edit (a batch of ops) was refused. Nothing of a refused batch is applied.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EditError {
    /// A malformed op: a bad path, an index out of range, a value of the wrong shape
    /// (renders as 422).
    #[error("{}`{path}`: {reason}", at.map(|i| format!("edit {i}: ")).unwrap_or_default())]
    InvalidOp {
        /// The op's position in its batch, when known.
        at: Option<usize>,
        /// The path as written.
        path: String,
        /// What is wrong, with the allowed fields or the expected shape.
        reason: String,
    },
    /// The actor may not write this path (the agent and the contact block, title, template).
    #[error("edit {at}: the assistant may not edit `{path}`: {reason}")]
    Denied {
        /// The op's position in its batch.
        at: usize,
        /// The path as written.
        path: String,
        /// Which protected field the path covers.
        reason: String,
    },
    /// An agent op writes a claim without citing an achievement: the whole batch is refused.
    #[error(
        "edit {at}: `{path}` writes a claim and cites no evidence; cite the id of a banked \
         achievement (experience_search or cv_context) that says it; nothing in this batch was applied"
    )]
    Uncited {
        /// The op's position in its batch.
        at: usize,
        /// The path as written.
        path: String,
    },
    /// The cited atom does not exist or is not the candidate's (never says which).
    #[error(
        "edit {at}: `{path}`: no banked achievement with id {atom} — take evidence_id from \
         experience_search; nothing in this batch was applied"
    )]
    EvidenceNotFound {
        /// The op's position in its batch.
        at: usize,
        /// The path as written.
        path: String,
        /// The id that missed.
        atom: AtomId,
    },
    /// The cited atom is the agent's own reading (`agent_inferred`).
    #[error(
        "edit {at}: `{path}`: achievement {atom} is recorded as your own reading, not something \
         the candidate said; ask the candidate to confirm it, record it with experience_add and \
         cite the new id; nothing in this batch was applied"
    )]
    EvidenceUnconfirmed {
        /// The op's position in its batch.
        at: usize,
        /// The path as written.
        path: String,
        /// The unconfirmed atom.
        atom: AtomId,
    },
    /// The commit would leave more bullets in an entry than the ceiling allows.
    #[error("`{path}` would hold {count} bullets; the ceiling is {max}: remove some first")]
    BulletCap {
        /// The bullets list (`experience[0].bullets`).
        path: String,
        /// How many it would hold.
        count: usize,
        /// The ceiling (`CV_MAX_BULLETS`).
        max: usize,
    },
    /// A list other than bullets over its fixed limit (bounded input for the renderer).
    #[error("`{path}` would hold {count} entries; at most {max} are allowed")]
    ListCap {
        /// The list.
        path: String,
        /// How many it would hold.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// The agent wrote a project that reads like a job (a role at a company, employment dates).
    #[error(
        "`{path}` looks like a job, not a project ({reason}); jobs come from the candidate's \
         employments, not from a project entry"
    )]
    ProjectLooksLikeJob {
        /// The project (`projects[1]`).
        path: String,
        /// What made it look like a job.
        reason: String,
    },
    /// A whole-document save by the agent.
    #[error("the assistant may not replace the whole document; edit it with ops")]
    DocumentDenied,
    /// An undo whose inverse no longer applies to the current document (renders as 409).
    #[error("this change can no longer be undone: {0}")]
    CannotUndo(Box<EditError>),
}

impl EditError {
    /// A stable machine-readable code for the API's error body (`bullet_cap`, `cannot_undo`…).
    /// Every refusal but [`EditError::CannotUndo`] (409) renders as 422.
    pub const fn code(&self) -> &'static str {
        match self {
            EditError::InvalidOp { .. } => "invalid_op",
            EditError::Denied { .. } | EditError::DocumentDenied => "denied",
            EditError::Uncited { .. } => "uncited",
            EditError::EvidenceNotFound { .. } => "evidence_not_found",
            EditError::EvidenceUnconfirmed { .. } => "evidence_unconfirmed",
            EditError::BulletCap { .. } => "bullet_cap",
            EditError::ListCap { .. } => "list_cap",
            EditError::ProjectLooksLikeJob { .. } => "project_looks_like_job",
            EditError::CannotUndo(_) => "cannot_undo",
        }
    }

    /// An [`EditError::InvalidOp`] with no op position yet.
    pub(crate) fn invalid(path: impl Into<String>, reason: impl Into<String>) -> Self {
        EditError::InvalidOp { at: None, path: path.into(), reason: reason.into() }
    }

    /// The same error with its op position mapped through `f`.
    pub fn renumber(self, f: impl Fn(usize) -> usize) -> Self {
        use EditError::*;
        match self {
            InvalidOp { at, path, reason } => InvalidOp { at: at.map(&f), path, reason },
            Denied { at, path, reason } => Denied { at: f(at), path, reason },
            Uncited { at, path } => Uncited { at: f(at), path },
            EvidenceNotFound { at, path, atom } => EvidenceNotFound { at: f(at), path, atom },
            EvidenceUnconfirmed { at, path, atom } => EvidenceUnconfirmed { at: f(at), path, atom },
            CannotUndo(inner) => CannotUndo(Box::new(inner.renumber(f))),
            other => other,
        }
    }

    /// Stamps the op's position on an [`EditError::InvalidOp`] that has none.
    pub(crate) fn at(self, index: usize) -> Self {
        match self {
            EditError::InvalidOp { at: None, path, reason } => {
                EditError::InvalidOp { at: Some(index), path, reason }
            }
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_renumber_and_carry_their_codes() {
        let e = EditError::Uncited { at: 0, path: "summary".into() };
        assert_eq!(
            e.clone().renumber(|i| i + 3),
            EditError::Uncited { at: 3, path: "summary".into() }
        );
        assert_eq!(e.code(), "uncited");
        let inner = EditError::invalid("summary", "x").at(1);
        assert_eq!(inner.to_string(), "edit 1: `summary`: x");
        let undo = EditError::CannotUndo(Box::new(inner)).renumber(|i| i * 10);
        assert_eq!(undo.code(), "cannot_undo");
        assert!(undo.to_string().contains("edit 10:"), "{undo}");
        assert_eq!(
            EditError::BulletCap { path: "p".into(), count: 2, max: 1 }.code(),
            "bullet_cap"
        );
    }
}
