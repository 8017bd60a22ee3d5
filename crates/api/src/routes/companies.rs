//! `GET /api/v1/companies` and `GET /api/v1/companies/{slug}`: companies derived from the open
//! catalogue.

use axum::{
    Json,
    extract::{Path, RawQuery, State},
};
use freehire_domain::CompanySlug;
use freehire_store::CompanyFilter;
use serde::Serialize;

use crate::{
    ApiError, AppState,
    params::list_page,
    view::{CompanyDetail, CompanyView, JobView, ListEnvelope, ListMeta},
};

/// Companies with open jobs, most jobs first (ties by slug); `q` keeps those whose slug
/// contains the slugified text; `limit`/`offset` page as every list does.
pub async fn list(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Result<Json<ListEnvelope<CompanyView>>, ApiError> {
    let page = list_page(query.as_deref())?;
    let q = url::form_urlencoded::parse(query.as_deref().unwrap_or_default().as_bytes())
        .find(|(name, _)| name == "q")
        .map(|(_, value)| value.into_owned());
    let filter = CompanyFilter { q };
    let list = state.store.list_companies(&filter, page, (state.clock)()).await?;
    Ok(Json(ListEnvelope {
        data: list.companies.iter().map(CompanyView::new).collect(),
        meta: ListMeta { total: list.total, limit: page.limit(), offset: page.offset() },
    }))
}

/// `{"data": {"company", "jobs"}, "meta": {"total", "limit", "offset"}}`: the page describes
/// the company's open jobs, newest first.
#[derive(Debug, Serialize)]
pub struct Detail {
    data: CompanyDetail,
    meta: ListMeta,
}

/// One company and a page of its open jobs. A malformed slug is a 400 naming it; a company
/// without open jobs is not found.
pub async fn show(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Json<Detail>, ApiError> {
    let parsed =
        CompanySlug::parse(&slug).ok().filter(|s| !s.as_str().is_empty()).ok_or_else(|| {
            ApiError::bad_param(
                "slug",
                &slug,
                "must be lowercase letters, digits and single hyphens",
            )
        })?;
    let page = list_page(query.as_deref())?;
    let now = (state.clock)();
    let company = state
        .store
        .company_by_slug(&parsed, now)
        .await?
        .ok_or(ApiError::NotFound("company not found"))?;
    let jobs = state.store.company_jobs(&parsed, page).await?;
    Ok(Json(Detail {
        data: CompanyDetail {
            company: CompanyView::new(&company),
            jobs: jobs.jobs.iter().map(|j| JobView::new(j, now)).collect(),
        },
        meta: ListMeta { total: jobs.total, limit: page.limit(), offset: page.offset() },
    }))
}
