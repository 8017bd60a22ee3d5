//! The session cookie's wire form, shared by the JSON API and the web pages (one cookie signs
//! in both): [`SESSION_COOKIE`](super::SESSION_COOKIE), HttpOnly, `SameSite=Lax`, `Path=/`,
//! `Secure` when asked, `Max-Age` the session's lifetime; signing out sends it empty with
//! `Max-Age=0`. Plain strings: the HTTP crates turn them into header values.

use cookie::{Cookie, SameSite};

use super::{SESSION_COOKIE, Session};

/// The `Set-Cookie` value storing `session` for `max_age`.
pub fn set_session(session: &Session, max_age: chrono::Duration, secure: bool) -> String {
    session_cookie(&session.token, cookie::time::Duration::seconds(max_age.num_seconds()), secure)
}

/// The `Set-Cookie` value removing the session.
pub fn clear_session(secure: bool) -> String {
    session_cookie("", cookie::time::Duration::ZERO, secure)
}

fn session_cookie(value: &str, max_age: cookie::time::Duration, secure: bool) -> String {
    Cookie::build((SESSION_COOKIE, value))
        .http_only(true)
        .same_site(SameSite::Lax)
        .path("/")
        .secure(secure)
        .max_age(max_age)
        .build()
        .to_string()
}

/// The non-empty value of the cookie `name` among `Cookie` header values.
pub fn cookie_value<'a>(headers: impl IntoIterator<Item = &'a str>, name: &str) -> Option<String> {
    headers
        .into_iter()
        .flat_map(Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|c| c.name() == name && !c.value().is_empty())
        .map(|c| c.value().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_and_clear_carry_the_attributes() {
        let session = Session { token: "a.b.c".into(), expires_at: chrono::Utc::now() };
        let set = set_session(&session, chrono::Duration::hours(24), true);
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
        let clear = clear_session(false);
        assert!(clear.contains("Max-Age=0") && !clear.contains("Secure"), "{clear}");
    }

    #[test]
    fn a_value_is_found_among_other_cookies() {
        let headers = ["theme=dark; freehire_session=x.y.z"];
        assert_eq!(cookie_value(headers, SESSION_COOKIE).as_deref(), Some("x.y.z"));
        assert_eq!(cookie_value(["freehire_session="], SESSION_COOKIE), None);
        assert_eq!(cookie_value(["a=1", "b=2"], "b").as_deref(), Some("2"));
    }
}
