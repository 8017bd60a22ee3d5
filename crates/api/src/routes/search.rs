//! Search over the search index: `GET /api/v1/jobs/search` (hits as the index holds them),
//! `GET /api/v1/agent/jobs/search` (each hit the full job from the store, its description
//! rendered as asked) and `GET /api/v1/jobs/facets` (value counts and numeric stats). The use
//! cases are [`freehire_app::search`]'s; these handlers parse, call one and render.
//!
//! All three answer 400 naming a bad parameter (the extractor runs before the index is looked
//! for), 503 `search_unavailable` when no index is configured or it does not exist yet, or
//! when the engine fails (the cause is logged, not returned); agent search also reads the
//! store, so a database outage answers it 503 `unavailable`.

use std::sync::Arc;

use axum::{Json, extract::State};
use freehire_app::search;
use freehire_search::{IgnoredParam, JobQuery, SearchIndex};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    ApiError, AppState, ErrorCode, SearchStatus,
    extract::{AgentQuery, FacetsQuery, SearchQuery},
    openapi::{
        Errors,
        code::{
            InvalidParameter, InvalidQuery, RateLimited, SearchUnavailable, Unauthorized,
            Unavailable,
        },
    },
    view::{FacetsData, IgnoredParamView, JobView, SearchHit, SearchMeta},
};

/// `{"data": [hit…], "meta": {…}}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Hits<T> {
    data: Vec<T>,
    meta: SearchMeta,
}

/// `{"data": {…}, "meta"?: {"ignored_params"}}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct FacetsAnswer {
    data: FacetsData,
    /// Present only when some parameters were ignored.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    meta: Option<Ignored>,
}

/// `{"ignored_params": [...]}`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = FacetsMeta)]
struct Ignored {
    #[schema(value_type = Vec<IgnoredParamView>)]
    ignored_params: Vec<IgnoredParam>,
}

pub(crate) async fn index(state: &AppState) -> Result<Arc<dyn SearchIndex>, ApiError> {
    state.search.get().await.map_err(|status| {
        let why = match status {
            SearchStatus::Missing => "the search index is not built yet (the worker builds it)",
            SearchStatus::Off => "no search index is configured",
            SearchStatus::Ok | SearchStatus::Unavailable => "the search index cannot be opened",
        };
        ApiError::new(ErrorCode::SearchUnavailable, format!("search is not available: {why}"))
    })
}

/// Hits for the query, as the index holds them (truncated description, no internal id), each
/// with its reality signals.
#[utoipa::path(
    get, path = "/jobs/search", tag = "search", operation_id = "search_jobs",
    security((), ("api_key" = [])),
    params(SearchQuery),
    responses(
        (status = 200, description = "A page of hits.", body = Hits<SearchHit>, headers(
            ("x-ratelimit-limit" = u32, description = "Requests the caller's bucket allows at once (absent when the limits are off)."),
            ("x-ratelimit-remaining" = u32, description = "Requests left now."),
            ("x-ratelimit-reset" = u64, description = "Seconds until the bucket is full again."),
        )),
        Errors<(InvalidParameter, InvalidQuery, SearchUnavailable, Unauthorized, RateLimited)>,
    ),
)]
pub async fn search(
    State(state): State<AppState>,
    SearchQuery(query): SearchQuery,
) -> Result<Json<Hits<SearchHit>>, ApiError> {
    let index = index(&state).await?;
    let (results, query, realities) =
        search::hits_with_reality(state.store.as_ref(), index.as_ref(), &query, (state.clock)())
            .await?;
    Ok(Json(Hits {
        data: results
            .hits
            .iter()
            .zip(&realities)
            .map(|(doc, reality)| SearchHit::new(doc).with_reality(reality))
            .collect(),
        meta: SearchMeta::of(&query, results.total),
    }))
}

/// Hits for the query as full jobs read from the store, descriptions in
/// `description_format` ([`search::agent_hits`]).
#[utoipa::path(
    get, path = "/agent/jobs/search", tag = "search", operation_id = "agent_search_jobs",
    security((), ("api_key" = [])),
    params(AgentQuery),
    responses(
        (status = 200, description = "A page of hits, each the full job.", body = Hits<JobView>, headers(
            ("x-ratelimit-limit" = u32, description = "Requests the caller's bucket allows at once (absent when the limits are off)."),
            ("x-ratelimit-remaining" = u32, description = "Requests left now."),
            ("x-ratelimit-reset" = u64, description = "Seconds until the bucket is full again."),
        )),
        Errors<(InvalidParameter, InvalidQuery, SearchUnavailable, Unavailable, Unauthorized, RateLimited)>,
    ),
)]
pub async fn agent_search(
    State(state): State<AppState>,
    AgentQuery(request): AgentQuery,
) -> Result<Json<Hits<JobView>>, ApiError> {
    let now = (state.clock)();
    let found =
        search::agent_hits(state.store.as_ref(), index(&state).await?.as_ref(), &request, now)
            .await?;
    Ok(Json(Hits {
        data: found
            .jobs
            .iter()
            .zip(&found.realities)
            .map(|(job, reality)| JobView::new(job, now).with_reality(reality))
            .collect(),
        meta: SearchMeta::of(&found.query, found.total),
    }))
}

/// Value counts per facet and numeric stats for the query's matches. Answers are kept 60 s
/// per canonical query (the filter, text, distributions and `disjunctive`).
#[utoipa::path(
    get, path = "/jobs/facets", tag = "search", operation_id = "job_facets",
    security((), ("api_key" = [])),
    params(FacetsQuery),
    responses(
        (status = 200, description = "Value counts and numeric stats.", body = FacetsAnswer, headers(
            ("x-ratelimit-limit" = u32, description = "Requests the caller's bucket allows at once (absent when the limits are off)."),
            ("x-ratelimit-remaining" = u32, description = "Requests left now."),
            ("x-ratelimit-reset" = u64, description = "Seconds until the bucket is full again."),
        )),
        Errors<(InvalidParameter, InvalidQuery, SearchUnavailable, Unauthorized, RateLimited)>,
    ),
)]
pub async fn facets(
    State(state): State<AppState>,
    FacetsQuery(request): FacetsQuery,
) -> Result<Json<FacetsAnswer>, ApiError> {
    let index = index(&state).await?;
    let counts = state.facets_cache.facets(index.as_ref(), &request, (state.clock)()).await?;
    let JobQuery { ignored_params, .. } = request.query;
    Ok(Json(FacetsAnswer {
        data: counts.into(),
        meta: (!ignored_params.is_empty()).then_some(Ignored { ignored_params }),
    }))
}
