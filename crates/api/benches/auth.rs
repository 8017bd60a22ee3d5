//! Authenticated request throughput and the password cost: `cargo xtask bench` (or
//! `cargo bench -p freehire-api --bench auth` with PostgreSQL reachable).
//!
//! - `GET /api/v1/auth/me` over loopback on keep-alive connections (64 at once, each sending
//!   its next request when the answer is in, as `wrk` does), signed in with the session cookie
//!   and with an API key, on SQLite and on PostgreSQL: requests per second over 5 s after 1 s
//!   of warm-up. Server and load share the machine's cores.
//! - argon2id at the production (OWASP) parameters: milliseconds per hash and per
//!   verification (one login), and per refused login of an unknown email.
//!
//! `BENCH_BACKEND=sqlite|postgres` runs one backend; `BENCH_SECS` changes the measured time.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use freehire_app::accounts::{Accounts, PasswordHasher};
use freehire_domain::Password;
use freehire_store::testing::TestDb;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const CONNECTIONS: usize = 64;

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        password_cost().await;
        let only = std::env::var("BENCH_BACKEND").ok();
        for backend in ["sqlite", "postgres"] {
            if only.as_deref().is_some_and(|b| b != backend) {
                continue;
            }
            let db =
                if backend == "sqlite" { TestDb::sqlite().await } else { TestDb::postgres().await };
            throughput(backend, &db).await;
            db.teardown().await;
        }
    });
}

async fn password_cost() {
    let hasher = PasswordHasher::owasp();
    let password = Password::parse("correct horse battery staple").unwrap();
    let hash = hasher.hash(&password).await.unwrap();
    let rounds = 20;
    let started = Instant::now();
    for _ in 0..rounds {
        hasher.hash(&password).await.unwrap();
    }
    let per_hash = started.elapsed() / rounds;
    let started = Instant::now();
    for _ in 0..rounds {
        assert!(hasher.verify(&password, Some(&hash)).await.unwrap());
    }
    let per_verify = started.elapsed() / rounds;
    let started = Instant::now();
    for _ in 0..rounds {
        assert!(!hasher.verify(&password, None).await.unwrap());
    }
    let per_unknown = started.elapsed() / rounds;
    println!(
        "argon2id m=19456 KiB t=2 p=1: hash {:.1} ms, verify (a login) {:.1} ms, unknown-email login {:.1} ms",
        ms(per_hash),
        ms(per_verify),
        ms(per_unknown)
    );
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

async fn throughput(backend: &str, db: &TestDb) {
    let mail = tempfile::tempdir().unwrap();
    let accounts = Accounts::ephemeral(db.store.clone(), mail.path());
    let state = freehire_api::AppState::new(db.store.clone(), accounts);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    tokio::spawn(freehire_api::serve(listener, state, std::future::pending()));

    // Sign up, verify (the code from the mail file), mint a key.
    let http = reqwest::Client::new();
    let base = format!("http://{addr}/api/v1");
    let res = http
        .post(format!("{base}/auth/register"))
        .json(&json!({"email": "bench@example.com", "password": "correct horse"}))
        .send()
        .await
        .unwrap();
    let set_cookie = res.headers()["set-cookie"].to_str().unwrap().to_owned();
    let cookie = set_cookie.split(';').next().unwrap().to_owned();
    let code = code_in(mail.path());
    let res = http
        .post(format!("{base}/auth/verify/confirm"))
        .header("cookie", &cookie)
        .json(&json!({"code": code}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let minted: serde_json::Value = http
        .post(format!("{base}/me/api-keys"))
        .header("cookie", &cookie)
        .json(&json!({"name": "bench"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let key = minted["data"]["token"].as_str().unwrap().to_owned();

    let secs: u64 = std::env::var("BENCH_SECS").ok().and_then(|s| s.parse().ok()).unwrap_or(5);
    for (what, header) in [
        ("the session cookie", format!("cookie: {cookie}")),
        ("an API key", format!("authorization: Bearer {key}")),
    ] {
        let request = format!("GET /api/v1/auth/me HTTP/1.1\r\nhost: bench\r\n{header}\r\n\r\n");
        let rate = load(&addr, request.into_bytes(), Duration::from_secs(secs)).await;
        println!(
            "{backend}: GET /auth/me with {what}: {rate:.0} req/s ({CONNECTIONS} keep-alive connections, {secs} s)"
        );
    }
}

/// The code in the one mail in `dir`.
fn code_in(dir: &std::path::Path) -> String {
    let path = std::fs::read_dir(dir).unwrap().next().unwrap().unwrap().path();
    let text = std::fs::read_to_string(path).unwrap();
    let subject = text.lines().find(|l| l.starts_with("Subject: ")).unwrap();
    subject["Subject: ".len()..]["".len()..6].to_owned()
}

/// Requests per second answered 200 over `measure`, after a second of warm-up.
async fn load(addr: &str, request: Vec<u8>, measure: Duration) -> f64 {
    let request = Arc::new(request);
    let counting = Arc::new(AtomicBool::new(false));
    let stop = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for _ in 0..CONNECTIONS {
        let (request, counting, stop, done) =
            (request.clone(), counting.clone(), stop.clone(), done.clone());
        let mut stream = TcpStream::connect(addr).await.unwrap();
        stream.set_nodelay(true).unwrap();
        tasks.push(tokio::spawn(async move {
            let mut buf = vec![0u8; 16 * 1024];
            while !stop.load(Ordering::Relaxed) {
                stream.write_all(&request).await.unwrap();
                read_answer(&mut stream, &mut buf).await;
                if counting.load(Ordering::Relaxed) {
                    done.fetch_add(1, Ordering::Relaxed);
                }
            }
        }));
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    counting.store(true, Ordering::Relaxed);
    let started = Instant::now();
    tokio::time::sleep(measure).await;
    let answered = done.load(Ordering::Relaxed);
    let elapsed = started.elapsed();
    stop.store(true, Ordering::Relaxed);
    for task in tasks {
        task.await.unwrap();
    }
    answered as f64 / elapsed.as_secs_f64()
}

/// Reads one answer (head and `content-length` body), checking it is a 200.
async fn read_answer(stream: &mut TcpStream, buf: &mut [u8]) {
    let mut have = 0;
    loop {
        let n = stream.read(&mut buf[have..]).await.unwrap();
        assert!(n > 0, "the server closed the connection");
        have += n;
        let Some(end) = buf[..have].windows(4).position(|w| w == b"\r\n\r\n") else { continue };
        let head = std::str::from_utf8(&buf[..end]).unwrap().to_ascii_lowercase();
        assert!(head.starts_with("http/1.1 200"), "{head}");
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length: "))
            .and_then(|v| v.trim().parse().ok())
            .unwrap();
        while have < end + 4 + length {
            let n = stream.read(&mut buf[have..]).await.unwrap();
            assert!(n > 0);
            have += n;
        }
        return;
    }
}
