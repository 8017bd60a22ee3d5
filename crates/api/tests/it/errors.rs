//! The error table over HTTP: every route names the parameter at fault, and a malformed slug
//! answers the same on every route that takes one.

use freehire_store::testing::TestDb;
use serde_json::{Value, json};

use crate::{catalogue::indexed, search::on_both_backends};

async fn a_bad_parameter_is_named_on_every_route(db: TestDb) {
    let (s, _dir, _) = indexed(db).await;
    for (path, param) in [
        ("/api/v1/jobs?limit=abc", "limit"),
        ("/api/v1/jobs?offset=-1", "offset"),
        ("/api/v1/companies?limit=x", "limit"),
        ("/api/v1/companies/acme?offset=-3", "offset"),
        ("/api/v1/jobs/search?work_mode=office", "work_mode"),
        ("/api/v1/jobs/search?limit=many", "limit"),
        ("/api/v1/agent/jobs/search?seniority=boss", "seniority"),
        ("/api/v1/jobs/facets?facets=nope", "facets"),
        ("/api/v1/jobs/facets?facets=skills&disjunctive=true", "facets"),
    ] {
        let (status, body) = s.get(path).await;
        assert_eq!(status, 400, "{path}: {body}");
        assert_eq!(
            (&body["code"], &body["param"]),
            (&json!("invalid_parameter"), &json!(param)),
            "{path}: {body}"
        );
        assert!(body["error"].as_str().unwrap().contains(param), "{path}: {body}");
    }
    s.db.teardown().await;
}

// scenario: Malformed slug
async fn a_malformed_slug_answers_alike_everywhere(db: TestDb) {
    let (s, _dir, _) = indexed(db).await;
    for bad in ["Acme", "acme--labs", "-acme", "NOT-A-SLUG"] {
        let answers: Vec<(u16, Value, Value)> = {
            let mut answers = Vec::new();
            for route in ["jobs", "companies"] {
                let (status, body) = s.get(&format!("/api/v1/{route}/{bad}")).await;
                assert!(
                    body["error"].as_str().unwrap().starts_with(&format!("invalid slug {bad:?}")),
                    "{route}/{bad}: {body}"
                );
                answers.push((status, body["code"].clone(), body["param"].clone()));
            }
            answers
        };
        for answer in answers {
            assert_eq!(answer, (400, json!("invalid_parameter"), json!("slug")), "{bad}");
        }
    }
    s.db.teardown().await;
}

on_both_backends![
    a_bad_parameter_is_named_on_every_route,
    a_malformed_slug_answers_alike_everywhere
];
