//! The session on the pages: the same `freehire_session` cookie the JSON API sets and reads
//! (HttpOnly, `SameSite=Lax`, `Path=/`, `Secure` when configured, `Max-Age` the session's
//! lifetime: [`freehire_app::accounts::cookie`]'s wire form, the API's too), so signing in on
//! a page signs in the API and the other way round. [`Viewer`] is the signed-in account of a
//! request, if any.

use axum::{
    extract::FromRequestParts,
    http::{HeaderMap, HeaderValue, header::COOKIE, request::Parts},
};
use freehire_app::accounts::{SESSION_COOKIE, Session, cookie as wire};
use freehire_domain::User;

use crate::{WebError, WebState};

/// The value of the cookie `name` among the request's `Cookie` headers (non-empty).
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    wire::cookie_value(headers.get_all(COOKIE).iter().filter_map(|v| v.to_str().ok()), name)
}

fn header(value: String) -> HeaderValue {
    // A JWT and the attributes are visible ASCII: always a valid header value.
    HeaderValue::from_str(&value).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// The `Set-Cookie` value storing `session` for `max_age`.
pub fn set(session: &Session, max_age: chrono::Duration, secure: bool) -> HeaderValue {
    header(wire::set_session(session, max_age, secure))
}

/// The `Set-Cookie` value removing the session.
pub fn clear(secure: bool) -> HeaderValue {
    header(wire::clear_session(secure))
}

/// The signed-in account, if the session cookie names a live session.
#[derive(Debug, Clone)]
pub struct Viewer(pub Option<User>);

impl FromRequestParts<WebState> for Viewer {
    type Rejection = WebError;

    async fn from_request_parts(parts: &mut Parts, state: &WebState) -> Result<Self, WebError> {
        let Some(token) = cookie(&parts.headers, SESSION_COOKIE) else {
            return Ok(Self(None));
        };
        Ok(Self(state.accounts.session_user(&token).await?))
    }
}
