//! The experience bank as a use case (reference assistant.md §12): [`Experience`], one
//! service over the store that the `/me/experience` routes, the web page, the CLI (through
//! the API) and the assistant's `experience_*` tools all call.
//!
//! - employments: list (current first, newest start), get, create, replace, delete (its atoms
//!   go with it);
//! - atoms: [`Experience::bank`] (everything, with what each atom lacks and the soft-duplicate
//!   clusters), [`Experience::add_atom`], [`Experience::update_atom`] (a patch: absent fields
//!   stay), [`Experience::delete_atom`], [`Experience::merge_atoms`], [`Experience::search`]
//!   (the retrieval score, no model call), [`Experience::atoms_by_id`];
//! - the `experience_require_context` preference, which gates interactive creates only
//!   ([`AddMode`]).
//!
//! Every draft is sanitised here (strings clipped, skills canonicalised through the skill
//! dictionary, unknown ones dropped) before the store validates and writes it; the store
//! derives the provenance from the [`Author`]. `now` comes from the caller.

mod error;

use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use freehire_domain::experience::{
    RetrievalQuery, Richness, SoftDuplicates, merge_plan, rank_atoms, soft_duplicate_clusters,
};
use freehire_domain::{
    Atom, AtomDraft, AtomId, Author, Employment, EmploymentDraft, EmploymentId, UserId,
};
use freehire_store::{AtomWrite, MergeOutcome, Store};

pub use error::ExperienceError;

/// The most atoms one search returns.
pub const MAX_SEARCH_LIMIT: usize = 50;

const NO_EMPLOYMENT: &str = "employment not found";
const NO_ATOM: &str = "achievement not found";

/// Canonicalises one free-text skill through the dictionary.
pub fn canonical_skill(s: &str) -> Option<String> {
    freehire_normalize::canonical_skill(s).map(str::to_owned)
}

/// Whether an add comes from a person or the assistant typing one achievement (the
/// require-context preference applies) or from an import (it does not).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddMode {
    /// The candidate or the assistant, one at a time.
    Interactive,
    /// A CV import.
    Import,
}

/// What an add did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Added {
    /// A new atom.
    Inserted(Atom),
    /// An unconfirmed atom with the same claim was upgraded in place (same id).
    Upgraded(Atom),
    /// The claim is already banked as this atom; nothing changed.
    AlreadyBanked(AtomId),
}

/// A change to an atom: absent fields stay as they are; lists replace the whole list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AtomPatch {
    /// A new claim.
    pub claim: Option<String>,
    /// A new context.
    pub context: Option<String>,
    /// New metrics.
    pub metrics: Option<Vec<String>>,
    /// New skills.
    pub skills: Option<Vec<String>>,
    /// A new employment (`Some(None)` detaches it).
    pub employment_id: Option<Option<EmploymentId>>,
}

impl AtomPatch {
    /// Whether the patch changes what the atom says (claim, context or metrics), which a
    /// rewrite cannot do without losing the atom's standing.
    pub fn changes_text(&self) -> bool {
        self.claim.is_some() || self.context.is_some() || self.metrics.is_some()
    }
}

/// An atom with what it lacks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AtomState {
    /// The atom.
    pub atom: Atom,
    /// What it lacks.
    pub richness: Richness,
}

/// The whole bank of one candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bank {
    /// Employments, current first.
    pub employments: Vec<Employment>,
    /// Atoms, by employment (none last), then oldest first.
    pub atoms: Vec<AtomState>,
    /// Near-paraphrase clusters that could be merged.
    pub soft_duplicates: SoftDuplicates,
    /// The require-context preference.
    pub require_context: bool,
}

/// The result of a merge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merged {
    /// The atom that stayed, enriched.
    pub kept: Atom,
    /// The id of the atom that went.
    pub deleted: AtomId,
}

/// The experience-bank service.
#[derive(Clone)]
pub struct Experience {
    store: Arc<dyn Store>,
}

impl Experience {
    /// A service over `store`.
    pub fn new(store: Arc<dyn Store>) -> Self {
        Self { store }
    }

    /// The owner's employments, current first, then by start descending.
    pub async fn employments(&self, owner: UserId) -> Result<Vec<Employment>, ExperienceError> {
        Ok(self.store.list_employments(owner).await?)
    }

    /// One of the owner's employments.
    pub async fn employment(
        &self,
        owner: UserId,
        id: EmploymentId,
    ) -> Result<Employment, ExperienceError> {
        self.store.get_employment(owner, id).await?.ok_or(ExperienceError::NotFound(NO_EMPLOYMENT))
    }

    /// The owner's employment with the same company and role as `draft` (case-insensitive; the
    /// oldest when several match).
    pub async fn find_employment(
        &self,
        owner: UserId,
        draft: &EmploymentDraft,
    ) -> Result<Option<Employment>, ExperienceError> {
        Ok(self.store.find_employment(owner, draft.company.trim(), draft.role.trim()).await?)
    }

    /// Fills the empty fields of one of the owner's employments from `draft` (an import's):
    /// a period only when it has no year, the stack unioned; `current` never changes.
    pub async fn fill_employment_blanks(
        &self,
        owner: UserId,
        id: EmploymentId,
        draft: &EmploymentDraft,
        now: DateTime<Utc>,
    ) -> Result<Option<Employment>, ExperienceError> {
        let draft = draft.clone().sanitize(&canonical_skill);
        Ok(self.store.fill_employment_blanks(owner, id, &draft, now).await?)
    }

    /// Creates an employment.
    pub async fn create_employment(
        &self,
        owner: UserId,
        draft: EmploymentDraft,
        now: DateTime<Utc>,
    ) -> Result<Employment, ExperienceError> {
        let draft = draft.sanitize(&canonical_skill);
        draft.validate()?;
        Ok(self.store.create_employment(owner, &draft, now).await?)
    }

    /// Replaces an employment whole.
    pub async fn update_employment(
        &self,
        owner: UserId,
        id: EmploymentId,
        draft: EmploymentDraft,
        now: DateTime<Utc>,
    ) -> Result<Employment, ExperienceError> {
        let draft = draft.sanitize(&canonical_skill);
        draft.validate()?;
        self.store
            .update_employment(owner, id, &draft, now)
            .await?
            .ok_or(ExperienceError::NotFound(NO_EMPLOYMENT))
    }

    /// Deletes an employment and its atoms.
    pub async fn delete_employment(
        &self,
        owner: UserId,
        id: EmploymentId,
    ) -> Result<(), ExperienceError> {
        if self.store.delete_employment(owner, id).await? {
            Ok(())
        } else {
            Err(ExperienceError::NotFound(NO_EMPLOYMENT))
        }
    }

    /// The whole bank: employments, atoms with what they lack, soft duplicates, the preference.
    pub async fn bank(&self, owner: UserId) -> Result<Bank, ExperienceError> {
        let employments = self.store.list_employments(owner).await?;
        let atoms = self.store.list_atoms(owner).await?;
        let soft_duplicates = soft_duplicate_clusters(&atoms);
        let require_context = self.store.experience_require_context(owner).await?;
        let atoms = atoms
            .into_iter()
            .map(|atom| AtomState { richness: atom.draft.richness(), atom })
            .collect();
        Ok(Bank { employments, atoms, soft_duplicates, require_context })
    }

    /// One of the owner's atoms.
    pub async fn atom(&self, owner: UserId, id: AtomId) -> Result<Atom, ExperienceError> {
        self.atoms_by_id(owner, &[id]).await?.pop().ok_or(ExperienceError::NotFound(NO_ATOM))
    }

    /// The owner's atoms among `ids`, in the asked order; others' and missing ids are left out.
    pub async fn atoms_by_id(
        &self,
        owner: UserId,
        ids: &[AtomId],
    ) -> Result<Vec<Atom>, ExperienceError> {
        let found = self.store.get_atoms(owner, ids).await?;
        let mut by_id: HashMap<AtomId, Atom> = found.into_iter().map(|a| (a.id, a)).collect();
        Ok(ids.iter().filter_map(|id| by_id.remove(id)).collect())
    }

    /// Banks an achievement written by `author`. An interactive add without a context is
    /// refused while the owner's require-context preference is on.
    pub async fn add_atom(
        &self,
        owner: UserId,
        draft: AtomDraft,
        author: Author,
        mode: AddMode,
        now: DateTime<Utc>,
    ) -> Result<Added, ExperienceError> {
        let draft = draft.sanitize(&canonical_skill);
        draft.validate()?;
        if mode == AddMode::Interactive
            && draft.context.is_empty()
            && self.store.experience_require_context(owner).await?
        {
            return Err(ExperienceError::ContextRequired);
        }
        match self.store.add_atom(owner, &draft, author, now).await? {
            AtomWrite::Inserted(a) => Ok(Added::Inserted(a)),
            AtomWrite::Upgraded(a) => Ok(Added::Upgraded(a)),
            AtomWrite::AlreadyBanked(id) => Ok(Added::AlreadyBanked(id)),
            AtomWrite::NoSuchEmployment => Err(ExperienceError::NotFound(NO_EMPLOYMENT)),
        }
    }

    /// Applies `patch` to an atom as `author` (a [`Author::Rewrite`] keeps the provenance).
    pub async fn update_atom(
        &self,
        owner: UserId,
        id: AtomId,
        patch: AtomPatch,
        author: Author,
        now: DateTime<Utc>,
    ) -> Result<Atom, ExperienceError> {
        let current = self.atom(owner, id).await?;
        let mut draft = current.draft;
        if let Some(claim) = patch.claim {
            draft.claim = claim;
        }
        if let Some(context) = patch.context {
            draft.context = context;
        }
        if let Some(metrics) = patch.metrics {
            draft.metrics = metrics;
        }
        if let Some(skills) = patch.skills {
            draft.skills = skills;
        }
        if let Some(employment_id) = patch.employment_id {
            draft.employment_id = employment_id;
        }
        let draft = draft.sanitize(&canonical_skill);
        draft.validate()?;
        self.store
            .update_atom(owner, id, &draft, author, now)
            .await?
            .ok_or(ExperienceError::NotFound(NO_ATOM))
    }

    /// Deletes an atom: the only path that removes evidence.
    pub async fn delete_atom(&self, owner: UserId, id: AtomId) -> Result<(), ExperienceError> {
        if self.store.delete_atom(owner, id).await? {
            Ok(())
        } else {
            Err(ExperienceError::NotFound(NO_ATOM))
        }
    }

    /// Merges two atoms of one employment into the richer one (reference §12.3).
    pub async fn merge_atoms(
        &self,
        owner: UserId,
        a: AtomId,
        b: AtomId,
        now: DateTime<Utc>,
    ) -> Result<Merged, ExperienceError> {
        let (first, second) = (self.atom(owner, a).await?, self.atom(owner, b).await?);
        let plan = merge_plan(&first, &second)?;
        match self.store.merge_atoms(owner, &plan, now).await? {
            MergeOutcome::Merged(kept) => Ok(Merged { kept, deleted: plan.drop }),
            MergeOutcome::Conflict => Err(ExperienceError::MergeConflict),
            MergeOutcome::NotFound => Err(ExperienceError::NotFound(NO_ATOM)),
        }
    }

    /// The owner's atoms that best match `text` and `skills` (the skills `text` mentions
    /// count too), best first, at most `limit` (≤ [`MAX_SEARCH_LIMIT`]); zero scores left out.
    pub async fn search(
        &self,
        owner: UserId,
        text: &str,
        skills: &[String],
        limit: usize,
    ) -> Result<Vec<(Atom, u32)>, ExperienceError> {
        let mut wanted: Vec<String> = skills.iter().filter_map(|s| canonical_skill(s)).collect();
        wanted.extend(freehire_normalize::skills_mentioned(text).into_iter().map(str::to_owned));
        let query = RetrievalQuery::new(text, wanted);
        let atoms = self.store.list_atoms(owner).await?;
        let stacks: HashMap<EmploymentId, Vec<String>> = self
            .store
            .list_employments(owner)
            .await?
            .into_iter()
            .map(|e| (e.id, e.draft.stack))
            .collect();
        let ranked = rank_atoms(&query, &atoms, &stacks, limit.clamp(1, MAX_SEARCH_LIMIT));
        let mut by_id: HashMap<AtomId, Atom> = atoms.into_iter().map(|a| (a.id, a)).collect();
        Ok(ranked.into_iter().filter_map(|(id, s)| by_id.remove(&id).map(|a| (a, s))).collect())
    }

    /// [`Experience::search`] for several texts at once, reading the bank once: for each
    /// text, the best `limit` atoms (zero scores left out), in the order of `texts`.
    pub async fn search_many(
        &self,
        owner: UserId,
        texts: &[&str],
        limit: usize,
    ) -> Result<Vec<Vec<Atom>>, ExperienceError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let atoms = self.store.list_atoms(owner).await?;
        let stacks: HashMap<EmploymentId, Vec<String>> = self
            .store
            .list_employments(owner)
            .await?
            .into_iter()
            .map(|e| (e.id, e.draft.stack))
            .collect();
        let by_id: HashMap<AtomId, &Atom> = atoms.iter().map(|a| (a.id, a)).collect();
        let limit = limit.clamp(1, MAX_SEARCH_LIMIT);
        Ok(texts
            .iter()
            .map(|text| {
                let wanted =
                    freehire_normalize::skills_mentioned(text).into_iter().map(str::to_owned);
                let query = RetrievalQuery::new(text, wanted);
                rank_atoms(&query, &atoms, &stacks, limit)
                    .into_iter()
                    .filter_map(|(id, _)| by_id.get(&id).map(|a| (*a).clone()))
                    .collect()
            })
            .collect())
    }

    /// The require-context preference.
    pub async fn require_context(&self, owner: UserId) -> Result<bool, ExperienceError> {
        Ok(self.store.experience_require_context(owner).await?)
    }

    /// Sets the require-context preference.
    pub async fn set_require_context(
        &self,
        owner: UserId,
        on: bool,
    ) -> Result<bool, ExperienceError> {
        if self.store.set_experience_require_context(owner, on).await? {
            Ok(on)
        } else {
            Err(ExperienceError::NotFound("account not found"))
        }
    }
}
