//! Assistant turns through the real HTTP API: `cargo xtask bench` (or
//! `cargo bench -p freehire-api-server --bench assistant`).
//!
//! A `freehire-api` process (the release binary) serves a database; the model is
//! [`OpenAiServer`] in this process, answering every request with text streamed one token
//! every 20 ms ([`ModelReply::Paced`]), so its work is never counted against the API process.
//! Figures, printed, never asserted:
//!
//! - **steady** (the headline): one streamed turn per session, each of another account, as on
//!   a server with that many users at once (100 tokens each), the
//!   requests arriving at a steady rate, one every 7.5 ms, so that all 200 are streaming
//!   together (the last arrives after 1.5 s, the first ends after 2 s; the figure printed
//!   says how many were open at once at most). At one every 2.5 ms (`BENCH_ARRIVAL_US=2500`,
//!   400 new turns a second) the two cores of the machines measured are saturated by the
//!   API process, the database and this process's client and model together, and the
//!   figure is their queue, as in the burst below. The API process's RSS per open turn (peak
//!   during the turns minus the idle process after a warm-up, over the most turns open at
//!   once; target ≤ 512 KB), its CPU time per turn (user + system, from `/proc`), and the time
//!   from sending the request to the stream's first frame (`: open`, p50/p99/max; target p99
//!   ≤ 10 ms) and to the first model text (which includes the model's 20 ms to its first
//!   token);
//! - **burst**: the same figures when the 200 requests are all sent at the same instant
//!   (mostly their queueing on the database and the turn-start path);
//! - **one at a time**: request → first event when nothing else runs (the turns of the cache
//!   session below);
//! - **the prompt cache**: one session, 200 turns one after another; for each model request
//!   after the first, the share of its bytes that is a byte-identical prefix of the previous
//!   request (mean, p10, min; target ≥ 80 %).
//!
//! Each phase runs against an API process of its own (started, warmed up with a few turns one
//! after another and [`WARM_TOGETHER`] at once, then left idle for half a second before its
//! idle RSS is read), so no phase inherits
//! another's resident memory.
//!
//! Tuning, by environment variable: `BENCH_BACKEND=sqlite|postgres` runs one backend (default
//! both); `BENCH_TURNS` the turns of the steady and burst phases (default 200);
//! `BENCH_TOKENS` the tokens of each of their answers (default 100) and `BENCH_TOKEN_MS` the
//! model's pause before each token (default 20); `BENCH_ARRIVAL_US` the steady phase's
//! interval between two requests, in microseconds (default 7500); `BENCH_SESSION_TURNS` the
//! turns of the cache session (default 200).
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/support/mod.rs"]
mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use freehire_app::testing::openai::{ModelReply, ModelRequest, OpenAiServer};
use freehire_store::testing::TestDb;
use support::{Api, Endpoint, account_token, create_session, database_url, send, stream};

fn main() {
    // The model streams on a runtime of its own (one thread), so its 10,000 tokens a second do
    // not delay the client's tasks whose clocks measure the API process.
    let model_runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let settings = Settings::from_env();
    let model = model_runtime.block_on(OpenAiServer::repeating(settings.reply(3)));
    model.record(false);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let only = std::env::var("BENCH_BACKEND").ok();
        for backend in ["sqlite", "postgres"] {
            if only.as_deref().is_some_and(|b| b != backend) {
                continue;
            }
            let db =
                if backend == "sqlite" { TestDb::sqlite().await } else { TestDb::postgres().await };
            run(backend, &db, &model, &settings).await;
            db.teardown().await;
        }
    });
}

fn env_count(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).filter(|n| *n > 0).unwrap_or(default)
}

/// What the bench is told to do.
struct Settings {
    turns: usize,
    tokens: usize,
    token_every: Duration,
    arrival: Duration,
    session_turns: usize,
}

impl Settings {
    fn from_env() -> Self {
        Self {
            turns: env_count("BENCH_TURNS", 200),
            tokens: env_count("BENCH_TOKENS", 100),
            token_every: Duration::from_millis(env_count("BENCH_TOKEN_MS", 20) as u64),
            arrival: Duration::from_micros(env_count("BENCH_ARRIVAL_US", 7500) as u64),
            session_turns: env_count("BENCH_SESSION_TURNS", 200),
        }
    }

    /// An answer of `n` tokens at the model's pace.
    fn reply(&self, n: usize) -> ModelReply {
        ModelReply::paced((0..n).map(|i| format!("tok{i} ")), self.token_every)
    }
}

// ---- the API process ----

/// Resident set size of `pid`, in KiB.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// User + system CPU time of `pid`.
fn cpu(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // Fields after the command (which is parenthesised and may hold spaces).
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    let hz = std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or(100);
    Duration::from_micros(ticks * 1_000_000 / hz)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// What one streamed turn took, all from the moment its request was sent.
struct Timing {
    /// When it was sent, from the start of its phase.
    sent: Duration,
    /// Request → `: open`.
    opened: Duration,
    /// Request → the first `assistant_text` (zero when none came).
    first_text: Duration,
    /// Request → `result` (or the stream's end).
    ended: Duration,
}

/// One streamed turn on session `id`, sent now; `phase` is when its phase started.
async fn turn(
    client: reqwest::Client,
    api: Arc<Endpoint>,
    token: Arc<String>,
    id: String,
    phase: Instant,
) -> Timing {
    let sent = Instant::now();
    let res = send(&client, &api, &token, &id, "find me remote Rust jobs in Germany").await;
    let mut s = stream(res).await;
    let opened = sent.elapsed();
    let mut first_text = None;
    loop {
        let Some(frame) = s.next(Duration::from_secs(60)).await else { break };
        if first_text.is_none() && frame.starts_with("event: assistant_text") {
            first_text = Some(sent.elapsed());
        }
        if frame.starts_with("event: result") {
            break;
        }
    }
    Timing {
        sent: sent.duration_since(phase),
        opened,
        first_text: first_text.unwrap_or_default(),
        ended: sent.elapsed(),
    }
}

/// The most turns open at the same time.
fn most_open(timings: &[Timing]) -> usize {
    let mut edges: Vec<(Duration, i32)> =
        timings.iter().flat_map(|t| [(t.sent, 1), (t.sent + t.ended, -1)]).collect();
    // An end before a start at the same instant: touching turns were not open together.
    edges.sort();
    let (mut open, mut most) = (0i32, 0i32);
    for (_, step) in edges {
        open += step;
        most = most.max(open);
    }
    usize::try_from(most).unwrap_or(0)
}

/// The warm-up's turns sent at once.
const WARM_TOGETHER: usize = 40;

/// One API process on the bench's database, with an account and a warm-up behind it.
struct Server {
    api: Api,
    pid: u32,
    endpoint: Arc<Endpoint>,
    client: reqwest::Client,
    token: Arc<String>,
}

impl Server {
    async fn start(db: &TestDb, model: &OpenAiServer, settings: &Settings, n: usize) -> Self {
        let token =
            Arc::new(account_token(db.store.clone(), &format!("bench{n}@example.com")).await);
        let api = Api::start(&database_url(db), &model.base_url()).await;
        let pid = api.child.id();
        let endpoint = Arc::new(api.endpoint.clone());
        let client = reqwest::Client::builder().pool_max_idle_per_host(512).build().unwrap();
        let server = Self { api, pid, endpoint, client, token };
        // Warm-up: a few turns end to end (caches, the first allocations), then a few dozen
        // at once, so that the pools hold the connections a busy server keeps open (each
        // opened on demand, with its handshake, and kept for minutes) rather than opening
        // them while the measured turns wait.
        model.repeat(settings.reply(3));
        for _ in 0..5 {
            let id = server.session().await;
            server.turn(id, Instant::now()).await;
        }
        let mut ids = Vec::with_capacity(WARM_TOGETHER);
        for _ in 0..WARM_TOGETHER {
            ids.push(server.session().await);
        }
        let together: Vec<_> =
            ids.into_iter().map(|id| tokio::spawn(server.turn(id, Instant::now()))).collect();
        for task in together {
            task.await.unwrap();
        }
        server
    }

    async fn session(&self) -> String {
        create_session(&self.client, &self.endpoint, &self.token, "chat").await
    }

    fn turn(&self, id: String, phase: Instant) -> impl Future<Output = Timing> + use<> {
        turn(self.client.clone(), self.endpoint.clone(), self.token.clone(), id, phase)
    }

    fn stop(mut self) {
        let _ = std::process::Command::new("kill").args(["-TERM", &self.pid.to_string()]).status();
        let _ = self.api.child.wait();
    }
}

/// Many turns, one per session, the `i`-th request sent `arrival × i` after the start (all at
/// once when `arrival` is zero); prints the phase's figures under `label`.
async fn concurrent(
    db: &TestDb,
    backend: &str,
    label: &str,
    server: &Server,
    model: &OpenAiServer,
    settings: &Settings,
    arrival: Duration,
) {
    let turns = settings.turns;
    // One account per turn, as on a server with that many users at once (one account's
    // concurrent turns take turns on its day counter, which a charge locks).
    let mut ids = Vec::with_capacity(turns);
    for i in 0..turns {
        let address = format!("{backend}-{label}-{i}@example.com");
        let token = Arc::new(account_token(db.store.clone(), &address).await);
        let id = create_session(&server.client, &server.endpoint, &token, "chat").await;
        ids.push((token, id));
    }
    model.repeat(settings.reply(settings.tokens));
    tokio::time::sleep(Duration::from_millis(500)).await;
    let pid = server.pid;
    let idle_rss = rss_kib(pid);
    let cpu_before = cpu(pid);

    // The RSS is sampled while the turns stream.
    let done = Arc::new(AtomicBool::new(false));
    let sampler = tokio::spawn({
        let done = done.clone();
        async move {
            let mut peak = 0;
            while !done.load(Ordering::SeqCst) {
                peak = peak.max(rss_kib(pid));
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            peak
        }
    });
    let started = Instant::now();
    let mut tasks = Vec::with_capacity(turns);
    for (i, (token, id)) in ids.into_iter().enumerate() {
        if !arrival.is_zero() {
            let due = arrival * u32::try_from(i).unwrap();
            tokio::time::sleep_until((started + due).into()).await;
        }
        let (client, endpoint) = (server.client.clone(), server.endpoint.clone());
        tasks.push(tokio::spawn(turn(client, endpoint, token, id, started)));
    }
    let mut timings = Vec::with_capacity(turns);
    for task in tasks {
        timings.push(task.await.unwrap());
    }
    let wall = started.elapsed();
    let cpu_used = cpu(pid).saturating_sub(cpu_before);
    done.store(true, Ordering::SeqCst);
    let peak_rss = sampler.await.unwrap();

    let open = most_open(&timings);
    let mut opened: Vec<Duration> = timings.iter().map(|t| t.opened).collect();
    let mut first_text: Vec<Duration> = timings.iter().map(|t| t.first_text).collect();
    opened.sort();
    first_text.sort();
    let per_turn_kib = peak_rss.saturating_sub(idle_rss) as f64 / open.max(1) as f64;
    let how = if arrival.is_zero() {
        "all sent at once".to_owned()
    } else {
        format!("one sent every {:.2} ms", ms(arrival))
    };
    println!(
        "assistant/{backend}/{label}: {turns} streamed turns ({} tokens, one every {} ms), \
         {how}, in {:.2} s; at most {open} open at once",
        settings.tokens,
        settings.token_every.as_millis(),
        wall.as_secs_f64()
    );
    println!(
        "assistant/{backend}/{label}: RSS idle {idle_rss} KiB, peak {peak_rss} KiB: \
         {per_turn_kib:.1} KiB per open turn (target <= 512)"
    );
    println!(
        "assistant/{backend}/{label}: CPU {:.1} ms per turn ({:.0} ms for all, the model \
         excluded)",
        ms(cpu_used) / turns as f64,
        ms(cpu_used)
    );
    println!(
        "assistant/{backend}/{label}: request -> first event (: open) p50 {:.2} ms, p99 {:.2} \
         ms, max {:.2} ms (target p99 <= 10); -> first model text p50 {:.1} ms, p99 {:.1} ms, \
         max {:.1} ms",
        ms(percentile(&opened, 50.0)),
        ms(percentile(&opened, 99.0)),
        ms(percentile(&opened, 100.0)),
        ms(percentile(&first_text, 50.0)),
        ms(percentile(&first_text, 99.0)),
        ms(percentile(&first_text, 100.0)),
    );
}

/// The share of `now`'s bytes that is a byte-identical prefix of `before`.
fn shared_prefix(before: &[u8], now: &[u8]) -> f64 {
    let common = before.iter().zip(now).take_while(|(a, b)| a == b).count();
    common as f64 / now.len().max(1) as f64
}

/// One session, turn after turn: the one-at-a-time first event and the prompt-cache figure.
async fn cache_session(backend: &str, server: &Server, model: &OpenAiServer, settings: &Settings) {
    let session_turns = settings.session_turns;
    model.repeat(settings.reply(2));
    let id = server.session().await;
    model.take_requests();
    model.record(true);
    let mut alone = Vec::with_capacity(session_turns);
    let mut previous: Option<ModelRequest> = None;
    let (mut requests, mut shares) = (0, Vec::with_capacity(session_turns));
    for _ in 0..session_turns {
        alone.push(server.turn(id.clone(), Instant::now()).await.opened);
        // Only the last body is kept: the session's memory does not grow with it.
        for request in model.take_requests() {
            requests += 1;
            if let Some(before) = &previous {
                shares.push(shared_prefix(&before.raw, &request.raw));
            }
            previous = Some(request);
        }
    }
    model.record(false);
    alone.sort();
    println!(
        "assistant/{backend}: request -> first event (: open) one turn at a time p50 {:.2} ms, \
         p99 {:.2} ms",
        ms(percentile(&alone, 50.0)),
        ms(percentile(&alone, 99.0)),
    );
    shares.sort_by(f64::total_cmp);
    let mean = shares.iter().sum::<f64>() / shares.len().max(1) as f64;
    let p10 = shares.get(shares.len() / 10).copied().unwrap_or(0.0);
    println!(
        "assistant/{backend}: prompt cache over a {session_turns}-turn session ({requests} model \
         requests): byte-identical prefix of the previous request mean {:.1} %, p10 {:.1} %, \
         min {:.1} % (target >= 80 %)",
        mean * 100.0,
        p10 * 100.0,
        shares.first().copied().unwrap_or(0.0) * 100.0
    );
}

async fn run(backend: &str, db: &TestDb, model: &OpenAiServer, settings: &Settings) {
    let steady = Server::start(db, model, settings, 1).await;
    concurrent(db, backend, "steady", &steady, model, settings, settings.arrival).await;
    steady.stop();

    let burst = Server::start(db, model, settings, 2).await;
    concurrent(db, backend, "burst", &burst, model, settings, Duration::ZERO).await;
    burst.stop();

    let alone = Server::start(db, model, settings, 3).await;
    cache_session(backend, &alone, model, settings).await;
    alone.stop();
}
