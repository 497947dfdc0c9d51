//! Serving a tower [`Service`] over one HTTP/1.1 connection with
//! [`ServerCodec`] (feature `tower`): an axum `Router`, a
//! `tower::ServiceBuilder` stack, anything that takes `http::Request<RequestBody>` and answers
//! `http::Response<B>` with `B: http_body::Body`.
//!
//! - The request head is converted with [`to_http`] (optionally keeping the
//!   names' spelling, [`Options::keep_names`]); its body is a [`RequestBody`], streamed: each
//!   data frame the codec decodes is handed to the service as it arrives, and the socket is
//!   read again only once the service has taken it. A chunked body's trailers come as a
//!   trailers frame. `Expect: 100-continue` is answered when the service first polls the body.
//! - The response head is written with [`from_http`](crate::from_http): with the body's
//!   Content-Length when the map has one or the body's size hint is exact, chunked otherwise
//!   (with its trailers frame as the trailer section); nothing after the head for HEAD, 1xx,
//!   204 and 304.
//! - Requests are answered one at a time in their order, so pipelined requests work; the
//!   connection is kept alive unless the request or the response says otherwise.
//! - A request the codec rejects is answered with [`CodecError::status`] (400, 413, 431, ...)
//!   and the connection closed; a service error or an invalid response head is answered 500.
//!
//! An axum application served on a listener, one task per connection:
//!
//! ```no_run
//! use axum::{routing::get, Router};
//! use httpspan::serve::{serve_connection, Options};
//!
//! fn main() -> std::io::Result<()> {
//!     let app = Router::new().route("/", get(|| async { "hello" }));
//!     let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
//!     runtime.block_on(async {
//!         let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//!         loop {
//!             let (socket, _) = listener.accept().await?;
//!             let app = app.clone();
//!             tokio::spawn(async move {
//!                 if let Err(e) = serve_connection(socket, app, Options::default()).await {
//!                     eprintln!("connection: {e}");
//!                 }
//!             });
//!         }
//!     })
//! }
//! ```
//!
//! There is no idle timeout: wrap the call in `tokio::time::timeout` where one is needed (after
//! an error's answer, too, the connection reads and drops what the client still sends, up to
//! 256 KiB, until the client closes, so that the answer is not lost to a reset).
//! Upgrades and tunnels are not served: the connection closes after a 101 response or a 2xx
//! answer to CONNECT. Trailers reach the
//! client only with a chunked body; with a Content-Length they are dropped.

mod body;
mod respond;

use core::fmt;
use core::future::{poll_fn, Future};
use core::pin::pin;
use core::task::{ready, Context, Poll};
use std::boxed::Box;
use std::io;

use bytes::{Buf, BytesMut};
use http_body::Body;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_util::codec::Decoder as _;
use tower_service::Service;

pub use body::{BodyError, RequestBody};

use crate::codec::{CodecError, RequestFrame, ServerCodec};
use crate::framing::{self, Framing};
use crate::from_http::FromHttpError;
use crate::known::KnownHeader;
use crate::limits::Limits;
use crate::syntax::Version;
use crate::to_http;
use body::{BodySender, Room};
use respond::{Answering, BodyEncoder};

/// A boxed error from a service or a response body.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// How [`serve_connection`] serves.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    limits: Limits,
    keep_names: bool,
}

impl Default for Options {
    /// The default [`Limits`], names lower-case.
    fn default() -> Self {
        Options::new(Limits::DEFAULT)
    }
}

impl Options {
    /// Serving with these limits for heads, bodies and trailers.
    pub fn new(limits: Limits) -> Self {
        Options {
            limits,
            keep_names: false,
        }
    }

    /// Whether each request carries its field names' spelling and order as an
    /// [`OriginalNames`](crate::to_http::OriginalNames) in its extensions; a response that
    /// carries one is written with it either way.
    pub fn keep_names(mut self, keep: bool) -> Self {
        self.keep_names = keep;
        self
    }
}

/// Why [`serve_connection`] stopped early. Where an answer was due, it was sent before the
/// connection was closed.
#[derive(Debug)]
#[non_exhaustive]
pub enum ServeError {
    /// The codec rejected a request; it was answered with [`CodecError::status`] when one is
    /// due.
    Request(CodecError),
    /// A request head that `http` refuses (a target [`http::Uri`] cannot hold); answered 400.
    Convert(http::Error),
    /// The service failed; answered 500 when no response head was sent yet.
    Service(BoxError),
    /// The response head or a trailer field is one the writer refuses; answered 500.
    Response(FromHttpError),
    /// The response body failed after its head was sent.
    Body(BoxError),
    /// The response body gave more or fewer bytes than its Content-Length.
    BodyLength,
    /// Reading or writing the connection failed.
    Io(io::Error),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::Request(e) => write!(f, "request refused: {e}"),
            ServeError::Convert(e) => write!(f, "request head not representable: {e}"),
            ServeError::Service(e) => write!(f, "service failed: {e}"),
            ServeError::Response(e) => write!(f, "invalid response: {e}"),
            ServeError::Body(e) => write!(f, "response body failed: {e}"),
            ServeError::BodyLength => {
                f.write_str("the response body's length differs from its Content-Length")
            }
            ServeError::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ServeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ServeError::Request(e) => Some(e),
            ServeError::Convert(e) => Some(e),
            ServeError::Service(e) | ServeError::Body(e) => Some(e.as_ref()),
            ServeError::Response(e) => Some(e),
            ServeError::Io(e) => Some(e),
            ServeError::BodyLength => None,
        }
    }
}

impl From<io::Error> for ServeError {
    fn from(e: io::Error) -> Self {
        ServeError::Io(e)
    }
}

impl From<FromHttpError> for ServeError {
    fn from(e: FromHttpError) -> Self {
        ServeError::Response(e)
    }
}

impl ServeError {
    /// The status to answer with, when no response head was sent yet.
    fn status(&self) -> Option<u16> {
        match self {
            ServeError::Request(e) => e.status(),
            ServeError::Convert(_) => Some(400),
            ServeError::Service(_) | ServeError::Response(_) => Some(500),
            _ => None,
        }
    }
}

/// How much response output is buffered before the body is polled again only once it is
/// written: the back-pressure on a streamed response.
const HIGH_WATER: usize = 64 * 1024;

/// Read buffer room asked for before each read.
const READ_ROOM: usize = 8 * 1024;

/// How many bytes are read and dropped after an error's answer before the connection closes.
const LINGER_BYTES: usize = 256 * 1024;

/// `Expect: 100-continue`'s interim answer.
const CONTINUE: &[u8] = b"HTTP/1.1 100 Continue\r\n\r\n";

/// Serves HTTP/1.1 requests from `io` with `service` until the connection ends, a request
/// asks to close, or an error stops it (see the [module](self)). Returns `Ok` when the
/// connection ended cleanly between requests.
pub async fn serve_connection<IO, S, B>(
    io: IO,
    mut service: S,
    options: Options,
) -> Result<(), ServeError>
where
    IO: AsyncRead + AsyncWrite + Unpin,
    S: Service<http::Request<RequestBody>, Response = http::Response<B>>,
    S::Error: Into<BoxError>,
    B: Body,
    B::Error: Into<BoxError>,
{
    let mut conn = Conn {
        io,
        codec: ServerCodec::new(options.limits),
        input: BytesMut::new(),
        output: BytesMut::new(),
        eof: false,
        body: None,
        body_done: true,
        expect_continue: false,
        close: false,
        responded: false,
    };
    let result = serve(&mut conn, &mut service, options).await;
    if let Err(e) = &result {
        // Once a response head is out, an answer can no longer be sent: the close says it.
        if let Some(status) = e.status().filter(|_| !conn.responded) {
            respond::refusal(status, &mut conn.output);
        }
    }
    // The answer to an error, then a clean close; a failure here adds nothing to report.
    let _ = poll_fn(|cx| conn.poll_write_out(cx)).await;
    let _ = poll_fn(|cx| core::pin::Pin::new(&mut conn.io).poll_shutdown(cx)).await;
    if result.is_err() && !conn.eof {
        // Closing with unread bytes makes the kernel reset the connection, which can destroy
        // the answer before the client reads it: what the client still sends is read and
        // dropped first, up to a bound.
        conn.input.clear();
        let mut dropped = 0;
        while dropped < LINGER_BYTES {
            conn.input.reserve(READ_ROOM);
            let read = poll_fn(|cx| {
                tokio_util::io::poll_read_buf(
                    core::pin::Pin::new(&mut conn.io),
                    cx,
                    &mut conn.input,
                )
            });
            match read.await {
                Ok(n) if n > 0 => dropped += n,
                _ => break,
            }
            conn.input.clear();
        }
    }
    result
}

/// The request loop; an error is answered by the caller.
async fn serve<IO, S, B>(
    conn: &mut Conn<IO>,
    service: &mut S,
    options: Options,
) -> Result<(), ServeError>
where
    IO: AsyncRead + AsyncWrite + Unpin,
    S: Service<http::Request<RequestBody>, Response = http::Response<B>>,
    S::Error: Into<BoxError>,
    B: Body,
    B::Error: Into<BoxError>,
{
    while !conn.close {
        conn.responded = false;
        let head = match poll_fn(|cx| conn.poll_frame(cx)).await {
            Ok(Some(RequestFrame::Head(head))) => head,
            Ok(None) => return Ok(()),
            // The codec gives every other frame inside a request, which the pump takes.
            Ok(Some(_)) => return Err(ServeError::Request(CodecError::Incomplete)),
            Err(e) => return Err(ServeError::Request(e)),
        };
        let req = head.request();
        let bytes = head.bytes();
        let parts = match options.keep_names {
            true => to_http::request_parts_keeping_names(req, bytes),
            false => to_http::request_parts(req, bytes),
        }
        .map_err(ServeError::Convert)?;
        let answering = Answering {
            method: framing::Answering::of(parts.method.as_str().as_bytes()),
            http11: req.version() == Version::Http11,
            close: !req.keep_alive(),
        };
        let body = match req.framing() {
            Framing::Length(0) | Framing::NoBody => {
                conn.start_body(None);
                RequestBody::empty()
            }
            framing => {
                let length = match framing {
                    Framing::Length(n) => Some(n),
                    _ => None,
                };
                let (body, sender) = RequestBody::channel(length);
                conn.start_body(Some(sender));
                conn.expect_continue = req.version() == Version::Http11
                    && req
                        .value(KnownHeader::Expect)
                        .is_some_and(|v| v.as_bytes(bytes).eq_ignore_ascii_case(b"100-continue"));
                body
            }
        };
        conn.close |= answering.close;
        let request = http::Request::from_parts(parts, body);

        poll_fn(|cx| service.poll_ready(cx))
            .await
            .map_err(|e| ServeError::Service(e.into()))?;
        let mut call = pin!(service.call(request));
        let response = poll_fn(|cx| {
            // The request body is fed while the service works on it.
            conn.poll_side_work(cx)?;
            call.as_mut()
                .poll(cx)
                .map_err(|e| ServeError::Service(e.into()))
        })
        .await?;

        // A service that answers before reading a body it still holds (an echo, whose
        // response body is the request body) reads it later: the client gets its 100 Continue
        // now, as an interim answer must come before the final one.
        if conn.expect_continue && conn.body.as_ref().is_some_and(|b| !b.is_dropped()) {
            conn.output.extend_from_slice(CONTINUE);
            conn.expect_continue = false;
        }
        let (mut parts, body) = response.into_parts();
        let mut encoder = respond::head(
            &mut parts,
            &body.size_hint(),
            Answering {
                close: conn.close,
                ..answering
            },
            &mut conn.output,
        )?;
        conn.responded = true;
        conn.close |= encoder.closes();
        if encoder.is_bodiless() {
            drop(body);
        } else {
            let mut body = pin!(body);
            poll_fn(|cx| conn.poll_body(cx, body.as_mut(), &mut encoder)).await?;
        }
        encoder.finish(&mut conn.output)?;
        poll_fn(|cx| conn.poll_write_out(cx)).await?;

        // What the service left of the request body is read and discarded, so that the next
        // request starts where it should; a client still waiting for 100 Continue sends no
        // body, and the connection closes instead.
        if conn.expect_continue {
            conn.close = true;
        } else {
            conn.body = None;
            poll_fn(|cx| conn.poll_pump(cx)).await?;
        }
    }
    Ok(())
}

/// One connection's state between the loop's steps.
struct Conn<IO> {
    io: IO,
    codec: ServerCodec,
    input: BytesMut,
    output: BytesMut,
    /// The client closed its side.
    eof: bool,
    /// Where the current request's body goes; `None` to discard it.
    body: Option<BodySender>,
    /// The current request's end has been decoded.
    body_done: bool,
    /// The request waits for `100 Continue`, not sent yet.
    expect_continue: bool,
    /// The connection closes after the current response.
    close: bool,
    /// The current request's response head is written.
    responded: bool,
}

impl<IO: AsyncRead + AsyncWrite + Unpin> Conn<IO> {
    fn start_body(&mut self, sender: Option<BodySender>) {
        self.body = sender;
        self.body_done = false;
        self.expect_continue = false;
    }

    /// The next frame the codec decodes, reading the socket as needed; `None` at a clean end.
    fn poll_frame(
        &mut self,
        cx: &mut Context<'_>,
    ) -> Poll<Result<Option<RequestFrame>, CodecError>> {
        loop {
            let frame = match self.eof {
                false => self.codec.decode(&mut self.input)?,
                true => self.codec.decode_eof(&mut self.input)?,
            };
            if frame.is_some() || self.eof {
                return Poll::Ready(Ok(frame));
            }
            self.input.reserve(READ_ROOM);
            let read = core::pin::Pin::new(&mut self.io);
            let n = ready!(tokio_util::io::poll_read_buf(read, cx, &mut self.input))?;
            self.eof = n == 0;
        }
    }

    /// Feeds the request body to its [`RequestBody`] until the request's end is decoded.
    fn poll_pump(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), ServeError>> {
        while !self.body_done {
            if let Some(sender) = &self.body {
                match ready!(sender.poll_room(cx)) {
                    Room::Free => {}
                    Room::Dropped => self.body = None,
                }
            }
            if self.expect_continue {
                // The body is read only for a service that asks for it; otherwise the client
                // is still waiting, sends no body, and the connection closes after the answer.
                let Some(sender) = &self.body else {
                    return Poll::Pending;
                };
                ready!(sender.poll_wanted(cx));
                self.output.extend_from_slice(CONTINUE);
                self.expect_continue = false;
                // Written by the caller's next `poll_write_out`; wake it to get there.
                cx.waker().wake_by_ref();
            }
            let frame = match ready!(self.poll_frame(cx)) {
                Ok(frame) => frame,
                Err(e) => {
                    if let Some(sender) = self.body.take() {
                        sender.fail(BodyError::from_codec(&e));
                    }
                    return Poll::Ready(Err(ServeError::Request(e)));
                }
            };
            match frame {
                Some(RequestFrame::Body(data)) => {
                    if let Some(sender) = &self.body {
                        sender.data(data);
                    }
                }
                Some(RequestFrame::Trailers(section)) => {
                    let map = to_http::header_map(section.trailers().fields(), section.bytes());
                    match (map, &self.body) {
                        (Ok(map), Some(sender)) => sender.trailers(map),
                        (Ok(_), None) => {}
                        (Err(_), _) => {
                            if let Some(sender) = self.body.take() {
                                sender.fail(BodyError::trailers());
                            }
                        }
                    }
                }
                Some(RequestFrame::End { last }) => {
                    self.close |= last;
                    self.body_done = true;
                    if let Some(sender) = self.body.take() {
                        sender.end();
                    }
                }
                Some(RequestFrame::Head(_)) | None => {
                    return Poll::Ready(Err(ServeError::Request(CodecError::Incomplete)))
                }
            }
        }
        Poll::Ready(Ok(()))
    }

    /// Writes buffered output and flushes it.
    fn poll_write_out(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while !self.output.is_empty() {
            let n = ready!(core::pin::Pin::new(&mut self.io).poll_write(cx, &self.output))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.output.advance(n);
        }
        core::pin::Pin::new(&mut self.io).poll_flush(cx)
    }

    /// What goes on beside the service and the response body: output written, request body
    /// fed. Only errors are reported; progress wakes the task.
    fn poll_side_work(&mut self, cx: &mut Context<'_>) -> Result<(), ServeError> {
        if let Poll::Ready(Err(e)) = self.poll_write_out(cx) {
            return Err(e.into());
        }
        if let Poll::Ready(Err(e)) = self.poll_pump(cx) {
            return Err(e);
        }
        Ok(())
    }

    /// Writes the response body's frames until it ends.
    fn poll_body<B>(
        &mut self,
        cx: &mut Context<'_>,
        mut body: core::pin::Pin<&mut B>,
        encoder: &mut BodyEncoder,
    ) -> Poll<Result<(), ServeError>>
    where
        B: Body,
        B::Error: Into<BoxError>,
    {
        loop {
            self.poll_side_work(cx)?;
            if self.output.len() >= HIGH_WATER {
                return Poll::Pending;
            }
            let Some(frame) = ready!(body.as_mut().poll_frame(cx)) else {
                return Poll::Ready(Ok(()));
            };
            let frame = frame.map_err(|e| ServeError::Body(e.into()))?;
            match frame.into_data() {
                Ok(data) => encoder.data(data, &mut self.output)?,
                Err(frame) => {
                    if let Ok(trailers) = frame.into_trailers() {
                        encoder.trailers(trailers);
                    }
                }
            }
        }
    }
}
