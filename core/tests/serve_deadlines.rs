//! The deadlines and bounds of `httpspan::serve::Options`, each against the client it is
//! there for: idle, slow head (slowloris), stalled body, a client that never reads, lingering
//! after an error, an unread body, graceful shutdown, and the buffer settings.
//!
//! Every test runs on tokio's paused clock over an in-memory duplex pipe, so the defaults
//! (30 s, 60 s) are tested as they are and take no real time; each test is wrapped in a
//! one-hour limit of that clock, so a missing deadline fails the test instead of hanging it.

#[path = "support/paused_clock.rs"]
mod paused_clock;

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::routing::{get, post};
use axum::Router;
use http_body::Frame;
use httpspan::serve::{
    serve_connection, serve_connection_with_shutdown, Options, ServeError, Timeout,
};
use paused_clock::paused;
use read_body::collect_len;
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};
use tokio::task::JoinHandle;
use tokio::time::{sleep, Instant};

/// The pipe's capacity each way: small, so that a client that does not read blocks the server.
const PIPE: usize = 4096;

/// Reading a body to its end without another crate: its length, or the body's error.
mod read_body {
    use axum::body::Body;
    use http_body::Body as _;
    use std::future::poll_fn;
    use std::pin::Pin;

    /// The largest data frame and the total length of `body`.
    pub async fn collect_len(mut body: Body) -> Result<(usize, usize), axum::Error> {
        let (mut largest, mut total) = (0, 0);
        while let Some(frame) = poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
            if let Ok(data) = frame?.into_data() {
                largest = largest.max(data.len());
                total += data.len();
            }
        }
        Ok((largest, total))
    }
}

/// An endless response body of 1 KiB frames that counts how often it was polled for one.
struct Endless {
    polled: Arc<AtomicUsize>,
}

impl http_body::Body for Endless {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.polled.fetch_add(1, Ordering::Relaxed);
        Poll::Ready(Some(Ok(Frame::data(Bytes::from(vec![b'x'; 1024])))))
    }
}

fn app(polled: Arc<AtomicUsize>) -> Router {
    Router::new()
        .route("/", get(|| async { "hello" }))
        .route(
            "/read",
            post(|body: Body| async move {
                match collect_len(body).await {
                    Ok((largest, total)) => format!("{largest} {total}"),
                    Err(e) => format!("error {e}"),
                }
            }),
        )
        .route("/big", get(|| async { vec![b'b'; 256 * 1024] }))
        .route(
            "/slow",
            get(|| async {
                sleep(Duration::from_secs(10)).await;
                "done"
            }),
        )
        .route(
            "/endless",
            get(move || async move { Body::new(Endless { polled }) }),
        )
}

/// A server for one connection with `options`; the client's end of the pipe.
fn start(options: Options) -> (DuplexStream, JoinHandle<Result<(), ServeError>>) {
    start_counting(options, Arc::default())
}

fn start_counting(
    options: Options,
    polled: Arc<AtomicUsize>,
) -> (DuplexStream, JoinHandle<Result<(), ServeError>>) {
    let (client, server) = tokio::io::duplex(PIPE);
    let served = tokio::spawn(serve_connection(server, app(polled), options));
    (client, served)
}

/// All the server sends until it closes.
async fn until_close(client: &mut DuplexStream) -> Vec<u8> {
    let mut wire = Vec::new();
    client.read_to_end(&mut wire).await.unwrap();
    wire
}

/// Reads until `wire` ends with `end`.
async fn read_until(client: &mut DuplexStream, end: &[u8]) -> Vec<u8> {
    let mut wire = Vec::new();
    let mut piece = [0u8; 1024];
    while !wire.ends_with(end) {
        let n = client.read(&mut piece).await.unwrap();
        assert!(n > 0, "closed before {:?}", String::from_utf8_lossy(end));
        wire.extend_from_slice(&piece[..n]);
    }
    wire
}

/// Sends `first`, then one byte each `every` (a thousand at most); returns all the server
/// sends until it closes, and the sending task.
async fn trickle(
    client: DuplexStream,
    first: &'static [u8],
    every: Duration,
) -> (Vec<u8>, JoinHandle<std::io::Result<()>>) {
    let (mut reader, mut writer) = tokio::io::split(client);
    let sender = tokio::spawn(async move {
        writer.write_all(first).await?;
        for _ in 0..1000 {
            sleep(every).await;
            writer.write_all(b"x").await?;
        }
        Ok(())
    });
    let mut wire = Vec::new();
    reader.read_to_end(&mut wire).await.unwrap();
    (wire, sender)
}

fn timeout_of(result: Result<Result<(), ServeError>, tokio::task::JoinError>) -> Timeout {
    match result.unwrap() {
        Err(ServeError::Timeout(t)) => t,
        other => panic!("expected a timeout, got {other:?}"),
    }
}

#[test]
fn a_connection_that_sends_nothing_is_closed_at_the_head_timeout() {
    paused(async {
        let (mut client, served) = start(Options::default());
        let started = Instant::now();
        assert_eq!(until_close(&mut client).await, b"");
        assert_eq!(started.elapsed(), Duration::from_secs(30));
        assert_eq!(timeout_of(served.await), Timeout::Idle);
    });
}

#[test]
fn a_kept_alive_connection_is_closed_at_the_head_timeout_after_its_last_answer() {
    paused(async {
        let (mut client, served) = start(Options::default());
        sleep(Duration::from_secs(20)).await;
        client
            .write_all(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n")
            .await
            .unwrap();
        read_until(&mut client, b"hello").await;
        let answered = Instant::now();
        assert_eq!(until_close(&mut client).await, b"");
        assert_eq!(answered.elapsed(), Duration::from_secs(30));
        assert_eq!(timeout_of(served.await), Timeout::Idle);
    });
}

/// Serves with `options` a client that sends `first` then a byte every 2 s; checks that it is
/// answered 408 and closed for `expected`, and gives the time that took and the sending task.
async fn trickled_until_408(
    options: Options,
    first: &'static [u8],
    expected: Timeout,
) -> (Duration, JoinHandle<std::io::Result<()>>) {
    let (client, served) = start(options);
    let started = Instant::now();
    let (wire, sender) = trickle(client, first, Duration::from_secs(2)).await;
    let took = started.elapsed();
    assert!(wire.starts_with(b"HTTP/1.1 408 "), "{wire:?}");
    assert_eq!(timeout_of(served.await), expected);
    (took, sender)
}

#[test]
fn a_head_sent_a_byte_every_2_s_is_answered_408_at_the_head_timeout() {
    paused(async {
        let head = b"GET / HTTP/1.1\r\nHost: a\r\n";
        let (took, slowloris) = trickled_until_408(Options::default(), head, Timeout::Head).await;
        assert_eq!(took, Duration::from_secs(30));
        slowloris.abort();
    });
}

#[test]
fn a_stalled_request_body_is_answered_408_at_the_body_stall_timeout() {
    paused(async {
        let (mut client, served) = start(Options::default());
        client
            .write_all(b"POST /read HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nhello")
            .await
            .unwrap();
        let started = Instant::now();
        let wire = until_close(&mut client).await;
        assert_eq!(started.elapsed(), Duration::from_secs(60));
        assert!(wire.starts_with(b"HTTP/1.1 408 "), "{wire:?}");
        assert_eq!(timeout_of(served.await), Timeout::BodyRead);
    });
}

/// A request whose body never comes whole at a byte every 2 s.
const LONG_POST: &[u8] = b"POST /read HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\n";

#[test]
fn a_body_sent_a_byte_every_2_s_is_answered_408_within_one_body_stall_window() {
    paused(async {
        let options = Options::default();
        let (took, trickle) = trickled_until_408(options, LONG_POST, Timeout::BodyRead).await;
        // Each byte restarts no timer: 60 s of waiting bring 30 bytes, short of 1 KiB.
        let window = Duration::from_secs(60)..=Duration::from_secs(62);
        assert!(window.contains(&took), "{took:?}");
        trickle.abort();
    });
}

#[test]
fn body_read_min_bytes_of_one_restarts_the_window_with_each_byte() {
    paused(async {
        let options = Options::default().body_read_min_bytes(1);
        let (took, trickle) = trickled_until_408(options, LONG_POST, Timeout::BodyRead).await;
        // The trickle's 1,000 bytes (2,000 s), then a whole window without a byte.
        assert_eq!(took, Duration::from_secs(2000 + 60));
        trickle.await.unwrap().unwrap();
    });
}

#[test]
fn an_upload_that_keeps_moving_is_not_cut() {
    paused(async {
        let (mut client, served) = start(Options::default());
        client
            .write_all(b"POST /read HTTP/1.1\r\nHost: a\r\nContent-Length: 65536\r\n\r\n")
            .await
            .unwrap();
        // 2 KiB every 50 s, in pieces of 512 bytes: 1,600 s in all, many windows of 60 s,
        // none of which brings fewer than 1 KiB.
        let started = Instant::now();
        for _ in 0..32 {
            for _ in 0..4 {
                sleep(Duration::from_millis(12_500)).await;
                client.write_all(&[b'u'; 512]).await.unwrap();
            }
        }
        let wire = read_until(&mut client, b" 65536").await;
        assert!(started.elapsed() >= Duration::from_secs(1600));
        assert!(wire.starts_with(b"HTTP/1.1 200 "), "{wire:?}");
        drop(client);
        served.await.unwrap().unwrap();
    });
}

#[test]
fn a_download_that_keeps_moving_is_not_cut() {
    paused(async {
        let (mut client, served) = start(Options::default());
        client
            .write_all(b"GET /big HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let started = Instant::now();
        let mut wire = Vec::new();
        let mut piece = [0u8; 4096];
        loop {
            // A slow reader: 4 KiB every 10 s, over 600 s for the whole body.
            sleep(Duration::from_secs(10)).await;
            let n = client.read(&mut piece).await.unwrap();
            if n == 0 {
                break;
            }
            wire.extend_from_slice(&piece[..n]);
        }
        assert!(started.elapsed() > Duration::from_secs(600));
        assert!(wire.ends_with(&[b'b'; 1024]));
        assert!(wire.len() > 256 * 1024);
        served.await.unwrap().unwrap();
    });
}

#[test]
fn a_client_that_stops_reading_is_cut_off_at_the_write_stall_timeout() {
    paused(async {
        let (mut client, served) = start(Options::default());
        client
            .write_all(b"GET /big HTTP/1.1\r\nHost: a\r\n\r\n")
            .await
            .unwrap();
        let started = Instant::now();
        assert_eq!(timeout_of(served.await), Timeout::Write);
        assert_eq!(started.elapsed(), Duration::from_secs(60));
    });
}

#[test]
fn a_client_that_reads_a_byte_every_2_s_is_cut_off_within_one_write_stall_window() {
    paused(async {
        let (mut client, served) = start(Options::default());
        client
            .write_all(b"GET /big HTTP/1.1\r\nHost: a\r\n\r\n")
            .await
            .unwrap();
        // The pipe fills at once; from then on each byte read frees room for one byte more.
        sleep(Duration::from_secs(1)).await;
        let started = Instant::now();
        let mut byte = [0u8; 1];
        let reader = tokio::spawn(async move {
            for _ in 0..100_000 {
                sleep(Duration::from_secs(2)).await;
                if client.read(&mut byte).await.unwrap_or(0) == 0 {
                    break;
                }
            }
        });
        assert_eq!(timeout_of(served.await), Timeout::Write);
        let took = started.elapsed();
        assert!(
            took >= Duration::from_secs(58) && took <= Duration::from_secs(62),
            "{took:?}"
        );
        reader.abort();
    });
}

#[test]
fn after_an_error_answer_a_silent_client_is_let_go_at_the_linger_timeout() {
    paused(async {
        let (mut client, served) = start(Options::default());
        client
            .write_all(b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
            .await
            .unwrap();
        let started = Instant::now();
        // The answer, then the server's half-close.
        let wire = until_close(&mut client).await;
        assert!(wire.starts_with(b"HTTP/1.1 400 "), "{wire:?}");
        assert!(matches!(served.await.unwrap(), Err(ServeError::Request(_))));
        assert_eq!(started.elapsed(), Duration::from_secs(5));
    });
}

#[test]
fn after_an_error_answer_a_trickling_client_is_let_go_at_the_linger_time() {
    paused(async {
        let (client, served) = start(Options::default());
        let started = Instant::now();
        let head = b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n";
        let (wire, trickle) = trickle(client, head, Duration::from_secs(1)).await;
        assert!(wire.starts_with(b"HTTP/1.1 400 "), "{wire:?}");
        assert!(served.await.unwrap().is_err());
        assert_eq!(started.elapsed(), Duration::from_secs(30));
        trickle.abort();
    });
}

/// Sends `head`, then body bytes as fast as the server takes them, up to `most`; returns what
/// the server answered and how many body bytes it took before it closed.
async fn flood(client: DuplexStream, head: &'static [u8], most: usize) -> (Vec<u8>, usize) {
    let (mut reader, mut writer) = tokio::io::split(client);
    let sender = tokio::spawn(async move {
        writer.write_all(head).await.unwrap();
        let block = [b'z'; 16 * 1024];
        let mut sent = 0;
        while sent < most {
            match writer.write(&block).await {
                Ok(n) if n > 0 => sent += n,
                _ => break,
            }
        }
        sent
    });
    let mut wire = Vec::new();
    reader.read_to_end(&mut wire).await.unwrap();
    (wire, sender.await.unwrap())
}

#[test]
fn after_an_error_answer_lingering_reads_at_most_linger_bytes() {
    paused(async {
        let (client, served) = start(Options::default());
        let head = b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n";
        let (wire, sent) = flood(client, head, 8 << 20).await;
        assert!(wire.starts_with(b"HTTP/1.1 400 "));
        // 256 KiB dropped, plus what the pipe holds and what one read takes.
        assert!(sent <= 256 * 1024 + PIPE + 16 * 1024, "{sent} bytes taken");
        assert!(served.await.unwrap().is_err());
    });
}

#[test]
fn an_unread_body_is_discarded_only_up_to_max_discard_bytes() {
    paused(async {
        let (client, served) = start(Options::default());
        let head = b"POST /nowhere HTTP/1.1\r\nHost: a\r\nContent-Length: 1073741824\r\n\r\n";
        let (wire, sent) = flood(client, head, 8 << 20).await;
        assert!(wire.starts_with(b"HTTP/1.1 404 "), "{wire:?}");
        // Discarded up to 256 KiB, then lingering drops up to 256 KiB more.
        assert!(
            sent <= 512 * 1024 + 2 * PIPE + 32 * 1024,
            "{sent} bytes taken"
        );
        served.await.unwrap().unwrap();
    });
}

#[test]
fn an_unread_body_within_max_discard_bytes_keeps_the_connection() {
    paused(async {
        let head = b"POST /nowhere HTTP/1.1\r\nHost: a\r\nContent-Length: 1000\r\n\r\n";
        let mut rest = vec![b'z'; 1000];
        rest.extend_from_slice(b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
        // The body comes after the 404, which drops it unread: all 1000 bytes are discarded.
        for (bound, kept) in [(1000, true), (999, false)] {
            let (mut client, served) = start(Options::default().max_discard_bytes(bound));
            client.write_all(head).await.unwrap();
            read_until(&mut client, b"\r\n\r\n").await;
            client.write_all(&rest).await.unwrap();
            let wire = until_close(&mut client).await;
            assert_eq!(
                wire.ends_with(b"hello"),
                kept,
                "{:?}",
                String::from_utf8_lossy(&wire)
            );
            served.await.unwrap().unwrap();
        }
    });
}

#[test]
fn a_graceful_shutdown_finishes_the_request_in_flight_then_closes() {
    paused(async {
        let (mut client, server) = tokio::io::duplex(PIPE);
        let shutdown = sleep(Duration::from_secs(1));
        let served = tokio::spawn(serve_connection_with_shutdown(
            server,
            app(Arc::default()),
            Options::default(),
            shutdown,
        ));
        client
            .write_all(b"GET /slow HTTP/1.1\r\nHost: a\r\n\r\n")
            .await
            .unwrap();
        let started = Instant::now();
        let wire = until_close(&mut client).await;
        assert_eq!(started.elapsed(), Duration::from_secs(10));
        let text = String::from_utf8(wire).unwrap();
        assert!(text.starts_with("HTTP/1.1 200 "), "{text}");
        assert!(
            text.contains("\r\nconnection: close\r\n")
                || text.contains("\r\nConnection: close\r\n"),
            "{text}"
        );
        assert!(text.ends_with("done"));
        served.await.unwrap().unwrap();
    });
}

#[test]
fn write_high_water_bounds_the_output_a_connection_buffers() {
    for (high_water, most_polls) in [(1024, 8), (64 * 1024, 80)] {
        paused(async move {
            let polled = Arc::new(AtomicUsize::new(0));
            let options = Options::default().write_high_water(high_water);
            let (mut client, served) = start_counting(options, polled.clone());
            client
                .write_all(b"GET /endless HTTP/1.1\r\nHost: a\r\n\r\n")
                .await
                .unwrap();
            sleep(Duration::from_secs(1)).await;
            let polls = polled.load(Ordering::Relaxed);
            // The pipe holds 4 KiB; beyond it, the high-water mark plus one frame is buffered.
            let least = high_water / 1024;
            assert!(
                polls >= least && polls <= most_polls,
                "{polls} frames buffered with a {high_water}-byte high-water mark"
            );
            drop(client);
            assert!(served.await.unwrap().is_err());
        });
    }
}

#[test]
fn read_buffer_bytes_bounds_each_read() {
    for (room, largest) in [(16, 16), (8 * 1024, 100)] {
        paused(async move {
            let (mut client, served) = start(Options::default().read_buffer_bytes(room));
            let mut input =
                b"POST /read HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\nConnection: close\r\n\r\n"
                    .to_vec();
            input.extend_from_slice(&[b'r'; 100]);
            client.write_all(&input).await.unwrap();
            let wire = until_close(&mut client).await;
            let text = String::from_utf8(wire).unwrap();
            assert!(text.ends_with(&format!("\r\n\r\n{largest} 100")), "{text}");
            served.await.unwrap().unwrap();
        });
    }
}

#[test]
fn max_field_lines_in_the_limits_bounds_a_served_head() {
    paused(async {
        let mut limits = httpspan::Limits::default();
        limits.max_field_lines = 4;
        let (mut client, served) = start(Options::new(limits));
        client
            .write_all(b"GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n")
            .await
            .unwrap();
        drop(client.shutdown().await);
        let wire = until_close(&mut client).await;
        assert!(wire.starts_with(b"HTTP/1.1 431 "), "{wire:?}");
        assert!(served.await.unwrap().is_err());
    });
}

/// Over real sockets on 127.0.0.1, with deadlines shortened through the options: a
/// slowloris head answered 408, and a client that stays silent after an error's answer let go
/// at the linger timeout; each connection's end is seen by the client as the server's close.
#[test]
fn short_deadlines_hold_over_tcp() {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let addr = listener.local_addr().unwrap();
    let short = Duration::from_millis(300);
    let options = Options::default()
        .head_timeout(Some(short))
        .linger_timeout(short);
    let (done, results) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            let mut ends = Vec::new();
            for _ in 0..2 {
                let (socket, _) = listener.accept().await.unwrap();
                ends.push(tokio::spawn(serve_connection(
                    socket,
                    app(Arc::default()),
                    options,
                )));
            }
            for end in ends {
                done.send(end.await.unwrap()).unwrap();
            }
        })
    });
    let exchange = |input: &[u8]| {
        let mut stream = std::net::TcpStream::connect(addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        stream.write_all(input).unwrap();
        let started = std::time::Instant::now();
        let mut wire = Vec::new();
        stream
            .read_to_end(&mut wire)
            .expect("closed by the server in time");
        (
            String::from_utf8_lossy(&wire).into_owned(),
            started.elapsed(),
            stream,
        )
    };
    let (slow, slow_took, _open) = exchange(b"GET / HTTP/1.1\r\nHost: a\r\nX-Slow: ");
    assert!(slow.starts_with("HTTP/1.1 408 "), "{slow}");
    assert!(slow_took < Duration::from_secs(5), "{slow_took:?}");
    let (refused, _, mut open) = exchange(b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n");
    assert!(refused.starts_with("HTTP/1.1 400 "), "{refused}");
    // The server lingers, then lets the silent client go: both connections end.
    let ended = || {
        results
            .recv_timeout(Duration::from_secs(10))
            .expect("ended in time")
    };
    assert!(matches!(ended(), Err(ServeError::Timeout(Timeout::Head))));
    assert!(matches!(ended(), Err(ServeError::Request(_))));
    let _ = open.write_all(b"late");
}
