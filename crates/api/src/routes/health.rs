//! `GET /health`: liveness plus a read of the catalogue (`Store::ping`: one cheap query on the
//! jobs table, and on SQLite a check that the file is still there), so a database that answers
//! but lost its file or schema is not reported healthy.

use axum::{Json, extract::State};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    ApiError, AppState, ErrorCode, SearchStatus,
    openapi::{Errors, code::Unavailable},
};

/// `{"status": "ok", "search": …}`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "ok", "search": "ok"}))]
pub struct Health {
    /// Always `ok` (an unhealthy server answers 503).
    #[schema(schema_with = ok)]
    status: &'static str,
    /// Whether search can answer: `ok`, `missing` until the worker has built the index,
    /// `unavailable`, `off` when no engine is configured.
    #[schema(schema_with = search_status)]
    search: SearchStatus,
}

/// `ok`, the only status answered.
fn ok() -> utoipa::openapi::Object {
    crate::openapi::vocab::one_of(["ok"])
}

/// The values of [`SearchStatus`] (a type of `freehire-app`, which knows no OpenAPI).
fn search_status() -> utoipa::openapi::Object {
    crate::openapi::vocab::one_of(
        [SearchStatus::Ok, SearchStatus::Missing, SearchStatus::Unavailable, SearchStatus::Off]
            .map(SearchStatus::as_str),
    )
}

/// 200 `{"status": "ok", "search": …}` when the catalogue can be read, else 503 `database
/// unavailable` (the cause is logged).
#[utoipa::path(
    get, path = "/health", tag = "health", operation_id = "health",
    responses(
        (status = 200, description = "The catalogue can be read.", body = Health),
        Errors<(Unavailable,)>,
    ),
)]
pub async fn health(State(state): State<AppState>) -> Result<Json<Health>, ApiError> {
    state
        .store
        .ping()
        .await
        .map_err(|e| ApiError::new(ErrorCode::Unavailable, "database unavailable").with_cause(e))?;
    Ok(Json(Health { status: "ok", search: state.search.status().await }))
}
