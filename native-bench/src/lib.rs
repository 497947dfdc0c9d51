//! Benchmarks of httpspan against httparse and picohttpparser on the shared inputs.
//!
//! Each [`Row`] is one question ("how long does parsing the medium request take?") with
//! httpspan's answer and one or more competitors' answers to the same question. Every timed
//! closure checks its result, so a fast wrong answer fails instead of winning. The `tables`
//! binary times all rows interleaved; the criterion bench (`benches/parse.rs`) times the same
//! closures one by one.
//!
//! To add a row, push a [`Row`] in [`rows`]: a title, an input name, httpspan's [`Case`] and the
//! competitors' cases, each a closure that runs one operation and asserts its result.

pub mod compete;
pub mod doc;
pub mod measure;
pub mod placement;
pub mod report;

use std::hint::black_box;

use httpspan::{Chunk, ChunkedDecoder, KnownHeader, Limits, Request, Response, Status};

/// The shared benchmark inputs (`../shared/bench-inputs`), copied into `core/testdata`.
pub mod inputs {
    /// 35-byte GET.
    pub const REQUEST_SMALL: &[u8] = include_bytes!("../../core/testdata/request-small.http");
    /// 368-byte POST with 9 fields.
    pub const REQUEST_MEDIUM: &[u8] = include_bytes!("../../core/testdata/request-medium.http");
    /// 733-byte POST with 20 fields.
    pub const REQUEST_LARGE: &[u8] = include_bytes!("../../core/testdata/request-large.http");
    /// 38-byte 204.
    pub const RESPONSE_SMALL: &[u8] = include_bytes!("../../core/testdata/response-small.http");
    /// 300-byte chunked 200.
    pub const RESPONSE_MEDIUM: &[u8] = include_bytes!("../../core/testdata/response-medium.http");
    /// 733-byte 200.
    pub const RESPONSE_LARGE: &[u8] = include_bytes!("../../core/testdata/response-large.http");
}

/// One timed operation.
pub struct Case {
    /// Who answers: `httpspan`, `httparse`, `picohttpparser`, `memchr`, ...
    pub name: &'static str,
    /// Bytes one operation processes, for GiB/s; 0 where throughput means nothing.
    pub bytes: usize,
    /// Operations one call of `run` performs (several lookups per call, say).
    pub ops: u32,
    /// Runs the operation(s) once and asserts the result.
    pub run: Box<dyn FnMut()>,
}

impl Case {
    /// A case performing one operation on `bytes` bytes per call.
    pub fn new(name: &'static str, bytes: usize, run: impl FnMut() + 'static) -> Case {
        Case {
            name,
            bytes,
            ops: 1,
            run: Box::new(run),
        }
    }

    /// The same case, counting `ops` operations per call.
    pub fn ops(mut self, ops: u32) -> Case {
        self.ops = ops;
        self
    }
}

/// httpspan's case and its competitors' on one question. The ratio reported for each competitor
/// is its time divided by httpspan's: above 1, httpspan is faster.
pub struct Row {
    /// What is measured, e.g. `request parse`.
    pub title: &'static str,
    /// The input, e.g. `large (733 B)`.
    pub input: String,
    /// httpspan's case.
    pub ours: Case,
    /// The competitors' cases.
    pub others: Vec<Case>,
}

fn input_label(size: &str, bytes: &[u8]) -> String {
    format!("{size} ({} B)", bytes.len())
}

const SIZES: [&str; 3] = ["small", "medium", "large"];

/// Parses a request head with httpspan and checks that all of it was read.
fn parse_request(req: &mut Request, buf: &[u8]) {
    parse_request_head(req, buf, buf.len());
}

/// Parses a request with httpspan and checks that its head is the first `head_len` bytes.
#[inline(always)]
fn parse_request_head(req: &mut Request, buf: &[u8], head_len: usize) {
    req.reset();
    let status = req.parse(black_box(buf));
    assert_eq!(status, Ok(Status::Complete { head_len }));
}

/// httpspan's request and response parsers, for the rows that treat them alike.
trait Parser: 'static {
    fn create() -> Self;
    /// Parses `buf` from scratch and checks that all of it was the head.
    fn parse_all(&mut self, buf: &[u8]);
    /// Parses `buf` from scratch and checks that its head is the first `head_len` bytes.
    fn parse_head(&mut self, buf: &[u8], head_len: usize);
    fn semantics(&self) -> Semantics;
}

impl Parser for Request {
    fn create() -> Self {
        Request::new()
    }
    fn parse_all(&mut self, buf: &[u8]) {
        parse_request(self, buf);
    }
    fn parse_head(&mut self, buf: &[u8], head_len: usize) {
        parse_request_head(self, buf, head_len);
    }
    fn semantics(&self) -> Semantics {
        Semantics {
            content_length: self.content_length(),
            chunked: self.is_chunked(),
            keep_alive: self.keep_alive(),
        }
    }
}

impl Parser for Response {
    fn create() -> Self {
        Response::new()
    }
    fn parse_all(&mut self, buf: &[u8]) {
        self.parse_head(buf, buf.len());
    }
    #[inline(always)]
    fn parse_head(&mut self, buf: &[u8], head_len: usize) {
        self.reset();
        let status = self.parse(black_box(buf));
        assert_eq!(status, Ok(Status::Complete { head_len }));
    }
    fn semantics(&self) -> Semantics {
        Semantics {
            content_length: self.content_length(),
            chunked: self.is_chunked(),
            keep_alive: self.keep_alive(),
        }
    }
}

/// A competitor's answers for one kind of head: parse only, and parse with semantics. Static
/// functions, so that the timed closures call them directly, as they call httpspan.
trait Competitor {
    const NAME: &'static str;
    /// Parses and checks that all of `buf` was the head; returns the field count.
    fn parse(buf: &[u8]) -> usize;
    /// Parses and checks that the head is the first `head_len` bytes of `buf`; returns the
    /// field count.
    fn parse_head(buf: &[u8], head_len: usize) -> usize;
    fn semantics(buf: &[u8]) -> Semantics;
}

macro_rules! competitors {
    ($($type:ident: $name:literal, $parse:path, $parse_head:path, $semantics:path;)*) => {$(
        struct $type;
        impl Competitor for $type {
            const NAME: &'static str = $name;
            fn parse(buf: &[u8]) -> usize {
                $parse(buf)
            }
            fn parse_head(buf: &[u8], head_len: usize) -> usize {
                $parse_head(buf, head_len)
            }
            fn semantics(buf: &[u8]) -> Semantics {
                $semantics(buf)
            }
        }
    )*};
}

competitors! {
    HttparseRequest: "httparse", compete::httparse_request, compete::httparse_request_head,
        compete::httparse_request_semantics;
    PicoRequest: "picohttpparser", compete::pico_request, compete::pico_request_head,
        compete::pico_request_semantics;
    HttparseResponse: "httparse", compete::httparse_response, compete::httparse_response_head,
        compete::httparse_response_semantics;
    PicoResponse: "picohttpparser", compete::pico_response, compete::pico_response_head,
        compete::pico_response_semantics;
}

/// The copies of one message that a parse row parses in each call (see [`in_read_buffers`]).
type ReadBuffers = [&'static [u8]; 4];

/// A case that runs `parse` on each of `bufs` in every call: one operation per buffer, on
/// `bytes` bytes.
fn over_buffers(
    name: &'static str,
    bytes: usize,
    bufs: ReadBuffers,
    mut parse: impl FnMut(&'static [u8]) + 'static,
) -> Case {
    Case::new(name, bytes, move || bufs.into_iter().for_each(&mut parse)).ops(bufs.len() as u32)
}

fn parse_case<C: Competitor>(bufs: ReadBuffers) -> Case {
    over_buffers(C::NAME, bufs[0].len(), bufs, |buf| {
        black_box(C::parse(buf));
    })
}

fn semantics_case<C: Competitor>(bufs: ReadBuffers, expected: Semantics) -> Case {
    over_buffers(C::NAME, bufs[0].len(), bufs, move |buf| {
        assert_eq!(black_box(C::semantics(buf)), expected);
    })
}

/// The parse rows and the parse-with-semantics rows of one kind of head, for each input size,
/// against competitors `A` and `B`, each over the buffers of [`in_read_buffers`].
fn head_rows<P: Parser, A: Competitor, B: Competitor>(
    rows: &mut Vec<Row>,
    titles: [&'static str; 2],
    inputs: [&'static [u8]; 3],
) {
    for (size, input) in SIZES.into_iter().zip(inputs) {
        let bufs = in_read_buffers(input);
        let mut parser = P::create();
        rows.push(Row {
            title: titles[0],
            input: input_label(size, input),
            ours: over_buffers("httpspan", input.len(), bufs, move |buf| {
                parser.parse_all(buf)
            }),
            others: vec![parse_case::<A>(bufs), parse_case::<B>(bufs)],
        });
    }
    for (size, input) in SIZES.into_iter().zip(inputs) {
        let bufs = in_read_buffers(input);
        let expected = A::semantics(input);
        let mut parser = P::create();
        rows.push(Row {
            title: titles[1],
            input: input_label(size, input),
            ours: over_buffers("httpspan", input.len(), bufs, move |buf| {
                parser.parse_all(buf);
                assert_eq!(black_box(parser.semantics()), expected);
            }),
            others: vec![
                semantics_case::<A>(bufs, expected),
                semantics_case::<B>(bufs, expected),
            ],
        });
    }
}

/// The parse rows of a small head with more bytes after it in the buffer, as a server reads
/// them: its body (1 KiB), and a second copy of the message (pipelined), each over the buffers
/// of [`in_read_buffers`]. The head is the first `head.len()` bytes; what follows is not parsed.
fn followed_rows<P: Parser, A: Competitor, B: Competitor>(
    rows: &mut Vec<Row>,
    title: &'static str,
    head: &'static [u8],
) {
    let body = [head, &[b'x'; 1024][..]].concat();
    let pipelined = [head, head].concat();
    let head_len = head.len();
    for (input, message) in [
        ("small + 1 KiB body", body),
        ("small, pipelined", pipelined),
    ] {
        let bufs = in_read_buffers(&message);
        let mut parser = P::create();
        rows.push(Row {
            title,
            input: input_label(input, &message),
            ours: over_buffers("httpspan", head_len, bufs, move |buf| {
                parser.parse_head(buf, head_len)
            }),
            others: vec![
                over_buffers(A::NAME, head_len, bufs, move |buf| {
                    black_box(A::parse_head(buf, head_len));
                }),
                over_buffers(B::NAME, head_len, bufs, move |buf| {
                    black_box(B::parse_head(buf, head_len));
                }),
            ],
        });
    }
}

/// Copies of `message`, each at the start of a read buffer of its own (8 KiB, as a server reads
/// into) that begins a page, 0, 16, 32 and 48 bytes in: a row that parses all four does not
/// depend on where the allocator put one buffer. A 64-byte load that crosses a cache line or a
/// page costs more, and a buffer just big enough for its message lies next to other heap data.
fn in_read_buffers(message: &[u8]) -> ReadBuffers {
    const READ_BUFFER: usize = 8192;
    const PAGE: usize = 4096;
    assert!(message.len() + 64 <= READ_BUFFER);
    core::array::from_fn(|k| {
        let buffer = vec![0u8; READ_BUFFER + PAGE].leak();
        let skip = (PAGE - buffer.as_ptr() as usize % PAGE) % PAGE + k * 16;
        let copy = &mut buffer[skip..skip + message.len()];
        copy.copy_from_slice(message);
        assert_eq!(copy.as_ptr() as usize % PAGE, k * 16);
        &*copy
    })
}

/// What "semantic extraction" asks of every parser: the body length, whether it is chunked, and
/// whether the connection stays open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Semantics {
    /// Content-Length, if any.
    pub content_length: Option<u64>,
    /// Whether the last transfer coding is chunked.
    pub chunked: bool,
    /// Whether the connection stays open.
    pub keep_alive: bool,
}

/// Every row, in the order the tables print them.
pub fn rows() -> Vec<Row> {
    let requests = [
        inputs::REQUEST_SMALL,
        inputs::REQUEST_MEDIUM,
        inputs::REQUEST_LARGE,
    ];
    let responses = [
        inputs::RESPONSE_SMALL,
        inputs::RESPONSE_MEDIUM,
        inputs::RESPONSE_LARGE,
    ];
    let mut rows = Vec::new();
    head_rows::<Request, HttparseRequest, PicoRequest>(
        &mut rows,
        ["request parse", "request parse + semantics"],
        requests,
    );
    head_rows::<Response, HttparseResponse, PicoResponse>(
        &mut rows,
        ["response parse", "response parse + semantics"],
        responses,
    );
    followed_rows::<Request, HttparseRequest, PicoRequest>(
        &mut rows,
        "request parse",
        inputs::REQUEST_SMALL,
    );
    followed_rows::<Response, HttparseResponse, PicoResponse>(
        &mut rows,
        "response parse",
        inputs::RESPONSE_SMALL,
    );
    rows.push(known_header_lookup());
    writer_rows(&mut rows);
    validator_rows(&mut rows);
    rows.push(chunked_decoding());
    rows.push(byte_by_byte());
    for (size, buf) in SIZES.into_iter().zip(requests).skip(1) {
        let mut req = Request::new();
        let line_ends = buf.iter().filter(|&&b| b == b'\n').count();
        rows.push(Row {
            title: "request parse vs line-end floor",
            input: input_label(size, buf),
            ours: Case::new("httpspan", buf.len(), move || parse_request(&mut req, buf)),
            others: vec![Case::new("memchr floor", buf.len(), move || {
                let lines = memchr::memchr_iter(b'\n', black_box(buf)).count();
                assert_eq!(lines, line_ends);
            })],
        });
    }
    rows
}

/// The names looked up: a known header early, one in the middle, one late in the medium request.
const LOOKUPS: [(KnownHeader, &[u8]); 3] = [
    (KnownHeader::ContentType, b"Content-Type"),
    (KnownHeader::ContentLength, b"Content-Length"),
    (KnownHeader::XRequestId, b"X-Request-Id"),
];

/// The lookups run this many times per call of the timed closure, so that the cost of calling
/// it (a few ns) does not drown a lookup that takes about one.
pub const REPEAT: u32 = 8;

const KEYS: [KnownHeader; 3] = [LOOKUPS[0].0, LOOKUPS[1].0, LOOKUPS[2].0];

fn known_header_lookup() -> Row {
    let buf = inputs::REQUEST_MEDIUM;
    let mut req = Request::new();
    parse_request(&mut req, buf);
    let expected = LOOKUPS.map(|(known, _)| req.value(known));
    let values = expected.map(|v| v.expect("present").as_bytes(buf));
    let req = Box::new(req);
    Row {
        title: "known-header lookup (3 names)",
        input: input_label("medium", buf),
        ours: Case::new("httpspan", 0, move || {
            // Opaque once per call and checked once per call, so that the time is the lookups'
            // and not the harness's; Spans compare as 4 bytes.
            for _ in 0..REPEAT {
                let (req, [a, b, c]) = black_box((&req, KEYS));
                let found = [req.value(a), req.value(b), req.value(c)];
                assert!(found == expected, "{found:?}");
            }
        })
        .ops(3 * REPEAT),
        others: vec![compete::httparse_linear_lookup(buf, &LOOKUPS, values).ops(3 * REPEAT)],
    }
}

/// A 64 KiB body in 64 chunks of 1 KiB.
pub fn chunked_body() -> Vec<u8> {
    let mut body = Vec::new();
    for i in 0..64u8 {
        body.extend_from_slice(b"400\r\n");
        body.extend(std::iter::repeat(b'a' + i % 26).take(1024));
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(b"0\r\n\r\n");
    body
}

/// Decodes a whole chunked body with httpspan's decoder; returns the data bytes.
///
/// What a user does with the whole body in one buffer: call `decode` on the rest of the input
/// until the trailer section, and take each chunk's data as a slice of the input, handed on
/// opaquely (`black_box`), as [`compete::httparse_chunked`] hands on httparse's.
pub fn decode_chunked(body: &[u8]) -> usize {
    let mut decoder = ChunkedDecoder::new();
    let mut input = body;
    let mut data = 0;
    loop {
        let (used, chunk) = decoder.decode(input, &Limits::DEFAULT).expect("valid");
        match chunk {
            Chunk::Data(range) => data += black_box(&input[range]).len(),
            Chunk::TrailerSection => return data,
            other => panic!("{other:?}"),
        }
        input = &input[used..];
    }
}

fn chunked_decoding() -> Row {
    let body: &'static [u8] = chunked_body().leak();
    Row {
        title: "chunked decoding",
        input: format!("64 x 1 KiB ({} B)", body.len()),
        ours: Case::new("httpspan", body.len(), move || {
            assert_eq!(decode_chunked(black_box(body)), 64 * 1024);
        }),
        others: vec![Case::new("httparse", body.len(), move || {
            assert_eq!(compete::httparse_chunked(black_box(body)), 64 * 1024);
        })],
    }
}

fn byte_by_byte() -> Row {
    let buf = inputs::REQUEST_LARGE;
    let mut req = Request::new();
    let mut one_shot = Request::new();
    Row {
        title: "byte-by-byte feed",
        input: input_label("large", buf),
        ours: Case::new("httpspan", buf.len(), move || {
            req.reset();
            for end in 1..buf.len() {
                assert_eq!(req.parse(black_box(&buf[..end])), Ok(Status::Partial));
            }
            let status = req.parse(black_box(buf));
            assert_eq!(
                status,
                Ok(Status::Complete {
                    head_len: buf.len()
                })
            );
        }),
        others: vec![
            Case::new("httpspan one-shot", buf.len(), move || {
                parse_request(&mut one_shot, buf)
            }),
            Case::new("httparse", buf.len(), move || {
                compete::httparse_byte_by_byte(buf);
            }),
        ],
    }
}

/// The SSE head's fields after the status line.
const SSE_FIELDS: [(&[u8], &[u8]); 3] = [
    (b"Content-Type", b"text/event-stream"),
    (b"Cache-Control", b"no-cache"),
    (b"Connection", b"keep-alive"),
];

/// A JSON API answer's fields before its Content-Length: 5 here, 6 with it.
const JSON_FIELDS: [(&[u8], &[u8]); 5] = [
    (b"Content-Type", b"application/json"),
    (b"Date", b"Sun, 22 Nov 2026 08:00:00 GMT"),
    (b"Server", b"httpspan-example"),
    (b"Cache-Control", b"no-store"),
    (b"X-Request-Id", b"f058ebd6-02f7-4d3f-942e-904344e8cde5"),
];

const JSON_BODY: &[u8] = br#"{"id":42,"name":"widget","tags":["a","b"]}"#;

/// The response writer against `write!` into a slice, which checks nothing (no token or value
/// rules, no framing rules): the least a server could do to produce the same bytes.
fn writer_rows(rows: &mut Vec<Row>) {
    use httpspan::ResponseWriter;
    use std::io::Write;

    /// Writes with `write!` and returns the length, for the comparison.
    fn plain(buf: &mut [u8], f: impl FnOnce(&mut &mut [u8]) -> std::io::Result<()>) -> usize {
        let total = buf.len();
        let mut rest = &mut buf[..];
        f(&mut rest).expect("room");
        total - rest.len()
    }

    /// Writes `name: value` lines with `write_all`, as the `write!` cases do.
    fn plain_fields(w: &mut &mut [u8], fields: &[(&[u8], &[u8])]) -> std::io::Result<()> {
        for (n, v) in fields {
            w.write_all(n)?;
            w.write_all(b": ")?;
            w.write_all(v)?;
            w.write_all(b"\r\n")?;
        }
        Ok(())
    }

    let minimal: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
    let mut sse = b"HTTP/1.1 200 OK\r\n".to_vec();
    for (n, v) in SSE_FIELDS {
        sse.extend_from_slice(&[n, b": ", v, b"\r\n"].concat());
    }
    sse.extend_from_slice(b"Transfer-Encoding: chunked\r\n\r\n");
    let mut json = b"HTTP/1.1 200 OK\r\n".to_vec();
    for (n, v) in JSON_FIELDS {
        json.extend_from_slice(&[n, b": ", v, b"\r\n"].concat());
    }
    json.extend_from_slice(format!("Content-Length: {}\r\n\r\n", JSON_BODY.len()).as_bytes());
    json.extend_from_slice(JSON_BODY);
    let (sse, json): (&'static [u8], &'static [u8]) = (sse.leak(), json.leak());

    // What a server does with a head this small: write it and hand the bytes to the socket. The
    // timed closure writes and hands `&buf[..n]` on opaquely (`black_box`), so the bytes must be
    // in the buffer, but it does not read them back: comparing them right after writing them
    // is a store-to-load stall that cost several times the write. Each side's bytes are checked
    // once, by the same call, before timing.
    fn minimal_ours(buf: &mut [u8]) -> usize {
        let n = httpspan::write_empty_response(black_box(buf), black_box(200)).expect("room");
        black_box(&buf[..n]);
        n
    }
    fn minimal_write(buf: &mut [u8]) -> usize {
        let n = plain(black_box(&mut *buf), |w| {
            write!(
                w,
                "HTTP/1.1 {} {}\r\nContent-Length: 0\r\n\r\n",
                black_box(200),
                black_box("OK")
            )
        });
        black_box(&buf[..n]);
        n
    }
    let mut buf = [0u8; 512];
    let mut other = [0u8; 512];
    for (write, buf) in [
        (minimal_ours as fn(&mut [u8]) -> usize, &mut buf),
        (minimal_write, &mut other),
    ] {
        let n = write(buf);
        assert_eq!(&buf[..n], minimal);
    }
    rows.push(Row {
        title: "response write",
        input: format!(
            "minimal 200, Content-Length: 0 ({} B; the write, bytes checked before timing)",
            minimal.len()
        ),
        ours: Case::new("httpspan", minimal.len(), move || {
            minimal_ours(&mut buf);
        }),
        others: vec![Case::new("write! (no checks)", minimal.len(), move || {
            minimal_write(&mut other);
        })],
    });
    let mut buf = [0u8; 512];
    let mut other = [0u8; 512];
    rows.push(Row {
        title: "response write",
        input: format!("SSE head ({} B)", sse.len()),
        ours: Case::new("httpspan", sse.len(), move || {
            let mut res = ResponseWriter::new(black_box(&mut buf[..]), 200).expect("room");
            for (n, v) in black_box(SSE_FIELDS) {
                res.header(n, v).expect("valid");
            }
            res.chunked().expect("one framing field");
            let n = res.finish().expect("room");
            assert_eq!(&buf[..n], sse);
        }),
        others: vec![Case::new("write! (no checks)", sse.len(), move || {
            let n = plain(black_box(&mut other[..]), |w| {
                write!(w, "HTTP/1.1 {} {}\r\n", black_box(200), black_box("OK"))?;
                plain_fields(w, &black_box(SSE_FIELDS))?;
                w.write_all(b"Transfer-Encoding: chunked\r\n\r\n")
            });
            assert_eq!(&other[..n], sse);
        })],
    });
    let mut buf = [0u8; 512];
    let mut other = [0u8; 512];
    rows.push(Row {
        title: "response write",
        input: format!("JSON API, 6 fields ({} B)", json.len()),
        ours: Case::new("httpspan", json.len(), move || {
            let mut res = ResponseWriter::new(black_box(&mut buf[..]), 200).expect("room");
            for (n, v) in black_box(JSON_FIELDS) {
                res.header(n, v).expect("valid");
            }
            let n = res.body(black_box(JSON_BODY)).expect("room");
            assert_eq!(&buf[..n], json);
        }),
        others: vec![Case::new("write! (no checks)", json.len(), move || {
            let n = plain(black_box(&mut other[..]), |w| {
                write!(w, "HTTP/1.1 {} {}\r\n", black_box(200), black_box("OK"))?;
                plain_fields(w, &black_box(JSON_FIELDS))?;
                write!(w, "Content-Length: {}\r\n\r\n", JSON_BODY.len())?;
                w.write_all(black_box(JSON_BODY))
            });
            assert_eq!(&other[..n], json);
        })],
    });
}

/// The public validators against a plain loop over a 256-entry table of the same class.
fn validator_rows(rows: &mut Vec<Row>) {
    /// A 256-entry table of the bytes `member` admits.
    fn table(member: fn(u8) -> bool) -> [bool; 256] {
        let mut t = [false; 256];
        for (b, slot) in t.iter_mut().enumerate() {
            *slot = member(b as u8);
        }
        t
    }
    fn tchar(b: u8) -> bool {
        b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
    }
    fn value_byte(b: u8) -> bool {
        b == b'\t' || b == b' ' || (0x21..=0x7e).contains(&b) || b >= 0x80
    }
    let tokens = table(tchar);
    let values = table(value_byte);
    // A long field name and a long value from a real request (X-Request-Id, a user agent).
    let name: &'static [u8] = b"Access-Control-Request-Headers";
    let value: &'static [u8] =
        b"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36";
    rows.push(Row {
        title: "validate token (is_token)",
        input: format!("field name ({} B)", name.len()),
        ours: Case::new("httpspan", name.len(), move || {
            assert!(httpspan::is_token(black_box(name)));
        }),
        others: vec![Case::new("256-entry table loop", name.len(), move || {
            let n = black_box(name);
            assert!(!n.is_empty() && n.iter().all(|&b| tokens[b as usize]));
        })],
    });
    rows.push(Row {
        title: "validate field value (is_field_value)",
        input: format!("user agent ({} B)", value.len()),
        ours: Case::new("httpspan", value.len(), move || {
            assert!(httpspan::is_field_value(black_box(value)));
        }),
        others: vec![Case::new("256-entry table loop", value.len(), move || {
            let v = black_box(value);
            assert!(v.iter().all(|&b| values[b as usize]));
        })],
    });
}

#[cfg(test)]
mod tests {
    /// Each case once, unmeasured: `make test` then catches a case whose check no longer holds
    /// (a parser change, an input change) without running the benchmarks.
    #[test]
    fn every_case_passes_its_own_check() {
        let mut rows = super::rows();
        assert!(rows.len() >= 17, "{} rows", rows.len());
        for row in &mut rows {
            assert_eq!(row.ours.name, "httpspan");
            assert!(
                !row.others.is_empty(),
                "{}: nothing to compare with",
                row.title
            );
            (row.ours.run)();
            for other in &mut row.others {
                (other.run)();
            }
        }
    }
}
