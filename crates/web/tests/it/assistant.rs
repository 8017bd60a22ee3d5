//! The assistant's pages with plain requests (no JavaScript), on both backends: the rail, a
//! stored conversation rendered on the server (messages, tool steps as `<details>`, the
//! `present_jobs` card with the job's title and a Save form, the `<noscript>` note), "New chat"
//! and delete, and the 404 page for another account's, a malformed or a deleted session.

use freehire_assistant::{NewMessage, Role, SessionId, TranscriptStore};
use freehire_domain::Email;
use freehire_store::{Store, Transcripts, testing::TestDb};

use crate::server::{Browser, Server, now, on_both_backends};

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

on_both_backends!(the_assistant_page_reads_a_conversation_without_javascript);
