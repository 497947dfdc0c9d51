//! The competitor of `make bench-server`: a hyper 1.x HTTP/1.1 server that answers what
//! `core/examples/tokio_server.rs` answers, with the same runtime settings.
//!
//! ```text
//! cargo run --release -p server-bench --bin hyper_server -- [ADDR]
//! ```
//!
//! `GET /` answers `hello`, `POST /echo` the request's body, other paths 404; every answer is
//! `text/plain`. Like the httpspan server: one current-thread runtime per CPU (or
//! `HTTPSPAN_THREADS`), each with its own SO_REUSEPORT listener, TCP_NODELAY on, and the answers
//! to pipelined requests flushed together (`pipeline_flush`).

use std::convert::Infallible;
use std::io;
use std::net::SocketAddr;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, CONTENT_TYPE};
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

// The runtime setup of the httpspan examples, so that both sides run alike.
#[path = "../../../core/examples/per_cpu/mod.rs"]
mod per_cpu;

fn main() -> io::Result<()> {
    let addr = std::env::args().nth(1);
    let addr = addr.as_deref().unwrap_or("127.0.0.1:8081");
    let addr: SocketAddr = addr.parse().map_err(io::Error::other)?;
    let bound = per_cpu::start(addr, accept)?;
    println!("listening on http://{bound}");
    loop {
        std::thread::park();
    }
}

/// Accepts connections for ever, each served by hyper as a task of this thread's runtime.
async fn accept(listener: TcpListener) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let _ = stream.set_nodelay(true);
        tokio::spawn(async move {
            // An error is a malformed request or a client that left: hyper has answered (or
            // not) already, and there is nothing more to do.
            let _ = hyper::server::conn::http1::Builder::new()
                .pipeline_flush(true)
                // httpspan's server sends no Date either: the same bytes on both sides.
                .auto_date_header(false)
                .serve_connection(TokioIo::new(stream), service_fn(answer))
                .await;
        });
    }
}

/// The answer to one request.
async fn answer(req: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let (status, body) = match (req.method(), req.uri().path()) {
        (&Method::GET | &Method::HEAD, "/") => (StatusCode::OK, Bytes::from_static(b"hello\n")),
        (&Method::POST | &Method::PUT, "/echo") => match req.into_body().collect().await {
            Ok(body) => (StatusCode::OK, body.to_bytes()),
            Err(_) => (StatusCode::BAD_REQUEST, Bytes::from_static(b"bad body\n")),
        },
        _ => (StatusCode::NOT_FOUND, Bytes::from_static(b"not found\n")),
    };
    let mut res = Response::new(Full::new(body));
    *res.status_mut() = status;
    let plain = HeaderValue::from_static("text/plain");
    res.headers_mut().insert(CONTENT_TYPE, plain);
    Ok(res)
}
