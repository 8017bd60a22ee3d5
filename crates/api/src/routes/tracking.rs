//! Tracking (reference §6.4 "Signed in: tracking"): the job-addressed marks and application
//! routes under `/jobs/{slug}/…`, and the caller's tracking reads under `/me/tracking…`. Every
//! route takes the session cookie or an API key ([`User`]); each parses its input at the edge
//! (an unknown stage or filter, a malformed `applied_on`, is a 400 before the database is
//! touched), calls one [`freehire_app::tracking::Tracking`] method and renders.

pub mod wire;

use axum::{
    Json,
    body::Bytes,
    extract::{FromRequestParts, State},
    http::{HeaderValue, header::CONTENT_TYPE, request::Parts},
    response::{IntoResponse, Response},
};
use freehire_app::tracking::{DEFAULT_LIMIT, MAX_LIMIT, SlugSet, TrackingFilter};
use freehire_domain::PublicSlug;
use utoipa::{
    IntoParams,
    openapi::{
        ObjectBuilder, Required, Type,
        path::{Parameter, ParameterBuilder, ParameterIn},
    },
};

use self::wire::{
    ApplyBody, CardView, CardsEnvelope, DraftResponse, FollowupView, ImportReportView,
    PipelineView, TrackBody, TrackView, TrackingDetailView,
};
use crate::{
    ApiError, AppState,
    auth::User,
    body::JsonBody,
    extract::Slug,
    openapi::{
        Errors,
        code::{
            Forbidden, InvalidParameter, NotFound, NotSilent, Unauthorized, Unavailable,
            UnsupportedMediaType,
        },
    },
    view::Single,
};

/// `filter`, `limit` and `offset` of `GET /me/tracking`, each refused by name.
#[derive(Debug, Clone, Copy)]
pub struct TrackingQuery {
    filter: TrackingFilter,
    limit: u32,
    offset: u64,
}

impl<S: Send + Sync> FromRequestParts<S> for TrackingQuery {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        let mut query = Self { filter: TrackingFilter::All, limit: DEFAULT_LIMIT, offset: 0 };
        let raw = parts.uri.query().unwrap_or_default();
        for (name, value) in url::form_urlencoded::parse(raw.as_bytes()) {
            match name.as_ref() {
                "filter" => {
                    query.filter = TrackingFilter::parse(&value).ok_or_else(|| {
                        ApiError::bad_param(
                            "filter",
                            &value,
                            "allowed values are all, viewed, saved, applied, board, dismissed",
                        )
                    })?;
                }
                "limit" => {
                    query.limit = value
                        .parse::<u32>()
                        .ok()
                        .filter(|l| (1..=MAX_LIMIT).contains(l))
                        .ok_or_else(|| {
                            ApiError::bad_param(
                                "limit",
                                &value,
                                &format!("must be an integer from 1 to {MAX_LIMIT}"),
                            )
                        })?;
                }
                "offset" => {
                    query.offset = value
                        .parse::<u64>()
                        .ok()
                        .filter(|o| *o <= i64::MAX as u64)
                        .ok_or_else(|| {
                            ApiError::bad_param("offset", &value, "must be a non-negative integer")
                        })?;
                }
                _ => {}
            }
        }
        Ok(query)
    }
}

impl IntoParams for TrackingQuery {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let param = |name: &str, description: &str, schema: ObjectBuilder| {
            ParameterBuilder::new()
                .name(name)
                .parameter_in(ParameterIn::Query)
                .required(Required::False)
                .description(Some(description))
                .schema(Some(schema))
                .build()
        };
        vec![
            param(
                "filter",
                "Which tracked jobs: `all` (default), `viewed`, `saved`, `applied` or `board` \
                 (applications with a stage).",
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .enum_values(Some(TrackingFilter::ALL.iter().map(|f| f.as_str()))),
            ),
            param(
                "limit",
                &format!("Cards per page, 1..={MAX_LIMIT} ({DEFAULT_LIMIT} when absent)."),
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .minimum(Some(1))
                    .maximum(Some(MAX_LIMIT)),
            ),
            param(
                "offset",
                "Cards skipped (0 when absent).",
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .minimum(Some(0))
                    .maximum(Some(i64::MAX)),
            ),
        ]
    }
}

fn track(state: &freehire_app::tracking::TrackState) -> Json<Single<TrackView>> {
    Json(Single { data: TrackView::from(state) })
}

/// Records a view of the job (the first one counts in its view count).
#[utoipa::path(
    post, path = "/jobs/{slug}/view", tag = "tracking", operation_id = "view_job",
    security(("session" = []), ("api_key" = [])),
    params(Slug<PublicSlug>),
    responses(
        (status = 200, description = "The job's tracking state.", body = Single<TrackView>),
        Errors<(InvalidParameter, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn view(
    State(state): State<AppState>,
    User(caller): User,
    Slug(slug): Slug<PublicSlug>,
) -> Result<Json<Single<TrackView>>, ApiError> {
    Ok(track(&state.tracking().view(caller.user.id, &slug, (state.clock)()).await?))
}

/// Applies: records the application (stage `applied` unless further), snapshots the posting,
/// counts you once in the job's applied count. `applied_on` re-dates an earlier application.
#[utoipa::path(
    post, path = "/jobs/{slug}/apply", tag = "tracking", operation_id = "apply_job",
    security(("session" = []), ("api_key" = [])),
    params(Slug<PublicSlug>),
    request_body(content = Option<ApplyBody>, description = "Optional: when you applied."),
    responses(
        (status = 200, description = "The job's tracking state.", body = Single<TrackView>),
        Errors<(InvalidParameter, UnsupportedMediaType, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn apply(
    State(state): State<AppState>,
    User(caller): User,
    Slug(slug): Slug<PublicSlug>,
    body: Option<JsonBody<ApplyBody>>,
) -> Result<Json<Single<TrackView>>, ApiError> {
    let input = body.map(|JsonBody(b)| b).unwrap_or_default().parse()?;
    Ok(track(&state.tracking().apply(caller.user.id, &slug, input, (state.clock)()).await?))
}

/// Saves the job (a reminder is due three days on, at your digest hour).
#[utoipa::path(
    post, path = "/jobs/{slug}/save", tag = "tracking", operation_id = "save_job",
    security(("session" = []), ("api_key" = [])),
    params(Slug<PublicSlug>),
    responses(
        (status = 200, description = "The job's tracking state.", body = Single<TrackView>),
        Errors<(InvalidParameter, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn save(
    State(state): State<AppState>,
    User(caller): User,
    Slug(slug): Slug<PublicSlug>,
) -> Result<Json<Single<TrackView>>, ApiError> {
    Ok(track(&state.tracking().save(caller.user.id, &slug, (state.clock)()).await?))
}

/// Unsaves the job (its pending reminder is cancelled).
#[utoipa::path(
    delete, path = "/jobs/{slug}/save", tag = "tracking", operation_id = "unsave_job",
    security(("session" = []), ("api_key" = [])),
    params(Slug<PublicSlug>),
    responses(
        (status = 200, description = "The job's tracking state.", body = Single<TrackView>),
        Errors<(InvalidParameter, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn unsave(
    State(state): State<AppState>,
    User(caller): User,
    Slug(slug): Slug<PublicSlug>,
) -> Result<Json<Single<TrackView>>, ApiError> {
    Ok(track(&state.tracking().unsave(caller.user.id, &slug, (state.clock)()).await?))
}

/// Dismisses the job.
#[utoipa::path(
    post, path = "/jobs/{slug}/dismiss", tag = "tracking", operation_id = "dismiss_job",
    security(("session" = []), ("api_key" = [])),
    params(Slug<PublicSlug>),
    responses(
        (status = 200, description = "The job's tracking state.", body = Single<TrackView>),
        Errors<(InvalidParameter, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn dismiss(
    State(state): State<AppState>,
    User(caller): User,
    Slug(slug): Slug<PublicSlug>,
) -> Result<Json<Single<TrackView>>, ApiError> {
    Ok(track(&state.tracking().dismiss(caller.user.id, &slug, (state.clock)()).await?))
}

/// Undismisses the job.
#[utoipa::path(
    delete, path = "/jobs/{slug}/dismiss", tag = "tracking", operation_id = "undismiss_job",
    security(("session" = []), ("api_key" = [])),
    params(Slug<PublicSlug>),
    responses(
        (status = 200, description = "The job's tracking state.", body = Single<TrackView>),
        Errors<(InvalidParameter, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn undismiss(
    State(state): State<AppState>,
    User(caller): User,
    Slug(slug): Slug<PublicSlug>,
) -> Result<Json<Single<TrackView>>, ApiError> {
    Ok(track(&state.tracking().undismiss(caller.user.id, &slug, (state.clock)()).await?))
}

/// Sets the stage and/or the notes (at least one); a stage past `preparing` also applies.
#[utoipa::path(
    patch, path = "/jobs/{slug}/track", tag = "tracking", operation_id = "track_job",
    security(("session" = []), ("api_key" = [])),
    params(Slug<PublicSlug>),
    request_body = TrackBody,
    responses(
        (status = 200, description = "The job's tracking state.", body = Single<TrackView>),
        Errors<(InvalidParameter, UnsupportedMediaType, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn update(
    State(state): State<AppState>,
    User(caller): User,
    Slug(slug): Slug<PublicSlug>,
    JsonBody(body): JsonBody<TrackBody>,
) -> Result<Json<Single<TrackView>>, ApiError> {
    let patch = body.parse()?;
    Ok(track(&state.tracking().update(caller.user.id, &slug, patch, (state.clock)()).await?))
}

/// Clears the stage and the applied date; the save and the notes stay.
#[utoipa::path(
    delete, path = "/jobs/{slug}/stage", tag = "tracking", operation_id = "clear_job_stage",
    security(("session" = []), ("api_key" = [])),
    params(Slug<PublicSlug>),
    responses(
        (status = 200, description = "The job's tracking state.", body = Single<TrackView>),
        Errors<(InvalidParameter, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn clear_stage(
    State(state): State<AppState>,
    User(caller): User,
    Slug(slug): Slug<PublicSlug>,
) -> Result<Json<Single<TrackView>>, ApiError> {
    Ok(track(&state.tracking().clear_stage(caller.user.id, &slug, (state.clock)()).await?))
}

/// Clears the save and the application (applied date, stage, notes); the view stays.
#[utoipa::path(
    delete, path = "/jobs/{slug}/track", tag = "tracking", operation_id = "clear_job_track",
    security(("session" = []), ("api_key" = [])),
    params(Slug<PublicSlug>),
    responses(
        (status = 200, description = "The job's tracking state.", body = Single<TrackView>),
        Errors<(InvalidParameter, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn clear_track(
    State(state): State<AppState>,
    User(caller): User,
    Slug(slug): Slug<PublicSlug>,
) -> Result<Json<Single<TrackView>>, ApiError> {
    Ok(track(&state.tracking().clear_track(caller.user.id, &slug, (state.clock)()).await?))
}

/// Your tracked jobs as cards (no descriptions), most recently changed first.
#[utoipa::path(
    get, path = "/me/tracking", tag = "tracking", operation_id = "list_tracking",
    security(("session" = []), ("api_key" = [])),
    params(TrackingQuery),
    responses(
        (status = 200, description = "A page of cards and the total.", body = CardsEnvelope),
        Errors<(InvalidParameter, Unauthorized, Forbidden, Unavailable)>,
    ),
)]
pub async fn list(
    State(state): State<AppState>,
    User(caller): User,
    query: TrackingQuery,
) -> Result<Json<CardsEnvelope>, ApiError> {
    let page = state
        .tracking()
        .list(caller.user.id, query.filter, query.limit, query.offset, (state.clock)())
        .await?;
    Ok(Json(CardsEnvelope {
        data: page.cards.iter().map(CardView::from).collect(),
        total: page.total,
    }))
}

async fn slugs(
    state: &AppState,
    caller: &crate::auth::Caller,
    set: SlugSet,
) -> Result<Json<Single<Vec<String>>>, ApiError> {
    Ok(Json(Single { data: state.tracking().slugs(caller.user.id, set).await? }))
}

/// The slugs of the jobs you viewed, sorted.
#[utoipa::path(
    get, path = "/me/tracking/viewed", tag = "tracking", operation_id = "viewed_slugs",
    security(("session" = []), ("api_key" = [])),
    responses(
        (status = 200, description = "Job slugs.", body = Single<Vec<String>>),
        Errors<(Unauthorized, Forbidden, Unavailable)>,
    ),
)]
pub async fn viewed(
    State(state): State<AppState>,
    User(caller): User,
) -> Result<Json<Single<Vec<String>>>, ApiError> {
    slugs(&state, &caller, SlugSet::Viewed).await
}

/// The slugs of the jobs you saved, sorted.
#[utoipa::path(
    get, path = "/me/tracking/saved", tag = "tracking", operation_id = "saved_slugs",
    security(("session" = []), ("api_key" = [])),
    responses(
        (status = 200, description = "Job slugs.", body = Single<Vec<String>>),
        Errors<(Unauthorized, Forbidden, Unavailable)>,
    ),
)]
pub async fn saved(
    State(state): State<AppState>,
    User(caller): User,
) -> Result<Json<Single<Vec<String>>>, ApiError> {
    slugs(&state, &caller, SlugSet::Saved).await
}

/// The slugs of the jobs you dismissed, sorted.
#[utoipa::path(
    get, path = "/me/tracking/dismissed", tag = "tracking", operation_id = "dismissed_slugs",
    security(("session" = []), ("api_key" = [])),
    responses(
        (status = 200, description = "Job slugs.", body = Single<Vec<String>>),
        Errors<(Unauthorized, Forbidden, Unavailable)>,
    ),
)]
pub async fn dismissed(
    State(state): State<AppState>,
    User(caller): User,
) -> Result<Json<Single<Vec<String>>>, ApiError> {
    slugs(&state, &caller, SlugSet::Dismissed).await
}

/// How many of your applications are at each stage and in each board column.
#[utoipa::path(
    get, path = "/me/tracking/pipeline", tag = "tracking", operation_id = "tracking_pipeline",
    security(("session" = []), ("api_key" = [])),
    responses(
        (status = 200, description = "Every stage and column with its count.", body = Single<PipelineView>),
        Errors<(Unauthorized, Forbidden, Unavailable)>,
    ),
)]
pub async fn pipeline(
    State(state): State<AppState>,
    User(caller): User,
) -> Result<Json<Single<PipelineView>>, ApiError> {
    let p = state.tracking().pipeline(caller.user.id).await?;
    Ok(Json(Single { data: PipelineView::from(&p) }))
}

/// Your silent applications, most overdue first, each with its follow-up draft.
#[utoipa::path(
    get, path = "/me/tracking/followups", tag = "tracking", operation_id = "tracking_followups",
    security(("session" = []), ("api_key" = [])),
    responses(
        (status = 200, description = "Silent applications and their drafts.", body = Single<Vec<FollowupView>>),
        Errors<(Unauthorized, Forbidden, Unavailable)>,
    ),
)]
pub async fn followups(
    State(state): State<AppState>,
    User(caller): User,
) -> Result<Json<Single<Vec<FollowupView>>>, ApiError> {
    let list = state.tracking().followups(caller.user.id, (state.clock)()).await?;
    Ok(Json(Single { data: list.iter().map(FollowupView::from).collect() }))
}

/// Every application with its full history as CSV (RFC 4180, one row per event; the columns
/// `application_id,job_slug,company,company_slug,role_title,stage,applied_at,notes,event_kind,
/// event_signal,occurred_at,source`).
#[utoipa::path(
    get, path = "/me/tracking/export.csv", tag = "tracking", operation_id = "export_tracking",
    security(("session" = []), ("api_key" = [])),
    responses(
        (status = 200, description = "The CSV file.", content_type = "text/csv", body = String),
        Errors<(Unauthorized, Forbidden, Unavailable)>,
    ),
)]
pub async fn export(
    State(state): State<AppState>,
    User(caller): User,
) -> Result<Response, ApiError> {
    let csv = state.tracking().export_csv(caller.user.id).await?;
    let mut response = csv.into_response();
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("text/csv; charset=utf-8"));
    Ok(response)
}

/// Imports the export's CSV (the header names the columns; `role_title` and `company` or
/// `company_slug` are required). Importing the same file twice creates nothing new; a bad row
/// is reported with its line and field and does not stop the others.
#[utoipa::path(
    post, path = "/me/tracking/import", tag = "tracking", operation_id = "import_tracking",
    security(("session" = []), ("api_key" = [])),
    request_body(content = String, content_type = "text/csv", description = "The CSV file."),
    responses(
        (status = 200, description = "What the import did.", body = Single<ImportReportView>),
        Errors<(InvalidParameter, Unauthorized, Forbidden, Unavailable)>,
    ),
)]
pub async fn import(
    State(state): State<AppState>,
    User(caller): User,
    body: Bytes,
) -> Result<Json<Single<ImportReportView>>, ApiError> {
    let text = std::str::from_utf8(&body)
        .map_err(|_| ApiError::bad_param("body", "", "the CSV must be UTF-8 text"))?;
    let report = state.tracking().import_csv(caller.user.id, text, (state.clock)()).await?;
    Ok(Json(Single { data: ImportReportView::from(report) }))
}

/// The full view of a tracked job: its card, the description (the snapshot taken when you
/// applied, once the posting is gone) and the timeline. A job you do not track is not found.
#[utoipa::path(
    get, path = "/me/tracking/{slug}", tag = "tracking", operation_id = "tracking_detail",
    security(("session" = []), ("api_key" = [])),
    params(Slug<PublicSlug>),
    responses(
        (status = 200, description = "The tracked job.", body = Single<TrackingDetailView>),
        Errors<(InvalidParameter, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn detail(
    State(state): State<AppState>,
    User(caller): User,
    Slug(slug): Slug<PublicSlug>,
) -> Result<Json<Single<TrackingDetailView>>, ApiError> {
    let d = state.tracking().detail(caller.user.id, slug.as_str(), (state.clock)()).await?;
    Ok(Json(Single { data: TrackingDetailView::from(&d) }))
}

/// The follow-up draft, only while the application is silent (409 `not_silent` otherwise).
#[utoipa::path(
    get, path = "/me/tracking/{slug}/followup", tag = "tracking", operation_id = "followup_draft",
    security(("session" = []), ("api_key" = [])),
    params(Slug<PublicSlug>),
    responses(
        (status = 200, description = "The draft.", body = Single<DraftResponse>),
        Errors<(InvalidParameter, Unauthorized, Forbidden, NotFound, NotSilent, Unavailable)>,
    ),
)]
pub async fn followup_draft(
    State(state): State<AppState>,
    User(caller): User,
    Slug(slug): Slug<PublicSlug>,
) -> Result<Json<Single<DraftResponse>>, ApiError> {
    let d = state.tracking().followup_draft(caller.user.id, slug.as_str(), (state.clock)()).await?;
    Ok(Json(Single { data: DraftResponse::from(&d) }))
}

/// Records that you followed up (nothing is sent).
#[utoipa::path(
    post, path = "/me/tracking/{slug}/followup", tag = "tracking", operation_id = "record_followup",
    security(("session" = []), ("api_key" = [])),
    params(Slug<PublicSlug>),
    responses(
        (status = 200, description = "The job's tracking state.", body = Single<TrackView>),
        Errors<(InvalidParameter, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn record_followup(
    State(state): State<AppState>,
    User(caller): User,
    Slug(slug): Slug<PublicSlug>,
) -> Result<Json<Single<TrackView>>, ApiError> {
    Ok(track(&state.tracking().record_followup(caller.user.id, &slug, (state.clock)()).await?))
}
