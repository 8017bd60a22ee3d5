//! Per-user gateway keys and the assistant's model against a local fake of the Bifrost
//! governance API and the OpenAI chat-completions protocol
//! ([`freehire_app::testing::bifrost`], recording every request): minting copies the template's provider configurations with HTTP Basic
//! auth, racing resolvers keep one key and delete the other, 404 on block or delete is done,
//! forgetting clears only a matching secret and blocks, and a bound model sends the user's key
//! and the spend tags and falls back once on a 401.

use std::sync::Arc;
use std::time::Duration;

use axum::{
    Router,
    http::{Method, StatusCode},
    routing::get,
};
use chrono::{TimeZone, Utc};
use freehire_app::{
    assistant::{AssistantModel, Preset, spend_tags},
    llmkey::{BifrostConfig, BifrostGateway, KeyError, KeyGateway, KeyResolver},
    testing::bifrost::{BifrostServer, GatewayRequest},
};
use freehire_domain::UserId;
use freehire_llm::{ChatRequest, Message, OpenAiClient, OpenAiConfig};
use freehire_store::{Store, testing::TestDb};
use secrecy::{ExposeSecret, SecretString};
use serde_json::json;

/// The fake of the tests.
struct Fake(BifrostServer);

impl std::ops::Deref for Fake {
    type Target = BifrostServer;
    fn deref(&self) -> &BifrostServer {
        &self.0
    }
}

impl Fake {
    fn gateway(&self) -> BifrostGateway {
        BifrostGateway::new(self.config()).unwrap()
    }

    fn config(&self) -> BifrostConfig {
        BifrostConfig::from_lookup(self.lookup()).unwrap().unwrap()
    }
}

async fn fake() -> Fake {
    Fake(BifrostServer::start().await)
}

async fn user(s: &dyn Store, address: &str) -> UserId {
    freehire_store::testing::user(s, address, Utc::now()).await.id
}

/// Waits (up to 5 s) until `check` holds.
async fn eventually(what: &str, mut check: impl AsyncFnMut() -> bool) {
    for _ in 0..250 {
        if check().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("{what} did not happen");
}

// scenario: A minted key copies the template's providers
pub async fn a_first_call_mints_a_key_from_the_template(db: &TestDb) {
    let f = fake().await;
    let store = db.second_store().await;
    let u = user(store.as_ref(), "ann@example.com").await;
    let keys = KeyResolver::new(Arc::clone(&store), Arc::new(f.gateway()));
    assert!(keys.stored(u).await.is_none(), "stored never mints");
    assert!(f.seen().is_empty());
    let secret = keys.key_for(u).await.unwrap();
    assert_eq!(secret.expose_secret(), "sk-bf-1");
    // HTTP Basic admin:hunter2 on every admin call.
    let basic = "Basic YWRtaW46aHVudGVyMg==";
    assert!(f.seen().iter().all(|s| s.authorization == basic), "{:?}", f.seen());
    let created = f.calls(&Method::POST, "/api/governance/virtual-keys");
    assert_eq!(created.len(), 1);
    let body = &created[0].body;
    assert_eq!(body["name"], format!("freehire-user-{}", u.get()));
    assert_eq!(body["description"], "per-user spend attribution");
    assert_eq!(body["is_active"], true);
    assert_eq!(
        body["provider_configs"],
        json!([
            { "provider": "openai", "weight": 1, "key_ids": ["*"] },
            { "provider": "anthropic", "key_ids": ["*"] },
            { "provider": "local", "key_ids": ["*"] },
            { "provider": "azure", "key_ids": ["k-azure"] },
        ])
    );
    assert!(body.get("budgets").is_none() && body.get("rate_limit").is_none());
    let stored = keys.stored(u).await.unwrap();
    assert!(stored.is("sk-bf-1") && stored.id.as_deref() == Some("vk-1"));
    // Later calls use the stored key without minting.
    assert_eq!(keys.key_for(u).await.unwrap().expose_secret(), "sk-bf-1");
    assert_eq!(f.calls(&Method::POST, "/api/governance/virtual-keys").len(), 1);
    store.close().await;
}

// scenario: Two racing mints keep one key
pub async fn two_racing_resolvers_keep_one_key_and_delete_the_other(db: &TestDb) {
    let f = fake().await;
    f.race_mints(2);
    let (a, b) = (db.second_store().await, db.second_store().await);
    let u = user(a.as_ref(), "ann@example.com").await;
    let first = KeyResolver::new(Arc::clone(&a), Arc::new(f.gateway()));
    let second = KeyResolver::new(Arc::clone(&b), Arc::new(f.gateway()));
    let (x, y) = tokio::join!(first.key_for(u), second.key_for(u));
    let (x, y) = (x.unwrap(), y.unwrap());
    assert_eq!(x.expose_secret(), y.expose_secret(), "both resolvers return the stored key");
    assert_eq!(f.calls(&Method::POST, "/api/governance/virtual-keys").len(), 2, "two were minted");
    let stored = first.stored(u).await.unwrap();
    assert!(stored.is(x.expose_secret()));
    let kept = stored.id.unwrap();
    let deleted = f.calls(&Method::DELETE, "/api/governance/virtual-keys/");
    assert_eq!(deleted.len(), 1);
    let loser = if kept == "vk-1" { "vk-2" } else { "vk-1" };
    assert_eq!(deleted[0].path, format!("/api/governance/virtual-keys/{loser}"));
    assert!(f.is_live(&kept));
    a.close().await;
    b.close().await;
}

pub async fn a_minted_key_is_deleted_when_the_account_is_gone(db: &TestDb) {
    let f = fake().await;
    let store = db.second_store().await;
    let u = user(store.as_ref(), "ann@example.com").await;
    store.delete_user(u).await.unwrap();
    let keys = KeyResolver::new(Arc::clone(&store), Arc::new(f.gateway()));
    assert!(keys.key_for(u).await.is_none());
    assert_eq!(f.calls(&Method::DELETE, "/api/governance/virtual-keys/vk-1").len(), 1);
    // A store that fails before minting never mints.
    store.close().await;
    assert!(keys.key_for(u).await.is_none());
    assert_eq!(f.calls(&Method::POST, "/api/governance/virtual-keys").len(), 1);
}

pub async fn forget_clears_only_a_matching_secret_and_blocks(db: &TestDb) {
    let f = fake().await;
    let store = db.second_store().await;
    let u = user(store.as_ref(), "ann@example.com").await;
    let keys = KeyResolver::new(Arc::clone(&store), Arc::new(f.gateway()));
    keys.key_for(u).await.unwrap();
    keys.forget(u, "sk-some-other").await;
    assert!(keys.stored(u).await.is_some(), "another secret leaves the stored key");
    assert!(f.calls(&Method::PUT, "/api/governance/virtual-keys/").is_empty());
    keys.forget(u, "sk-bf-1").await;
    assert!(keys.stored(u).await.is_none());
    let blocked = f.calls(&Method::PUT, "/api/governance/virtual-keys/vk-1");
    assert_eq!(blocked.len(), 1);
    assert_eq!(blocked[0].body, json!({ "is_active": false }));
    // The next call mints a new key.
    assert_eq!(keys.key_for(u).await.unwrap().expose_secret(), "sk-bf-2");
    keys.revoke(u).await;
    assert_eq!(f.calls(&Method::PUT, "/api/governance/virtual-keys/vk-2").len(), 1);
    store.close().await;
}

#[tokio::test]
async fn block_and_delete_of_an_unknown_key_are_done_and_errors_are_classified() {
    let f = fake().await;
    let g = f.gateway();
    g.block("vk-nope").await.unwrap();
    g.delete("vk-nope").await.unwrap();
    assert_eq!(f.calls(&Method::PUT, "/api/governance/virtual-keys/vk-nope").len(), 1);
    assert_eq!(f.calls(&Method::DELETE, "/api/governance/virtual-keys/vk-nope").len(), 1);
    // A template that does not exist: only a 404 is UnknownKey.
    let mut other = f.config();
    other.template_key = "missing".into();
    let err = BifrostGateway::new(other).unwrap().mint(UserId::new(1).unwrap()).await.unwrap_err();
    assert!(matches!(err, KeyError::UnknownKey), "{err:?}");
    // Wrong admin credentials against a gateway that checks them: a 401 is Upstream.
    let strict = Router::new().route(
        "/api/governance/virtual-keys/{id}",
        get(|| async { (StatusCode::UNAUTHORIZED, "bad credentials") }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, strict).await.unwrap() });
    let strict = BifrostConfig { url: origin, ..f.config() };
    let err = BifrostGateway::new(strict).unwrap().mint(UserId::new(1).unwrap()).await.unwrap_err();
    assert!(matches!(err, KeyError::Upstream { status: 401, .. }), "{err:?}");
}

#[tokio::test]
async fn activity_counts_totals_and_errors_over_whole_days() {
    let f = fake().await;
    let g = f.gateway();
    let from = Utc.with_ymd_and_hms(2026, 11, 3, 10, 30, 0).unwrap();
    let to = Utc.with_ymd_and_hms(2026, 11, 4, 8, 0, 0).unwrap();
    let a = g.activity("vk-9", from, to).await.unwrap();
    assert_eq!((a.total, a.errors), (7, 2));
    let calls = f.calls(&Method::GET, "/api/logs/stats");
    assert_eq!(calls.len(), 2);
    assert!(calls[0].query.contains("virtual_key_ids=vk-9"), "{}", calls[0].query);
    assert!(calls[0].query.contains("start_time=2026-11-03T00%3A00%3A00Z"), "{}", calls[0].query);
    assert!(calls[0].query.contains("end_time=2026-11-05T00%3A00%3A00Z"), "{}", calls[0].query);
    assert!(calls[1].query.contains("status=error"));
    // An empty id is zeros without a call.
    assert_eq!(g.activity("", from, to).await.unwrap().total, 0);
    assert_eq!(f.calls(&Method::GET, "/api/logs/stats").len(), 2);
}

#[test]
fn the_gateway_is_configured_only_by_all_four_admin_variables_and_budgets_parse() {
    let all = [
        ("LLM_ADMIN_URL", "http://gw:8080/"),
        ("LLM_ADMIN_USERNAME", "admin"),
        ("LLM_ADMIN_PASSWORD", "pw"),
        ("LLM_ADMIN_TEMPLATE_KEY", "tmpl"),
        ("LLM_USER_MAX_BUDGET", "2.5"),
        ("LLM_USER_RPM_LIMIT", "30"),
        ("LLM_USER_BUDGET_WINDOW", "1M"),
    ];
    let lookup = |vars: Vec<(&'static str, &'static str)>| {
        move |name: &str| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| (*v).to_owned())
    };
    let c = BifrostConfig::from_lookup(lookup(all.to_vec())).unwrap().unwrap();
    assert_eq!(c.url, "http://gw:8080");
    assert_eq!(
        (c.max_budget, c.rpm_limit, c.budget_window.as_deref()),
        (Some(2.5), Some(30), Some("1M"))
    );
    for missing in 0..4 {
        let mut vars = all.to_vec();
        vars.remove(missing);
        assert!(BifrostConfig::from_lookup(lookup(vars)).unwrap().is_none(), "{missing}");
    }
    let mut bad = all.to_vec();
    bad[5] = ("LLM_USER_RPM_LIMIT", "fast");
    let err = BifrostConfig::from_lookup(lookup(bad)).unwrap_err().to_string();
    assert!(err.contains("LLM_USER_RPM_LIMIT"), "{err}");
}

#[tokio::test]
async fn a_mint_with_budgets_sends_them() {
    let f = fake().await;
    let mut c = f.config();
    c.max_budget = Some(5.0);
    c.budget_window = Some("1d".into());
    c.rpm_limit = Some(12);
    let minted = BifrostGateway::new(c).unwrap().mint(UserId::new(7).unwrap()).await.unwrap();
    assert_eq!((minted.id.as_str(), minted.secret.expose_secret()), ("vk-1", "sk-bf-1"));
    let body = &f.calls(&Method::POST, "/api/governance/virtual-keys")[0].body;
    assert_eq!(body["budgets"], json!([{ "max_limit": 5.0, "reset_duration": "1d" }]));
    assert_eq!(
        body["rate_limit"],
        json!({ "request_max_limit": 12, "request_reset_duration": "1m" })
    );
}

fn service_client(origin: &str) -> OpenAiClient {
    let mut c = OpenAiConfig::new(origin, "test-model");
    c.api_key = Some(SecretString::from("sk-service".to_owned()));
    OpenAiClient::new(c).unwrap()
}

async fn ask(model: &dyn freehire_llm::ChatModel, preset: Preset) -> String {
    let messages = [Message::User("hi".into())];
    let tags = spend_tags(preset);
    model.chat(ChatRequest::new(&messages, &[]).with_headers(&tags)).await.unwrap().content
}

fn header(s: &GatewayRequest, name: &str) -> String {
    s.headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned()
}

// scenario: A refused per-user key falls back once
pub async fn a_bound_model_uses_the_users_key_with_spend_tags_and_falls_back_once(db: &TestDb) {
    let f = fake().await;
    let store = db.second_store().await;
    let u = user(store.as_ref(), "ann@example.com").await;
    let keys = KeyResolver::new(Arc::clone(&store), Arc::new(f.gateway()));
    let model = AssistantModel::new(service_client(f.origin()), Some(keys.clone()));
    assert!(model.per_user_keys());
    let bound = model.bind(u).await;
    assert_eq!(ask(bound.as_ref(), Preset::Interview).await, "hello from sk-bf-1");
    let calls = f.calls(&Method::POST, "/v1/chat/completions");
    assert_eq!(calls[0].authorization, "Bearer sk-bf-1");
    assert_eq!(header(&calls[0], "x-bf-dim-feature"), "assistant");
    assert_eq!(header(&calls[0], "x-bf-dim-preset"), "interview");
    // The gateway now refuses the user's key: one call on it, then the service key; the
    // rest of the turn stays on the service key, and the stale key is forgotten.
    f.refuse("sk-bf-1");
    let bound = model.bind(u).await;
    assert_eq!(ask(bound.as_ref(), Preset::Chat).await, "hello from sk-service");
    assert_eq!(ask(bound.as_ref(), Preset::Chat).await, "hello from sk-service");
    let bearers: Vec<_> = f
        .calls(&Method::POST, "/v1/chat/completions")
        .iter()
        .skip(1)
        .map(|s| s.authorization.clone())
        .collect();
    assert_eq!(bearers, ["Bearer sk-bf-1", "Bearer sk-service", "Bearer sk-service"]);
    let last = f.calls(&Method::POST, "/v1/chat/completions").pop().unwrap();
    assert_eq!(header(&last, "x-bf-dim-preset"), "chat");
    eventually("the stale key is forgotten", async || keys.stored(u).await.is_none()).await;
    eventually("the stale key is blocked", async || {
        f.calls(&Method::PUT, "/api/governance/virtual-keys/vk-1").len() == 1
    })
    .await;
    // The next turn mints a fresh key.
    let bound = model.bind(u).await;
    assert_eq!(ask(bound.as_ref(), Preset::Chat).await, "hello from sk-bf-2");
    store.close().await;
}

#[tokio::test]
async fn without_a_gateway_the_configured_key_is_used() {
    let f = fake().await;
    let model = AssistantModel::new(service_client(f.origin()), None);
    assert!(!model.per_user_keys());
    let bound = model.bind(UserId::new(3).unwrap()).await;
    assert_eq!(ask(bound.as_ref(), Preset::Chat).await, "hello from sk-service");
    let calls = f.calls(&Method::POST, "/v1/chat/completions");
    assert_eq!(calls.len(), 1);
    assert_eq!(header(&calls[0], "x-bf-dim-feature"), "assistant");
    assert_eq!(calls[0].body["model"], "test-model");
    assert!(f.calls(&Method::POST, "/api/governance/virtual-keys").is_empty());
}

pub async fn the_model_is_configured_from_llm_variables(db: &TestDb) {
    let store = db.second_store().await;
    let lookup = |vars: Vec<(&'static str, &'static str)>| {
        move |name: &str| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| (*v).to_owned())
    };
    let none = AssistantModel::from_lookup(Arc::clone(&store), lookup(vec![("LLM_MODEL", "m")]));
    assert!(none.unwrap().is_none(), "no URL: unconfigured");
    let none = AssistantModel::from_lookup(
        Arc::clone(&store),
        lookup(vec![("LLM_BASE_URL", "http://127.0.0.1:1"), ("LLM_MODEL", " ")]),
    );
    assert!(none.unwrap().is_none(), "no model: unconfigured");
    let m = AssistantModel::from_lookup(
        Arc::clone(&store),
        lookup(vec![
            ("LLM_BASE_URL", "http://127.0.0.1:1"),
            ("LLM_MODEL", "small"),
            ("ASSISTANT_MODEL", "big"),
        ]),
    )
    .unwrap()
    .unwrap();
    assert_eq!(m.model_name(), "big");
    assert!(!m.per_user_keys());
    let err = AssistantModel::from_lookup(
        Arc::clone(&store),
        lookup(vec![("LLM_BASE_URL", "ftp://x"), ("LLM_MODEL", "m")]),
    )
    .unwrap_err();
    assert!(err.to_string().contains("LLM_BASE_URL"), "{err}");
    let m = AssistantModel::from_lookup(
        Arc::clone(&store),
        lookup(vec![
            ("LLM_BASE_URL", "http://127.0.0.1:1"),
            ("LLM_MODEL", "m"),
            ("LLM_ADMIN_URL", "http://127.0.0.1:2"),
            ("LLM_ADMIN_USERNAME", "a"),
            ("LLM_ADMIN_PASSWORD", "p"),
            ("LLM_ADMIN_TEMPLATE_KEY", "t"),
        ]),
    )
    .unwrap()
    .unwrap();
    assert!(m.per_user_keys());
    store.close().await;
}
