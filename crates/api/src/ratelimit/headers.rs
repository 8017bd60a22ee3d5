//! What a check answers and how it is rendered: [`RateInfo`] (a counted request: the three
//! `X-RateLimit-*` headers) and [`Limited`] (a refusal: 429 `rate_limited` through
//! [`ApiError`], with `Retry-After` and the same three headers).

use axum::{
    http::{
        HeaderMap, HeaderName, HeaderValue,
        header::{Entry, RETRY_AFTER},
    },
    response::{IntoResponse, IntoResponseParts, Response, ResponseParts},
};

use crate::{ApiError, ErrorCode};

/// `X-RateLimit-Limit`: the bucket's burst.
pub const LIMIT: HeaderName = HeaderName::from_static("x-ratelimit-limit");
/// `X-RateLimit-Remaining`: requests left now.
pub const REMAINING: HeaderName = HeaderName::from_static("x-ratelimit-remaining");
/// `X-RateLimit-Reset`: seconds until the bucket is full again.
pub const RESET: HeaderName = HeaderName::from_static("x-ratelimit-reset");

/// A counted request: its most constrained subject's state after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateInfo {
    /// The bucket's burst (`X-RateLimit-Limit`).
    pub limit: u32,
    /// Requests the subject has left now (`X-RateLimit-Remaining`).
    pub remaining: u32,
    /// Seconds until the subject's bucket is full again, rounded up (`X-RateLimit-Reset`).
    pub reset_secs: u64,
}

impl RateInfo {
    fn pairs(&self) -> [(HeaderName, HeaderValue); 3] {
        [
            (LIMIT, HeaderValue::from(self.limit)),
            (REMAINING, HeaderValue::from(self.remaining)),
            (RESET, HeaderValue::from(self.reset_secs)),
        ]
    }

    /// The three headers.
    pub fn headers(&self) -> HeaderMap {
        self.pairs().into_iter().collect()
    }

    /// Adds the headers to `headers`, keeping any already there (a handler's own check,
    /// which names more subjects, wins over the route layer's).
    pub fn add_to(&self, headers: &mut HeaderMap) {
        for (name, value) in self.pairs() {
            if let Entry::Vacant(slot) = headers.entry(name) {
                slot.insert(value);
            }
        }
    }
}

/// A handler returns `(Option<RateInfo>, body)`: the headers when the request was counted.
impl IntoResponseParts for RateInfo {
    type Error = std::convert::Infallible;

    fn into_response_parts(self, mut res: ResponseParts) -> Result<ResponseParts, Self::Error> {
        self.add_to(res.headers_mut());
        Ok(res)
    }
}

/// A refused request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("too many requests: retry in {retry_after_secs} s")]
pub struct Limited {
    /// Seconds until the request would pass, rounded up, at least 1 (`Retry-After`).
    pub retry_after_secs: u64,
    /// The bucket's burst (`X-RateLimit-Limit`).
    pub limit: u32,
    /// Seconds until the refusing subject's bucket is full again (`X-RateLimit-Reset`).
    pub reset_secs: u64,
}

/// 429 `rate_limited`, `Retry-After` and the three headers (`X-RateLimit-Remaining: 0`).
impl From<Limited> for ApiError {
    fn from(limited: Limited) -> Self {
        let mut headers =
            RateInfo { limit: limited.limit, remaining: 0, reset_secs: limited.reset_secs }
                .headers();
        headers.insert(RETRY_AFTER, HeaderValue::from(limited.retry_after_secs));
        ApiError::new(ErrorCode::RateLimited, limited.to_string()).with_headers(headers)
    }
}

impl IntoResponse for Limited {
    fn into_response(self) -> Response {
        ApiError::from(self).into_response()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use axum::http::StatusCode;

    use super::*;

    fn header<'a>(res: &'a Response, name: &str) -> Option<&'a str> {
        res.headers().get(name).and_then(|v| v.to_str().ok())
    }

    #[tokio::test]
    async fn a_refusal_is_a_429_with_its_headers_and_the_json_body() {
        let res = Limited { retry_after_secs: 7, limit: 5, reset_secs: 60 }.into_response();
        assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
        let got: Vec<_> =
            ["retry-after", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]
                .iter()
                .map(|name| header(&res, name))
                .collect();
        assert_eq!(got, [Some("7"), Some("5"), Some("0"), Some("60")]);
        let body = axum::body::to_bytes(res.into_body(), 1 << 16).await.unwrap();
        let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(
            body,
            serde_json::json!({"error": "too many requests: retry in 7 s", "code": "rate_limited"})
        );
    }

    #[test]
    fn a_counted_request_adds_its_headers_without_replacing_others() {
        let info = RateInfo { limit: 10, remaining: 3, reset_secs: 42 };
        let mut headers = HeaderMap::new();
        headers.insert(REMAINING, HeaderValue::from(1u32));
        info.add_to(&mut headers);
        let got: Vec<_> = [LIMIT, REMAINING, RESET]
            .iter()
            .map(|name| headers.get(name).and_then(|v| v.to_str().ok()))
            .collect();
        assert_eq!(got, [Some("10"), Some("1"), Some("42")]);
    }
}
