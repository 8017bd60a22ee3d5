//! Tailoring a CV to a vacancy (reference assistant.md §11.3–§11.4, §13.6): start or resume
//! it (`POST /me/cvs/tailor`), its workspace (`GET /me/cvs/{id}/tailoring`: the report per
//! requirement, the score, the session, the last run), undo one run of the assistant's edits
//! (`POST /me/cvs/{id}/batches/{batch}/undo`), the unattended pass
//! (`POST /assistant/sessions/{id}/autopilot`, cookie only, streamed like a message) and one
//! more ceiling of turns (`POST /assistant/sessions/{id}/extend`). The rules are
//! [`AssistantService`](freehire_app::assistant::service::AssistantService)'s; another user's
//! CV or session is 404.

use axum::{
    Json,
    extract::{Path, State},
    http::StatusCode,
    response::Response,
};
use freehire_app::assistant::service::{Tailored, Workspace};
use freehire_domain::CvId;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::assistant::SessionPath;
use super::cvs::{CvView, EditedView, edited};
use super::saved_searches::path_id;
use crate::{
    ApiError, AppState,
    auth::{CookieUser, CvUser, User},
    body::JsonBody,
    openapi::{
        Errors,
        code::{
            AssistantUnavailable, CannotUndo, Conflict, Forbidden, InvalidParameter, NotFound,
            QuotaExceeded, TurnQueueFull, Unauthorized, Unavailable,
        },
    },
    view::Single,
};

/// `POST /me/cvs/tailor`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TailorBody {
    /// The public slug of the vacancy (from search).
    #[serde(default)]
    pub job_slug: String,
}

/// A tailoring session started or resumed.
#[derive(Debug, Serialize, ToSchema)]
pub struct TailoredView {
    /// The copy tailored to the vacancy (`/me/cvs/{id}`).
    pub tailor_cv_id: i64,
    /// The base CV it was copied from.
    pub base_cv_id: i64,
    /// The deterministic score of the copy now (`score` 0–100 and its `categories`), or null.
    #[schema(value_type = Object)]
    pub analysis: Value,
    /// The tailor session (`/assistant/sessions/{id}`).
    pub session_id: String,
    /// True when this request created the copy: the workspace starts autopilot itself.
    pub cold_start_running: bool,
}

impl From<&Tailored> for TailoredView {
    fn from(t: &Tailored) -> Self {
        Self {
            tailor_cv_id: t.tailor_cv.get(),
            base_cv_id: t.base_cv.get(),
            analysis: serde_json::to_value(&t.analysis).unwrap_or(Value::Null),
            session_id: t.session.to_string(),
            cold_start_running: t.cold_start,
        }
    }
}

/// Starts tailoring your base CV to a vacancy, or resumes it: the copy, its session, and the
/// vacancy on your board at `preparing`.
#[utoipa::path(
    post, path = "/me/cvs/tailor", tag = "cvs", operation_id = "tailor_cv",
    security(("session" = []), ("api_key" = [])),
    request_body = TailorBody,
    responses(
        (status = 201, description = "The tailored copy and its session.", body = Single<TailoredView>),
        Errors<(InvalidParameter, Unauthorized, QuotaExceeded, NotFound, Conflict, AssistantUnavailable, Unavailable)>,
    ),
)]
pub async fn tailor(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
    JsonBody(body): JsonBody<TailorBody>,
) -> Result<(StatusCode, Json<Single<TailoredView>>), ApiError> {
    let tailored = state.assistant.tailor(caller.user.id, &body.job_slug).await?;
    Ok((StatusCode::CREATED, Json(Single { data: TailoredView::from(&tailored) })))
}

/// A tailored copy's workspace.
#[derive(Debug, Serialize, ToSchema)]
pub struct WorkspaceView {
    /// The copy.
    pub cv: CvView,
    /// The vacancy's public slug (null once the job is gone).
    #[schema(required = true)]
    pub job_slug: Option<String>,
    /// The vacancy's title and company.
    #[schema(required = true)]
    pub job_title: Option<String>,
    #[schema(required = true)]
    pub company: Option<String>,
    /// The tailor session, while it exists.
    #[schema(required = true)]
    pub session_id: Option<String>,
    /// The tailor report: `{items: [{requirement, status, note?}]}`, status one of
    /// `closed_bank`, `closed_candidate`, `open`, `not_reached`.
    #[schema(value_type = Object)]
    pub report: Value,
    /// The deterministic score of the copy now, or null.
    #[schema(value_type = Object)]
    pub analysis: Value,
    /// The newest batch of the assistant's edits still live (undo it with
    /// `POST /me/cvs/{id}/batches/{batch}/undo`).
    #[schema(required = true)]
    pub last_batch: Option<String>,
}

impl From<&Workspace> for WorkspaceView {
    fn from(w: &Workspace) -> Self {
        Self {
            cv: CvView::from(&w.cv),
            job_slug: w.job.as_ref().map(|j| j.public_slug.as_str().to_owned()),
            job_title: w.job.as_ref().map(|j| j.posting.title.clone()),
            company: w.job.as_ref().map(|j| j.posting.company.clone()),
            session_id: w.session.map(|s| s.to_string()),
            report: serde_json::to_value(&w.report).unwrap_or(Value::Null),
            analysis: serde_json::to_value(&w.analysis).unwrap_or(Value::Null),
            last_batch: w.last_batch.clone(),
        }
    }
}

/// The workspace of a tailored copy: the report per requirement, the score, its session.
#[utoipa::path(
    get, path = "/me/cvs/{id}/tailoring", tag = "cvs", operation_id = "get_cv_tailoring",
    security(("session" = []), ("api_key" = [])),
    params(("id" = i64, Path, description = "The tailored CV's id.", minimum = 1)),
    responses(
        (status = 200, description = "The workspace.", body = Single<WorkspaceView>),
        Errors<(InvalidParameter, Unauthorized, NotFound, AssistantUnavailable, Unavailable)>,
    ),
)]
pub async fn workspace(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
    Path(id): Path<String>,
) -> Result<Json<Single<WorkspaceView>>, ApiError> {
    let id: CvId = path_id(&id)?;
    let w = state.assistant.workspace(caller.user.id, id).await?;
    Ok(Json(Single { data: WorkspaceView::from(&w) }))
}

/// Undoes every live edit of one batch (an assistant turn or autopilot run), newest first, all
/// or none.
#[utoipa::path(
    post, path = "/me/cvs/{id}/batches/{batch}/undo", tag = "cvs", operation_id = "undo_cv_batch",
    security(("session" = []), ("api_key" = [])),
    params(
        ("id" = i64, Path, description = "The CV's id.", minimum = 1),
        ("batch" = String, Path, description = "The batch (a revision's `batch`)."),
    ),
    responses(
        (status = 200, description = "The CV and the last undo's revision (null when nothing was left to undo).", body = Single<EditedView>),
        Errors<(InvalidParameter, Unauthorized, NotFound, CannotUndo, Unavailable)>,
    ),
)]
pub async fn undo_batch(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
    Path((id, batch)): Path<(String, String)>,
) -> Result<Json<Single<EditedView>>, ApiError> {
    let id: CvId = path_id(&id)?;
    let owner = caller.user.id;
    let cvs = state.cvs();
    let e = cvs.revert_batch(owner, id, batch.trim(), (state.clock)()).await?;
    let cv = cvs.get(owner, id).await?;
    Ok(Json(Single { data: edited(&cv, &e) }))
}

/// Runs the unattended tailoring pass (30 steps) and streams it. Cookie only.
#[utoipa::path(
    post, path = "/assistant/sessions/{id}/autopilot", tag = "assistant", operation_id = "run_assistant_autopilot",
    security(("session" = [])),
    params(SessionPath),
    responses(
        (status = 200, description = "The turn's events (text/event-stream), ending with one `result`.", content_type = "text/event-stream", body = String),
        Errors<(Unauthorized, QuotaExceeded, Forbidden, NotFound, Conflict, TurnQueueFull, AssistantUnavailable, Unavailable)>,
    ),
)]
pub async fn autopilot(
    State(state): State<AppState>,
    CookieUser(user): CookieUser,
    SessionPath(id): SessionPath,
) -> Result<Response, ApiError> {
    let events = state.assistant.autopilot(&user, id).await?;
    Ok(crate::sse::response(events, state.sse))
}

/// Buys a tailoring session one more ceiling of turns.
#[utoipa::path(
    post, path = "/assistant/sessions/{id}/extend", tag = "assistant", operation_id = "extend_assistant_session",
    security(("session" = []), ("api_key" = [])),
    params(SessionPath),
    responses(
        (status = 200, description = "`{turns, ceiling, unlimited, allowance}` after the extension.", body = Single<Value>),
        Errors<(Unauthorized, QuotaExceeded, Forbidden, NotFound, Conflict, Unavailable)>,
    ),
)]
pub async fn extend(
    State(state): State<AppState>,
    User(caller): User,
    SessionPath(id): SessionPath,
) -> Result<Json<Single<Value>>, ApiError> {
    let view = state.assistant.extend(caller.user.id, id).await?;
    Ok(Json(Single { data: view }))
}
