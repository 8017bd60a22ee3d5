//! The HTTP layer's refusals through the error table: [`JsonRefusals`], the connection adapter
//! that turns hyper's automatic empty answers into JSON ones, and [`body_limit`], the 413 for an
//! announced body over [`crate::MAX_BODY_BYTES`].
//!
//! Hyper answers a request it cannot parse itself, as the last bytes of the connection, with a
//! head of exactly `HTTP/1.1 <status> <reason>`, `connection: close`, `content-length: 0` and
//! `date` and no body (400 malformed, 414 URI too long, 431 head too large). The adapter checks
//! each write that starts with `HTTP/1.1 4`: when it is that head (no `content-type`, length 0:
//! no answer of the router looks like it, every one is JSON), it writes the error table's
//! answer for the status instead. Other writes pass through untouched after a 10-byte
//! comparison, so normal answers cost nothing measurable.

use std::{
    io,
    pin::Pin,
    task::{Context, Poll, ready},
};

use axum::{
    extract::Request,
    http::{StatusCode, header::CONTENT_LENGTH},
    middleware::Next,
    response::{IntoResponse, Response},
};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::{ApiError, ErrorBody, ErrorCode, MAX_BODY_BYTES};

/// 413 `payload_too_large` when `Content-Length` announces more than [`MAX_BODY_BYTES`].
pub async fn body_limit(request: Request, next: Next) -> Response {
    let announced = request
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if announced.is_some_and(|n| n > MAX_BODY_BYTES) {
        return ApiError::new(
            ErrorCode::PayloadTooLarge,
            format!("the request body is too large (at most {MAX_BODY_BYTES} bytes)"),
        )
        .into_response();
    }
    next.run(request).await
}

/// The error table's answer for one of hyper's automatic refusals.
fn refusal(status: u16) -> Option<ApiError> {
    let (code, message) = match status {
        400 => (ErrorCode::BadRequest, "malformed HTTP request"),
        414 => (ErrorCode::UriTooLong, "the request URI is too long (at most 65534 bytes)"),
        431 => (ErrorCode::HeadersTooLarge, "the request head is too large"),
        _ => return None,
    };
    Some(ApiError::new(code, message))
}

/// If `buf` starts with hyper's automatic refusal head, the length of that head and the JSON
/// answer to write instead.
fn replace(buf: &[u8]) -> Option<(usize, Vec<u8>)> {
    if !buf.starts_with(b"HTTP/1.1 4") {
        return None;
    }
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    let head = std::str::from_utf8(&buf[..end]).ok()?.to_ascii_lowercase();
    let mut lines = head.split("\r\n").filter(|l| !l.is_empty());
    let status: u16 = lines.next()?.get(9..12)?.parse().ok()?;
    let mut date = None;
    for line in lines {
        match line.split_once(':').map(|(k, v)| (k.trim(), v.trim())) {
            Some(("content-length", "0") | ("connection", "close")) => {}
            Some(("date", _)) => date = Some(line.len()),
            _ => return None,
        }
    }
    date?;
    let error = refusal(status)?;
    let code = error.code();
    let body =
        serde_json::to_vec(&ErrorBody { error: error.to_string(), code, param: None }).ok()?;
    let reason = StatusCode::from_u16(status).ok()?.canonical_reason().unwrap_or_default();
    let mut out = format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(&body);
    Some((end, out))
}

/// A connection whose hyper refusals are answered as JSON (see the module docs).
#[derive(Debug)]
pub struct JsonRefusals<T> {
    inner: T,
    /// Replacement bytes not yet written.
    pending: Vec<u8>,
    written: usize,
}

impl<T> JsonRefusals<T> {
    /// Wraps a connection.
    pub fn new(inner: T) -> Self {
        Self { inner, pending: Vec::new(), written: 0 }
    }
}

impl<T: AsyncWrite + Unpin> JsonRefusals<T> {
    /// Writes what is pending; ready once nothing is.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.pending.len() {
            let n =
                ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
        }
        self.pending.clear();
        self.written = 0;
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for JsonRefusals<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for JsonRefusals<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        // Anything after the head (hyper sends none) goes with it: the connection closes.
        if let Some((_, answer)) = replace(buf) {
            this.pending = answer;
            // Written now if the socket takes it, else by the flush hyper sends next.
            let _ = this.drain(cx)?;
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        if let Some(first) = bufs.iter().find(|b| !b.is_empty())
            && replace(first).is_some()
        {
            return Pin::new(this).poll_write(cx, first);
        }
        Pin::new(&mut this.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn only_hypers_refusal_head_is_replaced() {
        let hyper = b"HTTP/1.1 414 URI Too Long\r\nconnection: close\r\ncontent-length: 0\r\ndate: Tue, 01 Dec 2026 09:39:41 GMT\r\n\r\n";
        let (end, out) = replace(hyper).unwrap();
        assert_eq!(end, hyper.len());
        let out = String::from_utf8(out).unwrap();
        assert!(
            out.starts_with("HTTP/1.1 414 URI Too Long\r\ncontent-type: application/json\r\n"),
            "{out}"
        );
        assert!(out.ends_with(r#""code":"uri_too_long"}"#), "{out}");
        let ours = b"HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: 40\r\ndate: x\r\n\r\n";
        assert!(replace(ours).is_none());
        assert!(replace(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\ndate: x\r\n\r\n").is_none());
        assert!(
            replace(b"HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 0\r\ndate: x\r\n\r\n")
                .is_none()
        );
    }
}
