//! `freehire mcp` driven over stdio by the official Python MCP client (PyPI `mcp`, pinned in
//! `tests/mcp/requirements.txt`) against a real API server (an in-process `freehire_api::serve`
//! on a SQLite file with an embedded index): keyless it offers the public tools and searches;
//! with a key it saves a job that `my_jobs` then lists.
//!
//! The Python client is installed on first use into a virtual environment under cargo's
//! target directory (`target/tmp/mcp-venv`); a lock file keeps parallel runs from installing
//! at once, and a venv whose pins match is reused. If `python3 -m venv` or the install fails
//! the test fails saying so: it never skips.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::Command;

use common::api_with_jobs;
use serde_json::Value;

fn text(out: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// The venv with the pinned Python MCP client (see the module docs).
fn python_client() -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"));
    fs::create_dir_all(root).unwrap();
    let venv = root.join("mcp-venv");
    let lock = File::create(root.join("mcp-venv.lock")).unwrap();
    lock.lock().unwrap();
    let requirements = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/requirements.txt");
    let pins = fs::read_to_string(&requirements).unwrap();
    let stamp = venv.join("installed-requirements.txt");
    if fs::read_to_string(&stamp).is_ok_and(|installed| installed == pins) {
        return venv;
    }
    let _ = fs::remove_dir_all(&venv);
    let made = Command::new("python3").arg("-m").arg("venv").arg(&venv).output();
    let made =
        made.unwrap_or_else(|e| panic!("cannot run python3 (needed for the MCP client): {e}"));
    assert!(made.status.success(), "python3 -m venv {} failed:\n{}", venv.display(), text(&made));
    let install = Command::new(venv.join("bin/pip"))
        .args(["install", "--disable-pip-version-check", "--quiet", "-r"])
        .arg(&requirements)
        .output()
        .unwrap();
    assert!(
        install.status.success(),
        "installing the MCP client's pins failed:\n{}",
        text(&install)
    );
    fs::write(&stamp, pins).unwrap();
    venv
}

/// Runs the Python client against `api_url` (with `key`): what it saw.
fn drive(venv: &Path, api_url: &str, key: Option<&str>) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/stdio_client.py");
    let mut cmd = Command::new(venv.join("bin/python"));
    cmd.arg(script).arg(env!("CARGO_BIN_EXE_freehire")).arg(api_url);
    if let Some(key) = key {
        cmd.arg(key);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "the Python MCP client failed:\n{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(last).unwrap_or_else(|e| panic!("{e}: {}", text(&out)))
}

// scenario: A desktop MCP client uses freehire over stdio
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_desktop_mcp_client_searches_and_saves_over_stdio() {
    let venv = tokio::task::spawn_blocking(python_client).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (base, key) = api_with_jobs(dir.path()).await;

    let (venv2, base2) = (venv.clone(), base.clone());
    let keyless = tokio::task::spawn_blocking(move || drive(&venv2, &base2, None)).await.unwrap();
    assert_eq!(keyless["server"], "freehire", "{keyless}");
    assert!(keyless["instructions"].as_str().unwrap().contains("search"), "{keyless}");
    assert_eq!(
        keyless["tools"],
        serde_json::json!(["facets", "search", "job", "company", "market_fit"]),
        "{keyless}"
    );
    assert_eq!(keyless["total"], 2, "{keyless}");
    assert_eq!(keyless["strict"], true, "an unknown argument is refused: {keyless}");
    assert_eq!(keyless["save_refused"], true, "{keyless}");

    let keyed = tokio::task::spawn_blocking(move || drive(&venv, &base, Some(&key))).await.unwrap();
    assert_eq!(keyed["saved"], true, "{keyed}");
    assert_eq!(keyed["my_jobs"], serde_json::json!([keyed["slug"]]), "{keyed}");
}
