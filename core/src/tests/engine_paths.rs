//! The engine's paths agree: the fast paths with the precise path, the small-head copy with the
//! whole-block one, a parse resumed at every prefix with one call; and each byte is scanned a
//! bounded number of times.

use super::*;
use crate::scan::counter;

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
        b"GET /a|b%zz{}?q=\"^`\\<>%4 HTTP/1.1\r\nHost: a\r\n\r\n",
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
    lenient.lenient.target_unsafe_bytes = true;
    let bytes: &[u8] = if cfg!(miri) {
        b"\r:"
    } else {
        b"\0\t\n\r \",:;=Aa0\x01\x7f\x80|%#"
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
            // Under Miri, where every parse is slow, the first message and every 23rd
            // position.
            let messages = &messages[..if cfg!(miri) { 1 } else { messages.len() }];
            for &message in messages {
                check(parse, message);
                for at in (0..message.len()).step_by(if cfg!(miri) { 23 } else { 1 }) {
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
        checked > if cfg!(miri) { 30 } else { 10_000 },
        "{checked} messages"
    );
}

/// Short heads, and each with one byte changed at every position to every byte value. A head
/// in a buffer under 64 bytes is parsed by a copy of the engine of its own (x86_64,
/// `WithEngine::run_small`); followed by body bytes that make the buffer longer, the precise
/// path parses it with the whole-block walk. Both must give the same result wherever the
/// unpadded parse ends inside the message (complete, or an error): status or error with its
/// offset, fields, known-header index and framing; where it is incomplete, the padded parse must
/// end past the message. Only where the two copies exist (with the SIMD backends of x86_64).
#[test]
#[cfg(httpspan_x86_64)]
fn small_and_whole_block_engines_agree() {
    let body = [b'b'; 64];
    let mut compared = 0;
    for (messages, parse) in [
        (SHORT_REQUESTS, request_parsed as Parsed),
        (SHORT_RESPONSES, response_parsed),
    ] {
        for &message in messages {
            assert!(message.len() < 64);
            for at in 0..message.len() {
                for byte in every_byte() {
                    let mut changed = message.to_vec();
                    changed[at] = byte;
                    let (small, described_small) = parse(&changed, false);
                    let len = changed.len();
                    changed.extend_from_slice(&body);
                    let (whole, described_whole) = parse(&changed, true);
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

/// A head parsed with the default limits, and everything it tells (see `described`).
type Parsed = fn(&[u8], bool) -> (Result<Status, Error>, std::string::String);

/// A request parsed with the default limits by the public `parse`, or with `precise` by the
/// precise path over whole blocks (`parse_precise`).
fn request_parsed(buf: &[u8], precise: bool) -> (Result<Status, Error>, std::string::String) {
    let parse = if precise {
        Request::parse_precise
    } else {
        Request::parse
    };
    parsed_request(Limits::DEFAULT, buf, parse)
}

/// A response parsed as [`request_parsed`] parses a request.
fn response_parsed(buf: &[u8], precise: bool) -> (Result<Status, Error>, std::string::String) {
    let parse = if precise {
        Response::parse_precise
    } else {
        Response::parse
    };
    parsed_response(Limits::DEFAULT, buf, parse)
}

/// Short requests for the tests of the small-head copy, the last 63 bytes, the longest it takes.
const SHORT_REQUESTS: &[&[u8]] = &[
    b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n",
    b"POST /a HTTP/1.1\r\nHost: a:80\r\nContent-Length: 5\r\n\r\n",
    b"GET / HTTP/1.0\r\nConnection: keep-alive\r\nX:  y \r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: a\r\nX-Pad: 0123456789abcdefghijklmnopq\r\n\r\n",
];

/// Short responses for the tests of the small-head copy.
const SHORT_RESPONSES: &[&[u8]] = &[
    b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n",
    b"HTTP/1.1 204 \r\nTransfer-Encoding: chunked\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Pad: 0123456789abcdef\r\n\r\n",
];

/// A head whose empty line ends in the first 64 bytes of a longer buffer (followed by its body,
/// by the next message, or by a few bytes that take the buffer just past one block) is parsed by
/// a small-head copy from that block's masks (x86_64). Each such buffer, with one byte of the
/// head changed at every position to each byte that matters to the grammar, must parse as the
/// precise path over whole blocks parses it, and fed in every split as in one piece: the same
/// status or error (kind and offset), fields, known-header index and framing. Heads of 64 bytes
/// and more, which the copy does not take, are checked at the boundary too, and requests after
/// empty lines, whose first CR LF CR LF is not the head's end: the copy parses the one whose head
/// ends within its 63 bytes, and hands the other to the walk, which goes on from where it stopped.
#[test]
#[cfg_attr(
    miri,
    ignore = "the small-head copy is x86_64's, which Miri runs without SIMD; every split of every head is too slow under Miri"
)]
fn heads_ending_in_the_first_block_parse_as_over_whole_blocks() {
    let longer: &[u8] = b"GET / HTTP/1.1\r\nHost: a\r\nX-Pad: 0123456789abcdefghijklmnopqr\r\n\r\n";
    assert_eq!(longer.len(), 64);
    // Empty lines before a request-line hold a CR LF CR LF before the head's end.
    let leading: &[u8] = b"\r\n\r\nGET / HTTP/1.1\r\nHost: example.com\r\n\r\n";
    let leading_past_the_copy: &[u8] =
        b"\r\n\r\nGET / HTTP/1.1\r\nHost: example.com\r\nX-Pad: 0123456789abcdefghij\r\n\r\n";
    assert!(leading_past_the_copy.len() > 63);
    let requests: Vec<&[u8]> = SHORT_REQUESTS
        .iter()
        .copied()
        .chain([longer, leading, leading_past_the_copy])
        .collect();
    let bytes: &[u8] = b"\0\t\n\r :Aa\x7f\x80";
    let request_split = |buf: &[u8], at: usize| {
        let mut req = Request::new();
        let result = match req.parse(&buf[..at]) {
            Ok(Status::Partial) => req.parse(buf),
            done => done,
        };
        let described = request_described(&req, &result);
        (result, described)
    };
    let mut compared = 0;
    for (messages, parse) in [
        (&requests[..], request_parsed as Parsed),
        (SHORT_RESPONSES, response_parsed),
    ] {
        for &message in messages {
            let pipelined = [message, message].concat();
            let body = [message, &[b'b'; 1024]].concat();
            let past_one_block = [message, &[b'b'; 65][message.len().min(64)..]].concat();
            for buf in [pipelined, body, past_one_block] {
                assert!(buf.len() >= 64);
                let expected = parse(&buf, true);
                assert_eq!(parse(&buf, false), expected);
                compared += 1;
                for at in 0..message.len() {
                    for &byte in bytes {
                        let mut changed = buf.clone();
                        changed[at] = byte;
                        assert_eq!(
                            parse(&changed, false),
                            parse(&changed, true),
                            "{}",
                            std::string::String::from_utf8_lossy(&changed)
                        );
                        compared += 1;
                    }
                }
            }
        }
    }
    // Every split of a request followed by its body or the next one.
    for &message in &requests {
        for buf in [
            [message, message].concat(),
            [message, &[b'b'; 100]].concat(),
        ] {
            let expected = request_parsed(&buf, true);
            for at in 0..=buf.len() {
                assert_eq!(request_split(&buf, at), expected, "split at {at}");
                compared += 1;
            }
        }
    }
    assert!(compared > 1_000, "{compared}");
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

/// Every backend reads request-targets as the scalar reference does, strictly and with
/// `target_unsafe_bytes`: the engine runs the strict target class either way and the lenient
/// bytes are taken outside it, so each backend's target kernel must stop where the scalar one
/// does, and the parse (under the backend in use; `make test` runs each) must take exactly the
/// visible bytes but `#`. Targets of every length up to past two blocks, with each byte that
/// matters to the target at each position.
#[test]
#[cfg_attr(miri, ignore = "every backend, every position: too slow under Miri")]
fn every_backend_reads_targets_as_the_scalar_one() {
    use crate::scan::backends::{self, Kernel};
    let mut lenient = Limits::DEFAULT;
    lenient.lenient.target_unsafe_bytes = true;
    let mut compared = 0;
    for len in [2, 15, 31, 63, 64, 65, 130] {
        for at in 1..len {
            for &b in b"|{}\"^`\\<>%#\x7f\x01\x80 a" {
                let mut target = std::vec![b'x'; len];
                target[0] = b'/';
                target[at] = b;
                let reference = backends::scan("scalar", Kernel::TargetLen, &target);
                for name in backends::available() {
                    let got = backends::scan(name, Kernel::TargetLen, &target);
                    assert_eq!(got, reference, "{name}: {target:?}");
                    compared += 1;
                }
                let buf = [&b"GET "[..], &target, b" HTTP/1.1\r\nHost: a\r\n\r\n"].concat();
                let mut req = Request::with_limits(lenient);
                let taken = b.is_ascii_graphic() && b != b'#';
                match req.parse(&buf) {
                    Ok(Status::Complete { .. }) => {
                        assert!(taken, "{target:?}");
                        assert_eq!(req.target().as_bytes(&buf), &target[..]);
                    }
                    other => assert!(!taken && other.is_err(), "{other:?}: {target:?}"),
                }
                let strict = Request::new().parse(&buf);
                let strict_taken = b == b'a';
                assert_eq!(strict.is_ok(), strict_taken, "{strict:?}: {target:?}");
            }
        }
    }
    assert!(compared > 1000, "{compared}");
}
