//! `GET /api/v1/jobs/facets`.

use freehire_store::testing::TestDb;
use serde_json::json;

use crate::{catalogue::indexed, search::on_both_backends, server::Server};

// scenario: Ranked values
// scenario: The company distribution when named
async fn counts_stats_and_order(db: TestDb) {
    let (s, _dir, _) = indexed(db).await;
    let (status, body) = s.get("/api/v1/jobs/facets").await;
    assert_eq!(status, 200, "{body}");
    assert!(body.get("meta").is_none(), "no meta without ignored parameters");
    let data = &body["data"];
    assert_eq!(data["total"], 4);
    let facets = data["facets"].as_object().unwrap();
    assert!(facets.get("company_slug").is_none(), "companies are counted only when named");
    assert!(facets.contains_key("domains"), "every facet with a distribution is answered");
    assert_eq!(facets["domains"], json!({}));
    assert_eq!(facets["work_mode"], json!({"remote": 2, "hybrid": 1, "onsite": 1}));
    assert_eq!(facets["skills"], json!({"rust": 2, "postgresql": 2, "go": 1}));
    assert_eq!(facets["is_tech"], json!({"tech": 3, "non_tech": 1}));
    assert_eq!(
        data["stats"],
        json!({
            "salary_min": {"min": 60000, "max": 80000},
            "salary_max": {"min": 70000, "max": 100000},
            "experience_years_min": {"min": 8, "max": 8},
        })
    );

    // Values come most frequent first, ties by value, in the JSON text itself.
    let raw = s.get_text("/api/v1/jobs/facets?facets=skills,work_mode").await;
    let at = |needle: &str| raw.find(needle).unwrap_or_else(|| panic!("{needle} in {raw}"));
    assert!(
        at("\"postgresql\":2") < at("\"rust\":2") && at("\"rust\":2") < at("\"go\":1"),
        "{raw}"
    );
    assert!(at("\"remote\":2") < at("\"hybrid\":1") && at("\"hybrid\":1") < at("\"onsite\":1"));
    assert!(at("\"work_mode\"") < at("\"skills\""), "facets in table order: {raw}");

    // The company distribution, when named.
    let (status, body) = s.get("/api/v1/jobs/facets?facets=company_slug&is_tech=tech").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["facets"], json!({"company_slug": {"acme": 2, "globex": 1}}));
    s.db.teardown().await;
}

// scenario: Restricted facets
async fn filters_restriction_and_disjunctive(db: TestDb) {
    let (s, _dir, _) = indexed(db).await;
    let (_, body) = s.get("/api/v1/jobs/facets?regions=eu&facets=seniority,skills").await;
    let data = &body["data"];
    assert_eq!(data["total"], 3);
    assert_eq!(
        data["facets"],
        json!({"seniority": {"middle": 1, "senior": 1, "staff": 1}, "skills": {"rust": 2, "postgresql": 2, "go": 1}})
    );
    assert_eq!(data["stats"]["experience_years_min"], json!({"min": 8, "max": 8}));

    let (_, body) = s.get("/api/v1/jobs/facets?q=designer").await;
    assert_eq!(body["data"]["total"], 1);
    assert_eq!(body["data"]["stats"], json!({}), "no match has a salary or experience");

    let (_, body) =
        s.get("/api/v1/jobs/facets?work_mode=remote&seniority=senior&disjunctive=true").await;
    let data = &body["data"];
    assert_eq!(data["total"], 1);
    assert_eq!(data["facets"]["seniority"], json!({"middle": 1, "senior": 1}), "over remote jobs");
    assert_eq!(data["facets"]["work_mode"], json!({"remote": 1}), "over senior jobs");
    assert_eq!(data["facets"]["skills"], json!({"postgresql": 1, "rust": 1}), "full filter");

    let (_, body) = s.get("/api/v1/jobs/facets?limit=5&skill=rust").await;
    assert_eq!(
        body["meta"]["ignored_params"],
        json!([{"param": "limit"}, {"param": "skill", "did_you_mean": "skills"}])
    );
    s.db.teardown().await;
}

async fn facets_errors(db: TestDb) {
    let (s, _dir, _) = indexed(db).await;
    for path in ["facets=bogus", "facets=skills,nope", "facets=company"] {
        let (status, body) = s.get(&format!("/api/v1/jobs/facets?{path}")).await;
        assert_eq!(status, 400, "{path}");
        assert!(body["error"].as_str().unwrap().starts_with("invalid facets"), "{body}");
    }
    let (status, body) = s.get("/api/v1/jobs/facets?facets=skills&disjunctive=true").await;
    assert_eq!(
        (status, body),
        (
            400,
            json!({"error": "facets cannot be combined with disjunctive=true", "code": "invalid_parameter", "param": "facets"})
        )
    );
    let (status, body) = s.get("/api/v1/jobs/facets?seniority=boss").await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("seniority"), "{body}");
    s.db.teardown().await;

    let bare = Server::start(TestDb::sqlite().await).await;
    let (status, body) = bare.get("/api/v1/jobs/facets").await;
    assert_eq!(status, 503);
    assert!(body["error"].as_str().unwrap().starts_with("search is not available"), "{body}");
    bare.db.teardown().await;
}

// scenario: Facets are cached a minute per query
async fn answers_are_kept_a_minute_per_canonical_query(db: TestDb) {
    use freehire_search::SearchIndex;
    let (s, _dir, index) = indexed(db).await;
    let (_, before) = s.get("/api/v1/jobs/facets?work_mode=remote").await;
    assert_eq!(before["data"]["total"], 2);
    index.clear().await.unwrap();
    // The same query, spelt with an ignored parameter: the kept answer, its meta its own.
    let (status, again) = s.get("/api/v1/jobs/facets?work_mode=remote&bogus=1").await;
    assert_eq!(status, 200);
    assert_eq!(again["data"], before["data"]);
    assert_eq!(again["meta"]["ignored_params"], json!([{"param": "bogus"}]), "{again}");
    // Another query is counted now.
    let (_, other) = s.get("/api/v1/jobs/facets?work_mode=hybrid").await;
    assert_eq!(other["data"]["total"], 0);
    s.db.teardown().await;
}

on_both_backends![
    counts_stats_and_order,
    filters_restriction_and_disjunctive,
    facets_errors,
    answers_are_kept_a_minute_per_canonical_query
];
