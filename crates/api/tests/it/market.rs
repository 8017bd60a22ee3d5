//! `POST /market/coverage` over the four-job catalogue on both backends: rust over the EU's
//! remote jobs, the gaps and the top skills, and the refusals (no skill, a bad filter value,
//! an unknown body field, a body that is not JSON).

use serde_json::{Value, json};

use crate::{catalogue::indexed, search::on_both_backends, server::Server};
use freehire_store::testing::TestDb;

async fn post(s: &Server, query: &str, body: Value) -> (u16, Value) {
    let res = s
        .http
        .post(format!("{}/api/v1/market/coverage{query}", s.base))
        .json(&body)
        .send()
        .await
        .unwrap();
    (res.status().as_u16(), res.json().await.unwrap())
}

// scenario: A skill set's reach over a filtered slice of the catalogue
async fn coverage_of_skills_over_a_filter(db: TestDb) {
    let (s, _dir, _index) = indexed(db).await;
    let (status, body) = post(&s, "", json!({"skills": ["rust", "rust", " ", "cobol"]})).await;
    assert_eq!(status, 200, "{body}");
    let data = &body["data"];
    assert_eq!((data["total"].as_u64(), data["covered"].as_u64()), (Some(4), Some(2)), "{body}");
    assert_eq!(data["coverage_percent"], 50.0);
    assert_eq!(data["skills"][0], json!({"skill": "rust", "vacancies": 2, "percent": 50.0}));
    assert_eq!(data["skills"].as_array().unwrap().len(), 2, "duplicates and blanks dropped");
    assert_eq!(data["gaps"], json!(["cobol"]));
    assert_eq!(data["top_skills"][0]["skill"], "postgresql", "{body}");

    // The filter narrows (any `skills` selection in it is ignored).
    let (status, body) = post(&s, "?regions=eu&skills=go", json!({"skills": ["go"]})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (body["data"]["total"].as_u64(), body["data"]["covered"].as_u64()),
        (Some(3), Some(1))
    );
    s.db.teardown().await;
}

async fn bad_input_names_the_field(db: TestDb) {
    let (s, _dir, _index) = indexed(db).await;
    let (status, body) = post(&s, "", json!({"skills": []})).await;
    assert_eq!((status, body["param"].as_str()), (400, Some("skills")), "{body}");
    let (status, body) = post(&s, "?work_mode=office", json!({"skills": ["rust"]})).await;
    assert_eq!((status, body["param"].as_str()), (400, Some("work_mode")), "{body}");
    let (status, body) = post(&s, "", json!({"skills": ["rust"], "user": 1})).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("user"), "{body}");
    let res = s
        .http
        .post(format!("{}/api/v1/market/coverage", s.base))
        .body("skills=rust")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 415);
    s.db.teardown().await;
}

on_both_backends![coverage_of_skills_over_a_filter, bad_input_names_the_field];
