//! Serving connections: the accept loop with a connection cap, hyper's header-read timeout,
//! hyper's own refusals mapped to the error table, and graceful shutdown.
//!
//! `axum::serve` offers neither a header-read timeout nor a connection cap, so the API serves
//! connections itself with hyper-util's HTTP/1 + HTTP/2 builder (the one axum uses):
//!
//! - **Header-read timeout** ([`ServerLimits::header_read_timeout`], default 10 s): a client
//!   that has not sent a whole request head within it is disconnected (a slow-loris client
//!   held a connection for as long as it liked). It also bounds how long an idle keep-alive
//!   connection is kept waiting for its next request.
//! - **Write-stall timeout** ([`ServerLimits::write_timeout`], default 10 s): a client that
//!   takes no byte of a pending write within it is disconnected ([`crate::write_stall`]): one
//!   that stopped reading an event stream or a long answer held its connection and hyper's
//!   buffered bytes for as long as it stayed connected (the slow-read twin of slow-loris). A
//!   client that reads slowly but keeps reading is never cut.
//! - **Connection cap** ([`ServerLimits::max_connections`], default 1,024): a connection is
//!   accepted only while fewer are open; the next ones wait in the listen backlog (their TCP
//!   handshake completes, their request is read when a slot frees), so a burst slows down
//!   instead of exhausting file descriptors or memory (hyper buffers up to ~400 KiB of head per
//!   connection).
//! - **Hyper's refusals as JSON**: hyper answers some requests before the router sees them: a
//!   malformed request line or header (400), a URI over 65,534 bytes (the `http` crate's limit:
//!   414), a head larger than its read buffer (431). Hyper writes these heads itself with an
//!   empty body and no hook; [`crate::wire::JsonRefusals`] recognises that exact head on the
//!   way out and replaces it with the error table's answer (`bad_request`, `uri_too_long`,
//!   `headers_too_large`), so every error body is JSON. Raising hyper's limits and enforcing
//!   them in a middleware was the alternative, but the URI limit cannot be raised and a
//!   malformed request line never reaches a middleware.
//! - **Graceful shutdown**: when `shutdown` resolves the listener stops accepting and open
//!   connections finish their in-flight requests, then close.
//! - **Peer address**: every request carries its connection's `ConnectInfo<SocketAddr>`
//!   extension, read by [`crate::client_ip::ClientIp`].
//!
//! [`serve_router`] serves any router this way (tests serve small routers of their own);
//! [`serve_with`] serves the API's.

use std::{future::Future, net::SocketAddr, sync::Arc, time::Duration};

use axum::{Extension, Router, extract::ConnectInfo};
use hyper_util::{
    rt::{TokioExecutor, TokioIo, TokioTimer},
    server::{conn::auto, graceful::GracefulShutdown},
    service::TowerToHyperService,
};
use tokio::{net::TcpListener, sync::Semaphore};
use tower::Layer;

use crate::{AppState, router, wire::JsonRefusals, write_stall::WriteStall};

/// The limits of the connection layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerLimits {
    /// Longest a client may take to send a request head (default 10 s).
    pub header_read_timeout: Duration,
    /// Longest a pending write may wait for the client to take any byte of it (default 10 s).
    pub write_timeout: Duration,
    /// Most connections open at once; more wait to be accepted (default 1,024).
    pub max_connections: usize,
}

impl ServerLimits {
    /// The default header-read timeout.
    pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
    /// The default write-stall timeout.
    pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
    /// The default connection cap.
    pub const MAX_CONNECTIONS: usize = 1024;
}

impl Default for ServerLimits {
    fn default() -> Self {
        Self {
            header_read_timeout: Self::HEADER_READ_TIMEOUT,
            write_timeout: Self::WRITE_TIMEOUT,
            max_connections: Self::MAX_CONNECTIONS,
        }
    }
}

/// How long the accept loop pauses after a failed accept (out of file descriptors, …), as
/// `axum::serve` does, so it does not spin.
const ACCEPT_BACKOFF: Duration = Duration::from_secs(1);

/// Serves the router on `listener` within `limits` until `shutdown` resolves, then lets
/// in-flight requests finish.
pub async fn serve_with(
    listener: TcpListener,
    state: AppState,
    limits: ServerLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_router(listener, router(state), limits, shutdown).await
}

/// Serves `app` as [`serve_with`] serves the API's router.
pub async fn serve_router(
    listener: TcpListener,
    app: Router,
    limits: ServerLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder.http1().timer(TokioTimer::new()).header_read_timeout(limits.header_read_timeout);
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => match slot {
                Ok(slot) => slot,
                Err(_) => break, // never closed
            },
            () = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    tracing::warn!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Small writes (an SSE frame, a keepalive) go out at once, not held by Nagle's
        // algorithm for the peer's delayed ACK (~40 ms per frame).
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!(%peer, error = %e, "cannot set TCP_NODELAY");
        }
        let io = TokioIo::new(WriteStall::new(JsonRefusals::new(stream), limits.write_timeout));
        let app = Extension(ConnectInfo::<SocketAddr>(peer)).layer(app.clone());
        let conn = builder.serve_connection(io, TowerToHyperService::new(app)).into_owned();
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            if let Err(e) = conn.await {
                tracing::debug!(%peer, error = %e, "connection ended with an error");
            }
            drop(slot);
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}
