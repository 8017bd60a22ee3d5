//! The experience bank over HTTP on both backends (reference assistant.md §12): employments
//! and achievements created, listed, replaced, confirmed, merged and deleted; every write
//! stamped `manual` whatever the body says; the field each refusal names; a `cv`-scoped key
//! reaches the bank; another user's employment or achievement is 404 on every route.

use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    accounts::{Client, refused, verified_user},
    server::Server,
};

both_backends! {
    the_bank_is_built_listed_and_changed,
    bad_input_names_the_field,
    another_users_bank_is_not_found,
    a_cv_key_reaches_the_bank,
}

async fn employment(c: &Client<'_>, body: Value) -> Value {
    let a = c.post("/me/experience/employments", body).await;
    assert_eq!(a.status, 201, "{a:?}");
    a.body["data"].clone()
}

async fn atom(c: &Client<'_>, body: Value) -> Value {
    let a = c.post("/me/experience/atoms", body).await;
    assert_eq!(a.status, 201, "{a:?}");
    a.body["data"].clone()
}

// scenario: The bank is built, listed and changed over HTTP
async fn the_bank_is_built_listed_and_changed(server: &Server) {
    let ada = verified_user(server, "ada@example.com").await;
    let acme = employment(&ada, json!({"kind": "job", "company": "Acme", "role": "Engineer", "start": {"year": 2021, "month": 3}, "current": true, "stack": ["Rust", "k8s", "nonsense"]})).await;
    assert_eq!(acme["company"], "Acme");
    assert_eq!(acme["stack"], json!(["rust", "kubernetes"]), "canonical, unknown dropped");
    let tool = employment(&ada, json!({"kind": "project", "name": "fasttool", "link": "https://example.com/fasttool", "start": {"year": 2019}})).await;
    assert_eq!((tool["name"].clone(), tool.get("company")), (json!("fasttool"), None));
    let a = atom(&ada, json!({"claim": "Led the migration to Kubernetes", "employment_id": acme["id"], "metrics": ["40 services", " "]})).await;
    assert_eq!((a["provenance"].clone(), a["confirmed"].clone()), (json!("manual"), json!(true)));
    assert_eq!(a["metrics"], json!(["40 services"]));
    let b = atom(&ada, json!({"claim": "Led a migration to Kubernetes clusters", "employment_id": acme["id"], "context": "legacy VMs"})).await;
    // The same claim typed differently is already banked.
    let dup = ada
        .post("/me/experience/atoms", json!({"claim": "led the MIGRATION to kubernetes!"}))
        .await;
    refused(&dup, 409, "conflict", Some("claim"));
    assert_eq!(dup.body["id"], a["id"]);

    let bank = ada.get("/me/experience").await;
    assert_eq!(bank.status, 200, "{bank:?}");
    let data = &bank.body["data"];
    assert_eq!(data["employments"][0]["id"], acme["id"], "current first");
    assert_eq!(data["atoms"].as_array().unwrap().len(), 2);
    assert_eq!(data["soft_duplicates"], json!([[a["id"], b["id"]]]), "{data}");
    assert_eq!(data["require_context"], false);

    let found = ada.get("/me/experience/search?q=kubernetes%20migration&limit=1").await;
    assert_eq!(found.body["data"].as_array().unwrap().len(), 1, "{found:?}");

    let path = format!("/me/experience/atoms/{}", b["id"]);
    let put = ada
        .call(
            Method::PUT,
            &path,
            Some(json!({"claim": "Moved 12 services to Kubernetes", "employment_id": acme["id"]})),
        )
        .await;
    assert_eq!(put.status, 200, "{put:?}");
    assert_eq!(put.body["data"]["claim"], "Moved 12 services to Kubernetes");
    assert_eq!(put.body["data"]["needs_metrics"], false, "a number in the claim");

    let merged = ada.post("/me/experience/merge", json!({"ids": [a["id"], b["id"]]})).await;
    assert_eq!(merged.status, 200, "{merged:?}");
    let kept = &merged.body["data"]["kept"];
    assert_eq!(ada.get("/me/experience").await.body["data"]["atoms"].as_array().unwrap().len(), 1);
    assert!(kept["metrics"].as_array().unwrap().contains(&json!("40 services")));

    let s = ada
        .call(Method::PUT, "/me/experience/settings", Some(json!({"require_context": true})))
        .await;
    assert_eq!(s.body["data"]["require_context"], true);
    let no_context =
        ada.post("/me/experience/atoms", json!({"claim": "Ran the on-call rota"})).await;
    refused(&no_context, 400, "invalid_parameter", Some("context"));

    let e = format!("/me/experience/employments/{}", acme["id"]);
    assert_eq!(ada.call(Method::DELETE, &e, None).await.status, 204);
    let after = ada.get("/me/experience").await.body["data"].clone();
    assert_eq!(
        (after["employments"].as_array().unwrap().len(), after["atoms"].as_array().unwrap().len()),
        (1, 0),
        "its atoms went with it"
    );
}

// scenario: Bad bank input names the field
async fn bad_input_names_the_field(server: &Server) {
    let ada = verified_user(server, "ada@example.com").await;
    let post = |body: Value| ada.post("/me/experience/employments", body);
    refused(
        &post(json!({"kind": "gig", "company": "A"})).await,
        400,
        "invalid_parameter",
        Some("kind"),
    );
    refused(&post(json!({"kind": "job"})).await, 400, "invalid_parameter", Some("company"));
    refused(
        &post(json!({"kind": "job", "company": "A", "start": {"year": 2020, "month": 13}})).await,
        400,
        "invalid_parameter",
        Some("start"),
    );
    refused(
        &post(
            json!({"kind": "job", "company": "A", "start": {"year": 2022}, "end": {"year": 2020}}),
        )
        .await,
        400,
        "invalid_parameter",
        Some("end"),
    );
    let atoms = |body: Value| ada.post("/me/experience/atoms", body);
    refused(&atoms(json!({"claim": "  "})).await, 400, "invalid_parameter", Some("claim"));
    refused(
        &atoms(json!({"claim": "Shipped", "provenance": "stated_in_chat"})).await,
        400,
        "invalid_parameter",
        Some("provenance"),
    );
    refused(
        &atoms(json!({"claim": "Shipped", "employment_id": 0})).await,
        400,
        "invalid_parameter",
        Some("employment_id"),
    );
    let a = atoms(json!({"claim": "Shipped", "employment_id": 99_999})).await;
    refused(&a, 404, "not_found", None);
    refused(&ada.get("/me/experience/search").await, 400, "invalid_parameter", Some("q"));
    refused(
        &ada.post("/me/experience/merge", json!({"ids": [1]})).await,
        400,
        "invalid_parameter",
        Some("ids"),
    );
    refused(
        &ada.call(Method::DELETE, "/me/experience/atoms/abc", None).await,
        400,
        "invalid_parameter",
        Some("id"),
    );
}

// scenario: Another user's bank is not found over HTTP
async fn another_users_bank_is_not_found(server: &Server) {
    let grace = verified_user(server, "grace@example.com").await;
    let job = employment(
        &grace,
        json!({"kind": "job", "company": "grace-secret-employer", "role": "CTO"}),
    )
    .await;
    let first =
        atom(&grace, json!({"claim": "grace-secret-claim one", "employment_id": job["id"]})).await;
    let second =
        atom(&grace, json!({"claim": "grace-secret-claim two", "employment_id": job["id"]})).await;
    let before = grace.get("/me/experience").await.body.clone();

    let ada = verified_user(server, "ada@example.com").await;
    let (e, a) = (job["id"].clone(), first["id"].clone());
    let calls: Vec<(Method, String, Option<Value>)> = vec![
        (
            Method::PUT,
            format!("/me/experience/employments/{e}"),
            Some(json!({"kind": "job", "company": "Ada's"})),
        ),
        (Method::DELETE, format!("/me/experience/employments/{e}"), None),
        (Method::PUT, format!("/me/experience/atoms/{a}"), Some(json!({"claim": "Ada's now"}))),
        (Method::POST, format!("/me/experience/atoms/{a}/confirm"), None),
        (Method::DELETE, format!("/me/experience/atoms/{a}"), None),
        (Method::POST, "/me/experience/merge".to_owned(), Some(json!({"ids": [a, second["id"]]}))),
        (
            Method::POST,
            "/me/experience/atoms".to_owned(),
            Some(json!({"claim": "Mine", "employment_id": e})),
        ),
    ];
    for (method, path, body) in calls {
        let answer = ada.call(method.clone(), &path, body).await;
        refused(&answer, 404, "not_found", None);
        assert!(!answer.body.to_string().contains("grace-secret"), "{method} {path}: {answer:?}");
    }
    let mine = ada.get("/me/experience").await.body["data"].clone();
    assert_eq!((mine["employments"].clone(), mine["atoms"].clone()), (json!([]), json!([])));
    let found = ada.get("/me/experience/search?q=grace-secret-claim").await;
    assert_eq!(found.body["data"], json!([]));
    assert_eq!(grace.get("/me/experience").await.body, before, "Grace's bank is unchanged");
}

// scenario: A cv-scoped key reaches the bank
async fn a_cv_key_reaches_the_bank(server: &Server) {
    let ada = verified_user(server, "ada@example.com").await;
    let key = ada.minted_key("cv").await;
    let a = key
        .post("/me/experience/atoms", json!({"claim": "Typed through the CLI", "provenance": "x"}))
        .await;
    refused(&a, 400, "invalid_parameter", Some("provenance"));
    let a = key.post("/me/experience/atoms", json!({"claim": "Typed through the CLI"})).await;
    assert_eq!((a.status, a.body["data"]["provenance"].clone()), (201, json!("manual")), "{a:?}");
    assert_eq!(key.get("/me/experience").await.status, 200);
    // The cv scope reaches nothing else.
    refused(&key.get("/me/saved-searches").await, 403, "forbidden", None);
}
