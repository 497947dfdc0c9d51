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
//!
//! Deadlines (`settings/mod.rs`, each shortened through an environment variable): a request's
//! whole head within 30 s of the end of the previous one (or of the accept), so a kept-alive
//! connection that sends nothing more is closed then too; a body and a write that each move
//! 1 KiB per 30 s; after the last answer, at most 30 s (5 s without a byte, 256 KiB) of what
//! the client still sends is read before closing. At most 4,096 connections are served at once;
//! an accept error other than a client's abort pauses the loop (10 ms to 1 s) so that running
//! out of descriptors does not spin.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use bytes::BytesMut;
use httpspan::codec::{CodecError, Reply, RequestFrame, ServerCodec};
use httpspan::Limits;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::Semaphore;
use tokio_util::codec::{Decoder as _, Encoder as _};

mod accept;
mod common;
mod per_cpu;
pub mod settings;
mod timed;
use common::{route, Route, CONTINUE, MAX_BODY};
use settings::Settings;
use timed::{linger, Timed};
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

/// Starts the server threads on `addr` (port 0 picks a free port), with the settings the
/// environment gives, and returns the address bound.
pub fn start(addr: SocketAddr) -> io::Result<SocketAddr> {
    start_with(addr, Settings::from_env())
}

/// Starts the server threads on `addr` with `settings` and returns the address bound.
pub fn start_with(addr: SocketAddr, settings: Settings) -> io::Result<SocketAddr> {
    let permits = Arc::new(Semaphore::new(settings.max_connections));
    per_cpu::start(addr, move |listener| {
        accept::accept_loop(listener, Arc::clone(&permits), move |stream| async move {
            match connection(stream, settings).await {
                // A client that stopped making progress is not worth a line.
                Err(e) if e.kind() == io::ErrorKind::TimedOut => {}
                Err(e) => eprintln!("connection: {e}"),
                Ok(()) => {}
            }
        })
    })
}

/// Reads requests from one connection and answers each, in order, until either side closes.
async fn connection(stream: TcpStream, settings: Settings) -> io::Result<()> {
    let mut stream = Timed::new(stream, settings);
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
                    stream.read_body();
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
                    stream.wait_for_head();
                    let route = pending.take().expect("a head before the end");
                    answer(&mut codec, &mut out, route, &body);
                    if last {
                        break true;
                    }
                }
                // Trailer fields, and frames of later versions: this server has no use for
                // them.
                _ => {}
            }
        };
        if !out.is_empty() {
            stream.write_all(&out).await?;
            out.clear();
        }
        if close {
            linger(stream.into_inner(), &settings).await;
            return Ok(());
        }
        // No frame is kept across reads, so the buffer is reused once it has grown.
        input.reserve(READ_ROOM);
        if stream.read_buf(&mut input).await? == 0 {
            eof = true;
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
    let reply = Reply::new(status, headers, content.bytes(body)).head_only(head_only);
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
    let reply = Reply::new(status, headers, reason.as_bytes());
    codec
        .encode(reply, out)
        .expect("the error answers are valid responses");
}
