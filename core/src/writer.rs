//! Writing heads: a status line or request-line, fields and the framing field, into a buffer
//! the caller provides, a growable buffer, or [`Measure`] (`target.rs`); chunked bodies and
//! their trailers are in `chunks.rs`, the registered status codes and whole responses without
//! a body in `status.rs`.
//!
//! The writers refuse anything the parser would refuse, so what they write is a head that
//! httpspan (and any strict recipient) reads back exactly as written: no CR, LF or NUL in a name
//! or value, no second framing field, no Content-Length beside Transfer-Encoding. Each call
//! checks its input and the room left once, then copies; a call that fails writes nothing.

use core::fmt;

use crate::error::{Error, ErrorKind};
use crate::framing::{self, Content, FramingFields};
use crate::head_kind::HeadKind;
use crate::known::KnownHeader;
use crate::limits::Leniency;
use crate::scan;
use crate::syntax::Version;
use crate::validate::{self, is_field_value, is_token};

mod chunks;
mod status;
mod target;

pub use chunks::{
    allowed_in_trailers, write_chunk, write_chunk_header, write_chunk_header_in, write_chunk_in,
    TrailerWriter, CHUNK_END, LAST_CHUNK,
};
use status::status_line;
pub use status::{reason_phrase, write_empty_response, write_empty_response_in};
pub use target::{Measure, WriteTarget};

/// Why a write was refused. The call that returns it has written nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WriteError {
    /// The buffer is too small: it would need `needed` bytes, counted from where the writer
    /// started, to hold what is written so far and this call's bytes. A call that writes a whole
    /// message (`write_empty_response`, `write_chunk`, `body`, `finish`) reports the size of all
    /// of it; a field line reports what the head needs up to and including it. To know the size
    /// of a whole head before writing it, run the same calls on [`Measure`]. From a growable
    /// target (`Vec<u8>`, `BytesMut`), this means it could not grow.
    BufferTooSmall {
        /// The buffer length that this call needs.
        needed: usize,
    },
    /// The bytes would make a message that a strict recipient rejects, with this error kind: a
    /// field name that is not a token, a value with a CR, a duplicate Content-Length, ... The
    /// kind's [`rfc`](ErrorKind::rfc) names the rule.
    Invalid(ErrorKind),
    /// `Content-Length` or `Transfer-Encoding` given to `header`: the framing fields are written
    /// by `content_length`, `chunked` and `body`, which keep them consistent with each other.
    FramingField,
    /// Framing fields in a 1xx or 204 response, or a body in a 1xx, 204 or 304 response: these
    /// responses have no content (RFC 9110 6.4.1, 8.6; RFC 9112 6.1).
    BodyNotAllowed,
    /// A chunk size of 0 given to [`write_chunk_header`]: a chunk of size 0 is the last chunk,
    /// which ends the body; [`TrailerWriter`] (or [`LAST_CHUNK`]) writes it.
    EmptyChunk,
    /// A field that must not be sent in a trailer section (RFC 9110 6.5.1): framing,
    /// connection control, routing, request modifiers, authentication, response controls or the
    /// content's format. See [`TrailerWriter::header`].
    NotInTrailers,
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::BufferTooSmall { needed } => {
                write!(f, "buffer too small: {needed} bytes needed")
            }
            WriteError::Invalid(kind) => write!(f, "{} ({})", kind.message(), kind.rfc()),
            WriteError::FramingField => f.write_str(
                "Content-Length and Transfer-Encoding are written by content_length, chunked and body",
            ),
            WriteError::BodyNotAllowed => {
                f.write_str("this status has no content (RFC 9110 6.4.1)")
            }
            WriteError::EmptyChunk => f.write_str(
                "a chunk of size 0 ends the body: write it with TrailerWriter or LAST_CHUNK",
            ),
            WriteError::NotInTrailers => {
                f.write_str("this field must not be sent in a trailer section (RFC 9110 6.5.1)")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for WriteError {}

/// A number formatted on the stack, in base `RADIX` (10 or 16): no allocation, no `fmt`.
struct Digits {
    /// `u64::MAX` has 20 decimal digits.
    bytes: [u8; 20],
    start: usize,
}

impl Digits {
    #[inline(always)]
    fn new<const RADIX: u64>(mut n: u64) -> Digits {
        let mut bytes = [0u8; 20];
        let mut start = bytes.len();
        loop {
            start -= 1;
            bytes[start] = b"0123456789abcdef"[(n % RADIX) as usize];
            n /= RADIX;
            if n == 0 {
                return Digits { bytes, start };
            }
        }
    }

    #[inline]
    fn as_bytes(&self) -> &[u8] {
        &self.bytes[self.start..]
    }
}

/// Copies `parts` one after the other into `buf` at `at`, after one check that they fit.
/// Returns the offset after them.
#[inline]
fn put(buf: &mut [u8], at: usize, parts: &[&[u8]]) -> Result<usize, WriteError> {
    let (_, end) = target::lengths(at, parts);
    let Some(dst) = buf.get_mut(at..end) else {
        return Err(WriteError::BufferTooSmall { needed: end });
    };
    let mut i = 0;
    for part in parts {
        copy_short(&mut dst[i..], part);
        i += part.len();
    }
    Ok(end)
}

/// Copies `src` to the start of `dst`. A head is made of short pieces (a status line, a name, a
/// value of a few dozen bytes), for which calling `memcpy` costs more than the copy itself:
/// pieces of up to 32 bytes are copied as two overlapping halves of a fixed size, which compile
/// to a few register moves.
#[inline(always)]
fn copy_short(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    let dst = &mut dst[..n];
    macro_rules! halves {
        ($w:literal) => {{
            dst[..$w].copy_from_slice(&src[..$w]);
            dst[n - $w..].copy_from_slice(&src[n - $w..]);
        }};
    }
    match n {
        0..=3 => dst.iter_mut().zip(src).for_each(|(d, s)| *d = *s),
        4..=7 => halves!(4),
        8..=15 => halves!(8),
        16..=32 => halves!(16),
        _ => dst.copy_from_slice(src),
    }
}

/// The known header among those whose value the framing rules check (framing, Host,
/// Connection) that `name` is. Their lengths differ, so most names are ruled out by their length alone and the
/// others by one case-insensitive compare.
#[inline]
fn checked_field(name: &[u8]) -> Option<KnownHeader> {
    let known = match name.len() {
        4 => KnownHeader::Host,
        10 => KnownHeader::Connection,
        14 => KnownHeader::ContentLength,
        17 => KnownHeader::TransferEncoding,
        _ => return None,
    };
    name.eq_ignore_ascii_case(known.name().as_bytes())
        .then_some(known)
}

/// Refuses a field line that no recipient reads back as written, in a head or a trailer
/// section: a name that is not a token, or a value that is not a field value.
#[inline]
fn check_field_line(name: &[u8], value: &[u8]) -> Result<(), WriteError> {
    if !is_token(name) {
        return Err(WriteError::Invalid(ErrorKind::InvalidFieldName));
    }
    if !is_field_value(value) {
        return Err(WriteError::Invalid(ErrorKind::InvalidFieldValue));
    }
    Ok(())
}

/// What the two writers share: the target, how much is written to it, and the framing facts of
/// the fields written so far, which later calls are checked against by the parser's own rules.
#[derive(Debug)]
struct HeadWriter<'a, T: WriteTarget + ?Sized> {
    buf: &'a mut T,
    /// INVARIANT: the `head.len` bytes written are a start line and complete field lines.
    head: HeadState,
}

/// The part of a [`HeadWriter`] that does not depend on the target: the checks live here, out
/// of the generic code, so that they are compiled (and their scans inlined) once in this crate
/// whatever target a caller's crate instantiates the writer with.
#[derive(Debug)]
struct HeadState {
    len: usize,
    version: Version,
    content: Content,
    kind: HeadKind,
    framing: FramingFields,
}

/// A refusal by the framing rules, which report an offset that means nothing to a writer.
fn refused(error: Error) -> WriteError {
    WriteError::Invalid(error.kind())
}

impl HeadState {
    /// `framing` with the field `known: value` applied, or why the parser would refuse it.
    #[inline]
    fn applied(&self, known: KnownHeader, value: &[u8]) -> Result<FramingFields, WriteError> {
        let mut framing = self.framing;
        framing
            .apply(
                self.kind,
                self.version,
                &Leniency::STRICT,
                known,
                value,
                0,
                0,
                false,
            )
            .map_err(refused)?;
        Ok(framing)
    }

    /// The framing facts once the field line `name: value` is written, or why it is refused.
    #[inline]
    fn with_header(&self, name: &[u8], value: &[u8]) -> Result<FramingFields, WriteError> {
        check_field_line(name, value)?;
        // The fields whose meaning a recipient checks while parsing are checked by the same
        // rules here, so that the head is read back as written.
        match checked_field(name) {
            Some(KnownHeader::ContentLength | KnownHeader::TransferEncoding) => {
                Err(WriteError::FramingField)
            }
            Some(known) => self.applied(known, value),
            None => Ok(self.framing),
        }
    }

    /// `framing` with a framing field added, if the status allows framing fields at all.
    #[inline]
    fn framed(&self, known: KnownHeader, value: &[u8]) -> Result<FramingFields, WriteError> {
        if self.content == Content::None {
            return Err(WriteError::BodyNotAllowed);
        }
        self.applied(known, value)
    }

    /// The framing rules that need every field (Host in an HTTP/1.1 request).
    #[inline]
    fn check_complete(&self) -> Result<(), WriteError> {
        self.framing
            .check_complete(self.kind, self.version, &Leniency::STRICT, 0)
            .map_err(refused)
    }

    /// Whether a body may follow, with the framing rules that need every field.
    #[inline]
    fn check_body(&self, len: &Digits) -> Result<(), WriteError> {
        if self.content != Content::Allowed {
            return Err(WriteError::BodyNotAllowed);
        }
        self.framed(KnownHeader::ContentLength, len.as_bytes())?;
        self.check_complete()
    }
}

impl<'a, T: WriteTarget + ?Sized> HeadWriter<'a, T> {
    #[inline]
    fn start(
        buf: &'a mut T,
        line: &[&[u8]],
        version: Version,
        content: Content,
        kind: HeadKind,
    ) -> Result<Self, WriteError> {
        let len = buf.put_parts(0, line)?;
        let head = HeadState {
            len,
            version,
            content,
            kind,
            framing: FramingFields::NONE,
        };
        Ok(HeadWriter { buf, head })
    }

    #[inline]
    fn push(&mut self, parts: &[&[u8]]) -> Result<(), WriteError> {
        self.head.len = self.buf.put_parts(self.head.len, parts)?;
        Ok(())
    }

    #[inline]
    fn header(&mut self, name: &[u8], value: &[u8]) -> Result<(), WriteError> {
        let framing = self.head.with_header(name, value)?;
        self.push(&[name, b": ", value, b"\r\n"])?;
        self.head.framing = framing;
        Ok(())
    }

    #[inline]
    fn header_u64(&mut self, name: &[u8], value: u64) -> Result<(), WriteError> {
        self.header(name, Digits::new::<10>(value).as_bytes())
    }

    #[inline]
    fn content_length(&mut self, len: u64) -> Result<(), WriteError> {
        let digits = Digits::new::<10>(len);
        let framing = self
            .head
            .framed(KnownHeader::ContentLength, digits.as_bytes())?;
        self.push(&[b"Content-Length: ", digits.as_bytes(), b"\r\n"])?;
        self.head.framing = framing;
        Ok(())
    }

    #[inline]
    fn chunked(&mut self) -> Result<(), WriteError> {
        let framing = self
            .head
            .framed(KnownHeader::TransferEncoding, b"chunked")?;
        self.push(&[b"Transfer-Encoding: chunked\r\n"])?;
        self.head.framing = framing;
        Ok(())
    }

    #[inline]
    fn finish(mut self) -> Result<usize, WriteError> {
        self.head.check_complete()?;
        self.push(&[b"\r\n"])?;
        Ok(self.head.len)
    }

    #[inline]
    fn body(mut self, body: &[u8]) -> Result<usize, WriteError> {
        let digits = Digits::new::<10>(body.len() as u64);
        self.head.check_body(&digits)?;
        self.push(&[b"Content-Length: ", digits.as_bytes(), b"\r\n\r\n", body])?;
        Ok(self.head.len)
    }
}

/// The methods both writers have, delegated to their `head: HeadWriter`.
macro_rules! head_methods {
    () => {
        /// Adds a field line `name: value`.
        ///
        /// Refuses a name that is not a token ([`is_token`](crate::is_token)), a value that is
        /// not a field value ([`is_field_value`](crate::is_field_value): no CR, LF, NUL or other
        /// control byte, no leading or trailing whitespace), Content-Length and
        /// Transfer-Encoding (use [`content_length`](Self::content_length),
        /// [`chunked`](Self::chunked) or [`body`](Self::body)), a Connection value that is not
        /// a list of tokens and, in a request, a second or invalid Host. Other fields may
        /// repeat. On error nothing is written and the writer can go on.
        ///
        /// # Errors
        ///
        /// [`WriteError::Invalid`] for a name that is not a token, a value with a byte a field
        /// value cannot hold, or a field the rules above refuse; [`WriteError::FramingField`] for
        /// Content-Length or Transfer-Encoding;
        /// [`WriteError::BufferTooSmall`] when it does not fit.
        #[inline]
        pub fn header(&mut self, name: &[u8], value: &[u8]) -> Result<&mut Self, WriteError> {
            self.head.header(name, value)?;
            Ok(self)
        }

        /// Adds a field line whose value is a decimal number (`Age`, `Retry-After`, ...),
        /// formatted without allocating. Same rules as [`header`](Self::header).
        ///
        /// # Errors
        ///
        /// As [`header`](Self::header)'s.
        #[inline]
        pub fn header_u64(&mut self, name: &[u8], value: u64) -> Result<&mut Self, WriteError> {
            self.head.header_u64(name, value)?;
            Ok(self)
        }

        /// Adds `Content-Length: len`: a body of exactly `len` bytes follows the head.
        ///
        /// Refused when a framing field is already written (a second Content-Length, or one
        /// beside Transfer-Encoding), when `len` is above 2^63-1, and in responses without
        /// content (1xx, 204).
        ///
        /// # Errors
        ///
        /// [`WriteError::Invalid`] when a framing field is already written,
        /// [`WriteError::BodyNotAllowed`] in a response without content,
        /// [`WriteError::Invalid`] for a `len` above 2^63-1, [`WriteError::BufferTooSmall`] when
        /// it does not fit.
        #[inline]
        pub fn content_length(&mut self, len: u64) -> Result<&mut Self, WriteError> {
            self.head.content_length(len)?;
            Ok(self)
        }

        /// Adds `Transfer-Encoding: chunked`: the body follows as chunks (see
        /// [`write_chunk`](crate::write_chunk), [`write_chunk_header`](crate::write_chunk_header)
        /// and, to end it, [`TrailerWriter`](crate::TrailerWriter) or
        /// [`LAST_CHUNK`](crate::LAST_CHUNK)).
        ///
        /// Refused when a framing field is already written, in HTTP/1.0, and in responses
        /// without content (1xx, 204).
        ///
        /// # Errors
        ///
        /// [`WriteError::Invalid`] when a framing field is already written or in HTTP/1.0,
        /// [`WriteError::BodyNotAllowed`] in a response without content,
        /// [`WriteError::BufferTooSmall`] when it does not fit.
        #[inline]
        pub fn chunked(&mut self) -> Result<&mut Self, WriteError> {
            self.head.chunked()?;
            Ok(self)
        }

        /// Bytes written so far by this writer.
        #[inline]
        pub fn written(&self) -> usize {
            self.head.head.len
        }

        /// Ends the head with its empty line and returns its length: the head is
        /// `buf[..len]` (in a growable target, the last `len` bytes). A body, if the framing
        /// fields announce one, is the caller's to send.
        ///
        /// An HTTP/1.1 request without Host is refused.
        ///
        /// # Errors
        ///
        /// [`WriteError::Invalid`] for an HTTP/1.1 request without Host,
        /// [`WriteError::BufferTooSmall`] when the empty line does not fit.
        #[inline]
        pub fn finish(self) -> Result<usize, WriteError> {
            self.head.finish()
        }

        /// Adds `Content-Length` for `body`, ends the head and copies `body` after it; returns
        /// the length of the whole message, `buf[..len]` (in a growable target, the last `len`
        /// bytes).
        ///
        /// Refused when a framing field is already written, and in responses without content
        /// (1xx, 204, 304).
        ///
        /// # Errors
        ///
        /// [`WriteError::Invalid`] when a framing field is already written,
        /// [`WriteError::BodyNotAllowed`] in a response without content, and those of
        /// [`finish`](Self::finish).
        #[inline]
        pub fn body(self, body: &[u8]) -> Result<usize, WriteError> {
            self.head.body(body)
        }
    };
}

/// Writes a response head, and optionally its body, into a buffer you provide.
///
/// Create it with the status (the line for a registered status code is a compile-time
/// constant), add fields, then [`finish`](Self::finish) the head or end it with a
/// [`body`](Self::body). Each call returns an error instead of writing anything that would
/// break the framing for the recipient; see [`WriteError`]. Nothing is allocated.
///
/// [`new`](ResponseWriter::new) writes at the start of a `&mut [u8]`; [`new_in`](Self::new_in)
/// takes any [`WriteTarget`]: a `Vec<u8>` or `bytes::BytesMut` it appends to and grows, or
/// [`Measure`] to learn the exact length first.
///
/// ```
/// use httpspan::ResponseWriter;
///
/// let mut buf = [0u8; 256];
/// let mut res = ResponseWriter::new(&mut buf, 200)?;
/// res.header(b"Content-Type", b"text/plain")?
///    .header_u64(b"Age", 60)?;
/// let len = res.body(b"hello")?;
/// assert_eq!(
///     &buf[..len],
///     &b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nAge: 60\r\n\
///        Content-Length: 5\r\n\r\nhello"[..]
/// );
///
/// // A value that would end the line early is refused, and nothing of it is written.
/// let mut res = httpspan::ResponseWriter::new(&mut buf, 302)?;
/// let err = res.header(b"Location", b"/a\r\nSet-Cookie: admin=1").unwrap_err();
/// assert_eq!(err, httpspan::WriteError::Invalid(httpspan::ErrorKind::InvalidFieldValue));
/// res.header(b"Location", b"/a")?;
/// let len = res.finish()?;
/// assert_eq!(&buf[..len], b"HTTP/1.1 302 Found\r\nLocation: /a\r\n\r\n");
/// # Ok::<(), httpspan::WriteError>(())
/// ```
///
/// A chunked response:
///
/// ```
/// use httpspan::{write_chunk, ResponseWriter, TrailerWriter};
///
/// let mut buf = [0u8; 256];
/// let mut res = ResponseWriter::new(&mut buf, 200)?;
/// res.header(b"Content-Type", b"text/event-stream")?.chunked()?;
/// let mut len = res.finish()?;
/// len += write_chunk(&mut buf[len..], b"data: 10\n\n")?;
/// len += TrailerWriter::new(&mut buf[len..])?.finish()?;
/// assert!(buf[..len].ends_with(b"chunked\r\n\r\na\r\ndata: 10\n\n\r\n0\r\n\r\n"));
/// # Ok::<(), httpspan::WriteError>(())
/// ```
///
/// Into a growable buffer, appended after what it holds (see [`WriteTarget`]):
///
/// ```
/// use httpspan::ResponseWriter;
///
/// let mut out = b"HTTP/1.1 100 Continue\r\n\r\n".to_vec();
/// let mut res = ResponseWriter::new_in(&mut out, 200)?;
/// res.header(b"Content-Type", b"text/plain")?;
/// let len = res.body(b"hello")?;
/// assert_eq!(out.len(), 25 + len);
/// assert!(out.ends_with(b"Content-Length: 5\r\n\r\nhello"));
/// # Ok::<(), httpspan::WriteError>(())
/// ```
#[derive(Debug)]
pub struct ResponseWriter<'a, T: WriteTarget + ?Sized = [u8]> {
    head: HeadWriter<'a, T>,
}

impl<'a> ResponseWriter<'a> {
    /// Starts an HTTP/1.1 response with `status` and its registered reason phrase (see
    /// [`reason_phrase`]; empty for an unregistered code) at the start of `buf`. `status` must
    /// be from 100 to 599.
    ///
    /// # Errors
    ///
    /// [`WriteError::Invalid`] for a status outside 100 to 599;
    /// [`WriteError::BufferTooSmall`] when `buf` has no room; nothing usable is written then.
    #[inline]
    pub fn new(buf: &'a mut [u8], status: u16) -> Result<Self, WriteError> {
        Self::new_in(buf, status)
    }

    /// Starts a response with any version, status (100 to 599) and reason phrase (SP, HTAB,
    /// VCHAR and obs-text: no CR, LF or other control byte) at the start of `buf`.
    ///
    /// # Errors
    ///
    /// As [`new`](ResponseWriter::new)'s, and [`WriteError::Invalid`] for a reason phrase with a
    /// byte it cannot hold.
    pub fn with_reason(
        buf: &'a mut [u8],
        version: Version,
        status: u16,
        reason: &[u8],
    ) -> Result<Self, WriteError> {
        Self::with_reason_in(buf, version, status, reason)
    }
}

impl<'a, T: WriteTarget + ?Sized> ResponseWriter<'a, T> {
    /// [`new`](ResponseWriter::new) into any [`WriteTarget`]: appended to a `Vec<u8>` or
    /// `BytesMut`, or only measured with [`Measure`].
    ///
    /// # Errors
    ///
    /// As [`new`](ResponseWriter::new)'s.
    #[inline]
    pub fn new_in(target: &'a mut T, status: u16) -> Result<Self, WriteError> {
        match status_line(status) {
            Some(line) => Self::start(target, &[line], Version::Http11, status),
            None => Self::with_reason_in(target, Version::Http11, status, b""),
        }
    }

    /// [`with_reason`](ResponseWriter::with_reason) into any [`WriteTarget`].
    ///
    /// # Errors
    ///
    /// As [`with_reason`](ResponseWriter::with_reason)'s.
    pub fn with_reason_in(
        target: &'a mut T,
        version: Version,
        status: u16,
        reason: &[u8],
    ) -> Result<Self, WriteError> {
        if !(100..=599).contains(&status) {
            return Err(WriteError::Invalid(ErrorKind::InvalidStatusCode));
        }
        if scan::field_value_len(reason) != reason.len() {
            return Err(WriteError::Invalid(ErrorKind::InvalidReason));
        }
        let code = Digits::new::<10>(u64::from(status));
        let line: [&[u8]; 6] = [
            version.as_str().as_bytes(),
            b" ",
            code.as_bytes(),
            b" ",
            reason,
            b"\r\n",
        ];
        Self::start(target, &line, version, status)
    }

    #[inline]
    fn start(
        target: &'a mut T,
        line: &[&[u8]],
        version: Version,
        status: u16,
    ) -> Result<Self, WriteError> {
        let content = framing::response_content(status);
        let head = HeadWriter::start(target, line, version, content, HeadKind::Response)?;
        Ok(ResponseWriter { head })
    }

    head_methods!();
}

/// Writes a request head, and optionally its body, into a buffer you provide: the client-side
/// twin of [`ResponseWriter`], with the same targets ([`new_in`](Self::new_in) takes any
/// [`WriteTarget`]).
///
/// The method must be a token and the target one that the parser accepts with it
/// ([`is_request_target`](crate::is_request_target)). An HTTP/1.1 request needs exactly one
/// valid Host field.
///
/// ```
/// use httpspan::RequestWriter;
///
/// let mut buf = [0u8; 256];
/// let mut req = RequestWriter::new(&mut buf, b"POST", b"/v1/items?dry-run=1")?;
/// req.header(b"Host", b"api.example.com")?
///    .header(b"Content-Type", b"application/json")?;
/// let len = req.body(b"{}")?;
/// assert_eq!(
///     &buf[..len],
///     &b"POST /v1/items?dry-run=1 HTTP/1.1\r\nHost: api.example.com\r\n\
///        Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"[..]
/// );
/// # Ok::<(), httpspan::WriteError>(())
/// ```
#[derive(Debug)]
pub struct RequestWriter<'a, T: WriteTarget + ?Sized = [u8]> {
    head: HeadWriter<'a, T>,
}

impl<'a> RequestWriter<'a> {
    /// Starts an HTTP/1.1 request-line at the start of `buf`.
    ///
    /// # Errors
    ///
    /// [`WriteError::Invalid`] for a method that is not a token or a target the parser would
    /// refuse with it;
    /// [`WriteError::BufferTooSmall`] when `buf` has no room; nothing usable is written then.
    #[inline]
    pub fn new(buf: &'a mut [u8], method: &[u8], target: &[u8]) -> Result<Self, WriteError> {
        Self::new_in(buf, method, target)
    }

    /// Starts a request-line with any version at the start of `buf`. HTTP/1.0 requests need no
    /// Host and cannot be chunked.
    ///
    /// # Errors
    ///
    /// As [`new`](RequestWriter::new)'s.
    pub fn with_version(
        buf: &'a mut [u8],
        method: &[u8],
        target: &[u8],
        version: Version,
    ) -> Result<Self, WriteError> {
        Self::with_version_in(buf, method, target, version)
    }
}

impl<'a, T: WriteTarget + ?Sized> RequestWriter<'a, T> {
    /// [`new`](RequestWriter::new) into any [`WriteTarget`]: appended to a `Vec<u8>` or
    /// `BytesMut`, or only measured with [`Measure`]. (`out` here, as `target` is the
    /// request-target.)
    ///
    /// # Errors
    ///
    /// As [`new`](RequestWriter::new)'s.
    #[inline]
    pub fn new_in(out: &'a mut T, method: &[u8], target: &[u8]) -> Result<Self, WriteError> {
        Self::with_version_in(out, method, target, Version::Http11)
    }

    /// [`with_version`](RequestWriter::with_version) into any [`WriteTarget`].
    ///
    /// # Errors
    ///
    /// As [`new`](RequestWriter::new)'s.
    pub fn with_version_in(
        out: &'a mut T,
        method: &[u8],
        target: &[u8],
        version: Version,
    ) -> Result<Self, WriteError> {
        if !is_token(method) {
            return Err(WriteError::Invalid(ErrorKind::InvalidMethod));
        }
        validate::request_target(method, target).map_err(WriteError::Invalid)?;
        let line: [&[u8]; 6] = [
            method,
            b" ",
            target,
            b" ",
            version.as_str().as_bytes(),
            b"\r\n",
        ];
        let head = HeadWriter::start(out, &line, version, Content::Allowed, HeadKind::Request)?;
        Ok(RequestWriter { head })
    }

    head_methods!();
}

#[cfg(test)]
mod tests;
