//! Assistant turns through the real HTTP API: `cargo xtask bench` (or
//! `cargo bench -p freehire-api-server --bench assistant`).
//!
//! A `freehire-api` process (the release binary) serves a database; the model is a scripted
//! OpenAI-protocol server in this process that streams one token every 20 ms (so its work is
//! never counted against the API process). Figures, printed, never asserted:
//!
//! - **200 concurrent streamed turns** (one per session, 50 tokens each): the API process's
//!   RSS per open turn (peak during the turns minus the idle process after a warm-up, over
//!   200; target ≤ 512 KB), its CPU time per turn (user + system, from `/proc`), and the time
//!   from sending the request to the stream's first frame (`: open`, p50/p99; target p99 ≤
//!   10 ms) and to the first model text (the 200 arrive at once: this is mostly their
//!   queueing on the database; the cache session below gives the same figure one turn at a
//!   time);
//! - **the prompt-cache figure**: one session, 200 turns one after another; for each model
//!   request after the first, the share of its bytes that is a byte-identical prefix of the
//!   previous request (mean, p10, min; target ≥ 80 %).
//!
//! `BENCH_BACKEND=sqlite|postgres` runs one backend (default both); `BENCH_TURNS` changes the
//! concurrent turns (default 200), `BENCH_SESSION_TURNS` the turns of the cache session
//! (default 200).
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/support/mod.rs"]
mod support;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use freehire_store::testing::TestDb;
use support::{Api, Endpoint, account_token, create_session, database_url, send, stream};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Tokens of each streamed answer in the concurrent phase, and their pace.
const TOKENS: usize = 50;
const TOKEN_EVERY: Duration = Duration::from_millis(20);

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let only = std::env::var("BENCH_BACKEND").ok();
        for backend in ["sqlite", "postgres"] {
            if only.as_deref().is_some_and(|b| b != backend) {
                continue;
            }
            let db =
                if backend == "sqlite" { TestDb::sqlite().await } else { TestDb::postgres().await };
            run(backend, &db).await;
            db.teardown().await;
        }
    });
}

fn env_count(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).filter(|n| *n > 0).unwrap_or(default)
}

// ---- the scripted model ----

/// A minimal OpenAI chat-completions server: every request is answered with `tokens` text
/// deltas `pace` apart (streamed when asked, else one JSON body), and its body is recorded
/// when `record` is on.
struct Model {
    base_url: String,
    tokens: Arc<Mutex<usize>>,
    requests: Arc<Mutex<Vec<Vec<u8>>>>,
    record: Arc<std::sync::atomic::AtomicBool>,
}

impl Model {
    async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base_url = format!("http://{}/v1", listener.local_addr().unwrap());
        let model = Self {
            base_url,
            tokens: Arc::new(Mutex::new(TOKENS)),
            requests: Arc::default(),
            record: Arc::default(),
        };
        let (tokens, requests, record) =
            (model.tokens.clone(), model.requests.clone(), model.record.clone());
        tokio::spawn(async move {
            loop {
                let Ok((socket, _)) = listener.accept().await else { continue };
                let (tokens, requests, record) = (tokens.clone(), requests.clone(), record.clone());
                tokio::spawn(async move {
                    let count = *tokens.lock().unwrap();
                    let _ = answer(socket, count, &requests, &record).await;
                });
            }
        });
        model
    }

    fn set_tokens(&self, n: usize) {
        *self.tokens.lock().unwrap() = n;
    }

    fn recording(&self, on: bool) {
        self.record.store(on, std::sync::atomic::Ordering::SeqCst);
    }

    fn recorded(&self) -> Vec<Vec<u8>> {
        self.requests.lock().unwrap().clone()
    }
}

/// Reads one HTTP request and answers it (the connection then closes).
async fn answer(
    mut socket: TcpStream,
    tokens: usize,
    requests: &Mutex<Vec<Vec<u8>>>,
    record: &std::sync::atomic::AtomicBool,
) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(16 * 1024);
    let mut chunk = [0u8; 8192];
    let (head_end, length) = loop {
        let n = socket.read(&mut chunk).await?;
        if n == 0 {
            return Ok(());
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok())
                .unwrap_or(0);
            break (end + 4, length);
        }
    };
    while buf.len() < head_end + length {
        let n = socket.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let body = buf[head_end..].to_vec();
    let streamed = serde_json::from_slice::<serde_json::Value>(&body)
        .is_ok_and(|b| b["stream"] == serde_json::Value::Bool(true));
    if record.load(std::sync::atomic::Ordering::SeqCst) {
        requests.lock().unwrap().push(body);
    }
    if !streamed {
        let text: String = (0..tokens).map(|n| format!("tok{n} ")).collect();
        let reply = serde_json::json!({
            "id": "bench", "object": "chat.completion", "created": 0, "model": "bench",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                         "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": tokens, "total_tokens": 10 + tokens}
        })
        .to_string();
        let head = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
             connection: close\r\n\r\n",
            reply.len()
        );
        socket.write_all(head.as_bytes()).await?;
        socket.write_all(reply.as_bytes()).await?;
        return socket.shutdown().await;
    }
    socket
        .write_all(
            b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\n\
              connection: close\r\n\r\n",
        )
        .await?;
    let chunk = |delta: serde_json::Value, finish: Option<&str>| {
        let c = serde_json::json!({
            "id": "bench", "object": "chat.completion.chunk", "created": 0, "model": "bench",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]
        });
        format!("data: {c}\n\n")
    };
    socket.write_all(chunk(serde_json::json!({"role": "assistant"}), None).as_bytes()).await?;
    for n in 0..tokens {
        tokio::time::sleep(TOKEN_EVERY).await;
        let delta = serde_json::json!({ "content": format!("tok{n} ") });
        socket.write_all(chunk(delta, None).as_bytes()).await?;
    }
    socket.write_all(chunk(serde_json::json!({}), Some("stop")).as_bytes()).await?;
    socket.write_all(b"data: [DONE]\n\n").await?;
    socket.shutdown().await
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

/// One streamed turn: (request → `: open`, request → first model text), after it ended.
async fn turn(
    client: reqwest::Client,
    api: Arc<Endpoint>,
    token: Arc<String>,
    id: String,
) -> (Duration, Duration) {
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
    (opened, first_text.unwrap_or_default())
}

async fn run(backend: &str, db: &TestDb) {
    let model = Model::start().await;
    let token = Arc::new(account_token(db.store.clone(), "bench@example.com").await);
    let mut api = Api::start(&database_url(db), &model.base_url).await;
    let pid = api.child.id();
    let client = reqwest::Client::builder().pool_max_idle_per_host(512).build().unwrap();
    let turns = env_count("BENCH_TURNS", 200);

    // Warm-up: a few turns end to end (pools, caches, the first allocations).
    model.set_tokens(3);
    for _ in 0..5 {
        let id = create_session(&client, &api, &token, "chat").await;
        turn(client.clone(), Arc::new(api.endpoint.clone()), token.clone(), id).await;
    }
    let mut ids = Vec::with_capacity(turns);
    for _ in 0..turns {
        ids.push(create_session(&client, &api, &token, "chat").await);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    model.set_tokens(TOKENS);
    let idle_rss = rss_kib(pid);
    let cpu_before = cpu(pid);

    // 200 turns at once; the RSS is sampled while they stream.
    let shared = Arc::new(api.endpoint.clone());
    let started = Instant::now();
    let tasks: Vec<_> = ids
        .into_iter()
        .map(|id| tokio::spawn(turn(client.clone(), shared.clone(), token.clone(), id)))
        .collect();
    let sampler = tokio::spawn(async move {
        let mut peak = 0;
        let until = Instant::now() + TOKEN_EVERY * u32::try_from(TOKENS).unwrap() * 3;
        while Instant::now() < until {
            peak = peak.max(rss_kib(pid));
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        peak
    });
    let mut opened = Vec::with_capacity(turns);
    let mut first_text = Vec::with_capacity(turns);
    for task in tasks {
        let (o, f) = task.await.unwrap();
        opened.push(o);
        first_text.push(f);
    }
    let wall = started.elapsed();
    let cpu_used = cpu(pid).saturating_sub(cpu_before);
    let peak_rss = sampler.await.unwrap();
    opened.sort();
    first_text.sort();
    let per_turn_kib = peak_rss.saturating_sub(idle_rss) as f64 / turns as f64;
    println!(
        "assistant/{backend}: {turns} concurrent streamed turns ({TOKENS} tokens, one every \
         {} ms) in {:.2} s",
        TOKEN_EVERY.as_millis(),
        wall.as_secs_f64()
    );
    println!(
        "assistant/{backend}: RSS idle {idle_rss} KiB, peak {peak_rss} KiB: {per_turn_kib:.1} KiB \
         per open turn (target <= 512)"
    );
    println!(
        "assistant/{backend}: CPU {:.1} ms per turn ({:.0} ms for all, the model excluded)",
        ms(cpu_used) / turns as f64,
        ms(cpu_used)
    );
    println!(
        "assistant/{backend}: request -> first event (: open) p50 {:.2} ms, p99 {:.2} ms, max \
         {:.2} ms (target p99 <= 10); -> first model text p50 {:.1} ms, p99 {:.1} ms",
        ms(percentile(&opened, 50.0)),
        ms(percentile(&opened, 99.0)),
        ms(percentile(&opened, 100.0)),
        ms(percentile(&first_text, 50.0)),
        ms(percentile(&first_text, 99.0)),
    );

    // The prompt-cache figure: one session, turn after turn.
    let session_turns = env_count("BENCH_SESSION_TURNS", 200);
    model.set_tokens(2);
    let id = create_session(&client, &api, &token, "chat").await;
    model.recording(true);
    let mut alone = Vec::with_capacity(session_turns);
    for _ in 0..session_turns {
        alone.push(turn(client.clone(), shared.clone(), token.clone(), id.clone()).await.0);
    }
    model.recording(false);
    alone.sort();
    println!(
        "assistant/{backend}: request -> first event (: open) one turn at a time p50 {:.2} ms, \
         p99 {:.2} ms",
        ms(percentile(&alone, 50.0)),
        ms(percentile(&alone, 99.0)),
    );
    let requests = model.recorded();
    let mut shares: Vec<f64> = requests
        .windows(2)
        .map(|pair| {
            let (before, now) = (&pair[0], &pair[1]);
            let common = before.iter().zip(now.iter()).take_while(|(a, b)| a == b).count();
            common as f64 / now.len().max(1) as f64
        })
        .collect();
    shares.sort_by(f64::total_cmp);
    let mean = shares.iter().sum::<f64>() / shares.len().max(1) as f64;
    let p10 = shares.get(shares.len() / 10).copied().unwrap_or(0.0);
    println!(
        "assistant/{backend}: prompt cache over a {session_turns}-turn session ({} model \
         requests): byte-identical prefix of the previous request mean {:.1} %, p10 {:.1} %, \
         min {:.1} % (target >= 80 %)",
        requests.len(),
        mean * 100.0,
        p10 * 100.0,
        shares.first().copied().unwrap_or(0.0) * 100.0
    );

    drop(shared);
    let _ = std::process::Command::new("kill").args(["-TERM", &pid.to_string()]).status();
    let _ = api.child.wait();
}
