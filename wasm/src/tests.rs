//! Host tests of the conversion: the layout words written for requests, responses, trailers and
//! errors, and the limits built from JavaScript's numbers.

use super::*;
use httpspan::Trailers;
use layout::*;

fn request(buf: &[u8]) -> Spans {
    let mut parser = HeadParser::new(false, &[]);
    parser.input(buf.len());
    parser.input[..buf.len()].copy_from_slice(buf);
    parser.parse(buf.len());
    *parser.spans
}

fn text(buf: &[u8], word: u32) -> &[u8] {
    let off = (word & 0xffff) as usize;
    &buf[off..off + (word >> 16) as usize]
}

fn known_byte(spans: &Spans, at: usize, i: usize) -> u8 {
    (spans[at + i / 4] >> (8 * (i % 4))) as u8
}

#[test]
fn a_request_is_written_as_span_words() {
    let buf = b"POST /items?x=1 HTTP/1.1\r\nHost: example.com\r\nX-Custom: a b\r\n\
                Content-Length: 70000000000\r\ncookie: c=1\r\n\r\nbody";
    let spans = request(buf);
    assert_eq!(spans[STATE], COMPLETE);
    assert_eq!(spans[HEAD_LEN] as usize, buf.len() - 4);
    assert_eq!(spans[INFO], 1, "HTTP/1.1");
    assert_eq!(text(buf, spans[START_A]), b"POST");
    assert_eq!(text(buf, spans[START_B]), b"/items?x=1");
    let length = u64::from(spans[CONTENT_LENGTH]) | u64::from(spans[CONTENT_LENGTH + 1]) << 32;
    assert_eq!(length, 70_000_000_000);
    let flags = spans[FLAGS];
    assert_eq!(
        flags & (FLAG_CONTENT_LENGTH | FLAG_KEEP_ALIVE | FLAG_CHUNKED),
        FLAG_CONTENT_LENGTH | FLAG_KEEP_ALIVE
    );
    assert_eq!(flags >> FRAMING_SHIFT & 3, FRAMING_LENGTH);
    assert_eq!(spans[FIELD_COUNT], 4);
    let names: Vec<&[u8]> = (0..4).map(|i| text(buf, spans[FIELDS + 2 * i])).collect();
    let values: Vec<&[u8]> = (0..4)
        .map(|i| text(buf, spans[FIELDS + 2 * i + 1]))
        .collect();
    assert_eq!(
        names,
        [&b"Host"[..], b"X-Custom", b"Content-Length", b"cookie"]
    );
    assert_eq!(
        values,
        [&b"example.com"[..], b"a b", b"70000000000", b"c=1"]
    );
    let bitmap = u64::from(spans[KNOWN_BITMAP]) | u64::from(spans[KNOWN_BITMAP + 1]) << 32;
    let present = [
        KnownHeader::Host,
        KnownHeader::ContentLength,
        KnownHeader::Cookie,
    ];
    let expected: u64 = present.iter().map(|k| 1u64 << k.slot()).sum();
    assert_eq!(bitmap, expected);
    for (known, field) in present.iter().zip([0u8, 2, 3]) {
        assert_eq!(
            known_byte(&spans, KNOWN_INDEX, known.slot()),
            field + 1,
            "{known:?}"
        );
    }
    assert_eq!(
        known_byte(&spans, KNOWN_INDEX, KnownHeader::Accept.slot()),
        0
    );
    let known_ids = FIELDS + 2 * 4;
    let ids: Vec<u8> = (0..4).map(|i| known_byte(&spans, known_ids, i)).collect();
    assert_eq!(
        ids,
        [
            KnownHeader::Host.slot() as u8,
            255,
            KnownHeader::ContentLength.slot() as u8,
            KnownHeader::Cookie.slot() as u8
        ]
    );
}

#[test]
fn a_response_is_written_with_its_status_and_flags() {
    let buf = b"HTTP/1.0 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n";
    let mut parser = HeadParser::new(true, &[]);
    parser.input(buf.len());
    parser.input[..buf.len()].copy_from_slice(buf);
    parser.parse(buf.len());
    let spans = &parser.spans;
    assert_eq!(spans[STATE], COMPLETE);
    assert_eq!((spans[INFO], spans[START_A]), (0, 101));
    assert_eq!(text(buf, spans[START_B]), b"Switching Protocols");
    assert_ne!(spans[FLAGS] & FLAG_SWITCHES_PROTOCOLS, 0);
    assert_eq!(spans[FLAGS] & (FLAG_INTERIM | FLAG_KEEP_ALIVE), 0);

    let chunked = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
    parser.set_request_method("HEAD");
    parser.input(chunked.len());
    parser.input[..chunked.len()].copy_from_slice(chunked);
    parser.parse(chunked.len());
    assert_eq!(parser.spans[STATE], COMPLETE);
    assert_eq!(
        parser.spans[FLAGS] >> FRAMING_SHIFT & 3,
        FRAMING_NO_BODY,
        "an answer to HEAD"
    );
    parser.set_request_method("GET");
    parser.parse(chunked.len());
    assert_eq!(parser.spans[STATE], COMPLETE);
    assert_eq!(parser.spans[FLAGS] >> FRAMING_SHIFT & 3, FRAMING_CHUNKED);
    assert_ne!(parser.spans[FLAGS] & FLAG_CHUNKED, 0);
}

#[test]
fn errors_carry_offset_and_kind_and_partial_heads_say_so() {
    let buf = b"GET / HTTP/1.1\r\nHost: a\r\nX-Bad: a\x01b\r\n\r\n";
    let spans = request(buf);
    assert_eq!(spans[STATE], FAILED);
    assert_eq!(spans[HEAD_LEN], 33);
    assert_eq!(
        ErrorKind::ALL[spans[INFO] as usize],
        ErrorKind::InvalidFieldValue
    );
    assert_eq!(request(b"GET / HTTP/1.1\r\nHost: a\r\n")[STATE], PARTIAL);
}

#[test]
fn parse_starts_over_each_time() {
    let mut parser = HeadParser::new(false, &[]);
    for buf in [
        &b"GET /a HTTP/1.1\r\nHost: a\r\n\r\n"[..],
        b"BAD\x01",
        b"GET /bb HTTP/1.1\r\nHost: b\r\n\r\n",
    ] {
        parser.input(buf.len());
        parser.input[..buf.len()].copy_from_slice(buf);
        let used = parser.parse(buf.len()) as usize;
        assert_eq!(used, used_words(&parser.spans));
        assert_eq!(parser.spans[..used], request(buf)[..used], "{buf:?}");
    }
}

#[test]
fn bytes_past_the_head_window_never_change_the_outcome() {
    let mut limits = [-1.0; 5];
    limits[0] = 65535.0;
    let mut head = b"GET / HTTP/1.1\r\nHost: a\r\nX-Long: ".to_vec();
    head.resize(65_520, b'v');
    for tail in [&b"\r\n\r\n"[..], b"vvvvvvvvvvvvvvvvvvvvvvvvvvvv\r\n\r\n"] {
        let mut buf = head.clone();
        buf.extend_from_slice(tail);
        buf.resize(200_000, b'x');
        let mut parser = HeadParser::new(false, &limits);
        parser.input(buf.len());
        assert_eq!(parser.input.len(), HEAD_WINDOW);
        parser.input.copy_from_slice(&buf[..HEAD_WINDOW]);
        parser.parse(buf.len());
        let windowed = parser.spans[STATE];
        let whole = Request::with_limits(limits_from(&limits)).parse(&buf);
        match whole {
            Ok(Status::Complete { head_len }) => {
                assert_eq!(windowed, COMPLETE);
                assert_eq!(parser.spans[HEAD_LEN] as usize, head_len);
            }
            Ok(Status::Partial) => assert_eq!(windowed, PARTIAL),
            Err(e) => {
                assert_eq!(windowed, FAILED);
                assert_eq!(
                    (parser.spans[HEAD_LEN] as usize, parser.spans[INFO]),
                    (e.offset(), error_kind_index(e.kind()))
                );
            }
        }
    }
}

#[test]
fn limits_come_from_numbers_in_order_and_negative_means_default() {
    let limits = limits_from(&[100.0, 3.0, 10.0, 20.0, 1000.0, 30.0, 1.0]);
    assert_eq!(
        (
            limits.max_head_bytes,
            limits.max_field_lines,
            limits.max_chunk_ext_bytes,
            limits.max_trailer_bytes,
            limits.max_body_bytes,
            limits.max_body_chunk_ext_bytes,
            limits.lenient.bare_lf,
        ),
        (100, 3, 10, 20, Some(1000), 30, true)
    );
    assert_eq!(
        limits_from(&[-1.0, -1.0, -1.0, -1.0, -1.0, -1.0]),
        DEFAULT_LIMITS
    );
    assert_eq!(limits_from(&[]), DEFAULT_LIMITS);
    assert_eq!(DEFAULT_LIMITS.max_field_lines, 64);
    assert_eq!(limits_from(&[1e9]).max_head_bytes, u16::MAX, "saturates");
    let spans = {
        let mut parser = HeadParser::new(false, &[-1.0, 1.0]);
        let buf = b"GET / HTTP/1.1\r\nHost: a\r\nX: 1\r\n\r\n";
        parser.input(buf.len());
        parser.input[..buf.len()].copy_from_slice(buf);
        parser.parse(buf.len());
        *parser.spans
    };
    assert_eq!(
        ErrorKind::ALL[spans[INFO] as usize],
        ErrorKind::TooManyFields
    );
}

#[test]
fn trailers_are_written_as_fields() {
    let buf = b"Checksum: abc\r\nExpires: 0\r\n\r\n";
    let mut trailers = Trailers::<MAX_FIELDS>::default();
    assert!(trailers.parse(buf).unwrap().is_complete());
    let mut spans = [0; SPANS_LEN];
    write_trailers(&mut spans, &trailers, buf);
    assert_eq!(spans[FLAGS], 0, "ASCII");
    assert_eq!(
        (spans[STATE], spans[HEAD_LEN] as usize, spans[FIELD_COUNT]),
        (COMPLETE, buf.len(), 2)
    );
    assert_eq!(text(buf, spans[FIELDS + 1]), b"abc");
    assert_eq!(
        known_byte(&spans, KNOWN_INDEX, KnownHeader::Expires.slot()),
        2
    );
}

#[test]
fn a_full_field_table_fits_the_span_buffer() {
    let mut buf = b"GET / HTTP/1.1\r\nHost: a\r\n".to_vec();
    for i in 1..MAX_FIELDS {
        buf.extend_from_slice(format!("X-{i}: {i}\r\n").as_bytes());
    }
    buf.extend_from_slice(b"\r\n");
    let mut parser = HeadParser::new(false, &[-1.0, MAX_FIELDS as f64]);
    parser.input(buf.len());
    parser.input.copy_from_slice(&buf);
    let used = parser.parse(buf.len()) as usize;
    assert_eq!(used, SPANS_LEN);
    let spans = &parser.spans;
    assert_eq!((spans[STATE], spans[FIELD_COUNT]), (COMPLETE, 255));
    assert_eq!(text(&buf, spans[FIELDS + 2 * 254 + 1]), b"254");
    assert_eq!(known_byte(spans, FIELDS + 2 * 255, 254), 255);
}

/// Each field's known-header byte, for every count of fields up to three words of them, after
/// a parse that wrote more: every byte is this parse's, none left from the one before.
#[test]
fn every_field_gets_its_known_byte_whatever_the_count() {
    let names = [
        (&b"Accept"[..], Some(KnownHeader::Accept)),
        (b"X-One", None),
        (b"Cookie", Some(KnownHeader::Cookie)),
        (b"accept-encoding", Some(KnownHeader::AcceptEncoding)),
        (b"X-Two", None),
    ];
    let mut parser = HeadParser::new(false, &[]);
    for count in (0..=12).rev() {
        for shift in 0..names.len() {
            let mut buf = b"GET / HTTP/1.0\r\n".to_vec();
            let fields: Vec<_> = (0..count)
                .map(|i| names[(i + shift) % names.len()])
                .collect();
            for (name, _) in &fields {
                buf.extend_from_slice(name);
                buf.extend_from_slice(b": v\r\n");
            }
            buf.extend_from_slice(b"\r\n");
            parser.input(buf.len());
            parser.input[..buf.len()].copy_from_slice(&buf);
            parser.parse(buf.len());
            let spans = &parser.spans;
            assert_eq!(
                (spans[STATE], spans[FIELD_COUNT] as usize),
                (COMPLETE, count)
            );
            for (i, (_, known)) in fields.iter().enumerate() {
                let expected = known.map_or(255, |k| k.slot() as u8);
                let byte = known_byte(spans, FIELDS + 2 * count, i);
                assert_eq!(byte, expected, "field {i} of {count}, shift {shift}");
            }
        }
    }
}

/// The default limit stays the core's: the 65th field line is one too many.
#[test]
fn the_default_limit_is_the_cores() {
    let mut buf = b"GET / HTTP/1.1\r\nHost: a\r\n".to_vec();
    for i in 1..65 {
        buf.extend_from_slice(format!("X-{i}: {i}\r\n").as_bytes());
    }
    buf.extend_from_slice(b"\r\n");
    let spans = request(&buf);
    assert_eq!(spans[STATE], FAILED);
    assert_eq!(spans[INFO], error_kind_index(ErrorKind::TooManyFields));
}

#[test]
fn tables_list_layout_known_headers_and_error_kinds() {
    let tables = core::str::from_utf8(TABLES_TEXT).unwrap();
    let sections: Vec<&str> = tables.split("\n\n").collect();
    assert_eq!(sections.len(), 3);
    assert!(sections[0]
        .split(' ')
        .any(|pair| pair == format!("FIELDS={FIELDS}")));
    assert_eq!(sections[1].lines().count(), KnownHeader::ALL.len());
    assert_eq!(sections[1].lines().next(), Some("host"));
    let kinds: Vec<&str> = sections[2].lines().collect();
    assert_eq!(kinds.len(), ErrorKind::ALL.len());
    assert_eq!(kinds[0], "bare_lf\t400\tRFC 9112 2.2\tbare LF line ending");
    for (line, kind) in kinds.iter().zip(ErrorKind::ALL) {
        let status = kind.status().to_string();
        let expected = [kind.code(), &status, kind.rfc(), kind.message()].join("\t");
        assert_eq!(*line, expected);
    }
    assert!(tables.is_ascii());
}

#[test]
fn decimal_numbers_are_written_at_compile_time() {
    for n in [0, 7, 10, 505, 65_535, u32::MAX] {
        let text = Text::<10>::new().push_decimal(n);
        assert_eq!(&text.bytes[..text.len], n.to_string().as_bytes());
    }
}
