//! `freehire search` against a real index built from a real SQLite catalogue: what a user types,
//! what they see.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::{path::Path, process::Command};

use chrono::{TimeZone, Utc};
use freehire_app::testing::output;
use freehire_domain::{CountryCode, Facets, JobPosting, Provider, Region, WorkMode};
use freehire_search::{EmbeddedIndex, SearchDocument, SearchIndex, indexable};
use freehire_store::{JobRepo, ListPage, SqliteLocation, SqliteStore, Store};

fn freehire(index_dir: &Path, args: &[&str]) -> (bool, String, String) {
    output(
        Command::new(env!("CARGO_BIN_EXE_freehire"))
            .args(args)
            // The index on this machine, not a server.
            .arg("--local")
            .env("FREEHIRE_INDEX_DIR", index_dir)
            // Search needs no database: a URL nothing answers proves it is not opened.
            .env("FREEHIRE_DATABASE_URL", "postgres://nobody@127.0.0.1:1/none"),
    )
}

fn posting(id: &str, title: &str, company: &str, country: &str, mode: WorkMode) -> JobPosting {
    let country = CountryCode::parse(country).unwrap();
    JobPosting {
        source: Provider::parse("greenhouse").unwrap(),
        external_id: format!("{}:{id}", company.to_lowercase()),
        url: format!("https://{}.example/jobs/{id}", company.to_lowercase()),
        title: title.into(),
        company: company.into(),
        location: format!("Remote ({})", country.as_str().to_uppercase()),
        description: format!("<p>{title} at {company}: build <b>reliable</b> systems.</p>"),
        remote: mode == WorkMode::Remote,
        posted_at: Some(Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).unwrap()),
        facets: Facets {
            countries: vec![country],
            regions: vec![Region::Eu],
            work_mode: Some(mode),
            skills: vec!["rust".into()],
            ..Facets::default()
        },
        salary: None,
        role_fingerprint: String::new(),
        structured: Default::default(),
    }
}

/// Stores four jobs and indexes them the way the worker's drain does.
async fn catalogue(dir: &Path) {
    let store = SqliteStore::connect(&SqliteLocation::File(dir.join("freehire.db"))).await.unwrap();
    store.migrate().await.unwrap();
    let postings = [
        posting("1", "Senior Rust Engineer", "Acme", "de", WorkMode::Remote),
        posting("2", "Rust Engineer", "Globex", "de", WorkMode::Hybrid),
        posting("3", "Rust Engineer", "Initech", "fr", WorkMode::Remote),
        posting("4", "Go Engineer", "Acme", "de", WorkMode::Remote),
    ];
    store.upsert_jobs(&postings, Utc::now()).await.unwrap();
    let jobs = store.list_open_jobs(ListPage::default()).await.unwrap().jobs;
    let index = EmbeddedIndex::open(&dir.join("index")).unwrap();
    let docs =
        jobs.iter().filter(|j| indexable(j)).map(|j| SearchDocument::from_job(j, Utc::now()));
    index.upsert(docs.collect()).await.unwrap();
    store.close().await;
}

#[tokio::test]
async fn search_prints_a_table_json_and_facets() {
    let dir = tempfile::tempdir().unwrap();
    catalogue(dir.path()).await;
    let index = dir.path().join("index");

    let (ok, out, err) = freehire(
        &index,
        &["search", "rust engineer", "--countries", "de", "--work-mode", "remote"],
    );
    assert!(ok, "{err}");
    assert!(out.contains("Senior Rust Engineer") && out.contains("Acme"), "{out}");
    assert!(out.contains("senior-rust-engineer-acme-"), "the slug to open it with: {out}");
    assert!(!out.contains("Globex") && !out.contains("Initech"), "{out}");
    assert!(out.contains("1-1 of 1 jobs"), "{out}");

    let (ok, out, _) = freehire(&index, &["search", "rust", "--facets", "--limit", "1"]);
    assert!(ok);
    assert!(out.contains("1-1 of 3 jobs"), "{out}");
    assert!(out.contains("Facets over 3 matching jobs:"), "{out}");
    assert!(out.contains("countries  de 2 · fr 1"), "{out}");
    assert!(out.contains("work_mode  remote 2 · hybrid 1"), "{out}");

    let (ok, out, _) = freehire(
        &index,
        &[
            "search",
            "engineer",
            "--param",
            "countries_exclude=fr",
            "--param",
            "country=de",
            "--json",
        ],
    );
    assert!(ok);
    let body: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(body["meta"]["total"], 3);
    assert_eq!(body["meta"]["limit"], 20);
    assert_eq!(body["meta"]["ignored_params"][0]["did_you_mean"], "countries");
    assert!(body["data"][0].get("id").is_none());
    assert!(
        body["data"]
            .as_array()
            .unwrap()
            .iter()
            .all(|h| h["countries"] == serde_json::json!(["de"]))
    );
    assert!(body.get("facets").is_none());

    let (ok, out, _) = freehire(&index, &["search", "--work-mode", "remote", "--facets", "--json"]);
    assert!(ok);
    let body: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(body["facets"]["total"], 3);
    assert_eq!(body["facets"]["facets"]["work_mode"], serde_json::json!({"remote": 3}));

    let (ok, out, _) = freehire(&index, &["search", "engineer", "--facets", "--json"]);
    assert!(ok);
    let at = |needle: &str| out.find(needle).unwrap_or_else(|| panic!("{needle} in {out}"));
    assert!(at("\"remote\": 3") < at("\"hybrid\": 1"), "values ranked by count: {out}");
}

// scenario: No index yet
// scenario: Bad value
#[tokio::test]
async fn search_refuses_bad_values_and_a_missing_index() {
    let dir = tempfile::tempdir().unwrap();
    catalogue(dir.path()).await;
    let index = dir.path().join("index");
    let (ok, _, err) = freehire(&index, &["search", "--work-mode", "office"]);
    assert!(!ok);
    assert!(err.starts_with("error: invalid work_mode \"office\": allowed values are"), "{err}");
    let (ok, _, err) = freehire(&index, &["search", "--param", "sort"]);
    assert!(!ok);
    assert!(err.contains("expected KEY=VALUE"), "{err}");
    let (ok, _, err) = freehire(&dir.path().join("nowhere"), &["search", "rust"]);
    assert!(!ok);
    assert!(err.contains("no search index in") && err.contains("nowhere"), "{err}");
    assert!(!dir.path().join("nowhere").exists(), "a mistyped directory is not created");
}
