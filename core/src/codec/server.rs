//! [`ServerCodec`]: requests in, responses out.

use bytes::BytesMut;

use super::encode::{append, Declared, Outgoing};
use super::read::{Reader, Taken};
use super::{BodyLength, BodyPart, CodecError, Misuse, RequestHead, TrailerSection};
use crate::framing::{self, Content};
use crate::limits::Limits;
use crate::stream::MessageKind;
use crate::syntax::Version;
use crate::writer::{ResponseWriter, WriteError};

/// What [`ServerCodec`] decodes: the parts of each request, in order. More kinds of frame may
/// be added, so a `match` needs a wildcard arm.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum RequestFrame {
    /// A request head.
    Head(RequestHead),
    /// Body data, after chunked decoding: a slice of the read buffer.
    Body(bytes::Bytes),
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

/// A whole response for [`ServerCodec`]'s encoder: written with [`ResponseWriter`], which
/// refuses anything a strict parser would reject, with a `Content-Length` for `body`.
///
/// Built with [`Reply::new`] (and [`Reply::head_only`]), so that a field can be added.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
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

/// The head of a streamed response for [`ServerCodec`]'s encoder; its body follows as
/// [`BodyPart`]s, ended by [`BodyPart::End`].
///
/// An interim response (100 Continue, 103 Early Hints) is a `ReplyHead` alone, with
/// `length: BodyLength::Fixed(0)` and no `End`; the final response follows. An HTTP/1.0
/// request gets none ([`Misuse::InterimToHttp10`]). After a 101 the
/// connection carries no more HTTP/1.1.
///
/// ```
/// use bytes::BytesMut;
/// use httpspan::codec::{BodyLength, BodyPart, ReplyHead, ServerCodec};
/// use tokio_util::codec::Encoder;
///
/// let mut codec = ServerCodec::new(httpspan::Limits::DEFAULT);
/// let mut out = BytesMut::new();
/// let headers: &[(&[u8], &[u8])] = &[(b"Content-Type", b"text/plain")];
/// let head = ReplyHead::new(200, headers, BodyLength::Chunked);
/// codec.encode(head, &mut out)?;
/// codec.encode(BodyPart::Data(b"hello"), &mut out)?;
/// codec.encode(BodyPart::Trailers(&[(b"Checksum", b"1")]), &mut out)?;
/// codec.encode(BodyPart::End, &mut out)?;
/// assert!(out.ends_with(b"chunked\r\n\r\n5\r\nhello\r\n0\r\nChecksum: 1\r\n\r\n"));
///
/// // A Content-Length body gets exactly its bytes.
/// let head = ReplyHead::new(200, headers, BodyLength::Fixed(3));
/// codec.encode(head, &mut out)?;
/// assert!(codec.encode(BodyPart::Data(b"four"), &mut out).is_err());
/// assert!(codec.encode(BodyPart::End, &mut out).is_err());
/// codec.encode(BodyPart::Data(b"abc"), &mut out)?;
/// codec.encode(BodyPart::End, &mut out)?;
/// # Ok::<(), httpspan::codec::CodecError>(())
/// ```
///
/// Built with [`ReplyHead::new`] (and [`ReplyHead::head_only`]), so that a field can be added.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct ReplyHead<'a> {
    /// The status code, 100 to 599; the reason phrase is the registered one.
    pub status: u16,
    /// Field lines, name and value, without Content-Length and Transfer-Encoding.
    pub headers: &'a [(&'a [u8], &'a [u8])],
    /// How the body is delimited. A response without content (1xx, 204) takes `Fixed(0)`.
    pub length: BodyLength,
    /// For a HEAD request: announce the length but send no body (only `End` follows).
    pub head_only: bool,
}

impl<'a> Reply<'a> {
    /// A response with `status`, `headers` and `body`, the body sent.
    #[must_use]
    pub const fn new(status: u16, headers: &'a [(&'a [u8], &'a [u8])], body: &'a [u8]) -> Self {
        Reply {
            status,
            headers,
            body,
            head_only: false,
        }
    }

    /// For a HEAD request (`true`): announce the body's length but send no body.
    #[must_use]
    pub const fn head_only(mut self, head_only: bool) -> Self {
        self.head_only = head_only;
        self
    }
}

impl<'a> ReplyHead<'a> {
    /// A response head with `status` and `headers` whose body is delimited by `length`.
    #[must_use]
    pub const fn new(status: u16, headers: &'a [(&'a [u8], &'a [u8])], length: BodyLength) -> Self {
        ReplyHead {
            status,
            headers,
            length,
            head_only: false,
        }
    }

    /// For a HEAD request (`true`): announce the length but send no body (only
    /// [`BodyPart::End`] follows).
    #[must_use]
    pub const fn head_only(mut self, head_only: bool) -> Self {
        self.head_only = head_only;
        self
    }
}

/// A `tokio_util` codec for the server side of an HTTP/1.1 connection: a [`Decoder`] of
/// requests into [`RequestFrame`]s and an [`Encoder`] of whole [`Reply`]s or of streamed
/// responses ([`ReplyHead`], then [`BodyPart`]s). One per connection.
///
/// It holds the stream decoder's buffer for heads and trailer sections, allocated as it is
/// needed: nothing before the first `decode`, then room for a head
/// ([`Limits::max_head_bytes`], 8 KiB by default), and room for a trailer section
/// ([`Limits::max_trailer_bytes`], at most 64 KiB) only once the connection has carried a
/// chunked message. The room stays for the connection's later messages.
///
/// [`Decoder`]: tokio_util::codec::Decoder
/// [`Encoder`]: tokio_util::codec::Encoder
#[derive(Clone, Debug)]
pub struct ServerCodec {
    reader: Reader,
    outgoing: Outgoing,
    versions: Versions,
}

/// Which of the requests decoded and not yet answered are HTTP/1.0, which must get neither
/// a chunked nor an interim answer: a ring of bits indexed by request number, read while the
/// answers are at most 64 requests behind (further behind, the bit is overwritten and nothing
/// is checked).
#[derive(Clone, Copy, Debug, Default)]
struct Versions {
    http10: u64,
    decoded: u64,
    answered: u64,
}

impl Versions {
    fn decoded(&mut self, http10: bool) {
        let bit = 1 << (self.decoded % 64);
        match http10 {
            true => self.http10 |= bit,
            false => self.http10 &= !bit,
        }
        self.decoded += 1;
    }

    /// Whether the request the next final answer is for is known to be HTTP/1.0.
    fn answering_http10(&self) -> bool {
        let behind = self.decoded - self.answered;
        (1..=64).contains(&behind) && self.http10 & (1 << (self.answered % 64)) != 0
    }

    fn answered(&mut self) {
        if self.answered < self.decoded {
            self.answered += 1;
        }
    }
}

impl ServerCodec {
    /// A codec with these limits for the requests it reads. Allocates nothing until the first
    /// `decode`.
    #[must_use]
    pub fn new(limits: Limits) -> Self {
        ServerCodec {
            reader: Reader::new(MessageKind::Request, limits),
            outgoing: Outgoing::Idle,
            versions: Versions::default(),
        }
    }

    fn frame(&mut self, taken: Taken) -> Option<RequestFrame> {
        let decoder = &self.reader.decoder;
        let request = || decoder.request().expect("a request decoder");
        Some(match taken {
            Taken::Head(bytes) => {
                let parsed = request().clone();
                self.versions.decoded(parsed.version() == Version::Http10);
                RequestFrame::Head(RequestHead { bytes, parsed })
            }
            Taken::Body(data) => RequestFrame::Body(data),
            Taken::Trailers(bytes) => RequestFrame::Trailers(self.reader.section(bytes)),
            Taken::End => RequestFrame::End {
                last: !request().keep_alive(),
            },
            Taken::Nothing => return None,
        })
    }
}

impl tokio_util::codec::Decoder for ServerCodec {
    type Item = RequestFrame;
    type Error = CodecError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<RequestFrame>, CodecError> {
        let taken = self.reader.next(src)?;
        Ok(self.frame(taken))
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<RequestFrame>, CodecError> {
        let taken = self.reader.next_eof(src)?;
        Ok(self.frame(taken))
    }
}

impl tokio_util::codec::Encoder<Reply<'_>> for ServerCodec {
    type Error = CodecError;

    /// A streamed reply whose body is `reply.body` with its Content-Length: the same framing
    /// rules, and for 1xx, 204, 304 and `head_only` the length without the bytes.
    fn encode(&mut self, reply: Reply<'_>, dst: &mut BytesMut) -> Result<(), CodecError> {
        let head = ReplyHead::new(
            reply.status,
            reply.headers,
            BodyLength::Fixed(reply.body.len() as u64),
        )
        .head_only(reply.head_only);
        self.encode(head, dst)?;
        self.outgoing.finish_whole(reply.body, dst);
        Ok(())
    }
}

impl tokio_util::codec::Encoder<ReplyHead<'_>> for ServerCodec {
    type Error = CodecError;

    fn encode(&mut self, head: ReplyHead<'_>, dst: &mut BytesMut) -> Result<(), CodecError> {
        self.outgoing.check_head()?;
        if self.versions.answering_http10() {
            if matches!(head.status, 100..=199) && head.status != 101 {
                return Err(Misuse::InterimToHttp10.into());
            }
            if head.length == BodyLength::Chunked {
                return Err(Misuse::ChunkedToHttp10.into());
            }
        }
        // 1xx and 204 have no content and no Content-Length (RFC 9110 8.6): `Fixed(0)` writes
        // none, and the writer refuses a length where the status allows no content.
        let content = framing::response_content(head.status);
        let declared = match (content, head.length) {
            (Content::None, BodyLength::Fixed(0)) | (_, BodyLength::UntilClose) => {
                Declared::Nothing
            }
            (_, BodyLength::Fixed(n)) => Declared::Length(n),
            (_, BodyLength::Chunked) => Declared::Chunked,
        };
        append(dst, |dst| {
            write_head(dst, head.status, head.headers, declared)
        })?;
        self.outgoing = match head.status {
            101 => Outgoing::Done,
            // An interim response is complete in itself (the codec stays idle); the final one
            // follows, and answers the request.
            100..=199 => return Ok(()),
            _ => {
                let has_body = content == Content::Allowed && !head.head_only;
                Outgoing::after_head(has_body, head.length)
            }
        };
        self.versions.answered();
        Ok(())
    }
}

impl tokio_util::codec::Encoder<BodyPart<'_>> for ServerCodec {
    type Error = CodecError;

    fn encode(&mut self, part: BodyPart<'_>, dst: &mut BytesMut) -> Result<(), CodecError> {
        self.outgoing.encode(part, dst)
    }
}

/// Appends a response head with the framing field `declared` to `out`; returns its length.
fn write_head(
    out: &mut BytesMut,
    status: u16,
    headers: &[(&[u8], &[u8])],
    declared: Declared,
) -> Result<usize, WriteError> {
    let mut res = ResponseWriter::new_in(out, status)?;
    for (name, value) in headers {
        res.header(name, value)?;
    }
    match declared {
        Declared::Nothing => {}
        Declared::Length(len) => _ = res.content_length(len)?,
        Declared::Chunked => _ = res.chunked()?,
    }
    res.finish()
}
