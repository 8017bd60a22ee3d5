//! Cross-site request forgery protection: a **double-submit cookie**, checked by one
//! middleware ([`guard`]) in front of every handler.
//!
//! Every answer to a request without a valid `freehire_csrf` cookie sets one: 32 random bytes,
//! base64url (`HttpOnly`, `SameSite=Lax`, `Path=/`, `Secure` with the session cookie's
//! setting, no `Max-Age`: it lasts the browser session). The handler reads the token from the
//! request ([`CsrfToken`]) and every POST form carries it in a hidden `csrf` field. A request
//! of any method but GET, HEAD and OPTIONS passes only when it is a form
//! (`application/x-www-form-urlencoded`, at most [`MAX_FORM_BYTES`]) whose `csrf` field equals
//! the cookie (compared in constant time); anything else is the 403 page before a handler
//! runs, so nothing is written. A cross-site page can make the browser send the cookie but can
//! neither read it nor the token of our pages, so it cannot fill in the field. The session
//! cookie's `SameSite=Lax` is the second line: a cross-site POST does not carry the session.
//!
//! Why double-submit and not an HMAC of the session: the forms that matter most run before
//! there is a session (sign-up, sign-in), and a token independent of the session survives
//! signing in and out in another tab.

use axum::{
    body::{Body, to_bytes},
    extract::{FromRequestParts, Request, State},
    http::{HeaderValue, Method, header, request::Parts},
    middleware::Next,
    response::{IntoResponse, Response},
};
use cookie::{Cookie, SameSite};
use rand::RngCore;
use subtle::ConstantTimeEq;

use crate::{WebError, session};

/// The cookie's name.
pub const COOKIE: &str = "freehire_csrf";

/// The form field's name.
pub const FIELD: &str = "csrf";

/// The largest form body read: a CV pasted on `/cvs` (at most 60,000 characters, which
/// URL-encoding can triple) fits; the account forms are far smaller.
pub const MAX_FORM_BYTES: usize = 256 * 1024;

/// The request's CSRF token, for the forms a page renders.
#[derive(Debug, Clone)]
pub struct CsrfToken(pub String);

fn well_formed(token: &str) -> bool {
    token.len() == 43 && token.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn fresh() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    data_encoding::BASE64URL_NOPAD.encode(&bytes)
}

fn set_cookie(token: &str, secure: bool) -> HeaderValue {
    let cookie = Cookie::build((COOKIE, token))
        .http_only(true)
        .same_site(SameSite::Lax)
        .path("/")
        .secure(secure)
        .build();
    // Base64url and the attributes are visible ASCII.
    HeaderValue::from_str(&cookie.to_string()).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// The form's `csrf` field, if the body is a form that has one.
fn form_token(body: &[u8]) -> Option<String> {
    url::form_urlencoded::parse(body).find(|(k, _)| k == FIELD).map(|(_, v)| v.into_owned())
}

/// Issues the token cookie when missing and refuses a state-changing request whose form does
/// not carry the cookie's token.
/// `secure`: whether the cookie is sent with `Secure`.
pub async fn guard(State(secure): State<bool>, request: Request, next: Next) -> Response {
    let cookie = session::cookie(request.headers(), COOKIE).filter(|t| well_formed(t));
    let safe = matches!(*request.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    let (mut parts, body) = request.into_parts();
    let body = if safe {
        body
    } else {
        let is_form = parts
            .headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
        let Some(expected) = cookie.as_deref().filter(|_| is_form) else {
            return WebError::Csrf.into_response();
        };
        let Ok(bytes) = to_bytes(body, MAX_FORM_BYTES).await else {
            return WebError::TooLarge.into_response();
        };
        let sent = form_token(&bytes).unwrap_or_default();
        if !bool::from(sent.as_bytes().ct_eq(expected.as_bytes())) {
            return WebError::Csrf.into_response();
        }
        Body::from(bytes)
    };
    let (token, issued) = match cookie {
        Some(token) => (token, false),
        None => (fresh(), true),
    };
    parts.extensions.insert(CsrfToken(token.clone()));
    let mut response = next.run(Request::from_parts(parts, body)).await;
    if issued {
        response.headers_mut().append(header::SET_COOKIE, set_cookie(&token, secure));
    }
    response
}

impl<S: Send + Sync> FromRequestParts<S> for CsrfToken {
    type Rejection = WebError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, WebError> {
        parts.extensions.get::<CsrfToken>().cloned().ok_or(WebError::Internal)
    }
}
