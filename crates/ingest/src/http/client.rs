//! [`HttpClient`] (shared) and [`Fetcher`] (per provider): retries, backoff, pacing (per
//! upstream host on every hop, plus an optional provider-wide pacer), SSRF checks, replay
//! rewriting, manual redirects and the body cap.

use std::num::NonZeroU32;
use std::sync::Arc;

use backon::{ConstantBuilder, ExponentialBuilder, Retryable};
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use reqwest::header::{ACCEPT, CONTENT_TYPE, LOCATION, SET_COOKIE};
use reqwest::{Method, Response};
use url::Url;

use super::config::{ClientConfig, HostPace, HostPacing, SsrfPolicy, UPSTREAM_HOST_HEADER};
use super::pacing::{HostLimiter, HostLimiters};
use super::ssrf::{GuardedResolver, check_target, refusal_of};
use crate::IngestError;
use crate::error_chain;

/// The shared client. Cheap to clone.
#[derive(Clone, Debug)]
pub struct HttpClient {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    client: reqwest::Client,
    config: ClientConfig,
    host_limiters: HostLimiters,
}

/// A successful (2xx) response.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// The upstream URL that answered, after redirects (never the replay origin).
    pub url: Url,
    /// The `Content-Type` header, if any.
    pub content_type: Option<String>,
    /// The body, at most the configured cap.
    pub body: Vec<u8>,
    /// The `name=value` part of each `Set-Cookie` header of the answering response, for the
    /// platforms whose listing needs a session or CSRF cookie sent back (Dayforce, Taleo).
    pub set_cookies: Vec<String>,
}

/// What a provider asks of the client beyond the shared defaults.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProviderPolicy {
    /// Requests per second across all of the provider's hosts, when the provider is paced as
    /// a whole (on top of the per-host pace).
    pub pace_per_second: Option<NonZeroU32>,
    /// The per-host pace of this provider's requests instead of the client's
    /// [`HostPacing::Paced`] default (ignored when host pacing is [`HostPacing::Off`]).
    pub host_pace: Option<HostPace>,
    /// Retry 403/429 with the exponential [`crate::http::BackoffConfig`].
    pub rate_limit_backoff: bool,
}

impl HttpClient {
    /// Builds the client.
    pub fn new(config: ClientConfig) -> Result<Self, IngestError> {
        let mut builder = reqwest::Client::builder()
            .timeout(config.timeout)
            .user_agent(config.user_agent.clone())
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy();
        if config.ssrf == SsrfPolicy::Enforce {
            let allowed_host =
                config.replay.as_ref().and_then(|o| o.url().host_str()).map(str::to_owned);
            builder = builder.dns_resolver(Arc::new(GuardedResolver { allowed_host }));
        }
        let client = builder.build().map_err(|e| IngestError::config("HTTP client", e))?;
        Ok(Self {
            inner: Arc::new(Inner { client, config, host_limiters: HostLimiters::default() }),
        })
    }

    /// The configuration in force.
    pub fn config(&self) -> &ClientConfig {
        &self.inner.config
    }

    /// A handle for one provider with its pacing and backoff. Handles whose per-host pace is
    /// the same share one limiter, so two providers on one host share its tokens.
    pub fn for_provider(&self, policy: ProviderPolicy) -> Fetcher {
        let pacer = policy
            .pace_per_second
            .map(|rate| Arc::new(RateLimiter::direct(Quota::per_second(rate))));
        let host_pacer = match self.inner.config.host_pacing {
            HostPacing::Paced(default) => {
                Some(self.inner.host_limiters.get(policy.host_pace.unwrap_or(default)))
            }
            HostPacing::Off => None,
        };
        Fetcher {
            client: self.clone(),
            pacer,
            host_pacer,
            rate_limit_backoff: policy.rate_limit_backoff,
        }
    }

    /// Where a request for `url` is really sent, and the upstream header to add. Refuses
    /// non-http(s) schemes and, under [`SsrfPolicy::Enforce`], internal IP literals and
    /// `localhost` names (other host names are checked by the resolver when dialled). The
    /// check reads the upstream URL of every hop, before the replay rewrite, so under replay
    /// every internal literal and `localhost` target is refused as on a live crawl; only a
    /// public-looking name that would resolve to an internal address goes unchecked there,
    /// because replay resolves nothing upstream.
    fn route(&self, url: &Url) -> Result<(Url, Option<String>), IngestError> {
        check_target(url, self.inner.config.ssrf)
            .map_err(|reason| IngestError::Refused { url: url.to_string(), reason })?;
        if let Some(origin) = &self.inner.config.replay {
            return Ok((origin.rewrite(url), Some(url.origin().ascii_serialization())));
        }
        Ok((url.clone(), None))
    }

    /// One attempt: follows redirects by hand, maps the status, reads the capped body. Each
    /// hop waits for its upstream host's token first (after the route check, so a refused
    /// target waits for nothing).
    async fn attempt(
        &self,
        method: &Method,
        url: &Url,
        accept: &str,
        body: Option<&[u8]>,
        headers: &[(&str, &str)],
        host_pacer: Option<&HostLimiter>,
    ) -> Result<Fetched, IngestError> {
        let mut current = url.clone();
        let mut hops = 0;
        loop {
            let (target, upstream) = self.route(&current)?;
            if let Some(pacer) = host_pacer {
                pacer.wait(&current).await;
            }
            let mut req = self.inner.client.request(method.clone(), target).header(ACCEPT, accept);
            if let Some(upstream) = upstream {
                req = req.header(UPSTREAM_HOST_HEADER, upstream);
            }
            if let Some(body) = body {
                req = req.header(CONTENT_TYPE, "application/json").body(body.to_vec());
            }
            // A caller's headers (a session token) go to the host it named, never to another
            // host a redirect points at.
            if current.host_str() == url.host_str() {
                for (name, value) in headers {
                    req = req.header(*name, *value);
                }
            }
            let resp = req.send().await.map_err(|e| send_error(&current, e))?;
            let status = resp.status();
            if status.is_redirection()
                && *method == Method::GET
                && hops < self.inner.config.max_redirects
                && let Some(next) = redirect_target(&current, &resp)
            {
                hops += 1;
                current = next;
                continue;
            }
            if !status.is_success() {
                return Err(IngestError::Status {
                    method: method_name(method),
                    url: current.to_string(),
                    status: status.as_u16(),
                });
            }
            let content_type =
                resp.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(str::to_owned);
            let set_cookies = resp
                .headers()
                .get_all(SET_COOKIE)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .filter_map(|v| v.split(';').next())
                .map(|v| v.trim().to_owned())
                .filter(|v| v.contains('='))
                .collect();
            let body = read_capped(resp, self.inner.config.max_body_bytes, &current).await?;
            return Ok(Fetched { url: current, content_type, body, set_cookies });
        }
    }
}

/// A per-provider handle: the shared client plus this provider's pacing and backoff.
#[derive(Clone, Debug)]
pub struct Fetcher {
    client: HttpClient,
    pacer: Option<Arc<DefaultDirectRateLimiter>>,
    host_pacer: Option<Arc<HostLimiter>>,
    rate_limit_backoff: bool,
}

impl Fetcher {
    /// GET with an `Accept` header.
    pub async fn get(&self, url: &Url, accept: &str) -> Result<Fetched, IngestError> {
        self.execute(Method::GET, url, accept, None, &[]).await
    }

    /// POST a JSON body, accepting JSON.
    pub async fn post_json(
        &self,
        url: &Url,
        body: &serde_json::Value,
    ) -> Result<Fetched, IngestError> {
        let bytes = serde_json::to_vec(body).map_err(|e| IngestError::Decode {
            url: url.to_string(),
            format: "JSON",
            source: Box::new(e),
        })?;
        self.execute(Method::POST, url, "application/json", Some(&bytes), &[]).await
    }

    /// GET and decode JSON, sending `headers` (a platform's page-embedded session token) to
    /// the URL's host only.
    pub async fn get_json_with<T: serde::de::DeserializeOwned>(
        &self,
        url: &Url,
        headers: &[(&str, &str)],
    ) -> Result<T, IngestError> {
        let fetched = self.execute(Method::GET, url, "application/json", None, headers).await?;
        super::decode::json(&fetched)
    }

    /// POST JSON and decode JSON, sending `headers` to the URL's host only.
    pub async fn post_for_json_with<T: serde::de::DeserializeOwned>(
        &self,
        url: &Url,
        body: &serde_json::Value,
        headers: &[(&str, &str)],
    ) -> Result<T, IngestError> {
        let fetched = self.post_json_with_headers(url, body, headers).await?;
        super::decode::json(&fetched)
    }

    /// GET with an `Accept` header and the caller's own headers (a cookie, a CSRF token),
    /// which are sent to `url`'s host only, never after a redirect to another host.
    pub async fn get_with_headers(
        &self,
        url: &Url,
        accept: &str,
        headers: &[(&str, &str)],
    ) -> Result<Fetched, IngestError> {
        self.execute(Method::GET, url, accept, None, headers).await
    }

    /// POST a JSON body, accepting JSON, with the caller's own headers (as
    /// [`Fetcher::get_with_headers`]).
    pub async fn post_json_with_headers(
        &self,
        url: &Url,
        body: &serde_json::Value,
        headers: &[(&str, &str)],
    ) -> Result<Fetched, IngestError> {
        let bytes = serde_json::to_vec(body).map_err(|e| IngestError::Decode {
            url: url.to_string(),
            format: "JSON",
            source: Box::new(e),
        })?;
        self.execute(Method::POST, url, "application/json", Some(&bytes), headers).await
    }

    /// Decodes a fetched body as XML, refusing an HTML page.
    pub fn decode_xml<T: serde::de::DeserializeOwned>(fetched: &Fetched) -> Result<T, IngestError> {
        super::decode::xml(fetched)
    }

    /// Decodes a fetched body as JSON, refusing an HTML page.
    pub fn decode_json<T: serde::de::DeserializeOwned>(
        fetched: &Fetched,
    ) -> Result<T, IngestError> {
        super::decode::json(fetched)
    }

    /// GET and decode JSON.
    pub async fn get_json<T: serde::de::DeserializeOwned>(
        &self,
        url: &Url,
    ) -> Result<T, IngestError> {
        super::decode::json(&self.get(url, "application/json").await?)
    }

    /// POST JSON and decode JSON.
    pub async fn post_for_json<T: serde::de::DeserializeOwned>(
        &self,
        url: &Url,
        body: &serde_json::Value,
    ) -> Result<T, IngestError> {
        super::decode::json(&self.post_json(url, body).await?)
    }

    /// GET and decode XML.
    pub async fn get_xml<T: serde::de::DeserializeOwned>(
        &self,
        url: &Url,
    ) -> Result<T, IngestError> {
        super::decode::xml(&self.get(url, "application/xml, text/xml").await?)
    }

    async fn execute(
        &self,
        method: Method,
        url: &Url,
        accept: &str,
        body: Option<&[u8]>,
        headers: &[(&str, &str)],
    ) -> Result<Fetched, IngestError> {
        let retry = self.client.inner.config.retry;
        let once = || async {
            if let Some(pacer) = &self.pacer {
                pacer.until_ready().await;
            }
            self.client
                .attempt(&method, url, accept, body, headers, self.host_pacer.as_deref())
                .await
        };
        let with_retry = || {
            once.retry(
                ConstantBuilder::default().with_delay(retry.delay).with_max_times(retry.retries),
            )
            .when(IngestError::is_transient)
            .notify(
                |e, after| tracing::debug!(error = %error_chain(&e), ?after, "retrying request"),
            )
        };
        if !self.rate_limit_backoff {
            return with_retry().await;
        }
        let backoff = self.client.inner.config.rate_limit_backoff;
        with_retry
            .retry(
                ExponentialBuilder::default()
                    .with_min_delay(backoff.base)
                    .with_factor(2.0)
                    .with_max_delay(backoff.cap)
                    .with_max_times(backoff.retries),
            )
            .when(IngestError::is_rate_limited)
            .notify(|e, after| {
                tracing::debug!(
                    error = %error_chain(&e),
                    ?after,
                    "rate limited, backing off"
                )
            })
            .await
    }
}

fn method_name(method: &Method) -> &'static str {
    if *method == Method::POST { "POST" } else { "GET" }
}

fn redirect_target(current: &Url, resp: &Response) -> Option<Url> {
    let location = resp.headers().get(LOCATION)?.to_str().ok()?;
    current.join(location).ok()
}

/// Maps a send error: the resolver's refusal becomes [`IngestError::Refused`], the rest
/// [`IngestError::Network`].
fn send_error(url: &Url, err: reqwest::Error) -> IngestError {
    if let Some(reason) = refusal_of(&err) {
        return IngestError::Refused { url: url.to_string(), reason };
    }
    IngestError::Network { url: url.to_string(), source: err }
}

async fn read_capped(mut resp: Response, limit: usize, url: &Url) -> Result<Vec<u8>, IngestError> {
    let too_large = || IngestError::BodyTooLarge { url: url.to_string(), limit };
    let declared = resp.content_length();
    if declared.is_some_and(|len| len > limit as u64) {
        return Err(too_large());
    }
    let mut body = Vec::with_capacity(declared.map_or(0, |len| len as usize));
    while let Some(chunk) = resp
        .chunk()
        .await
        .map_err(|source| IngestError::Network { url: url.to_string(), source })?
    {
        if body.len() + chunk.len() > limit {
            return Err(too_large());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}
