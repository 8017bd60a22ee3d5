//! The scope rule of per-user gateway keys (reference §14.2 "Scope rule"): only the API
//! server's request path may run on a user's own key; background work (the worker, the
//! command line, the notify and ingest engines) always uses the service key. Like the
//! reference's scope test, this reads the workspace's sources: the per-user names may appear
//! only in the key module itself, the assistant's model and its HTTP service, the API and web
//! crates, and the API server binary.

use std::path::{Path, PathBuf};

/// What gives a per-user key: the resolver, the gateway adapter, the binding model.
const PER_USER: [&str; 5] =
    ["KeyResolver", "BifrostGateway", "KeyGateway", "AssistantModel", "llmkey::"];

/// Where those names may appear (workspace-relative path prefixes).
const ALLOWED: [&str; 6] = [
    "crates/app/src/llmkey/",
    "crates/app/src/assistant/",
    "crates/app/src/lib.rs",
    "crates/api/src/",
    "crates/web/src/",
    "bins/api/",
];

/// Never, whatever else changes: the worker and the command line.
const FORBIDDEN: [&str; 2] = ["bins/worker/", "bins/freehire/"];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if path.is_dir() {
            // Tests may build anything; targets and fuzzers are not sources.
            if !matches!(name.as_ref(), "target" | "tests" | "fuzz" | "benches" | ".git") {
                sources(&path, out);
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

/// Every source file naming a per-user name, outside `allowed`.
fn offenders(root: &Path, allowed: &[&str]) -> Vec<String> {
    let mut files = Vec::new();
    sources(&root.join("crates"), &mut files);
    sources(&root.join("bins"), &mut files);
    let mut out = Vec::new();
    for file in files {
        let rel = file.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        let named: Vec<_> = PER_USER.iter().filter(|n| text.contains(*n)).collect();
        if named.is_empty() {
            continue;
        }
        let ok = allowed.iter().any(|a| rel.starts_with(a))
            && !FORBIDDEN.iter().any(|f| rel.starts_with(f));
        if !ok {
            out.push(format!("{rel} names {named:?}"));
        }
    }
    out
}

#[test]
fn only_the_api_path_uses_per_user_keys() {
    let bad = offenders(&workspace(), &ALLOWED);
    assert!(bad.is_empty(), "per-user gateway keys outside the API's request path: {bad:#?}");
}

#[test]
fn the_scope_check_finds_an_offender() {
    // The key module itself is found when it is not allowed: the check can fail.
    let bad = offenders(&workspace(), &ALLOWED[1..]);
    assert!(bad.iter().any(|b| b.starts_with("crates/app/src/llmkey/")), "{bad:?}");
}
