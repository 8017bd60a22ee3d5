//! [`OpenAiServer`]: a local server speaking the OpenAI chat-completions protocol, scripted per
//! test, for tests that run real assistant turns over HTTP (the API's end-to-end test, the
//! terminal client's and the web page's tests).
//!
//! It listens on `127.0.0.1:0` (axum) and answers every `POST …/chat/completions` with the
//! next [`ModelReply`] of its script, in the form the request asked for: a `"stream": true`
//! request gets SSE chunks (`data: {chunk}` … `data: [DONE]`, text split into several deltas,
//! tool-call arguments into several fragments), any other request one JSON body. It records
//! every request (path, headers, JSON body and its raw bytes) so a test can assert what the
//! model was sent: the tools offered, the system prompt, the spend-tag headers. When the
//! script runs out it answers 500 with an OpenAI error body, unless it was told how to answer
//! every further request ([`OpenAiServer::repeating`], [`OpenAiServer::answering`],
//! [`OpenAiServer::repeat`]): then it never runs out, which is what a load test or a bench
//! needs. [`ModelReply::Paced`] streams text token by token at a fixed pace (a model of known
//! speed); [`OpenAiServer::record`] turns recording off and [`OpenAiServer::take_requests`]
//! drains it, so a long run does not grow the server's memory.
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
    /// Text streamed as these tokens, one content delta each, the first `every` after the
    /// opening chunk and each next one `every` after the previous (a model of known speed); a
    /// non-streamed request gets their concatenation at once. The usage counts one completion
    /// token per token.
    Paced {
        /// The deltas, in order; the text is their concatenation.
        tokens: Vec<String>,
        /// The pause before each token.
        every: Duration,
    },
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

    /// `tokens` streamed `every` apart ([`ModelReply::Paced`]).
    pub fn paced(tokens: impl IntoIterator<Item = impl Into<String>>, every: Duration) -> Self {
        Self::Paced { tokens: tokens.into_iter().map(Into::into).collect(), every }
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
    /// The body's bytes as they arrived (e.g. to compare successive requests byte for byte, as
    /// a provider's prompt cache does).
    pub raw: Bytes,
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

/// How every request is answered once the script has run out.
type Answer = Arc<dyn Fn(&ModelRequest) -> ModelReply + Send + Sync>;

struct Script {
    replies: VecDeque<ModelReply>,
    /// Answers every request after the script, when set; else such a request is a 500.
    then: Option<Answer>,
    requests: Vec<ModelRequest>,
    record: bool,
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
        f.debug_struct("Script")
            .field("left", &self.replies.len())
            .field("repeating", &self.then.is_some())
            .field("recorded", &self.requests.len())
            .field("record", &self.record)
            .finish()
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
            then: None,
            requests: Vec::new(),
            record: true,
        }));
        let app = axum::Router::new().fallback({
            let script = script.clone();
            move |uri: Uri, headers: HeaderMap, body: Bytes| {
                answer(script.clone(), uri, headers, body)
            }
        });
        let (addr, stop) = super::serve_locally(app, "the OpenAI test server").await;
        Self { addr, script, stop }
    }

    /// Starts a server answering every request with `reply`, forever.
    pub async fn repeating(reply: ModelReply) -> Self {
        let server = Self::start([]).await;
        server.repeat(reply);
        server
    }

    /// Starts a server answering every request with what `answer` makes of it, forever.
    pub async fn answering(
        answer: impl Fn(&ModelRequest) -> ModelReply + Send + Sync + 'static,
    ) -> Self {
        let server = Self::start([]).await;
        server.answer_with(answer);
        server
    }

    /// From now on, answers every request the script leaves unanswered with `reply` (the
    /// scripted replies still come first).
    pub fn repeat(&self, reply: ModelReply) {
        self.answer_with(move |_| reply.clone());
    }

    /// From now on, answers every request the script leaves unanswered with what `answer`
    /// makes of it (the scripted replies still come first).
    pub fn answer_with(
        &self,
        answer: impl Fn(&ModelRequest) -> ModelReply + Send + Sync + 'static,
    ) {
        lock(&self.script).then = Some(Arc::new(answer));
    }

    /// Whether requests are recorded from now on (they are when the server starts). A
    /// request is answered the same either way.
    pub fn record(&self, on: bool) {
        lock(&self.script).record = on;
    }

    /// The base URL to configure (`http://127.0.0.1:<port>/v1`).
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// Appends replies to the script.
    pub fn push(&self, replies: impl IntoIterator<Item = ModelReply>) {
        lock(&self.script).replies.extend(replies);
    }

    /// Every request recorded so far, in order.
    pub fn requests(&self) -> Vec<ModelRequest> {
        lock(&self.script).requests.clone()
    }

    /// Every request recorded so far, in order, forgetting them (the next call returns only
    /// what arrived after this one).
    pub fn take_requests(&self) -> Vec<ModelRequest> {
        std::mem::take(&mut lock(&self.script).requests)
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
        raw: body,
    };
    let streamed = request.streamed();
    let model = request.body["model"].as_str().unwrap_or("scripted").to_owned();
    let reply = {
        let mut s = lock(&script);
        let reply = s.replies.pop_front();
        // The answer is made outside the lock: it is the caller's code.
        let then = if reply.is_none() { s.then.clone() } else { None };
        if s.record {
            s.requests.push(request.clone());
        }
        drop(s);
        reply.or_else(|| then.map(|answer| answer(&request)))
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

/// The usage of an answer of `completion` tokens.
fn usage(completion: usize) -> Value {
    json!({"prompt_tokens": 12, "completion_tokens": completion, "total_tokens": 12 + completion})
}

/// The completion tokens an answer reports.
fn completion_tokens(reply: &ModelReply) -> usize {
    match reply {
        ModelReply::Paced { tokens, .. } => tokens.len(),
        _ => 5,
    }
}

fn plain(model: &str, reply: &ModelReply) -> Response {
    let (message, finish) = match reply {
        ModelReply::Text(text) => (json!({"role": "assistant", "content": text}), "stop"),
        ModelReply::Paced { tokens, .. } => {
            (json!({"role": "assistant", "content": tokens.concat()}), "stop")
        }
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
        "usage": usage(completion_tokens(reply)),
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

/// The pause before each chunk of an answer that does not set its own pace.
const CHUNK_PAUSE: Duration = Duration::from_millis(2);

fn stream(model: &str, reply: &ModelReply) -> Response {
    // Each event with the pause before it.
    let mut events: Vec<(Duration, Value)> =
        vec![(CHUNK_PAUSE, chunk(model, json!({"role": "assistant", "content": ""}), None))];
    let finish = match reply {
        ModelReply::Text(text) => {
            for piece in pieces(text) {
                events.push((CHUNK_PAUSE, chunk(model, json!({"content": piece}), None)));
            }
            "stop"
        }
        ModelReply::Paced { tokens, every } => {
            events[0].0 = Duration::ZERO;
            for token in tokens {
                events.push((*every, chunk(model, json!({"content": token}), None)));
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
                    events.push((CHUNK_PAUSE, chunk(model, json!({"tool_calls": [call]}), None)));
                }
            }
            "tool_calls"
        }
        _ => {
            events.clear();
            "stop"
        }
    };
    let paced = matches!(reply, ModelReply::Paced { .. });
    let tail = if paced { Duration::ZERO } else { CHUNK_PAUSE };
    let mut events: Vec<(Duration, String)> =
        events.into_iter().map(|(pause, c)| (pause, format!("data: {c}\n\n"))).collect();
    if !matches!(reply, ModelReply::EmptyStream) {
        let mut last = chunk(model, json!({}), Some(finish));
        last["usage"] = usage(completion_tokens(reply));
        events.push((tail, format!("data: {last}\n\n")));
    }
    events.push((tail, "data: [DONE]\n\n".to_owned()));
    let body = futures::stream::unfold(events.into_iter(), |mut events| async move {
        let (pause, next) = events.next()?;
        if !pause.is_zero() {
            tokio::time::sleep(pause).await;
        }
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

    /// Every text delta the sink got, with when it came.
    struct Deltas(Mutex<Vec<(std::time::Instant, String)>>);

    impl freehire_llm::StreamSink for Deltas {
        fn on_text(&self, delta: &str) {
            self.0.lock().unwrap().push((std::time::Instant::now(), delta.to_owned()));
        }
        fn on_thinking(&self, _: &str) {}
    }

    #[tokio::test]
    async fn a_repeated_paced_reply_streams_token_by_token_and_never_runs_out() {
        let every = Duration::from_millis(150);
        let server =
            OpenAiServer::repeating(ModelReply::paced(["one ", "two ", "three"], every)).await;
        let model = client(&server);
        let msgs = [Message::User("hi".into())];
        for _ in 0..2 {
            let sink = Deltas(Mutex::new(Vec::new()));
            let sent = std::time::Instant::now();
            let answer = model.chat(ChatRequest::new(&msgs, &[]).streaming(&sink)).await.unwrap();
            assert_eq!(answer.content, "one two three");
            assert_eq!(answer.usage.map(|u| u.output_tokens), Some(3), "one token per delta");
            let deltas = sink.0.into_inner().unwrap();
            let texts: Vec<&str> = deltas.iter().map(|(_, d)| d.as_str()).collect();
            assert_eq!(texts, ["one ", "two ", "three"], "one delta per token");
            for (n, (at, _)) in deltas.iter().enumerate() {
                let due = every * u32::try_from(n + 1).unwrap();
                assert!(at.duration_since(sent) >= due, "token {n} came before its pace");
            }
        }
        // Not streamed: the whole text at once, without the pace.
        let sent = std::time::Instant::now();
        let plain = model.chat(ChatRequest::new(&msgs, &[])).await.unwrap();
        assert_eq!(plain.content, "one two three");
        assert!(sent.elapsed() < every * 3, "a plain answer waits for no pace");
        assert_eq!(server.requests().len(), 3);
        assert_eq!(server.left(), 0, "a repeating server has no script to use up");
    }

    #[tokio::test]
    async fn the_script_comes_first_then_the_closure_answers_each_request() {
        let server = OpenAiServer::start([ModelReply::text("scripted")]).await;
        server.answer_with(|request| {
            let last = request.body["messages"].as_array().and_then(|m| m.last()).cloned();
            let said = last.and_then(|m| m["content"].as_str().map(str::to_owned));
            ModelReply::text(format!("you said {}", said.unwrap_or_default()))
        });
        let model = client(&server);
        let mut answers = Vec::new();
        for text in ["a", "b", "c"] {
            let msgs = [Message::User(text.into())];
            answers.push(model.chat(ChatRequest::new(&msgs, &[])).await.unwrap().content);
        }
        assert_eq!(answers, ["scripted", "you said b", "you said c"]);
        server.repeat(ModelReply::text("fixed"));
        let msgs = [Message::User("d".into())];
        assert_eq!(model.chat(ChatRequest::new(&msgs, &[])).await.unwrap().content, "fixed");
        let echo = OpenAiServer::answering(|r| ModelReply::text(r.path.clone())).await;
        let answer = client(&echo).chat(ChatRequest::new(&msgs, &[])).await.unwrap();
        assert!(answer.content.ends_with("/chat/completions"), "{}", answer.content);
    }

    #[tokio::test]
    async fn raw_bodies_are_recorded_until_recording_stops_and_taking_them_clears_them() {
        let server = OpenAiServer::repeating(ModelReply::text("ok")).await;
        let model = client(&server);
        let ask = |text: &str| {
            let msgs = [Message::User(text.into())];
            let model = &model;
            async move { model.chat(ChatRequest::new(&msgs, &[])).await.unwrap() }
        };
        ask("first").await;
        ask("second").await;
        let taken = server.take_requests();
        assert_eq!(taken.len(), 2);
        for request in &taken {
            let parsed: Value = serde_json::from_slice(&request.raw).unwrap();
            assert_eq!(parsed, request.body, "the raw bytes are the body that was parsed");
        }
        assert!(String::from_utf8_lossy(&taken[1].raw).contains("second"));
        assert!(server.requests().is_empty(), "taking the requests forgets them");
        server.record(false);
        assert_eq!(ask("unrecorded").await.content, "ok", "answered the same when not recorded");
        assert!(server.take_requests().is_empty());
        server.record(true);
        ask("third").await;
        let recorded = server.requests();
        assert_eq!(recorded.len(), 1);
        assert!(String::from_utf8_lossy(&recorded[0].raw).contains("third"));
    }
}
