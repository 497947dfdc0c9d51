//! The head engine shared by [`Request`](crate::Request), [`Response`](crate::Response) and
//! [`Trailers`](crate::Trailers).
//!
//! A head is parsed one complete line at a time. The engine remembers where the next line starts
//! and how far the search for its end got, so a parse resumed on a longer buffer continues from
//! there and never looks at an accepted line again. Each line is checked in full when its CRLF
//! is found, and committed to the field table only when every check passed, so a failed parse
//! leaves the state as it was and a repeated call fails the same way.

use crate::error::{Error, ErrorKind};
use crate::known::{KnownHeader, KNOWN_COUNT};
use crate::limits::Limits;
use crate::scan::{self, class::is_ws};
use crate::span::Span;
use crate::syntax::{self, ListItems, Version};

/// The outcome of a parse that did not fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The head is complete: it is `buf[..head_len]`, and the body (if any) starts at `head_len`.
    Complete {
        /// Bytes of the head, including any empty lines skipped before a request-line and the
        /// CRLF that ends the head.
        head_len: usize,
    },
    /// The buffer ends before the head does: append bytes and call `parse` again with the
    /// longer buffer. The parse resumes after the last complete line.
    Partial,
}

impl Status {
    /// Whether the head is complete.
    pub const fn is_complete(self) -> bool {
        matches!(self, Status::Complete { .. })
    }
}

/// How the body of a message is delimited (RFC 9112 6.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    /// The message has no body.
    NoBody,
    /// The body is exactly this many bytes (Content-Length).
    Length(u64),
    /// The body is chunked (Transfer-Encoding whose last coding is chunked).
    Chunked,
    /// The body runs until the connection closes (responses only).
    UntilClose,
}

/// One field line: where its name and its value are in the buffer.
///
/// The value excludes leading and trailing SP and HTAB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The field name, as sent.
    pub name: Span,
    /// The field value, trimmed.
    pub value: Span,
    known: u8,
}

const NOT_KNOWN: u8 = u8::MAX;

impl Field {
    const EMPTY: Field = Field {
        name: Span::EMPTY,
        value: Span::EMPTY,
        known: NOT_KNOWN,
    };

    /// The known header this field's name is, if any.
    #[inline]
    pub fn known(&self) -> Option<KnownHeader> {
        KnownHeader::ALL.get(self.known as usize).copied()
    }
}

/// The methods that requests, responses and trailer sections share, delegating to their
/// `head: Head<N>` and `line` (their [`StartLine`]) fields.
macro_rules! field_accessors {
    () => {
        /// Replaces the limits. Call it before a message is parsed (after creating the parser or
        /// after `reset`); a head in progress keeps the byte limit it started with.
        pub fn set_limits(&mut self, limits: &$crate::Limits) {
            self.head.set_limits(&self.line, limits);
        }

        /// The stream ended after [`Status::Partial`](crate::Status::Partial): is what arrived
        /// already invalid?
        ///
        /// Pass the same buffer. Returns the error at the first byte that no continuation could
        /// make valid (such as an invalid byte in the cut-off line), or `Ok` if the bytes are a
        /// valid beginning and the message is merely incomplete. Errors that only a complete line
        /// can show (a Content-Length that is not a number, say) are reported once its CR has
        /// arrived.
        pub fn check_truncated(&self, buf: &[u8]) -> Result<(), $crate::Error> {
            self.head.check_truncated(buf, &self.line)
        }

        /// Whether the whole head has been parsed.
        pub fn is_complete(&self) -> bool {
            self.head.is_complete()
        }

        /// The field lines, in order.
        pub fn fields(&self) -> &[$crate::Field] {
            self.head.fields()
        }

        /// The value of the first field with this known name, in O(1).
        #[inline]
        pub fn get(&self, known: $crate::KnownHeader) -> Option<$crate::Span> {
            self.head.get(known)
        }

        /// The value of the first field named `name`, compared case-insensitively. Known names
        /// are found in O(1); others by a scan of the fields, which needs the parsed buffer
        /// because spans hold no bytes.
        pub fn find(&self, buf: &[u8], name: &[u8]) -> Option<$crate::Span> {
            self.head.find(buf, name)
        }

        /// Which known headers are present: bit `k.slot()` for each
        /// [`KnownHeader`]($crate::KnownHeader) `k`.
        pub fn known_bitmap(&self) -> u64 {
            self.head.known_bitmap()
        }

        /// The index in [`fields`](Self::fields) of the first field with this known name.
        pub fn known_index(&self, known: $crate::KnownHeader) -> Option<usize> {
            self.head.known_index(known)
        }
    };
}
pub(crate) use field_accessors;

/// Which kind of head the engine is parsing.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum HeadKind {
    Request,
    Response,
    Trailers,
}

/// The start line of a head: parsed once its line is complete. Parsing a line cut short must
/// fail only at its end (see [`Head::check_truncated`]).
pub(crate) trait StartLine: Clone {
    const KIND: HeadKind;
    /// Parses `line` (without its CRLF), which starts at `base` in the buffer.
    fn parse(&mut self, line: &[u8], base: usize) -> Result<Version, Error>;
}

/// Trailer sections have no start line.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct NoStartLine;

impl StartLine for NoStartLine {
    const KIND: HeadKind = HeadKind::Trailers;
    fn parse(&mut self, _: &[u8], _: usize) -> Result<Version, Error> {
        Ok(Version::Http11)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Before the start line: skipping empty lines.
    Leading,
    StartLine,
    Fields,
    Done,
}

mod flag {
    pub(super) const CONTENT_LENGTH: u16 = 1;
    pub(super) const TRANSFER_ENCODING: u16 = 2;
    /// The last transfer coding seen so far is chunked.
    pub(super) const CHUNKED_LAST: u16 = 4;
    pub(super) const CHUNKED_SEEN: u16 = 8;
    pub(super) const CLOSE: u16 = 16;
    pub(super) const KEEP_ALIVE: u16 = 32;
    pub(super) const HOST: u16 = 64;
}

/// No line is waiting for a field slot.
const NO_OFFSET: u32 = u32::MAX;
/// Spans are `u16`, so no byte of a head may lie at or past this offset.
const SPAN_LIMIT: usize = 1 << 16;

/// Parse state and results of one head. See the module docs.
#[derive(Clone, Debug)]
pub(crate) struct Head<const N: usize> {
    fields: [Field; N],
    /// For each known header present, the index of its first field. Valid where `present` has
    /// its bit set; `reset` clears only `present`.
    index: [u8; KNOWN_COUNT],
    present: u64,
    content_length: u64,
    /// INVARIANT: every line before `line_start` has been checked and committed.
    line_start: u32,
    /// INVARIANT: `line_start <= scan_from`, and `buf[line_start..scan_from]` holds no CR, LF or
    /// NUL.
    scan_from: u32,
    /// One past the last byte the head may occupy.
    limit_end: u32,
    /// Offset of the first field line that found no free slot, or `NO_OFFSET`.
    first_unstored: u32,
    max_bytes: u32,
    stored: u16,
    lines: u16,
    max_lines: u16,
    te_line: u16,
    flags: u16,
    phase: Phase,
    empty_lines: u8,
    version: Version,
}

/// The byte limit of a head or trailer section.
const fn byte_limit(kind: HeadKind, limits: &Limits) -> u32 {
    match kind {
        HeadKind::Trailers => limits.max_trailer_bytes,
        _ => limits.max_head_bytes as u32,
    }
}

impl<const N: usize> Head<N> {
    pub(crate) const fn new(kind: HeadKind, limits: &Limits) -> Self {
        // The index array stores field positions as u8.
        const { assert!(N <= 255, "at most 255 field slots") };
        Head {
            fields: [Field::EMPTY; N],
            index: [0; KNOWN_COUNT],
            present: 0,
            content_length: 0,
            line_start: 0,
            scan_from: 0,
            limit_end: 0,
            first_unstored: NO_OFFSET,
            max_bytes: byte_limit(kind, limits),
            stored: 0,
            lines: 0,
            max_lines: limits.max_field_lines,
            te_line: 0,
            flags: 0,
            phase: Phase::Leading,
            empty_lines: 0,
            version: Version::Http11,
        }
    }

    pub(crate) fn set_limits<S: StartLine>(&mut self, _: &S, limits: &Limits) {
        self.max_lines = limits.max_field_lines;
        self.max_bytes = byte_limit(S::KIND, limits);
    }

    /// Forgets the parsed message, keeping the limits. Clears a few dozen bytes: the field table
    /// is overwritten by the next parse, not cleared.
    pub(crate) fn reset(&mut self) {
        self.present = 0;
        self.content_length = 0;
        self.line_start = 0;
        self.scan_from = 0;
        self.limit_end = 0;
        self.first_unstored = NO_OFFSET;
        self.stored = 0;
        self.lines = 0;
        self.te_line = 0;
        self.flags = 0;
        self.phase = Phase::Leading;
        self.empty_lines = 0;
        self.version = Version::Http11;
    }

    /// Parses or resumes parsing the head at the start of `buf`. See [`Status`].
    pub(crate) fn parse<S: StartLine>(
        &mut self,
        buf: &[u8],
        start: &mut S,
    ) -> Result<Status, Error> {
        loop {
            match self.phase {
                Phase::Leading => {
                    let pos = self.line_start as usize;
                    if S::KIND == HeadKind::Trailers {
                        self.begin(pos, Phase::Fields);
                        continue;
                    }
                    match buf.get(pos) {
                        None => return Ok(Status::Partial),
                        Some(b'\r' | b'\n') => {
                            // An empty line is its CRLF and nothing else; the line-end search
                            // decides whether these bytes are one.
                            self.limit_end = (pos + 2) as u32;
                            let Some(_) = self.find_line_end::<S>(buf)? else {
                                return Ok(Status::Partial);
                            };
                            if S::KIND == HeadKind::Response {
                                return Err(Error::new(ErrorKind::EmptyLineBeforeStatusLine, pos));
                            }
                            if self.empty_lines == 2 {
                                return Err(Error::new(ErrorKind::TooManyEmptyLines, pos));
                            }
                            self.empty_lines += 1;
                            self.next_line(pos, Phase::Leading);
                        }
                        _ => self.begin(pos, Phase::StartLine),
                    }
                }
                Phase::StartLine => {
                    let Some(cr) = self.find_line_end::<S>(buf)? else {
                        return Ok(Status::Partial);
                    };
                    let pos = self.line_start as usize;
                    self.version = start.parse(&buf[pos..cr], pos)?;
                    self.next_line(cr, Phase::Fields);
                }
                Phase::Fields => {
                    let Some(cr) = self.find_line_end::<S>(buf)? else {
                        return Ok(Status::Partial);
                    };
                    let pos = self.line_start as usize;
                    if cr == pos {
                        self.check_complete::<S>(pos)?;
                        self.next_line(cr, Phase::Done);
                    } else {
                        self.field_line::<S>(buf, pos, cr)?;
                        self.next_line(cr, Phase::Fields);
                    }
                }
                Phase::Done => {
                    return Ok(Status::Complete {
                        head_len: self.line_start as usize,
                    })
                }
            }
        }
    }

    /// The start of the head proper: from here on, its bytes count against the limit.
    fn begin(&mut self, pos: usize, phase: Phase) {
        self.limit_end = (pos + self.max_bytes as usize).min(SPAN_LIMIT) as u32;
        self.scan_from = pos as u32;
        self.phase = phase;
    }

    fn next_line(&mut self, cr: usize, phase: Phase) {
        self.line_start = (cr + 2) as u32;
        self.scan_from = self.line_start;
        self.phase = phase;
    }

    /// Finds the CR of the CRLF that ends the current line, continuing the search where the last
    /// call stopped. `Ok(None)` means the buffer ends first.
    fn find_line_end<S: StartLine>(&mut self, buf: &[u8]) -> Result<Option<usize>, Error> {
        let limit = self.limit_end as usize;
        let end = buf.len().min(limit);
        let from = self.scan_from as usize;
        if from < end {
            let i = from + scan::line_special(&buf[from..end]);
            if i < end {
                return match buf[i] {
                    b'\r' => match buf.get(i + 1) {
                        // The LF would be the first byte over the limit.
                        Some(_) if i + 1 >= limit => Err(self.too_large::<S>()),
                        Some(b'\n') => Ok(Some(i)),
                        Some(_) => Err(Error::new(ErrorKind::BareCr, i + 1)),
                        None => {
                            self.scan_from = i as u32;
                            Ok(None)
                        }
                    },
                    b'\n' => Err(Error::new(ErrorKind::BareLf, i)),
                    _ => Err(Error::new(ErrorKind::Nul, i)),
                };
            }
            self.scan_from = end as u32;
        }
        // The error waits for the first byte over the limit, so that its offset is a byte of
        // the input.
        if buf.len() > limit {
            return Err(self.too_large::<S>());
        }
        Ok(None)
    }

    fn too_large<S: StartLine>(&self) -> Error {
        let kind = match (S::KIND, self.phase) {
            (HeadKind::Trailers, _) => ErrorKind::TrailersTooLarge,
            (HeadKind::Request, Phase::StartLine) => ErrorKind::TargetTooLong,
            _ => ErrorKind::HeadTooLarge,
        };
        Error::new(kind, self.limit_end as usize)
    }

    /// Checks one field line, `buf[pos..cr]`, applies what it means for framing and connection,
    /// and stores it.
    fn field_line<S: StartLine>(&mut self, buf: &[u8], pos: usize, cr: usize) -> Result<(), Error> {
        let line = &buf[pos..cr];
        let (name_len, value_start, value_end) = self.field_parts::<S>(line, pos)?;
        let known = KnownHeader::from_name(&line[..name_len]);
        if let (Some(known), false) = (known, S::KIND == HeadKind::Trailers) {
            self.field_semantics::<S>(
                known,
                &line[value_start..value_end],
                pos,
                pos + value_start,
            )?;
        }

        self.lines += 1;
        let slot = self.stored as usize;
        if slot < N {
            let known = known.map_or(NOT_KNOWN, |k| k as u8);
            self.fields[slot] = Field {
                name: Span::from_range(pos, pos + name_len),
                value: Span::from_range(pos + value_start, pos + value_end),
                known,
            };
            if let Some(bit) = 1u64.checked_shl(known as u32) {
                if self.present & bit == 0 {
                    self.present |= bit;
                    self.index[known as usize] = slot as u8;
                }
            }
            self.stored += 1;
        } else if self.first_unstored == NO_OFFSET {
            self.first_unstored = pos as u32;
        }
        Ok(())
    }

    /// Splits a field line (non-empty, without its CRLF, starting at `pos`) into the length of
    /// its name and the bounds of its trimmed value, checking every byte and the line limit.
    /// A line cut short fails only at its end, so a truncated line can be checked too.
    fn field_parts<S: StartLine>(
        &self,
        line: &[u8],
        pos: usize,
    ) -> Result<(usize, usize, usize), Error> {
        if is_ws(line[0]) {
            let kind = match (S::KIND, self.lines) {
                (HeadKind::Trailers, _) | (_, 1..) => ErrorKind::ObsFold,
                _ => ErrorKind::WhitespaceBeforeFirstField,
            };
            return Err(Error::new(kind, pos));
        }
        let name_len = scan::token_len(line);
        match line.get(name_len) {
            Some(b':') if name_len > 0 => {}
            Some(b':') => return Err(Error::new(ErrorKind::InvalidFieldName, pos)),
            Some(b' ' | b'\t') => {
                return Err(Error::new(ErrorKind::WhitespaceBeforeColon, pos + name_len))
            }
            Some(_) => return Err(Error::new(ErrorKind::InvalidFieldName, pos + name_len)),
            None => return Err(Error::new(ErrorKind::MissingColon, pos + name_len)),
        }
        let mut value_start = name_len + 1;
        while value_start < line.len() && is_ws(line[value_start]) {
            value_start += 1;
        }
        let valid = scan::field_value_len(&line[value_start..]);
        if value_start + valid != line.len() {
            return Err(Error::new(
                ErrorKind::InvalidFieldValue,
                pos + value_start + valid,
            ));
        }
        let mut value_end = line.len();
        while value_end > value_start && is_ws(line[value_end - 1]) {
            value_end -= 1;
        }
        if self.lines >= self.max_lines {
            return Err(Error::new(ErrorKind::TooManyFields, pos));
        }
        Ok((name_len, value_start, value_end))
    }

    /// What Content-Length, Transfer-Encoding, Connection and Host mean for the message
    /// (RFC 9112 6.1, 6.3, 9.3; RFC 9110 7.6.1). Updates state only when the line is valid.
    fn field_semantics<S: StartLine>(
        &mut self,
        known: KnownHeader,
        value: &[u8],
        line: usize,
        value_pos: usize,
    ) -> Result<(), Error> {
        let at = |(kind, i): (ErrorKind, usize)| Error::new(kind, value_pos + i);
        match known {
            KnownHeader::ContentLength => {
                if self.flags & flag::TRANSFER_ENCODING != 0 {
                    return Err(Error::new(
                        ErrorKind::ContentLengthWithTransferEncoding,
                        line,
                    ));
                }
                if self.flags & flag::CONTENT_LENGTH != 0 {
                    return Err(Error::new(ErrorKind::DuplicateContentLength, line));
                }
                self.content_length = syntax::content_length(value).map_err(at)?;
                self.flags |= flag::CONTENT_LENGTH;
            }
            KnownHeader::TransferEncoding => {
                if self.flags & flag::CONTENT_LENGTH != 0 {
                    return Err(Error::new(
                        ErrorKind::ContentLengthWithTransferEncoding,
                        line,
                    ));
                }
                if self.version == Version::Http10 {
                    return Err(Error::new(ErrorKind::TransferEncodingInHttp10, line));
                }
                let mut flags = self.flags | flag::TRANSFER_ENCODING;
                for (item, off) in ListItems::new(value) {
                    let coding =
                        syntax::transfer_coding(item).map_err(|(k, i)| at((k, off + i)))?;
                    if coding.eq_ignore_ascii_case(b"chunked") {
                        // chunked takes no parameters; peers disagree on `chunked;x=y`.
                        if coding.len() != item.len() {
                            return Err(at((
                                ErrorKind::InvalidTransferEncoding,
                                off + coding.len(),
                            )));
                        }
                        if flags & flag::CHUNKED_SEEN != 0 {
                            return Err(at((ErrorKind::ChunkedTwice, off)));
                        }
                        flags |= flag::CHUNKED_SEEN | flag::CHUNKED_LAST;
                    } else {
                        flags &= !flag::CHUNKED_LAST;
                    }
                }
                self.flags = flags;
                self.te_line = line as u16;
            }
            KnownHeader::Connection => {
                let mut flags = self.flags;
                for (item, off) in ListItems::new(value) {
                    let len = scan::token_len(item);
                    if len != item.len() {
                        return Err(at((ErrorKind::InvalidConnection, off + len)));
                    }
                    if item.eq_ignore_ascii_case(b"close") {
                        flags |= flag::CLOSE;
                    } else if item.eq_ignore_ascii_case(b"keep-alive") {
                        flags |= flag::KEEP_ALIVE;
                    }
                }
                self.flags = flags;
            }
            KnownHeader::Host if S::KIND == HeadKind::Request => {
                if self.flags & flag::HOST != 0 {
                    return Err(Error::new(ErrorKind::DuplicateHost, line));
                }
                syntax::host(value).map_err(at)?;
                self.flags |= flag::HOST;
            }
            _ => {}
        }
        Ok(())
    }

    /// The checks that need the whole head, run at its empty line (at `pos`).
    fn check_complete<S: StartLine>(&self, pos: usize) -> Result<(), Error> {
        if S::KIND == HeadKind::Request {
            if self.flags & (flag::TRANSFER_ENCODING | flag::CHUNKED_LAST)
                == flag::TRANSFER_ENCODING
            {
                return Err(Error::new(ErrorKind::ChunkedNotLast, self.te_line as usize));
            }
            if self.version == Version::Http11 && self.flags & flag::HOST == 0 {
                return Err(Error::new(ErrorKind::MissingHost, pos));
            }
        }
        if self.first_unstored != NO_OFFSET {
            return Err(Error::slots_exhausted(
                self.first_unstored as usize,
                self.lines,
            ));
        }
        Ok(())
    }

    pub(crate) fn is_complete(&self) -> bool {
        self.phase == Phase::Done
    }

    /// For a head that the stream cut short after [`Status::Partial`]: the error in the bytes
    /// received, if they can no longer begin a valid head.
    ///
    /// The incomplete last line goes through the ordinary line parsers: an error before its end
    /// is final, one at its end only means the line ran out. A CR at the end is the start of the
    /// line's CRLF, so the line is complete but for its LF and every error counts. The meaning of
    /// fields (Content-Length syntax, duplicates) is judged only on complete values.
    pub(crate) fn check_truncated<S: StartLine>(&self, buf: &[u8], start: &S) -> Result<(), Error> {
        let pos = self.line_start as usize;
        let rest = buf.get(pos..).unwrap_or(&[]);
        if rest.is_empty() || matches!(self.phase, Phase::Leading | Phase::Done) {
            return Ok(());
        }
        let (line, complete) = match rest.strip_suffix(b"\r") {
            Some(line) => (line, true),
            None => (rest, false),
        };
        let result = match self.phase {
            Phase::StartLine => start.clone().parse(line, pos).map(drop),
            Phase::Fields if line.is_empty() => self.check_complete::<S>(pos),
            Phase::Fields if complete => self.clone().field_line::<S>(buf, pos, pos + line.len()),
            _ => self.field_parts::<S>(line, pos).map(drop),
        };
        match result {
            Err(e) if complete || e.offset() < pos + line.len() => Err(e),
            _ => Ok(()),
        }
    }

    /// Whether everything parsed so far is empty lines skipped before a request-line.
    pub(crate) fn only_empty_lines(&self, buffered: usize) -> bool {
        self.phase == Phase::Leading && self.line_start as usize == buffered
    }

    pub(crate) fn version(&self) -> Version {
        self.version
    }

    pub(crate) fn fields(&self) -> &[Field] {
        &self.fields[..self.stored as usize]
    }

    #[inline]
    pub(crate) fn get(&self, known: KnownHeader) -> Option<Span> {
        let slot = known as usize;
        if self.present & (1 << slot) == 0 {
            return None;
        }
        Some(self.fields[self.index[slot] as usize].value)
    }

    pub(crate) fn find(&self, buf: &[u8], name: &[u8]) -> Option<Span> {
        match KnownHeader::from_name(name) {
            Some(known) => self.get(known),
            None => self
                .fields()
                .iter()
                .find(|f| f.name.as_bytes(buf).eq_ignore_ascii_case(name))
                .map(|f| f.value),
        }
    }

    pub(crate) fn known_bitmap(&self) -> u64 {
        self.present
    }

    pub(crate) fn known_index(&self, known: KnownHeader) -> Option<usize> {
        let slot = known as usize;
        (self.present & (1 << slot) != 0).then(|| self.index[slot] as usize)
    }

    pub(crate) fn content_length(&self) -> Option<u64> {
        (self.flags & flag::CONTENT_LENGTH != 0).then_some(self.content_length)
    }

    pub(crate) fn has_transfer_encoding(&self) -> bool {
        self.flags & flag::TRANSFER_ENCODING != 0
    }

    pub(crate) fn is_chunked(&self) -> bool {
        self.flags & flag::CHUNKED_LAST != 0
    }

    /// Keep-alive by version and Connection (RFC 9112 9.3); `close` wins.
    pub(crate) fn keep_alive(&self) -> bool {
        if self.flags & flag::CLOSE != 0 {
            return false;
        }
        match self.version {
            Version::Http11 => true,
            Version::Http10 => self.flags & flag::KEEP_ALIVE != 0,
        }
    }

    /// Body framing from the fields alone, for a message that may have a body.
    pub(crate) fn field_framing(&self) -> Framing {
        if self.has_transfer_encoding() {
            match self.is_chunked() {
                true => Framing::Chunked,
                false => Framing::UntilClose,
            }
        } else if let Some(n) = self.content_length() {
            Framing::Length(n)
        } else {
            Framing::UntilClose
        }
    }
}
