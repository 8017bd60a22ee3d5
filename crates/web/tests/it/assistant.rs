//! The assistant's pages with plain requests (no JavaScript), on both backends: the rail, a
//! stored conversation rendered on the server (messages, tool steps as `<details>`, the
//! `present_jobs` card with the job's title and a Save form, the `<noscript>` note), "New chat"
//! and delete, and the 404 page for another account's, a malformed or a deleted session; an
//! interview rehearsal and a debrief started from the tracking pages' forms, opened with the
//! Start form and a failed turn run again with the Retry form against a local server speaking
//! the OpenAI protocol, and the refusals of a job the viewer does not hold.

use std::time::Duration;

use freehire_app::assistant::model::AssistantModel;
use freehire_app::testing::openai::{ModelReply, OpenAiServer};
use freehire_assistant::{NewMessage, Role, SessionId, TranscriptStore};
use freehire_domain::Email;
use freehire_llm::{OpenAiClient, OpenAiConfig};
use freehire_store::{Store, Transcripts, testing::TestDb};

use crate::server::{Browser, Page, Server, now, on_both_backends};

const PASSWORD: &str = "correct horse battery";

async fn signed_up<'a>(s: &'a Server, email: &str) -> Browser<'a> {
    let b = Browser::new(s);
    let page = b.submit("/signup", "/signup", &[("email", email), ("password", PASSWORD)]).await;
    assert_eq!(page.status, 303, "{}", page.body);
    b
}

fn msg(role: Role, content: serde_json::Value) -> NewMessage {
    NewMessage { role, content: content.to_string() }
}

// scenario: The assistant page reads a conversation without JavaScript
async fn the_assistant_page_reads_a_conversation_without_javascript(db: TestDb) {
    let s = Server::indexed(db).await;
    let b = signed_up(&s, "ada@example.com").await;
    let rail = b.get("/assistant").await;
    assert_eq!(rail.status, 200, "{}", rail.body);
    assert!(rail.body.contains("No conversations yet") && rail.body.contains("id=\"new-chat\""));
    assert!(rail.body.contains("href=\"/assistant\">Assistant</a>"), "the navigation links it");

    let created = b.submit("/assistant", "/assistant", &[]).await;
    assert_eq!(created.status, 303, "{}", created.body);
    let page = created.location().to_owned();
    let id: SessionId = page.trim_start_matches("/assistant/").parse().unwrap();

    let store: std::sync::Arc<dyn Store> = s.db.store.clone();
    let owner = store
        .credentials_by_email(&Email::parse("ada@example.com").unwrap())
        .await
        .unwrap()
        .unwrap()
        .user
        .id;
    let jobs = store.list_open_jobs(freehire_store::ListPage::new(1, 0)).await.unwrap();
    let job = &jobs.jobs[0];
    let slug = job.public_slug.as_str();
    let transcripts = Transcripts::new(store.clone(), now);
    let present = serde_json::json!({"jobs": [{"slug": slug, "note": "Remote & <b>Rust</b>", "why_fits": ["Rust"]}]});
    for m in [
        msg(Role::User, serde_json::json!({"text": "find me remote Rust jobs in Germany"})),
        msg(
            Role::Assistant,
            serde_json::json!({"tool_calls": [{"id": "c1", "name": "search_jobs", "arguments": "{\"query\":\"rust\"}"}]}),
        ),
        msg(
            Role::Tool,
            serde_json::json!({"tool_call_id": "c1", "name": "search_jobs", "result": "{\"total\":3}"}),
        ),
        msg(
            Role::Assistant,
            serde_json::json!({"tool_calls": [{"id": "c2", "name": "present_jobs", "arguments": present.to_string()}]}),
        ),
        msg(
            Role::Tool,
            serde_json::json!({"tool_call_id": "c2", "name": "present_jobs", "result": serde_json::json!({"presented": [slug], "dropped": []}).to_string()}),
        ),
        msg(Role::Assistant, serde_json::json!({"text": "Here is one that fits."})),
    ] {
        transcripts.append(id, &owner, &m).await.unwrap();
    }

    let chat = b.get(&page).await;
    assert_eq!(chat.status, 200, "{}", chat.body);
    let body = &chat.body;
    assert!(body.contains(&format!("href=\"{page}\" aria-current=\"page\"")), "the rail marks it");
    assert!(body.contains("find me remote Rust jobs in Germany"));
    assert!(body.contains("<span class=\"tool\">search_jobs</span>"), "{body}");
    assert!(body.contains(&html_escape(r#""query": "rust""#)), "the step's input");
    assert!(body.contains(&html_escape(r#""total": 3"#)), "the step's result");
    assert!(body.contains(&format!("data-slug=\"{slug}\"")));
    assert!(body.contains(&format!(">{}</a></h3>", html_escape(&job.posting.title))), "the title");
    assert!(body.contains(&html_escape("Remote & <b>Rust</b>")), "the note, escaped");
    assert!(body.contains(&format!("action=\"/jobs/{slug}/save\"")), "the card's Save form");
    assert!(body.contains("Here is one that fits."));
    assert!(body.contains("<noscript>") && body.contains("sending a message needs it"));
    assert!(
        body.contains("id=\"chat-form\"") && body.contains(" hidden>"),
        "the form waits for JS"
    );
    assert!(!body.contains("retry-turn"), "an answered turn offers no Retry");
    assert!(!body.contains("id=\"chat-start\""), "a chat does not open by itself");
    // Without a model, the Start form of a chat says the assistant is unavailable (no 500).
    let start = b.submit(&page, &format!("{page}/opening"), &[]).await;
    assert_eq!(start.status, 503, "{}", start.body);
    assert!(start.body.contains("LLM_BASE_URL"), "{}", start.body);

    // Saving from the card (the plain form) marks it saved.
    let saved = b.submit(&page, &format!("/jobs/{slug}/save"), &[("next", &page)]).await;
    assert_eq!((saved.status, saved.location()), (303, page.as_str()));
    assert!(b.get(&page).await.body.contains("Saved ✓"));

    // Another account sees none of it.
    let other = signed_up(&s, "bo@example.com").await;
    assert_eq!(other.get(&page).await.status, 404);
    assert!(!other.get("/assistant").await.body.contains(&page));
    let refused = other.submit("/assistant", &format!("{page}/delete"), &[]).await;
    assert_eq!(refused.status, 404);
    assert_eq!(b.get("/assistant/not-a-uuid").await.status, 404);

    let deleted = b.submit(&page, &format!("{page}/delete"), &[]).await;
    assert_eq!((deleted.status, deleted.location()), (303, "/assistant"));
    assert_eq!(b.get(&page).await.status, 404);

    let anonymous = Browser::new(&s).get(&page).await;
    assert_eq!(anonymous.status, 303);
    assert!(anonymous.location().starts_with("/login?next="), "{}", anonymous.location());
}

/// Askama's HTML escaping.
fn html_escape(s: &str) -> String {
    s.replace('&', "&#38;")
        .replace('<', "&#60;")
        .replace('>', "&#62;")
        .replace('"', "&#34;")
        .replace('\'', "&#39;")
}

/// The `/assistant/{uuid}` a creation redirected to.
fn session_page(page: &Page) -> String {
    assert_eq!(page.status, 303, "{}", page.body);
    let to = page.location().to_owned();
    to.trim_start_matches("/assistant/").parse::<SessionId>().unwrap_or_else(|_| panic!("{to}"));
    to
}

// scenario: An interview rehearsal and a debrief start from the tracking pages without JavaScript
async fn rehearsals_and_debriefs_start_from_the_tracking_pages(db: TestDb) {
    let llm = OpenAiServer::start([
        ModelReply::text("I see a Rust role at Acme. Which round shall we run?"),
        ModelReply::Status(500, "model down".into()),
        ModelReply::text("What were you asked first?"),
    ])
    .await;
    let client = OpenAiClient::new(OpenAiConfig::new(llm.base_url(), "test-model"))
        .unwrap()
        .with_timeout(Duration::from_secs(20))
        .with_idle_timeout(Duration::from_secs(20));
    let s = Server::indexed_mapped(db, move |state| {
        let assistant = state.assistant.clone().with_model(Some(AssistantModel::new(client, None)));
        state.with_assistant(assistant)
    })
    .await;
    let store: std::sync::Arc<dyn Store> = s.db.store.clone();
    let jobs = store.list_open_jobs(freehire_store::ListPage::new(100, 0)).await.unwrap().jobs;
    let job = jobs.iter().find(|j| j.posting.title == "Rust Engineer").unwrap();
    let slug = job.public_slug.as_str();

    let b = signed_up(&s, "ada@example.com").await;
    let applied =
        b.submit("/tracking", &format!("/jobs/{slug}/apply"), &[("next", "/tracking")]).await;
    assert_eq!(applied.status, 303, "{}", applied.body);
    let board = b.get("/tracking").await;
    for preset in ["interview", "debrief"] {
        assert!(board.body.contains(&format!("name=\"preset\" value=\"{preset}\"><input type=\"hidden\" name=\"job\" value=\"{slug}\">")), "{preset} on the card: {}", board.body);
    }
    assert!(
        board.body.contains(">Rehearse the interview</button>")
            && board.body.contains(">Debrief</button>")
    );

    // "Rehearse the interview" from the board: the session, bound to the job, not opened yet.
    let page = session_page(
        &b.submit("/tracking", "/assistant", &[("preset", "interview"), ("job", slug)]).await,
    );
    let chat = b.get(&page).await;
    assert_eq!(chat.status, 200, "{}", chat.body);
    let label = "Interview: Rust Engineer · Acme";
    assert!(
        chat.body.contains(&format!("aria-current=\"page\">{}</a>", html_escape(label))),
        "{}",
        chat.body
    );
    assert!(chat.body.contains("interview rehearsal ·"), "the rail names the preset");
    assert!(chat.body.contains(&format!("href=\"/tracking/{slug}\">the application</a>")));
    assert!(chat.body.contains(&format!("id=\"chat-start\" class=\"chat-start\" method=\"post\" action=\"{page}/opening\" data-auto=\"1\"")), "{}", chat.body);
    assert!(!chat.body.contains("retry-turn"));

    // Start without JavaScript: the opening runs on the server, then the page shows it.
    let started = b.submit(&page, &format!("{page}/opening"), &[]).await;
    assert_eq!((started.status, started.location()), (303, page.as_str()), "{}", started.body);
    let chat = b.get(&page).await;
    assert!(chat.body.contains("Let&#39;s rehearse this interview."), "the brief: {}", chat.body);
    assert!(chat.body.contains("I see a Rust role at Acme. Which round shall we run?"));
    assert!(!chat.body.contains("id=\"chat-start\"") && !chat.body.contains("retry-turn"));
    let again = b.submit(&page, &format!("{page}/opening"), &[]).await;
    assert_eq!(again.status, 409, "an opened session does not open again");
    assert!(again.body.contains("this conversation has already started"), "{}", again.body);

    // "Debrief" from the application page; its opening fails: Retry after the reload.
    let application = b.get(&format!("/tracking/{slug}")).await;
    assert!(application.body.contains("name=\"preset\" value=\"debrief\""), "{}", application.body);
    let debrief = session_page(
        &b.submit(
            &format!("/tracking/{slug}"),
            "/assistant",
            &[("preset", "debrief"), ("job", slug)],
        )
        .await,
    );
    let failed = b.submit(&debrief, &format!("{debrief}/opening"), &[]).await;
    assert_eq!(failed.status, 303, "{}", failed.body);
    let chat = b.get(&debrief).await;
    assert!(chat.body.contains("Debrief: Rust Engineer · Acme"), "{}", chat.body);
    assert!(
        chat.body
            .contains(&format!("class=\"retry-turn\" method=\"post\" action=\"{debrief}/retry\"")),
        "{}",
        chat.body
    );
    assert!(!chat.body.contains("id=\"chat-start\""), "a stored brief is retried, not reopened");
    let retried = b.submit(&debrief, &format!("{debrief}/retry"), &[]).await;
    assert_eq!((retried.status, retried.location()), (303, debrief.as_str()));
    let chat = b.get(&debrief).await;
    assert!(chat.body.contains("What were you asked first?"), "{}", chat.body);
    assert!(!chat.body.contains("retry-turn"));
    assert_eq!(llm.requests().len(), 3, "the opening, the failed debrief, its retry");

    // The rail lists both with their preset and job; "New chat" still makes a chat.
    let rail = b.get("/assistant").await;
    assert!(rail.body.contains(&html_escape(label)) && rail.body.contains("debrief ·"));
    let new = session_page(&b.submit("/assistant", "/assistant", &[]).await);
    let chat = b.get(&new).await;
    assert!(chat.body.contains("chat ·") && !chat.body.contains("id=\"chat-start\""));

    // A job someone else holds, one nobody holds, no job, and a preset not made here.
    let other = signed_up(&s, "bo@example.com").await;
    for job in [slug, "acme-nowhere-abcdefgh"] {
        let refused =
            other.submit("/tracking", "/assistant", &[("preset", "interview"), ("job", job)]).await;
        assert_eq!(refused.status, 404, "{job}: {}", refused.body);
        assert!(refused.body.contains("application not found"), "{}", refused.body);
        assert!(refused.body.contains("a job you saved or applied to"), "{}", refused.body);
    }
    let no_job = other.submit("/tracking", "/assistant", &[("preset", "debrief")]).await;
    assert_eq!(no_job.status, 422, "{}", no_job.body);
    assert!(no_job.body.contains("job: this conversation needs the `job` slug"), "{}", no_job.body);
    let tailor = other.submit("/tracking", "/assistant", &[("preset", "tailor")]).await;
    assert_eq!(tailor.status, 422, "{}", tailor.body);
    assert!(tailor.body.contains("preset: "), "{}", tailor.body);
    assert!(other.get("/assistant").await.body.contains("No conversations yet"));
    // Another account's session: its forms are the 404 page.
    assert_eq!(other.submit("/assistant", &format!("{page}/retry"), &[]).await.status, 404);
    assert_eq!(other.submit("/assistant", &format!("{page}/opening"), &[]).await.status, 404);
    assert_eq!(llm.requests().len(), 3, "no refused form reached the model");
    s.db.teardown().await;
}

on_both_backends!(
    the_assistant_page_reads_a_conversation_without_javascript,
    rehearsals_and_debriefs_start_from_the_tracking_pages
);
