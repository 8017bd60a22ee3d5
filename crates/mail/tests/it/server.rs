//! A small SMTP server on 127.0.0.1 for the SMTP adapter's tests, speaking the real protocol
//! (RFC 5321) over TCP: the `220` greeting, `EHLO` with a multiline `250` (optionally
//! advertising `AUTH`), `HELO`, `AUTH PLAIN` and `AUTH LOGIN` (initial response or `334`
//! challenges), `MAIL FROM`, `RCPT TO`, `DATA` ending at a lone `.` with dot-stuffing undone,
//! `RSET`, `NOOP` and `QUIT`, with `503` for commands out of order. It offers no `STARTTLS`.
//!
//! Each accepted mail is recorded with its envelope, the raw lines as they came over the wire
//! and the message with the stuffing removed. A [`Script`] makes it refuse a recipient or
//! demand credentials; [`stalling`] accepts connections and never says a word.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use data_encoding::BASE64;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use tokio::net::tcp::OwnedWriteHalf;

/// How the server behaves.
#[derive(Debug, Clone, Default)]
pub struct Script {
    /// The `AUTH` mechanisms `EHLO` advertises (none: no `AUTH` line).
    pub mechanisms: Vec<&'static str>,
    /// The one user and password accepted; when set, `MAIL` needs a successful `AUTH`.
    pub login: Option<(String, String)>,
    /// The reply to every `RCPT TO` instead of `250`, e.g. `550 5.1.1 No such user`.
    pub rcpt_reply: Option<&'static str>,
}

/// One mail the server accepted.
#[derive(Debug, Clone)]
pub struct Received {
    /// The name the client gave in `EHLO`.
    pub ehlo: String,
    /// The mechanism, user and password it authenticated with.
    pub auth: Option<(String, String, String)>,
    /// The `MAIL FROM` address, without angle brackets.
    pub mail_from: String,
    /// The `RCPT TO` addresses.
    pub rcpt_to: Vec<String>,
    /// The `DATA` lines as they came over the wire (stuffed), without CRLF.
    pub wire_lines: Vec<String>,
    /// The message, stuffing removed, lines ended by CRLF.
    pub message: String,
}

/// What every connection did.
#[derive(Debug, Default)]
pub struct Log {
    /// The accepted mails.
    pub received: Vec<Received>,
    /// Every command line, in order, across connections (AUTH payloads included).
    pub commands: Vec<String>,
}

/// A running server; it stops when dropped.
pub struct SmtpServer {
    pub addr: SocketAddr,
    pub log: Arc<Mutex<Log>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl SmtpServer {
    pub async fn start(script: Script) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let log = Arc::new(Mutex::new(Log::default()));
        let shared = log.clone();
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let (script, log) = (script.clone(), shared.clone());
                tokio::spawn(async move {
                    let _ = session(stream, script, log).await;
                });
            }
        });
        Self { addr, log, task }
    }

    /// `smtp://{userinfo}127.0.0.1:{port}{rest}`.
    pub fn url(&self, userinfo: &str, rest: &str) -> String {
        format!("smtp://{userinfo}{}{rest}", self.addr)
    }

    pub fn received(&self) -> Vec<Received> {
        self.log.lock().unwrap().received.clone()
    }

    pub fn commands(&self) -> Vec<String> {
        self.log.lock().unwrap().commands.clone()
    }
}

/// A server that accepts connections and never answers; it holds them until dropped.
pub struct Stalling {
    pub addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Stalling {
    fn drop(&mut self) {
        self.task.abort();
    }
}

pub async fn stalling() -> Stalling {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((stream, _)) = listener.accept().await {
            held.push(stream);
        }
    });
    Stalling { addr, task }
}

/// An address nothing listens on (bound, then released).
pub async fn closed_port() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    listener.local_addr().unwrap()
}

async fn reply(out: &mut OwnedWriteHalf, line: &str) -> std::io::Result<()> {
    out.write_all(format!("{line}\r\n").as_bytes()).await
}

/// The address inside `FROM:<…>` / `TO:<…>` (parameters after it ignored).
fn path_of(argument: &str) -> Option<String> {
    let start = argument.find('<')? + 1;
    let end = start + argument[start..].find('>')?;
    Some(argument[start..end].to_owned())
}

fn decode(b64: &str) -> Option<String> {
    String::from_utf8(BASE64.decode(b64.trim().as_bytes()).ok()?).ok()
}

/// The state of one connection.
#[derive(Default)]
struct Session {
    ehlo: Option<String>,
    auth: Option<(String, String, String)>,
    mail_from: Option<String>,
    rcpt_to: Vec<String>,
}

async fn session(
    stream: tokio::net::TcpStream,
    script: Script,
    log: Arc<Mutex<Log>>,
) -> std::io::Result<()> {
    let (read, mut out) = stream.into_split();
    let mut lines = BufReader::new(read);
    let mut next = async || -> std::io::Result<Option<String>> {
        let mut line = String::new();
        if lines.read_line(&mut line).await? == 0 {
            return Ok(None);
        }
        Ok(Some(line.trim_end_matches(['\r', '\n']).to_owned()))
    };
    reply(&mut out, "220 smtp.test ESMTP ready").await?;
    let mut state = Session::default();
    while let Some(line) = next().await? {
        log.lock().unwrap().commands.push(line.clone());
        let (verb, argument) = line.split_once(' ').unwrap_or((&line, ""));
        match verb.to_ascii_uppercase().as_str() {
            "EHLO" => {
                state = Session { ehlo: Some(argument.to_owned()), ..Session::default() };
                reply(&mut out, &format!("250-smtp.test greets {argument}")).await?;
                reply(&mut out, "250-8BITMIME").await?;
                if !script.mechanisms.is_empty() {
                    reply(&mut out, &format!("250-AUTH {}", script.mechanisms.join(" "))).await?;
                }
                reply(&mut out, "250 ENHANCEDSTATUSCODES").await?;
            }
            "HELO" => {
                state = Session { ehlo: Some(argument.to_owned()), ..Session::default() };
                reply(&mut out, "250 smtp.test").await?;
            }
            "AUTH" => {
                let (mechanism, initial) = argument.split_once(' ').unwrap_or((argument, ""));
                let mechanism = mechanism.to_ascii_uppercase();
                if state.ehlo.is_none() || !script.mechanisms.contains(&mechanism.as_str()) {
                    reply(&mut out, "504 5.5.4 Unrecognized authentication type").await?;
                    continue;
                }
                let credentials = match mechanism.as_str() {
                    "PLAIN" => {
                        let payload = if initial.is_empty() {
                            reply(&mut out, "334 ").await?;
                            next().await?.unwrap_or_default()
                        } else {
                            initial.to_owned()
                        };
                        decode(&payload).and_then(|plain| {
                            let mut parts = plain.split('\0');
                            let (_authzid, user, pass) =
                                (parts.next()?, parts.next()?, parts.next()?);
                            Some((user.to_owned(), pass.to_owned()))
                        })
                    }
                    _ => {
                        let user = if initial.is_empty() {
                            reply(&mut out, "334 VXNlcm5hbWU6").await?;
                            next().await?.unwrap_or_default()
                        } else {
                            initial.to_owned()
                        };
                        reply(&mut out, "334 UGFzc3dvcmQ6").await?;
                        let pass = next().await?.unwrap_or_default();
                        decode(&user).zip(decode(&pass))
                    }
                };
                match credentials {
                    Some((user, pass)) if script.login == Some((user.clone(), pass.clone())) => {
                        state.auth = Some((mechanism, user, pass));
                        reply(&mut out, "235 2.7.0 Authentication successful").await?;
                    }
                    _ => reply(&mut out, "535 5.7.8 Authentication credentials invalid").await?,
                }
            }
            "MAIL" => {
                let from =
                    argument.to_ascii_uppercase().starts_with("FROM:").then(|| path_of(argument));
                match from.flatten() {
                    _ if state.ehlo.is_none() => reply(&mut out, "503 5.5.1 EHLO first").await?,
                    _ if script.login.is_some() && state.auth.is_none() => {
                        reply(&mut out, "530 5.7.0 Authentication required").await?
                    }
                    _ if state.mail_from.is_some() => {
                        reply(&mut out, "503 5.5.1 Nested MAIL command").await?
                    }
                    Some(from) => {
                        state.mail_from = Some(from);
                        reply(&mut out, "250 2.1.0 Ok").await?;
                    }
                    None => reply(&mut out, "501 5.5.4 Syntax: MAIL FROM:<address>").await?,
                }
            }
            "RCPT" => {
                let to =
                    argument.to_ascii_uppercase().starts_with("TO:").then(|| path_of(argument));
                match (to.flatten(), script.rcpt_reply) {
                    _ if state.mail_from.is_none() => {
                        reply(&mut out, "503 5.5.1 Need MAIL command").await?
                    }
                    (None, _) => reply(&mut out, "501 5.5.4 Syntax: RCPT TO:<address>").await?,
                    (Some(_), Some(refusal)) => reply(&mut out, refusal).await?,
                    (Some(to), None) => {
                        state.rcpt_to.push(to);
                        reply(&mut out, "250 2.1.5 Ok").await?;
                    }
                }
            }
            "DATA" => {
                if state.rcpt_to.is_empty() {
                    reply(&mut out, "503 5.5.1 Need RCPT command").await?;
                    continue;
                }
                reply(&mut out, "354 End data with <CR><LF>.<CR><LF>").await?;
                let (mut wire_lines, mut message) = (Vec::new(), String::new());
                loop {
                    let Some(line) = next().await? else { return Ok(()) };
                    if line == "." {
                        break;
                    }
                    message.push_str(line.strip_prefix('.').unwrap_or(&line));
                    message.push_str("\r\n");
                    wire_lines.push(line);
                }
                let received = Received {
                    ehlo: state.ehlo.clone().unwrap_or_default(),
                    auth: state.auth.clone(),
                    mail_from: state.mail_from.take().unwrap_or_default(),
                    rcpt_to: std::mem::take(&mut state.rcpt_to),
                    wire_lines,
                    message,
                };
                let id = {
                    let mut log = log.lock().unwrap();
                    log.received.push(received);
                    log.received.len()
                };
                reply(&mut out, &format!("250 2.0.0 Ok: queued as {id}")).await?;
            }
            "RSET" => {
                state.mail_from = None;
                state.rcpt_to.clear();
                reply(&mut out, "250 2.0.0 Ok").await?;
            }
            "NOOP" => reply(&mut out, "250 2.0.0 Ok").await?,
            "QUIT" => {
                reply(&mut out, "221 2.0.0 Bye").await?;
                return Ok(());
            }
            _ => reply(&mut out, "500 5.5.2 Error: command not recognized").await?,
        }
    }
    Ok(())
}
