//! The assistant in a browser, against a local server speaking the OpenAI chat-completions
//! protocol, scripted per test ([`freehire_app::testing::openai`]): sign up, open
//! `/assistant`, start a chat, send "find me remote Rust jobs in Germany"; the model calls
//! `search_jobs`, then `present_jobs` with a real slug of the demo catalogue, then answers;
//! the tool steps and the job card stream in, the card's Save button saves the job (it is on
//! the tracking board), the conversation reads back server-rendered, Stop ends a slow turn and
//! Retry runs a failed one again. With the allowance at 0 and enforced, sending shows the quota.
//! From the tracking board, "Rehearse the interview" opens a session whose opening streams in
//! by itself; a failed turn still offers Retry after a reload, and it streams the answer.

use freehire_app::testing::openai::{ModelReply, OpenAiServer};
use freehire_browser_tests::{Browser, Scripts, Tools};
use freehire_domain::plan::PlanPolicy;
use serde_json::json;

use crate::common::LIMIT;
use crate::pages::shoot;
use crate::server::Server;
use crate::workspace::sign_up;

async fn served(model: &OpenAiServer, policy: PlanPolicy) -> (Server, Browser) {
    let tools = Tools::from_env().unwrap_or_else(|e| panic!("{e}"));
    let server = Server::start_with(Some((model.base_url(), policy))).await;
    let browser = Browser::launch(&tools, &server.base, Scripts::On).await.unwrap();
    (server, browser)
}

/// Opens `/assistant` and starts a new chat; its page's path.
async fn new_chat(b: &Browser) -> String {
    b.click("header a[href='/assistant']").await.unwrap();
    b.wait_location("open the assistant", |l| l == "/assistant").await.unwrap();
    b.click("#new-chat").await.unwrap();
    b.wait_location("open the new chat", |l| l.starts_with("/assistant/") && l.len() == 47)
        .await
        .unwrap()
}

async fn send(b: &Browser, text: &str) {
    b.wait_for("#chat-form:not([hidden]) #chat-text").await.unwrap();
    b.fill("#chat-text", text).await.unwrap();
    b.click("#chat-send").await.unwrap();
}

// scenario: A chat in the browser streams tool steps and job cards, saves a job and stops a turn
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_streams_steps_and_cards_saves_a_job_and_stops() {
    let model = OpenAiServer::start([]).await;
    let (server, b) = served(&model, PlanPolicy::default()).await;
    let slug = server.first_slug().await;
    let title = server.api_job(&slug).await["title"].as_str().unwrap().to_owned();
    model.push([
        ModelReply::call("c1", "search_jobs", json!({"query": "rust", "filters": {"countries": ["de"]}})),
        ModelReply::call(
            "c2",
            "present_jobs",
            json!({"heading": "Remote Rust", "jobs": [{"slug": slug, "note": "Remote, Rust all day", "why_fits": ["Rust"]}]}),
        ),
        ModelReply::text("Here is one that fits. Shall I save it?"),
        ModelReply::Hang,
    ]);
    b.check("a_chat_streams_steps_and_cards_saves_a_job_and_stops", LIMIT, async {
        sign_up(&b, "ada@example.com").await;
        let page = new_chat(&b).await;
        send(&b, "find me remote Rust jobs in Germany").await;
        b.wait_text("#transcript .msg.user", "find me remote Rust jobs in Germany").await.unwrap();
        b.wait_text("#transcript .step[data-call='c1'] .tool", "search_jobs").await.unwrap();
        b.wait_text("#transcript .step[data-call='c2'] .tool", "present_jobs").await.unwrap();
        b.wait_text(&format!(".job-card[data-slug='{slug}'] h3"), &title).await.unwrap();
        b.wait_text(".job-card .note", "Remote, Rust all day").await.unwrap();
        b.wait_text("#transcript .msg.assistant", "Here is one that fits. Shall I save it?")
            .await
            .unwrap();
        b.wait_gone("#chat-stop:not([hidden])").await.unwrap();
        // A step opens to show its input and result.
        b.click("#transcript .step summary").await.unwrap();
        b.wait_text("#transcript .step pre.input", "\"query\": \"rust\"").await.unwrap();
        shoot(&b, "assistant").await;

        b.click(".job-card form.save-job button").await.unwrap();
        b.wait_text(".job-card form.save-job button", "Saved ✓").await.unwrap();

        // Read back from the server, without the stream: the same steps and card.
        b.visit(&page).await.unwrap();
        b.wait_text("#transcript .step[data-call='c2'] .tool", "present_jobs").await.unwrap();
        b.wait_text(&format!(".job-card[data-slug='{slug}'] h3"), &title).await.unwrap();
        b.wait_text(".job-card form.save-job button", "Saved ✓").await.unwrap();
        b.wait_for(".rail .sessions li.current a").await.unwrap();

        // A slow turn: Stop cancels it.
        send(&b, "and in Berlin?").await;
        b.wait_for("#chat-stop:not([hidden])").await.unwrap();
        b.click("#chat-stop").await.unwrap();
        b.wait_text("#chat-status", "Stopped.").await.unwrap();
        b.wait_gone("#chat-stop:not([hidden])").await.unwrap();

        // A failed turn offers Retry, which runs it again.
        model.push([ModelReply::Status(500, "model down".into()), ModelReply::text("Back again.")]);
        send(&b, "try once more").await;
        b.wait_for("#transcript button.retry").await.unwrap();
        b.click("#transcript button.retry").await.unwrap();
        b.wait_text("#transcript", "Back again.").await.unwrap();
        b.wait_gone("#transcript button.retry").await.unwrap();

        // The saved job is on the tracking board.
        b.click("header a[href='/tracking']").await.unwrap();
        b.wait_text(&format!("#saved-{slug}"), &title).await.unwrap();
    })
    .await;
    let first = &model.requests()[0];
    assert!(first.tool_names().contains(&"present_jobs".to_owned()), "{:?}", first.tool_names());
}

// scenario: A spent allowance shows the quota in the browser
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spent_allowance_shows_the_quota() {
    let model = OpenAiServer::start([]).await;
    let vars = [
        ("PLAN_ENFORCE".to_owned(), "assistant".to_owned()),
        ("PLAN_FREE_DAILY_ASSISTANT".to_owned(), "0".to_owned()),
    ];
    let (policy, warnings) = PlanPolicy::from_vars(vars);
    assert!(warnings.is_empty(), "{warnings:?}");
    let (_server, b) = served(&model, policy).await;
    b.check("a_spent_allowance_shows_the_quota", LIMIT, async {
        sign_up(&b, "bo@example.com").await;
        new_chat(&b).await;
        send(&b, "hello").await;
        b.wait_text("#chat-status", "allowance is used up: 0 of 0 turns (free plan)")
            .await
            .unwrap();
        b.wait_gone("#chat-stop:not([hidden])").await.unwrap();
        shoot(&b, "assistant-quota").await;
    })
    .await;
    assert!(model.requests().is_empty(), "a refused turn never reaches the model");
}

// scenario: An interview rehearsal starts from the tracking board and opens by itself
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_interview_rehearsal_starts_from_the_board_and_opens_itself() {
    let model = OpenAiServer::start([ModelReply::text(
        "I see the role and your application. Which round shall we run?",
    )])
    .await;
    let (server, b) = served(&model, PlanPolicy::default()).await;
    let slug = server.first_slug().await;
    let title = server.api_job(&slug).await["title"].as_str().unwrap().to_owned();
    b.check("an_interview_rehearsal_starts_from_the_board_and_opens_itself", LIMIT, async {
        sign_up(&b, "ada@example.com").await;
        b.visit(&format!("/jobs/{slug}")).await.unwrap();
        b.click(&format!("#actions-{slug} button.apply")).await.unwrap();
        b.wait_text(&format!("#actions-{slug} a.applied"), "Applied").await.unwrap();
        b.click("header a[href='/tracking']").await.unwrap();
        b.wait_text("#column-applied", &title).await.unwrap();
        b.click("#column-applied .board-card button.rehearse").await.unwrap();
        let page = b
            .wait_location("open the rehearsal", |l| l.starts_with("/assistant/") && l.len() == 47)
            .await
            .unwrap();
        // The opening starts by itself: the brief and the answer stream in.
        b.wait_text("#transcript .msg.user", "Let's rehearse this interview.").await.unwrap();
        b.wait_text("#transcript .msg.assistant", "Which round shall we run?").await.unwrap();
        b.wait_gone("#chat-stop:not([hidden])").await.unwrap();
        b.wait_gone("#chat-start:not([hidden])").await.unwrap();
        let rail = b.text(".rail .sessions li.current").await.unwrap();
        assert!(rail.contains(&format!("Interview: {title}")), "{rail}");
        assert!(rail.contains("interview rehearsal"), "{rail}");
        shoot(&b, "assistant-interview").await;
        // Read back: opened once, nothing to start or retry.
        b.visit(&page).await.unwrap();
        b.wait_text("#transcript .msg.assistant", "Which round shall we run?").await.unwrap();
        assert_eq!(b.count("#chat-start").await.unwrap(), 0);
        assert_eq!(b.count("#transcript button.retry").await.unwrap(), 0);
    })
    .await;
    let requests = model.requests();
    assert_eq!(requests.len(), 1, "the opening ran once");
    assert!(requests[0].tool_names().contains(&"interview_context".to_owned()));
}

// scenario: A failed turn offers Retry after a reload
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_turn_offers_retry_after_a_reload() {
    let model = OpenAiServer::start([ModelReply::Status(500, "model down".into())]).await;
    let (_server, b) = served(&model, PlanPolicy::default()).await;
    b.check("a_failed_turn_offers_retry_after_a_reload", LIMIT, async {
        sign_up(&b, "bo@example.com").await;
        let page = new_chat(&b).await;
        send(&b, "hello there").await;
        b.wait_for("#transcript button.retry").await.unwrap();
        // The reloaded page, rendered by the server, still offers it.
        b.visit(&page).await.unwrap();
        b.wait_text("#transcript .msg.user", "hello there").await.unwrap();
        b.wait_for("#transcript form.retry-turn button.retry").await.unwrap();
        shoot(&b, "assistant-retry").await;
        model.push([ModelReply::text("Back after the reload.")]);
        b.click("#transcript button.retry").await.unwrap();
        b.wait_text("#transcript .msg.assistant", "Back after the reload.").await.unwrap();
        b.wait_gone("#transcript button.retry").await.unwrap();
        b.wait_gone("#chat-stop:not([hidden])").await.unwrap();
    })
    .await;
    assert_eq!(model.requests().len(), 2, "the failed turn and its retry");
}
