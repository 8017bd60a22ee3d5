//! [`WriteStall`], the connection adapter behind [`ServerLimits::write_timeout`]: a write the
//! client takes no byte of within the bound fails with `TimedOut`, and hyper then closes the
//! connection.
//!
//! The bound runs only while a write is pending (the socket's send buffer is full because the
//! client stopped reading); any byte taken resets it, so a slow reader that keeps reading is
//! never cut, and an idle connection (nothing to write) is the header-read timeout's business.
//! Without it, a client that stopped reading an event stream (or any long answer) held its
//! connection slot and hyper's buffered bytes for as long as it stayed connected.
//!
//! [`ServerLimits::write_timeout`]: crate::ServerLimits::write_timeout

use std::{
    future::Future,
    io,
    pin::Pin,
    task::{Context, Poll},
    time::Duration,
};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// A connection whose writes give up after `limit` without progress.
#[derive(Debug)]
pub struct WriteStall<T> {
    inner: T,
    limit: Duration,
    /// Armed when a write first found the socket full; cleared by any progress.
    stalled: Option<Pin<Box<Sleep>>>,
}

impl<T> WriteStall<T> {
    /// Wraps a connection.
    pub fn new(inner: T, limit: Duration) -> Self {
        Self { inner, limit, stalled: None }
    }

    /// What a write that is not ready yet answers: still pending, or `TimedOut` once the bound
    /// has passed since the stall began.
    fn pending<R>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<R>> {
        let limit = self.limit;
        let stalled = self.stalled.get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match stalled.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("the client took nothing for {limit:?}"),
            ))),
            Poll::Pending => Poll::Pending,
        }
    }

    /// `polled` as the adapter answers it: progress disarms the bound, a stall runs it.
    fn bounded<R>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<R>>,
    ) -> Poll<io::Result<R>> {
        match polled {
            Poll::Pending => self.pending(cx),
            ready => {
                self.stalled = None;
                ready
            }
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for WriteStall<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for WriteStall<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_write(cx, buf);
        this.bounded(cx, polled)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.bounded(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_flush(cx);
        this.bounded(cx, polled)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_shutdown(cx);
        this.bounded(cx, polled)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    // A pipe whose reader takes nothing: the write that finds it full fails after the bound.
    #[tokio::test]
    async fn a_write_the_reader_takes_nothing_of_fails_after_the_bound() {
        let (ours, mut theirs) = tokio::io::duplex(64);
        let mut conn = WriteStall::new(ours, Duration::from_millis(50));
        conn.write_all(&[1; 64]).await.unwrap();
        let started = tokio::time::Instant::now();
        let err = conn.write_all(&[2; 64]).await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        assert!(started.elapsed() >= Duration::from_millis(50), "{:?}", started.elapsed());
        // Progress resets the bound: a reader taking a little at a time keeps it alive.
        let (ours, mut theirs_slow) = tokio::io::duplex(64);
        let mut conn = WriteStall::new(ours, Duration::from_millis(100));
        let reader = tokio::spawn(async move {
            let mut buf = [0; 64];
            let mut total = 0;
            while total < 64 * 10 {
                tokio::time::sleep(Duration::from_millis(30)).await;
                total += theirs_slow.read(&mut buf).await.unwrap();
            }
            total
        });
        conn.write_all(&[3; 64 * 10]).await.unwrap();
        assert_eq!(reader.await.unwrap(), 640);
        let mut buf = [0; 64];
        assert_eq!(theirs.read(&mut buf).await.unwrap(), 64, "the first write went through");
    }
}
