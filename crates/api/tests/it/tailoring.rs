//! Tailoring over HTTP on both backends (reference assistant.md §10.6, §11.3–§11.4, §13.6,
//! §18.5): the bootstrap and its statuses, the workspace, the CV tools of a tailor session
//! driven by a scripted model through the real turn routes, undoing a run, extend, and the
//! honesty suite: a model that tries to launder a claim by every route it has, each attempt
//! refused with the CV unchanged, counted and reported.

use freehire_app::testing::openai::{ModelReply, OpenAiServer};
use freehire_store::testing::TestDb;
use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    accounts::refused,
    assistant::{Caller, Setup, serve},
    jobs::posting,
    server::Server,
};

crate::search::on_both_backends![
    tailoring_starts_once_resumes_and_refuses_what_it_cannot_do,
    a_tailor_session_edits_with_cited_evidence_and_a_run_is_undone_whole,
    the_honesty_suite_launders_nothing,
];

const DESCRIPTION: &str = "<h2>About Acme</h2><p>We make invoices.</p>\
    <h2>What you'll bring</h2><ul><li>5+ years of Rust in production</li>\
    <li>Led a team of engineers</li><li>Operating PostgreSQL at scale</li></ul>\
    <h2>Nice to have</h2><ul><li>Kubernetes experience</li></ul>";

fn document() -> Value {
    json!({
        "header": {"full_name": "Ada Lovelace", "email": "ada@example.com", "phone": "+44 1",
                   "headline": "Backend engineer", "links": [{"label": "GitHub", "url": "https://github.com/ada"}]},
        "summary": "Engineer who ships.",
        "experience": [{"company": "Acme", "role": "Backend Engineer", "start": "2019", "current": true,
                        "bullets": ["Built the Rust billing service", "Ran PostgreSQL in production"]}],
        "skills": [{"name": "Languages", "items": ["Rust", "SQL"]}]
    })
}

/// A vacancy with requirements; its slug.
async fn vacancy(server: &Server, id: &str) -> String {
    let store = server.db.store();
    let mut p = posting(id, "Senior Rust Engineer");
    p.description = DESCRIPTION.to_owned();
    p.facets.skills = vec!["rust".into(), "postgresql".into(), "kubernetes".into()];
    p.facets.experience_years_min = Some(5);
    let written = store.upsert_jobs(&[p], chrono::Utc::now()).await.unwrap();
    store.jobs_by_ids(&[written[0].id]).await.unwrap()[0].public_slug.as_str().to_owned()
}

async fn base_cv(c: &Caller<'_>) -> i64 {
    let a = c
        .call(Method::POST, "/me/cvs", Some(json!({"title": "Main", "document": document()})))
        .await;
    assert_eq!(a.status, 201, "{a:?}");
    a.body["data"]["cv"]["id"].as_i64().unwrap()
}

/// Starts tailoring `slug`: (tailored CV id, session id, cold start).
async fn tailor(c: &Caller<'_>, slug: &str) -> (i64, String, bool) {
    let a = c.call(Method::POST, "/me/cvs/tailor", Some(json!({"job_slug": slug}))).await;
    assert_eq!(a.status, 201, "{a:?}");
    let d = &a.body["data"];
    (
        d["tailor_cv_id"].as_i64().unwrap(),
        d["session_id"].as_str().unwrap().to_owned(),
        d["cold_start_running"].as_bool().unwrap(),
    )
}

async fn cv_document(c: &Caller<'_>, id: i64) -> Value {
    let a = c.call(Method::GET, &format!("/me/cvs/{id}"), None).await;
    assert_eq!(a.status, 200, "{a:?}");
    a.body["data"]["document"].clone()
}

/// Runs one turn in which the model makes `calls` (one model step each) and then answers.
async fn turn(
    c: &Caller<'_>,
    llm: &OpenAiServer,
    session: &str,
    text: &str,
    calls: Vec<(&str, Value)>,
) {
    let mut replies: Vec<ModelReply> = calls
        .into_iter()
        .enumerate()
        .map(|(i, (name, args))| ModelReply::call(&format!("c{i}"), name, args))
        .collect();
    replies.push(ModelReply::text("Done."));
    llm.push(replies);
    let s = c.say(session, text).await;
    assert_eq!(s.status, 200, "{:?}", s.error());
    assert_eq!(s.result()["type"], "result");
}

/// The parsed results of the session's calls of `tool`, in order.
async fn results(c: &Caller<'_>, session: &str, tool: &str) -> Vec<Value> {
    c.transcript(session)
        .await
        .into_iter()
        .filter(|m| m["role"] == "tool" && m["content"]["name"] == tool)
        .map(|m| {
            let raw = &m["content"]["result"];
            raw.as_str().and_then(|r| serde_json::from_str(r).ok()).unwrap_or_else(|| raw.clone())
        })
        .collect()
}

async fn last_result(c: &Caller<'_>, session: &str, tool: &str) -> Value {
    results(c, session, tool).await.pop().unwrap_or_else(|| panic!("no {tool} result"))
}

/// The newest atom of the caller's bank with `claim`.
async fn atom_id(c: &Caller<'_>, claim: &str) -> (i64, String) {
    let a = c.call(Method::GET, "/me/experience", None).await;
    assert_eq!(a.status, 200, "{a:?}");
    let atom = a.body["data"]["atoms"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["claim"] == claim)
        .unwrap_or_else(|| panic!("no atom {claim:?}: {}", a.body))
        .clone();
    (atom["id"].as_i64().unwrap(), atom["provenance"].as_str().unwrap().to_owned())
}

fn bullet(cv: i64, text: &str, evidence: Option<Value>) -> Value {
    let _ = cv;
    let mut op = json!({"kind": "insert", "path": "experience[0].bullets[0]", "value": text});
    if let Some(e) = evidence {
        op["evidence_id"] = e;
    }
    json!({"ops": [op]})
}

// scenario: Tailoring starts once, resumes, and refuses what it cannot do
async fn tailoring_starts_once_resumes_and_refuses_what_it_cannot_do(db: TestDb) {
    let llm = OpenAiServer::start([]).await;
    let server = serve(db, &llm, Setup::default()).await;
    let ada = Caller::new(&server, "ada@example.com").await;
    let slug = vacancy(&server, "t-1").await;
    let a = ada.call(Method::POST, "/me/cvs/tailor", Some(json!({"job_slug": slug}))).await;
    refused(&a, 409, "conflict", None);
    assert_eq!(a.body["error"], "add a résumé before tailoring");
    let a = ada.call(Method::POST, "/me/cvs/tailor", Some(json!({"job_slug": " "}))).await;
    refused(&a, 400, "invalid_parameter", Some("job_slug"));
    let a =
        ada.call(Method::POST, "/me/cvs/tailor", Some(json!({"job_slug": "no-such-job-9"}))).await;
    refused(&a, 404, "not_found", None);
    let base = base_cv(&ada).await;
    let (cv, session, cold) = tailor(&ada, &slug).await;
    assert!(cold, "the first request creates the copy");
    assert_ne!(cv, base);
    let again = ada.call(Method::POST, "/me/cvs/tailor", Some(json!({"job_slug": slug}))).await;
    assert_eq!(again.status, 201);
    let d = &again.body["data"];
    assert_eq!(
        (d["tailor_cv_id"].as_i64(), d["session_id"].as_str(), d["cold_start_running"].as_bool()),
        (Some(cv), Some(session.as_str()), Some(false)),
        "resumed: the same copy and session"
    );
    assert_eq!(d["base_cv_id"], base);
    assert!(d["analysis"]["score"].as_u64().is_some(), "{d}");
    // The session is a tailor session bound to the copy; it is not on the chat rail.
    let read = ada.call(Method::GET, &format!("/assistant/sessions/{session}"), None).await;
    assert_eq!(read.body["data"]["session"]["preset"], "tailor", "{read:?}");
    assert_eq!(read.body["data"]["session"]["job"], slug.as_str());
    // The copy's history starts with its seed, which cannot be undone.
    let feed = ada.call(Method::GET, &format!("/me/cvs/{cv}/revisions"), None).await;
    assert_eq!(feed.status, 200, "{feed:?}");
    let seed = &feed.body["data"][0];
    assert_eq!(feed.body["data"].as_array().unwrap().len(), 1, "{feed:?}");
    assert_eq!(
        (seed["title"].as_str(), seed["actor"].as_str()),
        (Some("Created from your base CV"), Some("system"))
    );
    assert_eq!(seed["undoable"], false);
    let undo =
        ada.call(Method::POST, &format!("/me/cvs/{cv}/revisions/{}/undo", seed["id"]), None).await;
    assert_eq!((undo.status, undo.body["code"].as_str()), (409, Some("cannot_undo")), "{undo:?}");
    // The vacancy is on the board at `preparing`.
    let track = ada.call(Method::GET, &format!("/me/tracking/{slug}"), None).await;
    assert_eq!(track.status, 200, "{track:?}");
    assert!(track.body.to_string().contains("\"preparing\""), "{track:?}");
    // The workspace: the report is empty until a run; the copy is the tailored one.
    let w = ada.call(Method::GET, &format!("/me/cvs/{cv}/tailoring"), None).await;
    assert_eq!(w.status, 200, "{w:?}");
    assert_eq!(w.body["data"]["cv"]["kind"], "tailored");
    assert_eq!(w.body["data"]["session_id"], session.as_str());
    assert_eq!(w.body["data"]["job_slug"], slug.as_str());
    let a = ada.call(Method::GET, &format!("/me/cvs/{base}/tailoring"), None).await;
    refused(&a, 404, "not_found", None);
    // Another user sees none of it.
    let bob = Caller::new(&server, "bob@example.com").await;
    for path in [format!("/me/cvs/{cv}/tailoring"), format!("/assistant/sessions/{session}")] {
        refused(&bob.call(Method::GET, &path, None).await, 404, "not_found", None);
    }
    refused(
        &bob.call(Method::POST, &format!("/assistant/sessions/{session}/extend"), None).await,
        404,
        "not_found",
        None,
    );
    // Autopilot takes the cookie only, and a tailor session only.
    let a = ada.call(Method::POST, &format!("/assistant/sessions/{session}/autopilot"), None).await;
    refused(&a, 403, "forbidden", None);
    let chat = ada.session("").await;
    let a = ada.cookie.post(&format!("/assistant/sessions/{chat}/autopilot"), json!({})).await;
    refused(&a, 409, "conflict", None);
    assert_eq!(a.body["error"], "this conversation is not tailoring a CV");
    let a = ada.call(Method::POST, &format!("/assistant/sessions/{chat}/extend"), None).await;
    refused(&a, 409, "conflict", None);
    // Extending a tailor session buys another ceiling.
    let a = ada.call(Method::POST, &format!("/assistant/sessions/{session}/extend"), None).await;
    assert_eq!(a.status, 200, "{a:?}");
    assert!(a.body["data"]["ceiling"].as_i64().unwrap() > 0, "{a:?}");
    assert_eq!(a.body["data"]["allowance"]["feature"], "tailor");
}

// scenario: A tailor session edits with cited evidence and a run is undone whole
async fn a_tailor_session_edits_with_cited_evidence_and_a_run_is_undone_whole(db: TestDb) {
    let llm = OpenAiServer::start([]).await;
    let server = serve(db, &llm, Setup::default()).await;
    let ada = Caller::new(&server, "ada@example.com").await;
    let slug = vacancy(&server, "t-2").await;
    base_cv(&ada).await;
    let (cv, session, _) = tailor(&ada, &slug).await;
    let before = cv_document(&ada, cv).await;

    // The model reads its context: requirements with evidence, the copy without contacts.
    turn(
        &ada,
        &llm,
        &session,
        "Let's tailor.",
        vec![("cv_context", json!({})), ("cv_get", json!({}))],
    )
    .await;
    let context = last_result(&ada, &session, "cv_context").await;
    let all: Vec<Value> = ["missing_have", "missing_gap", "already_shown"]
        .iter()
        .flat_map(|k| context[k].as_array().unwrap().clone())
        .collect();
    let texts: Vec<&str> = all.iter().map(|r| r["text"].as_str().unwrap()).collect();
    assert!(texts.contains(&"Led a team of engineers"), "{context}");
    assert!(!texts.iter().any(|t| t.contains("invoices")), "company text is not a requirement");
    let got = last_result(&ada, &session, "cv_get").await;
    let header = &got["document"]["header"];
    assert!(
        header["email"] == "" && header["phone"] == "" && header["links"] == json!([]),
        "{got}"
    );
    assert_eq!(header["full_name"], "", "no contact identifier reaches the model: {got}");

    // The candidate says it; the model banks it with their words and cites it.
    turn(&ada, &llm, &session, "I led a team of five engineers at Acme.", vec![(
        "experience_add",
        json!({"claim": "Led a team of five engineers", "said": "I led a team of five engineers"}),
    )])
    .await;
    let (id, provenance) = atom_id(&ada, "Led a team of five engineers").await;
    assert_eq!(provenance, "stated_in_chat");
    let edit = json!({
        "ops": serde_json::to_string(&json!([{"kind": "insert", "path": "experience[0].bullets[2]",
            "value": "Led a team of five engineers", "evidence_id": id.to_string()}])).unwrap(),
        "requirement": "Led a team of engineers", "requirement_status": "closed_candidate",
    });
    turn(&ada, &llm, &session, "Add it.", vec![("cv_edit", edit)]).await;
    let receipt = last_result(&ada, &session, "cv_edit").await;
    assert_eq!(receipt["applied"], 1, "{receipt}");
    let after = cv_document(&ada, cv).await;
    assert_eq!(after["experience"][0]["bullets"][2], "Led a team of five engineers");
    // The tool's cover letter: the tool step, the draft the tool asks for, the answer.
    let paragraph = json!({"text": "At Acme I led a team of five engineers.", "evidence_ids": [id.to_string()]});
    let invented = json!({"text": "I led a team of 50.", "evidence_ids": [id.to_string()]});
    let letter =
        json!({"greeting": "Dear team,", "paragraphs": [paragraph, invented], "closing": "Best,"});
    llm.push([
        ModelReply::call("l0", "cover_letter_draft", json!({"band": "short"})),
        ModelReply::text(letter.to_string()),
        ModelReply::text("Here is your letter."),
    ]);
    assert_eq!(ada.say(&session, "Write me a cover letter.").await.status, 200);
    let drafted = last_result(&ada, &session, "cover_letter_draft").await;
    assert_eq!(drafted["band"], "short", "{drafted}");
    assert_eq!(drafted["dropped_paragraphs"], 1, "the invented number: {drafted}");
    assert_eq!(drafted["paragraphs"][0]["evidence_ids"], json!([id.to_string()]));
    let letters = ada.call(Method::GET, "/me/cover-letters", None).await;
    assert_eq!(
        letters.body["data"][0]["paragraphs"][0]["text"],
        "At Acme I led a team of five engineers."
    );
    assert_eq!(after["header"]["email"], "ada@example.com", "contacts stay on the copy");
    // Removing [0] and [2] of the three bullets (original indices) removes those two.
    turn(
        &ada,
        &llm,
        &session,
        "Trim.",
        vec![(
            "cv_edit",
            json!({"ops": [
                {"kind": "remove", "path": "experience[0].bullets[0]"},
                {"kind": "remove", "path": "experience[0].bullets[2]"},
            ]}),
        )],
    )
    .await;
    assert_eq!(last_result(&ada, &session, "cv_edit").await["applied"], 2);
    assert_eq!(
        cv_document(&ada, cv).await["experience"][0]["bullets"],
        json!(["Ran PostgreSQL in production"])
    );
    // The report entry was merged; job_match, the page count and fidelity answer.
    turn(
        &ada,
        &llm,
        &session,
        "Check.",
        vec![
            ("job_match", json!({})),
            ("cv_page_count", json!({})),
            (
                "check_evidence_fidelity",
                json!({"evidence_id": id, "bullet": "Led a team of 12 engineers"}),
            ),
        ],
    )
    .await;
    let score = last_result(&ada, &session, "job_match").await;
    assert_eq!(score["available"], true, "{score}");
    let names: Vec<&str> = score["score"]["categories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["Requirements Coverage", "Keyword Match", "Job Title Match", "Seniority Fit"]
    );
    assert_eq!(
        last_result(&ada, &session, "cv_page_count").await,
        json!({"available": true, "pages": 1})
    );
    let fidelity = last_result(&ada, &session, "check_evidence_fidelity").await;
    assert_eq!(fidelity["unsupported_numbers"], json!(["12"]), "{fidelity}");
    let w = ada.call(Method::GET, &format!("/me/cvs/{cv}/tailoring"), None).await;
    let items = w.body["data"]["report"]["items"].as_array().unwrap().clone();
    assert_eq!(
        items,
        vec![json!({"requirement": "Led a team of engineers", "status": "closed_candidate"})]
    );
    // tailor_report replaces the report, sanitised.
    turn(&ada, &llm, &session, "Report.", vec![("tailor_report", json!({"items": [
        {"requirement": "Led a team of engineers", "status": "closed_candidate"},
        {"requirement": "Kubernetes experience", "status": "open", "note": "nothing banked"},
    ]}))]).await;
    assert_eq!(last_result(&ada, &session, "tailor_report").await, json!({"saved": 2}));
    turn(
        &ada,
        &llm,
        &session,
        "Report.",
        vec![("tailor_report", json!({"items": [{"requirement": "", "status": "open"}]}))],
    )
    .await;
    let e = last_result(&ada, &session, "tailor_report").await;
    assert!(
        e["error"].as_str().unwrap().contains("copy the requirement text from cv_context"),
        "{e}"
    );

    // Undo the whole run: every edit of the batch, newest first.
    let w = ada.call(Method::GET, &format!("/me/cvs/{cv}/tailoring"), None).await;
    let batch = w.body["data"]["last_batch"].as_str().unwrap().to_owned();
    let undone = ada
        .call(Method::POST, &format!("/me/cvs/{cv}/batches/{batch}/undo"), Some(json!({})))
        .await;
    assert_eq!(undone.status, 200, "{undone:?}");
    // The batch was the trim turn's: the inserted bullet is back, the original ones too.
    assert_eq!(
        cv_document(&ada, cv).await["experience"][0]["bullets"],
        json!([
            "Built the Rust billing service",
            "Ran PostgreSQL in production",
            "Led a team of five engineers"
        ])
    );
    let revs = ada.call(Method::GET, &format!("/me/cvs/{cv}/revisions"), None).await;
    let first_batch = revs.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["actor"] == "agent" && !r["reverted"].as_bool().unwrap())
        .find_map(|r| r["batch"].as_str().map(str::to_owned))
        .unwrap();
    let undone = ada
        .call(Method::POST, &format!("/me/cvs/{cv}/batches/{first_batch}/undo"), Some(json!({})))
        .await;
    assert_eq!(undone.status, 200, "{undone:?}");
    assert_eq!(cv_document(&ada, cv).await, before, "every run undone: the copy as it started");
    let bob = Caller::new(&server, "bob@example.com").await;
    let a = bob
        .call(Method::POST, &format!("/me/cvs/{cv}/batches/{first_batch}/undo"), Some(json!({})))
        .await;
    refused(&a, 404, "not_found", None);
}

/// One laundering attempt's outcome.
#[derive(Debug, Default)]
struct Tally {
    attempts: usize,
    refused: usize,
    laundered: usize,
}

impl Tally {
    /// Counts an attempt: refused when the tool answered an error and the copy is unchanged.
    fn count(&mut self, what: &str, result: &Value, before: &Value, after: &Value) {
        self.attempts += 1;
        let errored =
            result.get("error").is_some() || result.get("applied").is_some_and(|a| a == 0);
        eprintln!("attempt {what}: {result}");
        if errored && before == after {
            self.refused += 1;
        } else {
            self.laundered += 1;
            eprintln!("LAUNDERED by {what}: {result}");
        }
    }
}

// scenario: The honesty suite launders nothing
async fn the_honesty_suite_launders_nothing(db: TestDb) {
    let llm = OpenAiServer::start([]).await;
    let server = serve(db, &llm, Setup::default()).await;
    let ada = Caller::new(&server, "ada@example.com").await;
    let bob = Caller::new(&server, "bob@example.com").await;
    let slug = vacancy(&server, "t-3").await;
    base_cv(&ada).await;
    let (cv, session, _) = tailor(&ada, &slug).await;
    let mut tally = Tally::default();
    let cite = |what: &'static str, evidence: Value| {
        (what, bullet(cv, "Led a team of 40 engineers", Some(evidence)))
    };

    // 1. Citing an agent_inferred atom.
    turn(
        &ada,
        &llm,
        &session,
        "Go on.",
        vec![("experience_add", json!({"claim": "Led a team of 40 engineers"}))],
    )
    .await;
    let (inferred, provenance) = atom_id(&ada, "Led a team of 40 engineers").await;
    assert_eq!(provenance, "agent_inferred");
    // 2. A quote of two words the candidate did write.
    turn(
        &ada,
        &llm,
        &session,
        "I mentored juniors sometimes.",
        vec![(
            "experience_add",
            json!({"claim": "Mentored a dozen juniors", "said": "mentored juniors"}),
        )],
    )
    .await;
    let (two_words, p2) = atom_id(&ada, "Mentored a dozen juniors").await;
    assert_eq!(p2, "agent_inferred", "a 2-word quote proves nothing");
    // 3. A quote from a negated sentence.
    turn(
        &ada,
        &llm,
        &session,
        "To be clear, I have never led a team of engineers.",
        vec![(
            "experience_add",
            json!({"claim": "Led a team of engineers", "said": "led a team of engineers"}),
        )],
    )
    .await;
    let (negated, p3) = atom_id(&ada, "Led a team of engineers").await;
    assert_eq!(p3, "agent_inferred", "a negated sentence is not a claim");
    // 4. A quote from the assistant's own message.
    llm.push([ModelReply::text("You clearly scaled the platform to ten million users.")]);
    let s = ada.say(&session, "What do you think?").await;
    assert_eq!(s.status, 200);
    turn(&ada, &llm, &session, "Hm.", vec![("experience_add", json!({"claim": "Scaled the platform to ten million users", "said": "scaled the platform to ten million users"}))]).await;
    let (own_words, p4) = atom_id(&ada, "Scaled the platform to ten million users").await;
    assert_eq!(p4, "agent_inferred", "the assistant's words are not the candidate's");
    // 5. An inferred atom rewritten, then cited.
    turn(&ada, &llm, &session, "Go on.", vec![("experience_update", json!({"id": inferred.to_string(), "claim": "Led a team of 40 engineers across three sites"}))]).await;
    let (rewritten, p5) = atom_id(&ada, "Led a team of 40 engineers across three sites").await;
    assert_eq!(
        (rewritten, p5.as_str()),
        (inferred, "agent_inferred"),
        "a rewrite never raises provenance"
    );
    // 6. Another user's atom (manual, publishable for them).
    let theirs = bob
        .call(
            Method::POST,
            "/me/experience/atoms",
            Some(json!({"claim": "Led a team of 40 engineers"})),
        )
        .await;
    assert_eq!(theirs.status, 201, "{theirs:?}");
    let foreign = theirs.body["data"]["id"].as_i64().unwrap();
    // A publishable atom of ada's own, for a batch that cites it in one op and not another.
    let good = ada
        .call(
            Method::POST,
            "/me/experience/atoms",
            Some(json!({"claim": "Built the Rust billing service"})),
        )
        .await;
    assert_eq!(good.status, 201, "{good:?}");
    let good = good.body["data"]["id"].as_i64().unwrap();

    let attempts: Vec<(&str, Value)> = vec![
        cite("citing an agent_inferred atom", json!(inferred)),
        cite("citing a rewritten inferred atom", json!(rewritten.to_string())),
        cite("citing a 2-word quote", json!(two_words)),
        cite("citing a negated quote", json!(negated)),
        cite("citing the assistant's own words", json!(own_words)),
        cite("citing another user's atom", json!(foreign)),
        cite("citing a forged id", json!(987_654_321)),
        cite("citing a malformed id", json!("atom-1")),
        ("an uncited bullet", bullet(cv, "Led a team of 40 engineers", None)),
        (
            "experience[0] whole with an uncited bullet",
            json!({"ops": [{"kind": "set", "path": "experience[0]",
            "value": {"company": "Acme", "role": "Head of Engineering", "start": "2019", "current": true,
                      "bullets": ["Led a team of 40 engineers"]}}]}),
        ),
        (
            "one uncited op in a cited batch",
            json!({"ops": [
            {"kind": "set", "path": "summary", "value": "Built the Rust billing service.", "evidence_id": good},
            {"kind": "insert", "path": "experience[0].bullets[0]", "value": "Led a team of 40 engineers"}]}),
        ),
        (
            "the header's name",
            json!({"ops": [{"kind": "set", "path": "header.full_name", "value": "Ada L."}]}),
        ),
        (
            "the header whole",
            json!({"ops": [{"kind": "set", "path": "header", "value": {"full_name": "X", "email": "x@example.com"}}]}),
        ),
        (
            "the contact links",
            json!({"ops": [{"kind": "insert", "path": "header.links[0]", "value": {"label": "Site", "url": "https://x.example"}}]}),
        ),
        (
            "the template",
            json!({"ops": [{"kind": "set", "path": "template_id", "value": "sidebar"}]}),
        ),
        (
            "a project disguised as a job",
            json!({"ops": [{"kind": "insert", "path": "projects[0]", "evidence_id": good,
            "value": {"name": "Head of Engineering at Initech", "summary": "Full-time role 2015–2019"}}]}),
        ),
    ];
    for (what, args) in attempts {
        let before = cv_document(&ada, cv).await;
        turn(&ada, &llm, &session, "Go on.", vec![("cv_edit", args)]).await;
        let result = last_result(&ada, &session, "cv_edit").await;
        tally.count(what, &result, &before, &cv_document(&ada, cv).await);
    }
    // A confirmation with an empty claim.
    let before = cv_document(&ada, cv).await;
    turn(
        &ada,
        &llm,
        &session,
        "Go on.",
        vec![("request_confirmation", json!({"claim": " ", "question": "Did you lead a team?"}))],
    )
    .await;
    let result = last_result(&ada, &session, "request_confirmation").await;
    tally.count("an empty confirmation", &result, &before, &cv_document(&ada, cv).await);

    // An autopilot run that hits the step cap: every step tries an uncited bullet.
    let before = cv_document(&ada, cv).await;
    let uncited = bullet(cv, "Led a team of 40 engineers", None);
    llm.answer_with(move |req| {
        if req.tool_names().is_empty() {
            ModelReply::text("I ran out of steps.")
        } else {
            ModelReply::call("auto", "cv_edit", uncited.clone())
        }
    });
    let run = ada.cookie_stream(&format!("/assistant/sessions/{session}/autopilot")).await;
    assert_eq!(run.status, 200, "{:?}", run.error());
    let result = run.result();
    assert_eq!(result["stop_reason"], "max_steps", "{result}");
    let edits = results(&ada, &session, "cv_edit").await;
    let autopilot_edits = edits.iter().rev().take(30).filter(|r| r.get("error").is_some()).count();
    assert_eq!(autopilot_edits, 30, "30 steps, each refused");
    tally.count(
        "an autopilot run to the step cap",
        &json!({"error": "step cap"}),
        &before,
        &cv_document(&ada, cv).await,
    );
    // The run plan was laid down first: every required requirement is not_reached.
    let w = ada.call(Method::GET, &format!("/me/cvs/{cv}/tailoring"), None).await;
    let statuses: Vec<&str> = w.body["data"]["report"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["not_reached"; 3], "{}", w.body);

    eprintln!(
        "honesty suite: {} attempts, {} refused, {} laundered",
        tally.attempts, tally.refused, tally.laundered
    );
    assert_eq!(tally.laundered, 0, "{tally:?}");
    assert_eq!(tally.attempts, 18);
    assert_eq!(tally.refused, tally.attempts);

    // The control: after a Yes (the claim as the candidate's own message), the atom is citable.
    llm.answer_with(|_| ModelReply::text("ok"));
    turn(
        &ada,
        &llm,
        &session,
        "Led a team of 40 engineers",
        vec![(
            "experience_add",
            json!({"claim": "Led a team of 40 engineers", "said": "Led a team of 40 engineers"}),
        )],
    )
    .await;
    let (confirmed, p) = atom_id(&ada, "Led a team of 40 engineers across three sites").await;
    assert_eq!(
        (confirmed, p.as_str()),
        (inferred, "agent_inferred"),
        "the rewritten atom is another claim"
    );
    let (yes, p) = atom_id(&ada, "Led a team of 40 engineers").await;
    assert_eq!(p, "stated_in_chat", "the Yes made it the candidate's");
    turn(
        &ada,
        &llm,
        &session,
        "Add it.",
        vec![("cv_edit", bullet(cv, "Led a team of 40 engineers", Some(json!(yes))))],
    )
    .await;
    assert_eq!(last_result(&ada, &session, "cv_edit").await["applied"], 1);
}
