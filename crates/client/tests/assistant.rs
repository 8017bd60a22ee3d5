//! The assistant methods against a local HTTP server written here that speaks the API's wire:
//! JSON envelopes and errors, and a turn's `text/event-stream` (`: open`, `event:`/`data:`
//! frames, `: keepalive` comments, one `result`), sent in pieces so the test proves the client
//! yields each event as it arrives.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::{
    Router,
    body::{Body, Bytes},
    extract::{Request, State},
    http::{StatusCode, header},
    response::{IntoResponse, Response},
    routing::{any, post},
};
use freehire_client::{Client, ClientError, wire::TurnEvent};
use secrecy::SecretString;
use tokio::sync::{Notify, mpsc};

#[derive(Clone, Default)]
struct Seen {
    /// "METHOD path?query auth body" per request.
    requests: Arc<Mutex<Vec<String>>>,
    /// Released by the test once it has read the first streamed event.
    go_on: Arc<Notify>,
}

const SESSION: &str = r#"{"id":"6f9619ff-8b86-d011-b42d-00c04fc964ff","preset":"chat","label":"","created_at":"2026-12-01T10:00:00Z","updated_at":"2026-12-01T10:00:00Z"}"#;

async fn record(seen: &Seen, request: Request) -> (String, String) {
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, 1 << 20).await.unwrap();
    let target = parts.uri.path_and_query().map(|p| p.as_str().to_owned()).unwrap_or_default();
    let auth = parts
        .headers
        .get(header::AUTHORIZATION)
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let line = format!("{} {target} {auth} {}", parts.method, String::from_utf8_lossy(&body));
    seen.requests.lock().unwrap().push(line);
    (parts.method.to_string(), target)
}

fn json(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

fn sse(body: Body) -> Response {
    ([(header::CONTENT_TYPE, "text/event-stream"), (header::CACHE_CONTROL, "no-cache")], body)
        .into_response()
}

async fn rest(State(seen): State<Seen>, request: Request) -> Response {
    let (method, target) = record(&seen, request).await;
    match (method.as_str(), target.as_str()) {
        ("POST", t) if t.starts_with("/api/v1/assistant/sessions?") || t == "/api/v1/assistant/sessions" => {
            json(StatusCode::CREATED, format!(r#"{{"data":{SESSION}}}"#))
        }
        ("GET", "/api/v1/assistant/sessions") => {
            json(StatusCode::OK, format!(r#"{{"data":[{SESSION}],"meta":{{"total":1}}}}"#))
        }
        ("GET", "/api/v1/assistant/sessions/6f9619ff-8b86-d011-b42d-00c04fc964ff") => json(
            StatusCode::OK,
            format!(
                r#"{{"data":{{"session":{SESSION},"messages":[{{"seq":1,"role":"user","content":{{"text":"hi"}}}},{{"seq":2,"role":"assistant","content":{{"text":"hello"}}}}]}}}}"#
            ),
        ),
        ("GET", "/api/v1/assistant/sessions/not-a-uuid") => json(
            StatusCode::NOT_FOUND,
            r#"{"error":"session not found","code":"not_found"}"#.to_owned(),
        ),
        ("DELETE", _) | ("POST", _) if target.ends_with("/cancel") || method == "DELETE" => {
            StatusCode::NO_CONTENT.into_response()
        }
        ("GET", "/api/v1/me/usage") => json(
            StatusCode::OK,
            r#"{"data":[{"feature":"assistant","tier":"free","used":3,"limit":10,"unlimited":false,"resets_at":"2026-12-02T00:00:00Z","enforced":false}]}"#.to_owned(),
        ),
        _ => json(StatusCode::NOT_FOUND, r#"{"error":"no such route","code":"not_found"}"#.to_owned()),
    }
}

/// A turn: the open comment and a first text delta, then (once the test has read that delta)
/// a keepalive, a tool call and its result, more text, the result, and an event after the
/// result that the client must not yield.
async fn messages(State(seen): State<Seen>, request: Request) -> Response {
    if !request.uri().path().contains(ID) {
        return refuse(State(seen), request).await;
    }
    record(&seen, request).await;
    let (tx, rx) = mpsc::channel::<Result<Bytes, std::io::Error>>(8);
    tokio::spawn(async move {
        let send = |s: &str| {
            let tx = tx.clone();
            let s = s.to_owned();
            async move { tx.send(Ok(Bytes::from(s))).await.is_ok() }
        };
        send(": open\n\nevent: queued\ndata: {\"type\":\"queued\"}\n\n").await;
        send("event: assistant_text\ndata: {\"type\":\"assistant_text\",\"text\":\"Look").await;
        send("ing\"}\n\n").await;
        seen.go_on.notified().await;
        send(": keepalive\n\n").await;
        send("event: tool_use\ndata: {\"type\":\"tool_use\",\"id\":\"c1\",\"name\":\"search_jobs\",\"input\":{\"query\":\"rust\"}}\n\n").await;
        send("event: tool_result\ndata: {\"type\":\"tool_result\",\"id\":\"c1\",\"name\":\"search_jobs\",\"result\":\"{\\\"total\\\":12}\"}\n\n").await;
        send("event: some_future_event\ndata: {\"type\":\"some_future_event\",\"x\":1}\n\n").await;
        send("event: assistant_text\ndata: {\"type\":\"assistant_text\",\"text\":\"Step limit.\",\"synthetic\":true}\n\n").await;
        send("event: result\ndata: {\"type\":\"result\",\"stop_reason\":\"end_turn\"}\n\n").await;
        send("event: assistant_text\ndata: {\"type\":\"assistant_text\",\"text\":\"late\"}\n\n")
            .await;
    });
    sse(Body::from_stream(tokio_stream(rx)))
}

fn tokio_stream(
    mut rx: mpsc::Receiver<Result<Bytes, std::io::Error>>,
) -> impl futures::Stream<Item = Result<Bytes, std::io::Error>> {
    futures::stream::poll_fn(move |cx| rx.poll_recv(cx))
}

/// A stream cut before its result.
async fn cut(State(seen): State<Seen>, request: Request) -> Response {
    record(&seen, request).await;
    sse(Body::from(
        ": open\n\nevent: assistant_text\ndata: {\"type\":\"assistant_text\",\"text\":\"Hal\"}\n\n",
    ))
}

/// Refusals before any stream: a spent allowance, an unconfigured model, a busy session.
async fn refuse(State(seen): State<Seen>, request: Request) -> Response {
    let (_, target) = record(&seen, request).await;
    if target.contains("/quota/") {
        return json(
            StatusCode::PAYMENT_REQUIRED,
            r#"{"error":"today's assistant allowance is used up","code":"quota_exceeded","allowance":{"feature":"assistant","tier":"free","used":10,"limit":10,"unlimited":false,"resets_at":"2026-12-02T00:00:00Z","enforced":true}}"#.to_owned(),
        );
    }
    if target.contains("/nomodel/") {
        return json(
            StatusCode::SERVICE_UNAVAILABLE,
            r#"{"error":"the assistant is not available: set LLM_BASE_URL, LLM_API_KEY and LLM_MODEL","code":"assistant_unavailable"}"#.to_owned(),
        );
    }
    if target.contains("/plain/") {
        return json(StatusCode::OK, r#"{"data":{}}"#.to_owned());
    }
    json(
        StatusCode::CONFLICT,
        r#"{"error":"nothing to retry — send a message first","code":"nothing_to_retry"}"#
            .to_owned(),
    )
}

async fn server() -> (Client, Seen) {
    let seen = Seen::default();
    let app = Router::new()
        .route("/api/v1/assistant/sessions/{id}/messages", post(messages))
        .route("/api/v1/assistant/sessions/{id}/retry", post(cut))
        .route("/api/v1/assistant/sessions/{id}/opening", post(refuse))
        .fallback(any(rest))
        .with_state(seen.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let client = Client::new(&base, SecretString::from("fhk_test".to_owned())).unwrap();
    (client, seen)
}

const ID: &str = "6f9619ff-8b86-d011-b42d-00c04fc964ff";

#[tokio::test]
async fn a_turn_streams_its_events_as_they_arrive_and_ends_at_its_result() {
    let (client, seen) = server().await;
    let mut turn = client.send_message(ID, "find me rust jobs").await.unwrap();
    assert_eq!(turn.next_event().await.unwrap().unwrap(), TurnEvent::Queued);
    // The first delta arrives while the server still holds the rest of the turn.
    let first = tokio::time::timeout(Duration::from_secs(5), turn.next_event()).await.unwrap();
    assert_eq!(
        first.unwrap().unwrap(),
        TurnEvent::AssistantText { text: "Looking".into(), synthetic: false }
    );
    seen.go_on.notify_one();
    let mut rest = Vec::new();
    while let Some(event) = turn.next_event().await {
        rest.push(event.unwrap());
    }
    assert_eq!(
        rest,
        vec![
            TurnEvent::ToolUse {
                id: "c1".into(),
                name: "search_jobs".into(),
                input: serde_json::json!({"query": "rust"}),
            },
            TurnEvent::ToolResult {
                id: "c1".into(),
                name: "search_jobs".into(),
                result: r#"{"total":12}"#.into(),
                is_error: false,
            },
            TurnEvent::Other,
            TurnEvent::AssistantText { text: "Step limit.".into(), synthetic: true },
            TurnEvent::Result { stop_reason: "end_turn".into(), is_error: false, message: None },
        ]
    );
    let requests = seen.requests.lock().unwrap().clone();
    assert_eq!(
        requests[0],
        format!(
            r#"POST /api/v1/assistant/sessions/{ID}/messages Bearer fhk_test {{"text":"find me rust jobs"}}"#
        )
    );
}

#[tokio::test]
async fn a_stream_cut_before_its_result_is_one_error() {
    let (client, _) = server().await;
    let mut turn = client.retry(ID).await.unwrap();
    assert!(matches!(turn.next_event().await, Some(Ok(TurnEvent::AssistantText { .. }))));
    let err = turn.next_event().await.unwrap().unwrap_err();
    assert!(err.to_string().contains("unexpected answer"), "{err}");
    assert!(format!("{err:?}").contains("before the turn's result"), "{err:?}");
    assert!(turn.next_event().await.is_none());
}

#[tokio::test]
async fn refusals_before_the_stream_carry_the_servers_body() {
    let (client, _) = server().await;
    let err = client.opening(ID).await.unwrap_err();
    assert_eq!(err.status(), Some(409));
    assert!(err.to_string().contains("nothing to retry"), "{err}");

    let quota = client.send_message("quota", "x").await.unwrap_err();
    assert_eq!(quota.status(), Some(402));
    let allowance = quota.allowance().unwrap();
    assert_eq!((allowance.used, allowance.limit, allowance.enforced), (10, 10, true));
    assert_eq!(allowance.resets_at.unwrap().to_rfc3339(), "2026-12-02T00:00:00+00:00");
    assert!(matches!(&quota, ClientError::Refused { code: Some(c), .. } if c == "quota_exceeded"));

    let none = client.send_message("nomodel", "x").await.unwrap_err();
    assert_eq!(none.status(), Some(503));
    assert!(none.to_string().contains("LLM_BASE_URL"), "{none}");
    assert!(none.allowance().is_none());

    let plain = client.send_message("plain", "x").await.unwrap_err();
    assert!(plain.to_string().contains("not an event stream"), "{plain}");
}

#[tokio::test]
async fn sessions_transcripts_cancel_and_usage() {
    let (client, seen) = server().await;
    let created = client.create_session(Some("interview"), Some("rust-dev abc")).await.unwrap();
    assert_eq!(created.id, ID);
    client.create_session(None, None).await.unwrap();
    let (list, total) = client.sessions().await.unwrap();
    assert_eq!((list.len(), total), (1, 1));
    let got = client.session(ID).await.unwrap();
    assert_eq!(got.session.preset, "chat");
    assert_eq!(got.messages[1].content["text"], "hello");
    let err = client.session("not-a-uuid").await.unwrap_err();
    assert_eq!(err.status(), Some(404));
    assert!(err.to_string().contains("session not found"));
    client.cancel(ID).await.unwrap();
    client.delete_session(ID).await.unwrap();
    let usage = client.usage().await.unwrap();
    assert_eq!((usage[0].feature.as_str(), usage[0].used, usage[0].limit), ("assistant", 3, 10));

    let requests = seen.requests.lock().unwrap().clone();
    assert!(
        requests[0]
            .starts_with("POST /api/v1/assistant/sessions?preset=interview&job=rust-dev+abc "),
        "{requests:?}"
    );
    assert!(requests[1].starts_with("POST /api/v1/assistant/sessions Bearer"), "{requests:?}");
    assert!(
        requests
            .iter()
            .any(|r| r.starts_with(&format!("POST /api/v1/assistant/sessions/{ID}/cancel ")))
    );
    assert!(
        requests.iter().any(|r| r.starts_with(&format!("DELETE /api/v1/assistant/sessions/{ID} ")))
    );
}
