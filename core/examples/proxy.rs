//! A reverse proxy on tokio: `ServerCodec` towards clients, `ClientCodec` towards the upstream
//! server, bodies streamed through frame by frame (never buffered whole).
//!
//! ```text
//! cargo run --release -p httpspan --example proxy --features tokio -- 127.0.0.1:8081 127.0.0.1:8080
//! ```
//!
//! Each client connection gets its own upstream connection, opened when its first request
//! arrives and again after the upstream closes one. Requests are forwarded one at a time in
//! the order they arrive (pipelined requests wait in the read buffer); interim answers
//! (`100 Continue`, `103 Early Hints`) are forwarded as they come, except to an HTTP/1.0
//! client, which has none. Hop-by-hop fields (RFC 9110 7.6.1: Connection, the fields it
//! names, Keep-Alive, TE, Transfer-Encoding, Upgrade, Proxy-Connection) are dropped both ways
//! by `httpspan::end_to_end_fields`; the codecs write the framing again. A body the upstream ends by closing is re-framed as chunked (for an
//! HTTP/1.0 client, which cannot read chunked, a chunked or close-delimited body ends by
//! closing the connection, without its trailer fields). Upgrades and CONNECT are answered 501,
//! and so are requests with a transfer coding other than chunked, which the proxy would drop;
//! an upstream answer with one gets 502.

use std::io;
use std::net::SocketAddr;

use futures_util::{SinkExt, StreamExt};
use httpspan::codec::{
    BodyLength, BodyPart, CallHead, ClientCodec, CodecError, Reply, ReplyHead, RequestFrame,
    RequestHead, ResponseFrame, ResponseHead, ServerCodec, TrailerSection,
};
use httpspan::{Field, Framing, KnownHeader, Limits, Version};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::Framed;

mod per_cpu;

type Downstream = Framed<TcpStream, ServerCodec>;
type Upstream = Framed<TcpStream, ClientCodec>;

#[allow(dead_code)] // the tests include this file and call `serve` themselves
fn main() -> io::Result<()> {
    let mut args = std::env::args().skip(1);
    let listen = args.next().unwrap_or_else(|| "127.0.0.1:8081".into());
    let upstream: SocketAddr = args
        .next()
        .unwrap_or_else(|| "127.0.0.1:8080".into())
        .parse()
        .map_err(io::Error::other)?;
    let listen: SocketAddr = listen.parse().map_err(io::Error::other)?;
    let bound = per_cpu::start(listen, move |listener| serve(listener, upstream))?;
    println!("proxying http://{bound} to {upstream}");
    loop {
        std::thread::park();
    }
}

/// Accepts client connections on `listener` for ever and proxies each to `upstream`.
pub async fn serve(listener: TcpListener, upstream: SocketAddr) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let _ = stream.set_nodelay(true);
        tokio::spawn(async move {
            let mut down = Framed::new(stream, ServerCodec::new(Limits::DEFAULT));
            if let Err(e) = connection(&mut down, upstream).await {
                if let Some(status) = e.status() {
                    let _ = down.send(error_reply(status)).await;
                }
            }
        });
    }
}

/// A whole answer with no content but a status, and `Connection: close`.
fn error_reply(status: u16) -> Reply<'static> {
    Reply {
        status,
        headers: &[(b"Connection", b"close")],
        body: b"",
        head_only: false,
    }
}

/// Proxies the requests of one client connection until either side ends it.
async fn connection(down: &mut Downstream, upstream: SocketAddr) -> Result<(), CodecError> {
    let mut up: Option<Upstream> = None;
    while let Some(frame) = down.next().await.transpose()? {
        let RequestFrame::Head(head) = frame else {
            unreachable!("the codec gives a head first");
        };
        let req = head.request();
        let method = head.bytes_of(req.method());
        // Tunnels are not proxied, nor transfer codings other than chunked: the codecs
        // decode chunked and write it again, and would drop the others (RFC 9112 6.1: 501).
        if method == b"CONNECT"
            || req.value(KnownHeader::Upgrade).is_some()
            || req.has_other_codings()
        {
            down.send(error_reply(501)).await?;
            return Ok(());
        }
        let conn = match &mut up {
            Some(conn) => conn,
            None => match TcpStream::connect(upstream).await {
                Ok(stream) => {
                    let _ = stream.set_nodelay(true);
                    up.insert(Framed::new(stream, ClientCodec::new(Limits::DEFAULT)))
                }
                Err(_) => {
                    down.send(error_reply(502)).await?;
                    return Ok(());
                }
            },
        };
        let (last, upstream_done) = forward(down, conn, &head).await?;
        if upstream_done {
            up = None;
        }
        if last {
            // An answer may wait in the write buffer behind a pipelined request not served.
            return SinkExt::<BodyPart>::flush(down).await;
        }
    }
    Ok(())
}

/// Forwards one request (whose head is `head`) and its answer. Returns whether the client
/// connection ends after it, and whether the upstream connection does.
async fn forward(
    down: &mut Downstream,
    up: &mut Upstream,
    head: &RequestHead,
) -> Result<(bool, bool), CodecError> {
    let req = head.request();
    let length = match req.framing() {
        Framing::Length(n) => BodyLength::Fixed(n),
        Framing::Chunked => BodyLength::Chunked,
        _ => BodyLength::Fixed(0),
    };
    let fields = end_to_end(head.bytes(), req.fields());
    let call = CallHead {
        method: head.bytes_of(req.method()),
        target: head.bytes_of(req.target()),
        headers: &fields,
        length,
    };
    // The head goes out with the body's first bytes, unless the client waits for 100 Continue.
    if head.expects_continue() {
        up.send(call).await?;
    } else {
        up.feed(call).await?;
    }
    let mut answer = Answered {
        head_only: head.bytes_of(req.method()) == b"HEAD",
        http10: req.version() == Version::Http10,
        started: false,
        until_close: false,
    };
    // The client waits for `100 Continue` before its body: so does the proxy, forwarding the
    // upstream's answer. A final answer instead means the body is not wanted.
    if head.expects_continue() {
        relay_until_final_or_continue(down, up, &mut answer).await?;
        if answer.started {
            // Nobody reads the body the client may still send: finish the answer and close.
            relay_answer(down, up, &mut answer).await?;
            return Ok((true, true));
        }
    }
    // The request's body, frame by frame.
    let last = loop {
        let Some(frame) = down.next().await.transpose()? else {
            return Err(CodecError::Incomplete);
        };
        match frame {
            RequestFrame::Body(data) => up.feed(BodyPart::Data(&data)).await?,
            RequestFrame::Trailers(section) => {
                up.feed(BodyPart::Trailers(&trailer_fields(&section)))
                    .await?;
            }
            RequestFrame::End { last } => {
                up.send(BodyPart::End).await?;
                break last;
            }
            RequestFrame::Head(_) => unreachable!("the codec ends a request before the next"),
        }
    };
    let upstream_done = relay_answer(down, up, &mut answer).await?;
    Ok((last || answer.until_close, upstream_done))
}

/// The answer to the current request: what the client asked, and how far it is relayed.
struct Answered {
    /// The request was HEAD: the answer announces a length and has no body.
    head_only: bool,
    /// The client speaks HTTP/1.0, which cannot read chunked (RFC 9112 6.1) and has no
    /// interim answers (RFC 9110 15.2).
    http10: bool,
    /// The final head has been sent to the client.
    started: bool,
    /// The body goes to the client delimited by closing the connection (an HTTP/1.0 client
    /// and a body of unknown length), so its trailer fields are dropped.
    until_close: bool,
}

/// Relays interim answers until a `100 Continue` (also relayed) or a final head (relayed; the
/// caller finishes the answer).
async fn relay_until_final_or_continue(
    down: &mut Downstream,
    up: &mut Upstream,
    answer: &mut Answered,
) -> Result<(), CodecError> {
    loop {
        let Some(frame) = up.next().await.transpose()? else {
            return Err(CodecError::Incomplete);
        };
        match frame {
            ResponseFrame::Interim(head) => {
                relay_interim(down, &head).await?;
                if head.response().status() == 100 {
                    return Ok(());
                }
            }
            ResponseFrame::Head(head) => return relay_head(down, &head, answer).await,
            _ => unreachable!("the codec gives a head before the rest of an answer"),
        }
    }
}

async fn relay_interim(down: &mut Downstream, head: &ResponseHead) -> Result<(), CodecError> {
    let res = head.response();
    let fields = end_to_end(head.bytes(), res.fields());
    let interim = ReplyHead {
        status: res.status(),
        headers: &fields,
        length: BodyLength::Fixed(0),
        head_only: false,
    };
    down.send(interim).await
}

async fn relay_head(
    down: &mut Downstream,
    head: &ResponseHead,
    answer: &mut Answered,
) -> Result<(), CodecError> {
    let res = head.response();
    if res.has_other_codings() {
        // A coding the proxy cannot write again (see `connection`): the upstream's answer
        // cannot be forwarded as it is, so the client gets 502 and the connection ends.
        down.send(error_reply(502)).await?;
        let why = "the upstream answered with a transfer coding other than chunked";
        return Err(CodecError::Io(io::Error::other(why)));
    }
    let length = match res.framing() {
        Framing::Length(n) => BodyLength::Fixed(n),
        Framing::Chunked | Framing::UntilClose if answer.http10 => BodyLength::UntilClose,
        Framing::Chunked | Framing::UntilClose => BodyLength::Chunked,
        // No body: a response to HEAD or a 304 announces the length it would have, if it has
        // one (`UntilClose` writes no framing field, and a message without a body ends anyway).
        Framing::NoBody => match res.content_length() {
            Some(n) => BodyLength::Fixed(n),
            None => BodyLength::UntilClose,
        },
    };
    let fields = end_to_end(head.bytes(), res.fields());
    let reply = ReplyHead {
        status: res.status(),
        headers: &fields,
        length,
        head_only: answer.head_only,
    };
    answer.started = true;
    answer.until_close = length == BodyLength::UntilClose && res.framing() != Framing::NoBody;
    down.feed(reply).await
}

/// Relays the rest of an answer. Returns whether the upstream connection ends after it.
async fn relay_answer(
    down: &mut Downstream,
    up: &mut Upstream,
    answer: &mut Answered,
) -> Result<bool, CodecError> {
    loop {
        let Some(frame) = up.next().await.transpose()? else {
            return Err(CodecError::Incomplete);
        };
        match frame {
            // HTTP/1.0 has no interim answers (RFC 9110 15.2): its client gets the final one.
            ResponseFrame::Interim(_) if !answer.started && answer.http10 => {}
            ResponseFrame::Interim(head) if !answer.started => relay_interim(down, &head).await?,
            ResponseFrame::Head(head) if !answer.started => {
                relay_head(down, &head, answer).await?;
            }
            ResponseFrame::Body(data) => down.feed(BodyPart::Data(&data)).await?,
            ResponseFrame::Trailers(_) if answer.until_close => {}
            ResponseFrame::Trailers(section) => {
                down.feed(BodyPart::Trailers(&trailer_fields(&section)))
                    .await?;
            }
            ResponseFrame::End { last } => {
                // With a pipelined request already read, its answer goes out in the same write
                // (the next read or the last answer flushes).
                if down.read_buffer().is_empty() {
                    down.send(BodyPart::End).await?;
                } else {
                    down.feed(BodyPart::End).await?;
                }
                return Ok(last);
            }
            _ => unreachable!("the codec gives one head per answer"),
        }
    }
}

/// The trailer fields of `section` a proxy may forward (without hop-by-hop ones and those
/// RFC 9110 6.5.1 keeps out of trailers, which the codec would refuse), name and value.
pub fn trailer_fields(section: &TrailerSection) -> Vec<(&[u8], &[u8])> {
    let fields = section.trailers().fields().iter();
    fields
        .map(|f| (section.bytes_of(f.name), section.bytes_of(f.value)))
        // The hop-by-hop fields are among those a trailer section may not carry.
        .filter(|(name, _)| httpspan::allowed_in_trailers(name))
        .collect()
}

/// The fields of a head a proxy forwards ([`httpspan::end_to_end_fields`]: without the
/// hop-by-hop fields and those the Connection field names), and without Content-Length, which
/// the codec writes from the body length it is given.
fn end_to_end<'a>(head: &'a [u8], fields: &'a [Field]) -> Vec<(&'a [u8], &'a [u8])> {
    httpspan::end_to_end_fields(fields, head)
        .map(|f| (f.name.as_bytes(head), f.value.as_bytes(head)))
        .filter(|(name, _)| !name.eq_ignore_ascii_case(b"content-length"))
        .collect()
}
