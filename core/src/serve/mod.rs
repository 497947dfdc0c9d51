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
//!             let socket = match listener.accept().await {
//!                 Ok((socket, _)) => socket,
//!                 // Out of descriptors (EMFILE, ENFILE), say: retrying at once would spin,
//!                 // so wait for connections to close first.
//!                 Err(e) => {
//!                     eprintln!("accept: {e}");
//!                     tokio::time::sleep(std::time::Duration::from_millis(100)).await;
//!                     continue;
//!                 }
//!             };
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
//! Deadlines and bounds are on by default ([`Options`] lists each with its default): a whole
//! head within 30 s, from the accept or the end of the previous exchange, so that a slow head
//! or an idle kept-alive connection is closed; a request body or a client reading the response
//! that makes no progress for 60 s; an unread request body discarded up to 256 KiB, then the
//! connection closed; after an error's answer, what the client still sends read and dropped
//! for at most 30 s and 256 KiB, so that the answer is not lost to a reset. A transfer that
//! keeps moving is never cut. [`serve_connection_with_shutdown`] stops a connection gracefully.
//! After a 101 response or a 2xx answer to CONNECT, [`serve_connection_with_upgrades`] hands
//! the connection and the bytes read past the request to the caller (WebSocket, tunnels); the
//! other entry points close it. Trailers reach the client only with a chunked body; with a
//! Content-Length they are dropped.

mod body;
mod options;
mod respond;
mod upgrade;

use core::fmt;
use core::future::{poll_fn, Future};
use core::pin::pin;
use core::task::{ready, Context, Poll};
use std::boxed::Box;
use std::io;

use bytes::{Buf, BufMut, BytesMut};
use http_body::Body;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::time::Instant;
use tokio_util::codec::Decoder as _;
use tower_service::Service;

pub use body::{BodyError, RequestBody};
pub use options::Options;
pub use upgrade::{NoUpgrade, OnUpgrade, UpgradedIo};

use crate::codec::{CodecError, Deadlines, Expired, RequestFrame, RequestHead, ServerCodec};
use crate::framing::{self, Framing};
use crate::from_http::FromHttpError;
use crate::known::KnownHeader;
use crate::syntax::Version;
use crate::to_http;
use body::{BodySender, Room};
use respond::{Answering, BodyEncoder};

/// A boxed error from a service or a response body.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

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
    /// A deadline of the [`Options`] passed.
    Timeout(Timeout),
    /// Reading or writing the connection failed.
    Io(io::Error),
}

/// Which deadline of the [`Options`] closed a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Timeout {
    /// No byte of a request came within [`Options::head_timeout`]: an idle connection, closed
    /// without an answer.
    Idle,
    /// Part of a request head came, not all of it, within [`Options::head_timeout`]; answered
    /// 408.
    Head,
    /// The request body brought fewer than [`Options::body_read_min_bytes`] in a window of
    /// [`Options::body_read_stall`] spent waiting for it; answered 408 when no response head
    /// was sent yet.
    BodyRead,
    /// The client took fewer than [`Options::write_min_bytes`] of output in a window of
    /// [`Options::write_stall`] spent waiting for it.
    Write,
}

impl fmt::Display for Timeout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Timeout::Idle => "no request within the head timeout",
            Timeout::Head => "the request head did not arrive within the head timeout",
            Timeout::BodyRead => "the request body stalled or came too slowly",
            Timeout::Write => "the client stopped reading or read too slowly",
        })
    }
}

impl std::error::Error for Timeout {}

// Each variant that wraps an error says only its own sentence and returns the inner error as
// `source()`, or is transparent (Display and source of the inner error), so that an error-chain
// printer (anyhow, eyre) never shows one line twice.
impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::Request(_) => f.write_str("request refused"),
            ServeError::Convert(_) => f.write_str("request head not representable in `http`"),
            ServeError::Service(_) => f.write_str("service failed"),
            ServeError::Response(_) => f.write_str("invalid response"),
            ServeError::Body(_) => f.write_str("response body failed"),
            ServeError::BodyLength => {
                f.write_str("the response body's length differs from its Content-Length")
            }
            ServeError::Timeout(t) => t.fmt(f),
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
            // Transparent: the inner error's own source, not the inner error again.
            ServeError::Io(e) => e.source(),
            ServeError::Timeout(_) | ServeError::BodyLength => None,
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
            ServeError::Timeout(Timeout::Head | Timeout::BodyRead) => Some(408),
            _ => None,
        }
    }

    /// Whether the connection reads and drops what the client still sends before it closes:
    /// after an answer to a request that broke off, not for a client that stalled or is gone.
    fn lingers(&self) -> bool {
        !matches!(self, ServeError::Timeout(_) | ServeError::Io(_))
    }

    /// The error of an I/O operation through [`Deadlines`]; `input_empty`: no byte of the
    /// awaited request is buffered.
    fn from_io(e: io::Error, input_empty: bool) -> Self {
        match Expired::of(&e) {
            Some(Expired::ReadDeadline) if input_empty => ServeError::Timeout(Timeout::Idle),
            Some(Expired::ReadDeadline) => ServeError::Timeout(Timeout::Head),
            Some(Expired::ReadStalled) => ServeError::Timeout(Timeout::BodyRead),
            Some(Expired::WriteStalled) => ServeError::Timeout(Timeout::Write),
            _ => ServeError::Io(e),
        }
    }
}

/// `Expect: 100-continue`'s interim answer.
const CONTINUE: &[u8] = b"HTTP/1.1 100 Continue\r\n\r\n";

/// Serves HTTP/1.1 requests from `io` with `service` until the connection ends, a request
/// asks to close, a deadline of the [`Options`] passes or an error stops it (see the
/// [module](self)). Returns `Ok` when the connection ended cleanly between requests.
///
/// # Errors
///
/// A [`ServeError`] says why the connection stopped: a request the codec refused or `http`
/// cannot hold (answered 400 or the error's status), a failed service or response (answered
/// 500 when no head was sent), a passed deadline ([`ServeError::Timeout`]; an idle connection
/// is `Timeout(Timeout::Idle)`), or an I/O error of `io`.
pub async fn serve_connection<IO, S, B>(
    io: IO,
    service: S,
    options: Options,
) -> Result<(), ServeError>
where
    IO: AsyncRead + AsyncWrite + Unpin,
    S: Service<http::Request<RequestBody>, Response = http::Response<B>>,
    S::Error: Into<BoxError>,
    B: Body,
    B::Error: Into<BoxError>,
{
    serve_connection_with_shutdown(io, service, options, core::future::pending()).await
}

/// [`serve_connection`], stopping gracefully once `shutdown` completes (hyper's
/// `graceful_shutdown`): a connection waiting for a request closes at once; one with a
/// request in flight answers it (with `Connection: close` if its head is not written yet),
/// then closes. Returns `Ok` when it closed so.
///
/// # Errors
///
/// As for [`serve_connection`].
///
/// ```
/// use axum::{routing::get, Router};
/// use httpspan::serve::{serve_connection_with_shutdown, Options};
/// use tokio::io::{AsyncReadExt, AsyncWriteExt};
///
/// # let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
/// # runtime.block_on(async {
/// let app = Router::new().route("/", get(|| async { "hello" }));
/// let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
/// let (mut client, server) = tokio::io::duplex(4096);
/// let served = tokio::spawn(serve_connection_with_shutdown(server, app, Options::default(), async {
///     let _ = stopped.await;
/// }));
/// client.write_all(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n").await?;
/// let mut answer = vec![0; 4096];
/// let n = client.read(&mut answer).await?;
/// assert!(answer[..n].ends_with(b"hello"));
/// // Idle between requests: the connection closes as soon as it is asked to.
/// stop.send(()).unwrap();
/// assert!(served.await.unwrap().is_ok());
/// assert_eq!(client.read(&mut answer).await?, 0);
/// # Ok::<(), std::io::Error>(())
/// # })?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub async fn serve_connection_with_shutdown<IO, S, B, F>(
    io: IO,
    service: S,
    options: Options,
    shutdown: F,
) -> Result<(), ServeError>
where
    IO: AsyncRead + AsyncWrite + Unpin,
    S: Service<http::Request<RequestBody>, Response = http::Response<B>>,
    S::Error: Into<BoxError>,
    B: Body,
    B::Error: Into<BoxError>,
    F: Future<Output = ()>,
{
    let served = serve_offering(io, service, options, shutdown, false).await?;
    if let Some((mut upgraded, _)) = served {
        // Not taken over: the other protocol is not served, and the connection closes.
        let close = poll_fn(|cx| core::pin::Pin::new(&mut upgraded.io).poll_shutdown(cx));
        let _ = close.await;
    }
    Ok(())
}

/// A connection handed over after a response that switches protocols: a `101 Switching
/// Protocols` (WebSocket, `h2c`) or a 2xx answer to CONNECT (a tunnel). Its response head is
/// written and flushed; [`read_buf`](Self::read_buf) holds the bytes the client sent after the
/// request that were read already, which come before anything read from [`io`](Self::io).
#[derive(Debug)]
#[non_exhaustive]
pub struct Upgraded<IO> {
    /// The connection, without the [`Options`]' deadlines (the new protocol sets its own).
    pub io: IO,
    /// Bytes of the new protocol read with the request: read them first.
    pub read_buf: bytes::Bytes,
    /// The request that was answered so, as received.
    pub request: RequestHead,
    /// The response head as sent, with its extensions: the service can leave there what the
    /// code taking the connection over needs (a handler, a tunnel's target).
    pub response: http::response::Parts,
}

/// [`serve_connection_with_shutdown`], handing the connection over after a response that
/// switches protocols, with the bytes read past the request (hyper's `upgrade::on` and
/// `into_parts`). A request that may be answered so (an `Upgrade` field, or CONNECT) carries an
/// [`OnUpgrade`] in its extensions: a service that takes it out and keeps it gets the
/// connection through it, boxed, and this returns `Ok(None)`; otherwise it comes back to the
/// caller as `Ok(Some(upgraded))`, with its own type. `Ok(None)` also when the connection
/// closed cleanly. The request is read to its end first (its body discarded within
/// [`Options::max_discard_bytes`]); a switch with the body not read so is closed instead.
///
/// # Errors
///
/// As for [`serve_connection`].
///
/// ```
/// use axum::{http::StatusCode, routing::get, Router};
/// use httpspan::serve::{serve_connection_with_upgrades, Options};
/// use tokio::io::{AsyncReadExt, AsyncWriteExt};
///
/// # let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
/// # runtime.block_on(async {
/// let app = Router::new().route(
///     "/echo",
///     get(|| async { (StatusCode::SWITCHING_PROTOCOLS, [("upgrade", "echo"), ("connection", "upgrade")]) }),
/// );
/// let (mut client, server) = tokio::io::duplex(4096);
/// let served = tokio::spawn(async move {
///     let pending = std::future::pending();
///     let Some(mut upgraded) = serve_connection_with_upgrades(server, app, Options::default(), pending)
///         .await
///         .expect("served")
///     else {
///         return Ok(()); // the connection closed without a switch
///     };
///     // The echo protocol: what was read with the request first, then the rest.
///     upgraded.io.write_all(&upgraded.read_buf).await?;
///     let mut piece = [0u8; 64];
///     loop {
///         let n = upgraded.io.read(&mut piece).await?;
///         if n == 0 {
///             return Ok::<(), std::io::Error>(());
///         }
///         upgraded.io.write_all(&piece[..n]).await?;
///     }
/// });
/// client
///     .write_all(b"GET /echo HTTP/1.1\r\nHost: a\r\nUpgrade: echo\r\nConnection: upgrade\r\n\r\nearly ")
///     .await?;
/// client.write_all(b"later").await?;
/// client.shutdown().await?;
/// let mut answer = Vec::new();
/// client.read_to_end(&mut answer).await?;
/// assert!(answer.starts_with(b"HTTP/1.1 101 Switching Protocols\r\n"));
/// assert!(answer.ends_with(b"\r\n\r\nearly later"));
/// # served.await.unwrap()?;
/// # Ok::<(), std::io::Error>(())
/// # })?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub async fn serve_connection_with_upgrades<IO, S, B, F>(
    io: IO,
    service: S,
    options: Options,
    shutdown: F,
) -> Result<Option<Upgraded<IO>>, ServeError>
where
    IO: AsyncRead + AsyncWrite + Send + Unpin + 'static,
    S: Service<http::Request<RequestBody>, Response = http::Response<B>>,
    S::Error: Into<BoxError>,
    B: Body,
    B::Error: Into<BoxError>,
    F: Future<Output = ()>,
{
    match serve_offering(io, service, options, shutdown, true).await? {
        Some((upgraded, Some(pending))) if pending.is_awaited() => {
            pending.fulfil(Upgraded {
                io: Box::new(upgraded.io),
                read_buf: upgraded.read_buf,
                request: upgraded.request,
                response: upgraded.response,
            });
            Ok(None)
        }
        served => Ok(served.map(|(upgraded, _)| upgraded)),
    }
}

/// The connection served; after a switch, the connection and, when `offer_upgrades` put an
/// [`OnUpgrade`] in the request, its other half.
async fn serve_offering<IO, S, B, F>(
    io: IO,
    mut service: S,
    options: Options,
    shutdown: F,
    offer_upgrades: bool,
) -> Result<Option<(Upgraded<IO>, Option<upgrade::Pending>)>, ServeError>
where
    IO: AsyncRead + AsyncWrite + Unpin,
    S: Service<http::Request<RequestBody>, Response = http::Response<B>>,
    S::Error: Into<BoxError>,
    B: Body,
    B::Error: Into<BoxError>,
    F: Future<Output = ()>,
{
    let mut io = Deadlines::new(io, None, options.write_stall);
    io.set_read_min_bytes(options.body_read_min_bytes);
    io.set_write_min_bytes(options.write_min_bytes);
    let mut conn = Conn {
        io,
        codec: ServerCodec::new(options.limits),
        options,
        input: BytesMut::new(),
        output: BytesMut::new(),
        eof: false,
        body: None,
        body_done: true,
        discarded: 0,
        abandoned: false,
        expect_continue: false,
        close: false,
        responded: false,
        offer_upgrades,
        upgrade: None,
        switched: None,
    };
    let mut stop = Stop {
        signal: pin!(shutdown),
        asked: false,
    };
    let result = serve(&mut conn, &mut service, &mut stop).await;
    if let (Ok(()), Some((request, response, pending))) = (&result, conn.switched.take()) {
        let upgraded = Upgraded {
            io: conn.io.into_inner(),
            read_buf: conn.input.freeze(),
            request,
            response,
        };
        return Ok(Some((upgraded, pending)));
    }
    if let Err(e) = &result {
        // Once a response head is out, an answer can no longer be sent: the close says it.
        if let Some(status) = e.status().filter(|_| !conn.responded) {
            respond::refusal(status, &mut conn.output);
        }
    }
    // The answer to an error, then a clean close; a failure here adds nothing to report, and
    // the write stall timeout bounds a client that does not read it.
    let _ = poll_fn(|cx| conn.poll_write_out(cx)).await;
    let _ = poll_fn(|cx| core::pin::Pin::new(&mut conn.io).poll_shutdown(cx)).await;
    let lingers = match &result {
        Err(e) => e.lingers(),
        Ok(()) => conn.abandoned,
    };
    if lingers && !conn.eof {
        conn.linger().await;
    }
    result.map(|()| None)
}

/// The graceful shutdown signal of [`serve_connection_with_shutdown`], polled until it
/// completes once.
struct Stop<'a, F> {
    signal: core::pin::Pin<&'a mut F>,
    asked: bool,
}

impl<F: Future<Output = ()>> Stop<'_, F> {
    /// Whether the shutdown was asked for; if not, the task is woken when it is.
    fn poll_asked(&mut self, cx: &mut Context<'_>) -> bool {
        if !self.asked {
            self.asked = self.signal.as_mut().poll(cx).is_ready();
        }
        self.asked
    }
}

/// The request loop; an error is answered by the caller.
async fn serve<IO, S, B, F>(
    conn: &mut Conn<IO>,
    service: &mut S,
    stop: &mut Stop<'_, F>,
) -> Result<(), ServeError>
where
    IO: AsyncRead + AsyncWrite + Unpin,
    S: Service<http::Request<RequestBody>, Response = http::Response<B>>,
    S::Error: Into<BoxError>,
    B: Body,
    B::Error: Into<BoxError>,
    F: Future<Output = ()>,
{
    while !conn.close {
        conn.responded = false;
        conn.start_head();
        let frame = poll_fn(|cx| {
            if stop.poll_asked(cx) {
                conn.close = true;
                // No byte of a request yet: nothing is in flight.
                if conn.input.is_empty() {
                    return Poll::Ready(Ok(None));
                }
            }
            conn.poll_frame(cx)
        });
        let head = match frame.await? {
            Some(RequestFrame::Head(head)) => head,
            None => return Ok(()),
            // The codec gives every other frame inside a request, which the pump takes.
            Some(_) => return Err(ServeError::Request(CodecError::Incomplete)),
        };
        let req = head.request();
        let bytes = head.bytes();
        let mut parts = match conn.options.keep_names {
            true => to_http::request_parts_keeping_names(req, bytes),
            false => to_http::request_parts(req, bytes),
        }
        .map_err(ServeError::Convert)?;
        // Only a request that can be answered with a switch carries the hand-over.
        conn.upgrade = None;
        let may_switch = parts.method == http::Method::CONNECT
            || parts.headers.contains_key(http::header::UPGRADE);
        if conn.offer_upgrades && may_switch {
            let (on_upgrade, pending) = upgrade::pair();
            parts.extensions.insert(on_upgrade);
            conn.upgrade = Some(pending);
        }
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
            conn.close |= stop.poll_asked(cx);
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
            poll_fn(|cx| {
                conn.close |= stop.poll_asked(cx);
                conn.poll_body(cx, body.as_mut(), &mut encoder)
            })
            .await?;
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
        if encoder.switches_protocols() {
            // Once the request is read to its end, what follows is the new protocol's; a body
            // left unread past the discard bound, or not sent, leaves no clean place to switch.
            if conn.body_done && !conn.abandoned {
                conn.switched = Some((head, parts, conn.upgrade.take()));
            }
            return Ok(());
        }
        // No switch: a service awaiting the hand-over learns it now.
        conn.upgrade = None;
    }
    Ok(())
}

/// One connection's state between the loop's steps.
struct Conn<IO> {
    io: Deadlines<IO>,
    codec: ServerCodec,
    options: Options,
    input: BytesMut,
    output: BytesMut,
    /// The client closed its side.
    eof: bool,
    /// Where the current request's body goes; `None` to discard it.
    body: Option<BodySender>,
    /// The current request's end has been decoded.
    body_done: bool,
    /// Bytes of the current request's body discarded since the service let go of it.
    discarded: u64,
    /// The current request's body was left unread past [`Options::max_discard_bytes`]: the
    /// connection closes after the response.
    abandoned: bool,
    /// The request waits for `100 Continue`, not sent yet.
    expect_continue: bool,
    /// The connection closes after the current response.
    close: bool,
    /// The current request's response head is written.
    responded: bool,
    /// Whether a request that may be answered with a switch gets an [`OnUpgrade`].
    offer_upgrades: bool,
    /// The connection's half of the current request's [`OnUpgrade`].
    upgrade: Option<upgrade::Pending>,
    /// The request and the response head after which the connection switched protocols, and
    /// the request's [`OnUpgrade`] half.
    switched: Option<(RequestHead, http::response::Parts, Option<upgrade::Pending>)>,
}

impl<IO: AsyncRead + AsyncWrite + Unpin> Conn<IO> {
    /// The wait for the next request head begins: its deadline runs from now.
    fn start_head(&mut self) {
        let deadline = self.options.head_timeout.map(|t| Instant::now() + t);
        self.io.set_read_deadline(deadline);
        self.io.set_read_stall(None);
    }

    /// The head is read: the body's reads are bounded by the stall timeout instead.
    fn start_body(&mut self, sender: Option<BodySender>) {
        self.io.set_read_deadline(None);
        self.io.set_read_stall(self.options.body_read_stall);
        self.body = sender;
        self.body_done = false;
        self.discarded = 0;
        self.expect_continue = false;
    }

    /// The next frame the codec decodes, reading the socket as needed; `None` at a clean end.
    fn poll_frame(
        &mut self,
        cx: &mut Context<'_>,
    ) -> Poll<Result<Option<RequestFrame>, ServeError>> {
        loop {
            let frame = match self.eof {
                false => self.codec.decode(&mut self.input),
                true => self.codec.decode_eof(&mut self.input),
            }
            .map_err(ServeError::Request)?;
            if frame.is_some() || self.eof {
                return Poll::Ready(Ok(frame));
            }
            let room = self.options.read_buffer_bytes;
            self.input.reserve(room);
            let read = core::pin::Pin::new(&mut self.io);
            let mut input = (&mut self.input).limit(room);
            let n = match ready!(tokio_util::io::poll_read_buf(read, cx, &mut input)) {
                Ok(n) => n,
                Err(e) => return Poll::Ready(Err(ServeError::from_io(e, self.input.is_empty()))),
            };
            self.eof = n == 0;
        }
    }

    /// Reads and drops what the client still sends, within the [`Options`]' linger bounds,
    /// until it closes.
    async fn linger(&mut self) {
        let end = Instant::now() + self.options.linger_time;
        let mut dropped = 0;
        while dropped < self.options.linger_bytes {
            self.input.clear();
            self.input.reserve(self.options.read_buffer_bytes);
            let wait_end = end.min(Instant::now() + self.options.linger_timeout);
            let read = poll_fn(|cx| {
                let io = core::pin::Pin::new(self.io.get_mut());
                tokio_util::io::poll_read_buf(io, cx, &mut self.input)
            });
            match tokio::time::timeout_at(wait_end, read).await {
                Ok(Ok(n)) if n > 0 => dropped += n,
                _ => break,
            }
        }
    }

    /// Feeds the request body to its [`RequestBody`] until the request's end is decoded.
    fn poll_pump(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), ServeError>> {
        while !self.body_done && !self.abandoned {
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
                        sender.fail(BodyError::from_serve(&e));
                    }
                    return Poll::Ready(Err(e));
                }
            };
            match frame {
                Some(RequestFrame::Body(data)) => match &self.body {
                    Some(sender) => sender.data(data),
                    None => {
                        // Discarding is bounded: past the bound, the connection closes after
                        // the response instead of reading the rest.
                        self.discarded = self.discarded.saturating_add(data.len() as u64);
                        if self.discarded > self.options.max_discard_bytes {
                            self.abandoned = true;
                            self.close = true;
                        }
                    }
                },
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
    fn poll_write_out(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), ServeError>> {
        let io_error = |e| ServeError::from_io(e, false);
        while !self.output.is_empty() {
            let write = core::pin::Pin::new(&mut self.io).poll_write(cx, &self.output);
            let n = ready!(write).map_err(io_error)?;
            if n == 0 {
                return Poll::Ready(Err(ServeError::Io(io::ErrorKind::WriteZero.into())));
            }
            self.output.advance(n);
        }
        core::pin::Pin::new(&mut self.io)
            .poll_flush(cx)
            .map_err(io_error)
    }

    /// What goes on beside the service and the response body: output written, request body
    /// fed. Only errors are reported; progress wakes the task.
    fn poll_side_work(&mut self, cx: &mut Context<'_>) -> Result<(), ServeError> {
        if let Poll::Ready(Err(e)) = self.poll_write_out(cx) {
            return Err(e);
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
            if self.output.len() >= self.options.write_high_water {
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
