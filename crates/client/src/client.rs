//! [`Client`]: the API's routes this client calls, one method each.

use freehire_domain::Stage;
use reqwest::{Method, StatusCode};
use secrecy::{ExposeSecret, SecretString};
use serde::{Serialize, de::DeserializeOwned};
use url::Url;

use crate::ClientError;
use crate::wire::{ApplyBody, Card, Envelope, NewSavedSearch, SavedSearch, Track, TrackPatch};

/// Where a local `cargo xtask run` serves the API.
pub const DEFAULT_API_URL: &str = "http://127.0.0.1:8080";

/// Longest a connection may take to open.
const CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);
/// Longest a whole request may take, except a streamed turn (which has only [`READ_TIMEOUT`]).
pub(crate) const REQUEST_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);
/// Longest a body may go without a byte (a turn's stream sends a keepalive every 15 s).
const READ_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// A client of one server, authenticated by one API key (or keyless, for the public reads).
#[derive(Clone)]
pub struct Client {
    pub(crate) http: reqwest::Client,
    /// The server's origin (and path prefix, if it is mounted under one), ending in `/`.
    pub(crate) base: Url,
    pub(crate) key: Option<SecretString>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client").field("base", &self.base.as_str()).finish_non_exhaustive()
    }
}

impl Client {
    /// A client of the server at `api_url` (e.g. `https://freehire.example`), sending `key`.
    pub fn new(api_url: &str, key: SecretString) -> Result<Self, ClientError> {
        Self::with_key(api_url, Some(key))
    }

    /// A keyless client of the server at `api_url`: the public reads only (the catalogue's
    /// lookups), counted against the caller's IP.
    pub fn public(api_url: &str) -> Result<Self, ClientError> {
        Self::with_key(api_url, None)
    }

    fn with_key(api_url: &str, key: Option<SecretString>) -> Result<Self, ClientError> {
        let bad = |reason| ClientError::BadUrl { url: api_url.to_owned(), reason };
        let mut base = Url::parse(api_url.trim()).map_err(|_| bad("not an absolute URL"))?;
        if !matches!(base.scheme(), "http" | "https") {
            return Err(bad("the scheme must be http or https"));
        }
        if base.query().is_some() || base.fragment().is_some() {
            return Err(bad("it must not have a query or fragment"));
        }
        if !base.path().ends_with('/') {
            let path = format!("{}/", base.path());
            base.set_path(&path);
        }
        let http = reqwest::Client::builder()
            .user_agent(concat!("freehire-cli/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(CONNECT_TIMEOUT)
            // Between two reads of a body: a streamed turn sends a keepalive every 15 s.
            .read_timeout(READ_TIMEOUT)
            .build()
            .map_err(|source| ClientError::Unreachable { url: api_url.to_owned(), source })?;
        Ok(Self { http, base, key })
    }

    /// `GET /me/tracking?filter=…&limit=…&offset=…`: the tracked jobs and their total.
    pub async fn tracking(
        &self,
        filter: &str,
        limit: u32,
        offset: u32,
    ) -> Result<(Vec<Card>, u64), ClientError> {
        let path = format!("me/tracking?filter={filter}&limit={limit}&offset={offset}");
        let page: Envelope<Vec<Card>> = self.call(Method::GET, &path, None::<&()>).await?;
        let total = page.total.unwrap_or(page.data.len() as u64);
        Ok((page.data, total))
    }

    /// `POST /jobs/{slug}/save`.
    pub async fn save(&self, slug: &str) -> Result<Track, ClientError> {
        self.track_call(Method::POST, slug, "save", None::<&()>).await
    }

    /// `DELETE /jobs/{slug}/save`.
    pub async fn unsave(&self, slug: &str) -> Result<Track, ClientError> {
        self.track_call(Method::DELETE, slug, "save", None::<&()>).await
    }

    /// `POST /jobs/{slug}/apply`, on `applied_on` (today when `None`).
    pub async fn apply(
        &self,
        slug: &str,
        applied_on: Option<chrono::NaiveDate>,
    ) -> Result<Track, ClientError> {
        self.track_call(Method::POST, slug, "apply", Some(&ApplyBody { applied_on })).await
    }

    /// `PATCH /jobs/{slug}/track` with a new stage.
    pub async fn set_stage(&self, slug: &str, stage: Stage) -> Result<Track, ClientError> {
        let patch = TrackPatch { stage: Some(stage.as_str().to_owned()), notes: None };
        self.track_call(Method::PATCH, slug, "track", Some(&patch)).await
    }

    /// `PATCH /jobs/{slug}/track` with new notes (replacing the old ones).
    pub async fn set_notes(&self, slug: &str, notes: &str) -> Result<Track, ClientError> {
        let patch = TrackPatch { stage: None, notes: Some(notes.to_owned()) };
        self.track_call(Method::PATCH, slug, "track", Some(&patch)).await
    }

    /// `GET /me/saved-searches`.
    pub async fn saved_searches(&self) -> Result<Vec<SavedSearch>, ClientError> {
        let list: Envelope<Vec<SavedSearch>> =
            self.call(Method::GET, "me/saved-searches", None::<&()>).await?;
        Ok(list.data)
    }

    /// `POST /me/saved-searches`.
    pub async fn add_saved_search(
        &self,
        name: &str,
        query: &str,
    ) -> Result<SavedSearch, ClientError> {
        let created: Envelope<SavedSearch> = self
            .call(Method::POST, "me/saved-searches", Some(&NewSavedSearch { name, query }))
            .await?;
        Ok(created.data)
    }

    /// `DELETE /me/saved-searches/{id}`.
    pub async fn remove_saved_search(&self, id: i64) -> Result<(), ClientError> {
        self.send(Method::DELETE, &format!("me/saved-searches/{id}"), None::<&()>).await.map(drop)
    }

    /// `POST /jobs/{slug}/ghost-report`: reports the job as a ghost job, applied on
    /// `applied_on` (today when `None`); returns the day recorded.
    pub async fn report_ghost(
        &self,
        slug: &str,
        applied_on: Option<chrono::NaiveDate>,
    ) -> Result<chrono::NaiveDate, ClientError> {
        #[derive(serde::Deserialize)]
        struct Recorded {
            applied_on: chrono::NaiveDate,
        }
        let path = format!("jobs/{}/ghost-report", segment(slug));
        let answer: Envelope<Recorded> =
            self.call(Method::POST, &path, Some(&ApplyBody { applied_on })).await?;
        Ok(answer.data.applied_on)
    }

    /// `DELETE /jobs/{slug}/ghost-report`: takes the report back.
    pub async fn retract_ghost(&self, slug: &str) -> Result<(), ClientError> {
        let path = format!("jobs/{}/ghost-report", segment(slug));
        self.send(Method::DELETE, &path, None::<&()>).await.map(drop)
    }

    async fn track_call<B: Serialize>(
        &self,
        method: Method,
        slug: &str,
        action: &str,
        body: Option<&B>,
    ) -> Result<Track, ClientError> {
        let path = format!("jobs/{}/{action}", segment(slug));
        let track: Envelope<Track> = self.call(method, &path, body).await?;
        Ok(track.data)
    }

    /// Sends a request under `/api/v1/` and decodes a 2xx JSON answer.
    pub(crate) async fn call<T: DeserializeOwned, B: Serialize>(
        &self,
        method: Method,
        path: &str,
        body: Option<&B>,
    ) -> Result<T, ClientError> {
        let (url, bytes) = self.send(method, path, body).await?;
        serde_json::from_slice(&bytes).map_err(|e| ClientError::Unexpected {
            url,
            reason: format!("not the expected JSON: {e}"),
        })
    }

    /// Sends a request under `/api/v1/`; a non-2xx answer is [`ClientError::Refused`] with the
    /// server's error body. Returns the URL and the body's bytes.
    pub(crate) async fn send<B: Serialize>(
        &self,
        method: Method,
        path: &str,
        body: Option<&B>,
    ) -> Result<(String, Vec<u8>), ClientError> {
        let (shown, request) = self.request(method, path, body)?;
        let request = request.timeout(REQUEST_TIMEOUT);
        let unreachable = |source: reqwest::Error| ClientError::Unreachable {
            url: shown.clone(),
            source: source.without_url(),
        };
        let response = request.send().await.map_err(unreachable)?;
        let status = response.status();
        let bytes = response.bytes().await.map_err(unreachable)?.to_vec();
        if status.is_success() {
            return Ok((shown, bytes));
        }
        Err(refusal(status, &bytes))
    }
}

impl Client {
    /// A request under `/api/v1/` with the key and the JSON body, and its URL as shown in
    /// errors.
    pub(crate) fn request<B: Serialize>(
        &self,
        method: Method,
        path: &str,
        body: Option<&B>,
    ) -> Result<(String, reqwest::RequestBuilder), ClientError> {
        let url = self.base.join(&format!("api/v1/{path}")).map_err(|_| ClientError::BadUrl {
            url: self.base.to_string(),
            reason: "cannot join the route to it",
        })?;
        let shown = url.to_string();
        let mut request = self.http.request(method, url);
        if let Some(key) = &self.key {
            request = request.bearer_auth(key.expose_secret());
        }
        if let Some(body) = body {
            request = request.json(body);
        }
        Ok((shown, request))
    }
}

/// The API's `{error, code, param}` body as a [`ClientError::Refused`] (a 402's `allowance`
/// kept).
pub(crate) fn refusal(status: StatusCode, bytes: &[u8]) -> ClientError {
    #[derive(serde::Deserialize)]
    struct Body {
        error: String,
        code: Option<String>,
        param: Option<String>,
        allowance: Option<crate::wire::Allowance>,
    }
    match serde_json::from_slice::<Body>(bytes) {
        Ok(body) => ClientError::Refused {
            status: status.as_u16(),
            code: body.code,
            message: body.error,
            param: body.param,
            allowance: body.allowance.map(Box::new),
        },
        Err(_) => ClientError::Refused {
            status: status.as_u16(),
            code: None,
            message: status.canonical_reason().unwrap_or("request refused").to_owned(),
            param: None,
            allowance: None,
        },
    }
}

/// A path segment with everything but unreserved characters percent-encoded.
pub(crate) fn segment(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for b in raw.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_urls_are_checked_and_joined() {
        let key = || SecretString::from("fhk_x".to_owned());
        assert!(Client::new("ftp://x", key()).is_err());
        assert!(Client::new("not a url", key()).is_err());
        assert!(Client::new("http://x/?a=1", key()).is_err());
        let c = Client::new("https://example.com/freehire", key()).unwrap();
        assert_eq!(
            c.base.join("api/v1/me").unwrap().as_str(),
            "https://example.com/freehire/api/v1/me"
        );
        assert!(!format!("{c:?}").contains("fhk_x"));
    }

    #[test]
    fn slugs_are_one_segment() {
        assert_eq!(segment("rust-dev-abc123"), "rust-dev-abc123");
        assert_eq!(segment("../x y"), "..%2Fx%20y");
    }

    #[test]
    fn refusals_carry_the_servers_words() {
        let e = refusal(
            StatusCode::BAD_REQUEST,
            br#"{"error":"invalid stage \"x\"","code":"invalid_parameter","param":"stage"}"#,
        );
        assert_eq!(e.to_string(), r#"invalid stage "x" (400, invalid_parameter, field stage)"#);
        assert_eq!(refusal(StatusCode::BAD_GATEWAY, b"<html>").to_string(), "Bad Gateway (502)");
    }
}
