//! The security headers every page answer carries (errors and assets included):
//!
//! - `Content-Security-Policy`: `default-src 'self'; script-src 'self'; style-src 'self';
//!   img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none';
//!   object-src 'none'`: no inline script or style runs (htmx is configured not to inject
//!   its indicator style, nor to evaluate anything);
//! - `X-Content-Type-Options: nosniff`;
//! - `Referrer-Policy: strict-origin-when-cross-origin`;
//! - `X-Frame-Options: DENY` for browsers that predate `frame-ancestors`.

use axum::{
    extract::Request,
    http::{HeaderName, HeaderValue, header},
    middleware::Next,
    response::Response,
};

/// The page's content security policy.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
    img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; \
    object-src 'none'";

/// The headers and their values.
pub const HEADERS: [(HeaderName, &str); 4] = [
    (header::CONTENT_SECURITY_POLICY, CSP),
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::REFERRER_POLICY, "strict-origin-when-cross-origin"),
    (header::X_FRAME_OPTIONS, "DENY"),
];

/// Adds [`HEADERS`] to the answer.
pub async fn headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let map = response.headers_mut();
    for (name, value) in HEADERS {
        map.insert(name, HeaderValue::from_static(value));
    }
    response
}
