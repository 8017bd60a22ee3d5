//! Form plumbing shared by the account pages: [`Fields`] (a decoded
//! `application/x-www-form-urlencoded` body), [`Errors`] (messages by field, shown next to
//! the field they name), the mapping of an [`AccountError`] to the field it is about, and the
//! redirect-after-POST answer.

use axum::{
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use freehire_app::accounts::AccountError;
use freehire_domain::DomainError;

use crate::WebError;

/// A decoded form body (the CSRF middleware has already checked its token).
#[derive(Debug, Default)]
pub struct Fields(Vec<(String, String)>);

impl Fields {
    /// Decodes a form body.
    pub fn parse(body: &[u8]) -> Self {
        Self(url::form_urlencoded::parse(body).into_owned().collect())
    }

    /// The first value of `name` (empty when absent).
    pub fn get(&self, name: &str) -> &str {
        self.0.iter().find(|(k, _)| k == name).map_or("", |(_, v)| v.as_str())
    }

    /// The value of `name`, trimmed; `None` when blank.
    pub fn optional(&self, name: &str) -> Option<&str> {
        Some(self.get(name).trim()).filter(|v| !v.is_empty())
    }
}

/// Messages by field name (`form` for one about the whole form), and the status the form
/// is answered with (422, or 429 when rate-limited).
#[derive(Debug)]
pub struct Errors(Vec<(&'static str, String)>, StatusCode);

impl Errors {
    /// No message.
    pub fn none() -> Self {
        Self(Vec::new(), StatusCode::OK)
    }

    /// One message about `field`.
    pub fn one(field: &'static str, message: impl Into<String>) -> Self {
        Self(vec![(field, message.into())], StatusCode::UNPROCESSABLE_ENTITY)
    }

    /// Too many attempts: wait `secs` seconds (429).
    pub fn limited(secs: u64) -> Self {
        let message = format!("too many attempts: try again in {secs} s");
        Self(vec![("form", message)], StatusCode::TOO_MANY_REQUESTS)
    }

    /// The status to answer the form with.
    pub fn status(&self) -> StatusCode {
        self.1
    }

    /// The message about `field`, if any.
    pub fn get(&self, field: &str) -> Option<&str> {
        self.0.iter().find(|(f, _)| *f == field).map(|(_, m)| m.as_str())
    }

    /// Whether there is any message.
    pub fn any(&self) -> bool {
        !self.0.is_empty()
    }
}

/// The message of a domain value error, for the field it names: "must be at least 8
/// characters", "allowed values are full, cv".
pub fn domain_message(e: &DomainError) -> (&'static str, String) {
    match e {
        DomainError::Invalid { field, reason, .. } => (field, (*reason).to_owned()),
        DomainError::UnknownValue { field, allowed, .. } => {
            (field, format!("must be one of: {allowed}"))
        }
    }
}

/// The field an account error is about and its message; an error that is not the user's to
/// fix is a [`WebError`].
pub fn account_message(e: AccountError) -> Result<Errors, WebError> {
    let message = e.to_string();
    let field = match e {
        AccountError::Invalid(d) => {
            let (field, message) = domain_message(&d);
            return Ok(Errors::one(field, message));
        }
        AccountError::EmailTaken | AccountError::EmailMismatch => "email",
        AccountError::WrongCredentials => "password",
        AccountError::WrongCurrentPassword => "current_password",
        AccountError::Code(_) => "code",
        AccountError::ExpiryInPast => "expires_at",
        AccountError::NotVerified | AccountError::NotFound(_) => "form",
        AccountError::Mail(e) => {
            tracing::warn!(error = %e, "mail cannot be sent");
            return Ok(Errors::one("form", "mail cannot be sent now; try again later"));
        }
        e @ (AccountError::Store(_) | AccountError::Hashing(_) | AccountError::Config(_)) => {
            return Err(e.into());
        }
    };
    Ok(Errors::one(field, message))
}

/// `next` when it is a path on this site (`/tracking?x=1`), else `None`: never another
/// origin (`//evil.example`, `/\\evil.example`, `https://…`), never a control character.
pub fn local_path(next: &str) -> Option<&str> {
    let local = next.starts_with('/')
        && !next.starts_with("//")
        && !next.chars().any(|c| c.is_control() || c == '\\');
    local.then_some(next)
}

/// The redirect of a signed-out visitor to the sign-in page, which comes back to `here` (the
/// page's path and query) once signed in.
pub fn sign_in_first(here: &str) -> Response {
    let mut to = url::form_urlencoded::Serializer::new(String::new());
    to.append_pair("next", here);
    see_other(&format!("/login?{}", to.finish()), &[])
}

/// `303 See Other` to `to`, with extra `Set-Cookie` values.
pub fn see_other(to: &str, cookies: &[HeaderValue]) -> Response {
    let mut response = StatusCode::SEE_OTHER.into_response();
    if let Ok(location) = HeaderValue::from_str(to) {
        response.headers_mut().insert(header::LOCATION, location);
    }
    for cookie in cookies {
        response.headers_mut().append(header::SET_COOKIE, cookie.clone());
    }
    response
}

#[cfg(test)]
mod tests {
    use super::local_path;

    #[test]
    fn only_local_paths_are_followed() {
        for ok in ["/", "/tracking", "/jobs?q=rust&skills=go", "/tracking/acme-rust-abcd1234"] {
            assert_eq!(local_path(ok), Some(ok));
        }
        for bad in [
            "",
            "tracking",
            "//evil.example",
            "/\\evil.example",
            "https://evil.example/",
            "/a\nb",
            "/a\\b",
        ] {
            assert_eq!(local_path(bad), None, "{bad:?}");
        }
    }
}
