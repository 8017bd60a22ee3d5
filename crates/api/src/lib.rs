//! # freehire-api
//!
//! The HTTP surface as a library, so tests start the real router on a random port.
//!
//! - [`router`] builds the axum [`Router`] over an [`AppState`] (the store behind its trait
//!   object, the search index if any, and a clock); handlers parse the request with the typed
//!   extractors of [`extract`], call one [`freehire_app`] service and render a [`view`];
//! - [`serve`] runs it on a listener until a shutdown future resolves, finishing in-flight
//!   requests;
//! - [`ApiError`] is the one error type: its [`ErrorCode`] maps to the status (one table), the
//!   body is `{"error": message, "code": code, "param"?: name}`, and causes are logged instead
//!   of returned;
//! - [`view`] holds the wire shapes (the job of reference §6.5, list and single envelopes);
//! - [`openapi()`] is the OpenAPI 3.1 document generated from the handlers and those shapes:
//!   the router is assembled through `utoipa_axum`'s `OpenApiRouter`, so mounting a route is
//!   documenting it (see [`mod@openapi`] for the pattern and the tests that keep it so).
//!
//! Routes (under `/api/v1` except the health check):
//!
//! | route | answer |
//! |---|---|
//! | `GET /health` | `{"status": "ok", "search": "ok"}` (`search`: [`SearchStatus`]), 503 when the database does not answer |
//! | `GET /jobs` | open jobs, newest first, `limit`/`offset` |
//! | `GET /jobs/{slug}` | one job, open or closed; 400 for a malformed slug, 404 when unknown |
//! | `GET /jobs/search` | the search grammar over the index: hits as indexed (truncated description) |
//! | `GET /agent/jobs/search` | the same search, each hit the full job from the store with its description as `description_format` = `html` (default), `text` or `markdown` |
//! | `GET /jobs/facets` | value counts per facet (`facets=`, `disjunctive=true`) and numeric stats |
//! | `GET /companies` | companies derived from the open jobs, most jobs first, `q`, `limit`/`offset` |
//! | `GET /companies/{slug}` | one company and a page of its open jobs; 400 for a malformed slug, 404 when it has no open job |
//! | `GET /openapi.json` | the OpenAPI 3.1 document of every route here ([`openapi()`]) |
//!
//! The search routes answer 400 naming a bad parameter, 503 `search_unavailable` when no index
//! is configured, the embedded index does not exist yet (the API never creates it; see
//! [`SearchSlot`]) or the engine fails. Unknown routes answer 404 and wrong methods 405, a request unanswered after
//! [`REQUEST_TIMEOUT`] 503 `timeout`, a body over [`MAX_BODY_BYTES`] 413 `payload_too_large`,
//! all with a JSON error body; so do the refusals of the HTTP layer below the router (a
//! malformed request 400 `bad_request`, a URI over 65,534 bytes 414 `uri_too_long`, a head
//! over hyper's buffer 431 `headers_too_large`: see [`serve_with`]).

pub mod auth;
pub mod body;
pub mod client_ip;
mod deadline;
mod error;
pub mod extract;
pub mod mcp;
pub mod metrics;
pub mod openapi;
pub mod ratelimit;
mod routes;
mod server;
pub mod sse;
mod state;
pub mod view;
mod wire;
mod write_stall;

use std::{future::Future, time::Duration};

use axum::{Extension, Router, http::Method, response::IntoResponse};
use tower_http::{catch_panic::CatchPanicLayer, trace::TraceLayer};

pub use error::{ApiError, ErrorBody, ErrorCode};
pub use server::{ServerLimits, serve_router, serve_with};
pub use state::{AppState, RETRY_EVERY, SearchSlot, SearchStatus};

/// The largest request body accepted (by `Content-Length`): no route reads a body today, so
/// this only bounds what a client may announce; 1 MiB leaves room for the JSON bodies of
/// routes to come.
pub const MAX_BODY_BYTES: u64 = 1 << 20;

/// Longest a request may take before it is answered 503 `timeout`.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// The whole router: the routes of `routes::api` (each mounted with its documentation), the
/// public reads' rate limits ([`ratelimit::public`]), the 404/405 fallbacks and the layers.
pub fn router(state: AppState) -> Router {
    let (api, _document) = routes::api().split_for_parts();
    metrics::handle();
    api.route_layer(axum::middleware::from_fn_with_state(
        state.clone(),
        ratelimit::public::public_limits,
    ))
    .route_layer(axum::middleware::from_fn(metrics::track))
    .fallback(not_found)
    .method_not_allowed_fallback(method_not_allowed)
    .with_state(state)
    .layer(axum::middleware::from_fn_with_state(REQUEST_TIMEOUT, deadline::deadline))
    .layer(axum::middleware::from_fn(wire::body_limit))
    .layer(CatchPanicLayer::custom(|_| ApiError::internal("handler panicked").into_response()))
    .layer(TraceLayer::new_for_http())
}

/// The OpenAPI 3.1 document of the API (served at `GET /api/v1/openapi.json`): the fixed
/// parts of [`openapi::ApiDoc`] and the path item of every route the router mounts.
pub fn openapi() -> utoipa::openapi::OpenApi {
    routes::api().into_openapi()
}

/// Marks the answers of the router's 404/405 fallbacks (a response extension, never sent), so
/// the test comparing the router with its document tells "no such route" from a route that
/// answers 404 itself.
#[derive(Debug, Clone, Copy)]
pub struct Fallback;

async fn not_found() -> impl IntoResponse {
    (Extension(Fallback), ApiError::not_found("not found"))
}

async fn method_not_allowed(method: Method) -> impl IntoResponse {
    let error = ApiError::new(ErrorCode::MethodNotAllowed, format!("method {method} not allowed"));
    (Extension(Fallback), error)
}

/// Serves the router on `listener` with the default [`ServerLimits`] until `shutdown`
/// resolves, then lets in-flight requests finish ([`serve_with`]).
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_with(listener, state, ServerLimits::default(), shutdown).await
}
