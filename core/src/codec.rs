//! A [`tokio_util::codec`] codec for HTTP/1.1 servers (feature `tokio`): requests in, responses
//! out.
//!
//! [`ServerCodec`] decodes with [`stream::Decoder`](crate::stream::Decoder), so it has its
//! limits, pipelining and errors, and hands out owned, `Send` frames without copying bytes out
//! of the read buffer:
//!
//! - a head is a frozen [`Bytes`] with the parsed [`Request`] whose spans index it
//!   ([`RequestHead`]);
//! - body data (after chunked decoding) is a [`Bytes`] slice of the read buffer, never copied;
//! - a trailer section is a [`Bytes`] with its [`Trailers`].
//!
//! The frames share the read buffer: once they are all dropped, `BytesMut` reuses it, so a
//! connection that has grown its buffer decodes further requests without allocating. A frame
//! kept alive keeps its part of the buffer, and the next read then allocates a new one.
//!
//! Back-pressure is the reader's: `FramedRead` reads from the socket only when `decode` has
//! nothing more to give, and body data is given as it arrives, so a body is never buffered
//! whole. A head or trailer section stays in the read buffer until it is complete, bounded by
//! [`Limits::max_head_bytes`] and [`Limits::max_trailer_bytes`]; bodies are bounded by
//! [`Limits::max_body_bytes`].
//!
//! A decoding error carries the status the server should answer ([`CodecError::status`]);
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
//! assert_eq!(head.get(head.request().target()), b"/echo");
//! let Some(RequestFrame::Body(data)) = codec.decode(&mut input)? else { panic!() };
//! assert_eq!(&data[..], b"abc"); // a slice of `input`'s buffer, not a copy
//! assert!(matches!(codec.decode(&mut input)?, Some(RequestFrame::End { last: false })));
//! assert!(matches!(codec.decode(&mut input)?, Some(RequestFrame::Head(_))));
//! assert!(codec.decode(&mut input)?.is_none()); // the body's byte has not arrived
//!
//! let mut output = BytesMut::new();
//! let headers: &[(&[u8], &[u8])] = &[(b"Content-Type", b"text/plain")];
//! codec.encode(Reply { status: 200, headers, body: b"abc", head_only: false }, &mut output)?;
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

use std::boxed::Box;
use std::fmt;
use std::io;
use std::vec;

use bytes::{Buf, Bytes, BytesMut};

use crate::error::Error;
use crate::framing::{self, Content};
use crate::limits::Limits;
use crate::request::Request;
use crate::span::Span;
use crate::stream::{buffer_len, Decoder, Event, MessageKind};
use crate::trailers::Trailers;
use crate::writer::{ResponseWriter, WriteError};

/// What [`ServerCodec`] decodes: the parts of each request, in order.
#[derive(Clone, Debug)]
pub enum RequestFrame {
    /// A request head.
    Head(RequestHead),
    /// Body data, after chunked decoding: a slice of the read buffer.
    Body(Bytes),
    /// A non-empty trailer section.
    Trailers(TrailerSection),
    /// The request is complete. `last`: the connection does not carry another request (the
    /// request asked to close, or was HTTP/1.0 without keep-alive); the codec decodes nothing
    /// after it, and the server closes after its answer.
    End {
        /// No request follows this one on the connection.
        last: bool,
    },
}

/// A request head: the parsed [`Request`] and the bytes its spans index.
#[derive(Clone, Debug)]
pub struct RequestHead {
    bytes: Bytes,
    request: Request,
}

impl RequestHead {
    /// The parsed head; its spans index [`bytes`](Self::bytes).
    pub fn request(&self) -> &Request {
        &self.request
    }

    /// The head as received, up to and including its empty line.
    pub fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// The bytes of `span` (a span of this head).
    pub fn get(&self, span: Span) -> &[u8] {
        span.as_bytes(&self.bytes)
    }

    /// The bytes of `span` as an owned [`Bytes`] sharing the head's buffer (no copy).
    pub fn slice(&self, span: Span) -> Bytes {
        self.bytes.slice(span.range())
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
}

/// Why [`ServerCodec`] stopped.
#[derive(Debug)]
pub enum CodecError {
    /// The request broke a rule of HTTP/1.1 or a limit: answer [`Error::status`] and close.
    Parse(Error),
    /// The connection ended inside a request that was valid so far: there is nobody to answer.
    Incomplete,
    /// A [`Reply`] the writer refused (an invalid field, a body where the status allows none).
    Write(WriteError),
    /// Reading or writing the connection failed.
    Io(io::Error),
}

impl CodecError {
    /// The status code a server should answer before closing: 400, 413, 414, 431 or 505 for a
    /// request it rejects; `None` when no answer is due (the client left, the socket failed, or
    /// the server's own reply was invalid).
    pub fn status(&self) -> Option<u16> {
        match self {
            CodecError::Parse(e) => Some(e.status()),
            _ => None,
        }
    }
}

impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CodecError::Parse(e) => e.fmt(f),
            CodecError::Incomplete => f.write_str("the connection ended inside a request"),
            CodecError::Write(e) => write!(f, "invalid reply: {e}"),
            CodecError::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for CodecError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CodecError::Parse(e) => Some(e),
            CodecError::Write(e) => Some(e),
            CodecError::Io(e) => Some(e),
            CodecError::Incomplete => None,
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

/// A response for [`ServerCodec`]'s encoder: written with [`ResponseWriter`], which refuses
/// anything a strict parser would reject, with a `Content-Length` for `body`.
#[derive(Clone, Copy, Debug)]
pub struct Reply<'a> {
    /// The status code, 100 to 599; the reason phrase is the registered one.
    pub status: u16,
    /// Field lines, name and value. Content-Length and Transfer-Encoding are not allowed here:
    /// the encoder writes the framing.
    pub headers: &'a [(&'a [u8], &'a [u8])],
    /// The content.
    pub body: &'a [u8],
    /// For a HEAD request: announce `body`'s length but send no body.
    pub head_only: bool,
}

/// The room a status line, a Content-Length line and the empty line take, at most.
const FRAMING_ROOM: usize = 64;

/// A `tokio_util` codec for the server side of an HTTP/1.1 connection: a [`Decoder`] of
/// requests into [`RequestFrame`]s and an [`Encoder`] of [`Reply`]s. One per connection.
///
/// [`Decoder`]: tokio_util::codec::Decoder
/// [`Encoder`]: tokio_util::codec::Encoder
#[derive(Clone, Debug)]
pub struct ServerCodec {
    decoder: Decoder<Box<[u8]>>,
    /// Bytes at the front of the read buffer that the decoder has consumed but that no frame
    /// has taken yet: the head or trailer section being read, or chunk framing. Left in place
    /// so that a complete head or trailer section is handed out as one slice of the buffer.
    consumed: usize,
}

impl ServerCodec {
    /// A codec with these limits. It holds the stream decoder's buffer for heads and trailer
    /// sections ([`buffer_len`] bytes: about 72 KiB with the default limits; lower
    /// [`Limits::max_trailer_bytes`] to shrink it).
    pub fn new(limits: Limits) -> Self {
        let buf = vec![0; buffer_len(&limits)].into_boxed_slice();
        ServerCodec {
            decoder: Decoder::new(MessageKind::Request, buf, limits),
            consumed: 0,
        }
    }

    /// Takes the frame that ends `used` bytes into the unconsumed part of `src`.
    fn frame(&mut self, src: &mut BytesMut, used: usize, event: Event) -> Option<RequestFrame> {
        let end = self.consumed + used;
        self.consumed = 0;
        match event {
            Event::Head => {
                let bytes = src.split_to(end).freeze();
                debug_assert_eq!(&bytes[..], self.decoder.head_bytes());
                let request = self.decoder.request().expect("a request decoder").clone();
                Some(RequestFrame::Head(RequestHead { bytes, request }))
            }
            Event::Body(range) => {
                // Chunk framing before the data is dropped; the bytes consumed after it (the
                // CRLF ending a chunk) wait for the next frame.
                src.advance(end - used + range.start);
                let data = src.split_to(range.len()).freeze();
                self.consumed = used - range.end;
                Some(RequestFrame::Body(data))
            }
            Event::Trailers => {
                let len = self.decoder.trailer_bytes().len();
                src.advance(end - len);
                let bytes = src.split_to(len).freeze();
                let trailers = self.decoder.trailers().clone();
                Some(RequestFrame::Trailers(TrailerSection { bytes, trailers }))
            }
            Event::MessageEnd => {
                src.advance(end);
                let request = self.decoder.request().expect("a request decoder");
                Some(RequestFrame::End {
                    last: !request.keep_alive(),
                })
            }
            // NeedMore: all of `src` is consumed; keep it until its frame is complete. Closed:
            // nothing more is decoded (after a last request); the bytes are left in `src`.
            _ => {
                self.consumed = end;
                None
            }
        }
    }
}

impl tokio_util::codec::Decoder for ServerCodec {
    type Item = RequestFrame;
    type Error = CodecError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<RequestFrame>, CodecError> {
        let (used, event) = self.decoder.decode(&src[self.consumed..])?;
        Ok(self.frame(src, used, event))
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<RequestFrame>, CodecError> {
        if let Some(frame) = self.decode(src)? {
            return Ok(Some(frame));
        }
        match self.decoder.finish()? {
            Event::MessageEnd => Ok(self.frame(src, 0, Event::MessageEnd)),
            Event::Incomplete => Err(CodecError::Incomplete),
            _ => Ok(None),
        }
    }
}

impl tokio_util::codec::Encoder<Reply<'_>> for ServerCodec {
    type Error = CodecError;

    fn encode(&mut self, reply: Reply<'_>, dst: &mut BytesMut) -> Result<(), CodecError> {
        let fields: usize = reply
            .headers
            .iter()
            .map(|(n, v)| n.len() + v.len() + 4)
            .sum();
        let start = dst.len();
        dst.resize(start + FRAMING_ROOM + fields, 0);
        let head = write_head(&mut dst[start..], &reply);
        dst.truncate(start + head.as_ref().map_or(0, |&len| len));
        head?;
        // 304 announces the length of content it does not send, like a response to HEAD.
        if !reply.head_only && reply.status != 304 {
            dst.extend_from_slice(reply.body);
        }
        Ok(())
    }
}

/// Writes the head of `reply` into `buf` and returns its length.
fn write_head(buf: &mut [u8], reply: &Reply<'_>) -> Result<usize, WriteError> {
    let mut res = ResponseWriter::new(buf, reply.status)?;
    for (name, value) in reply.headers {
        res.header(name, value)?;
    }
    // 1xx and 204 have no content and no Content-Length (RFC 9110 8.6); an empty body is
    // written as none, and the writer refuses a body where the status allows none.
    let no_content = framing::response_content(reply.status) == Content::None;
    if !(no_content && reply.body.is_empty()) {
        res.content_length(reply.body.len() as u64)?;
    }
    res.finish()
}
