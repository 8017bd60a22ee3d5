//! [`WebError`]: why a page could not be shown, rendered as an HTML page in the layout (with
//! the security headers, like every page). Internal causes are logged, never shown.

use askama::Template;
use axum::{
    http::StatusCode,
    response::{Html, IntoResponse, Response},
};
use freehire_app::AppError;
use freehire_app::accounts::AccountError;
use freehire_app::assistant::service::ServiceError;
use freehire_app::saved_searches::SavedSearchError;
use freehire_app::screening::ScreeningError;
use freehire_app::tracking::TrackingError;
use freehire_domain::DomainError;
use freehire_store::StoreError;

use crate::layout::Layout;

/// A page that failed.
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    /// No such page, job or company (404).
    #[error("not found")]
    NotFound,
    /// A state-changing request without the form's CSRF token (403).
    #[error("the form expired or came from another site")]
    Csrf,
    /// A form value refused by a service (422): the field it names and why. Shown by the
    /// tracking and saved-search buttons, whose forms have no page of their own to re-render.
    #[error("{field}: {message}")]
    Refused {
        /// The field.
        field: &'static str,
        /// Why.
        message: String,
    },
    /// The assistant would not do what a form asked (an interview for a job the viewer does
    /// not hold, no model configured, the allowance spent, a turn already waiting, nothing to
    /// retry or open): the status and the service's message, shown on the page.
    #[error("{message}")]
    Assistant {
        /// 404, 402, 409 or 503.
        status: StatusCode,
        /// Why.
        message: String,
    },
    /// A form body over the limit (413).
    #[error("the form is too large")]
    TooLarge,
    /// The database or the search index cannot answer now (503).
    #[error("unavailable")]
    Unavailable,
    /// Anything else (500; the cause is logged).
    #[error("internal error")]
    Internal,
}

impl WebError {
    /// The status, the heading and what to do.
    fn parts(&self) -> (StatusCode, &'static str, &'static str) {
        match self {
            Self::NotFound => (
                StatusCode::NOT_FOUND,
                "Page not found",
                "Nothing lives at this address. Search the jobs or browse the companies instead.",
            ),
            Self::Csrf => (
                StatusCode::FORBIDDEN,
                "This form has expired",
                "The form was sent without its security token (or from another site). Go back, \
                 reload the page and send it again.",
            ),
            Self::Refused { .. } => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "The change was refused",
                "Go back, correct the value and send the form again.",
            ),
            Self::Assistant { status, .. } => (
                *status,
                "The assistant could not do that",
                "Go back to the conversation or the tracking board; the message above says why.",
            ),
            Self::TooLarge => (
                StatusCode::PAYLOAD_TOO_LARGE,
                "The form is too large",
                "Send less text and try again.",
            ),
            Self::Unavailable => (
                StatusCode::SERVICE_UNAVAILABLE,
                "Temporarily unavailable",
                "The catalogue cannot be read right now. Try again in a moment.",
            ),
            Self::Internal => (
                StatusCode::INTERNAL_SERVER_ERROR,
                "Something went wrong",
                "The server failed to show this page; the problem is logged. Try again later.",
            ),
        }
    }
}

impl From<AppError> for WebError {
    fn from(e: AppError) -> Self {
        match e {
            AppError::Store(e) => e.into(),
            e => {
                tracing::error!(error = %format!("{e:#}"), "page failed");
                Self::Internal
            }
        }
    }
}

impl From<StoreError> for WebError {
    fn from(e: StoreError) -> Self {
        match e {
            e @ StoreError::Unavailable { .. } => {
                tracing::warn!(error = %e, "database unavailable");
                Self::Unavailable
            }
            e => {
                tracing::error!(error = %e, "page failed");
                Self::Internal
            }
        }
    }
}

impl From<AccountError> for WebError {
    fn from(e: AccountError) -> Self {
        match e {
            AccountError::Store(e) => e.into(),
            e => {
                tracing::error!(error = %e, "page failed");
                Self::Internal
            }
        }
    }
}

impl From<ScreeningError> for WebError {
    fn from(e: ScreeningError) -> Self {
        match e {
            ScreeningError::NotFound => Self::NotFound,
            ScreeningError::Store(e) => e.into(),
        }
    }
}

impl From<DomainError> for WebError {
    fn from(e: DomainError) -> Self {
        let field = match &e {
            DomainError::UnknownValue { field, .. } | DomainError::Invalid { field, .. } => *field,
        };
        Self::Refused { field, message: e.to_string() }
    }
}

impl From<TrackingError> for WebError {
    fn from(e: TrackingError) -> Self {
        match e {
            TrackingError::NotFound(_) => Self::NotFound,
            TrackingError::Invalid { field, message } => Self::Refused { field, message },
            e @ TrackingError::NotSilent => {
                Self::Refused { field: "followup", message: e.to_string() }
            }
            TrackingError::Domain(e) => e.into(),
            TrackingError::Store(e) => e.into(),
        }
    }
}

impl From<SavedSearchError> for WebError {
    fn from(e: SavedSearchError) -> Self {
        match e {
            SavedSearchError::NotFound(_) => Self::NotFound,
            SavedSearchError::Invalid { field, message }
            | SavedSearchError::Conflict { field, message } => Self::Refused { field, message },
            e @ SavedSearchError::UnfilteredSearch => {
                Self::Refused { field: "query", message: e.to_string() }
            }
            e @ SavedSearchError::LimitReached => {
                Self::Refused { field: "saved_searches", message: e.to_string() }
            }
            SavedSearchError::Domain(e) => e.into(),
            SavedSearchError::SearchUnavailable(_) => Self::Unavailable,
            SavedSearchError::Search(e) => e.into(),
            SavedSearchError::Store(e) => e.into(),
        }
    }
}

impl From<ServiceError> for WebError {
    fn from(e: ServiceError) -> Self {
        let assistant =
            |status, e: &ServiceError| Self::Assistant { status, message: e.to_string() };
        match e {
            ServiceError::NotFound(_) => Self::NotFound,
            ServiceError::Invalid { field, message } => Self::Refused { field, message },
            ServiceError::Refused(refusal) => {
                Self::Assistant { status: StatusCode::PAYMENT_REQUIRED, message: refusal.message }
            }
            e @ ServiceError::Unavailable => assistant(StatusCode::SERVICE_UNAVAILABLE, &e),
            e @ (ServiceError::QueueFull
            | ServiceError::NothingToRetry
            | ServiceError::NotOpenable(_)
            | ServiceError::Conflict(_)) => assistant(StatusCode::CONFLICT, &e),
            ServiceError::Cv(e) => e.into(),
            ServiceError::Store(e) => e.into(),
            e => {
                tracing::error!(error = %e, "assistant service failed");
                Self::Internal
            }
        }
    }
}

/// The error page.
#[derive(Template)]
#[template(path = "error.html")]
pub struct ErrorPage {
    /// The layout.
    pub layout: Layout,
    /// The status code.
    pub status: u16,
    /// The heading.
    pub heading: &'static str,
    /// What to do.
    pub advice: &'static str,
    /// The refused field's message (`field: message`), when a form value was refused.
    pub detail: Option<String>,
}

impl ErrorPage {
    /// The page for `error` in `layout`.
    pub fn new(error: &WebError, layout: Layout) -> (StatusCode, Self) {
        let (status, heading, advice) = error.parts();
        let detail = matches!(error, WebError::Refused { .. } | WebError::Assistant { .. })
            .then(|| error.to_string());
        (status, Self { layout, status: status.as_u16(), heading, advice, detail })
    }
}

/// Renders a template, or the plain 500 text if rendering itself fails.
pub fn render(status: StatusCode, template: &impl Template) -> Response {
    match template.render() {
        Ok(html) => (status, Html(html)).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "template failed");
            (StatusCode::INTERNAL_SERVER_ERROR, "internal error").into_response()
        }
    }
}

impl IntoResponse for WebError {
    fn into_response(self) -> Response {
        let (status, page) = ErrorPage::new(&self, Layout::anonymous(self.parts().1));
        render(status, &page)
    }
}
