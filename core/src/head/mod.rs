//! The head engine shared by [`Request`](crate::Request), [`Response`](crate::Response) and
//! [`Trailers`](crate::Trailers).
//!
//! A head is parsed one complete line at a time. The engine remembers where the next line starts
//! and how far the search for its end got, so a parse resumed on a longer buffer continues from
//! there and never looks at an accepted line again. Each line is checked in full when its CRLF
//! is found, and committed to the field table only when every check passed, so a failed parse
//! leaves the state as it was and a repeated call fails the same way.
//!
//! The rooms, in the order a parse goes through them:
//!
//! - this file: the state of one head and the loop over its phases (empty lines before a
//!   request-line, the start line, the field lines, done);
//! - `lines`: the line engine, which finds each line's end within the limits and resumes the
//!   search where it stopped;
//! - `fast`: the paths that only say yes, reading the usual start line and field lines from
//!   the block masks (stage 2 over [`scan::blocks`]);
//! - `precise`: the path that checks any line byte by byte and finds the exact error and its
//!   offset, also for a head that a stream cut short;
//! - `table`: the field table and the known-header index;
//! - [`crate::framing`]: what the fields mean for the body and the connection.

mod accessors;
mod fast;
mod field;
mod lines;
mod precise;
mod start_line;
mod table;

pub(crate) use accessors::field_accessors;
pub use field::{unfold, Field, Unfolded};
pub(crate) use start_line::{NoStartLine, StartLine};

use crate::error::{Error, ErrorKind};
use crate::framing::FramingFields;
use crate::head_kind::HeadKind;
use crate::limits::{Leniency, Limits};
use crate::scan::blocks::FieldBlocks;
use crate::scan::{self, Engine, WithEngine};
use crate::syntax::Version;
use table::SLOTS;

/// The outcome of a parse that did not fail.
///
/// Exhaustive for good: a head is complete or not yet; a failure is an [`Error`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The head is complete: it is `buf[..head_len]`, and the body (if any) starts at `head_len`.
    Complete {
        /// Bytes of the head, including any empty lines skipped before a request-line and the
        /// CRLF that ends the head.
        head_len: usize,
    },
    /// The buffer ends before the head does: append bytes and call `parse` again with the
    /// longer buffer. The parse resumes after the last complete line. Never returned for a
    /// buffer that holds the head's whole byte limit: then no byte can complete it, and the
    /// answer is the limit's error.
    Partial,
}

impl Status {
    /// Whether the head is complete.
    #[must_use]
    pub const fn is_complete(self) -> bool {
        matches!(self, Status::Complete { .. })
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
    framing: FramingFields,
    /// INVARIANT: every line before `line_start` has been checked and committed.
    line_start: u32,
    /// INVARIANT: `line_start <= scan_from`, and `buf[line_start..scan_from]` holds no NUL, and
    /// no CR or LF but in obs-folds (only with [`Leniency::obs_fold`]). `u32::MAX` once the head
    /// is complete, so that a further `parse` without `reset` fails the entry check.
    scan_from: u32,
    /// One past the last byte the head may occupy.
    limit_end: u32,
    max_bytes: u32,
    lines: u16,
    max_lines: u16,
    phase: Phase,
    empty_lines: u8,
    version: Version,
    lenient: Leniency,
}

/// A call of [`Head::parse`], to run with the backend's engine. `FAST` off leaves every line
/// to the precise path, and every buffer of a block or more to the whole-block walk: what tests
/// compare the fast paths and the small-head copies with.
struct ParseTask<'a, const N: usize, S, const FAST: bool> {
    head: &'a mut Head<N>,
    buf: &'a [u8],
    start: &'a mut S,
}

impl<const N: usize, S: StartLine, const FAST: bool> WithEngine for ParseTask<'_, N, S, FAST> {
    type Output = Result<Status, Error>;

    /// The walk over whole blocks, which classifies each block as its searches reach it.
    #[inline(always)]
    fn run<E: Engine>(self, engine: E) -> Self::Output {
        let blocks = FieldBlocks::new(engine, self.buf);
        self.head
            .parse_with::<S, E, FAST>(self.buf, self.start, blocks)
    }

    #[inline(always)]
    fn small_input(&self) -> bool {
        self.buf.len() < scan::BLOCK
    }

    #[inline(always)]
    fn run_small<E: Engine>(self, engine: E) -> Self::Output {
        debug_assert!(self.small_input());
        // A no-op for the input `small_input` accepted; it tells the compiler the length's bound.
        let buf = &self.buf[..self.buf.len().min(scan::BLOCK - 1)];
        self.parse_in_one_block::<E, false>(
            engine,
            FieldBlocks::whole(scan::WholeBuffer(engine), buf),
        )
    }

    const MAY_PARSE_FROM_START: bool = FAST;

    #[inline(always)]
    fn head_from_start(&self) -> Option<&[u8]> {
        (self.head.line_start == 0).then_some(self.buf)
    }

    #[inline(always)]
    fn run_head_in_first_block<E: Engine>(self, engine: E) -> Self::Output {
        // The first block's bytes but its last, a prefix of a constant length, so that no
        // instruction of the parse waits for the search that found the CR LF CR LF.
        let blocks = FieldBlocks::whole_from_first_block(scan::WholeBuffer(engine), self.buf);
        self.parse_in_one_block::<E, true>(engine, blocks)
    }
}

impl<const N: usize, S: StartLine, const FAST: bool> ParseTask<'_, N, S, FAST> {
    /// The small-head copies' parse: of the bytes `blocks` has classified whole, up front, so
    /// that every search of the walk is a shift of the cached masks, with no test for a block to
    /// load. They are the buffer, or with `PREFIX` a prefix of it under one block, which gives
    /// what the buffer gives unless it stops short (split invariance): a head that goes on past
    /// it (or empty lines before a request-line, whose CR LF CR LF was not the head's end) goes
    /// on in the walk over whole blocks, from the line the copy stopped at. A constant rather
    /// than a compare of lengths, so that the copy for a short buffer compiles no hand-off.
    #[inline(always)]
    fn parse_in_one_block<E: Engine, const PREFIX: bool>(
        self,
        engine: E,
        blocks: FieldBlocks<'_, scan::WholeBuffer<E>>,
    ) -> Result<Status, Error> {
        let bytes = blocks.buf();
        match self
            .head
            .parse_with::<S, _, FAST>(bytes, self.start, blocks)
        {
            Ok(Status::Partial) if PREFIX => engine.whole_copy(self),
            done => done,
        }
    }
}

/// The byte limit of a head or trailer section.
const fn byte_limit(kind: HeadKind, limits: &Limits) -> u32 {
    match kind {
        HeadKind::Trailers => limits.max_trailer_bytes,
        _ => limits.max_head_bytes as u32,
    }
}

/// The field-line bound of a head with `N` slots: the smaller of the limit and the slots, so
/// that every line within it has a slot and raising one of the two never half-succeeds.
const fn line_limit<const N: usize>(limits: &Limits) -> u16 {
    let slots = N as u16;
    if limits.max_field_lines < slots {
        limits.max_field_lines
    } else {
        slots
    }
}

impl<const N: usize> Head<N> {
    pub(crate) const fn new(kind: HeadKind, limits: &Limits) -> Self {
        // The index array stores field positions as u8.
        const { assert!(N <= 255, "at most 255 field slots") };
        let max_lines = line_limit::<N>(limits);
        Head {
            fields: [Field::EMPTY; N],
            index: [0; SLOTS],
            present: 0,
            framing: FramingFields::NONE,
            line_start: 0,
            scan_from: 0,
            limit_end: 0,
            max_bytes: byte_limit(kind, limits),
            lines: 0,
            max_lines,
            phase: Phase::Leading,
            empty_lines: 0,
            version: Version::Http11,
            lenient: limits.lenient,
        }
    }

    pub(crate) fn set_limits<S: StartLine>(&mut self, _: &S, limits: &Limits) {
        self.max_lines = line_limit::<N>(limits);
        self.max_bytes = byte_limit(S::KIND, limits);
        self.lenient = limits.lenient;
    }

    /// Forgets the parsed message, keeping the limits. Clears a few dozen bytes: the field table
    /// is overwritten by the next parse, not cleared.
    pub(crate) fn reset(&mut self) {
        self.present = 0;
        self.framing = FramingFields::NONE;
        self.line_start = 0;
        self.scan_from = 0;
        self.limit_end = 0;
        self.lines = 0;
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
        // One compare catches both misuses: a complete head holds `scan_from` at `u32::MAX`,
        // and otherwise the parse has read `buf[..scan_from]` already.
        if buf.len() < self.scan_from as usize {
            return Err(self.misuse(buf.len()));
        }
        if self.resumes_without_line_end(buf) {
            return Ok(Status::Partial);
        }
        self.parse_with_selected::<S, true>(buf, start)
    }

    /// The error for a call that breaks the contract of `parse`: after a complete head without
    /// `reset`, or with a buffer of `len` bytes, shorter than what was read before.
    #[cold]
    #[inline(never)]
    fn misuse(&self, len: usize) -> Error {
        match self.phase {
            Phase::Done => Error::new(ErrorKind::ParseAfterComplete, 0),
            _ => Error::new(ErrorKind::BufferShorterThanParsed, len),
        }
    }

    /// [`parse`](Self::parse) without the shortcut, with the backend in use; `FAST` off leaves
    /// every line to the precise path (see `ParseTask`). Not inlined, so that the shortcut's
    /// caller does not pay for this function's stack frame.
    #[inline(never)]
    fn parse_with_selected<S: StartLine, const FAST: bool>(
        &mut self,
        buf: &[u8],
        start: &mut S,
    ) -> Result<Status, Error> {
        scan::with_engine(ParseTask::<N, S, FAST> {
            head: self,
            buf,
            start,
        })
    }

    /// [`parse`](Self::parse) with every line through the precise path, and a head that ends in
    /// the first block of a longer buffer through the whole-block walk: what the fast paths and
    /// the small-head copy must agree with.
    #[cfg(test)]
    pub(crate) fn parse_precise<S: StartLine>(
        &mut self,
        buf: &[u8],
        start: &mut S,
    ) -> Result<Status, Error> {
        self.parse_with_selected::<S, false>(buf, start)
    }

    /// [`parse`](Self::parse) with the kernels of `engine`. Inlined into each backend's entry
    /// point (see [`scan::with_engine`]), with the functions of the per-line path.
    #[inline(always)]
    fn parse_with<S: StartLine, E: Engine, const FAST: bool>(
        &mut self,
        buf: &[u8],
        start: &mut S,
        mut blocks: FieldBlocks<'_, E>,
    ) -> Result<Status, Error> {
        // Stage 1, lazily: the cursor classifies blocks as the walk below reaches them (the
        // first block, or a whole head under one block, it may have classified already; see
        // `ParseTask`).
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
                && !(FAST && self.start_line_in_one_pass(buf, start, &mut blocks))
            {
                let Some((end, next)) = self.find_line_end(S::KIND, buf, engine)? else {
                    return Ok(Status::Partial);
                };
                let pos = self.line_start as usize;
                self.version = start.parse(&buf[pos..end], pos, &self.lenient, engine)?;
                self.next_line(next, Phase::Fields);
            }
            if self.phase == Phase::Fields {
                // An obs-fold can continue a line past its CRLF, which the one-pass check
                // does not look for: with `obs_fold` every line takes the general path.
                if !FAST
                    || self.lenient.obs_fold
                    || !self.fields_in_one_pass::<S, E>(buf, &mut blocks)?
                {
                    let Some((end, next)) = self.find_line_end(S::KIND, buf, engine)? else {
                        return Ok(Status::Partial);
                    };
                    let pos = self.line_start as usize;
                    if end != pos {
                        self.field_line(S::KIND, buf, pos, end, engine)?;
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

    /// The checks that need the whole head, run at its empty line (at `pos`): the framing rules
    /// that need every field.
    fn check_complete(&self, kind: HeadKind, pos: usize) -> Result<(), Error> {
        self.framing
            .check_complete(kind, self.version, &self.lenient, pos)
    }

    pub(crate) fn resume_offset(&self) -> usize {
        self.line_start as usize
    }

    pub(crate) fn is_complete(&self) -> bool {
        self.phase == Phase::Done
    }

    /// Whether everything parsed so far is empty lines skipped before a request-line.
    pub(crate) fn only_empty_lines(&self, buffered: usize) -> bool {
        self.phase == Phase::Leading && self.line_start as usize == buffered
    }

    pub(crate) fn version(&self) -> Version {
        self.version
    }

    /// What the fields said about framing and the connection.
    pub(crate) fn framing(&self) -> &FramingFields {
        &self.framing
    }
}
