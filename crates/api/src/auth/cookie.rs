//! The session cookie on the wire: `freehire_session`, HttpOnly, `SameSite=Lax`, `Path=/`,
//! `Secure` when [`CookieConfig::secure`] (serve over HTTPS in production), `Max-Age` the
//! session's lifetime. Signing out sends the same cookie empty with `Max-Age=0`. The wire
//! form is [`freehire_app::accounts::cookie`]'s, shared with the web pages.

use axum::http::{HeaderMap, HeaderValue, header::COOKIE};
use freehire_app::accounts::{SESSION_COOKIE, Session, cookie};

/// How the session cookie is sent.
#[derive(Debug, Clone, Copy, Default)]
pub struct CookieConfig {
    /// Sends it with `Secure` (browsers then only return it over HTTPS).
    pub secure: bool,
}

impl CookieConfig {
    /// The `Set-Cookie` value that stores `session`.
    pub fn set(&self, session: &Session, max_age: chrono::Duration) -> HeaderValue {
        header(cookie::set_session(session, max_age, self.secure))
    }

    /// The `Set-Cookie` value that removes the session.
    pub fn clear(&self) -> HeaderValue {
        header(cookie::clear_session(self.secure))
    }
}

/// A `Set-Cookie` value as a header value.
pub fn header(value: String) -> HeaderValue {
    // A JWT and the attributes are visible ASCII: always a valid header value.
    HeaderValue::from_str(&value).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// The value of the cookie `name` the request's `Cookie` headers carry, if any.
pub fn value(headers: &HeaderMap, name: &str) -> Option<String> {
    cookie::cookie_value(headers.get_all(COOKIE).iter().filter_map(|v| v.to_str().ok()), name)
}

/// The session token the request's `Cookie` headers carry, if any.
pub fn session_token(headers: &HeaderMap) -> Option<String> {
    value(headers, SESSION_COOKIE)
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
