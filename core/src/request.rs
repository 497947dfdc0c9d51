//! Requests.

use crate::error::{Error, ErrorKind};
use crate::framing::Framing;
use crate::head::{field_accessors, Head, HeadKind, StartLine, Status};
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
            syntax::target_bytes(rest, engine).map_err(|(k, i)| err(k, target_start + i))?;
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
/// `N` is the number of field slots (64 by default). The struct has a fixed size and never
/// allocates; reuse it for the next request with [`Request::reset`].
///
/// ```
/// use httpspan::{Framing, KnownHeader, Request, Status};
///
/// let buf = b"POST /items HTTP/1.1\r\nHost: example.com\r\nContent-Length: 2\r\n\r\n{}";
/// let mut req = Request::new();
/// let Status::Complete { head_len } = req.parse(buf)? else { panic!("partial") };
/// assert_eq!(&buf[head_len..], b"{}");
/// assert_eq!(req.method().as_bytes(buf), b"POST");
/// assert_eq!(req.get(KnownHeader::Host).unwrap().as_bytes(buf), b"example.com");
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
    pub const fn new() -> Self {
        Self::with_limits(Limits::DEFAULT)
    }

    /// A request parser with 64 field slots and the given limits.
    pub const fn with_limits(limits: Limits) -> Self {
        Request {
            head: Head::new(HeadKind::Request, &limits),
            line: RequestLine {
                method: Span::EMPTY,
                target: Span::EMPTY,
            },
        }
    }
}

impl<const N: usize> Default for Request<N> {
    /// A request parser with `N` field slots and the default [`Limits`].
    fn default() -> Self {
        Request {
            head: Head::new(HeadKind::Request, &Limits::DEFAULT),
            line: RequestLine::default(),
        }
    }
}

impl<const N: usize> Request<N> {
    /// [`parse`](Self::parse) with every line through the precise path.
    #[cfg(test)]
    pub(crate) fn parse_precise(&mut self, buf: &[u8]) -> Result<Status, Error> {
        self.head.parse_precise(buf, &mut self.line)
    }

    /// Parses the request head at the start of `buf`, or resumes a parse that returned
    /// [`Status::Partial`].
    ///
    /// When resuming, `buf` must begin with the bytes given before: only the lines after the last
    /// complete one are read. After [`Status::Complete`], the head is `buf[..head_len]` and
    /// further calls return the same status. After an error, call [`reset`](Self::reset) before
    /// parsing another message.
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
    pub fn method(&self) -> Span {
        self.line.method
    }

    /// The request-target, as sent (no decoding).
    pub fn target(&self) -> Span {
        self.line.target
    }

    field_accessors!();

    /// The HTTP version.
    pub fn version(&self) -> Version {
        self.head.version()
    }

    /// The declared Content-Length.
    pub fn content_length(&self) -> Option<u64> {
        self.head.framing().content_length()
    }

    /// Whether the body is chunked.
    pub fn is_chunked(&self) -> bool {
        self.head.framing().is_chunked()
    }

    /// Whether the connection stays open after this request (RFC 9112 9.3).
    pub fn keep_alive(&self) -> bool {
        self.head.framing().keep_alive(self.head.version())
    }

    /// How the body is delimited: chunked, a Content-Length, or no body at all (RFC 9112 6.3).
    pub fn framing(&self) -> Framing {
        self.head.framing().request_framing()
    }
}
