//! httpspan never allocates: every conformance vector is parsed, read and decoded while a
//! counting global allocator watches, and the count must be exactly zero.
//!
//! The counting allocator is `allocation-counter`'s (the workspace forbids the `unsafe` that
//! implementing `GlobalAlloc` needs). It counts per thread, so the test harness and tests
//! running in parallel on other threads never add to a measurement.
//!
//! Each case runs with the lenient options it names, and once more with every option on.
//!
//! The tokio codecs (`ServerCodec`, `ClientCodec`) are counted too: decoding pipelined
//! messages and encoding whole and streamed ones, once their buffers have grown.
//!
//! The vectors are read from `tests/vectors`, or from the directory named by the
//! `CONFORMANCE_VECTORS` environment variable. A missing or empty directory fails the test.

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::PathBuf;

use tokio_util::codec::{Decoder as _, Encoder as _};

use bytes::BytesMut;
use conformance::{every_option, load_dir, Case};
use httpspan::codec::{
    BodyLength, BodyPart, Call, CallHead, ClientCodec, Reply, ReplyHead, RequestFrame,
    ResponseFrame, ServerCodec,
};
use httpspan::stream::{Decoder, Event, MessageKind, DEFAULT_BUFFER_LEN};
use httpspan::{
    Chunk, ChunkedDecoder, Error, KnownHeader, Limits, Request, Response, Status, Trailers,
};

/// Heap allocations made by this thread while `f` runs, and its result.
fn count<R>(f: impl FnOnce() -> R) -> (u64, R) {
    // The backend is chosen at the process's first parse, reading HTTPSPAN_BACKEND (which
    // allocates when it is set): choose it before counting, whichever test parses first.
    std::hint::black_box(httpspan::backend_name());
    let mut result = None;
    let info = allocation_counter::measure(|| result = Some(f()));
    (info.count_total, result.expect("the closure ran"))
}

fn vectors_dir() -> PathBuf {
    match std::env::var_os("CONFORMANCE_VECTORS") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("vectors"),
    }
}

/// A `fmt::Write` into a fixed array, so that formatting can be checked without a heap.
struct StackWriter {
    buf: [u8; 256],
    len: usize,
}

impl std::fmt::Write for StackWriter {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = (self.len + s.len()).min(self.buf.len());
        self.buf[self.len..end].copy_from_slice(&s.as_bytes()[..end - self.len]);
        self.len = end;
        Ok(())
    }
}

/// Uses every part of an error, its `Display` included.
fn read_error(e: &Error) {
    black_box((e.kind(), e.offset(), e.status(), e.rfc(), e.message()));
    black_box(e.kind().code());
    let mut w = StackWriter {
        buf: [0; 256],
        len: 0,
    };
    let _ = write!(w, "{e}");
    black_box(&w.buf[..w.len]);
}

/// Reads a value the way a caller does when obs-folds may be in it.
fn read_value(value: &[u8]) {
    for piece in httpspan::unfold(value) {
        black_box(piece);
    }
}

fn read_request(req: &Request, buf: &[u8]) {
    black_box((req.method().as_bytes(buf), req.target().as_bytes(buf)));
    black_box((req.version(), req.is_complete(), req.known_bitmap()));
    black_box((req.content_length(), req.is_chunked(), req.keep_alive()));
    black_box(req.framing());
    for f in req.fields() {
        let name = f.name.as_bytes(buf);
        black_box((name, f.value.as_bytes(buf), f.known()));
        read_value(f.value.as_bytes(buf));
        black_box(req.find(buf, name));
    }
    for &known in KnownHeader::ALL {
        black_box((req.value(known), req.known_index(known)));
        black_box(req.find(buf, known.name().as_bytes()));
    }
    black_box(req.find(buf, b"x-surely-absent"));
}

fn read_response(res: &Response, buf: &[u8]) {
    black_box((res.status(), res.reason().as_bytes(buf), res.version()));
    black_box((res.is_complete(), res.known_bitmap(), res.is_interim()));
    black_box((res.content_length(), res.is_chunked(), res.keep_alive()));
    black_box((res.framing(), res.switches_protocols()));
    for f in res.fields() {
        let name = f.name.as_bytes(buf);
        black_box((name, f.value.as_bytes(buf), f.known()));
        read_value(f.value.as_bytes(buf));
        black_box(res.find(buf, name));
    }
    for &known in KnownHeader::ALL {
        black_box((res.value(known), res.known_index(known)));
        black_box(res.find(buf, known.name().as_bytes()));
    }
    black_box(res.find(buf, b"x-surely-absent"));
}

fn read_trailers(trailers: &Trailers, buf: &[u8]) {
    black_box((trailers.is_complete(), trailers.known_bitmap()));
    for f in trailers.fields() {
        let name = f.name.as_bytes(buf);
        black_box((name, f.value.as_bytes(buf), f.known()));
        read_value(f.value.as_bytes(buf));
        black_box(trailers.find(buf, name));
    }
    for &known in KnownHeader::ALL {
        black_box((trailers.value(known), trailers.known_index(known)));
    }
}

/// What `first_head` does with a request or response parser.
trait HeadParser {
    fn parse(&mut self, buf: &[u8]) -> Result<Status, Error>;
    fn reset(&mut self);
    /// Reads every accessor.
    fn read(&self, buf: &[u8]);
}

impl HeadParser for Request {
    fn parse(&mut self, buf: &[u8]) -> Result<Status, Error> {
        Request::parse(self, buf)
    }
    fn reset(&mut self) {
        Request::reset(self)
    }
    fn read(&self, buf: &[u8]) {
        read_request(self, buf)
    }
}

impl HeadParser for Response {
    fn parse(&mut self, buf: &[u8]) -> Result<Status, Error> {
        Response::parse(self, buf)
    }
    fn reset(&mut self) {
        Response::reset(self)
    }
    fn read(&self, buf: &[u8]) {
        read_response(self, buf)
    }
}

/// Parses the first head of `input` in one call, then again resumed over every prefix, and
/// reads every accessor.
fn first_head(case: &Case, limits: &Limits) {
    match case.kind {
        MessageKind::Request => first_head_with(|| Request::with_limits(*limits), &case.input),
        MessageKind::Response => {
            let method = case.request_methods.first().map_or(&b"GET"[..], |m| m);
            let fresh = || {
                let mut res = Response::with_limits(*limits);
                res.set_request_method(method);
                res
            };
            first_head_with(fresh, &case.input)
        }
    }
}

fn first_head_with<P: HeadParser>(fresh: impl Fn() -> P, input: &[u8]) {
    let mut parser = fresh();
    match parser.parse(input) {
        Ok(_) => parser.read(input),
        Err(e) => read_error(&e),
    }
    let mut parser = fresh();
    for end in 0..=input.len() {
        match parser.parse(&input[..end]) {
            Ok(Status::Partial) => {}
            Ok(Status::Complete { .. }) => {
                parser.read(input);
                break;
            }
            Err(e) => {
                read_error(&e);
                break;
            }
        }
    }
    parser.reset();
    black_box(parser.parse(input).is_ok());
}

/// Decodes the chunked body that starts at `input[start..]` with a `ChunkedDecoder`, then
/// parses its trailer section (in one call, and resumed byte by byte).
fn chunked_body(input: &[u8], start: usize, limits: &Limits) {
    let mut decoder = ChunkedDecoder::new();
    let mut pos = start;
    loop {
        match decoder.decode(&input[pos..], limits) {
            Ok((used, Chunk::Data(range))) => {
                black_box(&input[pos..][range]);
                pos += used;
            }
            Ok((used, Chunk::TrailerSection)) => {
                pos += used;
                break;
            }
            Ok((_, Chunk::NeedMore)) => return,
            Ok((_, other)) => panic!("unexpected {other:?}"),
            Err(e) => {
                read_error(&e);
                return;
            }
        }
    }
    black_box(decoder.is_done());
    let section = &input[pos..];
    let mut trailers = Trailers::with_limits(*limits);
    match trailers.parse(section) {
        Ok(_) => read_trailers(&trailers, section),
        Err(e) => read_error(&e),
    }
    let mut trailers = Trailers::with_limits(*limits);
    for end in 0..=section.len() {
        match trailers.parse(&section[..end]) {
            Ok(Status::Partial) => {}
            Ok(Status::Complete { .. }) => {
                read_trailers(&trailers, section);
                break;
            }
            Err(e) => {
                read_error(&e);
                break;
            }
        }
    }
}

/// Runs the whole input through a `stream::Decoder` over `buf`, in pieces of `step` bytes,
/// reading every head and trailer section, and decoding each chunked body on its own too.
fn stream(case: &Case, limits: &Limits, buf: &mut [u8], step: usize) {
    let input = &case.input[..];
    let method_for = |n: usize| case.request_methods.get(n).map_or(&b"GET"[..], |m| &m[..]);
    let mut decoder = Decoder::new(case.kind, buf, *limits);
    decoder.set_request_method(method_for(0));
    let mut finals = 0;
    let mut interim = false;
    let mut offset = 0;
    'pieces: while offset < input.len() {
        let end = (offset + step).min(input.len());
        let mut rest = &input[offset..end];
        let mut base = offset;
        offset = end;
        loop {
            let (used, event) = match decoder.decode(rest) {
                Ok(step) => step,
                Err(e) => {
                    read_error(&e);
                    return;
                }
            };
            match &event {
                Event::Head => {
                    let head = decoder.head_bytes();
                    if let Some(req) = decoder.request() {
                        read_request(req, head);
                    }
                    if let Some(res) = decoder.response() {
                        read_response(res, head);
                        interim = res.is_interim();
                    }
                    let chunked = decoder.request().is_some_and(|r| r.is_chunked())
                        || decoder.response().is_some_and(|r| r.is_chunked());
                    if chunked {
                        chunked_body(input, base + used, limits);
                    }
                }
                Event::Body(range) => {
                    black_box(&rest[range.clone()]);
                }
                Event::Trailers => read_trailers(decoder.trailers(), decoder.trailer_bytes()),
                Event::MessageEnd => {
                    if !interim {
                        finals += 1;
                        decoder.set_request_method(method_for(finals));
                    }
                }
                Event::NeedMore => continue 'pieces,
                Event::Closed => break 'pieces,
                Event::Incomplete => unreachable!("decode never returns Incomplete"),
                other => panic!("unexpected event {other:?}"),
            }
            black_box((decoder.position(), decoder.message_offset()));
            black_box(decoder.trailer_offset());
            rest = &rest[used..];
            base += used;
        }
    }
    loop {
        match decoder.finish() {
            Ok(Event::MessageEnd) => {}
            Ok(_) => return,
            Err(e) => {
                read_error(&e);
                return;
            }
        }
    }
}

#[test]
fn the_counter_sees_an_allocation() {
    let (n, v) = count(|| black_box(Vec::<u8>::with_capacity(1)));
    assert_eq!(n, 1, "Vec::with_capacity(1) inside the counted region");
    drop(v);
    let (n, ()) = count(|| {});
    assert_eq!(n, 0, "an empty region");
    // A parse that builds a String on the side is caught too.
    let (n, ()) = count(|| {
        let mut req = Request::new();
        let buf = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
        let _ = req.parse(buf);
        black_box(format!("{:?}", req.method()));
    });
    assert!(n >= 1, "format! inside the counted region was not counted");
}

#[test]
fn parsing_every_vector_allocates_nothing() {
    let dir = vectors_dir();
    assert!(
        dir.is_dir(),
        "no conformance vectors: {} is not a directory (set CONFORMANCE_VECTORS to another)",
        dir.display()
    );
    let loaded = load_dir(&dir);
    let mut problems = Vec::new();
    let mut cases = Vec::new();
    for item in loaded {
        match item {
            Ok(case) => cases.push(case),
            Err(p) => problems.push(format!("{}: {}", p.id, p.message)),
        }
    }
    assert!(
        problems.is_empty(),
        "vectors that could not be read:\n{}",
        problems.join("\n")
    );
    assert!(
        !cases.is_empty(),
        "no conformance vectors: no *.jsonl case under {}",
        dir.display()
    );
    // The counter must be live here too, or a count of zero would prove nothing.
    assert_eq!(count(|| black_box(Box::new(7u8))).0, 1);

    // Allocated before any counting starts: the decoder's buffer for heads and trailers.
    let mut buf = vec![0u8; DEFAULT_BUFFER_LEN];
    let mut failures = Vec::new();
    let mut all_options = Limits::DEFAULT;
    all_options.lenient = every_option();
    for case in &cases {
        for (limits, which) in [
            (case.limits(), "its options"),
            (all_options, "every option"),
        ] {
            let (head, ()) = count(|| first_head(case, &limits));
            let (whole, ()) = count(|| stream(case, &limits, &mut buf, case.input.len().max(1)));
            let (bytewise, ()) = count(|| stream(case, &limits, &mut buf, 1));
            if head + whole + bytewise != 0 {
                failures.push(format!(
                    "{} with {which}: {head} allocation(s) parsing the first head, {whole} \
                     decoding the stream all at once, {bytewise} byte by byte",
                    case.id
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} vectors allocated; the first of them:\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

/// Writes a minimal response, an event-stream head with chunks, a JSON response with six
/// fields, a request, and every refusal, into stack buffers; reads each back.
fn write_messages() {
    use httpspan::{
        is_field_value, is_request_target, is_token, write_chunk, RequestWriter, ResponseWriter,
        Version, WriteError, LAST_CHUNK,
    };
    let mut buf = [0u8; 512];
    let res = ResponseWriter::new(&mut buf, 200).unwrap();
    let len = res.body(b"").unwrap();
    black_box(Response::new().parse(&buf[..len]).unwrap());

    let mut res = ResponseWriter::new(&mut buf, 200).unwrap();
    res.header(b"Content-Type", b"text/event-stream").unwrap();
    res.header(b"Cache-Control", b"no-cache")
        .unwrap()
        .chunked()
        .unwrap();
    let mut len = res.finish().unwrap();
    len += write_chunk(&mut buf[len..], b"data: 1\n\n").unwrap();
    buf[len..len + LAST_CHUNK.len()].copy_from_slice(LAST_CHUNK);
    black_box(Response::new().parse(&buf[..len]).unwrap());

    let mut res = ResponseWriter::with_reason(&mut buf, Version::Http11, 201, b"Made").unwrap();
    for (name, value) in [
        (&b"Content-Type"[..], &b"application/json"[..]),
        (b"Cache-Control", b"no-store"),
        (b"X-Request-Id", b"f3a1c9"),
        (b"Vary", b"Accept-Encoding"),
        (b"Connection", b"keep-alive"),
    ] {
        res.header(name, value).unwrap();
    }
    res.header_u64(b"Age", u64::MAX).unwrap();
    let len = res.body(b"{\"id\":7}").unwrap();
    black_box(Response::new().parse(&buf[..len]).unwrap());

    let mut req = RequestWriter::new(&mut buf, b"POST", b"/v1/items?x=%20").unwrap();
    req.header(b"Host", b"api.example.com:8443").unwrap();
    let len = req.body(b"{}").unwrap();
    black_box(Request::new().parse(&buf[..len]).unwrap());

    let mut refusals = [WriteError::FramingField; 6];
    let mut res = ResponseWriter::new(&mut buf, 204).unwrap();
    refusals[0] = res.header(b"X", b"a\r\nb").unwrap_err();
    refusals[1] = res.header(b"Content-Length", b"1").unwrap_err();
    refusals[2] = res.content_length(1).unwrap_err();
    refusals[3] = ResponseWriter::new(&mut [0u8; 4], 200).unwrap_err();
    refusals[4] = RequestWriter::new(&mut buf, b"GET", b"/#x").unwrap_err();
    refusals[5] = RequestWriter::new(&mut buf, b"GET", b"/")
        .unwrap()
        .finish()
        .unwrap_err();
    for e in refusals {
        let mut w = StackWriter {
            buf: [0; 256],
            len: 0,
        };
        let _ = write!(w, "{e}");
        black_box(&w.buf[..w.len]);
    }
    black_box((is_token(b"X-Id"), is_field_value(b"a b")));
    black_box(is_request_target(b"GET", b"http://[::1]:80/a?b"));
}

#[test]
fn writing_allocates_nothing() {
    assert_eq!(
        count(|| black_box(Box::new(7u8))).0,
        1,
        "the counter is live"
    );
    let (n, ()) = count(write_messages);
    assert_eq!(n, 0, "the writers allocated {n} times");
}

/// The codecs: how many messages each round sends and reads, as many as a client may pipeline.
const CODEC_MESSAGES: usize = httpspan::codec::MAX_PIPELINED;

/// Requests of every framing, pipelined, as `ClientCodec` writes them (whole and streamed),
/// appended to `out`.
fn client_writes(codec: &mut ClientCodec, out: &mut BytesMut) {
    let host: &[(&[u8], &[u8])] = &[(b"Host", b"example.com"), (b"Accept", b"*/*")];
    for i in 0..CODEC_MESSAGES {
        let method: &[u8] = if i % 4 == 3 { b"HEAD" } else { b"GET" };
        match i % 2 {
            0 => {
                let call = Call::new(method, b"/a", host, b"");
                codec.encode(call, out).unwrap();
            }
            _ => {
                let head = CallHead::new(b"POST", b"/upload", host, BodyLength::Chunked);
                codec.encode(head, out).unwrap();
                codec.encode(BodyPart::Data(b"hello"), out).unwrap();
                codec.encode(BodyPart::Data(&[b'x'; 300]), out).unwrap();
                codec
                    .encode(BodyPart::Trailers(&[(b"Checksum", b"7")]), out)
                    .unwrap();
                codec.encode(BodyPart::End, out).unwrap();
            }
        }
    }
}

/// Answers, as `ServerCodec` writes them (whole and streamed), to the requests read from
/// `input` in reads of `read` bytes; returns the requests read.
fn server_round(
    codec: &mut ServerCodec,
    wire: &[u8],
    input: &mut BytesMut,
    out: &mut BytesMut,
    read: usize,
) -> usize {
    let headers: &[(&[u8], &[u8])] = &[(b"Content-Type", b"text/plain")];
    let mut requests = 0;
    let mut head_only = false;
    for piece in wire.chunks(read) {
        input.reserve(read);
        input.extend_from_slice(piece);
        while let Some(frame) = codec.decode(input).unwrap() {
            match frame {
                RequestFrame::Head(head) => {
                    let req = head.request();
                    head_only = head.bytes_of(req.method()) == b"HEAD";
                    black_box(head.expects_continue());
                }
                RequestFrame::Body(data) => {
                    black_box(&data[..]);
                }
                RequestFrame::Trailers(section) => {
                    black_box(section.trailers().fields().len());
                }
                RequestFrame::End { .. } => {
                    requests += 1;
                    if requests % 2 == 0 {
                        let hints = ReplyHead::new(
                            103,
                            &[(b"Link", b"</a.css>; rel=preload")],
                            BodyLength::Fixed(0),
                        );
                        codec.encode(hints, out).unwrap();
                        let reply = Reply::new(200, headers, b"hello\n").head_only(head_only);
                        codec.encode(reply, out).unwrap();
                    } else {
                        let head =
                            ReplyHead::new(200, headers, BodyLength::Chunked).head_only(head_only);
                        codec.encode(head, out).unwrap();
                        codec.encode(BodyPart::Data(b"streamed"), out).unwrap();
                        codec.encode(BodyPart::End, out).unwrap();
                    }
                }
                other => panic!("a frame this test does not expect: {other:?}"),
            }
        }
    }
    requests
}

/// Reads the answers in `wire` with `codec` in reads of `read` bytes; returns the final
/// answers read.
fn client_reads(codec: &mut ClientCodec, wire: &[u8], input: &mut BytesMut, read: usize) -> usize {
    let mut answers = 0;
    for piece in wire.chunks(read) {
        input.reserve(read);
        input.extend_from_slice(piece);
        while let Some(frame) = codec.decode(input).unwrap() {
            match frame {
                ResponseFrame::Interim(head) | ResponseFrame::Head(head) => {
                    black_box(head.response().status());
                }
                ResponseFrame::Body(data) => {
                    black_box(&data[..]);
                }
                ResponseFrame::Trailers(section) => {
                    black_box(section.bytes_of(section.trailers().fields()[0].value));
                }
                ResponseFrame::End { last } => {
                    assert!(!last);
                    answers += 1;
                }
                other => panic!("a frame this test does not expect: {other:?}"),
            }
        }
    }
    answers
}

/// One round trip of `CODEC_MESSAGES` pipelined messages through both codecs, with buffers
/// kept from round to round (as a connection keeps them).
struct CodecRound {
    client: ClientCodec,
    server: ServerCodec,
    requests: BytesMut,
    answers: BytesMut,
    server_input: BytesMut,
    client_input: BytesMut,
}

impl CodecRound {
    fn run(&mut self, read: usize) {
        self.requests.clear();
        self.answers.clear();
        client_writes(&mut self.client, &mut self.requests);
        let wire = self.requests.split().freeze();
        let served = server_round(
            &mut self.server,
            &wire,
            &mut self.server_input,
            &mut self.answers,
            read,
        );
        assert_eq!(served, CODEC_MESSAGES);
        drop(wire);
        let answers = self.answers.split().freeze();
        let read_back = client_reads(&mut self.client, &answers, &mut self.client_input, read);
        assert_eq!(read_back, CODEC_MESSAGES);
        drop(answers);
    }
}

#[test]
fn codecs_allocate_nothing_until_they_read() {
    let (n, codecs) = count(|| {
        let server = ServerCodec::new(Limits::DEFAULT);
        let client = ClientCodec::new(Limits::DEFAULT);
        black_box((server, client))
    });
    assert_eq!(n, 0, "{n} allocations to create the codecs");
    // Their head buffers come with the first byte to decode.
    let (mut server, _) = codecs;
    let mut input = BytesMut::from(&b"G"[..]);
    let (n, frame) = count(|| server.decode(&mut input).unwrap().is_none());
    assert!(frame);
    assert_eq!(n, 1, "the head buffer, allocated once");
}

#[test]
fn codecs_allocate_nothing_per_message_once_grown() {
    let mut round = CodecRound {
        client: ClientCodec::new(Limits::DEFAULT),
        server: ServerCodec::new(Limits::DEFAULT),
        requests: BytesMut::new(),
        answers: BytesMut::new(),
        server_input: BytesMut::new(),
        client_input: BytesMut::new(),
    };
    // The first round allocates the buffers (and the decoders' head buffers): the counter sees
    // the codecs' allocations.
    let (first, ()) = count(|| round.run(4096));
    assert!(first > 0);
    for read in [4096, 1000, 7] {
        // Warm-up: the buffers grow to what this traffic needs.
        round.run(read);
        round.run(read);
        let (n, ()) = count(|| (0..10).for_each(|_| round.run(read)));
        assert_eq!(
            n, 0,
            "{n} allocations for 10 rounds of {CODEC_MESSAGES} messages each way in reads of {read} bytes"
        );
    }
}
