//! The exchanges the client and proxy tests run against `origin.rs`, directly or through the
//! proxy, and what each answer must be.

use crate::client::{connect, exchange, Answer, Req, ReqBody};
use std::net::SocketAddr;

fn req(method: &'static str, target: &str, body: ReqBody) -> Req {
    Req {
        method,
        target: target.into(),
        headers: vec![("Host".into(), "origin".into())],
        body,
    }
}

fn ok(body: &[u8]) -> Answer {
    Answer {
        status: 200,
        body: body.to_vec(),
        ..Answer::default()
    }
}

/// The answer without its fields, which the caller checks where they matter.
fn bare(mut answer: Answer) -> Answer {
    answer.headers.clear();
    answer
}

/// The answers to `reqs` on a new connection, without their fields.
async fn bare_answers(addr: SocketAddr, reqs: &[Req]) -> Vec<Answer> {
    let mut conn = connect(addr).await.unwrap();
    let answers = exchange(&mut conn, reqs).await.unwrap();
    answers.into_iter().map(bare).collect()
}

/// Content-Length, HEAD, chunked with trailers, 103, a Content-Length and a chunked request
/// body, all pipelined on one connection.
pub async fn pipelined(addr: SocketAddr) {
    let mut conn = connect(addr).await.unwrap();
    let chunks = vec![b"ab".to_vec(), b"cde".to_vec()];
    let trailers = vec![("Checksum".to_string(), "5".to_string())];
    let reqs = [
        req("GET", "/cl", ReqBody::Empty),
        req("HEAD", "/cl", ReqBody::Empty),
        req("GET", "/chunked", ReqBody::Empty),
        req("GET", "/hints", ReqBody::Empty),
        req("POST", "/echo", ReqBody::Whole(b"posted".to_vec())),
        req("POST", "/echo", ReqBody::Chunks(chunks, trailers.clone())),
        req("GET", "/nowhere", ReqBody::Empty),
        req("GET", "/cl", ReqBody::Empty),
    ];
    let answers = exchange(&mut conn, &reqs).await.unwrap();
    assert_eq!(answers.len(), reqs.len());
    assert_eq!(answers[0].header("content-length"), Some("5"));
    assert_eq!(answers[1].header("content-length"), Some("5"));
    assert_eq!(answers[5].header("transfer-encoding"), Some("chunked"));
    let hints = &answers[3];
    assert_eq!(hints.interim, [103]);
    let answers: Vec<Answer> = answers.into_iter().map(bare).collect();
    assert_eq!(answers[0], ok(b"hello"));
    assert_eq!(answers[1], ok(b""));
    assert_eq!(
        answers[2],
        Answer {
            trailers: vec![("Checksum".into(), "3".into())],
            ..ok(b"one two three")
        }
    );
    assert_eq!(answers[3].body, b"hinted");
    assert_eq!(answers[4], ok(b"posted"));
    assert_eq!(
        answers[5],
        Answer {
            trailers,
            ..ok(b"abcde")
        }
    );
    assert_eq!(answers[6].status, 404);
    assert_eq!(answers[7], ok(b"hello"));
}

/// A request body sent only after `100 Continue`.
pub async fn expect_continue(addr: SocketAddr) {
    let mut ask = req("POST", "/echo", ReqBody::Whole(b"after continue".to_vec()));
    ask.headers.push(("Expect".into(), "100-continue".into()));
    let reqs = [
        req("GET", "/cl", ReqBody::Empty),
        ask,
        req("GET", "/cl", ReqBody::Empty),
    ];
    let answers = bare_answers(addr, &reqs).await;
    assert_eq!(
        answers,
        [
            ok(b"hello"),
            Answer {
                interim: vec![100],
                ..ok(b"after continue")
            },
            ok(b"hello")
        ]
    );
}

/// A body delimited by the end of the connection, after a keep-alive answer.
pub async fn close_delimited(addr: SocketAddr) {
    let reqs = [
        req("GET", "/cl", ReqBody::Empty),
        req("GET", "/close", ReqBody::Empty),
    ];
    let answers = bare_answers(addr, &reqs).await;
    assert_eq!(answers, [ok(b"hello"), ok(b"until close")]);
}

/// A large chunked body, echoed back.
pub async fn large_body(addr: SocketAddr) {
    let mut conn = connect(addr).await.unwrap();
    let chunks: Vec<Vec<u8>> = (0..16u8).map(|i| vec![b'a' + i; 65536]).collect();
    let whole = chunks.concat();
    let reqs = [req("POST", "/echo", ReqBody::Chunks(chunks, Vec::new()))];
    let answers = exchange(&mut conn, &reqs).await.unwrap();
    assert_eq!(answers[0].status, 200);
    assert!(answers[0].body == whole, "{} bytes", answers[0].body.len());
}

/// Runs `test` on a fresh current-thread runtime.
pub fn run<F: std::future::Future<Output = ()>>(test: impl FnOnce() -> F) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let limit = std::time::Duration::from_secs(20);
    runtime
        .block_on(async { tokio::time::timeout(limit, test()).await })
        .expect("the exchange ends in time");
}
