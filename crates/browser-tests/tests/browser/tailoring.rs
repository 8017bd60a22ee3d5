//! Tailoring in a browser, against a scripted model ([`freehire_app::testing::openai`]): sign
//! up, write a base CV, open a job of the demo catalogue and click "Tailor my CV to this job";
//! the tailor session's page shows the workspace (the vacancy, the copy's preview, the score)
//! and runs autopilot by itself; the model asks for a confirmation, which renders as Yes/No
//! buttons; clicking Yes sends the claim as the candidate's own message, the model banks it
//! (`stated_in_chat`, so citable) and writes the bullet citing it; the copy shows it, and
//! "Undo this run" takes it back; "Draft a cover letter" writes a letter citing the confirmed
//! achievement, signed with the CV's name.

use freehire_app::testing::openai::{ModelReply, OpenAiServer};
use freehire_browser_tests::{Browser, Scripts, Tools};
use freehire_domain::plan::PlanPolicy;
use serde_json::{Value, json};

use crate::common::LIMIT;
use crate::pages::shoot;
use crate::server::Server;
use crate::workspace::sign_up;

const CLAIM: &str = "I led a team of five engineers";

/// The last message of a model request when it is a tool result: (call id, result).
fn last_tool(req: &freehire_app::testing::openai::ModelRequest) -> Option<(String, Value)> {
    let last = req.body["messages"].as_array()?.last()?;
    (last["role"] == "tool").then(|| {
        let content = last["content"].as_str().unwrap_or_default();
        (
            last["tool_call_id"].as_str().unwrap_or_default().to_owned(),
            serde_json::from_str(content).unwrap_or(Value::Null),
        )
    })
}

// scenario: Tailor a CV in the browser, confirm a claim with Yes, see it cited, and undo the run
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tailor_confirm_with_yes_and_undo_the_run() {
    let model = OpenAiServer::start([]).await;
    let tools = Tools::from_env().unwrap_or_else(|e| panic!("{e}"));
    let server = Server::start_with(Some((model.base_url(), PlanPolicy::default()))).await;
    let b = Browser::launch(&tools, &server.base, Scripts::On).await.unwrap();
    let slug = server.first_slug().await;
    // The autopilot run: read the context, then ask for the one thing the bank lacks.
    model.push([
        ModelReply::call("ctx", "cv_context", json!({})),
        ModelReply::call(
            "ask",
            "request_confirmation",
            json!({"claim": CLAIM, "question": "Did you lead a team?"}),
        ),
        ModelReply::text("One requirement is open: did you lead a team?"),
    ]);
    // After the Yes: bank the claim with the candidate's words, cite the new atom, answer.
    model.answer_with(|req| match last_tool(req) {
        Some((call, result)) if call == "add" => {
            let id = result["id"].clone();
            ModelReply::call(
                "edit",
                "cv_edit",
                json!({"ops": [{"kind": "insert", "path": "experience[0].bullets[0]",
                                "value": "Led a team of five engineers", "evidence_id": id}],
                       "requirement": "Led a team", "requirement_status": "closed_candidate"}),
            )
        }
        Some((call, _)) if call == "edit" => ModelReply::text("Added it to your CV."),
        // The cover letter's draft: one paragraph on the first achievement it was shown.
        _ if req.tool_names().is_empty() && req.system().starts_with("You write a cover letter") => {
            let asked = req.body["messages"][1]["content"].as_str().unwrap_or_default();
            let asked: serde_json::Value = serde_json::from_str(asked).unwrap_or_default();
            let id = asked["evidence"][0]["id"].clone();
            ModelReply::text(
                json!({"greeting": "Dear Acme team,",
                       "paragraphs": [{"text": "At Acme I led a team of five engineers.", "evidence_ids": [id]}],
                       "closing": "Kind regards,"})
                .to_string(),
            )
        }
        _ if req.tool_names().is_empty() => ModelReply::text("Done."),
        _ => ModelReply::call(
            "add",
            "experience_add",
            json!({"claim": "Led a team of five engineers", "said": CLAIM}),
        ),
    });
    b.check("tailor_confirm_with_yes_and_undo_the_run", LIMIT, async {
        sign_up(&b, "ada@example.com").await;
        b.click("header a[href='/cvs']").await.unwrap();
        b.fill("#full_name", "Ada Lovelace").await.unwrap();
        b.fill("#summary", "Backend engineer.").await.unwrap();
        b.click("form[action='/cvs'] button[type=submit]").await.unwrap();
        b.wait_location("the base CV", |l| l.starts_with("/cvs/")).await.unwrap();
        b.fill("#company", "Acme").await.unwrap();
        b.fill("#role", "Backend engineer").await.unwrap();
        b.fill("#new-bullets", "Built the billing service").await.unwrap();
        b.click("form[action$='/experience'] button[type=submit]").await.unwrap();
        b.wait_text("main", "Built the billing service").await.unwrap();

        b.visit(&format!("/jobs/{slug}")).await.unwrap();
        b.click("#tailor-cv").await.unwrap();
        let session = b
            .wait_location("the tailor session", |l| l.starts_with("/assistant/"))
            .await
            .unwrap();
        b.wait_for("#tailor-panel img.cv-preview").await.unwrap();
        b.wait_text("#tailor-panel", "Match score").await.unwrap();
        let cv_page = b.script("return document.querySelector('#tailor-panel a[href^=\"/cvs/\"]').getAttribute('href')", vec![]).await.unwrap();
        let cv_page = cv_page.as_str().unwrap().to_owned();
        // Autopilot ran by itself: the confirmation is two buttons.
        b.wait_text("#transcript .confirm blockquote", CLAIM).await.unwrap();
        b.wait_text("#transcript .msg.assistant", "did you lead a team?").await.unwrap();
        b.wait_gone("#chat-stop:not([hidden])").await.unwrap();
        shoot(&b, "tailoring").await;
        b.click("#transcript .confirm .confirm-yes").await.unwrap();
        b.wait_text("#transcript .msg.assistant:last-of-type", "Added it to your CV.").await.unwrap();
        b.wait_gone("#chat-stop:not([hidden])").await.unwrap();

        // The claim is the candidate's own now (confirmed, said in chat), and the copy cites it.
        b.visit("/experience").await.unwrap();
        b.wait_text("main", "Led a team of five engineers").await.unwrap();
        b.wait_text("main", "Confirmed · stated_in_chat").await.unwrap();
        b.visit(&cv_page).await.unwrap();
        b.wait_text("main", "Led a team of five engineers").await.unwrap();
        // The workspace offers to undo the run; it takes the bullet back.
        b.visit(&session).await.unwrap();
        b.wait_text("#transcript", CLAIM).await.unwrap();
        b.wait_text("#tailor-report", "Led a team").await.unwrap();
        b.click("#undo-run").await.unwrap();
        b.wait_location("back to the session", |l| l == session).await.unwrap();
        // The redirect's page may still be loading when the location reads back: a visit
        // issued then can be lost to it, so the copy's page is opened until it is the one
        // shown (it was seen showing the session's page for the whole wait otherwise).
        let text = b
            .wait_until("the copy's page without the run", || async {
                b.visit(&cv_page).await?;
                let text = b.text("main").await?;
                Ok(text.contains("Built the billing service").then_some(text))
            })
            .await
            .unwrap();
        assert!(!text.contains("Led a team of five engineers"), "the run is undone: {text}");

        // A cover letter from the workspace: signed with the CV's name, citing the confirmed
        // achievement.
        b.visit(&session).await.unwrap();
        b.click("#letter-band option[value='short']").await.unwrap();
        b.click("#draft-letter").await.unwrap();
        b.wait_text("#letter-text", "At Acme I led a team of five engineers.").await.unwrap();
        b.wait_text("#letter-text", "Ada Lovelace").await.unwrap();
        b.wait_text("#cover-letter", "short · cites 1 of your achievements").await.unwrap();
        b.wait_text("#draft-letter", "Draft it again").await.unwrap();
    })
    .await;
}
