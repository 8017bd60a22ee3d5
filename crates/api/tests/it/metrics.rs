//! `GET /metrics` over the real router, on both backends: the Prometheus text of the
//! requests served (by route template, method and status, with latency buckets), the search
//! outboxes and the boards read from the database at scrape time, and the optional token.

use freehire_domain::{BoardKey, BoardStatus, NewBoard, Provider};
use freehire_store::testing::TestDb;

use crate::{
    jobs::posting,
    search::on_both_backends,
    server::{Server, now},
};

async fn scrape(s: &Server, token: Option<&str>) -> (u16, String, String) {
    let mut request = s.http.get(format!("{}/metrics", s.base));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let res = request.send().await.unwrap();
    let status = res.status().as_u16();
    let kind = res.headers()["content-type"].to_str().unwrap().to_owned();
    (status, kind, res.text().await.unwrap())
}

// scenario: Metrics count the requests served and read the database's backlog
async fn metrics_count_requests_and_read_the_database(db: TestDb) {
    let s = Server::start(db).await;
    let store = s.db.store();
    store.upsert_jobs(&[posting("1", "Rust Engineer")], now()).await.unwrap();
    let key = BoardKey::new(Provider::parse("greenhouse").unwrap(), "acme", "").unwrap();
    let board = NewBoard { key, company: "Acme".into(), url: None, status: BoardStatus::Active };
    store.add_board(&board, now()).await.unwrap();
    for _ in 0..2 {
        assert_eq!(s.get("/api/v1/jobs").await.0, 200);
    }
    assert_eq!(s.get("/api/v1/jobs/not-a-slug-zzzzzzzz").await.0, 404);

    let (status, kind, text) = scrape(&s, None).await;
    assert_eq!(status, 200, "{text}");
    assert!(kind.starts_with("text/plain"), "{kind}");
    let line = |needle: &str| {
        text.lines()
            .find(|l| l.starts_with(needle) && l.contains("/api/v1/jobs"))
            .map(str::to_owned)
    };
    let listed = text
        .lines()
        .find(|l| {
            l.starts_with("freehire_http_requests_total{")
                && l.contains("route=\"/api/v1/jobs\"")
                && l.contains("status=\"200\"")
        })
        .unwrap_or_else(|| panic!("no request counter:\n{text}"));
    let count: f64 = listed.rsplit(' ').next().unwrap().parse().unwrap();
    assert!(count >= 2.0, "{listed}");
    assert!(text.contains("route=\"/api/v1/jobs/{slug}\""), "the template, not the slug:\n{text}");
    assert!(line("freehire_http_request_duration_seconds_bucket{").is_some(), "{text}");
    // Gauges are the process's (other tests scrape their own databases): present, read at
    // scrape time.
    assert!(text.contains("freehire_outbox_depth{outbox=\"upsert\"} "), "{text}");
    assert!(text.contains("freehire_outbox_lag_seconds{outbox=\"delete\"} "), "{text}");
    assert!(
        text.contains("freehire_boards{provider=\"greenhouse\",state=\"never_crawled\"} "),
        "{text}"
    );
    s.db.teardown().await;
}

async fn a_metrics_token_is_required_when_set(db: TestDb) {
    let s = Server::start_mapped(db, |state| freehire_api::AppState {
        metrics_token: Some("s3cret".into()),
        ..state
    })
    .await;
    let (status, _, body) = scrape(&s, None).await;
    assert_eq!(status, 401, "{body}");
    assert!(body.contains("unauthorized"), "{body}");
    assert_eq!(scrape(&s, Some("wrong")).await.0, 401);
    assert_eq!(scrape(&s, Some("s3cret")).await.0, 200);
    s.db.teardown().await;
}

on_both_backends![
    metrics_count_requests_and_read_the_database,
    a_metrics_token_is_required_when_set
];
