//! An HTTP/1.1 client on tokio with `Framed<TcpStream, httpspan::codec::ClientCodec>`: pipelined
//! requests, streamed chunked bodies with trailers, `Expect: 100-continue`, interim answers.
//!
//! ```text
//! cargo run -p httpspan --example client --features tokio -- 127.0.0.1:8080 /
//! ```
//!
//! It sends `GET PATH` with `Host: ADDR` and prints the answer: interim statuses, status, fields,
//! body and trailer fields. [`exchange`] is what the tests call.

use std::io;

use futures_util::{SinkExt, StreamExt};
use httpspan::codec::{
    BodyLength, BodyPart, Call, CallHead, ClientCodec, CodecError, ResponseFrame,
};
use httpspan::Limits;
use tokio::net::TcpStream;
use tokio_util::codec::Framed;

/// A request to send.
#[derive(Clone, Debug, Default)]
pub struct Req {
    /// `GET`, `POST`, ...
    pub method: &'static str,
    /// The request target.
    pub target: String,
    /// Field lines; include Host.
    pub headers: Vec<(String, String)>,
    /// The body and how it is framed.
    pub body: ReqBody,
}

/// A request body.
#[derive(Clone, Debug, Default)]
pub enum ReqBody {
    /// None.
    #[default]
    Empty,
    /// These bytes, with a Content-Length.
    Whole(Vec<u8>),
    /// These chunks, then these trailer fields.
    Chunks(Vec<Vec<u8>>, Vec<(String, String)>),
}

impl Req {
    /// Whether the request waits for `100 Continue` before its body.
    fn expects_continue(&self) -> bool {
        self.headers.iter().any(|(n, v)| {
            n.eq_ignore_ascii_case("expect") && v.eq_ignore_ascii_case("100-continue")
        })
    }
}

/// An answer, as received.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    /// The statuses of the interim (1xx) answers before the final one.
    pub interim: Vec<u16>,
    /// The final status.
    pub status: u16,
    /// The final head's fields, as sent.
    pub headers: Vec<(String, String)>,
    /// The body, after chunked decoding.
    pub body: Vec<u8>,
    /// The trailer fields.
    pub trailers: Vec<(String, String)>,
}

impl Answer {
    /// The first value of the field `name`.
    pub fn header(&self, name: &str) -> Option<&str> {
        let found = self
            .headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name));
        found.map(|(_, v)| v.as_str())
    }
}

/// The client side of one connection.
pub type Connection = Framed<TcpStream, ClientCodec>;

/// Opens a connection to `addr`.
pub async fn connect(addr: std::net::SocketAddr) -> io::Result<Connection> {
    let stream = TcpStream::connect(addr).await?;
    stream.set_nodelay(true)?;
    Ok(Framed::new(stream, ClientCodec::new(Limits::DEFAULT)))
}

/// Sends `reqs` on `conn` and returns their answers in order. Requests are pipelined: each is
/// sent without waiting for the answers before it, except one that expects `100 Continue`,
/// whose body is sent only once the server has asked for it (a final answer instead means the
/// body is not wanted, and the connection is closed after it since the body was announced).
pub async fn exchange(conn: &mut Connection, reqs: &[Req]) -> Result<Vec<Answer>, CodecError> {
    let mut answers = Vec::new();
    for req in reqs {
        let fields = fields(&req.headers);
        let head = |length| {
            CallHead::new(
                req.method.as_bytes(),
                req.target.as_bytes(),
                &fields,
                length,
            )
        };
        match &req.body {
            ReqBody::Whole(body) if req.expects_continue() => {
                // The answers before it first, so that the next frame is this request's.
                SinkExt::<BodyPart<'_>>::flush(conn).await?;
                while conn.codec().in_flight() > 0 {
                    answers.push(read_answer(conn).await?);
                }
                conn.send(head(BodyLength::Fixed(body.len() as u64)))
                    .await?;
                let mut answer = Answer::default();
                let Some(frame) = conn.next().await.transpose()? else {
                    return Err(CodecError::Incomplete);
                };
                match frame {
                    ResponseFrame::Interim(h) if h.response().status() == 100 => {
                        answer.interim.push(100);
                        conn.send(BodyPart::Data(body)).await?;
                        conn.send(BodyPart::End).await?;
                        answers.push(finish_answer(conn, answer).await?);
                    }
                    first => {
                        answers.push(finish_answer_from(conn, answer, first).await?);
                        return Ok(answers);
                    }
                }
            }
            ReqBody::Empty | ReqBody::Whole(_) => {
                let body = match &req.body {
                    ReqBody::Whole(body) => &body[..],
                    _ => b"",
                };
                let call = Call::new(req.method.as_bytes(), req.target.as_bytes(), &fields, body);
                conn.feed(call).await?;
            }
            ReqBody::Chunks(chunks, trailers) => {
                conn.feed(head(BodyLength::Chunked)).await?;
                for chunk in chunks {
                    conn.feed(BodyPart::Data(chunk)).await?;
                }
                if !trailers.is_empty() {
                    conn.feed(BodyPart::Trailers(&self::fields(trailers)))
                        .await?;
                }
                conn.feed(BodyPart::End).await?;
            }
        }
    }
    // Any of the item types names the sink to flush.
    SinkExt::<BodyPart<'_>>::flush(conn).await?;
    while conn.codec().in_flight() > 0 {
        answers.push(read_answer(conn).await?);
    }
    Ok(answers)
}

/// Field lines as the codec takes them.
fn fields(fields: &[(String, String)]) -> Vec<(&[u8], &[u8])> {
    fields
        .iter()
        .map(|(n, v)| (n.as_bytes(), v.as_bytes()))
        .collect()
}

/// Reads one whole answer.
async fn read_answer(conn: &mut Connection) -> Result<Answer, CodecError> {
    finish_answer(conn, Answer::default()).await
}

async fn finish_answer(conn: &mut Connection, answer: Answer) -> Result<Answer, CodecError> {
    let Some(frame) = conn.next().await.transpose()? else {
        return Err(CodecError::Incomplete);
    };
    finish_answer_from(conn, answer, frame).await
}

/// Reads the rest of an answer whose next frame is `frame`.
async fn finish_answer_from(
    conn: &mut Connection,
    mut answer: Answer,
    mut frame: ResponseFrame,
) -> Result<Answer, CodecError> {
    loop {
        match frame {
            ResponseFrame::Interim(head) => answer.interim.push(head.response().status()),
            ResponseFrame::Head(head) => {
                answer.status = head.response().status();
                answer.headers = head
                    .response()
                    .fields()
                    .iter()
                    .map(|f| (text(head.bytes_of(f.name)), text(head.bytes_of(f.value))))
                    .collect();
            }
            ResponseFrame::Body(data) => answer.body.extend_from_slice(&data),
            ResponseFrame::Trailers(section) => {
                let fields = section.trailers().fields().iter();
                answer.trailers = fields
                    .map(|f| {
                        (
                            text(section.bytes_of(f.name)),
                            text(section.bytes_of(f.value)),
                        )
                    })
                    .collect();
            }
            ResponseFrame::End { .. } => return Ok(answer),
            // A kind of frame a later version adds: this client has no use for it.
            _ => {}
        }
        frame = match conn.next().await.transpose()? {
            Some(frame) => frame,
            None => return Err(CodecError::Incomplete),
        };
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[allow(dead_code)] // the tests include this file and call `exchange` themselves
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let addr = args.next().unwrap_or_else(|| "127.0.0.1:8080".into());
    let path = args.next().unwrap_or_else(|| "/".into());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let answers = runtime.block_on(async {
        let mut conn = connect(addr.parse().map_err(io::Error::other)?).await?;
        let req = Req {
            method: "GET",
            target: path,
            headers: vec![("Host".into(), addr.clone())],
            body: ReqBody::Empty,
        };
        exchange(&mut conn, &[req]).await.map_err(io::Error::other)
    })?;
    for answer in answers {
        for status in &answer.interim {
            println!("(interim {status})");
        }
        println!("{}", answer.status);
        for (name, value) in &answer.headers {
            println!("{name}: {value}");
        }
        println!();
        println!("{}", String::from_utf8_lossy(&answer.body));
        for (name, value) in &answer.trailers {
            println!("(trailer) {name}: {value}");
        }
    }
    Ok(())
}
