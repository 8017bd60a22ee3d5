//! Importing a CV pasted as text over HTTP on both backends (reference assistant.md §12.3):
//! the base CV holds the document, the bank gets every job, project and bullet as `cv_import`,
//! a second import adds nothing and fills no duplicates, `keep` leaves the base CV alone, the
//! import revision undoes, bad text is refused naming the field with nothing written, and a
//! `cv` key imports into its own user's bank only.

use serde_json::{Value, json};

use crate::{
    accounts::{Client, refused, verified_user},
    server::Server,
};

both_backends! {
    a_pasted_cv_becomes_the_base_cv_and_fills_the_bank,
    bad_import_text_is_refused_and_nothing_is_written,
}

pub(crate) const PASTED: &str = "Ada Lovelace
Backend Engineer
London, UK | ada@example.com | github.com/ada

Experience
Senior Backend Engineer — Acme Ltd   Mar 2021 – Present
• Led the migration of twelve services to Kubernetes, cutting deploys
  from 40 minutes to 6.
• Cut p99 latency of the ledger API from 900 ms to 120 ms.

Backend Engineer at Widgets Inc (2017 - 2019)
- Built the invoicing service in Go and PostgreSQL.

Projects
ferrous-queue | github.com/ada/ferrous-queue
- Wrote a persistent job queue in Rust used by 300 projects.

Education
BSc Mathematics, University of London, 2013 – 2016

Skills
Languages: Rust, Go, Python
";

async fn import(c: &Client<'_>, body: Value) -> Value {
    let a = c.post("/me/cvs/import", body).await;
    assert_eq!(a.status, 201, "{a:?}");
    a.body["data"].clone()
}

fn counts(r: &Value) -> [i64; 5] {
    [
        "employments_created",
        "employments_matched",
        "atoms_added",
        "atoms_upgraded",
        "atoms_already_banked",
    ]
    .map(|k| r[k].as_i64().unwrap_or(-1))
}

// scenario: A pasted CV becomes the base CV and fills the bank
async fn a_pasted_cv_becomes_the_base_cv_and_fills_the_bank(server: &Server) {
    let ada = verified_user(server, "ada@example.com").await;
    let key = ada.minted_key("cv").await;
    let first = import(&key, json!({"text": PASTED})).await;
    assert_eq!(first["base_cv"], "created");
    assert_eq!(counts(&first), [3, 0, 4, 0, 0], "{first}");
    assert_eq!(first["unread"], json!([]));
    let doc = &first["cv"]["document"];
    assert_eq!(doc["header"]["full_name"], "Ada Lovelace");
    assert_eq!(doc["header"]["email"], "ada@example.com");
    assert_eq!(doc["experience"][0]["company"], "Acme Ltd");
    assert_eq!(doc["experience"][0]["current"], true);
    assert_eq!(
        doc["experience"][0]["bullets"][0],
        "Led the migration of twelve services to Kubernetes, cutting deploys from 40 minutes to 6."
    );
    assert_eq!(doc["education"][0]["school"], "University of London");
    assert_eq!(doc["skills"][0]["items"], json!(["Rust", "Go", "Python"]));
    let cv_id = first["cv"]["id"].clone();

    let bank = ada.get("/me/experience").await.body["data"].clone();
    let employments = bank["employments"].as_array().unwrap();
    assert_eq!(employments.len(), 3, "{bank}");
    let acme = employments.iter().find(|e| e["company"] == "Acme Ltd").expect("Acme");
    assert_eq!(acme["start"], json!({"year": 2021, "month": 3}));
    let atoms = bank["atoms"].as_array().unwrap();
    assert_eq!(atoms.len(), 4);
    for a in atoms {
        assert_eq!(
            (a["provenance"].clone(), a["confirmed"].clone()),
            (json!("cv_import"), json!(true)),
            "{a}"
        );
        assert!(a["employment_id"].is_i64(), "each claim under its job or project: {a}");
    }
    let latency = atoms.iter().find(|a| a["claim"].as_str().unwrap().contains("p99")).unwrap();
    assert_eq!(latency["employment_id"], acme["id"]);

    // The same CV again: nothing new in the bank, the base CV rewritten in a new revision.
    let again = import(&ada, json!({"text": PASTED})).await;
    assert_eq!(again["base_cv"], "replaced");
    assert_eq!(counts(&again), [0, 3, 0, 0, 4], "{again}");
    assert_eq!(ada.get("/me/experience").await.body["data"]["atoms"].as_array().unwrap().len(), 4);
    let revisions = ada.get(&format!("/me/cvs/{cv_id}/revisions")).await.body["data"].clone();
    assert_eq!(revisions[0]["origin"], "import", "{revisions}");

    // Keep: an edited base CV stays as it is.
    let edit = ada
        .post(
            &format!("/me/cvs/{cv_id}/edit"),
            json!({"ops": [{"op": "set", "path": "summary", "value": "Written by hand."}]}),
        )
        .await;
    assert_eq!(edit.status, 200, "{edit:?}");
    let kept = import(&ada, json!({"text": PASTED, "base_cv": "keep"})).await;
    assert_eq!(kept["base_cv"], "kept");
    assert_eq!(kept["cv"]["document"]["summary"], "Written by hand.");

    // Replacing it is one revision, and undoing that revision brings the hand-written one back.
    let replaced = import(&ada, json!({"text": PASTED})).await;
    assert_eq!(replaced["cv"]["document"]["summary"], "");
    let newest = ada.get(&format!("/me/cvs/{cv_id}/revisions")).await.body["data"][0].clone();
    assert_eq!(newest["origin"], "import");
    let undo =
        ada.post(&format!("/me/cvs/{cv_id}/revisions/{}/undo", newest["id"]), json!({})).await;
    assert_eq!(undo.status, 200, "{undo:?}");
    assert_eq!(undo.body["data"]["cv"]["document"]["summary"], "Written by hand.");

    // Another user's bank and CVs saw none of it.
    let grace = verified_user(server, "grace@example.com").await;
    let theirs = grace.get("/me/experience").await.body["data"].clone();
    assert_eq!((theirs["employments"].clone(), theirs["atoms"].clone()), (json!([]), json!([])));
    assert_eq!(grace.get("/me/cvs").await.body["data"], json!([]));
}

// scenario: Bad import text is refused and nothing is written
async fn bad_import_text_is_refused_and_nothing_is_written(server: &Server) {
    let ada = verified_user(server, "ada@example.com").await;
    refused(
        &ada.post("/me/cvs/import", json!({"text": "   "})).await,
        400,
        "invalid_parameter",
        Some("text"),
    );
    let no_sections =
        ada.post("/me/cvs/import", json!({"text": "Ada Lovelace\nI like computers."})).await;
    refused(&no_sections, 400, "invalid_parameter", Some("text"));
    assert!(
        no_sections.body["error"].as_str().unwrap_or_default().contains("Experience"),
        "{no_sections:?}"
    );
    let long = "Experience\n".to_owned() + &"- did a thing\n".repeat(5_000);
    refused(
        &ada.post("/me/cvs/import", json!({"text": long})).await,
        400,
        "invalid_parameter",
        Some("text"),
    );
    refused(
        &ada.post("/me/cvs/import", json!({"text": PASTED, "base_cv": "merge"})).await,
        400,
        "invalid_parameter",
        Some("base_cv"),
    );
    let bank = ada.get("/me/experience").await.body["data"].clone();
    assert_eq!((bank["employments"].clone(), bank["atoms"].clone()), (json!([]), json!([])));
    assert_eq!(ada.get("/me/cvs").await.body["data"], json!([]));
}
