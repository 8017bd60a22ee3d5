//! A minimal HTTP/1.1 server on 127.0.0.1 that answers each connection with the next scripted
//! reply, writing streamed bodies with chunked transfer encoding so a cut is a real cut.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

pub enum Reply {
    /// A complete response with this status, JSON body and extra headers.
    Json { status: u16, body: String, headers: Vec<(&'static str, String)> },
    /// An SSE body written piece by piece; `cut` closes the connection without the final chunk.
    Sse { pieces: Vec<String>, cut: bool },
    /// Wait this long before answering anything.
    Stall(Duration),
    /// An SSE body: these pieces, then silence for this long, then the connection closes.
    SseThenStall { pieces: Vec<String>, stall: Duration },
    /// An SSE body with this pause between pieces.
    SseSlow { pieces: Vec<String>, gap: Duration },
}

impl Reply {
    pub fn json(body: serde_json::Value) -> Self {
        Self::Json { status: 200, body: body.to_string(), headers: Vec::new() }
    }

    pub fn status(status: u16, body: &str) -> Self {
        Self::Json { status, body: body.to_owned(), headers: Vec::new() }
    }

    /// One SSE event per chunk JSON, then `[DONE]`.
    pub fn sse(chunks: &[serde_json::Value]) -> Self {
        let mut pieces: Vec<String> = chunks.iter().map(|c| event(&c.to_string())).collect();
        pieces.push(event("[DONE]"));
        Self::Sse { pieces, cut: false }
    }
}

pub fn event(data: &str) -> String {
    format!("data: {data}\n\n")
}

#[derive(Debug, Clone)]
pub struct Recorded {
    pub path: String,
    pub headers: HashMap<String, String>,
    /// Every header line, in order (names lower-cased), duplicates included.
    pub all_headers: Vec<(String, String)>,
    pub body: serde_json::Value,
}

impl Recorded {
    /// Every value sent under `name`.
    pub fn values(&self, name: &str) -> Vec<&str> {
        self.all_headers.iter().filter(|(k, _)| k == name).map(|(_, v)| v.as_str()).collect()
    }
}

pub struct Server {
    pub url: String,
    requests: Arc<Mutex<Vec<Recorded>>>,
}

impl Server {
    pub fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().unwrap().clone()
    }
}

pub async fn serve(replies: Vec<Reply>) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let requests = Arc::new(Mutex::new(Vec::new()));
    let queue = Arc::new(Mutex::new(VecDeque::from(replies)));
    let recorded = requests.clone();
    tokio::spawn(async move {
        loop {
            let Ok((socket, _)) = listener.accept().await else { return };
            let queue = queue.clone();
            let recorded = recorded.clone();
            tokio::spawn(async move {
                handle(socket, queue, recorded).await;
            });
        }
    });
    Server { url, requests }
}

async fn handle(
    mut socket: TcpStream,
    queue: Arc<Mutex<VecDeque<Reply>>>,
    recorded: Arc<Mutex<Vec<Recorded>>>,
) {
    let Some(request) = read_request(&mut socket).await else { return };
    recorded.lock().unwrap().push(request);
    let reply = queue.lock().unwrap().pop_front();
    let reply =
        reply.unwrap_or_else(|| Reply::status(500, r#"{"error":{"message":"no reply scripted"}}"#));
    match reply {
        Reply::Stall(d) => {
            tokio::time::sleep(d).await;
        }
        Reply::Json { status, body, headers } => {
            let mut head = format!(
                "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
                body.len()
            );
            for (k, v) in headers {
                head.push_str(&format!("{k}: {v}\r\n"));
            }
            head.push_str("\r\n");
            let _ = socket.write_all(head.as_bytes()).await;
            let _ = socket.write_all(body.as_bytes()).await;
        }
        Reply::Sse { pieces, cut } => {
            write_sse(&mut socket, pieces, Duration::from_millis(3)).await;
            if !cut {
                let _ = socket.write_all(b"0\r\n\r\n").await;
            }
        }
        Reply::SseThenStall { pieces, stall } => {
            write_sse(&mut socket, pieces, Duration::from_millis(3)).await;
            tokio::time::sleep(stall).await;
        }
        Reply::SseSlow { pieces, gap } => {
            write_sse(&mut socket, pieces, gap).await;
            let _ = socket.write_all(b"0\r\n\r\n").await;
        }
    }
    let _ = socket.shutdown().await;
}

async fn write_sse(socket: &mut TcpStream, pieces: Vec<String>, gap: Duration) {
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
    let _ = socket.write_all(head.as_bytes()).await;
    for piece in pieces {
        let chunk = format!("{:x}\r\n{piece}\r\n", piece.len());
        let _ = socket.write_all(chunk.as_bytes()).await;
        let _ = socket.flush().await;
        tokio::time::sleep(gap).await;
    }
}

async fn read_request(socket: &mut TcpStream) -> Option<Recorded> {
    let mut buf = Vec::new();
    let mut tmp = [0u8; 4096];
    let header_end = loop {
        let n = socket.read(&mut tmp).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&tmp[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..header_end]).to_string();
    let mut lines = head.split("\r\n");
    let path = lines.next()?.split(' ').nth(1)?.to_owned();
    let all_headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let headers: HashMap<String, String> = all_headers.iter().cloned().collect();
    let len: usize = headers.get("content-length").and_then(|v| v.parse().ok()).unwrap_or(0);
    while buf.len() < header_end + len {
        let n = socket.read(&mut tmp).await.ok()?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&tmp[..n]);
    }
    let body = serde_json::from_slice(&buf[header_end..]).unwrap_or(serde_json::Value::Null);
    Some(Recorded { path, headers, all_headers, body })
}
