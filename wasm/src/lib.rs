//! WebAssembly bindings of [`httpspan`] for JavaScript, through `wasm-bindgen`.
//!
//! This crate only converts: every byte is parsed by `httpspan`. Its exports are the low-level
//! half of the npm package `@httpspan/wasm`; the JavaScript half (`wasm/js/`) builds the public
//! API on top of them and is what users call (see `docs/wasm.md`).
//!
//! Input crosses the boundary without a call per byte or per field: JavaScript asks a parser
//! for room in its input buffer ([`HeadParser::input`], [`StreamDecoder::input`]), copies the
//! bytes straight into the module's memory, and calls `parse` or `decode` with their length. The
//! result is written into a buffer of `u32` words in the [`layout`] that JavaScript reads as a
//! `Uint32Array` at [`HeadParser::spans`].
//!
//! In the module the crate is `no_std`, with `lol_alloc`'s free-list allocator in place of the
//! standard library's dlmalloc and a panic handler that traps at once: dlmalloc, the panic
//! machinery and `core::fmt` were a large part of the module, and a panic would be a bug, which
//! traps either way (`panic = "abort"`). The module allocates only when a parser or decoder is
//! created or its input buffer grows, so a small, slower allocator costs nothing in parsing. On
//! the host (for the unit tests) the crate uses `std`.

// The test build of the module (wasm-pack test) links std, whose panic handler replaces ours.
#![cfg_attr(all(target_arch = "wasm32", not(test)), no_std)]

extern crate alloc;

pub mod layout;

use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;

use httpspan::stream::{Decoder, Event, MessageKind};
use httpspan::{Error, ErrorKind, KnownHeader, Limits, Request, Response, Status};
use wasm_bindgen::prelude::wasm_bindgen;

use layout::Spans;

/// The largest input a head parser copies: no head reaches past byte 65 536 of its buffer,
/// plus the CRLF pairs that may precede a request-line, so the bytes after this never change
/// the outcome.
pub const HEAD_WINDOW: usize = 65_536 + 8;

/// The core's defaults with the policy's 64 field lines: the parsers here have 255 slots, which
/// would otherwise bound field lines by default.
pub const DEFAULT_LIMITS: Limits = {
    let mut limits = Limits::DEFAULT;
    limits.max_field_lines = 64;
    limits
};

/// Builds [`Limits`] from the numbers the JavaScript side validated, in this order:
/// `maxHeadBytes`, `maxFieldLines`, `maxChunkExtBytes`, `maxTrailerBytes`, `maxBodyBytes`
/// (negative for none), `maxBodyChunkExtBytes`, then the leniency flags as bits. Missing
/// numbers keep their defaults; numbers out of range saturate.
pub fn limits_from(numbers: &[f64]) -> Limits {
    let mut limits = DEFAULT_LIMITS;
    let get = |i: usize| numbers.get(i).copied().filter(|n| *n >= 0.0);
    if let Some(n) = get(0) {
        limits.max_head_bytes = n as u16;
    }
    if let Some(n) = get(1) {
        limits.max_field_lines = n as u16;
    }
    if let Some(n) = get(2) {
        limits.max_chunk_ext_bytes = n as u32;
    }
    if let Some(n) = get(3) {
        limits.max_trailer_bytes = n as u32;
    }
    limits.max_body_bytes = get(4).map(|n| n as u64);
    if let Some(n) = get(5) {
        limits.max_body_chunk_ext_bytes = n as u32;
    }
    // The bit order of LENIENCY in wasm/js/limits.js.
    let bits = get(6).map_or(0, |n| n as u32);
    let lenient = &mut limits.lenient;
    for (bit, flag) in [
        &mut lenient.bare_lf,
        &mut lenient.obs_fold,
        &mut lenient.space_before_colon,
        &mut lenient.request_line_spaces,
        &mut lenient.missing_host,
        &mut lenient.duplicate_content_length,
        &mut lenient.unknown_version,
        &mut lenient.target_unsafe_bytes,
    ]
    .into_iter()
    .enumerate()
    {
        *flag = bits & (1 << bit) != 0;
    }
    limits
}

/// What JavaScript needs to know once, as ASCII text of three sections separated by an empty
/// line: the [`layout`] words (`NAME=value` pairs separated by spaces), the known header names
/// in slot order (one per line), and the error kinds in [`ErrorKind::ALL`] order (`code`, status,
/// RFC section and message, separated by tabs, one kind per line).
///
/// The text is built at compile time, so the module holds it as data, with no code to build it;
/// JavaScript reads [`TABLES_TEXT`] from the module's memory at [`tables`], [`tables_len`] bytes.
pub const TABLES_TEXT: &[u8] = &TABLES_BYTES;

const TABLES_BYTES: [u8; Text::<0>::tables().len] = Text::tables().bytes;

/// Text written at compile time into `N` bytes: bytes past `N` are only counted, so `Text::<0>`
/// measures what a larger one holds.
struct Text<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> Text<N> {
    const fn new() -> Text<N> {
        Text {
            bytes: [0; N],
            len: 0,
        }
    }

    const fn tables() -> Text<N> {
        let mut text = Text::new();
        let mut i = 0;
        while i < layout::DESCRIPTION.len() {
            let (name, value) = layout::DESCRIPTION[i];
            if i > 0 {
                text = text.push(b" ");
            }
            text = text.push(name.as_bytes()).push(b"=").push_decimal(value);
            i += 1;
        }
        text = text.push(b"\n");
        i = 0;
        while i < KnownHeader::ALL.len() {
            text = text.push(b"\n").push(KnownHeader::ALL[i].name().as_bytes());
            i += 1;
        }
        text = text.push(b"\n");
        i = 0;
        while i < ErrorKind::ALL.len() {
            let kind = ErrorKind::ALL[i];
            text = text.push(b"\n").push(kind.code().as_bytes()).push(b"\t");
            text = text.push_decimal(kind.status() as u32).push(b"\t");
            text = text.push(kind.rfc().as_bytes()).push(b"\t");
            text = text.push(kind.message().as_bytes());
            i += 1;
        }
        text
    }

    const fn push(mut self, bytes: &[u8]) -> Text<N> {
        let mut i = 0;
        while i < bytes.len() {
            if self.len < N {
                self.bytes[self.len] = bytes[i];
            }
            self.len += 1;
            i += 1;
        }
        self
    }

    const fn push_decimal(self, n: u32) -> Text<N> {
        let mut digits = [0u8; 10];
        let mut i = digits.len();
        let mut rest = n;
        loop {
            i -= 1;
            digits[i] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        let (_, used) = digits.split_at(i);
        self.push(used)
    }
}

/// Where [`TABLES_TEXT`] is in the module's memory.
#[wasm_bindgen]
pub fn tables() -> usize {
    TABLES_TEXT.as_ptr() as usize
}

/// The length of [`TABLES_TEXT`] in bytes.
#[wasm_bindgen(js_name = tablesLen)]
pub fn tables_len() -> usize {
    TABLES_TEXT.len()
}

/// Whether this module was compiled with the SIMD128 target feature. A `RUSTFLAGS` in the
/// environment of the build replaces the flags in `.cargo/config.toml` and silently drops it;
/// the package's tests check this.
#[wasm_bindgen(js_name = simd128)]
pub fn simd128() -> bool {
    cfg!(target_feature = "simd128")
}

/// Where the name of the scanning backend the core uses in this module is in the module's
/// memory (ASCII, [`backend_len`] bytes): `simd128` in the SIMD128 build, `swar` in the
/// baseline one (see `httpspan::backend_name`).
#[wasm_bindgen]
pub fn backend() -> usize {
    httpspan::backend_name().as_ptr() as usize
}

/// The length of the backend's name in bytes.
#[wasm_bindgen(js_name = backendLen)]
pub fn backend_len() -> usize {
    httpspan::backend_name().len()
}

/// A request or response parser with [`layout::MAX_FIELDS`] field slots.
#[derive(Clone, Debug)]
enum Parser {
    Request(Box<Request<{ layout::MAX_FIELDS }>>),
    Response(Box<Response<{ layout::MAX_FIELDS }>>),
}

/// A one-shot head parser with its own input buffer and span buffer in the module's memory.
#[wasm_bindgen]
#[derive(Debug)]
pub struct HeadParser {
    parser: Parser,
    input: Vec<u8>,
    spans: Box<Spans>,
}

#[wasm_bindgen]
impl HeadParser {
    /// A parser for requests, or for responses if `response`, with [`limits_from`]`(limits)`.
    #[wasm_bindgen(constructor)]
    pub fn new(response: bool, limits: &[f64]) -> HeadParser {
        let limits = limits_from(limits);
        let parser = match response {
            true => {
                let mut res = Box::<Response<{ layout::MAX_FIELDS }>>::default();
                res.set_limits(&limits);
                Parser::Response(res)
            }
            false => {
                let mut req = Box::<Request<{ layout::MAX_FIELDS }>>::default();
                req.set_limits(&limits);
                Parser::Request(req)
            }
        };
        HeadParser {
            parser,
            input: Vec::new(),
            spans: Box::new([0; layout::SPANS_LEN]),
        }
    }

    /// Makes room for `len` input bytes and returns where to write them. Only the first
    /// [`HEAD_WINDOW`] bytes matter, so the room never exceeds that.
    pub fn input(&mut self, len: usize) -> usize {
        let len = len.min(HEAD_WINDOW);
        if self.input.len() < len {
            self.input.resize(len, 0);
        }
        self.input.as_ptr() as usize
    }

    /// Where the span words are.
    pub fn spans(&self) -> usize {
        self.spans.as_ptr() as usize
    }

    /// For responses: the method of the request answered (only HEAD and CONNECT change the
    /// framing).
    #[wasm_bindgen(js_name = setRequestMethod)]
    pub fn set_request_method(&mut self, method: &str) {
        if let Parser::Response(res) = &mut self.parser {
            res.set_request_method(method.as_bytes());
        }
    }

    /// Parses the `len` bytes written at [`input`](Self::input) from scratch and writes the
    /// layout; returns how many of its words were written ([`layout::used_words`]).
    pub fn parse(&mut self, len: usize) -> u32 {
        let buf = &self.input[..len.min(self.input.len())];
        let spans = &mut self.spans;
        let outcome = match &mut self.parser {
            Parser::Request(req) => {
                req.reset();
                req.parse(buf).map(|status| {
                    write_head(spans, status, |s, n| {
                        layout::write_request(s, req, &buf[..n])
                    })
                })
            }
            Parser::Response(res) => {
                res.reset();
                res.parse(buf).map(|status| {
                    write_head(spans, status, |s, n| {
                        layout::write_response(s, res, &buf[..n])
                    })
                })
            }
        };
        if let Err(error) = outcome {
            layout::write_error(spans, &error);
        }
        layout::used_words(spans) as u32
    }
}

fn write_head(spans: &mut Spans, status: Status, write: impl FnOnce(&mut Spans, usize)) {
    match status {
        Status::Complete { head_len } => write(spans, head_len),
        Status::Partial => layout::write_partial(spans),
    }
}

/// [`StreamDecoder::decode`]: give the next piece.
pub const EVENT_NEED_MORE: u32 = 0;
/// [`StreamDecoder::decode`]: a head is complete; its layout is at `spans`, its bytes at
/// `section`.
pub const EVENT_HEAD: u32 = 1;
/// [`StreamDecoder::decode`]: body data, `body_start..body_end` of the piece.
pub const EVENT_BODY: u32 = 2;
/// [`StreamDecoder::decode`]: a trailer section is complete; its layout is at `spans`, its bytes
/// at `section`.
pub const EVENT_TRAILERS: u32 = 3;
/// [`StreamDecoder::decode`]: the message is complete.
pub const EVENT_MESSAGE_END: u32 = 4;
/// [`StreamDecoder::decode`]: nothing more is read.
pub const EVENT_CLOSED: u32 = 5;
/// [`StreamDecoder::finish`]: the stream ended inside a message.
pub const EVENT_INCOMPLETE: u32 = 6;
/// An error, in the layout at `spans`; every later call returns it again.
pub const EVENT_ERROR: u32 = 7;
/// [`StreamDecoder::decode`], with chunk lines reported: a chunk line was consumed. The first
/// words at `spans` are, in [`CHUNK_LINE_WORDS`] order, one past its LF in the piece, the
/// lengths of its chunk-size digits, chunk-ext and line end, and its chunk-size's low and high
/// 32 bits.
pub const EVENT_CHUNK_LINE: u32 = 8;
/// The words of an [`EVENT_CHUNK_LINE`]: `end`, `digits`, `ext_len`, `eol_len`, `size_low`,
/// `size_high`.
pub const CHUNK_LINE_WORDS: usize = 6;

/// A connection's stream of requests or responses, over [`httpspan::stream::Decoder`].
#[wasm_bindgen]
#[derive(Debug)]
pub struct StreamDecoder {
    decoder: Decoder<Box<[u8]>, { layout::MAX_FIELDS }>,
    input: Vec<u8>,
    /// Bytes of the current piece in `input`, and how many of them were consumed.
    len: usize,
    used: usize,
    body_start: usize,
    body_end: usize,
    spans: Box<Spans>,
}

#[wasm_bindgen]
impl StreamDecoder {
    /// A decoder for requests, or for responses if `response`, with [`limits_from`]`(limits)`
    /// and a head buffer as large as those limits need; it reports chunk lines
    /// ([`EVENT_CHUNK_LINE`]) if `chunk_lines`.
    #[wasm_bindgen(constructor)]
    pub fn new(response: bool, limits: &[f64], chunk_lines: bool) -> StreamDecoder {
        let limits = limits_from(limits);
        let kind = match response {
            true => MessageKind::Response,
            false => MessageKind::Request,
        };
        let buf = vec![0u8; httpspan::stream::buffer_len(&limits)].into_boxed_slice();
        let mut decoder = Decoder::with_slots(kind, buf, limits);
        decoder.report_chunk_lines(chunk_lines);
        StreamDecoder {
            decoder,
            input: Vec::new(),
            len: 0,
            used: 0,
            body_start: 0,
            body_end: 0,
            spans: Box::new([0; layout::SPANS_LEN]),
        }
    }

    /// Makes room for a piece of `len` bytes and returns where to write it; [`decode`](Self::decode)
    /// then decodes it.
    pub fn input(&mut self, len: usize) -> usize {
        if self.input.len() < len {
            self.input.resize(len, 0);
        }
        self.len = len;
        self.used = 0;
        self.input.as_ptr() as usize
    }

    /// Where the span words are.
    pub fn spans(&self) -> usize {
        self.spans.as_ptr() as usize
    }

    /// For response streams: the method of the request that the next final response answers.
    #[wasm_bindgen(js_name = setRequestMethod)]
    pub fn set_request_method(&mut self, method: &str) {
        self.decoder.set_request_method(method.as_bytes());
    }

    /// Decodes the rest of the piece up to the next event and returns it (`EVENT_*`).
    pub fn decode(&mut self) -> u32 {
        let rest = &self.input[self.used..self.len];
        let step = self.decoder.decode(rest);
        let start = self.used;
        match step {
            Ok((used, event)) => {
                self.used += used;
                self.event(start, event)
            }
            Err(error) => self.error(&error),
        }
    }

    /// Tells the decoder that the stream has ended and returns the next event: `MESSAGE_END`,
    /// then `CLOSED` or `INCOMPLETE` (or an error). Call it until it returns one of those.
    pub fn finish(&mut self) -> u32 {
        match self.decoder.finish() {
            Ok(event) => self.event(self.used, event),
            Err(error) => self.error(&error),
        }
    }

    fn error(&mut self, error: &Error) -> u32 {
        layout::write_error(&mut self.spans, error);
        EVENT_ERROR
    }

    fn event(&mut self, start: usize, event: Event) -> u32 {
        match event {
            Event::Head => {
                let head = self.decoder.head_bytes();
                if let Some(req) = self.decoder.request() {
                    layout::write_request(&mut self.spans, req, head);
                } else if let Some(res) = self.decoder.response() {
                    layout::write_response(&mut self.spans, res, head);
                }
                EVENT_HEAD
            }
            Event::Body(range) => {
                self.body_start = start + range.start;
                self.body_end = start + range.end;
                EVENT_BODY
            }
            Event::Trailers => {
                let section = self.decoder.trailer_bytes();
                layout::write_trailers(&mut self.spans, self.decoder.trailers(), section);
                EVENT_TRAILERS
            }
            Event::ChunkLine(line) => {
                let words: [u32; CHUNK_LINE_WORDS] = [
                    self.used as u32,
                    line.digits.into(),
                    line.ext_len,
                    line.eol_len.into(),
                    line.size as u32,
                    (line.size >> 32) as u32,
                ];
                self.spans[..CHUNK_LINE_WORDS].copy_from_slice(&words);
                EVENT_CHUNK_LINE
            }
            Event::MessageEnd => EVENT_MESSAGE_END,
            Event::NeedMore => EVENT_NEED_MORE,
            Event::Closed => EVENT_CLOSED,
            Event::Incomplete => EVENT_INCOMPLETE,
            // Events added to the core later are reported as what they cannot be ignored as:
            // an error the JavaScript side names.
            _ => u32::MAX,
        }
    }

    /// Start of the last body range, in bytes of the piece.
    #[wasm_bindgen(getter, js_name = bodyStart)]
    pub fn body_start(&self) -> usize {
        self.body_start
    }

    /// End of the last body range, in bytes of the piece.
    #[wasm_bindgen(getter, js_name = bodyEnd)]
    pub fn body_end(&self) -> usize {
        self.body_end
    }

    /// Where the bytes of the current head (after `HEAD`) or trailer section (after
    /// `TRAILERS`) are in the module's memory.
    pub fn section(&self, trailers: bool) -> usize {
        let bytes = match trailers {
            true => self.decoder.trailer_bytes(),
            false => self.decoder.head_bytes(),
        };
        bytes.as_ptr() as usize
    }

    /// Stream offset of the first byte of the current head.
    #[wasm_bindgen(js_name = messageOffset)]
    pub fn message_offset(&self) -> f64 {
        self.decoder.message_offset() as f64
    }

    /// Stream offset of the first byte of the current trailer section.
    #[wasm_bindgen(js_name = trailerOffset)]
    pub fn trailer_offset(&self) -> f64 {
        self.decoder.trailer_offset() as f64
    }

    /// Bytes of the stream consumed so far.
    pub fn position(&self) -> f64 {
        self.decoder.position() as f64
    }

    /// Stream offset where decoding resumes: the first unaccepted line of a head or trailer
    /// section in progress, else `position`.
    #[wasm_bindgen(js_name = resumeOffset)]
    pub fn resume_offset(&self) -> f64 {
        self.decoder.resume_offset() as f64
    }
}

// The lock makes the allocator Sync without `unsafe`; in a single-threaded module it is never
// contended.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static HEAP: lol_alloc::LockedAllocator<lol_alloc::FreeListAllocator> =
    lol_alloc::LockedAllocator::new(lol_alloc::FreeListAllocator::new());

/// A panic traps at once, without formatting its message (nothing would show it).
#[cfg(all(target_arch = "wasm32", not(test)))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    core::arch::wasm32::unreachable()
}

#[cfg(test)]
mod tests;

#[cfg(all(test, target_arch = "wasm32"))]
mod in_module_tests;
