//! `GET /api/v1/jobs/search`: faceted search over the search index.

use axum::{
    Json,
    extract::{RawQuery, State},
};
use freehire_search::{Endpoint, JobQuery, SearchRequest};
use serde_json::{Map, Value, json};

use crate::{ApiError, AppState};

/// Hits for the query: `{"data": [hit…], "meta": {"total", "limit", "offset",
/// "ignored_params"?}}`. A bad parameter is a 400 naming it; no index is a 503.
pub async fn search(
    State(state): State<AppState>,
    RawQuery(raw): RawQuery,
) -> Result<Json<Value>, ApiError> {
    let query = JobQuery::from_query_str(raw.as_deref().unwrap_or_default(), Endpoint::Search)
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let index = state
        .search
        .as_ref()
        .ok_or(ApiError::Unavailable("search is not available: no search index is configured"))?;
    let request = SearchRequest { query: &query, facets: &[], stats: false, now: (state.clock)() };
    let results = index.search(request).await.map_err(|e| {
        tracing::error!(error = %e, "search failed");
        ApiError::Unavailable("search is temporarily unavailable")
    })?;
    let data: Vec<Value> = results
        .hits
        .iter()
        .map(|doc| {
            let mut hit = serde_json::to_value(doc).unwrap_or(Value::Null);
            if let Some(fields) = hit.as_object_mut() {
                // The index's primary key is an internal id: never on the wire.
                fields.remove("id");
            }
            hit
        })
        .collect();
    let mut meta = Map::new();
    meta.insert("total".into(), json!(results.total));
    meta.insert("limit".into(), json!(query.page.limit));
    meta.insert("offset".into(), json!(query.page.offset));
    if !query.ignored_params.is_empty() {
        meta.insert("ignored_params".into(), json!(query.ignored_params));
    }
    Ok(Json(json!({"data": data, "meta": meta})))
}
