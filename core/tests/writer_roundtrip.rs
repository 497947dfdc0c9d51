//! Round trip: whatever `ResponseWriter` and `RequestWriter` write, `Response` and `Request` read
//! back identically (start line, fields in order, framing, Content-Length, keep-alive, body);
//! whatever they refuse, the parser rejects the same way or it breaks a rule the writer states.
//! Chunks written with `write_chunk` decode back to the same body.
//! The check itself is in `support/writer_script.rs`, shared with fuzz targets.
//!
//! The number of cases per property is proptest's default (256), or `PROPTEST_CASES`; the
//! trailer-field property runs 512.

#[path = "support/proptest_config.rs"]
mod proptest_config;
#[path = "support/writer_script.rs"]
mod writer_script;

use httpspan::stream::{Decoder, Event, DEFAULT_BUFFER_LEN};
use httpspan::{
    write_chunk, write_chunk_header, ErrorKind, ResponseWriter, Status, TrailerWriter, Trailers,
    Version, WriteError, CHUNK_END,
};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::ValueTree;
use proptest_config::config;
use writer_script::{check, check_tampered, End, Op, Script, Start, MAX_BUF};

const TCHAR: &[u8] =
    b"!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/// Bytes that break names or values, or lines: each must be refused where it does not belong.
const BAD: &[u8] = b"\r\n\0\x01\x7f :\t\"(),/;=@[]{}\x80\xff";

/// Bytes from `good`; one time in four, with one from `BAD` now and then.
fn bytes(good: &'static [u8], len: std::ops::Range<usize>) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => vec(select(good), len.clone()),
        1 => vec(prop_oneof![8 => select(good), 1 => select(BAD)], len),
    ]
}

fn value_alphabet() -> &'static [u8] {
    const V: &[u8] = b"abcXYZ019 \t!\"#%&'()*+,-./:;<=>?@[\\]^_`{|}~\x80\xc3\xa9\xff";
    V
}

fn name() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => bytes(TCHAR, 0..12),
        2 => select(vec![
            "Host", "host", "Connection", "Content-Type", "Content-Length", "transfer-encoding",
            "Set-Cookie", "X-Request-Id", "Cache-Control", "Upgrade", "Checksum", "Server-Timing",
            "TE", "Vary",
        ])
        .prop_map(|n| n.as_bytes().to_vec()),
    ]
}

fn value() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        6 => bytes(value_alphabet(), 0..24),
        2 => select(vec![
            "close", "keep-alive", "Upgrade, close", "close x", "example.com:8080", "[::1]",
            "a b", "", "ex%41mple", "keep-alive, ,TE",
        ])
        .prop_map(|v| v.as_bytes().to_vec()),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => (name(), value()).prop_map(|(n, v)| Op::Header(n, v)),
        1 => (name(), any::<u64>()).prop_map(|(n, v)| Op::HeaderU64(n, v)),
        1 => prop_oneof![0..100_000u64, any::<u64>()].prop_map(Op::ContentLength),
        1 => Just(Op::Chunked),
    ]
}

fn version() -> impl Strategy<Value = Version> {
    prop_oneof![4 => Just(Version::Http11), 1 => Just(Version::Http10)]
}

fn start() -> impl Strategy<Value = Start> {
    let status = prop_oneof![
        6 => select(vec![100u16, 101, 103, 200, 201, 204, 206, 301, 304, 404, 431, 500, 505]),
        2 => 100..=599u16,
        1 => any::<u16>(),
    ];
    let reason = proptest::option::of(bytes(value_alphabet(), 0..16));
    let response =
        (version(), status, reason).prop_map(|(version, status, reason)| Start::Response {
            version,
            status,
            reason,
        });
    let target = prop_oneof![
        4 => bytes(b"/abc?=&20~-._!$'()*+,;:@", 1..24).prop_map(|mut t| {
            t.insert(0, b'/');
            t
        }),
        1 => select(vec![
            "*", "example.com:443", "http://example.com/a?b", "/a#frag", "", "http://u@h/",
            "[::1]:80", "/%zz", "/caf%C3%A9?q=%2f",
        ])
        .prop_map(|t| t.as_bytes().to_vec()),
    ];
    let method = prop_oneof![
        4 => select(vec!["GET", "POST", "HEAD", "OPTIONS", "CONNECT", "BREW"])
            .prop_map(|m| m.as_bytes().to_vec()),
        1 => bytes(TCHAR, 0..8),
    ];
    let request =
        (version(), method, target).prop_map(|(version, method, target)| Start::Request {
            version,
            method,
            target,
        });
    prop_oneof![response, request]
}

fn script() -> impl Strategy<Value = Script> {
    let end = prop_oneof![
        1 => Just(End::Finish),
        1 => vec(any::<u8>(), 0..64).prop_map(End::Body),
    ];
    let buf_len = prop_oneof![4 => Just(MAX_BUF), 1 => 0..200usize];
    // Most requests get a Host first, so that HTTP/1.1 requests get past `finish`.
    let host = prop_oneof![3 => Just(true), 1 => Just(false)];
    (start(), host, vec(op(), 0..12), end, buf_len).prop_map(
        |(start, host, mut ops, end, buf_len)| {
            if host && matches!(start, Start::Request { .. }) {
                ops.insert(0, Op::Header(b"Host".to_vec(), b"example.com".to_vec()));
            }
            Script {
                start,
                ops,
                end,
                buf_len,
            }
        },
    )
}

proptest! {
    #![proptest_config(config(ProptestConfig::default().cases))]

    #[test]
    fn what_the_writers_write_is_parsed_back(script in script()) {
        if let Err(e) = check(&script) {
            return Err(TestCaseError::fail(format!("{e}\n{script:?}")));
        }
    }

    /// The fuzzers' entry point: any bytes make a script, and the check holds for it.
    #[test]
    fn scripts_from_arbitrary_bytes_hold_too(data in vec(any::<u8>(), 0..300)) {
        let script = Script::from_bytes(&data);
        if let Err(e) = check(&script) {
            return Err(TestCaseError::fail(format!("{e}\n{script:?}")));
        }
    }
}

/// Writes a chunked response, every other chunk with `write_chunk` and the others as
/// `write_chunk_header`, the data and `CHUNK_END`, ends it with a `TrailerWriter` and `trailers`,
/// and decodes it with the stream decoder, fed in pieces of `step` bytes. Returns the body, the
/// trailer fields read back, the bytes consumed and the bytes written.
fn chunked_round_trip(
    chunks: &[Vec<u8>],
    trailers: &[(Vec<u8>, Vec<u8>)],
    step: usize,
) -> ChunkedOutcome {
    let room = 64
        + chunks.iter().map(|c| c.len() + 20).sum::<usize>()
        + trailers
            .iter()
            .map(|(n, v)| n.len() + v.len() + 4)
            .sum::<usize>();
    let mut wire = vec![0u8; room];
    let mut res = ResponseWriter::new(&mut wire, 200).unwrap();
    res.chunked().unwrap();
    let mut len = res.finish().unwrap();
    for (i, chunk) in chunks.iter().enumerate() {
        if i % 2 == 0 || chunk.is_empty() {
            len += write_chunk(&mut wire[len..], chunk).unwrap();
        } else {
            len += write_chunk_header(&mut wire[len..], chunk.len() as u64).unwrap();
            for part in [&chunk[..], CHUNK_END] {
                wire[len..len + part.len()].copy_from_slice(part);
                len += part.len();
            }
        }
    }
    let mut end = TrailerWriter::new(&mut wire[len..]).unwrap();
    for (name, value) in trailers {
        end.header(name, value).unwrap();
    }
    len += end.finish().unwrap();
    let mut decoder = Decoder::for_responses(vec![0u8; DEFAULT_BUFFER_LEN]);
    let mut outcome = ChunkedOutcome {
        written: len,
        ..ChunkedOutcome::default()
    };
    for piece in wire[..len].chunks(step) {
        let mut rest = piece;
        loop {
            let (used, event) = decoder.decode(rest).unwrap();
            match &event {
                Event::Body(range) => outcome.body.extend_from_slice(&rest[range.clone()]),
                Event::Trailers => {
                    let bytes = decoder.trailer_bytes();
                    outcome.trailers = decoder
                        .trailers()
                        .fields()
                        .iter()
                        .map(|f| {
                            (
                                f.name.as_bytes(bytes).to_vec(),
                                f.value.as_bytes(bytes).to_vec(),
                            )
                        })
                        .collect();
                }
                _ => {}
            }
            outcome.consumed += used;
            rest = &rest[used..];
            match event {
                Event::MessageEnd => return outcome,
                Event::NeedMore => break,
                _ => {}
            }
        }
    }
    panic!("the message did not end");
}

/// What [`chunked_round_trip`] read back.
#[derive(Default)]
struct ChunkedOutcome {
    body: Vec<u8>,
    trailers: Vec<(Vec<u8>, Vec<u8>)>,
    consumed: usize,
    written: usize,
}

/// A trailer field the trailer writer accepts: a name starting with `x`, which none of the
/// fields refused in trailers does, and a value of visible bytes.
fn trailer_field() -> impl Strategy<Value = (Vec<u8>, Vec<u8>)> {
    let name = vec(select(b"abcdefghijklmnopqrstuvwxyz-".as_slice()), 0..12);
    let value = vec(
        select(b"abcXYZ019!\"#%&'()*+,-./:;<=>?@[\\]^_`{|}~\x80\xff".as_slice()),
        0..20,
    );
    (name, value).prop_map(|(name, value)| ([b"x".as_slice(), &name].concat(), value))
}

proptest! {
    #![proptest_config(config(ProptestConfig::default().cases))]

    /// Chunks written with `write_chunk` (empty ones write nothing) or `write_chunk_header`,
    /// and trailer fields written by `TrailerWriter`, decode to the same body and fields,
    /// whatever the pieces the bytes arrive in.
    #[test]
    fn chunks_and_trailers_are_decoded_back(
        chunks in vec(vec(any::<u8>(), 0..300), 0..8),
        trailers in vec(trailer_field(), 0..4),
        step in 1..64usize,
    ) {
        let outcome = chunked_round_trip(&chunks, &trailers, step);
        prop_assert_eq!(outcome.body, chunks.concat());
        prop_assert_eq!(outcome.trailers, trailers);
        prop_assert_eq!(outcome.consumed, outcome.written);
    }
}

/// Whether `name` is one of the fields the trailer writer's docs keep out of trailers.
fn not_in_trailers(name: &[u8]) -> bool {
    "content-length transfer-encoding trailer te connection keep-alive proxy-connection upgrade \
     host max-forwards expect range if-match if-none-match if-modified-since if-unmodified-since \
     if-range authorization proxy-authorization www-authenticate proxy-authenticate cookie \
     set-cookie age cache-control expires location retry-after vary content-type \
     content-encoding content-range content-language content-location"
        .split_whitespace()
        .any(|n| name.eq_ignore_ascii_case(n.as_bytes()))
}

/// What the trailer writer does with one field: accepted fields come back exactly from the
/// trailer parser; refused ones break the field grammar or are kept out of trailers.
fn trailer_field_checked(name: &[u8], value: &[u8]) -> Result<(), TestCaseError> {
    let mut out = Vec::new();
    let mut end = TrailerWriter::new_in(&mut out).unwrap();
    let accepted = end.header(name, value).map(|_| ());
    let len = end.finish().unwrap();
    prop_assert_eq!(len, out.len());
    let section = &out[b"0\r\n".len()..];
    let mut trailers = Trailers::new();
    match accepted {
        Ok(()) => {
            prop_assert!(!not_in_trailers(name), "{:?}", name);
            prop_assert_eq!(
                trailers.parse(section),
                Ok(Status::Complete {
                    head_len: section.len()
                })
            );
            let field = trailers.fields()[0];
            prop_assert_eq!(field.name.as_bytes(section), name);
            prop_assert_eq!(field.value.as_bytes(section), value);
        }
        Err(WriteError::NotInTrailers) => {
            prop_assert_eq!(section, b"\r\n");
            prop_assert!(not_in_trailers(name), "{:?}", name);
        }
        Err(WriteError::Invalid(kind)) => {
            prop_assert_eq!(section, b"\r\n");
            // RFC 9110 5.1 and 5.5, restated: a name is one or more tchar; a value is VCHAR,
            // obs-text, SP and HTAB, without whitespace at either end.
            let name_ok = !name.is_empty() && name.iter().all(|b| TCHAR.contains(b));
            let value_byte = |b: &u8| matches!(b, b'\t' | b' ' | 0x21..=0x7e | 0x80..=0xff);
            let ws = |b: Option<&u8>| matches!(b, Some(b' ' | b'\t'));
            let value_ok = value.iter().all(value_byte) && !ws(value.first()) && !ws(value.last());
            match kind {
                ErrorKind::InvalidFieldName => prop_assert!(!name_ok),
                ErrorKind::InvalidFieldValue => prop_assert!(name_ok && !value_ok),
                other => prop_assert!(false, "unexpected {:?}", other),
            }
        }
        Err(other) => prop_assert!(false, "unexpected {:?}", other),
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn trailer_fields_come_back_or_are_refused_for_a_reason(name in name(), value in value()) {
        trailer_field_checked(&name, &value)?;
    }
}

/// The check can fail: bytes that differ from what the writer was asked for are caught.
#[test]
fn the_check_catches_a_tampered_head() {
    let script = Script {
        start: Start::Response {
            version: Version::Http11,
            status: 200,
            reason: None,
        },
        ops: vec![
            Op::Header(b"Connection".to_vec(), b"close".to_vec()),
            Op::Header(b"X-Id".to_vec(), b"7".to_vec()),
        ],
        end: End::Body(b"hi".to_vec()),
        buf_len: MAX_BUF,
    };
    let reached = check(&script).unwrap();
    assert_eq!(
        (reached.parsed_back, reached.fields, reached.refused),
        (true, 3, 0)
    );
    let replace = |from: &'static [u8], to: &'static [u8]| {
        move |buf: &mut Vec<u8>| {
            let at = buf.windows(from.len()).position(|w| w == from).unwrap();
            buf[at..at + from.len()].copy_from_slice(to);
        }
    };
    for (from, to) in [
        (&b"close"[..], &b"clxse"[..]),
        (b"X-Id: 7", b"X-Id: 8"),
        (b"X-Id", b"X-Ie"),
        (b"Content-Length: 2", b"Content-Length: 1"),
        (b"200 OK", b"201 OK"),
        (b"HTTP/1.1", b"HTTP/1.0"),
        (b"\r\nhi", b"\r\nho"),
    ] {
        let tampered = check_tampered(&script, replace(from, to));
        assert!(
            tampered.is_err(),
            "{} went unnoticed",
            String::from_utf8_lossy(to)
        );
    }
    // A refusal is replayed against the parser: a Host written twice is refused in a request,
    // and the parser agrees, unless the first Host is tampered away.
    let script = Script {
        start: Start::Request {
            version: Version::Http11,
            method: b"GET".to_vec(),
            target: b"/".to_vec(),
        },
        ops: vec![
            Op::Header(b"Host".to_vec(), b"a".to_vec()),
            Op::Header(b"Host".to_vec(), b"b".to_vec()),
        ],
        end: End::Finish,
        buf_len: MAX_BUF,
    };
    assert_eq!(check(&script).unwrap().refused, 1);
    assert!(check_tampered(&script, replace(b"Host: a", b"Hxst: a")).is_err());
}

/// A reason phrase that carries a CRLF and a field line after it (header injection) is refused,
/// although the parser reads those bytes as a valid status-line and field: the check counts it
/// as the writer's own rule (found by the writer fuzz target).
#[test]
fn a_reason_with_a_line_break_is_refused() {
    let script = Script {
        start: Start::Response {
            version: Version::Http11,
            status: 200,
            reason: Some(b"OK\r\nSet-Cookie: a=b".to_vec()),
        },
        ops: vec![],
        end: End::Finish,
        buf_len: MAX_BUF,
    };
    let reached = check(&script).unwrap_or_else(|e| panic!("{e}"));
    assert!(!reached.parsed_back);
}

/// The generated scripts reach every outcome often: heads parsed back with fields, refusals,
/// buffers too small.
#[test]
#[cfg_attr(
    miri,
    ignore = "measures the generator's reach over 1000 scripts, a statistic, not memory access"
)]
fn generated_scripts_reach_every_outcome() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut parsed, mut with_fields, mut refused, mut too_small) = (0, 0, 0, 0);
    for _ in 0..1000 {
        let script = script().new_tree(&mut runner).unwrap().current();
        let reached = check(&script).unwrap_or_else(|e| panic!("{e}\n{script:?}"));
        parsed += usize::from(reached.parsed_back);
        with_fields += usize::from(reached.parsed_back && reached.fields >= 3);
        refused += reached.refused;
        too_small += usize::from(reached.too_small);
    }
    eprintln!("{parsed} parsed back, {with_fields} with 3 fields or more, {refused} refusals, {too_small} out of buffer");
    assert!(parsed > 350, "{parsed} of 1000 parsed back");
    assert!(
        with_fields > 100,
        "{with_fields} of 1000 parsed back with 3 fields or more"
    );
    assert!(refused > 500, "{refused} refusals in 1000 scripts");
    assert!(too_small > 25, "{too_small} of 1000 ran out of buffer");
}
