//! The `freehire` binary against a real SQLite file: what a user types, what they see.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

use chrono::{TimeZone, Utc};
use freehire_app::testing::output;
use freehire_domain::{Facets, JobPosting, Provider, Salary, SalaryPeriod, WorkMode};
use freehire_store::{JobRepo, SqliteLocation, SqliteStore, Store};

fn freehire(db_url: &str, args: &[&str]) -> (bool, String, String) {
    freehire_with("FREEHIRE_DATABASE_URL", db_url, args)
}

/// `freehire ARGS` with the database URL in the variable `var`.
fn freehire_with(var: &str, db_url: &str, args: &[&str]) -> (bool, String, String) {
    output(
        Command::new(env!("CARGO_BIN_EXE_freehire"))
            .args(args)
            .env_remove("DATABASE_URL")
            .env_remove("FREEHIRE_DATABASE_URL")
            .env(var, db_url),
    )
}

// scenario: Unknown slug
#[tokio::test]
async fn migrate_list_and_show_on_the_same_data() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data/freehire.db");
    let url = format!("sqlite://{}", path.display());

    let (ok, out, _) = freehire(&url, &["migrate"]);
    assert!(ok);
    assert!(out.contains("schema is up to date"), "{out}");
    let (ok, out, _) = freehire(&url, &["jobs", "list"]);
    assert!(ok);
    assert!(out.contains("No open jobs"), "{out}");

    let store = SqliteStore::connect(&SqliteLocation::File(path.clone())).await.unwrap();
    let posting = JobPosting {
        source: Provider::parse("manual").unwrap(),
        external_id: "42".into(),
        url: "https://acme.example/jobs/42".into(),
        title: "Senior Go Developer".into(),
        company: "Acme".into(),
        location: "Berlin, Germany".into(),
        description: "<p>Build <strong>reliable</strong> systems.</p><ul><li>Go</li></ul>".into(),
        remote: false,
        posted_at: Some(Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).unwrap()),
        facets: Facets {
            work_mode: Some(WorkMode::Hybrid),
            skills: vec!["go".into()],
            ..Facets::default()
        },
        salary: Some(Salary::new(Some(80_000), Some(95_000), "EUR", SalaryPeriod::Year).unwrap()),
        role_fingerprint: String::new(),
        structured: Default::default(),
    };
    store.upsert_jobs(&[posting], Utc::now()).await.unwrap();
    store.close().await;

    let (ok, out, _) = freehire(&url, &["jobs", "list"]);
    assert!(ok);
    assert!(
        out.contains("Senior Go Developer") && out.contains("senior-go-developer-acme-t35nijto"),
        "{out}"
    );
    assert!(out.contains("1-1 of 1 open jobs"), "{out}");

    let (ok, out, _) = freehire(&url, &["jobs", "list", "--json"]);
    assert!(ok);
    let body: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(body["meta"]["total"], 1);
    assert_eq!(body["data"][0]["public_slug"], "senior-go-developer-acme-t35nijto");

    let (ok, out, _) = freehire(&url, &["jobs", "show", "senior-go-developer-acme-t35nijto"]);
    assert!(ok);
    assert!(out.contains("Acme · Berlin, Germany"), "{out}");
    assert!(out.contains("hybrid"), "{out}");
    assert!(out.contains("80000-95000 EUR per year"), "{out}");
    assert!(out.contains("reliable") && !out.contains("<strong>"), "description as text: {out}");

    let (ok, out, _) = freehire(&url, &["jobs", "rederive"]);
    assert!(ok);
    assert!(
        out.contains("1 jobs re-derived, 1 changed"),
        "the hand-made facets were incomplete: {out}"
    );
    let (ok, out, _) = freehire(&url, &["jobs", "rederive", "--batch", "10"]);
    assert!(ok && out.contains("1 jobs re-derived, 0 changed"), "{out}");

    let (ok, _, err) = freehire(&url, &["jobs", "show", "nope-aaaaaaaa"]);
    assert!(!ok);
    assert_eq!(err.trim(), "error: job not found: nope-aaaaaaaa");
    let (ok, _, err) = freehire(&url, &["jobs", "list", "--limit", "500"]);
    assert!(!ok);
    assert!(err.contains("--limit"), "{err}");
    let (ok, _, err) = freehire("mysql://nope", &["jobs", "list"]);
    assert!(!ok);
    assert!(err.contains("invalid database URL"), "{err}");
}

// scenario: Liveness reads of unwatched postings
// scenario: An operator closes a job
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lifecycle_commands_read_close_and_prune() {
    use freehire_ingest::replay::{ReplayServer, Reply, Route};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("freehire.db");
    let url = format!("sqlite://{}", path.display());
    assert!(freehire(&url, &["migrate"]).0);
    let store = SqliteStore::connect(&SqliteLocation::File(path.clone())).await.unwrap();
    let posting = |id: &str, title: &str| JobPosting {
        source: Provider::parse("manual").unwrap(),
        external_id: id.into(),
        url: format!("https://acme.example/jobs/{id}"),
        title: title.into(),
        company: "Acme".into(),
        location: "Berlin, Germany".into(),
        description: "<p>Build systems.</p>".into(),
        remote: false,
        posted_at: None,
        facets: Facets::default(),
        salary: None,
        role_fingerprint: String::new(),
        structured: Default::default(),
    };
    let written = store
        .upsert_jobs(&[posting("1", "Go Developer"), posting("2", "SRE")], Utc::now())
        .await
        .unwrap();
    let slug = store.jobs_by_ids(&[written[1].id]).await.unwrap().remove(0).public_slug;
    store.close().await;
    let server = ReplayServer::builder()
        .route(Route::get("https://acme.example", "/jobs/1").reply(Reply::status(404)))
        .start()
        .await
        .unwrap();
    let origin = server.origin().url().to_string();

    let (ok, out, err) = freehire(&url, &["jobs", "liveness", "--replay-url", &origin]);
    assert!(ok, "{err}");
    assert!(out.contains("manual 1: expired (HTTP 404"), "{out}");
    assert!(out.contains("strikes 1"), "{out}");
    assert!(out.contains("2 postings read, 0 closed"), "{out}");

    let (ok, out, err) = freehire(&url, &["jobs", "close", slug.as_str()]);
    assert!(ok, "{err}");
    assert_eq!(out.trim(), "closed manual 2 (moderated)");
    let (ok, _, err) = freehire(&url, &["jobs", "close", slug.as_str()]);
    assert!(!ok);
    assert!(err.contains("no open job at"), "{err}");
    let (ok, out, _) = freehire(&url, &["jobs", "show", slug.as_str()]);
    assert!(ok && out.contains("(moderated)"), "{out}");

    let (ok, out, _) = freehire(&url, &["jobs", "prune"]);
    assert!(ok);
    assert!(out.contains("0 jobs would be pruned (closed_90d)"), "{out}");
    let (ok, _, err) = freehire(&url, &["jobs", "prune", "--older-than-days", "0"]);
    assert!(!ok && err.contains("--older-than-days"), "{err}");

    let (ok, out, _) = freehire(&url, &["boards", "close-chronic"]);
    assert!(ok);
    assert!(out.contains("0 chronically failing boards, 0 postings closed"), "{out}");
}

#[test]
fn the_old_database_variable_is_a_deprecated_alias() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("old.db").display());
    let (ok, _, err) = freehire_with("DATABASE_URL", &url, &["migrate"]);
    assert!(ok, "{err}");
    assert!(dir.path().join("old.db").exists(), "DATABASE_URL is read");
    assert_eq!(
        err.trim(),
        "warning: DATABASE_URL is deprecated: set FREEHIRE_DATABASE_URL instead"
    );
}

#[test]
fn boards_import_reports_refused_boards_by_line_and_exits_non_zero() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("boards.db").display());
    let (ok, _, err) = freehire(&url, &["migrate"]);
    assert!(ok, "{err}");
    let csv = dir.path().join("boards.csv");
    std::fs::write(
        &csv,
        "provider,board,company\nashby,cartesia,Cartesia\nashby,..,Root\nashby,../../admin,Admin\n",
    )
    .unwrap();
    let (ok, out, err) = freehire(&url, &["boards", "import", csv.to_str().unwrap()]);
    assert!(!ok, "refused rows make the import fail: {out}");
    assert!(out.contains("skipped: line 3, column board: invalid ashby board \"..\""), "{out}");
    assert!(out.contains("skipped: line 4, column board: invalid ashby board"), "{out}");
    assert!(out.contains("1 added, 0 already present, 2 skipped"), "{out}");
    assert!(err.contains("2 rows of"), "{err}");
    let (ok, _, err) = freehire(&url, &["boards", "add", "javascript:alert(1)", "--company", "X"]);
    assert!(!ok);
    assert!(err.contains("scheme \"javascript\" is not a web address"), "{err}");
    let (ok, out, _) = freehire(&url, &["boards", "list"]);
    assert!(ok);
    assert!(out.contains("1 boards"), "{out}");
}

// scenario: Seeding from the command line
#[test]
fn boards_seed_imports_the_bundled_catalogue_once() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("freehire.db").display());

    let (ok, out, err) = freehire(&url, &["boards", "seed", "--if-empty"]);
    assert!(ok, "{err}");
    let added = |out: &str| -> u64 {
        let total = out.lines().find(|l| l.contains(" boards added, ")).unwrap();
        total.split(' ').next().unwrap().parse().unwrap()
    };
    let first = added(&out);
    assert!(first > 11_000, "{out}");
    assert!(out.contains("gem: 507 added, 0 already present, 0 refused"), "{out}");
    assert!(
        out.contains("refused: workday: line ") || out.contains("refused: ashby: line "),
        "{out}"
    );
    assert!(out.contains("more (--all-refused lists them)"), "{out}");

    let (ok, out, _) = freehire(&url, &["boards", "seed"]);
    assert!(ok);
    assert_eq!(added(&out), 0);
    assert!(out.contains("nothing new"), "{out}");
    let (ok, out, _) = freehire(&url, &["boards", "seed", "--if-empty"]);
    assert!(ok && out.contains("not seeding"), "{out}");
    let (ok, out, _) = freehire(&url, &["boards", "seed", "--all-refused"]);
    assert!(ok && !out.contains("more (--all-refused"), "{out}");
    assert!(out.lines().filter(|l| l.starts_with("refused: ")).count() > 1000, "every refusal");

    let (ok, out, _) = freehire(&url, &["boards", "list", "--provider", "greenhouse"]);
    assert!(ok && out.contains("pending"), "{out}");

    // The demo boards: a separate, small catalogue.
    let demo = format!("sqlite://{}", dir.path().join("demo.db").display());
    let (ok, out, err) = freehire(&demo, &["boards", "seed", "--demo"]);
    assert!(ok, "{err}");
    assert!(out.contains("demo: 13 added, 0 already present, 0 refused"), "{out}");
}
