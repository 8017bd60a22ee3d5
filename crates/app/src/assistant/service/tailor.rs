//! Tailoring sessions (reference §11.3, §11.4, §13.6): [`AssistantService::tailor`] starts or
//! resumes one for a vacancy, [`AssistantService::autopilot`] runs the unattended pass,
//! and [`AssistantService::extend`] buys a tailoring session another ceiling of turns (undoing
//! a run is [`Cvs::revert_batch`](crate::cvs::Cvs::revert_batch) on the copy).
//!
//! `tailor` (`POST /me/cvs/tailor`), in order:
//! 1. the `job_slug` is required (400 naming it) and must be a job of the catalogue (404);
//! 2. the plan: refused (402) only when `tailor` refuses **and** no copy exists yet for this
//!    vacancy, so a candidate can always go back to a copy they made;
//! 3. the copy of the base CV for the vacancy, created once (no base CV: 409 "add a résumé
//!    before tailoring");
//! 4. the live session bound to the copy is reused; otherwise a `tailor` session bound to the
//!    copy and the job is created, named on the copy, and charged `<session>#1`;
//! 5. the vacancy goes on the tracking board at `preparing` unless it already has a stage
//!    (best effort: a failure is logged).
//!
//! `autopilot` needs a tailor session bound to both a CV and a job (409 otherwise); it lays
//! the run plan down first (every required requirement `not_reached` in the tailor report,
//! because a run that hits the step cap cannot report), then runs [`AUTOPILOT_BRIEF`] as a
//! turn, which [`turn_bounds`](super::turn_bounds) caps at 30 steps. Every edit of the run is
//! filed under the turn's batch, so undoing the run is one
//! [`revert_batch`](crate::cvs::Cvs::revert_batch).

use chrono::{DateTime, Utc};
use freehire_assistant::SessionId;
use freehire_domain::{CvId, PublicSlug, Stage, User, UserId, plan::Feature};
use freehire_search::DescriptionFormat;
use freehire_store::{AssistantSession, NewSession};

use super::{AUTOPILOT_BRIEF, AssistantService, ServiceError, TurnEvents, TurnInput};
use crate::assistant::{Preset, normalize_preset};
use crate::cvs::CvError;
use crate::tracking::{TrackPatch, Tracking};

/// The 409 of a tailoring request without a base CV.
pub const NO_BASE_CV: &str = "add a résumé before tailoring";
/// The 409 of an autopilot or undo asked of a session that is not tailoring a CV.
pub const NOT_TAILORING: &str = "this conversation is not tailoring a CV";
/// The 409 of an extension asked of a session that is not tailoring a CV.
pub const NOT_EXTENDABLE: &str = "only a CV editing session can be extended";

const JOB_NOT_FOUND: &str = "job not found";

/// A tailoring session started or resumed.
#[derive(Debug, Clone)]
pub struct Tailored {
    /// The copy tailored to the vacancy.
    pub tailor_cv: CvId,
    /// The base CV it was copied from.
    pub base_cv: CvId,
    /// The session working on it.
    pub session: SessionId,
    /// True when this request created the copy (the workspace then starts autopilot).
    pub cold_start: bool,
    /// The deterministic score of the copy against the vacancy now, when one can be computed.
    pub analysis: Option<freehire_cv::JobMatch>,
}

impl AssistantService {
    fn cvs_or_unavailable(&self) -> Result<&crate::cvs::Cvs, ServiceError> {
        self.cvs.as_ref().ok_or(ServiceError::Unavailable)
    }

    /// Starts or resumes the tailoring of the owner's CV for the job `job_slug` (module docs).
    pub async fn tailor(&self, owner: UserId, job_slug: &str) -> Result<Tailored, ServiceError> {
        let cvs = self.cvs_or_unavailable()?;
        let raw = job_slug.trim();
        if raw.is_empty() {
            return Err(ServiceError::Invalid {
                field: "job_slug",
                message: "job_slug is required: the public slug of a vacancy from search".into(),
            });
        }
        let slug = PublicSlug::parse(raw).map_err(|_| ServiceError::NotFound(JOB_NOT_FOUND))?;
        let job =
            self.store.job_by_slug(&slug).await?.ok_or(ServiceError::NotFound(JOB_NOT_FOUND))?;
        let existing = cvs.list(owner).await.map_err(cv_error)?;
        let has_copy = existing.iter().any(|cv| cv.job_id == Some(job.id));
        if !has_copy {
            match self.plans.standing(owner, Feature::Tailor).await {
                Ok(standing) if standing.refuses() => {
                    let message = format!(
                        "You have used today's allowance of {} tailored CVs; it resets at {}.",
                        standing.limit,
                        standing.resets_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
                    );
                    let body = serde_json::json!({
                        "error": message,
                        "code": "quota_exceeded",
                        "allowance": crate::plans::allowance_view(&standing),
                    });
                    return Err(ServiceError::Refused(crate::plans::Refusal { message, body }));
                }
                Ok(_) => {}
                // Fails open, like every metering read.
                Err(e) => tracing::warn!(error = %e, "tailor: reading the plan failed; going on"),
            }
        }
        let now = (self.clock)();
        let (cv, created) = self
            .store
            .tailor_cv(owner, job.id, now)
            .await?
            .ok_or(ServiceError::Conflict(NO_BASE_CV))?;
        let base = match existing.iter().find(|c| c.kind == freehire_store::CvKind::Base) {
            Some(base) => base.id,
            None => self.store.base_cv(owner).await?.map_or(cv.id, |b| b.id),
        };
        let session = match self.live_session(owner, cv.session_id.as_deref()).await? {
            Some(session) => session,
            None => {
                let label = tailor_label(&job.posting.title, &job.posting.company);
                let new = NewSession {
                    owner,
                    preset: Preset::Tailor.as_str(),
                    label: Some(&label),
                    cv_id: Some(cv.id),
                    job_id: Some(job.id),
                };
                let session = self.store.create_session(new, now).await?;
                self.store.set_cv_session(owner, cv.id, &session.id.to_string()).await?;
                self.plans.start_session(owner, session.id).await;
                session
            }
        };
        self.put_on_board(owner, &slug, now).await;
        let analysis = analysis_of(&cv.state.document, &job, chrono::Datelike::year(&now));
        Ok(Tailored {
            tailor_cv: cv.id,
            base_cv: base,
            session: session.id,
            cold_start: created,
            analysis,
        })
    }

    /// The session named on a copy, when it still exists and is the owner's.
    async fn live_session(
        &self,
        owner: UserId,
        named: Option<&str>,
    ) -> Result<Option<AssistantSession>, ServiceError> {
        let Some(id) = named.and_then(|s| s.parse::<SessionId>().ok()) else {
            return Ok(None);
        };
        Ok(self.store.assistant_session(id, owner).await?)
    }

    async fn put_on_board(&self, owner: UserId, slug: &PublicSlug, now: DateTime<Utc>) {
        let tracking = Tracking::new(self.store.clone());
        let staged = match self.store.track_of(owner, slug).await {
            Ok(track) => track.and_then(|t| t.application).is_some_and(|a| a.stage.is_some()),
            Err(e) => {
                tracing::warn!(error = %e, "tailor: reading the board failed; not staging");
                return;
            }
        };
        if staged {
            return;
        }
        let patch = TrackPatch { stage: Some(Stage::Preparing), notes: None };
        if let Err(e) = tracking.update(owner, slug, patch, now).await {
            tracing::warn!(error = %e, "tailor: putting the vacancy on the board failed");
        }
    }

    /// A tailor session bound to a CV and a job, or 409 [`NOT_TAILORING`].
    async fn tailoring(
        &self,
        owner: UserId,
        id: SessionId,
    ) -> Result<(AssistantSession, CvId, freehire_domain::JobId), ServiceError> {
        let session = self.owned(owner, id).await?;
        match (normalize_preset(&session.preset), session.cv_id, session.job_id) {
            (Preset::Tailor, Some(cv), Some(job)) => Ok((session, cv, job)),
            _ => Err(ServiceError::Conflict(NOT_TAILORING)),
        }
    }

    /// The unattended tailoring pass of one of the caller's tailor sessions, streamed.
    pub async fn autopilot(&self, user: &User, id: SessionId) -> Result<TurnEvents, ServiceError> {
        let (session, cv, job) = self.tailoring(user.id, id).await?;
        self.cvs_or_unavailable()?;
        let model = self.model.as_ref().ok_or(ServiceError::Unavailable)?;
        // Lay the run plan down (best effort): a run stopped by the step cap cannot report.
        match self.store.jobs_by_ids(&[job]).await {
            Ok(jobs) => {
                if let Some(job) = jobs.first() {
                    let markdown = crate::describe::render(
                        &job.posting.description,
                        DescriptionFormat::Markdown,
                    );
                    let reqs = freehire_cv::requirements(&markdown);
                    let plan = freehire_cv::TailorReport::run_plan(
                        reqs.iter()
                            .filter(|r| r.priority == freehire_cv::Priority::Required)
                            .map(|r| r.text.as_str()),
                    );
                    if let Err(e) = self.store.set_tailor_report(user.id, cv, &plan).await {
                        tracing::warn!(error = %e, "autopilot: laying down the run plan failed");
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "autopilot: reading the vacancy failed"),
        }
        self.start(user, session, model, TurnInput::Prompt(AUTOPILOT_BRIEF.to_owned()), None).await
    }

    /// One more ceiling of turns for one of the caller's tailor sessions (§13.6): the
    /// session's turns, ceiling and allowance; `None` when no plan store is wired (204).
    pub async fn extend(
        &self,
        owner: UserId,
        id: SessionId,
    ) -> Result<serde_json::Value, ServiceError> {
        let session = self.owned(owner, id).await?;
        if normalize_preset(&session.preset) != Preset::Tailor {
            return Err(ServiceError::Conflict(NOT_EXTENDABLE));
        }
        let turns = self.store.count_user_turns(id).await?;
        match self.plans.extend_session(owner, id, turns).await {
            Ok(Ok(view)) => Ok(view),
            Ok(Err(refusal)) => Err(ServiceError::Refused(refusal)),
            Err(crate::plans::PlanError::Store(e)) => Err(ServiceError::Store(e)),
        }
    }
}

/// The deterministic score of `doc` against `job` in `year` (also the `job_match` tool's).
pub(crate) fn analysis_of(
    doc: &freehire_cv::CvDocument,
    job: &freehire_domain::Job,
    year: i32,
) -> Option<freehire_cv::JobMatch> {
    let markdown = crate::describe::render(&job.posting.description, DescriptionFormat::Markdown);
    let reqs = freehire_cv::requirements(&markdown);
    let facets = &job.posting.facets;
    let vacancy = freehire_cv::Vacancy {
        title: &job.posting.title,
        skills: &facets.skills,
        seniority: facets.seniority.map(|s| s.as_str()),
        years_min: facets.experience_years_min,
        requirements: &reqs,
    };
    freehire_cv::job_match(doc, &vacancy, year)
}

fn tailor_label(title: &str, company: &str) -> String {
    let (title, company) = (title.trim(), company.trim());
    match (title.is_empty(), company.is_empty()) {
        (false, false) => format!("Tailor: {title} · {company}"),
        (false, true) => format!("Tailor: {title}"),
        _ => "Tailor".to_owned(),
    }
}

fn cv_error(e: CvError) -> ServiceError {
    ServiceError::Cv(e)
}

/// A tailored copy's workspace: what the tailoring page and `GET /me/cvs/{id}/tailoring` show.
#[derive(Debug, Clone)]
pub struct Workspace {
    /// The copy.
    pub cv: freehire_store::Cv,
    /// Its vacancy (`None` once the job is gone).
    pub job: Option<freehire_domain::Job>,
    /// The session working on it, when it still exists.
    pub session: Option<SessionId>,
    /// The tailor report (empty before any run or report).
    pub report: freehire_cv::TailorReport,
    /// The deterministic score of the copy now, when one can be computed.
    pub analysis: Option<freehire_cv::JobMatch>,
    /// The newest batch of assistant edits still live on the copy (what "undo this run"
    /// takes back).
    pub last_batch: Option<String>,
}

impl AssistantService {
    /// The workspace of one of the owner's tailored copies; a base CV or another user's copy
    /// is not found.
    pub async fn workspace(&self, owner: UserId, id: CvId) -> Result<Workspace, ServiceError> {
        let cvs = self.cvs_or_unavailable()?;
        let cv = cvs.get(owner, id).await.map_err(cv_error)?;
        if cv.kind != freehire_store::CvKind::Tailored {
            return Err(ServiceError::NotFound("tailored CV not found"));
        }
        let job = match cv.job_id {
            Some(job) => self.store.jobs_by_ids(&[job]).await?.into_iter().next(),
            None => None,
        };
        let session = self.live_session(owner, cv.session_id.as_deref()).await?.map(|s| s.id);
        let year = chrono::Datelike::year(&(self.clock)());
        let analysis = job.as_ref().and_then(|job| analysis_of(&cv.state.document, job, year));
        let revisions =
            cvs.revisions(owner, id, crate::cvs::MAX_REVISIONS).await.map_err(cv_error)?;
        let last_batch = revisions
            .iter()
            .find(|r| r.change.actor == freehire_cv::Actor::Agent && !r.reverted && !r.is_undo)
            .and_then(|r| r.change.batch.clone());
        let report = cv.autopilot_report.clone().unwrap_or_default();
        Ok(Workspace { cv, job, session, report, analysis, last_batch })
    }
}
