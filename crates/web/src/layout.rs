//! The layout every page shares ([`Layout`]: title, header with sign-in state, asset URLs, the
//! time zone the dates are in) and [`Ctx`], what a page handler knows about the request: the
//! viewer, the CSRF token for its forms, the instant and the viewer's time zone.

use askama::Template;
use std::net::SocketAddr;

use axum::{
    extract::{ConnectInfo, FromRequestParts},
    http::{StatusCode, request::Parts},
    response::Response,
};
use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use freehire_app::throttle::{AuthAction, Client};
use freehire_domain::User;

use crate::{
    WebError, WebState, assets,
    csrf::CsrfToken,
    error::{ErrorPage, render},
    session::Viewer,
};

/// What the layout shows around a page.
pub struct Layout {
    /// The page's title (before " · freehire").
    pub title: String,
    /// The signed-in account's name or address.
    pub viewer: Option<String>,
    /// The CSRF token of the header's sign-out form (none on an anonymous page).
    pub csrf: String,
    /// The stylesheet's URL.
    pub css: &'static str,
    /// htmx's URL.
    pub js: &'static str,
    /// The pages' own script's URL.
    pub app_js: &'static str,
    /// The zone dates are shown in, and why.
    pub tz_note: String,
}

impl Layout {
    /// The layout of a page shown without a request's context (an error below the handlers).
    pub fn anonymous(title: &str) -> Self {
        Self {
            title: title.to_owned(),
            viewer: None,
            csrf: String::new(),
            css: &assets::STYLESHEET.path,
            js: &assets::SCRIPT.path,
            app_js: &assets::APP_SCRIPT.path,
            tz_note: "Times are in UTC.".to_owned(),
        }
    }
}

/// A page handler's view of the request.
pub struct Ctx {
    /// The signed-in account.
    pub viewer: Option<User>,
    /// The token every POST form of the page carries.
    pub csrf: String,
    /// Now (the state's clock).
    pub now: DateTime<Utc>,
    /// The viewer's zone (the account's, else UTC).
    pub tz: Tz,
    /// Whether cookies carry `Secure`.
    pub secure: bool,
    /// Who sent the request (for the rate limits).
    pub client: Client,
    /// The site's origin as the browser reached it (`http://host:port`, from `Host`).
    pub origin: String,
}

impl Ctx {
    /// The layout for a page titled `title`.
    pub fn layout(&self, title: impl Into<String>) -> Layout {
        let tz_note = match &self.viewer {
            Some(u) if u.timezone.is_some() => {
                format!("Times are in {} (your account's time zone).", self.tz.name())
            }
            Some(_) => "Times are in UTC (set your time zone on your account page).".to_owned(),
            None => "Times are in UTC.".to_owned(),
        };
        Layout {
            title: title.into(),
            viewer: self.viewer.as_ref().map(|u| {
                u.username
                    .as_ref()
                    .map_or_else(|| u.email.as_str().to_owned(), |n| n.as_str().to_owned())
            }),
            csrf: self.csrf.clone(),
            css: &assets::STYLESHEET.path,
            js: &assets::SCRIPT.path,
            app_js: &assets::APP_SCRIPT.path,
            tz_note,
        }
    }

    /// `template` with status 200.
    pub fn page(&self, template: &impl Template) -> Response {
        render(StatusCode::OK, template)
    }

    /// The error page for `error` in this request's layout.
    pub fn error(&self, error: impl Into<WebError>) -> Response {
        let error = error.into();
        let (status, page) = ErrorPage::new(&error, self.layout(""));
        let page =
            ErrorPage { layout: Layout { title: page.heading.to_owned(), ..page.layout }, ..page };
        render(status, &page)
    }

    /// Counts an attempt at `action` (for `account`, the normalised email, when known) against
    /// the rate limits; a refusal is the form's message, answered 429.
    pub fn limited(
        &self,
        state: &WebState,
        action: AuthAction,
        account: Option<&str>,
    ) -> Option<crate::pages::forms::Errors> {
        let secs = state.throttle.check(action, &self.client, account).err()?;
        Some(crate::pages::forms::Errors::limited(secs))
    }

    /// Formats an instant in the viewer's zone.
    pub fn date(&self, at: DateTime<Utc>) -> String {
        crate::format::date(at, self.tz)
    }
}

impl FromRequestParts<WebState> for Ctx {
    type Rejection = WebError;

    async fn from_request_parts(parts: &mut Parts, state: &WebState) -> Result<Self, WebError> {
        let Viewer(viewer) = Viewer::from_request_parts(parts, state).await?;
        let CsrfToken(csrf) = CsrfToken::from_request_parts(parts, state).await?;
        let tz = viewer
            .as_ref()
            .and_then(|u| u.timezone.as_ref())
            .and_then(|t| t.as_str().parse::<Tz>().ok())
            .unwrap_or(Tz::UTC);
        let client = Client {
            peer: parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip()),
            forwarded_for: parts
                .headers
                .get_all("x-forwarded-for")
                .iter()
                .filter_map(|v| v.to_str().ok().map(str::to_owned))
                .collect(),
        };
        let host = parts
            .headers
            .get(axum::http::header::HOST)
            .and_then(|h| h.to_str().ok())
            .filter(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_graphic()))
            .unwrap_or("127.0.0.1:8080");
        let scheme = if state.secure_cookies { "https" } else { "http" };
        let origin = format!("{scheme}://{host}");
        let secure = state.secure_cookies;
        Ok(Self { viewer, csrf, now: (state.clock)(), tz, secure, client, origin })
    }
}
