//! An origin server for the client and proxy tests, on `ServerCodec`'s streamed encoder:
//!
//! - `GET|HEAD /cl`: `hello`, with a Content-Length;
//! - `GET|HEAD /chunked`: `one two three` in three chunks, then the trailer `Checksum: 3`;
//! - `GET /close`: `until close`, delimited by closing the connection;
//! - `GET /hints`: `103 Early Hints` with a Link field, then `hinted`;
//! - `GET /headers`: the request's field names, lower-case, one a line;
//! - `POST /echo`: `100 Continue` when asked, then the body back as it arrives (chunked),
//!   with the request's trailer fields;
//! - `GET /gzip`: a body with `Transfer-Encoding: gzip, chunked`, written by hand;
//! - anything else: 404.

use futures_util::{SinkExt, StreamExt};
use httpspan::codec::{
    BodyLength, BodyPart, CodecError, Reply, ReplyHead, RequestFrame, RequestHead, ServerCodec,
};
use httpspan::Limits;
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::Framed;

/// Starts the origin on a free port of 127.0.0.1 in the current runtime.
pub async fn start() -> std::net::SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let (stream, _) = listener.accept().await.unwrap();
            tokio::spawn(async move {
                if let Err(e) = connection(stream).await {
                    eprintln!("origin: {e}");
                }
            });
        }
    });
    addr
}

enum Route {
    Fixed(u16, &'static [u8], bool),
    /// Whether the request was HEAD: the head only, chunked without a length.
    Chunked(bool),
    Close,
    Hints,
    Gzip,
    Headers(Vec<u8>),
    Echo,
}

fn route(head: &RequestHead) -> Route {
    let req = head.request();
    let method = head.bytes_of(req.method());
    match (method, head.bytes_of(req.target())) {
        (b"GET" | b"HEAD", b"/cl") => Route::Fixed(200, b"hello", method == b"HEAD"),
        (b"GET" | b"HEAD", b"/chunked") => Route::Chunked(method == b"HEAD"),
        (b"GET", b"/close") => Route::Close,
        (b"GET", b"/hints") => Route::Hints,
        (b"GET", b"/gzip") => Route::Gzip,
        (b"GET", b"/headers") => {
            let mut names = Vec::new();
            for f in req.fields() {
                names.extend(head.bytes_of(f.name).to_ascii_lowercase());
                names.push(b'\n');
            }
            Route::Headers(names)
        }
        (b"POST", b"/echo") => Route::Echo,
        _ => Route::Fixed(404, b"not found", false),
    }
}

async fn connection(stream: TcpStream) -> Result<(), CodecError> {
    let mut conn = Framed::new(stream, ServerCodec::new(Limits::DEFAULT));
    let mut current = None;
    while let Some(frame) = conn.next().await.transpose()? {
        match frame {
            RequestFrame::Head(head) => {
                let route = route(&head);
                if let Route::Echo = route {
                    if head.expects_continue() {
                        conn.send(interim(100, &[])).await?;
                    }
                    let reply = ReplyHead::new(200, &[], BodyLength::Chunked);
                    conn.feed(reply).await?;
                }
                current = Some(route);
            }
            RequestFrame::Body(data) => {
                if let Some(Route::Echo) = current {
                    conn.send(BodyPart::Data(&data)).await?;
                }
            }
            RequestFrame::Trailers(section) => {
                if let Some(Route::Echo) = current {
                    let fields: Vec<(&[u8], &[u8])> = section
                        .trailers()
                        .fields()
                        .iter()
                        .map(|f| (section.bytes_of(f.name), section.bytes_of(f.value)))
                        .collect();
                    conn.feed(BodyPart::Trailers(&fields)).await?;
                }
            }
            RequestFrame::End { last } => {
                let close = answer(&mut conn, current.take().expect("a head")).await?;
                if last || close {
                    return Ok(());
                }
            }
            other => panic!("a frame the origin does not expect: {other:?}"),
        }
    }
    Ok(())
}

fn interim<'a>(status: u16, headers: &'a [(&'a [u8], &'a [u8])]) -> ReplyHead<'a> {
    ReplyHead::new(status, headers, BodyLength::Fixed(0))
}

/// Sends the answer; returns whether the connection ends with it.
async fn answer(
    conn: &mut Framed<TcpStream, ServerCodec>,
    route: Route,
) -> Result<bool, CodecError> {
    let whole = |status, body, head_only| {
        Reply::new(status, &[(b"Content-Type", b"text/plain")], body).head_only(head_only)
    };
    let streamed = |length, head_only| {
        ReplyHead::new(200, &[(b"Content-Type", b"text/plain")], length).head_only(head_only)
    };
    match route {
        Route::Fixed(status, body, head_only) => conn.send(whole(status, body, head_only)).await?,
        Route::Headers(names) => conn.send(whole(200, &names, false)).await?,
        Route::Echo => conn.send(BodyPart::End).await?,
        Route::Chunked(true) => {
            conn.feed(streamed(BodyLength::Chunked, true)).await?;
            conn.send(BodyPart::End).await?;
        }
        Route::Chunked(false) => {
            conn.feed(streamed(BodyLength::Chunked, false)).await?;
            for piece in [&b"one "[..], b"two ", b"three"] {
                // Each chunk its own write, so that the reader sees them arrive apart.
                conn.send(BodyPart::Data(piece)).await?;
            }
            conn.feed(BodyPart::Trailers(&[(b"Checksum", b"3")]))
                .await?;
            conn.send(BodyPart::End).await?;
        }
        Route::Close => {
            conn.feed(streamed(BodyLength::UntilClose, false)).await?;
            conn.send(BodyPart::Data(b"until ")).await?;
            conn.send(BodyPart::Data(b"close")).await?;
            conn.send(BodyPart::End).await?;
            return Ok(true);
        }
        Route::Gzip => {
            // The codec writes only chunked: another coding goes around it.
            let wire =
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n2\r\nzz\r\n0\r\n\r\n";
            conn.write_buffer_mut().extend_from_slice(wire);
            SinkExt::<BodyPart<'_>>::flush(conn).await?;
        }
        Route::Hints => {
            conn.send(interim(103, &[(b"Link", b"</style.css>; rel=preload")]))
                .await?;
            conn.send(whole(200, b"hinted", false)).await?;
        }
    }
    Ok(false)
}
