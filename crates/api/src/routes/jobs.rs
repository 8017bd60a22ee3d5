//! `GET /api/v1/jobs` and `GET /api/v1/jobs/:slug`.

use axum::{
    Json,
    extract::{Path, RawQuery, State},
};
use freehire_domain::PublicSlug;

use crate::{
    ApiError, AppState,
    params::list_page,
    view::{JobView, ListEnvelope, ListMeta, Single},
};

/// Open, non-duplicate jobs, newest first.
pub async fn list(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Result<Json<ListEnvelope<JobView>>, ApiError> {
    let page = list_page(query.as_deref())?;
    let list = state.store.list_open_jobs(page).await?;
    let now = (state.clock)();
    Ok(Json(ListEnvelope {
        data: list.jobs.iter().map(|j| JobView::new(j, now)).collect(),
        meta: ListMeta { total: list.total, limit: page.limit(), offset: page.offset() },
    }))
}

/// One job by public slug, open or closed. A slug that cannot exist is simply not found.
pub async fn show(
    State(state): State<AppState>,
    Path(slug): Path<String>,
) -> Result<Json<Single<JobView>>, ApiError> {
    const NOT_FOUND: ApiError = ApiError::NotFound("job not found");
    let slug = PublicSlug::parse(&slug).map_err(|_| NOT_FOUND)?;
    let job = state.store.job_by_slug(&slug).await?.ok_or(NOT_FOUND)?;
    Ok(Json(Single { data: JobView::new(&job, (state.clock)()) }))
}
