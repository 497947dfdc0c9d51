//! What the fuzz targets assert, shared so that each target is a few lines and new targets (every
//! SIMD backend against the scalar one, the writer's round trip) compare parses the same way.
//!
//! A parse is captured as a [`HeadOutcome`]: an owned, comparable record of everything a head
//! parser reports (spans, version, known-header index, framing facts) or of its error. Two
//! parses agree when their outcomes are equal. [`check_head`] runs every invariant on one input:
//! - spans lie inside the head, in order, and cover what the grammar says (a name ends at its
//!   colon, a value is trimmed and holds no CR, LF or NUL);
//! - the known-header index, `get`, `find` and the framing facts agree with the field list,
//!   recomputed here from the bytes;
//! - an error's offset is a byte of the input;
//! - a parse resumed byte by byte, or on fuzzer-influenced prefixes, equals the one-shot parse,
//!   and a repeated call returns the same result;
//! - a prefix that `check_truncated` rejects has no valid continuation.
//!
//! Panics (assertion failures) are what the fuzzer reports.

use conformance::trim_ows;
use httpspan::{
    Chunk, ChunkLine, ChunkedDecoder, Error, ErrorKind, Field, Framing, KnownHeader, Limits,
    Request, Response, Span, Status, Trailers, Version,
};

/// What one call of a head parser gave, in a form that can be compared and printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeadOutcome {
    /// The head is complete.
    Complete(HeadView),
    /// More bytes are needed.
    Partial,
    /// The input is invalid.
    Error {
        /// The error's kind.
        kind: ErrorKind,
        /// The offset it points at.
        offset: usize,
    },
}

impl HeadOutcome {
    fn from_error(e: Error) -> Self {
        HeadOutcome::Error {
            kind: e.kind(),
            offset: e.offset(),
        }
    }
}

/// Everything a complete head reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeadView {
    /// Bytes of the head, final CRLF included.
    pub head_len: usize,
    /// Request: method and target. Response: the reason (second span empty). Trailers: none.
    pub start: Option<(Span, Span)>,
    /// Response status, 0 otherwise.
    pub status: u16,
    /// The version (HTTP/1.1 for trailers).
    pub version: Version,
    /// The stored fields, in order.
    pub fields: Vec<Field>,
    /// The known-header bitmap.
    pub known_bitmap: u64,
    /// For each known header, its `get` value and `known_index`.
    pub known: Vec<(Option<Span>, Option<usize>)>,
    /// Content-Length as reported.
    pub content_length: Option<u64>,
    /// Whether the body is chunked.
    pub chunked: bool,
    /// Keep-alive as reported.
    pub keep_alive: bool,
    /// Framing as reported.
    pub framing: Option<Framing>,
}

/// A head parser as the invariants see it: `Request`, `Response` (answering some method) and
/// `Trailers` implement it.
pub trait HeadParser: Clone {
    /// Parses or resumes.
    fn parse(&mut self, buf: &[u8]) -> Result<Status, Error>;
    /// `check_truncated` of the parser.
    fn check_truncated(&self, buf: &[u8]) -> Result<(), Error>;
    /// The fields.
    fn fields(&self) -> &[Field];
    /// `find` of the parser.
    fn find(&self, buf: &[u8], name: &[u8]) -> Option<Span>;
    /// `get` of the parser.
    fn value(&self, known: KnownHeader) -> Option<Span>;
    /// `known_index` of the parser.
    fn known_index(&self, known: KnownHeader) -> Option<usize>;
    /// `known_bitmap` of the parser.
    fn known_bitmap(&self) -> u64;
    /// Captures the parse of a complete head of `head_len` bytes.
    fn view(&self, head_len: usize) -> HeadView;
    /// The kind-specific invariants of a complete head in `buf`.
    fn check_complete(&self, buf: &[u8], view: &HeadView);
}

/// The part of a [`HeadView`] that every head has: fields and the known-header index.
fn base_view<P: HeadParser>(parser: &P, head_len: usize) -> HeadView {
    HeadView {
        head_len,
        start: None,
        status: 0,
        version: Version::Http11,
        fields: parser.fields().to_vec(),
        known_bitmap: parser.known_bitmap(),
        known: KnownHeader::ALL
            .iter()
            .map(|&k| (parser.value(k), parser.known_index(k)))
            .collect(),
        content_length: None,
        chunked: false,
        keep_alive: true,
        framing: None,
    }
}

/// The methods of [`HeadParser`] that a parser type has under the same name: on the type
/// itself, or on one of its fields.
macro_rules! delegate_to {
    ($ty:ty $(, $field:ident)?) => {
        fn parse(&mut self, buf: &[u8]) -> Result<Status, Error> {
            <$ty>::parse(&mut (*self)$(.$field)?, buf)
        }
        fn check_truncated(&self, buf: &[u8]) -> Result<(), Error> {
            <$ty>::check_truncated(&(*self)$(.$field)?, buf)
        }
        fn fields(&self) -> &[Field] {
            <$ty>::fields(&(*self)$(.$field)?)
        }
        fn find(&self, buf: &[u8], name: &[u8]) -> Option<Span> {
            <$ty>::find(&(*self)$(.$field)?, buf, name)
        }
        fn value(&self, known: KnownHeader) -> Option<Span> {
            <$ty>::value(&(*self)$(.$field)?, known)
        }
        fn known_index(&self, known: KnownHeader) -> Option<usize> {
            <$ty>::known_index(&(*self)$(.$field)?, known)
        }
        fn known_bitmap(&self) -> u64 {
            <$ty>::known_bitmap(&(*self)$(.$field)?)
        }
    };
}

impl<const N: usize> HeadParser for Request<N> {
    delegate_to!(Request::<N>);
    fn view(&self, head_len: usize) -> HeadView {
        HeadView {
            start: Some((self.method(), self.target())),
            version: self.version(),
            content_length: self.content_length(),
            chunked: self.is_chunked(),
            keep_alive: self.keep_alive(),
            framing: Some(self.framing()),
            ..base_view(self, head_len)
        }
    }
    fn check_complete(&self, buf: &[u8], view: &HeadView) {
        let (method, target) = view.start.expect("a request has a start line");
        let head = &buf[..view.head_len];
        // The method starts the request-line, after at most 2 empty lines.
        let leading = method.off as usize;
        assert!(leading <= 4 && head[..leading].chunks(2).all(|c| c == b"\r\n"));
        assert!(!method.is_empty() && method.end() + 1 == target.off as usize);
        assert_eq!(head[method.end()], b' ');
        assert!(!target.is_empty() && head[target.end()] == b' ');
        let line_end = find_crlf(head, target.end()).expect("the request-line ends in CRLF");
        assert!(matches!(
            &head[target.end() + 1..line_end],
            b"HTTP/1.1" | b"HTTP/1.0"
        ));
        check_fields(self, head, line_end + 2, view);
        check_framing_fields(head, view, true);
        let host_lines = count_named(head, &view.fields, b"host");
        if view.version == Version::Http11 {
            assert_eq!(host_lines, 1, "an HTTP/1.1 request has exactly one Host");
        } else {
            assert!(host_lines <= 1);
        }
        assert_ne!(view.framing, Some(Framing::UntilClose));
    }
}

/// A response parser that answers `method`, as a [`HeadParser`].
#[derive(Clone)]
pub struct ResponseTo {
    /// The parser.
    pub response: Response,
    /// The method of the request answered.
    pub method: &'static [u8],
}

impl ResponseTo {
    /// A fresh parser for a response to `method`.
    pub fn new(method: &'static [u8]) -> Self {
        let mut response = Response::new();
        response.set_request_method(method);
        ResponseTo { response, method }
    }
}

impl HeadParser for ResponseTo {
    delegate_to!(Response, response);
    fn view(&self, head_len: usize) -> HeadView {
        let res = &self.response;
        HeadView {
            start: Some((res.reason(), Span::EMPTY)),
            status: res.status(),
            version: res.version(),
            content_length: res.content_length(),
            chunked: res.is_chunked(),
            keep_alive: res.keep_alive(),
            framing: Some(res.framing()),
            ..base_view(self, head_len)
        }
    }
    fn check_complete(&self, buf: &[u8], view: &HeadView) {
        let head = &buf[..view.head_len];
        let (reason, _) = view.start.expect("a response has a status-line");
        assert!(head.starts_with(b"HTTP/1.1 ") || head.starts_with(b"HTTP/1.0 "));
        assert!((100..=599).contains(&view.status));
        assert_eq!(&head[9..12], view.status.to_string().as_bytes());
        let line_end = find_crlf(head, 0).expect("the status-line ends in CRLF");
        assert_eq!(reason.end(), line_end);
        assert!(reason.off as usize == 12 || reason.off as usize == 13);
        check_fields(self, head, line_end + 2, view);
        check_framing_fields(head, view, false);
        let bodiless = view.status < 200
            || view.status == 204
            || view.status == 304
            || self.method == b"HEAD"
            || view.status == 101
            || (self.method == b"CONNECT" && (200..300).contains(&view.status));
        if bodiless {
            assert_eq!(view.framing, Some(Framing::NoBody));
            assert!(!view.chunked);
        }
        if view.framing == Some(Framing::UntilClose) {
            assert!(!view.keep_alive);
        }
    }
}

impl<const N: usize> HeadParser for Trailers<N> {
    delegate_to!(Trailers::<N>);
    fn view(&self, head_len: usize) -> HeadView {
        base_view(self, head_len)
    }
    fn check_complete(&self, buf: &[u8], view: &HeadView) {
        check_fields(self, &buf[..view.head_len], 0, view);
    }
}

fn find_crlf(buf: &[u8], from: usize) -> Option<usize> {
    buf.get(from..)?
        .windows(2)
        .position(|w| w == b"\r\n")
        .map(|i| from + i)
}

fn is_ws(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn count_named(head: &[u8], fields: &[Field], name: &[u8]) -> usize {
    fields
        .iter()
        .filter(|f| f.name.as_bytes(head).eq_ignore_ascii_case(name))
        .count()
}

/// The field lines of a complete head: each line from `first_line` on is one stored field, with
/// spans where the grammar puts them; then the empty line ends the head. The index and lookups
/// agree with the list.
fn check_fields<P: HeadParser>(parser: &P, head: &[u8], first_line: usize, view: &HeadView) {
    assert!(view.head_len >= 2 && head.ends_with(b"\r\n"));
    let mut line = first_line;
    for field in &view.fields {
        let name = field.name.as_bytes(head);
        let value = field.value.as_bytes(head);
        assert_eq!(
            field.name.off as usize, line,
            "fields are in order, one per line"
        );
        assert!(!name.is_empty() && name.iter().all(|&b| is_tchar(b)));
        assert_eq!(head[field.name.end()], b':');
        let line_end = find_crlf(head, line).expect("a field line ends in CRLF");
        assert!(field.value.off as usize > field.name.end() && field.value.end() <= line_end);
        assert!(head[field.name.end() + 1..field.value.off as usize]
            .iter()
            .all(|&b| is_ws(b)));
        assert!(head[field.value.end()..line_end].iter().all(|&b| is_ws(b)));
        if let (Some(&first), Some(&last)) = (value.first(), value.last()) {
            assert!(!is_ws(first) && !is_ws(last), "values are trimmed");
        }
        assert!(value.iter().all(|&b| b == b'\t' || b >= 0x20) && !value.contains(&0x7f));
        assert_eq!(field.known(), KnownHeader::from_name(name));
        assert_eq!(
            field
                .known()
                .map(|k| k.name().as_bytes().eq_ignore_ascii_case(name)),
            field.known().map(|_| true)
        );
        let first = view
            .fields
            .iter()
            .find(|f| f.name.as_bytes(head).eq_ignore_ascii_case(name))
            .unwrap();
        assert_eq!(parser.find(head, name), Some(first.value));
        line = line_end + 2;
    }
    assert_eq!(line + 2, view.head_len, "the empty line ends the head");
    for (i, &k) in KnownHeader::ALL.iter().enumerate() {
        let first = view.fields.iter().position(|f| f.known() == Some(k));
        assert_eq!(view.known[i], (first.map(|j| view.fields[j].value), first));
        assert_eq!(view.known_bitmap >> k.slot() & 1 == 1, first.is_some());
    }
}

/// Content-Length, Transfer-Encoding and Connection as reported agree with the field values,
/// recomputed here.
fn check_framing_fields(head: &[u8], view: &HeadView, request: bool) {
    let values = |name: &[u8]| -> Vec<&[u8]> {
        view.fields
            .iter()
            .filter(|f| f.name.as_bytes(head).eq_ignore_ascii_case(name))
            .map(|f| f.value.as_bytes(head))
            .collect()
    };
    let lengths = values(b"content-length");
    let codings = values(b"transfer-encoding");
    assert!(lengths.len() <= 1, "at most one Content-Length");
    assert!(lengths.is_empty() || codings.is_empty(), "not both");
    match lengths.first() {
        Some(v) => {
            assert!(!v.is_empty() && v.iter().all(u8::is_ascii_digit));
            let n = std::str::from_utf8(v)
                .unwrap()
                .trim_start_matches('0')
                .parse::<u64>()
                .unwrap_or(0);
            assert_eq!(view.content_length, Some(n));
        }
        None => assert_eq!(view.content_length, None),
    }
    let items = |v: &[&[u8]]| -> Vec<Vec<u8>> {
        v.iter()
            .flat_map(|v| v.split(|&b| b == b','))
            .map(|i| trim_ows(i).to_ascii_lowercase())
            .filter(|i| !i.is_empty())
            .collect()
    };
    let te = items(&codings);
    assert!(te.iter().filter(|i| *i == b"chunked").count() <= 1);
    let chunked_last = te.last().is_some_and(|i| i == b"chunked");
    if !codings.is_empty() {
        assert_eq!(
            view.version,
            Version::Http11,
            "no Transfer-Encoding in HTTP/1.0"
        );
        if request {
            assert!(chunked_last, "a request's last coding is chunked");
        }
    }
    if view.chunked {
        assert!(chunked_last);
    }
    let connection = items(&values(b"connection"));
    let close = connection.iter().any(|i| i == b"close");
    let keep = connection.iter().any(|i| i == b"keep-alive");
    let by_fields = !close && (view.version == Version::Http11 || keep);
    if request {
        assert_eq!(view.keep_alive, by_fields);
        assert_eq!(view.chunked, chunked_last);
        let framing = if chunked_last {
            Framing::Chunked
        } else {
            match view.content_length {
                Some(n) => Framing::Length(n),
                None => Framing::NoBody,
            }
        };
        assert_eq!(view.framing, Some(framing));
    } else if view.keep_alive {
        assert!(by_fields);
    }
}

/// One call of `parse` on `buf`, captured.
pub fn outcome<P: HeadParser>(parser: &mut P, buf: &[u8]) -> HeadOutcome {
    match parser.parse(buf) {
        Ok(Status::Complete { head_len }) => HeadOutcome::Complete(parser.view(head_len)),
        Ok(Status::Partial) => HeadOutcome::Partial,
        Err(e) => HeadOutcome::from_error(e),
    }
}

/// Feeds growing prefixes of `data`, ending at each of `ends` (increasing) and then at
/// `data.len()`, to one parser, stopping at the first result that is not `Partial`.
pub fn resumed<P: HeadParser>(
    mut parser: P,
    data: &[u8],
    ends: impl Iterator<Item = usize>,
) -> HeadOutcome {
    for end in ends.chain(std::iter::once(data.len())) {
        match outcome(&mut parser, &data[..end]) {
            HeadOutcome::Partial => {}
            done => return done,
        }
    }
    HeadOutcome::Partial
}

/// A few cut points in `0..len` chosen from the data itself, so that the fuzzer steers them.
pub fn cuts_from(data: &[u8], count: usize) -> Vec<usize> {
    let mut hash = data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let mut cuts: Vec<usize> = (0..count)
        .map(|_| {
            hash = hash.rotate_left(17).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            (hash % (data.len() as u64 + 1)) as usize
        })
        .collect();
    cuts.sort_unstable();
    cuts
}

/// Runs every head invariant on `data` with parsers made by `fresh`, and returns the one-shot
/// outcome.
pub fn check_head<P: HeadParser>(data: &[u8], fresh: impl Fn() -> P) -> HeadOutcome {
    let mut parser = fresh();
    let once = outcome(&mut parser, data);
    // A repeated call gives the same answer; after a complete head, without `reset`, the
    // misuse error instead of a stale answer.
    let again = outcome(&mut parser, data);
    match &once {
        HeadOutcome::Complete(_) => assert!(
            matches!(
                again,
                HeadOutcome::Error {
                    kind: ErrorKind::ParseAfterComplete,
                    ..
                }
            ),
            "a repeated call after Complete gave {again:?}"
        ),
        _ => assert_eq!(again, once, "a repeated call differs"),
    }
    match &once {
        HeadOutcome::Complete(view) => {
            assert!(view.head_len <= data.len());
            parser.check_complete(data, view);
        }
        // A size limit's error points at the first byte over the limit, which the input need
        // not hold: a buffer that fills the limit without the head's end fails at once.
        HeadOutcome::Error { kind, offset } => {
            let too_large = matches!(
                kind,
                ErrorKind::HeadTooLarge | ErrorKind::TargetTooLong | ErrorKind::TrailersTooLarge
            );
            assert!(
                *offset < data.len() || (too_large && *offset == data.len()),
                "error offset {offset} outside the input"
            );
        }
        HeadOutcome::Partial => {
            if let Err(e) = parser.check_truncated(data) {
                assert!(
                    e.offset() < data.len(),
                    "truncation error outside the input"
                );
            }
        }
    }
    let bytewise = resumed(fresh(), data, 0..data.len());
    assert_eq!(bytewise, once, "byte by byte differs from one shot");
    let split = resumed(fresh(), data, cuts_from(data, 3).into_iter());
    assert_eq!(split, once, "a split parse differs from one shot");
    // A prefix that check_truncated rejects cannot be continued into a valid head: the whole
    // input is rejected too, by parse or, if it is still partial, by check_truncated.
    let rejected = match &once {
        HeadOutcome::Error { .. } => true,
        HeadOutcome::Partial => parser.check_truncated(data).is_err(),
        HeadOutcome::Complete(_) => false,
    };
    for cut in cuts_from(data, 2) {
        let mut prefix = fresh();
        if outcome(&mut prefix, &data[..cut]) == HeadOutcome::Partial {
            if let Err(e) = prefix.check_truncated(&data[..cut]) {
                assert!(e.offset() < cut);
                assert!(
                    rejected,
                    "check_truncated rejected a prefix of {once:?}: {e:?}"
                );
            }
        }
    }
    once
}

/// What a chunked body decoded to: the data and where the trailer section starts, or the
/// error, or that more input is needed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChunkedOutcome {
    /// The last chunk was read; the trailer section starts at `trailer_start`.
    Done {
        /// The decoded data.
        data: Vec<u8>,
        /// Offset of the trailer section in the input.
        trailer_start: usize,
    },
    /// The input ended inside the body, after this much data.
    NeedMore(Vec<u8>),
    /// An error, offsets from the start of the body.
    Error(ErrorKind, usize, Vec<u8>),
}

/// Decodes `body` fed in pieces ending at `ends` (increasing), checking each call's contract.
pub fn decode_chunked(
    body: &[u8],
    ends: impl Iterator<Item = usize>,
    limits: &Limits,
) -> ChunkedOutcome {
    decode_chunked_with(body, ends, limits, None)
}

/// [`decode_chunked`] through [`ChunkedDecoder::decode_lines`]: also the chunk lines, each with
/// the offset in `body` one past its LF, checked against the bytes they point at.
pub fn decode_chunked_lines(
    body: &[u8],
    ends: impl Iterator<Item = usize>,
    limits: &Limits,
) -> (ChunkedOutcome, Vec<(usize, ChunkLine)>) {
    let mut lines = Vec::new();
    let outcome = decode_chunked_with(body, ends, limits, Some(&mut lines));
    (outcome, lines)
}

/// Checks a reported chunk line against the body: its digits are the chunk-size in hex, its
/// extension starts with BWS or `;`, and its line end is CRLF or a bare LF.
fn check_chunk_line(body: &[u8], end: usize, line: &ChunkLine) {
    let len = usize::try_from(line.line_len()).expect("a line longer than the address space");
    assert!(len <= end, "a chunk line that starts before the body");
    let bytes = &body[end - len..end];
    let (digits, rest) = bytes.split_at(usize::from(line.digits));
    let (ext, eol) = rest.split_at(rest.len() - usize::from(line.eol_len));
    let hex = std::str::from_utf8(digits).expect("chunk-size digits are ASCII");
    assert_eq!(
        u64::from_str_radix(hex, 16).ok(),
        Some(line.size),
        "chunk-size {hex:?}"
    );
    assert!(
        matches!(ext.first(), None | Some(b';' | b' ' | b'\t')),
        "chunk-ext {ext:?}"
    );
    assert!(eol == b"\r\n" || eol == b"\n", "line end {eol:?}");
}

/// The loop of [`decode_chunked`] and [`decode_chunked_lines`]: with `lines`, decodes with
/// `decode_lines` and records each line.
fn decode_chunked_with(
    body: &[u8],
    ends: impl Iterator<Item = usize>,
    limits: &Limits,
    mut lines: Option<&mut Vec<(usize, ChunkLine)>>,
) -> ChunkedOutcome {
    let mut decoder = ChunkedDecoder::new();
    let mut data = Vec::new();
    let mut start = 0;
    for end in ends.chain(std::iter::once(body.len())) {
        let end = end.max(start);
        let mut at = start;
        loop {
            let input = &body[at..end];
            let step = match lines {
                Some(_) => decoder.decode_lines(input, limits),
                None => decoder.decode(input, limits),
            };
            let (used, chunk) = match step {
                Ok(step) => step,
                Err(e) => {
                    assert!(e.offset() < input.len(), "chunk error outside its input");
                    return ChunkedOutcome::Error(e.kind(), at + e.offset(), data);
                }
            };
            assert!(used <= input.len());
            match chunk {
                Chunk::Data(range) => {
                    assert!(!range.is_empty() && range.end == used);
                    data.extend_from_slice(&input[range]);
                }
                Chunk::NeedMore => {
                    assert_eq!(used, input.len(), "NeedMore before the end of the input");
                    break;
                }
                Chunk::TrailerSection => {
                    assert!(decoder.is_done());
                    return ChunkedOutcome::Done {
                        data,
                        trailer_start: at + used,
                    };
                }
                Chunk::Line(line) => {
                    check_chunk_line(body, at + used, &line);
                    lines
                        .as_mut()
                        .expect("a chunk line from decode")
                        .push((at + used, line));
                }
                other => panic!("unknown chunk {other:?}"),
            }
            at += used;
        }
        start = end;
    }
    ChunkedOutcome::NeedMore(data)
}

/// A plain reading of an accepted chunked body (sizes, data, CRLFs; extensions skipped), to
/// check what the decoder delivered against.
pub fn reference_chunked(body: &[u8]) -> (Vec<u8>, usize) {
    let mut data = Vec::new();
    let mut pos = 0;
    loop {
        let digits = body[pos..]
            .iter()
            .take_while(|b| b.is_ascii_hexdigit())
            .count();
        let size = u64::from_str_radix(std::str::from_utf8(&body[pos..pos + digits]).unwrap(), 16)
            .unwrap();
        let line_end = find_crlf(body, pos).unwrap();
        pos = line_end + 2;
        if size == 0 {
            return (data, pos);
        }
        let size = size as usize;
        data.extend_from_slice(&body[pos..pos + size]);
        assert_eq!(&body[pos + size..pos + size + 2], b"\r\n");
        pos += size + 2;
    }
}

/// Limits small enough for short fuzz inputs to reach each of them.
pub fn small_limits() -> Limits {
    let mut limits = Limits::DEFAULT;
    limits.max_head_bytes = 200;
    limits.max_field_lines = 6;
    limits.max_chunk_ext_bytes = 12;
    limits.max_body_chunk_ext_bytes = 30;
    limits.max_trailer_bytes = 60;
    limits.max_body_bytes = Some(40);
    limits
}

/// The stream target's input: a config byte, a count byte k (mod 16), k piece lengths (0 read
/// as 256), then the stream. The config byte's bit 0 picks requests or responses and bits 1-2
/// the request method; its bits 3-7 and the count byte's high nibble turn on leniency options
/// (bit i of those 9 bits is `Leniency::NAMES[i]`), so every option set is fuzzed too. Returns
/// the case for the conformance runner's decode loop and the cut points.
pub fn stream_input(data: &[u8]) -> Option<(conformance::Case, Vec<usize>)> {
    let (&config, rest) = data.split_first()?;
    let (&count, rest) = rest.split_first()?;
    let pieces_len = usize::from(count % 16).min(rest.len());
    let (pieces, input) = rest.split_at(pieces_len);
    let kind = match config & 1 {
        0 => httpspan::stream::MessageKind::Request,
        _ => httpspan::stream::MessageKind::Response,
    };
    let method: &[u8] = match config >> 1 & 3 {
        1 => b"HEAD",
        2 => b"CONNECT",
        _ => b"GET",
    };
    let mut cuts = Vec::new();
    let mut at = 0;
    for &p in pieces {
        at += if p == 0 { 256 } else { usize::from(p) };
        if at >= input.len() {
            break;
        }
        cuts.push(at);
    }
    let options = u16::from(config >> 3) | u16::from(count >> 4) << 5;
    let mut lenient = httpspan::Leniency::STRICT;
    for (i, name) in httpspan::Leniency::NAMES.iter().enumerate() {
        if options & 1 << i != 0 {
            lenient.enable(name);
        }
    }
    let mut case = conformance::Case::unnamed(kind, input, lenient);
    case.request_methods = vec![method.to_vec()];
    Some((case, cuts))
}

/// The stream invariants on one fuzz input (see the `stream` target).
pub fn check_stream(data: &[u8]) {
    let Some((case, cuts)) = stream_input(data) else {
        return;
    };
    let once = conformance::decode_every_way(&case, [cuts]).unwrap_or_else(|e| panic!("{e}"));
    let mut body_bytes = 0;
    for outcome in &once {
        match outcome {
            // As for a head alone (see `check_head`): a size limit's error may point at the
            // first byte over the limit, one past a stream that ends exactly at it.
            conformance::Outcome::Reject { code, offset } => {
                let too_large = [
                    ErrorKind::HeadTooLarge,
                    ErrorKind::TargetTooLong,
                    ErrorKind::TrailersTooLarge,
                ]
                .iter()
                .any(|kind| kind.code() == *code);
                assert!(
                    *offset < case.input.len() || (too_large && *offset == case.input.len()),
                    "error offset {offset} outside the stream"
                )
            }
            conformance::Outcome::Message(m) => body_bytes += m.body.len(),
            conformance::Outcome::Incomplete => {}
        }
    }
    assert!(body_bytes <= case.input.len());
}
