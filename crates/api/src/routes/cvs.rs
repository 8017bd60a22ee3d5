//! `/api/v1/me/cvs*`: the candidate's CVs (reference assistant.md §11): list, read, create the
//! base CV, edit through `cvedit` as the candidate (all or nothing, one revision), the revision
//! feed, undo, and the PDF rendered in-process. Signed in by cookie or an API key of either
//! scope (`cv` keys exist for exactly these surfaces). The rules are
//! [`freehire_app::cvs`]'s; these handlers parse, call the service and render. Another user's
//! CV is 404.

use axum::{
    Json,
    extract::{Path, Query, State},
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};
use chrono::{DateTime, Utc};
use freehire_app::cvs::{CvError, Edited, RenderError};
use freehire_cv::{CvState, EditError, Op, Origin};
use freehire_domain::CvId;
use freehire_store::{Cv, CvRevision, RevisionId};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use super::saved_searches::path_id;
use crate::{
    ApiError, AppState, ErrorCode,
    auth::CvUser,
    body::JsonBody,
    openapi::{
        Errors,
        code::{
            CannotUndo, InvalidEdit, InvalidParameter, NotFound, PayloadTooLarge, Unauthorized,
            Unavailable, UnsupportedMediaType,
        },
    },
    view::Single,
};

impl From<CvError> for ApiError {
    fn from(e: CvError) -> Self {
        match e {
            CvError::NotFound(m) => Self::not_found(m),
            CvError::Edit(e @ EditError::CannotUndo(_)) => {
                Self::new(ErrorCode::CannotUndo, e.to_string())
            }
            CvError::Edit(e) => {
                let mut extra = serde_json::Map::new();
                extra.insert("reason".to_owned(), e.code().into());
                Self::new(ErrorCode::InvalidEdit, e.to_string()).with_param("ops").with_extra(extra)
            }
            CvError::Render(e @ RenderError::TooLarge { .. }) => {
                Self::new(ErrorCode::PayloadTooLarge, e.to_string())
            }
            CvError::Render(e) => Self::internal(e),
            CvError::Store(e) => e.into(),
        }
    }
}

/// A CV on the wire: its id and kind, then its title, template and document fields.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CvView {
    /// Addresses it under `/me/cvs/{id}`.
    pub id: i64,
    /// `base` (the one CV everything starts from) or `tailored` (a copy for one vacancy).
    #[schema(example = "base")]
    pub kind: &'static str,
    /// Its name in the list.
    pub title: String,
    /// `classic` (one column, ATS-safe) or `sidebar`.
    #[schema(example = "classic")]
    pub template_id: &'static str,
    /// The content: `header`, `summary`, `experience`, `projects`, `skills`, `education`,
    /// `sections` (the paths `cvedit` ops name).
    #[schema(value_type = Object)]
    pub document: Value,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl From<&Cv> for CvView {
    fn from(cv: &Cv) -> Self {
        Self {
            id: cv.id.get(),
            kind: cv.kind.as_str(),
            title: cv.state.title.clone(),
            template_id: cv.state.template_id.as_str(),
            document: serde_json::to_value(&cv.state.document).unwrap_or(Value::Null),
            created_at: cv.created_at,
            updated_at: cv.updated_at,
        }
    }
}

/// A revision of a CV's feed.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RevisionView {
    /// Undo it with `POST /me/cvs/{id}/revisions/{revision}/undo`.
    pub id: i64,
    /// Its place in the feed, from 1.
    pub seq: i64,
    /// What it did, in the server's words.
    pub title: String,
    #[schema(required = true)]
    pub note: Option<String>,
    /// `candidate`, `agent` or `system`.
    pub actor: &'static str,
    /// `editor`, `tailor_agent`, `cli`, `template` or `import`.
    pub origin: &'static str,
    /// The assistant turn or autopilot run it belongs to (undo the whole run with
    /// `POST /me/cvs/{id}/batches/{batch}/undo`); null for a lone edit.
    #[schema(required = true)]
    pub batch: Option<String>,
    /// It is an undo of another revision.
    pub is_undo: bool,
    /// An undo has reverted it.
    pub reverted: bool,
    /// An undo may take it back (false for undos, reverted revisions and a tailored copy's
    /// first revision, "Created from your base CV").
    pub undoable: bool,
    pub created_at: DateTime<Utc>,
}

impl From<&CvRevision> for RevisionView {
    fn from(r: &CvRevision) -> Self {
        Self {
            id: r.id.0,
            seq: r.seq,
            title: r.title.clone(),
            note: r.note.clone(),
            actor: r.change.actor.as_str(),
            origin: r.change.origin.as_str(),
            batch: r.change.batch.clone(),
            is_undo: r.is_undo,
            reverted: r.reverted,
            undoable: r.undoable(),
            created_at: r.created_at,
        }
    }
}

/// What an edit, creation or undo answers: the CV now and the revision filed (absent when
/// nothing changed).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EditedView {
    pub cv: CvView,
    #[schema(required = true)]
    pub revision: Option<RevisionView>,
}

pub(crate) fn edited(cv: &Cv, e: &Edited) -> EditedView {
    let mut cv = CvView::from(cv);
    cv.title = e.state.title.clone();
    cv.template_id = e.state.template_id.as_str();
    cv.document = serde_json::to_value(&e.state.document).unwrap_or(Value::Null);
    EditedView { cv, revision: e.revisions.last().map(RevisionView::from) }
}

/// `POST /me/cvs`: the base CV's content.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateBody {
    /// Its name in the list (default "Base CV").
    #[serde(default)]
    pub title: Option<String>,
    /// `classic` (default) or `sidebar`.
    #[serde(default)]
    pub template_id: Option<String>,
    /// The content (`header`, `summary`, `experience`, …); absent: an empty CV.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub document: Option<Value>,
}

/// `POST /me/cvs/{id}/edit`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EditBody {
    /// `cvedit` ops, applied all or nothing: `{"op": "set"|"insert", "path":
    /// "experience[0].bullets[1]", "value": …}`, `{"op": "remove", "path": …}`, `{"op": "move",
    /// "from": …, "to": …}`.
    #[schema(value_type = Vec<Object>)]
    pub ops: Vec<Value>,
    /// A note kept on the revision.
    #[serde(default)]
    pub note: Option<String>,
}

/// `GET /me/cvs/{id}/revisions`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RevisionsQuery {
    /// At most this many, newest first (1–100, default 50).
    #[serde(default)]
    pub limit: Option<u32>,
}

fn invalid(param: &str, message: String) -> ApiError {
    ApiError::new(ErrorCode::InvalidParameter, message).with_param(param)
}

/// The owner's CVs.
#[utoipa::path(
    get, path = "/me/cvs", tag = "cvs", operation_id = "list_cvs",
    security(("session" = []), ("api_key" = [])),
    responses(
        (status = 200, description = "The CVs.", body = Single<Vec<CvView>>),
        Errors<(Unauthorized, Unavailable)>,
    ),
)]
pub async fn list(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
) -> Result<Json<Single<Vec<CvView>>>, ApiError> {
    let cvs = state.cvs().list(caller.user.id).await?;
    Ok(Json(Single { data: cvs.iter().map(CvView::from).collect() }))
}

/// Creates (or replaces the content of) the base CV: 201. The content goes through `cvedit`
/// like any edit: trimmed, clipped, lists bounded.
#[utoipa::path(
    post, path = "/me/cvs", tag = "cvs", operation_id = "create_base_cv",
    security(("session" = []), ("api_key" = [])),
    request_body = CreateBody,
    responses(
        (status = 201, description = "The base CV.", body = Single<EditedView>),
        Errors<(InvalidParameter, InvalidEdit, UnsupportedMediaType, Unauthorized, Unavailable)>,
    ),
)]
pub async fn create(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
    JsonBody(body): JsonBody<CreateBody>,
) -> Result<(StatusCode, Json<Single<EditedView>>), ApiError> {
    let mut cv =
        CvState { title: body.title.unwrap_or_else(|| "Base CV".to_owned()), ..CvState::default() };
    if let Some(raw) = body.template_id {
        cv.template_id =
            serde_json::from_value(Value::String(raw.trim().to_owned())).map_err(|_| {
                invalid(
                    "template_id",
                    format!("invalid template_id {raw:?}: allowed values are classic, sidebar"),
                )
            })?;
    }
    if let Some(doc) = body.document {
        cv.document = serde_json::from_value(doc)
            .map_err(|e| invalid("document", format!("invalid document: {e}")))?;
    }
    let (stored, e) =
        state.cvs().create_base(caller.user.id, cv, Origin::Editor, (state.clock)()).await?;
    Ok((StatusCode::CREATED, Json(Single { data: edited(&stored, &e) })))
}

/// One of the owner's CVs.
#[utoipa::path(
    get, path = "/me/cvs/{id}", tag = "cvs", operation_id = "get_cv",
    security(("session" = []), ("api_key" = [])),
    params(("id" = i64, Path, description = "The CV's id.", minimum = 1)),
    responses(
        (status = 200, description = "The CV.", body = Single<CvView>),
        Errors<(InvalidParameter, Unauthorized, NotFound, Unavailable)>,
    ),
)]
pub async fn show(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
    Path(id): Path<String>,
) -> Result<Json<Single<CvView>>, ApiError> {
    let cv = state.cvs().get(caller.user.id, path_id(&id)?).await?;
    Ok(Json(Single { data: CvView::from(&cv) }))
}

/// Edits a CV as the candidate: the ops apply all or nothing and file one revision. A refused
/// edit is 422 `invalid_edit` with `reason` (`invalid_op`, `list_cap`, `bullet_cap`, …) and
/// the message naming the op and the path.
#[utoipa::path(
    post, path = "/me/cvs/{id}/edit", tag = "cvs", operation_id = "edit_cv",
    security(("session" = []), ("api_key" = [])),
    params(("id" = i64, Path, description = "The CV's id.", minimum = 1)),
    request_body = EditBody,
    responses(
        (status = 200, description = "The CV and the revision filed.", body = Single<EditedView>),
        Errors<(InvalidParameter, InvalidEdit, UnsupportedMediaType, Unauthorized, NotFound, Unavailable)>,
    ),
)]
pub async fn edit(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
    Path(id): Path<String>,
    JsonBody(body): JsonBody<EditBody>,
) -> Result<Json<Single<EditedView>>, ApiError> {
    let id: CvId = path_id(&id)?;
    if body.ops.is_empty() {
        return Err(invalid("ops", "give at least one op".to_owned()));
    }
    let mut ops = Vec::with_capacity(body.ops.len());
    for (i, raw) in body.ops.into_iter().enumerate() {
        let op: Op =
            serde_json::from_value(raw).map_err(|e| invalid("ops", format!("ops[{i}]: {e}")))?;
        ops.push(op);
    }
    let owner = caller.user.id;
    let cvs = state.cvs();
    let e =
        cvs.edit(owner, id, &ops, Origin::Editor, body.note.as_deref(), (state.clock)()).await?;
    let cv = cvs.get(owner, id).await?;
    Ok(Json(Single { data: edited(&cv, &e) }))
}

/// A CV's revisions, newest first.
#[utoipa::path(
    get, path = "/me/cvs/{id}/revisions", tag = "cvs", operation_id = "list_cv_revisions",
    security(("session" = []), ("api_key" = [])),
    params(("id" = i64, Path, description = "The CV's id.", minimum = 1), RevisionsQuery),
    responses(
        (status = 200, description = "The revisions, newest first.", body = Single<Vec<RevisionView>>),
        Errors<(InvalidParameter, Unauthorized, NotFound, Unavailable)>,
    ),
)]
pub async fn revisions(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
    Path(id): Path<String>,
    Query(q): Query<RevisionsQuery>,
) -> Result<Json<Single<Vec<RevisionView>>>, ApiError> {
    let list = state.cvs().revisions(caller.user.id, path_id(&id)?, q.limit.unwrap_or(50)).await?;
    Ok(Json(Single { data: list.iter().map(RevisionView::from).collect() }))
}

/// Undoes a revision, as a new revision. One whose change no longer applies is 409
/// `cannot_undo`.
#[utoipa::path(
    post, path = "/me/cvs/{id}/revisions/{revision}/undo", tag = "cvs", operation_id = "undo_cv_revision",
    security(("session" = []), ("api_key" = [])),
    params(
        ("id" = i64, Path, description = "The CV's id.", minimum = 1),
        ("revision" = i64, Path, description = "The revision's id.", minimum = 1),
    ),
    responses(
        (status = 200, description = "The CV and the undo's revision.", body = Single<EditedView>),
        Errors<(InvalidParameter, Unauthorized, NotFound, CannotUndo, Unavailable)>,
    ),
)]
pub async fn undo(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
    Path((id, revision)): Path<(String, String)>,
) -> Result<Json<Single<EditedView>>, ApiError> {
    let id: CvId = path_id(&id)?;
    let revision =
        revision.trim().parse::<i64>().ok().filter(|r| *r > 0).map(RevisionId).ok_or_else(
            || {
                invalid(
                    "revision",
                    format!("invalid revision {revision:?}: must be a positive integer"),
                )
            },
        )?;
    let owner = caller.user.id;
    let cvs = state.cvs();
    let e = cvs.undo(owner, id, revision, (state.clock)()).await?;
    let cv = cvs.get(owner, id).await?;
    Ok(Json(Single { data: edited(&cv, &e) }))
}

/// The CV as a PDF, in its template (rendered in-process by Typst, fonts embedded).
#[utoipa::path(
    get, path = "/me/cvs/{id}/pdf", tag = "cvs", operation_id = "get_cv_pdf",
    security(("session" = []), ("api_key" = [])),
    params(("id" = i64, Path, description = "The CV's id.", minimum = 1)),
    responses(
        (status = 200, description = "The PDF.", content_type = "application/pdf", body = Vec<u8>),
        Errors<(InvalidParameter, Unauthorized, NotFound, PayloadTooLarge, Unavailable)>,
    ),
)]
pub async fn pdf(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (cv, rendered) = state.cvs().pdf(caller.user.id, path_id(&id)?).await?;
    let name = format!("attachment; filename=\"cv-{}.pdf\"", cv.id);
    Ok((
        [(header::CONTENT_TYPE, "application/pdf".to_owned()), (header::CONTENT_DISPOSITION, name)],
        rendered.pdf,
    )
        .into_response())
}
