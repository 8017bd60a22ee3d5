//! `/api/v1/me/experience*`: the experience bank (reference assistant.md §12): employments
//! (jobs and projects) and achievements ("atoms") with their provenance. Signed in by cookie or
//! an API key of either scope (`cv` keys reach the CV surfaces, and the bank is one). Every
//! write here is the candidate's own: atoms created or replaced here are `manual`, whatever a
//! body says (a body cannot even carry a provenance: unknown fields are refused). The rules are
//! [`freehire_app::experience`]'s; these handlers parse, call the service and render. Another
//! user's employment or atom is 404, like a missing one.

use axum::{
    Json,
    extract::{Path, Query, State},
    http::StatusCode,
};
use chrono::{DateTime, Utc};
use freehire_app::experience::{Added, AtomPatch, Bank, ExperienceError};
use freehire_domain::experience::{MergeError, Period};
use freehire_domain::{
    Atom, AtomDraft, AtomId, Author, DomainError, Employment, EmploymentDraft, EmploymentId,
    EmploymentKind,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::saved_searches::path_id;
use crate::{
    ApiError, AppState, ErrorCode,
    auth::CvUser,
    body::JsonBody,
    openapi::{
        Errors,
        code::{
            Conflict, InvalidParameter, NotFound, Unauthorized, Unavailable, UnsupportedMediaType,
        },
    },
    view::Single,
};

impl From<ExperienceError> for ApiError {
    fn from(e: ExperienceError) -> Self {
        let message = e.to_string();
        match e {
            ExperienceError::NotFound(m) => Self::not_found(m),
            ExperienceError::Invalid(d) => d.into(),
            ExperienceError::ContextRequired => {
                Self::new(ErrorCode::InvalidParameter, message).with_param("context")
            }
            ExperienceError::Merge(MergeError::SameAtom(_) | MergeError::CrossEmployment(..)) => {
                Self::new(ErrorCode::InvalidParameter, message).with_param("ids")
            }
            ExperienceError::MergeConflict => Self::new(ErrorCode::Conflict, message),
            ExperienceError::ClaimTaken => {
                Self::new(ErrorCode::Conflict, message).with_param("claim")
            }
            ExperienceError::Store(e) => e.into(),
        }
    }
}

/// A `{year, month?}` date.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PeriodView {
    /// 1900–2100.
    pub year: i32,
    /// 1–12, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub month: Option<u8>,
}

impl From<Period> for PeriodView {
    fn from(p: Period) -> Self {
        Self { year: p.year, month: p.month }
    }
}

/// An employment on the wire: a job carries `company`, a project `name` and `link`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EmploymentView {
    /// Addresses it under `/me/experience/employments/{id}`; atoms name it as `employment_id`.
    pub id: i64,
    /// `job` or `project`.
    #[schema(example = "job")]
    pub kind: &'static str,
    /// The employer (jobs only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub company: Option<String>,
    /// The project's name (projects only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The project's link (projects only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    pub role: String,
    pub location: String,
    #[schema(required = true)]
    pub start: Option<PeriodView>,
    #[schema(required = true)]
    pub end: Option<PeriodView>,
    pub current: bool,
    pub summary: String,
    /// Canonical skill slugs.
    pub stack: Vec<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl From<&Employment> for EmploymentView {
    fn from(e: &Employment) -> Self {
        let d = &e.draft;
        let project = d.kind == EmploymentKind::Project;
        Self {
            id: e.id.get(),
            kind: d.kind.as_str(),
            company: (!project).then(|| d.company.clone()),
            name: project.then(|| d.company.clone()),
            link: project.then(|| d.link.clone()),
            role: d.role.clone(),
            location: d.location.clone(),
            start: d.start.map(PeriodView::from),
            end: d.end.map(PeriodView::from),
            current: d.current,
            summary: d.summary.clone(),
            stack: d.stack.clone(),
            created_at: e.created_at,
            updated_at: e.updated_at,
        }
    }
}

/// An achievement on the wire.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AtomView {
    /// Addresses it under `/me/experience/atoms/{id}`; a CV bullet cites it by this id.
    pub id: i64,
    /// The role or project it belongs to.
    #[schema(required = true)]
    pub employment_id: Option<i64>,
    pub claim: String,
    pub context: String,
    pub metrics: Vec<String>,
    /// Canonical skill slugs.
    pub skills: Vec<String>,
    /// `cv_import`, `stated_in_chat`, `manual` or `agent_inferred`.
    #[schema(example = "manual")]
    pub provenance: &'static str,
    /// Whether a CV may cite it (every provenance but `agent_inferred`).
    pub confirmed: bool,
    /// Where it came from (a session, a CV import), free text.
    pub source_ref: String,
    /// It has no context.
    pub needs_context: bool,
    /// It has no metric and no number in its claim.
    pub needs_metrics: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl From<&Atom> for AtomView {
    fn from(a: &Atom) -> Self {
        let richness = a.draft.richness();
        Self {
            id: a.id.get(),
            employment_id: a.draft.employment_id.map(EmploymentId::get),
            claim: a.draft.claim.clone(),
            context: a.draft.context.clone(),
            metrics: a.draft.metrics.clone(),
            skills: a.draft.skills.clone(),
            provenance: a.provenance.as_str(),
            confirmed: a.publishable(),
            source_ref: a.draft.source_ref.clone(),
            needs_context: richness.needs_context,
            needs_metrics: richness.needs_metrics,
            created_at: a.created_at,
            updated_at: a.updated_at,
        }
    }
}

/// The whole bank.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BankView {
    /// Current first, then by start, newest first.
    pub employments: Vec<EmploymentView>,
    /// By employment (none last), oldest first.
    pub atoms: Vec<AtomView>,
    /// Groups of near-paraphrased achievements that could be merged (ids).
    pub soft_duplicates: Vec<Vec<i64>>,
    /// Whether every new achievement must carry its context.
    pub require_context: bool,
}

impl From<&Bank> for BankView {
    fn from(b: &Bank) -> Self {
        Self {
            employments: b.employments.iter().map(EmploymentView::from).collect(),
            atoms: b.atoms.iter().map(|a| AtomView::from(&a.atom)).collect(),
            soft_duplicates: b
                .soft_duplicates
                .iter()
                .map(|c| c.iter().map(|id| id.get()).collect())
                .collect(),
            require_context: b.require_context,
        }
    }
}

/// An employment to create or replace.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EmploymentBody {
    /// `job` or `project`.
    #[schema(example = "job")]
    pub kind: String,
    /// A job's employer (a project's name, as a fallback for `name`).
    #[serde(default)]
    pub company: Option<String>,
    /// A project's name.
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub role: String,
    #[serde(default)]
    pub location: String,
    #[serde(default)]
    pub start: Option<PeriodView>,
    #[serde(default)]
    pub end: Option<PeriodView>,
    #[serde(default)]
    pub current: bool,
    #[serde(default)]
    pub summary: String,
    /// A project's link.
    #[serde(default)]
    pub link: String,
    /// Skills (free text or slugs; unknown ones are dropped).
    #[serde(default)]
    pub stack: Vec<String>,
}

impl EmploymentBody {
    fn parse(self) -> Result<EmploymentDraft, ApiError> {
        let kind = EmploymentKind::parse(self.kind.trim())?;
        let period = |p: Option<PeriodView>, field: &'static str| {
            p.map(|p| Period::new(p.year, p.month, field)).transpose()
        };
        let company = match kind {
            EmploymentKind::Job => self.company.unwrap_or_default(),
            EmploymentKind::Project => self.name.or(self.company).unwrap_or_default(),
        };
        Ok(EmploymentDraft {
            kind,
            company,
            role: self.role,
            location: self.location,
            start: period(self.start, "start")?,
            end: period(self.end, "end")?,
            current: self.current,
            summary: self.summary,
            link: self.link,
            stack: self.stack,
        })
    }
}

/// An achievement to create or replace (always recorded as `manual`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AtomBody {
    /// The achievement, one sentence (≤ 400 characters).
    #[schema(example = "Cut the nightly batch from four hours to forty minutes")]
    pub claim: String,
    /// The employment it belongs to.
    #[serde(default)]
    pub employment_id: Option<i64>,
    #[serde(default)]
    pub context: String,
    #[serde(default)]
    pub metrics: Vec<String>,
    /// Skills (free text or slugs; unknown ones are dropped).
    #[serde(default)]
    pub skills: Vec<String>,
    /// Where it came from, free text.
    #[serde(default)]
    pub source_ref: String,
}

fn employment_param(raw: Option<i64>) -> Result<Option<EmploymentId>, ApiError> {
    raw.map(EmploymentId::new)
        .transpose()
        .map_err(|e: DomainError| ApiError::from(e).with_param("employment_id"))
}

/// `POST /me/experience/merge`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MergeBody {
    /// Exactly two achievement ids of the same employment.
    pub ids: Vec<i64>,
}

/// The result of a merge.
#[derive(Debug, Serialize, ToSchema)]
pub struct MergedView {
    /// The achievement that stayed, enriched with the other's metrics, skills and context.
    pub kept: AtomView,
    /// The id of the achievement that was merged into it.
    pub deleted_id: i64,
}

/// `PUT /me/experience/settings`.
#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SettingsBody {
    /// Whether every new achievement (typed here or by the assistant) must carry its context.
    pub require_context: bool,
}

/// `GET /me/experience/search`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchQuery {
    /// Words to match in the claims and their context.
    #[serde(default)]
    pub q: String,
    /// Comma-separated skills.
    #[serde(default)]
    pub skills: String,
    /// At most this many (1–50, default 8).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// The whole experience bank: employments, achievements with their provenance and what they
/// lack, near-duplicate clusters, and the require-context preference.
#[utoipa::path(
    get, path = "/me/experience", tag = "experience", operation_id = "get_experience",
    security(("session" = []), ("api_key" = [])),
    responses(
        (status = 200, description = "The bank.", body = Single<BankView>),
        Errors<(Unauthorized, Unavailable)>,
    ),
)]
pub async fn bank(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
) -> Result<Json<Single<BankView>>, ApiError> {
    let bank = state.experience().bank(caller.user.id).await?;
    Ok(Json(Single { data: BankView::from(&bank) }))
}

/// The achievements that best match a text and/or skills, best first (no model involved).
#[utoipa::path(
    get, path = "/me/experience/search", tag = "experience", operation_id = "search_experience",
    security(("session" = []), ("api_key" = [])),
    params(SearchQuery),
    responses(
        (status = 200, description = "The matching achievements, best first.", body = Single<Vec<AtomView>>),
        Errors<(InvalidParameter, Unauthorized, Unavailable)>,
    ),
)]
pub async fn search(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
    Query(q): Query<SearchQuery>,
) -> Result<Json<Single<Vec<AtomView>>>, ApiError> {
    let skills: Vec<String> =
        q.skills.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned).collect();
    if q.q.trim().is_empty() && skills.is_empty() {
        return Err(
            ApiError::new(ErrorCode::InvalidParameter, "give q, skills, or both").with_param("q")
        );
    }
    let limit = q.limit.unwrap_or(8);
    let found = state.experience().search(caller.user.id, q.q.trim(), &skills, limit).await?;
    Ok(Json(Single { data: found.iter().map(|(a, _)| AtomView::from(a)).collect() }))
}

/// Adds an employment: 201.
#[utoipa::path(
    post, path = "/me/experience/employments", tag = "experience", operation_id = "create_employment",
    security(("session" = []), ("api_key" = [])),
    request_body = EmploymentBody,
    responses(
        (status = 201, description = "The employment.", body = Single<EmploymentView>),
        Errors<(InvalidParameter, UnsupportedMediaType, Unauthorized, Unavailable)>,
    ),
)]
pub async fn create_employment(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
    JsonBody(body): JsonBody<EmploymentBody>,
) -> Result<(StatusCode, Json<Single<EmploymentView>>), ApiError> {
    let draft = body.parse()?;
    let e = state.experience().create_employment(caller.user.id, draft, (state.clock)()).await?;
    Ok((StatusCode::CREATED, Json(Single { data: EmploymentView::from(&e) })))
}

/// Replaces an employment whole.
#[utoipa::path(
    put, path = "/me/experience/employments/{id}", tag = "experience", operation_id = "update_employment",
    security(("session" = []), ("api_key" = [])),
    params(("id" = i64, Path, description = "The employment's id.", minimum = 1)),
    request_body = EmploymentBody,
    responses(
        (status = 200, description = "The employment, replaced.", body = Single<EmploymentView>),
        Errors<(InvalidParameter, UnsupportedMediaType, Unauthorized, NotFound, Unavailable)>,
    ),
)]
pub async fn update_employment(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
    Path(id): Path<String>,
    JsonBody(body): JsonBody<EmploymentBody>,
) -> Result<Json<Single<EmploymentView>>, ApiError> {
    let id: EmploymentId = path_id(&id)?;
    let draft = body.parse()?;
    let e =
        state.experience().update_employment(caller.user.id, id, draft, (state.clock)()).await?;
    Ok(Json(Single { data: EmploymentView::from(&e) }))
}

/// Deletes an employment and its achievements: 204.
#[utoipa::path(
    delete, path = "/me/experience/employments/{id}", tag = "experience", operation_id = "delete_employment",
    security(("session" = []), ("api_key" = [])),
    params(("id" = i64, Path, description = "The employment's id.", minimum = 1)),
    responses(
        (status = 204, description = "Deleted, with its achievements."),
        Errors<(InvalidParameter, Unauthorized, NotFound, Unavailable)>,
    ),
)]
pub async fn delete_employment(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    state.experience().delete_employment(caller.user.id, path_id(&id)?).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Adds an achievement as the candidate's own (`manual`): 201. The same claim (compared by
/// its key: case, spacing and punctuation aside) already banked is 409 naming `claim`, with
/// the banked one's `id`; an unconfirmed (`agent_inferred`) one with that claim is confirmed
/// in place instead: 200 with the same id.
#[utoipa::path(
    post, path = "/me/experience/atoms", tag = "experience", operation_id = "create_atom",
    security(("session" = []), ("api_key" = [])),
    request_body = AtomBody,
    responses(
        (status = 201, description = "The new achievement.", body = Single<AtomView>),
        (status = 200, description = "An unconfirmed achievement with this claim, now confirmed.", body = Single<AtomView>),
        Errors<(InvalidParameter, UnsupportedMediaType, Unauthorized, NotFound, Conflict, Unavailable)>,
    ),
)]
pub async fn create_atom(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
    JsonBody(body): JsonBody<AtomBody>,
) -> Result<(StatusCode, Json<Single<AtomView>>), ApiError> {
    let draft = AtomDraft {
        employment_id: employment_param(body.employment_id)?,
        claim: body.claim,
        context: body.context,
        metrics: body.metrics,
        skills: body.skills,
        source_ref: body.source_ref,
    };
    let added = state
        .experience()
        .add_atom(
            caller.user.id,
            draft,
            Author::Candidate,
            freehire_app::experience::AddMode::Interactive,
            (state.clock)(),
        )
        .await?;
    match added {
        Added::Inserted(a) => Ok((StatusCode::CREATED, Json(Single { data: AtomView::from(&a) }))),
        Added::Upgraded(a) => Ok((StatusCode::OK, Json(Single { data: AtomView::from(&a) }))),
        Added::AlreadyBanked(id) => {
            let mut extra = serde_json::Map::new();
            extra.insert("id".to_owned(), id.get().into());
            Err(ApiError::new(ErrorCode::Conflict, "this claim is already in the bank")
                .with_param("claim")
                .with_extra(extra))
        }
    }
}

/// Replaces an achievement's fields; it becomes `manual` (the candidate's own words).
#[utoipa::path(
    put, path = "/me/experience/atoms/{id}", tag = "experience", operation_id = "update_atom",
    security(("session" = []), ("api_key" = [])),
    params(("id" = i64, Path, description = "The achievement's id.", minimum = 1)),
    request_body = AtomBody,
    responses(
        (status = 200, description = "The achievement, replaced.", body = Single<AtomView>),
        Errors<(InvalidParameter, UnsupportedMediaType, Unauthorized, NotFound, Conflict, Unavailable)>,
    ),
)]
pub async fn update_atom(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
    Path(id): Path<String>,
    JsonBody(body): JsonBody<AtomBody>,
) -> Result<Json<Single<AtomView>>, ApiError> {
    let id: AtomId = path_id(&id)?;
    let patch = AtomPatch {
        claim: Some(body.claim),
        context: Some(body.context),
        metrics: Some(body.metrics),
        skills: Some(body.skills),
        employment_id: Some(employment_param(body.employment_id)?),
    };
    let atom = state
        .experience()
        .update_atom(caller.user.id, id, patch, Author::Candidate, (state.clock)())
        .await?;
    Ok(Json(Single { data: AtomView::from(&atom) }))
}

/// Confirms an achievement as the candidate's own statement as it stands (`manual`): what
/// makes an assistant's reading citable in a CV.
#[utoipa::path(
    post, path = "/me/experience/atoms/{id}/confirm", tag = "experience", operation_id = "confirm_atom",
    security(("session" = []), ("api_key" = [])),
    params(("id" = i64, Path, description = "The achievement's id.", minimum = 1)),
    responses(
        (status = 200, description = "The achievement, confirmed.", body = Single<AtomView>),
        Errors<(InvalidParameter, Unauthorized, NotFound, Unavailable)>,
    ),
)]
pub async fn confirm_atom(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
    Path(id): Path<String>,
) -> Result<Json<Single<AtomView>>, ApiError> {
    let id: AtomId = path_id(&id)?;
    let atom = state
        .experience()
        .update_atom(caller.user.id, id, AtomPatch::default(), Author::Candidate, (state.clock)())
        .await?;
    Ok(Json(Single { data: AtomView::from(&atom) }))
}

/// Deletes an achievement: 204.
#[utoipa::path(
    delete, path = "/me/experience/atoms/{id}", tag = "experience", operation_id = "delete_atom",
    security(("session" = []), ("api_key" = [])),
    params(("id" = i64, Path, description = "The achievement's id.", minimum = 1)),
    responses(
        (status = 204, description = "Deleted."),
        Errors<(InvalidParameter, Unauthorized, NotFound, Unavailable)>,
    ),
)]
pub async fn delete_atom(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    state.experience().delete_atom(caller.user.id, path_id(&id)?).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Merges two achievements of one employment into the richer one. Either changed since it
/// was read: 409 (read and retry).
#[utoipa::path(
    post, path = "/me/experience/merge", tag = "experience", operation_id = "merge_atoms",
    security(("session" = []), ("api_key" = [])),
    request_body = MergeBody,
    responses(
        (status = 200, description = "The kept achievement and the merged one's id.", body = Single<MergedView>),
        Errors<(InvalidParameter, UnsupportedMediaType, Unauthorized, NotFound, Conflict, Unavailable)>,
    ),
)]
pub async fn merge(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
    JsonBody(body): JsonBody<MergeBody>,
) -> Result<Json<Single<MergedView>>, ApiError> {
    let [a, b] = body.ids.as_slice() else {
        return Err(ApiError::new(ErrorCode::InvalidParameter, "give exactly 2 achievement ids")
            .with_param("ids"));
    };
    let id = |raw: i64| AtomId::new(raw).map_err(|e| ApiError::from(e).with_param("ids"));
    let merged =
        state.experience().merge_atoms(caller.user.id, id(*a)?, id(*b)?, (state.clock)()).await?;
    Ok(Json(Single {
        data: MergedView { kept: AtomView::from(&merged.kept), deleted_id: merged.deleted.get() },
    }))
}

/// Sets the require-context preference.
#[utoipa::path(
    put, path = "/me/experience/settings", tag = "experience", operation_id = "put_experience_settings",
    security(("session" = []), ("api_key" = [])),
    request_body = SettingsBody,
    responses(
        (status = 200, description = "The settings.", body = Single<SettingsBody>),
        Errors<(InvalidParameter, UnsupportedMediaType, Unauthorized, Unavailable)>,
    ),
)]
pub async fn settings(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
    JsonBody(body): JsonBody<SettingsBody>,
) -> Result<Json<Single<SettingsBody>>, ApiError> {
    let on = state.experience().set_require_context(caller.user.id, body.require_context).await?;
    Ok(Json(Single { data: SettingsBody { require_context: on } }))
}
