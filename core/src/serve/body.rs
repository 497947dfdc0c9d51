//! The request body a service receives: an [`http_body::Body`] fed by the connection as the
//! codec decodes data frames, one frame at a time.

use core::fmt;
use core::pin::Pin;
use core::task::{Context, Poll, Waker};
use std::sync::{Arc, Mutex, MutexGuard};

use bytes::Bytes;
use http::HeaderMap;
use http_body::{Frame, SizeHint};

use super::ServeError;
use crate::codec::CodecError;
use crate::error::Error;

/// Why a request body ended early. The connection answers the request with
/// [`status`](Self::status) when it can and closes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BodyError {
    kind: BodyErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum BodyErrorKind {
    /// The body broke a rule of HTTP/1.1 or a limit (a bad chunk, too long a body).
    Parse(Error),
    /// The connection ended, failed or stopped reading inside the body.
    Closed,
    /// The trailer section holds a field that `http` refuses.
    Trailers,
}

impl BodyError {
    /// The status a server answers this with: 400 or 413 for a body the parser rejects; `None`
    /// when the client is gone.
    #[must_use]
    pub fn status(&self) -> Option<u16> {
        match &self.kind {
            BodyErrorKind::Parse(e) => Some(e.status()),
            BodyErrorKind::Trailers => Some(400),
            BodyErrorKind::Closed => None,
        }
    }

    /// The parser's error, when the body broke a rule.
    #[must_use]
    pub fn parse_error(&self) -> Option<&Error> {
        match &self.kind {
            BodyErrorKind::Parse(e) => Some(e),
            _ => None,
        }
    }

    /// The error the body ends with when the connection stops reading it for `e`.
    pub(super) fn from_serve(e: &ServeError) -> Self {
        let kind = match e {
            ServeError::Request(CodecError::Parse(e)) => BodyErrorKind::Parse(*e),
            _ => BodyErrorKind::Closed,
        };
        BodyError { kind }
    }

    pub(super) fn trailers() -> Self {
        BodyError {
            kind: BodyErrorKind::Trailers,
        }
    }
}

impl fmt::Display for BodyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            BodyErrorKind::Parse(e) => write!(f, "invalid request body: {e}"),
            BodyErrorKind::Closed => f.write_str("the connection ended inside the request body"),
            BodyErrorKind::Trailers => f.write_str("a trailer field that `http` refuses"),
        }
    }
}

impl std::error::Error for BodyError {}

/// The one-frame hand-over between the connection and the body.
#[derive(Default)]
struct Slot {
    frame: Option<Result<Frame<Bytes>, BodyError>>,
    /// No frame follows `frame`.
    ended: bool,
    /// The body is dropped: the connection discards the rest.
    dropped: bool,
    /// The connection gave up inside the body: after `frame`, the body ends with an error.
    broken: bool,
    /// The body was polled since it was created: the service wants its bytes (what
    /// `Expect: 100-continue` waits for).
    wanted: bool,
    body_waker: Option<Waker>,
    conn_waker: Option<Waker>,
}

fn lock(slot: &Mutex<Slot>) -> MutexGuard<'_, Slot> {
    // A panic while the lock is held leaves a slot that is still consistent.
    slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A request body, streamed from the connection as it is decoded: each data frame is a slice of
/// the read buffer (no copy); a chunked body's trailer section comes as a trailers frame.
///
/// The connection reads the next frame from the socket only once this one is taken, so a
/// request body is never buffered whole. Dropping the body discards the rest of it; so does
/// the end of the response, after which a body still held gives an error instead of more data.
pub struct RequestBody {
    slot: Option<Arc<Mutex<Slot>>>,
    /// The bytes a Content-Length body has still to give.
    remaining: Option<u64>,
}

impl fmt::Debug for RequestBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RequestBody")
            .field("remaining", &self.remaining)
            .finish_non_exhaustive()
    }
}

impl RequestBody {
    /// A body with no bytes.
    #[must_use]
    pub fn empty() -> Self {
        RequestBody {
            slot: None,
            remaining: Some(0),
        }
    }

    /// A body fed by the returned sender; `length` is the Content-Length, if any.
    pub(super) fn channel(length: Option<u64>) -> (RequestBody, BodySender) {
        let slot = Arc::new(Mutex::new(Slot::default()));
        let body = RequestBody {
            slot: Some(slot.clone()),
            remaining: length,
        };
        (body, BodySender { slot })
    }
}

impl http_body::Body for RequestBody {
    type Data = Bytes;
    type Error = BodyError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BodyError>>> {
        let Some(slot) = &self.slot else {
            return Poll::Ready(None);
        };
        let mut slot = lock(slot);
        slot.wanted = true;
        let frame = slot.frame.take();
        if let Some(waker) = slot.conn_waker.take() {
            waker.wake();
        }
        match frame {
            Some(frame) => {
                drop(slot);
                if let (Ok(Some(data)), Some(n)) =
                    (frame.as_ref().map(Frame::data_ref), self.remaining)
                {
                    self.remaining = Some(n.saturating_sub(data.len() as u64));
                }
                Poll::Ready(Some(frame))
            }
            None if slot.broken => {
                slot.broken = false;
                slot.ended = true;
                Poll::Ready(Some(Err(BodyError {
                    kind: BodyErrorKind::Closed,
                })))
            }
            None if slot.ended => Poll::Ready(None),
            None => {
                slot.body_waker = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        match &self.slot {
            None => true,
            Some(slot) => {
                let slot = lock(slot);
                slot.ended && slot.frame.is_none() && !slot.broken
            }
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self.remaining {
            Some(n) => SizeHint::with_exact(n),
            None => SizeHint::default(),
        }
    }
}

impl Drop for RequestBody {
    fn drop(&mut self) {
        if let Some(slot) = &self.slot {
            let mut slot = lock(slot);
            slot.dropped = true;
            if let Some(waker) = slot.conn_waker.take() {
                waker.wake();
            }
        }
    }
}

/// The connection's end of a [`RequestBody`].
pub(super) struct BodySender {
    slot: Arc<Mutex<Slot>>,
}

/// What the body can take now.
pub(super) enum Room {
    /// The slot is free: send the next frame.
    Free,
    /// The body is dropped: discard.
    Dropped,
}

impl BodySender {
    /// Whether the body can take a frame; `Pending` (with the waker kept) while it holds one.
    pub(super) fn poll_room(&self, cx: &mut Context<'_>) -> Poll<Room> {
        let mut slot = lock(&self.slot);
        if slot.dropped {
            Poll::Ready(Room::Dropped)
        } else if slot.frame.is_none() {
            Poll::Ready(Room::Free)
        } else {
            slot.conn_waker = Some(cx.waker().clone());
            Poll::Pending
        }
    }

    /// Whether the body is dropped.
    pub(super) fn is_dropped(&self) -> bool {
        lock(&self.slot).dropped
    }

    /// Whether the service has polled the body; if not, the waker is woken when it does.
    pub(super) fn poll_wanted(&self, cx: &mut Context<'_>) -> Poll<()> {
        let mut slot = lock(&self.slot);
        if slot.wanted || slot.dropped {
            Poll::Ready(())
        } else {
            slot.conn_waker = Some(cx.waker().clone());
            Poll::Pending
        }
    }

    fn put(&self, frame: Option<Result<Frame<Bytes>, BodyError>>) {
        let mut slot = lock(&self.slot);
        match frame {
            Some(frame) => slot.frame = Some(frame),
            None => slot.ended = true,
        }
        if let Some(waker) = slot.body_waker.take() {
            waker.wake();
        }
    }

    /// Hands over body data.
    pub(super) fn data(&self, data: Bytes) {
        self.put(Some(Ok(Frame::data(data))));
    }

    /// Hands over the trailer fields.
    pub(super) fn trailers(&self, trailers: HeaderMap) {
        self.put(Some(Ok(Frame::trailers(trailers))));
    }

    /// Ends the body with an error.
    pub(super) fn fail(self, error: BodyError) {
        let mut slot = lock(&self.slot);
        slot.frame = Some(Err(error));
        slot.ended = true;
        if let Some(waker) = slot.body_waker.take() {
            waker.wake();
        }
    }

    /// Ends the body.
    pub(super) fn end(self) {
        self.put(None);
    }
}

impl Drop for BodySender {
    fn drop(&mut self) {
        // A sender dropped before `end` or `fail` (the connection gave up): the body learns it
        // ends early instead of waiting forever.
        let mut slot = lock(&self.slot);
        if !slot.ended {
            slot.broken = true;
            if let Some(waker) = slot.body_waker.take() {
                waker.wake();
            }
        }
    }
}
