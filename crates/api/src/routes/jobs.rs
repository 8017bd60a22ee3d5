//! `GET /api/v1/jobs` and `GET /api/v1/jobs/{slug}`.

use axum::{Json, extract::State};
use freehire_domain::PublicSlug;

use crate::{
    ApiError, AppState,
    extract::{ListQuery, Slug},
    openapi::{
        Errors,
        code::{InvalidParameter, NotFound, RateLimited, Unauthorized, Unavailable},
    },
    view::{JobView, ListEnvelope, ListMeta, Single},
};

/// Open, non-duplicate jobs, newest first.
#[utoipa::path(
    get, path = "/jobs", tag = "jobs", operation_id = "list_jobs",
    security((), ("api_key" = [])),
    params(ListQuery),
    responses(
        (status = 200, description = "A page of open jobs.", body = ListEnvelope<JobView>, headers(
            ("x-ratelimit-limit" = u32, description = "Requests the caller's bucket allows at once (absent when the limits are off)."),
            ("x-ratelimit-remaining" = u32, description = "Requests left now."),
            ("x-ratelimit-reset" = u64, description = "Seconds until the bucket is full again."),
        )),
        Errors<(InvalidParameter, Unavailable, Unauthorized, RateLimited)>,
    ),
)]
pub async fn list(
    State(state): State<AppState>,
    ListQuery(page): ListQuery,
) -> Result<Json<ListEnvelope<JobView>>, ApiError> {
    let list = state.catalogue().jobs(page).await?;
    let now = (state.clock)();
    Ok(Json(ListEnvelope {
        data: list.jobs.iter().map(|j| JobView::new(j, now)).collect(),
        meta: ListMeta::of(page, list.total),
    }))
}

/// One job by public slug, open or closed, with its reality signals and (open jobs) its ghost
/// signal; unknown is not found.
#[utoipa::path(
    get, path = "/jobs/{slug}", tag = "jobs", operation_id = "get_job",
    security((), ("api_key" = [])),
    params(Slug<PublicSlug>),
    responses(
        (status = 200, description = "The job, open or closed.", body = Single<JobView>, headers(
            ("x-ratelimit-limit" = u32, description = "Requests the caller's bucket allows at once (absent when the limits are off)."),
            ("x-ratelimit-remaining" = u32, description = "Requests left now."),
            ("x-ratelimit-reset" = u64, description = "Seconds until the bucket is full again."),
        )),
        Errors<(InvalidParameter, NotFound, Unavailable, Unauthorized, RateLimited)>,
    ),
)]
pub async fn show(
    State(state): State<AppState>,
    Slug(slug): Slug<PublicSlug>,
) -> Result<Json<Single<JobView>>, ApiError> {
    let now = (state.clock)();
    let (job, signals) = state
        .catalogue()
        .job_with_signals(&slug, now)
        .await?
        .ok_or(ApiError::not_found("job not found"))?;
    let view =
        JobView::new(&job, now).with_reality(&signals.reality).with_ghost(signals.ghost.as_ref());
    Ok(Json(Single { data: view }))
}
