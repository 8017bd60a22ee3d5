//! `POST /mcp` driven by a real MCP client (`rmcp`'s streamable HTTP client) on both
//! backends: anyone searches, a key saves and the save is on the tracking board; what a key
//! of each scope is offered; strict arguments; another user's CV is not found; the
//! protocol's error objects for bodies that are not JSON-RPC; a bad key is 401.

use rmcp::ServiceExt;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation,
};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};

use crate::{
    accounts::{Client, verified_user},
    catalogue::indexed,
    server::Server,
};
use freehire_store::testing::TestDb;

type Mcp = RunningService<RoleClient, ClientConfig>;

/// An MCP client of the server, with `key` as its bearer token.
async fn connect(s: &Server, key: Option<&str>) -> Mcp {
    let mut config = StreamableHttpClientTransportConfig::with_uri(format!("{}/mcp", s.base));
    if let Some(key) = key {
        config = config.auth_header(key);
    }
    let transport = StreamableHttpClientTransport::from_config(config);
    let info = ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("freehire-test", "1.0"),
    );
    info.serve(transport).await.expect("the MCP handshake")
}

async fn names(client: &Mcp) -> Vec<String> {
    let tools = client.list_all_tools().await.unwrap();
    tools.iter().map(|t| t.name.to_string()).collect()
}

async fn call(client: &Mcp, name: &str, args: Value) -> CallToolResult {
    let Value::Object(map) = args else { panic!("arguments are an object") };
    let params = CallToolRequestParams::new(name.to_owned()).with_arguments(map);
    client.call_tool(params).await.unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn data(result: &CallToolResult) -> &Value {
    assert_ne!(result.is_error, Some(true), "{result:?}");
    result.structured_content.as_ref().expect("structured content")
}

fn error_text(result: &CallToolResult) -> String {
    assert_eq!(result.is_error, Some(true), "{result:?}");
    result.structured_content.as_ref().map(|v| v["error"].to_string()).unwrap_or_default()
}

async fn key_of(user: &Client<'_>, scope: &str) -> String {
    let minted = user.post("/me/api-keys", json!({"name": "mcp", "scope": scope})).await;
    assert_eq!(minted.status, 201, "{minted:?}");
    minted.body["data"]["token"].as_str().unwrap().to_owned()
}

// scenario: An MCP client searches, then saves a job with a key
async fn an_mcp_client_searches_then_saves_with_a_key(db: TestDb) {
    let (s, _dir, _index) = indexed(db).await;
    let anonymous = connect(&s, None).await;
    let info = anonymous.peer_info().expect("server info");
    assert_eq!(info.server_info.as_ref().map(|i| i.name.as_str()), Some("freehire"));
    assert_eq!(names(&anonymous).await, ["facets", "search", "job", "company", "market_fit"]);
    let tools = anonymous.list_all_tools().await.unwrap();
    assert!(
        tools.iter().all(|t| t.annotations.as_ref().and_then(|a| a.read_only_hint) == Some(true))
    );
    let search = tools.iter().find(|t| t.name == "search").unwrap();
    assert_eq!(search.input_schema["additionalProperties"], false, "strict arguments");

    let found = call(&anonymous, "search", json!({"query": "engineer", "limit": 3})).await;
    let found = data(&found);
    assert!(found["total"].as_u64().unwrap() > 0, "{found}");
    let slug = found["jobs"][0]["public_slug"].as_str().unwrap().to_owned();
    let job = call(&anonymous, "job", json!({"slug": slug})).await;
    assert_eq!(data(&job)["public_slug"], slug.as_str());
    let facets = call(&anonymous, "facets", json!({})).await;
    assert!(data(&facets)["facets"].is_object(), "{facets:?}");
    // A filter the engine cannot apply is surfaced, not silently dropped.
    let refused = call(&anonymous, "search", json!({"filters": {"nonsense": ["x"]}})).await;
    assert!(error_text(&refused).contains("nonsense"), "{refused:?}");
    // Signing in is what the tracking tools need, and the error says so.
    let save = call(&anonymous, "save", json!({"slug": slug})).await;
    assert!(error_text(&save).contains("full API key"), "{save:?}");
    anonymous.cancel().await.unwrap();

    let ada = verified_user(&s, "ada@example.com").await;
    let key = key_of(&ada, "full").await;
    let signed = connect(&s, Some(&key)).await;
    let all = names(&signed).await;
    for tool in [
        "whoami",
        "save",
        "unsave",
        "apply",
        "stage",
        "note",
        "my_jobs",
        "cv_list",
        "experience_search",
    ] {
        assert!(all.iter().any(|n| n == tool), "{tool} in {all:?}");
    }
    let me = call(&signed, "whoami", json!({})).await;
    assert_eq!(
        (data(&me)["email"].as_str(), data(&me)["scope"].as_str()),
        (Some("ada@example.com"), Some("full"))
    );
    let saved = call(&signed, "save", json!({"slug": slug})).await;
    assert_eq!(data(&saved)["saved"], true, "{saved:?}");
    let staged = call(&signed, "stage", json!({"slug": slug, "stage": "interview"})).await;
    assert_eq!(data(&staged)["stage"], "interview", "{staged:?}");
    let noted = call(&signed, "note", json!({"slug": slug, "note": "panel on Monday"})).await;
    assert!(data(&noted)["notes"].as_str().unwrap().contains("panel"), "{noted:?}");
    let mine = call(&signed, "my_jobs", json!({"filter": "saved"})).await;
    assert_eq!(data(&mine)["total"], 1, "{mine:?}");
    // The tracking board over HTTP shows the same job, applied through MCP as the user.
    let board = ada.get("/me/tracking?filter=board").await;
    assert_eq!(board.status, 200, "{board:?}");
    assert_eq!(board.body["data"][0]["job_slug"], slug.as_str(), "{board:?}");
    let unknown_stage = call(&signed, "stage", json!({"slug": slug, "stage": "hired"})).await;
    assert!(error_text(&unknown_stage).contains("valid stages"), "{unknown_stage:?}");
    let extra = call(&signed, "save", json!({"slug": slug, "user_id": 1})).await;
    assert!(error_text(&extra).contains("user_id"), "an unknown field is named: {extra:?}");
    signed.cancel().await.unwrap();
    s.db.teardown().await;
}

// scenario: Each key reaches its own tools and its own data only
async fn a_key_reaches_its_scope_and_its_own_data_only(db: TestDb) {
    let (s, _dir, _index) = indexed(db).await;
    let ada = verified_user(&s, "ada@example.com").await;
    let created = ada
        .post("/me/cvs", json!({"title": "Ada's CV", "document": {"header": {"full_name": "Ada"}}}))
        .await;
    assert_eq!(created.status, 201, "{created:?}");
    let cv_id = created.body["data"]["cv"]["id"].to_string().trim_matches('"').to_owned();
    let ada_cv = connect(&s, Some(&key_of(&ada, "cv").await)).await;
    let tools = names(&ada_cv).await;
    assert!(
        tools.contains(&"cv_get".to_owned()) && !tools.contains(&"save".to_owned()),
        "{tools:?}"
    );
    let listed = call(&ada_cv, "cv_list", json!({})).await;
    assert_eq!(data(&listed)["cvs"][0]["id"], cv_id.as_str(), "{listed:?}");
    let got = call(&ada_cv, "cv_get", json!({"id": cv_id})).await;
    assert_eq!(data(&got)["title"], "Ada's CV");
    let save = call(&ada_cv, "save", json!({"slug": "x"})).await;
    assert!(error_text(&save).contains("full API key"), "a cv key does not track: {save:?}");
    // An MCP client banks an achievement as its own reading: no CV cites it until Ada confirms.
    let added =
        call(&ada_cv, "experience_add", json!({"claim": "Cut p99 latency from 20s to 1s"})).await;
    assert_eq!(data(&added)["can_write_cv"], false, "{added:?}");
    let quoted = call(&ada_cv, "experience_add", json!({"claim": "x", "said": "I did x"})).await;
    assert!(error_text(&quoted).contains("said"), "no quote over MCP: {quoted:?}");
    let bank = ada.get("/me/experience").await;
    assert!(bank.body.to_string().contains("agent_inferred"), "{bank:?}");
    ada_cv.cancel().await.unwrap();

    let bob = verified_user(&s, "bob@example.com").await;
    let bob_mcp = connect(&s, Some(&key_of(&bob, "full").await)).await;
    let theirs = call(&bob_mcp, "cv_get", json!({"id": cv_id})).await;
    assert!(error_text(&theirs).contains("no CV with id"), "another user's CV: {theirs:?}");
    let board = call(&bob_mcp, "my_jobs", json!({"filter": "all"})).await;
    assert_eq!(data(&board)["total"], 0);
    bob_mcp.cancel().await.unwrap();
    s.db.teardown().await;
}

async fn post(s: &Server, body: &str, key: Option<&str>) -> (u16, Value) {
    let mut request = s
        .http
        .post(format!("{}/mcp", s.base))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body.to_owned());
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    let res = request.send().await.unwrap();
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

// scenario: A message that is not JSON-RPC gets the protocol's error object
async fn malformed_messages_get_protocol_errors(db: TestDb) {
    let s = Server::start(db).await;
    let (status, body) = post(&s, "{not json", None).await;
    assert_eq!((status, body["error"]["code"].as_i64()), (400, Some(-32700)), "{body}");
    let (status, body) = post(&s, r#"{"hello": "world"}"#, None).await;
    assert_eq!((status, body["error"]["code"].as_i64()), (400, Some(-32600)), "{body}");
    let unknown = r#"{"jsonrpc":"2.0","id":1,"method":"tools/explode","params":{}}"#;
    let (status, body) = post(&s, unknown, None).await;
    assert!(status == 404 || body["error"]["code"] == -32601, "{status} {body}");
    let (status, body) =
        post(&s, r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#, Some("fhk_nope")).await;
    assert_eq!((status, body["code"].as_str()), (401, Some("unauthorized")), "{body}");
    let wrong_type = s
        .http
        .post(format!("{}/mcp", s.base))
        .header("content-type", "text/plain")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(wrong_type.status(), 415);
    // An unknown tool is the protocol's invalid-params error, naming the tools.
    let client = connect(&s, None).await;
    let err = client
        .call_tool(CallToolRequestParams::new("explode"))
        .await
        .expect_err("an unknown tool is a protocol error");
    assert!(err.to_string().contains("search"), "{err}");
    client.cancel().await.unwrap();
    s.db.teardown().await;
}

crate::search::on_both_backends![
    an_mcp_client_searches_then_saves_with_a_key,
    a_key_reaches_its_scope_and_its_own_data_only,
    malformed_messages_get_protocol_errors,
];
