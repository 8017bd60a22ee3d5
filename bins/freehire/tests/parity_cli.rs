//! The reference client's commands against a real API server: `freehire auth login` with a
//! password (the key minted and stored 0600 in the configuration directory), `auth status`,
//! then `search`, `facets`, `market-fit`, `job`, `company`, `save`, `stage`, `note`, `my` and
//! `unsave` with the stored key and `--json`; `auth logout` forgets it; a wrong password
//! stores nothing; `FREEHIRE_API_KEY` wins over the stored key.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::os::unix::fs::PermissionsExt;

use common::{api_with_jobs, freehire};
use serde_json::Value;

// scenario: The command line signs in and works the board like the reference's client
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reference_clients_commands_work_with_a_stored_sign_in() {
    let dir = tempfile::tempdir().unwrap();
    let (base, _key) = api_with_jobs(dir.path()).await;
    let config = dir.path().join("config");
    let config = config.to_str().unwrap();
    let env = [("FREEHIRE_API_URL", base.as_str()), ("XDG_CONFIG_HOME", config)];
    // Each run blocks this test's thread; the server answers on the runtime's other one.
    let run = |args: &[&str], stdin: &str| {
        let answer = freehire(&env, args, stdin);
        std::future::ready(answer)
    };
    let json =
        |out: &str| -> Value { serde_json::from_str(out).unwrap_or_else(|e| panic!("{e}: {out}")) };

    let (ok, out, err) = run(&["auth", "status"], "").await;
    assert!(ok && out.contains("not signed in"), "{out}{err}");
    // A wrong password is the server's refusal, and nothing is stored.
    let (ok, _, err) = run(&["auth", "login", "--email", "me@example.com"], "wrong horse\n").await;
    assert!(!ok && err.contains("401"), "{err}");
    let creds = dir.path().join("config/freehire/credentials.json");
    assert!(!creds.exists());

    let (ok, out, err) = run(&["auth", "login"], "me@example.com\ncorrect horse\n").await;
    assert!(ok && out.contains("signed in to") && out.contains("me@example.com"), "{out}{err}");
    let mode = std::fs::metadata(&creds).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "the stored key is the user's alone");
    let (ok, out, err) = run(&["auth", "status", "--json"], "").await;
    assert!(ok, "{err}");
    let status = json(&out);
    assert_eq!(status["account"]["email"], "me@example.com", "{out}");
    assert!(status["key_from"].as_str().unwrap().ends_with("credentials.json"), "{out}");

    // The catalogue, keyless reads with the stored key sent.
    let (ok, out, err) = run(&["search", "engineer", "--json"], "").await;
    assert!(ok, "{err}");
    let found = json(&out);
    assert_eq!(found["meta"]["total"], 2, "{out}");
    let slug = found["data"][0]["public_slug"].as_str().unwrap().to_owned();
    let (ok, out, err) = run(&["search", "engineer", "--skills", "rust"], "").await;
    assert!(ok && out.contains("Rust Engineer") && !out.contains("Go Engineer"), "{out}{err}");
    assert!(out.contains("1-1 of 1 jobs"), "{out}");
    let (ok, out, err) = run(&["search", "--country", "germany"], "").await;
    assert!(!ok && err.contains("countries"), "the server names the bad value: {out}{err}");
    let (ok, out, err) = run(&["facets", "--only", "skills", "--json"], "").await;
    assert!(ok, "{err}");
    assert_eq!(json(&out)["data"]["facets"]["skills"]["rust"], 1, "{out}");
    let (ok, out, err) = run(&["facets", "--only", "company_slug", "--json"], "").await;
    assert!(ok, "{err}");
    let companies = json(&out)["data"]["facets"]["company_slug"].clone();
    let counted: u64 = companies.as_object().unwrap().values().filter_map(|n| n.as_u64()).sum();
    assert_eq!(counted, 2, "the company distribution covers both jobs: {out}");
    let (ok, out, err) = run(&["facets"], "").await;
    assert!(ok && out.contains("Facets over 2 matching jobs"), "{out}{err}");
    let (ok, out, err) = run(&["market-fit", "rust", "cobol", "--json"], "").await;
    assert!(ok, "{err}");
    let fit = json(&out);
    assert_eq!(
        (fit["data"]["covered"].as_u64(), fit["data"]["total"].as_u64()),
        (Some(1), Some(2)),
        "{out}"
    );
    assert_eq!(fit["data"]["gaps"], serde_json::json!(["cobol"]));
    let (ok, out, err) = run(&["market-fit", "rust"], "").await;
    assert!(ok && out.contains("1 of 2 matching jobs (50"), "{out}{err}");
    let (ok, out, err) = run(&["job", &slug], "").await;
    assert!(ok && out.contains("at Acme") && out.contains(&format!("slug: {slug}")), "{out}{err}");
    let (ok, out, err) = run(&["company", "acme", "--json"], "").await;
    assert!(ok, "{err}");
    assert_eq!(json(&out)["data"]["company"]["job_count"], 2, "{out}");

    // The board, with the stored key.
    let (ok, out, err) = run(&["save", &slug], "").await;
    assert!(ok && out.contains("saved, not applied"), "{out}{err}");
    let (ok, out, err) = run(&["stage", &slug, "interview", "--json"], "").await;
    assert!(ok, "{err}");
    assert_eq!(json(&out)["data"]["application"]["stage"], "interview", "{out}");
    let (ok, _, err) = run(&["note", &slug, "panel on Monday"], "").await;
    assert!(ok, "{err}");
    let (ok, out, err) = run(&["my", "--json"], "").await;
    assert!(ok, "{err}");
    let mine = json(&out);
    assert_eq!(mine["data"][0]["job_slug"], slug.as_str(), "{out}");
    assert_eq!(mine["data"][0]["notes"], "panel on Monday", "{out}");
    let (ok, out, err) = run(&["my"], "").await;
    assert!(ok && out.contains(&slug) && out.contains("interview"), "{out}{err}");
    // scenario: Ghost reports and the signal
    let (ok, out, err) = run(&["ghost", &slug], "").await;
    assert!(
        ok && out.contains(&format!("reported {slug} as a ghost job (you applied on 20")),
        "{out}{err}"
    );
    let (ok, _, err) = run(&["ghost", &slug, "--on", "2999-01-01"], "").await;
    assert!(!ok && err.contains("applied_on"), "{err}");
    let (ok, out, err) = run(&["ghost", &slug, "--retract"], "").await;
    assert!(ok && out.contains("no ghost report of yours stands"), "{out}{err}");

    // scenario: Companies filter by region, country, work mode, source and skill
    let (ok, out, err) = run(&["companies", "--skill", "rust", "--json"], "").await;
    assert!(ok, "{err}");
    assert_eq!(json(&out)["data"][0]["slug"], "acme", "{out}");
    let (ok, out, err) = run(&["companies", "--source", "manual"], "").await;
    assert!(ok && out.contains("Acme") && out.contains("1-1 of 1 companies"), "{out}{err}");
    let (ok, out, err) = run(&["companies", "--country", "jp"], "").await;
    assert!(ok && out.contains("No companies on this page (0 match)"), "{out}{err}");
    let (ok, _, err) = run(&["companies", "--work-mode", "sometimes"], "").await;
    assert!(!ok && err.contains("work_mode"), "the server names the bad value: {err}");
    // scenario: A merged company slug answers 301
    let db = format!("sqlite://{}", dir.path().join("data/freehire.db").display());
    let local = [("FREEHIRE_DATABASE_URL", db.as_str())];
    let (ok, out, err) = freehire(&local, &["merge-companies", "acme", "acme-group"], "");
    assert!(ok && out.contains("would merge acme (2 open jobs) into acme-group"), "{out}{err}");
    let (ok, out, err) = freehire(&local, &["company-aliases"], "");
    assert!(ok && out.contains("No merged company slugs"), "a dry run changes nothing: {out}{err}");
    let (ok, out, err) = freehire(
        &local,
        &["merge-companies", "acme", "acme-group", "--reason", "legal_form", "--apply"],
        "",
    );
    assert!(ok && out.contains("merged acme into acme-group: 2 jobs moved"), "{out}{err}");
    let (ok, out, err) = freehire(&local, &["company-aliases"], "");
    assert!(ok && out.contains("acme → acme-group (legal_form, 20"), "{out}{err}");
    let (ok, _, err) = freehire(&local, &["merge-companies", "acme", "acme", "--apply"], "");
    assert!(!ok && err.contains("same company"), "{err}");
    let (ok, out, err) = run(&["company", "acme", "--json"], "").await;
    assert!(ok, "the 301 is followed: {err}");
    assert_eq!(json(&out)["data"]["company"]["slug"], "acme-group", "{out}");
    assert_eq!(json(&out)["data"]["company"]["job_count"], 2, "{out}");

    // The environment's key wins over the stored one.
    let bogus = [
        ("FREEHIRE_API_URL", base.as_str()),
        ("XDG_CONFIG_HOME", config),
        ("FREEHIRE_API_KEY", "fhk_bogus"),
    ];
    let (ok, _, err) = freehire(&bogus, &["my"], "");
    assert!(!ok && err.contains("401"), "{err}");

    let (ok, out, err) = run(&["auth", "logout"], "").await;
    assert!(ok && out.contains("signed out"), "{out}{err}");
    assert!(!creds.exists());
    let (ok, _, err) = run(&["save", &slug], "").await;
    assert!(!ok && err.contains("freehire auth login"), "{err}");
}
