//! Completeness and failure cases: a gone board, 429 then success, a failing later page, a
//! truncated body, an HTML block page, an empty board, a body over the cap, a failing detail.

use std::time::Duration;

use freehire_ingest::IngestError;
use freehire_ingest::http::{ClientConfig, HttpClient, RetryConfig};
use freehire_ingest::replay::{ReplayServer, Reply, Route};
use freehire_ingest::{SourceConfig, Sources};
use serde_json::json;

use crate::support::{careerkit, fetch, read, setup, target};

const ASHBY: &str = "https://api.ashbyhq.com";
const CARTESIA: &str = "/posting-api/job-board/cartesia";

// scenario: Board gone
#[tokio::test]
async fn board_404_is_board_gone() {
    let route = Route::get(ASHBY, CARTESIA).reply(Reply::status(404));
    let (_s, reg) = setup(vec![route]).await;
    let err = fetch(&reg, &target("ashby", "cartesia", "")).await.unwrap_err();
    assert!(
        matches!(err, IngestError::BoardGone { ref board, .. } if board == "cartesia"),
        "{err}"
    );
}

#[tokio::test]
async fn unrecorded_board_is_gone_too() {
    let (_s, reg) = setup(vec![]).await;
    let err = fetch(&reg, &target("greenhouse", "nosuch", "")).await.unwrap_err();
    assert!(matches!(err, IngestError::BoardGone { .. }), "{err}");
}

// scenario: 429 then success
#[tokio::test]
async fn retries_429_then_succeeds() {
    let route = Route::get(ASHBY, CARTESIA)
        .reply(Reply::status(429))
        .reply(Reply::file(careerkit("ashby.json")).unwrap());
    let (server, reg) = setup(vec![route]).await;
    let listing = fetch(&reg, &target("ashby", "cartesia", "")).await.unwrap();
    assert_eq!(listing.postings.len(), 2);
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn persistent_5xx_fails_after_two_retries() {
    let route = Route::get(ASHBY, CARTESIA).reply(Reply::status(503));
    let (server, reg) = setup(vec![route]).await;
    let err = fetch(&reg, &target("ashby", "cartesia", "")).await.unwrap_err();
    assert_eq!(err.status(), Some(503));
    assert_eq!(server.requests().len(), 3, "one attempt and two retries");
}

#[tokio::test]
async fn other_4xx_are_not_retried() {
    let route = Route::get(ASHBY, CARTESIA).reply(Reply::status(403));
    let (server, reg) = setup(vec![route]).await;
    let err = fetch(&reg, &target("ashby", "cartesia", "")).await.unwrap_err();
    assert_eq!(err.status(), Some(403));
    assert_eq!(server.requests().len(), 1);
}

/// Page 2 of a full-listing provider fails: the whole board fails (pages derived from the
/// recorded SmartRecruiters item).
// scenario: Later page fails on a full-listing provider
#[tokio::test]
async fn failure_on_page_two_fails_the_board() {
    let recorded: serde_json::Value = serde_json::from_str(&read("smartrecruiters.json")).unwrap();
    let items: Vec<_> = (0..100)
        .map(|i| {
            let mut it = recorded["content"][0].clone();
            it["id"] = json!(format!("p-{i}"));
            it
        })
        .collect();
    let page1 = json!({"offset": 0, "limit": 100, "totalFound": 180, "content": items}).to_string();
    let routes = vec![
        Route::get("https://api.smartrecruiters.com", "/v1/companies/Big/postings")
            .query("limit=100&offset=0")
            .reply(Reply::json(page1)),
        Route::get("https://api.smartrecruiters.com", "/v1/companies/Big/postings")
            .query("limit=100&offset=100")
            .reply(Reply::status(500)),
    ];
    let (_s, reg) = setup(routes).await;
    let err = fetch(&reg, &target("smartrecruiters", "Big", "")).await.unwrap_err();
    assert_eq!(err.status(), Some(500), "{err}");
}

// scenario: Truncated body
#[tokio::test]
async fn truncated_body_fails() {
    let route = Route::get(ASHBY, CARTESIA)
        .reply(Reply::file(careerkit("ashby.json")).unwrap().truncated());
    let (server, reg) = setup(vec![route]).await;
    let err = fetch(&reg, &target("ashby", "cartesia", "")).await.unwrap_err();
    assert!(matches!(err, IngestError::Network { .. }), "{err}");
    let chain = freehire_ingest::error_chain(&err);
    assert!(chain.len() > err.to_string().len() + 2, "the cause is kept as a source: {chain}");
    assert_eq!(server.requests().len(), 3, "a cut body is transient: retried twice");
}

#[tokio::test]
async fn truncated_json_fails_to_decode() {
    let body = read("ashby.json");
    let route = Route::get(ASHBY, CARTESIA).reply(Reply::json(body[..body.len() / 2].to_owned()));
    let (_s, reg) = setup(vec![route]).await;
    let err = fetch(&reg, &target("ashby", "cartesia", "")).await.unwrap_err();
    assert!(matches!(err, IngestError::Decode { .. }), "{err}");
    assert!(std::error::Error::source(&err).is_some(), "the decoder's error is kept: {err}");
}

// scenario: Block page
#[tokio::test]
async fn html_block_page_is_a_failure() {
    let page = "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>";
    let routes = vec![
        Route::get(ASHBY, CARTESIA).reply(Reply::html(page)),
        Route::get("https://acme.jobs.personio.com", "/xml").reply(Reply::html(page)),
    ];
    let (_s, reg) = setup(routes).await;
    let err = fetch(&reg, &target("ashby", "cartesia", "")).await.unwrap_err();
    assert!(matches!(err, IngestError::BlockPage { expected: "JSON", .. }), "{err}");
    let err = fetch(&reg, &target("personio", "acme", "")).await.unwrap_err();
    assert!(matches!(err, IngestError::BlockPage { expected: "XML", .. }), "{err}");
}

// scenario: Empty board
#[tokio::test]
async fn empty_board_is_success() {
    let routes = vec![
        Route::get(ASHBY, "/posting-api/job-board/anara").reply(
            Reply::file(crate::support::fixtures().join("ashby-boards/anara.json")).unwrap(),
        ),
        Route::get("https://boards-api.greenhouse.io", "/v1/boards/quiet/jobs")
            .reply(Reply::json(r#"{"jobs": [], "meta": {"total": 0}}"#)),
    ];
    let (_s, reg) = setup(routes).await;
    assert!(fetch(&reg, &target("ashby", "anara", "")).await.unwrap().postings.is_empty());
    assert!(fetch(&reg, &target("greenhouse", "quiet", "")).await.unwrap().postings.is_empty());
}

// scenario: Body over the cap
#[tokio::test]
async fn body_over_the_cap_is_not_retried() {
    let server = ReplayServer::builder()
        .route(Route::get(ASHBY, CARTESIA).reply(Reply::file(careerkit("ashby.json")).unwrap()))
        .start()
        .await
        .unwrap();
    let config = ClientConfig {
        max_body_bytes: 1024,
        retry: RetryConfig { retries: 2, delay: Duration::from_millis(1) },
        ..ClientConfig::replaying(server.origin())
    };
    let reg = Sources::new(&HttpClient::new(config).unwrap(), SourceConfig::default());
    let err = fetch(&reg, &target("ashby", "cartesia", "")).await.unwrap_err();
    assert!(matches!(err, IngestError::BodyTooLarge { limit: 1024, .. }), "{err}");
    assert!(!err.is_transient());
    assert_eq!(server.requests().len(), 1);
}

/// One failing detail never fails the board: a 500 detail is unreadable, a 404 detail is gone.
#[tokio::test]
async fn failing_details_do_not_fail_the_board() {
    let routes = vec![
        Route::get("https://acme.bamboohr.com", "/careers/list")
            .reply(Reply::file(careerkit("bamboohr.json")).unwrap()),
        Route::get("https://acme.bamboohr.com", "/careers/86/detail").reply(Reply::status(500)),
        Route::get("https://acme.bamboohr.com", "/careers/87/detail").reply(Reply::status(404)),
    ];
    let (_s, reg) = setup(routes).await;
    let listing = fetch(&reg, &target("bamboohr", "acme", "")).await.unwrap();
    assert!(listing.postings.is_empty());
    assert_eq!(listing.unreadable.len(), 1);
    assert_eq!(listing.unreadable[0].native_id, "86");
    assert!(listing.unreadable[0].error.contains("500"));
}

#[tokio::test]
async fn invalid_board_shapes_are_refused_before_any_request() {
    let (server, reg) = setup(vec![]).await;
    for (p, b) in
        [("recruitee", "evil.com/x"), ("workday", "example.com/site"), ("personio", "a.b")]
    {
        let err = fetch(&reg, &target(p, b, "")).await.unwrap_err();
        assert!(matches!(err, IngestError::InvalidBoard { .. }), "{p} {b}: {err}");
    }
    let err = fetch(&reg, &target("lever", "acme", "us")).await.unwrap_err();
    assert!(matches!(err, IngestError::InvalidBoard { .. }), "{err}");
    assert!(server.requests().is_empty());
}

/// Workday page 2 fails: the board fails (listing pages derived from the recorded shape).
#[tokio::test]
async fn workday_failure_on_page_two_fails_the_board() {
    let postings: Vec<_> = (0..20)
        .map(|i| json!({"title": format!("Job {i}"), "externalPath": format!("/job/X/Job_R{i}")}))
        .collect();
    let page1 = json!({"total": 40, "jobPostings": postings, "facets": []}).to_string();
    let jobs = "/wday/cxs/acme/Careers/jobs";
    let host = "https://acme.wd1.myworkdayjobs.com";
    let routes = vec![
        Route::post(host, jobs).body_field("/offset", json!(0)).reply(Reply::json(page1)),
        Route::post(host, jobs).body_field("/offset", json!(20)).reply(Reply::status(502)),
    ];
    let (_s, reg) = setup(routes).await;
    let err = fetch(&reg, &target("workday", "acme.wd1.myworkdayjobs.com/Careers", ""))
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(502), "{err}");
}
