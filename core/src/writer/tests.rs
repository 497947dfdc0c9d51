//! Tests of the writers: what they write parses back, and what they refuse they do not write.

use super::*;
use std::vec;

/// Every status code a writer takes; under Miri, which runs each write thousands of times
/// slower, the ends of each class, the codes without content and every seventeenth.
fn statuses() -> impl Iterator<Item = u16> {
    (100..=599u16).filter(|&s| {
        !cfg!(miri) || s % 17 == 0 || s % 100 == 0 || s % 100 == 99 || matches!(s, 101 | 204 | 304)
    })
}

#[test]
fn empty_responses_are_what_the_writer_writes_and_parse_back() {
    let (mut fast, mut general) = ([0u8; 128], [0u8; 128]);
    for status in statuses() {
        let len = write_empty_response(&mut fast, status).unwrap();
        let mut res = ResponseWriter::new(&mut general, status).unwrap();
        let has_content = !matches!(status, 100..=199 | 204 | 304);
        if has_content {
            res.content_length(0).unwrap();
        }
        let expected = res.finish().unwrap();
        assert_eq!(fast[..len], general[..expected], "{status}");
        let mut parsed = crate::Response::new();
        parsed.parse(&fast[..len]).unwrap();
        assert_eq!(parsed.status(), status);
        assert_eq!(
            parsed.content_length(),
            has_content.then_some(0),
            "{status}"
        );
        // One byte short: refused whole, with the length it needs.
        let short = write_empty_response(&mut fast[..len - 1], status);
        assert!(
            matches!(short, Err(WriteError::BufferTooSmall { needed }) if needed >= len),
            "{status}: {short:?}"
        );
    }
    assert_eq!(
        write_empty_response(&mut fast, 600),
        Err(WriteError::Invalid(ErrorKind::InvalidStatusCode))
    );
}

#[test]
fn digits_in_both_bases() {
    for (n, dec, hex) in [
        (0u64, &b"0"[..], &b"0"[..]),
        (9, b"9", b"9"),
        (10, b"10", b"a"),
        (255, b"255", b"ff"),
        (4096, b"4096", b"1000"),
        (u64::MAX, b"18446744073709551615", b"ffffffffffffffff"),
    ] {
        assert_eq!(Digits::new::<10>(n).as_bytes(), dec);
        assert_eq!(Digits::new::<16>(n).as_bytes(), hex);
    }
}

#[test]
fn checked_fields_are_found_in_any_case() {
    for known in KnownHeader::ALL.iter().copied() {
        let name = known.name().as_bytes();
        let upper = std::vec::Vec::from_iter(name.iter().map(u8::to_ascii_uppercase));
        let want = matches!(
            known,
            KnownHeader::Host
                | KnownHeader::Connection
                | KnownHeader::ContentLength
                | KnownHeader::TransferEncoding
        )
        .then_some(known);
        assert_eq!(checked_field(name), want);
        assert_eq!(checked_field(&upper), want);
    }
    assert_eq!(checked_field(b"hostx"), None);
    assert_eq!(checked_field(b"hosT"), Some(KnownHeader::Host));
    assert_eq!(checked_field(b"content-lengtx"), None);
}

#[test]
fn short_copies_of_every_length() {
    let src: std::vec::Vec<u8> = (1..=80).collect();
    for n in 0..=src.len() {
        let mut dst = [0u8; 96];
        copy_short(&mut dst, &src[..n]);
        assert_eq!(&dst[..n], &src[..n], "length {n}");
        assert!(
            dst[n..].iter().all(|&b| b == 0),
            "length {n} wrote past its end"
        );
    }
}

#[test]
fn prebuilt_lines_match_the_general_path() {
    let mut registered = 0;
    for status in 100..=599u16 {
        let mut a = [0u8; 64];
        let mut b = [0u8; 64];
        let reason = reason_phrase(status).unwrap_or("");
        registered += usize::from(!reason.is_empty());
        let fast = ResponseWriter::new(&mut a, status)
            .unwrap()
            .finish()
            .unwrap();
        let slow = ResponseWriter::with_reason(&mut b, Version::Http11, status, reason.as_bytes())
            .unwrap()
            .finish()
            .unwrap();
        assert_eq!(a[..fast], b[..slow], "status {status}");
    }
    assert_eq!(registered, 50);
    for bad in [0, 99, 600, 1000, u16::MAX] {
        let mut buf = [0u8; 64];
        assert_eq!(
            ResponseWriter::new(&mut buf, bad).unwrap_err(),
            WriteError::Invalid(ErrorKind::InvalidStatusCode)
        );
    }
}

/// Writes a response with two fields and a body; for every buffer shorter than the whole,
/// the first call that does not fit reports exactly the length it needs.
#[test]
fn every_short_buffer_reports_what_it_needs() {
    fn write(buf: &mut [u8]) -> Result<usize, WriteError> {
        let mut res = ResponseWriter::new(buf, 404)?;
        res.header(b"Content-Type", b"text/plain")?;
        res.header_u64(b"Retry-After", 120)?;
        res.body(b"not here")
    }
    let mut big = [0u8; 256];
    let total = write(&mut big).unwrap();
    let whole = b"HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nRetry-After: 120\r\n\
                  Content-Length: 8\r\n\r\nnot here";
    assert_eq!(&big[..total], whole);
    let ends = [24, 24 + 26, 24 + 26 + 18, total];
    for len in 0..total {
        let mut buf = vec![0u8; len];
        let needed = ends.iter().copied().find(|&e| e > len).unwrap();
        assert_eq!(
            write(&mut buf),
            Err(WriteError::BufferTooSmall { needed }),
            "buffer of {len}"
        );
    }
}

#[test]
fn refused_fields_write_nothing() {
    let mut buf = [0u8; 256];
    let mut res = ResponseWriter::new(&mut buf, 200).unwrap();
    let invalid = |k| Err(WriteError::Invalid(k));
    for (name, value, want) in [
        (&b""[..], &b"v"[..], invalid(ErrorKind::InvalidFieldName)),
        (b"X Y", b"v", invalid(ErrorKind::InvalidFieldName)),
        (b"X:", b"v", invalid(ErrorKind::InvalidFieldName)),
        (b"X\r\nY", b"v", invalid(ErrorKind::InvalidFieldName)),
        (b"X", b"a\rb", invalid(ErrorKind::InvalidFieldValue)),
        (b"X", b"a\nb", invalid(ErrorKind::InvalidFieldValue)),
        (b"X", b"a\0b", invalid(ErrorKind::InvalidFieldValue)),
        (b"X", b"a\x7fb", invalid(ErrorKind::InvalidFieldValue)),
        (b"X", b" a", invalid(ErrorKind::InvalidFieldValue)),
        (b"X", b"a\t", invalid(ErrorKind::InvalidFieldValue)),
        (b"content-length", b"5", Err(WriteError::FramingField)),
        (
            b"Transfer-Encoding",
            b"chunked",
            Err(WriteError::FramingField),
        ),
        (
            b"Connection",
            b"close x",
            invalid(ErrorKind::InvalidConnection),
        ),
    ] {
        assert_eq!(res.header(name, value).map(|_| ()), want);
    }
    assert_eq!(res.written(), 17);
    // Host is checked in requests only; in a response it is just a field.
    res.header(b"Host", b"not a host").unwrap();
    res.header(b"Connection", b"keep-alive, Upgrade").unwrap();
    let len = res.finish().unwrap();
    assert_eq!(
        &buf[..len],
        b"HTTP/1.1 200 OK\r\nHost: not a host\r\nConnection: keep-alive, Upgrade\r\n\r\n"
    );
}

#[test]
fn one_framing_field() {
    let mut buf = [0u8; 256];
    let invalid = |k| Err(WriteError::Invalid(k));
    let mut res = ResponseWriter::new(&mut buf, 200).unwrap();
    res.content_length(3).unwrap();
    assert_eq!(
        res.content_length(3).map(|_| ()),
        invalid(ErrorKind::DuplicateContentLength)
    );
    assert_eq!(
        res.chunked().map(|_| ()),
        invalid(ErrorKind::ContentLengthWithTransferEncoding)
    );
    assert_eq!(
        res.body(b"abc").map(|_| ()),
        invalid(ErrorKind::DuplicateContentLength)
    );
    let mut res = ResponseWriter::new(&mut buf, 200).unwrap();
    res.chunked().unwrap();
    assert_eq!(res.chunked().map(|_| ()), invalid(ErrorKind::ChunkedTwice));
    assert_eq!(
        res.content_length(1).map(|_| ()),
        invalid(ErrorKind::ContentLengthWithTransferEncoding)
    );
    let mut res = ResponseWriter::new(&mut buf, 200).unwrap();
    assert_eq!(
        res.content_length(1 << 63).map(|_| ()),
        invalid(ErrorKind::ContentLengthTooLarge)
    );
    res.content_length(i64::MAX as u64).unwrap();
    let mut res = ResponseWriter::with_reason(&mut buf, Version::Http10, 200, b"OK").unwrap();
    assert_eq!(
        res.chunked().map(|_| ()),
        invalid(ErrorKind::TransferEncodingInHttp10)
    );
}

#[test]
fn statuses_without_content() {
    let mut buf = [0u8; 256];
    for status in [100, 101, 103, 199, 204] {
        let mut res = ResponseWriter::new(&mut buf, status).unwrap();
        assert_eq!(
            res.content_length(0).map(|_| ()),
            Err(WriteError::BodyNotAllowed)
        );
        assert_eq!(res.chunked().map(|_| ()), Err(WriteError::BodyNotAllowed));
        assert_eq!(res.body(b""), Err(WriteError::BodyNotAllowed));
    }
    let mut res = ResponseWriter::new(&mut buf, 304).unwrap();
    res.content_length(10).unwrap();
    let res = ResponseWriter::new(&mut buf, 304).unwrap();
    assert_eq!(res.body(b""), Err(WriteError::BodyNotAllowed));
    let mut res = ResponseWriter::new(&mut buf, 304).unwrap();
    res.chunked().unwrap();
}

#[test]
fn reasons_and_request_lines_are_checked() {
    let mut buf = [0u8; 256];
    let invalid = |k| WriteError::Invalid(k);
    assert_eq!(
        ResponseWriter::with_reason(&mut buf, Version::Http11, 200, b"O\rK").unwrap_err(),
        invalid(ErrorKind::InvalidReason)
    );
    let len = ResponseWriter::with_reason(&mut buf, Version::Http10, 599, b" odd\treason ")
        .unwrap()
        .finish()
        .unwrap();
    assert_eq!(&buf[..len], b"HTTP/1.0 599  odd\treason \r\n\r\n");
    for (method, target, kind) in [
        (&b"G T"[..], &b"/"[..], ErrorKind::InvalidMethod),
        (b"", b"/", ErrorKind::InvalidMethod),
        (b"GET", b"", ErrorKind::InvalidRequestLine),
        (b"GET", b"/a b", ErrorKind::InvalidTarget),
        (b"GET", b"/a#b", ErrorKind::FragmentInTarget),
        (b"GET", b"/%zz", ErrorKind::InvalidPercentEncoding),
        (b"GET", b"*", ErrorKind::AsteriskFormNotOptions),
        (b"CONNECT", b"/", ErrorKind::ConnectNotAuthorityForm),
    ] {
        assert_eq!(
            RequestWriter::new(&mut buf, method, target).unwrap_err(),
            invalid(kind)
        );
    }
    let mut req = RequestWriter::new(&mut buf, b"GET", b"/").unwrap();
    assert_eq!(
        req.header(b"Host", b"a b").map(|_| ()),
        Err(invalid(ErrorKind::InvalidHost))
    );
    req.header(b"host", b"example.com:8080").unwrap();
    assert_eq!(
        req.header(b"HOST", b"example.com").map(|_| ()),
        Err(invalid(ErrorKind::DuplicateHost))
    );
    assert_eq!(
        RequestWriter::new(&mut buf, b"GET", b"/").unwrap().finish(),
        Err(invalid(ErrorKind::MissingHost))
    );
    let len = RequestWriter::with_version(&mut buf, b"GET", b"/", Version::Http10)
        .unwrap()
        .finish()
        .unwrap();
    assert_eq!(&buf[..len], b"GET / HTTP/1.0\r\n\r\n");
}

#[test]
fn chunks() {
    let mut buf = [0u8; 64];
    assert_eq!(write_chunk(&mut buf, b""), Ok(0));
    let n = write_chunk(&mut buf, &[b'x'; 26]).unwrap();
    assert_eq!(&buf[..6], b"1a\r\nxx");
    assert_eq!(&buf[n - 3..n], b"x\r\n");
    assert_eq!(n, 2 + 2 + 26 + 2);
    assert_eq!(
        write_chunk(&mut buf[..31], &[b'x'; 26]),
        Err(WriteError::BufferTooSmall { needed: 32 })
    );
}

#[test]
fn chunk_headers_are_hex_sizes_the_decoder_reads_back() {
    let limits = crate::Limits::DEFAULT;
    for len in [1u64, 9, 10, 15, 16, 255, 4096, 1 << 32, u64::MAX] {
        let mut buf = [0u8; 18];
        let n = write_chunk_header(&mut buf, len).unwrap();
        let expected = std::format!("{len:x}\r\n").into_bytes();
        assert_eq!(buf[..n], expected[..]);
        // The decoder reads the size line and then waits for `len` bytes of data.
        let mut decoder = crate::ChunkedDecoder::new();
        assert_eq!(
            decoder.decode(&buf[..n], &limits),
            Ok((n, crate::Chunk::NeedMore)),
            "{len}"
        );
        // One byte short: refused whole, with the length it needs.
        let mut short = [0u8; 17];
        assert_eq!(
            write_chunk_header(&mut short[..n - 1], len),
            Err(WriteError::BufferTooSmall { needed: n })
        );
        assert_eq!(short, [0u8; 17], "nothing written");
    }
    assert_eq!(
        write_chunk_header(&mut [0u8; 18], 0),
        Err(WriteError::EmptyChunk)
    );
    assert_eq!(write_chunk_header(&mut [0u8; 18], u64::MAX), Ok(18));
}

#[test]
fn the_trailer_writer_ends_a_body_the_decoder_reads_to_the_end() {
    let limits = crate::Limits::DEFAULT;
    let mut buf = [0u8; 128];
    let empty = TrailerWriter::new(&mut buf).unwrap().finish().unwrap();
    assert_eq!(buf[..empty], *LAST_CHUNK);

    let mut end = TrailerWriter::new(&mut buf).unwrap();
    end.header(b"Checksum", b"abc").unwrap();
    end.header(b"Server-Timing", b"db;dur=53").unwrap();
    let len = end.finish().unwrap();
    let wire = &buf[..len];
    assert_eq!(
        wire,
        b"0\r\nChecksum: abc\r\nServer-Timing: db;dur=53\r\n\r\n"
    );
    let mut decoder = crate::ChunkedDecoder::new();
    let (used, chunk) = decoder.decode(wire, &limits).unwrap();
    assert_eq!((used, chunk), (3, crate::Chunk::TrailerSection));
    let mut trailers = crate::Trailers::new();
    assert_eq!(
        trailers.parse(&wire[used..]),
        Ok(crate::Status::Complete {
            head_len: len - used
        })
    );
    assert_eq!(trailers.fields().len(), 2);
}

#[test]
fn the_trailer_writer_refuses_what_does_not_belong_after_the_body() {
    let mut buf = [0u8; 128];
    let mut end = TrailerWriter::new(&mut buf).unwrap();
    // Whatever a proxy drops as hop-by-hop has no place in a trailer section either.
    for name in crate::hop_by_hop::HOP_BY_HOP
        .into_iter()
        .chain(NOT_IN_TRAILERS_SAMPLE)
    {
        assert_eq!(
            end.header(name, b"1").map(|_| ()),
            Err(WriteError::NotInTrailers),
            "{}",
            std::string::String::from_utf8_lossy(name)
        );
    }
    for (name, value, kind) in [
        (&b"Bad Name"[..], &b"x"[..], ErrorKind::InvalidFieldName),
        (b"", b"x", ErrorKind::InvalidFieldName),
        (b"X-Check", b"a\r\nHost: evil", ErrorKind::InvalidFieldValue),
        (b"X-Check", b" padded", ErrorKind::InvalidFieldValue),
        (b"X-Check", b"nul\0", ErrorKind::InvalidFieldValue),
    ] {
        assert_eq!(
            end.header(name, value).map(|_| ()),
            Err(WriteError::Invalid(kind))
        );
    }
    // None of the refusals wrote anything, and the writer goes on.
    assert_eq!(end.written(), 3);
    end.header(b"X-Check", b"ok").unwrap();
    let len = end.finish().unwrap();
    assert_eq!(buf[..len], *b"0\r\nX-Check: ok\r\n\r\n");
}

/// Framing, connection and routing fields in any case, and one from each other group.
const NOT_IN_TRAILERS_SAMPLE: [&[u8]; 12] = [
    b"content-length",
    b"TRANSFER-ENCODING",
    b"Trailer",
    b"te",
    b"Connection",
    b"keep-alive",
    b"Upgrade",
    b"Host",
    b"Authorization",
    b"Set-Cookie",
    b"Cache-Control",
    b"Content-Type",
];

#[test]
fn a_trailer_writer_too_small_says_the_total_it_needs() {
    let whole = b"0\r\nX-Check: ok\r\n\r\n".len();
    for room in 0..whole {
        let mut buf = vec![0u8; room];
        let result = TrailerWriter::new(&mut buf).and_then(|mut end| {
            end.header(b"X-Check", b"ok")?;
            end.finish()
        });
        let Err(WriteError::BufferTooSmall { needed }) = result else {
            panic!("{room}: {result:?}");
        };
        // Each call reports what it needs counted from the start; the first refusal past the
        // room is at most the whole.
        assert!(needed > room && needed <= whole, "{room}: {needed}");
        assert!(buf.iter().skip(needed.min(room)).all(|&b| b == 0));
    }
}

/// Writes the same JSON response into `target` with a response writer.
fn json_response<T: WriteTarget + ?Sized>(target: &mut T) -> Result<usize, WriteError> {
    let mut res = ResponseWriter::new_in(target, 200)?;
    res.header(b"Content-Type", b"application/json")?
        .header_u64(b"Age", 7)?;
    res.body(b"{\"ok\":true}")
}

#[test]
fn every_target_gets_the_same_bytes_and_measure_their_length() {
    let mut slice = [0u8; 256];
    let len = json_response(&mut slice[..]).unwrap();
    assert_eq!(json_response(&mut Measure), Ok(len));
    // A Vec is appended to, after what it holds.
    let mut out = b"before".to_vec();
    assert_eq!(json_response(&mut out), Ok(len));
    assert_eq!(out[..6], *b"before");
    assert_eq!(out[6..], slice[..len]);
    // Exactly the measured room is enough; one byte less is refused with that length.
    let mut exact = vec![0u8; len];
    assert_eq!(json_response(&mut exact[..]), Ok(len));
    assert_eq!(
        json_response(&mut exact[..len - 1]),
        Err(WriteError::BufferTooSmall { needed: len })
    );
}

#[cfg(feature = "tokio")]
#[test]
fn bytes_mut_is_appended_to() {
    let mut slice = [0u8; 256];
    let len = json_response(&mut slice[..]).unwrap();
    let mut out = bytes::BytesMut::from(&b"before"[..]);
    assert_eq!(json_response(&mut out), Ok(len));
    assert_eq!(out[..6], *b"before");
    assert_eq!(out[6..], slice[..len]);
    let mut end = bytes::BytesMut::new();
    let mut trailers = TrailerWriter::new_in(&mut end).unwrap();
    trailers.header(b"Checksum", b"abc").unwrap();
    assert_eq!(trailers.finish(), Ok(end.len()));
    assert_eq!(end[..], *b"0\r\nChecksum: abc\r\n\r\n");
}

#[test]
fn a_refused_call_appends_nothing_to_a_growable_target() {
    let mut out = std::vec::Vec::new();
    let mut req = RequestWriter::new_in(&mut out, b"GET", b"/").unwrap();
    req.header(b"Host", b"a").unwrap();
    let before = req.written();
    assert!(req.header(b"Bad Name", b"x").is_err());
    assert!(req.header(b"Host", b"b").is_err());
    assert!(req.content_length(1).and_then(|r| r.chunked()).is_err());
    assert_eq!(req.written(), before + b"Content-Length: 1\r\n".len());
    let len = req.finish().unwrap();
    assert_eq!(out.len(), len);
    assert_eq!(
        out,
        b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\n\r\n"
    );
    let mut parsed = crate::Request::new();
    assert_eq!(
        parsed.parse(&out),
        Ok(crate::Status::Complete { head_len: len })
    );
}

#[test]
fn an_empty_response_too_big_for_the_buffer_reports_its_whole_length_and_writes_nothing() {
    for status in statuses() {
        let len = write_empty_response_in(&mut Measure, status).unwrap();
        let mut out = std::vec::Vec::new();
        assert_eq!(write_empty_response_in(&mut out, status), Ok(len));
        assert_eq!(out.len(), len);
        for room in [0, 1, len / 2, len - 1] {
            let mut buf = vec![0u8; room];
            assert_eq!(
                write_empty_response(&mut buf, status),
                Err(WriteError::BufferTooSmall { needed: len }),
                "{status} in {room}"
            );
            assert!(buf.iter().all(|&b| b == 0), "{status} in {room}: written");
        }
    }
}

#[test]
fn chunks_into_every_target_are_the_same_bytes() {
    let mut slice = [0u8; 64];
    let mut out = std::vec::Vec::new();
    for len in [1usize, 15, 16, 300] {
        let data = vec![b'x'; len];
        let n = write_chunk(&mut slice, &data[..len.min(40)]).unwrap();
        out.clear();
        assert_eq!(write_chunk_in(&mut out, &data[..len.min(40)]), Ok(n));
        assert_eq!(out, slice[..n]);
        assert_eq!(write_chunk_in(&mut Measure, &data[..len.min(40)]), Ok(n));
        let n = write_chunk_header(&mut slice, len as u64).unwrap();
        out.clear();
        assert_eq!(write_chunk_header_in(&mut out, len as u64), Ok(n));
        assert_eq!(out, slice[..n]);
        assert_eq!(write_chunk_header_in(&mut Measure, len as u64), Ok(n));
    }
    assert_eq!(write_chunk_in(&mut out, b""), Ok(0));
    assert_eq!(
        write_chunk_header_in(&mut out, 0),
        Err(WriteError::EmptyChunk)
    );
    assert_eq!(out, b"12c\r\n", "the refusals appended nothing");
}

#[test]
fn an_array_is_a_target_like_its_slice() {
    let mut array = [0u8; 128];
    let len = json_response(&mut array).unwrap();
    let mut slice = [0u8; 128];
    assert_eq!(json_response(&mut slice[..]), Ok(len));
    assert_eq!(array, slice);
    assert_eq!(
        json_response(&mut [0u8; 16]),
        Err(WriteError::BufferTooSmall { needed: 17 })
    );
}
