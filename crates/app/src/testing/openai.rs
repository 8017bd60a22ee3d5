//! [`OpenAiServer`]: a local server speaking the OpenAI chat-completions protocol, scripted per
//! test, for tests that run real assistant turns over HTTP (the API's end-to-end test, the
//! terminal client's and the web page's tests).
//!
//! It listens on `127.0.0.1:0` (axum) and answers every `POST …/chat/completions` with the
//! next [`ModelReply`] of its script, in the form the request asked for: a `"stream": true`
//! request gets SSE chunks (`data: {chunk}` … `data: [DONE]`, text split into several deltas,
//! tool-call arguments into several fragments), any other request one JSON body. It records
//! every request (path, headers, JSON body) so a test can assert what the model was sent: the
//! tools offered, the system prompt, the spend-tag headers. When the script runs out it
//! answers 500 with an OpenAI error body.
//!
//! Point a client at [`OpenAiServer::base_url`] (`http://127.0.0.1:<port>/v1`), e.g.
//! `LLM_BASE_URL` for a server process or an `OpenAiConfig` in process.

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// One scripted answer of the model.
#[derive(Debug, Clone)]
pub enum ModelReply {
    /// Plain text.
    Text(String),
    /// Tool calls: `(id, name, arguments JSON)`, with optional text before them.
    Calls(Vec<(String, String, String)>),
    /// A streamed answer with no content at all (some servers do this when tools are
    /// offered; the client then asks again without streaming). A non-streamed request gets
    /// an empty message.
    EmptyStream,
    /// An HTTP error with this status and message (a 429 also sends `Retry-After: 1`).
    Status(u16, String),
    /// A body that is not the protocol at all.
    Garbage,
    /// Never answers (until the client gives up).
    Hang,
    /// This reply, after a pause (a slow model).
    After(Duration, Box<ModelReply>),
}

impl ModelReply {
    /// A text answer.
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text(text.into())
    }

    /// `self` after `pause`.
    pub fn after(self, pause: Duration) -> Self {
        Self::After(pause, Box::new(self))
    }

    /// One tool call.
    pub fn call(id: &str, name: &str, arguments: Value) -> Self {
        Self::Calls(vec![(id.to_owned(), name.to_owned(), arguments.to_string())])
    }
}

/// One request the server received.
#[derive(Debug, Clone)]
pub struct ModelRequest {
    /// The request path.
    pub path: String,
    /// The headers, names lowercased.
    pub headers: HashMap<String, String>,
    /// The JSON body (`Null` when it was not JSON).
    pub body: Value,
}

impl ModelRequest {
    /// True when the request asked for a streamed answer.
    pub fn streamed(&self) -> bool {
        self.body["stream"] == Value::Bool(true)
    }

    /// The names of the tools offered.
    pub fn tool_names(&self) -> Vec<String> {
        self.body["tools"]
            .as_array()
            .map(|tools| {
                tools
                    .iter()
                    .filter_map(|t| t["function"]["name"].as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The system prompt (the first message when it is a system message), or "".
    pub fn system(&self) -> String {
        let first = &self.body["messages"][0];
        if first["role"] == "system" {
            first["content"].as_str().unwrap_or_default().to_owned()
        } else {
            String::new()
        }
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(&name.to_ascii_lowercase()).map(String::as_str)
    }
}

#[derive(Default)]
struct Script {
    replies: VecDeque<ModelReply>,
    requests: Vec<ModelRequest>,
}

type Shared = Arc<Mutex<Script>>;

/// The running server; it stops when dropped.
#[derive(Debug)]
pub struct OpenAiServer {
    addr: std::net::SocketAddr,
    script: Shared,
    stop: tokio_util::sync::CancellationToken,
}

impl std::fmt::Debug for Script {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Script").field("left", &self.replies.len()).finish()
    }
}

impl Drop for OpenAiServer {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

fn lock(script: &Shared) -> std::sync::MutexGuard<'_, Script> {
    script.lock().unwrap_or_else(PoisonError::into_inner)
}

impl OpenAiServer {
    /// Starts a server answering with `replies`, in order.
    pub async fn start(replies: impl IntoIterator<Item = ModelReply>) -> Self {
        let script: Shared = Arc::new(Mutex::new(Script {
            replies: replies.into_iter().collect(),
            requests: Vec::new(),
        }));
        let listener =
            tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("the listener's address");
        let stop = tokio_util::sync::CancellationToken::new();
        let app = axum::Router::new().fallback({
            let script = script.clone();
            move |uri: Uri, headers: HeaderMap, body: Bytes| {
                answer(script.clone(), uri, headers, body)
            }
        });
        let until = stop.clone();
        tokio::spawn(async move {
            let served = axum::serve(listener, app)
                .with_graceful_shutdown(async move { until.cancelled().await });
            if let Err(e) = served.await {
                tracing::warn!(error = %e, "the OpenAI test server stopped");
            }
        });
        Self { addr, script, stop }
    }

    /// The base URL to configure (`http://127.0.0.1:<port>/v1`).
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// Appends replies to the script.
    pub fn push(&self, replies: impl IntoIterator<Item = ModelReply>) {
        lock(&self.script).replies.extend(replies);
    }

    /// Every request received so far, in order.
    pub fn requests(&self) -> Vec<ModelRequest> {
        lock(&self.script).requests.clone()
    }

    /// Replies not used yet.
    pub fn left(&self) -> usize {
        lock(&self.script).replies.len()
    }
}

async fn answer(script: Shared, uri: Uri, headers: HeaderMap, body: Bytes) -> Response {
    let request = ModelRequest {
        path: uri.path().to_owned(),
        headers: headers
            .iter()
            .filter_map(|(k, v)| Some((k.as_str().to_owned(), v.to_str().ok()?.to_owned())))
            .collect(),
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
    };
    let streamed = request.streamed();
    let model = request.body["model"].as_str().unwrap_or("scripted").to_owned();
    let reply = {
        let mut s = lock(&script);
        s.requests.push(request);
        s.replies.pop_front()
    };
    let Some(mut reply) = reply else {
        return error(500, "no reply scripted");
    };
    while let ModelReply::After(pause, next) = reply {
        tokio::time::sleep(pause).await;
        reply = *next;
    }
    match reply {
        ModelReply::Status(status, message) => error(status, &message),
        ModelReply::Garbage => {
            (StatusCode::OK, [(header::CONTENT_TYPE, "application/json")], "<html>not json")
                .into_response()
        }
        ModelReply::Hang => {
            std::future::pending::<()>().await;
            error(500, "unreachable")
        }
        reply if streamed => stream(&model, &reply),
        reply => plain(&model, &reply),
    }
}

fn error(status: u16, message: &str) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let body = json!({"error": {"message": message, "type": "scripted", "code": status.as_u16()}});
    let mut response = (status, axum::Json(body)).into_response();
    if status == StatusCode::TOO_MANY_REQUESTS {
        response.headers_mut().insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
    }
    response
}

fn usage() -> Value {
    json!({"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17})
}

fn plain(model: &str, reply: &ModelReply) -> Response {
    let (message, finish) = match reply {
        ModelReply::Text(text) => (json!({"role": "assistant", "content": text}), "stop"),
        ModelReply::Calls(calls) => {
            let calls: Vec<Value> = calls
                .iter()
                .map(|(id, name, args)| {
                    json!({"id": id, "type": "function", "function": {"name": name, "arguments": args}})
                })
                .collect();
            (json!({"role": "assistant", "content": null, "tool_calls": calls}), "tool_calls")
        }
        _ => (json!({"role": "assistant", "content": ""}), "stop"),
    };
    axum::Json(json!({
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": usage(),
    }))
    .into_response()
}

fn chunk(model: &str, delta: Value, finish: Option<&str>) -> Value {
    json!({
        "id": "chatcmpl-test",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    })
}

/// Splits `s` into about three pieces on character boundaries.
fn pieces(s: &str) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    let size = chars.len().div_ceil(3).max(1);
    chars.chunks(size).map(|c| c.iter().collect()).collect()
}

fn stream(model: &str, reply: &ModelReply) -> Response {
    let mut chunks = vec![chunk(model, json!({"role": "assistant", "content": ""}), None)];
    let finish = match reply {
        ModelReply::Text(text) => {
            for piece in pieces(text) {
                chunks.push(chunk(model, json!({"content": piece}), None));
            }
            "stop"
        }
        ModelReply::Calls(calls) => {
            for (index, (id, name, args)) in calls.iter().enumerate() {
                let mut first = true;
                for piece in pieces(args) {
                    let call = if first {
                        json!({"index": index, "id": id, "type": "function", "function": {"name": name, "arguments": piece}})
                    } else {
                        json!({"index": index, "function": {"arguments": piece}})
                    };
                    first = false;
                    chunks.push(chunk(model, json!({"tool_calls": [call]}), None));
                }
            }
            "tool_calls"
        }
        _ => {
            chunks.clear();
            "stop"
        }
    };
    let mut events: Vec<String> = chunks.iter().map(|c| format!("data: {c}\n\n")).collect();
    if !matches!(reply, ModelReply::EmptyStream) {
        let mut last = chunk(model, json!({}), Some(finish));
        last["usage"] = usage();
        events.push(format!("data: {last}\n\n"));
    }
    events.push("data: [DONE]\n\n".to_owned());
    let body = futures::stream::unfold(events.into_iter(), |mut events| async move {
        let next = events.next()?;
        tokio::time::sleep(Duration::from_millis(2)).await;
        Some((Ok::<_, Infallible>(Bytes::from(next)), events))
    });
    Response::builder()
        .header(header::CONTENT_TYPE, "text/event-stream")
        .header(header::CACHE_CONTROL, "no-cache")
        .body(Body::from_stream(body))
        .unwrap_or_else(|_| error(500, "the stream could not be built"))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use freehire_llm::{ChatModel, ChatRequest, Message, NoStream, OpenAiClient, OpenAiConfig};

    use super::*;

    fn client(server: &OpenAiServer) -> OpenAiClient {
        OpenAiClient::new(OpenAiConfig::new(server.base_url(), "test-model")).unwrap()
    }

    struct Collect(Mutex<String>);

    impl freehire_llm::StreamSink for Collect {
        fn on_text(&self, delta: &str) {
            self.0.lock().unwrap().push_str(delta);
        }
        fn on_thinking(&self, _: &str) {}
    }

    #[tokio::test]
    async fn the_client_reads_streamed_and_plain_answers() {
        let server = OpenAiServer::start([
            ModelReply::call("c1", "search_jobs", json!({"query": "rust remote"})),
            ModelReply::text("Here are three jobs."),
            ModelReply::EmptyStream,
            ModelReply::text("plain after an empty stream"),
        ])
        .await;
        let model = client(&server);
        let msgs = [Message::System("sys".into()), Message::User("hi".into())];
        let sink = Collect(Mutex::new(String::new()));
        let calls = model.chat(ChatRequest::new(&msgs, &[]).streaming(&sink)).await.unwrap();
        assert_eq!(calls.tool_calls.len(), 1);
        assert_eq!(calls.tool_calls[0].name, "search_jobs");
        assert_eq!(calls.tool_calls[0].arguments, r#"{"query":"rust remote"}"#);
        let text = model.chat(ChatRequest::new(&msgs, &[]).streaming(&sink)).await.unwrap();
        assert_eq!(text.content, "Here are three jobs.");
        assert_eq!(sink.0.lock().unwrap().as_str(), "Here are three jobs.");
        let fallback = model.chat(ChatRequest::new(&msgs, &[]).streaming(&NoStream)).await.unwrap();
        assert_eq!(fallback.content, "plain after an empty stream");
        let requests = server.requests();
        assert_eq!(requests.len(), 4);
        assert!(requests[0].streamed() && !requests[3].streamed(), "the fallback is not streamed");
        assert_eq!(requests[0].system(), "sys");
        assert!(requests[0].path.ends_with("/chat/completions"), "{}", requests[0].path);
    }

    #[tokio::test]
    async fn errors_and_an_exhausted_script_are_http_errors() {
        let server = OpenAiServer::start([ModelReply::Status(429, "slow down".into())]).await;
        let model = client(&server);
        let msgs = [Message::User("hi".into())];
        let limited = model.chat(ChatRequest::new(&msgs, &[])).await.unwrap_err();
        assert!(
            limited.to_string().contains("429") || limited.to_string().contains("rate"),
            "{limited}"
        );
        let exhausted = model.chat(ChatRequest::new(&msgs, &[])).await.unwrap_err();
        assert!(exhausted.to_string().contains("no reply scripted"), "{exhausted}");
    }
}
