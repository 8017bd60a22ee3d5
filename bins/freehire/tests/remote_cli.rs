//! `freehire track …` and `freehire saved-searches …` against a real API server over HTTP
//! (an in-process `freehire_api::serve` on a SQLite file), authenticated by a key minted with
//! `freehire keys create`: the commands need only `FREEHIRE_API_URL` and `FREEHIRE_API_KEY`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use chrono::Utc;
use common::freehire;
use freehire_app::assistant::model::AssistantModel;
use freehire_app::testing::openai::{ModelReply, OpenAiServer};
use freehire_domain::{Facets, JobPosting, Provider};
use freehire_llm::{OpenAiClient, OpenAiConfig};

fn posting(id: &str, title: &str) -> JobPosting {
    JobPosting {
        source: Provider::parse("manual").unwrap(),
        external_id: id.into(),
        url: format!("https://acme.example/jobs/{id}"),
        title: title.into(),
        company: "Acme".into(),
        location: "Berlin, Germany".into(),
        description: "<p>Build systems.</p>".into(),
        remote: false,
        posted_at: None,
        facets: Facets { skills: vec!["rust".into()], ..Facets::default() },
        salary: None,
        role_fingerprint: String::new(),
        structured: Default::default(),
    }
}

// scenario: The command line tracks jobs through the HTTP API with a key
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_command_line_tracks_jobs_through_the_api() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("data/freehire.db").display());
    let db = [("FREEHIRE_DATABASE_URL", url.as_str())];
    let (ok, _, err) =
        freehire(&db, &["users", "create", "me@example.com", "--verified"], "correct horse\n");
    assert!(ok, "{err}");
    let (ok, key, err) = freehire(&db, &["keys", "create", "--user", "me@example.com"], "");
    assert!(ok, "{err}");
    let key = key.trim().to_owned();

    let store = freehire_app::startup::open_store(&url.parse().unwrap()).await.unwrap();
    store
        .upsert_jobs(&[posting("1", "Rust Engineer"), posting("2", "Go Engineer")], Utc::now())
        .await
        .unwrap();
    let list = store.list_open_jobs(freehire_store::ListPage::new(10, 0)).await.unwrap();
    let slug_of = |title: &str| {
        list.jobs.iter().find(|j| j.posting.title == title).unwrap().public_slug.as_str().to_owned()
    };
    let (rust, go) = (slug_of("Rust Engineer"), slug_of("Go Engineer"));

    let mail = tempfile::tempdir().unwrap();
    let accounts = freehire_app::accounts::Accounts::ephemeral(store.clone(), mail.path());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(freehire_api::serve(
        listener,
        freehire_api::AppState::new(store, accounts),
        std::future::pending(),
    ));
    let env = [("FREEHIRE_API_URL", base.as_str()), ("FREEHIRE_API_KEY", key.as_str())];
    let run = |args: &[&str]| freehire(&env, args, "");

    let (ok, out, err) = run(&["track", "save", &go]);
    assert!(ok && out.contains(&format!("saved {go}")), "{out}{err}");
    let today = Utc::now().date_naive();
    let (ok, out, err) = run(&["track", "apply", &rust, "--on", &today.to_string()]);
    assert!(ok && out.contains("applied"), "{out}{err}");
    let (ok, out, err) = run(&["track", "stage", &rust, "interview"]);
    assert!(ok && out.contains(&format!("{rust}: interview")), "{out}{err}");
    let (ok, _, err) = run(&["track", "note", &rust, "Call with Dana on Friday"]);
    assert!(ok, "{err}");

    let (ok, out, err) = run(&["track", "list"]);
    assert!(ok, "{err}");
    assert!(out.contains(&rust) && out.contains("interview") && out.contains(&go), "{out}");
    assert!(out.contains("of 2 tracked jobs"), "{out}");
    let (ok, out, _) = run(&["track", "list", "--filter", "board", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(ok && json["data"].as_array().unwrap().len() == 1, "{out}");
    assert_eq!(json["data"][0]["stage"], "interview");

    // Refusals carry the server's words; a bad stage never leaves the machine.
    let (ok, _, err) = run(&["track", "apply", &rust, "--on", "2999-01-01"]);
    assert!(!ok && err.contains("applied_on"), "{err}");
    let (ok, _, err) = run(&["track", "save", "no-such-job-abcdefgh"]);
    assert!(!ok && err.contains("404"), "{err}");
    let (ok, _, err) = run(&["track", "stage", &rust, "ghosted"]);
    assert!(!ok && err.contains("allowed values"), "{err}");

    let (ok, out, err) =
        run(&["saved-searches", "add", "Rust in Berlin", "skills=rust&cities=berlin"]);
    assert!(ok && out.contains("Rust in Berlin"), "{out}{err}");
    let id: String = out.split_whitespace().nth(2).unwrap().to_owned();
    let (ok, _, err) = run(&["saved-searches", "add", "rust in berlin", "skills=go"]);
    assert!(!ok && err.contains("name"), "{err}");
    let (ok, _, err) = run(&["saved-searches", "add", "Bad", "seniority=wizard"]);
    assert!(!ok && err.contains("query"), "{err}");
    let (ok, out, _) = run(&["saved-searches", "list"]);
    assert!(ok && out.contains("Rust in Berlin") && out.contains("1 saved searches"), "{out}");
    let (ok, out, err) = run(&["saved-searches", "rm", &id]);
    assert!(ok && out.contains("deleted"), "{out}{err}");
    let (ok, _, err) = run(&["saved-searches", "rm", &id]);
    assert!(!ok && err.contains("404"), "{err}");

    // Screening answers: set in part, cleared, refused naming the field.
    let (ok, out, err) = run(&["screening", "show"]);
    assert!(ok && out.contains("may work in: not stated"), "{out}{err}");
    let (ok, out, err) = run(&[
        "screening",
        "set",
        "--country",
        "DE",
        "--country",
        "fr",
        "--salary",
        "85000",
        "--currency",
        "eur",
        "--period",
        "year",
        "--notice-days",
        "30",
        "--adult",
        "yes",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("may work in: de, fr") && out.contains("85000 EUR per year"), "{out}");
    assert!(out.contains("notice period: 30 days") && out.contains("18 or older: yes"), "{out}");
    let (ok, out, err) = run(&["screening", "set", "--relocate", "no", "--clear", "notice"]);
    assert!(ok && out.contains("would relocate: no"), "{out}{err}");
    assert!(out.contains("notice period: not stated") && out.contains("85000 EUR"), "{out}");
    let (ok, _, err) = run(&["screening", "set", "--currency", "euros"]);
    assert!(!ok && err.contains("desired_salary_currency"), "{err}");
    let (ok, out, _) = run(&["screening", "show", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(ok && json["data"]["desired_salary_currency"] == "EUR", "{out}");

    // Without a key, or with a wrong one, nothing happens.
    let (ok, _, err) = freehire(&[("FREEHIRE_API_URL", base.as_str())], &["track", "list"], "");
    assert!(!ok && err.contains("FREEHIRE_API_KEY"), "{err}");
    let wrong = [("FREEHIRE_API_URL", base.as_str()), ("FREEHIRE_API_KEY", "fhk_wrong")];
    let (ok, _, err) = freehire(&wrong, &["track", "list"], "");
    assert!(!ok && err.contains("401"), "{err}");
}

// scenario: The command line keeps the experience bank and the CVs with a cv-scoped key
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_command_line_keeps_the_experience_bank_with_a_cv_key() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("data/freehire.db").display());
    let db = [("FREEHIRE_DATABASE_URL", url.as_str())];
    let (ok, _, err) =
        freehire(&db, &["users", "create", "me@example.com", "--verified"], "correct horse\n");
    assert!(ok, "{err}");
    let (ok, key, err) =
        freehire(&db, &["keys", "create", "--user", "me@example.com", "--scope", "cv"], "");
    assert!(ok, "{err}");
    let key = key.trim().to_owned();
    let store = freehire_app::startup::open_store(&url.parse().unwrap()).await.unwrap();
    let written = store.upsert_jobs(&[posting("7", "Rust Engineer")], Utc::now()).await.unwrap();
    let job = store.jobs_by_ids(&[written[0].id]).await.unwrap()[0].public_slug.as_str().to_owned();
    let mail = tempfile::tempdir().unwrap();
    let accounts = freehire_app::accounts::Accounts::ephemeral(store.clone(), mail.path());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    // A scripted model drafts cover letters: one paragraph on the first achievement shown.
    let llm = OpenAiServer::start([]).await;
    llm.answer_with(|req| {
        let asked = req.body["messages"][1]["content"].as_str().unwrap_or_default();
        let asked: serde_json::Value = serde_json::from_str(asked).unwrap_or_default();
        let paragraph = serde_json::json!({"text": "I rebuilt the search indexer in Rust.",
                                          "evidence_ids": [asked["evidence"][0]["id"]]});
        ModelReply::text(
            serde_json::json!({"greeting": "Dear team,", "paragraphs": [paragraph],
                                            "closing": "Kind regards,"})
            .to_string(),
        )
    });
    let client = OpenAiClient::new(OpenAiConfig::new(llm.base_url(), "test-model")).unwrap();
    let state = freehire_api::AppState::new(store, accounts);
    let assistant = state.assistant.clone().with_model(Some(AssistantModel::new(client, None)));
    let state = state.with_assistant(assistant);
    tokio::spawn(freehire_api::serve(listener, state, std::future::pending()));
    let env = [("FREEHIRE_API_URL", base.as_str()), ("FREEHIRE_API_KEY", key.as_str())];
    let run = |args: &[&str]| freehire(&env, args, "");

    let (ok, out, err) = run(&[
        "experience",
        "add-employment",
        "--company",
        "Acme",
        "--role",
        "Engineer",
        "--start",
        "2021-03",
        "--current",
        "--skill",
        "rust",
    ]);
    assert!(ok && out.contains("Acme Engineer"), "{out}{err}");
    let employment = out.split_whitespace().nth(1).unwrap().trim_end_matches(':').to_owned();
    let (ok, out, err) = run(&[
        "experience",
        "add",
        "Cut the nightly batch from four hours to forty minutes",
        "--employment",
        &employment,
        "--metric",
        "4 h → 40 min",
        "--skill",
        "Kafka",
    ]);
    assert!(ok && out.contains("(manual)"), "{out}{err}");
    let (ok, out, err) = run(&["experience", "list"]);
    assert!(
        ok && out.contains("Cut the nightly batch") && out.contains("1 achievements"),
        "{out}{err}"
    );
    assert!(out.contains("2021-03") && out.contains("now"), "{out}");
    let (ok, out, _) = run(&["experience", "list", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(ok, "{out}");
    assert_eq!(json["data"]["atoms"][0]["skills"], serde_json::json!(["kafka"]));
    // Refusals carry the server's words, naming the field.
    let (ok, _, err) =
        run(&["experience", "add", "Cut the NIGHTLY batch from four hours to forty minutes!"]);
    assert!(!ok && err.contains("already in the bank"), "{err}");
    let (ok, _, err) = run(&["experience", "add", "Shipped", "--employment", "999999"]);
    assert!(!ok && err.contains("404"), "{err}");
    let (ok, _, err) = run(&["experience", "add-employment", "--company", "X", "--start", "March"]);
    assert!(!ok && err.contains("YYYY-MM"), "{err}");
    // The CVs: one base CV made over the API, listed, shown and downloaded as a PDF.
    let made = reqwest::Client::new()
        .post(format!("{base}/api/v1/me/cvs"))
        .bearer_auth(&key)
        .json(&serde_json::json!({"title": "Main", "document": {"header": {"full_name": "Me Myself"}, "summary": "Ships."}}))
        .send()
        .await
        .unwrap();
    assert_eq!(made.status(), 201);
    let (ok, out, err) = run(&["cv", "list"]);
    assert!(ok && out.contains("Main") && out.contains("1 CVs"), "{out}{err}");
    let (_, out, _) = run(&["cv", "list", "--json"]);
    let listed: serde_json::Value = serde_json::from_str(&out).unwrap();
    let id = listed["data"][0]["id"].to_string();
    let (ok, out, err) = run(&["cv", "show", &id]);
    assert!(ok && out.contains("Me Myself"), "{out}{err}");
    let file = dir.path().join("cv.pdf");
    let (ok, out, err) = run(&["cv", "pdf", &id, "-o", file.to_str().unwrap()]);
    assert!(ok && out.contains("bytes"), "{out}{err}");
    assert!(std::fs::read(&file).unwrap().starts_with(b"%PDF"));
    let (ok, _, err) = run(&["cv", "show", "999999"]);
    assert!(!ok && err.contains("404"), "{err}");
    // Tailoring: the copy is made once, its report read, and no run is left to undo yet.
    let (ok, out, err) = run(&["cv", "tailor", &job]);
    assert!(ok && out.contains("(created)") && out.contains("session "), "{out}{err}");
    let copy = out.split_whitespace().nth(2).unwrap().to_owned();
    let (ok, out, err) = run(&["cv", "tailor", &job]);
    assert!(ok && out.contains("(resumed)"), "{out}{err}");
    let (ok, out, err) = run(&["cv", "report", &copy]);
    assert!(ok && out.contains("Rust Engineer") && out.contains("0 requirements"), "{out}{err}");
    let (ok, _, err) = run(&["cv", "undo-run", &copy]);
    assert!(!ok && err.contains("no run"), "{err}");
    let (ok, _, err) = run(&["cv", "tailor", "no-such-job-1"]);
    assert!(!ok && err.contains("404"), "{err}");

    // Import: a CV's text fills the bank; --keep-base leaves the base CV as it is.
    let pasted =
        "Experience\nEngineer at Globex, 2018 - 2020\n- Rebuilt the search indexer in Rust\n";
    let file = dir.path().join("cv.txt");
    std::fs::write(&file, pasted).unwrap();
    let (ok, out, err) = run(&["cv", "import", file.to_str().unwrap(), "--keep-base"]);
    assert!(ok && out.contains(&format!("base CV {id} kept")), "{out}{err}");
    assert!(
        out.contains("1 jobs and projects added") && out.contains("1 achievements added"),
        "{out}"
    );
    let (ok, out, err) = freehire(&env, &["cv", "import", "-"], pasted);
    assert!(ok && out.contains("replaced") && out.contains("1 already banked"), "{out}{err}");
    let (ok, _, err) = run(&["cv", "import", "-"]);
    assert!(!ok && err.contains("text is empty"), "{err}");

    // Cover letters: drafted from the imported (citable) achievements, listed, shown, deleted.
    let (ok, out, err) = run(&["letters", "draft", &job, "--short"]);
    assert!(ok, "{err}");
    assert!(out.contains("I rebuilt the search indexer in Rust."), "{out}");
    assert!(out.contains("(short): 1 paragraphs citing 1 achievements"), "{out}");
    let letter = out.lines().last().unwrap().split_whitespace().nth(1).unwrap().to_owned();
    let (ok, out, err) = run(&["letters", "list"]);
    assert!(ok && out.contains("Rust Engineer") && out.contains("1 letters"), "{out}{err}");
    let (ok, out, err) = run(&["letters", "show", &letter]);
    assert!(ok && out.starts_with("Dear team,"), "{out}{err}");
    let (ok, out, err) = run(&["letters", "rm", &letter]);
    assert!(ok && out.contains("deleted"), "{out}{err}");
    let (ok, _, err) = run(&["letters", "show", &letter]);
    assert!(!ok && err.contains("404"), "{err}");
    let (ok, _, err) = run(&["letters", "draft", "no-such-job-1"]);
    assert!(!ok && err.contains("404"), "{err}");

    // The cv key reaches nothing else.
    let (ok, _, err) = run(&["track", "list"]);
    assert!(!ok && err.contains("403"), "{err}");
}

// scenario: The command line looks the catalogue up without a key
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_command_line_looks_the_catalogue_up_without_a_key() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("data/freehire.db").display());
    let store = freehire_app::startup::open_store(&url.parse().unwrap()).await.unwrap();
    let written = store
        .upsert_jobs(&[posting("1", "Rust Engineer"), posting("2", "Rust Engineer")], Utc::now())
        .await
        .unwrap();
    assert!(store.set_duplicate_of(written[1].id, Some(written[0].id)).await.unwrap());
    let jobs = store.jobs_by_ids(&[written[0].id, written[1].id]).await.unwrap();
    let (one, two) = (jobs[0].public_slug.as_str().to_owned(), jobs[1].public_slug.as_str());
    let mail = tempfile::tempdir().unwrap();
    let accounts = freehire_app::accounts::Accounts::ephemeral(store.clone(), mail.path());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(freehire_api::serve(
        listener,
        freehire_api::AppState::new(store.clone(), accounts),
        std::future::pending(),
    ));
    // No key at all: the lookups are public.
    let env = [("FREEHIRE_API_URL", base.as_str()), ("FREEHIRE_API_KEY", "")];
    let run = |args: &[&str]| freehire(&env, args, "");

    let (ok, out, err) = run(&["find", "HTTPS://ACME.example/jobs/1/?utm_source=x#top"]);
    assert!(ok && out.contains(&one) && out.contains("Rust Engineer at Acme"), "{out}{err}");
    let (ok, _, err) = run(&["find", "https://acme.example/jobs/404"]);
    assert!(!ok && err.contains("no job at this address"), "{err}");
    let (ok, _, err) = run(&["find", "acme.example/jobs/1"]);
    assert!(!ok && err.contains("url"), "{err}");

    let (ok, out, err) = run(&["copies", &one, "--json"]);
    assert!(ok, "{err}");
    let copies: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(copies[0]["public_slug"], two, "{out}");

    let (ok, out, err) = run(&["cities", "ber", "--country", "de", "--limit", "3"]);
    assert!(ok && out.lines().next() == Some("Berlin (de)"), "{out}{err}");

    let (ok, out, err) = run(&["suggest", "rus"]);
    assert!(ok && out.contains("Rust  [skill]  1 jobs"), "{out}{err}");

    // The manual jobs have no boards: the fleet is ok on its jobs alone.
    let (ok, out, err) = run(&["status"]);
    assert!(ok && out.contains("fleet: ok"), "{out}{err}");
    assert!(out.contains("catalogue: 1 open jobs, 1 companies, 1 providers, 0 boards"), "{out}");
    assert!(out.contains("  manual: ok (0 boards"), "{out}");
    let (ok, out, err) = run(&["status", "--json"]);
    assert!(ok, "{err}");
    let both: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (both["status"]["verdict"].as_str(), both["catalog"]["exact"].as_bool()),
        (Some("ok"), Some(true))
    );

    // A board that cannot be reached is named with the kind and text of its error.
    let key = freehire_domain::BoardKey::new(Provider::parse("greenhouse").unwrap(), "Globex", "")
        .unwrap();
    let board = freehire_domain::NewBoard {
        key: key.clone(),
        company: "Globex".into(),
        url: None,
        status: freehire_domain::BoardStatus::Active,
    };
    store.add_board(&board, Utc::now()).await.unwrap();
    let error =
        "GET https://boards-api.greenhouse.io/v1/boards/globex/jobs: network error: dns error";
    let class = freehire_domain::FailureClass::Dns;
    store.record_board_failure(&key, class, error, Utc::now()).await.unwrap();
    let (ok, out, err) = run(&["status"]);
    assert!(ok, "{err}");
    assert!(out.contains("  greenhouse: down (1 boards: 0 healthy, 1 failing, 0 cooling"), "{out}");
    assert!(out.contains("    failing by kind: dns 1"), "{out}");
    assert!(
        out.contains(&format!("    failing greenhouse/Globex (Globex): 1 failures: dns: {error}")),
        "{out}"
    );
}
