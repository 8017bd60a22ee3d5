//! Cover letters (reference assistant.md §10.6 `cover_letter_draft`): one generation chain for
//! the HTTP route, the tailoring workspace and the assistant's tool.
//!
//! [`CoverLetters::draft`] for an owner and a vacancy:
//!
//! 1. reads the vacancy and picks the evidence: the owner's **publishable** achievements that
//!    best match the vacancy's requirements and title (at most
//!    [`MAX_EVIDENCE`](freehire_cv::letter::MAX_EVIDENCE); the most recent publishable ones
//!    when nothing matches). None publishable is [`CoverLetterError::NoPublishableEvidence`],
//!    before anything is charged;
//! 2. charges `cover-letter` under [`cover_letter_ref`] (the vacancy and the surface: drafting
//!    again from the same surface costs nothing more); a refusal is
//!    [`CoverLetterError::Refused`]; metering errors fail open;
//! 3. asks the model (the owner's own gateway key when there is one) for the JSON draft of
//!    [`freehire_cv::letter::system_prompt`], showing it the vacancy and the evidence, never
//!    the candidate's name or contacts;
//! 4. keeps what [`freehire_cv::letter::gate`] admits (paragraphs citing offered evidence,
//!    stating no number the evidence does not), signs it with the name on the base CV (or the
//!    account's display name), and saves it, replacing the owner's letter for that vacancy.
//!
//! The charge is released on any failure after it (the model, the gate, the store).

use std::sync::Arc;

use chrono::{DateTime, Utc};
use freehire_cv::letter::{self, Band, Evidence, LetterError, MAX_EVIDENCE};
use freehire_domain::plan::Feature;
use freehire_domain::{Atom, JobId, PublicSlug, UserId};
use freehire_llm::{ChatRequest, Message};
use freehire_search::DescriptionFormat;
use freehire_store::{Store, StoreError, StoredLetter};
use serde_json::json;

use super::model::AssistantModel;
use crate::describe;
use crate::experience::{Experience, ExperienceError};
use crate::plans::{Charge, Plans, Refusal};

/// The most characters of the vacancy description the model reads.
pub const DESCRIPTION_LIMIT: usize = 6_000;

/// Where a draft was asked for: the charge reference names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// `POST /me/cover-letters` or the tailoring workspace.
    Http,
    /// The assistant's `cover_letter_draft`.
    Tool,
}

impl Source {
    fn as_str(self) -> &'static str {
        match self {
            Self::Http => "http",
            Self::Tool => "tool",
        }
    }
}

/// The reference a letter for `job` drafted from `source` is charged under
/// (`coverLetterRef(jobID, source)`).
pub fn cover_letter_ref(job: JobId, source: Source) -> String {
    format!("cover-letter:{job}:{}", source.as_str())
}

/// What drafting a letter can fail with.
#[derive(Debug, thiserror::Error)]
pub enum CoverLetterError {
    /// No model is configured.
    #[error("cover letters need the assistant's model, which is not configured on this server")]
    Unavailable,
    /// The vacancy does not exist.
    #[error("job not found")]
    JobNotFound,
    /// The letter does not exist, or is another user's.
    #[error("cover letter not found")]
    NotFound,
    /// Nothing in the bank may be cited.
    #[error(
        "nothing in the candidate's experience bank is theirs to cite yet: confirm an \
         achievement (or add one in your own words), then try again"
    )]
    NoPublishableEvidence,
    /// The allowance is spent.
    #[error("{}", .0.message)]
    Refused(Refusal),
    /// The model failed.
    #[error("the model could not draft the letter: {0}")]
    Model(String),
    /// The draft did not pass the gate.
    #[error(transparent)]
    Draft(#[from] LetterError),
    /// The bank could not be read.
    #[error(transparent)]
    Experience(#[from] ExperienceError),
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A drafted letter.
#[derive(Debug, Clone)]
pub struct Drafted {
    /// The saved letter.
    pub letter: StoredLetter,
    /// Paragraphs of the model's draft the gate dropped.
    pub dropped: usize,
}

/// A stored letter and its vacancy (`None` only in a race with the job's deletion).
#[derive(Debug, Clone)]
pub struct WithJob {
    /// The letter.
    pub letter: StoredLetter,
    /// Its vacancy.
    pub job: Option<freehire_domain::Job>,
}

/// The cover-letter service. Cheap to clone.
#[derive(Clone)]
pub struct CoverLetters {
    store: Arc<dyn Store>,
    model: Option<AssistantModel>,
    plans: Plans,
    clock: fn() -> DateTime<Utc>,
}

impl std::fmt::Debug for CoverLetters {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CoverLetters").field("model", &self.model).finish_non_exhaustive()
    }
}

impl CoverLetters {
    /// Over `store`, drafting with `model` (none: drafting is unavailable, stored letters
    /// still read), metered by `plans`.
    pub fn new(
        store: Arc<dyn Store>,
        model: Option<AssistantModel>,
        plans: Plans,
        clock: fn() -> DateTime<Utc>,
    ) -> Self {
        Self { store, model, plans, clock }
    }

    /// Whether drafting is possible (a model is configured).
    pub fn available(&self) -> bool {
        self.model.is_some()
    }

    /// Drafts, gates, signs and saves the owner's letter for `job` (see the module docs).
    pub async fn draft(
        &self,
        owner: UserId,
        job: JobId,
        band: Band,
        source: Source,
    ) -> Result<Drafted, CoverLetterError> {
        let model = self.model.as_ref().ok_or(CoverLetterError::Unavailable)?;
        let job = self
            .store
            .jobs_by_ids(&[job])
            .await?
            .into_iter()
            .next()
            .ok_or(CoverLetterError::JobNotFound)?;
        let markdown = describe::render(&job.posting.description, DescriptionFormat::Markdown);
        let evidence = self.evidence(owner, &job.posting.title, &markdown).await?;
        if evidence.is_empty() {
            return Err(CoverLetterError::NoPublishableEvidence);
        }
        let charge = self.charge(owner, job.id, source).await?;
        let drafted = self.write(model, owner, &job, &markdown, &evidence, band).await;
        match drafted {
            Ok(d) => Ok(d),
            Err(e) => {
                if let Some(charge) = &charge {
                    self.plans.release(owner, charge).await;
                }
                Err(e)
            }
        }
    }

    /// Steps 3–4 of the module docs.
    async fn write(
        &self,
        model: &AssistantModel,
        owner: UserId,
        job: &freehire_domain::Job,
        markdown: &str,
        evidence: &[Evidence],
        band: Band,
    ) -> Result<Drafted, CoverLetterError> {
        let requirements: Vec<String> =
            freehire_cv::requirements(markdown).into_iter().map(|r| r.text).collect();
        let request = json!({
            "vacancy": {
                "title": job.posting.title,
                "company": job.posting.company,
                "requirements": requirements,
                "description": clip(markdown, DESCRIPTION_LIMIT),
            },
            "evidence": evidence.iter().map(|e| json!({
                "id": e.id.to_string(),
                "claim": e.claim,
                "context": e.context,
                "metrics": e.metrics,
            })).collect::<Vec<_>>(),
        });
        let messages =
            [Message::System(letter::system_prompt(band)), Message::User(request.to_string())];
        let headers = [("x-bf-dim-feature".to_owned(), Feature::CoverLetter.as_str().to_owned())];
        let bound = model.bind(owner).await;
        let answer = bound
            .chat(ChatRequest::new(&messages, &[]).with_headers(&headers))
            .await
            .map_err(|e| CoverLetterError::Model(e.to_string()))?;
        let raw = letter::parse_draft(&answer.content)?;
        let mut gated = letter::gate(&raw, evidence, band)?;
        gated.letter.signature = self.signature(owner).await?;
        let now = (self.clock)();
        let saved = self.store.save_cover_letter(owner, job.id, band, &gated.letter, now).await?;
        Ok(Drafted { letter: saved, dropped: gated.dropped })
    }

    /// Charges the draft; `None` when nothing was charged (already charged, shadow mode past
    /// the allowance, or a metering failure, which fails open).
    async fn charge(
        &self,
        owner: UserId,
        job: JobId,
        source: Source,
    ) -> Result<Option<Charge>, CoverLetterError> {
        let reference = cover_letter_ref(job, source);
        match self.plans.consume(owner, Feature::CoverLetter, &reference).await {
            Ok(Ok(charge)) => Ok(charge),
            Ok(Err(refusal)) => Err(CoverLetterError::Refused(refusal)),
            Err(e) => {
                tracing::warn!(error = %e, %reference, "cover letter: metering failed; drafting uncharged");
                Ok(None)
            }
        }
    }

    /// The publishable achievements that best match the vacancy, at most [`MAX_EVIDENCE`].
    async fn evidence(
        &self,
        owner: UserId,
        title: &str,
        markdown: &str,
    ) -> Result<Vec<Evidence>, CoverLetterError> {
        let experience = Experience::new(self.store.clone());
        let requirements = freehire_cv::requirements(markdown);
        let mut texts: Vec<&str> = vec![title];
        texts.extend(requirements.iter().map(|r| r.text.as_str()));
        let found = experience.search_many(owner, &texts, 3).await?;
        let mut picked: Vec<Atom> = Vec::new();
        for atom in found.into_iter().flatten() {
            if atom.publishable() && !picked.iter().any(|a| a.id == atom.id) {
                picked.push(atom);
            }
        }
        if picked.is_empty() {
            let mut all: Vec<Atom> =
                self.store.list_atoms(owner).await?.into_iter().filter(Atom::publishable).collect();
            all.sort_by_key(|a| std::cmp::Reverse(a.created_at));
            picked = all;
        }
        picked.truncate(MAX_EVIDENCE);
        Ok(picked
            .into_iter()
            .map(|a| Evidence {
                id: a.id,
                claim: a.draft.claim,
                context: a.draft.context,
                metrics: a.draft.metrics,
            })
            .collect())
    }

    /// The name a letter is signed with: the base CV's, else the account's display name.
    async fn signature(&self, owner: UserId) -> Result<String, CoverLetterError> {
        if let Some(cv) = self.store.base_cv(owner).await? {
            let name = cv.state.document.header.full_name.trim();
            if !name.is_empty() {
                return Ok(name.to_owned());
            }
        }
        let user = self.store.user_by_id(owner).await?;
        Ok(user.and_then(|u| u.username).map(|n| n.as_str().to_owned()).unwrap_or_default())
    }

    /// [`CoverLetters::draft`] for the vacancy with public slug `slug` (a malformed or
    /// unknown slug is [`CoverLetterError::JobNotFound`]).
    pub async fn draft_for_slug(
        &self,
        owner: UserId,
        slug: &str,
        band: Band,
        source: Source,
    ) -> Result<Drafted, CoverLetterError> {
        let slug = PublicSlug::parse(slug.trim()).map_err(|_| CoverLetterError::JobNotFound)?;
        let job = self.store.job_by_slug(&slug).await?.ok_or(CoverLetterError::JobNotFound)?;
        self.draft(owner, job.id, band, source).await
    }

    /// One of the owner's letters and its vacancy.
    pub async fn get(&self, owner: UserId, id: i64) -> Result<WithJob, CoverLetterError> {
        let letter = self.store.cover_letter(owner, id).await?.ok_or(CoverLetterError::NotFound)?;
        Ok(self.with_jobs(vec![letter]).await?.remove(0))
    }

    /// The owner's letters with their vacancies, newest first.
    pub async fn list_with_jobs(&self, owner: UserId) -> Result<Vec<WithJob>, CoverLetterError> {
        let letters = self.store.list_cover_letters(owner).await?;
        self.with_jobs(letters).await
    }

    /// `letters` with their vacancies, read in one query.
    pub async fn with_jobs(
        &self,
        letters: Vec<StoredLetter>,
    ) -> Result<Vec<WithJob>, CoverLetterError> {
        let ids: Vec<JobId> = letters.iter().map(|l| l.job_id).collect();
        let jobs = self.store.jobs_by_ids(&ids).await?;
        Ok(letters
            .into_iter()
            .map(|letter| {
                let job = jobs.iter().find(|j| j.id == letter.job_id).cloned();
                WithJob { letter, job }
            })
            .collect())
    }

    /// The owner's letter for `job`, if any.
    pub async fn for_job(
        &self,
        owner: UserId,
        job: JobId,
    ) -> Result<Option<StoredLetter>, CoverLetterError> {
        Ok(self.store.cover_letter_for_job(owner, job).await?)
    }

    /// The owner's letters, newest first.
    pub async fn list(&self, owner: UserId) -> Result<Vec<StoredLetter>, CoverLetterError> {
        Ok(self.store.list_cover_letters(owner).await?)
    }

    /// Deletes one of the owner's letters.
    pub async fn delete(&self, owner: UserId, id: i64) -> Result<(), CoverLetterError> {
        if self.store.delete_cover_letter(owner, id).await? {
            Ok(())
        } else {
            Err(CoverLetterError::NotFound)
        }
    }
}

/// `text` cut to at most `chars` characters, marked when cut.
fn clip(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}
