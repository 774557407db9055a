//! Bounds on how long a connection's answer may wait for its client to read.
//!
//! hyper has no write timeout: a client that asks for more than the sockets' buffers hold (a GIF, a
//! few pictures asked for at once on one connection) and then reads nothing keeps its connection,
//! and one of the server's [`super::MAX_CONNECTIONS`] places, for as long as it likes; the
//! header-read limit never starts, since the connection is not waiting for a request. Wrapped in a
//! [`StallBound`], a connection's writes fail, and hyper closes it, when
//!
//! - a write makes no progress for its limit ([`WRITE_STALL_LIMIT`]);
//! - the client reads slower than a least pace while the server waits for it ([`Pace`]): a
//!   trickle of a byte every 29 s makes progress within any stall limit, and held a connection and
//!   its answer for as long as it liked;
//! - its client already has [`WAITING_PER_CLIENT`] other connections whose answers wait for it to
//!   read (the client as the rate limiter counts it, named for each request: behind the reverse
//!   proxy, its `X-Forwarded-For`).
//!
//! Only time spent waiting for the client counts: a connection waiting for its next request (the
//! header-read limit's business), or for its answer to be made, or a live stream between events,
//! costs nothing here.

use super::places::{Place, Places};
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

/// How long a connection's write may wait without progress by default before the connection
/// is closed ([`StallBound`]).
pub const WRITE_STALL_LIMIT: Duration = Duration::from_secs(30);

/// The least average pace, in bytes a second, at which a client must read while the server waits
/// for it ([`Pace`]): 512 B/s, 4 kbit/s, a tenth of a GPRS phone's link (about 40 kbit/s), so a
/// phone on the slowest mobile data still in use, loading a page's six pictures at once, reads
/// each faster. Answers that fit in the sockets' buffers (pages, boards: a few KB to a few dozen)
/// never wait at all.
pub const MIN_WRITE_RATE: u32 = 512;

/// How much waiting a client may have in hand at most ([`Pace`]): a new connection starts with it,
/// what it reads faster than [`MIN_WRITE_RATE`] earns it back, never beyond. A reader that pauses
/// (a phone between cells) is not cut for up to this long; the same as [`WRITE_STALL_LIMIT`].
pub const WRITE_GRACE: Duration = Duration::from_secs(30);

/// Connections of one client whose answers may wait for it to read at once: a browser opens at
/// most six to a site, so one person never has more waiting; a trickling client holds no more
/// than this many of the server's connections, however many it opens (more wait: they are
/// closed).
pub const WAITING_PER_CLIENT: usize = 8;

/// The least pace a client reads at while the server waits for it: each second waited costs
/// `rate` bytes of the client's allowance, each byte it reads gives one back, and the allowance
/// holds at most `grace` worth of waiting (`rate` × `grace` bytes; a new connection starts
/// full). A write waiting longer than the allowance lasts fails. So a client reading at least
/// `rate` on average is never cut, one that reads nothing is cut after `grace`, and a trickle
/// loses its connection within `grace` × `rate` / (`rate` − its own pace) of waiting; banking is
/// bounded, so reading fast at first buys no long trickle after.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pace {
    /// Bytes a second; 0: no least pace.
    pub rate: u32,
    pub grace: Duration,
}

impl Pace {
    fn allowance(self) -> f64 {
        f64::from(self.rate) * self.grace.as_secs_f64()
    }
}

/// Who a connection's current request is from ([`super::client_of`]), set by the pages' guard for
/// each request: the connection's waiting answers count against that client.
#[derive(Clone)]
pub(super) struct ConnClient(Arc<Mutex<IpAddr>>);

impl ConnClient {
    pub fn new(client: IpAddr) -> ConnClient {
        ConnClient(Arc::new(Mutex::new(client)))
    }

    pub fn set(&self, client: IpAddr) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = client;
    }

    fn get(&self) -> IpAddr {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The bounds of [`StallBound`].
#[derive(Clone)]
pub(super) struct Bounds {
    pub stall: Duration,
    pub pace: Pace,
    /// Connections waiting for their client to read, by client ([`WAITING_PER_CLIENT`]).
    pub waiting: Arc<Places>,
}

/// `io` whose writes (and flushes) fail with [`io::ErrorKind::TimedOut`] once one has waited
/// `stall` without any progress, once the client's allowance ([`Pace`]) is spent, or at once when
/// its client has its share of connections waiting already.
pub(super) struct StallBound<S> {
    io: S,
    bounds: Bounds,
    client: ConnClient,
    /// Bytes of the [`Pace`] allowance left when the current wait began.
    allowance: f64,
    /// The write waiting now: when it began, when it gives up, its client's place among the
    /// connections waiting; `None` while nothing waits.
    waiting: Option<Waiting>,
}

struct Waiting {
    since: Instant,
    until: Pin<Box<Sleep>>,
    _place: Place,
}

impl<S> StallBound<S> {
    pub fn new(io: S, bounds: Bounds, client: ConnClient) -> StallBound<S> {
        let allowance = bounds.pace.allowance();
        StallBound { io, bounds, client, allowance, waiting: None }
    }

    /// What a write that returned `polled` gives (`sent`: the bytes it took once ready): its
    /// result once ready (the wait ended, its time charged and the bytes read credited), else
    /// pending until the wait's limit, then an error.
    fn bound<T>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<T>>,
        sent: impl FnOnce(&T) -> usize,
    ) -> Poll<io::Result<T>> {
        if let Poll::Ready(done) = polled {
            if let Some(w) = self.waiting.take() {
                self.allowance -= f64::from(self.bounds.pace.rate) * w.since.elapsed().as_secs_f64();
            }
            if let Ok(t) = &done {
                self.allowance = (self.allowance + sent(t) as f64).min(self.bounds.pace.allowance());
            }
            return Poll::Ready(done);
        }
        if self.waiting.is_none() {
            let client = self.client.get();
            let Some(place) = self.bounds.waiting.take(client) else {
                return Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!("{client} has its share of connections waiting for it to read"),
                )));
            };
            let pace = self.bounds.pace;
            let lasts = if pace.rate == 0 {
                self.bounds.stall
            } else {
                self.bounds.stall.min(Duration::from_secs_f64(self.allowance.max(0.0) / f64::from(pace.rate)))
            };
            let since = Instant::now();
            self.waiting =
                Some(Waiting { since, until: Box::pin(tokio::time::sleep_until(since + lasts)), _place: place });
        }
        let Some(w) = self.waiting.as_mut() else { return Poll::Pending };
        match w.until.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("the client read too little for {:?}", w.since.elapsed()),
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
        self.bound(cx, polled, |&n| n)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        self.bound(cx, polled, |&n| n)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.io).poll_flush(cx);
        self.bound(cx, polled, |()| 0)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.io).poll_shutdown(cx);
        self.bound(cx, polled, |()| 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    const CLIENT: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(192, 0, 2, 1));

    fn bounds(stall: Duration, rate: u32, grace: Duration) -> Bounds {
        Bounds { stall, pace: Pace { rate, grace }, waiting: Places::new(WAITING_PER_CLIENT, usize::MAX) }
    }

    /// Reads `far` in `chunk`s every `every` until `want` bytes came or it is closed.
    fn read_slowly(
        mut far: tokio::io::DuplexStream,
        chunk: usize,
        every: Duration,
        want: usize,
    ) -> tokio::task::JoinHandle<usize> {
        tokio::spawn(async move {
            let mut buf = vec![0; chunk];
            let mut got = 0;
            while got < want {
                tokio::time::sleep(every).await;
                match far.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => got += n,
                }
            }
            got
        })
    }

    /// How long writing `n` bytes through `b` to a reader of `chunk`s every `every` took; the
    /// reader got them all.
    async fn served(b: Bounds, chunk: usize, every: Duration, n: usize) -> Duration {
        let (near, far) = tokio::io::duplex(64);
        let mut bound = StallBound::new(near, b, ConnClient::new(CLIENT));
        let reader = read_slowly(far, chunk, every, n);
        let started = tokio::time::Instant::now();
        bound.write_all(&vec![7; n]).await.expect("the reader is served");
        assert_eq!(reader.await.expect("the reader"), n);
        started.elapsed()
    }

    /// A write the other end does not read fails after the limit; one it reads, however late
    /// within the limit each time, goes through whole.
    #[tokio::test]
    async fn a_write_nobody_reads_fails_after_the_limit_and_a_slow_reader_is_served() {
        let limit = Duration::from_secs(1);
        let (near, _far) = tokio::io::duplex(64);
        let mut bound = StallBound::new(near, bounds(limit, 0, limit), ConnClient::new(CLIENT));
        let started = tokio::time::Instant::now();
        let err = bound.write_all(&[7; 512]).await.expect_err("nobody reads");
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        assert!(started.elapsed() >= limit, "{:?}", started.elapsed());

        let took = served(bounds(limit, 0, limit), 64, limit / 5, 512).await;
        assert!(took > limit, "a slow reader is served, longer than the limit in all: {took:?}");
    }

    /// A trickle, progressing well within the stall limit but slower than the least pace, fails
    /// once its allowance is spent; a reader above the pace is served for longer than the grace
    /// in all. (Without the pace, the trickle went on as long as it liked.)
    #[tokio::test]
    async fn a_trickle_fails_once_its_allowance_is_spent_and_a_reader_at_pace_is_served() {
        let (stall, rate, grace) = (Duration::from_secs(10), 1_000, Duration::from_millis(500));
        let (near, far) = tokio::io::duplex(64);
        let mut bound = StallBound::new(near, bounds(stall, rate, grace), ConnClient::new(CLIENT));
        // 80 B/s: each 100 ms waited costs 100 bytes of the 500 and earns 8 back.
        let trickle = read_slowly(far, 8, Duration::from_millis(100), usize::MAX);
        let started = tokio::time::Instant::now();
        let err = bound.write_all(&[7; 4096]).await.expect_err("a trickle is cut");
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        assert!(started.elapsed() < Duration::from_secs(3), "cut after {:?}", started.elapsed());
        drop(bound);
        assert!(trickle.await.expect("the trickle") < 4096);

        // 3,200 B/s: more than the pace.
        let took = served(bounds(stall, rate, grace), 64, Duration::from_millis(20), 2048).await;
        assert!(took > grace, "a reader at pace is served, longer than the grace in all: {took:?}");
    }

    /// A client with its share of connections waiting for it to read gets no more: a further
    /// write that would wait fails at once, while another client's waits; a place comes back when
    /// a wait ends.
    #[tokio::test]
    async fn a_client_has_its_share_of_waiting_connections_and_no_more() {
        let b = Bounds { waiting: Places::new(2, usize::MAX), ..bounds(Duration::from_secs(30), 0, WRITE_GRACE) };
        let other = IpAddr::from([192, 0, 2, 2]);
        let mut kept = Vec::new();
        let mut write = |client: IpAddr| {
            let (near, far) = tokio::io::duplex(64);
            kept.push(far);
            let mut bound = StallBound::new(near, b.clone(), ConnClient::new(client));
            tokio::spawn(async move { bound.write_all(&[7; 512]).await })
        };
        let waiting = [write(CLIENT), write(CLIENT)];
        tokio::time::sleep(Duration::from_millis(100)).await;
        let third = tokio::time::timeout(Duration::from_secs(5), write(CLIENT)).await;
        let err = third.expect("refused at once").expect("the task").expect_err("a third wait");
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        let others = write(other);
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(!others.is_finished(), "another client's write waits");
        waiting[0].abort();
        let _ = tokio::time::timeout(Duration::from_secs(5), async {
            while !waiting[0].is_finished() {
                tokio::task::yield_now().await
            }
        })
        .await;
        let again = write(CLIENT);
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(!again.is_finished(), "a place given back is taken again");
        drop(kept);
    }
}
