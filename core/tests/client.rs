//! `examples/client.rs` (`Framed<TcpStream, ClientCodec>`) against an origin server over
//! 127.0.0.1: Content-Length, chunked and close-delimited bodies, trailers, HEAD, 103 Early
//! Hints, `Expect: 100-continue` and pipelining.

#[allow(dead_code)]
#[path = "../examples/client.rs"]
mod client;
#[path = "support/exchanges.rs"]
mod exchanges;
#[path = "support/origin.rs"]
mod origin;

use exchanges::run;

#[test]
fn pipelined_requests_of_every_framing() {
    run(|| async { exchanges::pipelined(origin::start().await).await });
}

#[test]
fn a_body_waits_for_100_continue() {
    run(|| async { exchanges::expect_continue(origin::start().await).await });
}

#[test]
fn a_body_until_close() {
    run(|| async { exchanges::close_delimited(origin::start().await).await });
}

#[test]
fn a_large_chunked_body() {
    run(|| async { exchanges::large_body(origin::start().await).await });
}
