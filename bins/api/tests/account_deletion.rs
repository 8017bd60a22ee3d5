//! Deleting an account through the HTTP API of a `freehire-api` process with per-user gateway
//! keys on (its `LLM_ADMIN_*` variables point at a local fake of the Bifrost governance API,
//! its model at a scripted OpenAI-protocol server), on both backends: the user's first AI call
//! mints their own key and runs on it, and `DELETE /api/v1/me` blocks that key at the gateway
//! while the account's row still exists, then deletes the account.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use freehire_app::testing::{
    bifrost::BifrostServer,
    openai::{ModelReply, OpenAiServer},
    terminate,
};
use freehire_store::testing::TestDb;
use reqwest::{Method, header};
use serde_json::json;
use support::{Api, ApiConfig, account, create_session, database_url, send, stream};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_an_account_blocks_its_gateway_key_first_on_sqlite() {
    deleting_an_account_blocks_its_gateway_key_first(TestDb::sqlite().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_an_account_blocks_its_gateway_key_first_on_postgres() {
    deleting_an_account_blocks_its_gateway_key_first(TestDb::postgres().await).await;
}

// scenario: Deleting an account blocks its gateway key first
async fn deleting_an_account_blocks_its_gateway_key_first(db: TestDb) {
    let (address, password) = ("ada@example.com", "correct horse battery");
    let (user, token) = account(db.store.clone(), address, Some(password)).await;
    let gateway = BifrostServer::start().await;
    // Whether the account's row still existed when each block reached the gateway.
    let blocked: Arc<Mutex<Vec<(String, bool)>>> = Arc::default();
    let (seen, store) = (Arc::clone(&blocked), db.store.clone());
    gateway.on_block(Arc::new(move |key| {
        let (seen, store) = (Arc::clone(&seen), store.clone());
        Box::pin(async move {
            let exists = store.user_by_id(user).await.unwrap().is_some();
            seen.lock().unwrap().push((key, exists));
        })
    }));
    let model = OpenAiServer::start([ModelReply::text("Hello, Ada.")]).await;
    let variables = gateway.variables();
    let env: Vec<(&str, &str)> = variables.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let base_url = model.base_url();
    let config = ApiConfig { llm_base_url: &base_url, llm_model: "scripted", env: &env, log: None };
    let mut api = Api::start_with(&database_url(&db), &config).await;
    let client = reqwest::Client::new();

    // The first AI call mints the user's key and runs on it.
    let id = create_session(&client, &api, &token, "chat").await;
    let mut turn = stream(send(&client, &api, &token, &id, "hello").await).await;
    let done = turn.until("result", Duration::from_secs(20)).await;
    assert_eq!(done["stop_reason"], "end_turn", "{done}");
    assert_eq!(gateway.calls(&Method::POST, "/api/governance/virtual-keys").len(), 1);
    assert_eq!(model.requests()[0].header("authorization"), Some("Bearer sk-bf-1"));
    assert!(gateway.calls(&Method::PUT, "/api/governance/").is_empty(), "nothing blocked yet");

    // Deleting the account (the cookie only) blocks the key, then the rows go.
    let login = client
        .post(api.url("/auth/login"))
        .json(&json!({ "email": address, "password": password }))
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), 200);
    let cookie = login.headers()[header::SET_COOKIE].to_str().unwrap();
    let cookie = cookie.split(';').next().unwrap().to_owned();
    let deleted = client
        .delete(api.url("/me"))
        .header(header::COOKIE, cookie)
        .json(&json!({ "email": address }))
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), 204, "{}", deleted.text().await.unwrap());
    let puts = gateway.calls(&Method::PUT, "/api/governance/virtual-keys/vk-1");
    assert_eq!(puts.len(), 1, "{:?}", gateway.seen());
    assert_eq!(puts[0].body, json!({ "is_active": false }));
    assert_eq!(
        *blocked.lock().unwrap(),
        [("vk-1".to_owned(), true)],
        "the key was blocked while the account still existed"
    );
    assert!(db.store.user_by_id(user).await.unwrap().is_none(), "then the account was deleted");
    let gone = client.get(api.url("/me/usage")).bearer_auth(&token).send().await;
    assert_eq!(gone.unwrap().status(), 401, "its key went with it");

    let status = terminate(&mut api.child, Duration::from_secs(10), "did not stop").await;
    assert!(status.success(), "{status}");
    db.teardown().await;
}
