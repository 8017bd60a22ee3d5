//! # freehire-web
//!
//! The server-rendered web pages, served by the same binary as the JSON API (`freehire-api`):
//! compile-time [askama] templates (`templates/`), one stylesheet and the vendored htmx
//! (`assets/`), no JavaScript build. Handlers parse, call the same `freehire-app` services the
//! JSON routes call ([`freehire_app::catalogue::Catalogue`], [`freehire_app::search`],
//! [`freehire_app::accounts::Accounts`], [`freehire_app::tracking::Tracking`],
//! [`freehire_app::saved_searches::SavedSearches`]) and render; nothing here reaches the store.
//!
//! - [`app`] is the composition the binary serves: the JSON API's router answers `/api/*`,
//!   `/health`, `/metrics` and `/mcp` (its own JSON 404/405 there), this crate's [`router`] everything else (its own
//!   HTML 404). The API router is passed in, so neither crate depends on the other.
//! - [`WebState`] is what the pages reach: the accounts service, the catalogue, the search slot
//!   (the API's, shared), the clock and whether cookies are `Secure`.
//!
//! Pages (see [`pages`]): `/` and `/jobs` (search with facets; the query string is the API's
//! search grammar), `/jobs/{slug}`, `/companies`, `/companies/{slug}`, `/signup`, `/login`,
//! `/verify`, `/forgot`, `/reset`, `/account` and its POST actions, `/logout`; the job seeker's
//! workspace: a job's save / dismiss / apply buttons on the search and job pages, `/tracking`
//! (the board), `/tracking/{slug}`, `/tracking/followups`, `/saved-searches`,
//! `/shared-boards/{slug}`, `/notifications` and its settings; the assistant: `/assistant` and
//! `/assistant/{id}` (the session rail and the stored conversation, rendered on the server;
//! sending streams through the JSON API from `assets/app.js`); a 404, 403, 422 and 500 page in
//! the same layout.
//!
//! Invariants:
//!
//! - **Every state-changing request is a POST carrying a CSRF token** ([`csrf`]: double-submit
//!   cookie, checked in one middleware before any handler), besides the `SameSite=Lax`
//!   session cookie; a missing or wrong token is a 403 page and writes nothing.
//! - **Every page carries the security headers** ([`security`]: a CSP without inline scripts
//!   or styles, `frame-ancestors 'none'`, `nosniff`, the referrer policy), errors included.
//! - **Every template value is escaped** (askama's default for `.html`); the one `|safe` is a
//!   job description, which the ingest sanitiser already cleaned before it was stored.
//! - **Everything works without JavaScript** (but sending to the assistant, which streams and
//!   says so in a `<noscript>` note): GET forms and links for search, POST forms with
//!   redirect-after-POST for changes. With htmx, facet links and paging swap only the
//!   results region (`HX-Request` gets the region alone) and push the URL.

pub mod assets;
pub mod csrf;
mod error;
pub mod format;
mod layout;
pub mod pages;
pub mod security;
pub mod session;
mod state;

use std::time::Duration;

use axum::{
    Router,
    extract::Request,
    middleware::Next,
    response::{IntoResponse, Response},
};
use tower_http::{catch_panic::CatchPanicLayer, trace::TraceLayer};

pub use error::WebError;
pub use state::WebState;

/// Longest a page may take before it is answered with the 503 page.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// The web pages alone, with their layers (CSRF, the deadline, panics as the 500 page,
/// security headers on everything, request tracing).
pub fn router(state: WebState) -> Router {
    pages::routes()
        .fallback(pages::not_found)
        .with_state(state.clone())
        .layer(axum::middleware::from_fn_with_state(state.secure_cookies, csrf::guard))
        .layer(axum::middleware::from_fn(deadline))
        .layer(CatchPanicLayer::custom(|_| WebError::Internal.into_response()))
        .layer(axum::middleware::from_fn(security::headers))
        .layer(TraceLayer::new_for_http())
}

/// Answers the 503 page when the page is not ready within [`REQUEST_TIMEOUT`].
async fn deadline(request: Request, next: Next) -> Response {
    tokio::time::timeout(REQUEST_TIMEOUT, next.run(request))
        .await
        .unwrap_or_else(|_| WebError::Unavailable.into_response())
}

/// What the binary serves: `api` (the JSON API's router, with its own fallbacks and layers)
/// for `/api`, `/api/*`, `/health`, `/metrics` and `/mcp`, the pages for everything else.
///
/// The choice is made on the path by a plain service, not by routes: a route with a capture
/// (`/api/{*rest}`) would hand its capture to the API's own path extractors, which then see
/// one parameter too many (every `/api/v1/jobs/{slug}` would answer 400).
pub fn app(state: WebState, api: Router) -> Router {
    use tower::ServiceExt;
    let pages = router(state);
    Router::new().fallback_service(tower::service_fn(move |request: Request| {
        let target = if is_api(request.uri().path()) { api.clone() } else { pages.clone() };
        async move { target.oneshot(request).await }
    }))
}

/// Whether a path is the API's: `/health`, `/metrics`, `/mcp`, `/api` and everything under
/// `/api/`.
fn is_api(path: &str) -> bool {
    matches!(path, "/health" | "/metrics" | "/mcp" | "/api") || path.starts_with("/api/")
}

#[cfg(test)]
mod tests {
    use super::is_api;

    #[test]
    fn api_paths_go_to_the_api() {
        for path in ["/health", "/metrics", "/mcp", "/api", "/api/", "/api/v1/jobs/some-slug"] {
            assert!(is_api(path), "{path}");
        }
        for path in ["/", "/jobs", "/apis", "/health/x", "/jobs/api", "/mcp/x", "/metricsx"] {
            assert!(!is_api(path), "{path}");
        }
    }
}
