//! The head engine shared by [`Request`](crate::Request), [`Response`](crate::Response) and
//! [`Trailers`](crate::Trailers).
//!
//! A head is parsed one complete line at a time. The engine remembers where the next line starts
//! and how far the search for its end got, so a parse resumed on a longer buffer continues from
//! there and never looks at an accepted line again. Each line is checked in full when its CRLF
//! is found, and committed to the field table only when every check passed, so a failed parse
//! leaves the state as it was and a repeated call fails the same way.

use crate::error::{Error, ErrorKind};
use crate::known::{Folded, KnownHeader};
use crate::limits::{Leniency, Limits};
use crate::scan::blocks::{self, FieldBlocks};
use crate::scan::{self, class::is_ws, ByteClass, Engine, WithEngine};
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
/// The value excludes leading and trailing SP and HTAB. Only with
/// [`Leniency::obs_fold`] can it span several lines: then read it through [`unfold`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The field name, as sent.
    pub name: Span,
    /// The field value, trimmed.
    pub value: Span,
    known: u8,
}

const NOT_KNOWN: u8 = crate::known::NOT_KNOWN_ID;

/// The bits of the presence bitmap, and the entries of the index array: one for each bit.
const SLOTS: usize = u64::BITS as usize;
/// The presence bit of the unknown names, `NOT_KNOWN` taken modulo `SLOTS`: no known header's,
/// so that storing a field needs no test of its kind (see `Head::store_in_slot`).
const UNKNOWN_SLOT: usize = NOT_KNOWN as usize % SLOTS;
const _: () = assert!(
    crate::known::KNOWN_COUNT <= UNKNOWN_SLOT,
    "the unknown names' presence bit is no known header's"
);

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

/// A field value with each obs-fold replaced by one SP, as pieces of the value and `b" "`.
///
/// An obs-fold is a line break inside a field value, accepted only with
/// [`Leniency::obs_fold`]; the value's span then covers the raw bytes, line breaks included.
/// Here each run of SP, HTAB, CR and LF that holds a CR or LF (the line break and the
/// whitespace around it) becomes one SP, as RFC 9112 5.2 asks before a value is interpreted;
/// that is how the parser itself reads Content-Length, Transfer-Encoding, Connection and Host.
/// A value without CR or LF (every value in strict mode) comes back as one piece.
///
/// ```
/// let value = b"gzip,\r\n  chunked";
/// let pieces: Vec<&[u8]> = httpspan::unfold(value).collect();
/// assert_eq!(pieces.concat(), b"gzip, chunked");
/// ```
pub fn unfold(value: &[u8]) -> Unfolded<'_> {
    Unfolded { rest: value }
}

/// The iterator returned by [`unfold`].
#[derive(Clone, Debug)]
pub struct Unfolded<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for Unfolded<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        if self.rest.is_empty() {
            return None;
        }
        let Some(brk) = self.rest.iter().position(|&b| b == b'\r' || b == b'\n') else {
            return Some(core::mem::take(&mut self.rest));
        };
        let fold_start = self.rest[..brk]
            .iter()
            .rposition(|&b| !is_ws(b))
            .map_or(0, |i| i + 1);
        if fold_start > 0 {
            let (piece, rest) = self.rest.split_at(fold_start);
            self.rest = rest;
            return Some(piece);
        }
        let fold_len = self
            .rest
            .iter()
            .position(|&b| !syntax::is_folded_ws(b))
            .unwrap_or(self.rest.len());
        self.rest = &self.rest[fold_len..];
        Some(b" ")
    }
}

/// How many SP and HTAB end `bytes`.
#[inline]
fn trailing_ws(bytes: &[u8]) -> usize {
    bytes.iter().rev().take_while(|&&b| is_ws(b)).count()
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

        /// Where the next `parse` call resumes: the offset of the first line not yet accepted
        /// (0 before any parse, the head's length once it is complete). The bytes before it
        /// have been checked and are never read again.
        pub fn resume_offset(&self) -> usize {
            self.head.resume_offset()
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
    /// Parses `line` (without its line end), which starts at `base` in the buffer.
    fn parse(&mut self, line: &[u8], base: usize, lenient: &Leniency) -> Result<Version, Error>;

    /// The common shape of the line `buf[pos..cr]`, checked from the block masks: its version
    /// if the line is valid in that shape, `None` for [`parse`](StartLine::parse) to decide.
    /// The caller has found `cr` as the first byte from `pos` that is not a field-value byte,
    /// and checked that it is a CR followed by LF.
    ///
    /// Everything it accepts, `parse` accepts with the same result under any [`Leniency`]:
    /// the fast path only says yes.
    #[inline(always)]
    fn parse_common<E: Engine>(
        &mut self,
        _buf: &[u8],
        _pos: usize,
        _cr: usize,
        _blocks: &mut FieldBlocks<'_, E>,
    ) -> Option<Version> {
        None
    }
}

/// Trailer sections have no start line.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct NoStartLine;

impl StartLine for NoStartLine {
    const KIND: HeadKind = HeadKind::Trailers;
    fn parse(&mut self, _: &[u8], _: usize, _: &Leniency) -> Result<Version, Error> {
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

/// The known headers that `field_semantics` interprets come first in slot order, so that one
/// compare skips the call for all the others.
const LAST_WITH_SEMANTICS: KnownHeader = KnownHeader::Connection;
const _: () = assert!(
    KnownHeader::Host as u8 <= LAST_WITH_SEMANTICS as u8
        && KnownHeader::ContentLength as u8 <= LAST_WITH_SEMANTICS as u8
        && KnownHeader::TransferEncoding as u8 <= LAST_WITH_SEMANTICS as u8
);

/// The values the parser compares list items with, case-insensitively.
const CHUNKED: Folded = Folded::of(b"chunked");
const CLOSE: Folded = Folded::of(b"close");
const KEEP_ALIVE: Folded = Folded::of(b"keep-alive");

/// A switch for tests: with the one-pass paths off, every line takes the general path, which
/// the one-pass paths must agree with (`crate::tests::one_pass_paths_agree_with_the_general_path`).
#[cfg(test)]
pub(crate) mod one_pass {
    use core::cell::Cell;

    std::thread_local! {
        static OFF: Cell<bool> = const { Cell::new(false) };
    }

    /// Whether this thread has the one-pass paths off.
    pub(crate) fn is_off() -> bool {
        OFF.with(Cell::get)
    }

    /// Runs `f` with the one-pass paths off on this thread.
    pub(crate) fn off<T>(f: impl FnOnce() -> T) -> T {
        OFF.with(|off| off.set(true));
        let result = f();
        OFF.with(|off| off.set(false));
        result
    }
}

/// The flag of a Connection option the parser acts on, `close` or `keep-alive` (any case), or 0.
#[inline(always)]
fn connection_option(item: &[u8]) -> u16 {
    if CLOSE.matches(item) {
        flag::CLOSE
    } else if KEEP_ALIVE.matches(item) {
        flag::KEEP_ALIVE
    } else {
        0
    }
}

/// The Transfer-Encoding list `value` (at `value_pos`) applied to `flags`, the flags of the
/// lines before it: the flags after it, or the error of its first wrong coding. Out of line: a
/// value other than exactly `chunked` is rare.
#[inline(never)]
fn transfer_codings(value: &[u8], flags: u16, value_pos: usize) -> Result<u16, Error> {
    let at = |kind, i: usize| Error::new(kind, value_pos + i);
    let mut flags = flags | flag::TRANSFER_ENCODING;
    for (item, off) in ListItems::new(value) {
        let coding = syntax::transfer_coding(item).map_err(|(k, i)| at(k, off + i))?;
        if coding.eq_ignore_ascii_case(b"chunked") {
            // chunked takes no parameters; peers disagree on `chunked;x=y`.
            if coding.len() != item.len() {
                return Err(at(ErrorKind::InvalidTransferEncoding, off + coding.len()));
            }
            if flags & flag::CHUNKED_SEEN != 0 {
                return Err(at(ErrorKind::ChunkedTwice, off));
            }
            flags |= flag::CHUNKED_SEEN | flag::CHUNKED_LAST;
        } else {
            flags &= !flag::CHUNKED_LAST;
        }
    }
    Ok(flags)
}

/// The flags of the Connection options in the list `value` (at `value_pos`), or the error of
/// its first item that is not a token. Out of line: a value other than exactly `close` or
/// `keep-alive` is rare.
#[inline(never)]
fn connection_options(value: &[u8], value_pos: usize) -> Result<u16, Error> {
    let mut flags = 0;
    for (item, off) in ListItems::new(value) {
        let len = scan::token_len(item);
        if len != item.len() {
            return Err(Error::new(
                ErrorKind::InvalidConnection,
                value_pos + off + len,
            ));
        }
        flags |= connection_option(item);
    }
    Ok(flags)
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
    /// its bit set; `reset` clears only `present`. One entry per bit of `present`, so that the
    /// field walk indexes it with no bounds check.
    index: [u8; SLOTS],
    /// Bit `k` set: known header `k` is present. Bit `UNKNOWN_SLOT` is no header's: the unknown
    /// names set it, so that storing a field needs no test of its kind, and `known_bitmap` leaves
    /// it out.
    present: u64,
    content_length: u64,
    /// INVARIANT: every line before `line_start` has been checked and committed.
    line_start: u32,
    /// INVARIANT: `line_start <= scan_from`, and `buf[line_start..scan_from]` holds no NUL, and
    /// no CR or LF but in obs-folds (only with [`Leniency::obs_fold`]).
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
    lenient: Leniency,
}

/// A call of [`Head::parse`], to run with the backend's engine.
struct ParseTask<'a, const N: usize, S> {
    head: &'a mut Head<N>,
    buf: &'a [u8],
    start: &'a mut S,
}

impl<const N: usize, S: StartLine> WithEngine for ParseTask<'_, N, S> {
    type Output = Result<Status, Error>;

    #[inline(always)]
    fn run<E: Engine>(self, engine: E) -> Self::Output {
        let blocks = FieldBlocks::new(engine, self.buf);
        self.head.parse_with(self.buf, self.start, blocks)
    }

    #[cfg(all(target_arch = "x86_64", not(any(miri, httpspan_force_scalar))))]
    #[inline(always)]
    fn small_input(&self) -> bool {
        self.buf.len() < scan::BLOCK
    }

    #[cfg(all(target_arch = "x86_64", not(any(miri, httpspan_force_scalar))))]
    #[inline(always)]
    fn run_small<E: Engine>(self, engine: E) -> Self::Output {
        debug_assert!(self.small_input());
        // A no-op for the input `small_input` accepted; it tells the compiler the length's bound.
        let buf = &self.buf[..self.buf.len().min(scan::BLOCK - 1)];
        // The whole buffer is one block: classified once, up front, every search of the walk
        // is a shift of its masks, with no test for a block to load.
        let blocks = FieldBlocks::whole(scan::WholeBuffer(engine), buf);
        self.head.parse_with(buf, self.start, blocks)
    }
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
            index: [0; SLOTS],
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
            lenient: limits.lenient,
        }
    }

    pub(crate) fn set_limits<S: StartLine>(&mut self, _: &S, limits: &Limits) {
        self.max_lines = limits.max_field_lines;
        self.max_bytes = byte_limit(S::KIND, limits);
        self.lenient = limits.lenient;
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
    #[inline]
    pub(crate) fn parse<S: StartLine>(
        &mut self,
        buf: &[u8],
        start: &mut S,
    ) -> Result<Status, Error> {
        if self.resumes_without_line_end(buf) {
            return Ok(Status::Partial);
        }
        self.parse_with_selected(buf, start)
    }

    /// [`parse`](Self::parse) without the shortcut, with the backend in use. Not inlined, so
    /// that the shortcut's caller does not pay for this function's stack frame.
    #[inline(never)]
    fn parse_with_selected<S: StartLine>(
        &mut self,
        buf: &[u8],
        start: &mut S,
    ) -> Result<Status, Error> {
        scan::with_engine(ParseTask {
            head: self,
            buf,
            start,
        })
    }

    /// The shortcut for a parse resumed inside a line with a few more bytes (a peer that sends
    /// a byte at a time): if they hold no CR, LF or NUL (but perhaps a CR as the very last byte)
    /// and stay below the byte limit, the line is still incomplete, which is all the full path
    /// would find, after more work. The search state advances past them exactly as the full
    /// path's line-end search would advance it.
    #[inline(always)]
    fn resumes_without_line_end(&mut self, buf: &[u8]) -> bool {
        let (from, end) = (self.scan_from as usize, buf.len());
        // In a start line or a field line (at its start too: without a line end the one-pass
        // path finds the line incomplete and leaves it to the line-end search, which then
        // finds what this check finds; the line is judged by the general path once complete).
        let in_line = matches!(self.phase, Phase::StartLine | Phase::Fields);
        if !in_line || end < from || end - from >= scan::SHORT || end >= self.limit_end as usize {
            return false;
        }
        let new = &buf[from..];
        // Fewer than `SHORT` bytes: the scalar kernel, inlined, whatever the backend.
        let clean = scan::Selected.line_special(new);
        self.scan_from = match new.get(clean) {
            None => end,
            // A CR that ends the buffer: its LF has not arrived, which is all the line-end
            // search would find too, and it would wait at the CR.
            Some(b'\r') if clean + 1 == new.len() => from + clean,
            Some(_) => return false,
        } as u32;
        true
    }

    /// [`parse`](Self::parse) with the kernels of `engine`. Inlined into each backend's entry
    /// point (see [`scan::with_engine`]), with the functions of the per-line path.
    #[inline(always)]
    fn parse_with<S: StartLine, E: Engine>(
        &mut self,
        buf: &[u8],
        start: &mut S,
        mut blocks: FieldBlocks<'_, E>,
    ) -> Result<Status, Error> {
        // Stage 1, lazily: the cursor classifies blocks as the walk below reaches them (a head
        // under one block it has classified already; see `run_small`).
        let engine = blocks.engine();
        // The phases in their order, each falling through to the next: a phase a line moves on
        // from is left with `self.phase` just written, so the compiler knows the next test's
        // answer and a head parsed in one call goes from phase to phase with no dispatch.
        loop {
            if self.phase == Phase::Leading {
                let pos = self.line_start as usize;
                if S::KIND == HeadKind::Trailers {
                    self.begin(pos, Phase::Fields);
                } else {
                    match buf.get(pos) {
                        None => return Ok(Status::Partial),
                        Some(b'\r' | b'\n') => {
                            // A status-line never starts with CR or LF, so a response is wrong at
                            // this byte whatever follows; waiting for the rest of the line end
                            // would call a stream cut here incomplete instead of invalid.
                            if S::KIND == HeadKind::Response {
                                return Err(Error::new(ErrorKind::EmptyLineBeforeStatusLine, pos));
                            }
                            // An empty line is its line end and nothing else; the line-end
                            // search decides whether these bytes are one.
                            self.limit_end = (pos + 2) as u32;
                            let Some((_, next)) = self.find_line_end(S::KIND, buf, engine)? else {
                                return Ok(Status::Partial);
                            };
                            if self.empty_lines == 2 {
                                return Err(Error::new(ErrorKind::TooManyEmptyLines, pos));
                            }
                            self.empty_lines += 1;
                            self.next_line(next, Phase::Leading);
                            continue;
                        }
                        _ => self.begin(pos, Phase::StartLine),
                    }
                }
            }
            if self.phase == Phase::StartLine
                && !self.start_line_in_one_pass(buf, start, &mut blocks)
            {
                let Some((end, next)) = self.find_line_end(S::KIND, buf, engine)? else {
                    return Ok(Status::Partial);
                };
                let pos = self.line_start as usize;
                self.version = start.parse(&buf[pos..end], pos, &self.lenient)?;
                self.next_line(next, Phase::Fields);
            }
            if self.phase == Phase::Fields {
                // An obs-fold can continue a line past its CRLF, which the one-pass check
                // does not look for: with `obs_fold` every line takes the general path.
                if self.lenient.obs_fold || !self.fields_in_one_pass::<S, E>(buf, &mut blocks)? {
                    let Some((end, next)) = self.find_line_end(S::KIND, buf, engine)? else {
                        return Ok(Status::Partial);
                    };
                    let pos = self.line_start as usize;
                    if end != pos {
                        self.field_line(S::KIND, buf, pos, end)?;
                        self.next_line(next, Phase::Fields);
                        continue;
                    }
                    self.check_complete(S::KIND, pos)?;
                    self.next_line(next, Phase::Done);
                }
            }
            debug_assert!(self.phase == Phase::Done);
            return Ok(Status::Complete {
                head_len: self.line_start as usize,
            });
        }
    }

    /// The start of the head proper: from here on, its bytes count against the limit.
    #[inline(always)]
    fn begin(&mut self, pos: usize, phase: Phase) {
        self.limit_end = (pos + self.max_bytes as usize).min(SPAN_LIMIT) as u32;
        self.scan_from = pos as u32;
        self.phase = phase;
    }

    /// Moves to the line that starts at `next`.
    #[inline(always)]
    fn next_line(&mut self, next: usize, phase: Phase) {
        self.line_start = next as u32;
        self.scan_from = self.line_start;
        self.phase = phase;
    }

    /// Finds the line end (CRLF, or with [`Leniency::bare_lf`] a bare LF) of the current line,
    /// continuing the search where the last call stopped: `Ok(Some((end, next)))` with the
    /// offset of the line end and of the next line, `Ok(None)` if the buffer ends first.
    ///
    /// With [`Leniency::obs_fold`], a line end inside a field line that is followed by SP or HTAB
    /// is an obs-fold and the line goes on, so a field line ends only once the byte after its
    /// line end has arrived. That byte lies within the limit or the head could not end in it.
    // Inlined where the loop is compiled per backend (x86_64), so that the kernels inline; one
    // copy elsewhere, for the wasm module's size.
    #[cfg_attr(target_arch = "x86_64", inline(always))]
    fn find_line_end<E: Engine>(
        &mut self,
        kind: HeadKind,
        buf: &[u8],
        engine: E,
    ) -> Result<Option<(usize, usize)>, Error> {
        let limit = self.limit_end as usize;
        let end = buf.len().min(limit);
        let folds = self.lenient.obs_fold && self.phase == Phase::Fields;
        while (self.scan_from as usize) < end {
            let from = self.scan_from as usize;
            let i = from + engine.line_special(&buf[from..end]);
            if i == end {
                self.scan_from = end as u32;
                break;
            }
            let next = match buf[i] {
                b'\r' => match buf.get(i + 1) {
                    // The LF would be the first byte over the limit.
                    Some(_) if i + 1 >= limit => return Err(self.too_large(kind)),
                    Some(b'\n') => i + 2,
                    Some(_) => return Err(Error::new(ErrorKind::BareCr, i + 1)),
                    None => {
                        self.scan_from = i as u32;
                        return Ok(None);
                    }
                },
                b'\n' if self.lenient.bare_lf => i + 1,
                b'\n' => return Err(Error::new(ErrorKind::BareLf, i)),
                _ => return Err(Error::new(ErrorKind::Nul, i)),
            };
            if folds && i > self.line_start as usize {
                if next >= limit {
                    // Folded or not, the head cannot end within the limit; the error waits for
                    // that first byte over it, as everywhere.
                    if buf.len() > next {
                        return Err(self.too_large(kind));
                    }
                    self.scan_from = i as u32;
                    return Ok(None);
                }
                match buf.get(next) {
                    Some(&b) if is_ws(b) => {
                        self.scan_from = (next + 1) as u32;
                        continue;
                    }
                    Some(_) => {}
                    None => {
                        // Resume at the line end: one or two bytes are looked at again.
                        self.scan_from = i as u32;
                        return Ok(None);
                    }
                }
            }
            return Ok(Some((i, next)));
        }
        // The error waits for the first byte over the limit, so that its offset is a byte of
        // the input.
        if buf.len() > limit {
            return Err(self.too_large(kind));
        }
        Ok(None)
    }

    fn too_large(&self, kind: HeadKind) -> Error {
        let kind = match (kind, self.phase) {
            (HeadKind::Trailers, _) => ErrorKind::TrailersTooLarge,
            (HeadKind::Request, Phase::StartLine) => ErrorKind::TargetTooLong,
            _ => ErrorKind::HeadTooLarge,
        };
        Error::new(kind, self.limit_end as usize)
    }

    /// Whether the one-pass paths may take the current line: at its first attempt, or once its
    /// CRLF has arrived (the line-end search, resumed, stops at the CR and waits there for
    /// the LF). A line fed in many pieces is so classified at most twice, not once per piece,
    /// and a line completed by a byte-at-a-time feed is checked by the one-pass path too.
    #[inline(always)]
    fn first_or_complete_attempt(&self, buf: &[u8]) -> bool {
        #[cfg(test)]
        if one_pass::is_off() {
            return false;
        }
        let from = self.scan_from as usize;
        from == self.line_start as usize || buf.get(from..from + 2) == Some(b"\r\n")
    }

    /// The common case of a start line, from the block masks: a valid line of the usual shape
    /// whose CRLF is in the buffer is parsed and `true` returned. Anything else returns `false`
    /// for the general path (`find_line_end`, then [`StartLine::parse`]), after recording how
    /// far the line is known to hold no CR, LF or NUL, so that those bytes are not searched
    /// twice. Only a line's first attempt, or one whose CRLF has arrived since, takes this path
    /// (see `first_or_complete_attempt`), so a line resumed many times is not classified many
    /// times.
    // Inlined where the walk is compiled per backend (x86_64); one copy elsewhere, for the wasm
    // module's size.
    #[cfg_attr(target_arch = "x86_64", inline(always))]
    fn start_line_in_one_pass<S: StartLine, E: Engine>(
        &mut self,
        buf: &[u8],
        start: &mut S,
        blocks: &mut FieldBlocks<'_, E>,
    ) -> bool {
        let pos = self.line_start as usize;
        if !self.first_or_complete_attempt(buf) {
            return false;
        }
        let end = buf.len().min(self.limit_end as usize);
        // Every byte of a valid start line is a field-value byte: the first that is not must
        // be the CR.
        let cr = blocks.next_not_value(pos);
        if cr + 1 < end && buf[cr] == b'\r' && buf[cr + 1] == b'\n' {
            if let Some(version) = start.parse_common(buf, pos, cr, blocks) {
                self.version = version;
                self.next_line(cr + 2, Phase::Fields);
                return true;
            }
        }
        // Field-value bytes are not CR, LF or NUL.
        self.scan_from = cr.min(end) as u32;
        false
    }

    /// The common case of field lines, from the block masks, line after line while they have
    /// the usual shape:
    ///
    /// ```text
    /// loop at pos, the start of a line:
    ///     colon = next non-tchar from pos
    ///     colon == pos: CR LF ends the head; anything else is not the usual shape
    ///     must be ':' after the name
    ///     skip one SP after the colon
    ///     cr = next non-field-value byte         // must be CR, then LF, within the limit
    ///     trim SP/HTAB around the value; look the name up; store the field; pos = cr + 2
    /// ```
    ///
    /// Each line that passes is checked in full: a name of `tchar`s, a colon, a value of
    /// field-value bytes and CRLF is exactly a valid field line. The first line that does not
    /// have this shape, or is incomplete, or meets a limit, is left to the general path
    /// (`find_line_end`, then `field_line`), which finds the exact error and offset; `false`
    /// then says so, after recording how far that line is known to hold no CR, LF or NUL. `true`
    /// when the head's empty line was reached. Only a line's first attempt, or one whose CRLF
    /// has arrived since, takes this path (see `first_or_complete_attempt`).
    ///
    /// The line and slot counts live in locals and are written back once, at the exit: little
    /// state is written per line.
    ///
    /// Requests and responses only: for a trailer section, rare and short, it returns `false`
    /// at once and the general path takes every line, which spares the wasm module a third copy
    /// of the walk (and the walk the trailers' rule that their fields mean nothing for framing).
    // Inlined where the walk is compiled per backend (x86_64). Elsewhere one copy per head kind
    // (`S::KIND` a constant in each): in the wasm module that cost about 240 bytes gzipped and
    // made the parse 1 to 7 % faster on medium and large heads and 16 to 17 % on small ones,
    // against one copy shared by all kinds.
    #[cfg_attr(target_arch = "x86_64", inline(always))]
    fn fields_in_one_pass<S: StartLine, E: Engine>(
        &mut self,
        buf: &[u8],
        shared: &mut FieldBlocks<'_, E>,
    ) -> Result<bool, Error> {
        let kind = S::KIND;
        let mut pos = self.line_start as usize;
        if kind == HeadKind::Trailers || !self.first_or_complete_attempt(buf) {
            return Ok(false);
        }
        // The bytes the head may occupy: a line is accepted only if its LF is among them.
        let head = &buf[..buf.len().min(self.limit_end as usize)];
        let (mut lines, mut stored) = (self.lines, self.stored as usize);
        // The cursor in a local, written back at the exit: where this function is a call (the
        // wasm module), its cached block then lives in locals rather than behind a pointer.
        let mut blocks = *shared;
        // How far the first line not accepted is known to hold no CR, LF or NUL.
        let mut clean_to = pos;
        let outcome = loop {
            let colon = blocks.next_not_token(pos);
            if colon == pos {
                break Ok(head.get(pos..pos + 2) == Some(b"\r\n"));
            }
            // Token bytes are not CR, LF or NUL.
            clean_to = colon;
            // The colon and the byte after it, which a complete line has (its CR at the least).
            let value_start = match head.get(colon..colon + 2) {
                Some(&[b':', next]) if lines < self.max_lines => {
                    colon + 1 + usize::from(next == b' ')
                }
                _ => break Ok(false),
            };
            // From the byte after the colon, not from the value's start: the SP between them
            // is a value byte, so the CR is the same, and the search, which the next line's
            // waits on, does not wait on the load that tells the SP.
            let cr = blocks.next_not_value(colon + 1);
            if head.get(cr..cr + 2) != Some(b"\r\n") {
                // Neither the colon nor value bytes are CR, LF or NUL.
                clean_to = cr;
                break Ok(false);
            }
            // More whitespace around the value than the one SP after the colon is rare. The only
            // field-value bytes at or below SP are SP and HTAB, and an empty value starts at the
            // CR: a value whose two ends are above SP has nothing to trim.
            let (value_start, value_end) = if head[value_start] > b' ' && head[cr - 1] > b' ' {
                (value_start, cr)
            } else {
                let value = &head[value_start..cr];
                let lead = value.iter().take_while(|&&b| is_ws(b)).count();
                (value_start + lead, cr - trailing_ws(&value[lead..]))
            };
            let known = KnownHeader::id_of_name(&head[pos..colon]);
            if known <= LAST_WITH_SEMANTICS as u8 {
                // A Host value of a reg-name and a port is checked here, from a mask of its
                // bytes; any other goes through `syntax::host`.
                let host_checked = kind == HeadKind::Request
                    && known == KnownHeader::Host as u8
                    && value_start < value_end
                    && syntax::host_of_reg_name(
                        &head[value_start..value_end],
                        blocks::next_outside_one(
                            blocks.engine(),
                            head,
                            value_start,
                            ByteClass::RegName,
                        ) - value_start,
                    );
                if let Err(e) = self.field_semantics(
                    kind,
                    KnownHeader::ALL[known as usize],
                    &head[value_start..value_end],
                    pos,
                    value_start,
                    host_checked,
                ) {
                    break Err(e);
                }
            }
            lines += 1;
            let field = Field {
                name: Span::from_range(pos, colon),
                value: Span::from_range(value_start, value_end),
                known,
            };
            self.store_in_slot(stored, field, pos);
            stored += usize::from(stored < N);
            pos = cr + 2;
            clean_to = pos;
        };
        *shared = blocks;
        self.lines = lines;
        self.stored = stored as u16;
        self.line_start = pos as u32;
        self.scan_from = clean_to.min(head.len()) as u32;
        if outcome? {
            self.check_complete(kind, pos)?;
            self.next_line(pos + 2, Phase::Done);
            return Ok(true);
        }
        Ok(false)
    }

    /// Stores a checked field line, starting at `pos`, in `slot` (the next free one), and
    /// indexes its known header if it is the first of its name; with no slot left, remembers
    /// the first line that found none. The caller counts the slot.
    #[inline(always)]
    fn store_in_slot(&mut self, slot: usize, field: Field, pos: usize) {
        if let Some(entry) = self.fields.get_mut(slot) {
            *entry = field;
            // An unknown name's `NOT_KNOWN` becomes `UNKNOWN_SLOT`, no header's: the first such
            // field sets its bit and the others find it set, with no test of the field's kind.
            let known = field.known as usize % SLOTS;
            if self.present & (1 << known) == 0 {
                self.present |= 1 << known;
                self.index[known] = slot as u8;
            }
        } else if self.first_unstored == NO_OFFSET {
            self.first_unstored = pos as u32;
        }
    }

    /// Checks one field line, `buf[pos..end]`, applies what it means for framing and connection,
    /// and stores it.
    fn field_line(
        &mut self,
        kind: HeadKind,
        buf: &[u8],
        pos: usize,
        end: usize,
    ) -> Result<(), Error> {
        let parts = self.field_parts(kind, &buf[pos..end], pos)?;
        let known = KnownHeader::id_of_name(&buf[pos..pos + parts.0]);
        self.store_field(kind, buf, pos, parts, known, false)
    }

    /// Applies what a checked field line means for framing and connection, and stores it. `parts`
    /// are the name length and the value bounds, relative to the line's start `pos`.
    #[inline(always)]
    fn store_field(
        &mut self,
        kind: HeadKind,
        buf: &[u8],
        pos: usize,
        (name_len, value_start, value_end): (usize, usize, usize),
        known: u8,
        host_checked: bool,
    ) -> Result<(), Error> {
        let line = &buf[pos..];
        // With obs-folds, the value holds the raw line breaks; the semantics read each fold as
        // whitespace, which is what `unfold` presents.
        if known <= LAST_WITH_SEMANTICS as u8 && kind != HeadKind::Trailers {
            self.field_semantics(
                kind,
                KnownHeader::ALL[known as usize],
                &line[value_start..value_end],
                pos,
                pos + value_start,
                host_checked,
            )?;
        }

        self.lines += 1;
        let field = Field {
            name: Span::from_range(pos, pos + name_len),
            value: Span::from_range(pos + value_start, pos + value_end),
            known,
        };
        let slot = self.stored as usize;
        self.store_in_slot(slot, field, pos);
        self.stored += u16::from(slot < N);
        Ok(())
    }

    /// Splits a field line (non-empty, without its line end, starting at `pos`) into the length
    /// of its name and the bounds of its trimmed value, checking every byte and the line limit.
    /// A line cut short fails only at its end, so a truncated line can be checked too.
    ///
    /// A CR or LF in the line is part of an obs-fold: the line-end search lets no other through.
    fn field_parts(
        &self,
        kind: HeadKind,
        line: &[u8],
        pos: usize,
    ) -> Result<(usize, usize, usize), Error> {
        if is_ws(line[0]) {
            let kind = match (kind, self.lines) {
                (HeadKind::Trailers, _) | (_, 1..) => ErrorKind::ObsFold,
                _ => ErrorKind::WhitespaceBeforeFirstField,
            };
            return Err(Error::new(kind, pos));
        }
        let name_len = scan::token_len(line);
        let mut colon = name_len;
        if self.lenient.space_before_colon && name_len > 0 {
            colon += line[name_len..].iter().take_while(|&&b| is_ws(b)).count();
        }
        match line.get(colon) {
            Some(b':') if name_len > 0 => {}
            Some(b':') => return Err(Error::new(ErrorKind::InvalidFieldName, pos)),
            Some(b' ' | b'\t') => {
                return Err(Error::new(ErrorKind::WhitespaceBeforeColon, pos + name_len))
            }
            Some(_) => return Err(Error::new(ErrorKind::InvalidFieldName, pos + colon)),
            None => return Err(Error::new(ErrorKind::MissingColon, pos + colon)),
        }
        let folds = self.lenient.obs_fold;
        let value_ws = |b: u8| {
            if folds {
                syntax::is_folded_ws(b)
            } else {
                is_ws(b)
            }
        };
        let mut value_start = colon + 1;
        while value_start < line.len() && value_ws(line[value_start]) {
            value_start += 1;
        }
        let mut i = value_start;
        loop {
            i += scan::field_value_len(&line[i..]);
            match line.get(i) {
                None => break,
                Some(b'\r' | b'\n') if folds => i += 1,
                Some(_) => return Err(Error::new(ErrorKind::InvalidFieldValue, pos + i)),
            }
        }
        let mut value_end = line.len();
        while value_end > value_start && value_ws(line[value_end - 1]) {
            value_end -= 1;
        }
        if self.lines >= self.max_lines {
            return Err(Error::new(ErrorKind::TooManyFields, pos));
        }
        Ok((name_len, value_start, value_end))
    }

    /// What Content-Length, Transfer-Encoding, Connection and Host mean for the message
    /// (RFC 9112 6.1, 6.3, 9.3; RFC 9110 7.6.1). Updates state only when the line is valid.
    /// `kind` is a value, not a type parameter: one copy serves requests and responses.
    ///
    /// The common values (a plain Content-Length, `chunked`, `close` or `keep-alive`, a Host
    /// already checked from the masks) are decided here; lists, the Host grammar and the other
    /// parsers are calls. So it is small enough to inline where the walk is compiled per backend
    /// (x86_64), and most heads make no call for what their values mean; one copy elsewhere,
    /// for the wasm module's size.
    #[cfg_attr(target_arch = "x86_64", inline(always))]
    fn field_semantics(
        &mut self,
        kind: HeadKind,
        known: KnownHeader,
        value: &[u8],
        line: usize,
        value_pos: usize,
        host_checked: bool,
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
                // The length of an earlier Content-Length line, which this one must repeat.
                let seen = (self.flags & flag::CONTENT_LENGTH != 0).then_some(self.content_length);
                self.content_length = if !self.lenient.duplicate_content_length {
                    if seen.is_some() {
                        return Err(Error::new(ErrorKind::DuplicateContentLength, line));
                    }
                    match syntax::few_digits(value) {
                        Some(n) => n,
                        None => syntax::content_length(value).map_err(at)?,
                    }
                } else {
                    syntax::content_length_list(value, seen).map_err(|e| match e {
                        Some(e) => at(e),
                        None => Error::new(ErrorKind::DuplicateContentLength, line),
                    })?
                };
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
                // The common case: exactly `chunked`, the first Transfer-Encoding line.
                if self.flags & flag::TRANSFER_ENCODING == 0 && CHUNKED.matches(value) {
                    self.flags |= flag::TRANSFER_ENCODING | flag::CHUNKED_SEEN | flag::CHUNKED_LAST;
                    self.te_line = line as u16;
                    return Ok(());
                }
                self.flags = transfer_codings(value, self.flags, value_pos)?;
                self.te_line = line as u16;
            }
            KnownHeader::Connection => {
                // The commonest values whole: each is one token, the list's only item.
                self.flags |= match connection_option(value) {
                    0 => connection_options(value, value_pos)?,
                    common => common,
                };
            }
            KnownHeader::Host if kind == HeadKind::Request => {
                if self.flags & flag::HOST != 0 {
                    return Err(Error::new(ErrorKind::DuplicateHost, line));
                }
                if !host_checked {
                    syntax::host(value).map_err(at)?;
                }
                self.flags |= flag::HOST;
            }
            _ => {}
        }
        Ok(())
    }

    /// The checks that need the whole head, run at its empty line (at `pos`).
    fn check_complete(&self, kind: HeadKind, pos: usize) -> Result<(), Error> {
        if kind == HeadKind::Request {
            if self.flags & (flag::TRANSFER_ENCODING | flag::CHUNKED_LAST)
                == flag::TRANSFER_ENCODING
            {
                return Err(Error::new(ErrorKind::ChunkedNotLast, self.te_line as usize));
            }
            if self.version == Version::Http11
                && self.flags & flag::HOST == 0
                && !self.lenient.missing_host
            {
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

    pub(crate) fn resume_offset(&self) -> usize {
        self.line_start as usize
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
    ///
    /// With [`Leniency::obs_fold`] a field line is never complete at its line end, since an
    /// obs-fold could continue it: a line end that arrived, whole or in part, is set aside and the
    /// line judged on its bytes.
    pub(crate) fn check_truncated<S: StartLine>(&self, buf: &[u8], start: &S) -> Result<(), Error> {
        let pos = self.line_start as usize;
        let rest = buf.get(pos..).unwrap_or(&[]);
        if rest.is_empty() || matches!(self.phase, Phase::Leading | Phase::Done) {
            return Ok(());
        }
        // Only a field line that waits for the byte after its line end can end in LF.
        let (line, ended) = match rest {
            [line @ .., b'\r', b'\n'] | [line @ .., b'\n'] | [line @ .., b'\r'] => (line, true),
            _ => (rest, false),
        };
        let folds = self.lenient.obs_fold && self.phase == Phase::Fields && !line.is_empty();
        let complete = ended && !folds;
        let result = match self.phase {
            Phase::StartLine => start.clone().parse(line, pos, &self.lenient).map(drop),
            Phase::Fields if line.is_empty() => self.check_complete(S::KIND, pos),
            Phase::Fields if complete => {
                self.clone().field_line(S::KIND, buf, pos, pos + line.len())
            }
            _ => self.field_parts(S::KIND, line, pos).map(drop),
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
        // Read through the index, not kept beside it: a copy of each first value cost the field
        // walk a store per line (40 to 70 instructions a large head), for one load less here.
        // Written out rather than through `known_index`: composed from it, the same test and
        // loads compiled slower (1.28-1.32 ns against 1.00-1.03 for the tables' three lookups).
        let slot = known as usize;
        if self.present & (1 << slot) == 0 {
            return None;
        }
        self.fields.get(self.index[slot] as usize).map(|f| f.value)
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
        self.present & !(1 << UNKNOWN_SLOT)
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
