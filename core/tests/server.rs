//! The server example (`examples/server.rs`) driven over real TCP on 127.0.0.1: keep-alive,
//! pipelining, chunked bodies sent in pieces, `100 Continue`, and malformed requests, each
//! answer parsed with httpspan's own response decoder and checked.
//!
//! Not under Miri, which does not emulate sockets; the parsing the server does is covered by the
//! other suites there.
#![cfg(not(miri))]

#[path = "support/drip.rs"]
mod drip;
#[allow(dead_code)] // the example's `main` is not called here
#[path = "../examples/server.rs"]
mod server;

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::sync::OnceLock;
use std::thread;
use std::time::Duration;

use httpspan::stream::{Decoder, Event, DEFAULT_BUFFER_LEN};

/// One server for every test, started on a free port.
fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        let listener = server::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().unwrap();
        thread::spawn(move || server::serve(listener));
        addr
    })
}

/// One answer, as httpspan's response parser read it.
#[derive(Debug)]
struct Answer {
    status: u16,
    reason: String,
    fields: Vec<(String, String)>,
    body: Vec<u8>,
    keep_alive: bool,
}

impl Answer {
    fn field(&self, name: &str) -> Option<&str> {
        let found = self
            .fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name));
        found.map(|(_, v)| v.as_str())
    }

    fn body(&self) -> &str {
        std::str::from_utf8(&self.body).unwrap()
    }
}

/// A client connection that reads answers with a response decoder.
struct Client {
    stream: TcpStream,
    decoder: Decoder<Vec<u8>>,
    /// The methods of the requests sent and not yet answered, for HEAD's bodiless answer.
    methods: Vec<&'static str>,
    /// Bytes read and not yet decoded.
    pending: Vec<u8>,
}

impl Client {
    fn connect() -> Client {
        let stream = TcpStream::connect(server()).unwrap();
        // A server that does not answer fails the test instead of hanging it.
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        stream.set_nodelay(true).unwrap();
        Client {
            stream,
            decoder: Decoder::for_responses(vec![0; DEFAULT_BUFFER_LEN]),
            methods: Vec::new(),
            pending: Vec::new(),
        }
    }

    /// Sends `bytes` as one write, noting the method of each request it starts.
    fn send(&mut self, bytes: &[u8], methods: &[&'static str]) {
        self.methods.extend_from_slice(methods);
        if self.methods.len() == methods.len() {
            if let Some(first) = methods.first() {
                self.decoder.set_request_method(first.as_bytes());
            }
        }
        self.stream.write_all(bytes).unwrap();
    }

    /// Sends `pieces` one write each, pausing so that each arrives in a read of its own.
    fn send_pieces(&mut self, pieces: &[&[u8]], methods: &[&'static str]) {
        self.send(pieces[0], methods);
        for piece in &pieces[1..] {
            thread::sleep(Duration::from_millis(20));
            self.send(piece, &[]);
        }
    }

    /// Reads the next answer (interim ones included).
    fn answer(&mut self) -> Answer {
        let mut body = Vec::new();
        loop {
            let (used, event) = self.decoder.decode(&self.pending).expect("a valid answer");
            let event_body = match &event {
                Event::Body(range) => Some(self.pending[range.clone()].to_vec()),
                _ => None,
            };
            self.pending.drain(..used);
            match event {
                Event::Body(_) => body.extend(event_body.unwrap()),
                Event::MessageEnd => {
                    let res = self.decoder.response().unwrap();
                    let head = self.decoder.head_bytes();
                    let text = |b: &[u8]| String::from_utf8(b.to_vec()).unwrap();
                    let answer = Answer {
                        status: res.status(),
                        reason: text(res.reason().as_bytes(head)),
                        fields: res
                            .fields()
                            .iter()
                            .map(|f| (text(f.name.as_bytes(head)), text(f.value.as_bytes(head))))
                            .collect(),
                        body,
                        keep_alive: res.keep_alive(),
                    };
                    if !res.is_interim() {
                        self.methods.remove(0);
                        let next = self.methods.first().copied().unwrap_or("GET");
                        self.decoder.set_request_method(next.as_bytes());
                    }
                    return answer;
                }
                Event::NeedMore => self.read_more(),
                Event::Closed => panic!("the decoder closed before an answer"),
                _ => {}
            }
        }
    }

    fn read_more(&mut self) {
        let mut buf = [0u8; 4096];
        let n = self
            .stream
            .read(&mut buf)
            .expect("the server answers in time");
        if n == 0 {
            panic!("the server closed the connection before answering");
        }
        self.pending.extend_from_slice(&buf[..n]);
    }

    /// Whether the server has closed the connection, having sent nothing more.
    fn server_closed(&mut self) -> bool {
        let mut buf = [0u8; 64];
        match self.stream.read(&mut buf) {
            Ok(0) => self.pending.is_empty(),
            Ok(n) => panic!("unexpected bytes {:?}", String::from_utf8_lossy(&buf[..n])),
            Err(e) => panic!("no close: {e}"),
        }
    }

    /// Whether the server keeps the connection open: nothing arrives for a moment.
    fn still_open(&mut self) -> bool {
        self.stream
            .set_read_timeout(Some(Duration::from_millis(100)))
            .unwrap();
        let mut buf = [0u8; 64];
        let open = matches!(self.stream.read(&mut buf), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock);
        self.stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        open
    }
}

#[test]
fn get_and_head_on_one_kept_alive_connection() {
    let mut client = Client::connect();
    client.send(b"GET / HTTP/1.1\r\nHost: t\r\n\r\n", &["GET"]);
    let a = client.answer();
    assert_eq!(
        (a.status, a.reason.as_str(), a.body()),
        (200, "OK", "hello\n")
    );
    assert_eq!(a.field("Content-Type"), Some("text/plain"));
    assert_eq!(a.field("Content-Length"), Some("6"));
    assert!(a.keep_alive && a.field("Connection").is_none());

    // HEAD: the length of the body that GET would send, and no body.
    client.send(b"HEAD / HTTP/1.1\r\nHost: t\r\n\r\n", &["HEAD"]);
    let a = client.answer();
    assert_eq!(
        (a.status, a.field("Content-Length"), a.body()),
        (200, Some("6"), "")
    );
    client.send(b"GET /nowhere HTTP/1.1\r\nHost: t\r\n\r\n", &["GET"]);
    let a = client.answer();
    assert_eq!(
        (a.status, a.reason.as_str(), a.body()),
        (404, "Not Found", "not found\n")
    );
    assert!(client.still_open());
}

#[test]
fn pipelined_requests_are_answered_in_order() {
    let mut client = Client::connect();
    client.send(
        b"GET / HTTP/1.1\r\nHost: t\r\n\r\n\
          POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhello\
          HEAD / HTTP/1.1\r\nHost: t\r\n\r\n\
          PUT /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n\
          DELETE /x HTTP/1.1\r\nHost: t\r\n\r\n",
        &["GET", "POST", "HEAD", "PUT", "DELETE"],
    );
    let answers: Vec<Answer> = (0..5).map(|_| client.answer()).collect();
    let got: Vec<(u16, &str)> = answers.iter().map(|a| (a.status, a.body())).collect();
    assert_eq!(
        got,
        [
            (200, "hello\n"),
            (200, "hello"),
            (200, ""),
            (200, ""),
            (404, "not found\n")
        ]
    );
    assert!(answers.iter().all(|a| a.keep_alive));
    assert!(client.still_open());
}

#[test]
fn chunked_bodies_arrive_in_pieces() {
    let mut client = Client::connect();
    client.send_pieces(
        &[
            b"POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n",
            b"5;name=\"va",
            b"lue\"\r\nhel",
            b"lo\r\n7\r\n, world\r\n0\r\nChecksum: ab",
            b"c\r\n\r\n",
        ],
        &["POST"],
    );
    let a = client.answer();
    assert_eq!((a.status, a.body()), (200, "hello, world"));
    assert_eq!(a.field("Content-Length"), Some("12"));

    // A transfer coding the server does not decode: 501, and the connection stays usable.
    client.send(
        b"POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip, chunked\r\n\r\n\
          3\r\nabc\r\n0\r\n\r\nGET / HTTP/1.1\r\nHost: t\r\n\r\n",
        &["POST", "GET"],
    );
    let a = client.answer();
    assert_eq!(
        (a.status, a.body()),
        (501, "transfer coding not implemented\n")
    );
    assert_eq!(client.answer().status, 200);
}

#[test]
fn expect_100_continue_comes_before_the_body_is_sent() {
    let mut client = Client::connect();
    client.send(
        b"PUT /echo HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n",
        &["PUT"],
    );
    let interim = client.answer();
    assert_eq!((interim.status, interim.reason.as_str()), (100, "Continue"));
    client.send(b"data", &[]);
    let a = client.answer();
    assert_eq!((a.status, a.body()), (200, "data"));
}

#[test]
fn unknown_methods_get_501_and_keep_the_connection() {
    let mut client = Client::connect();
    client.send(
        b"BREW /pot HTTP/1.1\r\nHost: t\r\n\r\nGET / HTTP/1.1\r\nHost: t\r\n\r\n",
        &["BREW", "GET"],
    );
    let a = client.answer();
    assert_eq!((a.status, a.reason.as_str()), (501, "Not Implemented"));
    assert!(a.keep_alive);
    assert_eq!(client.answer().status, 200);
}

#[test]
fn malformed_requests_get_the_errors_status_and_a_close() {
    let many_fields: String = (0..70).map(|i| format!("X-{i}: v\r\n")).collect();
    let long_target = "a".repeat(9000);
    let cases: Vec<(Vec<u8>, u16, &str)> = vec![
        (b"GET / HTTP/1.1\r\nHost: t\r\nX: a\x01b\r\n\r\n".to_vec(), 400, "invalid byte in field value"),
        (b"GET / HTTP/1.1\nHost: t\r\n\r\n".to_vec(), 400, "bare LF"),
        (b"GET / HTTP/2.0\r\nHost: t\r\n\r\n".to_vec(), 505, "unsupported HTTP version"),
        (
            b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec(),
            400,
            "both Content-Length and Transfer-Encoding",
        ),
        (
            b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 2000000\r\n\r\n".to_vec(),
            413,
            "body larger than the limit",
        ),
        (format!("GET / HTTP/1.1\r\nHost: t\r\n{many_fields}\r\n").into_bytes(), 431, "more field lines"),
        (format!("GET /{long_target} HTTP/1.1\r\nHost: t\r\n\r\n").into_bytes(), 414, "request-line longer"),
        (b"GET / HTTP/1.1\r\n\r\n".to_vec(), 400, "without Host"),
    ];
    for (mut request, status, message) in cases {
        let mut client = Client::connect();
        // A request after the bad one is never answered: nothing after an error is read.
        request.extend_from_slice(b"GET / HTTP/1.1\r\nHost: t\r\n\r\n");
        client.send(&request, &["GET"]);
        let a = client.answer();
        let shown = String::from_utf8_lossy(&request[..40.min(request.len())]).into_owned();
        assert_eq!(a.status, status, "{shown}");
        assert_eq!(a.reason, httpspan::reason_phrase(status).unwrap());
        assert!(a.body().contains(message), "{shown}: {:?}", a.body());
        assert_eq!(a.field("Connection"), Some("close"));
        assert!(!a.keep_alive);
        assert!(client.server_closed(), "{shown}");
    }
}

#[test]
fn a_request_cut_off_invalid_still_gets_its_400() {
    let mut client = Client::connect();
    client.send(b"GET / HTTP/1.1\r\nHost: t\r\nX: \x7f", &["GET"]);
    client.stream.shutdown(Shutdown::Write).unwrap();
    let a = client.answer();
    assert_eq!(a.status, 400);
    assert!(client.server_closed());
}

#[test]
fn connection_close_and_http10_end_the_connection() {
    let mut client = Client::connect();
    client.send(
        b"GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\nGET / HTTP/1.1\r\nHost: t\r\n\r\n",
        &["GET", "GET"],
    );
    let a = client.answer();
    assert_eq!(
        (a.status, a.field("Connection"), a.keep_alive),
        (200, Some("close"), false)
    );
    assert!(client.server_closed());

    let mut client = Client::connect();
    client.send(b"GET / HTTP/1.0\r\n\r\n", &["GET"]);
    let a = client.answer();
    assert_eq!((a.status, a.field("Connection")), (200, Some("close")));
    assert!(client.server_closed());

    let mut client = Client::connect();
    client.send(
        b"GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        &["GET"],
    );
    let a = client.answer();
    assert_eq!((a.status, a.field("Connection")), (200, Some("keep-alive")));
    assert!(client.still_open());
}

/// A head sent a byte at a time, and a kept-alive connection that sends nothing more, are
/// closed at the head deadline (here shortened to 600 ms).
#[test]
fn slow_heads_and_idle_connections_are_closed_at_the_head_deadline() {
    let deadline = Duration::from_millis(600);
    let listener = server::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    let addr = listener.local_addr().unwrap();
    thread::spawn(move || server::serve_with(listener, server::settings::Settings::all(deadline)));
    let every = Duration::from_millis(50);
    let head = b"GET / HTTP/1.1\r\nHost: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n";
    let slow = drip::time_to_close(addr, b"", head, every);
    let idle = drip::time_to_close(addr, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n", b"", every);
    for took in [slow, idle] {
        assert!(
            took.is_some_and(|t| t >= deadline.mul_f32(0.8) && t < deadline * 5),
            "{took:?}"
        );
    }
}
