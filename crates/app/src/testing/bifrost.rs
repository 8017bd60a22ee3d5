//! [`BifrostServer`]: a local fake of the Bifrost governance HTTP API (the per-user key
//! gateway of reference §14.2) for tests of the key adapter in process and of a server process
//! whose account deletion blocks a user's key.
//!
//! It listens on `127.0.0.1:0` (axum), records every request (method, path, query, the
//! `Authorization` header, all headers, the JSON body) and answers:
//!
//! - `GET /api/governance/virtual-keys/tmpl`: the template key with four provider
//!   configurations whose `key_ids` are missing, null, empty and set;
//! - `POST /api/governance/virtual-keys`: a new key `vk-<n>` with the secret `sk-bf-<n>`
//!   (`n` counts mints from 1), live from then on;
//! - `PUT` (block) and `DELETE` on `…/virtual-keys/{id}`: `ok` for a live key (a delete ends
//!   it), 404 for any other;
//! - `GET /api/logs/stats`: `total_requests` 7, or 2 with `status=error`;
//! - `POST /v1/chat/completions`: a plain answer `hello from <bearer>`, or 401 for a secret
//!   [`BifrostServer::refuse`] named.
//!
//! It checks no credentials; [`BifrostServer::variables`] are the `LLM_ADMIN_*` variables that
//! point a server at it (admin `admin`, password `hunter2`, template `tmpl`).

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};

use axum::{
    Json, Router,
    body::Bytes,
    extract::{Path, RawQuery, State},
    http::{HeaderMap, Method, StatusCode},
    response::{IntoResponse, Response},
    routing::{get, post},
};
use futures::future::BoxFuture;
use serde_json::{Value, json};
use tokio::sync::Barrier;
use tokio_util::sync::CancellationToken;

/// The admin user of [`BifrostServer::variables`].
pub const ADMIN_USERNAME: &str = "admin";
/// The admin password of [`BifrostServer::variables`].
pub const ADMIN_PASSWORD: &str = "hunter2";
/// The template key of [`BifrostServer::variables`].
pub const TEMPLATE_KEY: &str = "tmpl";

/// One request the fake received.
#[derive(Debug, Clone)]
pub struct GatewayRequest {
    /// The method.
    pub method: Method,
    /// The path.
    pub path: String,
    /// The raw query ("" without one).
    pub query: String,
    /// The `Authorization` header ("" without one).
    pub authorization: String,
    /// Every header.
    pub headers: HeaderMap,
    /// The JSON body (`Null` when it was not JSON).
    pub body: Value,
}

/// What the fake runs before answering a block of the key it is given.
pub type BlockHook = Arc<dyn Fn(String) -> BoxFuture<'static, ()> + Send + Sync>;

#[derive(Default)]
struct Gateway {
    seen: Mutex<Vec<GatewayRequest>>,
    minted: Mutex<u32>,
    /// Keys that exist (minted and not deleted).
    live: Mutex<HashSet<String>>,
    /// Secrets the inference endpoint refuses with 401.
    refused: Mutex<HashSet<String>>,
    /// When set, every mint waits here (to make resolvers race).
    mint_barrier: Mutex<Option<Arc<Barrier>>>,
    /// When set, run before a block is answered.
    on_block: Mutex<Option<BlockHook>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The running fake; it stops when dropped.
pub struct BifrostServer {
    origin: String,
    state: Arc<Gateway>,
    stop: CancellationToken,
}

impl std::fmt::Debug for BifrostServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BifrostServer").field("origin", &self.origin).finish_non_exhaustive()
    }
}

impl Drop for BifrostServer {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

impl BifrostServer {
    /// Starts the fake.
    pub async fn start() -> Self {
        let state = Arc::new(Gateway::default());
        let app = Router::new()
            .route("/api/governance/virtual-keys", post(mint))
            .route("/api/governance/virtual-keys/{id}", get(key).put(key).delete(key))
            .route("/api/logs/stats", get(stats))
            .route("/v1/chat/completions", post(completions))
            .with_state(Arc::clone(&state));
        let (addr, stop) = super::serve_locally(app, "the Bifrost test server").await;
        Self { origin: format!("http://{addr}"), state, stop }
    }

    /// `http://127.0.0.1:<port>` (`LLM_ADMIN_URL`; the inference API is under `/v1`).
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// The four `LLM_ADMIN_*` variables that point a server at the fake.
    pub fn variables(&self) -> [(&'static str, String); 4] {
        [
            ("LLM_ADMIN_URL", self.origin.clone()),
            ("LLM_ADMIN_USERNAME", ADMIN_USERNAME.to_owned()),
            ("LLM_ADMIN_PASSWORD", ADMIN_PASSWORD.to_owned()),
            ("LLM_ADMIN_TEMPLATE_KEY", TEMPLATE_KEY.to_owned()),
        ]
    }

    /// [`BifrostServer::variables`] as a variable lookup.
    pub fn lookup(&self) -> impl Fn(&str) -> Option<String> + use<> {
        let vars = self.variables();
        move |name| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| v.clone())
    }

    /// Every request received so far, in order.
    pub fn seen(&self) -> Vec<GatewayRequest> {
        lock(&self.state.seen).clone()
    }

    /// The requests of `method` whose path starts with `path_prefix`.
    pub fn calls(&self, method: &Method, path_prefix: &str) -> Vec<GatewayRequest> {
        self.seen()
            .into_iter()
            .filter(|s| s.method == *method && s.path.starts_with(path_prefix))
            .collect()
    }

    /// Whether the key `id` exists (minted and not deleted).
    pub fn is_live(&self, id: &str) -> bool {
        lock(&self.state.live).contains(id)
    }

    /// Makes the inference endpoint refuse `secret` with 401 from now on.
    pub fn refuse(&self, secret: &str) {
        lock(&self.state.refused).insert(secret.to_owned());
    }

    /// Makes every mint wait until `parties` mints are under way (to make resolvers race).
    pub fn race_mints(&self, parties: usize) {
        *lock(&self.state.mint_barrier) = Some(Arc::new(Barrier::new(parties)));
    }

    /// Runs `hook` with the key's id before answering each block of a live key.
    pub fn on_block(&self, hook: BlockHook) {
        *lock(&self.state.on_block) = Some(hook);
    }
}

fn record(
    state: &Gateway,
    method: Method,
    path: String,
    query: Option<String>,
    headers: &HeaderMap,
    body: &Bytes,
) {
    let authorization =
        headers.get("authorization").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    let body = serde_json::from_slice(body).unwrap_or(Value::Null);
    lock(&state.seen).push(GatewayRequest {
        method,
        path,
        query: query.unwrap_or_default(),
        authorization,
        headers: headers.clone(),
        body,
    });
}

async fn key(
    State(state): State<Arc<Gateway>>,
    method: Method,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    record(
        &state,
        method.clone(),
        format!("/api/governance/virtual-keys/{id}"),
        query,
        &headers,
        &body,
    );
    if method == Method::GET && id == TEMPLATE_KEY {
        return Json(json!({ "virtual_key": {
            "id": TEMPLATE_KEY,
            "provider_configs": [
                { "provider": "openai", "weight": 1, "key_ids": null },
                { "provider": "anthropic", "key_ids": [] },
                { "provider": "local" },
                { "provider": "azure", "key_ids": ["k-azure"] },
            ],
        }}))
        .into_response();
    }
    if !lock(&state.live).contains(&id) {
        return (StatusCode::NOT_FOUND, Json(json!({ "error": "virtual key not found" })))
            .into_response();
    }
    if method == Method::PUT {
        let hook = lock(&state.on_block).clone();
        if let Some(hook) = hook {
            hook(id.clone()).await;
        }
    }
    if method == Method::DELETE {
        lock(&state.live).remove(&id);
    }
    Json(json!({ "message": "ok" })).into_response()
}

async fn mint(
    State(state): State<Arc<Gateway>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    record(&state, Method::POST, "/api/governance/virtual-keys".into(), query, &headers, &body);
    let barrier = lock(&state.mint_barrier).clone();
    if let Some(barrier) = barrier {
        barrier.wait().await;
    }
    let n = {
        let mut minted = lock(&state.minted);
        *minted += 1;
        *minted
    };
    lock(&state.live).insert(format!("vk-{n}"));
    Json(json!({ "message": "created", "virtual_key": { "id": format!("vk-{n}"), "value": format!("sk-bf-{n}"), "is_active": true } }))
        .into_response()
}

async fn stats(
    State(state): State<Arc<Gateway>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let errors_only = query.as_deref().unwrap_or_default().contains("status=error");
    record(&state, Method::GET, "/api/logs/stats".into(), query, &headers, &body);
    let total = if errors_only { 2 } else { 7 };
    Json(json!({ "total_requests": total, "success_rate": 0.7 })).into_response()
}

async fn completions(
    State(state): State<Arc<Gateway>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    record(&state, Method::POST, "/v1/chat/completions".into(), query, &headers, &body);
    let bearer = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default()
        .to_owned();
    if lock(&state.refused).contains(&bearer) {
        return (
            StatusCode::UNAUTHORIZED,
            Json(json!({ "error": { "message": "virtual key is blocked" } })),
        )
            .into_response();
    }
    Json(json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [{ "index": 0, "message": { "role": "assistant", "content": format!("hello from {bearer}") }, "finish_reason": "stop" }],
    }))
    .into_response()
}
