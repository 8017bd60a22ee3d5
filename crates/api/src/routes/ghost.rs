//! `POST|DELETE /jobs/{slug}/ghost-report`: an applicant reports a posting as a ghost job
//! (they applied on a day and never heard back), or takes the report back (reference
//! search-ingest §5.10, §6.4). The job's `ghost` signal on its detail counts live reports.

use axum::{Json, extract::State, http::StatusCode};
use freehire_domain::PublicSlug;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    ApiError, AppState,
    auth::User,
    body::JsonBody,
    extract::Slug,
    openapi::{
        Errors,
        code::{Forbidden, InvalidParameter, NotFound, Unauthorized, Unavailable},
    },
    view::Single,
};

/// A ghost report.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GhostReportBody {
    /// The day you applied (`YYYY-MM-DD`, default today): not in the future, at most a year ago.
    #[schema(example = "2026-10-20", format = Date)]
    pub applied_on: Option<String>,
}

/// The report recorded.
#[derive(Debug, Serialize, ToSchema)]
pub struct GhostReportView {
    /// The day you applied.
    #[schema(format = Date)]
    pub applied_on: String,
}

/// Reports the job as a ghost job: you applied and never heard back. One report per job and
/// person (a second replaces the first); a closed job takes none.
#[utoipa::path(
    post, path = "/jobs/{slug}/ghost-report", tag = "tracking", operation_id = "report_ghost_job",
    security(("session" = []), ("api_key" = [])),
    params(Slug<PublicSlug>),
    request_body(content = Option<GhostReportBody>, description = "Optional: when you applied."),
    responses(
        (status = 200, description = "The report recorded.", body = Single<GhostReportView>),
        Errors<(InvalidParameter, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn report(
    State(state): State<AppState>,
    User(caller): User,
    Slug(slug): Slug<PublicSlug>,
    body: Option<JsonBody<GhostReportBody>>,
) -> Result<Json<Single<GhostReportView>>, ApiError> {
    let body = body.map(|JsonBody(b)| b).unwrap_or_default();
    let applied_on = super::tracking::wire::applied_on(body.applied_on)?;
    let day =
        state.tracking().report_ghost(caller.user.id, &slug, applied_on, (state.clock)()).await?;
    Ok(Json(Single { data: GhostReportView { applied_on: day.format("%Y-%m-%d").to_string() } }))
}

/// Takes your ghost report back (nothing happens without one).
#[utoipa::path(
    delete, path = "/jobs/{slug}/ghost-report", tag = "tracking", operation_id = "retract_ghost_report",
    security(("session" = []), ("api_key" = [])),
    params(Slug<PublicSlug>),
    responses(
        (status = 204, description = "No report of yours stands on the job."),
        Errors<(InvalidParameter, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn retract(
    State(state): State<AppState>,
    User(caller): User,
    Slug(slug): Slug<PublicSlug>,
) -> Result<StatusCode, ApiError> {
    state.tracking().retract_ghost(caller.user.id, &slug, (state.clock)()).await?;
    Ok(StatusCode::NO_CONTENT)
}
