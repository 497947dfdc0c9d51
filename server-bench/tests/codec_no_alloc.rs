//! `httpspan::codec::ServerCodec` makes no heap allocation per request once its buffers have
//! grown: a long pipelined stream (plain GETs, Content-Length and chunked bodies, trailers) is
//! decoded in reads of a fixed size, and every answer encoded, while a counting allocator
//! watches (the pattern of tests/tests/no_alloc.rs: `allocation-counter`, per thread).
//!
//! The reads are done as `FramedRead` does them: decode until the codec has no frame, then
//! `reserve` room and append the next read. Frames are dropped once handled, so `BytesMut`
//! reuses its buffer.

use bytes::BytesMut;
use httpspan::codec::{Reply, RequestFrame, ServerCodec};
use httpspan::Limits;
use tokio_util::codec::{Decoder, Encoder};

/// The size of one read.
const READ: usize = 4096;

/// Requests of every framing the codec handles, pipelined.
fn pipelined_stream(requests: usize) -> Vec<u8> {
    let mut wire = Vec::new();
    for i in 0..requests {
        match i % 4 {
            0 => wire.extend_from_slice(
                b"GET / HTTP/1.1\r\nHost: example.com\r\nUser-Agent: wrk\r\nAccept: */*\r\n\r\n",
            ),
            1 => wire.extend_from_slice(
                b"POST /echo HTTP/1.1\r\nHost: example.com\r\nContent-Length: 1024\r\n\r\n",
            ),
            2 => wire.extend_from_slice(
                b"POST /echo HTTP/1.1\r\nHost: example.com\r\nTransfer-Encoding: chunked\r\n\r\n\
                  5\r\nhello\r\n1a;ext=1\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nChecksum: 7\r\n\r\n",
            ),
            _ => wire.extend_from_slice(b"\r\nGET /about HTTP/1.1\r\nHost: example.com\r\n\r\n"),
        }
        if i % 4 == 1 {
            wire.extend(std::iter::repeat(b'x').take(1024));
        }
    }
    wire
}

/// Frames decoded and bytes of body and of answers seen, to check the run did its work.
#[derive(Default, Debug, PartialEq)]
struct Tally {
    heads: usize,
    body_bytes: usize,
    trailers: usize,
    answer_bytes: usize,
}

/// Decodes `wire` in reads of `READ` bytes, answering each request; returns what it saw.
fn serve(codec: &mut ServerCodec, input: &mut BytesMut, out: &mut BytesMut, wire: &[u8]) -> Tally {
    let mut tally = Tally::default();
    let headers: &[(&[u8], &[u8])] = &[(b"Content-Type", b"text/plain")];
    for read in wire.chunks(READ) {
        input.reserve(READ);
        input.extend_from_slice(read);
        while let Some(frame) = codec.decode(input).expect("valid requests") {
            match frame {
                RequestFrame::Head(head) => {
                    tally.heads += 1;
                    assert!(head.request().keep_alive());
                }
                RequestFrame::Body(data) => tally.body_bytes += data.len(),
                RequestFrame::Trailers(_) => tally.trailers += 1,
                RequestFrame::End { last } => {
                    assert!(!last);
                    let reply = Reply::new(200, headers, b"hello\n");
                    codec.encode(reply, out).expect("a valid reply");
                }
                other => panic!("a frame this test does not expect: {other:?}"),
            }
        }
        // The answers to one read go out in one write.
        tally.answer_bytes += out.len();
        out.clear();
    }
    tally
}

#[test]
fn no_allocation_per_request_once_grown() {
    let mut codec = ServerCodec::new(Limits::DEFAULT);
    let mut input = BytesMut::with_capacity(READ);
    let mut out = BytesMut::with_capacity(READ);
    // Warm up: the buffers grow to the size this traffic needs.
    let warm = serve(&mut codec, &mut input, &mut out, &pipelined_stream(400));
    assert_eq!(warm.heads, 400);

    let requests = 20_000;
    let wire = pipelined_stream(requests);
    let info = allocation_counter::measure(|| {
        let tally = serve(&mut codec, &mut input, &mut out, &wire);
        assert_eq!(
            (tally.heads, tally.trailers),
            (requests, requests / 4),
            "every request decoded"
        );
        assert_eq!(tally.body_bytes, requests / 4 * (1024 + 31));
        assert_eq!(tally.answer_bytes, requests * 70);
    });
    assert_eq!(
        info.count_total,
        0,
        "{} allocations for {requests} pipelined requests ({} bytes)",
        info.count_total,
        wire.len()
    );
}
