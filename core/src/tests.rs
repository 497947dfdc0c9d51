//! Tests of the head engine through the public types, and of the promises that need the
//! crate's internals to observe (bytes scanned by the kernels).

use std::format;
use std::vec::Vec;

use crate::scan::counter;
use crate::*;

/// Every byte value; under Miri, which runs the scalar path orders of magnitude slower, a sample
/// that keeps a byte of every class (the loops using it check values, which the native runs of
/// the suite check in full; Miri is there for memory access, which the sample exercises alike).
pub(crate) fn every_byte() -> impl Iterator<Item = u8> {
    (0..=255u8)
        .filter(|&b| !cfg!(miri) || b % 23 == 0 || b"\0\t\n\r \"%:;=@[]aZ\x7f\x80\xff".contains(&b))
}

const LARGE: &[u8] = include_bytes!("../testdata/request-large.http");
const MEDIUM: &[u8] = include_bytes!("../testdata/request-medium.http");
const RESPONSE_LARGE: &[u8] = include_bytes!("../testdata/response-large.http");

/// Parses `buf` one byte longer at a time, as a server reading a slow client would.
fn parse_growing(req: &mut Request, buf: &[u8]) -> Result<Status, Error> {
    for end in 1..buf.len() {
        match req.parse(&buf[..end])? {
            Status::Partial => {}
            done => return Ok(done),
        }
    }
    req.parse(buf)
}

#[test]
fn sizes_stay_small() {
    assert_eq!(core::mem::size_of::<Span>(), 4);
    assert!(core::mem::size_of::<ChunkedDecoder>() <= 16);
    let request = core::mem::size_of::<Request>();
    let response = core::mem::size_of::<Response>();
    // 64 slots of 10 bytes are 640; the known-header index, a byte for each bit of the presence
    // bitmap, is 64; the rest is parse state.
    assert!(request <= 768, "Request is {request} bytes");
    assert!(response <= 768, "Response is {response} bytes");
}

/// Everything a parsed head tells, as text to compare.
fn described(
    result: &Result<Status, Error>,
    fields: &[Field],
    facts: impl core::fmt::Debug,
    get: impl Fn(KnownHeader) -> Option<Span>,
) -> std::string::String {
    let index: Vec<_> = KnownHeader::ALL.iter().map(|&k| get(k)).collect();
    format!("{result:?} {fields:?} {facts:?} {index:?}")
}

/// A request parsed with `limits` by `parse` (the public one, or the precise path alone): its
/// result, and everything it tells as text (see `described`).
fn parsed_request(
    limits: Limits,
    buf: &[u8],
    parse: fn(&mut Request, &[u8]) -> Result<Status, Error>,
) -> (Result<Status, Error>, std::string::String) {
    let mut req = Request::with_limits(limits);
    let result = parse(&mut req, buf);
    let facts = (req.method(), req.target(), req.version(), req.framing());
    let facts = (
        facts,
        req.content_length(),
        req.is_chunked(),
        req.keep_alive(),
        req.known_bitmap(),
    );
    let described = described(&result, req.fields(), facts, |k| req.get(k));
    (result, described)
}

/// A response parsed with `limits` and `parse`, as [`parsed_request`].
fn parsed_response(
    limits: Limits,
    buf: &[u8],
    parse: fn(&mut Response, &[u8]) -> Result<Status, Error>,
) -> (Result<Status, Error>, std::string::String) {
    let mut res = Response::with_limits(limits);
    let result = parse(&mut res, buf);
    let facts = (
        res.status(),
        res.reason(),
        res.version(),
        res.content_length(),
    );
    let facts = (
        facts,
        res.is_chunked(),
        res.keep_alive(),
        res.known_bitmap(),
    );
    let described = described(&result, res.fields(), facts, |k| res.get(k));
    (result, described)
}

/// The one-pass paths (the start line and the field walk over the block masks) only say yes:
/// whatever they accept, the general path accepts the same way, and they leave everything else
/// to it. Every message below, and each with one byte changed at every
/// position to each byte that matters to the grammar, must parse the same with them and
/// without them (`parse_precise`: every line through the precise path), in strict mode and
/// with every leniency: the same status or error (kind and offset), fields, known-header
/// bitmap and index, and framing.
#[test]
fn one_pass_paths_agree_with_the_general_path() {
    let requests: &[&[u8]] = &[
        b"POST /a?b=c HTTP/1.1\r\nHost: example.com:8080\r\nContent-Length: 12\r\nConnection: keep-alive\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
        b"GET / HTTP/1.0\r\nHost: [::1]\r\nConnection: Keep-Alive\r\nX: \t y \r\nY:\r\n\r\n",
        b"PUT /x HTTP/1.1\r\nhost: a\r\nContent-Length: 1\r\nContent-Length: 1\r\nTE: x\r\n\r\n",
        b"GET / HTTP/1.1\r\nConnection: close, te\r\nHost: a\r\nHost: b\r\n\r\n",
        MEDIUM,
    ];
    let responses: &[&[u8]] = &[
        b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\n",
        b"HTTP/1.0 404 Not Found\r\nTransfer-Encoding: gzip, chunked\r\nConnection: keep-alive\r\n\r\n",
        b"HTTP/1.1 204 \r\nTransfer-Encoding: chunked\r\nContent-Length: 0\r\n\r\n",
    ];
    let mut lenient = Limits::DEFAULT;
    lenient.lenient.bare_lf = true;
    lenient.lenient.space_before_colon = true;
    lenient.lenient.request_line_spaces = true;
    lenient.lenient.missing_host = true;
    lenient.lenient.duplicate_content_length = true;
    lenient.lenient.unknown_version = true;
    let bytes: &[u8] = if cfg!(miri) {
        b"\r:"
    } else {
        b"\0\t\n\r \",:;=Aa0\x01\x7f\x80"
    };
    let mut checked = 0;
    for limits in [Limits::DEFAULT, lenient] {
        // Each parse as the public `parse` does it, and with the precise path alone.
        let request = |buf: &[u8], precise: bool| {
            let parse = if precise {
                Request::parse_precise
            } else {
                Request::parse
            };
            parsed_request(limits, buf, parse).1
        };
        let response = |buf: &[u8], precise: bool| {
            let parse = if precise {
                Response::parse_precise
            } else {
                Response::parse
            };
            parsed_response(limits, buf, parse).1
        };
        let mut check = |parse: &dyn Fn(&[u8], bool) -> std::string::String, buf: &[u8]| {
            let with = parse(buf, false);
            let without = parse(buf, true);
            assert_eq!(
                with,
                without,
                "{}",
                std::string::String::from_utf8_lossy(buf)
            );
            checked += 1;
        };
        for (messages, parse) in [
            (
                requests,
                &request as &dyn Fn(&[u8], bool) -> std::string::String,
            ),
            (responses, &response),
        ] {
            // Under Miri, where every parse is slow, the first message and every eleventh
            // position.
            let messages = &messages[..if cfg!(miri) { 1 } else { messages.len() }];
            for &message in messages {
                check(parse, message);
                for at in (0..message.len()).step_by(if cfg!(miri) { 11 } else { 1 }) {
                    let mut changed = message.to_vec();
                    for &b in bytes {
                        changed[at] = b;
                        check(parse, &changed);
                    }
                }
            }
        }
    }
    assert!(
        checked > if cfg!(miri) { 50 } else { 10_000 },
        "{checked} messages"
    );
}

/// A head in a buffer under 64 bytes is parsed by a copy of the engine of its own (x86_64,
/// `WithEngine::run_small`); followed by body bytes that make the buffer longer, the same head
/// goes through the whole-block copy. Short messages, and each with one byte changed at every
/// position to every byte value, must give the same result both ways, wherever the unpadded
/// parse ends inside the message (complete, or an error): status or error with its offset,
/// fields, known-header index and framing; where it is incomplete, the padded parse must end
/// past the message. Only where the two copies exist (with the SIMD backends of x86_64).
#[test]
#[cfg(httpspan_x86_64)]
fn small_and_whole_block_engines_agree() {
    let body = [b'b'; 64];
    let requests: &[&[u8]] = &[
        b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n",
        b"POST /a HTTP/1.1\r\nHost: a:80\r\nContent-Length: 5\r\n\r\n",
        b"GET / HTTP/1.0\r\nConnection: keep-alive\r\nX:  y \r\n\r\n",
        // 63 bytes, the longest a small engine parses.
        b"GET / HTTP/1.1\r\nHost: a\r\nX-Pad: 0123456789abcdefghijklmnopq\r\n\r\n",
    ];
    let responses: &[&[u8]] = &[
        b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n",
        b"HTTP/1.1 204 \r\nTransfer-Encoding: chunked\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Pad: 0123456789abcdef\r\n\r\n",
    ];
    let request = |buf: &[u8]| parsed_request(Limits::DEFAULT, buf, Request::parse);
    let response = |buf: &[u8]| parsed_response(Limits::DEFAULT, buf, Response::parse);
    let mut compared = 0;
    for (messages, parse) in [
        (
            requests,
            &request as &dyn Fn(&[u8]) -> (Result<Status, Error>, std::string::String),
        ),
        (responses, &response),
    ] {
        for &message in messages {
            assert!(message.len() < 64);
            for at in 0..message.len() {
                for byte in every_byte() {
                    let mut changed = message.to_vec();
                    changed[at] = byte;
                    let (small, described_small) = parse(&changed);
                    let len = changed.len();
                    changed.extend_from_slice(&body);
                    let (whole, described_whole) = parse(&changed);
                    if small == Ok(Status::Partial) {
                        // Then the padded parse must end in the padding, or need more.
                        let ends_past = match whole {
                            Ok(Status::Complete { head_len }) => head_len > len,
                            Ok(Status::Partial) => true,
                            Err(e) => e.offset() >= len,
                        };
                        assert!(ends_past, "{whole:?}: {changed:?}");
                        continue;
                    }
                    assert_eq!(
                        described_small,
                        described_whole,
                        "{}",
                        std::string::String::from_utf8_lossy(&changed)
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 10_000, "{compared}");
}

#[test]
fn byte_by_byte_feed_scans_each_byte_a_bounded_number_of_times() {
    assert_eq!(LARGE.len(), 733);
    counter::take();
    let mut req = Request::new();
    assert_eq!(req.parse(LARGE), Ok(Status::Complete { head_len: 733 }));
    let one_shot = counter::take();

    let mut req = Request::new();
    assert_eq!(
        parse_growing(&mut req, LARGE),
        Ok(Status::Complete { head_len: 733 })
    );
    let byte_by_byte = counter::take();

    // One shot touches each byte about twice: once to find its line end, once to validate it.
    assert!(one_shot <= 2 * LARGE.len(), "one shot scanned {one_shot}");
    // Resuming continues the line-end search where it stopped: at most one extra byte per call.
    assert!(
        byte_by_byte <= one_shot + LARGE.len(),
        "byte by byte scanned {byte_by_byte} bytes, one shot {one_shot}"
    );
}

#[test]
fn blocks_are_classified_only_as_far_as_the_head_goes() {
    // A 733-byte head followed by a long body: stage 1 classifies the head's blocks, the
    // last one reaching at most 63 bytes into the body, and never the rest of the body.
    let mut message = Vec::from(LARGE);
    // 1 MiB natively; under Miri, where every byte written costs, 16 KiB shows the same.
    let body = if cfg!(miri) { 1 << 14 } else { 1 << 20 };
    message.resize(LARGE.len() + body, b'x');
    counter::take();
    let mut req = Request::new();
    assert_eq!(req.parse(&message), Ok(Status::Complete { head_len: 733 }));
    let scanned = counter::take();
    assert!(
        scanned >= LARGE.len(),
        "the head was not scanned: {scanned}"
    );
    // The head's blocks, the target's and the Host value's: a few blocks more than the head.
    assert!(scanned <= LARGE.len() + 4 * 64, "scanned {scanned} bytes");
}

#[test]
fn scanning_is_linear_in_the_head_length() {
    // A head with ever longer lines: re-scanning a line on each resume would be quadratic.
    for line_len in [10usize, 100, 1000] {
        let mut head = Vec::from(&b"GET / HTTP/1.1\r\nHost: a\r\n"[..]);
        for i in 0..5 {
            head.extend_from_slice(format!("X-{i}: ").as_bytes());
            head.extend(core::iter::repeat(b'v').take(line_len));
            head.extend_from_slice(b"\r\n");
        }
        head.extend_from_slice(b"\r\n");
        counter::take();
        let mut req = Request::new();
        assert!(parse_growing(&mut req, &head).unwrap().is_complete());
        let scanned = counter::take();
        assert!(
            scanned <= 3 * head.len(),
            "{} bytes scanned {scanned}",
            head.len()
        );
    }
}

#[test]
fn resumed_parse_equals_one_shot_for_every_prefix() {
    let inputs: &[&[u8]] = &[
        LARGE,
        MEDIUM,
        b"GET / HTTP/1.1\r\nHost: a\r\nX: a\x01b\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n",
        b"\r\n\r\n\r\nGET / HTTP/1.1\r\n",
        b"GET /a#b HTTP/1.1\r\nHost: a\r\n\r\n",
        b"GET / HTTP/1.1\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n",
        b"GET / HTTP/1.1\nHost: a\r\n\r\n",
    ];
    for &input in inputs {
        let whole = Request::new().parse(input);
        let mut req = Request::new();
        let grown = parse_growing(&mut req, input);
        assert_eq!(
            grown,
            whole,
            "{:?}",
            std::string::String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn head_limit_is_inclusive_and_counts_from_the_request_line() {
    let make = |total: usize, leading: &[u8]| {
        let mut head = Vec::from(leading);
        head.extend_from_slice(b"GET / HTTP/1.1\r\nHost: a\r\nX: ");
        let filler = total - (head.len() - leading.len()) - 4;
        head.extend(core::iter::repeat(b'x').take(filler));
        head.extend_from_slice(b"\r\n\r\n");
        assert_eq!(head.len() - leading.len(), total);
        head
    };
    for leading in [&b""[..], b"\r\n\r\n"] {
        let ok = make(8192, leading);
        assert_eq!(
            Request::new().parse(&ok),
            Ok(Status::Complete { head_len: ok.len() })
        );
        let over = make(8193, leading);
        let err = Request::new().parse(&over).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::HeadTooLarge, leading.len() + 8192)
        );
        assert_eq!(err.status(), 431);
        let mut req = Request::new();
        assert_eq!(parse_growing(&mut req, &over), Err(err));
    }
}

/// Found by fuzzing: a head that filled the limit exactly, with no room left for its end, was
/// rejected at the offset of the first byte over the limit, which the input did not hold yet.
/// The error now waits for that byte, so its offset is always a byte of the input.
#[test]
fn a_head_at_the_limit_fails_at_the_first_byte_over_it() {
    let mut limits = Limits::DEFAULT;
    limits.max_head_bytes = 40;
    // Each fills the 40 bytes: a field value, a line whose LF would be byte 40, an empty line
    // whose LF would be, and a request-line.
    let fill = |start: &[u8], end: &[u8]| {
        let pad = 40 - start.len() - end.len();
        [start, &b"a".repeat(pad)[..], end].concat()
    };
    let fields = b"GET / HTTP/1.1\r\nHost: a\r\nX: ";
    for head in [
        fill(fields, b""),
        fill(fields, b"\r"),
        fill(fields, b"\r\n\r"),
        fill(b"GET /", b""),
    ] {
        let head = &head[..];
        let mut req = Request::with_limits(limits);
        assert_eq!(req.parse(head), Ok(Status::Partial), "{head:?}");
        let over = [head, b"\n"].concat();
        let err = req.parse(&over).unwrap_err();
        assert_eq!(err.offset(), 40);
        assert!(matches!(
            err.kind(),
            ErrorKind::HeadTooLarge | ErrorKind::TargetTooLong
        ));
        assert_eq!(Request::with_limits(limits).parse(&over), Err(err));
    }
}

#[test]
fn a_request_line_over_the_limit_is_a_414() {
    let mut limits = Limits::DEFAULT;
    limits.max_head_bytes = 64;
    let mut line = Vec::from(&b"GET /"[..]);
    line.extend(core::iter::repeat(b'a').take(100));
    let err = Request::with_limits(limits).parse(&line).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset(), err.status()),
        (ErrorKind::TargetTooLong, 64, 414)
    );
}

#[test]
fn field_line_limit_and_slot_exhaustion() {
    let head = |fields: usize| {
        let mut h = Vec::from(&b"GET / HTTP/1.1\r\nHost: a\r\n"[..]);
        for i in 1..fields {
            h.extend_from_slice(format!("X-{i}: v\r\n").as_bytes());
        }
        h.extend_from_slice(b"\r\n");
        h
    };
    let at_limit = head(64);
    assert!(Request::new().parse(&at_limit).unwrap().is_complete());
    assert_eq!(Request::new().fields().len(), 0);
    let over = head(65);
    let err = Request::new().parse(&over).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TooManyFields);
    assert_eq!(&over[err.offset()..err.offset() + 6], b"X-64: ");

    let mut small = Request::<4>::default();
    let err = small.parse(&head(10)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::FieldSlotsExhausted);
    assert_eq!(err.needed_slots(), Some(10));
    assert_eq!(err.status(), 431);
    assert!(format!("{err}").contains("needs 10 field slots"));
    let mut enough = Request::<10>::default();
    assert!(enough.parse(&head(10)).unwrap().is_complete());
    assert_eq!(enough.fields().len(), 10);
}

#[test]
fn known_headers_are_indexed_in_one_pass() {
    let mut res = Response::new();
    assert!(res.parse(RESPONSE_LARGE).unwrap().is_complete());
    let buf = RESPONSE_LARGE;
    assert_eq!(
        res.get(KnownHeader::Server).unwrap().as_bytes(buf),
        b"edge/2.4"
    );
    assert_eq!(
        res.get(KnownHeader::SetCookie).unwrap().as_bytes(buf),
        b"session=8b1e9a47f0d4; Path=/; HttpOnly; Secure"
    );
    assert_eq!(res.get(KnownHeader::Host), None);
    assert_eq!(
        res.find(buf, b"server-timing").unwrap().as_bytes(buf),
        b"db;dur=12.4, app;dur=31.9"
    );
    assert_eq!(res.find(buf, b"SERVER").unwrap().as_bytes(buf), b"edge/2.4");
    let bits = res.known_bitmap().count_ones() as usize;
    let known_fields = res.fields().iter().filter(|f| f.known().is_some()).count();
    assert_eq!(
        bits, known_fields,
        "each known header appears once in this head"
    );
    for f in res.fields() {
        if let Some(k) = f.known() {
            assert_eq!(res.fields()[res.known_index(k).unwrap()], *f);
        }
    }
}

#[test]
fn first_of_repeated_known_headers_is_indexed_and_all_are_iterable() {
    let buf = b"HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\nContent-Length: 0\r\n\r\n";
    let mut res = Response::new();
    res.parse(buf).unwrap();
    assert_eq!(
        res.get(KnownHeader::SetCookie).unwrap().as_bytes(buf),
        b"a=1"
    );
    let cookies: Vec<&[u8]> = res
        .fields()
        .iter()
        .filter(|f| f.known() == Some(KnownHeader::SetCookie))
        .map(|f| f.value.as_bytes(buf))
        .collect();
    assert_eq!(cookies, [&b"a=1"[..], b"b=2"]);
}

#[test]
fn reset_makes_the_parser_reusable() {
    let mut req = Request::new();
    let first =
        b"POST /a HTTP/1.0\r\nContent-Length: 3\r\nConnection: keep-alive\r\nCookie: x\r\n\r\n";
    req.parse(first).unwrap();
    assert_eq!((req.content_length(), req.keep_alive()), (Some(3), true));
    req.reset();
    let second = b"GET /b HTTP/1.1\r\nHost: h\r\n\r\n";
    assert!(req.parse(second).unwrap().is_complete());
    assert_eq!(req.target().as_bytes(second), b"/b");
    assert_eq!(req.fields().len(), 1);
    assert_eq!(req.get(KnownHeader::Cookie), None);
    assert_eq!(req.content_length(), None);
    assert_eq!(req.framing(), Framing::NoBody);
}

#[test]
fn values_are_trimmed_and_may_be_empty() {
    let buf = b"GET / HTTP/1.1\r\nHost:\t a \t\r\nX-Empty:\r\nX-Spaces:   \r\nX-In: a  b\r\n\r\n";
    let mut req = Request::new();
    req.parse(buf).unwrap();
    let values: Vec<&[u8]> = req.fields().iter().map(|f| f.value.as_bytes(buf)).collect();
    assert_eq!(values, [&b"a"[..], b"", b"", b"a  b"]);
}

#[test]
fn framing_and_keep_alive_follow_the_policy() {
    let cases: &[(&[u8], Framing, bool)] = &[
        (b"GET / HTTP/1.1\r\nHost: a\r\n\r\n", Framing::NoBody, true),
        (b"GET / HTTP/1.0\r\n\r\n", Framing::NoBody, false),
        (b"GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", Framing::NoBody, true),
        (b"GET / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive, close\r\n\r\n", Framing::NoBody, false),
        (b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n", Framing::Length(10), true),
        (b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: Chunked\r\n\r\n", Framing::Chunked, true),
    ];
    for (buf, framing, keep_alive) in cases {
        let mut req = Request::new();
        req.parse(buf).unwrap();
        assert_eq!(
            (req.framing(), req.keep_alive()),
            (*framing, *keep_alive),
            "{:?}",
            std::string::String::from_utf8_lossy(buf)
        );
    }
    let responses: &[(&[u8], &[u8], Framing, bool)] = &[
        (
            b"HTTP/1.1 200 OK\r\n\r\n",
            b"GET",
            Framing::UntilClose,
            false,
        ),
        (
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n",
            b"GET",
            Framing::UntilClose,
            false,
        ),
        (
            b"HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n",
            b"GET",
            Framing::NoBody,
            true,
        ),
        (
            b"HTTP/1.1 304 Not Modified\r\n\r\n",
            b"GET",
            Framing::NoBody,
            true,
        ),
        (
            b"HTTP/1.1 103 Early Hints\r\n\r\n",
            b"GET",
            Framing::NoBody,
            true,
        ),
        (
            b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n",
            b"HEAD",
            Framing::NoBody,
            true,
        ),
        (
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
            b"GET",
            Framing::Chunked,
            true,
        ),
        (
            b"HTTP/1.1 200 Connection established\r\n\r\n",
            b"CONNECT",
            Framing::NoBody,
            true,
        ),
        (
            b"HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\n",
            b"GET",
            Framing::Length(1),
            false,
        ),
    ];
    for (buf, method, framing, keep_alive) in responses {
        let mut res = Response::new();
        res.set_request_method(method);
        res.parse(buf).unwrap();
        assert_eq!(
            (res.framing(), res.keep_alive()),
            (*framing, *keep_alive),
            "{:?}",
            std::string::String::from_utf8_lossy(buf)
        );
    }
}

#[test]
fn errors_point_at_the_offending_byte() {
    let cases: &[(&[u8], ErrorKind, usize)] = &[
        (
            b"GET / HTTP/1.1\r\nHost: a\r\nX-Y : z\r\n\r\n",
            ErrorKind::WhitespaceBeforeColon,
            28,
        ),
        (
            b"GET / HTTP/1.1\r\n Host: a\r\n\r\n",
            ErrorKind::WhitespaceBeforeFirstField,
            16,
        ),
        (
            b"GET / HTTP/1.1\r\nHost: a\r\n\tb\r\n\r\n",
            ErrorKind::ObsFold,
            25,
        ),
        (b"GET  / HTTP/1.1\r\n", ErrorKind::InvalidRequestLine, 4),
        (b"GET / HTTP/1.1 \r\n", ErrorKind::InvalidVersion, 14),
        (b"GET / HTTP/2.0\r\n", ErrorKind::UnsupportedVersion, 6),
        (b"G@T / HTTP/1.1\r\n", ErrorKind::InvalidMethod, 1),
        (
            b"GET /a%g0 HTTP/1.1\r\n",
            ErrorKind::InvalidPercentEncoding,
            7,
        ),
        (b"GET /a\"b HTTP/1.1\r\n", ErrorKind::InvalidTarget, 6),
        (b"GET / HTTP/1.1\r\nHost: a\x00\r\n\r\n", ErrorKind::Nul, 23),
        (
            b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
            ErrorKind::DuplicateHost,
            25,
        ),
        (
            b"GET / HTTP/1.1\r\nHost: a b\r\n\r\n",
            ErrorKind::InvalidHost,
            23,
        ),
        (
            b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n",
            ErrorKind::DuplicateContentLength,
            45,
        ),
        (
            b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1 \x0b\r\n\r\n",
            ErrorKind::InvalidFieldValue,
            44,
        ),
        (
            b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n",
            ErrorKind::ChunkedTwice,
            54,
        ),
        (
            b"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
            ErrorKind::TransferEncodingInHttp10,
            17,
        ),
        (
            b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n",
            ErrorKind::ChunkedNotLast,
            26,
        ),
        (
            b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close;x\r\n\r\n",
            ErrorKind::InvalidConnection,
            42,
        ),
        (
            b"GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n",
            ErrorKind::MissingColon,
            32,
        ),
    ];
    for (buf, kind, offset) in cases {
        let err = Request::new().parse(buf).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (*kind, *offset),
            "{:?}",
            std::string::String::from_utf8_lossy(buf)
        );
    }
    let responses: &[(&[u8], ErrorKind, usize)] = &[
        (b"HTTP/1.1 2000 OK\r\n", ErrorKind::InvalidStatusCode, 12),
        (b"HTTP/1.1 099 X\r\n", ErrorKind::InvalidStatusCode, 9),
        (b"HTTP/1.1 200 O\x7fK\r\n", ErrorKind::InvalidReason, 14),
        (b"HTTP/1.1 200\tOK\r\n", ErrorKind::InvalidStatusLine, 12),
        (
            b"\r\nHTTP/1.1 200 OK\r\n",
            ErrorKind::EmptyLineBeforeStatusLine,
            0,
        ),
        (b"HTTP/1.1\r\n", ErrorKind::InvalidStatusLine, 8),
    ];
    for (buf, kind, offset) in responses {
        let err = Response::new().parse(buf).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (*kind, *offset),
            "{:?}",
            std::string::String::from_utf8_lossy(buf)
        );
    }
}

#[test]
fn a_status_line_without_reason_is_accepted() {
    for buf in [&b"HTTP/1.1 200\r\n\r\n"[..], b"HTTP/1.1 200 \r\n\r\n"] {
        let mut res = Response::new();
        assert!(res.parse(buf).unwrap().is_complete());
        assert_eq!((res.status(), res.reason().len), (200, 0));
    }
}

#[test]
fn every_error_kind_has_a_status_a_section_and_a_lowercase_message() {
    for &kind in ErrorKind::ALL {
        assert!(
            [400, 413, 414, 431, 505].contains(&kind.status()),
            "{kind:?}"
        );
        assert!(kind.rfc().starts_with("RFC "), "{kind:?}");
        let message = kind.message();
        assert!(!message.ends_with('.'), "{kind:?}");
        // Lowercase, except for acronyms such as NUL, LF or CONNECT.
        let first_word = message.split(' ').next().unwrap();
        let acronym = first_word.chars().all(|c| !c.is_lowercase());
        assert!(
            acronym || first_word.starts_with(|c: char| c.is_lowercase()),
            "{kind:?}"
        );
        assert!(kind
            .code()
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b == b'_' || b.is_ascii_digit()));
    }
    let codes: std::collections::BTreeSet<_> = ErrorKind::ALL.iter().map(|k| k.code()).collect();
    assert_eq!(codes.len(), ErrorKind::ALL.len(), "codes are unique");
}

/// A parse resumed on a longer buffer starts at the first line not yet accepted: the offset
/// after the last CRLF received, then the head's length.
#[test]
fn resume_offset_is_the_start_of_the_first_unaccepted_line() {
    let buf = b"GET / HTTP/1.1\r\nHost: a\r\nAccept: */*\r\n\r\n";
    let mut req = Request::new();
    assert_eq!(req.resume_offset(), 0);
    for end in 1..=buf.len() {
        let status = req.parse(&buf[..end]).unwrap();
        let after_last_crlf = buf[..end]
            .windows(2)
            .rposition(|w| w == b"\r\n")
            .map_or(0, |i| i + 2);
        assert_eq!(req.resume_offset(), after_last_crlf, "after {end} bytes");
        assert_eq!(status.is_complete(), end == buf.len());
    }
    let mut res = Response::new();
    res.parse(b"HTTP/1.1 200 OK\r\nServer: x\r").unwrap();
    assert_eq!(res.resume_offset(), 17);
}

mod stream_decoder {
    use super::*;
    use crate::stream::{Decoder, Event, MessageKind};
    use std::vec;

    /// Inside a head or a trailer section the decoder resumes at its first unaccepted line; in
    /// a body, at the next byte.
    #[test]
    fn resume_offset_follows_heads_bodies_and_trailers() {
        let stream = b"GET / HTTP/1.1\r\nHost: a\r\n\r\nPOST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-T: 1\r\n";
        let mut decoder = Decoder::new(MessageKind::Request, vec![0; 1 << 16], Limits::DEFAULT);
        let mut seen = Vec::new();
        for (i, byte) in stream.iter().enumerate() {
            let mut piece: &[u8] = core::slice::from_ref(byte);
            loop {
                let (used, event) = decoder.decode(piece).unwrap();
                piece = &piece[used..];
                if matches!(event, Event::NeedMore) {
                    break;
                }
            }
            seen.push((i + 1, decoder.resume_offset()));
        }
        let at = |n: usize| seen.iter().find(|&&(fed, _)| fed == n).unwrap().1;
        // In the first head, after "GET / HTTP/1.1\r\nHo": the Host line is pending.
        assert_eq!(at(18), 16);
        // In the second head, before its first CRLF.
        assert_eq!(at(30), 27);
        // In the chunked body, every byte is consumed as it comes.
        let body = stream.windows(5).position(|w| w == b"3\r\nab").unwrap();
        assert_eq!(at(body + 4), (body + 4) as u64);
        // In the trailer section, after "X-T: 1\r": the line is pending.
        assert_eq!(at(stream.len() - 1), (stream.len() - 8) as u64);
        assert_eq!(decoder.position(), stream.len() as u64);
    }

    /// Runs `input` through a decoder in one piece; returns the events (body ranges resolved
    /// to bytes) or the error.
    fn events(
        decoder: &mut Decoder<Vec<u8>>,
        input: &[u8],
    ) -> (Vec<(Event, Vec<u8>)>, Option<Error>) {
        let mut out = Vec::new();
        let mut rest = input;
        loop {
            match decoder.decode(rest) {
                Ok((used, event)) => {
                    let bytes = match &event {
                        Event::Body(r) => rest[r.clone()].to_vec(),
                        _ => Vec::new(),
                    };
                    let stop = matches!(event, Event::NeedMore | Event::Closed);
                    out.push((event, bytes));
                    rest = &rest[used..];
                    if stop {
                        return (out, None);
                    }
                }
                Err(e) => return (out, Some(e)),
            }
        }
    }

    #[test]
    fn error_offsets_count_from_the_start_of_the_stream() {
        let first = b"GET /1 HTTP/1.1\r\nHost: a\r\n\r\n";
        let mut input = Vec::from(&first[..]);
        input.extend_from_slice(b"GET /2 HTTP/1.1\r\nHost : a\r\n\r\n");
        let mut decoder = Decoder::for_requests(vec![0; 256]);
        let (_, error) = events(&mut decoder, &input);
        let error = error.unwrap();
        assert_eq!(error.kind(), ErrorKind::WhitespaceBeforeColon);
        assert_eq!(error.offset(), first.len() + 21);
        // Nothing after a framing error is read: the same error comes back.
        assert_eq!(decoder.decode(b"GET / HTTP/1.1\r\n"), Err(error));
        assert_eq!(decoder.finish(), Err(error));
    }

    #[test]
    fn body_limit_applies_to_every_framing() {
        let mut limits = Limits::DEFAULT;
        limits.max_body_bytes = Some(4);
        let cases: &[(MessageKind, &[u8], Option<usize>)] = &[
            (MessageKind::Request, b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nabcd", None),
            (MessageKind::Request, b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nabcde", Some(51)),
            (MessageKind::Request, b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n", Some(68)),
            (MessageKind::Response, b"HTTP/1.1 200 OK\r\n\r\nabcdef", Some(23)),
        ];
        for (kind, input, offset) in cases {
            for step in [input.len(), 1, 2, 3] {
                let mut decoder = Decoder::new(*kind, vec![0; 1024], limits);
                let (mut body, mut error) = (Vec::new(), None);
                for piece in input.chunks(step) {
                    let (got, e) = events(&mut decoder, piece);
                    got.iter()
                        .for_each(|(_, bytes)| body.extend_from_slice(bytes));
                    if e.is_some() {
                        error = e;
                        break;
                    }
                }
                let expected = offset.map(|o| (ErrorKind::BodyTooLarge, o));
                assert_eq!(
                    error.map(|e| (e.kind(), e.offset())),
                    expected,
                    "step {step}"
                );
                // What comes out before the error is the part within the limit, however the
                // input is cut; a Content-Length above the limit fails before any body.
                let declared_too_large = input.windows(17).any(|w| w == b"Content-Length: 5");
                let want: &[u8] = if declared_too_large { b"" } else { b"abcd" };
                assert_eq!(body, want, "step {step}");
            }
        }
    }

    /// Found by fuzzing, like `a_head_at_the_limit_fails_at_the_first_byte_over_it`: a head
    /// that filled the buffer exactly failed at the next stream offset before that byte came.
    #[test]
    fn a_full_buffer_fails_at_the_first_byte_that_does_not_fit() {
        let head = b"GET / HTTP/1.1\r\nHost: example.com\r\n\r\n";
        let mut decoder = Decoder::for_requests(vec![0; 20]);
        assert_eq!(decoder.decode(&head[..20]), Ok((20, Event::NeedMore)));
        let (_, error) = events(&mut decoder, &head[20..]);
        let error = error.unwrap();
        assert_eq!(
            (error.kind(), error.offset()),
            (ErrorKind::HeadTooLarge, 20)
        );
        // A stream that ends there has sent no byte over the limit: it is incomplete.
        let mut decoder = Decoder::for_requests(vec![0; 20]);
        assert_eq!(decoder.decode(&head[..20]), Ok((20, Event::NeedMore)));
        assert_eq!(decoder.finish(), Ok(Event::Incomplete));
    }

    #[test]
    fn a_small_buffer_lowers_the_head_limit() {
        let mut decoder = Decoder::for_requests(vec![0; 20]);
        let (_, error) = events(&mut decoder, b"GET / HTTP/1.1\r\nHost: example.com\r\n\r\n");
        let error = error.unwrap();
        assert_eq!(
            (error.kind(), error.offset()),
            (ErrorKind::HeadTooLarge, 20)
        );
    }

    #[test]
    fn closed_after_close_and_after_101() {
        let mut decoder = Decoder::for_requests(vec![0; 256]);
        let (got, _) = events(
            &mut decoder,
            b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nNOT HTTP",
        );
        let kinds: Vec<Event> = got.into_iter().map(|(e, _)| e).collect();
        assert_eq!(kinds, [Event::Head, Event::MessageEnd, Event::Closed]);
        assert_eq!(decoder.position(), 46);

        let mut decoder = Decoder::for_responses(vec![0; 256]);
        let (got, _) = events(
            &mut decoder,
            b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n\x81\x00",
        );
        let kinds: Vec<Event> = got.into_iter().map(|(e, _)| e).collect();
        assert_eq!(kinds, [Event::Head, Event::MessageEnd, Event::Closed]);
    }

    #[test]
    fn finish_reports_until_close_bodies_and_incomplete_messages() {
        let mut decoder = Decoder::for_responses(vec![0; 256]);
        let (got, _) = events(&mut decoder, b"HTTP/1.0 200 OK\r\n\r\nall of it");
        assert_eq!(got.last().unwrap().0, Event::NeedMore);
        assert_eq!(got[1], (Event::Body(0..9), b"all of it".to_vec()));
        assert_eq!(decoder.finish(), Ok(Event::MessageEnd));
        assert_eq!(decoder.finish(), Ok(Event::Closed));

        let mut decoder = Decoder::for_requests(vec![0; 256]);
        events(&mut decoder, b"GET / HTTP/1.1\r\nHo");
        assert_eq!(decoder.finish(), Ok(Event::Incomplete));

        let mut decoder = Decoder::for_requests(vec![0; 256]);
        events(&mut decoder, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n\r\n");
        assert_eq!(decoder.finish(), Ok(Event::Closed));
    }

    #[test]
    fn trailers_are_parsed_with_the_field_rules() {
        let mut decoder = Decoder::for_requests(vec![0; 256]);
        let input = b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\nChecksum: 1\r\nBad : x\r\n\r\n";
        let (_, error) = events(&mut decoder, input);
        let error = error.unwrap();
        assert_eq!(error.kind(), ErrorKind::WhitespaceBeforeColon);
        assert_eq!(&input[error.offset() - 3..error.offset()], b"Bad");

        let mut decoder = Decoder::for_requests(vec![0; 256]);
        let input = b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nChecksum: 1\r\n\r\n";
        let mut rest = &input[..];
        loop {
            let (used, event) = decoder.decode(rest).unwrap();
            rest = &rest[used..];
            if event == Event::Trailers {
                break;
            }
            assert_ne!(event, Event::NeedMore);
        }
        let bytes = decoder.trailer_bytes();
        assert_eq!(
            decoder
                .trailers()
                .find(bytes, b"checksum")
                .unwrap()
                .as_bytes(bytes),
            b"1"
        );
        assert_eq!(decoder.decode(rest), Ok((0, Event::MessageEnd)));
        // The next call starts the next message and forgets this one's trailers.
        assert_eq!(decoder.decode(rest), Ok((0, Event::NeedMore)));
        assert!(decoder.trailers().fields().is_empty());
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "two 64 KiB heads take many minutes under Miri; the bound is checked on every native backend"
)]
fn heads_never_reach_past_the_span_bound() {
    let mut limits = Limits::DEFAULT;
    limits.max_head_bytes = u16::MAX;
    let mut head = Vec::from(&b"GET / HTTP/1.1\r\nHost: a\r\nX: "[..]);
    let pad = 65535 - head.len() - 4;
    head.extend(core::iter::repeat(b'a').take(pad));
    head.extend_from_slice(b"\r\n\r\n");
    let mut req = Request::with_limits(limits);
    assert_eq!(req.parse(&head), Ok(Status::Complete { head_len: 65535 }));
    let x = req.fields()[1].value;
    assert_eq!(x.end(), 65531);
    // Two empty lines first would put the head's last byte at 65538: too large for a span.
    let with_empty_lines = [&b"\r\n\r\n"[..], &head].concat();
    let err = Request::with_limits(limits)
        .parse(&with_empty_lines)
        .unwrap_err();
    assert_eq!((err.kind(), err.offset()), (ErrorKind::HeadTooLarge, 65536));
}

/// The error a check should find, as kind and offset, or none.
type ExpectedError = Option<(ErrorKind, usize)>;

#[test]
fn a_head_cut_short_is_checked_as_far_as_it_goes() {
    let requests: &[(&[u8], ExpectedError)] = &[
        (b"GET /\x01", Some((ErrorKind::InvalidTarget, 5))),
        (b"G\x01", Some((ErrorKind::InvalidMethod, 1))),
        (b"GET /a%4", None),
        (b"GET /a%4z", Some((ErrorKind::InvalidPercentEncoding, 8))),
        (b"GET /a HTTP/1.", None),
        (b"GET /a HTTP/1.x", Some((ErrorKind::InvalidVersion, 14))),
        (b"GET /a HTTP/2.0", Some((ErrorKind::UnsupportedVersion, 7))),
        (b"GET * ", Some((ErrorKind::AsteriskFormNotOptions, 4))),
        (b"GET /a HTTP/1.1\r", None),
        (b"GET / HTTP/1.1\r\nHost: a\r\n", None),
        (b"GET / HTTP/1.1\r\nHost: a\r\nX-Y", None),
        (
            b"GET / HTTP/1.1\r\nHost: a\r\nX Y",
            Some((ErrorKind::WhitespaceBeforeColon, 26)),
        ),
        (
            b"GET / HTTP/1.1\r\nHost: a\r\n X",
            Some((ErrorKind::ObsFold, 25)),
        ),
        (
            b"GET / HTTP/1.1\r\nHost: a\r\nX: a\x7f",
            Some((ErrorKind::InvalidFieldValue, 29)),
        ),
        // The meaning of a value is judged once the value is complete (its CR has arrived).
        (b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1x", None),
        (
            b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1x\r",
            Some((ErrorKind::InvalidContentLength, 42)),
        ),
        (
            b"GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip;",
            None,
        ),
        (b"GET / HTTP/1.1\r\nHost: a\r\nHost: b", None),
        (
            b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r",
            Some((ErrorKind::DuplicateHost, 25)),
        ),
        // The CR of the empty line ends the head: what the whole head needs is checked.
        (b"GET / HTTP/1.1\r\n\r", Some((ErrorKind::MissingHost, 16))),
        (b"GET / HTTP/1.1\r\nHost: a\r\n\r", None),
    ];
    for (input, expected) in requests {
        let mut req = Request::new();
        assert_eq!(
            req.parse(input),
            Ok(Status::Partial),
            "{:?}",
            std::string::String::from_utf8_lossy(input)
        );
        let got = req
            .check_truncated(input)
            .err()
            .map(|e| (e.kind(), e.offset()));
        assert_eq!(
            got,
            *expected,
            "{:?}",
            std::string::String::from_utf8_lossy(input)
        );
        // The same answer however the head arrived.
        let mut req = Request::new();
        assert_eq!(parse_growing(&mut req, input), Ok(Status::Partial));
        assert_eq!(
            req.check_truncated(input)
                .err()
                .map(|e| (e.kind(), e.offset())),
            *expected
        );
    }
    let responses: &[(&[u8], ExpectedError)] = &[
        (b"HTTP/1.1 20", None),
        (b"HTTP/1.1 2x", Some((ErrorKind::InvalidStatusCode, 10))),
        (b"HTTP/1.1 200 O\x01", Some((ErrorKind::InvalidReason, 14))),
        (b"HTTP/1.1x", Some((ErrorKind::InvalidVersion, 8))),
    ];
    for (input, expected) in responses {
        let mut res = Response::new();
        assert_eq!(res.parse(input), Ok(Status::Partial));
        assert_eq!(
            res.check_truncated(input)
                .err()
                .map(|e| (e.kind(), e.offset())),
            *expected
        );
    }
    let mut trailers = Trailers::new();
    assert_eq!(trailers.parse(b"A: 1\r\nB : 2"), Ok(Status::Partial));
    let err = trailers.check_truncated(b"A: 1\r\nB : 2").unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (ErrorKind::WhitespaceBeforeColon, 7)
    );
}

mod leniency;
