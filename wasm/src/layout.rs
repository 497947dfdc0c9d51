//! The span layout: how a parsed head is written into one array of `u32` words, which
//! JavaScript reads as a `Uint32Array` without creating an object per field.
//!
//! Every span is one word: the offset in the low 16 bits and the length in the high 16 bits,
//! exactly the core's 4-byte [`Span`]. The JavaScript side reads the word positions below from
//! [`tables`](crate::tables) when it loads and refuses to run with different ones, so the two
//! sides cannot drift apart.
//!
//! | word | complete head | error |
//! | --- | --- | --- |
//! | [`STATE`] | [`COMPLETE`] | [`FAILED`] ([`PARTIAL`]: nothing else is written) |
//! | [`HEAD_LEN`] | bytes of the head | offset of the error |
//! | [`INFO`] | version: 0 for HTTP/1.0, 1 for HTTP/1.1 | index of the error kind |
//! | [`FLAGS`] | the `FLAG_*` bits and the framing (trailers: 0) | |
//! | [`CONTENT_LENGTH`], +1 | Content-Length, low and high 32 bits | |
//! | [`KNOWN_BITMAP`], +1 | known-header bitmap, low and high 32 bits | |
//! | [`START_A`] | request: method span; response: status code | |
//! | [`START_B`] | request: target span; response: reason span | |
//! | [`FIELD_COUNT`] | number of field lines, `n` | |
//! | [`KNOWN_INDEX`] .. +16 | byte `k`: 1 + index of the first field with known header `k`, or 0 | |
//! | [`FIELDS`] .. +2n | name span, value span of each field | |
//! | then `ceil(n / 4)` words | byte `i`: known header of field `i`, or 255 | |
//!
//! [`Span`]: httpspan::Span

use httpspan::{Error, ErrorKind, Field, Framing, Request, Response, Span, Trailers};

/// Defines the word positions (`usize`) and values (`u32`) of the layout, and [`DESCRIPTION`],
/// which lists every one of them by name, from one list.
macro_rules! layout {
    (
        positions { $($(#[$pdoc:meta])* $pos:ident = $pval:expr;)* }
        values { $($(#[$vdoc:meta])* $val:ident = $vval:expr;)* }
    ) => {
        $($(#[$pdoc])* pub const $pos: usize = $pval;)*
        $($(#[$vdoc])* pub const $val: u32 = $vval;)*

        /// The word positions and values above, by name, for the JavaScript side to check
        /// against its own (see [`tables`](crate::tables)).
        pub const DESCRIPTION: &[(&str, u32)] = &[
            $((stringify!($pos), $pos as u32),)*
            $((stringify!($val), $val),)*
        ];
    };
}

layout! {
    positions {
        /// Word: [`PARTIAL`], [`COMPLETE`] or [`FAILED`].
        STATE = 0;
        /// Word: the head length, or the error offset.
        HEAD_LEN = 1;
        /// Word: the version, or the error kind's index in [`ErrorKind::ALL`].
        INFO = 2;
        /// Word: flags and framing.
        FLAGS = 3;
        /// Two words: the Content-Length.
        CONTENT_LENGTH = 4;
        /// Two words: the known-header bitmap.
        KNOWN_BITMAP = 6;
        /// Word: the method span, or the status code.
        START_A = 8;
        /// Word: the target span, or the reason span.
        START_B = 9;
        /// Word: the number of field lines.
        FIELD_COUNT = 10;
        /// Sixteen words: one byte per known header.
        KNOWN_INDEX = 11;
        /// First word of the field spans.
        FIELDS = KNOWN_INDEX + 16;
        /// Field slots of the module's parsers (`Request`, `Response` and `Trailers` with this
        /// `N`): the core's maximum, so that any `maxFieldLines` up to it works with one
        /// parser size in the module.
        MAX_FIELDS = 255;
        /// Words of a layout with every field slot in use.
        SPANS_LEN = FIELDS + 2 * MAX_FIELDS + MAX_FIELDS.div_ceil(4);
    }
    values {
        /// [`STATE`]: the head is not complete yet.
        PARTIAL = 0;
        /// [`STATE`]: the head is complete.
        COMPLETE = 1;
        /// [`STATE`]: the input is invalid.
        FAILED = 2;
        /// [`FLAGS`] bit: the body is chunked.
        FLAG_CHUNKED = 1;
        /// [`FLAGS`] bit: the connection stays open after this message.
        FLAG_KEEP_ALIVE = 1 << 1;
        /// [`FLAGS`] bit: a Content-Length was declared.
        FLAG_CONTENT_LENGTH = 1 << 2;
        /// [`FLAGS`] bit: an interim 1xx response.
        FLAG_INTERIM = 1 << 3;
        /// [`FLAGS`] bit: a 101 or a 2xx answer to CONNECT.
        FLAG_SWITCHES_PROTOCOLS = 1 << 4;
        /// [`FLAGS`]: the framing is `(flags >> FRAMING_SHIFT) & 3`, one of the `FRAMING_*` values.
        FRAMING_SHIFT = 8;
        /// Framing: no body.
        FRAMING_NO_BODY = 0;
        /// Framing: Content-Length.
        FRAMING_LENGTH = 1;
        /// Framing: chunked.
        FRAMING_CHUNKED = 2;
        /// Framing: until the connection closes.
        FRAMING_UNTIL_CLOSE = 3;
    }
}

/// Room for one layout.
pub type Spans = [u32; SPANS_LEN];

/// How many words of `spans` the last write filled: the rest is left from earlier writes.
pub fn used_words(spans: &Spans) -> usize {
    match spans[STATE] {
        COMPLETE => {
            let fields = spans[FIELD_COUNT] as usize;
            FIELDS + 2 * fields + fields.div_ceil(4)
        }
        FAILED => INFO + 1,
        _ => STATE + 1,
    }
}

/// A span as one word.
#[inline]
pub fn span_word(span: Span) -> u32 {
    u32::from(span.off) | u32::from(span.len) << 16
}

/// Writes [`PARTIAL`].
pub fn write_partial(spans: &mut Spans) {
    spans[STATE] = PARTIAL;
}

/// Writes an error: its offset (saturated to 32 bits) and the index of its kind.
pub fn write_error(spans: &mut Spans, error: &Error) {
    spans[STATE] = FAILED;
    spans[HEAD_LEN] = u32::try_from(error.offset()).unwrap_or(u32::MAX);
    spans[INFO] = error_kind_index(error.kind());
}

/// The index of `kind` in [`ErrorKind::ALL`].
pub fn error_kind_index(kind: ErrorKind) -> u32 {
    let index = ErrorKind::ALL.iter().position(|&k| k == kind);
    // Every kind is in ALL; the fallback only keeps this total.
    index.map_or(u32::MAX, |i| i as u32)
}

/// Writes the field count, the known-header bitmap and index, the field spans and the known
/// header of each field, in one pass over the fields. Byte `k` of the index is 1 + the position
/// of the first field with known header `k`: the head's own index (`known_index`), read from
/// the fields rather than asked header by header through a closure (a call per header, which
/// cost more than the rest of the layout).
// Shared by the three writers rather than inlined into each: the module's size is a target.
#[inline(never)]
fn write_fields(spans: &mut Spans, fields: &[Field], bitmap: u64) {
    let fields = &fields[..fields.len().min(MAX_FIELDS)];
    spans[KNOWN_BITMAP] = bitmap as u32;
    spans[KNOWN_BITMAP + 1] = (bitmap >> 32) as u32;
    spans[FIELD_COUNT] = fields.len() as u32;
    let (start, rest) = spans.split_at_mut(FIELDS);
    let index = &mut start[KNOWN_INDEX..];
    index.fill(0);
    let (pairs, rest) = rest.split_at_mut(2 * fields.len());
    let known_words = &mut rest[..fields.len().div_ceil(4)];
    // Each word of known-header bytes is built in a local and stored once, rather than filled
    // with 255 first: a fill of a length known only at run time is a memory.fill, which V8 (in
    // Node 20) runs as a call out of the module.
    let mut known_word = u32::MAX;
    for (i, (pair, field)) in pairs.chunks_exact_mut(2).zip(fields).enumerate() {
        pair[0] = span_word(field.name);
        pair[1] = span_word(field.value);
        if let Some(known) = field.known() {
            let slot = known.slot();
            let (word, shift) = (&mut index[slot / 4], 8 * (slot % 4));
            if *word >> shift & 0xff == 0 {
                *word |= (i as u32 + 1) << shift;
            }
            // The byte was 255: it becomes the slot.
            known_word ^= (0xff ^ slot as u32) << (8 * (i % 4));
        }
        if i % 4 == 3 {
            known_words[i / 4] = known_word;
            known_word = u32::MAX;
        }
    }
    if fields.len() % 4 != 0 {
        known_words[fields.len() / 4] = known_word;
    }
}

fn framing_bits(framing: Framing) -> u32 {
    let framing = match framing {
        Framing::NoBody => FRAMING_NO_BODY,
        Framing::Length(_) => FRAMING_LENGTH,
        Framing::Chunked => FRAMING_CHUNKED,
        Framing::UntilClose => FRAMING_UNTIL_CLOSE,
    };
    framing << FRAMING_SHIFT
}

fn write_common(
    spans: &mut Spans,
    head: &[u8],
    version: httpspan::Version,
    content_length: Option<u64>,
    flags: u32,
) {
    spans[STATE] = COMPLETE;
    spans[HEAD_LEN] = head.len() as u32;
    spans[INFO] = u32::from(version == httpspan::Version::Http11);
    let length = content_length.unwrap_or(0);
    spans[CONTENT_LENGTH] = length as u32;
    spans[CONTENT_LENGTH + 1] = (length >> 32) as u32;
    let declared = match content_length {
        Some(_) => FLAG_CONTENT_LENGTH,
        None => 0,
    };
    spans[FLAGS] = flags | declared;
}

fn flag(set: bool, bit: u32) -> u32 {
    if set {
        bit
    } else {
        0
    }
}

/// Writes a complete request head, whose bytes are `head`.
pub fn write_request(spans: &mut Spans, req: &Request<MAX_FIELDS>, head: &[u8]) {
    let flags = flag(req.is_chunked(), FLAG_CHUNKED)
        | flag(req.keep_alive(), FLAG_KEEP_ALIVE)
        | framing_bits(req.framing());
    write_common(spans, head, req.version(), req.content_length(), flags);
    spans[START_A] = span_word(req.method());
    spans[START_B] = span_word(req.target());
    write_fields(spans, req.fields(), req.known_bitmap());
}

/// Writes a complete response head, whose bytes are `head`.
pub fn write_response(spans: &mut Spans, res: &Response<MAX_FIELDS>, head: &[u8]) {
    let flags = flag(res.is_chunked(), FLAG_CHUNKED)
        | flag(res.keep_alive(), FLAG_KEEP_ALIVE)
        | flag(res.is_interim(), FLAG_INTERIM)
        | flag(res.switches_protocols(), FLAG_SWITCHES_PROTOCOLS)
        | framing_bits(res.framing());
    write_common(spans, head, res.version(), res.content_length(), flags);
    spans[START_A] = u32::from(res.status());
    spans[START_B] = span_word(res.reason());
    write_fields(spans, res.fields(), res.known_bitmap());
}

/// Writes a complete trailer section, whose bytes are `section`: only the state, the length,
/// the text flag and the fields.
pub fn write_trailers(spans: &mut Spans, trailers: &Trailers<MAX_FIELDS>, section: &[u8]) {
    spans[STATE] = COMPLETE;
    spans[HEAD_LEN] = section.len() as u32;
    spans[FLAGS] = 0;
    write_fields(spans, trailers.fields(), trailers.known_bitmap());
}
