//! `GET /health`: liveness plus a database ping.

use axum::{Json, extract::State};
use serde_json::{Value, json};

use crate::{ApiError, AppState};

/// 200 `{"status": "ok"}` when the database answers, else 503.
pub async fn health(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    state.store.ping().await.map_err(|e| {
        tracing::warn!(error = %e, "health check: database unreachable");
        ApiError::Unavailable("database unavailable")
    })?;
    Ok(Json(json!({"status": "ok"})))
}
