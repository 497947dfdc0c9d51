//! The tokio codecs fed in fuzzer-chosen reads: `ServerCodec` (requests) or `ClientCodec`
//! (responses, after requests whose methods the config byte picks) never panic, always make
//! progress, and give the same frames (body data joined) all at once as in the fuzzer's
//! pieces. Some piece bytes shrink the read buffer instead: the codec must then answer with an
//! error or go on, never panic.
//!
//! Input: a config byte (bit 0: responses; bits 1-2: the method of the requests sent first:
//! GET, HEAD, CONNECT or POST; bit 3: small limits), a count byte, that many piece bytes (below
//! 224 a read of that length, from 224 a shrink of the buffer by 1 to 32 bytes), then the
//! stream.
#![no_main]

use bytes::BytesMut;
use httpspan::codec::{Call, ClientCodec, CodecError, RequestFrame, ResponseFrame, ServerCodec};
use httpspan::Limits;
use libfuzzer_sys::fuzz_target;
use tokio_util::codec::{Decoder, Encoder};

/// A frame as text, body data as its bytes.
#[derive(Debug, PartialEq)]
enum Seen {
    Head(Vec<u8>),
    Interim(Vec<u8>),
    Body(Vec<u8>),
    Trailers(Vec<u8>),
    End(bool),
    Error(String),
}

/// One side's codec behind one interface.
enum Codec {
    Server(ServerCodec),
    Client(ClientCodec),
}

impl Codec {
    fn new(response: bool, method: &'static [u8], limits: Limits) -> Codec {
        if !response {
            return Codec::Server(ServerCodec::new(limits));
        }
        let mut client = ClientCodec::new(limits);
        let mut sink = BytesMut::new();
        for _ in 0..3 {
            let call = Call::new(method, if method == b"CONNECT" { b"a:1" } else { b"/" }, &[(b"Host", b"a")], b"");
            client.encode(call, &mut sink).expect("a valid request");
        }
        Codec::Client(client)
    }

    /// The next frame; `eof` when the stream has ended.
    fn next(&mut self, src: &mut BytesMut, eof: bool) -> Result<Option<Seen>, CodecError> {
        Ok(match self {
            Codec::Server(c) => {
                let frame = if eof { c.decode_eof(src)? } else { c.decode(src)? };
                frame.map(|f| match f {
                    RequestFrame::Head(h) => Seen::Head(h.bytes().to_vec()),
                    RequestFrame::Body(d) => Seen::Body(d.to_vec()),
                    RequestFrame::Trailers(t) => Seen::Trailers(t.bytes().to_vec()),
                    RequestFrame::End { last } => Seen::End(last),
                    other => unreachable!("a frame this target does not know: {other:?}"),
                })
            }
            Codec::Client(c) => {
                let frame = if eof { c.decode_eof(src)? } else { c.decode(src)? };
                frame.map(|f| match f {
                    ResponseFrame::Interim(h) => Seen::Interim(h.bytes().to_vec()),
                    ResponseFrame::Head(h) => Seen::Head(h.bytes().to_vec()),
                    ResponseFrame::Body(d) => Seen::Body(d.to_vec()),
                    ResponseFrame::Trailers(t) => Seen::Trailers(t.bytes().to_vec()),
                    ResponseFrame::End { last } => Seen::End(last),
                    other => unreachable!("a frame this target does not know: {other:?}"),
                })
            }
        })
    }
}

/// A read or a shrink of the read buffer.
enum Step {
    Read(usize),
    Shrink(usize),
}

/// Decodes `stream` in `steps` (then the rest, then the end of the stream) and returns the
/// frames, body data joined, ending with the error if there is one.
fn run(mut codec: Codec, stream: &[u8], steps: &[Step]) -> Vec<Seen> {
    let mut seen: Vec<Seen> = Vec::new();
    let mut src = BytesMut::new();
    let mut at = 0;
    let rest = [Step::Read(stream.len())];
    let push = |seen: &mut Vec<Seen>, s: Seen| match (seen.last_mut(), s) {
        (Some(Seen::Body(joined)), Seen::Body(data)) => joined.extend_from_slice(&data),
        (_, s) => seen.push(s),
    };
    for step in steps.iter().chain(&rest) {
        match *step {
            Step::Read(n) => {
                let n = n.min(stream.len() - at);
                src.extend_from_slice(&stream[at..at + n]);
                at += n;
            }
            Step::Shrink(n) => src.truncate(src.len().saturating_sub(n)),
        }
        // Each frame takes at least one byte or ends a message; a stream of n bytes has at
        // most a few frames per byte.
        for _ in 0..=4 * stream.len() + 8 {
            match codec.next(&mut src, false) {
                Ok(Some(s)) => push(&mut seen, s),
                Ok(None) => break,
                Err(e) => {
                    seen.push(Seen::Error(e.to_string()));
                    return seen;
                }
            }
        }
    }
    for _ in 0..=4 * stream.len() + 8 {
        match codec.next(&mut src, true) {
            Ok(Some(s)) => push(&mut seen, s),
            Ok(None) => return seen,
            Err(e) => {
                seen.push(Seen::Error(e.to_string()));
                return seen;
            }
        }
    }
    panic!("decode_eof keeps giving frames");
}

fuzz_target!(|data: &[u8]| {
    let [config, count, rest @ ..] = data else {
        return;
    };
    let count = (*count as usize).min(rest.len());
    let (pieces, stream) = rest.split_at(count);
    let response = config & 1 == 1;
    let method: &'static [u8] = match (config >> 1) & 3 {
        0 => b"GET",
        1 => b"HEAD",
        2 => b"CONNECT",
        _ => b"POST",
    };
    let limits = match config & 8 {
        0 => Limits::DEFAULT,
        _ => {
            let mut limits = Limits::DEFAULT;
            limits.max_head_bytes = 64;
            limits.max_trailer_bytes = 32;
            limits.max_field_lines = 4;
            limits.max_body_bytes = Some(100);
            limits
        }
    };
    let steps: Vec<Step> = pieces
        .iter()
        .map(|&b| match b {
            0..=223 => Step::Read(b as usize),
            _ => Step::Shrink(b as usize - 223),
        })
        .collect();
    let shrinks = steps.iter().any(|s| matches!(s, Step::Shrink(_)));
    let cut = run(Codec::new(response, method, limits), stream, &steps);
    if !shrinks {
        let whole = run(Codec::new(response, method, limits), stream, &[]);
        assert_eq!(cut, whole, "frames depend on the cuts");
    }
});
