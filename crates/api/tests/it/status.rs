//! `GET /status` and `GET /stats/catalog` over the real router, on both backends: an empty
//! catalogue, then boards (healthy, failing, never crawled) and jobs, then a rollup.

use chrono::Duration;
use freehire_app::status::Status;
use freehire_domain::{BoardKey, BoardStatus, FailureClass, NewBoard, Provider};
use freehire_store::testing::TestDb;
use serde_json::json;

use crate::{
    jobs::posting,
    search::on_both_backends,
    server::{Server, now},
};

fn key(name: &str) -> BoardKey {
    BoardKey::new(Provider::parse("greenhouse").unwrap(), name, "").unwrap()
}

// scenario: The status page answers the fleet's verdict and each provider's
async fn status_and_catalog_stats(db: TestDb) {
    let s = Server::start(db).await;
    let (status, body) = s.get("/api/v1/status").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["data"],
        json!({"verdict": "empty", "last_job_added_at": null, "providers": []})
    );

    let store = s.db.store();
    for name in ["acme", "globex"] {
        let board = NewBoard {
            key: key(name),
            company: name.into(),
            url: None,
            status: BoardStatus::Active,
        };
        store.add_board(&board, now() - Duration::days(2)).await.unwrap();
    }
    let (_, body) = s.get("/api/v1/status").await;
    assert_eq!(body["data"]["verdict"], "starting", "{body}");

    store.record_board_success(&key("acme"), 1, now() - Duration::hours(1)).await.unwrap();
    store.upsert_jobs(&[posting("1", "Rust Engineer")], now() - Duration::hours(1)).await.unwrap();
    let (_, body) = s.get("/api/v1/status").await;
    assert_eq!(body["data"]["verdict"], "ok", "{body}");
    assert_eq!(body["data"]["last_job_added_at"], "2026-11-20T11:00:00Z");
    assert_eq!(
        body["data"]["providers"][0],
        json!({
            "provider": "greenhouse", "verdict": "ok", "boards": 2, "healthy": 1, "failing": 0,
            "cooling": 0, "never_crawled": 1, "last_success_at": "2026-11-20T11:00:00Z",
            "open_jobs": 1, "last_job_added_at": "2026-11-20T11:00:00Z",
            "failure_classes": [], "failing_boards": [],
        })
    );
    // One of the two crawled boards failing is over a tenth: degraded.
    let error = "GET https://boards-api.greenhouse.io/v1/boards/globex/jobs: HTTP 503";
    store
        .record_board_failure(&key("globex"), FailureClass::HttpStatus, error, now())
        .await
        .unwrap();
    let (_, body) = s.get("/api/v1/status").await;
    assert_eq!(body["data"]["verdict"], "degraded", "{body}");
    // Each provider names its failing boards with the class and text of their last error.
    let greenhouse = &body["data"]["providers"][0];
    assert_eq!(greenhouse["failure_classes"], json!([{"class": "http_status", "boards": 1}]));
    assert_eq!(
        greenhouse["failing_boards"],
        json!([{
            "board": "globex", "region": "", "company": "globex", "consecutive_failures": 1,
            "error_class": "http_status", "last_error": error,
            "last_error_at": "2026-11-20T12:00:00Z", "last_success_at": null,
            "cooldown_until": null,
        }])
    );

    let (status, body) = s.get("/api/v1/stats/catalog").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["data"],
        json!({"exact": true, "open_jobs": 1, "duplicates": 0, "companies": 1, "providers": 1, "boards": 2, "daily": []})
    );
    // The worker's rollup: today's row carries the day's job and the verdict.
    Status::new(s.db.store.clone()).rollup(now()).await.unwrap();
    let (_, body) = s.get("/api/v1/stats/catalog").await;
    assert_eq!(body["data"]["daily"][0]["day"], "2026-11-20", "{body}");
    assert_eq!(body["data"]["daily"][0]["added"], 1);
    assert_eq!(body["data"]["daily"][0]["verdict"], "degraded");
    assert_eq!(body["data"]["daily"][1]["day"], "2026-11-19");
    s.db.teardown().await;
}

on_both_backends![status_and_catalog_stats];
