//! Writing a chunked body (RFC 9112 7.1): chunks whole or as a size line before data the caller
//! sends itself, and the end of the body with its trailer fields.

use super::{check_field_line, Digits, WriteError, WriteTarget};
use crate::hop_by_hop::is_hop_by_hop;

/// The last chunk with no trailer fields: what ends a chunked body. [`TrailerWriter`] writes
/// the same bytes when no field is added.
pub const LAST_CHUNK: &[u8] = b"0\r\n\r\n";

/// Writes one chunk of a chunked body into `buf`: the size in hex, CRLF, `data`, CRLF. Returns
/// the bytes written.
///
/// Empty `data` writes nothing: a chunk of size 0 is the last chunk, which ends the body, so it
/// is written only on purpose, as [`LAST_CHUNK`] or by a [`TrailerWriter`].
///
/// ```
/// let mut buf = [0u8; 64];
/// let mut n = httpspan::write_chunk(&mut buf, b"hello, world")?;
/// n += httpspan::write_chunk(&mut buf[n..], b"")?;
/// assert_eq!(&buf[..n], b"c\r\nhello, world\r\n");
/// # Ok::<(), httpspan::WriteError>(())
/// ```
///
/// # Errors
///
/// [`WriteError::BufferTooSmall`] when `buf` has no room; nothing usable is written then.
#[inline]
pub fn write_chunk(buf: &mut [u8], data: &[u8]) -> Result<usize, WriteError> {
    write_chunk_in(buf, data)
}

/// [`write_chunk`] into any [`WriteTarget`]: appended to a `Vec<u8>` or `BytesMut`, or only
/// measured with [`Measure`](crate::Measure).
///
/// ```
/// let mut out = Vec::new();
/// httpspan::write_chunk_in(&mut out, b"hello")?;
/// httpspan::write_chunk_in(&mut out, b", world")?;
/// assert_eq!(out, b"5\r\nhello\r\n7\r\n, world\r\n");
/// # Ok::<(), httpspan::WriteError>(())
/// ```
///
/// # Errors
///
/// [`WriteError::BufferTooSmall`] when the target cannot hold it (a slice too short).
#[inline]
pub fn write_chunk_in<T: WriteTarget + ?Sized>(
    target: &mut T,
    data: &[u8],
) -> Result<usize, WriteError> {
    if data.is_empty() {
        return Ok(0);
    }
    let size = Digits::new::<16>(data.len() as u64);
    target.put_parts(0, &[size.as_bytes(), b"\r\n", data, b"\r\n"])
}

/// Writes the size line of a chunk of `len` bytes into `buf`: `len` in lower-case hex and CRLF.
/// Returns the bytes written (at most 18). The caller then sends the `len` bytes of data and
/// the CRLF that closes the chunk, [`CHUNK_END`], so that the data is never copied.
///
/// `len` 0 is refused with [`WriteError::EmptyChunk`]: a chunk of size 0 is the last chunk,
/// which ends the body, and is written by [`TrailerWriter`] (or as [`LAST_CHUNK`]), never by
/// accident from an empty read.
///
/// ```
/// use httpspan::{write_chunk_header, CHUNK_END};
///
/// let data = b"hello, world";
/// let mut line = [0u8; 18];
/// let n = write_chunk_header(&mut line, data.len() as u64)?;
/// // Send `line[..n]`, then `data` straight from where it is, then `CHUNK_END`.
/// let sent = [&line[..n], &data[..], CHUNK_END].concat();
/// assert_eq!(sent, b"c\r\nhello, world\r\n");
///
/// assert_eq!(write_chunk_header(&mut line, 0), Err(httpspan::WriteError::EmptyChunk));
/// # Ok::<(), httpspan::WriteError>(())
/// ```
///
/// # Errors
///
/// [`WriteError::EmptyChunk`] for `len` 0;
/// [`WriteError::BufferTooSmall`] when `buf` has no room; nothing usable is written then.
#[inline]
pub fn write_chunk_header(buf: &mut [u8], len: u64) -> Result<usize, WriteError> {
    write_chunk_header_in(buf, len)
}

/// [`write_chunk_header`] into any [`WriteTarget`]: appended to a `Vec<u8>` or `BytesMut`, or
/// only measured with [`Measure`](crate::Measure).
///
/// ```
/// use httpspan::{write_chunk_header_in, CHUNK_END};
///
/// let data = b"hello";
/// let mut out = Vec::new();
/// write_chunk_header_in(&mut out, data.len() as u64)?;
/// out.extend_from_slice(data);
/// out.extend_from_slice(CHUNK_END);
/// assert_eq!(out, b"5\r\nhello\r\n");
/// # Ok::<(), httpspan::WriteError>(())
/// ```
///
/// # Errors
///
/// [`WriteError::EmptyChunk`] for `len` 0;
/// [`WriteError::BufferTooSmall`] when the target cannot hold it (a slice too short).
#[inline]
pub fn write_chunk_header_in<T: WriteTarget + ?Sized>(
    target: &mut T,
    len: u64,
) -> Result<usize, WriteError> {
    if len == 0 {
        return Err(WriteError::EmptyChunk);
    }
    let size = Digits::new::<16>(len);
    target.put_parts(0, &[size.as_bytes(), b"\r\n"])
}

/// The CRLF that closes a chunk's data, after the size line from [`write_chunk_header`] and the
/// data.
pub const CHUNK_END: &[u8] = b"\r\n";

/// Fields a sender must not put in a trailer section, compared case-insensitively, besides the
/// hop-by-hop fields ([`is_hop_by_hop`]: Connection, Proxy-Connection, Keep-Alive, TE,
/// Transfer-Encoding, Upgrade): those whose meaning is needed before the content (RFC 9110
/// 6.5.1): message framing, routing, request modifiers, authentication, response controls and
/// the content's format. A recipient would ignore them at best; at worst a proxy merges them
/// into the head.
const NOT_IN_TRAILERS: &[&str] = &[
    // Framing (RFC 9112 6; RFC 9110 6.6.2).
    "Content-Length",
    "Trailer",
    // Routing and request modifiers (RFC 9110 7.2, 7.6.2, 10.1, 13, 14.2).
    "Host",
    "Max-Forwards",
    "Expect",
    "Range",
    "If-Match",
    "If-None-Match",
    "If-Modified-Since",
    "If-Unmodified-Since",
    "If-Range",
    // Authentication and cookies (RFC 9110 11; RFC 6265).
    "Authorization",
    "Proxy-Authorization",
    "WWW-Authenticate",
    "Proxy-Authenticate",
    "Cookie",
    "Set-Cookie",
    // Response controls (RFC 9110 10.2, 12.5.5; RFC 9111 5).
    "Age",
    "Cache-Control",
    "Expires",
    "Location",
    "Retry-After",
    "Vary",
    // The content's format (RFC 9110 8).
    "Content-Type",
    "Content-Encoding",
    "Content-Range",
    "Content-Language",
    "Content-Location",
];

/// Whether a field named `name` may be sent in a trailer section: the rule
/// [`TrailerWriter::header`] enforces, for a proxy or a server that forwards trailer fields
/// and drops those it may not send.
///
/// ```
/// assert!(httpspan::allowed_in_trailers(b"Server-Timing"));
/// assert!(!httpspan::allowed_in_trailers(b"content-length"));
/// ```
#[must_use]
pub fn allowed_in_trailers(name: &[u8]) -> bool {
    !is_hop_by_hop(name)
        && !NOT_IN_TRAILERS
            .iter()
            .any(|n| name.eq_ignore_ascii_case(n.as_bytes()))
}

/// Writes the end of a chunked body into a buffer you provide (or any [`WriteTarget`]): the
/// last chunk (`0` CRLF), trailer
/// fields, and the empty line that ends the message (RFC 9112 7.1.2).
///
/// [`new`](Self::new) writes the last chunk, [`header`](Self::header) adds a trailer field,
/// [`finish`](Self::finish) writes the final CRLF and returns the length of it all. With no field
/// the result is [`LAST_CHUNK`]. A call that fails writes nothing, and the writer can go on.
///
/// ```
/// use httpspan::TrailerWriter;
///
/// let mut buf = [0u8; 64];
/// let mut end = TrailerWriter::new(&mut buf)?;
/// end.header(b"Checksum", b"sha256=abc")?;
/// // Framing fields have no place after the body.
/// let refused = end.header(b"Content-Length", b"5").unwrap_err();
/// assert_eq!(refused, httpspan::WriteError::NotInTrailers);
/// let len = end.finish()?;
/// assert_eq!(&buf[..len], b"0\r\nChecksum: sha256=abc\r\n\r\n");
///
/// // What it wrote is a trailer section the parser reads back.
/// let section = &buf[b"0\r\n".len()..len];
/// let mut trailers = httpspan::Trailers::new();
/// trailers.parse(section).unwrap();
/// let checksum = trailers.find(section, b"checksum").unwrap();
/// assert_eq!(checksum.as_bytes(section), b"sha256=abc");
/// # Ok::<(), httpspan::WriteError>(())
/// ```
#[derive(Debug)]
pub struct TrailerWriter<'a, T: WriteTarget + ?Sized = [u8]> {
    buf: &'a mut T,
    /// INVARIANT: the `len` bytes written are the last-chunk line and complete field lines.
    len: usize,
}

impl<'a> TrailerWriter<'a> {
    /// Starts the end of a chunked body with the last-chunk line `0` CRLF at the start of
    /// `buf`.
    ///
    /// # Errors
    ///
    /// [`WriteError::BufferTooSmall`] when `buf` has no room; nothing usable is written then.
    #[inline]
    pub fn new(buf: &'a mut [u8]) -> Result<Self, WriteError> {
        Self::new_in(buf)
    }
}

impl<'a, T: WriteTarget + ?Sized> TrailerWriter<'a, T> {
    /// [`new`](TrailerWriter::new) into any [`WriteTarget`]: appended to a `Vec<u8>` or
    /// `BytesMut`, or only measured with [`Measure`](crate::Measure).
    ///
    /// # Errors
    ///
    /// [`WriteError::BufferTooSmall`] when the target cannot hold it (a slice too short).
    #[inline]
    pub fn new_in(target: &'a mut T) -> Result<Self, WriteError> {
        let len = target.put_parts(0, &[b"0\r\n"])?;
        Ok(TrailerWriter { buf: target, len })
    }

    /// Adds the trailer field line `name: value`.
    ///
    /// Refuses a name that is not a token and a value that is not a field value, as the head
    /// writers do, and with [`WriteError::NotInTrailers`] the fields whose meaning is needed
    /// before the content (RFC 9110 6.5.1): the framing and connection fields
    /// (Content-Length, Transfer-Encoding, Trailer, TE, Connection, Keep-Alive,
    /// Proxy-Connection, Upgrade), routing and request modifiers (Host, Max-Forwards, Expect,
    /// Range, the `If-` conditionals), authentication and cookies (Authorization,
    /// Proxy-Authorization, WWW-Authenticate, Proxy-Authenticate, Cookie, Set-Cookie),
    /// response controls (Age, Cache-Control, Expires, Location, Retry-After, Vary) and the
    /// content's format (Content-Type, Content-Encoding, Content-Range, Content-Language,
    /// Content-Location). Other fields may repeat.
    ///
    /// # Errors
    ///
    /// [`WriteError::Invalid`] for a name that is not a token, a value a field cannot hold, or a
    /// field the rules above refuse; [`WriteError::BufferTooSmall`] when it does not fit.
    #[inline]
    pub fn header(&mut self, name: &[u8], value: &[u8]) -> Result<&mut Self, WriteError> {
        check_field_line(name, value)?;
        if !allowed_in_trailers(name) {
            return Err(WriteError::NotInTrailers);
        }
        self.len = self
            .buf
            .put_parts(self.len, &[name, b": ", value, b"\r\n"])?;
        Ok(self)
    }

    /// Bytes written so far by this writer.
    #[inline]
    #[must_use]
    pub fn written(&self) -> usize {
        self.len
    }

    /// Ends the trailer section, and the message, with its empty line; returns the length of
    /// the whole end of the body, `buf[..len]` (in a growable target, the last `len` bytes).
    ///
    /// # Errors
    ///
    /// [`WriteError::BufferTooSmall`] when the empty line does not fit.
    #[inline]
    pub fn finish(self) -> Result<usize, WriteError> {
        self.buf.put_parts(self.len, &[b"\r\n"])
    }
}
