//! A connection with deadlines on progress: `Timed` wraps a socket and fails a read or a
//! write with `TimedOut` once its deadline has passed, and `linger` closes a socket after its
//! last answer within a bound of time and bytes.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::time::{Instant, Sleep};

use super::settings::{Settings, LINGER_BYTES, MIN_PROGRESS};

/// The deadline of one direction of a connection.
#[derive(Debug)]
struct Watch {
    /// When the operation fails if it is still waiting; `None`: no deadline is running.
    deadline: Option<Instant>,
    /// `Some(window)`: the deadline is one on progress, armed when an operation first waits
    /// and lifted once [`MIN_PROGRESS`] bytes have moved. `None`: a fixed deadline.
    window: Option<Duration>,
    /// Bytes moved since the deadline was armed.
    moved: usize,
    timer: Pin<Box<Sleep>>,
}

impl Watch {
    fn new(window: Duration) -> Watch {
        Watch {
            deadline: None,
            window: Some(window),
            moved: 0,
            timer: Box::pin(tokio::time::sleep(Duration::ZERO)),
        }
    }

    /// A deadline at `at`, whatever moves until then.
    fn fixed(&mut self, at: Instant) {
        self.deadline = Some(at);
        self.window = None;
    }

    /// A deadline on progress: `window` for each [`MIN_PROGRESS`] bytes.
    fn progress(&mut self, window: Duration) {
        self.deadline = None;
        self.window = Some(window);
    }

    /// Counts `n` bytes moved; `whole`: the caller's request was met in full, nothing waits.
    fn moved(&mut self, n: usize, whole: bool) {
        if self.window.is_none() {
            return;
        }
        self.moved += n;
        if whole || self.moved >= MIN_PROGRESS {
            self.deadline = None;
        }
    }

    /// The operation waits: `Ready(TimedOut)` once the deadline has passed, else `Pending`
    /// with the timer registered.
    fn wait(&mut self, cx: &mut Context<'_>) -> Poll<io::Error> {
        let deadline = match (self.deadline, self.window) {
            (Some(at), _) => at,
            (None, Some(window)) => {
                let at = Instant::now() + window;
                self.deadline = Some(at);
                self.moved = 0;
                at
            }
            (None, None) => return Poll::Pending,
        };
        if self.timer.deadline() != deadline {
            self.timer.as_mut().reset(deadline);
        }
        match self.timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client made no progress in time",
            )),
            Poll::Pending => Poll::Pending,
        }
    }
}

/// A socket whose reads and writes fail with `TimedOut` past their deadlines: reads have the
/// fixed head deadline ([`Timed::wait_for_head`]) or the body's deadline on progress
/// ([`Timed::read_body`]); writes always have a deadline on progress.
pub struct Timed<S> {
    inner: S,
    settings: Settings,
    read: Watch,
    write: Watch,
}

impl<S> Timed<S> {
    /// Wraps `inner`; the first head's deadline starts now.
    pub fn new(inner: S, settings: Settings) -> Timed<S> {
        let mut timed = Timed {
            inner,
            settings,
            read: Watch::new(settings.body),
            write: Watch::new(settings.write),
        };
        timed.wait_for_head();
        timed
    }

    /// The next head must be complete within the head deadline from now.
    pub fn wait_for_head(&mut self) {
        self.read.fixed(Instant::now() + self.settings.head);
    }

    /// Reads from now on belong to a body: a deadline on progress.
    pub fn read_body(&mut self) {
        self.read.progress(self.settings.body);
    }

    /// The socket.
    pub fn into_inner(self) -> S {
        self.inner
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Timed<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        let before = buf.filled().len();
        // Bytes already there are taken even past the deadline: only waiting is timed.
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                this.read.moved(buf.filled().len() - before, false);
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => this.read.wait(cx).map(Err),
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Timed<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        match Pin::new(&mut this.inner).poll_write(cx, buf) {
            Poll::Ready(Ok(n)) => {
                this.write.moved(n, n == buf.len());
                Poll::Ready(Ok(n))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => this.write.wait(cx).map(Err),
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// Closes a connection after its last answer. The client may still be sending (a pipelined
/// request, the rest of a body we refused); closing a socket with unread input makes the
/// kernel send a reset, which can destroy our answer before the client has read it. So: stop
/// writing, then read and drop what comes, up to [`LINGER_BYTES`], for at most
/// `linger_time` in all and `linger_timeout` without a byte, as nginx's lingering close does.
pub async fn linger<S: AsyncRead + AsyncWrite + Unpin>(mut stream: S, settings: &Settings) {
    let _ = stream.shutdown().await;
    let end = Instant::now() + settings.linger_time;
    let mut sink = [0u8; 4096];
    let mut drained = 0;
    while drained < LINGER_BYTES {
        let quiet_until = end.min(Instant::now() + settings.linger_timeout);
        match tokio::time::timeout_at(quiet_until, stream.read(&mut sink)).await {
            Ok(Ok(n)) if n > 0 => drained += n,
            _ => break,
        }
    }
}
