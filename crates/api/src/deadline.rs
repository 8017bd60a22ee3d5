//! The request deadline: a request not answered within its limit (the router uses
//! [`crate::REQUEST_TIMEOUT`], 30 s) is dropped, which cancels its handler, and answered
//! through the error table: 503 with `{"error": …, "code": "timeout"}`.

use std::time::Duration;

use axum::{
    extract::{Request, State},
    middleware::Next,
    response::{IntoResponse, Response},
};

use crate::{ApiError, ErrorCode};

/// The middleware (`axum::middleware::from_fn_with_state(limit, deadline)`).
pub async fn deadline(State(limit): State<Duration>, request: Request, next: Next) -> Response {
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::new(ErrorCode::Timeout, "the request took too long").into_response(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use axum::{Router, body::Body, routing::get};
    use tower::ServiceExt;

    use super::*;

    // scenario: Request timeout
    #[tokio::test]
    async fn a_slow_request_is_answered_by_the_error_table() {
        let slow = || async {
            tokio::time::sleep(Duration::from_secs(5)).await;
            "late"
        };
        let router = Router::new()
            .route("/", get(slow))
            .layer(axum::middleware::from_fn_with_state(Duration::from_millis(20), deadline));
        let response =
            router.oneshot(Request::get("/").body(Body::empty()).unwrap()).await.unwrap();
        assert_eq!(response.status(), 503);
        let body = axum::body::to_bytes(response.into_body(), 1 << 16).await.unwrap();
        let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(
            body,
            serde_json::json!({"error": "the request took too long", "code": "timeout"})
        );
    }
}
