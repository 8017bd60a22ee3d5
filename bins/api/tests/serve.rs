//! The `freehire-api` process: fresh folder, migrations, serving, graceful SIGTERM.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::{
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use freehire_app::testing::terminate;

// scenario: Fresh start
#[tokio::test]
async fn serves_an_empty_catalogue_from_a_fresh_folder_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_freehire-api"))
        .current_dir(dir.path())
        .env("FREEHIRE_LISTEN", format!("127.0.0.1:{port}"))
        .env_remove("DATABASE_URL")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();

    let url = format!("http://127.0.0.1:{port}/api/v1/jobs");
    let deadline = Instant::now() + Duration::from_secs(30);
    let body = loop {
        match reqwest::get(&url).await {
            Ok(res) => break res.json::<serde_json::Value>().await.unwrap(),
            Err(_) if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(100)).await
            }
            Err(e) => panic!("server never answered: {e}"),
        }
    };
    assert_eq!(
        body,
        serde_json::json!({"data": [], "meta": {"total": 0, "limit": 20, "offset": 0}})
    );
    assert!(dir.path().join("data/freehire.db").is_file(), "the embedded database was created");
    let base = format!("http://127.0.0.1:{port}");
    let health: serde_json::Value =
        reqwest::get(format!("{base}/health")).await.unwrap().json().await.unwrap();
    assert_eq!(health, serde_json::json!({"status": "ok", "search": "missing"}));
    let search = reqwest::get(format!("{base}/api/v1/jobs/search?q=rust")).await.unwrap();
    assert_eq!(search.status().as_u16(), 503, "no index yet: search is unavailable");
    assert!(!dir.path().join("data/index").exists(), "the API never creates the index");
    // The same process serves the pages: the search page says what to do, unknown pages are
    // the HTML 404, unknown API paths stay JSON.
    let page = reqwest::get(format!("{base}/")).await.unwrap();
    assert_eq!(page.status().as_u16(), 200, "an empty catalogue is no error");
    assert!(
        page.headers()["content-security-policy"].to_str().unwrap().contains("script-src 'self'")
    );
    assert!(page.text().await.unwrap().contains("No jobs yet: run `freehire ingest`"));
    let missing = reqwest::get(format!("{base}/nowhere")).await.unwrap();
    assert_eq!(missing.status().as_u16(), 404);
    assert!(missing.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
    let api = reqwest::get(format!("{base}/api/v1/nowhere")).await.unwrap();
    assert_eq!(api.headers()["content-type"], "application/json");

    let status = terminate(&mut child, Duration::from_secs(10), "did not stop on SIGTERM").await;
    assert!(status.success(), "graceful shutdown exits 0: {status}");
}
