//! `GET /health`: liveness plus a read of the catalogue (`Store::ping`: one cheap query on the
//! jobs table, and on SQLite a check that the file is still there), so a database that answers
//! but lost its file or schema is not reported healthy.

use axum::{Json, extract::State};
use serde_json::{Value, json};

use crate::{ApiError, AppState};

/// 200 `{"status": "ok"}` when the catalogue can be read, else 503 `database unavailable`.
pub async fn health(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    state.store.ping().await.map_err(|e| {
        tracing::warn!(error = %e, "health check: the catalogue cannot be read");
        ApiError::Unavailable("database unavailable")
    })?;
    Ok(Json(json!({"status": "ok"})))
}
