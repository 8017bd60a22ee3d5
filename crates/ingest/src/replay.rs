//! A local server that replays recorded ATS responses, for tests, benches and conformance
//! runs. Point [`crate::http::ClientConfig::replay`] at [`ReplayServer::origin`]: every request
//! arrives with its original path and query and its upstream `scheme://host` in the
//! `X-Upstream-Host` header, which (with method, path, optional query and optional JSON body
//! fields) selects a [`Route`].
//!
//! A route answers with its [`Reply`]s in order, the last one repeating, so "429 then 200" or
//! "page 2 fails" are one route each. Unmatched requests get a 404 (as a platform answers for
//! an unknown board). Binds 127.0.0.1:0 only; stops when dropped.
//!
//! ```
//! use freehire_domain::{BoardKey, Provider};
//! use freehire_ingest::http::{ClientConfig, HttpClient};
//! use freehire_ingest::replay::{ReplayServer, Reply, Route};
//! use freehire_ingest::{BoardTarget, SeenSet, SourceConfig, Sources};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), freehire_ingest::IngestError> {
//! let server = ReplayServer::builder()
//!     .route(
//!         Route::get("https://api.ashbyhq.com", "/posting-api/job-board/acme")
//!             .reply(Reply::status(429))
//!             .reply(Reply::json(r#"{"jobs": [], "apiVersion": "1"}"#)),
//!     )
//!     .start()
//!     .await?;
//! let http = HttpClient::new(ClientConfig::replaying(server.origin()))?;
//! let sources = Sources::new(&http, SourceConfig::default());
//! let ashby = Provider::parse("ashby")?;
//! let board = BoardTarget::new(BoardKey::new(ashby.clone(), "acme", "")?, "Acme");
//! let listing = sources.require(&ashby)?.fetch(&board, &SeenSet::new()).await?;
//! assert!(listing.postings.is_empty()); // the 429 was retried; the board is empty
//! assert_eq!(server.requests()[0].upstream, "https://api.ashbyhq.com");
//! # Ok(())
//! # }
//! ```

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use serde_json::Value;

use crate::IngestError;
use crate::http::{ReplayOrigin, UPSTREAM_HOST_HEADER};

/// One recorded answer.
#[derive(Debug, Clone)]
pub struct Reply {
    status: u16,
    content_type: String,
    body: Bytes,
    location: Option<String>,
    truncate: bool,
    delay: Option<std::time::Duration>,
    set_cookies: Vec<String>,
}

impl Reply {
    /// A 200 with a JSON body.
    pub fn json(body: impl Into<Bytes>) -> Self {
        Self::with(200, "application/json", body)
    }

    /// A 200 with an XML body.
    pub fn xml(body: impl Into<Bytes>) -> Self {
        Self::with(200, "application/xml", body)
    }

    /// A 200 with an HTML body (a block page, when JSON was expected).
    pub fn html(body: impl Into<Bytes>) -> Self {
        Self::with(200, "text/html; charset=utf-8", body)
    }

    /// A bare status with a short text body.
    pub fn status(status: u16) -> Self {
        Self::with(status, "text/plain", format!("status {status}"))
    }

    /// A redirect to `location` (absolute upstream URL or a path).
    pub fn redirect(status: u16, location: &str) -> Self {
        Self { location: Some(location.to_owned()), ..Self::status(status) }
    }

    /// Any status, content type and body.
    pub fn with(status: u16, content_type: &str, body: impl Into<Bytes>) -> Self {
        Self {
            status,
            content_type: content_type.to_owned(),
            body: body.into(),
            location: None,
            truncate: false,
            delay: None,
            set_cookies: Vec::new(),
        }
    }

    /// A recorded file, its content type from the extension (`.json`, `.xml`, `.html`).
    pub fn file(path: impl AsRef<Path>) -> Result<Self, IngestError> {
        let path = path.as_ref();
        let body = std::fs::read(path)
            .map_err(|e| IngestError::config(format!("replay file {}", path.display()), e))?;
        let ct = match path.extension().and_then(|e| e.to_str()) {
            Some("xml") => "application/xml",
            Some("html") => "text/html; charset=utf-8",
            _ => "application/json",
        };
        Ok(Self::with(200, ct, body))
    }

    /// Answers only after `delay` (to observe concurrency).
    pub fn delayed(mut self, delay: std::time::Duration) -> Self {
        self.delay = Some(delay);
        self
    }

    /// Adds a `Set-Cookie: {cookie}` header (a session or CSRF cookie).
    pub fn set_cookie(mut self, cookie: &str) -> Self {
        self.set_cookies.push(cookie.to_owned());
        self
    }

    /// Declares the full length but sends only half the body, then drops the connection.
    pub fn truncated(mut self) -> Self {
        self.truncate = true;
        self
    }
}

/// Which requests a route answers, and with what.
#[derive(Debug)]
pub struct Route {
    method: String,
    upstream: String,
    path: String,
    query: Option<String>,
    body_fields: Vec<(String, Value)>,
    replies: VecDeque<Reply>,
}

impl Route {
    /// GET `upstream` (`https://api.ashbyhq.com`) + `path` (as sent, percent-encoded).
    pub fn get(upstream: &str, path: &str) -> Self {
        Self::new("GET", upstream, path)
    }

    /// POST `upstream` + `path`.
    pub fn post(upstream: &str, path: &str) -> Self {
        Self::new("POST", upstream, path)
    }

    fn new(method: &str, upstream: &str, path: &str) -> Self {
        Self {
            method: method.to_owned(),
            upstream: upstream.trim_end_matches('/').to_owned(),
            path: path.to_owned(),
            query: None,
            body_fields: Vec::new(),
            replies: VecDeque::new(),
        }
    }

    /// Only requests with exactly this query string.
    pub fn query(mut self, query: &str) -> Self {
        self.query = Some(query.to_owned());
        self
    }

    /// Only requests whose JSON body has `value` at `pointer` (`/offset`, `/appliedFacets`).
    pub fn body_field(mut self, pointer: &str, value: Value) -> Self {
        self.body_fields.push((pointer.to_owned(), value));
        self
    }

    /// Appends a reply; replies are served in order and the last one repeats.
    pub fn reply(mut self, reply: Reply) -> Self {
        self.replies.push_back(reply);
        self
    }

    fn matches(&self, req: &Recorded, body: Option<&Value>) -> bool {
        self.method == req.method
            && self.upstream == req.upstream
            && self.path == req.path
            && self.query.as_ref().is_none_or(|q| Some(q) == req.query.as_ref())
            && self
                .body_fields
                .iter()
                .all(|(ptr, want)| body.and_then(|b| b.pointer(ptr)) == Some(want))
    }

    fn next_reply(&mut self) -> Option<Reply> {
        if self.replies.len() > 1 {
            self.replies.pop_front()
        } else {
            self.replies.front().cloned()
        }
    }
}

/// A request the server received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    /// `GET` or `POST`.
    pub method: String,
    /// The `X-Upstream-Host` value.
    pub upstream: String,
    /// The path, as sent.
    pub path: String,
    /// The query, if any.
    pub query: Option<String>,
    /// The body, as text.
    pub body: String,
    /// The `Authorization` header, if sent (a platform's session token).
    pub authorization: Option<String>,
    /// The request's headers (lowercase names), in order.
    pub headers: Vec<(String, String)>,
}

impl Recorded {
    /// The value of the first request header `name` (lowercase).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// The routes in the order they were added, looked up by method, upstream and path (what every
/// route matches exactly), so a server of many routes (a bench's thousands of boards) finds a
/// request's candidates without comparing it with every route. Earlier routes still win.
#[derive(Default)]
struct Routes {
    all: Vec<Route>,
    by_target: HashMap<(String, String, String), Vec<usize>>,
}

impl Routes {
    fn new(routes: Vec<Route>) -> Self {
        let mut table = Self::default();
        for route in routes {
            table.push(route);
        }
        table
    }

    fn push(&mut self, route: Route) {
        let target = (route.method.clone(), route.upstream.clone(), route.path.clone());
        self.by_target.entry(target).or_default().push(self.all.len());
        self.all.push(route);
    }

    /// The first route (in the order added) matching the request.
    fn find(&mut self, req: &Recorded, body: Option<&Value>) -> Option<&mut Route> {
        let target = (req.method.clone(), req.upstream.clone(), req.path.clone());
        let found = self
            .by_target
            .get(&target)?
            .iter()
            .copied()
            .find(|&i| self.all.get(i).is_some_and(|r| r.matches(req, body)))?;
        self.all.get_mut(found)
    }
}

#[derive(Default)]
struct Shared {
    routes: Mutex<Routes>,
    requests: Mutex<Vec<Recorded>>,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
}

/// Collects routes before starting the server.
#[derive(Debug, Default)]
pub struct ReplayBuilder {
    routes: Vec<Route>,
}

impl ReplayBuilder {
    /// Adds a route. Earlier routes win.
    pub fn route(mut self, route: Route) -> Self {
        self.routes.push(route);
        self
    }

    /// Serves every `*.<ext>` file of `dir` as GET `upstream` + `path_prefix` + file stem
    /// (e.g. the recorded Ashby boards under `/posting-api/job-board/`).
    pub fn directory(
        mut self,
        upstream: &str,
        path_prefix: &str,
        dir: impl AsRef<Path>,
        ext: &str,
    ) -> Result<Self, IngestError> {
        let dir = dir.as_ref();
        let entries = std::fs::read_dir(dir)
            .map_err(|e| IngestError::config(format!("replay dir {}", dir.display()), e))?;
        let mut paths: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            if path.extension().and_then(|e| e.to_str()) != Some(ext) {
                continue;
            }
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else { continue };
            let route =
                Route::get(upstream, &format!("{path_prefix}{stem}")).reply(Reply::file(&path)?);
            self.routes.push(route);
        }
        Ok(self)
    }

    /// Binds 127.0.0.1:0 and serves.
    pub async fn start(self) -> Result<ReplayServer, IngestError> {
        let shared =
            Arc::new(Shared { routes: Mutex::new(Routes::new(self.routes)), ..Shared::default() });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| IngestError::config("replay bind", e))?;
        let addr = listener.local_addr().map_err(|e| IngestError::config("replay addr", e))?;
        let app = axum::Router::new().fallback(handle).with_state(shared.clone());
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let serve = axum::serve(listener, app).with_graceful_shutdown(async {
                let _ = rx.await;
            });
            if let Err(e) = serve.await {
                tracing::warn!(error = %e, "replay server stopped");
            }
        });
        let origin = ReplayOrigin::parse(&format!("http://{addr}"))?;
        Ok(ReplayServer { addr, origin, shared, shutdown: Some(tx), task })
    }
}

/// The running replay server. Stops when dropped.
pub struct ReplayServer {
    addr: SocketAddr,
    origin: ReplayOrigin,
    shared: Arc<Shared>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl std::fmt::Debug for ReplayServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReplayServer").field("addr", &self.addr).finish_non_exhaustive()
    }
}

impl ReplayServer {
    /// A builder.
    pub fn builder() -> ReplayBuilder {
        ReplayBuilder::default()
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The origin to configure as the client's replay origin.
    pub fn origin(&self) -> ReplayOrigin {
        self.origin.clone()
    }

    /// Adds a route while running.
    pub fn add_route(&self, route: Route) {
        self.shared.routes.lock().unwrap_or_else(PoisonError::into_inner).push(route);
    }

    /// The most requests that were being answered at once.
    pub fn max_in_flight(&self) -> usize {
        self.shared.max_in_flight.load(Ordering::SeqCst)
    }

    /// The requests received so far.
    pub fn requests(&self) -> Vec<Recorded> {
        self.shared.requests.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }
}

impl Drop for ReplayServer {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        self.task.abort();
    }
}

async fn handle(State(shared): State<Arc<Shared>>, req: Request) -> Response {
    let now = shared.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    shared.max_in_flight.fetch_max(now, Ordering::SeqCst);
    let resp = answer(&shared, req).await;
    shared.in_flight.fetch_sub(1, Ordering::SeqCst);
    resp
}

async fn answer(shared: &Shared, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let upstream = parts
        .headers
        .get(UPSTREAM_HOST_HEADER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .trim_end_matches('/')
        .to_owned();
    let body = axum::body::to_bytes(body, 16 * 1024 * 1024).await.unwrap_or_default();
    let recorded = Recorded {
        method: parts.method.as_str().to_owned(),
        upstream,
        path: parts.uri.path().to_owned(),
        query: parts.uri.query().map(str::to_owned),
        body: String::from_utf8_lossy(&body).into_owned(),
        authorization: parts
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned),
        headers: parts
            .headers
            .iter()
            .map(|(n, v)| {
                (n.as_str().to_owned(), String::from_utf8_lossy(v.as_bytes()).into_owned())
            })
            .collect(),
    };
    let json: Option<Value> = serde_json::from_slice(&body).ok();
    let reply = {
        let mut routes = shared.routes.lock().unwrap_or_else(PoisonError::into_inner);
        routes.find(&recorded, json.as_ref()).and_then(Route::next_reply)
    };
    let reply = reply.unwrap_or_else(|| {
        Reply::with(
            404,
            "text/plain",
            format!(
                "replay: no recording for {} {}{}",
                recorded.method, recorded.upstream, recorded.path
            ),
        )
    });
    shared.requests.lock().unwrap_or_else(PoisonError::into_inner).push(recorded);
    if let Some(delay) = reply.delay {
        tokio::time::sleep(delay).await;
    }
    respond(reply)
}

fn respond(reply: Reply) -> Response {
    let full_len = reply.body.len();
    let body = if reply.truncate {
        let half = reply.body.slice(..full_len / 2);
        let chunks: Vec<Result<Bytes, std::io::Error>> =
            vec![Ok(half), Err(std::io::Error::other("replay: truncated on purpose"))];
        Body::from_stream(futures::stream::iter(chunks))
    } else {
        Body::from(reply.body)
    };
    let mut resp = Response::new(body);
    *resp.status_mut() =
        StatusCode::from_u16(reply.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    if let Ok(ct) = HeaderValue::from_str(&reply.content_type) {
        resp.headers_mut().insert(header::CONTENT_TYPE, ct);
    }
    if reply.truncate {
        resp.headers_mut().insert(header::CONTENT_LENGTH, HeaderValue::from(full_len));
    }
    if let Some(loc) = reply.location.as_deref().and_then(|l| HeaderValue::from_str(l).ok()) {
        resp.headers_mut().insert(header::LOCATION, loc);
    }
    for cookie in &reply.set_cookies {
        if let Ok(v) = HeaderValue::from_str(cookie) {
            resp.headers_mut().append(header::SET_COOKIE, v);
        }
    }
    resp
}

/// The recorded ATS responses (`shared/fixtures/ats`) for tests and benches: the folder named
/// by `FREEHIRE_ATS_FIXTURES`, else the first `shared/fixtures/ats` found walking up from
/// `start` (a crate's `CARGO_MANIFEST_DIR`; the repository's `shared/` sits beside the clone).
pub fn recorded_fixtures(start: &Path) -> Option<std::path::PathBuf> {
    if let Some(dir) = std::env::var_os("FREEHIRE_ATS_FIXTURES") {
        return Some(std::path::PathBuf::from(dir));
    }
    start.ancestors().map(|a| a.join("shared/fixtures/ats")).find(|p| p.is_dir())
}
