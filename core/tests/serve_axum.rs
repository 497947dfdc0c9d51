//! An axum `Router` served by `httpspan::serve::serve_connection` over 127.0.0.1, driven by
//! raw std clients: a GET, a chunked request body echoed back while it streams, a streamed
//! response, HEAD, keep-alive and pipelining, trailers both ways, 100-continue and a malformed
//! request.
//!
//! Every socket has a read timeout, so a server that stops answering fails the test instead of
//! hanging it.

use std::convert::Infallible;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::pin::Pin;
use std::sync::OnceLock;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::routing::{get, post};
use axum::Router;
use http_body::Frame;
use httpspan::serve::{serve_connection, Options};
use httpspan::stream::{Decoder, Event, DEFAULT_BUFFER_LEN};

/// How long a client waits for any answer before the test fails.
const TIMEOUT: Duration = Duration::from_secs(10);

/// A response body of three data frames and two trailer fields (one not allowed there), of
/// unknown length.
struct Countdown {
    left: u8,
}

impl http_body::Body for Countdown {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let frame = match self.left {
            0 => return Poll::Ready(None),
            1 => {
                let mut trailers = http::HeaderMap::new();
                trailers.insert("x-count", http::HeaderValue::from_static("3"));
                // A field a trailer section may not carry (RFC 9110 6.5.1), which is dropped.
                trailers.insert("content-type", http::HeaderValue::from_static("text/html"));
                Frame::trailers(trailers)
            }
            n => Frame::data(Bytes::from(format!("{}...", n - 1))),
        };
        self.left -= 1;
        Poll::Ready(Some(Ok(frame)))
    }
}

fn app() -> Router {
    Router::new()
        .route("/", get(|| async { "hello" }))
        .route("/echo", post(|body: Body| async move { body }))
        .route(
            "/countdown",
            get(|| async { Body::new(Countdown { left: 4 }) }),
        )
        .route(
            "/headers",
            get(|req: http::Request<Body>| async move {
                let names = req.extensions().get::<httpspan::to_http::OriginalNames>();
                let names: Vec<String> = names
                    .into_iter()
                    .flat_map(|n| n.iter())
                    .map(|n| String::from_utf8_lossy(n).into_owned())
                    .collect();
                names.join(",")
            }),
        )
}

/// The server, started once for all tests on a free port, on its own thread and runtime.
fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                let app = app();
                loop {
                    let (socket, _) = listener.accept().await.unwrap();
                    let app = app.clone();
                    // `tokio::spawn` needs a `Send` future: users spawn it the same way.
                    tokio::spawn(async move {
                        let _ = serve_connection(socket, app, Options::default().keep_names(true))
                            .await;
                    });
                }
            });
        });
        addr
    })
}

fn connect() -> TcpStream {
    let stream = TcpStream::connect(server()).expect("connect");
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();
    stream.set_nodelay(true).unwrap();
    stream
}

/// One answer: status, head as sent, body, trailer section as sent.
#[derive(Debug, Default)]
struct Answer {
    status: u16,
    head: String,
    body: Vec<u8>,
    trailers: String,
}

impl Answer {
    /// The value of the field `name` (lower-case), if the head has it.
    fn field(&self, name: &str) -> Option<&str> {
        self.head.split("\r\n").find_map(|line| {
            let (n, v) = line.split_once(": ")?;
            n.eq_ignore_ascii_case(name).then_some(v)
        })
    }
}

/// The complete responses at the start of `wire`, and whether the last one ends the stream.
fn decode_answers(wire: &[u8], head_request: bool) -> Vec<Answer> {
    let mut decoder = Decoder::for_responses(vec![0u8; DEFAULT_BUFFER_LEN]);
    let mut answers = Vec::new();
    let mut rest = wire;
    let mut current = Answer::default();
    if head_request {
        decoder.set_request_method(b"HEAD");
    }
    loop {
        let (used, event) = decoder.decode(rest).expect("valid responses");
        match event {
            Event::Head => {
                current.status = decoder.response().unwrap().status();
                current.head = String::from_utf8(decoder.head_bytes().to_vec()).unwrap();
            }
            Event::Body(range) => current.body.extend_from_slice(&rest[range]),
            Event::Trailers => {
                current.trailers = String::from_utf8(decoder.trailer_bytes().to_vec()).unwrap()
            }
            Event::MessageEnd => answers.push(std::mem::take(&mut current)),
            Event::NeedMore | Event::Closed => return answers,
            _ => {}
        }
        rest = &rest[used..];
    }
}

/// Reads until `n` answers are complete (the connection stays open).
fn read_answers(stream: &mut TcpStream, n: usize, head_request: bool) -> Vec<Answer> {
    let mut wire = Vec::new();
    let mut piece = [0u8; 4096];
    loop {
        let got = decode_answers(&wire, head_request);
        if got.len() >= n {
            return got;
        }
        let len = stream.read(&mut piece).expect("an answer in time");
        assert!(len > 0, "closed after {} answers of {n}", got.len());
        wire.extend_from_slice(&piece[..len]);
    }
}

/// Sends `input` on a new connection and returns all the server sends until it closes.
fn until_close(input: &[u8]) -> Vec<u8> {
    let mut stream = connect();
    stream.write_all(input).unwrap();
    let mut wire = Vec::new();
    stream.read_to_end(&mut wire).expect("closed in time");
    wire
}

/// Reads until `wire` ends with `end`.
fn read_until(stream: &mut TcpStream, wire: &mut Vec<u8>, end: &[u8]) {
    let mut piece = [0u8; 4096];
    while !wire.ends_with(end) {
        let len = stream.read(&mut piece).expect("bytes in time");
        assert!(len > 0, "closed before {:?}", String::from_utf8_lossy(end));
        wire.extend_from_slice(&piece[..len]);
    }
}

#[test]
fn get_is_answered_with_a_content_length() {
    let mut stream = connect();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n")
        .unwrap();
    let [answer] = <[Answer; 1]>::try_from(read_answers(&mut stream, 1, false)).unwrap();
    assert_eq!(answer.status, 200);
    assert_eq!(answer.body, b"hello");
    assert_eq!(answer.field("content-length"), Some("5"));
    assert_eq!(answer.field("transfer-encoding"), None);
}

#[test]
fn a_chunked_request_body_is_echoed_while_it_streams() {
    let mut stream = connect();
    stream
        .write_all(
            b"POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n",
        )
        .unwrap();
    // The first chunk comes back before the rest of the request is sent: the body was not
    // buffered whole on either side.
    let mut wire = Vec::new();
    read_until(&mut stream, &mut wire, b"5\r\nhello\r\n");
    let head = String::from_utf8_lossy(&wire).into_owned();
    assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
    assert!(
        head.contains("\r\ntransfer-encoding: chunked\r\n")
            || head.contains("\r\nTransfer-Encoding: chunked\r\n"),
        "{head}"
    );
    stream
        .write_all(b"6\r\n world\r\n0\r\nX-Sum: 11\r\n\r\n")
        .unwrap();
    read_until(&mut stream, &mut wire, b"\r\n\r\n");
    // The request's trailer section went through the service as a trailers frame.
    assert!(
        wire.ends_with(b"6\r\n world\r\n0\r\nx-sum: 11\r\n\r\n"),
        "{}",
        String::from_utf8_lossy(&wire)
    );
    // The connection is kept for the next request.
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n")
        .unwrap();
    assert_eq!(read_answers(&mut stream, 1, false)[0].body, b"hello");
}

#[test]
fn a_content_length_body_is_echoed_with_its_length() {
    let mut stream = connect();
    stream
        .write_all(b"POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nping")
        .unwrap();
    let answers = read_answers(&mut stream, 1, false);
    assert_eq!(answers[0].body, b"ping");
    // The request body's exact size hint became the response's Content-Length.
    assert_eq!(answers[0].field("content-length"), Some("4"));
}

#[test]
fn a_streamed_response_is_chunked_with_its_trailers() {
    let mut stream = connect();
    stream
        .write_all(b"GET /countdown HTTP/1.1\r\nHost: a\r\n\r\n")
        .unwrap();
    let mut wire = Vec::new();
    read_until(&mut stream, &mut wire, b"0\r\nx-count: 3\r\n\r\n");
    let text = String::from_utf8(wire.clone()).unwrap();
    assert!(
        text.ends_with("Transfer-Encoding: chunked\r\n\r\n4\r\n3...\r\n4\r\n2...\r\n4\r\n1...\r\n0\r\nx-count: 3\r\n\r\n"),
        "{text}"
    );
    let answer = &decode_answers(&wire, false)[0];
    assert_eq!(answer.body, b"3...2...1...");
    assert_eq!(answer.trailers, "x-count: 3\r\n\r\n");
}

#[test]
fn head_gets_no_body_and_the_connection_goes_on() {
    let mut stream = connect();
    stream
        .write_all(b"HEAD / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n")
        .unwrap();
    let mut wire = Vec::new();
    read_until(&mut stream, &mut wire, b"hello");
    let text = String::from_utf8(wire).unwrap();
    // The HEAD answer's head is followed directly by the GET's answer.
    let (head, get) = text.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{text}");
    // It says what a GET would get.
    assert!(head.ends_with("\r\nContent-Length: 5"), "{text}");
    assert!(
        !head.to_ascii_lowercase().contains("transfer-encoding"),
        "{text}"
    );
    assert!(get.starts_with("HTTP/1.1 200 OK\r\n"), "{text}");
    assert!(get.ends_with("\r\n\r\nhello"), "{text}");
}

#[test]
fn keep_alive_and_pipelined_requests_are_answered_in_order() {
    let mut stream = connect();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n")
        .unwrap();
    assert_eq!(read_answers(&mut stream, 1, false)[0].body, b"hello");
    let mut wire = Vec::new();
    for i in 0..10 {
        wire.extend_from_slice(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
        let body = format!("request {i}");
        let post = format!(
            "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        wire.extend_from_slice(post.as_bytes());
    }
    stream.write_all(&wire).unwrap();
    let answers = read_answers(&mut stream, 20, false);
    for i in 0..10 {
        assert_eq!(answers[2 * i].body, b"hello");
        assert_eq!(answers[2 * i + 1].body, format!("request {i}").as_bytes());
    }
}

#[test]
fn connection_close_is_honoured() {
    let wire = until_close(b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
    let answers = decode_answers(&wire, false);
    assert_eq!(answers.len(), 1);
    assert_eq!(answers[0].field("connection"), Some("close"));
}

#[test]
fn a_malformed_request_is_answered_400_and_closed() {
    let wire = until_close(b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n");
    assert_eq!(
        String::from_utf8(wire).unwrap(),
        "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
    );
}

#[test]
fn a_malformed_request_after_a_good_one_is_answered_400() {
    let wire = until_close(
        b"GET / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
    );
    let text = String::from_utf8(wire).unwrap();
    assert!(
        text.ends_with(
            "\r\n\r\nhelloHTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
        ),
        "{text}"
    );
    assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{text}");
}

#[test]
fn a_malformed_chunk_is_answered_400() {
    let wire =
        until_close(b"POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n");
    let text = String::from_utf8(wire).unwrap();
    // Found before the echo's head is out (the usual case: the bad chunk arrives with the
    // head), the error's status is the answer; found after, the close alone says it: the
    // chunked body has no last chunk.
    if text.starts_with("HTTP/1.1 200 OK\r\n") {
        let (_, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(!body.contains("0\r\n\r\n"), "{text}");
    } else {
        assert_eq!(
            text,
            "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
        );
    }
}

#[test]
fn expect_continue_is_answered_when_the_body_is_read() {
    for framing in ["Content-Length: 3", "Transfer-Encoding: chunked"] {
        let mut stream = connect();
        let head =
            format!("POST /echo HTTP/1.1\r\nHost: a\r\n{framing}\r\nExpect: 100-continue\r\n\r\n");
        stream.write_all(head.as_bytes()).unwrap();
        // The interim answer comes before the final one, whose head is out before the body
        // it streams back has arrived.
        let expected = format!("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n{framing}\r\n\r\n");
        let mut wire = Vec::new();
        read_until(&mut stream, &mut wire, expected.as_bytes());
        assert_eq!(String::from_utf8(wire).unwrap(), expected);
        let (body, end): (&[u8], &[u8]) = match framing {
            "Content-Length: 3" => (b"abc", b"abc"),
            _ => (b"3\r\nabc\r\n0\r\n\r\n", b"3\r\nabc\r\n0\r\n\r\n"),
        };
        stream.write_all(body).unwrap();
        let mut wire = Vec::new();
        read_until(&mut stream, &mut wire, end);
        assert_eq!(wire, end);
    }
}

#[test]
fn expect_continue_is_not_answered_when_the_body_is_not_read() {
    let wire = until_close(
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n",
    );
    // GET-only route: 405 at once, no 100, and the connection closes, as the client may or
    // may not send the body now.
    let text = String::from_utf8(wire).unwrap();
    assert!(
        text.starts_with("HTTP/1.1 405 Method Not Allowed\r\n"),
        "{text}"
    );
    assert!(!text.contains("100 Continue"), "{text}");
}

#[test]
fn names_keep_their_spelling_when_asked() {
    let mut stream = connect();
    stream
        .write_all(b"GET /headers HTTP/1.1\r\nHost: a\r\nX-Trace-ID: 1\r\n\r\n")
        .unwrap();
    assert_eq!(
        read_answers(&mut stream, 1, false)[0].body,
        b"Host,X-Trace-ID"
    );
}

#[test]
fn a_large_body_streams_both_ways_at_once() {
    let mut stream = connect();
    let body: Vec<u8> = (0..2_000_000u32).map(|i| b'a' + (i % 26) as u8).collect();
    let head = format!(
        "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    // The echo answers while the request is still arriving: the client writes from a thread
    // of its own, or both sides would wait for the other to read.
    let mut writer = stream.try_clone().unwrap();
    let sent = body.clone();
    let sender = std::thread::spawn(move || {
        writer.write_all(head.as_bytes()).unwrap();
        for piece in sent.chunks(10_000) {
            writer.write_all(piece).unwrap();
        }
    });
    let answers = read_answers(&mut stream, 1, false);
    sender.join().unwrap();
    assert_eq!(answers[0].field("content-length"), Some("2000000"));
    assert!(answers[0].body == body, "the echo differs");
}

/// Serves one connection's worth of `input` with `service` over an in-memory pipe and returns
/// what the server wrote and how it ended.
fn serve_bytes<S, B>(service: S, input: &[u8]) -> (String, Result<(), httpspan::serve::ServeError>)
where
    S: tower_service::Service<
            http::Request<httpspan::serve::RequestBody>,
            Response = http::Response<B>,
        > + Send
        + 'static,
    S::Future: Send,
    S::Error: Into<httpspan::serve::BoxError>,
    B: http_body::Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<httpspan::serve::BoxError>,
{
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let (mut client, server) = tokio::io::duplex(64 * 1024);
        let served = tokio::spawn(serve_connection(server, service, Options::default()));
        client.write_all(input).await.unwrap();
        client.shutdown().await.unwrap();
        let mut out = Vec::new();
        tokio::time::timeout(TIMEOUT, client.read_to_end(&mut out))
            .await
            .expect("the server closes in time")
            .unwrap();
        (String::from_utf8(out).unwrap(), served.await.unwrap())
    })
}

/// A service that answers every request with `status`, one field and `body`.
fn answer_with(
    status: u16,
    (name, value): (&'static str, &'static str),
    body: &'static str,
) -> Answering<impl Fn() -> Result<http::Response<String>, std::io::Error> + Clone> {
    Answering(move || {
        Ok(http::Response::builder()
            .status(status)
            .header(name, value)
            .body(String::from(body))
            .unwrap())
    })
}

/// A service that answers every request from its function.
#[derive(Clone)]
struct Answering<F>(F);

impl<F, B> tower_service::Service<http::Request<httpspan::serve::RequestBody>> for Answering<F>
where
    F: Fn() -> Result<http::Response<B>, std::io::Error>,
{
    type Response = http::Response<B>;
    type Error = std::io::Error;
    type Future = std::future::Ready<Result<http::Response<B>, std::io::Error>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), std::io::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, _: http::Request<httpspan::serve::RequestBody>) -> Self::Future {
        std::future::ready((self.0)())
    }
}

#[test]
fn a_failing_service_is_answered_500() {
    let service = Answering(|| -> Result<http::Response<String>, _> {
        Err(std::io::Error::other("backend down"))
    });
    let (out, end) = serve_bytes(service, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    assert_eq!(
        out,
        "HTTP/1.1 500 Internal Server Error\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
    );
    assert!(matches!(end, Err(httpspan::serve::ServeError::Service(_))));
}

#[test]
fn a_body_shorter_than_its_content_length_closes_the_connection() {
    let service = answer_with(200, ("content-length", "10"), "short");
    let (out, end) = serve_bytes(
        service,
        b"GET / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
    );
    // The head and the bytes there are, then the close: the client sees a truncated body,
    // never a second answer read out of the wrong place.
    assert_eq!(out, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort");
    assert!(matches!(end, Err(httpspan::serve::ServeError::BodyLength)));
}

#[test]
fn an_invalid_response_field_is_answered_500() {
    let service = answer_with(200, ("x-bad", " padded"), "");
    let (out, end) = serve_bytes(service, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    assert!(out.starts_with("HTTP/1.1 500 "), "{out}");
    assert!(matches!(end, Err(httpspan::serve::ServeError::Response(_))));
}

#[test]
fn responses_without_content_send_no_body_or_framing() {
    let service = answer_with(204, ("content-length", "3"), "");
    let (out, end) = serve_bytes(
        service,
        b"GET / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
    );
    assert_eq!(out, "HTTP/1.1 204 No Content\r\n\r\n".repeat(2));
    assert!(end.is_ok(), "{end:?}");
}

#[test]
fn the_connection_closes_after_a_101() {
    let service = answer_with(101, ("upgrade", "websocket"), "");
    let (out, end) = serve_bytes(
        service,
        b"GET / HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: upgrade\r\n\r\n\x81\x00",
    );
    assert_eq!(
        out,
        "HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\n\r\n"
    );
    assert!(end.is_ok(), "{end:?}");
}

#[test]
fn the_connection_closes_after_a_2xx_to_connect() {
    let service = answer_with(200, ("x-tunnel", "yes"), "");
    let (out, end) = serve_bytes(
        service,
        b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n\x16\x03\x01",
    );
    // A 2xx answer to CONNECT makes the connection a tunnel (RFC 9112 6.3), which is not
    // served: no framing field (RFC 9110 9.3.6), then the close, never the tunnel's bytes
    // read as a request.
    assert_eq!(out, "HTTP/1.1 200 OK\r\nx-tunnel: yes\r\n\r\n");
    assert!(end.is_ok(), "{end:?}");
}

#[test]
fn a_chunked_response_stays_chunked_whatever_its_size_hint() {
    let service = answer_with(200, ("transfer-encoding", "chunked"), "abc");
    let (out, end) = serve_bytes(
        service,
        b"GET / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.0\r\n\r\n",
    );
    // To HTTP/1.1, chunked as the map says; to HTTP/1.0, which cannot read chunks, the
    // body's exact length (and the close the request asked for).
    assert_eq!(
        out,
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n\
         HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc"
    );
    assert!(end.is_ok(), "{end:?}");
}

#[test]
fn a_304_announces_its_length_and_sends_nothing() {
    let service = answer_with(304, ("content-length", "7"), "");
    let (out, end) = serve_bytes(
        service,
        b"GET / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
    );
    assert_eq!(
        out,
        "HTTP/1.1 304 Not Modified\r\nContent-Length: 7\r\n\r\n".repeat(2)
    );
    assert!(end.is_ok(), "{end:?}");
}

#[test]
fn a_head_over_the_limit_is_answered_with_the_codecs_status() {
    let mut stream = connect();
    let big = format!(
        "GET / HTTP/1.1\r\nHost: a\r\nX-Big: {}\r\n\r\n",
        "v".repeat(100_000)
    );
    // The server may close before it has read everything: a failed write is not the test's.
    let _ = stream.write_all(big.as_bytes());
    let mut wire = Vec::new();
    let _ = stream.read_to_end(&mut wire);
    let text = String::from_utf8(wire).unwrap();
    assert!(
        text.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n"),
        "{text}"
    );
}
