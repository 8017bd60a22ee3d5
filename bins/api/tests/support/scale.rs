//! The scale-out run (issue 17): `pairs` `freehire-api` processes and `pairs`
//! `freehire-worker` processes on one PostgreSQL database and one search engine (the embedded
//! index in one shared folder, or Meilisearch with `MEILI_URL`), fed by the replay server with
//! `boards` recorded boards on three platforms (the recorded Ashby boards cycled, Greenhouse and
//! Lever recordings, each board's job ids made its own). It checks, and panics naming what broke:
//!
//! - **no job is written twice**: the postings the workers counted as inserted (their
//!   `/metrics`) are exactly the rows in `jobs`, and none was changed (every board is crawled once);
//! - **no digest is sent twice**: accounts subscribed (through the API, instant digests to a
//!   local webhook) get every job in at most one digest, and every delivery arrives once by id;
//! - **one turn per session** holds across the API processes (a message on the first runs, one
//!   on the second queues, a third is 409 on either) when there are two;
//! - **rate limits are shared**: one client IP (behind a trusted proxy) is refused once the
//!   processes together let the bucket's 600 through, not 600 each;
//! - **the index converges**: every API process's search finds every open job.
//!
//! and measures ingest (postings per second, from the workers' start until every platform's
//! first run finished) and search (requests per second from `search_clients` concurrent
//! clients spread over the API processes for `search_secs`).
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::{Router, http::HeaderMap, routing::post};
use chrono::Utc;
use freehire_app::testing::openai::{ModelReply, OpenAiServer};
use freehire_domain::{BoardKey, BoardStatus, NewBoard, Provider, UserId};
use freehire_ingest::replay::{ReplayServer, Reply, Route};
use freehire_store::testing::TestDb;
use serde_json::{Value, json};

use super::{Api, ApiConfig, account, create_session, database_url, send, stream};

/// What one run does.
#[derive(Debug, Clone)]
pub struct ScaleConfig {
    /// Boards in all (half Ashby, three tenths Greenhouse, a fifth Lever).
    pub boards: usize,
    /// API processes, and as many workers.
    pub pairs: usize,
    /// How long the search load runs.
    pub search_secs: f64,
    /// Concurrent search clients.
    pub search_clients: usize,
    /// Accounts subscribed to a digest.
    pub subscribers: usize,
    /// Meilisearch (`url`, `key`) instead of the embedded index.
    pub meili: Option<(String, Option<String>)>,
}

/// What one run measured.
#[derive(Debug, Clone)]
pub struct ScaleReport {
    pub pairs: usize,
    pub boards: usize,
    pub engine: &'static str,
    /// Postings inserted.
    pub postings: u64,
    /// Seconds from the workers' start until every platform's first run finished.
    pub ingest_secs: f64,
    /// Searches answered.
    pub searches: u64,
    /// Seconds the search load ran.
    pub search_secs: f64,
    /// Search latency p50 and p99, milliseconds.
    pub search_p50_ms: f64,
    pub search_p99_ms: f64,
}

impl ScaleReport {
    /// Postings per second.
    pub fn ingest_rate(&self) -> f64 {
        self.postings as f64 / self.ingest_secs.max(f64::EPSILON)
    }

    /// Searches per second.
    pub fn search_rate(&self) -> f64 {
        self.searches as f64 / self.search_secs.max(f64::EPSILON)
    }

    /// One line for people.
    pub fn line(&self) -> String {
        format!(
            "{} pair(s), {}: {} boards, {} postings ingested in {:.1} s ({:.0} postings/s); \
             {} searches in {:.1} s ({:.0}/s, p50 {:.1} ms, p99 {:.1} ms)",
            self.pairs,
            self.engine,
            self.boards,
            self.postings,
            self.ingest_secs,
            self.ingest_rate(),
            self.searches,
            self.search_secs,
            self.search_rate(),
            self.search_p50_ms,
            self.search_p99_ms
        )
    }
}

/// The three platforms the run feeds, with the share of the boards each gets (tenths).
const PLATFORMS: [(&str, usize); 3] = [("ashby", 5), ("greenhouse", 3), ("lever", 2)];

fn fixtures() -> PathBuf {
    freehire_app::testing::ats_fixtures(env!("CARGO_MANIFEST_DIR"))
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every recorded Ashby board (`ashby-boards` and `ashby-eval`) with at least one job.
fn ashby_recordings() -> Vec<Value> {
    let mut out = Vec::new();
    for folder in ["ashby-boards", "ashby-eval"] {
        let dir = fixtures().join(folder);
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("json"))
            .collect();
        paths.sort();
        for path in paths {
            let board = read_json(&path);
            if board["jobs"].as_array().is_some_and(|jobs| !jobs.is_empty()) {
                out.push(board);
            }
        }
    }
    assert!(!out.is_empty(), "no recorded Ashby board under {}", fixtures().display());
    out
}

/// `value`'s job ids made the board's own (`<id>-<board>`), so no two boards share a posting.
fn own_ids(jobs: &mut Value, id_field: &str, board: usize) {
    for job in jobs.as_array_mut().into_iter().flatten() {
        let id = match &job[id_field] {
            Value::String(s) => Value::String(format!("{s}-{board}")),
            Value::Number(n) => json!(n.as_u64().unwrap_or(0) * 100_000 + board as u64),
            other => other.clone(),
        };
        job[id_field] = id;
    }
}

/// The replay routes of every board, and the boards to add: (provider, board, company).
fn recorded_boards(total: usize) -> (Vec<Route>, Vec<(String, String, String)>) {
    let ashby = ashby_recordings();
    let careerkit = fixtures().join("careerkit");
    let greenhouse = read_json(&careerkit.join("greenhouse.json"));
    let lever = read_json(&careerkit.join("lever.json"));
    let mut routes = Vec::new();
    let mut boards = Vec::new();
    let mut i = 0usize;
    for (provider, tenths) in PLATFORMS {
        let n = (total * tenths).div_ceil(10);
        for k in 0..n {
            i += 1;
            let (board, company) = (format!("scale{i}"), format!("Scale {provider} {k}"));
            match provider {
                "ashby" => {
                    let mut listing = ashby[k % ashby.len()].clone();
                    own_ids(&mut listing["jobs"], "id", i);
                    routes.push(
                        Route::get(
                            "https://api.ashbyhq.com",
                            &format!("/posting-api/job-board/{board}"),
                        )
                        .reply(Reply::json(listing.to_string())),
                    );
                }
                "greenhouse" => {
                    let mut listing = greenhouse.clone();
                    own_ids(&mut listing["jobs"], "id", i);
                    for job in listing["jobs"].as_array_mut().into_iter().flatten() {
                        job["company_name"] = json!(company);
                        let id = job["id"].to_string();
                        job["absolute_url"] =
                            json!(format!("https://job-boards.greenhouse.io/{board}/jobs/{id}"));
                    }
                    let path = format!("/v1/boards/{board}/jobs");
                    routes.push(
                        Route::get("https://boards-api.greenhouse.io", &path)
                            .query("content=true")
                            .reply(Reply::json(listing.to_string())),
                    );
                    let about = json!({ "name": company, "content": "" });
                    routes.push(
                        Route::get(
                            "https://boards-api.greenhouse.io",
                            &format!("/v1/boards/{board}"),
                        )
                        .reply(Reply::json(about.to_string())),
                    );
                }
                _ => {
                    let mut listing = lever.clone();
                    own_ids(&mut listing, "id", i);
                    for job in listing.as_array_mut().into_iter().flatten() {
                        let id = job["id"].as_str().unwrap_or_default().to_owned();
                        job["hostedUrl"] = json!(format!("https://jobs.lever.co/{board}/{id}"));
                        job["applyUrl"] =
                            json!(format!("https://jobs.lever.co/{board}/{id}/apply"));
                    }
                    let path = format!("/v0/postings/{board}");
                    routes.push(
                        Route::get("https://api.lever.co", &path)
                            .query("mode=json")
                            .reply(Reply::json(listing.to_string())),
                    );
                    routes.push(
                        Route::get("https://api.eu.lever.co", &path)
                            .query("mode=json")
                            .reply(Reply::json("[]")),
                    );
                }
            }
            boards.push((provider.to_owned(), board, company));
        }
    }
    (routes, boards)
}

/// The webhook receiver: every delivery id it was sent, in order.
type Received = Arc<Mutex<Vec<String>>>;

async fn webhook_receiver() -> (String, Received) {
    let got: Received = Arc::default();
    let sink = got.clone();
    let app = Router::new().route(
        "/digest",
        post(move |headers: HeaderMap| {
            let sink = sink.clone();
            async move {
                let id = headers
                    .get("x-freehire-delivery")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("?")
                    .to_owned();
                sink.lock().unwrap().push(id);
                axum::http::StatusCode::OK
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/digest", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, got)
}

/// A free loopback port.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The worker binary beside the API's (a workspace build makes both).
fn worker_binary() -> PathBuf {
    let api = Path::new(env!("CARGO_BIN_EXE_freehire-api"));
    let worker = api.with_file_name("freehire-worker");
    assert!(
        worker.is_file(),
        "{} is missing: build it first (cargo build --bin freehire-worker; cargo xtask test and \
         cargo xtask scale do)",
        worker.display()
    );
    worker
}

/// One worker process and where its metrics are served.
struct Worker {
    child: Child,
    metrics: String,
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_worker(n: usize, env: &[(String, String)], log: &Path) -> Worker {
    let port = free_port();
    let out =
        || Stdio::from(std::fs::OpenOptions::new().create(true).append(true).open(log).unwrap());
    let child = Command::new(worker_binary())
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .env("FREEHIRE_WORKER_ID", format!("scale-worker-{n}"))
        .env("FREEHIRE_WORKER_METRICS_ADDR", format!("127.0.0.1:{port}"))
        .env_remove("DATABASE_URL")
        .stdout(out())
        .stderr(out())
        .spawn()
        .unwrap();
    Worker { child, metrics: format!("http://127.0.0.1:{port}/metrics") }
}

/// The sum over `texts` of every sample of `metric` whose labels contain all of `labels`.
fn sum_metric(texts: &[String], metric: &str, labels: &[&str]) -> f64 {
    texts
        .iter()
        .flat_map(|t| t.lines())
        .filter(|l| l.starts_with(&format!("{metric}{{")))
        .filter(|l| labels.iter().all(|want| l.contains(want)))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

async fn scrape(workers: &[Worker]) -> Vec<String> {
    let mut out = Vec::new();
    for w in workers {
        let text = match reqwest::get(&w.metrics).await {
            Ok(res) => res.text().await.unwrap_or_default(),
            Err(_) => String::new(),
        };
        out.push(text);
    }
    out
}

/// Polls `probe` every 200 ms until it says done, panicking with `what` (and its last word)
/// after `limit`.
async fn eventually<F, Fut>(limit: Duration, what: &str, mut probe: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<(), String>>,
{
    let deadline = Instant::now() + limit;
    loop {
        match probe().await {
            Ok(()) => return,
            Err(last) if Instant::now() > deadline => panic!("{what}: {last}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    }
}

/// Subscribes `token`'s account to instant digests of "engineer" jobs at `hook`, through the API.
async fn subscribe(client: &reqwest::Client, api: &Api, token: &str, hook: &str) {
    let settings = json!({"enabled": true, "digest_frequency": "instant", "digest_hour": 9,
        "quiet_hours_start": null, "quiet_hours_end": null, "timezone": null});
    let res = client
        .put(api.url("/me/notification-settings"))
        .bearer_auth(token)
        .json(&settings)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap_or_default());
    let search = json!({"name": "engineers", "query": "q=engineer"});
    let res = client
        .post(api.url("/me/saved-searches"))
        .bearer_auth(token)
        .json(&search)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap_or_default());
    let id = res.json::<Value>().await.unwrap()["data"]["id"].clone();
    let id =
        id.as_i64().map_or_else(|| id.as_str().unwrap_or_default().to_owned(), |n| n.to_string());
    let sub = json!({"channel": "webhook", "url": hook});
    let res = client
        .post(api.url(&format!("/me/saved-searches/{id}/subscriptions")))
        .bearer_auth(token)
        .json(&sub)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap_or_default());
}

/// A search's total on `api`.
async fn search_total(client: &reqwest::Client, api: &Api) -> Result<u64, String> {
    let res = client
        .get(api.url("/jobs/search?limit=1"))
        .header("x-forwarded-for", "192.0.2.10")
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let status = res.status();
    let body: Value = res.json().await.map_err(|e| e.to_string())?;
    if status != 200 {
        return Err(format!("{status}: {body}"));
    }
    body["meta"]["total"].as_u64().ok_or_else(|| body.to_string())
}

/// Runs the scale-out run (see the module docs).
pub async fn run(config: &ScaleConfig) -> ScaleReport {
    let db = TestDb::postgres().await;
    let url = database_url(&db);
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("processes.log");
    let engine = if config.meili.is_some() { "meilisearch" } else { "embedded" };

    let (routes, boards) = recorded_boards(config.boards);
    let mut replay = ReplayServer::builder();
    for route in routes {
        replay = replay.route(route);
    }
    let replay = replay.start().await.unwrap();
    let store = db.store();
    let new: Vec<NewBoard> = boards
        .iter()
        .map(|(provider, board, company)| NewBoard {
            key: BoardKey::new(Provider::parse(provider).unwrap(), board, "").unwrap(),
            company: company.clone(),
            url: None,
            status: BoardStatus::Active,
        })
        .collect();
    for chunk in new.chunks(500) {
        store.add_boards(chunk, Utc::now()).await.unwrap();
    }

    // What every process shares: the database, the engine, the webhook policy.
    let mut shared: Vec<(String, String)> = vec![
        ("FREEHIRE_DATABASE_URL".into(), url.clone()),
        ("FREEHIRE_WEBHOOK_ALLOW_PRIVATE".into(), "true".into()),
        ("FREEHIRE_MAIL_DIR".into(), dir.path().join("mail").display().to_string()),
    ];
    match &config.meili {
        Some((meili, key)) => {
            let uid = format!("scale_{}_{}", std::process::id(), Utc::now().timestamp_millis());
            shared.push(("FREEHIRE_SEARCH_ENGINE".into(), "meilisearch".into()));
            shared.push(("FREEHIRE_MEILI_URL".into(), meili.clone()));
            shared.push(("FREEHIRE_MEILI_INDEX".into(), uid));
            if let Some(key) = key {
                shared.push(("FREEHIRE_MEILI_MASTER_KEY".into(), key.clone()));
            }
        }
        None => {
            let index = dir.path().join("index").display().to_string();
            shared.push(("FREEHIRE_SEARCH_ENGINE".into(), "embedded".into()));
            shared.push(("FREEHIRE_INDEX_DIR".into(), index));
        }
    }

    // The API processes, with a model whose first answer never comes (the turn test).
    let model = OpenAiServer::start([ModelReply::Hang, ModelReply::text("Here you go.")]).await;
    let llm = model.base_url();
    let mut api_env: Vec<(&str, &str)> =
        shared.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    api_env.push(("FREEHIRE_TRUSTED_PROXIES", "127.0.0.1"));
    let api_config =
        ApiConfig { llm_base_url: &llm, llm_model: "scripted", env: &api_env, log: Some(&log) };
    let mut apis = Vec::new();
    for _ in 0..config.pairs {
        apis.push(Api::start_with(&url, &api_config).await);
    }
    let client = reqwest::Client::new();

    // Digest subscribers, through the API, before anything is ingested.
    let (hook, received) = webhook_receiver().await;
    let mut subscribers: Vec<(UserId, String)> = Vec::new();
    for i in 0..config.subscribers {
        let (user, token) = account(db.store.clone(), &format!("sub{i}@example.com"), None).await;
        subscribe(&client, &apis[i % apis.len()], &token, &hook).await;
        subscribers.push((user, token));
    }

    // The workers: fast ticks, no pacing to speak of (every board is on loopback).
    let mut worker_env = shared.clone();
    worker_env.extend([
        ("FREEHIRE_ATS_REPLAY_URL".to_owned(), replay.origin().url().to_string()),
        ("FREEHIRE_INGEST_HOST_RATE".to_owned(), "10000".to_owned()),
        ("FREEHIRE_WORKER_TICK_SECS".to_owned(), "1".to_owned()),
        ("FREEHIRE_WORKER_HEARTBEAT_SECS".to_owned(), "5".to_owned()),
        ("FREEHIRE_NOTIFY_EVERY_SECS".to_owned(), "1".to_owned()),
        ("FREEHIRE_DELIVER_EVERY_SECS".to_owned(), "1".to_owned()),
        ("FREEHIRE_NOTIFY_LEASE_SECS".to_owned(), "30".to_owned()),
    ]);
    let started = Instant::now();
    let workers: Vec<Worker> =
        (0..config.pairs).map(|n| start_worker(n, &worker_env, &log)).collect();
    let log_tail = || {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(40)..].join("\n")
    };

    // Every platform's first run done.
    let mut workers = workers;
    let mut last;
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        for w in &mut workers {
            if let Ok(Some(status)) = w.child.try_wait() {
                panic!("a worker exited ({status}):\n{}", log_tail());
            }
        }
        last = scrape(&workers).await;
        let done = PLATFORMS.iter().all(|(p, _)| {
            let provider = format!("provider=\"{p}\"");
            sum_metric(&last, "freehire_ingest_runs_total", &[&provider, "outcome=\"ok\""]) >= 1.0
        });
        if done {
            break;
        }
        assert!(Instant::now() < deadline, "the workers never finished: {last:?}\n{}", log_tail());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let ingest_secs = started.elapsed().as_secs_f64();
    let inserted =
        sum_metric(&last, "freehire_ingest_postings_total", &["outcome=\"inserted\""]) as u64;
    let changed =
        sum_metric(&last, "freehire_ingest_postings_total", &["outcome=\"changed\""]) as u64;
    let failed = sum_metric(&last, "freehire_ingest_boards_total", &["outcome=\"failed\""]) as u64;
    let crawled =
        sum_metric(&last, "freehire_ingest_boards_total", &["outcome=\"crawled\""]) as u64;
    assert_eq!(failed, 0, "no board fails: {}", log_tail());
    assert_eq!(crawled, boards.len() as u64, "every board crawled once, by one worker");

    // No job written twice.
    let counts = store.catalog_counts().await.unwrap();
    let rows = counts.open_jobs + counts.duplicates;
    assert!(inserted > 0, "the run ingested nothing");
    assert_eq!(inserted, rows, "every posting inserted once: {inserted} inserts, {rows} rows");
    assert_eq!(changed, 0, "no posting written again");

    // The index converges on every API process.
    for api in &apis {
        eventually(Duration::from_secs(120), "the index never caught up", || {
            let client = client.clone();
            async move {
                let total = search_total(&client, api).await?;
                if total == counts.open_jobs {
                    Ok(())
                } else {
                    Err(format!("{total} of {}", counts.open_jobs))
                }
            }
        })
        .await;
    }

    // No digest sent twice.
    eventually(Duration::from_secs(120), "the digests were never all delivered", || {
        let store = db.store.clone();
        let subscribers = subscribers.clone();
        async move {
            for (user, _) in &subscribers {
                let deliveries = store.deliveries_of(*user).await.map_err(|e| e.to_string())?;
                if deliveries.is_empty() || deliveries.iter().any(|d| d.status != "sent") {
                    return Err(format!("{user:?}: {deliveries:?}"));
                }
            }
            Ok(())
        }
    })
    .await;
    let mut delivery_ids = BTreeSet::new();
    for (user, _) in &subscribers {
        let mut seen: BTreeSet<String> = BTreeSet::new();
        for note in store.notifications_of(*user).await.unwrap() {
            for job in &note.jobs {
                assert!(seen.insert(job.slug.clone()), "{} notified twice to {user:?}", job.slug);
            }
        }
        assert!(!seen.is_empty(), "{user:?} got no digest");
        for d in store.deliveries_of(*user).await.unwrap() {
            delivery_ids.insert(d.id.to_string());
        }
    }
    let got = received.lock().unwrap().clone();
    let mut per_id: BTreeMap<String, usize> = BTreeMap::new();
    for id in &got {
        *per_id.entry(id.clone()).or_default() += 1;
    }
    assert_eq!(
        per_id.keys().cloned().collect::<BTreeSet<_>>(),
        delivery_ids,
        "every delivery arrived"
    );
    assert!(per_id.values().all(|n| *n == 1), "a delivery arrived twice: {per_id:?}");

    if apis.len() >= 2 {
        one_turn_per_session(&client, &apis, &subscribers[0].1, &model).await;
        shared_rate_limits(&client, &apis).await;
    }
    let (searches, search_secs, p50, p99) = search_load(&apis, config).await;

    drop(workers);
    drop(apis);
    db.teardown().await;
    ScaleReport {
        pairs: config.pairs,
        boards: boards.len(),
        engine,
        postings: inserted,
        ingest_secs,
        searches,
        search_secs,
        search_p50_ms: p50,
        search_p99_ms: p99,
    }
}

/// A message on the first process runs (its model call hangs), one on the second queues, a
/// third is 409 on either; then the turn is cancelled from the second.
async fn one_turn_per_session(
    client: &reqwest::Client,
    apis: &[Api],
    token: &str,
    model: &OpenAiServer,
) {
    let (a, b) = (&apis[0], &apis[1]);
    let id = create_session(client, a, token, "chat").await;
    let mut first = stream(send(client, a, token, &id, "find me remote Rust jobs").await).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    while model.requests().is_empty() {
        assert!(Instant::now() < deadline, "the first turn never reached the model");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut second = stream(send(client, b, token, &id, "and in Germany?").await).await;
    assert_eq!(second.until("queued", Duration::from_secs(10)).await["type"], "queued");
    for api in [a, b] {
        let third = send(client, api, token, &id, "third").await;
        assert_eq!(third.status(), 409, "one turn per session across the processes");
    }
    let cancel = client
        .post(b.url(&format!("/assistant/sessions/{id}/cancel")))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(cancel.status(), 204);
    let ended = first.until("result", Duration::from_secs(20)).await;
    assert_eq!(ended["stop_reason"], "cancelled", "{ended}");
    let _ = second.until("result", Duration::from_secs(20)).await;
}

/// One client IP (behind the trusted proxy) reads the job list from the processes in turn
/// until refused: together they let about one bucket through (600 plus what refills meanwhile),
/// not one each, and then every process refuses it.
async fn shared_rate_limits(client: &reqwest::Client, apis: &[Api]) {
    let ip = "203.0.113.77";
    let started = Instant::now();
    let mut accepted = 0u64;
    let mut n = 0usize;
    loop {
        let api = &apis[n % apis.len()];
        n += 1;
        let res = client
            .get(api.url("/jobs?limit=1"))
            .header("x-forwarded-for", ip)
            .send()
            .await
            .unwrap();
        match res.status().as_u16() {
            200 => accepted += 1,
            429 => break,
            other => panic!("the job list answered {other}"),
        }
        assert!(accepted < 2_000, "the limit never refused the client");
    }
    let refill = (started.elapsed().as_secs_f64() * 10.0).ceil() as u64;
    assert!(
        accepted <= 600 + refill + 5,
        "{accepted} reads passed in {:.1} s: the processes counted apart",
        started.elapsed().as_secs_f64()
    );
    assert!(accepted >= 590, "{accepted}: the bucket holds 600");
    for api in apis {
        let res = client
            .get(api.url("/jobs?limit=1"))
            .header("x-forwarded-for", ip)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 429, "every process refuses the spent caller");
        assert!(res.headers().contains_key("retry-after"));
    }
}

/// `search_clients` clients searching for `search_secs`, spread over the processes, each
/// request from its own client address: (answered, seconds, p50 ms, p99 ms).
async fn search_load(apis: &[Api], config: &ScaleConfig) -> (u64, f64, f64, f64) {
    const WORDS: [&str; 8] =
        ["engineer", "product", "data", "senior", "manager", "sales", "design", "platform"];
    let bases: Vec<String> = apis.iter().map(|a| a.base.clone()).collect();
    let until = Instant::now() + Duration::from_secs_f64(config.search_secs);
    let started = Instant::now();
    let mut tasks = Vec::new();
    let clients = config.search_clients;
    for c in 0..clients {
        let bases = bases.clone();
        tasks.push(tokio::spawn(async move {
            let client = reqwest::Client::new();
            let mut times = Vec::new();
            let mut i = c;
            while Instant::now() < until {
                let base = &bases[i % bases.len()];
                let word = WORDS[i % WORDS.len()];
                // Each request from its own address (IPv6 documentation prefix): the load
                // measures search, not one client's bucket.
                let ip = format!("2001:db8:{:x}::1", i % 65_536);
                let sent = Instant::now();
                let res = client
                    .get(format!("{base}/api/v1/jobs/search?q={word}&limit=20"))
                    .header("x-forwarded-for", ip)
                    .send()
                    .await
                    .unwrap();
                let status = res.status();
                let _ = res.bytes().await;
                assert_eq!(status, 200, "search under load");
                times.push(sent.elapsed().as_secs_f64() * 1000.0);
                i += clients;
            }
            times
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    let secs = started.elapsed().as_secs_f64();
    all.sort_by(f64::total_cmp);
    let pick =
        |q: f64| all.get(((all.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(0.0);
    (all.len() as u64, secs, pick(0.5), pick(0.99))
}
