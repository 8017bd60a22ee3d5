//! The OpenAPI document against the code: the router answers exactly the documented
//! operations, nothing mounts a route outside the documented assembly, the document is valid
//! OpenAPI 3.1 and served at `/api/v1/openapi.json`, and schemathesis finds no contradiction
//! between the document and the live server.
//!
//! The Python tools (schemathesis, openapi-spec-validator) are installed on first use into a
//! virtual environment under cargo's target directory (`target/tmp/schemathesis-venv`), every
//! package pinned by `schemathesis-requirements.txt`; a lock file keeps parallel tests from
//! installing at once, and a venv whose pins match is reused. If `python3 -m venv` or the
//! install fails, the tests fail saying so: they never skip.

use std::{
    collections::{BTreeMap, BTreeSet},
    fs::{self, File},
    path::{Path, PathBuf},
    process::{Command, Output},
    time::{Duration, Instant},
};

use axum::{
    body::Body,
    http::{Method, Request},
};
use freehire_api::{ErrorCode, Fallback};
use freehire_store::testing::TestDb;
use serde_json::{Value, json};
use tower::ServiceExt;

use crate::{catalogue::indexed, server::Server};

/// The methods every documented path is probed with.
const METHODS: [Method; 8] = [
    Method::GET,
    Method::HEAD,
    Method::POST,
    Method::PUT,
    Method::PATCH,
    Method::DELETE,
    Method::OPTIONS,
    Method::TRACE,
];

/// The document as JSON.
fn document() -> Value {
    serde_json::to_value(freehire_api::openapi()).unwrap()
}

/// `(path, METHOD)` of every documented operation.
fn operations(doc: &Value) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in &METHODS {
            if item.get(method.as_str().to_ascii_lowercase()).is_some() {
                out.insert((path.clone(), method.to_string()));
            }
        }
    }
    out
}

// The probe: a route mounted beside the assembly (or a method added to a documented path)
// answers something other than the fallbacks, and a documented operation the router lacks
// answers a fallback; either way the two sets differ.
// scenario: Every mounted route is documented
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_router_answers_exactly_the_documented_operations() {
    let db = TestDb::sqlite().await;
    let mail = tempfile::tempdir().unwrap();
    let router = freehire_api::router(crate::server::state(db.store.clone(), mail.path()));
    let doc = document();
    let documented = operations(&doc);
    assert!(documented.len() >= 9, "{documented:?}");
    // axum answers HEAD wherever GET is routed; the document lists GET only.
    let expected: BTreeSet<(String, String)> = documented
        .iter()
        .cloned()
        .chain(
            documented.iter().filter(|(_, m)| m == "GET").map(|(p, _)| (p.clone(), "HEAD".into())),
        )
        .collect();
    let mut answered = BTreeSet::new();
    for path in doc["paths"].as_object().unwrap().keys() {
        // A malformed slug: no handler looks anything up, none answers 404 for it.
        let uri = path.replace("{slug}", "PROBE");
        for method in &METHODS {
            let request = Request::builder().method(method).uri(&uri).body(Body::empty()).unwrap();
            let response = router.clone().oneshot(request).await.unwrap();
            if response.extensions().get::<Fallback>().is_some() {
                assert!([404, 405].contains(&response.status().as_u16()), "{method} {uri}");
                continue;
            }
            let operation = (path.clone(), method.to_string());
            if documented.contains(&operation) {
                let status = response.status().as_u16().to_string();
                let listed = &doc["paths"][path][method.as_str().to_ascii_lowercase()]["responses"];
                assert!(
                    listed.get(&status).is_some(),
                    "{method} {uri} answered {status}, which its operation does not list"
                );
            }
            answered.insert(operation);
        }
    }
    assert_eq!(answered, expected, "answered (left) vs documented (right)");
    db.teardown().await;
}

/// What no file of `crates/api/src` may contain outside its tests: every way to mount a
/// route but the documented assembly's `.routes(routes!(…))`.
const FORBIDDEN: [&str; 9] = [
    ".route(",
    ".route_service(",
    ".nest_service(",
    ".merge(",
    ".fallback_service(",
    "routing::",
    "MethodRouter",
    "Router::from(",
    "OpenApiRouter::from(",
];

/// The code of a source file: everything before its `#[cfg(test)]` module, comments dropped.
fn code(text: &str) -> String {
    let end = text.find("#[cfg(test)]").unwrap_or(text.len());
    text[..end].lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

// The source check: the probe cannot find a route at a path the document does not have;
// this check makes sure there is no way to mount one.
#[test]
fn no_route_is_mounted_outside_the_assembly() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() >= 10, "{files:?}");
    let mut mounted = 0;
    let mut problems = Vec::new();
    for file in &files {
        let code = code(&fs::read_to_string(file).unwrap());
        for forbidden in FORBIDDEN {
            if code.contains(forbidden) {
                problems.push(format!("{} mounts with `{forbidden}`", file.display()));
            }
        }
        for (call, allowed) in [
            (".fallback(", ".fallback(not_found)"),
            (".method_not_allowed_fallback(", ".method_not_allowed_fallback(method_not_allowed)"),
        ] {
            if code.matches(call).count() != code.matches(allowed).count() {
                problems.push(format!("{} has a fallback other than `{allowed}`", file.display()));
            }
        }
        mounted += code.matches(".routes(routes!(").count();
    }
    assert!(problems.is_empty(), "{problems:#?}");
    // One `routes!` per operation: the check above sees the real assembly.
    assert_eq!(mounted, operations(&document()).len());
}

// scenario: The document is valid OpenAPI 3.1
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_document_is_served_and_valid_openapi_3_1() {
    let s = Server::start(TestDb::sqlite().await).await;
    let (status, served) = s.get("/api/v1/openapi.json").await;
    assert_eq!(status, 200);
    let doc = document();
    assert_eq!(served, doc, "the served document is the generated one");

    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["info"]["title"], "freehire");
    assert_eq!(doc["info"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(doc["info"]["license"]["identifier"], "AGPL-3.0-or-later");
    assert_eq!(doc["servers"], json!([{"url": "/"}]));
    let schemes = &doc["components"]["securitySchemes"];
    assert_eq!(
        schemes["session"],
        json!({"type": "apiKey", "in": "cookie", "name": "freehire_session",
               "description": "The session cookie set by signing in."})
    );
    assert_eq!(schemes["api_key"]["type"], "http");
    assert_eq!(schemes["api_key"]["scheme"], "bearer");
    assert_eq!(schemes["api_key"]["bearerFormat"], "fhk_…");
    let codes: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(doc["components"]["schemas"]["ErrorCode"]["enum"], json!(codes));

    // Every operation: a 200, and each error status with the error body.
    for (path, method) in operations(&doc) {
        let op = &doc["paths"][&path][method.to_ascii_lowercase()];
        let responses = op["responses"].as_object().unwrap();
        assert!(
            ["200", "201", "202", "204"].iter().any(|s| responses.contains_key(*s)),
            "{method} {path} has a success answer"
        );
        for status in ["400", "413", "414", "431", "500", "503"] {
            let schema = &responses[status]["content"]["application/json"]["schema"];
            // The error body, or one of the answers (`/mcp`'s 400 may be JSON-RPC's error).
            let alternatives = schema["oneOf"].as_array().cloned().unwrap_or(vec![schema.clone()]);
            assert!(
                alternatives
                    .iter()
                    .any(|s| s["allOf"][0]["$ref"] == "#/components/schemas/ErrorBody"),
                "{method} {path} {status}: {schema}"
            );
        }
        assert!(op["operationId"].is_string(), "{method} {path}");
    }
    let not_found = &doc["paths"]["/api/v1/jobs/{slug}"]["get"]["responses"]["404"];
    assert_eq!(
        not_found["content"]["application/json"]["schema"]["allOf"][1]["properties"]["code"]["enum"],
        json!(["not_found"])
    );

    // The search grammar, parameter by parameter.
    let params: BTreeMap<String, Value> = doc["paths"]["/api/v1/jobs/search"]["get"]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap().to_owned(), p.clone()))
        .collect();
    assert_eq!(
        params["work_mode"]["schema"]["items"]["enum"],
        json!(["remote", "hybrid", "onsite"])
    );
    assert_eq!(params["work_mode"]["explode"], true);
    assert_eq!(params["regions_mode"]["schema"]["enum"], json!(["or"]));
    assert_eq!(params["skills_mode"]["schema"]["enum"], json!(["or", "and"]));
    assert!(
        params["regions"]["schema"]["items"]["enum"].as_array().unwrap().contains(&json!("none"))
    );
    assert_eq!(params["skills_exclude"]["schema"]["items"]["type"], "string");
    assert_eq!(params["posted_within_days"]["schema"]["maximum"], 36_500);
    assert_eq!(params["visa_sponsorship"]["schema"]["type"], "boolean");
    assert!(
        params.contains_key("q") && params.contains_key("sort") && !params.contains_key("facets")
    );
    let agent = &doc["paths"]["/api/v1/agent/jobs/search"]["get"]["parameters"];
    assert!(agent.as_array().unwrap().iter().any(|p| p["name"] == "description_format"));

    let file = work_dir().join("openapi.json");
    fs::write(&file, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/validate_openapi.py");
    let venv = tokio::task::spawn_blocking(python_tools).await.unwrap();
    let out = Command::new(venv.join("bin/python")).arg(&script).arg(&file).output().unwrap();
    assert!(out.status.success(), "the document is not valid OpenAPI 3.1:\n{}", text(&out));
    s.db.teardown().await;
}

/// The checks schemathesis runs (4.x names).
const CHECKS: &str = "not_a_server_error,status_code_conformance,content_type_conformance,\
    response_schema_conformance,response_headers_conformance";

/// One worker: with two, hypothesis (under schemathesis 4.32.5) now and then fails inside its
/// own lambda-description cache ("AST constructor recursion depth mismatch", a `KeyError`), a
/// race of its threads, not a finding; one worker never did in our runs.
const WORKERS: &str = "1";

/// Test cases per operation and phase: enough to reach every parameter, few enough for CI
/// (the whole run takes well under a minute on two cores).
const MAX_EXAMPLES: u32 = 30;

// The live server (the real `serve` over a seeded SQLite catalogue with an embedded index, so
// the search routes answer 200) under schemathesis's generated requests, over the whole
// document: every answer must be one the document allows.
// scenario: Schemathesis finds no contradiction
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn schemathesis_finds_no_contradiction() {
    let venv = tokio::task::spawn_blocking(python_tools).await.unwrap();
    let (s, _dir, _index) = indexed(TestDb::sqlite().await).await;
    let work = work_dir().join("schemathesis");
    fs::create_dir_all(&work).unwrap();
    // The document as served, from a file: schemathesis leaves out the operation that served
    // the document it loaded, and openapi.json is one of ours to test.
    let (status, served) = s.get("/api/v1/openapi.json").await;
    assert_eq!(status, 200);
    let document = work.join("openapi.json");
    fs::write(&document, serde_json::to_vec(&served).unwrap()).unwrap();
    let config = work.join("schemathesis.toml");
    let auth = credentials(&s).await;
    fs::write(&config, format!("{auth}{}", slugs_config(&s).await)).unwrap();
    let started = Instant::now();
    let run = tokio::process::Command::new(venv.join("bin/schemathesis"))
        .current_dir(&work)
        .env("NO_COLOR", "1")
        .arg("--config-file")
        .arg(&config)
        .arg("run")
        .arg(&document)
        .args(["--url", &s.base])
        .args(["--checks", CHECKS])
        .args(["--max-examples", &MAX_EXAMPLES.to_string()])
        .args(["--phases", "examples,coverage,fuzzing"])
        .args(["--seed", "20261120", "--workers", WORKERS, "--no-color"])
        .args(["--generation-database", "none", "--request-timeout", "10"])
        .args(["--report", "junit", "--report-dir"])
        .arg(&work)
        .kill_on_drop(true)
        .output();
    let out = tokio::time::timeout(Duration::from_secs(300), run)
        .await
        .expect("schemathesis did not finish within 300 s")
        .expect("cannot start schemathesis");
    let report = text(&out);
    println!("schemathesis ran {:.1} s:\n{report}", started.elapsed().as_secs_f64());
    assert!(out.status.success(), "schemathesis found failures:\n{report}");
    let operations = operations(&served).len();
    assert!(
        report.contains(&format!("Tested: {operations}")),
        "not every operation ran:\n{report}"
    );
    s.db.teardown().await;
}

/// Credentials for the signed-in operations: a verified account's session (the `session`
/// scheme) and a full API key (`api_key`), so those operations answer more than 401.
async fn credentials(s: &Server) -> String {
    let user = crate::accounts::verified_user(s, "schemathesis@example.com").await;
    let minted = user.post("/me/api-keys", json!({"name": "schemathesis"})).await;
    let key = minted.body["data"]["token"].as_str().unwrap().to_owned();
    let session = user.session().unwrap();
    format!(
        "[auth.openapi.session]\napi_key = \"{session}\"\n\n[auth.openapi.api_key]\nbearer = \"{key}\"\n\n"
    )
}

/// The schemathesis configuration: half the generated `{slug}`s are ones the catalogue has,
/// so the slug routes answer 200 too, not only 400 and 404.
async fn slugs_config(s: &Server) -> String {
    let mut out = String::new();
    for (path, list, field) in [
        ("/api/v1/jobs/{slug}", "/api/v1/jobs", "public_slug"),
        ("/api/v1/companies/{slug}", "/api/v1/companies", "slug"),
    ] {
        let (status, body) = s.get(list).await;
        assert_eq!(status, 200);
        let slugs: Vec<&Value> =
            body["data"].as_array().unwrap().iter().map(|j| &j[field]).collect();
        assert!(!slugs.is_empty(), "{list}");
        let name = field.replace('_', "-");
        out += &format!(
            "[dictionaries.{name}]\nvalues = {}\n\n[[operations]]\ninclude-path = \"{path}\"\n\
             parameters = {{ \"path.slug\" = {{ dictionary = \"{name}\", probability = 0.5 }} }}\n\n",
            serde_json::to_string(&slugs).unwrap()
        );
    }
    out
}

/// A scratch directory of these tests under cargo's target directory.
fn work_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("openapi");
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// The virtual environment with the pinned Python tools, installed unless a previous run
/// installed the same pins (see the module docs). Fails loudly when it cannot be made.
fn python_tools() -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"));
    fs::create_dir_all(root).unwrap();
    let venv = root.join("schemathesis-venv");
    let lock = File::create(root.join("schemathesis-venv.lock")).unwrap();
    lock.lock().unwrap();
    let requirements =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/schemathesis-requirements.txt");
    let pins = fs::read_to_string(&requirements).unwrap();
    let stamp = venv.join("installed-requirements.txt");
    if fs::read_to_string(&stamp).is_ok_and(|installed| installed == pins) {
        return venv;
    }
    let _ = fs::remove_dir_all(&venv);
    let made = Command::new("python3").arg("-m").arg("venv").arg(&venv).output();
    let made = made.unwrap_or_else(|e| panic!("cannot run python3 (needed for schemathesis): {e}"));
    assert!(made.status.success(), "python3 -m venv {} failed:\n{}", venv.display(), text(&made));
    let install = Command::new(venv.join("bin/pip"))
        .args(["install", "--disable-pip-version-check", "--quiet", "-r"])
        .arg(&requirements)
        .output()
        .unwrap();
    assert!(
        install.status.success(),
        "installing the schemathesis pins failed:\n{}",
        text(&install)
    );
    fs::write(&stamp, pins).unwrap();
    venv
}
