//! `/api/v1/me/cover-letters*`: the candidate's cover letters (reference assistant.md §10.6),
//! one per vacancy. `POST` drafts one through
//! [`CoverLetters`](freehire_app::assistant::cover_letters::CoverLetters) (the chain the assistant's
//! `cover_letter_draft` runs): 201 with the letter, each paragraph citing the achievements it
//! rests on; 402 `quota_exceeded` with the allowance when today's `cover-letter` allowance is
//! spent; 409 `conflict` when the bank has nothing the candidate may cite yet;
//! 503 `assistant_unavailable` without a model. A `cv` key is enough. Another user's letter is
//! 404, like a missing one.

use axum::{
    Json,
    extract::{Path, State},
    http::StatusCode,
};
use chrono::{DateTime, Utc};
use freehire_app::assistant::cover_letters::{CoverLetterError, Source, WithJob};
use freehire_cv::letter::Band;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    ApiError, AppState, ErrorCode,
    auth::CvUser,
    body::JsonBody,
    openapi::{
        Errors,
        code::{
            AssistantUnavailable, Conflict, InvalidParameter, NotFound, QuotaExceeded,
            Unauthorized, Unavailable, UnsupportedMediaType,
        },
    },
    view::Single,
};

impl From<CoverLetterError> for ApiError {
    fn from(e: CoverLetterError) -> Self {
        let message = e.to_string();
        match e {
            CoverLetterError::Unavailable => Self::new(ErrorCode::AssistantUnavailable, message),
            CoverLetterError::JobNotFound => {
                Self::not_found("job not found").with_param("job_slug")
            }
            CoverLetterError::NotFound => Self::not_found("cover letter not found"),
            CoverLetterError::NoPublishableEvidence => Self::new(ErrorCode::Conflict, message),
            CoverLetterError::Refused(refusal) => Self::quota(refusal),
            e @ (CoverLetterError::Model(_) | CoverLetterError::Draft(_)) => {
                Self::new(ErrorCode::Unavailable, e.to_string())
            }
            CoverLetterError::Experience(e) => e.into(),
            CoverLetterError::Store(e) => e.into(),
        }
    }
}

/// `POST /me/cover-letters`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DraftBody {
    /// The public slug of the vacancy.
    #[serde(default)]
    pub job_slug: String,
    /// `short` (two paragraphs) or `standard` (three, the default; anything else is standard).
    #[serde(default)]
    pub band: Option<String>,
}

/// One paragraph and the achievements it rests on.
#[derive(Debug, Serialize, ToSchema)]
pub struct ParagraphView {
    /// Its text.
    pub text: String,
    /// The ids of the achievements it cites (`/me/experience`).
    pub evidence_ids: Vec<i64>,
}

/// A cover letter.
#[derive(Debug, Serialize, ToSchema)]
pub struct LetterView {
    /// Its id.
    pub id: i64,
    /// The vacancy's public slug (null only if the job was just deleted).
    pub job_slug: Option<String>,
    /// The vacancy's title.
    pub job_title: Option<String>,
    /// Its employer.
    pub company: Option<String>,
    /// `short` or `standard`.
    pub band: String,
    /// "Dear …".
    pub greeting: String,
    /// The body.
    pub paragraphs: Vec<ParagraphView>,
    /// The last sentence and the sign-off words.
    pub closing: String,
    /// The name it is signed with.
    pub signature: String,
    /// The whole letter as plain text.
    pub text: String,
    /// First drafted.
    pub created_at: DateTime<Utc>,
    /// Last drafted.
    pub updated_at: DateTime<Utc>,
}

impl From<&WithJob> for LetterView {
    fn from(w: &WithJob) -> Self {
        let l = &w.letter.letter;
        Self {
            id: w.letter.id,
            job_slug: w.job.as_ref().map(|j| j.public_slug.as_str().to_owned()),
            job_title: w.job.as_ref().map(|j| j.posting.title.clone()),
            company: w.job.as_ref().map(|j| j.posting.company.clone()),
            band: w.letter.band.as_str().to_owned(),
            greeting: l.greeting.clone(),
            paragraphs: l
                .paragraphs
                .iter()
                .map(|p| ParagraphView {
                    text: p.text.clone(),
                    evidence_ids: p.evidence_ids.iter().map(|id| id.get()).collect(),
                })
                .collect(),
            closing: l.closing.clone(),
            signature: l.signature.clone(),
            text: l.text(),
            created_at: w.letter.created_at,
            updated_at: w.letter.updated_at,
        }
    }
}

/// A letter just drafted.
#[derive(Debug, Serialize, ToSchema)]
pub struct DraftedView {
    /// The letter.
    #[serde(flatten)]
    pub letter: LetterView,
    /// Paragraphs of the model's draft that were dropped because the candidate's achievements
    /// did not back them.
    pub dropped_paragraphs: usize,
}

/// Drafts (or drafts again) the cover letter for a vacancy from the candidate's confirmed
/// achievements: 201.
#[utoipa::path(
    post, path = "/me/cover-letters", tag = "cvs", operation_id = "draft_cover_letter",
    security(("session" = []), ("api_key" = [])),
    request_body = DraftBody,
    responses(
        (status = 201, description = "The letter, saved (replacing the one for this vacancy).", body = Single<DraftedView>),
        Errors<(InvalidParameter, UnsupportedMediaType, Unauthorized, QuotaExceeded, NotFound, Conflict, AssistantUnavailable, Unavailable)>,
    ),
)]
pub async fn draft(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
    JsonBody(body): JsonBody<DraftBody>,
) -> Result<(StatusCode, Json<Single<DraftedView>>), ApiError> {
    let band = Band::lenient(body.band.as_deref());
    let letters = state.assistant.cover_letters();
    let drafted =
        letters.draft_for_slug(caller.user.id, &body.job_slug, band, Source::Http).await?;
    let with = letters.with_jobs(vec![drafted.letter]).await?;
    let data =
        DraftedView { letter: LetterView::from(&with[0]), dropped_paragraphs: drafted.dropped };
    Ok((StatusCode::CREATED, Json(Single { data })))
}

/// The candidate's cover letters, newest first.
#[utoipa::path(
    get, path = "/me/cover-letters", tag = "cvs", operation_id = "list_cover_letters",
    security(("session" = []), ("api_key" = [])),
    responses(
        (status = 200, description = "The letters, newest first.", body = Single<Vec<LetterView>>),
        Errors<(Unauthorized, Unavailable)>,
    ),
)]
pub async fn list(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
) -> Result<Json<Single<Vec<LetterView>>>, ApiError> {
    let letters = state.assistant.cover_letters().list_with_jobs(caller.user.id).await?;
    Ok(Json(Single { data: letters.iter().map(LetterView::from).collect() }))
}

/// One cover letter.
#[utoipa::path(
    get, path = "/me/cover-letters/{id}", tag = "cvs", operation_id = "get_cover_letter",
    security(("session" = []), ("api_key" = [])),
    params(("id" = i64, Path, description = "The letter's id.")),
    responses(
        (status = 200, description = "The letter.", body = Single<LetterView>),
        Errors<(InvalidParameter, Unauthorized, NotFound, Unavailable)>,
    ),
)]
pub async fn show(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
    Path(id): Path<String>,
) -> Result<Json<Single<LetterView>>, ApiError> {
    let id = letter_id(&id)?;
    let letter = state.assistant.cover_letters().get(caller.user.id, id).await?;
    Ok(Json(Single { data: LetterView::from(&letter) }))
}

/// Deletes a cover letter: 204.
#[utoipa::path(
    delete, path = "/me/cover-letters/{id}", tag = "cvs", operation_id = "delete_cover_letter",
    security(("session" = []), ("api_key" = [])),
    params(("id" = i64, Path, description = "The letter's id.")),
    responses(
        (status = 204, description = "Deleted."),
        Errors<(InvalidParameter, Unauthorized, NotFound, Unavailable)>,
    ),
)]
pub async fn delete(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let id = letter_id(&id)?;
    state.assistant.cover_letters().delete(caller.user.id, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A letter id from the path: a positive integer, else 404 (no letter has that id).
fn letter_id(raw: &str) -> Result<i64, ApiError> {
    raw.parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| ApiError::not_found("cover letter not found"))
}
