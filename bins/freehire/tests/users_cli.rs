//! `freehire users …` and `freehire keys create` against a real SQLite file, then the API
//! over the same file: an operator's account logs in and its key authenticates.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::process::{Command, Stdio};

/// `freehire ARGS` on `url` with `stdin` as standard input: (success, stdout, stderr).
fn freehire(url: &str, args: &[&str], stdin: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_freehire"))
        .args(args)
        .env_remove("DATABASE_URL")
        .env("FREEHIRE_DATABASE_URL", url)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

// scenario: An operator creates an account and mints a key
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operator_creates_an_account_and_mints_a_key() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("data/freehire.db").display());

    let (ok, out, err) =
        freehire(&url, &["users", "create", "Ops@Example.com", "--verified"], "correct horse\n");
    assert!(ok, "{err}");
    assert!(out.contains("created ops@example.com (user, verified)"), "{out}");
    let (ok, _, err) = freehire(&url, &["users", "create", "ops@example.com"], "another one\n");
    assert!(!ok && err.contains("already exists"), "{err}");
    let (ok, _, err) = freehire(&url, &["users", "create", "x@example.com"], "short\n");
    assert!(!ok && err.contains("password"), "{err}");
    let (ok, _, err) = freehire(&url, &["users", "create", "x@example.com"], "");
    assert!(!ok && err.contains("no password"), "{err}");
    let (ok, _, _) =
        freehire(&url, &["users", "create", "unverified@example.com"], "correct horse\n");
    assert!(ok);

    let (ok, out, _) = freehire(&url, &["users", "set-role", "ops@example.com", "moderator"], "");
    assert!(ok && out.contains("ops@example.com is now moderator"), "{out}");
    let (ok, _, err) = freehire(&url, &["users", "set-role", "ops@example.com", "admin"], "");
    assert!(!ok && err.contains("user, moderator"), "{err}");
    let (ok, out, _) = freehire(&url, &["users", "list"], "");
    assert!(ok && out.contains("ops@example.com") && out.contains("moderator"), "{out}");
    assert!(out.contains("2 of 2 accounts"), "{out}");

    let (ok, _, err) = freehire(&url, &["keys", "create", "--user", "unverified@example.com"], "");
    assert!(!ok && err.contains("verify"), "{err}");
    let (ok, token, err) =
        freehire(&url, &["keys", "create", "--user", "ops@example.com", "--scope", "cv"], "");
    assert!(ok, "{err}");
    let token = token.trim().to_owned();
    assert!(token.starts_with("fhk_"), "{token}");
    assert!(err.contains("shown only once"), "{err}");

    // The API over the same file: the password logs in, the key answers /auth/me.
    let store = freehire_app::startup::open_store(&url.parse().unwrap()).await.unwrap();
    let mail = tempfile::tempdir().unwrap();
    let accounts = freehire_app::accounts::Accounts::ephemeral(store.clone(), mail.path());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(freehire_api::serve(
        listener,
        freehire_api::AppState::new(store, accounts),
        std::future::pending(),
    ));
    let http = reqwest::Client::new();
    let login = http
        .post(format!("{base}/api/v1/auth/login"))
        .json(&serde_json::json!({"email": "ops@example.com", "password": "correct horse"}))
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), 200);
    let me: serde_json::Value = http
        .get(format!("{base}/api/v1/auth/me"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        (&me["data"]["email"], &me["data"]["role"]),
        (&serde_json::json!("ops@example.com"), &serde_json::json!("moderator"))
    );
}
