//! The lenient settings: each relaxes its rule and nothing else, obs-folded values read as
//! their unfolded form, and resuming stays equal to one call and linear.

use std::string::String;
use std::vec::Vec;

use super::{counter, parse_growing, LARGE};
use crate::*;

fn lenient(names: &[&str]) -> Limits {
    let mut limits = Limits::DEFAULT;
    for name in names {
        assert!(limits.lenient.enable(name), "{name}");
    }
    limits
}

fn all_options() -> Limits {
    lenient(&Leniency::NAMES)
}

fn show(buf: &[u8]) -> String {
    String::from_utf8_lossy(buf).into_owned()
}

#[test]
fn names_match_the_fields_and_strict_is_the_default() {
    assert_eq!(Limits::default().lenient, Leniency::STRICT);
    assert_eq!(Leniency::default(), Leniency::STRICT);
    let all = all_options().lenient;
    let fields = [
        all.bare_lf,
        all.obs_fold,
        all.space_before_colon,
        all.request_line_spaces,
        all.missing_host,
        all.duplicate_content_length,
        all.unknown_version,
        all.target_unsafe_bytes,
    ];
    assert!(fields.iter().all(|&on| on));
    for (i, name) in Leniency::NAMES.iter().enumerate() {
        let one = lenient(&[name]).lenient;
        let on = [
            one.bare_lf,
            one.obs_fold,
            one.space_before_colon,
            one.request_line_spaces,
            one.missing_host,
            one.duplicate_content_length,
            one.unknown_version,
            one.target_unsafe_bytes,
        ];
        assert_eq!(on.len(), Leniency::NAMES.len());
        let expected: Vec<bool> = (0..on.len()).map(|j| j == i).collect();
        assert_eq!(on.to_vec(), expected, "{name} turns on its own field only");
    }
    let mut l = Leniency::STRICT;
    assert!(!l.enable("bare-lf") && !l.enable("") && l == Leniency::STRICT);
}

/// Each option: rejected strictly with `kind`, accepted with the option alone.
#[test]
fn each_option_relaxes_its_rule() {
    let cases: &[(&str, &[u8], ErrorKind)] = &[
        ("bare_lf", b"GET / HTTP/1.1\nHost: a\n\n", ErrorKind::BareLf),
        (
            "obs_fold",
            b"GET / HTTP/1.1\r\nHost: a\r\nX: a\r\n b\r\n\r\n",
            ErrorKind::ObsFold,
        ),
        (
            "space_before_colon",
            b"GET / HTTP/1.1\r\nHost : a\r\n\r\n",
            ErrorKind::WhitespaceBeforeColon,
        ),
        (
            "request_line_spaces",
            b"GET  /  HTTP/1.1\r\nHost: a\r\n\r\n",
            ErrorKind::InvalidRequestLine,
        ),
        (
            "missing_host",
            b"GET / HTTP/1.1\r\n\r\n",
            ErrorKind::MissingHost,
        ),
        (
            "duplicate_content_length",
            b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n",
            ErrorKind::DuplicateContentLength,
        ),
        (
            "unknown_version",
            b"GET / HTTP/1.2\r\nHost: a\r\n\r\n",
            ErrorKind::UnsupportedVersion,
        ),
        (
            "target_unsafe_bytes",
            b"GET /a|b HTTP/1.1\r\nHost: a\r\n\r\n",
            ErrorKind::InvalidTarget,
        ),
    ];
    for &(name, input, kind) in cases {
        let err = Request::new().parse(input).unwrap_err();
        assert_eq!(err.kind(), kind, "{name}: {}", show(input));
        let status = Request::with_limits(lenient(&[name])).parse(input);
        assert_eq!(
            status,
            Ok(Status::Complete {
                head_len: input.len()
            }),
            "{name}: {}",
            show(input)
        );
        // Every other option alone leaves the rule in force.
        for other in Leniency::NAMES.iter().filter(|&&n| n != name) {
            let got = Request::with_limits(lenient(&[other])).parse(input);
            assert!(got.is_err(), "{other} accepted the {name} case");
        }
    }
}

#[test]
fn an_obs_folded_value_spans_the_raw_bytes_and_unfolds_to_one_sp_per_fold() {
    let buf = b"GET / HTTP/1.1\r\nHost: a\r\nX-Long: one \r\n  two\r\n\tthree\t\r\n \r\n\r\n";
    let mut req = Request::with_limits(lenient(&["obs_fold"]));
    assert_eq!(
        req.parse(buf),
        Ok(Status::Complete {
            head_len: buf.len()
        })
    );
    let value = req.find(buf, b"x-long").unwrap();
    assert_eq!(value.as_bytes(buf), b"one \r\n  two\r\n\tthree");
    assert_eq!(
        unfold(value.as_bytes(buf)).collect::<Vec<_>>().concat(),
        b"one two three"
    );
    assert_eq!(unfold(b"plain value").count(), 1);
    assert_eq!(unfold(b"").count(), 0);
}

#[test]
fn framing_headers_read_the_unfolded_value() {
    let base = b"POST / HTTP/1.1\r\nHost: a\r\n";
    let values: &[(&[u8], &[u8])] = &[
        (b"Transfer-Encoding", b"gzip,\r\n chunked"),
        (b"Transfer-Encoding", b"gzip\r\n\t,\r\n chunked"),
        (b"Transfer-Encoding", b"chunked,\r\n gzip"),
        (b"Transfer-Encoding", b"x;a=\"b\r\n c\", chunked"),
        (b"Transfer-Encoding", b"x;a=\"b\\\r\n c\", chunked"),
        (b"Transfer-Encoding", b"chunked\r\n ;a=b"),
        (b"Transfer-Encoding", b"chun\r\n ked"),
        (b"Connection", b"keep-alive,\r\n close"),
        (b"Connection", b"clo\r\n se"),
        (b"Content-Length", b"1\r\n 2"),
        (b"Content-Length", b"12\r\n "),
        (b"Host", b"a\r\n b"),
        (b"Host", b"example.com:80\r\n "),
    ];
    let limits = lenient(&["obs_fold", "duplicate_content_length"]);
    for &(name, folded) in values {
        let unfolded: Vec<u8> = unfold(folded).collect::<Vec<_>>().concat();
        let head = |value: &[u8]| {
            let mut h = base.to_vec();
            if name == b"Host" {
                h.truncate(b"POST / HTTP/1.1\r\n".len());
            }
            h.extend_from_slice(name);
            h.extend_from_slice(b": ");
            h.extend_from_slice(value);
            h.extend_from_slice(b"\r\n\r\n");
            h
        };
        let (a, b) = (head(folded), head(&unfolded));
        let (mut ra, mut rb) = (Request::with_limits(limits), Request::with_limits(limits));
        let (pa, pb) = (ra.parse(&a), rb.parse(&b));
        match (pa, pb) {
            (Ok(_), Ok(_)) => assert_eq!(
                (ra.framing(), ra.keep_alive(), ra.content_length()),
                (rb.framing(), rb.keep_alive(), rb.content_length()),
                "{}",
                show(&a)
            ),
            (Err(ea), Err(eb)) => assert_eq!(ea.kind(), eb.kind(), "{}", show(&a)),
            (pa, pb) => panic!("{pa:?} vs {pb:?}: {} vs {}", show(&a), show(&b)),
        }
    }
}

#[test]
fn what_stays_an_error_with_every_option_on() {
    let cases: &[(&[u8], ErrorKind)] = &[
        (
            b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
            ErrorKind::ContentLengthWithTransferEncoding,
        ),
        (
            b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding :\r\n chunked\n\n",
            ErrorKind::ContentLengthWithTransferEncoding,
        ),
        (b"GET / HTTP/1.1\r\rHost: a\r\n\r\n", ErrorKind::BareCr),
        (b"GET / HTTP/1.1\r\n Host: a\r\n\r\n", ErrorKind::WhitespaceBeforeFirstField),
        (b"GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n", ErrorKind::DuplicateHost),
        (
            b"POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
            ErrorKind::DuplicateContentLength,
        ),
        (b"POST / HTTP/1.1\r\nContent-Length: 5,6\r\n\r\n", ErrorKind::DuplicateContentLength),
        (b"POST / HTTP/1.1\r\nContent-Length: 5,\r\n\r\n", ErrorKind::InvalidContentLength),
        (b"GET / HTTP/2.0\r\n\r\n", ErrorKind::UnsupportedVersion),
        (b"GET / HTTP/1.10\r\n\r\n", ErrorKind::InvalidVersion),
        (b"GET\t/ HTTP/1.1\r\n\r\n", ErrorKind::InvalidMethod),
        (b" GET / HTTP/1.1\r\n\r\n", ErrorKind::InvalidMethod),
        (b"GET / HTTP/1.1 \r\n\r\n", ErrorKind::InvalidVersion),
        (b"GET / HTTP/1.1\r\nX\r\n : a\r\n\r\n", ErrorKind::InvalidFieldName),
        (b"GET / HTTP/1.1\r\nX y: a\r\n\r\n", ErrorKind::InvalidFieldName),
        (b"GET / HTTP/1.1\r\nX: a\0b\r\n\r\n", ErrorKind::Nul),
    ];
    for &(input, kind) in cases {
        let mut req = Request::with_limits(all_options());
        let err = req.parse(input).unwrap_err();
        assert_eq!(err.kind(), kind, "{}", show(input));
        let mut req = Request::with_limits(all_options());
        assert_eq!(parse_growing(&mut req, input), Err(err), "{}", show(input));
    }
}

#[test]
fn lenient_parses_resume_to_the_one_shot_result() {
    let inputs: &[&[u8]] = &[
        LARGE,
        b"\n\r\nGET  /  HTTP/1.3\nHost : a\nX: a\n\tb\r\n c\n\n",
        b"GET / HTTP/1.1\r\nX: a\r\n\r\n",
        b"GET / HTTP/1.1\r\nX: a\r\n \r\n\r\n",
        b"GET / HTTP/1.1\r\nX: a\r\n b\rc\r\n\r\n",
        b"GET / HTTP/1.1\r\nX:\r\n \r\n\r\n",
        b"GET / HTTP/1.1\nX: a\n \n\n",
        b"POST / HTTP/1.1\nContent-Length: 05,5\nContent-Length: 5\n\n",
    ];
    for limits in [all_options(), lenient(&["obs_fold"]), lenient(&["bare_lf"])] {
        for &input in inputs {
            let whole = Request::with_limits(limits).parse(input);
            let mut req = Request::with_limits(limits);
            let grown = parse_growing(&mut req, input);
            assert_eq!(grown, whole, "{} with {:?}", show(input), limits.lenient);
            if let Ok(Status::Complete { .. }) = whole {
                let one = Request::with_limits(limits);
                let mut one = one;
                one.parse(input).unwrap();
                assert_eq!(req.fields(), one.fields());
            }
        }
    }
}

#[test]
fn obs_fold_resumes_without_rescanning_the_line() {
    counter::take();
    let mut req = Request::with_limits(all_options());
    assert_eq!(req.parse(LARGE), Ok(Status::Complete { head_len: 733 }));
    let one_shot = counter::take();
    let mut req = Request::with_limits(all_options());
    assert!(parse_growing(&mut req, LARGE).unwrap().is_complete());
    let byte_by_byte = counter::take();
    // With `obs_fold` only the start line takes the one-pass path, whose block cursor also
    // classifies the block after the line's, ahead (see `scan::blocks`): one block more than
    // twice the head.
    assert!(
        one_shot <= 2 * LARGE.len() + 64,
        "one shot scanned {one_shot}"
    );
    // Waiting for the byte after each line end looks at the line end again: at most two
    // extra bytes per call.
    assert!(
        byte_by_byte <= one_shot + 2 * LARGE.len(),
        "byte by byte scanned {byte_by_byte} bytes, one shot {one_shot}"
    );
}

#[test]
fn a_fold_needs_the_byte_after_the_line_end_within_the_limit() {
    let mut limits = lenient(&["obs_fold"]);
    let head = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
    limits.max_head_bytes = head.len() as u16;
    assert_eq!(
        Request::with_limits(limits).parse(head),
        Ok(Status::Complete {
            head_len: head.len()
        })
    );
    limits.max_head_bytes = head.len() as u16 - 2;
    let err = Request::with_limits(limits).parse(head).unwrap_err();
    assert_eq!((err.kind(), err.offset()), (ErrorKind::HeadTooLarge, 25));
    let mut req = Request::with_limits(limits);
    assert_eq!(parse_growing(&mut req, head), Err(err));
}

#[test]
fn bare_lf_in_chunked_bodies() {
    let limits = lenient(&["bare_lf"]);
    let body = b"5\nhello\n3;a=b\nabc\r\n0\n";
    let mut decoder = ChunkedDecoder::new();
    let mut input = &body[..];
    let mut data = Vec::new();
    loop {
        let (used, chunk) = decoder.decode(input, &limits).unwrap();
        match chunk {
            Chunk::Data(r) => data.extend_from_slice(&input[r]),
            Chunk::TrailerSection => break,
            other => panic!("{other:?}"),
        }
        input = &input[used..];
    }
    assert_eq!(data, b"helloabc");
    for (bad, kind) in [
        (&b"5 \nhello\n"[..], ErrorKind::InvalidChunkExtension),
        (b"5;a \n", ErrorKind::InvalidChunkExtension),
        (b"5\rhello", ErrorKind::BareCr),
        (b"5\nhelloX", ErrorKind::MissingChunkCrlf),
    ] {
        let mut decoder = ChunkedDecoder::new();
        let mut input = bad;
        let err = loop {
            match decoder.decode(input, &limits) {
                Ok((used, Chunk::Data(_))) => input = &input[used..],
                Ok(other) => panic!("{other:?} for {}", show(bad)),
                Err(e) => break e,
            }
        };
        assert_eq!(err.kind(), kind, "{}", show(bad));
    }
}

#[test]
fn unknown_versions_are_http11_in_responses_too() {
    let buf = b"HTTP/1.7  204 No Content\r\nContent-Length : 0\r\n\r\n";
    let mut res = Response::with_limits(all_options());
    assert_eq!(
        res.parse(buf),
        Ok(Status::Complete {
            head_len: buf.len()
        })
    );
    assert_eq!((res.version(), res.status()), (Version::Http11, 204));
    assert_eq!(res.reason().as_bytes(buf), b"No Content");
    assert!(Response::new().parse(buf).is_err());
}

/// `target_unsafe_bytes` takes the visible bytes RFC 3986 leaves out and a `%` without two hex
/// digits, anywhere in the target, reported as sent and the same however the bytes are split;
/// `#`, controls, SP, DEL, non-ASCII bytes and a host with such bytes stay errors.
#[test]
fn target_unsafe_bytes_takes_what_clients_send_and_nothing_else() {
    let limits = lenient(&["target_unsafe_bytes"]);
    let long = [&b"/"[..], &b"x".repeat(70)].concat();
    let mut targets: Vec<Vec<u8>> = Vec::new();
    for &b in b"\"<>\\^`{|}" {
        targets.push([&b"/a"[..], &[b], b"b"].concat());
        targets.push([&long[..], &[b]].concat());
        targets.push([&b"/?q="[..], &[b, b]].concat());
    }
    for t in [
        &b"/%zz"[..],
        b"/%",
        b"/a%4",
        b"/%4z%41",
        b"/%%41",
        b"/search?q={\"a\":1}|x^y",
        b"http://example.com/a|b",
    ] {
        targets.push(t.to_vec());
    }
    for target in &targets {
        let buf = [&b"GET "[..], target, b" HTTP/1.1\r\nHost: a\r\n\r\n"].concat();
        assert!(
            Request::new().parse(&buf).is_err(),
            "strict: {}",
            show(&buf)
        );
        let mut req = Request::with_limits(limits);
        assert_eq!(
            req.parse(&buf),
            Ok(Status::Complete {
                head_len: buf.len()
            }),
            "{}",
            show(&buf)
        );
        assert_eq!(req.target().as_bytes(&buf), &target[..]);
        let mut resumed = Request::with_limits(limits);
        assert_eq!(
            parse_growing(&mut resumed, &buf),
            Request::with_limits(limits).parse_precise(&buf)
        );
    }
    let rejected: &[(&[u8], ErrorKind, usize)] = &[
        (b"/a#b|", ErrorKind::FragmentInTarget, 6),
        (b"/a|\x7f", ErrorKind::InvalidTarget, 7),
        (b"/a|\x01", ErrorKind::InvalidTarget, 7),
        (b"/a|\x80", ErrorKind::InvalidTarget, 7),
        (b"/a|\tb", ErrorKind::InvalidTarget, 7),
        (b"http://a{b/", ErrorKind::InvalidTarget, 12),
    ];
    for &(target, kind, offset) in rejected {
        let buf = [&b"GET "[..], target, b" HTTP/1.1\r\nHost: a\r\n\r\n"].concat();
        let err = Request::with_limits(limits).parse(&buf).unwrap_err();
        assert_eq!((err.kind(), err.offset()), (kind, offset), "{}", show(&buf));
    }
}
