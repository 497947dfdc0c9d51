//! `examples/proxy.rs` between `examples/client.rs` and an origin server over 127.0.0.1: the
//! client's exchanges give the same answers through the proxy, and hop-by-hop fields stop at
//! the proxy.

#[allow(dead_code)]
#[path = "../examples/client.rs"]
mod client;
#[path = "support/drip.rs"]
mod drip;
#[allow(dead_code)]
#[path = "support/exchanges.rs"]
mod exchanges;
#[path = "support/origin.rs"]
mod origin;
#[allow(dead_code)]
#[path = "../examples/proxy.rs"]
mod proxy;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use client::{connect, exchange, Req, ReqBody};
use exchanges::run;
use proxy::settings::Settings;
use tokio::sync::Semaphore;

/// An origin and a proxy in front of it; returns the proxy's address.
async fn proxied() -> SocketAddr {
    let origin = origin::start().await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(proxy::serve(listener, origin));
    addr
}

#[test]
fn pipelined_requests_of_every_framing() {
    run(|| async { exchanges::pipelined(proxied().await).await });
}

#[test]
fn a_body_waits_for_100_continue() {
    run(|| async { exchanges::expect_continue(proxied().await).await });
}

#[test]
fn a_body_until_close_is_rechunked() {
    run(|| async { exchanges::close_delimited(proxied().await).await });
}

#[test]
fn a_large_chunked_body_streams_through() {
    run(|| async { exchanges::large_body(proxied().await).await });
}

#[test]
fn hop_by_hop_fields_stop_at_the_proxy() {
    run(|| async {
        let mut conn = connect(proxied().await).await.unwrap();
        let field = |n: &str, v: &str| (n.to_string(), v.to_string());
        let req = Req {
            method: "GET",
            target: "/headers".into(),
            headers: vec![
                field("Host", "origin"),
                field("Connection", "keep-alive, X-Secret"),
                field("X-Secret", "1"),
                field("Keep-Alive", "timeout=5"),
                field("TE", "trailers"),
                field("Proxy-Connection", "keep-alive"),
                field("X-Kept", "1"),
            ],
            body: ReqBody::Empty,
        };
        let answers = exchange(&mut conn, &[req]).await.unwrap();
        assert_eq!(answers[0].status, 200);
        assert_eq!(answers[0].body, b"host\nx-kept\n");
    });
}

/// Sends `wire` to `addr` from a blocking client on its own thread (so that the runtime
/// serves the proxy meanwhile) and returns all it gets back until the connection closes.
async fn raw(addr: SocketAddr, wire: &'static [u8]) -> String {
    use std::io::{Read, Write};
    let got = tokio::task::spawn_blocking(move || {
        let mut stream = std::net::TcpStream::connect(addr).unwrap();
        stream.write_all(wire).unwrap();
        let mut got = Vec::new();
        stream.read_to_end(&mut got).unwrap();
        got
    });
    String::from_utf8_lossy(&got.await.unwrap()).into_owned()
}

/// HTTP/1.0 has neither chunked bodies (RFC 9112 6.1) nor 1xx answers (RFC 9110 15.2): a
/// chunked body ends by closing instead, and the upstream's 103 stops at the proxy.
#[test]
fn an_http_1_0_client_gets_no_chunked_body_and_no_interim_answer() {
    run(|| async {
        let addr = proxied().await;
        let text = raw(addr, b"GET /chunked HTTP/1.0\r\nHost: origin\r\n\r\n").await;
        assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{text}");
        assert!(
            !text.to_ascii_lowercase().contains("transfer-encoding"),
            "{text}"
        );
        assert!(text.ends_with("\r\n\r\none two three"), "{text}");
        let text = raw(addr, b"GET /hints HTTP/1.0\r\nHost: origin\r\n\r\n").await;
        assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{text}");
        assert!(!text.contains("103"), "{text}");
        assert!(text.ends_with("\r\n\r\nhinted"), "{text}");
    });
}

/// An answer to HEAD whose GET would be chunked has no length to announce: the proxy does
/// not make one up.
#[test]
fn a_head_answer_without_a_length_gets_none() {
    run(|| async {
        let request = b"HEAD /chunked HTTP/1.1\r\nHost: origin\r\nConnection: close\r\n\r\n";
        let text = raw(proxied().await, request).await;
        assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{text}");
        assert!(
            !text.to_ascii_lowercase().contains("content-length"),
            "{text}"
        );
        assert!(text.ends_with("\r\n\r\n"), "{text}");
    });
}

/// A transfer coding the proxy cannot write again is not forwarded with its coding dropped.
#[test]
fn codings_other_than_chunked_are_refused() {
    run(|| async {
        let addr = proxied().await;
        let request = b"POST /echo HTTP/1.1\r\nHost: origin\r\n\
            Transfer-Encoding: gzip, chunked\r\n\r\n2\r\nzz\r\n0\r\n\r\n";
        let text = raw(addr, request).await;
        assert!(text.starts_with("HTTP/1.1 501 "), "{text}");
        let text = raw(addr, b"GET /gzip HTTP/1.1\r\nHost: origin\r\n\r\n").await;
        assert!(text.starts_with("HTTP/1.1 502 "), "{text}");
        assert!(!text.contains("zz"), "{text}");
    });
}

/// A proxy in front of `upstream` whose deadlines are all `deadline`; returns its address.
async fn proxied_with(upstream: SocketAddr, deadline: Duration) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let settings = Settings::all(deadline);
    let permits = Arc::new(Semaphore::new(settings.max_connections));
    tokio::spawn(proxy::serve_with(listener, upstream, settings, permits));
    addr
}

/// An upstream that answers each connection's first request with the head it received as the
/// body, or (`answer` false) reads it and never answers.
async fn recording_upstream(answer: bool) -> SocketAddr {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let (mut stream, _) = listener.accept().await.unwrap();
            tokio::spawn(async move {
                let mut head = Vec::new();
                let mut piece = [0u8; 1024];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut piece).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => head.extend_from_slice(&piece[..n]),
                    }
                }
                if !answer {
                    tokio::time::sleep(Duration::from_secs(30)).await;
                    return;
                }
                let top = format!(
                    "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    head.len()
                );
                let _ = stream.write_all(top.as_bytes()).await;
                let _ = stream.write_all(&head).await;
            });
        }
    });
    addr
}

/// RFC 9112 3.2.2: the authority of an absolute-form target is the request's host; the
/// upstream must not see the client's Host instead.
#[test]
fn an_absolute_form_target_replaces_host() {
    run(|| async {
        let addr = proxied_with(recording_upstream(true).await, Duration::from_secs(5)).await;
        let text = raw(
            addr,
            b"GET http://internal.example/admin?x=1 HTTP/1.1\r\nHost: public.example\r\nConnection: close\r\n\r\n",
        )
        .await;
        assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{text}");
        let seen = &text[text.find("\r\n\r\n").unwrap() + 4..];
        assert!(seen.starts_with("GET /admin?x=1 HTTP/1.1\r\n"), "{seen}");
        assert!(seen.contains("\r\nHost: internal.example\r\n"), "{seen}");
        assert!(!seen.contains("public.example"), "{seen}");
        let text = raw(
            addr,
            b"GET http://internal.example HTTP/1.1\r\nHost: public.example\r\nConnection: close\r\n\r\n",
        )
        .await;
        let seen = &text[text.find("\r\n\r\n").unwrap() + 4..];
        assert!(
            seen.starts_with("GET / HTTP/1.1\r\nHost: internal.example\r\n"),
            "{seen}"
        );
    });
}

/// A Connection field that names Host would take a field the request needs: 400, not a
/// silent close.
#[test]
fn connection_naming_host_is_answered_400() {
    run(|| async {
        let addr = proxied_with(recording_upstream(true).await, Duration::from_secs(5)).await;
        let text = raw(
            addr,
            b"GET / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive, Host\r\n\r\n",
        )
        .await;
        assert!(text.starts_with("HTTP/1.1 400 "), "{text}");
    });
}

/// An upstream that takes the request and never answers gets the client a 504 at the
/// upstream deadline; one that cannot be reached, a 502.
#[test]
fn a_silent_or_missing_upstream_is_answered_504_or_502() {
    run(|| async {
        let addr = proxied_with(recording_upstream(false).await, Duration::from_millis(500)).await;
        let start = std::time::Instant::now();
        let text = raw(addr, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n").await;
        assert!(text.starts_with("HTTP/1.1 504 "), "{text}");
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "{:?}",
            start.elapsed()
        );
        let gone = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap();
        let addr = proxied_with(gone, Duration::from_millis(500)).await;
        let text = raw(addr, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n").await;
        assert!(text.starts_with("HTTP/1.1 502 "), "{text}");
    });
}

/// A client that sends its head a byte at a time, or nothing after its first answer, is
/// closed at the head deadline.
#[test]
fn slow_and_idle_clients_are_closed_at_the_head_deadline() {
    run(|| async {
        let origin = origin::start().await;
        let addr = proxied_with(origin, Duration::from_millis(500)).await;
        let took = tokio::task::spawn_blocking(move || {
            let every = Duration::from_millis(50);
            let head = b"GET /cl HTTP/1.1\r\nHost: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n";
            let slow = drip::time_to_close(addr, b"", head, every);
            let idle =
                drip::time_to_close(addr, b"GET /cl HTTP/1.1\r\nHost: a\r\n\r\n", b"", every);
            [slow, idle]
        })
        .await
        .unwrap();
        for t in took {
            assert!(
                t.is_some_and(
                    |t| t >= Duration::from_millis(400) && t < Duration::from_millis(2500)
                ),
                "{t:?}"
            );
        }
    });
}

/// An upstream whose first connection answers nothing until it holds three requests, then
/// answers them in order (with `close_first`: answers the first with `Connection: close` and
/// closes); later connections answer each request as it comes. Each body is the target.
async fn batching_upstream(close_first: bool) -> SocketAddr {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let mut first = true;
        loop {
            let (mut stream, _) = listener.accept().await.unwrap();
            let wait_for = if first { 3 } else { 1 };
            first = false;
            tokio::spawn(async move {
                let mut input = Vec::new();
                let mut piece = [0u8; 1024];
                loop {
                    let heads: Vec<String> = String::from_utf8_lossy(&input)
                        .split_terminator("\r\n\r\n")
                        .filter(|h| h.contains("HTTP/1.1"))
                        .map(|h| h.split(' ').nth(1).unwrap_or("").to_string())
                        .collect();
                    let complete = input.ends_with(b"\r\n\r\n");
                    if complete && heads.len() >= wait_for {
                        input.clear();
                        for (i, target) in heads.iter().enumerate() {
                            let close = close_first && wait_for == 3 && i == 0;
                            let field = if close { "Connection: close\r\n" } else { "" };
                            let answer = format!(
                                "HTTP/1.1 200 OK\r\n{field}Content-Length: {}\r\n\r\n{target}",
                                target.len()
                            );
                            let _ = stream.write_all(answer.as_bytes()).await;
                            if close {
                                return;
                            }
                        }
                    }
                    match stream.read(&mut piece).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => input.extend_from_slice(&piece[..n]),
                    }
                }
            });
        }
    });
    addr
}

const THREE_GETS: &[u8] = b"GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\n\
    GET /c HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n";

/// Pipelined GETs reach the upstream without waiting for each answer: an upstream that
/// answers only once it holds all three gets them, and the client its three answers in order.
#[test]
fn pipelined_gets_are_forwarded_without_waiting() {
    run(|| async {
        let addr = proxied_with(batching_upstream(false).await, Duration::from_secs(2)).await;
        let text = raw(addr, THREE_GETS).await;
        let bodies: Vec<&str> = text.split("\r\n\r\n").skip(1).map(|b| &b[..2]).collect();
        assert_eq!(bodies, ["/a", "/b", "/c"], "{text}");
    });
}

/// An upstream that closes after answering the first of three pipelined GETs: the other two
/// go again on a new connection, and the client gets all three answers in order.
#[test]
fn requests_sent_ahead_go_again_when_the_upstream_closes() {
    run(|| async {
        let addr = proxied_with(batching_upstream(true).await, Duration::from_secs(2)).await;
        let text = raw(addr, THREE_GETS).await;
        let bodies: Vec<&str> = text.split("\r\n\r\n").skip(1).map(|b| &b[..2]).collect();
        assert_eq!(bodies, ["/a", "/b", "/c"], "{text}");
    });
}

/// A malformed request pipelined behind a good one is answered 400 after the good one's
/// answer, never before it.
#[test]
fn a_bad_request_read_ahead_is_answered_in_its_turn() {
    run(|| async {
        let request =
            b"GET /cl HTTP/1.1\r\nHost: a\r\n\r\nGET /cl HTTP/1.1\r\nHost: a\r\nX\x01: 1\r\n\r\n";
        let addr = proxied_with(origin::start().await, Duration::from_secs(2)).await;
        let text = raw(addr, request).await;
        assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{text}");
        let ok = text.find("hello").expect(&text);
        assert!(text[ok..].contains("HTTP/1.1 400 "), "{text}");
    });
}
