//! The catalogue's lookups beside search (reference search-ingest §6.4): `GET /jobs/find?url=`
//! (the posting at a pasted address), `GET /jobs/{slug}/copies` (the same role posted for
//! other cities or through other sources) and `GET /geo/cities?q=&country=` (canonical city
//! names, the values of the `city` filter) and `GET /suggest?q=` (completions of what a job
//! seeker types). Public, keyless, in the public reads' bucket.

use axum::{Json, extract::State};
use freehire_app::suggest::PartKind;
use freehire_domain::PublicSlug;
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    ApiError, AppState,
    extract::{CitiesQuery, FindQuery, Slug, SuggestQuery},
    openapi::{
        Errors,
        code::{InvalidParameter, NotFound, RateLimited, Unauthorized, Unavailable},
    },
    view::{JobView, Single},
};

/// The posting stored at an address, open or closed. The address is canonicalised first
/// (scheme, case, `www.`, trailing slash, fragment and tracking parameters do not matter);
/// when several postings share it, the open canonical one wins.
#[utoipa::path(
    get, path = "/jobs/find", tag = "jobs", operation_id = "find_job",
    security((), ("api_key" = [])),
    params(FindQuery),
    responses(
        (status = 200, description = "The posting at that address.", body = Single<JobView>, headers(
            ("x-ratelimit-limit" = u32, description = "Requests the caller's bucket allows at once (absent when the limits are off)."),
            ("x-ratelimit-remaining" = u32, description = "Requests left now."),
            ("x-ratelimit-reset" = u64, description = "Seconds until the bucket is full again."),
        )),
        Errors<(InvalidParameter, NotFound, Unavailable, Unauthorized, RateLimited)>,
    ),
)]
pub async fn find(
    State(state): State<AppState>,
    FindQuery(url): FindQuery,
) -> Result<Json<Single<JobView>>, ApiError> {
    let job = state
        .catalogue()
        .find_by_url(&url)
        .await?
        .ok_or(ApiError::not_found("no job at this address"))?;
    Ok(Json(Single { data: JobView::new(&job, (state.clock)()) }))
}

/// The other open postings of a job's role cluster (the same role for other cities or from
/// other sources), by id; empty for a job posted once. Unknown is not found.
#[utoipa::path(
    get, path = "/jobs/{slug}/copies", tag = "jobs", operation_id = "job_copies",
    security((), ("api_key" = [])),
    params(Slug<PublicSlug>),
    responses(
        (status = 200, description = "The job's copies.", body = Single<Vec<JobView>>, headers(
            ("x-ratelimit-limit" = u32, description = "Requests the caller's bucket allows at once (absent when the limits are off)."),
            ("x-ratelimit-remaining" = u32, description = "Requests left now."),
            ("x-ratelimit-reset" = u64, description = "Seconds until the bucket is full again."),
        )),
        Errors<(InvalidParameter, NotFound, Unavailable, Unauthorized, RateLimited)>,
    ),
)]
pub async fn copies(
    State(state): State<AppState>,
    Slug(slug): Slug<PublicSlug>,
) -> Result<Json<Single<Vec<JobView>>>, ApiError> {
    let detail = state
        .catalogue()
        .job_detail(&slug, (state.clock)())
        .await?
        .ok_or(ApiError::not_found("job not found"))?;
    let now = (state.clock)();
    Ok(Json(Single { data: detail.copies.iter().map(|j| JobView::new(j, now)).collect() }))
}

/// A canonical city name and its country.
#[derive(Debug, Serialize, ToSchema)]
pub struct CityView {
    /// The name as the `city` filter takes it.
    #[schema(example = "São Paulo")]
    pub value: &'static str,
    /// Its country (ISO 3166-1 alpha-2, lowercase).
    #[schema(example = "br")]
    pub country: String,
}

/// Canonical city names completing the typed text, most populous first.
#[utoipa::path(
    get, path = "/geo/cities", tag = "jobs", operation_id = "search_cities",
    security((), ("api_key" = [])),
    params(CitiesQuery),
    responses(
        (status = 200, description = "Matching cities (none for a blank `q`).", body = Single<Vec<CityView>>, headers(
            ("x-ratelimit-limit" = u32, description = "Requests the caller's bucket allows at once (absent when the limits are off)."),
            ("x-ratelimit-remaining" = u32, description = "Requests left now."),
            ("x-ratelimit-reset" = u64, description = "Seconds until the bucket is full again."),
        )),
        Errors<(InvalidParameter, Unauthorized, RateLimited)>,
    ),
)]
pub async fn cities(
    State(state): State<AppState>,
    CitiesQuery(query): CitiesQuery,
) -> Json<Single<Vec<CityView>>> {
    let found = state.catalogue().cities(&query.q, query.country.as_ref(), query.limit);
    let data = found
        .into_iter()
        .map(|c| CityView { value: c.name, country: c.country.as_str().to_owned() })
        .collect();
    Json(Single { data })
}

/// One part of a suggestion.
#[derive(Debug, Serialize, ToSchema)]
pub struct SuggestPartView {
    /// What it names.
    #[schema(schema_with = part_kind)]
    pub kind: &'static str,
    /// The value the search filter takes (a skill, category or company); absent for a title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// What the job seeker reads.
    pub text: String,
}

/// One completion: the phrase, what it is made of, and the open jobs it finds.
#[derive(Debug, Serialize, ToSchema)]
pub struct SuggestionView {
    pub text: String,
    pub parts: Vec<SuggestPartView>,
    pub jobs: u64,
}

fn part_kind() -> utoipa::openapi::Object {
    let kinds = PartKind::ALL.iter().map(|k| k.as_str().to_owned()).collect::<Vec<_>>();
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .enum_values(Some(kinds))
        .build()
}

/// Completions of what a job seeker is typing: posting titles (25 open jobs or more),
/// companies (5 or more), skills and categories, whole-phrase matches first, then most jobs.
#[utoipa::path(
    get, path = "/suggest", tag = "jobs", operation_id = "suggest",
    security((), ("api_key" = [])),
    params(SuggestQuery),
    responses(
        (status = 200, description = "Completions (none for a blank `q`).", body = Single<Vec<SuggestionView>>, headers(
            ("x-ratelimit-limit" = u32, description = "Requests the caller's bucket allows at once (absent when the limits are off)."),
            ("x-ratelimit-remaining" = u32, description = "Requests left now."),
            ("x-ratelimit-reset" = u64, description = "Seconds until the bucket is full again."),
        )),
        Errors<(InvalidParameter, Unavailable, Unauthorized, RateLimited)>,
    ),
)]
pub async fn suggest(
    State(state): State<AppState>,
    SuggestQuery(query): SuggestQuery,
) -> Result<Json<Single<Vec<SuggestionView>>>, ApiError> {
    let found = state.suggestions.complete(&query.q, query.limit).await?;
    let data = found
        .into_iter()
        .map(|s| SuggestionView {
            text: s.text,
            parts: s
                .parts
                .into_iter()
                .map(|p| SuggestPartView { kind: p.kind.as_str(), slug: p.slug, text: p.text })
                .collect(),
            jobs: s.jobs,
        })
        .collect();
    Ok(Json(Single { data }))
}
