//! The "done when": add an Ashby board by URL, ingest it from the replay server, and
//! the API serves the jobs — all through the real binaries' code paths on one SQLite file.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

use freehire_app::testing::{ashby_replay, indexed_total, output};

/// The file of a `sqlite://PATH` URL.
fn db_path(url: &str) -> &str {
    url.trim_start_matches("sqlite://")
}

async fn freehire(
    db_url: String,
    replay: String,
    args: &'static [&'static str],
) -> (bool, String, String) {
    tokio::task::spawn_blocking(move || {
        output(
            Command::new(env!("CARGO_BIN_EXE_freehire"))
                .args(args)
                .env("FREEHIRE_DATABASE_URL", &db_url)
                .env("FREEHIRE_ATS_REPLAY_URL", replay)
                // An explicit fast pace: the replay server is local (the default is 5/s).
                .env("FREEHIRE_INGEST_HOST_RATE", "1000")
                .env(
                    "FREEHIRE_INDEX_DIR",
                    std::path::Path::new(db_path(&db_url)).with_file_name("index"),
                )
                .env_remove("FREEHIRE_SEARCH_ENGINE"),
        )
    })
    .await
    .unwrap()
}

// scenario: From a URL to the API
#[tokio::test]
async fn add_an_ashby_board_ingest_it_and_serve_it() {
    let server = ashby_replay(env!("CARGO_MANIFEST_DIR")).await;
    let replay = server.origin().url().to_string();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("freehire.db");
    let url = format!("sqlite://{}", path.display());

    let (ok, out, err) = freehire(
        url.clone(),
        replay.clone(),
        &["boards", "add", "https://jobs.ashbyhq.com/cartesia", "--company", "Cartesia"],
    )
    .await;
    assert!(ok, "{err}");
    assert!(out.contains("added ashby/cartesia"), "{out}");
    let (ok, out, _) = freehire(
        url.clone(),
        replay.clone(),
        &["boards", "add", "https://jobs.ashbyhq.com/cartesia", "--company", "Cartesia"],
    )
    .await;
    assert!(ok && out.contains("already present"), "{out}");

    let (ok, out, err) =
        freehire(url.clone(), replay.clone(), &["ingest", "--once", "ashby"]).await;
    assert!(ok, "{err}");
    assert!(out.contains("1 boards, 1 crawled, 0 failed"), "{out}");
    // Not a terminal: the progress is a plain line on standard error, not a bar.
    assert!(err.contains("ingest ashby: 1/1 boards (done)"), "{err}");
    // Pacing cannot be turned off from the environment: a zero rate is refused.
    let (ok, _, err) = output(
        Command::new(env!("CARGO_BIN_EXE_freehire"))
            .args(["ingest", "--once", "ashby"])
            .env("FREEHIRE_DATABASE_URL", &url)
            .env("FREEHIRE_INGEST_HOST_RATE", "0"),
    );
    assert!(!ok && err.contains("host rate 0"), "{err}");
    let upstreams: Vec<String> = server.requests().iter().map(|r| r.upstream.clone()).collect();
    assert!(upstreams.iter().all(|u| u == "https://api.ashbyhq.com"), "{upstreams:?}");

    // The API over the same file serves what the CLI ingested.
    let store = freehire_app::startup::open_store(&url.parse().unwrap()).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let mail = tempfile::tempdir().unwrap();
    let accounts = freehire_app::accounts::Accounts::ephemeral(store.clone(), mail.path());
    let state = freehire_api::AppState::new(store, accounts);
    tokio::spawn(freehire_api::serve(listener, state, std::future::pending()));
    let body: serde_json::Value =
        reqwest::get(format!("{base}/api/v1/jobs?limit=100")).await.unwrap().json().await.unwrap();
    let total = body["meta"]["total"].as_u64().unwrap();
    assert!(total >= 10, "{body}");
    assert!(
        body["data"]
            .as_array()
            .unwrap()
            .iter()
            .all(|j| j["source"] == "ashby" && j["company"].is_string())
    );
    let slug = body["data"][0]["public_slug"].as_str().unwrap().to_owned();
    let detail: serde_json::Value =
        reqwest::get(format!("{base}/api/v1/jobs/{slug}")).await.unwrap().json().await.unwrap();
    assert_eq!(detail["data"]["public_slug"], slug);

    let (ok, out, _) = freehire(url.clone(), replay.clone(), &["boards", "list"]).await;
    assert!(ok && out.contains("cartesia") && out.contains("active"), "{out}");

    // The whole search index is rebuilt from the same file (the default embedded engine).
    let (ok, out, err) = freehire(url.clone(), replay, &["reindex"]).await;
    assert!(ok, "{err}");
    assert!(out.contains(&format!("indexed {total} documents from {total} jobs")), "{out}");
    assert!(err.contains(&format!("reindex: {total} jobs (done)")), "{err}");
    let index = freehire_search::EmbeddedIndex::open_read_only(&dir.path().join("index")).unwrap();
    assert_eq!(indexed_total(&index).await.unwrap(), total);

    // The same command on Meilisearch, when a server is given (FREEHIRE_MEILI_URL and
    // FREEHIRE_MEILI_MASTER_KEY, or their deprecated MEILI_ names).
    if let Some(meili) = freehire_app::config::var("FREEHIRE_MEILI_URL") {
        let uid = format!("freehire_test_cli_{}", std::process::id());
        let (ok, stdout, stderr) = output(
            Command::new(env!("CARGO_BIN_EXE_freehire"))
                .args(["reindex"])
                .env("FREEHIRE_DATABASE_URL", &url)
                .env("FREEHIRE_SEARCH_ENGINE", "meilisearch")
                .env("FREEHIRE_MEILI_URL", &meili)
                .env("FREEHIRE_MEILI_INDEX", &uid),
        );
        let config = freehire_search::MeiliConfig::new(meili)
            .with_api_key(freehire_app::config::var("FREEHIRE_MEILI_MASTER_KEY").map(Into::into))
            .with_index_uid(uid);
        let meili = freehire_search::MeiliIndex::new(config).unwrap();
        let found = indexed_total(&meili).await;
        meili.drop_index().await.unwrap();
        assert!(ok, "{stderr}");
        assert!(stdout.contains(&format!("indexed {total} documents")), "{stdout}");
        assert_eq!(found.unwrap(), total);
    } else {
        eprintln!(
            "FREEHIRE_MEILI_URL (or MEILI_URL) is not set; `freehire reindex` on Meilisearch did not run"
        );
    }
}

// scenario: A board that cannot be reached
#[tokio::test]
async fn a_board_that_cannot_be_reached_is_named_with_its_class() {
    // Every ATS request goes to a port nothing listens on: a connection refused.
    let closed = {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        format!("http://{}", listener.local_addr().unwrap())
    };
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("freehire.db").display());
    let add = &["boards", "add", "https://jobs.ashbyhq.com/cartesia", "--company", "Cartesia"];
    let (ok, _, err) = freehire(url.clone(), closed.clone(), add).await;
    assert!(ok, "{err}");

    let (ok, out, err) =
        freehire(url.clone(), closed.clone(), &["ingest", "--once", "ashby"]).await;
    assert!(ok, "{err}");
    assert!(out.contains("1 boards, 0 crawled, 1 failed"), "{out}");
    let line = out.lines().find(|l| l.contains("failed ashby/cartesia")).unwrap_or_default();
    assert!(
        line.contains("failed ashby/cartesia (Cartesia): connect: ")
            && line.contains("https://api.ashbyhq.com/posting-api/job-board/cartesia"),
        "each failed board with its class and message:\n{out}"
    );

    let (ok, out, _) = freehire(url.clone(), closed.clone(), &["boards", "list"]).await;
    assert!(ok, "{out}");
    let row = out.lines().find(|l| l.contains("cartesia")).unwrap_or_default();
    assert!(row.contains("connect: ") && row.contains(" 1 "), "health columns:\n{out}");
    assert!(out.contains("1 boards, 1 failing, 0 cooling"), "{out}");

    // Two more failures: the third starts a cooldown, shown until when.
    for _ in 0..2 {
        let (ok, _, err) =
            freehire(url.clone(), closed.clone(), &["ingest", "--once", "ashby"]).await;
        assert!(ok, "{err}");
    }
    let (ok, out, _) =
        freehire(url.clone(), closed.clone(), &["boards", "list", "--failing"]).await;
    assert!(ok, "{out}");
    assert!(out.contains("1 boards, 1 failing, 1 cooling"), "{out}");
    let whole =
        out.lines().find(|l| l.starts_with("ashby/cartesia: connect: ")).unwrap_or_default();
    assert!(whole.contains("posting-api/job-board/cartesia"), "the whole error:\n{out}");
    let (ok, out, _) = freehire(url.clone(), closed, &["ingest", "--once", "ashby"]).await;
    assert!(ok && out.contains("0 failed, 1 cooling"), "a cooling board is not fetched:\n{out}");
}
