//! Importing a CV pasted as text (reference assistant.md §12.3, "Import"): [`CvImport`], the
//! one service the `POST /me/cvs/import` route, the `/cvs` page and `freehire cv import` call.
//!
//! The text is read by [`freehire_cv::import_text`] (no model call, so every claim is a line
//! the candidate pasted). Then:
//!
//! - **the bank**, additive: each job or project is matched to an employment by (company,
//!   role), case-insensitively, and only its blanks are filled
//!   (`FillEmploymentBlanks`), or it is created; each claim is banked with provenance
//!   `cv_import` (publishable: the candidate's own CV says it), a claim already banked is
//!   skipped by its claim key, an unconfirmed (`agent_inferred`) atom with the same claim is
//!   upgraded in place. Nothing is deleted or merged; the require-context preference does not
//!   apply.
//! - **the base CV**: created from the document when the owner has none (or an empty one);
//!   otherwise replaced in one revision (undoable) unless the caller asks to keep it. Title
//!   and template stay.
//!
//! `now` comes from the caller.

use chrono::{DateTime, Utc};
use freehire_cv::{CvState, EditConfig, Imported, MAX_IMPORT_CHARS, Origin, import_text};
use freehire_domain::{AtomDraft, Author, EmploymentId, UserId};
use freehire_store::Cv;

use crate::cvs::{CvError, Cvs};
use crate::experience::{AddMode, Added, Experience, ExperienceError};

/// What becomes of an existing base CV.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum BaseCv {
    /// Its content is replaced by the import, in one revision that can be undone.
    #[default]
    Replace,
    /// It is left as it is; only the bank is filled.
    Keep,
}

/// What happened to the base CV.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BaseOutcome {
    /// There was none (or an empty one); it now holds the import.
    Created,
    /// Its content was replaced.
    Replaced,
    /// It was kept as it was.
    Kept,
}

impl BaseOutcome {
    /// The wire name.
    pub const fn as_str(self) -> &'static str {
        match self {
            BaseOutcome::Created => "created",
            BaseOutcome::Replaced => "replaced",
            BaseOutcome::Kept => "kept",
        }
    }
}

/// What an import did.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportReport {
    /// The base CV now.
    pub cv: Cv,
    /// What happened to it.
    pub base: BaseOutcome,
    /// What it banked.
    pub bank: Banked,
    /// Lines that fit nowhere.
    pub unread: Vec<String>,
}

/// What an import banked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Banked {
    /// Employments (jobs and projects) created.
    pub employments_created: usize,
    /// Existing employments whose blanks were filled (or that matched and needed nothing).
    pub employments_matched: usize,
    /// Claims banked as new achievements.
    pub atoms_added: usize,
    /// Unconfirmed achievements the CV confirmed (now `cv_import`, same id).
    pub atoms_upgraded: usize,
    /// Claims that were already banked.
    pub atoms_already_banked: usize,
}

/// What an import can fail with.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The text is empty, too long, or holds nothing a CV has.
    #[error("{0}")]
    Text(String),
    /// The bank refused a write.
    #[error(transparent)]
    Experience(#[from] ExperienceError),
    /// The base CV could not be written.
    #[error(transparent)]
    Cv(#[from] CvError),
}

/// The import service.
#[derive(Clone)]
pub struct CvImport {
    cvs: Cvs,
    experience: Experience,
}

/// Where banked claims say they came from.
pub const SOURCE_REF: &str = "pasted CV";

impl CvImport {
    /// A service over the CV and experience services.
    pub fn new(cvs: Cvs, experience: Experience) -> Self {
        Self { cvs, experience }
    }

    /// Reads `text` without writing anything (what an import would bring).
    pub fn read(text: &str, config: &EditConfig) -> Result<Imported, ImportError> {
        let chars = text.chars().count();
        if text.trim().is_empty() {
            return Err(ImportError::Text("text is empty: paste the CV's text".to_owned()));
        }
        if chars > MAX_IMPORT_CHARS {
            return Err(ImportError::Text(format!(
                "text is {chars} characters long: at most {MAX_IMPORT_CHARS} are read"
            )));
        }
        let imported = import_text(text, config.max_bullets);
        if !imported.has_sections() {
            return Err(ImportError::Text(
                "no CV could be read from text: it has no Experience, Projects, Education or \
                 Skills section (put each under a heading of its own)"
                    .to_owned(),
            ));
        }
        Ok(imported)
    }

    /// Imports `text` for `owner` (see the module docs).
    pub async fn import(
        &self,
        owner: UserId,
        text: &str,
        base: BaseCv,
        now: DateTime<Utc>,
    ) -> Result<ImportReport, ImportError> {
        let imported = Self::read(text, self.cvs.config())?;
        let mut bank = Banked::default();
        for entry in &imported.employments {
            let employment = self.employment(owner, &entry.draft, &mut bank, now).await?;
            for claim in &entry.claims {
                let draft = AtomDraft {
                    employment_id: employment,
                    skills: freehire_normalize::skills_mentioned(claim)
                        .into_iter()
                        .map(str::to_owned)
                        .collect(),
                    source_ref: SOURCE_REF.to_owned(),
                    ..AtomDraft::claim(claim.clone())
                };
                match self
                    .experience
                    .add_atom(owner, draft, Author::Import, AddMode::Import, now)
                    .await
                {
                    Ok(Added::Inserted(_)) => bank.atoms_added += 1,
                    Ok(Added::Upgraded(_)) => bank.atoms_upgraded += 1,
                    Ok(Added::AlreadyBanked(_)) => bank.atoms_already_banked += 1,
                    // A line that sanitises to nothing is not a claim.
                    Err(ExperienceError::Invalid(_)) => {}
                    Err(e) => return Err(e.into()),
                }
            }
        }

        let existing = self.cvs.base(owner).await?;
        let empty = existing.as_ref().is_none_or(|cv| cv.state.document == Default::default());
        let (cv, outcome) = match existing {
            Some(cv) if !empty && base == BaseCv::Keep => (cv, BaseOutcome::Kept),
            existing => {
                let (title, template_id) = existing.as_ref().map_or_else(
                    || ("Base CV".to_owned(), Default::default()),
                    |cv| (cv.state.title.clone(), cv.state.template_id),
                );
                let state = CvState { title, template_id, document: imported.document };
                let (cv, _) = self.cvs.create_base(owner, state, Origin::Import, now).await?;
                (cv, if empty { BaseOutcome::Created } else { BaseOutcome::Replaced })
            }
        };
        Ok(ImportReport { cv, base: outcome, bank, unread: imported.unread })
    }

    /// The employment `draft` matches (its blanks filled) or a new one; `None` for an entry
    /// without company and role.
    async fn employment(
        &self,
        owner: UserId,
        draft: &freehire_domain::EmploymentDraft,
        bank: &mut Banked,
        now: DateTime<Utc>,
    ) -> Result<Option<EmploymentId>, ImportError> {
        if draft.company.trim().is_empty() && draft.role.trim().is_empty() {
            return Ok(None);
        }
        if let Some(found) = self.experience.find_employment(owner, draft).await? {
            let filled =
                self.experience.fill_employment_blanks(owner, found.id, draft, now).await?;
            bank.employments_matched += 1;
            return Ok(Some(filled.map_or(found.id, |e| e.id)));
        }
        match self.experience.create_employment(owner, draft.clone(), now).await {
            Ok(e) => {
                bank.employments_created += 1;
                Ok(Some(e.id))
            }
            Err(ExperienceError::Invalid(_)) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }
}
