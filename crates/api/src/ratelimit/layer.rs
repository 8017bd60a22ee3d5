//! [`limit`]: the per-route tower layer counting each request against its bucket by client IP.
//!
//! The check runs before the handler: a refusal is answered 429 without calling it; a counted
//! request gets the `X-RateLimit-*` headers on whatever the handler answers (unless the
//! handler set them itself). With the limits off the layer passes requests through untouched.

use std::{
    future::{Future, ready},
    pin::Pin,
    task::{Context, Poll},
};

use axum::{
    extract::Request,
    response::{IntoResponse, Response},
};
use tower::{Layer, Service};

use super::{Bucket, RateLimits, Subject};
use crate::{
    AppState,
    client_ip::{ClientIp, TrustedProxies},
};

/// The layer limiting a route by client IP in `bucket`, over `state`'s limits and trusted
/// proxies: `.route("/auth/register", post(register).layer(limit(&state, Bucket::Register)))`.
pub fn limit(state: &AppState, bucket: Bucket) -> RateLimitLayer {
    RateLimitLayer::new(state.limits.clone(), state.trusted_proxies.clone(), bucket)
}

/// Limits the wrapped service by client IP in one bucket ([`limit`]).
#[derive(Debug, Clone)]
pub struct RateLimitLayer {
    limits: RateLimits,
    proxies: TrustedProxies,
    bucket: Bucket,
}

impl RateLimitLayer {
    /// The layer over these limits and proxies.
    pub fn new(limits: RateLimits, proxies: TrustedProxies, bucket: Bucket) -> Self {
        Self { limits, proxies, bucket }
    }
}

impl<S> Layer<S> for RateLimitLayer {
    type Service = RateLimited<S>;

    fn layer(&self, inner: S) -> RateLimited<S> {
        RateLimited { inner, layer: self.clone() }
    }
}

/// The service of [`RateLimitLayer`].
#[derive(Debug, Clone)]
pub struct RateLimited<S> {
    inner: S,
    layer: RateLimitLayer,
}

impl<S> Service<Request> for RateLimited<S>
where
    S: Service<Request, Response = Response>,
    S::Error: Send + 'static,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let RateLimitLayer { limits, proxies, bucket } = &self.layer;
        if !limits.is_enabled() {
            return Box::pin(self.inner.call(request));
        }
        let ip = match ClientIp::of(request.extensions(), request.headers(), proxies) {
            Ok(ClientIp(ip)) => ip,
            Err(e) => return Box::pin(ready(Ok(e.into_response()))),
        };
        match limits.check(*bucket, &[Subject::Ip(ip)]) {
            Err(limited) => Box::pin(ready(Ok(limited.into_response()))),
            Ok(info) => {
                let answer = self.inner.call(request);
                Box::pin(async move {
                    let mut response = answer.await?;
                    if let Some(info) = info {
                        info.add_to(response.headers_mut());
                    }
                    Ok(response)
                })
            }
        }
    }
}
