//! Search over the search index: `GET /api/v1/jobs/search` (hits as the index holds them),
//! `GET /api/v1/agent/jobs/search` (each hit's full description re-read from the store and
//! rendered as asked) and `GET /api/v1/jobs/facets` (value counts and numeric stats).
//!
//! All three answer 400 naming a bad parameter (before looking for the index), 503 when no
//! index is configured, and 503 when the engine fails (the cause is logged, not returned).

use std::{collections::HashMap, sync::Arc};

use axum::{
    Json,
    extract::{RawQuery, State},
};
use freehire_domain::JobId;
use freehire_search::{
    AgentSearchRequest, Endpoint, FacetsRequest, IgnoredParam, IndexError, JobQuery, SearchError,
    SearchIndex, SearchRequest, SearchResults,
};
use serde::Serialize;

use crate::{
    ApiError, AppState, describe,
    view::{FacetsData, FacetsView, JobView, SearchHit, SearchMeta},
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
    ignored_params: Vec<freehire_search::IgnoredParam>,
}

fn bad_query(e: SearchError) -> ApiError {
    ApiError::BadRequest(e.to_string())
}

fn index(state: &AppState) -> Result<&Arc<dyn SearchIndex>, ApiError> {
    state
        .search
        .as_ref()
        .ok_or(ApiError::Unavailable("search is not available: no search index is configured"))
}

fn engine_failed(e: IndexError) -> ApiError {
    match e {
        IndexError::Rejected(reason) => {
            ApiError::BadRequest(format!("the search engine refused the query: {reason}"))
        }
        e => {
            tracing::error!(error = %e, "search failed");
            ApiError::Unavailable("search is temporarily unavailable")
        }
    }
}

/// Runs `query` for its page of hits. When the engine refuses the query (Meilisearch answers
/// 400 on a filter its live settings do not allow yet), the search is run again without any
/// filter and every filter parameter is reported in `ignored_params` (reference §5.3); the
/// query actually answered is returned with the results.
async fn run(state: &AppState, query: &JobQuery) -> Result<(SearchResults, JobQuery), ApiError> {
    let index = index(state)?;
    let now = (state.clock)();
    let request = SearchRequest::new(query, now);
    match index.search(request).await {
        Ok(results) => Ok((results, query.clone())),
        Err(IndexError::Rejected(reason)) if !query.active_filter_params().is_empty() => {
            tracing::warn!(%reason, "search engine refused the filter; searching without it");
            let mut degraded = query.clone();
            degraded.facets.clear();
            degraded.scalars = Default::default();
            degraded.ignored_params.extend(
                query
                    .active_filter_params()
                    .into_iter()
                    .map(|param| IgnoredParam { param, did_you_mean: None }),
            );
            degraded.ignored_params.sort_by(|a, b| a.param.cmp(&b.param));
            degraded.ignored_params.dedup_by(|a, b| a.param == b.param);
            let request = SearchRequest::new(&degraded, now);
            let results = index.search(request).await.map_err(engine_failed)?;
            Ok((results, degraded))
        }
        Err(e) => Err(engine_failed(e)),
    }
}

fn meta(query: &JobQuery, total: u64) -> SearchMeta {
    SearchMeta {
        total,
        limit: query.page.limit,
        offset: query.page.offset,
        ignored_params: query.ignored_params.clone(),
    }
}

/// Hits for the query, as the index holds them (truncated description, no internal id).
pub async fn search(
    State(state): State<AppState>,
    RawQuery(raw): RawQuery,
) -> Result<Json<Hits<SearchHit>>, ApiError> {
    let query = JobQuery::from_query_str(raw.as_deref().unwrap_or_default(), Endpoint::Search)
        .map_err(bad_query)?;
    let (results, query) = run(&state, &query).await?;
    Ok(Json(Hits {
        data: results.hits.iter().map(SearchHit::new).collect(),
        meta: meta(&query, results.total),
    }))
}

/// Hits for the query as full jobs read from the store, descriptions in
/// `description_format`. A hit whose job the store no longer has (deleted between the index
/// read and the store read) is skipped; `total` stays the index's count, since the next drain
/// corrects the index. A job closed since it was indexed is served with its `closed_at`.
pub async fn agent_search(
    State(state): State<AppState>,
    RawQuery(raw): RawQuery,
) -> Result<Json<Hits<JobView>>, ApiError> {
    let request = AgentSearchRequest::from_query_str(raw.as_deref().unwrap_or_default())
        .map_err(bad_query)?;
    let (results, query) = run(&state, &request.query).await?;
    let ids: Vec<JobId> = results.hits.iter().filter_map(|h| JobId::new(h.id).ok()).collect();
    let mut jobs: HashMap<i64, _> =
        state.store.jobs_by_ids(&ids).await?.into_iter().map(|j| (j.id.get(), j)).collect();
    let now = (state.clock)();
    let data = results
        .hits
        .iter()
        .filter_map(|hit| jobs.remove(&hit.id))
        .map(|job| {
            let mut view = JobView::new(&job, now);
            view.description =
                describe::render(&job.posting.description, request.description_format);
            view
        })
        .collect();
    Ok(Json(Hits { data, meta: meta(&query, results.total) }))
}

/// Value counts per facet and numeric stats for the query's matches.
pub async fn facets(
    State(state): State<AppState>,
    RawQuery(raw): RawQuery,
) -> Result<Json<FacetsAnswer>, ApiError> {
    let request =
        FacetsRequest::from_query_str(raw.as_deref().unwrap_or_default()).map_err(bad_query)?;
    let index = index(&state)?;
    let mut counts = freehire_search::facet_counts(index.as_ref(), &request, (state.clock)())
        .await
        .map_err(engine_failed)?;
    // Every requested facet is in the answer, an empty object when nothing has a value.
    for facet in &request.facets {
        counts.facets.entry(*facet).or_default();
    }
    let ignored = request.query.ignored_params;
    Ok(Json(FacetsAnswer {
        data: FacetsData {
            total: counts.total,
            facets: FacetsView(counts.facets),
            stats: counts.stats.into(),
        },
        meta: (!ignored.is_empty()).then_some(Ignored { ignored_params: ignored }),
    }))
}
