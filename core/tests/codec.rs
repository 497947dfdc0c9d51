//! `codec::ServerCodec` gives the same frames however the input is cut into reads, and its
//! frames' spans index their own bytes.

use bytes::BytesMut;
use httpspan::codec::{CodecError, RequestFrame, ServerCodec};
use httpspan::{KnownHeader, Limits};
use tokio_util::codec::Decoder;

const WIRE: &[u8] = b"\r\nPOST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n\
    3;e=1\r\nabc\r\n10\r\n0123456789abcdef\r\n0\r\nChecksum: 9\r\nX-Trace: t\r\n\r\n\
    PUT /b HTTP/1.1\r\nHost: y\r\nContent-Length: 5\r\n\r\nhello\
    GET /c HTTP/1.1\r\nHost: z\r\nConnection: close\r\n\r\nGET /never HTTP/1.1\r\n\r\n";

/// The frames as text, one line each, read through the frames' own accessors.
fn describe(frame: &RequestFrame) -> String {
    match frame {
        RequestFrame::Head(head) => {
            let req = head.request();
            let host = head.bytes_of(req.value(KnownHeader::Host).unwrap());
            assert_eq!(
                &head.shared_bytes_of(req.target())[..],
                head.bytes_of(req.target())
            );
            format!(
                "head {} {} host={}",
                String::from_utf8_lossy(head.bytes_of(req.method())),
                String::from_utf8_lossy(head.bytes_of(req.target())),
                String::from_utf8_lossy(host)
            )
        }
        RequestFrame::Body(data) => format!("body {}", String::from_utf8_lossy(data)),
        RequestFrame::Trailers(section) => {
            let bytes = section.bytes();
            let checksum = section.trailers().find(bytes, b"checksum").unwrap();
            format!(
                "trailers checksum={} ({} bytes)",
                String::from_utf8_lossy(checksum.as_bytes(bytes)),
                bytes.len()
            )
        }
        RequestFrame::End { last } => format!("end last={last}"),
        other => format!("unexpected {other:?}"),
    }
}

/// Feeds `wire` in pieces of `piece` bytes, as FramedRead does, then ends the stream.
fn frames(wire: &[u8], piece: usize) -> Result<Vec<String>, CodecError> {
    let mut codec = ServerCodec::new(Limits::DEFAULT);
    let mut input = BytesMut::new();
    let mut out = Vec::new();
    for read in wire.chunks(piece) {
        input.extend_from_slice(read);
        while let Some(frame) = codec.decode(&mut input)? {
            out.push(describe(&frame));
        }
    }
    while let Some(frame) = codec.decode_eof(&mut input)? {
        out.push(describe(&frame));
    }
    Ok(out)
}

#[test]
fn frames_do_not_depend_on_how_the_input_is_cut() {
    let whole = frames(WIRE, WIRE.len()).unwrap();
    let body: String = whole
        .iter()
        .filter_map(|f| f.strip_prefix("body "))
        .collect();
    assert_eq!(body, "abc0123456789abcdefhello");
    assert_eq!(whole[0], "head POST /a host=x");
    assert!(
        whole.contains(&"trailers checksum=9 (27 bytes)".to_string()),
        "{whole:?}"
    );
    assert_eq!(whole.last().unwrap(), "end last=true");
    // Nothing after the request that closes the connection is read.
    assert!(!whole.iter().any(|f| f.contains("/never")));
    for piece in 1..WIRE.len() {
        let cut = frames(WIRE, piece).unwrap();
        // Body data may come in more pieces; everything else is the same.
        let joined = |frames: &[String]| -> Vec<String> {
            let mut out: Vec<String> = Vec::new();
            for f in frames {
                match (out.last_mut(), f.strip_prefix("body ")) {
                    (Some(last), Some(data)) if last.starts_with("body ") => last.push_str(data),
                    _ => out.push(f.clone()),
                }
            }
            out
        };
        assert_eq!(joined(&cut), joined(&whole), "pieces of {piece} bytes");
    }
}

#[test]
fn a_stream_that_ends_inside_a_request_is_incomplete() {
    let err = frames(
        b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 9\r\n\r\nab",
        7,
    )
    .unwrap_err();
    assert!(matches!(err, CodecError::Incomplete), "{err}");
    assert_eq!(err.status(), None);
    // A head cut off after an invalid byte is already an error, with its status.
    let err = frames(b"GET / HTTP/1.1\r\nHo\x01", 3).unwrap_err();
    assert_eq!(err.status(), Some(400));
}

#[test]
fn limits_are_the_stream_decoder_s() {
    let mut limits = Limits::DEFAULT;
    limits.max_body_bytes = Some(4);
    let mut codec = ServerCodec::new(limits);
    let mut input = BytesMut::from(&b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n"[..]);
    assert!(matches!(codec.decode(&mut input), Err(CodecError::Parse(e)) if e.status() == 413));

    let mut head = b"GET / HTTP/1.1\r\nHost: x\r\nX: ".to_vec();
    head.resize(9000, b'a');
    let err = frames(&head, 1000).unwrap_err();
    assert_eq!(err.status(), Some(431));
}

#[test]
fn chunk_extensions_are_bounded_per_body() {
    // The flood of the issue: one-byte chunks, each with a 60 KiB extension (under the
    // per-line limit), 12 MB in all; refused once the body's extensions pass 256 KiB.
    let line = [&b"1;"[..], &[b'e'; 60 * 1024 - 1], b"\r\nx\r\n"].concat();
    let mut wire = b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    let head_len = wire.len();
    for _ in 0..200 {
        wire.extend_from_slice(&line);
    }
    let err = frames(&wire, 16 * 1024).unwrap_err();
    let CodecError::Parse(e) = err else {
        panic!("{err:?}")
    };
    assert_eq!(e.kind(), httpspan::ErrorKind::ChunkExtensionsTooLarge);
    assert_eq!(e.status(), 400);
    // Four lines of 60 KiB are 240 KiB; the fifth passes 256 KiB at its 16385th byte.
    assert_eq!(e.offset(), head_len + 4 * line.len() + 1 + 16 * 1024);
}

mod encode {
    use bytes::BytesMut;
    use httpspan::codec::{
        BodyLength, BodyPart, Call, CallHead, ClientCodec, CodecError, Misuse, Reply, ReplyHead,
        ServerCodec,
    };
    use httpspan::{Framing, Limits, Response, Status, WriteError};
    use tokio_util::codec::Encoder;

    /// Every status code, registered or not, with bodies around the sizes where a length
    /// gains a digit: what the encoder writes parses back as that status, length and body;
    /// what it refuses is a body where the status allows none.
    #[test]
    fn every_status_and_body_size_encodes_and_parses_back() {
        let sizes = [0usize, 1, 999, 1000, 1_000_000];
        let big = vec![b'x'; 1_000_000];
        let headers: &[(&[u8], &[u8])] = &[(b"Content-Type", b"text/plain")];
        let mut checked = 0;
        for status in 100..=599u16 {
            for &size in &sizes {
                for head_only in [false, true] {
                    let body = &big[..size];
                    let reply = Reply::new(status, headers, body).head_only(head_only);
                    let mut out = BytesMut::new();
                    let result = ServerCodec::new(Limits::DEFAULT).encode(reply, &mut out);
                    let no_content = matches!(status, 100..=199 | 204);
                    if no_content && size > 0 {
                        assert!(
                            matches!(result, Err(CodecError::Write(WriteError::BodyNotAllowed))),
                            "{status} {size}: {result:?}"
                        );
                        assert!(out.is_empty());
                        continue;
                    }
                    result.unwrap_or_else(|e| panic!("{status} {size} {head_only}: {e}"));
                    let mut res = Response::new();
                    if head_only {
                        res.set_request_method(b"HEAD");
                    }
                    let Ok(Status::Complete { head_len }) = res.parse(&out) else {
                        panic!("{status} {size}: {:?}", String::from_utf8_lossy(&out));
                    };
                    assert_eq!(res.status(), status);
                    let sent_body = !head_only && status != 304 && !no_content;
                    let expected_framing = match sent_body {
                        true => Framing::Length(size as u64),
                        false => Framing::NoBody,
                    };
                    assert_eq!(
                        res.framing(),
                        expected_framing,
                        "{status} {size} {head_only}"
                    );
                    let expected_length = (!no_content).then_some(size as u64);
                    assert_eq!(res.content_length(), expected_length, "{status} {size}");
                    let rest = &out[head_len..];
                    assert_eq!(rest, if sent_body { body } else { &[][..] });
                    checked += 1;
                }
            }
        }
        assert!(checked > 4000, "{checked}");
    }

    /// The streamed encoder refuses every part that would frame the body wrong, and writes
    /// nothing when it does.
    #[test]
    fn streamed_bodies_are_checked_against_their_head() {
        let mut codec = ServerCodec::new(Limits::DEFAULT);
        let mut out = BytesMut::new();
        let misuse = |r: Result<(), CodecError>| match r {
            Err(CodecError::Misuse(m)) => m,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            misuse(codec.encode(BodyPart::Data(b"x"), &mut out)),
            Misuse::OutOfOrder
        );
        let head = |length, head_only| ReplyHead::new(200, &[], length).head_only(head_only);
        codec
            .encode(head(BodyLength::Fixed(3), false), &mut out)
            .unwrap();
        let len = out.len();
        assert_eq!(
            misuse(codec.encode(head(BodyLength::Fixed(3), false), &mut out)),
            Misuse::OutOfOrder
        );
        assert_eq!(
            misuse(codec.encode(BodyPart::Data(b"abcd"), &mut out)),
            Misuse::BodyTooLong {
                remaining: 3,
                given: 4
            }
        );
        codec.encode(BodyPart::Data(b"ab"), &mut out).unwrap();
        assert_eq!(
            misuse(codec.encode(BodyPart::End, &mut out)),
            Misuse::BodyTooShort { missing: 1 }
        );
        assert_eq!(
            misuse(codec.encode(BodyPart::Trailers(&[]), &mut out)),
            Misuse::TrailersNeedChunked
        );
        assert_eq!(out.len(), len + 2);
        codec.encode(BodyPart::Data(b"c"), &mut out).unwrap();
        codec.encode(BodyPart::End, &mut out).unwrap();
        // HEAD: the length is announced and no data may follow.
        codec
            .encode(head(BodyLength::Fixed(9), true), &mut out)
            .unwrap();
        assert_eq!(
            misuse(codec.encode(BodyPart::Data(b"x"), &mut out)),
            Misuse::NoBodyAllowed
        );
        codec.encode(BodyPart::End, &mut out).unwrap();
        // Trailers refused by the field rules write nothing and leave the body open.
        codec
            .encode(head(BodyLength::Chunked, false), &mut out)
            .unwrap();
        let len = out.len();
        let bad: &[(&[u8], &[u8])] = &[(b"Content-Length", b"1")];
        assert!(matches!(
            codec.encode(BodyPart::Trailers(bad), &mut out),
            Err(CodecError::Write(WriteError::NotInTrailers))
        ));
        let bad: &[(&[u8], &[u8])] = &[(b"X", b"a\r\nb")];
        assert!(codec.encode(BodyPart::Trailers(bad), &mut out).is_err());
        assert_eq!(out.len(), len);
        codec.encode(BodyPart::Data(b"hi"), &mut out).unwrap();
        codec.encode(BodyPart::End, &mut out).unwrap();
        // A body until close ends the connection's HTTP.
        codec
            .encode(head(BodyLength::UntilClose, false), &mut out)
            .unwrap();
        codec.encode(BodyPart::Data(b"tail"), &mut out).unwrap();
        codec.encode(BodyPart::End, &mut out).unwrap();
        assert_eq!(
            misuse(codec.encode(head(BodyLength::Fixed(0), false), &mut out)),
            Misuse::NotHttp
        );
        let text = String::from_utf8_lossy(&out);
        assert!(text.contains("\r\n\r\nabc"), "{text}");
        assert!(
            text.contains("chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\nHTTP/1.1 200 OK\r\n\r\ntail"),
            "{text}"
        );
        // Without a body (HEAD), until close only leaves out the framing field.
        let mut codec = ServerCodec::new(Limits::DEFAULT);
        let mut out = BytesMut::new();
        codec
            .encode(head(BodyLength::UntilClose, true), &mut out)
            .unwrap();
        codec.encode(BodyPart::End, &mut out).unwrap();
        codec
            .encode(head(BodyLength::Fixed(0), false), &mut out)
            .unwrap();
        assert_eq!(
            &out[..],
            b"HTTP/1.1 200 OK\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"
        );
    }

    /// An HTTP/1.0 client cannot read chunked: its answer must not be, even pipelined behind
    /// HTTP/1.1 requests.
    #[test]
    fn no_chunked_answer_to_http_1_0() {
        use httpspan::codec::RequestFrame;
        use tokio_util::codec::Decoder;
        let mut codec = ServerCodec::new(Limits::DEFAULT);
        let mut input = BytesMut::from(
            &b"GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"
                [..],
        );
        while let Some(frame) = codec.decode(&mut input).unwrap() {
            assert!(!matches!(frame, RequestFrame::End { last: true }));
        }
        let mut out = BytesMut::new();
        let chunked = ReplyHead::new(200, &[], BodyLength::Chunked);
        // An interim answer does not count; the first final one is /a's.
        let interim =
            ReplyHead::new(103, chunked.headers, BodyLength::Fixed(0)).head_only(chunked.head_only);
        codec.encode(interim, &mut out).unwrap();
        codec.encode(chunked, &mut out).unwrap();
        codec.encode(BodyPart::End, &mut out).unwrap();
        let len = out.len();
        assert!(matches!(
            codec.encode(chunked, &mut out),
            Err(CodecError::Misuse(Misuse::ChunkedToHttp10))
        ));
        assert_eq!(out.len(), len);
        let until_close = ReplyHead::new(chunked.status, chunked.headers, BodyLength::UntilClose)
            .head_only(chunked.head_only);
        codec.encode(until_close, &mut out).unwrap();
    }

    /// HTTP/1.0 has no 1xx answers (RFC 9110 15.2): none, whole or streamed, goes to an
    /// HTTP/1.0 request, and nothing is written; the final answer still goes.
    #[test]
    fn no_interim_answer_to_http_1_0() {
        use tokio_util::codec::Decoder;
        let mut codec = ServerCodec::new(Limits::DEFAULT);
        let mut input = BytesMut::from(&b"GET / HTTP/1.0\r\n\r\n"[..]);
        while codec.decode(&mut input).unwrap().is_some() {}
        let mut out = BytesMut::new();
        let hints = ReplyHead::new(
            103,
            &[(b"Link", b"</a.css>; rel=preload")],
            BodyLength::Fixed(0),
        );
        assert!(matches!(
            codec.encode(hints, &mut out),
            Err(CodecError::Misuse(Misuse::InterimToHttp10))
        ));
        let proceed = Reply::new(100, &[], b"");
        assert!(matches!(
            codec.encode(proceed, &mut out),
            Err(CodecError::Misuse(Misuse::InterimToHttp10))
        ));
        assert!(out.is_empty());
        let ok = Reply::new(200, proceed.headers, b"ok").head_only(proceed.head_only);
        codec.encode(ok, &mut out).unwrap();
        assert!(out.starts_with(b"HTTP/1.1 200 OK\r\n"));
    }

    #[test]
    fn client_requests_declare_their_bodies() {
        let mut codec = ClientCodec::new(Limits::DEFAULT);
        let mut out = BytesMut::new();
        let headers: &[(&[u8], &[u8])] = &[(b"Host", b"h")];
        let call =
            |method: &'static [u8], body: &'static [u8]| Call::new(method, b"/", headers, body);
        codec.encode(call(b"GET", b""), &mut out).unwrap();
        codec.encode(call(b"POST", b""), &mut out).unwrap();
        codec.encode(call(b"PUT", b"abc"), &mut out).unwrap();
        assert_eq!(
            &out[..],
            b"GET / HTTP/1.1\r\nHost: h\r\n\r\n\
              POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n\
              PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc"
        );
        assert_eq!(codec.in_flight(), 3);
        // No Host: refused by the writer, nothing written, nothing remembered.
        let len = out.len();
        let bad = Call::new(b"GET", b"/", &[], b"");
        assert!(matches!(
            codec.encode(bad, &mut out),
            Err(CodecError::Write(_))
        ));
        assert_eq!((out.len(), codec.in_flight()), (len, 3));
        let head = CallHead::new(b"POST", b"/up", headers, BodyLength::UntilClose);
        assert!(matches!(
            codec.encode(head, &mut out),
            Err(CodecError::Misuse(Misuse::UntilCloseInRequest))
        ));
        let head = CallHead::new(head.method, head.target, head.headers, BodyLength::Chunked);
        codec.encode(head, &mut out).unwrap();
        codec.encode(BodyPart::Data(b"hello"), &mut out).unwrap();
        codec
            .encode(BodyPart::Trailers(&[(b"Checksum", b"5")]), &mut out)
            .unwrap();
        codec.encode(BodyPart::End, &mut out).unwrap();
        assert!(out.ends_with(b"\r\n\r\n5\r\nhello\r\n0\r\nChecksum: 5\r\n\r\n"));
    }

    #[test]
    fn pipelining_is_bounded() {
        let mut codec = ClientCodec::new(Limits::DEFAULT);
        let mut out = BytesMut::new();
        let call = Call::new(b"GET", b"/", &[(b"Host", b"h")], b"");
        for _ in 0..httpspan::codec::MAX_PIPELINED {
            codec.encode(call, &mut out).unwrap();
        }
        assert!(matches!(
            codec.encode(call, &mut out),
            Err(CodecError::Misuse(Misuse::TooManyPipelined))
        ));
    }
}

mod misuse {
    use bytes::BytesMut;
    use httpspan::codec::{CodecError, Misuse, RequestFrame, ServerCodec};
    use httpspan::{Limits, Span};
    use tokio_util::codec::Decoder;

    #[test]
    fn a_span_outside_the_head_gives_empty_bytes() {
        let mut codec = ServerCodec::new(Limits::DEFAULT);
        let mut input = BytesMut::from(&b"GET /a HTTP/1.1\r\nHost: x\r\n\r\n"[..]);
        let Some(RequestFrame::Head(head)) = codec.decode(&mut input).unwrap() else {
            panic!()
        };
        for span in [
            Span::new(1000, 4),
            Span::new(20, 100),
            Span::new(u16::MAX, u16::MAX),
        ] {
            assert!(head.bytes_of(span).is_empty());
            assert!(head.shared_bytes_of(span).is_empty());
        }
        assert_eq!(&head.shared_bytes_of(head.request().target())[..], b"/a");
    }

    #[test]
    fn a_read_buffer_shrunk_between_calls_is_an_error() {
        let mut codec = ServerCodec::new(Limits::DEFAULT);
        let mut input = BytesMut::from(&b"GET /a HTTP/1.1\r\nHost: x\r\nX-Long"[..]);
        assert!(codec.decode(&mut input).unwrap().is_none());
        let held = input.len();
        input.truncate(10);
        let err = codec.decode(&mut input).unwrap_err();
        assert!(
            matches!(
                err,
                CodecError::Misuse(Misuse::ReadBufferShrunk { held: h, len: 10 }) if h == held
            ),
            "{err:?}"
        );
        assert_eq!(err.status(), None);
        // The decoder's count of the stream no longer matches the buffer: it stays an error.
        input.extend_from_slice(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        assert!(codec.decode(&mut input).is_err());
    }
}

mod client {
    use bytes::BytesMut;
    use httpspan::codec::{Call, ClientCodec, CodecError, Misuse, ResponseFrame};
    use httpspan::Limits;
    use tokio_util::codec::{Decoder, Encoder};

    /// A codec that has sent requests with these methods.
    fn sent(methods: &[&'static [u8]]) -> ClientCodec {
        let mut codec = ClientCodec::new(Limits::DEFAULT);
        let mut out = BytesMut::new();
        for &method in methods {
            let target: &[u8] = if method == b"CONNECT" { b"a:443" } else { b"/" };
            let call = Call::new(method, target, &[(b"Host", b"a")], b"");
            codec.encode(call, &mut out).unwrap();
        }
        codec
    }

    /// The frames in `input` as text, until the codec has none.
    fn frames(codec: &mut ClientCodec, input: &mut BytesMut) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(frame) = codec.decode(input).unwrap() {
            out.push(match frame {
                ResponseFrame::Interim(h) => format!("interim {}", h.response().status()),
                ResponseFrame::Head(h) => format!("head {}", h.response().status()),
                ResponseFrame::Body(d) => format!("body {}", String::from_utf8_lossy(&d)),
                ResponseFrame::Trailers(t) => format!("trailers {}", t.bytes().len()),
                ResponseFrame::End { last } => format!("end last={last}"),
                other => format!("unexpected {other:?}"),
            });
        }
        out
    }

    #[test]
    fn interim_answers_then_the_final_one_for_each_method() {
        let mut codec = sent(&[b"POST", b"HEAD", b"GET"]);
        let mut input = BytesMut::from(
            &b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n\
               HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok\
               HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n\
               HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\nX: 1\r\n\r\n"[..],
        );
        assert_eq!(
            frames(&mut codec, &mut input),
            [
                "interim 100",
                "interim 103",
                "head 200",
                "body ok",
                "end last=false",
                "head 200",
                "end last=false",
                "head 200",
                "body hi",
                "trailers 8",
                "end last=false"
            ]
        );
        assert_eq!(codec.in_flight(), 0);
    }

    #[test]
    fn switching_protocols_ends_the_http_framing() {
        for (methods, answer) in [
            (
                &[&b"GET"[..]][..],
                &b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: upgrade\r\n\r\n"[..],
            ),
            (&[&b"CONNECT"[..]][..], &b"HTTP/1.1 200 OK\r\n\r\n"[..]),
        ] {
            let mut codec = sent(methods);
            let mut input = BytesMut::from(answer);
            input.extend_from_slice(b"\x00tunnel bytes");
            let status = if methods[0] == b"GET" { 101 } else { 200 };
            assert_eq!(
                frames(&mut codec, &mut input),
                [format!("head {status}"), "end last=true".to_string()]
            );
            // The bytes after the head are the new protocol's, left to the caller.
            assert_eq!(&input[..], b"\x00tunnel bytes");
            let call = Call::new(b"GET", b"/", &[(b"Host", b"a")], b"");
            assert!(matches!(
                codec.encode(call, &mut BytesMut::new()),
                Err(CodecError::Misuse(Misuse::NotHttp))
            ));
        }
    }

    #[test]
    fn a_body_until_close_ends_at_the_end_of_the_stream() {
        let mut codec = sent(&[b"GET"]);
        let mut input = BytesMut::from(&b"HTTP/1.1 200 OK\r\n\r\nall of it"[..]);
        assert_eq!(
            frames(&mut codec, &mut input),
            ["head 200", "body all of it"]
        );
        assert!(matches!(
            codec.decode_eof(&mut input).unwrap(),
            Some(ResponseFrame::End { last: true })
        ));
        // A Content-Length body cut short is incomplete.
        let mut codec = sent(&[b"GET"]);
        let mut input = BytesMut::from(&b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab"[..]);
        assert_eq!(frames(&mut codec, &mut input), ["head 200", "body ab"]);
        assert!(matches!(
            codec.decode_eof(&mut input),
            Err(CodecError::Incomplete)
        ));
    }
}
