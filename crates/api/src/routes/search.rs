//! Search over the search index: `GET /api/v1/jobs/search` (hits as the index holds them),
//! `GET /api/v1/agent/jobs/search` (each hit the full job from the store, its description
//! rendered as asked) and `GET /api/v1/jobs/facets` (value counts and numeric stats). The use
//! cases are [`freehire_app::search`]'s; these handlers parse, call one and render.
//!
//! All three answer 400 naming a bad parameter (the extractor runs before the index is looked
//! for), 503 when no index is configured or it does not exist yet, and 503 when the engine fails (the cause is logged,
//! not returned).

use std::sync::Arc;

use axum::{Json, extract::State};
use freehire_app::search;
use freehire_search::{IgnoredParam, JobQuery, SearchIndex};
use serde::Serialize;

use crate::{
    ApiError, AppState, ErrorCode, SearchStatus,
    extract::{AgentQuery, FacetsQuery, SearchQuery},
    view::{FacetsData, JobView, SearchHit, SearchMeta},
};

/// `{"data": [hit…], "meta": {…}}`.
#[derive(Debug, Serialize)]
pub struct Hits<T> {
    data: Vec<T>,
    meta: SearchMeta,
}

/// `{"data": {…}, "meta"?: {"ignored_params"}}`.
#[derive(Debug, Serialize)]
pub struct FacetsAnswer {
    data: FacetsData,
    #[serde(skip_serializing_if = "Option::is_none")]
    meta: Option<Ignored>,
}

#[derive(Debug, Serialize)]
struct Ignored {
    ignored_params: Vec<IgnoredParam>,
}

async fn index(state: &AppState) -> Result<Arc<dyn SearchIndex>, ApiError> {
    state.search.get().await.map_err(|status| {
        let why = match status {
            SearchStatus::Missing => "the search index is not built yet (the worker builds it)",
            SearchStatus::Off => "no search index is configured",
            SearchStatus::Ok | SearchStatus::Unavailable => "the search index cannot be opened",
        };
        ApiError::new(ErrorCode::SearchUnavailable, format!("search is not available: {why}"))
    })
}

/// Hits for the query, as the index holds them (truncated description, no internal id).
pub async fn search(
    State(state): State<AppState>,
    SearchQuery(query): SearchQuery,
) -> Result<Json<Hits<SearchHit>>, ApiError> {
    let (results, query) =
        search::hits(index(&state).await?.as_ref(), &query, (state.clock)()).await?;
    Ok(Json(Hits {
        data: results.hits.iter().map(SearchHit::new).collect(),
        meta: SearchMeta::of(&query, results.total),
    }))
}

/// Hits for the query as full jobs read from the store, descriptions in
/// `description_format` ([`search::agent_hits`]).
pub async fn agent_search(
    State(state): State<AppState>,
    AgentQuery(request): AgentQuery,
) -> Result<Json<Hits<JobView>>, ApiError> {
    let now = (state.clock)();
    let found =
        search::agent_hits(state.store.as_ref(), index(&state).await?.as_ref(), &request, now)
            .await?;
    Ok(Json(Hits {
        data: found.jobs.iter().map(|job| JobView::new(job, now)).collect(),
        meta: SearchMeta::of(&found.query, found.total),
    }))
}

/// Value counts per facet and numeric stats for the query's matches.
pub async fn facets(
    State(state): State<AppState>,
    FacetsQuery(request): FacetsQuery,
) -> Result<Json<FacetsAnswer>, ApiError> {
    let counts = search::facets(index(&state).await?.as_ref(), &request, (state.clock)()).await?;
    let JobQuery { ignored_params, .. } = request.query;
    Ok(Json(FacetsAnswer {
        data: counts.into(),
        meta: (!ignored_params.is_empty()).then_some(Ignored { ignored_params }),
    }))
}
