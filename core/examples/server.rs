//! A small keep-alive HTTP/1.1 server on `std::net`, one thread per connection.
//!
//! ```text
//! cargo run -p httpspan --example server [ADDR]        (ADDR defaults to 127.0.0.1:8080)
//! curl -i http://127.0.0.1:8080/
//! curl -i --data-binary hello http://127.0.0.1:8080/echo
//! ```
//!
//! `GET /` (and `HEAD /`) answers `hello`, `POST /echo` (or `PUT`) answers with the request's
//! body, other paths 404, and methods it does not know 501. Requests are read with
//! `httpspan::stream::Decoder`, which handles pipelining, Content-Length and chunked bodies;
//! answers are written with `httpspan::ResponseWriter`. A request the parser rejects gets the
//! status the error names (400, 413, 414, 431 or 505) and the connection is closed.
//!
//! The deadlines and bounds of `tokio_server.rs` (`settings/mod.rs`), with socket timeouts: a
//! head within 30 s of the end of the previous request, a body that brings 1 KiB per 30 s,
//! a write that moves nothing for 30 s fails, a bounded lingering close; at most 4,096
//! connections (threads) at once, and a pause after an accept error instead of a spin.

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use httpspan::stream::{buffer_len, Decoder, Event, MessageKind};
use httpspan::{Error, Limits, Request, ResponseWriter, WriteError};

mod common;
pub mod settings;
use common::{route, Route, CONTINUE, MAX_BODY};
use settings::{accept_backoff, is_connection_error, Settings, LINGER_BYTES, MIN_PROGRESS};
/// Room for the head of every answer this server writes.
const HEAD_ROOM: usize = 256;

fn main() -> io::Result<()> {
    let addr = std::env::args().nth(1);
    let listener = bind(addr.as_deref().unwrap_or("127.0.0.1:8080"))?;
    serve(listener)
}

/// Binds to `addr` and prints the address bound (port 0 picks a free one).
pub fn bind(addr: &str) -> io::Result<TcpListener> {
    let listener = TcpListener::bind(addr)?;
    println!("listening on http://{}", listener.local_addr()?);
    Ok(listener)
}

/// Accepts connections for ever, each on its own thread, with the settings the environment
/// gives.
pub fn serve(listener: TcpListener) -> io::Result<()> {
    serve_with(listener, Settings::from_env())
}

/// Accepts connections for ever, each on its own thread, with `settings`.
pub fn serve_with(listener: TcpListener, settings: Settings) -> io::Result<()> {
    let threads = Arc::new(Permits {
        free: Mutex::new(settings.max_connections),
        freed: Condvar::new(),
    });
    let mut failures = 0;
    loop {
        // At the limit, connections wait in the listen backlog, not in threads.
        Permits::take(&threads);
        let stream = match listener.accept() {
            Ok((stream, _)) => stream,
            Err(e) => {
                Permits::give_back(&threads);
                // Out of descriptors (EMFILE) the listener stays readable: without a pause
                // the loop would spin. A client that gave up in the backlog needs none.
                if !is_connection_error(&e) {
                    std::thread::sleep(accept_backoff(failures));
                    failures += 1;
                }
                continue;
            }
        };
        failures = 0;
        let threads = Arc::clone(&threads);
        std::thread::spawn(move || {
            match connection(stream, &settings) {
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) => {}
                Err(e) => eprintln!("connection: {e}"),
                Ok(()) => {}
            }
            Permits::give_back(&threads);
        });
    }
}

/// A count of the connections that may still be served.
struct Permits {
    free: Mutex<usize>,
    freed: Condvar,
}

impl Permits {
    /// Waits for a free permit and takes it.
    fn take(permits: &Permits) {
        let mut free = permits.free.lock().unwrap_or_else(|e| e.into_inner());
        while *free == 0 {
            free = permits.freed.wait(free).unwrap_or_else(|e| e.into_inner());
        }
        *free -= 1;
    }

    fn give_back(permits: &Permits) {
        *permits.free.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        permits.freed.notify_one();
    }
}

/// When the read under way must have brought what it waits for: a fixed deadline for a head,
/// a window on progress for a body.
struct ReadDeadline {
    at: Instant,
    /// `Some`: a body, whose window starts again once it has brought [`MIN_PROGRESS`] bytes.
    window: Option<Duration>,
    moved: usize,
}

impl ReadDeadline {
    fn head(settings: &Settings) -> ReadDeadline {
        ReadDeadline {
            at: Instant::now() + settings.head,
            window: None,
            moved: 0,
        }
    }

    fn body(settings: &Settings) -> ReadDeadline {
        ReadDeadline {
            at: Instant::now() + settings.body,
            window: Some(settings.body),
            moved: 0,
        }
    }

    fn moved(&mut self, n: usize) {
        let Some(window) = self.window else { return };
        self.moved += n;
        if self.moved >= MIN_PROGRESS {
            *self = ReadDeadline {
                at: Instant::now() + window,
                window: Some(window),
                moved: 0,
            };
        }
    }
}

/// Reads requests from one connection and answers each, in order, until either side closes.
fn connection(mut stream: TcpStream, settings: &Settings) -> io::Result<()> {
    // A send that moves no byte for this long fails.
    stream.set_write_timeout(Some(settings.write))?;
    let mut deadline = ReadDeadline::head(settings);
    let mut limits = Limits::DEFAULT;
    limits.max_body_bytes = Some(MAX_BODY);
    // The decoder copies heads (not bodies) into this buffer, so that a head split across
    // reads is parsed in place; `buffer_len` is what the limits need.
    let mut decoder = Decoder::new(MessageKind::Request, vec![0; buffer_len(&limits)], limits);
    let mut input = vec![0u8; 16 * 1024];
    // Answers are collected and sent once per read, so that pipelined requests are answered
    // with one write, not one per request.
    let mut out = Vec::new();
    let mut body = Vec::new();
    loop {
        let left = deadline.at.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(());
        }
        stream.set_read_timeout(Some(left))?;
        let n = match stream.read(&mut input) {
            Ok(n) => n,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        deadline.moved(n);
        if n == 0 {
            // The client is done sending. A request it cut off invalid still gets its 400;
            // one merely cut short gets nothing (nobody is left to wait for an answer).
            if let Err(e) = decoder.finish() {
                error_answer(&mut out, &e);
                stream.write_all(&out)?;
            }
            return Ok(());
        }
        let mut piece = &input[..n];
        let close = loop {
            let (used, event) = match decoder.decode(piece) {
                Ok(step) => step,
                Err(e) => {
                    // After a parse error nothing else on this connection can be trusted (a
                    // smuggled request could follow): answer, then close.
                    error_answer(&mut out, &e);
                    break true;
                }
            };
            match event {
                Event::Head => {
                    deadline = ReadDeadline::body(settings);
                    body.clear();
                    let head = decoder.head_bytes();
                    let req = decoder.request().expect("a request decoder");
                    // The client waits for this before it sends the body (RFC 9110 10.1.1).
                    if req.expects_continue(head) {
                        out.extend_from_slice(CONTINUE);
                    }
                }
                Event::Body(range) => body.extend_from_slice(&piece[range]),
                Event::MessageEnd => {
                    deadline = ReadDeadline::head(settings);
                    let req = decoder.request().expect("a request decoder");
                    answer(&mut out, req, decoder.head_bytes(), &body);
                }
                Event::NeedMore => break false,
                // The last request asked to close, or was HTTP/1.0 without keep-alive.
                Event::Closed => break true,
                // Trailer fields: this server has no use for them.
                _ => {}
            }
            piece = &piece[used..];
        };
        stream.write_all(&out)?;
        out.clear();
        if close {
            close_gracefully(stream, settings);
            return Ok(());
        }
    }
}

/// Appends the answer to one request.
fn answer(out: &mut Vec<u8>, req: &Request, head: &[u8], body: &[u8]) {
    let Route {
        status,
        content,
        connection,
        head_only,
    } = route(req, head);
    Answer {
        status,
        content: content.bytes(body),
        connection,
        head_only,
    }
    .append_to(out);
}

/// Appends the answer to a request the parser rejected: the status the error names, and why.
fn error_answer(out: &mut Vec<u8>, error: &Error) {
    let reason = format!("{error}\n");
    let connection = Some(&b"close"[..]);
    Answer {
        status: error.status(),
        content: reason.as_bytes(),
        connection,
        head_only: false,
    }
    .append_to(out);
}

/// One `text/plain` answer.
struct Answer<'a> {
    status: u16,
    content: &'a [u8],
    /// The Connection field, where one is needed.
    connection: Option<&'static [u8]>,
    /// For HEAD: announce the content's length, send no body.
    head_only: bool,
}

impl Answer<'_> {
    /// Appends the answer to `out`. `ResponseWriter` writes straight into `out`'s spare room,
    /// so nothing is copied twice.
    fn append_to(&self, out: &mut Vec<u8>) {
        let start = out.len();
        out.resize(start + HEAD_ROOM + self.content.len(), 0);
        let len = self.write(&mut out[start..]);
        out.truncate(start + len.expect("HEAD_ROOM holds every head this server writes"));
    }

    fn write(&self, buf: &mut [u8]) -> Result<usize, WriteError> {
        let mut res = ResponseWriter::new(buf, self.status)?;
        res.header(b"Content-Type", b"text/plain")?;
        if let Some(connection) = self.connection {
            res.header(b"Connection", connection)?;
        }
        if self.head_only {
            // A response to HEAD announces the length of the body it does not send.
            res.content_length(self.content.len() as u64)?;
            return res.finish();
        }
        res.body(self.content)
    }
}

/// Closes a connection after its last answer. The client may still be sending (a pipelined
/// request, the rest of a body we refused); closing a socket with unread input makes the kernel
/// send a reset, which can destroy our answer before the client has read it. So: stop writing,
/// then read and drop what comes, up to [`LINGER_BYTES`], for at most `linger_time` in all
/// and `linger_timeout` without a byte.
fn close_gracefully(mut stream: TcpStream, settings: &Settings) {
    let _ = stream.shutdown(Shutdown::Write);
    let end = Instant::now() + settings.linger_time;
    let mut sink = [0u8; 4096];
    let mut drained = 0;
    while drained < LINGER_BYTES {
        let left = end.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        let _ = stream.set_read_timeout(Some(left.min(settings.linger_timeout)));
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(n) => drained += n,
        }
    }
}
