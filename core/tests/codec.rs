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
            let host = head.get(req.get(KnownHeader::Host).unwrap());
            assert_eq!(&head.slice(req.target())[..], head.get(req.target()));
            format!(
                "head {} {} host={}",
                String::from_utf8_lossy(head.get(req.method())),
                String::from_utf8_lossy(head.get(req.target())),
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
