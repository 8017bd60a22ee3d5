//! The OpenAI client against the local server: request bodies, streaming and plain answers,
//! the empty-stream fallback, and every typed failure.

use std::sync::Mutex;
use std::time::Duration;

use freehire_llm::{
    ChatModel, ChatRequest, LlmError, Message, OpenAiClient, OpenAiConfig, StreamSink, ToolCall,
    ToolSpec, Usage,
};
use serde_json::json;

use crate::server::{Reply, event, serve};

#[derive(Default)]
struct Collect {
    text: Mutex<Vec<String>>,
    thinking: Mutex<Vec<String>>,
}

impl StreamSink for Collect {
    fn on_text(&self, delta: &str) {
        self.text.lock().unwrap().push(delta.to_owned());
    }
    fn on_thinking(&self, delta: &str) {
        self.thinking.lock().unwrap().push(delta.to_owned());
    }
}

fn client(url: &str) -> OpenAiClient {
    let mut config = OpenAiConfig::new(url, "smol");
    config.api_key = Some("service-key".into());
    OpenAiClient::new(config).unwrap()
}

fn conversation() -> Vec<Message> {
    vec![
        Message::System("be brief".into()),
        Message::User("hi".into()),
        Message::Assistant {
            text: String::new(),
            tool_calls: vec![ToolCall::new("c1", "echo", "{\"text\":\"x\"}")],
        },
        Message::Tool {
            call_id: "c1".into(),
            name: "echo".into(),
            content: "{\"echoed\":\"x\"}".into(),
        },
    ]
}

fn tools() -> Vec<ToolSpec> {
    vec![ToolSpec {
        name: "echo".into(),
        description: "Echoes.".into(),
        parameters: json!({"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}),
    }]
}

/// The error a streamed call to a server answering with `pieces` (uncut) fails with.
async fn streamed_error(pieces: Vec<String>) -> LlmError {
    let server = serve(vec![Reply::Sse { pieces, cut: false }]).await;
    let msgs = vec![Message::User("hi".into())];
    client(&server.url)
        .chat(ChatRequest::new(&msgs, &[]).streaming(&Collect::default()))
        .await
        .unwrap_err()
}

/// A streamed call saying "hi" with the echo tool offered: the answer and what the sink got.
async fn streamed_with_tools(url: &str) -> (freehire_llm::Choice, Collect) {
    let msgs = vec![Message::User("hi".into())];
    let tools = tools();
    let sink = Collect::default();
    let choice = client(url).chat(ChatRequest::new(&msgs, &tools).streaming(&sink)).await.unwrap();
    (choice, sink)
}

fn chunk(delta: serde_json::Value) -> serde_json::Value {
    json!({"choices":[{"index":0,"delta":delta,"finish_reason":null}]})
}

#[tokio::test]
async fn a_plain_call_sends_the_protocol_and_parses_the_answer() {
    let server = serve(vec![Reply::json(json!({
        "choices":[{"message":{"role":"assistant","content":"Hello!"},"finish_reason":"stop"}],
        "usage":{"prompt_tokens":12,"completion_tokens":3}
    }))])
    .await;
    let c = client(&server.url).with_header("x-bf-dim-feature", "assistant").unwrap();
    let msgs = conversation();
    let tools = tools();
    let headers = vec![("x-bf-dim-preset".to_owned(), "chat".to_owned())];
    let choice = c.chat(ChatRequest::new(&msgs, &tools).with_headers(&headers)).await.unwrap();
    assert_eq!(choice.content, "Hello!");
    assert_eq!(choice.usage, Some(Usage { input_tokens: 12, output_tokens: 3 }));
    assert!(choice.tool_calls.is_empty());

    let req = &server.requests()[0];
    assert_eq!(req.path, "/v1/chat/completions");
    assert_eq!(req.headers["authorization"], "Bearer service-key");
    assert_eq!(req.headers["x-bf-dim-feature"], "assistant");
    assert_eq!(req.headers["x-bf-dim-preset"], "chat");
    assert_eq!(req.body["model"], "smol");
    assert_eq!(req.body["stream"], false);
    assert!(req.body.get("tool_choice").is_none());
    assert_eq!(req.body["tools"][0]["type"], "function");
    assert_eq!(req.body["tools"][0]["function"]["name"], "echo");
    let m = &req.body["messages"];
    assert_eq!(m[0], json!({"role":"system","content":"be brief"}));
    assert_eq!(m[2]["role"], "assistant");
    assert_eq!(m[2]["content"], "", "assistant content is never null");
    assert_eq!(m[2]["tool_calls"][0]["function"]["arguments"], "{\"text\":\"x\"}");
    assert_eq!(m[3], json!({"role":"tool","tool_call_id":"c1","content":"{\"echoed\":\"x\"}"}));
}

#[tokio::test]
async fn a_streamed_answer_forwards_deltas_and_reports_usage() {
    let server = serve(vec![Reply::sse(&[
        chunk(json!({"role":"assistant","reasoning_content":"thinking…"})),
        chunk(json!({"content":"Hel"})),
        chunk(json!({"content":"lo"})),
        json!({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}),
        json!({"choices":[],"usage":{"prompt_tokens":30,"completion_tokens":2}}),
    ])])
    .await;
    let sink = Collect::default();
    let msgs = vec![Message::User("hi".into())];
    let choice =
        client(&server.url).chat(ChatRequest::new(&msgs, &[]).streaming(&sink)).await.unwrap();
    assert_eq!(choice.content, "Hello");
    assert_eq!(choice.reasoning, "thinking…");
    assert_eq!(choice.finish_reason.as_deref(), Some("stop"));
    assert_eq!(choice.usage, Some(Usage { input_tokens: 30, output_tokens: 2 }));
    assert_eq!(*sink.text.lock().unwrap(), ["Hel", "lo"]);
    assert_eq!(*sink.thinking.lock().unwrap(), ["thinking…"]);
    let req = &server.requests()[0];
    assert_eq!(req.body["stream"], true);
    assert_eq!(req.body["stream_options"]["include_usage"], true);
    assert!(req.body.get("tools").is_none(), "no tools key when none are offered");
}

#[tokio::test]
async fn tool_call_fragments_split_across_chunks_are_assembled_by_index() {
    // Two calls, interleaved; arguments split mid-token; one SSE event split across two
    // network chunks.
    let c1 = chunk(
        json!({"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"search_jobs","arguments":""}}]}),
    );
    let c2 = chunk(json!({"tool_calls":[{"index":0,"function":{"arguments":"{\"que"}}]}));
    let c3 = chunk(
        json!({"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"facets","arguments":"{}"}}]}),
    );
    let c4 = chunk(json!({"tool_calls":[{"index":0,"function":{"arguments":"ry\":\"rust ж\"}"}}]}));
    let c5 = json!({"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]});
    let e4 = event(&c4.to_string());
    let (a, b) = e4.split_at(e4.find("ry").unwrap());
    let pieces = vec![
        event(&c1.to_string()),
        event(&c2.to_string()),
        event(&c3.to_string()),
        a.to_owned(),
        b.to_owned(),
        event(&c5.to_string()),
        event("[DONE]"),
    ];
    let server = serve(vec![Reply::Sse { pieces, cut: false }]).await;
    let sink = Collect::default();
    let msgs = vec![Message::User("find rust jobs".into())];
    let tools = tools();
    let choice =
        client(&server.url).chat(ChatRequest::new(&msgs, &tools).streaming(&sink)).await.unwrap();
    assert_eq!(
        choice.tool_calls,
        vec![
            ToolCall::new("call_a", "search_jobs", "{\"query\":\"rust ж\"}"),
            ToolCall::new("call_b", "facets", "{}"),
        ]
    );
    assert!(sink.text.lock().unwrap().is_empty());
    assert_eq!(choice.usage, None, "no usage reported means None, not zero");
}

#[tokio::test]
async fn a_stream_cut_mid_way_is_an_error() {
    let pieces = vec![event(&chunk(json!({"content":"Hel"})).to_string())];
    let server = serve(vec![Reply::Sse { pieces, cut: true }]).await;
    let sink = Collect::default();
    let msgs = vec![Message::User("hi".into())];
    let err =
        client(&server.url).chat(ChatRequest::new(&msgs, &[]).streaming(&sink)).await.unwrap_err();
    assert!(matches!(err, LlmError::StreamCut { .. }), "{err:?}");
    assert_eq!(*sink.text.lock().unwrap(), ["Hel"]);
}

#[tokio::test]
async fn a_stream_that_ends_without_done_or_finish_is_an_error() {
    let pieces = vec![event(&chunk(json!({"content":"Hel"})).to_string())];
    let err = streamed_error(pieces).await;
    assert!(
        matches!(err, LlmError::StreamCut { ref reason, .. } if reason.contains("no [DONE]")),
        "{err:?}"
    );
}

#[tokio::test]
async fn a_malformed_chunk_is_an_error() {
    let pieces = vec![event("{not json"), event("[DONE]")];
    let err = streamed_error(pieces).await;
    assert!(
        matches!(err, LlmError::Malformed { ref body, .. } if body.contains("{not json")),
        "{err:?}"
    );
}

#[tokio::test]
async fn a_429_is_rate_limiting_with_the_providers_message() {
    let server = serve(vec![Reply::Json {
        status: 429,
        body: json!({"error":{"message":"budget exceeded for key","type":"rate_limit"}})
            .to_string(),
        headers: vec![("Retry-After", "7".into())],
    }])
    .await;
    let msgs = vec![Message::User("hi".into())];
    let err = client(&server.url)
        .chat(ChatRequest::new(&msgs, &[]).streaming(&Collect::default()))
        .await
        .unwrap_err();
    assert_eq!(
        err,
        LlmError::RateLimited {
            message: "budget exceeded for key".into(),
            retry_after: Some(Duration::from_secs(7))
        }
    );
    assert!(err.to_string().contains("429"));
}

#[tokio::test]
async fn a_500_is_a_status_error_with_the_body() {
    let server = serve(vec![Reply::status(500, "upstream exploded")]).await;
    let msgs = vec![Message::User("hi".into())];
    let err = client(&server.url).chat(ChatRequest::new(&msgs, &[])).await.unwrap_err();
    assert_eq!(err, LlmError::Status { status: 500, message: "upstream exploded".into() });
}

#[tokio::test]
async fn an_empty_stream_with_tools_falls_back_to_a_plain_call() {
    let server = serve(vec![
        Reply::Sse { pieces: vec![], cut: false },
        Reply::json(json!({
            "choices":[{"message":{"content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"echo","arguments":"{\"text\":\"hi\"}"}}]},"finish_reason":"tool_calls"}]
        })),
    ])
    .await;
    let (choice, _) = streamed_with_tools(&server.url).await;
    assert_eq!(choice.tool_calls, vec![ToolCall::new("call_1", "echo", "{\"text\":\"hi\"}")]);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 2);
    assert_eq!(reqs[0].body["stream"], true);
    assert_eq!(reqs[1].body["stream"], false);
}

#[tokio::test]
async fn a_json_answer_to_a_stream_request_is_accepted_and_delivered() {
    let server = serve(vec![Reply::json(json!({
        "choices":[{"message":{"content":"whole"},"finish_reason":"stop"}]
    }))])
    .await;
    let msgs = vec![Message::User("hi".into())];
    let sink = Collect::default();
    let choice =
        client(&server.url).chat(ChatRequest::new(&msgs, &[]).streaming(&sink)).await.unwrap();
    assert_eq!(choice.content, "whole");
    assert_eq!(*sink.text.lock().unwrap(), ["whole"]);
}

#[tokio::test]
async fn each_call_has_its_own_deadline() {
    let server = serve(vec![Reply::Stall(Duration::from_secs(5))]).await;
    let c = client(&server.url).with_timeout(Duration::from_millis(150));
    let msgs = vec![Message::User("hi".into())];
    let err = c.chat(ChatRequest::new(&msgs, &[])).await.unwrap_err();
    assert_eq!(err, LlmError::Timeout(Duration::from_millis(150)));
}

#[tokio::test]
async fn a_stream_that_stalls_mid_answer_fails_on_the_idle_deadline() {
    let pieces = vec![event(&chunk(json!({"content":"Hel"})).to_string())];
    let server = serve(vec![Reply::SseThenStall { pieces, stall: Duration::from_secs(10) }]).await;
    let c = client(&server.url).with_idle_timeout(Duration::from_millis(150));
    let msgs = vec![Message::User("hi".into())];
    let sink = Collect::default();
    let started = std::time::Instant::now();
    let err = c.chat(ChatRequest::new(&msgs, &[]).streaming(&sink)).await.unwrap_err();
    assert_eq!(err, LlmError::Idle(Duration::from_millis(150)));
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(*sink.text.lock().unwrap(), ["Hel"]);
}

#[tokio::test]
async fn a_long_stream_that_keeps_flowing_outlives_the_idle_deadline() {
    let mut chunks: Vec<String> =
        (0..12).map(|i| event(&chunk(json!({"content": format!("{i} ")})).to_string())).collect();
    chunks.push(event(
        &json!({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}).to_string(),
    ));
    chunks.push(event("[DONE]"));
    let server =
        serve(vec![Reply::SseSlow { pieces: chunks, gap: Duration::from_millis(40) }]).await;
    let c = client(&server.url).with_idle_timeout(Duration::from_millis(200));
    let msgs = vec![Message::User("count".into())];
    let started = std::time::Instant::now();
    let choice = c.chat(ChatRequest::new(&msgs, &[]).streaming(&Collect::default())).await.unwrap();
    assert!(started.elapsed() > Duration::from_millis(400), "longer than the idle deadline");
    assert!(choice.content.starts_with("0 1 2 ") && choice.content.ends_with("11 "));
}

#[test]
fn the_default_deadlines_are_an_idle_one_and_a_larger_total() {
    let config = OpenAiConfig::new("http://127.0.0.1:1", "m");
    assert_eq!(config.idle_timeout, Duration::from_secs(30));
    assert_eq!(config.timeout, Duration::from_secs(300));
    assert_eq!(freehire_llm::openai::DEFAULT_IDLE_TIMEOUT, Duration::from_secs(30));
    assert_eq!(freehire_llm::openai::DEFAULT_TIMEOUT, Duration::from_secs(300));
}

#[tokio::test]
async fn a_retry_after_http_date_is_read_as_a_delay() {
    let at = std::time::SystemTime::now() + Duration::from_secs(120);
    let server = serve(vec![Reply::Json {
        status: 429,
        body: json!({"error":{"message":"slow down"}}).to_string(),
        headers: vec![("Retry-After", httpdate::fmt_http_date(at))],
    }])
    .await;
    let msgs = vec![Message::User("hi".into())];
    let err = client(&server.url).chat(ChatRequest::new(&msgs, &[])).await.unwrap_err();
    let LlmError::RateLimited { retry_after: Some(delay), .. } = err else { panic!("{err:?}") };
    assert!(delay > Duration::from_secs(100) && delay <= Duration::from_secs(120), "{delay:?}");
}

#[tokio::test]
async fn per_call_headers_replace_client_headers_of_the_same_name() {
    let server = serve(vec![Reply::json(json!({"choices":[{"message":{"content":"ok"}}]}))]).await;
    let c = client(&server.url)
        .with_header("x-bf-dim-feature", "default")
        .unwrap()
        .with_header("x-bf-dim-team", "core")
        .unwrap();
    let headers = vec![
        ("X-Bf-Dim-Feature".to_owned(), "assistant".to_owned()),
        ("authorization".to_owned(), "Bearer per-call".to_owned()),
    ];
    let msgs = vec![Message::User("hi".into())];
    c.chat(ChatRequest::new(&msgs, &[]).with_headers(&headers)).await.unwrap();
    let req = &server.requests()[0];
    assert_eq!(req.values("x-bf-dim-feature"), ["assistant"]);
    assert_eq!(req.values("x-bf-dim-team"), ["core"]);
    assert_eq!(req.values("authorization"), ["Bearer per-call"]);
    assert_eq!(req.values("content-type"), ["application/json"]);
}

#[tokio::test]
async fn tool_call_json_leaked_into_the_text_never_reaches_the_user() {
    let server = serve(vec![
        Reply::sse(&[
            chunk(json!({"content":"{\"name\":\"echo\","})),
            chunk(json!({"content":"\"arguments\":{\"text\":\"hi\"}}"})),
            json!({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}),
        ]),
        Reply::json(json!({"choices":[{"message":{"content":"Looking. <tool_call>{\"name\":\"echo\",\"arguments\":{}}</tool_call>"}}]})),
    ])
    .await;
    let (choice, sink) = streamed_with_tools(&server.url).await;
    assert!(sink.text.lock().unwrap().is_empty(), "{:?}", sink.text.lock().unwrap());
    assert_eq!(choice.content, "");
    assert_eq!(choice.tool_calls, vec![ToolCall::new("call_1", "echo", "{\"text\":\"hi\"}")]);
    assert_eq!(server.requests().len(), 1, "a leaked call is an answer: no fallback");

    let msgs = vec![Message::User("hi".into())];
    let choice = client(&server.url).chat(ChatRequest::new(&msgs, &tools())).await.unwrap();
    assert_eq!(choice.content, "Looking. ");
    assert_eq!(choice.tool_calls, vec![ToolCall::new("call_1", "echo", "{}")]);
}

/// Collects what `tracing` writes while `f` runs (on this thread).
#[derive(Clone, Default)]
struct Logs(std::sync::Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Logs {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn the_empty_stream_fallback_is_logged_as_a_second_billed_call() {
    let server = serve(vec![
        Reply::Sse { pieces: vec![], cut: false },
        Reply::json(json!({"choices":[{"message":{"content":"plain"}}]})),
    ])
    .await;
    let logs = Logs::default();
    let writer = logs.clone();
    let subscriber =
        tracing_subscriber::fmt().with_writer(move || writer.clone()).with_ansi(false).finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let (choice, _) = streamed_with_tools(&server.url).await;
    assert_eq!(choice.content, "plain");
    let text = String::from_utf8(logs.0.lock().unwrap().clone()).unwrap();
    assert!(text.contains("WARN") && text.contains("second billed call"), "{text}");
}

#[tokio::test]
async fn base_urls_with_or_without_v1_reach_the_same_path() {
    assert_eq!(client("http://127.0.0.1:1/").url(), "http://127.0.0.1:1/v1/chat/completions");
    assert_eq!(client("http://127.0.0.1:1/v1").url(), "http://127.0.0.1:1/v1/chat/completions");
    assert!(OpenAiClient::new(OpenAiConfig::new("127.0.0.1:1", "m")).is_err());
    let keyed = client("http://127.0.0.1:1").with_api_key("user-key");
    assert!(!format!("{keyed:?}").contains("user-key"), "keys never print");
}

#[tokio::test]
async fn a_per_user_key_replaces_the_service_key() {
    let server = serve(vec![Reply::json(json!({"choices":[{"message":{"content":"ok"}}]}))]).await;
    let msgs = vec![Message::User("hi".into())];
    client(&server.url).with_api_key("user-key").chat(ChatRequest::new(&msgs, &[])).await.unwrap();
    assert_eq!(server.requests()[0].headers["authorization"], "Bearer user-key");
}

#[tokio::test]
async fn a_refused_connection_is_a_transport_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let msgs = vec![Message::User("hi".into())];
    let err = client(&url).chat(ChatRequest::new(&msgs, &[])).await.unwrap_err();
    assert!(matches!(err, LlmError::Transport(_)), "{err:?}");
    let source = std::error::Error::source(&err).expect("the transport error is kept");
    assert!(!err.to_string().contains(&source.to_string()), "the message does not repeat it");
}

#[tokio::test]
async fn a_forced_tool_choice_is_sent_only_when_tools_are_offered() {
    let answer = || Reply::json(json!({"choices":[{"message":{"content":"ok"}}]}));
    let server = serve(vec![answer(), answer()]).await;
    let forced = client(&server.url)
        .with_tool_choice(Some(json!({"type":"function","function":{"name":"echo"}})));
    let msgs = vec![Message::User("hi".into())];
    let tools = tools();
    forced.chat(ChatRequest::new(&msgs, &tools)).await.unwrap();
    forced.chat(ChatRequest::new(&msgs, &[])).await.unwrap();
    let reqs = server.requests();
    assert_eq!(reqs[0].body["tool_choice"]["function"]["name"], "echo");
    assert!(reqs[1].body.get("tool_choice").is_none(), "never without tools");
}

#[tokio::test]
async fn nulls_in_stream_deltas_read_as_missing() {
    // llama-cpp-python sends `"tool_calls": null` and `"content": null` in deltas.
    let server = serve(vec![Reply::sse(&[
        chunk(json!({"role":"assistant","content":null,"function_call":null,"tool_calls":null})),
        chunk(json!({"content":null,"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"echo","arguments":"{\"text\":\"x\"}"}}]})),
        json!({"choices":[{"index":0,"delta":{"content":null,"tool_calls":null},"finish_reason":"tool_calls"}],"usage":null}),
    ])])
    .await;
    let (choice, sink) = streamed_with_tools(&server.url).await;
    assert_eq!(choice.tool_calls, vec![ToolCall::new("call_1", "echo", "{\"text\":\"x\"}")]);
    assert!(sink.text.lock().unwrap().is_empty());
}

#[tokio::test]
async fn a_400_carries_the_providers_message() {
    let body = json!({"error":{"message":"messages[2].content: must be a string"}}).to_string();
    let server = serve(vec![Reply::Json { status: 400, body, headers: Vec::new() }]).await;
    let msgs = vec![Message::User("hi".into())];
    let err = client(&server.url).chat(ChatRequest::new(&msgs, &[])).await.unwrap_err();
    assert_eq!(
        err,
        LlmError::Status { status: 400, message: "messages[2].content: must be a string".into() }
    );
}
