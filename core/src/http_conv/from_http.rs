//! Heads of the [`http`] crate's types written back as HTTP/1.1 bytes (feature `http`), through
//! [`RequestWriter`] and [`ResponseWriter`], so they are refused exactly where a strict parser
//! would refuse them.
//!
//! **Framing.** The body's framing is an argument, a [`BodyFraming`], never taken blindly from
//! the `HeaderMap`: the writer writes `Content-Length` or `Transfer-Encoding: chunked` itself,
//! spelled so, at the place of the map's own framing field (or after the other fields). A
//! framing field already in the map is checked, not copied:
//!
//! - `Content-Length` is allowed with [`BodyFraming::Length`] when every value says the same
//!   length (it is then written once); otherwise it is [`FromHttpError::ContentLength`].
//! - `Transfer-Encoding` is allowed with [`BodyFraming::Chunked`] when every value is
//!   `chunked`; a coding the writer cannot apply (gzip, ...) or another framing is
//!   [`FromHttpError::TransferEncoding`].
//!
//! So a map straight from [`to_http`](crate::to_http) can be written back without editing it:
//! take the framing it states with [`BodyFraming::from_headers`], or state the length of the
//! body you send.
//!
//! **Names** are written lower-case, as `http` keeps them, unless `Parts::extensions` holds an
//! [`OriginalNames`]: the fields are then written in its order and spelling (see there).
//!
//! **Host.** An HTTP/1.1 request whose map has no Host gets one from the URI's authority,
//! first among the fields.
//!
//! These functions allocate: the fields' write order, an absolute-form target, and the
//! returned `Vec` where there is one.
//!
//! ```
//! use httpspan::from_http::{request_head, BodyFraming};
//!
//! let req = http::Request::post("http://example.com/items")
//!     .header("content-type", "application/json")
//!     .header("content-length", "2")
//!     .body(())?;
//! let (parts, ()) = req.into_parts();
//! let head = request_head(&parts, BodyFraming::Length(2))?;
//! assert_eq!(
//!     head,
//!     b"POST http://example.com/items HTTP/1.1\r\nHost: example.com\r\n\
//!       content-type: application/json\r\nContent-Length: 2\r\n\r\n"
//! );
//!
//! // A Content-Length that disagrees with the body is refused, not written twice.
//! let err = request_head(&parts, BodyFraming::Length(3)).unwrap_err();
//! assert_eq!(err, httpspan::from_http::FromHttpError::ContentLength);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;
use std::collections::HashMap;
use std::string::ToString;
use std::vec::Vec;

use http::header::{self, HeaderMap, HeaderName, HeaderValue};

use super::from_http_version;
use super::names::OriginalNames;
use crate::framing::{self, Content};
use crate::syntax::{self, Version};
use crate::writer::{reason_phrase, RequestWriter, ResponseWriter, WriteError, WriteTarget};

/// How the body after a head is framed; the writer writes the matching field.
///
/// Exhaustive for good: HTTP/1.1 has no other framing field to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BodyFraming {
    /// No framing field: a request without a body, a 1xx or 204 response, or a response whose
    /// body ends when the connection closes.
    None,
    /// `Content-Length: n`: exactly `n` bytes follow (or none, in a response to HEAD and in a
    /// 304, where the length describes the representation).
    Length(u64),
    /// `Transfer-Encoding: chunked`: the body follows as chunks. Not in HTTP/1.0.
    Chunked,
}

impl BodyFraming {
    /// The framing that `headers` state: [`Length`](Self::Length) for a Content-Length,
    /// [`Chunked`](Self::Chunked) for `Transfer-Encoding: chunked`, otherwise
    /// [`None`](Self::None). Refuses what a strict parser would: an invalid or disagreeing
    /// Content-Length, both fields, a transfer coding other than chunked.
    ///
    /// ```
    /// use httpspan::from_http::BodyFraming;
    ///
    /// let mut map = http::HeaderMap::new();
    /// assert_eq!(BodyFraming::from_headers(&map)?, BodyFraming::None);
    /// map.insert(http::header::CONTENT_LENGTH, http::HeaderValue::from_static("12"));
    /// assert_eq!(BodyFraming::from_headers(&map)?, BodyFraming::Length(12));
    /// # Ok::<(), httpspan::from_http::FromHttpError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`FromHttpError::ContentLength`] for an invalid or disagreeing Content-Length, or one beside
    /// Transfer-Encoding; [`FromHttpError::TransferEncoding`] for a transfer coding other than
    /// chunked alone.
    pub fn from_headers(headers: &HeaderMap) -> Result<BodyFraming, FromHttpError> {
        let length = content_length(headers)?;
        let chunked = headers.contains_key(header::TRANSFER_ENCODING);
        match (length, chunked) {
            (Some(_), true) => Err(FromHttpError::ContentLength),
            (Some(n), false) => Ok(BodyFraming::Length(n)),
            (None, true) if only_chunked(headers) => Ok(BodyFraming::Chunked),
            (None, true) => Err(FromHttpError::TransferEncoding),
            (None, false) => Ok(BodyFraming::None),
        }
    }
}

/// Why a head could not be written. Nothing usable is written then.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FromHttpError {
    /// The writer refused the head: an invalid method, target or value, a missing Host in an
    /// HTTP/1.1 request, a body where the status allows none, ... (or, for the functions that
    /// take a buffer, too small a buffer).
    Write(WriteError),
    /// HTTP/0.9, 2 or 3: only HTTP/1.0 and HTTP/1.1 heads are written.
    Version,
    /// The map's Content-Length is invalid, disagrees with itself or with the framing given.
    ContentLength,
    /// The map's Transfer-Encoding is not `chunked` alone, or the framing given is not
    /// [`BodyFraming::Chunked`].
    TransferEncoding,
}

impl fmt::Display for FromHttpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FromHttpError::Write(e) => e.fmt(f),
            FromHttpError::Version => f.write_str("only HTTP/1.0 and HTTP/1.1 heads are written"),
            FromHttpError::ContentLength => {
                f.write_str("the Content-Length field disagrees with the body's framing")
            }
            FromHttpError::TransferEncoding => {
                f.write_str("the Transfer-Encoding field disagrees with the body's framing")
            }
        }
    }
}

impl std::error::Error for FromHttpError {}

impl From<WriteError> for FromHttpError {
    fn from(e: WriteError) -> Self {
        FromHttpError::Write(e)
    }
}

/// The Content-Length the map states: `None` without one, an error when a value is not one
/// the parser reads as a length (1*DIGIT, at most 2^63 - 1) or the values disagree.
fn content_length(headers: &HeaderMap) -> Result<Option<u64>, FromHttpError> {
    let mut length = None;
    for value in headers.get_all(header::CONTENT_LENGTH) {
        let n =
            syntax::content_length(value.as_bytes()).map_err(|_| FromHttpError::ContentLength)?;
        if length.is_some_and(|m| m != n) {
            return Err(FromHttpError::ContentLength);
        }
        length = Some(n);
    }
    Ok(length)
}

/// Whether every Transfer-Encoding value of the map is `chunked`.
fn only_chunked(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::TRANSFER_ENCODING)
        .iter()
        .all(|v| v.as_bytes().eq_ignore_ascii_case(b"chunked"))
}

/// Checks the map's framing fields against `framing`.
fn check_framing(headers: &HeaderMap, framing: BodyFraming) -> Result<(), FromHttpError> {
    match (content_length(headers)?, framing) {
        (None, _) => {}
        (Some(n), BodyFraming::Length(m)) if n == m => {}
        _ => return Err(FromHttpError::ContentLength),
    }
    if headers.contains_key(header::TRANSFER_ENCODING)
        && !(framing == BodyFraming::Chunked && only_chunked(headers))
    {
        return Err(FromHttpError::TransferEncoding);
    }
    Ok(())
}

/// One line of the head to write, in order.
enum Line<'a> {
    Field(&'a [u8], &'a HeaderValue),
    /// Where the framing field goes.
    Framing,
}

/// The lines of `headers` in write order: the recorded order and spelling of `names` first,
/// then what the map holds beyond them; the map's framing fields become one [`Line::Framing`].
fn lines<'a>(headers: &'a HeaderMap, names: Option<&'a OriginalNames>) -> Vec<Line<'a>> {
    let mut lines = Vec::with_capacity(headers.len() + 1);
    let mut framing_at = None;
    let mut place = |lines: &mut Vec<Line<'a>>, name: &HeaderName, spelling: &'a [u8], value| {
        if name == header::CONTENT_LENGTH || name == header::TRANSFER_ENCODING {
            framing_at.get_or_insert(lines.len());
        } else {
            lines.push(Line::Field(spelling, value));
        }
    };
    // How many values of each name are written so far.
    let mut taken: HashMap<HeaderName, usize> = HashMap::new();
    for spelling in names.into_iter().flat_map(OriginalNames::iter) {
        let Ok(name) = HeaderName::from_bytes(spelling) else {
            continue;
        };
        let count = taken.entry(name.clone()).or_insert(0);
        if let Some(value) = headers.get_all(&name).iter().nth(*count) {
            *count += 1;
            place(&mut lines, &name, spelling, value);
        }
    }
    for name in headers.keys() {
        let skip = taken.get(name).copied().unwrap_or(0);
        for value in headers.get_all(name).iter().skip(skip) {
            place(&mut lines, name, name.as_str().as_bytes(), value);
        }
    }
    lines.insert(framing_at.unwrap_or(lines.len()), Line::Framing);
    lines
}

/// What the request and response writers share, for [`write_fields`].
trait Head: Sized {
    fn header(&mut self, name: &[u8], value: &[u8]) -> Result<(), WriteError>;
    fn content_length(&mut self, len: u64) -> Result<(), WriteError>;
    fn chunked(&mut self) -> Result<(), WriteError>;
    fn finish(self) -> Result<usize, WriteError>;
}

macro_rules! head_impl {
    ($writer:ident) => {
        impl<T: WriteTarget + ?Sized> Head for $writer<'_, T> {
            fn header(&mut self, name: &[u8], value: &[u8]) -> Result<(), WriteError> {
                $writer::header(self, name, value).map(drop)
            }
            fn content_length(&mut self, len: u64) -> Result<(), WriteError> {
                $writer::content_length(self, len).map(drop)
            }
            fn chunked(&mut self) -> Result<(), WriteError> {
                $writer::chunked(self).map(drop)
            }
            fn finish(self) -> Result<usize, WriteError> {
                $writer::finish(self)
            }
        }
    };
}
head_impl!(RequestWriter);
head_impl!(ResponseWriter);

/// Writes the fields of `headers` (and `extra` after them), the framing field and the empty
/// line with `writer`.
fn write_fields(
    mut writer: impl Head,
    headers: &HeaderMap,
    names: Option<&OriginalNames>,
    extra: &[(&[u8], &[u8])],
    framing: BodyFraming,
) -> Result<usize, FromHttpError> {
    check_framing(headers, framing)?;
    for line in lines(headers, names) {
        match (line, framing) {
            (Line::Field(name, value), _) => writer.header(name, value.as_bytes())?,
            (Line::Framing, BodyFraming::None) => {}
            (Line::Framing, BodyFraming::Length(n)) => writer.content_length(n)?,
            (Line::Framing, BodyFraming::Chunked) => writer.chunked()?,
        }
    }
    for (name, value) in extra {
        writer.header(name, value)?;
    }
    Ok(writer.finish()?)
}

/// The request-target of `uri` as sent: origin-form for a path (and query), authority-form
/// for an authority alone (CONNECT), absolute-form otherwise; `*` stays `*`.
fn target(uri: &http::Uri) -> std::borrow::Cow<'_, str> {
    match (uri.scheme(), uri.authority(), uri.path_and_query()) {
        (None, None, Some(path)) => path.as_str().into(),
        (None, Some(authority), None) => authority.as_str().into(),
        (None, None, None) => "/".into(),
        _ => uri.to_string().into(),
    }
}

/// Writes the head of a request (request-line, fields, framing field, empty line) into `buf`
/// and returns its length. See the [module](self) for the framing, name and Host rules.
///
/// # Errors
///
/// [`FromHttpError::Write`] when the writer refuses the method, target, a field or the
/// framing, or `buf` is too small; [`FromHttpError::Version`] for a version other than HTTP/1.0
/// and 1.1; [`FromHttpError::ContentLength`] or [`FromHttpError::TransferEncoding`] when the
/// map's framing fields disagree with `framing`.
pub fn write_request_head(
    parts: &http::request::Parts,
    framing: BodyFraming,
    buf: &mut [u8],
) -> Result<usize, FromHttpError> {
    write_request_head_in(parts, framing, buf)
}

/// [`write_request_head`] into any [`WriteTarget`] (appended to a `Vec<u8>`).
fn write_request_head_in<T: WriteTarget + ?Sized>(
    parts: &http::request::Parts,
    framing: BodyFraming,
    out: &mut T,
) -> Result<usize, FromHttpError> {
    let version = from_http_version(parts.version).ok_or(FromHttpError::Version)?;
    let target = target(&parts.uri);
    let mut writer = RequestWriter::with_version_in(
        out,
        parts.method.as_str().as_bytes(),
        target.as_bytes(),
        version,
    )?;
    if version == Version::Http11 && !parts.headers.contains_key(header::HOST) {
        // A URI with userinfo is refused with the target, so the authority is the host.
        if let Some(authority) = parts.uri.authority() {
            writer.header(b"Host", authority.as_str().as_bytes())?;
        }
    }
    let names = parts.extensions.get::<OriginalNames>();
    write_fields(writer, &parts.headers, names, &[], framing)
}

/// Writes the head of a response (status line, fields, framing field, empty line) into `buf`
/// and returns its length. The reason phrase is the registered one
/// ([`reason_phrase`](crate::reason_phrase)). See the [module](self) for the framing and name
/// rules.
///
/// # Errors
///
/// As [`write_request_head`]'s, for the status line and the fields.
pub fn write_response_head(
    parts: &http::response::Parts,
    framing: BodyFraming,
    buf: &mut [u8],
) -> Result<usize, FromHttpError> {
    write_response_head_in(parts, framing, &[], buf)
}

/// [`write_response_head`] into any [`WriteTarget`] (appended to a `Vec<u8>` or `BytesMut`),
/// with `extra` fields after the map's (the server's `Connection: close`). A head refused
/// after some of its lines leaves them in a growable `out`: truncate it back.
pub(crate) fn write_response_head_in<T: WriteTarget + ?Sized>(
    parts: &http::response::Parts,
    framing: BodyFraming,
    extra: &[(&[u8], &[u8])],
    out: &mut T,
) -> Result<usize, FromHttpError> {
    let version = from_http_version(parts.version).ok_or(FromHttpError::Version)?;
    let status = parts.status.as_u16();
    let writer = match version {
        Version::Http11 => ResponseWriter::new_in(out, status)?,
        Version::Http10 => {
            let reason = reason_phrase(status).unwrap_or_default();
            ResponseWriter::with_reason_in(out, version, status, reason.as_bytes())?
        }
    };
    let names = parts.extensions.get::<OriginalNames>();
    write_fields(writer, &parts.headers, names, extra, framing)
}

/// The head of a request as a new `Vec` (see [`write_request_head`]).
///
/// # Errors
///
/// As [`write_request_head`]'s, except a buffer too small.
pub fn request_head(
    parts: &http::request::Parts,
    framing: BodyFraming,
) -> Result<Vec<u8>, FromHttpError> {
    let mut out = Vec::new();
    write_request_head_in(parts, framing, &mut out)?;
    Ok(out)
}

/// The head of a response as a new `Vec` (see [`write_response_head`]).
///
/// ```
/// use httpspan::from_http::{response_head, BodyFraming};
///
/// let res = http::Response::builder().status(404).header("x-why", "gone").body(())?;
/// let (parts, ()) = res.into_parts();
/// let head = response_head(&parts, BodyFraming::Chunked)?;
/// assert_eq!(
///     head,
///     b"HTTP/1.1 404 Not Found\r\nx-why: gone\r\nTransfer-Encoding: chunked\r\n\r\n"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// As [`write_response_head`]'s, except a buffer too small.
pub fn response_head(
    parts: &http::response::Parts,
    framing: BodyFraming,
) -> Result<Vec<u8>, FromHttpError> {
    let mut out = Vec::new();
    write_response_head_in(parts, framing, &[], &mut out)?;
    Ok(out)
}

/// A whole request, `parts` and then `body` after a `Content-Length` head, as a new `Vec`.
///
/// ```
/// let (parts, body) = http::Request::put("/notes/1").header("host", "h").body("hi")?.into_parts();
/// let bytes = httpspan::from_http::request_bytes(&parts, body.as_bytes())?;
/// assert_eq!(bytes, b"PUT /notes/1 HTTP/1.1\r\nhost: h\r\nContent-Length: 2\r\n\r\nhi");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// As [`request_head`]'s.
pub fn request_bytes(parts: &http::request::Parts, body: &[u8]) -> Result<Vec<u8>, FromHttpError> {
    let mut out = request_head(parts, BodyFraming::Length(body.len() as u64))?;
    out.extend_from_slice(body);
    Ok(out)
}

/// A whole response, `parts` and then `body` after a `Content-Length` head, as a new `Vec`. A
/// 1xx or 204 response gets no Content-Length and its body must be empty; a 304 announces the
/// length without sending the body.
///
/// # Errors
///
/// As [`response_head`]'s, and [`FromHttpError::Write`] for a non-empty `body` in a 1xx or
/// 204 response.
pub fn response_bytes(
    parts: &http::response::Parts,
    body: &[u8],
) -> Result<Vec<u8>, FromHttpError> {
    let content = framing::response_content(parts.status.as_u16());
    let framing = match (content, body.is_empty()) {
        (Content::None, true) => BodyFraming::None,
        (Content::None, false) => return Err(WriteError::BodyNotAllowed.into()),
        _ => BodyFraming::Length(body.len() as u64),
    };
    let mut out = response_head(parts, framing)?;
    if content == Content::Allowed {
        out.extend_from_slice(body);
    }
    Ok(out)
}
