//! CVs as a use case (reference assistant.md §11): [`Cvs`], one service over the store and
//! the renderer that the `/me/cvs` routes and the CLI (through the API) call.
//!
//! - [`Cvs::list`], [`Cvs::get`]; [`Cvs::create_base`]: the owner's one base CV, written
//!   field by field through `cvedit` as the candidate (so it is sanitised like any edit);
//! - [`Cvs::edit`]: a batch of `cvedit` ops as the candidate, all or nothing, filed as a
//!   revision (the evidence lookup reads only the atoms the ops cite, and only the owner's: an
//!   op citing another user's atom is refused as not found);
//! - [`Cvs::revisions`], [`Cvs::undo`] (a new revision; one that no longer applies is
//!   [`EditError::CannotUndo`]);
//! - [`Cvs::pdf`]: the real Typst render, behind the renderer's semaphore; [`Cvs::preview`]:
//!   the same layout's pages as SVG (the web editor's live preview).
//!
//! Another user's CV is "not found". `now` comes from the caller.

use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use freehire_cv::{Actor, CvState, EditConfig, EditError, Op, Origin, Path};
use freehire_domain::{AtomId, CvId, Provenance, UserId};
pub use freehire_render::{RenderConfig, RenderError, Rendered, Renderer};
use freehire_store::{CommitOutcome, Cv, CvEdit, CvRevision, RevisionId, Store, StoreError};

/// The most revisions one read returns.
pub const MAX_REVISIONS: u32 = 100;

/// What a CV operation can fail with.
#[derive(Debug, thiserror::Error)]
pub enum CvError {
    /// No such CV (or another user's), or no such revision.
    #[error("{0}")]
    NotFound(&'static str),
    /// `cvedit` refused the edit; nothing was written.
    #[error(transparent)]
    Edit(#[from] EditError),
    /// The PDF could not be rendered.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What an edit, a creation or an undo left.
#[derive(Debug, Clone, PartialEq)]
pub struct Edited {
    /// The CV's state now.
    pub state: CvState,
    /// The revisions filed (none when nothing changed).
    pub revisions: Vec<CvRevision>,
}

/// The CV service.
#[derive(Clone)]
pub struct Cvs {
    store: Arc<dyn Store>,
    renderer: Arc<Renderer>,
    config: EditConfig,
}

const NO_CV: &str = "CV not found";

impl Cvs {
    /// A service over `store`, rendering with `renderer`, editing under `config`.
    pub fn new(store: Arc<dyn Store>, renderer: Arc<Renderer>, config: EditConfig) -> Self {
        Self { store, renderer, config }
    }

    /// The owner's CVs.
    pub async fn list(&self, owner: UserId) -> Result<Vec<Cv>, CvError> {
        Ok(self.store.list_cvs(owner).await?)
    }

    /// The owner's base CV, if any.
    pub async fn base(&self, owner: UserId) -> Result<Option<Cv>, CvError> {
        Ok(self.store.base_cv(owner).await?)
    }

    /// One of the owner's CVs.
    pub async fn get(&self, owner: UserId, id: CvId) -> Result<Cv, CvError> {
        self.store.get_cv(owner, id).await?.ok_or(CvError::NotFound(NO_CV))
    }

    /// The owner's base CV holding `state` (title, template, document), written through
    /// `cvedit` as the candidate. When the owner already has one, it is replaced field by
    /// field in one revision.
    pub async fn create_base(
        &self,
        owner: UserId,
        state: CvState,
        origin: Origin,
        now: DateTime<Utc>,
    ) -> Result<(Cv, Edited), CvError> {
        let cv = self.store.create_base_cv(owner, &CvState::default(), now).await?;
        let value = serde_json::to_value(&state).map_err(|e| {
            CvError::Edit(EditError::InvalidOp {
                at: None,
                path: String::new(),
                reason: e.to_string(),
            })
        })?;
        let mut ops = Vec::new();
        if let serde_json::Value::Object(fields) = value {
            for (field, value) in fields {
                ops.push(Op::Set { path: Path::parse(&field)?, value, evidence: None });
            }
        }
        let by = Author { actor: Actor::Candidate, origin, batch: None };
        let edited = self.commit(owner, cv.id, &ops, by, None, now).await?;
        let cv = self.get(owner, cv.id).await?;
        Ok((cv, edited))
    }

    /// Applies `ops` to one of the owner's CVs as the candidate, all or nothing.
    pub async fn edit(
        &self,
        owner: UserId,
        id: CvId,
        ops: &[Op],
        origin: Origin,
        note: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<Edited, CvError> {
        self.commit(
            owner,
            id,
            ops,
            Author { actor: Actor::Candidate, origin, batch: None },
            note,
            now,
        )
        .await
    }

    /// Applies `ops` to one of the owner's CVs as the tailoring agent (origin `tailor_agent`,
    /// filed under `batch`, the turn's), all or nothing: the policy and the evidence gate
    /// apply, so an uncited claim, an atom that is not the owner's or not publishable, or a
    /// contact field refuses the whole batch.
    pub async fn agent_edit(
        &self,
        owner: UserId,
        id: CvId,
        ops: &[Op],
        batch: &str,
        note: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<Edited, CvError> {
        let by = Author { actor: Actor::Agent, origin: Origin::TailorAgent, batch: Some(batch) };
        self.commit(owner, id, ops, by, note, now).await
    }

    async fn commit(
        &self,
        owner: UserId,
        id: CvId,
        ops: &[Op],
        by: Author<'_>,
        note: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<Edited, CvError> {
        let Author { actor, origin, batch } = by;
        let mut cited: Vec<AtomId> = ops.iter().filter_map(Op::evidence).collect();
        cited.sort_unstable();
        cited.dedup();
        let atoms: HashMap<AtomId, Provenance> = if cited.is_empty() {
            HashMap::new()
        } else {
            let found = self.store.get_atoms(owner, &cited).await?;
            found.into_iter().map(|a| (a.id, a.provenance)).collect()
        };
        let lookup = move |id: AtomId| atoms.get(&id).copied();
        let edit = CvEdit { ops, actor, origin, batch, note };
        let outcome = self.store.commit_cv(owner, id, &edit, &lookup, &self.config, now).await?;
        outcome_of(outcome)
    }

    /// The newest `limit` revisions of one of the owner's CVs, newest first.
    pub async fn revisions(
        &self,
        owner: UserId,
        id: CvId,
        limit: u32,
    ) -> Result<Vec<CvRevision>, CvError> {
        let limit = limit.clamp(1, MAX_REVISIONS);
        self.store.cv_revisions(owner, id, limit).await?.ok_or(CvError::NotFound(NO_CV))
    }

    /// Undoes one revision as a new revision.
    pub async fn undo(
        &self,
        owner: UserId,
        id: CvId,
        revision: RevisionId,
        now: DateTime<Utc>,
    ) -> Result<Edited, CvError> {
        let outcome =
            self.store.undo_cv(owner, id, revision, Actor::Candidate, &self.config, now).await?;
        outcome_of(outcome)
    }

    /// Undoes every live revision of `batch` (an assistant turn or autopilot run) on one of
    /// the owner's CVs as the candidate, newest first, all or none.
    pub async fn revert_batch(
        &self,
        owner: UserId,
        id: CvId,
        batch: &str,
        now: DateTime<Utc>,
    ) -> Result<Edited, CvError> {
        let outcome =
            self.store.revert_batch(owner, id, batch, Actor::Candidate, &self.config, now).await?;
        outcome_of(outcome)
    }

    /// How many pages one of the owner's CVs renders to (the real render).
    pub async fn page_count(&self, owner: UserId, id: CvId) -> Result<usize, CvError> {
        let cv = self.get(owner, id).await?;
        Ok(self.renderer.page_count(&cv.state.document, cv.state.template_id).await?)
    }

    /// One of the owner's CVs as the model may read it: no email, phone or links.
    pub async fn for_model(&self, owner: UserId, id: CvId) -> Result<CvState, CvError> {
        self.store.cv_for_model(owner, id).await?.ok_or(CvError::NotFound(NO_CV))
    }

    /// The editing limits in force.
    pub fn config(&self) -> &EditConfig {
        &self.config
    }

    /// The preview of one of the owner's CVs: its pages as SVG documents, from the same Typst
    /// layout as the PDF (so page breaks agree).
    pub async fn preview(&self, owner: UserId, id: CvId) -> Result<(Cv, Vec<String>), CvError> {
        let cv = self.get(owner, id).await?;
        let pages =
            self.renderer.render_svg_pages(&cv.state.document, cv.state.template_id).await?;
        Ok((cv, pages))
    }

    /// The PDF of one of the owner's CVs, in its template.
    pub async fn pdf(&self, owner: UserId, id: CvId) -> Result<(Cv, Rendered), CvError> {
        let cv = self.get(owner, id).await?;
        let rendered = self.renderer.render(&cv.state.document, cv.state.template_id).await?;
        Ok((cv, rendered))
    }
}

/// Who files a change, and under which batch.
#[derive(Debug, Clone, Copy)]
struct Author<'a> {
    actor: Actor,
    origin: Origin,
    batch: Option<&'a str>,
}

fn outcome_of(outcome: Option<CommitOutcome>) -> Result<Edited, CvError> {
    match outcome {
        None => Err(CvError::NotFound(NO_CV)),
        Some(CommitOutcome::Committed { state, revisions }) => Ok(Edited { state, revisions }),
        Some(CommitOutcome::Refused(e)) => Err(CvError::Edit(e)),
    }
}
