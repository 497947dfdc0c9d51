//! Limits and misuse: the byte and field-line limits, the sizes of the parsers, and parsing
//! again without a reset.

use super::*;

#[test]
fn sizes_stay_small() {
    assert_eq!(core::mem::size_of::<Span>(), 4);
    assert!(core::mem::size_of::<ChunkedDecoder>() <= 24);
    let request = core::mem::size_of::<Request>();
    let response = core::mem::size_of::<Response>();
    // 64 slots of 10 bytes are 640; the known-header index, a byte for each bit of the presence
    // bitmap, is 64; the rest is parse state.
    assert!(request <= 768, "Request is {request} bytes");
    assert!(response <= 768, "Response is {response} bytes");
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

/// A buffer that holds the whole limit without the head's end fails at once, so that a read
/// loop is never told to read more into a full buffer: one byte short of the limit is still
/// partial, and at the limit, one byte over it, or fed in any split, the error is the same, at
/// the first byte over the limit (which the input need not hold).
#[test]
fn a_head_that_fills_the_limit_without_its_end_fails_at_the_limit() {
    let mut limits = Limits::DEFAULT;
    limits.max_head_bytes = 40;
    // Each fills the 40 bytes: a field value, a line whose LF would be byte 40, an empty line
    // whose LF would be, a field line that ends at the limit, and a request-line.
    let fill = |start: &[u8], end: &[u8]| {
        let pad = 40 - start.len() - end.len();
        [start, &b"a".repeat(pad)[..], end].concat()
    };
    let fields = b"GET / HTTP/1.1\r\nHost: a\r\nX: ";
    for head in [
        fill(fields, b""),
        fill(fields, b"\r"),
        fill(fields, b"\r\n\r"),
        fill(fields, b"\r\n"),
        fill(b"GET /", b""),
    ] {
        let head = &head[..];
        assert_eq!(
            Request::with_limits(limits).parse(&head[..39]),
            Ok(Status::Partial)
        );
        let err = Request::with_limits(limits).parse(head).unwrap_err();
        assert_eq!(err.offset(), 40, "{head:?}");
        let kind = match head.starts_with(fields) {
            true => ErrorKind::HeadTooLarge,
            false => ErrorKind::TargetTooLong,
        };
        assert_eq!(err.kind(), kind);
        let over = [head, b"\n"].concat();
        assert_eq!(Request::with_limits(limits).parse(&over), Err(err));
        for split in [1, 7, 39] {
            let mut req = Request::with_limits(limits);
            assert_eq!(req.parse(&head[..split]), Ok(Status::Partial));
            assert_eq!(req.parse(head), Err(err));
        }
        let mut req = Request::with_limits(limits);
        assert_eq!(parse_growing(&mut req, head), Err(err));
    }
    // A response and a trailer section, at their limits.
    let response = fill(b"HTTP/1.1 200 OK\r\nX: ", b"");
    let mut res = Response::with_limits(limits);
    assert_eq!(res.parse(&response[..39]), Ok(Status::Partial));
    let err = res.parse(&response).unwrap_err();
    assert_eq!((err.kind(), err.offset()), (ErrorKind::HeadTooLarge, 40));
    let over = [&response[..], b"\r"].concat();
    assert_eq!(Response::with_limits(limits).parse(&over), Err(err));
    limits.max_trailer_bytes = 40;
    let trailer = fill(b"X: ", b"\r\n");
    let mut trailers = Trailers::with_limits(limits);
    assert_eq!(trailers.parse(&trailer[..39]), Ok(Status::Partial));
    let err = trailers.parse(&trailer).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (ErrorKind::TrailersTooLarge, 40)
    );
    let mut trailers = Trailers::with_limits(limits);
    assert_eq!(trailers.parse(&[&trailer[..], b"\r\n"].concat()), Err(err));
    // Within the limit, a head that ends exactly at it is complete.
    let exact = fill(fields, b"\r\n\r\n");
    limits.max_head_bytes = 40;
    assert_eq!(
        Request::with_limits(limits).parse(&exact),
        Ok(Status::Complete { head_len: 40 })
    );
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

    // The slots bound field lines as the limit does: past the smaller of the two, the same
    // error, at the first line over it.
    let mut small = Request::<4>::default();
    let err = small.parse(&head(10)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TooManyFields);
    assert_eq!(err.status(), 431);
    let mut lines = Limits::DEFAULT;
    lines.max_field_lines = 200;
    assert_eq!(Request::<4>::with_slots(lines).parse(&head(10)), Err(err));
    assert_eq!(&head(10)[err.offset()..err.offset() + 5], b"X-4: ");
    lines.max_field_lines = 3;
    let err = Request::<4>::with_slots(lines)
        .parse(&head(10))
        .unwrap_err();
    assert_eq!(&head(10)[err.offset()..err.offset() + 5], b"X-3: ");
    // More slots alone take more lines.
    let mut enough = Request::<10>::default();
    assert!(enough.parse(&head(10)).unwrap().is_complete());
    let mut more = Request::<128>::default();
    assert!(more.parse(&head(128)).unwrap().is_complete());
    assert_eq!(more.fields().len(), 128);
    assert_eq!(
        Request::<128>::default()
            .parse(&head(129))
            .unwrap_err()
            .kind(),
        ErrorKind::TooManyFields
    );
    let mut res = Response::<128>::default();
    let mut response = Vec::from(&b"HTTP/1.1 200 OK\r\n"[..]);
    response.extend_from_slice(&head(100)[16..]);
    assert!(res.parse(&response).unwrap().is_complete());
    assert_eq!(res.fields().len(), 100);
    assert_eq!(enough.fields().len(), 10);
}

/// The sizes that the table in `Limits`'s docs lists (64-bit targets).
#[test]
#[cfg(target_pointer_width = "64")]
fn sizes_are_those_the_limits_docs_list() {
    use core::mem::size_of;
    macro_rules! sizes {
        ($parser:ident) => {
            [
                size_of::<$parser<8>>(),
                size_of::<$parser<16>>(),
                size_of::<$parser<32>>(),
                size_of::<$parser<64>>(),
                size_of::<$parser<128>>(),
            ]
        };
    }
    assert_eq!(sizes!(Request), [208, 288, 448, 768, 1408]);
    assert_eq!(sizes!(Response), sizes!(Request));
    assert_eq!(sizes!(Trailers), [200, 280, 440, 760, 1400]);
}

/// The two misuses of `parse` fail instead of answering from the state of an earlier call: a
/// new message after `Complete` without `reset`, and a buffer shorter than what was read
/// (only the newly read bytes). Neither changes the state: the right call still works.
#[test]
fn parse_misuse_is_an_error_not_a_stale_answer() {
    let first = b"GET /b HTTP/1.1\r\nHost: a\r\n\r\n";
    let second = b"GET /bbbbbbbb HTTP/1.1\r\nHost: a\r\n\r\n";
    let mut req = Request::new();
    assert!(req.parse(first).unwrap().is_complete());
    for buf in [&second[..], first, b"", b"G"] {
        let err = req.parse(buf).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset(), err.status()),
            (ErrorKind::ParseAfterComplete, 0, 500)
        );
    }
    assert_eq!(req.target().as_bytes(first), b"/b");
    req.reset();
    assert!(req.parse(second).unwrap().is_complete());
    assert_eq!(req.target().as_bytes(second), b"/bbbbbbbb");

    // Fed in pieces, each call with only the new bytes: every cut that leaves the parser
    // further along than the next piece is long fails, at the piece's end.
    for cut in 1..second.len() {
        let mut req = Request::new();
        assert_eq!(req.parse(&second[..cut]), Ok(Status::Partial));
        let rest = &second[cut..];
        match req.parse(rest) {
            Err(e) if e.kind() == ErrorKind::BufferShorterThanParsed => {
                assert_eq!(e.offset(), rest.len());
                assert!(rest.len() < cut);
                // Nothing changed: the whole buffer completes the head.
                assert!(req.parse(second).unwrap().is_complete());
                assert_eq!(req.target().as_bytes(second), b"/bbbbbbbb");
            }
            // A longer piece is read as the message's start, and is wrong or partial there.
            other => assert!(rest.len() >= cut || other.is_err(), "{cut}: {other:?}"),
        }
    }
    let mut short = Request::new();
    assert_eq!(short.parse(&second[..30]), Ok(Status::Partial));
    assert_eq!(
        short.parse(&second[..29]).unwrap_err().kind(),
        ErrorKind::BufferShorterThanParsed
    );
    // The same buffer again is fine.
    assert_eq!(short.parse(&second[..30]), Ok(Status::Partial));

    let response = b"HTTP/1.1 100 Continue\r\n\r\n";
    let mut res = Response::new();
    assert!(res.parse(response).unwrap().is_complete());
    let err = res.parse(b"HTTP/1.1 200 OK\r\n\r\n").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ParseAfterComplete);
    let mut trailers = Trailers::new();
    assert!(trailers.parse(b"A: b\r\n\r\n").unwrap().is_complete());
    let err = trailers.parse(b"A: b\r\n\r\n").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ParseAfterComplete);
    assert!(format!("{err}").contains("reset()"));
}
