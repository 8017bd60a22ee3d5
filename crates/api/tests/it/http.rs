//! The HTTP layer below the router, over raw sockets: what hyper refuses before axum sees the
//! request answers JSON through the error table, a half-sent request is closed after the
//! header-read timeout, a client that stops reading is closed after the write-stall timeout,
//! and connections over the cap wait.

use std::time::{Duration, Instant};

use freehire_api::ServerLimits;
use freehire_store::testing::TestDb;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::server::Server;

/// A parsed raw answer.
#[derive(Debug)]
pub struct Raw {
    pub status: u16,
    pub head: String,
    pub body: Value,
}

/// Sends `request` as is and reads the answer until the server closes (or 5 s pass).
pub async fn raw(addr: &str, request: &[u8]) -> Raw {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    // The server may answer (and close) before it read everything: a write error is fine.
    let _ = stream.write_all(request).await;
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut out)).await;
    parse(&out)
}

pub fn parse(out: &[u8]) -> Raw {
    let text = String::from_utf8_lossy(out);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = serde_json::from_str(body).unwrap_or(Value::Null);
    Raw { status, head: head.to_ascii_lowercase(), body }
}

fn addr(s: &Server) -> String {
    s.base.trim_start_matches("http://").to_owned()
}

#[track_caller]
fn assert_json(r: &Raw, status: u16, code: &str) {
    assert_eq!(r.status, status, "{r:?}");
    assert!(r.head.contains("content-type: application/json"), "{r:?}");
    assert_eq!(r.body["code"], code, "{r:?}");
    assert!(r.body["error"].is_string(), "{r:?}");
}

// scenario: Errors below the router are JSON
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_hyper_refuses_is_answered_as_json() {
    let s = Server::start(TestDb::sqlite().await).await;
    let a = addr(&s);
    assert_json(&raw(&a, b"GARBAGE\r\n\r\n").await, 400, "bad_request");
    assert_json(&raw(&a, b"GET /api/v1/jobs HTTP/9.9\r\n\r\n").await, 400, "bad_request");
    let long = format!("GET /api/v1/jobs?q={} HTTP/1.1\r\nhost: x\r\n\r\n", "a".repeat(70_000));
    assert_json(&raw(&a, long.as_bytes()).await, 414, "uri_too_long");
    let big =
        format!("GET /api/v1/jobs HTTP/1.1\r\nhost: x\r\nx-big: {}\r\n\r\n", "b".repeat(500_000));
    assert_json(&raw(&a, big.as_bytes()).await, 431, "headers_too_large");
    let body = b"POST /api/v1/jobs HTTP/1.1\r\nhost: x\r\ncontent-length: 10000000\r\nconnection: close\r\n\r\n";
    assert_json(&raw(&a, body).await, 413, "payload_too_large");
    let utf8 = b"GET /api/v1/jobs/%FF%FE HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n";
    let r = raw(&a, utf8).await;
    assert_json(&r, 400, "invalid_parameter");
    assert_eq!(r.body["param"], "slug", "{r:?}");
    let r =
        raw(&a, b"GET /api/v1/companies/%C3%28 HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")
            .await;
    assert_json(&r, 400, "invalid_parameter");
    // A normal request on the same server is untouched.
    let ok = raw(&a, b"GET /api/v1/jobs HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n").await;
    assert_eq!(ok.status, 200, "{ok:?}");
    s.db.teardown().await;
}

async fn serve_limited(db: &TestDb, limits: ServerLimits) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let mail = tempfile::tempdir().unwrap().keep();
    let state = crate::server::state(db.store.clone(), &mail);
    tokio::spawn(freehire_api::serve_with(listener, state, limits, std::future::pending()));
    addr
}

// scenario: Slow client
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_half_sent_request_is_closed_after_the_header_timeout() {
    let db = TestDb::sqlite().await;
    let limits =
        ServerLimits { header_read_timeout: Duration::from_millis(300), ..ServerLimits::default() };
    let a = serve_limited(&db, limits).await;
    let mut stream = TcpStream::connect(&a).await.unwrap();
    stream.write_all(b"GET /api/v1/jobs HTTP/1.1\r\nhost: x\r\n").await.unwrap();
    let started = Instant::now();
    let mut out = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(3), stream.read_to_end(&mut out)).await;
    assert!(read.is_ok(), "the server closed the half-sent request");
    let waited = started.elapsed();
    assert!(waited >= Duration::from_millis(250) && waited < Duration::from_secs(2), "{waited:?}");
    db.teardown().await;
}

// scenario: A client that stops reading is disconnected
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_is_disconnected() {
    let db = TestDb::sqlite().await;
    // One answer far larger than the connection's buffers: 100 jobs of 60 KB each.
    let postings: Vec<_> = (0..100)
        .map(|i| {
            let mut p = crate::jobs::posting(&format!("big-{i}"), "Rust Engineer");
            p.description = format!("<p>{}</p>", "x".repeat(60_000));
            p
        })
        .collect();
    db.store().upsert_jobs(&postings, crate::server::now()).await.unwrap();
    let limits =
        ServerLimits { write_timeout: Duration::from_millis(300), ..ServerLimits::default() };
    let a = serve_limited(&db, limits).await;
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut stream = socket.connect(a.parse().unwrap()).await.unwrap();
    stream.write_all(b"GET /api/v1/jobs?limit=100 HTTP/1.1\r\nhost: x\r\n\r\n").await.unwrap();
    // Nothing is read until well after the server filled every buffer and stalled: the answer
    // is whole before its first byte is written, so once a byte has arrived (peeking takes
    // none) the writes run into the full buffers at once.
    let peeked = tokio::time::timeout(Duration::from_secs(10), stream.peek(&mut [0; 1])).await;
    assert_eq!(peeked.unwrap().unwrap(), 1, "the answer started");
    tokio::time::sleep(limits.write_timeout * 3).await;
    let mut out = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut out)).await;
    assert!(read.is_ok(), "the stalled connection is still open ({} bytes read)", out.len());
    let raw = parse(&out);
    assert_eq!(raw.status, 200, "{:.300}", String::from_utf8_lossy(&out));
    let announced: usize = raw
        .head
        .lines()
        .find_map(|l| l.strip_prefix("content-length: "))
        .map_or(usize::MAX, |n| n.trim().parse().unwrap());
    let (_, body) = out.split_at(raw.head.len() + 4);
    assert!(body.len() < announced.min(6_000_000), "{} bytes of the answer were sent", body.len());
    db.teardown().await;
}

// scenario: Connection cap
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_over_the_cap_wait_for_a_free_slot() {
    let db = TestDb::sqlite().await;
    let limits = ServerLimits { max_connections: 1, ..ServerLimits::default() };
    let a = serve_limited(&db, limits).await;
    let mut first = TcpStream::connect(&a).await.unwrap();
    first.write_all(b"GET /api/v1/jobs HTTP/1.1\r\nhost: x\r\n").await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let second = tokio::spawn({
        let a = a.clone();
        async move {
            let request = b"GET /api/v1/jobs HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n";
            (raw(&a, request).await, Instant::now())
        }
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(!second.is_finished(), "the second connection waits while the first holds the slot");
    let freed = Instant::now();
    drop(first);
    let (answer, at) = second.await.unwrap();
    assert_eq!(answer.status, 200, "{answer:?}");
    assert!(at >= freed && at - freed < Duration::from_secs(1), "answered once the slot is free");
    db.teardown().await;
}
