//! What a parsed head tells: the known-header index, framing and keep-alive, errors with their
//! offsets, and heads cut short.

use super::*;

/// The error a check should find, as kind and offset, or none.
type ExpectedError = Option<(ErrorKind, usize)>;

#[test]
fn known_headers_are_indexed_in_one_pass() {
    let mut res = Response::new();
    assert!(res.parse(RESPONSE_LARGE).unwrap().is_complete());
    let buf = RESPONSE_LARGE;
    assert_eq!(
        res.value(KnownHeader::Server).unwrap().as_bytes(buf),
        b"edge/2.4"
    );
    assert_eq!(
        res.value(KnownHeader::SetCookie).unwrap().as_bytes(buf),
        b"session=8b1e9a47f0d4; Path=/; HttpOnly; Secure"
    );
    assert_eq!(res.value(KnownHeader::Host), None);
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
        res.value(KnownHeader::SetCookie).unwrap().as_bytes(buf),
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
    assert_eq!(req.value(KnownHeader::Cookie), None);
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
            [400, 413, 414, 431, 500, 505].contains(&kind.status()),
            "{kind:?}"
        );
        // A misuse of the parser breaks no RFC rule, and is the caller's fault.
        let misuse = kind.rfc() == "httpspan API";
        assert_eq!(misuse, kind.status() == 500, "{kind:?}");
        assert!(misuse || kind.rfc().starts_with("RFC "), "{kind:?}");
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

/// Transfer codings other than chunked are reported, whatever their order, case and
/// parameters; chunked alone, or no Transfer-Encoding, reports none.
#[test]
fn other_transfer_codings_are_reported() {
    let request = |te: &[u8]| {
        let buf = [&b"POST / HTTP/1.1\r\nHost: a\r\n"[..], te, b"\r\n"].concat();
        let mut req = Request::new();
        req.parse(&buf)
            .map(|_| (req.framing(), req.has_other_codings()))
    };
    assert_eq!(request(b""), Ok((Framing::NoBody, false)));
    assert_eq!(
        request(b"Content-Length: 3\r\n"),
        Ok((Framing::Length(3), false))
    );
    for te in [
        &b"Transfer-Encoding: chunked\r\n"[..],
        b"Transfer-Encoding: CHUNKED\r\n",
        b"Transfer-Encoding: , chunked ,\r\n",
    ] {
        assert_eq!(request(te), Ok((Framing::Chunked, false)));
    }
    for te in [
        &b"Transfer-Encoding: gzip, chunked\r\n"[..],
        b"Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n",
        b"Transfer-Encoding: x-custom;q=1, chunked\r\n",
        b"Transfer-Encoding: identity, chunked\r\n",
    ] {
        assert_eq!(request(te), Ok((Framing::Chunked, true)));
    }
    let response = |te: &[u8]| {
        let buf = [&b"HTTP/1.1 200 OK\r\n"[..], te, b"\r\n"].concat();
        let mut res = Response::new();
        res.parse(&buf)
            .map(|_| (res.framing(), res.has_other_codings()))
    };
    assert_eq!(
        response(b"Transfer-Encoding: chunked\r\n"),
        Ok((Framing::Chunked, false))
    );
    assert_eq!(
        response(b"Transfer-Encoding: gzip, chunked\r\n"),
        Ok((Framing::Chunked, true))
    );
    assert_eq!(
        response(b"Transfer-Encoding: chunked, gzip\r\n"),
        Ok((Framing::UntilClose, true))
    );
    assert_eq!(
        response(b"Transfer-Encoding: gzip\r\n"),
        Ok((Framing::UntilClose, true))
    );
    // reset forgets them.
    let buf = b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n";
    let mut req = Request::new();
    req.parse(buf).unwrap();
    req.reset();
    req.parse(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n").unwrap();
    assert!(!req.has_other_codings());
}

/// `Expect: 100-continue` in any case, alone or in a list, on any Expect line, in HTTP/1.1;
/// not in HTTP/1.0 (RFC 9110 10.1.1), and not for other expectations.
#[test]
fn expects_continue_follows_rfc_9110() {
    let expects = |version: &[u8], fields: &[u8]| {
        let buf = [&b"PUT / "[..], version, b"\r\nHost: a\r\n", fields, b"\r\n"].concat();
        let mut req = Request::new();
        assert!(req.parse(&buf).unwrap().is_complete());
        req.expects_continue(&buf)
    };
    for fields in [
        &b"Expect: 100-continue\r\n"[..],
        b"Expect: 100-Continue\r\n",
        b"expect:100-CONTINUE \r\n",
        b"Expect: foo, 100-continue\r\n",
        b"Expect: foo\r\nExpect: 100-continue\r\n",
    ] {
        assert!(expects(b"HTTP/1.1", fields), "{fields:?}");
        assert!(!expects(b"HTTP/1.0", fields), "{fields:?}");
    }
    for fields in [
        &b""[..],
        b"Expect: 100\r\n",
        b"Expect: 100-continues\r\n",
        b"Expect: \"100-continue\"\r\n",
        b"X-Expect: 100-continue\r\n",
    ] {
        assert!(!expects(b"HTTP/1.1", fields), "{fields:?}");
    }
}

#[test]
fn host_values_are_judged_as_the_reference_judges_them() {
    // Every value byte at every position of Host values of 1 to 20 bytes (shorter and longer
    // than a 16-byte vector), filled with a letter or a digit (so that a colon
    // makes a port), in a head under one block, one followed by a body, and one of several
    // blocks: the parse accepts exactly the values `syntax::host` accepts, and rejects the
    // others at the same offset.
    // Under Miri, which runs each parse thousands of times slower, three lengths (one byte, a
    // 16-byte vector's, past it), the ends of each value, and `every_byte`'s sample.
    const MIRI_LENS: [usize; 3] = [1, 16, 20];
    let long_name = [b'x'; 80];
    let mut buf = std::vec::Vec::new();
    for len in (1..=20).filter(|len| !cfg!(miri) || MIRI_LENS.contains(len)) {
        for filler in [b'a', b'7'] {
            for at in (0..len).filter(|&at| !cfg!(miri) || at == 0 || at == len - 1) {
                // The bytes a field value may hold but SP and HTAB: `!` to `~` and obs-text.
                for byte in every_byte().filter(|&b| b > b' ' && b != 0x7f) {
                    let mut value = [filler; 20];
                    value[at] = byte;
                    let value = &value[..len];
                    let want = syntax::host(value).err().map(|(kind, i)| (kind, 22 + i));
                    for shape in 0..3 {
                        buf.clear();
                        buf.extend_from_slice(b"GET / HTTP/1.1\r\nHost: ");
                        buf.extend_from_slice(value);
                        if shape == 2 {
                            buf.extend_from_slice(b"\r\nX-Long: ");
                            buf.extend_from_slice(&long_name);
                        }
                        buf.extend_from_slice(b"\r\n\r\n");
                        if shape == 1 {
                            buf.extend_from_slice(&[b'b'; 64]);
                        }
                        let got = Request::new()
                            .parse(&buf)
                            .err()
                            .map(|e| (e.kind(), e.offset()));
                        assert_eq!(got, want, "{:?}, shape {shape}", value.escape_ascii());
                    }
                }
            }
        }
    }
}
