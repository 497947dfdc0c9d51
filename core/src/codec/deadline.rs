//! [`Deadlines`]: a connection whose reads and writes fail once they stop making progress, or
//! once a read deadline passes, so that a codec's read loop cannot be held by a slow client.

use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll};
use core::time::Duration;
use std::boxed::Box;
use std::fmt;
use std::io;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

/// Which deadline a [`Deadlines`] connection hit. It comes as the inner error of an
/// [`io::Error`] of kind [`TimedOut`](io::ErrorKind::TimedOut); [`Expired::of`] finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Expired {
    /// The read deadline ([`Deadlines::set_read_deadline`]) passed while a read waited.
    ReadDeadline,
    /// Reads waited the read stall timeout in all before the read floor of bytes came.
    ReadStalled,
    /// Writes and flushes waited the write stall timeout in all before the peer took the
    /// write floor of bytes.
    WriteStalled,
}

impl Expired {
    /// The deadline behind `error`, when a [`Deadlines`] connection raised it.
    #[must_use]
    pub fn of(error: &io::Error) -> Option<Expired> {
        error.get_ref()?.downcast_ref::<Expired>().copied()
    }

    fn into_io(self) -> io::Error {
        io::Error::new(io::ErrorKind::TimedOut, self)
    }
}

impl fmt::Display for Expired {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Expired::ReadDeadline => "the read deadline passed",
            Expired::ReadStalled => "too few bytes were received within the read stall timeout",
            Expired::WriteStalled => "too few bytes were sent within the write stall timeout",
        })
    }
}

impl std::error::Error for Expired {}

/// One timer, allocated on its first use and then reset in place, so that arming it again
/// allocates nothing.
#[derive(Default)]
struct Timer {
    sleep: Option<Pin<Box<Sleep>>>,
    armed: bool,
}

impl Timer {
    fn arm(&mut self, at: Instant) {
        match &mut self.sleep {
            Some(sleep) => sleep.as_mut().reset(at),
            None => self.sleep = Some(Box::pin(tokio::time::sleep_until(at))),
        }
        self.armed = true;
    }

    /// Arms the timer for `at` unless it is armed for it already.
    fn arm_for(&mut self, at: Instant) {
        let armed_for = self
            .sleep
            .as_ref()
            .filter(|_| self.armed)
            .map(|s| s.deadline());
        if armed_for != Some(at) {
            self.arm(at);
        }
    }

    /// Whether the armed time has passed; if not, the task is woken when it does.
    fn poll_expired(&mut self, cx: &mut Context<'_>) -> bool {
        match (&mut self.sleep, self.armed) {
            (Some(sleep), true) => sleep.as_mut().poll(cx).is_ready(),
            _ => false,
        }
    }
}

/// A connection (`IO`) whose waits are bounded: a read that receives nothing for
/// `read_stall`, or a write that sends nothing for `write_stall`, fails with
/// [`io::ErrorKind::TimedOut`]; so does a read still waiting at the
/// [read deadline](Self::set_read_deadline). Time spent not reading (while the application
/// works) does not count: the stall timers run only while a read or a write waits, and
/// restart once a floor of bytes has moved (one byte unless
/// [`set_read_min_bytes`](Self::set_read_min_bytes) or
/// [`set_write_min_bytes`](Self::set_write_min_bytes) raise it), so a long transfer that keeps
/// moving is never cut.
///
/// Put it under a codec's `Framed` to give its read loop the deadlines
/// `serve::serve_connection` (feature `tower`) has: a deadline for each whole head
/// (which also bounds the wait for the next request on a kept-alive connection) and stall
/// timeouts for bodies and for a client that stops reading. Needs a tokio runtime with its time
/// driver (`enable_time` or `enable_all`). Nothing is allocated per message: each timer is
/// allocated once, when first armed.
///
/// ```
/// use std::time::Duration;
/// use futures_util::StreamExt;
/// use httpspan::codec::{CodecError, Deadlines, Expired, RequestFrame, ServerCodec};
/// use tokio::time::Instant;
/// use tokio_util::codec::Framed;
///
/// const HEAD: Duration = Duration::from_secs(30);
/// const STALL: Duration = Duration::from_secs(60);
///
/// async fn serve<IO>(io: IO) -> Result<(), CodecError>
/// where
///     IO: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
/// {
///     let io = Deadlines::new(io, Some(STALL), Some(STALL));
///     let mut conn = Framed::new(io, ServerCodec::new(httpspan::Limits::DEFAULT));
///     loop {
///         // The whole next head, from the end of the last request, within HEAD.
///         conn.get_mut().set_read_deadline(Some(Instant::now() + HEAD));
///         let head = match conn.next().await {
///             Some(Ok(RequestFrame::Head(head))) => head,
///             // The client closed, or sent no whole head in time: the connection ends.
///             None => return Ok(()),
///             Some(Err(CodecError::Io(e))) if Expired::of(&e).is_some() => return Ok(()),
///             Some(Err(e)) => return Err(e),
///             Some(Ok(_)) => return Err(CodecError::Incomplete), // a head always comes first
///         };
///         // The body has no total deadline, only the stall timeout.
///         conn.get_mut().set_read_deadline(None);
///         // ... read the body frames, answer with `conn.send(...)`.
///         # let _ = head; return Ok(());
///     }
/// }
///
/// # let runtime = tokio::runtime::Builder::new_current_thread().enable_all().start_paused(true).build()?;
/// # runtime.block_on(async {
/// // A client that connects and sends nothing is let go after HEAD.
/// let (client, server) = tokio::io::duplex(1024);
/// let started = Instant::now();
/// serve(server).await?;
/// assert_eq!(started.elapsed(), HEAD);
/// # drop(client);
/// # Ok::<(), CodecError>(())
/// # })?;
/// # Ok::<(), CodecError>(())
/// ```
pub struct Deadlines<IO> {
    io: IO,
    /// The read deadline; its timer is armed only once a read waits, so that a read the
    /// buffer or the socket answers at once costs no timer operation.
    read_by: Option<Instant>,
    read_deadline: Timer,
    read: Progress,
    write: Progress,
}

impl<IO> fmt::Debug for Deadlines<IO> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Deadlines")
            .field("read_stall", &self.read.stall)
            .field("read_min_bytes", &self.read.min_bytes)
            .field("write_stall", &self.write.stall)
            .field("write_min_bytes", &self.write.min_bytes)
            .field("read_deadline", &self.read_by)
            .finish_non_exhaustive()
    }
}

impl<IO> Deadlines<IO> {
    /// `io` with these stall timeouts (`None`: a wait of that side is not bounded), a floor of
    /// one byte per stall window on each side (see [`set_read_min_bytes`](Self::set_read_min_bytes))
    /// and no read deadline.
    pub fn new(io: IO, read_stall: Option<Duration>, write_stall: Option<Duration>) -> Self {
        Deadlines {
            io,
            read_by: None,
            read_deadline: Timer::default(),
            read: Progress::new(read_stall),
            write: Progress::new(write_stall),
        }
    }

    /// Sets the instant after which a waiting read fails ([`Expired::ReadDeadline`]), however
    /// much arrived before it; `None` removes it. A deadline that has passed fails the next read
    /// that waits.
    pub fn set_read_deadline(&mut self, at: Option<Instant>) {
        self.read_by = at;
    }

    /// Sets the read stall timeout, from the next wait on.
    pub fn set_read_stall(&mut self, stall: Option<Duration>) {
        self.read.stall = stall;
        self.read.restart();
    }

    /// Sets the floor of the read stall timeout: the bytes that must arrive in each window of
    /// read stall time spent waiting, from a new window on. With 1 (the default) a read fails
    /// only after a whole window without a byte; with more, a peer that sends a byte now and
    /// then fails too once its waits add up to a window, while one that keeps sending this
    /// much per window is never cut. 0 counts as 1.
    pub fn set_read_min_bytes(&mut self, bytes: usize) {
        self.read.min_bytes = bytes.max(1);
        self.read.restart();
    }

    /// Sets the floor of the write stall timeout, as [`set_read_min_bytes`](Self::set_read_min_bytes)
    /// does for reads: the bytes the peer must take in each window of write stall time spent
    /// waiting.
    pub fn set_write_min_bytes(&mut self, bytes: usize) {
        self.write.min_bytes = bytes.max(1);
        self.write.restart();
    }

    /// The connection.
    pub fn get_ref(&self) -> &IO {
        &self.io
    }

    /// The connection, mutably; reading or writing it directly bypasses the deadlines.
    pub fn get_mut(&mut self) -> &mut IO {
        &mut self.io
    }

    /// The connection, without the deadlines.
    pub fn into_inner(self) -> IO {
        self.io
    }
}

/// One direction's deadline on progress: in each window of `stall` spent waiting, at least
/// `min_bytes` must move; once they have, a new window starts.
#[derive(Default)]
struct Progress {
    stall: Option<Duration>,
    min_bytes: usize,
    /// Bytes moved in this window.
    moved: usize,
    /// Time spent waiting in this window, up to the start of the wait in progress.
    waited: Duration,
    /// When the wait in progress began; `None`: no operation waits.
    waiting_since: Option<Instant>,
    timer: Timer,
}

impl Progress {
    fn new(stall: Option<Duration>) -> Self {
        Progress {
            stall,
            min_bytes: 1,
            ..Progress::default()
        }
    }

    /// A new window, with nothing waiting.
    fn restart(&mut self) {
        self.moved = 0;
        self.waited = Duration::ZERO;
        self.waiting_since = None;
        self.timer.armed = false;
    }

    /// What the deadline does with the outcome of one poll that moved `moved` bytes if ready:
    /// an outcome ends the wait (and the window, once `min_bytes` have moved in it); a wait
    /// starts the timer for what is left of the window, and fails once that has run out.
    fn poll<T>(
        &mut self,
        poll: Poll<io::Result<T>>,
        moved: impl FnOnce(&T) -> usize,
        cx: &mut Context<'_>,
        expired: Expired,
    ) -> Poll<io::Result<T>> {
        match (&poll, self.stall) {
            (Poll::Ready(outcome), _) => {
                if let Some(since) = self.waiting_since.take() {
                    self.waited += since.elapsed();
                    self.timer.armed = false;
                }
                self.moved += outcome.as_ref().map_or(0, moved);
                if self.moved >= self.min_bytes {
                    self.restart();
                }
            }
            (Poll::Pending, Some(stall)) => {
                if self.waiting_since.is_none() {
                    let now = Instant::now();
                    self.waiting_since = Some(now);
                    self.timer.arm(now + stall.saturating_sub(self.waited));
                }
                if self.timer.poll_expired(cx) {
                    return Poll::Ready(Err(expired.into_io()));
                }
            }
            (Poll::Pending, None) => {}
        }
        poll
    }
}

impl<IO: AsyncRead + Unpin> AsyncRead for Deadlines<IO> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let poll = Pin::new(&mut this.io).poll_read(cx, buf);
        if let (Poll::Pending, Some(at)) = (&poll, this.read_by) {
            this.read_deadline.arm_for(at);
            if this.read_deadline.poll_expired(cx) {
                return Poll::Ready(Err(Expired::ReadDeadline.into_io()));
            }
        }
        let filled = buf.filled().len() - before;
        this.read.poll(poll, |_| filled, cx, Expired::ReadStalled)
    }
}

impl<IO: AsyncWrite + Unpin> AsyncWrite for Deadlines<IO> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_write(cx, buf);
        this.write.poll(poll, |n| *n, cx, Expired::WriteStalled)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_flush(cx);
        this.write.poll(poll, |_| 0, cx, Expired::WriteStalled)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_shutdown(cx);
        this.write.poll(poll, |_| 0, cx, Expired::WriteStalled)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        this.write.poll(poll, |n| *n, cx, Expired::WriteStalled)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}
