//! CV documents and their revisions ([`CvRepo`](crate::CvRepo), migration 0014): the model
//! types the port takes and returns.
//!
//! A CV is the owner's base CV or a copy tailored to one vacancy. Its content changes only
//! through `freehire-cv`'s plans (`plan_commit`, `plan_undo`): the store authorises a batch
//! with the policy and the evidence gate before it opens a transaction, then, holding the
//! CV's row, reads the state, plans, saves and files the revision (coalesced with the newest
//! per [`freehire_cv::coalesces`]), and trims the feed to [`FEED_LIMIT`]. The evidence gate's
//! lookup is the caller's ([`CvEvidence`]): the app fills it from the owner's own atoms, so an
//! atom of another user is as missing as one that does not exist.

use chrono::{DateTime, Utc};
use freehire_cv::{Actor, Change, CvState, EditError, Op, Origin, TailorReport};
use freehire_domain::{AtomId, CvId, JobId, Provenance, UserId};

/// Revisions kept per CV; older ones are deleted when a new one is filed.
pub const FEED_LIMIT: i64 = 100;

/// The evidence gate's lookup: the provenance of the owner's atom with this id, `None` when
/// it does not exist or is another user's.
pub type CvEvidence<'a> = &'a (dyn Fn(AtomId) -> Option<Provenance> + Sync);

/// A revision's id (`cv_revisions.id`), always used with its CV and owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RevisionId(pub i64);

/// Whether a CV is the base CV or a copy tailored to a vacancy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CvKind {
    /// The owner's one base CV.
    Base,
    /// The copy bound to one vacancy (`job_id` is `None` once that job was deleted).
    Tailored,
}

impl CvKind {
    /// The stored value.
    pub const fn as_str(self) -> &'static str {
        match self {
            CvKind::Base => "base",
            CvKind::Tailored => "tailored",
        }
    }
}

/// A stored CV.
#[derive(Debug, Clone, PartialEq)]
pub struct Cv {
    /// Its id.
    pub id: CvId,
    /// Whose.
    pub owner: UserId,
    /// Base or tailored.
    pub kind: CvKind,
    /// The vacancy of a tailored copy.
    pub job_id: Option<JobId>,
    /// The tailoring session working on it (the assistant session's id as text).
    pub session_id: Option<String>,
    /// Title, template and document.
    pub state: CvState,
    /// The latest autopilot run's report, as the app wrote it.
    pub autopilot_report: Option<TailorReport>,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// When its content last changed.
    pub updated_at: DateTime<Utc>,
}

/// One revision of a CV's feed.
#[derive(Debug, Clone, PartialEq)]
pub struct CvRevision {
    /// Its id.
    pub id: RevisionId,
    /// Its place in the CV's feed, from 1.
    pub seq: i64,
    /// Who made it, from where, in which batch.
    pub change: Change,
    /// The server-made title (`freehire_cv::describe`).
    pub title: String,
    /// The author's note (the model's, for an agent edit).
    pub note: Option<String>,
    /// The ops as applied.
    pub ops: Vec<Op>,
    /// What restores the state before it.
    pub inverse: Vec<Op>,
    /// The revision this one undid.
    pub reverts: Option<RevisionId>,
    /// Whether this is an undo.
    pub is_undo: bool,
    /// Whether an undo has reverted it.
    pub reverted: bool,
    /// When it was filed (a coalesced revision keeps its first time).
    pub created_at: DateTime<Utc>,
}

impl CvRevision {
    /// Whether an undo may still take it back: not an undo, not reverted, and a change (a
    /// tailored copy's first revision, "Created from your base CV", changed nothing).
    pub fn undoable(&self) -> bool {
        let seed = self.ops.is_empty() && self.inverse.is_empty();
        !(self.is_undo || self.reverted || seed)
    }
}

/// An edit to commit: the ops, who makes them, and the note kept on the revision.
#[derive(Debug, Clone, Copy)]
pub struct CvEdit<'a> {
    /// The batch, in order.
    pub ops: &'a [Op],
    /// Who makes it.
    pub actor: Actor,
    /// From where.
    pub origin: Origin,
    /// The assistant turn or autopilot run it belongs to.
    pub batch: Option<&'a str>,
    /// The author's note.
    pub note: Option<&'a str>,
}

impl CvEdit<'_> {
    /// The change, as `freehire-cv` compares it for coalescing.
    pub fn change(&self) -> Change {
        Change { actor: self.actor, origin: self.origin, batch: self.batch.map(str::to_owned) }
    }
}

/// What a commit, an undo or a revert did.
// Returned once per change, never kept in bulk: boxing the state would only cost a move.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum CommitOutcome {
    /// Saved: the state now, and the revisions filed (none for a change that changed
    /// nothing; a coalesced commit returns the newest revision as rewritten).
    Committed {
        /// The CV's state after the change.
        state: CvState,
        /// The revisions written, in the order they were filed.
        revisions: Vec<CvRevision>,
    },
    /// Refused by `cvedit` (policy, evidence, shape, ceiling, or an undo that no longer
    /// applies: [`EditError::CannotUndo`]); nothing was written.
    Refused(EditError),
}

/// `state` as the model may read it: the four contact identifiers of the header (name, email,
/// phone, links) removed (reference §10.6 `GetForModel`); the headline and location stay.
pub fn without_contacts(mut state: CvState) -> CvState {
    let header = &mut state.document.header;
    header.full_name.clear();
    header.email.clear();
    header.phone.clear();
    header.links.clear();
    state
}
