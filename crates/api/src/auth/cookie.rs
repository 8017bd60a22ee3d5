//! The session cookie on the wire: `freehire_session`, HttpOnly, `SameSite=Lax`, `Path=/`,
//! `Secure` when [`CookieConfig::secure`] (serve over HTTPS in production), `Max-Age` the
//! session's lifetime. Signing out sends the same cookie empty with `Max-Age=0`.

use axum::http::{HeaderMap, HeaderValue, header::COOKIE};
use cookie::{Cookie, SameSite};
use freehire_app::accounts::{SESSION_COOKIE, Session};

/// How the session cookie is sent.
#[derive(Debug, Clone, Copy, Default)]
pub struct CookieConfig {
    /// Sends it with `Secure` (browsers then only return it over HTTPS).
    pub secure: bool,
}

impl CookieConfig {
    /// The `Set-Cookie` value that stores `session`.
    pub fn set(&self, session: &Session, max_age: chrono::Duration) -> HeaderValue {
        let cookie = Cookie::build((SESSION_COOKIE, session.token.clone()))
            .http_only(true)
            .same_site(SameSite::Lax)
            .path("/")
            .secure(self.secure)
            .max_age(cookie::time::Duration::seconds(max_age.num_seconds()))
            .build();
        header(&cookie)
    }

    /// The `Set-Cookie` value that removes the session.
    pub fn clear(&self) -> HeaderValue {
        let cookie = Cookie::build((SESSION_COOKIE, ""))
            .http_only(true)
            .same_site(SameSite::Lax)
            .path("/")
            .secure(self.secure)
            .max_age(cookie::time::Duration::ZERO)
            .build();
        header(&cookie)
    }
}

fn header(cookie: &Cookie<'_>) -> HeaderValue {
    // A JWT and the attributes are visible ASCII: always a valid header value.
    HeaderValue::from_str(&cookie.to_string()).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// The session token the request's `Cookie` headers carry, if any.
pub fn session_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|c| c.name() == SESSION_COOKIE && !c.value().is_empty())
        .map(|c| c.value().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_and_clear_carry_the_attributes() {
        let session = Session { token: "a.b.c".into(), expires_at: chrono::Utc::now() };
        let set = CookieConfig { secure: true }.set(&session, chrono::Duration::hours(24));
        let set = set.to_str().unwrap_or_default();
        for part in [
            "freehire_session=a.b.c",
            "HttpOnly",
            "SameSite=Lax",
            "Path=/",
            "Secure",
            "Max-Age=86400",
        ] {
            assert!(set.contains(part), "{set} lacks {part}");
        }
        let clear = CookieConfig::default().clear();
        let clear = clear.to_str().unwrap_or_default();
        assert!(clear.contains("Max-Age=0") && !clear.contains("Secure"), "{clear}");
    }

    #[test]
    fn the_token_is_found_among_other_cookies() {
        let mut headers = HeaderMap::new();
        headers.append(COOKIE, HeaderValue::from_static("theme=dark; freehire_session=x.y.z"));
        assert_eq!(session_token(&headers).as_deref(), Some("x.y.z"));
        headers.clear();
        headers.append(COOKIE, HeaderValue::from_static("freehire_session="));
        assert_eq!(session_token(&headers), None);
    }
}
