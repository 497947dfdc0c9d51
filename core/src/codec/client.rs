//! [`ClientCodec`]: requests out, responses in.

use bytes::{Bytes, BytesMut};

use super::encode::{append, Declared, Outgoing};
use super::read::{Reader, Taken};
use super::{BodyLength, BodyPart, CodecError, Misuse, ResponseHead, TrailerSection};
use crate::framing::Answering;
use crate::limits::Limits;
use crate::stream::MessageKind;
use crate::writer::{RequestWriter, WriteError};

/// How many requests a [`ClientCodec`] can have sent and not yet seen the final response to.
/// Each costs one byte (its method's effect on the response's framing).
pub const MAX_PIPELINED: usize = 64;

/// What [`ClientCodec`] decodes: the parts of each response, in order. More kinds of frame
/// may be added, so a `match` needs a wildcard arm.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum ResponseFrame {
    /// An interim (1xx) response other than 101: `100 Continue` (send the body now),
    /// `103 Early Hints`, ... The final response to the same request follows.
    Interim(ResponseHead),
    /// The head of a final response (2xx to 5xx, or 101).
    Head(ResponseHead),
    /// Body data, after chunked decoding: a slice of the read buffer.
    Body(Bytes),
    /// A non-empty trailer section.
    Trailers(TrailerSection),
    /// The response is complete. `last`: the connection carries no more responses: the
    /// server closes it, or it switched protocols (a 101, or a 2xx answer to CONNECT), in
    /// which case the bytes after the head are the new protocol's and stay in the read buffer.
    End {
        /// No response follows this one on the connection.
        last: bool,
    },
}

/// A whole request for [`ClientCodec`]'s encoder: the request-line, fields and a body with its
/// `Content-Length` (none for an empty body of a method that defines no content, such as GET).
///
/// Built with [`Call::new`], so that a field can be added.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Call<'a> {
    /// The method, a token: `GET`, `POST`, ...
    pub method: &'a [u8],
    /// The request target, as the parser accepts it with `method`.
    pub target: &'a [u8],
    /// Field lines, name and value; exactly one Host. Content-Length and Transfer-Encoding are
    /// written by the encoder.
    pub headers: &'a [(&'a [u8], &'a [u8])],
    /// The content.
    pub body: &'a [u8],
}

/// The head of a streamed request for [`ClientCodec`]'s encoder; its body follows as
/// [`BodyPart`]s, ended by [`BodyPart::End`]. [`BodyLength::UntilClose`] is refused: a request
/// body must declare its end.
///
/// Built with [`CallHead::new`], so that a field can be added.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct CallHead<'a> {
    /// The method, a token.
    pub method: &'a [u8],
    /// The request target, as the parser accepts it with `method`.
    pub target: &'a [u8],
    /// Field lines, name and value; exactly one Host, no Content-Length or Transfer-Encoding.
    pub headers: &'a [(&'a [u8], &'a [u8])],
    /// How the body is delimited; `Fixed(0)` for none.
    pub length: BodyLength,
}

impl<'a> Call<'a> {
    /// A request for `target` with `method`, `headers` and `body`.
    #[must_use]
    pub const fn new(
        method: &'a [u8],
        target: &'a [u8],
        headers: &'a [(&'a [u8], &'a [u8])],
        body: &'a [u8],
    ) -> Self {
        Call {
            method,
            target,
            headers,
            body,
        }
    }
}

impl<'a> CallHead<'a> {
    /// A request head for `target` with `method` and `headers` whose body is delimited by
    /// `length`.
    #[must_use]
    pub const fn new(
        method: &'a [u8],
        target: &'a [u8],
        headers: &'a [(&'a [u8], &'a [u8])],
        length: BodyLength,
    ) -> Self {
        CallHead {
            method,
            target,
            headers,
            length,
        }
    }
}

/// A method that frames the response to it as `answering` does, for the stream decoder.
fn method_of(answering: Answering) -> &'static [u8] {
    match answering {
        Answering::Other => b"GET",
        Answering::Head => b"HEAD",
        Answering::Connect => b"CONNECT",
    }
}

/// The requests sent and not yet answered, oldest first: a ring of fixed size.
#[derive(Clone, Debug)]
struct Pending {
    ring: [Answering; MAX_PIPELINED],
    front: usize,
    len: usize,
}

impl Pending {
    fn front(&self) -> Answering {
        match self.len {
            // A response to no request (a 408 before closing) is read as a GET's.
            0 => Answering::Other,
            _ => self.ring[self.front],
        }
    }

    fn is_full(&self) -> bool {
        self.len == MAX_PIPELINED
    }

    fn push(&mut self, answering: Answering) {
        debug_assert!(!self.is_full());
        self.ring[(self.front + self.len) % MAX_PIPELINED] = answering;
        self.len += 1;
    }

    fn pop(&mut self) {
        if self.len > 0 {
            self.front = (self.front + 1) % MAX_PIPELINED;
            self.len -= 1;
        }
    }
}

/// A `tokio_util` codec for the client side of an HTTP/1.1 connection: an [`Encoder`] of
/// whole [`Call`]s or of streamed requests ([`CallHead`], then [`BodyPart`]s) and a
/// [`Decoder`] of responses into [`ResponseFrame`]s. One per connection.
///
/// It remembers the method of each request sent (up to [`MAX_PIPELINED`] at a time), so that
/// the answer to a HEAD has no body and a 2xx answer to CONNECT ends the HTTP framing, and it
/// hands out 1xx answers as [`ResponseFrame::Interim`].
///
/// ```
/// use bytes::BytesMut;
/// use httpspan::codec::{Call, ClientCodec, ResponseFrame};
/// use tokio_util::codec::{Decoder, Encoder};
///
/// let mut codec = ClientCodec::new(httpspan::Limits::DEFAULT);
/// let mut out = BytesMut::new();
/// let headers: &[(&[u8], &[u8])] = &[(b"Host", b"example.com")];
/// codec.encode(Call::new(b"HEAD", b"/", headers, b""), &mut out)?;
/// codec.encode(Call::new(b"GET", b"/", headers, b""), &mut out)?;
/// assert!(out.starts_with(b"HEAD / HTTP/1.1\r\nHost: example.com\r\n\r\nGET /"));
///
/// let mut input = BytesMut::from(
///     &b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n\
///        HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"[..],
/// );
/// // The answer to HEAD announces 5 bytes and has none.
/// assert!(matches!(codec.decode(&mut input)?, Some(ResponseFrame::Head(_))));
/// assert!(matches!(codec.decode(&mut input)?, Some(ResponseFrame::End { last: false })));
/// assert!(matches!(codec.decode(&mut input)?, Some(ResponseFrame::Head(_))));
/// let Some(ResponseFrame::Body(data)) = codec.decode(&mut input)? else { panic!() };
/// assert_eq!(&data[..], b"hello");
/// # Ok::<(), httpspan::codec::CodecError>(())
/// ```
///
/// [`Decoder`]: tokio_util::codec::Decoder
/// [`Encoder`]: tokio_util::codec::Encoder
#[derive(Clone, Debug)]
pub struct ClientCodec {
    reader: Reader,
    outgoing: Outgoing,
    pending: Pending,
}

impl ClientCodec {
    /// A codec with these limits for the responses it reads. Allocates nothing until the
    /// first `decode`.
    #[must_use]
    pub fn new(limits: Limits) -> Self {
        ClientCodec {
            reader: Reader::new(MessageKind::Response, limits),
            outgoing: Outgoing::Idle,
            pending: Pending {
                ring: [Answering::Other; MAX_PIPELINED],
                front: 0,
                len: 0,
            },
        }
    }

    /// Requests sent whose final response has not been read yet.
    #[must_use]
    pub fn in_flight(&self) -> usize {
        self.pending.len
    }

    fn decode_with(
        &mut self,
        src: &mut BytesMut,
        next: fn(&mut Reader, &mut BytesMut) -> Result<Taken, CodecError>,
    ) -> Result<Option<ResponseFrame>, CodecError> {
        loop {
            // The request answered changes only when a final response ends, so telling the
            // decoder on every call tells it before each head without a flag to keep.
            let method = method_of(self.pending.front());
            self.reader.decoder.set_request_method(method);
            let taken = next(&mut self.reader, src)?;
            let decoder = &self.reader.decoder;
            let response = || decoder.response().expect("a response decoder");
            return Ok(Some(match taken {
                Taken::Head(bytes) => {
                    let head = ResponseHead {
                        bytes,
                        parsed: response().clone(),
                    };
                    match head.parsed.is_interim() {
                        true => ResponseFrame::Interim(head),
                        false => ResponseFrame::Head(head),
                    }
                }
                Taken::Body(data) => ResponseFrame::Body(data),
                Taken::Trailers(bytes) => ResponseFrame::Trailers(self.reader.section(bytes)),
                Taken::End => {
                    let res = response();
                    // An interim response's end is not a frame; the final one follows.
                    if res.is_interim() {
                        continue;
                    }
                    self.pending.pop();
                    if res.switches_protocols() {
                        self.outgoing = Outgoing::Done;
                    }
                    ResponseFrame::End {
                        last: !res.keep_alive() || res.switches_protocols(),
                    }
                }
                Taken::Nothing => return Ok(None),
            }));
        }
    }

    /// Checks that a request may be sent now; returns what its method does to its response.
    fn before_request(&self, method: &[u8]) -> Result<Answering, CodecError> {
        self.outgoing.check_head()?;
        if self.pending.is_full() {
            return Err(Misuse::TooManyPipelined.into());
        }
        Ok(Answering::of(method))
    }
}

impl tokio_util::codec::Decoder for ClientCodec {
    type Item = ResponseFrame;
    type Error = CodecError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<ResponseFrame>, CodecError> {
        self.decode_with(src, Reader::next)
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<ResponseFrame>, CodecError> {
        self.decode_with(src, Reader::next_eof)
    }
}

/// Whether `method` defines a meaning for content (RFC 9110 8.6): an empty body is then sent
/// as `Content-Length: 0`, and otherwise with no field.
fn defines_content(method: &[u8]) -> bool {
    matches!(method, b"POST" | b"PUT" | b"PATCH")
}

impl tokio_util::codec::Encoder<Call<'_>> for ClientCodec {
    type Error = CodecError;

    /// A streamed request whose body is `call.body` with its Content-Length.
    fn encode(&mut self, call: Call<'_>, dst: &mut BytesMut) -> Result<(), CodecError> {
        let head = CallHead::new(
            call.method,
            call.target,
            call.headers,
            BodyLength::Fixed(call.body.len() as u64),
        );
        self.encode(head, dst)?;
        self.outgoing.finish_whole(call.body, dst);
        Ok(())
    }
}

impl tokio_util::codec::Encoder<CallHead<'_>> for ClientCodec {
    type Error = CodecError;

    fn encode(&mut self, head: CallHead<'_>, dst: &mut BytesMut) -> Result<(), CodecError> {
        let answering = self.before_request(head.method)?;
        let declared = match head.length {
            BodyLength::Fixed(0) if !defines_content(head.method) => Declared::Nothing,
            BodyLength::Fixed(n) => Declared::Length(n),
            BodyLength::Chunked => Declared::Chunked,
            BodyLength::UntilClose => return Err(Misuse::UntilCloseInRequest.into()),
        };
        append(dst, |dst| {
            write_head(dst, head.method, head.target, head.headers, declared)
        })?;
        self.pending.push(answering);
        self.outgoing = Outgoing::after_head(true, head.length);
        Ok(())
    }
}

impl tokio_util::codec::Encoder<BodyPart<'_>> for ClientCodec {
    type Error = CodecError;

    fn encode(&mut self, part: BodyPart<'_>, dst: &mut BytesMut) -> Result<(), CodecError> {
        self.outgoing.encode(part, dst)
    }
}

/// Appends a request head with the framing field `declared` to `out`; returns its length.
fn write_head(
    out: &mut BytesMut,
    method: &[u8],
    target: &[u8],
    headers: &[(&[u8], &[u8])],
    declared: Declared,
) -> Result<usize, WriteError> {
    let mut req = RequestWriter::new_in(out, method, target)?;
    for (name, value) in headers {
        req.header(name, value)?;
    }
    match declared {
        Declared::Nothing => {}
        Declared::Length(len) => _ = req.content_length(len)?,
        Declared::Chunked => _ = req.chunked()?,
    }
    req.finish()
}
