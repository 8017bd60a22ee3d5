//! Two `freehire-api` processes on one PostgreSQL database with a scripted OpenAI-protocol
//! model server: one turn per session holds across the processes (a message on A runs, a
//! second on B queues behind it, a third is 409 on either) and a cancel sent to B stops the
//! turn running on A; afterwards B runs the next message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::time::{Duration, Instant};

use freehire_app::testing::{
    openai::{ModelReply, OpenAiServer},
    terminate,
};
use freehire_store::testing::TestDb;
use serde_json::Value;
use support::{Api, account_token, create_session, database_url, send, stream};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_turn_per_session_holds_across_two_api_processes_and_cancel_reaches_it() {
    let db = TestDb::postgres().await;
    let token = account_token(db.store.clone(), "ada@example.com").await;
    // The first turn's model call never answers: it runs until cancelled. The next one
    // answers at once.
    let model = OpenAiServer::start([ModelReply::Hang, ModelReply::text("Here you go.")]).await;
    let url = database_url(&db);
    let llm = model.base_url();
    let (mut a, mut b) = (Api::start(&url, &llm).await, Api::start(&url, &llm).await);
    let client = reqwest::Client::new();

    let id = create_session(&client, &a, &token, "chat").await;

    // A runs the first turn (its model call hangs).
    let mut first = stream(send(&client, &a, &token, &id, "find me remote Rust jobs").await).await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while model.requests().is_empty() {
        assert!(Instant::now() < deadline, "the first turn never reached the model");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // B queues the second behind it.
    let mut second = stream(send(&client, &b, &token, &id, "and in Germany?").await).await;
    let queued = second.until("queued", Duration::from_secs(10)).await;
    assert_eq!(queued["type"], "queued");
    // A third is refused by either process.
    for api in [&a, &b] {
        let third = send(&client, api, &token, &id, "third").await;
        assert_eq!(third.status(), 409);
        let body: Value = third.json().await.unwrap();
        assert_eq!(body["code"], "turn_queue_full", "{body}");
    }

    // Cancel sent to B stops the turn running on A (and B's queued one).
    let sent = Instant::now();
    let cancel = client
        .post(b.url(&format!("/assistant/sessions/{id}/cancel")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(cancel.status(), 204);
    let ended = first.until("result", Duration::from_secs(10)).await;
    let took = sent.elapsed();
    eprintln!("cancel sent to B: the turn on A ended {took:?} later");
    assert!(took < Duration::from_secs(3), "A's turn ended {took:?} after the cancel on B");
    assert_eq!(ended["stop_reason"], "cancelled", "{ended}");
    let waited = second.until("result", Duration::from_secs(10)).await;
    assert_eq!(waited["stop_reason"], "cancelled", "the queued turn was cancelled: {waited}");
    assert_eq!(model.requests().len(), 1, "the queued turn never ran");

    // The lease is free again: B runs the next message.
    let mut next = stream(send(&client, &b, &token, &id, "try again").await).await;
    let done = next.until("result", Duration::from_secs(20)).await;
    assert_ne!(done["is_error"], true, "{done}");
    assert_ne!(done["stop_reason"], "cancelled", "{done}");
    assert_eq!(model.requests().len(), 2);

    for api in [&mut a, &mut b] {
        let status = terminate(&mut api.child, Duration::from_secs(10), "did not stop").await;
        assert!(status.success(), "{status}");
    }
    db.teardown().await;
}
