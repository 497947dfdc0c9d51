//! The competitor of `make bench-server`'s proxy runs: a reverse proxy written with hyper 1.x's
//! server and client, with the design and runtime settings of `core/examples/proxy.rs`.
//!
//! ```text
//! cargo run --release -p server-bench --bin hyper_proxy -- LISTEN_ADDR UPSTREAM_ADDR
//! ```
//!
//! Each accepted connection gets its own upstream connection (no pool), over which its requests
//! go in order; bodies stream through in both directions without being collected; hop-by-hop
//! fields (RFC 9110 §7.6.1) and those the Connection field names are dropped both ways. Like the
//! other servers: one current-thread runtime per CPU (or `HTTPSPAN_THREADS`), each with its own
//! SO_REUSEPORT listener, TCP_NODELAY on, the answers to pipelined requests flushed together.
//! An upstream that fails is answered with 502.

use std::io;
use std::net::SocketAddr;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::client::conn::http1::SendRequest;
use hyper::header::{HeaderMap, HeaderName, CONNECTION};
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Mutex;

/// The hop-by-hop fields every HTTP/1.1 proxy removes (RFC 9110 §7.6.1), besides those the
/// Connection field names.
const HOP_BY_HOP: [&str; 8] = [
    "connection",
    "proxy-connection",
    "keep-alive",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "proxy-authorization",
];

type ProxyBody = BoxBody<Bytes, hyper::Error>;

// The runtime setup of the httpspan examples, so that both sides run alike.
#[path = "../../../core/examples/per_cpu/mod.rs"]
mod per_cpu;

fn main() -> io::Result<()> {
    let mut args = std::env::args().skip(1);
    let listen = args.next().unwrap_or_else(|| "127.0.0.1:8082".into());
    let upstream = args.next().unwrap_or_else(|| "127.0.0.1:8081".into());
    let listen: SocketAddr = listen.parse().map_err(io::Error::other)?;
    let upstream: SocketAddr = upstream.parse().map_err(io::Error::other)?;
    let bound = per_cpu::start(listen, move |listener| accept(listener, upstream))?;
    println!("listening on http://{bound}");
    loop {
        std::thread::park();
    }
}

/// Accepts connections for ever, each proxied by a task of this thread's runtime.
async fn accept(listener: TcpListener, upstream: SocketAddr) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let _ = stream.set_nodelay(true);
        tokio::spawn(async move {
            let Ok(sender) = connect(upstream).await else {
                return;
            };
            // hyper serves one request of a connection at a time, so the lock is never
            // contended; it only lets the service closure share the upstream connection.
            let sender = std::sync::Arc::new(Mutex::new(sender));
            let service = service_fn(move |req| forward(sender.clone(), req));
            // An error is a malformed request or a client that left: hyper has answered (or
            // not) already, and there is nothing more to do.
            let _ = hyper::server::conn::http1::Builder::new()
                .pipeline_flush(true)
                .auto_date_header(false)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// One HTTP/1.1 connection to the upstream, driven by a task of its own.
async fn connect(
    upstream: SocketAddr,
) -> Result<SendRequest<ProxyBody>, Box<dyn std::error::Error>> {
    let stream = TcpStream::connect(upstream).await?;
    stream.set_nodelay(true)?;
    let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
    tokio::spawn(connection);
    Ok(sender)
}

/// Sends `req` upstream and streams the answer back, without the hop-by-hop fields.
async fn forward(
    sender: std::sync::Arc<Mutex<SendRequest<ProxyBody>>>,
    req: Request<Incoming>,
) -> Result<Response<ProxyBody>, hyper::Error> {
    let (mut parts, body) = req.into_parts();
    drop_hop_by_hop(&mut parts.headers);
    let req = Request::from_parts(parts, body.boxed());
    let mut sender = sender.lock().await;
    let answer = match sender.ready().await {
        Ok(()) => sender.send_request(req).await,
        Err(e) => Err(e),
    };
    drop(sender);
    match answer {
        Ok(res) => {
            let (mut parts, body) = res.into_parts();
            drop_hop_by_hop(&mut parts.headers);
            Ok(Response::from_parts(parts, body.boxed()))
        }
        Err(_) => {
            let body = Full::new(Bytes::from_static(b"bad gateway\n"))
                .map_err(|never| match never {})
                .boxed();
            let mut res = Response::new(body);
            *res.status_mut() = StatusCode::BAD_GATEWAY;
            Ok(res)
        }
    }
}

/// Removes the fields the Connection field names, then the fixed hop-by-hop ones.
fn drop_hop_by_hop(headers: &mut HeaderMap) {
    let named: Vec<HeaderName> = headers
        .get_all(CONNECTION)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .filter_map(|option| HeaderName::from_bytes(option.trim().as_bytes()).ok())
        .collect();
    for name in named {
        headers.remove(name);
    }
    for name in HOP_BY_HOP {
        headers.remove(name);
    }
}
