//! Drives `examples/tokio_server.rs` over 127.0.0.1 with pipelined, chunked, malformed and
//! byte-at-a-time clients, and reads its answers back with httpspan's response decoder.
//!
//! Every socket has a read timeout, so a server that stops answering fails the test instead of
//! hanging it.

#[path = "support/drip.rs"]
mod drip;
#[allow(dead_code)]
#[path = "../examples/tokio_server.rs"]
mod tokio_server;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::OnceLock;
use std::time::Duration;

use httpspan::stream::{Decoder, Event, DEFAULT_BUFFER_LEN};

/// How long a client waits for any answer before the test fails.
const TIMEOUT: Duration = Duration::from_secs(10);

/// The server, started once for all tests on a free port.
fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        tokio_server::start("127.0.0.1:0".parse().unwrap()).expect("the server starts")
    })
}

fn connect() -> TcpStream {
    let stream = TcpStream::connect(server()).expect("connect");
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();
    stream.set_nodelay(true).unwrap();
    stream
}

/// One answer: status and body.
#[derive(Debug, PartialEq)]
struct Answer {
    status: u16,
    body: Vec<u8>,
}

/// What the server sent until it closed the connection, decoded as responses. Fails on a
/// timeout (the server neither answered nor closed) and on anything that is not a valid
/// stream of responses.
fn answers_until_close(mut stream: TcpStream) -> Vec<Answer> {
    let mut wire = Vec::new();
    stream
        .read_to_end(&mut wire)
        .expect("the server closes the connection in time");
    decode_answers(&wire)
}

/// Reads until `n` answers are complete (the connection stays open).
fn read_answers(stream: &mut TcpStream, n: usize) -> Vec<Answer> {
    let mut wire = Vec::new();
    let mut piece = [0u8; 4096];
    loop {
        let got = decode_answers(&wire);
        if got.len() >= n {
            return got;
        }
        let len = stream.read(&mut piece).expect("an answer in time");
        assert!(len > 0, "closed after {} answers of {n}", got.len());
        wire.extend_from_slice(&piece[..len]);
    }
}

/// The complete responses at the start of `wire`.
fn decode_answers(wire: &[u8]) -> Vec<Answer> {
    let mut decoder = Decoder::for_responses(vec![0u8; DEFAULT_BUFFER_LEN]);
    let mut answers = Vec::new();
    let mut rest = wire;
    let mut current: Option<Answer> = None;
    loop {
        let (used, event) = decoder.decode(rest).expect("valid responses");
        match event {
            Event::Head => {
                let status = decoder.response().unwrap().status();
                current = Some(Answer {
                    status,
                    body: Vec::new(),
                });
            }
            Event::Body(range) => current
                .as_mut()
                .unwrap()
                .body
                .extend_from_slice(&rest[range]),
            Event::MessageEnd => answers.push(current.take().unwrap()),
            Event::NeedMore | Event::Closed => return answers,
            _ => {}
        }
        rest = &rest[used..];
    }
}

fn ok(body: &[u8]) -> Answer {
    Answer {
        status: 200,
        body: body.to_vec(),
    }
}

#[test]
fn pipelined_requests_are_answered_in_order() {
    let mut stream = connect();
    let mut wire = Vec::new();
    for i in 0..50 {
        wire.extend_from_slice(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
        let body = format!("request {i}");
        let post = format!(
            "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        wire.extend_from_slice(post.as_bytes());
    }
    wire.extend_from_slice(b"GET /nowhere HTTP/1.1\r\nHost: a\r\n\r\n");
    stream.write_all(&wire).unwrap();
    let answers = read_answers(&mut stream, 101);
    for i in 0..50 {
        assert_eq!(answers[2 * i], ok(b"hello\n"));
        assert_eq!(answers[2 * i + 1], ok(format!("request {i}").as_bytes()));
    }
    assert_eq!(answers[100].status, 404);
    // The connection is still open for more.
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n")
        .unwrap();
    assert_eq!(read_answers(&mut stream, 1), [ok(b"hello\n")]);
}

#[test]
fn chunked_bodies_are_decoded() {
    let mut stream = connect();
    let body = "x".repeat(70_000);
    let mut wire = b"POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    for piece in [&body[..10], &body[10..40_000], &body[40_000..]] {
        wire.extend_from_slice(format!("{:x};ext=1\r\n{piece}\r\n", piece.len()).as_bytes());
    }
    wire.extend_from_slice(b"0\r\nChecksum: 1\r\n\r\n");
    wire.extend_from_slice(b"PUT /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n");
    wire.extend_from_slice(b"3\r\nabc\r\n0\r\n\r\n");
    // Sent in two writes cut inside a chunk-size line.
    let cut = wire.len() - 20;
    stream.write_all(&wire[..cut]).unwrap();
    std::thread::sleep(Duration::from_millis(20));
    stream.write_all(&wire[cut..]).unwrap();
    assert_eq!(
        read_answers(&mut stream, 2),
        [ok(body.as_bytes()), ok(b"abc")]
    );
}

#[test]
fn byte_at_a_time_clients_are_answered() {
    let mut stream = connect();
    let wire = b"\r\nPOST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\
                 2\r\nhi\r\n0\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n";
    for byte in wire {
        stream.write_all(&[*byte]).unwrap();
        std::thread::sleep(Duration::from_micros(200));
    }
    assert_eq!(answers_until_close(stream), [ok(b"hi"), ok(b"hello\n")]);
}

#[test]
fn malformed_requests_get_their_status_and_close() {
    let cases: &[(&[u8], u16)] = &[
        (b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        (b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", 400),
        (b"GET / HTTP/1.1\r\nHost: a\r\nX: a\r\n b\r\n\r\n", 400),
        (b"GET / HTTP/1.1\nHost: a\n\n", 400),
        (b"GET / HTTP/1.1\r\nHost: a\r\nX\x01Y: 1\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nHost: a\r\nX: a\x00b\r\n\r\n", 400),
        (b"POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000000\r\n", 400),
        (b"GET / HTTP/1.1\r\n\r\n", 400),
        (b"GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505),
        (b"POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 2000000\r\n\r\n", 413),
    ];
    for (wire, status) in cases {
        let mut stream = connect();
        // A valid request first: the error must not take its answer with it.
        stream
            .write_all(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n")
            .unwrap();
        stream.write_all(wire).unwrap();
        // Bytes after the error must not be read as a request.
        let _ = stream.write_all(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
        let answers = answers_until_close(stream);
        let statuses: Vec<u16> = answers.iter().map(|a| a.status).collect();
        assert_eq!(
            statuses,
            [200, *status],
            "{}",
            String::from_utf8_lossy(wire)
        );
    }
}

#[test]
fn a_request_cut_short_gets_no_answer() {
    let mut stream = connect();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: a\r\n\r\nPOST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nab")
        .unwrap();
    stream.shutdown(std::net::Shutdown::Write).unwrap();
    assert_eq!(answers_until_close(stream), [ok(b"hello\n")]);
}

#[test]
fn http_1_0_closes_unless_asked_to_keep_alive() {
    let mut stream = connect();
    stream
        .write_all(b"GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET / HTTP/1.0\r\n\r\nGET / HTTP/1.0\r\n\r\n")
        .unwrap();
    assert_eq!(
        answers_until_close(stream),
        [ok(b"hello\n"), ok(b"hello\n")]
    );
}

/// The deadlines of the server [`short_server`] runs with.
const SHORT: Duration = Duration::from_millis(600);

/// A second server whose deadlines are all [`SHORT`].
fn short_server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        let settings = tokio_server::settings::Settings::all(SHORT);
        tokio_server::start_with("127.0.0.1:0".parse().unwrap(), settings)
            .expect("the server starts")
    })
}

/// [`drip::time_to_close`] against the short server.
fn time_to_close(prefix: &[u8], drip: &[u8], every: Duration) -> Option<Duration> {
    drip::time_to_close(short_server(), prefix, drip, every)
}

/// Whether `took` is the short deadline, give or take the drip's pace and a busy machine.
fn within_deadline(took: Option<Duration>) -> bool {
    took.is_some_and(|t| t >= SHORT.mul_f32(0.8) && t < SHORT * 5)
}

/// A head sent a byte at a time is cut at the head deadline, however steady the bytes are.
#[test]
fn a_slow_head_is_closed_at_the_head_deadline() {
    let drip = b"GET / HTTP/1.1\r\nHost: a\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n";
    let took = time_to_close(b"", drip, Duration::from_millis(50));
    assert!(within_deadline(took), "{took:?}");
}

/// A kept-alive connection that sends no new request is closed at the head deadline.
#[test]
fn an_idle_connection_is_closed_at_the_head_deadline() {
    let took = time_to_close(
        b"GET / HTTP/1.1\r\nHost: a\r\n\r\n",
        b"",
        Duration::from_millis(50),
    );
    assert!(within_deadline(took), "{took:?}");
}

/// A body that brings less than 1 KiB in a window is cut at the window's end.
#[test]
fn a_slow_body_is_closed_at_the_body_deadline() {
    let head = b"POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\n";
    let took = time_to_close(head, &[b'x'; 200], Duration::from_millis(50));
    assert!(within_deadline(took), "{took:?}");
}

/// A body that keeps coming is not cut, however long it takes.
#[test]
fn a_body_that_keeps_moving_is_not_cut() {
    let mut stream = connect_to(short_server());
    let body = vec![b'y'; 40 * 1024];
    let head = format!(
        "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    // 2 KiB every 100 ms: 2 s in all, past three body windows.
    for piece in body.chunks(2048) {
        stream.write_all(piece).unwrap();
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(read_answers(&mut stream, 1), [ok(&body)]);
}

/// A client that sends requests and never reads their answers is closed at the write
/// deadline, not held for ever.
#[test]
fn a_client_that_never_reads_is_closed_at_the_write_deadline() {
    let mut stream = TcpStream::connect(short_server()).unwrap();
    stream
        .set_write_timeout(Some(Duration::from_secs(2)))
        .unwrap();
    let wire = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n".repeat(200_000);
    // Blocks once both sides' buffers are full; the server then stops reading.
    let _ = stream.write_all(&wire);
    std::thread::sleep(SHORT * 2);
    // What the kernel holds for us, then the close: a server still writing would keep
    // sending answers after the buffers drain and never close.
    stream.set_read_timeout(Some(SHORT * 4)).unwrap();
    let mut sink = vec![0u8; 1 << 16];
    let closed = loop {
        match stream.read(&mut sink) {
            Ok(0) => break true,
            Ok(_) => {}
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                break false
            }
            Err(_) => break true,
        }
    };
    assert!(closed, "the connection is still open");
}

/// After an error's answer, a client that keeps sending is read for the lingering time only:
/// the server's side closes (our writes then fail) within it.
#[test]
fn lingering_after_an_error_is_bounded() {
    let mut stream = TcpStream::connect(short_server()).unwrap();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: a\r\nX\x01: 1\r\n\r\n")
        .unwrap();
    let start = std::time::Instant::now();
    let took = loop {
        // The server shuts its side for writing at once; only a write notices the full close.
        if stream.write_all(b"z").is_err() {
            break Some(start.elapsed());
        }
        if start.elapsed() > Duration::from_secs(5) {
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(within_deadline(took), "{took:?}");
}

fn connect_to(addr: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();
    stream.set_nodelay(true).unwrap();
    stream
}
