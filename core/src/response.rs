//! Responses.

use crate::error::{Error, ErrorKind};
use crate::framing::{self, Answering, Framing};
use crate::head::{field_accessors, Head, StartLine, Status};
use crate::head_kind::HeadKind;
use crate::limits::{Leniency, Limits};
use crate::scan::{blocks::FieldBlocks, ByteClass, Engine};
use crate::span::Span;
use crate::syntax::{self, Version};

/// The status-line: `HTTP-version SP 3DIGIT SP reason-phrase` (RFC 9112 4).
#[derive(Clone, Copy, Debug, Default)]
struct StatusLine {
    status: u16,
    reason: Span,
}

impl StartLine for StatusLine {
    const KIND: HeadKind = HeadKind::Response;

    fn parse<E: Engine>(
        &mut self,
        line: &[u8],
        base: usize,
        lenient: &Leniency,
        engine: E,
    ) -> Result<Version, Error> {
        let err = |kind, i: usize| Error::new(kind, base + i);
        let version_len = line.iter().position(|&b| b == b' ').unwrap_or(line.len());
        let version = syntax::version(&line[..version_len], lenient.unknown_version)
            .map_err(|(k, i)| err(k, i))?;
        if version_len == line.len() {
            return Err(err(ErrorKind::InvalidStatusLine, version_len));
        }
        let code_start = version_len
            + 1
            + syntax::extra_sp(&line[version_len + 1..], lenient.request_line_spaces);
        let status =
            syntax::status_code(&line[code_start..]).map_err(|(k, i)| err(k, code_start + i))?;
        let code_end = code_start + 3;
        let reason_start = code_end
            + syntax::reason_offset(line.get(code_end))
                .ok_or_else(|| err(syntax::reason_error(line[code_end]), code_end))?;
        let reason = &line[reason_start..];
        let valid = engine.run(reason, ByteClass::Value);
        if valid != reason.len() {
            return Err(err(ErrorKind::InvalidReason, reason_start + valid));
        }
        self.status = status;
        self.reason = Span::from_range(base + reason_start, base + line.len());
        Ok(version)
    }

    /// `HTTP/1.x SP 3DIGIT [SP reason]`: the version as one word, three digits from 100 to
    /// 599, and a reason whose bytes the caller's search for the CR has already found to be
    /// field-value bytes. Anything else goes to `parse`.
    #[inline(always)]
    fn parse_common<E: Engine>(
        &mut self,
        buf: &[u8],
        pos: usize,
        cr: usize,
        _blocks: &mut FieldBlocks<'_, E>,
    ) -> Option<Version> {
        let line = &buf[pos..cr];
        let version = syntax::common_version(line.get(..8)?)?;
        let &[b' ', d0, d1, d2] = line.get(8..12)?.first_chunk::<4>()? else {
            return None;
        };
        let status = syntax::status_digits([d0, d1, d2])?;
        let reason_start = 12 + syntax::reason_offset(line.get(12))?;
        self.status = status;
        self.reason = Span::from_range(pos + reason_start, cr);
        Some(version)
    }
}

/// A response head, parsed in place.
///
/// Whether a response has a body depends on the request it answers: tell it with
/// [`set_request_method`](Self::set_request_method) (a response to HEAD never has one).
///
/// ```
/// use httpspan::{Framing, Response, Status};
///
/// let buf = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello";
/// let mut res = Response::new();
/// assert_eq!(res.parse(buf)?, Status::Complete { head_len: 38 });
/// assert_eq!(res.status(), 200);
/// assert_eq!(res.reason().as_bytes(buf), b"OK");
/// assert_eq!(res.framing(), Framing::Length(5));
/// res.set_request_method(b"HEAD");
/// assert_eq!(res.framing(), Framing::NoBody);
/// # Ok::<(), httpspan::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Response<const N: usize = 64> {
    head: Head<N>,
    line: StatusLine,
    answering: Answering,
}

impl Response {
    /// A response parser with 64 field slots and the default [`Limits`].
    #[must_use]
    pub const fn new() -> Self {
        Self::with_limits(Limits::DEFAULT)
    }

    /// A response parser with 64 field slots and the given limits: at most 64 field lines, or
    /// `limits.max_field_lines` if lower. For more, use [`with_slots`](Response::with_slots).
    #[must_use]
    pub const fn with_limits(limits: Limits) -> Self {
        Self::with_slots(limits)
    }
}

impl<const N: usize> Default for Response<N> {
    /// A response parser with `N` field slots and the default [`Limits`]: up to `N` field lines.
    fn default() -> Self {
        Self::with_slots(Limits::DEFAULT)
    }
}

impl<const N: usize> Response<N> {
    /// A response parser with `N` field slots and the given limits. Field lines are bounded by
    /// the smaller of `N` and `limits.max_field_lines` (see
    /// [`Request::with_slots`](crate::Request::with_slots)).
    #[must_use]
    pub const fn with_slots(limits: Limits) -> Self {
        Response {
            head: Head::new(HeadKind::Response, &limits),
            line: StatusLine {
                status: 0,
                reason: Span::EMPTY,
            },
            answering: Answering::Other,
        }
    }

    /// Says which request method this response answers. Only HEAD and CONNECT change anything:
    /// a response to HEAD has no body, and a 2xx response to CONNECT turns the connection into
    /// a tunnel. [`reset`](Self::reset) keeps it.
    pub fn set_request_method(&mut self, method: &[u8]) {
        self.answering = Answering::of(method);
    }

    /// [`parse`](Self::parse) with every line through the precise path.
    #[cfg(test)]
    pub(crate) fn parse_precise(&mut self, buf: &[u8]) -> Result<Status, Error> {
        self.head.parse_precise(buf, &mut self.line)
    }

    /// Parses the response head at the start of `buf`, or resumes a parse that returned
    /// [`Status::Partial`]. The same contract as [`Request::parse`](crate::Request::parse)
    /// holds: the whole buffer from the message's first byte on every call, and
    /// [`reset`](Self::reset) before the next message (an interim 1xx response included).
    ///
    /// # Errors
    ///
    /// The errors of [`Request::parse`](crate::Request::parse), for a status line and fields.
    pub fn parse(&mut self, buf: &[u8]) -> Result<Status, Error> {
        self.head.parse(buf, &mut self.line)
    }

    /// Forgets the parsed response so the parser can take the next one.
    pub fn reset(&mut self) {
        self.head.reset();
        self.line = StatusLine::default();
    }

    field_accessors!();

    /// The HTTP version.
    #[must_use]
    pub fn version(&self) -> Version {
        self.head.version()
    }

    /// The status code, from 100 to 599.
    #[must_use]
    pub fn status(&self) -> u16 {
        self.line.status
    }

    /// The reason phrase, as sent; may be empty.
    #[must_use]
    pub fn reason(&self) -> Span {
        self.line.reason
    }

    /// The declared Content-Length.
    #[inline]
    #[must_use]
    pub fn content_length(&self) -> Option<u64> {
        self.head.framing().content_length()
    }

    /// Whether the body is chunked: Transfer-Encoding ends in chunked and the response has a
    /// body at all (a 204, a 304 or an answer to HEAD has none, whatever its fields say).
    #[inline]
    #[must_use]
    pub fn is_chunked(&self) -> bool {
        self.framing() == Framing::Chunked
    }

    /// Whether Transfer-Encoding lists a coding other than chunked (`gzip, chunked`, say): the
    /// body, once dechunked, is still coded with them, and a proxy that forwards it must keep
    /// them in the Transfer-Encoding it sends. See
    /// [`Request::has_other_codings`](crate::Request::has_other_codings).
    #[inline]
    #[must_use]
    pub fn has_other_codings(&self) -> bool {
        self.head.framing().has_other_codings()
    }

    /// An interim 1xx response other than 101: the final response to the same request follows.
    #[inline]
    #[must_use]
    pub fn is_interim(&self) -> bool {
        (100..200).contains(&self.line.status) && self.line.status != 101
    }

    /// A 101, or a 2xx answer to CONNECT: after this head the connection no longer carries
    /// HTTP/1.1 (RFC 9112 6.3 rules 1 and 2).
    #[inline]
    #[must_use]
    pub fn switches_protocols(&self) -> bool {
        framing::switches_protocols(self.line.status, self.answering)
    }

    /// Whether the connection stays open after this response (RFC 9112 9.3). A body that runs
    /// until the connection closes means it does not.
    #[inline]
    #[must_use]
    pub fn keep_alive(&self) -> bool {
        self.head.framing().keep_alive(self.head.version()) && self.framing() != Framing::UntilClose
    }

    /// How the body is delimited (RFC 9112 6.3): none for 1xx, 204, 304, answers to HEAD and
    /// tunnels; otherwise chunked, a Content-Length, or until the connection closes.
    #[inline]
    #[must_use]
    pub fn framing(&self) -> Framing {
        self.head
            .framing()
            .response_framing(self.line.status, self.answering)
    }
}
