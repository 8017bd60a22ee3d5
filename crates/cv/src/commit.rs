//! The commit plan: everything `cvedit` decides before the store writes, as pure functions.
//! Authorise (policy, then the evidence gate) first; apply all-or-nothing; sanitise (with the
//! bullet ceiling); for the agent, refuse a project that reads like a job; choose the inverse
//! to store (the apply-time inverse when sanitising changed nothing, else the diff back to the
//! state before); a change that changes nothing files nothing.

use freehire_domain::{AtomId, Provenance};

use crate::CvState;
use crate::apply::{apply, diff};
use crate::coalesce::Change;
use crate::describe::describe;
use crate::error::EditError;
use crate::gate::check_evidence;
use crate::job_like::looks_like_job;
use crate::op::Op;
use crate::policy::{Actor, check_policy};
use crate::sanitize::{EditConfig, sanitize};

/// Finds the candidate's own atom by id: `None` when it does not exist or is another user's.
pub type EvidenceLookup<'a> = &'a dyn Fn(AtomId) -> Option<Provenance>;

/// A planned commit, ready for the store.
#[derive(Debug, Clone, PartialEq)]
pub struct Committed {
    /// The state to save.
    pub after: CvState,
    /// The ops to record on the revision (the batch; for a whole-document save or an undo,
    /// the ops that made the change).
    pub ops: Vec<Op>,
    /// Applying these to `after` restores the state before exactly.
    pub inverse: Vec<Op>,
    /// Whether anything changed; `false` files no revision.
    pub changed: bool,
    /// The server-made revision title.
    pub title: String,
}

/// The policy and the evidence gate: run before anything is applied.
pub fn authorize(actor: Actor, ops: &[Op], lookup: EvidenceLookup<'_>) -> Result<(), EditError> {
    check_policy(actor, ops)?;
    check_evidence(actor, ops, lookup)
}

/// Plans a batch of ops by `change.actor` (see the module doc).
pub fn plan_commit(
    state: &CvState,
    ops: &[Op],
    change: &Change,
    lookup: EvidenceLookup<'_>,
    config: &EditConfig,
) -> Result<Committed, EditError> {
    authorize(change.actor, ops, lookup)?;
    let applied = apply(state, ops)?;
    let after = sanitize(&applied.state, config)?;
    let inverse = if after == applied.state { applied.inverse } else { diff(&after, state)? };
    finish(state, after, ops.to_vec(), inverse, change.actor, describe(state, ops))
}

/// Plans a whole-document save (`CommitDocument`); the agent is refused, it edits with ops.
pub fn plan_document(
    state: &CvState,
    document: &CvState,
    change: &Change,
    config: &EditConfig,
) -> Result<Committed, EditError> {
    if change.actor == Actor::Agent {
        return Err(EditError::DocumentDenied);
    }
    let after = sanitize(document, config)?;
    let (ops, inverse) = (diff(state, &after)?, diff(&after, state)?);
    finish(state, after, ops, inverse, change.actor, "Saved the document".into())
}

/// Plans an undo: applies a stored inverse as a new change (no policy, no gate: it restores
/// what was there). When it no longer applies the result is [`EditError::CannotUndo`].
pub fn plan_undo(
    state: &CvState,
    inverse: &[Op],
    reverts: &str,
    config: &EditConfig,
) -> Result<Committed, EditError> {
    let cannot = |e| EditError::CannotUndo(Box::new(e));
    let applied = apply(state, inverse).map_err(cannot)?;
    let after = sanitize(&applied.state, config).map_err(cannot)?;
    let back = if after == applied.state { applied.inverse } else { diff(&after, state)? };
    finish(state, after, inverse.to_vec(), back, Actor::System, format!("Undid \"{reverts}\""))
}

fn finish(
    before: &CvState,
    after: CvState,
    ops: Vec<Op>,
    inverse: Vec<Op>,
    actor: Actor,
    title: String,
) -> Result<Committed, EditError> {
    if actor == Actor::Agent {
        for (i, project) in after.document.projects.iter().enumerate() {
            if before.document.projects.contains(project) {
                continue;
            }
            if let Some(reason) = looks_like_job(project) {
                return Err(EditError::ProjectLooksLikeJob {
                    path: format!("projects[{i}]"),
                    reason,
                });
            }
        }
    }
    let changed = after != *before;
    Ok(Committed {
        after,
        ops: if changed { ops } else { Vec::new() },
        inverse: if changed { inverse } else { Vec::new() },
        changed,
        title: if changed { title } else { "No changes".into() },
    })
}
