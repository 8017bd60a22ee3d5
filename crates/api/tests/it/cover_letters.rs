//! Cover letters over HTTP on both backends (reference assistant.md §10.6): a draft needs a
//! citable achievement (409 before anything is charged); the model sees the vacancy and the
//! publishable achievements only (never an inferred one, the name or the contacts); the gate
//! drops every paragraph the evidence does not back; the letter is signed with the base CV's
//! name and replaced in place when drafted again (at no extra charge); a failed draft releases
//! its charge; the spent allowance is 402 with the allowance; another user's letter is 404.

use freehire_app::testing::openai::{ModelReply, OpenAiServer};
use freehire_domain::{AtomDraft, Author, Email};
use freehire_store::testing::TestDb;
use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    assistant::{Caller, Setup, serve},
    jobs::posting,
    server::Server,
};

crate::search::on_both_backends![a_cover_letter_cites_only_what_the_candidate_said];

const DESCRIPTION: &str = "<h2>What you'll bring</h2><ul><li>Kubernetes in production</li>\
    <li>Low-latency APIs</li></ul>";

async fn vacancy(server: &Server, id: &str) -> String {
    let store = server.db.store();
    let mut p = posting(id, "Platform Engineer");
    p.description = DESCRIPTION.to_owned();
    let written = store.upsert_jobs(&[p], chrono::Utc::now()).await.unwrap();
    store.jobs_by_ids(&[written[0].id]).await.unwrap()[0].public_slug.as_str().to_owned()
}

async fn atom(c: &Caller<'_>, claim: &str, metrics: &[&str]) -> i64 {
    let a = c
        .call(
            Method::POST,
            "/me/experience/atoms",
            Some(json!({"claim": claim, "metrics": metrics})),
        )
        .await;
    assert_eq!(a.status, 201, "{a:?}");
    a.body["data"]["id"].as_i64().unwrap()
}

/// The model's draft as its JSON text.
fn draft(paragraphs: Value) -> ModelReply {
    ModelReply::text(
        json!({"greeting": "Dear Acme team,", "paragraphs": paragraphs, "closing": "Kind regards,"})
            .to_string(),
    )
}

async fn post(c: &Caller<'_>, slug: &str, band: &str) -> crate::accounts::Answer {
    c.call(Method::POST, "/me/cover-letters", Some(json!({"job_slug": slug, "band": band}))).await
}

// scenario: A cover letter cites only what the candidate said
async fn a_cover_letter_cites_only_what_the_candidate_said(db: TestDb) {
    let llm = OpenAiServer::start([]).await;
    let setup = Setup {
        policy: vec![
            ("PLAN_ENFORCE".to_owned(), "cover-letter".to_owned()),
            ("PLAN_FREE_DAILY_COVER-LETTER".to_owned(), "2".to_owned()),
        ],
        ..Setup::default()
    };
    let server = serve(db, &llm, setup).await;
    let (first, second, third) =
        (vacancy(&server, "1").await, vacancy(&server, "2").await, vacancy(&server, "3").await);
    let ada = Caller::new(&server, "ada@example.com").await;

    // Nothing citable: 409, and nothing charged or asked.
    let none = post(&ada, &first, "standard").await;
    assert_eq!((none.status, none.body["code"].as_str()), (409, Some("conflict")), "{none:?}");
    assert!(llm.requests().is_empty());

    let cv = json!({"title": "Main", "document": {"header": {"full_name": "Ada Lovelace", "email": "ada@example.com"}}});
    assert_eq!(ada.call(Method::POST, "/me/cvs", Some(cv)).await.status, 201);
    let k8s =
        atom(&ada, "Led the migration of twelve services to Kubernetes", &["deploys 40 → 6 min"])
            .await;
    let latency = atom(&ada, "Cut p99 latency of the ledger API", &["900 ms → 120 ms"]).await;
    let store = server.db.store();
    let user = store.credentials_by_email(&Email::parse("ada@example.com").unwrap()).await;
    let user = user.unwrap().unwrap().user;
    let inferred = AtomDraft::claim("Mentored a team of five platform engineers");
    let inferred = match store.add_atom(user.id, &inferred, Author::Agent, chrono::Utc::now()).await
    {
        Ok(freehire_store::AtomWrite::Inserted(a)) => a.id.get(),
        other => panic!("{other:?}"),
    };

    llm.push([draft(json!([
        {"text": "I led the migration of twelve services to Kubernetes, taking deploys from 40 to 6 minutes.", "evidence_ids": [k8s.to_string()]},
        {"text": "I mentored a team of five engineers.", "evidence_ids": [inferred.to_string()]},
        {"text": "I cut the ledger API's p99 latency by 95%.", "evidence_ids": [latency]},
        {"text": "I am passionate about platforms.", "evidence_ids": []},
        {"text": "I built a payments platform.", "evidence_ids": ["99999"]},
    ]))]);
    let made = post(&ada, &first, "short").await;
    assert_eq!(made.status, 201, "{made:?}");
    let letter = &made.body["data"];
    assert_eq!(letter["dropped_paragraphs"], 4, "{letter}");
    assert_eq!(letter["paragraphs"].as_array().unwrap().len(), 1);
    assert_eq!(letter["paragraphs"][0]["evidence_ids"], json!([k8s]));
    assert_eq!(letter["band"], "short");
    assert_eq!(letter["signature"], "Ada Lovelace");
    assert_eq!(letter["job_slug"], first.as_str());
    assert!(letter["text"].as_str().unwrap().ends_with("Kind regards,\nAda Lovelace"), "{letter}");
    // What the model read: the vacancy and the two publishable achievements, nothing else.
    let asked = llm.take_requests().pop().unwrap();
    let body = asked.body.to_string();
    assert!(asked.system().contains("evidence_ids"), "{}", asked.system());
    assert!(body.contains("Kubernetes in production") && body.contains("twelve services"));
    assert!(body.contains("ledger API"));
    for hidden in ["Mentored a team", "Ada Lovelace", "ada@example.com"] {
        assert!(!body.contains(hidden), "the model read {hidden:?}: {body}");
    }
    assert_eq!(asked.header("x-bf-dim-feature"), Some("cover-letter"));
    assert!(asked.tool_names().is_empty(), "a tool-less call");

    // Drafted again for the same vacancy: replaced in place, at no extra charge.
    llm.push([draft(
        json!([{"text": "I moved twelve services to Kubernetes.", "evidence_ids": [k8s]}]),
    )]);
    let again = post(&ada, &first, "standard").await;
    assert_eq!(again.status, 201, "{again:?}");
    assert_eq!(again.body["data"]["id"], letter["id"]);
    assert_eq!(again.body["data"]["band"], "standard");

    // A draft that fails releases its charge: the second vacancy still fits today's allowance.
    llm.push([ModelReply::text("I cannot write that.")]);
    let failed = post(&ada, &second, "standard").await;
    assert_eq!(failed.status, 503, "{failed:?}");
    llm.push([draft(json!([{"text": "I cut the ledger API's p99 from 900 ms to 120 ms.", "evidence_ids": [latency]}]))]);
    assert_eq!(post(&ada, &second, "standard").await.status, 201);
    let spent = post(&ada, &third, "standard").await;
    assert_eq!((spent.status, spent.body["code"].as_str()), (402, Some("quota_exceeded")));
    assert_eq!(spent.body["allowance"]["feature"], "cover-letter", "{spent:?}");

    // Reading, listing, another user's letter, deleting.
    let list = ada.call(Method::GET, "/me/cover-letters", None).await;
    assert_eq!(list.body["data"].as_array().unwrap().len(), 2, "{list:?}");
    assert_eq!(list.body["data"][0]["job_slug"], second.as_str(), "newest first");
    let id = letter["id"].as_i64().unwrap();
    let one = ada.call(Method::GET, &format!("/me/cover-letters/{id}"), None).await;
    assert_eq!(one.body["data"]["paragraphs"][0]["text"], "I moved twelve services to Kubernetes.");
    let grace = Caller::new(&server, "grace@example.com").await;
    for method in [Method::GET, Method::DELETE] {
        let theirs = grace.call(method, &format!("/me/cover-letters/{id}"), None).await;
        assert_eq!(theirs.status, 404, "{theirs:?}");
    }
    assert_eq!(ada.call(Method::GET, "/me/cover-letters/nope", None).await.status, 404);
    assert_eq!(post(&grace, "no-such-job-abcdefgh", "short").await.status, 404);
    assert_eq!(
        ada.call(Method::DELETE, &format!("/me/cover-letters/{id}"), None).await.status,
        204
    );
    assert_eq!(ada.call(Method::GET, &format!("/me/cover-letters/{id}"), None).await.status, 404);
    server.db.teardown().await;
}
