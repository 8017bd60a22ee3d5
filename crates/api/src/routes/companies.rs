//! `GET /api/v1/companies` and `GET /api/v1/companies/{slug}`: companies derived from the open
//! catalogue.

use axum::{
    Json,
    extract::{RawQuery, State},
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};
use freehire_app::catalogue::CompanyAt;
use freehire_domain::CompanySlug;
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    ApiError, AppState,
    extract::{CompanyQuery, ListQuery, Slug},
    openapi::{
        Errors,
        code::{
            InvalidParameter, NotFound, RateLimited, SearchUnavailable, Unauthorized, Unavailable,
        },
    },
    view::{CompanyDetail, CompanyView, JobView, ListEnvelope, ListMeta},
};

/// Companies with open jobs, from the search engine's companies index (reference §5.4): most
/// jobs first (ties by slug); `q` matches words of the name or slug (the last word also as a
/// prefix, typos tolerated as in job search) and ranks the best matches first; the facets OR
/// within and AND across; `limit`/`offset` page as every list does.
#[utoipa::path(
    get, path = "/companies", tag = "companies", operation_id = "list_companies",
    security((), ("api_key" = [])),
    params(CompanyQuery, ListQuery),
    responses(
        (status = 200, description = "A page of companies.", body = ListEnvelope<CompanyView>, headers(
            ("x-ratelimit-limit" = u32, description = "Requests the caller's bucket allows at once (absent when the limits are off)."),
            ("x-ratelimit-remaining" = u32, description = "Requests left now."),
            ("x-ratelimit-reset" = u64, description = "Seconds until the bucket is full again."),
        )),
        Errors<(InvalidParameter, SearchUnavailable, Unavailable, Unauthorized, RateLimited)>,
    ),
)]
pub async fn list(
    State(state): State<AppState>,
    CompanyQuery(filter): CompanyQuery,
    ListQuery(page): ListQuery,
) -> Result<Json<ListEnvelope<CompanyView>>, ApiError> {
    let index = super::search::index(&state).await?;
    let list = state.catalogue().companies(index.as_ref(), &filter, page).await?;
    Ok(Json(ListEnvelope {
        data: list.companies.iter().map(CompanyView::new).collect(),
        meta: ListMeta::of(page, list.total),
    }))
}

/// `{"data": {"company", "jobs"}, "meta": {"total", "limit", "offset"}}`: the page describes
/// the company's open jobs, newest first.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CompanyDetailEnvelope)]
pub struct Detail {
    data: CompanyDetail,
    meta: ListMeta,
}

/// One company and a page of its open jobs; a company without open jobs is not found, and a
/// slug merged into another company answers 301 to that company (query kept).
#[utoipa::path(
    get, path = "/companies/{slug}", tag = "companies", operation_id = "get_company",
    security((), ("api_key" = [])),
    params(Slug<CompanySlug>, ListQuery),
    responses(
        (status = 200, description = "The company and a page of its open jobs.", body = Detail, headers(
            ("x-ratelimit-limit" = u32, description = "Requests the caller's bucket allows at once (absent when the limits are off)."),
            ("x-ratelimit-remaining" = u32, description = "Requests left now."),
            ("x-ratelimit-reset" = u64, description = "Seconds until the bucket is full again."),
        )),
        (status = 301, description = "The slug was merged into another company: `location` is \
            that company's address.", headers(
            ("location" = String, description = "`/api/v1/companies/{canonical}`, with the query."),
        )),
        Errors<(InvalidParameter, NotFound, Unavailable, Unauthorized, RateLimited)>,
    ),
)]
pub async fn show(
    State(state): State<AppState>,
    Slug(slug): Slug<CompanySlug>,
    ListQuery(page): ListQuery,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let now = (state.clock)();
    let detail = match state.catalogue().company(&slug, page, now).await? {
        CompanyAt::Found(detail) => detail,
        CompanyAt::MovedTo(canonical) => {
            let mut to = format!("/api/v1/companies/{}", canonical.as_str());
            if let Some(q) = query.filter(|q| !q.is_empty()) {
                to = format!("{to}?{q}");
            }
            return Ok((StatusCode::MOVED_PERMANENTLY, [(header::LOCATION, to)]).into_response());
        }
        CompanyAt::NotFound => return Err(ApiError::not_found("company not found")),
    };
    let freehire_app::catalogue::CompanyDetail { company, jobs } = *detail;
    Ok(Json(Detail {
        data: CompanyDetail {
            company: CompanyView::new(&company),
            jobs: jobs.jobs.iter().map(|j| JobView::new(j, now)).collect(),
        },
        meta: ListMeta::of(page, jobs.total),
    })
    .into_response())
}
