//! Screening answers over HTTP on both backends (reference assistant.md §10.5): a new account
//! has every field unstated; `PATCH` sets what it names, keeps the rest and forgets a `null`;
//! a bad value or an unknown field is 400 naming it with nothing written; a `full` key reaches
//! them, a `cv` key is 403, no credential 401; each account sees only its own.

use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    accounts::{Answer, Client, refused, verified_user},
    server::Server,
};

both_backends! {
    screening_answers_are_read_and_patched,
}

async fn patch(c: &Client<'_>, body: Value) -> Answer {
    c.call(Method::PATCH, "/me/screening-answers", Some(body)).await
}

// scenario: Screening answers are read and changed in part
async fn screening_answers_are_read_and_patched(server: &Server) {
    let ada = verified_user(server, "ada@example.com").await;
    let fresh = ada.get("/me/screening-answers").await;
    assert_eq!(fresh.status, 200, "{fresh:?}");
    assert_eq!(fresh.body["data"]["unstated"].as_array().unwrap().len(), 8, "{fresh:?}");

    let set = patch(
        &ada,
        json!({
            "authorized_countries": ["DE", "fr", "de"],
            "desired_salary_amount": 85000,
            "desired_salary_currency": "eur",
            "desired_salary_period": "year",
            "notice_period_days": 90,
        }),
    )
    .await;
    assert_eq!(set.status, 200, "{set:?}");
    let data = &set.body["data"];
    assert_eq!(data["authorized_countries"], json!(["de", "fr"]));
    assert_eq!(data["desired_salary_currency"], "EUR");
    assert_eq!(data["notice_period_days"], 90);

    // Absent fields stay, null forgets one.
    let more =
        patch(&ada, json!({"visa_sponsorship_needed": false, "notice_period_days": null})).await;
    assert_eq!(more.status, 200, "{more:?}");
    let data = &more.body["data"];
    assert_eq!(data["visa_sponsorship_needed"], false);
    assert!(data.get("notice_period_days").is_none(), "{data}");
    assert_eq!(data["desired_salary_amount"], 85000);
    assert!(data["unstated"].as_array().unwrap().contains(&json!("notice_period_days")));

    // Bad values name their field; nothing is written.
    for (body, field) in [
        (
            json!({"desired_salary_currency": "euro", "age_18_or_older": true}),
            "desired_salary_currency",
        ),
        (json!({"desired_salary_period": "week"}), "desired_salary_period"),
        (json!({"desired_salary_amount": -1}), "desired_salary_amount"),
        (json!({"notice_period_days": 9999}), "notice_period_days"),
        (json!({"authorized_countries": ["Germany"]}), "authorized_countries"),
    ] {
        refused(&patch(&ada, body).await, 400, "invalid_parameter", Some(field));
    }
    let unknown = patch(&ada, json!({"salary": 1})).await;
    assert_eq!(unknown.status, 400, "{unknown:?}");
    assert!(unknown.body["error"].as_str().unwrap().contains("salary"), "{unknown:?}");
    let after = ada.get("/me/screening-answers").await;
    assert_eq!(after.body, more.body, "refused patches wrote nothing");

    // A full key reaches them; a cv key and no credential do not.
    let full = ada.minted_key("full").await;
    assert_eq!(full.get("/me/screening-answers").await.body, more.body);
    let cv = ada.minted_key("cv").await;
    assert_eq!(cv.get("/me/screening-answers").await.status, 403);
    assert_eq!(patch(&cv, json!({"age_18_or_older": true})).await.status, 403);
    assert_eq!(Client::new(server).get("/me/screening-answers").await.status, 401);

    // Another account has its own.
    let bob = verified_user(server, "bob@example.com").await;
    let bobs = bob.get("/me/screening-answers").await;
    assert_eq!(bobs.body["data"]["unstated"].as_array().unwrap().len(), 8, "{bobs:?}");
}
