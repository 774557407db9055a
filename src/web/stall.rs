//! A bound on how long a connection's answer may wait for its client to read.
//!
//! hyper has no write timeout: a client that asks for more than the sockets' buffers hold (a GIF, a
//! few pictures asked for at once on one connection) and then reads nothing keeps its connection,
//! and one of the server's [`super::MAX_CONNECTIONS`] places, for as long as it likes; the
//! header-read limit never starts, since the connection is not waiting for a request. Wrapped in a
//! [`StallBound`], a write that makes no progress for its limit fails, and hyper closes the
//! connection. A client that reads, however slowly, lets each write progress and is not cut.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// How long a connection's write may wait without progress by default before the connection
/// is closed ([`StallBound`]).
pub const WRITE_STALL_LIMIT: Duration = Duration::from_secs(30);

/// `io` whose writes (and flushes) fail with [`io::ErrorKind::TimedOut`] once one has waited
/// `limit` without any progress.
pub(super) struct StallBound<S> {
    io: S,
    limit: Duration,
    /// When the write waiting now gives up; `None` while nothing waits.
    stalled: Option<Pin<Box<Sleep>>>,
}

impl<S> StallBound<S> {
    pub fn new(io: S, limit: Duration) -> StallBound<S> {
        StallBound { io, limit, stalled: None }
    }

    /// What a write that returned `polled` gives: its result once ready (the wait forgotten),
    /// else pending until the wait is `limit` long, then an error.
    fn bound<T>(&mut self, cx: &mut Context<'_>, polled: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        if polled.is_ready() {
            self.stalled = None;
            return polled;
        }
        let limit = self.limit;
        let stalled = self.stalled.get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match stalled.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("the client read nothing for {limit:?}"),
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for StallBound<S> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for StallBound<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.io).poll_write(cx, buf);
        self.bound(cx, polled)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        self.bound(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.io).poll_flush(cx);
        self.bound(cx, polled)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.io).poll_shutdown(cx);
        self.bound(cx, polled)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A write the other end does not read fails after the limit; one it reads, however late
    /// within the limit each time, goes through whole.
    #[tokio::test]
    async fn a_write_nobody_reads_fails_after_the_limit_and_a_slow_reader_is_served() {
        let limit = Duration::from_secs(1);
        let (near, _far) = tokio::io::duplex(64);
        let mut bound = StallBound::new(near, limit);
        let started = tokio::time::Instant::now();
        let err = bound.write_all(&[7; 512]).await.expect_err("nobody reads");
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        assert!(started.elapsed() >= limit, "{:?}", started.elapsed());

        let (near, mut far) = tokio::io::duplex(64);
        let mut bound = StallBound::new(near, limit);
        let reader = tokio::spawn(async move {
            let mut got = Vec::new();
            let mut buf = [0; 64];
            while got.len() < 512 {
                tokio::time::sleep(limit / 5).await;
                let n = far.read(&mut buf).await.expect("read");
                got.extend_from_slice(&buf[..n]);
            }
            got
        });
        let started = tokio::time::Instant::now();
        bound.write_all(&[7; 512]).await.expect("a slow reader is served");
        assert!(started.elapsed() > limit, "longer than the limit in all: {:?}", started.elapsed());
        assert_eq!(reader.await.expect("the reader"), vec![7; 512]);
    }
}
