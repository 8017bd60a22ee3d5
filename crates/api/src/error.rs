//! [`ApiError`]: the one error type of the HTTP layer, and the one table mapping its machine
//! [`ErrorCode`] to a status.
//!
//! Every error body is `{"error": message, "code": code, "param"?: name}`: `error` is the
//! human-readable message (kept from the first API version), `code` the stable machine code,
//! `param` the request parameter at fault when there is one. Errors of the lower layers become
//! an `ApiError` here ([`From`] for [`AppError`], [`AccountError`], [`StoreError`],
//! [`SearchError`], [`IndexError`] and [`TrackingError`]); no route builds a body by hand. Server-side failures
//! keep their cause as the error's source: it is logged, and answered with a generic message,
//! never leaked. An error may carry response headers (a 429's `Retry-After`:
//! [`ApiError::with_headers`]).

use std::borrow::Cow;

use axum::{
    Json,
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Response},
};
use freehire_app::AppError;
use freehire_app::accounts::AccountError;
use freehire_app::assistant::service::ServiceError;
use freehire_app::plans::PlanError;
use freehire_app::saved_searches::SavedSearchError;
use freehire_app::tracking::TrackingError;
use freehire_domain::DomainError;
use freehire_search::{IndexError, SearchError};
use freehire_store::StoreError;
use serde::Serialize;

/// A cause kept behind an error.
type Cause = Box<dyn std::error::Error + Send + Sync>;

/// The machine code of an error: what a client branches on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// A request parameter is malformed (`param` names it).
    InvalidParameter,
    /// The request is not well-formed HTTP (answered for hyper).
    BadRequest,
    /// The request URI is longer than the server reads (answered for hyper).
    UriTooLong,
    /// The request head is larger than the server reads (answered for hyper).
    HeadersTooLarge,
    /// The request body is larger than the server accepts.
    PayloadTooLarge,
    /// The request body is not JSON (`Content-Type`).
    UnsupportedMediaType,
    /// The `Accept` header rules out every answer the route can give.
    NotAcceptable,
    /// No caller, or credentials that do not hold (a wrong password, an unknown key).
    Unauthorized,
    /// A caller the route does not accept (a key scope, a cookie-only route, a role, an
    /// unverified account).
    Forbidden,
    /// The search engine refused the query as a whole.
    InvalidQuery,
    /// A search for every job (no filter, no text) cannot be subscribed to.
    UnfilteredSearch,
    /// The addressed resource does not exist.
    NotFound,
    /// The route exists, the method does not.
    MethodNotAllowed,
    /// The resource exists in another state (another worker holds it, …).
    Conflict,
    /// A follow-up draft was asked for an application that is not silent.
    NotSilent,
    /// Too many requests; retry later.
    RateLimited,
    /// The action needs a paid plan.
    PaymentRequired,
    /// Search is not configured or its engine failed.
    SearchUnavailable,
    /// Another dependency (the database) does not answer.
    Unavailable,
    /// The assistant has no model configured (`LLM_BASE_URL`, `LLM_API_KEY`, `LLM_MODEL`).
    AssistantUnavailable,
    /// Today's allowance of the feature is spent; the body carries the `allowance`.
    QuotaExceeded,
    /// The session already has a turn running and one waiting.
    TurnQueueFull,
    /// A retry was asked of a session with no message to retry.
    NothingToRetry,
    /// An opening was asked of a session that does not open by itself, or has started.
    NotOpenable,
    /// A CV edit `cvedit` refused (a bad path or value, a field the actor may not touch, a
    /// claim without evidence, a list over its ceiling); `param` names the path.
    InvalidEdit,
    /// An undo whose inverse no longer applies to the CV as it is now.
    CannotUndo,
    /// The request was not answered in time (its handler was cancelled).
    Timeout,
    /// Anything else: our fault.
    Internal,
}

impl ErrorCode {
    /// Every code, in table order.
    pub const ALL: [Self; 28] = [
        Self::InvalidParameter,
        Self::BadRequest,
        Self::UriTooLong,
        Self::HeadersTooLarge,
        Self::PayloadTooLarge,
        Self::UnsupportedMediaType,
        Self::NotAcceptable,
        Self::Unauthorized,
        Self::Forbidden,
        Self::InvalidQuery,
        Self::UnfilteredSearch,
        Self::NotFound,
        Self::MethodNotAllowed,
        Self::Conflict,
        Self::NotSilent,
        Self::RateLimited,
        Self::PaymentRequired,
        Self::SearchUnavailable,
        Self::Unavailable,
        Self::AssistantUnavailable,
        Self::QuotaExceeded,
        Self::TurnQueueFull,
        Self::NothingToRetry,
        Self::NotOpenable,
        Self::InvalidEdit,
        Self::CannotUndo,
        Self::Timeout,
        Self::Internal,
    ];

    /// The wire spelling (`invalid_parameter`, …), as serialised.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::InvalidParameter => "invalid_parameter",
            Self::BadRequest => "bad_request",
            Self::UriTooLong => "uri_too_long",
            Self::HeadersTooLarge => "headers_too_large",
            Self::PayloadTooLarge => "payload_too_large",
            Self::UnsupportedMediaType => "unsupported_media_type",
            Self::NotAcceptable => "not_acceptable",
            Self::Unauthorized => "unauthorized",
            Self::Forbidden => "forbidden",
            Self::InvalidQuery => "invalid_query",
            Self::UnfilteredSearch => "unfiltered_search",
            Self::NotFound => "not_found",
            Self::MethodNotAllowed => "method_not_allowed",
            Self::Conflict => "conflict",
            Self::NotSilent => "not_silent",
            Self::RateLimited => "rate_limited",
            Self::PaymentRequired => "payment_required",
            Self::SearchUnavailable => "search_unavailable",
            Self::Unavailable => "unavailable",
            Self::AssistantUnavailable => "assistant_unavailable",
            Self::QuotaExceeded => "quota_exceeded",
            Self::TurnQueueFull => "turn_queue_full",
            Self::NothingToRetry => "nothing_to_retry",
            Self::NotOpenable => "not_openable",
            Self::InvalidEdit => "invalid_edit",
            Self::CannotUndo => "cannot_undo",
            Self::Timeout => "timeout",
            Self::Internal => "internal",
        }
    }

    /// The status code answered with this code: the one table.
    pub const fn status(self) -> StatusCode {
        match self {
            Self::InvalidParameter
            | Self::InvalidQuery
            | Self::UnfilteredSearch
            | Self::BadRequest => StatusCode::BAD_REQUEST,
            Self::UriTooLong => StatusCode::URI_TOO_LONG,
            Self::HeadersTooLarge => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            Self::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::NotAcceptable => StatusCode::NOT_ACCEPTABLE,
            Self::Unauthorized => StatusCode::UNAUTHORIZED,
            Self::Forbidden => StatusCode::FORBIDDEN,
            Self::PaymentRequired | Self::QuotaExceeded => StatusCode::PAYMENT_REQUIRED,
            Self::NotFound => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Self::Conflict
            | Self::NotSilent
            | Self::TurnQueueFull
            | Self::NothingToRetry
            | Self::CannotUndo
            | Self::NotOpenable => StatusCode::CONFLICT,
            Self::InvalidEdit => StatusCode::UNPROCESSABLE_ENTITY,
            Self::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            Self::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            Self::SearchUnavailable
            | Self::Unavailable
            | Self::AssistantUnavailable
            | Self::Timeout => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

/// What a handler can fail with: a code, the message answered, the parameter at fault, and
/// (for server-side failures) the cause that is logged instead of answered.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    code: ErrorCode,
    message: Cow<'static, str>,
    param: Option<String>,
    #[source]
    cause: Option<Cause>,
    /// Sent with the answer (boxed: most errors have none, and `ApiError` stays small).
    headers: Option<Box<HeaderMap>>,
    /// Extra members of the body beside `error`, `code` and `param` (a 402's `allowance`).
    extra: Option<Box<serde_json::Map<String, serde_json::Value>>>,
}

impl ApiError {
    /// An error with this code and message.
    pub fn new(code: ErrorCode, message: impl Into<Cow<'static, str>>) -> Self {
        Self { code, message: message.into(), param: None, cause: None, headers: None, extra: None }
    }

    /// The same error naming the parameter at fault.
    pub fn with_param(self, param: impl Into<String>) -> Self {
        Self { param: Some(param.into()), ..self }
    }

    /// The same error keeping its cause (logged, never answered).
    pub fn with_cause(self, cause: impl Into<Cause>) -> Self {
        Self { cause: Some(cause.into()), ..self }
    }

    /// The same error answered with these headers too (replacing any of the same name).
    pub fn with_headers(mut self, headers: HeaderMap) -> Self {
        self.headers.get_or_insert_default().extend(headers);
        self
    }

    /// The same error whose body also carries these members (never `error`, `code` or
    /// `param`, which stay the error's own).
    pub fn with_extra(mut self, extra: serde_json::Map<String, serde_json::Value>) -> Self {
        let mine = self.extra.get_or_insert_default();
        for (k, v) in extra {
            if !matches!(k.as_str(), "error" | "code" | "param") {
                mine.insert(k, v);
            }
        }
        self
    }

    /// A 400 naming the parameter and what is wrong with it.
    pub fn bad_param(name: &str, value: &str, rule: &str) -> Self {
        Self::new(ErrorCode::InvalidParameter, format!("invalid {name} {value:?}: {rule}"))
            .with_param(name)
    }

    /// A 404.
    pub fn not_found(message: &'static str) -> Self {
        Self::new(ErrorCode::NotFound, message)
    }

    /// A 500 answering `internal error`; the cause is logged.
    pub fn internal(cause: impl Into<Cause>) -> Self {
        Self::new(ErrorCode::Internal, "internal error").with_cause(cause)
    }

    /// The machine code.
    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// The parameter at fault, if any.
    pub fn param(&self) -> Option<&str> {
        self.param.as_deref()
    }

    /// The status code this error maps to.
    pub fn status(&self) -> StatusCode {
        self.code.status()
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            // Validation failures are the caller's; an outage is a 503 (retry later); everything
            // else is ours.
            StoreError::Invalid(d) => d.into(),
            e @ StoreError::Conflict { field } => {
                Self::new(ErrorCode::Conflict, e.to_string()).with_param(field)
            }
            e @ StoreError::Unavailable { .. } => {
                Self::new(ErrorCode::Unavailable, "database unavailable").with_cause(e)
            }
            other => Self::internal(other),
        }
    }
}

impl From<DomainError> for ApiError {
    fn from(e: DomainError) -> Self {
        let param = match &e {
            DomainError::UnknownValue { field, .. } | DomainError::Invalid { field, .. } => *field,
        };
        Self::new(ErrorCode::InvalidParameter, e.to_string()).with_param(param)
    }
}

impl From<SearchError> for ApiError {
    fn from(e: SearchError) -> Self {
        let param = e.param().to_owned();
        Self::new(ErrorCode::InvalidParameter, e.to_string()).with_param(param)
    }
}

impl From<IndexError> for ApiError {
    fn from(e: IndexError) -> Self {
        match e {
            IndexError::Rejected(reason) => Self::new(
                ErrorCode::InvalidQuery,
                format!("the search engine refused the query: {reason}"),
            ),
            e => Self::new(ErrorCode::SearchUnavailable, "search is temporarily unavailable")
                .with_cause(e),
        }
    }
}

impl From<AppError> for ApiError {
    fn from(e: AppError) -> Self {
        match e {
            AppError::Store(e) => e.into(),
            AppError::Invalid(e) => e.into(),
            AppError::Query(e) => e.into(),
            AppError::Search(e) => e.into(),
            e @ AppError::Busy(_) => Self::new(ErrorCode::Conflict, e.to_string()),
            e => Self::internal(e),
        }
    }
}

impl From<AccountError> for ApiError {
    fn from(e: AccountError) -> Self {
        let message = e.to_string();
        match e {
            AccountError::Invalid(d) => d.into(),
            AccountError::Store(e) => e.into(),
            AccountError::EmailTaken => Self::new(ErrorCode::Conflict, message).with_param("email"),
            AccountError::WrongCredentials => Self::new(ErrorCode::Unauthorized, message),
            AccountError::WrongCurrentPassword => {
                Self::new(ErrorCode::InvalidParameter, message).with_param("current_password")
            }
            AccountError::Code(_) => {
                Self::new(ErrorCode::InvalidParameter, message).with_param("code")
            }
            AccountError::NotVerified => Self::new(ErrorCode::Forbidden, message),
            AccountError::EmailMismatch => {
                Self::new(ErrorCode::InvalidParameter, message).with_param("email")
            }
            AccountError::ExpiryInPast => {
                Self::new(ErrorCode::InvalidParameter, message).with_param("expires_at")
            }
            AccountError::NotFound(_) => Self::new(ErrorCode::NotFound, message),
            e @ AccountError::Mail(_) => {
                Self::new(ErrorCode::Unavailable, "mail cannot be sent now; try again later")
                    .with_cause(e)
            }
            e @ (AccountError::Hashing(_) | AccountError::Config(_)) => Self::internal(e),
        }
    }
}

impl From<TrackingError> for ApiError {
    fn from(e: TrackingError) -> Self {
        let message = e.to_string();
        match e {
            TrackingError::NotFound(m) => Self::not_found(m),
            TrackingError::Invalid { field, .. } => {
                Self::new(ErrorCode::InvalidParameter, message).with_param(field)
            }
            TrackingError::NotSilent => Self::new(ErrorCode::NotSilent, message),
            TrackingError::Domain(d) => d.into(),
            TrackingError::Store(e) => e.into(),
        }
    }
}

impl From<SavedSearchError> for ApiError {
    fn from(e: SavedSearchError) -> Self {
        let message = e.to_string();
        match e {
            SavedSearchError::Invalid { field, .. } => {
                Self::new(ErrorCode::InvalidParameter, message).with_param(field)
            }
            SavedSearchError::Domain(d) => d.into(),
            SavedSearchError::UnfilteredSearch => {
                Self::new(ErrorCode::UnfilteredSearch, message).with_param("query")
            }
            SavedSearchError::LimitReached => {
                Self::new(ErrorCode::Conflict, message).with_param("saved_searches")
            }
            SavedSearchError::Conflict { field, .. } => {
                Self::new(ErrorCode::Conflict, message).with_param(field)
            }
            SavedSearchError::NotFound(_) => Self::new(ErrorCode::NotFound, message),
            SavedSearchError::SearchUnavailable(_) => Self::new(
                ErrorCode::SearchUnavailable,
                "search is not available: the search index cannot be read now",
            ),
            SavedSearchError::Search(e) => e.into(),
            SavedSearchError::Store(e) => e.into(),
        }
    }
}

impl ApiError {
    /// The 402 of a refused charge: `quota_exceeded`, the body carrying the `allowance`.
    pub fn quota(refusal: freehire_app::plans::Refusal) -> Self {
        let extra = match refusal.body {
            serde_json::Value::Object(map) => map,
            _ => serde_json::Map::new(),
        };
        Self::new(ErrorCode::QuotaExceeded, refusal.message).with_extra(extra)
    }
}

impl From<ServiceError> for ApiError {
    fn from(e: ServiceError) -> Self {
        let message = e.to_string();
        match e {
            ServiceError::NotFound(m) => Self::not_found(m),
            ServiceError::Invalid { field, .. } => {
                Self::new(ErrorCode::InvalidParameter, message).with_param(field)
            }
            ServiceError::Unavailable => Self::new(ErrorCode::AssistantUnavailable, message),
            ServiceError::Refused(refusal) => Self::quota(refusal),
            ServiceError::QueueFull => Self::new(ErrorCode::TurnQueueFull, message),
            ServiceError::NothingToRetry => Self::new(ErrorCode::NothingToRetry, message),
            ServiceError::NotOpenable(m) => Self::new(ErrorCode::NotOpenable, m),
            ServiceError::Conflict(m) => Self::new(ErrorCode::Conflict, m),
            ServiceError::Cv(e) => e.into(),
            ServiceError::Store(e) => e.into(),
            e @ (ServiceError::Transcript(_) | ServiceError::Locks(_)) => Self::new(
                ErrorCode::Unavailable,
                "the assistant's storage does not answer; retry later",
            )
            .with_cause(e),
        }
    }
}

impl From<PlanError> for ApiError {
    fn from(e: PlanError) -> Self {
        match e {
            PlanError::Store(e) => e.into(),
        }
    }
}

/// The error body.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(example = json!({
    "error": "invalid limit \"ten\": must be an integer",
    "code": "invalid_parameter",
    "param": "limit"
}))]
pub struct ErrorBody {
    /// Human-readable message.
    pub error: String,
    /// The machine code.
    pub code: ErrorCode,
    /// The request parameter at fault (with `invalid_parameter`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub param: Option<String>,
}

/// `error: source: source…` for the log line.
struct Chain<'a>(&'a (dyn std::error::Error + 'static));

impl std::fmt::Display for Chain<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)?;
        let mut next = self.0.source();
        while let Some(e) = next {
            write!(f, ": {e}")?;
            next = e.source();
        }
        Ok(())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        if let Some(cause) = &self.cause {
            let cause = Chain(cause.as_ref());
            if status == StatusCode::INTERNAL_SERVER_ERROR {
                tracing::error!(error = %cause, code = ?self.code, "{}", self.message);
            } else {
                tracing::warn!(error = %cause, code = ?self.code, "{}", self.message);
            }
        }
        let body =
            ErrorBody { error: self.message.into_owned(), code: self.code, param: self.param };
        let headers = self.headers.map(|h| *h).unwrap_or_default();
        match self.extra {
            None => (status, headers, Json(body)).into_response(),
            Some(extra) => {
                let mut value = match serde_json::to_value(&body) {
                    Ok(serde_json::Value::Object(map)) => map,
                    _ => serde_json::Map::new(),
                };
                value.extend(*extra);
                (status, headers, Json(value)).into_response()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn every_code_has_its_status_and_spelling() {
        let table: Vec<(String, u16)> = ErrorCode::ALL
            .iter()
            .map(|c| {
                (serde_json::to_value(c).unwrap().as_str().unwrap().to_owned(), c.status().as_u16())
            })
            .collect();
        let expected = [
            ("invalid_parameter", 400),
            ("bad_request", 400),
            ("uri_too_long", 414),
            ("headers_too_large", 431),
            ("payload_too_large", 413),
            ("unsupported_media_type", 415),
            ("not_acceptable", 406),
            ("unauthorized", 401),
            ("forbidden", 403),
            ("invalid_query", 400),
            ("unfiltered_search", 400),
            ("not_found", 404),
            ("method_not_allowed", 405),
            ("conflict", 409),
            ("not_silent", 409),
            ("rate_limited", 429),
            ("payment_required", 402),
            ("search_unavailable", 503),
            ("unavailable", 503),
            ("assistant_unavailable", 503),
            ("quota_exceeded", 402),
            ("turn_queue_full", 409),
            ("nothing_to_retry", 409),
            ("not_openable", 409),
            ("invalid_edit", 422),
            ("cannot_undo", 409),
            ("timeout", 503),
            ("internal", 500),
        ];
        let expected: Vec<(String, u16)> =
            expected.iter().map(|(c, s)| ((*c).to_owned(), *s)).collect();
        assert_eq!(table, expected);
        for (code, (spelling, _)) in ErrorCode::ALL.iter().zip(&table) {
            assert_eq!(code.as_str(), spelling);
        }
    }

    #[test]
    fn causes_are_kept_and_not_answered() {
        let e: ApiError = IndexError::Engine("disk on fire".into()).into();
        assert_eq!(
            (e.code(), e.to_string()),
            (ErrorCode::SearchUnavailable, "search is temporarily unavailable".into())
        );
        let cause = std::error::Error::source(&e).unwrap();
        assert!(Chain(cause).to_string().contains("disk on fire"), "{}", Chain(cause));
        let e: ApiError = AppError::Config("x".into()).into();
        assert_eq!((e.code(), e.to_string()), (ErrorCode::Internal, "internal error".into()));
        assert!(std::error::Error::source(&e).is_some());
    }

    #[tokio::test]
    async fn extra_members_join_the_body_but_never_replace_its_own() {
        let extra = serde_json::json!({"allowance": {"used": 1, "limit": 1}, "code": "other", "error": "x"});
        let serde_json::Value::Object(extra) = extra else { unreachable!() };
        let response =
            ApiError::new(ErrorCode::QuotaExceeded, "spent").with_extra(extra).into_response();
        assert_eq!(response.status(), StatusCode::PAYMENT_REQUIRED);
        let body = axum::body::to_bytes(response.into_body(), 1 << 16).await.unwrap();
        let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(
            body,
            serde_json::json!({"error": "spent", "code": "quota_exceeded", "allowance": {"used": 1, "limit": 1}})
        );
    }

    #[test]
    fn a_bad_parameter_is_named() {
        let e: ApiError = SearchError::FacetsWithDisjunctive.into();
        assert_eq!((e.code(), e.param()), (ErrorCode::InvalidParameter, Some("facets")));
        let e = ApiError::bad_param("limit", "ten", "must be an integer");
        assert_eq!(e.to_string(), r#"invalid limit "ten": must be an integer"#);
        assert_eq!(e.param(), Some("limit"));
    }
}
