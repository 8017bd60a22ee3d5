//! What the command line's process tests share: running the binary with an environment.

use std::io::Write;
use std::process::{Command, Stdio};

/// `freehire ARGS` with `env` and `stdin`, without the caller's database or API settings
/// nor any stored sign-in (the configuration directory is an empty one of the test's unless
/// `env` names `XDG_CONFIG_HOME`): (success, stdout, stderr).
pub fn freehire(env: &[(&str, &str)], args: &[&str], stdin: &str) -> (bool, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_freehire"));
    let empty = std::env::temp_dir().join(format!("freehire-test-config-{}", std::process::id()));
    cmd.args(args)
        .env_remove("DATABASE_URL")
        .env_remove("FREEHIRE_API_KEY")
        .env_remove("FREEHIRE_API_URL")
        .env("XDG_CONFIG_HOME", &empty)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A real API server (an in-process `freehire_api::serve` on a SQLite file under `dir`, with an
/// embedded index) holding two open jobs at Acme in Berlin ("Rust Engineer", "Go Engineer"),
/// and an account `me@example.com` (password `correct horse`) with a `full` key: (the server's
/// URL, the key). The companies index is built from the companies table, as `reindex` does.
#[allow(dead_code)]
pub async fn api_with_jobs(dir: &std::path::Path) -> (String, String) {
    use std::sync::Arc;

    use chrono::Utc;
    use freehire_domain::{Facets, JobPosting, Provider};
    use freehire_search::{EmbeddedIndex, SearchDocument, SearchIndex, indexable};

    let posting = |id: &str, title: &str, skill: &str| JobPosting {
        source: Provider::parse("manual").unwrap(),
        external_id: id.into(),
        url: format!("https://acme.example/jobs/{id}"),
        title: title.into(),
        company: "Acme".into(),
        location: "Berlin, Germany".into(),
        description: "<p>Build systems.</p>".into(),
        remote: false,
        posted_at: None,
        facets: Facets { skills: vec![skill.into()], ..Facets::default() },
        salary: None,
        role_fingerprint: String::new(),
        structured: Default::default(),
    };
    let url = format!("sqlite://{}", dir.join("data/freehire.db").display());
    let db = [("FREEHIRE_DATABASE_URL", url.as_str())];
    let (ok, _, err) =
        freehire(&db, &["users", "create", "me@example.com", "--verified"], "correct horse\n");
    assert!(ok, "{err}");
    let (ok, key, err) = freehire(&db, &["keys", "create", "--user", "me@example.com"], "");
    assert!(ok, "{err}");

    let store = freehire_app::startup::open_store(&url.parse().unwrap()).await.unwrap();
    let jobs = [posting("1", "Rust Engineer", "rust"), posting("2", "Go Engineer", "go")];
    store.upsert_jobs(&jobs, Utc::now()).await.unwrap();
    let jobs = store.list_open_jobs(freehire_store::ListPage::new(10, 0)).await.unwrap().jobs;
    let index = EmbeddedIndex::open(&dir.join("index")).unwrap();
    let docs =
        jobs.iter().filter(|j| indexable(j)).map(|j| SearchDocument::from_job(j, Utc::now()));
    index.upsert(docs.collect()).await.unwrap();
    freehire_app::company_index::rebuild(store.as_ref(), &index, Utc::now()).await.unwrap();
    let index: Arc<dyn SearchIndex> = Arc::new(index);

    let accounts = freehire_app::accounts::Accounts::ephemeral(store.clone(), &dir.join("mail"));
    let state = freehire_api::AppState {
        search: freehire_app::search_slot::SearchSlot::open(index),
        ..freehire_api::AppState::new(store, accounts)
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(freehire_api::serve(listener, state, std::future::pending()));
    (base, key.trim().to_owned())
}
