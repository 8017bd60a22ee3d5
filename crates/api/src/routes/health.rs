//! `GET /health`: liveness plus a read of the catalogue (`Store::ping`: one cheap query on the
//! jobs table, and on SQLite a check that the file is still there), so a database that answers
//! but lost its file or schema is not reported healthy.

use axum::{Json, extract::State};
use serde_json::{Value, json};

use crate::{ApiError, AppState, ErrorCode};

/// 200 `{"status": "ok", "search": …}` when the catalogue can be read, else 503 `database
/// unavailable` (the cause is logged).
pub async fn health(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    state
        .store
        .ping()
        .await
        .map_err(|e| ApiError::new(ErrorCode::Unavailable, "database unavailable").with_cause(e))?;
    Ok(Json(json!({"status": "ok", "search": state.search.status().await.as_str()})))
}
