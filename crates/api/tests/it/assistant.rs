//! The assistant over HTTP on both backends (reference §8, §18.5): sessions and their rules,
//! the turn routes' refusals with their exact statuses before any stream, the stream itself
//! (`: open`, `queued`, keepalives, exactly one `result` on every path), metering (402, the
//! third message's 409 leaves the counter exactly as it was, even where it could take a charge
//! of its own, a failed turn is refunded, a retry is not charged again), a reader that disconnects, one that
//! stops reading (disconnected, the turn finishes), cancel, and real turns end to end against a
//! local server speaking the OpenAI chat-completions protocol.

use std::sync::Arc;
use std::time::Duration;

use freehire_api::ServerLimits;
use freehire_api::sse::SseConfig;
use freehire_app::assistant::model::AssistantModel;
use freehire_app::assistant::service::AssistantConfig;
use freehire_app::plans::Plans;
use freehire_app::testing::openai::{ModelReply, OpenAiServer};
use freehire_domain::plan::PlanPolicy;
use freehire_llm::{OpenAiClient, OpenAiConfig};
use freehire_store::testing::{TestDb, seed::Seed};
use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    accounts::{Answer, Client, refused, verified_user},
    server::Server,
};

crate::search::on_both_backends![
    sessions_are_created_listed_read_and_deleted,
    without_a_model_turns_are_503_and_everything_else_works,
    a_turn_runs_end_to_end_against_an_openai_protocol_server,
    a_message_is_validated_before_any_stream,
    retry_follows_its_rules_and_is_not_charged_again,
    a_spent_allowance_is_a_plain_402,
    a_third_message_is_409_and_cancel_stops_both,
    a_queued_turn_gives_up_after_the_queue_wait,
    every_failure_ends_with_exactly_one_result,
    a_reader_that_disconnects_does_not_stop_the_turn,
    a_reader_that_stops_reading_is_disconnected_and_the_turn_finishes,
    interview_sessions_open_by_themselves_once,
];

/// A model client for `server` that gives up after `timeout`.
fn model(server: &OpenAiServer, timeout: Duration) -> AssistantModel {
    let client = OpenAiClient::new(OpenAiConfig::new(server.base_url(), "test-model"))
        .unwrap()
        .with_timeout(timeout)
        .with_idle_timeout(timeout);
    AssistantModel::new(client, None)
}

/// How the tests' assistant is set up.
pub(crate) struct Setup {
    pub(crate) timeout: Duration,
    pub(crate) config: AssistantConfig,
    pub(crate) policy: Vec<(String, String)>,
    pub(crate) sse: SseConfig,
    pub(crate) limits: ServerLimits,
}

impl Default for Setup {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(20),
            config: AssistantConfig::default(),
            policy: Vec::new(),
            sse: SseConfig::default(),
            limits: ServerLimits::default(),
        }
    }
}

/// The API over `db` with the assistant turning on `llm`.
pub(crate) async fn serve(db: TestDb, llm: &OpenAiServer, setup: Setup) -> Server {
    let model = model(llm, setup.timeout);
    let store = db.store.clone();
    let (policy, warnings) = PlanPolicy::from_vars(setup.policy);
    assert!(warnings.is_empty(), "{warnings:?}");
    Server::start_mapped_within(db, setup.limits, move |state| {
        let assistant = state
            .assistant
            .clone()
            .with_model(Some(model))
            .with_config(setup.config)
            .with_plans(Plans::new(store, policy, chrono::Utc::now));
        state.with_assistant(assistant).with_sse(setup.sse)
    })
    .await
}

/// A signed-in user and a `full` key of theirs (SSE is read with the key).
pub(crate) struct Caller<'a> {
    pub(crate) cookie: Client<'a>,
    pub(crate) key: String,
    server: &'a Server,
}

/// One streamed answer, read to its end.
#[derive(Debug)]
pub(crate) struct Streamed {
    pub(crate) status: u16,
    content_type: String,
    headers: reqwest::header::HeaderMap,
    text: String,
}

impl Streamed {
    /// The `event:`/`data:` pairs, in order (comments skipped).
    pub(crate) fn events(&self) -> Vec<Value> {
        frames(&self.text)
    }

    fn kinds(&self) -> Vec<String> {
        self.events().iter().map(|e| e["type"].as_str().unwrap().to_owned()).collect()
    }

    fn results(&self) -> Vec<Value> {
        self.events().into_iter().filter(|e| e["type"] == "result").collect()
    }

    /// The one `result` (asserting there is exactly one, and last).
    pub(crate) fn result(&self) -> Value {
        let results = self.results();
        assert_eq!(results.len(), 1, "exactly one result: {}", self.text);
        assert_eq!(self.events().last(), results.last(), "the result is last: {}", self.text);
        results[0].clone()
    }

    /// The answer as a JSON error.
    pub(crate) fn error(&self) -> Answer {
        Answer {
            status: self.status,
            body: serde_json::from_str(&self.text).unwrap_or(Value::Null),
            set_cookie: None,
        }
    }
}

fn frames(text: &str) -> Vec<Value> {
    let mut out = Vec::new();
    for frame in text.split("\n\n") {
        if frame.is_empty() || frame.starts_with(':') {
            continue;
        }
        let mut kind = None;
        let mut data = None;
        for line in frame.lines() {
            if let Some(k) = line.strip_prefix("event: ") {
                kind = Some(k.to_owned());
            } else if let Some(d) = line.strip_prefix("data: ") {
                data = Some(serde_json::from_str::<Value>(d).unwrap());
            }
        }
        let data = data.unwrap_or_else(|| panic!("a frame without data: {frame:?}"));
        assert_eq!(kind.as_deref(), data["type"].as_str(), "event names its type: {frame:?}");
        out.push(data);
    }
    out
}

impl<'a> Caller<'a> {
    pub(crate) async fn new(server: &'a Server, email: &str) -> Self {
        let cookie = verified_user(server, email).await;
        let minted = cookie.post("/me/api-keys", json!({"name": "chat"})).await;
        let key = minted.body["data"]["token"].as_str().unwrap().to_owned();
        Self { cookie, key, server }
    }

    fn request(&self, method: Method, path: &str) -> reqwest::RequestBuilder {
        self.server
            .http
            .request(method, format!("{}/api/v1{path}", self.server.base))
            .bearer_auth(&self.key)
    }

    pub(crate) async fn call(&self, method: Method, path: &str, body: Option<Value>) -> Answer {
        Client::with_key(self.server, &self.key).call(method, path, body).await
    }

    /// A new session of `preset` (201), its id.
    pub(crate) async fn session(&self, query: &str) -> String {
        let a = self.call(Method::POST, &format!("/assistant/sessions{query}"), None).await;
        assert_eq!(a.status, 201, "{a:?}");
        a.body["data"]["id"].as_str().unwrap().to_owned()
    }

    /// Sends `body` to a turn route and reads the answer to its end.
    pub(crate) async fn stream(&self, path: &str, body: Option<Value>) -> Streamed {
        let mut request = self.request(Method::POST, path);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let res = request.send().await.unwrap();
        let status = res.status().as_u16();
        let headers = res.headers().clone();
        let content_type = headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let text = tokio::time::timeout(Duration::from_secs(60), res.text())
            .await
            .expect("the stream ends")
            .unwrap();
        Streamed { status, content_type, headers, text }
    }

    /// Posts to a turn route with the session cookie (no key) and reads it to its end.
    pub(crate) async fn cookie_stream(&self, path: &str) -> Streamed {
        let cookie = self.cookie.cookie_header().expect("signed in");
        let res = self
            .server
            .http
            .post(format!("{}/api/v1{path}", self.server.base))
            .header("cookie", cookie)
            .send()
            .await
            .unwrap();
        let status = res.status().as_u16();
        let headers = res.headers().clone();
        let content_type = headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let text = tokio::time::timeout(Duration::from_secs(120), res.text())
            .await
            .expect("the stream ends")
            .unwrap();
        Streamed { status, content_type, headers, text }
    }

    pub(crate) async fn say(&self, session: &str, text: &str) -> Streamed {
        self.stream(&format!("/assistant/sessions/{session}/messages"), Some(json!({"text": text})))
            .await
    }

    /// Starts a message and reads until `until` appears in the body; the response stays open.
    async fn say_until(&self, session: &str, text: &str, until: &str) -> reqwest::Response {
        let path = format!("/assistant/sessions/{session}/messages");
        let res =
            self.request(Method::POST, &path).json(&json!({"text": text})).send().await.unwrap();
        self::until(res, until).await
    }

    pub(crate) async fn transcript(&self, session: &str) -> Vec<Value> {
        let a = self.call(Method::GET, &format!("/assistant/sessions/{session}"), None).await;
        assert_eq!(a.status, 200, "{a:?}");
        a.body["data"]["messages"].as_array().unwrap().clone()
    }

    /// The session's `retryable`.
    async fn retryable(&self, session: &str) -> bool {
        let a = self.call(Method::GET, &format!("/assistant/sessions/{session}"), None).await;
        assert_eq!(a.status, 200, "{a:?}");
        a.body["data"]["retryable"].as_bool().unwrap_or_else(|| panic!("{a:?}"))
    }

    /// Today's `assistant` use.
    async fn used(&self) -> i64 {
        let a = self.call(Method::GET, "/me/usage", None).await;
        assert_eq!(a.status, 200, "{a:?}");
        let items = a.body["data"].as_array().unwrap();
        items.iter().find(|u| u["feature"] == "assistant").unwrap()["used"].as_i64().unwrap()
    }
}

/// Reads a 200 stream until `marker` appears in its body; the response stays open.
async fn until(mut res: reqwest::Response, marker: &str) -> reqwest::Response {
    assert_eq!(res.status(), 200);
    let mut seen = String::new();
    while !seen.contains(marker) {
        let chunk = tokio::time::timeout(Duration::from_secs(30), res.chunk())
            .await
            .expect("the stream goes on")
            .unwrap()
            .unwrap_or_else(|| panic!("the stream ended before {marker:?}: {seen}"));
        seen.push_str(&String::from_utf8_lossy(&chunk));
    }
    res
}

/// Stores a posting the caller applies to; its slug.
async fn applied_job(caller: &Caller<'_>, id: &str, title: &str) -> String {
    let slug = crate::tracking::job(caller.server, id, title).await;
    let a = caller.call(Method::POST, &format!("/jobs/{slug}/apply"), None).await;
    assert_eq!(a.status, 200, "{a:?}");
    slug
}

// scenario: Sessions are created, listed, read and deleted
async fn sessions_are_created_listed_read_and_deleted(db: TestDb) {
    let llm = OpenAiServer::start([]).await;
    let server = serve(db, &llm, Setup::default()).await;
    let ada = Caller::new(&server, "ada@example.com").await;
    let created = ada.call(Method::POST, "/assistant/sessions", None).await;
    assert_eq!(created.status, 201, "{created:?}");
    let chat = &created.body["data"];
    assert_eq!(chat["preset"], "chat", "an empty preset is chat");
    assert_eq!(chat["label"], "");
    assert!(chat.get("job").is_none() && chat.get("job_id").is_none(), "{chat}");
    assert!(chat["id"].as_str().unwrap().parse::<freehire_app::assistant::SessionId>().is_ok());
    for preset in ["profile", "browse", "chat"] {
        let a = ada.call(Method::POST, &format!("/assistant/sessions?preset={preset}"), None).await;
        assert_eq!((a.status, a.body["data"]["preset"].as_str()), (201, Some(preset)), "{a:?}");
    }
    for bad in ["tailor", "wizard"] {
        let a = ada.call(Method::POST, &format!("/assistant/sessions?preset={bad}"), None).await;
        refused(&a, 400, "invalid_parameter", Some("preset"));
        let message = a.body["error"].as_str().unwrap();
        assert!(
            message.contains("created from its CV") && message.contains("debrief"),
            "{message}"
        );
    }
    let a = ada.call(Method::POST, "/assistant/sessions?preset=interview", None).await;
    refused(&a, 400, "invalid_parameter", Some("job"));
    let loose = crate::tracking::job(&server, "loose-1", "Untracked Role").await;
    let a = ada
        .call(Method::POST, &format!("/assistant/sessions?preset=debrief&job={loose}"), None)
        .await;
    refused(&a, 404, "not_found", None);
    assert_eq!(a.body["error"], "application not found");
    let a = ada
        .call(Method::POST, "/assistant/sessions?preset=interview&job=no-such-job-1", None)
        .await;
    refused(&a, 404, "not_found", None);
    let slug = applied_job(&ada, "held-1", "Rust Engineer").await;
    let a = ada
        .call(Method::POST, &format!("/assistant/sessions?preset=interview&job={slug}"), None)
        .await;
    assert_eq!(a.status, 201, "{a:?}");
    let interview = a.body["data"].clone();
    let bob = Caller::new(&server, "bob@example.com").await;
    let foreign = bob
        .call(Method::POST, &format!("/assistant/sessions?preset=interview&job={slug}"), None)
        .await;
    refused(&foreign, 404, "not_found", None);
    assert_eq!(foreign.body["error"], "application not found", "another user's application");
    assert_eq!(interview["job"], slug.as_str(), "the job by its public slug");
    assert_eq!(interview["label"], "Interview: Rust Engineer · Acme");
    let rail = ada.call(Method::GET, "/assistant/sessions", None).await;
    assert_eq!(rail.status, 200);
    let presets: Vec<&str> = rail.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["preset"].as_str().unwrap())
        .collect();
    assert_eq!(rail.body["meta"]["total"], presets.len());
    assert!(!presets.contains(&"browse"), "browse is not on the rail: {presets:?}");
    assert_eq!(presets[0], "interview", "most recent first: {presets:?}");
    let id = interview["id"].as_str().unwrap();
    let read = ada.call(Method::GET, &format!("/assistant/sessions/{id}"), None).await;
    assert_eq!(read.status, 200, "{read:?}");
    assert_eq!(read.body["data"]["session"], interview);
    assert_eq!(read.body["data"]["messages"], json!([]));
    // scenario: A session id that is not a UUID is not found
    for path in ["/assistant/sessions/not-a-uuid", "/assistant/sessions/123"] {
        refused(&ada.call(Method::GET, path, None).await, 404, "not_found", None);
    }
    let gone = ada.call(Method::DELETE, &format!("/assistant/sessions/{id}"), None).await;
    assert_eq!(gone.status, 204, "{gone:?}");
    let again = ada.call(Method::DELETE, &format!("/assistant/sessions/{id}"), None).await;
    refused(&again, 404, "not_found", None);
    assert_eq!(again.body["error"], "session not found");
    refused(
        &ada.call(Method::GET, &format!("/assistant/sessions/{id}"), None).await,
        404,
        "not_found",
        None,
    );
    server.db.teardown().await;
}

// scenario: Without a model the assistant answers 503 and everything else works
async fn without_a_model_turns_are_503_and_everything_else_works(db: TestDb) {
    let server = Server::start(db).await;
    let ada = Caller::new(&server, "ada@example.com").await;
    let id = ada.session("").await;
    for path in ["messages", "retry", "opening"] {
        let s = ada
            .stream(&format!("/assistant/sessions/{id}/{path}"), Some(json!({"text": "hi"})))
            .await;
        let a = s.error();
        refused(&a, 503, "assistant_unavailable", None);
        let message = a.body["error"].as_str().unwrap();
        for var in ["LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL"] {
            assert!(message.contains(var), "{message}");
        }
    }
    assert_eq!(ada.transcript(&id).await, Vec::<Value>::new());
    assert_eq!(
        ada.call(Method::POST, &format!("/assistant/sessions/{id}/cancel"), None).await.status,
        204
    );
    assert_eq!(ada.used().await, 0);
    let jobs = ada.call(Method::GET, "/jobs", None).await;
    assert_eq!(jobs.status, 200, "the rest of the API works");
    server.db.teardown().await;
}

// scenario: A turn runs end to end against a server speaking the OpenAI protocol
async fn a_turn_runs_end_to_end_against_an_openai_protocol_server(db: TestDb) {
    let docs = crate::catalogue::stored(&db).await;
    let dir = tempfile::tempdir().unwrap();
    let index = Arc::new(freehire_search::EmbeddedIndex::open(dir.path()).unwrap());
    freehire_search::SearchIndex::upsert(index.as_ref(), docs).await.unwrap();
    let jobs = db.store().list_open_jobs(freehire_store::ListPage::default()).await.unwrap();
    let rust = jobs.jobs.iter().find(|j| j.posting.title == "Rust Engineer").unwrap();
    let slug = rust.public_slug.as_str().to_owned();
    let present = json!({"heading": "Remote Rust", "jobs": [{"slug": slug, "note": "Remote, Rust and PostgreSQL."}]});
    let llm = OpenAiServer::start([
        ModelReply::call(
            "call_1",
            "search_jobs",
            json!({"query": "rust", "filters": {"work_mode": ["remote"]}}),
        ),
        // Streamed empty: the client asks again without streaming, and gets the next reply.
        ModelReply::EmptyStream,
        ModelReply::call("call_2", "present_jobs", present),
        ModelReply::text("Two remote Rust roles look right for you."),
    ])
    .await;
    let server = {
        let model = model(&llm, Duration::from_secs(20));
        Server::start_mapped(db, move |state| {
            let state = state.with_search(index);
            let assistant = state.assistant.clone().with_model(Some(model));
            state.with_assistant(assistant)
        })
        .await
    };
    let ada = Caller::new(&server, "ada@example.com").await;
    let me = ada.cookie.call(Method::PATCH, "/me", Some(json!({"language": "de"}))).await;
    assert_eq!(me.status, 200, "{me:?}");
    let id = ada.session("?preset=browse").await;
    let s = ada.say(&id, "find me remote Rust jobs in Germany").await;
    assert_eq!(s.status, 200, "{s:?}");
    assert_eq!(s.content_type, "text/event-stream");
    assert_eq!(s.headers["cache-control"], "no-cache");
    assert_eq!(s.headers["x-accel-buffering"], "no");
    assert!(s.text.starts_with(": open\n\n"), "{}", s.text);
    let kinds = s.kinds();
    let expected_head = ["user_prompt", "tool_use", "tool_result", "tool_use", "tool_result"];
    assert_eq!(&kinds[..5], expected_head, "{kinds:?}");
    assert!(
        kinds[5..].iter().all(|k| ["assistant_text", "usage", "result"].contains(&k.as_str())),
        "{kinds:?}"
    );
    let events = s.events();
    assert_eq!(events[0]["text"], "find me remote Rust jobs in Germany");
    assert_eq!(
        (events[1]["id"].as_str(), events[1]["name"].as_str()),
        (Some("call_1"), Some("search_jobs"))
    );
    assert_eq!(events[1]["input"]["query"], "rust");
    assert_eq!(events[2]["id"], "call_1");
    assert!(events[2].get("is_error").is_none(), "the search ran: {}", events[2]);
    assert!(events[2]["result"].as_str().unwrap().contains(&slug), "{}", events[2]);
    assert_eq!(events[3]["name"], "present_jobs");
    assert!(events[4].get("is_error").is_none(), "present_jobs ran: {}", events[4]);
    let text: String = events
        .iter()
        .filter(|e| e["type"] == "assistant_text")
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    assert_eq!(text, "Two remote Rust roles look right for you.");
    assert_eq!(s.result(), json!({"type": "result", "stop_reason": "end_turn"}));
    // The transcript holds the whole turn.
    let messages = ada.transcript(&id).await;
    let roles: Vec<&str> = messages.iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(roles, ["user", "assistant", "tool", "assistant", "tool", "assistant"]);
    assert_eq!(messages[0]["content"], json!({"text": "find me remote Rust jobs in Germany"}));
    assert_eq!(messages[1]["content"]["tool_calls"][0]["name"], "search_jobs");
    assert_eq!(messages[2]["content"]["tool_call_id"], "call_1");
    assert_eq!(
        messages[5]["content"],
        json!({"text": "Two remote Rust roles look right for you."})
    );
    let seqs: Vec<i64> = messages.iter().map(|m| m["seq"].as_i64().unwrap()).collect();
    assert_eq!(seqs, [1, 2, 3, 4, 5, 6]);
    let label = ada.call(Method::GET, &format!("/assistant/sessions/{id}"), None).await;
    assert_eq!(label.body["data"]["session"]["label"], "find me remote Rust jobs in Germany");
    // What the model received.
    let requests = llm.requests();
    assert_eq!(requests.len(), 4, "search, empty stream, its plain retry, text");
    assert!(
        requests[1].streamed() && !requests[2].streamed(),
        "the empty stream was asked again plainly"
    );
    for r in &requests {
        let tools = r.tool_names();
        for t in ["search_jobs", "present_jobs", "save_job", "my_jobs"] {
            assert!(tools.contains(&t.to_owned()), "{t} offered: {tools:?}");
        }
        assert!(!tools.contains(&"interview_context".to_owned()), "{tools:?}");
        let system = r.system();
        assert!(system.contains("LANGUAGE") && system.contains("German"), "{system}");
        assert_eq!(r.header("x-bf-dim-feature"), Some("assistant"));
        assert_eq!(r.header("x-bf-dim-preset"), Some("chat"), "browse is demoted to chat");
    }
    let first = &requests[0].body["messages"];
    assert_eq!(first[1], json!({"role": "user", "content": "find me remote Rust jobs in Germany"}));
    let last = &requests[3].body["messages"];
    assert_eq!(last.as_array().unwrap().len(), 6, "system, user, call, result, call, result");
    assert_eq!(ada.used().await, 1, "one turn, one charge");
    // The turn is counted by preset and stop reason on /metrics.
    let metrics =
        reqwest::get(format!("{}/metrics", server.base)).await.unwrap().text().await.unwrap();
    assert!(
        metrics
            .contains("freehire_assistant_turns_total{preset=\"chat\",stop_reason=\"end_turn\"}"),
        "{metrics}"
    );
    assert!(
        metrics.contains("freehire_assistant_turn_duration_seconds_bucket{preset=\"chat\""),
        "{metrics}"
    );
    assert!(
        metrics.contains(
            "freehire_model_call_duration_seconds_count{feature=\"assistant\",outcome=\"ok\"}"
        ),
        "every model call is timed: {metrics}"
    );
    server.db.teardown().await;
}

// scenario: A message is validated before any stream opens
async fn a_message_is_validated_before_any_stream(db: TestDb) {
    let llm = OpenAiServer::start([]).await;
    let config = AssistantConfig { max_prompt: 20, ..AssistantConfig::default() };
    let server = serve(db, &llm, Setup { config, ..Setup::default() }).await;
    let ada = Caller::new(&server, "ada@example.com").await;
    let id = ada.session("").await;
    let path = format!("/assistant/sessions/{id}/messages");
    let a = ada.stream(&path, Some(json!({"text": "  \n "}))).await.error();
    refused(&a, 400, "invalid_parameter", Some("text"));
    assert_eq!(a.body["error"], "text is required");
    let a = ada.stream(&path, Some(json!({"text": "é".repeat(21)}))).await.error();
    refused(&a, 400, "invalid_parameter", Some("text"));
    assert_eq!(a.body["error"], "message is too long");
    let a = ada.stream(&path, Some(json!({"words": "hi"}))).await.error();
    refused(&a, 400, "invalid_parameter", Some("body"));
    // Exactly at the limit (in characters, not bytes) is fine.
    llm.push([ModelReply::text("ok")]);
    let s = ada.say(&id, &format!("  {}  ", "é".repeat(20))).await;
    assert_eq!(s.result()["stop_reason"], "end_turn");
    assert_eq!(ada.transcript(&id).await[0]["content"]["text"], "é".repeat(20), "trimmed");
    // Another user's session is not found on every turn route, before the body is read.
    let bob = Caller::new(&server, "bob@example.com").await;
    for route in ["messages", "retry", "opening", "cancel"] {
        let a = bob
            .stream(&format!("/assistant/sessions/{id}/{route}"), Some(json!({"text": ""})))
            .await
            .error();
        refused(&a, 404, "not_found", None);
        assert_eq!(a.body["error"], "session not found");
    }
    assert_eq!(llm.requests().len(), 1, "no refused request reached the model");
    server.db.teardown().await;
}

// scenario: A retry follows its rules
async fn retry_follows_its_rules_and_is_not_charged_again(db: TestDb) {
    let llm = OpenAiServer::start([ModelReply::Status(500, "model down".into())]).await;
    let server = serve(db, &llm, Setup::default()).await;
    let ada = Caller::new(&server, "ada@example.com").await;
    let id = ada.session("").await;
    let retry = format!("/assistant/sessions/{id}/retry");
    let a = ada.stream(&retry, None).await.error();
    refused(&a, 409, "nothing_to_retry", None);
    assert_eq!(a.body["error"], "nothing to retry — send a message first");
    assert!(!ada.retryable(&id).await, "an empty session has nothing to retry");
    // scenario: A failed model turn is refunded
    let failed = ada.say(&id, "hello").await;
    let result = failed.result();
    assert_eq!(
        (result["stop_reason"].as_str(), result["is_error"].as_bool()),
        (Some("error"), Some(true))
    );
    assert!(result["message"].as_str().is_some_and(|m| !m.is_empty()), "{result}");
    assert_eq!(ada.used().await, 0, "the failed turn's charge was released");
    assert!(ada.retryable(&id).await, "the stored transcript says the turn has no answer");
    llm.push([ModelReply::text("hello again")]);
    let s = ada.stream(&retry, None).await;
    assert_eq!(s.status, 200);
    assert!(!s.kinds().contains(&"user_prompt".to_owned()), "a retry records no prompt");
    assert_eq!(s.result()["stop_reason"], "end_turn");
    assert_eq!(ada.used().await, 1, "the retried turn is charged once");
    assert!(!ada.retryable(&id).await, "answered: nothing to retry");
    llm.push([ModelReply::text("and again")]);
    assert_eq!(ada.stream(&retry, None).await.result()["stop_reason"], "end_turn");
    assert_eq!(ada.used().await, 1, "a retry of a charged turn costs nothing");
    let roles: Vec<String> =
        ada.transcript(&id).await.iter().map(|m| m["role"].as_str().unwrap().to_owned()).collect();
    assert_eq!(roles, ["user", "assistant", "assistant"]);
    server.db.teardown().await;
}

// scenario: A spent allowance is a plain 402
async fn a_spent_allowance_is_a_plain_402(db: TestDb) {
    let llm = OpenAiServer::start([ModelReply::text("one")]).await;
    let policy = vec![
        ("PLAN_ENFORCE".to_owned(), "assistant".to_owned()),
        ("PLAN_FREE_DAILY_ASSISTANT".to_owned(), "1".to_owned()),
    ];
    let server = serve(db, &llm, Setup { policy, ..Setup::default() }).await;
    let ada = Caller::new(&server, "ada@example.com").await;
    let id = ada.session("").await;
    assert_eq!(ada.say(&id, "first").await.result()["stop_reason"], "end_turn");
    let s = ada.say(&id, "second").await;
    assert_eq!(s.status, 402, "{s:?}");
    assert_eq!(s.content_type, "application/json");
    assert!(!s.text.contains("event:") && !s.text.contains("data:"), "{}", s.text);
    assert!(s.text.contains("allowance"), "{}", s.text);
    let body = s.error().body;
    assert_eq!(body["code"], "quota_exceeded");
    assert_eq!(
        (body["allowance"]["used"].as_i64(), body["allowance"]["limit"].as_i64()),
        (Some(1), Some(1))
    );
    assert_eq!(body["allowance"]["feature"], "assistant");
    assert_eq!(llm.requests().len(), 1, "the refused turn never reached the model");
    assert_eq!(ada.transcript(&id).await.len(), 2, "nothing of the refused turn was stored");
    let usage = ada.call(Method::GET, "/me/usage", None).await;
    let assistant = usage.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["feature"] == "assistant")
        .unwrap()
        .clone();
    assert_eq!(
        (assistant["used"].as_i64(), assistant["enforced"].as_bool()),
        (Some(1), Some(true))
    );
    assert!(
        assistant["resets_at"].as_str().is_some() && assistant["tier"] == "free",
        "{assistant}"
    );
    server.db.teardown().await;
}

// scenario: A third message is refused and cancel stops the running and the queued turn
// scenario: Two messages sent at once are two charged turns
async fn a_third_message_is_409_and_cancel_stops_both(db: TestDb) {
    let llm = OpenAiServer::start([ModelReply::Hang]).await;
    let server = serve(db, &llm, Setup::default()).await;
    let ada = Caller::new(&server, "ada@example.com").await;
    let id = ada.session("").await;
    let first = ada.say_until(&id, "one", "user_prompt").await;
    let second = ada.say_until(&id, "two", "event: queued").await;
    assert_eq!(
        ada.used().await,
        2,
        "the running and the queued message are two turns, charged twice"
    );
    let third = ada.say(&id, "three").await.error();
    refused(&third, 409, "turn_queue_full", None);
    assert_eq!(ada.used().await, 2, "the refused third message is not charged");
    let cancel = ada.call(Method::POST, &format!("/assistant/sessions/{id}/cancel"), None).await;
    assert_eq!(cancel.status, 204);
    for res in [first, second] {
        assert_cancelled(res).await;
    }
    assert_eq!(llm.requests().len(), 1, "the queued turn never started");
    assert_eq!(ada.transcript(&id).await.len(), 1, "only the first prompt");
    assert_eq!(ada.used().await, 1, "the cancelled queued turn's charge was released");
    // scenario: A message refused behind a queued retry charges nothing
    // A retry queued behind a turn costs nothing (it names the turn's own charge), so a third
    // message behind them would take a charge of a reference of its own if it were metered
    // before (or despite) the refused claim: only here can the count show it.
    llm.push([ModelReply::Hang]);
    let first = ada.say_until(&id, "four", "user_prompt").await;
    assert_eq!(ada.used().await, 2, "the second prompt is charged");
    let retry = ada.request(Method::POST, &format!("/assistant/sessions/{id}/retry")).send();
    let retry = until(retry.await.unwrap(), "event: queued").await;
    assert_eq!(ada.used().await, 2, "the queued retry costs nothing");
    let third = ada.say(&id, "five").await.error();
    refused(&third, 409, "turn_queue_full", None);
    assert_eq!(ada.used().await, 2, "the refused message is not charged");
    let cancel = ada.call(Method::POST, &format!("/assistant/sessions/{id}/cancel"), None).await;
    assert_eq!(cancel.status, 204);
    for res in [first, retry] {
        assert_cancelled(res).await;
    }
    assert_eq!(ada.used().await, 2, "the cancelled turns were charged once each");
    server.db.teardown().await;
}

/// Reads a streamed answer to its end: exactly one `result`, `cancelled`.
async fn assert_cancelled(res: reqwest::Response) {
    let text = tokio::time::timeout(Duration::from_secs(30), res.text()).await.unwrap().unwrap();
    let results: Vec<Value> = frames(&text).into_iter().filter(|e| e["type"] == "result").collect();
    assert_eq!(results, [json!({"type": "result", "stop_reason": "cancelled"})], "{text}");
}

// scenario: A queued turn gives up after the queue wait
async fn a_queued_turn_gives_up_after_the_queue_wait(db: TestDb) {
    let llm =
        OpenAiServer::start([ModelReply::text("slow").after(Duration::from_millis(1500))]).await;
    let config =
        AssistantConfig { queue_wait: Duration::from_millis(200), ..AssistantConfig::default() };
    let server = serve(db, &llm, Setup { config, ..Setup::default() }).await;
    let ada = Caller::new(&server, "ada@example.com").await;
    let id = ada.session("").await;
    let first = ada.say_until(&id, "one", "user_prompt").await;
    let second = ada.say(&id, "two").await;
    assert_eq!(second.kinds(), ["queued", "result"], "{}", second.text);
    assert_eq!(second.result()["stop_reason"], "cancelled");
    let text = first.text().await.unwrap();
    assert_eq!(frames(&text).last().unwrap()["stop_reason"], "end_turn");
    assert_eq!(ada.used().await, 1, "the queued turn's charge was released");
    server.db.teardown().await;
}

/// Makes every insert into the transcript fail (a real database refusing the write).
async fn refuse_transcript_writes(seed: Seed) {
    match seed {
        Seed::Sqlite(pool) => {
            sqlx::query("CREATE TRIGGER no_messages BEFORE INSERT ON assistant_messages BEGIN SELECT RAISE(ABORT, 'refused by the test'); END")
                .execute(&pool)
                .await
                .unwrap();
        }
        Seed::Postgres(pool) => {
            sqlx::query("CREATE FUNCTION no_messages() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$")
                .execute(&pool)
                .await
                .unwrap();
            sqlx::query("CREATE TRIGGER no_messages BEFORE INSERT ON assistant_messages FOR EACH ROW EXECUTE FUNCTION no_messages()")
                .execute(&pool)
                .await
                .unwrap();
        }
    }
}

// scenario: Every failure ends the stream with exactly one result
async fn every_failure_ends_with_exactly_one_result(db: TestDb) {
    let llm = OpenAiServer::start([
        ModelReply::Status(429, "slow down".into()),
        ModelReply::Garbage,
        ModelReply::Hang,
    ])
    .await;
    let sse = SseConfig { keepalive: Duration::from_millis(100), ..SseConfig::default() };
    let server =
        serve(db, &llm, Setup { timeout: Duration::from_millis(700), sse, ..Setup::default() })
            .await;
    let ada = Caller::new(&server, "ada@example.com").await;
    let id = ada.session("").await;
    for what in ["a 429", "garbage", "a hang"] {
        let s = ada.say(&id, what).await;
        let result = s.result();
        assert_eq!(result["stop_reason"], "error", "{what}: {}", s.text);
        assert_eq!(result["is_error"], true, "{what}");
        assert!(result["message"].as_str().is_some_and(|m| !m.is_empty()), "{what}: {result}");
        if what == "a hang" {
            // scenario: A quiet stream sends keepalives
            assert!(s.text.contains(": keepalive\n\n"), "{}", s.text);
        }
    }
    assert_eq!(ada.used().await, 0, "every failed turn was refunded");
    // The first transcript write fails.
    refuse_transcript_writes(server.db.seed().await).await;
    let s = ada.say(&id, "lost").await;
    assert_eq!(s.status, 200);
    assert!(s.text.starts_with(": open"), "{}", s.text);
    assert_eq!(s.kinds(), ["result"], "{}", s.text);
    assert_eq!(s.result()["is_error"], true);
    assert_eq!(llm.requests().len(), 3, "the model is never called when the prompt was not stored");
    server.db.teardown().await;
}

// scenario: A reader that disconnects does not stop the turn
async fn a_reader_that_disconnects_does_not_stop_the_turn(db: TestDb) {
    let llm = OpenAiServer::start([
        ModelReply::call("c1", "my_jobs", json!({})).after(Duration::from_millis(300)),
        ModelReply::text("You track nothing yet.").after(Duration::from_millis(300)),
    ])
    .await;
    let server = serve(db, &llm, Setup::default()).await;
    let ada = Caller::new(&server, "ada@example.com").await;
    let id = ada.session("").await;
    let res = ada.say_until(&id, "what do I track?", ": open").await;
    drop(res);
    let mut roles = Vec::new();
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        roles = ada
            .transcript(&id)
            .await
            .iter()
            .map(|m| m["role"].as_str().unwrap().to_owned())
            .collect();
        if roles.len() == 4 {
            break;
        }
    }
    assert_eq!(
        roles,
        ["user", "assistant", "tool", "assistant"],
        "the turn finished without its reader"
    );
    let last = ada.transcript(&id).await[3]["content"].clone();
    assert_eq!(last, json!({"text": "You track nothing yet."}));
    server.db.teardown().await;
}

// scenario: A reader that stops reading is disconnected and the turn finishes
async fn a_reader_that_stops_reading_is_disconnected_and_the_turn_finishes(db: TestDb) {
    // Far more than the connection's buffers hold (hyper's, the kernel's on both ends).
    let parts: Vec<String> = (0..600).map(|i| format!("{i:04}{}", "x".repeat(9_996))).collect();
    let answer = parts.concat();
    let llm = OpenAiServer::start([ModelReply::paced(parts, Duration::from_millis(2))]).await;
    let sse = SseConfig { write_timeout: Duration::from_millis(100), ..SseConfig::default() };
    let limits =
        ServerLimits { write_timeout: Duration::from_millis(300), ..ServerLimits::default() };
    let server = serve(db, &llm, Setup { sse, limits, ..Setup::default() }).await;
    let ada = Caller::new(&server, "ada@example.com").await;
    let id = ada.session("").await;
    // A raw client with a tiny receive buffer sends the message, then reads nothing.
    let addr: std::net::SocketAddr = server.base.strip_prefix("http://").unwrap().parse().unwrap();
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut stalled = socket.connect(addr).await.unwrap();
    let body = json!({"text": "tell me everything"}).to_string();
    let request = format!(
        "POST /api/v1/assistant/sessions/{id}/messages HTTP/1.1\r\nhost: {addr}\r\nauthorization: Bearer {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        ada.key,
        body.len()
    );
    tokio::io::AsyncWriteExt::write_all(&mut stalled, request.as_bytes()).await.unwrap();
    // The turn finishes: read through a second client, the transcript holds the whole answer.
    let mut answered = None;
    for _ in 0..300 {
        if let Some(m) = ada.transcript(&id).await.get(1) {
            answered = Some(m.clone());
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let answered = answered.expect("the turn finished without its reader");
    assert_eq!(answered["role"], "assistant");
    assert!(answered["content"] == json!({"text": answer}), "the whole answer is kept");
    // The server closed the stalled connection: reading now (once the stall bound has passed:
    // the answer outgrew the buffers before the turn finished) gets what the buffers held, then
    // the connection's end, and never the end of the response.
    tokio::time::sleep(limits.write_timeout * 2).await;
    let mut got = Vec::new();
    let mut buf = vec![0; 64 * 1024];
    let ended = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match tokio::io::AsyncReadExt::read(&mut stalled, &mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    assert!(ended.is_ok(), "the stalled connection is still open ({} bytes read)", got.len());
    let got = String::from_utf8_lossy(&got);
    assert!(got.starts_with("HTTP/1.1 200 OK\r\n") && got.contains(": open\n\n"), "{:.300}", got);
    assert!(!got.contains("event: result"), "the response was cut, not finished");
    assert!(got.len() < answer.len(), "{} bytes reached the stalled reader", got.len());
    server.db.teardown().await;
}

// scenario: Interview and debrief sessions open by themselves once
async fn interview_sessions_open_by_themselves_once(db: TestDb) {
    let llm = OpenAiServer::start([
        ModelReply::Status(503, "warming up".into()),
        ModelReply::text("I see a Rust role at Acme. Which round shall we run?"),
    ])
    .await;
    let server = serve(db, &llm, Setup::default()).await;
    let ada = Caller::new(&server, "ada@example.com").await;
    let chat = ada.session("").await;
    let a = ada.stream(&format!("/assistant/sessions/{chat}/opening"), None).await.error();
    refused(&a, 409, "not_openable", None);
    assert_eq!(a.body["error"], "this conversation does not open by itself");
    let slug = applied_job(&ada, "open-1", "Rust Engineer").await;
    let id = ada.session(&format!("?preset=interview&job={slug}")).await;
    let opening = format!("/assistant/sessions/{id}/opening");
    let failed = ada.stream(&opening, None).await;
    assert_eq!(failed.result()["stop_reason"], "error");
    // A transcript holding only the brief may open again.
    let s = ada.stream(&opening, None).await;
    assert_eq!(s.result()["stop_reason"], "end_turn", "{}", s.text);
    let messages = ada.transcript(&id).await;
    let brief = "Let's rehearse this interview. Read the context and tell me what you see, then ask me which round to run.";
    assert_eq!(messages[0]["content"]["text"], brief);
    assert_eq!(messages.last().unwrap()["role"], "assistant");
    let tools = llm.requests()[1].tool_names();
    assert!(tools.contains(&"interview_context".to_owned()), "{tools:?}");
    assert_eq!(llm.requests()[1].header("x-bf-dim-preset"), Some("interview"));
    let again = ada.stream(&opening, None).await.error();
    refused(&again, 409, "not_openable", None);
    assert_eq!(again.body["error"], "this conversation has already started");
    server.db.teardown().await;
}
