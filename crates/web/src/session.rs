//! The session on the pages: the same `freehire_session` cookie the JSON API sets and reads
//! (HttpOnly, `SameSite=Lax`, `Path=/`, `Secure` when configured, `Max-Age` the session's
//! lifetime), so signing in on a page signs in the API and the other way round. [`Viewer`]
//! is the signed-in account of a request, if any.

use axum::{
    extract::FromRequestParts,
    http::{HeaderMap, HeaderValue, header::COOKIE, request::Parts},
};
use cookie::{Cookie, SameSite};
use freehire_app::accounts::{SESSION_COOKIE, Session};
use freehire_domain::User;

use crate::{WebError, WebState};

/// The value of the cookie `name` among the request's `Cookie` headers (non-empty).
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|c| c.name() == name && !c.value().is_empty())
        .map(|c| c.value().to_owned())
}

fn header(cookie: &Cookie<'_>) -> HeaderValue {
    // A JWT and the attributes are visible ASCII: always a valid header value.
    HeaderValue::from_str(&cookie.to_string()).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// The `Set-Cookie` value storing `session` for `max_age`.
pub fn set(session: &Session, max_age: chrono::Duration, secure: bool) -> HeaderValue {
    header(
        &Cookie::build((SESSION_COOKIE, session.token.clone()))
            .http_only(true)
            .same_site(SameSite::Lax)
            .path("/")
            .secure(secure)
            .max_age(cookie::time::Duration::seconds(max_age.num_seconds()))
            .build(),
    )
}

/// The `Set-Cookie` value removing the session.
pub fn clear(secure: bool) -> HeaderValue {
    header(
        &Cookie::build((SESSION_COOKIE, ""))
            .http_only(true)
            .same_site(SameSite::Lax)
            .path("/")
            .secure(secure)
            .max_age(cookie::time::Duration::ZERO)
            .build(),
    )
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
