//! `GET /metrics`: the process's metrics in the Prometheus text format (see
//! [`crate::metrics`]); with `FREEHIRE_METRICS_TOKEN` set, only for that bearer token.

use axum::{
    extract::State,
    http::{HeaderMap, header},
    response::{IntoResponse, Response},
};

use crate::{
    ApiError, AppState, ErrorCode,
    openapi::{
        Errors,
        code::{Unauthorized, Unavailable},
    },
};

/// The Prometheus text exposition of this process's metrics and the database's gauges.
#[utoipa::path(
    get, path = "/metrics", tag = "operations", operation_id = "metrics",
    security(()),
    responses(
        (status = 200, description = "Prometheus text format 0.0.4.", content_type = "text/plain", body = String),
        Errors<(Unauthorized, Unavailable)>,
    ),
)]
pub async fn metrics(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if let Some(token) = &state.metrics_token {
        let sent = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        if sent != Some(token.as_str()) {
            return Err(ApiError::new(
                ErrorCode::Unauthorized,
                "metrics need the bearer token FREEHIRE_METRICS_TOKEN names",
            ));
        }
    }
    let text =
        crate::metrics::render(state.store.as_ref(), (state.clock)()).await.ok_or_else(|| {
            ApiError::new(ErrorCode::Unavailable, "metrics are not recorded in this process")
        })?;
    Ok(([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], text).into_response())
}
