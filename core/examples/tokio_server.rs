//! A keep-alive, pipelining HTTP/1.1 server on tokio with `httpspan::codec::ServerCodec`.
//!
//! ```text
//! cargo run --release -p httpspan --example tokio_server --features tokio -- [ADDR]
//! curl -i http://127.0.0.1:8080/
//! curl -i --data-binary hello http://127.0.0.1:8080/echo
//! ```
//!
//! It answers what `examples/server.rs` answers (`GET /`: `hello`; `POST /echo`: the body;
//! 404, 501; a rejected request gets the status its error names, then the connection closes).
//!
//! One current-thread runtime per CPU (or `HTTPSPAN_THREADS`), each with its own listener on
//! the same port (SO_REUSEPORT), so the kernel spreads connections and no task moves between
//! threads. The answers to the requests found in one read go out in one write.

use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use bytes::BytesMut;
use httpspan::codec::{CodecError, Reply, RequestFrame, ServerCodec};
use httpspan::Limits;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::{Decoder as _, Encoder as _};

mod common;
mod per_cpu;
use common::{route, Route, CONTINUE, MAX_BODY};

/// A connection that sends nothing for this long is closed.
const IDLE_TIMEOUT: Duration = Duration::from_secs(30);
/// The largest trailer section accepted.
const MAX_TRAILERS: u32 = 8 * 1024;
/// The read buffer grows in steps of at least this.
const READ_ROOM: usize = 16 * 1024;

#[allow(dead_code)] // the integration test includes this file and calls `start` itself
fn main() -> io::Result<()> {
    let addr = std::env::args().nth(1);
    let addr = addr
        .as_deref()
        .unwrap_or("127.0.0.1:8080")
        .parse()
        .map_err(io::Error::other)?;
    let bound = start(addr)?;
    println!("listening on http://{bound}");
    loop {
        std::thread::park();
    }
}

/// Starts the server threads on `addr` (port 0 picks a free port) and returns the address
/// bound.
pub fn start(addr: SocketAddr) -> io::Result<SocketAddr> {
    per_cpu::start(addr, accept)
}

/// Accepts connections for ever, each as a task of this thread's runtime.
async fn accept(listener: TcpListener) {
    loop {
        // A failed accept (a client that gave up in the backlog) must not stop the server.
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let _ = stream.set_nodelay(true);
        tokio::spawn(async move {
            if let Err(e) = connection(stream).await {
                eprintln!("connection: {e}");
            }
        });
    }
}

/// Reads requests from one connection and answers each, in order, until either side closes.
async fn connection(mut stream: TcpStream) -> io::Result<()> {
    let mut limits = Limits::DEFAULT;
    limits.max_body_bytes = Some(MAX_BODY);
    // The codec's buffer holds a head and a trailer section; trailers of up to 8 KiB (not the
    // default 64 KiB) keep it at 16 KiB, which a connection allocates at its first read.
    limits.max_trailer_bytes = MAX_TRAILERS;
    let mut codec = ServerCodec::new(limits);
    let mut input = BytesMut::with_capacity(READ_ROOM);
    // Grown by the first answers to the size they need.
    let mut out = BytesMut::new();
    // The answer to the request being read, decided from its head (which is then dropped, so
    // that the read buffer can be reused), and its body.
    let mut pending: Option<Route> = None;
    let mut body = Vec::new();
    let mut eof = false;
    loop {
        // Every complete frame in the input, then one write for all the answers.
        let close = loop {
            let frame = match eof {
                false => codec.decode(&mut input),
                true => codec.decode_eof(&mut input),
            };
            let frame = match frame {
                Ok(Some(frame)) => frame,
                Ok(None) => break eof,
                Err(e) => {
                    error_answer(&mut codec, &mut out, &e);
                    break true;
                }
            };
            match frame {
                RequestFrame::Head(head) => {
                    let req = head.request();
                    // The client waits for this before it sends the body (RFC 9110 10.1.1).
                    if head.expects_continue() {
                        out.extend_from_slice(CONTINUE);
                    }
                    pending = Some(route(req, head.bytes()));
                    body.clear();
                }
                RequestFrame::Body(data) => body.extend_from_slice(&data),
                RequestFrame::End { last } => {
                    let route = pending.take().expect("a head before the end");
                    answer(&mut codec, &mut out, route, &body);
                    if last {
                        break true;
                    }
                }
                // Trailer fields: this server has no use for them.
                RequestFrame::Trailers(_) => {}
            }
        };
        if !out.is_empty() {
            stream.write_all(&out).await?;
            out.clear();
        }
        if close {
            close_gracefully(stream).await;
            return Ok(());
        }
        // No frame is kept across reads, so the buffer is reused once it has grown.
        input.reserve(READ_ROOM);
        match tokio::time::timeout(IDLE_TIMEOUT, stream.read_buf(&mut input)).await {
            Ok(Ok(0)) => eof = true,
            Ok(Ok(_)) => {}
            Ok(Err(e)) => return Err(e),
            Err(_elapsed) => return Ok(()),
        }
    }
}

/// Appends the answer to one request.
fn answer(codec: &mut ServerCodec, out: &mut BytesMut, route: Route, body: &[u8]) {
    let Route {
        status,
        content,
        connection,
        head_only,
    } = route;
    let close: [(&[u8], &[u8]); 2] = [
        (b"Content-Type", b"text/plain"),
        (b"Connection", connection.unwrap_or_default()),
    ];
    let headers = if connection.is_some() {
        &close[..]
    } else {
        &close[..1]
    };
    let reply = Reply {
        status,
        headers,
        body: content.bytes(body),
        head_only,
    };
    codec
        .encode(reply, out)
        .expect("the answers are valid responses");
}

/// Appends the answer to a request the codec rejected, if one is due: the status the error
/// names, and why.
fn error_answer(codec: &mut ServerCodec, out: &mut BytesMut, error: &CodecError) {
    let Some(status) = error.status() else {
        return;
    };
    let reason = format!("{error}\n");
    let headers: &[(&[u8], &[u8])] = &[(b"Content-Type", b"text/plain"), (b"Connection", b"close")];
    let reply = Reply {
        status,
        headers,
        body: reason.as_bytes(),
        head_only: false,
    };
    codec
        .encode(reply, out)
        .expect("the error answers are valid responses");
}

/// Closes a connection after its last answer. The client may still be sending; closing a
/// socket with unread input makes the kernel send a reset, which can destroy our answer before
/// the client has read it. So: stop writing, read and discard for a moment, then close.
async fn close_gracefully(mut stream: TcpStream) {
    let _ = stream.shutdown().await;
    let drain = async {
        let mut sink = [0u8; 4096];
        let mut drained = 0;
        while drained < 1 << 20 {
            match stream.read(&mut sink).await {
                Ok(0) | Err(_) => break,
                Ok(n) => drained += n,
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), drain).await;
}
