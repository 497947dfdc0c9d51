//! Requests.

use crate::error::{Error, ErrorKind};
use crate::framing::Framing;
use crate::head::{field_accessors, Head, StartLine, Status};
use crate::head_kind::HeadKind;
use crate::limits::{Leniency, Limits};
use crate::scan::{blocks, blocks::FieldBlocks, ByteClass, Engine};
use crate::span::Span;
use crate::syntax::{self, MethodClass, Version};

/// The request-line: `method SP request-target SP HTTP-version` (RFC 9112 3).
#[derive(Clone, Copy, Debug, Default)]
struct RequestLine {
    method: Span,
    target: Span,
}

impl StartLine for RequestLine {
    const KIND: HeadKind = HeadKind::Request;

    fn parse<E: Engine>(
        &mut self,
        line: &[u8],
        base: usize,
        lenient: &Leniency,
        engine: E,
    ) -> Result<Version, Error> {
        let err = |kind, i: usize| Error::new(kind, base + i);
        // Extra SPs after a separating SP, with `request_line_spaces`.
        let extra_sp = |from: usize| syntax::extra_sp(&line[from..], lenient.request_line_spaces);
        let method_len = engine.run(line, ByteClass::Token);
        match line.get(method_len) {
            Some(b' ') if method_len > 0 => {}
            None if method_len > 0 => return Err(err(ErrorKind::InvalidRequestLine, method_len)),
            _ => return Err(err(ErrorKind::InvalidMethod, method_len)),
        }
        let target_start = method_len + 1 + extra_sp(method_len + 1);
        let rest = &line[target_start..];
        let (target_len, brackets) =
            syntax::target_bytes(rest, lenient.target_unsafe_bytes, engine)
                .map_err(|(k, i)| err(k, target_start + i))?;
        let target_end = target_start + target_len;
        match line.get(target_end) {
            Some(b' ') if target_len > 0 => {}
            Some(b' ') | None => return Err(err(ErrorKind::InvalidRequestLine, target_end)),
            Some(b'#') => return Err(err(ErrorKind::FragmentInTarget, target_end)),
            Some(_) => return Err(err(ErrorKind::InvalidTarget, target_end)),
        }
        let method = &line[..method_len];
        let target = &line[target_start..target_end];
        syntax::target_form(MethodClass::of(method), target, brackets)
            .map_err(|(k, i)| err(k, target_start + i))?;
        let version_start = target_end + 1 + extra_sp(target_end + 1);
        if line.get(version_start) == Some(&b' ') {
            return Err(err(ErrorKind::InvalidRequestLine, version_start));
        }
        let version = syntax::version(&line[version_start..], lenient.unknown_version)
            .map_err(|(k, i)| err(k, version_start + i))?;
        self.method = Span::from_range(base, base + method_len);
        self.target = Span::from_range(base + target_start, base + target_end);
        Ok(version)
    }

    /// `token SP origin-form SP HTTP/1.x`, from the masks: the method ends at the first
    /// non-`tchar` (an SP), the target at the first byte outside the target class (an SP), and
    /// the version is the 8 bytes before the CR. A target with `%`, `[` or `]`, any other
    /// form, CONNECT (whose target must be authority-form) and any other version go to `parse`.
    #[inline(always)]
    fn parse_common<E: Engine>(
        &mut self,
        buf: &[u8],
        pos: usize,
        cr: usize,
        blocks: &mut FieldBlocks<'_, E>,
    ) -> Option<Version> {
        // The CR ends both runs, so every index below is at most `cr`.
        let method_end = blocks.next_not_token(pos);
        if method_end == pos
            || buf[method_end] != b' '
            || MethodClass::of(&buf[pos..method_end]) == MethodClass::Connect
        {
            return None;
        }
        let target_start = method_end + 1;
        if buf[target_start] != b'/' {
            return None;
        }
        // `/ ` is the commonest target of all, and needs no classifier.
        let target_end = match buf[target_start + 1] {
            b' ' => target_start + 1,
            _ => blocks::next_outside_one(blocks.engine(), buf, target_start, ByteClass::Target),
        };
        if target_end + 9 != cr || buf[target_end] != b' ' {
            return None;
        }
        let version = syntax::common_version(&buf[target_end + 1..cr])?;
        self.method = Span::from_range(pos, method_end);
        self.target = Span::from_range(target_start, target_end);
        Some(version)
    }
}

/// A request head, parsed in place.
///
/// `N` is the number of field slots (64 by default, at most 255): a request may have at most
/// `N` field lines, or fewer if [`Limits::max_field_lines`] is lower, and one more fails with
/// [`ErrorKind::TooManyFields`]. More slots are the one way to take more field lines:
/// `Request::<128>::default()` or [`Request::<128>::with_slots(limits)`](Self::with_slots).
/// The struct has a fixed size (see the table at [`Limits`]) and never allocates; reuse it for
/// the next request with [`Request::reset`].
///
/// ```
/// use httpspan::{Framing, KnownHeader, Request, Status};
///
/// let buf = b"POST /items HTTP/1.1\r\nHost: example.com\r\nContent-Length: 2\r\n\r\n{}";
/// let mut req = Request::new();
/// let Status::Complete { head_len } = req.parse(buf)? else { panic!("partial") };
/// assert_eq!(&buf[head_len..], b"{}");
/// assert_eq!(req.method().as_bytes(buf), b"POST");
/// assert_eq!(req.value(KnownHeader::Host).unwrap().as_bytes(buf), b"example.com");
/// assert_eq!(req.framing(), Framing::Length(2));
/// # Ok::<(), httpspan::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Request<const N: usize = 64> {
    head: Head<N>,
    line: RequestLine,
}

impl Request {
    /// A request parser with 64 field slots and the default [`Limits`].
    #[must_use]
    pub const fn new() -> Self {
        Self::with_limits(Limits::DEFAULT)
    }

    /// A request parser with 64 field slots and the given limits: at most 64 field lines, or
    /// `limits.max_field_lines` if lower. For more, use [`with_slots`](Request::with_slots).
    #[must_use]
    pub const fn with_limits(limits: Limits) -> Self {
        Self::with_slots(limits)
    }
}

impl<const N: usize> Default for Request<N> {
    /// A request parser with `N` field slots and the default [`Limits`]: up to `N` field lines.
    fn default() -> Self {
        Self::with_slots(Limits::DEFAULT)
    }
}

impl<const N: usize> Request<N> {
    /// A request parser with `N` field slots and the given limits. Field lines are bounded by
    /// the smaller of `N` and `limits.max_field_lines`, so every line within the bound has a
    /// slot: a `max_field_lines` above `N` is lowered to `N`.
    ///
    /// ```
    /// use httpspan::{Limits, Request};
    ///
    /// let mut head = b"GET / HTTP/1.1\r\nHost: a\r\n".to_vec();
    /// for i in 1..100 {
    ///     head.extend_from_slice(format!("X-{i}: v\r\n").as_bytes());
    /// }
    /// head.extend_from_slice(b"\r\n");
    /// let mut limits = Limits::default();
    /// limits.max_head_bytes = 4096;
    /// let mut req = Request::<128>::with_slots(limits);
    /// assert!(req.parse(&head)?.is_complete());
    /// assert_eq!(req.fields().len(), 100);
    /// // With 64 slots the 65th line is one too many, whatever `max_field_lines` says.
    /// limits.max_field_lines = 200;
    /// let err = Request::with_limits(limits).parse(&head).unwrap_err();
    /// assert_eq!(err.kind(), httpspan::ErrorKind::TooManyFields);
    /// # Ok::<(), httpspan::Error>(())
    /// ```
    #[must_use]
    pub const fn with_slots(limits: Limits) -> Self {
        Request {
            head: Head::new(HeadKind::Request, &limits),
            line: RequestLine {
                method: Span::EMPTY,
                target: Span::EMPTY,
            },
        }
    }

    /// [`parse`](Self::parse) with every line through the precise path.
    #[cfg(test)]
    pub(crate) fn parse_precise(&mut self, buf: &[u8]) -> Result<Status, Error> {
        self.head.parse_precise(buf, &mut self.line)
    }

    /// Parses the request head at the start of `buf`, or resumes a parse that returned
    /// [`Status::Partial`].
    ///
    /// The contract: pass the whole buffer from the message's first byte on every call, the
    /// bytes given before followed by those read since (only the lines after the last complete
    /// one are read again), and call [`reset`](Self::reset) before the next message. A call
    /// that breaks it fails, and changes nothing: with a buffer shorter than the bytes already
    /// read, [`ErrorKind::BufferShorterThanParsed`]; after [`Status::Complete`] without
    /// `reset`, [`ErrorKind::ParseAfterComplete`]. Both are the caller's bugs (status 500).
    ///
    /// After [`Status::Complete`], the head is `buf[..head_len]`. [`Status::Partial`] means
    /// more bytes can complete the head: it is never returned for a buffer that holds the
    /// whole [`Limits::max_head_bytes`] without the head's end (that is
    /// [`ErrorKind::HeadTooLarge`], or [`ErrorKind::TargetTooLong`] within the request-line),
    /// so a read loop never needs to read into a full buffer. After an error, call
    /// [`reset`](Self::reset) before parsing another message.
    ///
    /// ```
    /// use httpspan::{ErrorKind, Request, Status};
    ///
    /// let mut req = Request::new();
    /// let buf = b"GET /a HTTP/1.1\r\nHost: x\r\n\r\n";
    /// assert_eq!(req.parse(&buf[..20])?, Status::Partial);
    /// // Only the newly read bytes, fewer than the 20 the parser has read.
    /// let err = req.parse(&buf[20..]).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::BufferShorterThanParsed);
    /// assert!(req.parse(buf)?.is_complete());
    /// // The next message without `reset`.
    /// assert_eq!(req.parse(b"GET /b").unwrap_err().kind(), ErrorKind::ParseAfterComplete);
    /// req.reset();
    /// assert_eq!(req.parse(b"GET /b")?, Status::Partial);
    /// # Ok::<(), httpspan::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// An [`Error`] with the byte offset, the rule broken and the status to answer, when the head
    /// breaks a rule of HTTP/1.1 or a [`Limits`] bound, or the call breaks the contract above
    /// ([`ErrorKind::BufferShorterThanParsed`], [`ErrorKind::ParseAfterComplete`]).
    pub fn parse(&mut self, buf: &[u8]) -> Result<Status, Error> {
        self.head.parse(buf, &mut self.line)
    }

    /// Forgets the parsed request so the parser can take the next one.
    pub fn reset(&mut self) {
        self.head.reset();
        self.line = RequestLine::default();
    }

    /// Whether the `buffered` bytes parsed so far are only empty lines before a request-line.
    pub(crate) fn only_empty_lines(&self, buffered: usize) -> bool {
        self.head.only_empty_lines(buffered)
    }

    /// The method, case-sensitive, as sent.
    #[must_use]
    pub fn method(&self) -> Span {
        self.line.method
    }

    /// The request-target, as sent (no decoding).
    #[must_use]
    pub fn target(&self) -> Span {
        self.line.target
    }

    field_accessors!();

    /// The HTTP version.
    #[must_use]
    pub fn version(&self) -> Version {
        self.head.version()
    }

    /// The declared Content-Length.
    #[inline]
    #[must_use]
    pub fn content_length(&self) -> Option<u64> {
        self.head.framing().content_length()
    }

    /// Whether the body is chunked.
    #[inline]
    #[must_use]
    pub fn is_chunked(&self) -> bool {
        self.head.framing().is_chunked()
    }

    /// Whether Transfer-Encoding lists a coding other than chunked (`gzip, chunked`, say).
    /// [`framing`](Self::framing) says how the body is delimited, and a
    /// [`ChunkedDecoder`](crate::ChunkedDecoder) removes only the chunked coding: the data is
    /// still coded with the others. A server that decodes none of them answers 501 (Not
    /// Implemented, RFC 9112 6.1); a proxy forwards the body with its Transfer-Encoding.
    ///
    /// ```
    /// use httpspan::{Framing, Request};
    ///
    /// let buf = b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n";
    /// let mut req = Request::new();
    /// req.parse(buf)?;
    /// assert_eq!(req.framing(), Framing::Chunked);
    /// assert!(req.has_other_codings());
    /// # Ok::<(), httpspan::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn has_other_codings(&self) -> bool {
        self.head.framing().has_other_codings()
    }

    /// Whether the request expects `100 Continue` before it sends its body: an `Expect` field
    /// lists `100-continue` (any case) and the request is HTTP/1.1 (RFC 9110 10.1.1: a server
    /// ignores the expectation in an HTTP/1.0 request). `buf` is the buffer the head was
    /// parsed from.
    ///
    /// A server that will read the body sends `HTTP/1.1 100 Continue\r\n\r\n` first; one
    /// that will not (the request fails, or [`has_other_codings`](Self::has_other_codings))
    /// sends its final answer instead.
    ///
    /// ```
    /// use httpspan::Request;
    ///
    /// let buf = b"PUT /f HTTP/1.1\r\nHost: a\r\nExpect: 100-Continue\r\nContent-Length: 9\r\n\r\n";
    /// let mut req = Request::new();
    /// req.parse(buf)?;
    /// assert!(req.expects_continue(buf));
    /// # Ok::<(), httpspan::Error>(())
    /// ```
    #[must_use]
    pub fn expects_continue(&self, buf: &[u8]) -> bool {
        // The index says in O(1) whether any Expect line is there; most requests have none.
        self.head.version() == Version::Http11
            && self.value(crate::KnownHeader::Expect).is_some()
            && self.fields().iter().any(|field| {
                field.known() == Some(crate::KnownHeader::Expect)
                    && syntax::ListItems::new(field.value.as_bytes(buf))
                        .any(|(item, _)| item.eq_ignore_ascii_case(b"100-continue"))
            })
    }

    /// Whether the connection stays open after this request (RFC 9112 9.3).
    #[inline]
    #[must_use]
    pub fn keep_alive(&self) -> bool {
        self.head.framing().keep_alive(self.head.version())
    }

    /// How the body is delimited: chunked, a Content-Length, or no body at all (RFC 9112 6.3).
    #[inline]
    #[must_use]
    pub fn framing(&self) -> Framing {
        self.head.framing().request_framing()
    }
}
