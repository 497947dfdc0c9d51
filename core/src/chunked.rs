//! The chunked transfer coding (RFC 9112 7.1), decoded as a stream.

use core::ops::Range;

use crate::error::{Error, ErrorKind};
use crate::limits::Limits;
use crate::scan::{
    self,
    class::{self, is, is_ws},
};
use crate::syntax::{self, Quoted};

/// What [`ChunkedDecoder::decode`] found. More kinds may be added, so a `match` needs a
/// wildcard arm.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Chunk {
    /// Body data: these bytes of the input given to this call.
    Data(Range<usize>),
    /// Every byte of the input was consumed and more are needed.
    NeedMore,
    /// The last chunk and its line have been consumed; the trailer section starts right after
    /// them. Parse it with [`Trailers`](crate::Trailers).
    TrailerSection,
    /// From [`ChunkedDecoder::decode_lines`] only: a chunk line (the last chunk's too) has been
    /// consumed; it ends (one past its LF) where the bytes consumed by this call end.
    Line(ChunkLine),
}

/// Where the parts of a chunk line are: `chunk-size [ chunk-ext ] CRLF` (RFC 9112 7.1), the
/// last chunk's `0` line included.
///
/// A line may be split across any number of inputs, so its parts are given as lengths counted
/// by the decoder, back from where it is reported: the end of the bytes consumed by the call
/// that returns it, one past its LF. The line starts [`line_len`](Self::line_len) bytes before that, its
/// chunk-size takes the first `digits` bytes, the chunk-ext the next `ext_len`, and the line end
/// the last `eol_len`. The chunk's data starts at the line's end, and the CRLF after the data
/// ends where the next line starts.
///
/// ```
/// use httpspan::{Chunk, ChunkLine, ChunkedDecoder, Limits};
///
/// let mut decoder = ChunkedDecoder::new();
/// let (used, chunk) = decoder.decode_lines(b"5;a=\"b\"\r\nhello", &Limits::DEFAULT)?;
/// let Chunk::Line(line) = chunk else { unreachable!() };
/// assert_eq!((line.size, line.digits, line.ext_len, line.eol_len), (5, 1, 6, 2));
/// assert_eq!((line.line_len(), used), (9, 9)); // the line is `input[used - 9..used]`
/// # Ok::<(), httpspan::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkLine {
    /// The chunk-size: bytes of data that follow the line; 0 for the last chunk.
    pub size: u64,
    /// Hex digits of the chunk-size, from the line's first byte: 1 to 16.
    pub digits: u8,
    /// Bytes of chunk-ext between the digits and the line end (whitespace before a `;`
    /// included, as in the grammar's `BWS ";"`); 0 without extensions. At most
    /// [`Limits::max_chunk_ext_bytes`].
    pub ext_len: u32,
    /// Bytes of the line end: 2 for CRLF, 1 for a bare LF taken with
    /// [`Leniency::bare_lf`](crate::Leniency::bare_lf).
    pub eol_len: u8,
}

impl ChunkLine {
    /// Bytes of the whole line, through its LF.
    #[must_use]
    pub fn line_len(&self) -> u64 {
        u64::from(self.digits) + u64::from(self.ext_len) + u64::from(self.eol_len)
    }

    /// Whether this is the last chunk's line (chunk-size 0): the trailer section follows it.
    #[must_use]
    pub fn is_last(&self) -> bool {
        self.size == 0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum State {
    /// In the hex digits of a chunk-size.
    Size,
    /// Whitespace after the chunk-size: only `;` may follow.
    SizeSpace,
    /// After `;`, before the extension name.
    ExtBeforeName,
    ExtName,
    /// Whitespace after an extension name: `=` or `;` may follow.
    ExtAfterName,
    /// After `=`, before the value.
    ExtBeforeValue,
    ExtToken,
    ExtQuoted,
    ExtQuotedPair,
    /// Right after a value: `;`, whitespace or the line end may follow.
    ExtAfterValue,
    /// Whitespace after a value: only `;` may follow.
    ExtValueSpace,
    /// After the CR of a chunk line.
    SizeLf,
    Data,
    /// After chunk data: CR expected.
    DataCr,
    DataLf,
    /// After the last-chunk line.
    Done,
}

/// A streaming decoder for chunked bodies, in 24 bytes of state.
///
/// Feed it the body's bytes in pieces of any size; it reports where the data is in each piece,
/// enforces the chunk-size and chunk-ext grammar and limits, and never copies or allocates. It
/// stops where the trailer section begins: parse that with [`Trailers`](crate::Trailers).
///
/// ```
/// use httpspan::{Chunk, ChunkedDecoder, Limits};
///
/// let body = b"5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n";
/// let mut decoder = ChunkedDecoder::new();
/// let mut input = &body[..];
/// let mut data = Vec::new();
/// loop {
///     let (used, chunk) = decoder.decode(input, &Limits::DEFAULT)?;
///     match chunk {
///         Chunk::Data(range) => data.extend_from_slice(&input[range]),
///         Chunk::TrailerSection => { input = &input[used..]; break; }
///         Chunk::NeedMore => unreachable!("the whole body is here"),
///         other => unreachable!("{other:?}"),
///     }
///     input = &input[used..];
/// }
/// assert_eq!(data, b"hello world");
/// assert_eq!(input, b"\r\n"); // an empty trailer section
/// # Ok::<(), httpspan::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChunkedDecoder {
    /// The chunk-size being read, then the data bytes left in the chunk.
    remaining: u64,
    /// Bytes of chunk-ext seen on the current line.
    ext_len: u32,
    /// Bytes of chunk-ext seen in the whole body, this line included.
    body_ext_len: u32,
    state: State,
    digits: u8,
    /// The current line ends in a bare LF. Kept by [`decode_lines`](Self::decode_lines) only.
    bare_lf_line: bool,
}

impl Default for ChunkedDecoder {
    fn default() -> Self {
        Self::new()
    }
}

impl ChunkedDecoder {
    /// A decoder at the start of a chunked body.
    #[must_use]
    pub const fn new() -> Self {
        ChunkedDecoder {
            remaining: 0,
            ext_len: 0,
            body_ext_len: 0,
            state: State::Size,
            digits: 0,
            bare_lf_line: false,
        }
    }

    /// Whether the last chunk has been read.
    #[must_use]
    pub fn is_done(&self) -> bool {
        self.state == State::Done
    }

    /// Decodes from `input`, returning how many bytes of it were consumed and what was found.
    ///
    /// Call again with the rest of the input (`&input[used..]`) until it returns
    /// [`Chunk::NeedMore`], then with the next piece. Error offsets count from the start of
    /// `input`. Only `max_chunk_ext_bytes`, `max_body_chunk_ext_bytes` and
    /// [`Leniency::bare_lf`](crate::Leniency::bare_lf) of `limits` apply here.
    ///
    /// # Errors
    ///
    /// An [`Error`] with its offset in `input` when a chunk line breaks the chunked syntax or a
    /// limit of `limits`; every later call returns it again.
    #[cfg_attr(not(target_arch = "wasm32"), inline)]
    pub fn decode(&mut self, input: &[u8], limits: &Limits) -> Result<(usize, Chunk), Error> {
        self.decode_with::<false>(input, limits, false)
    }

    /// As [`decode`](Self::decode), and also reports each chunk line as a [`Chunk::Line`] when
    /// its LF is consumed, before the chunk's data (or, for the last chunk, before
    /// [`Chunk::TrailerSection`]). For callers that show where the framing is; the data and
    /// the errors are the same as `decode`'s, whatever the mix of calls.
    ///
    /// # Errors
    ///
    /// The errors of [`decode`](Self::decode).
    #[cfg_attr(not(target_arch = "wasm32"), inline)]
    pub fn decode_lines(&mut self, input: &[u8], limits: &Limits) -> Result<(usize, Chunk), Error> {
        self.decode_with::<true>(input, limits, true)
    }

    /// [`decode`](Self::decode) when `LINES && lines` is false, else
    /// [`decode_lines`](Self::decode_lines). Natively `decode` has `LINES` false, so the line
    /// reporting is compiled out of it; the wasm module, whose size counts, has only the
    /// `LINES` copy and decides by `lines`.
    // A hint, not `inline(always)`: forced in ahead of `decode`, it left the caller's loop
    // with more register moves per chunk.
    #[inline]
    fn decode_with<const LINES: bool>(
        &mut self,
        input: &[u8],
        limits: &Limits,
        lines: bool,
    ) -> Result<(usize, Chunk), Error> {
        // In the wasm module, whose size counts, everything goes to `decode_bytes`, which takes
        // a plain size line in one step too.
        if cfg!(target_arch = "wasm32") {
            return self.decode_bytes::<true>(input, limits, lines);
        }
        // The common cases in one step each, with no state machine: data of a chunk begun in an
        // earlier call, and a plain chunk-size line (after the CRLF that ends the previous
        // chunk's data) followed by its data. Anything else (extensions, a line cut short, a
        // bare LF, an error) goes to `decode_bytes` and its states, which decide it exactly as
        // they would without these shortcuts: what a shortcut returns is what the states would
        // return. This is inlined into the caller's loop, and calls out of line only to hand
        // the input over.
        let line_start = match self.state {
            State::Data if !input.is_empty() => return Ok(self.data(input, 0)),
            State::DataCr if input.get(..2) == Some(b"\r\n") => 2,
            State::Size if self.digits == 0 => 0,
            _ => return self.decode_bytes::<LINES>(input, limits, lines),
        };
        match input.get(line_start..).and_then(plain_size_line) {
            Some(line) => Ok(self.after_line::<LINES>(input, line_start, line, lines)),
            None => self.decode_bytes::<LINES>(input, limits, lines),
        }
    }

    /// What follows the chunk-size `line` at `input[at..]`: the data, the end of the input, or
    /// the trailer section after the last chunk.
    #[inline(always)]
    fn after_line<const LINES: bool>(
        &mut self,
        input: &[u8],
        at: usize,
        line: SizeLine,
        lines: bool,
    ) -> (usize, Chunk) {
        // The state the byte-at-a-time path is in after the line's LF.
        self.remaining = line.size;
        self.digits = line.digits;
        self.ext_len = 0;
        let data = at + line.len;
        if line.size == 0 {
            self.state = State::Done;
            if LINES && lines {
                return (data, Chunk::Line(self.line()));
            }
            return (data, Chunk::TrailerSection);
        }
        self.state = State::Data;
        if LINES && lines {
            return (data, Chunk::Line(self.line()));
        }
        if data == input.len() {
            return (data, Chunk::NeedMore);
        }
        self.data(input, data)
    }

    /// In state `Data`, the chunk's data from `input[at..]`, which is not empty.
    #[inline(always)]
    fn data(&mut self, input: &[u8], at: usize) -> (usize, Chunk) {
        let available = (input.len() - at) as u64;
        if self.remaining <= available {
            // The rest of the chunk is here: its end is the size, not a minimum of two values.
            let end = at + self.remaining as usize;
            self.remaining = 0;
            self.state = State::DataCr;
            return (end, Chunk::Data(at..end));
        }
        self.remaining -= available;
        (input.len(), Chunk::Data(at..input.len()))
    }

    /// The line just consumed, in the state after its LF.
    fn line(&mut self) -> ChunkLine {
        let eol_len = if self.bare_lf_line { 1 } else { 2 };
        self.bare_lf_line = false;
        ChunkLine {
            size: self.remaining,
            digits: self.digits,
            ext_len: self.ext_len,
            eol_len,
        }
    }

    /// [`decode_with`](Self::decode_with) a byte at a time through the states, with shortcuts
    /// for the data and for plain size lines. Out of line, so that the common cases stay small.
    #[inline(never)]
    fn decode_bytes<const LINES: bool>(
        &mut self,
        input: &[u8],
        limits: &Limits,
        lines: bool,
    ) -> Result<(usize, Chunk), Error> {
        let bare_lf = limits.lenient.bare_lf;
        let mut pos = 0;
        while pos < input.len() {
            let b = input[pos];
            match self.state {
                State::Data => return Ok(self.data(input, pos)),
                State::DataCr => match b {
                    // The common case, CRLF: on to the next chunk-size line in one step, where
                    // the plain-line shortcut of `State::Size` takes it.
                    b'\r' if input.get(pos + 1) == Some(&b'\n') => {
                        self.next_chunk();
                        pos += 2;
                        continue;
                    }
                    b'\r' => self.state = State::DataLf,
                    // The LF is taken as the whole line end: on to the next chunk-size line.
                    b'\n' if bare_lf => self.next_chunk(),
                    _ => return Err(Error::new(ErrorKind::MissingChunkCrlf, pos)),
                },
                State::DataLf => {
                    if b != b'\n' {
                        return Err(Error::new(ErrorKind::BareCr, pos));
                    }
                    self.next_chunk();
                }
                State::Size => {
                    // At the start of a plain chunk-size line: in one step.
                    if self.digits == 0 {
                        if let Some(line) = input.get(pos..).and_then(plain_size_line) {
                            return Ok(self.after_line::<LINES>(input, pos, line, lines));
                        }
                    }
                    match hex_value(b) {
                        Some(v) => {
                            if self.digits == 16 {
                                return Err(Error::new(ErrorKind::ChunkSizeTooLong, pos));
                            }
                            self.digits += 1;
                            self.remaining = self.remaining << 4 | u64::from(v);
                        }
                        None if self.digits == 0 => {
                            return Err(Error::new(ErrorKind::InvalidChunkSize, pos))
                        }
                        None => {
                            self.ext_len = 0;
                            match b {
                                b'\r' => self.state = State::SizeLf,
                                // The LF is taken as the whole line end, in state SizeLf.
                                b'\n' if bare_lf => {
                                    self.state = State::SizeLf;
                                    if LINES && lines {
                                        self.bare_lf_line = true;
                                    }
                                    continue;
                                }
                                b';' => self.state = State::ExtBeforeName,
                                b' ' | b'\t' => self.state = State::SizeSpace,
                                b'\n' => return Err(Error::new(ErrorKind::BareLf, pos)),
                                _ => return Err(Error::new(ErrorKind::InvalidChunkSize, pos)),
                            }
                            if b != b'\r' {
                                self.count_ext(1, pos, limits)?;
                            }
                        }
                    }
                }
                State::SizeLf => {
                    if b != b'\n' {
                        return Err(Error::new(ErrorKind::BareCr, pos));
                    }
                    pos += 1;
                    if self.remaining == 0 {
                        self.state = State::Done;
                        if LINES && lines {
                            return Ok((pos, Chunk::Line(self.line())));
                        }
                        return Ok((pos, Chunk::TrailerSection));
                    }
                    self.state = State::Data;
                    if LINES && lines {
                        return Ok((pos, Chunk::Line(self.line())));
                    }
                    continue;
                }
                State::Done => return Ok((pos, Chunk::TrailerSection)),
                _ => {
                    // Inside a chunk-ext: the run of token bytes is taken in one step.
                    let run = match self.state {
                        State::ExtName | State::ExtToken => scan::token_len(&input[pos..]),
                        _ => 0,
                    };
                    if run > 0 {
                        self.count_ext(run, pos + run - 1, limits)?;
                        pos += run;
                        continue;
                    }
                    self.ext_byte(b, pos, bare_lf)?;
                    if self.state == State::SizeLf {
                        if b == b'\n' {
                            // A bare LF ends the line: State::SizeLf takes it.
                            if LINES && lines {
                                self.bare_lf_line = true;
                            }
                            continue;
                        }
                    } else {
                        self.count_ext(1, pos, limits)?;
                    }
                }
            }
            pos += 1;
        }
        if self.state == State::Done {
            return Ok((pos, Chunk::TrailerSection));
        }
        Ok((pos, Chunk::NeedMore))
    }

    fn next_chunk(&mut self) {
        self.state = State::Size;
        self.digits = 0;
        self.remaining = 0;
    }

    /// Counts `n` bytes of chunk-ext ending at `last` against the line's limit, then the
    /// body's; the error's offset is the first byte past the limit.
    fn count_ext(&mut self, n: usize, last: usize, limits: &Limits) -> Result<(), Error> {
        let n = u32::try_from(n).unwrap_or(u32::MAX);
        self.ext_len = self.ext_len.saturating_add(n);
        self.body_ext_len = self.body_ext_len.saturating_add(n);
        let over = |count: u32, limit: u32, kind| match count.checked_sub(limit) {
            Some(over) if over > 0 => Err(Error::new(kind, last + 1 - over as usize)),
            _ => Ok(()),
        };
        over(
            self.ext_len,
            limits.max_chunk_ext_bytes,
            ErrorKind::ChunkExtensionTooLong,
        )?;
        over(
            self.body_ext_len,
            limits.max_body_chunk_ext_bytes,
            ErrorKind::ChunkExtensionsTooLarge,
        )
    }

    /// One byte of chunk-ext that is not part of a token run:
    /// `*( BWS ";" BWS name [ BWS "=" BWS ( token / quoted-string ) ] )` (RFC 9112 7.1.1).
    /// With `bare_lf`, an LF ends the line wherever a CR may. Out of line: extensions are rare,
    /// and their grammar stays out of the data loop's code.
    #[inline(never)]
    fn ext_byte(&mut self, b: u8, pos: usize, bare_lf: bool) -> Result<(), Error> {
        let invalid = Err(Error::new(ErrorKind::InvalidChunkExtension, pos));
        self.state = match (self.state, b) {
            (State::ExtQuoted | State::ExtQuotedPair, b) => {
                match syntax::quoted_step(self.state == State::ExtQuotedPair, b) {
                    Quoted::Inside => State::ExtQuoted,
                    Quoted::Escaped => State::ExtQuotedPair,
                    Quoted::Closed => State::ExtAfterValue,
                    Quoted::Invalid => return invalid,
                }
            }
            (State::SizeSpace | State::ExtValueSpace, b) if is_ws(b) => self.state,
            (State::SizeSpace | State::ExtValueSpace, b';') => State::ExtBeforeName,
            (State::ExtBeforeName, b) if is_ws(b) => State::ExtBeforeName,
            (State::ExtBeforeName, b) if is(b, class::TOKEN) => State::ExtName,
            (State::ExtName | State::ExtAfterName, b) if is_ws(b) => State::ExtAfterName,
            (State::ExtName | State::ExtAfterName, b'=') => State::ExtBeforeValue,
            (
                State::ExtName | State::ExtAfterName | State::ExtAfterValue | State::ExtToken,
                b';',
            ) => State::ExtBeforeName,
            (State::ExtName | State::ExtAfterValue | State::ExtToken, b'\r') => State::SizeLf,
            (State::ExtName | State::ExtAfterValue | State::ExtToken, b'\n') if bare_lf => {
                State::SizeLf
            }
            (State::ExtBeforeValue, b) if is_ws(b) => State::ExtBeforeValue,
            (State::ExtBeforeValue, b'"') => State::ExtQuoted,
            (State::ExtBeforeValue, b) if is(b, class::TOKEN) => State::ExtToken,
            (State::ExtAfterValue | State::ExtToken, b) if is_ws(b) => State::ExtValueSpace,
            (_, b'\n') if !bare_lf => return Err(Error::new(ErrorKind::BareLf, pos)),
            _ => return invalid,
        };
        Ok(())
    }
}

/// A plain chunk-size line, `1*6HEXDIG CRLF`, checked.
#[derive(Clone, Copy)]
struct SizeLine {
    size: u64,
    digits: u8,
    /// Bytes of the line, through its LF.
    len: usize,
}

/// The plain chunk-size line at the start of `rest`, 1 to 6 digits and CRLF, read from its first
/// 8 bytes (of a longer input): no length check per byte, each digit's value from `hex_value`,
/// as in the states (compares, no table load on the path from one chunk's end to the next),
/// and the CRLF compared as one 16-bit word. `None` for anything else (more digits,
/// extensions, a line cut short, a bare LF, an error), which the byte-at-a-time states then
/// decide: the chunk-size and chunk-ext grammar lives there only.
#[inline(always)]
fn plain_size_line(rest: &[u8]) -> Option<SizeLine> {
    let word = rest.first_chunk::<8>()?;
    let (mut size, mut digits) = (0u64, 0usize);
    while digits < 6 {
        let Some(value) = hex_value(word[digits]) else {
            break;
        };
        size = size << 4 | u64::from(value);
        digits += 1;
    }
    let after = u16::from_le_bytes([word[digits], word[digits + 1]]);
    if digits == 0 || after != u16::from_le_bytes(*b"\r\n") {
        return None;
    }
    Some(SizeLine {
        size,
        digits: digits as u8,
        len: digits + 2,
    })
}

#[inline]
const fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
