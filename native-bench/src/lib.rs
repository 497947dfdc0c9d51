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
pub mod measure;
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
    req.reset();
    let status = req.parse(black_box(buf));
    assert_eq!(
        status,
        Ok(Status::Complete {
            head_len: buf.len()
        })
    );
}

/// httpspan's request and response parsers, for the rows that treat them alike.
trait Parser: 'static {
    fn create() -> Self;
    /// Parses `buf` from scratch and checks that all of it was the head.
    fn parse_all(&mut self, buf: &[u8]);
    fn semantics(&self) -> Semantics;
}

impl Parser for Request {
    fn create() -> Self {
        Request::new()
    }
    fn parse_all(&mut self, buf: &[u8]) {
        parse_request(self, buf);
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
        self.reset();
        let status = self.parse(black_box(buf));
        assert_eq!(
            status,
            Ok(Status::Complete {
                head_len: buf.len()
            })
        );
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
    fn semantics(buf: &[u8]) -> Semantics;
}

macro_rules! competitors {
    ($($type:ident: $name:literal, $parse:path, $semantics:path;)*) => {$(
        struct $type;
        impl Competitor for $type {
            const NAME: &'static str = $name;
            fn parse(buf: &[u8]) -> usize {
                $parse(buf)
            }
            fn semantics(buf: &[u8]) -> Semantics {
                $semantics(buf)
            }
        }
    )*};
}

competitors! {
    HttparseRequest: "httparse", compete::httparse_request, compete::httparse_request_semantics;
    PicoRequest: "picohttpparser", compete::pico_request, compete::pico_request_semantics;
    HttparseResponse: "httparse", compete::httparse_response, compete::httparse_response_semantics;
    PicoResponse: "picohttpparser", compete::pico_response, compete::pico_response_semantics;
}

fn parse_case<C: Competitor>(buf: &'static [u8]) -> Case {
    Case::new(C::NAME, buf.len(), move || {
        black_box(C::parse(buf));
    })
}

fn semantics_case<C: Competitor>(buf: &'static [u8], expected: Semantics) -> Case {
    Case::new(C::NAME, buf.len(), move || {
        assert_eq!(black_box(C::semantics(buf)), expected);
    })
}

/// The parse rows and the parse-with-semantics rows of one kind of head, for each input size,
/// against competitors `A` and `B`.
fn head_rows<P: Parser, A: Competitor, B: Competitor>(
    rows: &mut Vec<Row>,
    titles: [&'static str; 2],
    inputs: [&'static [u8]; 3],
) {
    for (size, buf) in SIZES.into_iter().zip(inputs) {
        let mut parser = P::create();
        rows.push(Row {
            title: titles[0],
            input: input_label(size, buf),
            ours: Case::new("httpspan", buf.len(), move || parser.parse_all(buf)),
            others: vec![parse_case::<A>(buf), parse_case::<B>(buf)],
        });
    }
    for (size, buf) in SIZES.into_iter().zip(inputs) {
        let expected = A::semantics(buf);
        let mut parser = P::create();
        rows.push(Row {
            title: titles[1],
            input: input_label(size, buf),
            ours: Case::new("httpspan", buf.len(), move || {
                parser.parse_all(buf);
                assert_eq!(black_box(parser.semantics()), expected);
            }),
            others: vec![
                semantics_case::<A>(buf, expected),
                semantics_case::<B>(buf, expected),
            ],
        });
    }
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
    rows.push(known_header_lookup());
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
    let expected = LOOKUPS.map(|(known, _)| req.get(known));
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
                let found = [req.get(a), req.get(b), req.get(c)];
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

fn chunked_decoding() -> Row {
    let body: &'static [u8] = chunked_body().leak();
    Row {
        title: "chunked decoding",
        input: format!("64 x 1 KiB ({} B)", body.len()),
        ours: Case::new("httpspan", body.len(), move || {
            let mut decoder = ChunkedDecoder::new();
            let mut input = black_box(body);
            let mut data = 0;
            loop {
                let (used, chunk) = decoder.decode(input, &Limits::DEFAULT).expect("valid");
                match chunk {
                    Chunk::Data(range) => data += range.len(),
                    Chunk::TrailerSection => break,
                    other => panic!("{other:?}"),
                }
                input = &input[used..];
            }
            assert_eq!(data, 64 * 1024);
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
