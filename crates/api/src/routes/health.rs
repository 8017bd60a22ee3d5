//! `GET /health`: liveness plus a database ping.

use axum::{Json, extract::State};
use serde_json::{Value, json};

use crate::{ApiError, AppState, ErrorCode};

/// 200 `{"status": "ok"}` when the database answers, else 503 (the cause is logged).
pub async fn health(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    state
        .store
        .ping()
        .await
        .map_err(|e| ApiError::new(ErrorCode::Unavailable, "database unavailable").with_cause(e))?;
    Ok(Json(json!({"status": "ok", "search": state.search.status().await.as_str()})))
}
