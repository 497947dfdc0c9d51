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
    /// A read waited longer than the read stall timeout without a byte.
    ReadStalled,
    /// A write or flush waited longer than the write stall timeout without a byte taken.
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
            Expired::ReadStalled => "no byte was received within the read stall timeout",
            Expired::WriteStalled => "no byte was sent within the write stall timeout",
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
/// restart with every byte, so a long transfer that keeps moving is never cut.
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
    read_stall: Option<Duration>,
    write_stall: Option<Duration>,
    read_deadline: Timer,
    read_stalled: Timer,
    write_stalled: Timer,
}

impl<IO> fmt::Debug for Deadlines<IO> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Deadlines")
            .field("read_stall", &self.read_stall)
            .field("write_stall", &self.write_stall)
            .field("read_deadline", &self.read_by)
            .finish_non_exhaustive()
    }
}

impl<IO> Deadlines<IO> {
    /// `io` with these stall timeouts (`None`: a wait of that side is not bounded) and no read
    /// deadline.
    pub fn new(io: IO, read_stall: Option<Duration>, write_stall: Option<Duration>) -> Self {
        Deadlines {
            io,
            read_by: None,
            read_stall,
            write_stall,
            read_deadline: Timer::default(),
            read_stalled: Timer::default(),
            write_stalled: Timer::default(),
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
        self.read_stall = stall;
        self.read_stalled.armed = false;
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

/// What a stall timer does with the outcome of one poll: an outcome (bytes, the end, an error)
/// stops it, a wait starts it (unless it runs already) and fails once it has run out.
fn stall<T>(
    timer: &mut Timer,
    stall: Option<Duration>,
    poll: Poll<io::Result<T>>,
    cx: &mut Context<'_>,
    expired: Expired,
) -> Poll<io::Result<T>> {
    match (&poll, stall) {
        (Poll::Ready(_), _) => timer.armed = false,
        (Poll::Pending, Some(stall)) => {
            if !timer.armed {
                timer.arm(Instant::now() + stall);
            }
            if timer.poll_expired(cx) {
                return Poll::Ready(Err(expired.into_io()));
            }
        }
        (Poll::Pending, None) => {}
    }
    poll
}

impl<IO: AsyncRead + Unpin> AsyncRead for Deadlines<IO> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_read(cx, buf);
        if let (Poll::Pending, Some(at)) = (&poll, this.read_by) {
            this.read_deadline.arm_for(at);
            if this.read_deadline.poll_expired(cx) {
                return Poll::Ready(Err(Expired::ReadDeadline.into_io()));
            }
        }
        let (timer, limit) = (&mut this.read_stalled, this.read_stall);
        stall(timer, limit, poll, cx, Expired::ReadStalled)
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
        let (timer, limit) = (&mut this.write_stalled, this.write_stall);
        stall(timer, limit, poll, cx, Expired::WriteStalled)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_flush(cx);
        let (timer, limit) = (&mut this.write_stalled, this.write_stall);
        stall(timer, limit, poll, cx, Expired::WriteStalled)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_shutdown(cx);
        let (timer, limit) = (&mut this.write_stalled, this.write_stall);
        stall(timer, limit, poll, cx, Expired::WriteStalled)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        let (timer, limit) = (&mut this.write_stalled, this.write_stall);
        stall(timer, limit, poll, cx, Expired::WriteStalled)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}
