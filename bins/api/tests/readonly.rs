//! The `freehire-api` process on a read-only data directory: it refuses to start, and its one
//! error line names the lock file it could not write and prints each cause once.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::{
    os::unix::{fs::PermissionsExt, process::CommandExt},
    process::Command,
};

use freehire_store::{SqliteLocation, SqliteStore, Store};

fn chmod(path: &std::path::Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

// scenario: A read-only data directory names the lock file
#[tokio::test]
async fn a_read_only_data_dir_names_the_lock_file_once() {
    let root = tempfile::tempdir().unwrap();
    chmod(root.path(), 0o755);
    let data = root.path().join("data");
    // A catalogue made by an earlier run, then the folder and its files made read-only.
    let store =
        SqliteStore::connect(&SqliteLocation::File(data.join("freehire.db"))).await.unwrap();
    store.migrate().await.unwrap();
    store.close().await;
    for entry in std::fs::read_dir(&data).unwrap() {
        chmod(&entry.unwrap().path(), 0o444);
    }
    chmod(&data, 0o555);

    let mut command = Command::new(env!("CARGO_BIN_EXE_freehire-api"));
    command
        .current_dir(root.path())
        .env("FREEHIRE_LISTEN", "127.0.0.1:0")
        .env("FREEHIRE_LOG_FORMAT", "json")
        .env("RUST_LOG", "error")
        .env_remove("DATABASE_URL");
    // Root ignores permissions: run the server as nobody then.
    if std::fs::File::create(data.join("probe")).is_ok() {
        command.uid(65534).gid(65534);
    }
    let out = command.output().unwrap();
    chmod(&data, 0o755);
    assert!(!out.status.success(), "the server must not start read-only");

    // The log goes to stdout (tracing's default), anything else to stderr.
    let output =
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let line = output
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find_map(|v| v["fields"]["message"].as_str().map(str::to_owned))
        .unwrap_or_else(|| panic!("no error line in {output}"));
    assert!(line.contains("data/freehire.db.migrate-lock"), "names the lock file: {line}");
    eprintln!("{line}");
    assert!(!line.contains("data directory ./data/freehire.db"), "{line}");
    let segments: Vec<&str> = line.split(": ").collect();
    for (i, s) in segments.iter().enumerate() {
        assert!(!segments[i + 1..].contains(s), "{s:?} repeats in {line:?}");
    }
}
