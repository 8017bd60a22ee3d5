//! The public reads' limits (reference search-ingest §6.3): [`Bucket::PublicRead`] (600 a
//! minute) shared by the catalogue's read routes, [`Bucket::AgentSearch`] (300 a minute) for
//! agent search, each per caller: per API key when the request sends one (a key that is not
//! valid is refused 401, so a made-up `Authorization` header cannot buy a fresh bucket), else
//! per client IP ([`ClientIp`]: `X-Forwarded-For` counts only from a trusted proxy).
//!
//! [`public_limits`] is a route layer of the whole API router: after routing it looks the
//! matched path up in [`PUBLIC_ROUTES`] and limits nothing else. On PostgreSQL the buckets
//! are [`super::SharedLimits`] (shared by every API process on the database), else the
//! in-process [`super::RateLimits`]. A counted request answers the
//! `X-RateLimit-*` headers, a refused one 429 with `Retry-After`. The limiter fails open: a
//! request whose peer address is unknown (a router not served by [`crate::serve_with`]) or
//! whose key cannot be looked up or whose shared bucket cannot be read (the database) passes
//! uncounted, and then the headers are
//! absent.

use axum::{
    extract::{MatchedPath, Request, State},
    middleware::Next,
    response::{IntoResponse, Response},
};

use super::{Bucket, Subject};
use crate::{
    ApiError, AppState,
    auth::gate::{bearer, invalid_key},
    client_ip::ClientIp,
};

/// The limited routes (their path templates under the router) and their buckets.
pub const PUBLIC_ROUTES: [(&str, Bucket); 15] = [
    ("/api/v1/jobs", Bucket::PublicRead),
    ("/api/v1/jobs/{slug}", Bucket::PublicRead),
    ("/api/v1/jobs/find", Bucket::PublicRead),
    ("/api/v1/jobs/{slug}/copies", Bucket::PublicRead),
    ("/api/v1/geo/cities", Bucket::PublicRead),
    ("/api/v1/suggest", Bucket::PublicRead),
    ("/api/v1/jobs/sitemap", Bucket::PublicRead),
    ("/api/v1/companies/sitemap", Bucket::PublicRead),
    ("/api/v1/jobs/search", Bucket::PublicRead),
    ("/api/v1/jobs/facets", Bucket::PublicRead),
    ("/api/v1/market/coverage", Bucket::PublicRead),
    ("/api/v1/companies", Bucket::PublicRead),
    ("/api/v1/companies/{slug}", Bucket::PublicRead),
    ("/api/v1/agent/jobs/search", Bucket::AgentSearch),
    ("/mcp", Bucket::AgentSearch),
];

/// The bucket of a matched path template, if it is a public read.
pub fn bucket_of(template: &str) -> Option<Bucket> {
    PUBLIC_ROUTES.iter().find(|(path, _)| *path == template).map(|(_, bucket)| *bucket)
}

/// Who the request counts against: its API key, else its client IP; `None` to pass
/// uncounted (see the module docs), `Err` for a key that is not valid.
async fn subject(
    state: &AppState,
    token: Option<Result<String, ApiError>>,
    ip: Option<ClientIp>,
) -> Result<Option<Subject>, ApiError> {
    let Some(token) = token else {
        return Ok(ip.map(|ClientIp(ip)| Subject::Ip(ip)));
    };
    let token = token?;
    match state.accounts.key_user(&token).await {
        Ok(Some(_)) => Ok(Some(Subject::account(format!("api-key:{token}")))),
        Ok(None) => Err(invalid_key()),
        Err(e) => {
            tracing::warn!(error = %e, "rate limits: cannot look the API key up; the request passes uncounted");
            Ok(None)
        }
    }
}

/// The route layer: counts a public read against its bucket (see the module docs).
pub async fn public_limits(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let bucket = request.extensions().get::<MatchedPath>().and_then(|p| bucket_of(p.as_str()));
    let Some(bucket) = bucket.filter(|_| state.limits.is_enabled()) else {
        return next.run(request).await;
    };
    // Owned: the request is not held across the key lookup.
    let token = bearer(request.headers()).map(|t| t.map(str::to_owned));
    let ip = ClientIp::of(request.extensions(), request.headers(), &state.trusted_proxies).ok();
    let subject = match subject(&state, token, ip).await {
        Ok(Some(subject)) => subject,
        Ok(None) => return next.run(request).await,
        Err(refused) => return refused.into_response(),
    };
    let checked = match &state.shared_limits {
        Some(shared) => shared.check(bucket, &subject).await,
        None => state.limits.check(bucket, &[subject]),
    };
    match checked {
        Err(limited) => limited.into_response(),
        Ok(info) => {
            let mut response = next.run(request).await;
            if let Some(info) = info {
                info.add_to(response.headers_mut());
            }
            response
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_public_reads_have_a_bucket() {
        assert_eq!(bucket_of("/api/v1/jobs/search"), Some(Bucket::PublicRead));
        assert_eq!(bucket_of("/api/v1/agent/jobs/search"), Some(Bucket::AgentSearch));
        assert_eq!(bucket_of("/api/v1/me/tracking"), None);
        assert_eq!(bucket_of("/health"), None);
    }
}
