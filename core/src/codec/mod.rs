//! [`tokio_util::codec`] codecs for HTTP/1.1 (feature `tokio`): [`ServerCodec`] reads requests
//! and writes responses, [`ClientCodec`] writes requests and reads responses.
//!
//! Both decode with [`stream::Decoder`](crate::stream::Decoder), so they have its limits,
//! pipelining and errors, and hand out owned, `Send` frames without copying bytes out of the
//! read buffer:
//!
//! - a head is a frozen [`Bytes`] with the parsed [`Request`] or
//!   [`Response`] whose spans index it ([`RequestHead`], [`ResponseHead`]);
//! - body data (after chunked decoding) is a [`Bytes`] slice of the read buffer, never copied;
//! - a trailer section is a [`Bytes`] with its [`Trailers`].
//!
//! The frames share the read buffer: once they are all dropped, `BytesMut` reuses it, so a
//! connection that has grown its buffer decodes further messages without allocating. A frame
//! kept alive keeps its part of the buffer, and the next read then allocates a new one.
//!
//! Back-pressure is the reader's: `FramedRead` reads from the socket only when `decode` has
//! nothing more to give, and body data is given as it arrives, so a body is never buffered
//! whole. A head or trailer section stays in the read buffer until it is complete, bounded by
//! [`Limits::max_head_bytes`](crate::Limits::max_head_bytes) and
//! [`Limits::max_trailer_bytes`](crate::Limits::max_trailer_bytes); bodies are bounded by
//! [`Limits::max_body_bytes`](crate::Limits::max_body_bytes). Time is bounded by
//! [`Deadlines`] under the `Framed`: a deadline for each whole head, which also closes an idle
//! kept-alive connection, and stall timeouts with a floor of bytes per window for a peer that
//! stops sending or reading, or trickles, as in the server below.
//!
//! Writing takes a whole message ([`Reply`], [`Call`]) or streams one: a head ([`ReplyHead`],
//! [`CallHead`]) that declares a [`BodyLength`], then [`BodyPart`]s: data written as chunks or
//! checked against the declared Content-Length, trailer fields (chunked only) and the end. A
//! sequence that would put wrong bytes on the wire (more or less data than declared, data
//! where the head allows none, a part out of order) is refused with [`CodecError::Misuse`]
//! and writes nothing.
//!
//! A decoding error carries the status a server should answer ([`CodecError::status`]);
//! answer it and close the connection, as nothing after a malformed request can be trusted.
//!
//! ```
//! use bytes::BytesMut;
//! use httpspan::codec::{CodecError, Reply, RequestFrame, ServerCodec};
//! use tokio_util::codec::{Decoder, Encoder};
//!
//! let mut codec = ServerCodec::new(httpspan::Limits::DEFAULT);
//! let mut input = BytesMut::from(
//!     &b"POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n\
//!        3\r\nabc\r\n0\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\n"[..],
//! );
//! let Some(RequestFrame::Head(head)) = codec.decode(&mut input)? else { panic!() };
//! assert_eq!(head.bytes_of(head.request().target()), b"/echo");
//! let Some(RequestFrame::Body(data)) = codec.decode(&mut input)? else { panic!() };
//! assert_eq!(&data[..], b"abc"); // a slice of `input`'s buffer, not a copy
//! assert!(matches!(codec.decode(&mut input)?, Some(RequestFrame::End { last: false })));
//! assert!(matches!(codec.decode(&mut input)?, Some(RequestFrame::Head(_))));
//! assert!(codec.decode(&mut input)?.is_none()); // the body's byte has not arrived
//!
//! let mut output = BytesMut::new();
//! let headers: &[(&[u8], &[u8])] = &[(b"Content-Type", b"text/plain")];
//! codec.encode(Reply::new(200, headers, b"abc"), &mut output)?;
//! assert_eq!(
//!     &output[..],
//!     b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nabc"
//! );
//!
//! // A request the parser rejects: answer the error's status, then close.
//! let mut codec = ServerCodec::new(httpspan::Limits::DEFAULT);
//! let mut input = BytesMut::from(&b"GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n"[..]);
//! let err = codec.decode(&mut input).unwrap_err();
//! assert_eq!(err.status(), Some(400));
//! # Ok::<(), CodecError>(())
//! ```
//!
//! # Example: a server and a client on `Framed`
//!
//! With [`Framed`](tokio_util::codec::Framed), a connection is a `Stream` of frames and a
//! `Sink` of messages (`StreamExt` and `SinkExt` come from the `futures-util` crate). The
//! server answers each request with its target; the client sends two requests pipelined,
//! then reads both answers. `examples/proxy.rs` in this package puts the two codecs together
//! into a reverse proxy that streams bodies through.
//!
//! ```
//! use futures_util::{SinkExt, StreamExt};
//! use std::time::Duration;
//! use httpspan::codec::{Call, ClientCodec, CodecError, Deadlines, Reply, RequestFrame, ResponseFrame, ServerCodec};
//! use httpspan::Limits;
//! use tokio::net::{TcpListener, TcpStream};
//! use tokio::time::Instant;
//! use tokio_util::codec::Framed;
//!
//! async fn serve(stream: TcpStream) -> Result<(), CodecError> {
//!     // Reads and writes must move 1 KiB per 60 s of waiting; each whole head is due within 30 s.
//!     let stall = Some(Duration::from_secs(60));
//!     let head_due = || Some(Instant::now() + Duration::from_secs(30));
//!     let mut io = Deadlines::new(stream, stall, stall);
//!     io.set_read_min_bytes(1024);
//!     io.set_write_min_bytes(1024);
//!     let mut conn = Framed::new(io, ServerCodec::new(Limits::DEFAULT));
//!     conn.get_mut().set_read_deadline(head_due());
//!     let mut target = Vec::new();
//!     while let Some(frame) = conn.next().await {
//!         match frame? {
//!             RequestFrame::Head(head) => {
//!                 conn.get_mut().set_read_deadline(None);
//!                 target = head.bytes_of(head.request().target()).to_vec();
//!             }
//!             RequestFrame::End { last } => {
//!                 let headers: &[(&[u8], &[u8])] = &[(b"Content-Type", b"text/plain")];
//!                 conn.send(Reply::new(200, headers, &target)).await?;
//!                 if last {
//!                     break; // the request asked to close the connection
//!                 }
//!                 conn.get_mut().set_read_deadline(head_due());
//!             }
//!             _ => {} // body and trailers are not read here
//!         }
//!     }
//!     Ok(())
//! }
//!
//! # let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
//! # runtime.block_on(async {
//! let listener = TcpListener::bind("127.0.0.1:0").await?;
//! let addr = listener.local_addr()?;
//! let server = tokio::spawn(async move { serve(listener.accept().await?.0).await });
//!
//! let mut client = Framed::new(TcpStream::connect(addr).await?, ClientCodec::new(Limits::DEFAULT));
//! let host: &[(&[u8], &[u8])] = &[(b"Host", b"example.com")];
//! // `feed` queues a message, `send` queues one and writes all: both go out in one write.
//! client.feed(Call::new(b"GET", b"/a", host, b"")).await?;
//! client.send(Call::new(b"GET", b"/b", host, b"")).await?;
//! let mut bodies = Vec::new();
//! while bodies.len() < 2 {
//!     match client.next().await.ok_or(CodecError::Incomplete)?? {
//!         ResponseFrame::Head(head) => assert_eq!(head.response().status(), 200),
//!         ResponseFrame::Body(data) => bodies.push(data),
//!         _ => {}
//!     }
//! }
//! assert_eq!(bodies, [&b"/a"[..], b"/b"]);
//! drop(client); // the server's loop ends when the connection closes
//! server.await.expect("the server task panicked")?;
//! # Ok::<(), CodecError>(())
//! # })?;
//! # Ok::<(), CodecError>(())
//! ```

mod client;
mod deadline;
mod encode;
mod read;
mod server;

use std::fmt;
use std::io;

use bytes::Bytes;

use crate::error::Error;
use crate::request::Request;
use crate::response::Response;
use crate::span::Span;
use crate::trailers::Trailers;
use crate::writer::WriteError;

pub use client::{Call, CallHead, ClientCodec, ResponseFrame, MAX_PIPELINED};
pub use deadline::{Deadlines, Expired};
pub use server::{Reply, ReplyHead, RequestFrame, ServerCodec};

#[cfg(feature = "tower")]
pub(crate) use encode::Outgoing;

/// The bytes of `span` in `bytes` as an owned [`Bytes`] sharing its buffer, or empty when the
/// span is not inside `bytes`.
fn share(bytes: &Bytes, span: Span) -> Bytes {
    match span.get(bytes) {
        Some(_) => bytes.slice(span.range()),
        None => Bytes::new(),
    }
}

macro_rules! head_type {
    ($(#[$doc:meta])* $name:ident, $parsed:ident, $accessor:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug)]
        pub struct $name {
            bytes: Bytes,
            parsed: $parsed,
        }

        impl $name {
            #[doc = concat!("The parsed head; its spans index [`bytes`](Self::bytes).")]
            pub fn $accessor(&self) -> &$parsed {
                &self.parsed
            }

            /// The head as received, up to and including its empty line.
            pub fn bytes(&self) -> &Bytes {
                &self.bytes
            }

            /// The bytes of `span` (a span of this head); empty when `span` is not inside it.
            pub fn bytes_of(&self, span: Span) -> &[u8] {
                span.get(&self.bytes).unwrap_or_default()
            }

            /// The bytes of `span` as an owned [`Bytes`] sharing the head's buffer (no copy);
            /// empty when `span` is not inside the head.
            pub fn shared_bytes_of(&self, span: Span) -> Bytes {
                share(&self.bytes, span)
            }
        }
    };
}

head_type! {
    /// A request head: the parsed [`Request`] and the bytes its spans index.
    RequestHead, Request, request
}

head_type! {
    /// A response head: the parsed [`Response`] and the bytes its spans index.
    ResponseHead, Response, response
}

impl RequestHead {
    /// Whether the request asks for `100 Continue` before it sends its body
    /// (`Expect: 100-continue`, RFC 9110 10.1.1): answer with a [`ReplyHead`] of status 100,
    /// or with the final response and then close or read the body that may follow.
    pub fn expects_continue(&self) -> bool {
        self.parsed.expects_continue(&self.bytes)
    }
}

/// A trailer section: the parsed [`Trailers`] and the bytes their spans index.
#[derive(Clone, Debug)]
pub struct TrailerSection {
    bytes: Bytes,
    trailers: Trailers,
}

impl TrailerSection {
    /// The parsed trailer fields; their spans index [`bytes`](Self::bytes).
    pub fn trailers(&self) -> &Trailers {
        &self.trailers
    }

    /// The trailer section as received, up to and including its empty line.
    pub fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// The bytes of `span` (a span of this section); empty when `span` is not inside it.
    pub fn bytes_of(&self, span: Span) -> &[u8] {
        span.get(&self.bytes).unwrap_or_default()
    }
}

/// How the body of a streamed message ([`ReplyHead`], [`CallHead`]) is delimited. More ways may
/// be added (a body the encoder frames by itself), so a `match` needs a wildcard arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BodyLength {
    /// `Content-Length`: exactly this many bytes of [`BodyPart::Data`] follow, no more, no
    /// less. `Fixed(0)` in a response without content (1xx, 204) writes no field.
    Fixed(u64),
    /// `Transfer-Encoding: chunked`: each [`BodyPart::Data`] is written as a chunk, and
    /// [`BodyPart::Trailers`] may follow. Refused in the answer to an HTTP/1.0 request.
    Chunked,
    /// Responses only: no framing field; the body ends when the server closes the connection,
    /// so [`BodyPart::End`] ends the connection's HTTP as well. In an answer without a body
    /// (to HEAD, 304) it only leaves out the framing field, and the connection goes on.
    UntilClose,
}

/// A part of a streamed message's body, after its head. More kinds of part may be added (a
/// chunk with extensions), so a `match` needs a wildcard arm.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum BodyPart<'a> {
    /// Body data: a chunk of a chunked body, or the next bytes of a Content-Length body.
    /// Empty data writes nothing.
    Data(&'a [u8]),
    /// Trailer fields, name and value (chunked bodies only); written with the last chunk,
    /// after which only [`End`](Self::End) may follow.
    Trailers(&'a [(&'a [u8], &'a [u8])]),
    /// The body is complete: writes the last chunk of a chunked body, checks that a
    /// Content-Length body got all its bytes.
    End,
}

/// A call sequence that would write a wrong message; nothing was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Misuse {
    /// The read buffer was shortened between `decode` calls, below bytes the codec had
    /// consumed but not yet handed out.
    ReadBufferShrunk {
        /// Bytes the codec holds at the front of the buffer.
        held: usize,
        /// The buffer's length at this call.
        len: usize,
    },
    /// A head while the previous message's body is not ended, or a body part with no head
    /// before it.
    OutOfOrder,
    /// More data than the declared Content-Length.
    BodyTooLong {
        /// Bytes the head declared and not yet written.
        remaining: u64,
        /// Bytes of the refused data.
        given: usize,
    },
    /// [`BodyPart::End`] before all the bytes the Content-Length declared.
    BodyTooShort {
        /// Bytes still missing.
        missing: u64,
    },
    /// Data after a head whose message has no body (a response to HEAD, 1xx, 204, 304).
    NoBodyAllowed,
    /// Trailer fields in a body that is not chunked.
    TrailersNeedChunked,
    /// [`BodyLength::UntilClose`] in a request, which must declare its length.
    UntilCloseInRequest,
    /// [`BodyLength::Chunked`] in the answer to an HTTP/1.0 request, which cannot read it
    /// (RFC 9112 6.1): answer with a Content-Length or [`BodyLength::UntilClose`].
    ChunkedToHttp10,
    /// An interim (1xx) answer other than 101 to an HTTP/1.0 request, which has none
    /// (RFC 9110 15.2): send only the final answer.
    InterimToHttp10,
    /// More pipelined requests without their response than the codec remembers
    /// ([`MAX_PIPELINED`]).
    TooManyPipelined,
    /// A message after a 101 answer, a CONNECT tunnel or a body that ends with the connection:
    /// the connection no longer carries HTTP/1.1.
    NotHttp,
}

impl fmt::Display for Misuse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Misuse::ReadBufferShrunk { held, len } => write!(
                f,
                "the read buffer was shortened to {len} bytes below the {held} the codec holds"
            ),
            Misuse::OutOfOrder => f.write_str("a message part out of order"),
            Misuse::BodyTooLong { remaining, given } => write!(
                f,
                "{given} bytes of body data where the Content-Length leaves {remaining}"
            ),
            Misuse::BodyTooShort { missing } => {
                write!(
                    f,
                    "the body ended {missing} bytes short of its Content-Length"
                )
            }
            Misuse::NoBodyAllowed => f.write_str("body data in a message that has no body"),
            Misuse::TrailersNeedChunked => {
                f.write_str("trailer fields in a body that is not chunked")
            }
            Misuse::UntilCloseInRequest => {
                f.write_str("a request body must be chunked or have a Content-Length")
            }
            Misuse::ChunkedToHttp10 => {
                f.write_str("a chunked answer to an HTTP/1.0 request (RFC 9112 6.1)")
            }
            Misuse::InterimToHttp10 => {
                f.write_str("an interim answer to an HTTP/1.0 request (RFC 9110 15.2)")
            }
            Misuse::TooManyPipelined => write!(
                f,
                "more than {MAX_PIPELINED} requests sent without their responses"
            ),
            Misuse::NotHttp => f.write_str("the connection no longer carries HTTP/1.1"),
        }
    }
}

impl std::error::Error for Misuse {}

/// Why a codec stopped.
#[derive(Debug)]
#[non_exhaustive]
pub enum CodecError {
    /// The message broke a rule of HTTP/1.1 or a limit: a server answers [`Error::status`] and
    /// closes; a client drops the connection.
    Parse(Error),
    /// The connection ended inside a message that was valid so far.
    Incomplete,
    /// A head or trailer field the writer refused (an invalid field, a framing field, a body
    /// where the status allows none).
    Write(WriteError),
    /// The codec was called in a way that would read or write wrong bytes.
    Misuse(Misuse),
    /// Reading or writing the connection failed.
    Io(io::Error),
}

impl CodecError {
    /// The status code a server should answer before closing: 400, 413, 414, 431 or 505 for a
    /// request it rejects; `None` when no answer is due (the client left, the socket failed, or
    /// the server's own reply was invalid).
    #[must_use]
    pub fn status(&self) -> Option<u16> {
        match self {
            CodecError::Parse(e) => Some(e.status()),
            _ => None,
        }
    }
}

// A variant that wraps another error either says only its own sentence and returns the inner
// error as `source()`, or is transparent (Display and source of the inner error), so that an
// error-chain printer (anyhow, eyre) never shows one line twice.
impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CodecError::Parse(e) => e.fmt(f),
            CodecError::Incomplete => f.write_str("the connection ended inside a message"),
            CodecError::Write(_) => f.write_str("the writer refused the message"),
            CodecError::Misuse(_) => f.write_str("codec misuse"),
            CodecError::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for CodecError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CodecError::Write(e) => Some(e),
            CodecError::Misuse(e) => Some(e),
            // Transparent: the inner error's own source, not the inner error again.
            CodecError::Io(e) => e.source(),
            CodecError::Parse(_) | CodecError::Incomplete => None,
        }
    }
}

impl From<io::Error> for CodecError {
    fn from(e: io::Error) -> Self {
        CodecError::Io(e)
    }
}

impl From<Error> for CodecError {
    fn from(e: Error) -> Self {
        CodecError::Parse(e)
    }
}

impl From<WriteError> for CodecError {
    fn from(e: WriteError) -> Self {
        CodecError::Write(e)
    }
}

impl From<Misuse> for CodecError {
    fn from(e: Misuse) -> Self {
        CodecError::Misuse(e)
    }
}
