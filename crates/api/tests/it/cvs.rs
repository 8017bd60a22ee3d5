//! CVs over HTTP on both backends (reference assistant.md §11): the base CV created through
//! `cvedit`, read and listed, edited as the candidate with a revision, undone (and an undo that
//! no longer applies refused), a refused edit naming why, the PDF rendered in-process, a `cv`
//! key reaching every CV route, and another user's CV 404 on each.

use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    accounts::{Client, refused, verified_user},
    server::Server,
};

both_backends! {
    a_cv_is_created_edited_undone_and_rendered,
    another_users_cv_is_not_found,
}

fn document() -> Value {
    json!({
        "header": {"full_name": "Ada Lovelace", "email": "ada@example.com", "headline": "Backend engineer"},
        "summary": "Engineer who ships.",
        "experience": [{"company": "Acme", "role": "Engineer", "start": "Mar 2021", "current": true,
                        "bullets": ["Led the migration to Kubernetes for 40 services", "  "]}],
        "skills": [{"name": "Languages", "items": ["Rust", "Go"]}]
    })
}

async fn create(c: &Client<'_>) -> Value {
    let a = c.post("/me/cvs", json!({"title": "Main", "document": document()})).await;
    assert_eq!(a.status, 201, "{a:?}");
    a.body["data"].clone()
}

// scenario: A CV is created, edited, undone and rendered over HTTP
async fn a_cv_is_created_edited_undone_and_rendered(server: &Server) {
    let ada = verified_user(server, "ada@example.com").await;
    let made = create(&ada).await;
    let cv = &made["cv"];
    assert_eq!(
        (cv["kind"].clone(), cv["title"].clone(), cv["template_id"].clone()),
        (json!("base"), json!("Main"), json!("classic"))
    );
    assert_eq!(
        cv["document"]["experience"][0]["bullets"],
        json!(["Led the migration to Kubernetes for 40 services"]),
        "sanitised like any edit"
    );
    let id = cv["id"].clone();
    let list = ada.get("/me/cvs").await;
    assert_eq!(list.body["data"].as_array().unwrap().len(), 1, "{list:?}");

    let edit_path = format!("/me/cvs/{id}/edit");
    let edit = |ops: Value| ada.post(&edit_path, json!({"ops": ops, "note": "tighter"}));
    let a = edit(
        json!([{"op": "set", "path": "summary", "value": "Backend engineer who ships Rust."}]),
    )
    .await;
    assert_eq!(a.status, 200, "{a:?}");
    assert_eq!(a.body["data"]["cv"]["document"]["summary"], "Backend engineer who ships Rust.");
    let revision = a.body["data"]["revision"].clone();
    assert_eq!(
        (revision["actor"].clone(), revision["note"].clone()),
        (json!("candidate"), json!("tighter"))
    );

    // A refused edit says why and changes nothing.
    let bad = edit(json!([{"op": "set", "path": "experience[7].role", "value": "CTO"}])).await;
    refused(&bad, 422, "invalid_edit", Some("ops"));
    assert_eq!(bad.body["reason"], "invalid_op");
    let bad = edit(json!([{"op": "frobnicate", "path": "summary"}])).await;
    refused(&bad, 400, "invalid_parameter", Some("ops"));
    refused(&edit(json!([])).await, 400, "invalid_parameter", Some("ops"));

    let revs = ada.get(&format!("/me/cvs/{id}/revisions")).await;
    assert_eq!(revs.status, 200, "{revs:?}");
    assert!(revs.body["data"].as_array().unwrap().len() >= 2, "{revs:?}");
    let undo =
        ada.post(&format!("/me/cvs/{id}/revisions/{}/undo", revision["id"]), json!({})).await;
    assert_eq!(undo.status, 200, "{undo:?}");
    assert_eq!(undo.body["data"]["cv"]["document"]["summary"], "Engineer who ships.");
    assert_eq!(undo.body["data"]["revision"]["is_undo"], true);
    let again =
        ada.post(&format!("/me/cvs/{id}/revisions/{}/undo", revision["id"]), json!({})).await;
    refused(&again, 409, "cannot_undo", None);
    refused(
        &ada.post(&format!("/me/cvs/{id}/revisions/x/undo"), json!({})).await,
        400,
        "invalid_parameter",
        Some("revision"),
    );

    let pdf = reqwest::Client::new()
        .get(format!("{}/api/v1/me/cvs/{id}/pdf", server.base))
        .header("cookie", format!("freehire_session={}", ada.session().unwrap()))
        .send()
        .await
        .unwrap();
    assert_eq!(pdf.status(), 200);
    assert_eq!(pdf.headers()["content-type"], "application/pdf");
    assert!(pdf.bytes().await.unwrap().starts_with(b"%PDF"), "a PDF");

    // A cv-scoped key reaches the CV routes.
    let key = ada.minted_key("cv").await;
    assert_eq!(key.get(&format!("/me/cvs/{id}")).await.status, 200);
    refused(&key.get("/me/cvs/abc").await, 400, "invalid_parameter", Some("id"));
}

// scenario: Another user's CV is not found over HTTP
async fn another_users_cv_is_not_found(server: &Server) {
    let grace = verified_user(server, "grace@example.com").await;
    let id = create(&grace).await["cv"]["id"].clone();
    let before = grace.get(&format!("/me/cvs/{id}")).await.body.clone();
    let ada = verified_user(server, "ada@example.com").await;
    let calls: Vec<(Method, String, Option<Value>)> = vec![
        (Method::GET, format!("/me/cvs/{id}"), None),
        (
            Method::POST,
            format!("/me/cvs/{id}/edit"),
            Some(json!({"ops": [{"op": "set", "path": "summary", "value": "Ada's"}]})),
        ),
        (Method::GET, format!("/me/cvs/{id}/revisions"), None),
        (Method::POST, format!("/me/cvs/{id}/revisions/1/undo"), Some(json!({}))),
        (Method::GET, format!("/me/cvs/{id}/pdf"), None),
    ];
    for (method, path, body) in calls {
        let a = ada.call(method.clone(), &path, body).await;
        refused(&a, 404, "not_found", None);
        assert!(!a.body.to_string().contains("Lovelace"), "{method} {path}: {a:?}");
    }
    assert_eq!(ada.get("/me/cvs").await.body["data"], json!([]));
    assert_eq!(grace.get(&format!("/me/cvs/{id}")).await.body, before, "Grace's CV is unchanged");
}
