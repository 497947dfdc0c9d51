//! A reverse proxy on tokio: `ServerCodec` towards clients, `ClientCodec` towards the upstream
//! server, bodies streamed through frame by frame (never buffered whole).
//!
//! ```text
//! cargo run --release -p httpspan --example proxy --features tokio -- 127.0.0.1:8081 127.0.0.1:8080
//! ```
//!
//! Each client connection gets its own upstream connection, opened when its first request
//! arrives and again after the upstream closes one. Requests are forwarded in the order they
//! arrive; those a client pipelines behind one being answered (up to 16) are
//! sent on to the upstream at once when they have no body and a safe method (GET, HEAD,
//! OPTIONS), and sent again on a new connection should the upstream close before answering
//! them (RFC 9112 9.3.1); any other waits for the answers before it. Interim answers
//! (`100 Continue`, `103 Early Hints`) are forwarded as they come, except to an HTTP/1.0
//! client, which has none. Hop-by-hop fields (RFC 9110 7.6.1: Connection, the fields it
//! names, Keep-Alive, TE, Transfer-Encoding, Upgrade, Proxy-Connection) are dropped both ways
//! by `httpspan::end_to_end_fields`; the codecs write the framing again. A request whose
//! Connection field names Host, which the request cannot go without, is answered 400. An
//! absolute-form target (`http://host/path`) goes on in origin-form, with a Host field made
//! from its authority in place of the client's (RFC 9112 3.2.2). A body the upstream ends by
//! closing is re-framed as chunked (for an HTTP/1.0 client, which cannot read chunked, a
//! chunked or close-delimited body ends by closing the connection, without its trailer
//! fields). Upgrades and CONNECT are answered 501, and so are requests with a transfer coding
//! other than chunked, which the proxy would drop; an upstream answer with one gets 502.
//!
//! Deadlines (`settings/mod.rs`, each changed through an environment variable): towards the
//! client those of `tokio_server.rs` (a head in 30 s, counting a kept-alive connection's wait;
//! bodies and writes 1 KiB per 30 s; a bounded lingering close); towards the upstream, 10 s
//! to connect and 60 s for an answer's head and for each 1 KiB of its body. An upstream that
//! cannot be reached or fails before its answer begins gets the client a 502, one that is too
//! slow a 504; one that fails after, a closed connection. At most 4,096 client connections
//! are served at once, and an accept error pauses the accept loop instead of spinning.

use std::collections::VecDeque;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use futures_util::{SinkExt, StreamExt};
use httpspan::codec::{
    BodyLength, BodyPart, CallHead, ClientCodec, CodecError, Reply, ReplyHead, RequestFrame,
    RequestHead, ResponseFrame, ResponseHead, ServerCodec, TrailerSection,
};
use httpspan::{Field, Framing, KnownHeader, Limits, Request, Version};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio_util::codec::{Decoder as _, Framed};

mod accept;
mod per_cpu;
pub mod settings;
mod timed;
use settings::Settings;
use timed::{linger, Timed};

type Downstream = Framed<Timed<TcpStream>, ServerCodec>;
type Upstream = Framed<Timed<TcpStream>, ClientCodec>;

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
    let settings = Settings::from_env();
    let permits = Arc::new(Semaphore::new(settings.max_connections));
    let bound = per_cpu::start(listen, move |listener| {
        serve_with(listener, upstream, settings, Arc::clone(&permits))
    })?;
    println!("proxying http://{bound} to {upstream}");
    loop {
        std::thread::park();
    }
}

/// Accepts client connections on `listener` for ever and proxies each to `upstream`, with the
/// default settings.
pub async fn serve(listener: TcpListener, upstream: SocketAddr) {
    let settings = Settings::DEFAULT;
    let permits = Arc::new(Semaphore::new(settings.max_connections));
    serve_with(listener, upstream, settings, permits).await
}

/// Accepts client connections on `listener` for ever, each holding one of `permits` while it
/// is proxied to `upstream` under `settings`.
pub async fn serve_with(
    listener: TcpListener,
    upstream: SocketAddr,
    settings: Settings,
    permits: Arc<Semaphore>,
) {
    accept::accept_loop(listener, permits, move |stream| {
        client(stream, upstream, settings)
    })
    .await
}

/// Proxies one client connection, answers the error that ended it if one is due, and closes.
async fn client(stream: TcpStream, upstream: SocketAddr, settings: Settings) {
    let mut down = Framed::new(
        Timed::new(stream, settings),
        ServerCodec::new(Limits::DEFAULT),
    );
    let status = match connection(&mut down, upstream, &settings).await {
        Ok(()) | Err(Failure::Closed) | Err(Failure::Upstream(_)) => None,
        Err(Failure::Client(e)) => e.status(),
        Err(Failure::Answer(status)) => Some(status),
    };
    if let Some(status) = status {
        if down.send(error_reply(status)).await.is_err() {
            return;
        }
    }
    linger(down.into_inner().into_inner(), &settings).await;
}

/// Why a client connection ends early.
enum Failure {
    /// The client broke a rule or left, or its socket failed: it gets the error's status, if
    /// it has one.
    Client(CodecError),
    /// The upstream failed or timed out (sorted out by [`upstream_failure`]).
    Upstream(CodecError),
    /// The client gets this status, then the connection closes.
    Answer(u16),
    /// The connection closes without an answer (one was already begun).
    Closed,
}

impl From<CodecError> for Failure {
    fn from(e: CodecError) -> Failure {
        Failure::Client(e)
    }
}

/// What the client gets when the upstream fails: 504 when it was too slow, 502 otherwise, and
/// nothing once its answer has begun (the client sees the connection close).
fn upstream_failure(e: CodecError, answer_started: bool) -> Failure {
    match e {
        _ if answer_started => Failure::Closed,
        CodecError::Io(e) if e.kind() == io::ErrorKind::TimedOut => Failure::Answer(504),
        _ => Failure::Answer(502),
    }
}

/// A whole answer with no content but a status, and `Connection: close`.
fn error_reply(status: u16) -> Reply<'static> {
    Reply::new(status, &[(b"Connection", b"close")], b"")
}

/// Proxies the requests of one client connection until either side ends it.
async fn connection(
    down: &mut Downstream,
    upstream: SocketAddr,
    settings: &Settings,
) -> Result<(), Failure> {
    let mut up: Option<Upstream> = None;
    // The upstream's deadlines: its own timeout for a head, a body's progress and a write.
    let upstream_settings = Settings {
        head: settings.upstream,
        body: settings.upstream,
        write: settings.upstream,
        ..*settings
    };
    // Requests read ahead from the client: `sent` already went to the upstream and await
    // their answers, in order; `unsent` (whose answers the upstream never gave, for it
    // closed) go again, before anything else is read.
    let mut ahead = Lookahead::default();
    let mut unsent: VecDeque<Ahead> = VecDeque::new();
    loop {
        if let Some(conn) = &mut up {
            while let Some(sent) = ahead.sent.pop_front() {
                let (last, upstream_done) = relay_ahead(down, conn, &sent).await?;
                if last {
                    return Ok(SinkExt::<BodyPart>::flush(down).await?);
                }
                if upstream_done {
                    // Bodiless requests of safe methods only were sent ahead: sending them
                    // again is allowed (RFC 9112 9.3.1).
                    unsent.extend(ahead.sent.drain(..));
                    up = None;
                    break;
                }
            }
        }
        let (head, read) = match (unsent.pop_front(), ahead.next.take()) {
            (Some(again), next) => {
                ahead.next = next;
                (again.head, Some(again.last))
            }
            (None, Some(next)) => {
                down.get_mut().read_body();
                (next?, None)
            }
            (None, None) => {
                down.get_mut().wait_for_head();
                let Some(frame) = down.next().await.transpose()? else {
                    return Ok(());
                };
                let RequestFrame::Head(head) = frame else {
                    unreachable!("the codec gives a head first");
                };
                down.get_mut().read_body();
                (head, None)
            }
        };
        let req = head.request();
        let method = head.bytes_of(req.method());
        // Tunnels are not proxied, nor transfer codings other than chunked: the codecs
        // decode chunked and write it again, and would drop the others (RFC 9112 6.1: 501).
        if method == b"CONNECT"
            || req.value(KnownHeader::Upgrade).is_some()
            || req.has_other_codings()
        {
            return Err(Failure::Answer(501));
        }
        // Dropping a field the Connection field names would drop Host (RFC 9110 7.6.1 lets a
        // proxy refuse such a request).
        if connection_names(req, head.bytes(), b"host") {
            return Err(Failure::Answer(400));
        }
        let conn = match &mut up {
            Some(conn) => conn,
            None => {
                match tokio::time::timeout(settings.upstream_connect, TcpStream::connect(upstream))
                    .await
                {
                    Ok(Ok(stream)) => {
                        let _ = stream.set_nodelay(true);
                        let stream = Timed::new(stream, upstream_settings);
                        up.insert(Framed::new(stream, ClientCodec::new(Limits::DEFAULT)))
                    }
                    Ok(Err(_)) => return Err(Failure::Answer(502)),
                    Err(_elapsed) => return Err(Failure::Answer(504)),
                }
            }
        };
        // Reading ahead waits while requests wait to go again, which must keep their order.
        let read_ahead = unsent.is_empty().then_some(&mut ahead);
        let (last, upstream_done) = forward(down, conn, &head, read, read_ahead).await?;
        if upstream_done {
            unsent.extend(ahead.sent.drain(..));
            up = None;
        }
        if last {
            // An answer may wait in the write buffer behind a pipelined request not served.
            return Ok(SinkExt::<BodyPart>::flush(down).await?);
        }
    }
}

/// Whether a Connection field of `req` (whose spans index `head`) names `name`.
fn connection_names(req: &Request, head: &[u8], name: &[u8]) -> bool {
    fn trim(mut s: &[u8]) -> &[u8] {
        while let [b' ' | b'\t', rest @ ..] = s {
            s = rest;
        }
        while let [rest @ .., b' ' | b'\t'] = s {
            s = rest;
        }
        s
    }
    req.fields()
        .iter()
        .filter(|f| f.name.as_bytes(head).eq_ignore_ascii_case(b"connection"))
        .flat_map(|f| f.value.as_bytes(head).split(|&b| b == b','))
        .any(|option| trim(option).eq_ignore_ascii_case(name))
}

/// For an absolute-form target (RFC 9112 3.2.2), its authority and the origin-form target
/// that goes on in its place; `None` for any other form.
fn absolute_form(target: &[u8]) -> Option<(&[u8], Vec<u8>)> {
    let start = target.windows(3).position(|w| w == b"://")?;
    let scheme = &target[..start];
    if scheme.is_empty()
        || !scheme
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(b))
    {
        return None;
    }
    let rest = &target[start + 3..];
    let end = rest
        .iter()
        .position(|&b| b == b'/' || b == b'?')
        .unwrap_or(rest.len());
    let mut origin = Vec::with_capacity(rest.len() - end + 1);
    if rest.get(end) != Some(&b'/') {
        origin.push(b'/');
    }
    origin.extend_from_slice(&rest[end..]);
    Some((&rest[..end], origin))
}

/// Forwards one request (whose head is `head`) and its answer. Returns whether the client
/// connection ends after it, and whether the upstream connection does.
///
/// `read`: `Some(last)` when the request has been read whole already (sent ahead before, and
/// going again). `ahead`: where to put the bodiless requests of safe methods that the client
/// pipelined behind this one and that are sent to the upstream before this answer is relayed
/// (`None`: none are).
async fn forward(
    down: &mut Downstream,
    up: &mut Upstream,
    head: &RequestHead,
    read: Option<bool>,
    ahead: Option<&mut Lookahead>,
) -> Result<(bool, bool), Failure> {
    let req = head.request();
    let mut answer = Answered {
        head_only: head.bytes_of(req.method()) == b"HEAD",
        http10: req.version() == Version::Http10,
        started: false,
        until_close: false,
    };
    match exchange(down, up, head, read, ahead, &mut answer).await {
        Err(Failure::Upstream(e)) => Err(upstream_failure(e, answer.started)),
        result => result,
    }
}

/// [`forward`], with the upstream's failures as [`Failure::Upstream`].
async fn exchange(
    down: &mut Downstream,
    up: &mut Upstream,
    head: &RequestHead,
    read: Option<bool>,
    ahead: Option<&mut Lookahead>,
    answer: &mut Answered,
) -> Result<(bool, bool), Failure> {
    send_head(up, head).await?;
    // The client waits for `100 Continue` before its body: so does the proxy, forwarding the
    // upstream's answer. A final answer instead means the body is not wanted.
    if head.expects_continue() {
        relay_until_final_or_continue(down, up, answer).await?;
        if answer.started {
            // Nobody reads the body the client may still send: finish the answer and close.
            relay_answer(down, up, answer).await?;
            return Ok((true, true));
        }
    }
    // The request's body, frame by frame.
    let last = match read {
        Some(last) => last,
        None => loop {
            let Some(frame) = down.next().await.transpose()? else {
                return Err(Failure::Client(CodecError::Incomplete));
            };
            let sent = match frame {
                RequestFrame::Body(data) => up.feed(BodyPart::Data(&data)).await,
                RequestFrame::Trailers(section) => {
                    up.feed(BodyPart::Trailers(&trailer_fields(&section))).await
                }
                RequestFrame::End { last } => break last,
                RequestFrame::Head(_) => unreachable!("the codec ends a request before the next"),
                // A kind of frame a later version adds, which this proxy cannot forward.
                _ => return Err(Failure::Answer(501)),
            };
            sent.map_err(Failure::Upstream)?;
        },
    };
    up.feed(BodyPart::End).await.map_err(Failure::Upstream)?;
    if let (Some(ahead), false) = (ahead, last) {
        send_ahead(down, up, ahead).await?;
    }
    SinkExt::<BodyPart>::flush(up)
        .await
        .map_err(Failure::Upstream)?;
    up.get_mut().wait_for_head();
    let upstream_done = relay_answer(down, up, answer).await?;
    Ok((last || answer.until_close, upstream_done))
}

/// Sends the head of `head`'s request to the upstream (flushed if the client waits for
/// `100 Continue`, else buffered until the body's first bytes or its end).
async fn send_head(up: &mut Upstream, head: &RequestHead) -> Result<(), Failure> {
    let req = head.request();
    let length = match req.framing() {
        Framing::Length(n) => BodyLength::Fixed(n),
        Framing::Chunked => BodyLength::Chunked,
        _ => BodyLength::Fixed(0),
    };
    let mut fields = end_to_end(head.bytes(), req.fields());
    let mut target = head.bytes_of(req.target());
    // The authority of an absolute-form target is the request's host, whatever Host says.
    let absolute = absolute_form(target);
    if let Some((authority, origin)) = &absolute {
        if authority.contains(&b'@') {
            return Err(Failure::Answer(400));
        }
        fields.retain(|(name, _)| !name.eq_ignore_ascii_case(b"host"));
        fields.insert(0, (b"Host", authority));
        target = origin;
    }
    let call = CallHead::new(head.bytes_of(req.method()), target, &fields, length);
    if head.expects_continue() {
        up.send(call).await.map_err(Failure::Upstream)?;
        up.get_mut().wait_for_head();
    } else {
        up.feed(call).await.map_err(Failure::Upstream)?;
    }
    Ok(())
}

/// How many requests the proxy sends ahead of the answer it waits for.
const MAX_AHEAD: usize = 16;

/// The requests read ahead from the client while an answer is awaited.
#[derive(Default)]
struct Lookahead {
    /// Sent to the upstream, awaiting their answers in order.
    sent: VecDeque<Ahead>,
    /// The request read after them that could not be sent ahead, or the error that ended the
    /// reading: the next to handle once their answers are relayed.
    next: Option<Result<RequestHead, CodecError>>,
}

/// A request read ahead from the client and its end: a safe method, no body.
struct Ahead {
    head: RequestHead,
    /// The client connection ends after its answer.
    last: bool,
}

/// Sends to the upstream the requests the client pipelined that are complete in the read
/// buffer, as long as each is bodiless, of a safe method (sent again should the upstream close
/// before answering it) and needs nothing the proxy refuses. The first other one (or the
/// error that stopped the decoding) is kept in `ahead.next`, to be taken in its turn.
async fn send_ahead(
    down: &mut Downstream,
    up: &mut Upstream,
    ahead: &mut Lookahead,
) -> Result<(), Failure> {
    while ahead.sent.len() < MAX_AHEAD && ahead.next.is_none() {
        match read_buffered_request(down) {
            Buffered::Nothing => return Ok(()),
            Buffered::Other(next) => ahead.next = Some(next),
            Buffered::Simple(request) => {
                send_head(up, &request.head).await?;
                up.feed(BodyPart::End).await.map_err(Failure::Upstream)?;
                let last = request.last;
                ahead.sent.push_back(request);
                if last {
                    return Ok(());
                }
            }
        }
    }
    Ok(())
}

/// What the client's read buffer holds next.
enum Buffered {
    /// No complete head.
    Nothing,
    /// A request that may be sent ahead, whole.
    Simple(Ahead),
    /// A request that may not (its body, if any, is still to read), or an error.
    Other(Result<RequestHead, CodecError>),
}

/// Decodes the next request in the client's read buffer, without reading the socket.
fn read_buffered_request(down: &mut Downstream) -> Buffered {
    if down.read_buffer().is_empty() {
        return Buffered::Nothing;
    }
    // The codec decodes from the buffer the `Framed` would give it; the buffer goes back.
    let mut buffer = std::mem::take(down.read_buffer_mut());
    let buffered = decode_buffered(down.codec_mut(), &mut buffer);
    *down.read_buffer_mut() = buffer;
    buffered
}

fn decode_buffered(codec: &mut ServerCodec, buffer: &mut bytes::BytesMut) -> Buffered {
    let head = match codec.decode(buffer) {
        Ok(Some(RequestFrame::Head(head))) => head,
        Ok(None) => return Buffered::Nothing,
        Ok(Some(_)) => unreachable!("the codec gives a head first"),
        Err(e) => return Buffered::Other(Err(e)),
    };
    let req = head.request();
    let simple = matches!(head.bytes_of(req.method()), b"GET" | b"HEAD" | b"OPTIONS")
        && matches!(req.framing(), Framing::NoBody | Framing::Length(0))
        && !head.expects_continue()
        && req.value(KnownHeader::Upgrade).is_none()
        && !connection_names(req, head.bytes(), b"host");
    if !simple {
        return Buffered::Other(Ok(head));
    }
    // A bodiless request ends with its head.
    match codec.decode(buffer) {
        Ok(Some(RequestFrame::End { last })) => Buffered::Simple(Ahead { head, last }),
        _ => unreachable!("a request without a body ends with its head"),
    }
}

/// Relays the answer to a request sent ahead. Returns whether the client connection ends
/// after it, and whether the upstream connection does.
async fn relay_ahead(
    down: &mut Downstream,
    up: &mut Upstream,
    ahead: &Ahead,
) -> Result<(bool, bool), Failure> {
    let req = ahead.head.request();
    let mut answer = Answered {
        head_only: ahead.head.bytes_of(req.method()) == b"HEAD",
        http10: req.version() == Version::Http10,
        started: false,
        until_close: false,
    };
    up.get_mut().wait_for_head();
    match relay_answer(down, up, &mut answer).await {
        Ok(upstream_done) => Ok((ahead.last || answer.until_close, upstream_done)),
        Err(Failure::Upstream(e)) => Err(upstream_failure(e, answer.started)),
        Err(e) => Err(e),
    }
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
) -> Result<(), Failure> {
    loop {
        let frame = up.next().await.transpose().map_err(Failure::Upstream)?;
        let Some(frame) = frame else {
            return Err(Failure::Upstream(CodecError::Incomplete));
        };
        match frame {
            ResponseFrame::Interim(head) => {
                relay_interim(down, &head).await?;
                if head.response().status() == 100 {
                    return Ok(());
                }
            }
            ResponseFrame::Head(head) => {
                up.get_mut().read_body();
                return relay_head(down, &head, answer).await;
            }
            _ => unreachable!("the codec gives a head before the rest of an answer"),
        }
    }
}

async fn relay_interim(down: &mut Downstream, head: &ResponseHead) -> Result<(), CodecError> {
    let res = head.response();
    let fields = end_to_end(head.bytes(), res.fields());
    let interim = ReplyHead::new(res.status(), &fields, BodyLength::Fixed(0));
    down.send(interim).await
}

async fn relay_head(
    down: &mut Downstream,
    head: &ResponseHead,
    answer: &mut Answered,
) -> Result<(), Failure> {
    let res = head.response();
    if res.has_other_codings() {
        // A coding the proxy cannot write again (see `connection`): the upstream's answer
        // cannot be forwarded as it is, so the client gets 502 and the connection ends.
        return Err(Failure::Answer(502));
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
    let reply = ReplyHead::new(res.status(), &fields, length).head_only(answer.head_only);
    answer.started = true;
    answer.until_close = length == BodyLength::UntilClose && res.framing() != Framing::NoBody;
    Ok(down.feed(reply).await?)
}

/// Relays the rest of an answer. Returns whether the upstream connection ends after it.
async fn relay_answer(
    down: &mut Downstream,
    up: &mut Upstream,
    answer: &mut Answered,
) -> Result<bool, Failure> {
    loop {
        let frame = up.next().await.transpose().map_err(Failure::Upstream)?;
        let Some(frame) = frame else {
            return Err(Failure::Upstream(CodecError::Incomplete));
        };
        match frame {
            // HTTP/1.0 has no interim answers (RFC 9110 15.2): its client gets the final one.
            ResponseFrame::Interim(_) if !answer.started && answer.http10 => {}
            ResponseFrame::Interim(head) if !answer.started => relay_interim(down, &head).await?,
            ResponseFrame::Head(head) if !answer.started => {
                up.get_mut().read_body();
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
