//! A strict, zero-allocation HTTP/1.1 parser that describes a message as 4-byte spans over your
//! own buffer.
//!
//! # Example: parse a request
//!
//! ```
//! use httpspan::{Framing, KnownHeader, Request, Status};
//!
//! let buf = b"POST /upload?id=7 HTTP/1.1\r\nHost: example.com\r\nContent-Type: text/plain\r\n\
//!             Content-Length: 5\r\nX-Request-Id: 42\r\n\r\nhello";
//! let mut req = Request::new(); // fixed size, no heap: 64 field slots
//! let Status::Complete { head_len } = req.parse(buf)? else {
//!     unreachable!("a Partial status means: read more bytes and call parse again");
//! };
//! assert_eq!(req.method().as_bytes(buf), b"POST");
//! assert_eq!(req.target().as_bytes(buf), b"/upload?id=7");
//! assert_eq!(req.value(KnownHeader::ContentType).unwrap().as_bytes(buf), b"text/plain");
//! assert_eq!(req.find(buf, b"x-request-id").unwrap().as_bytes(buf), b"42");
//! assert_eq!((req.content_length(), req.is_chunked(), req.keep_alive()), (Some(5), false, true));
//! assert_eq!(req.framing(), Framing::Length(5));
//! assert_eq!(&buf[head_len..], b"hello");
//! for f in req.fields() {
//!     println!("{:?}: {:?}", f.name.as_bytes(buf), f.value.as_bytes(buf));
//! }
//! # Ok::<(), httpspan::Error>(())
//! ```
//!
//! # Where to start
//!
//! | to | use |
//! | --- | --- |
//! | read requests from a socket | [`Request::parse`] in a read loop (the example below) |
//! | read a connection without tokio: bodies, chunked, trailers, pipelining | [`stream::Decoder`] |
//! | serve or call over tokio `Framed` | module `codec` (feature `tokio`): `ServerCodec`, `ClientCodec` |
//! | build a reverse proxy | `examples/proxy.rs` in this package; [`end_to_end_fields`] drops hop-by-hop fields |
//! | serve an axum `Router` or any tower `Service` | module `serve` (feature `tower`) |
//! | convert to and from the `http` crate's types | modules `to_http` and `from_http` (feature `http`) |
//! | write heads, chunks and trailers | [`ResponseWriter`], [`RequestWriter`], [`write_chunk_header`], [`TrailerWriter`], into slices, `Vec` or `BytesMut` ([`WriteTarget`]) |
//! | answer `Expect: 100-continue`, or 501 to codings other than chunked | [`Request::expects_continue`], [`Request::has_other_codings`] |
//! | set limits and capacity; sizes of the types | [`Limits`] (a table of every limit and size), [`Request::with_slots`] |
//! | accept what some clients send against the strict rules | [`Leniency`] |
//!
//! # Example: errors say where and why
//!
//! ```
//! use httpspan::{ErrorKind, Request};
//!
//! let buf = b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n";
//! let err = Request::new().parse(buf).unwrap_err();
//! assert_eq!(err.kind(), ErrorKind::ContentLengthWithTransferEncoding);
//! assert_eq!(&buf[err.offset()..err.offset() + 17], b"Transfer-Encoding");
//! assert_eq!((err.status(), err.rfc()), (400, "RFC 9112 6.3"));
//! ```
//!
//! # Example: a read loop over a socket
//!
//! The same loop as one over httparse, with two differences: `parse` is given the whole
//! buffer from the message's first byte each time (it resumes after the last complete line
//! on its own), and the buffer is at least [`Limits::max_head_bytes`] long, so that a head too
//! large is an error (answer it with [`Error::status`], 431) rather than a full buffer.
//!
//! ```
//! use std::io::{Read, Write};
//! use std::net::{TcpListener, TcpStream};
//! use httpspan::{Framing, Request, Status};
//!
//! fn serve(mut conn: TcpStream) -> std::io::Result<()> {
//!     let mut buf = vec![0u8; 8192]; // the default max_head_bytes
//!     let mut filled = 0;
//!     let mut req = Request::new();
//!     loop {
//!         // Parse what is buffered; read more only when the head is not all there.
//!         let head_len = match req.parse(&buf[..filled]) {
//!             Ok(Status::Complete { head_len }) => head_len,
//!             Ok(Status::Partial) => {
//!                 let n = conn.read(&mut buf[filled..])?;
//!                 if n == 0 {
//!                     return Ok(()); // the client closed the connection
//!                 }
//!                 filled += n;
//!                 continue;
//!             }
//!             Err(e) => {
//!                 let mut answer = [0u8; 64];
//!                 let len = httpspan::write_empty_response(&mut answer, e.status()).unwrap();
//!                 return conn.write_all(&answer[..len]);
//!             }
//!         };
//!         let body_len = match req.framing() {
//!             Framing::NoBody => 0,
//!             Framing::Length(n) if n <= (buf.len() - head_len) as u64 => n as usize,
//!             // A chunked body goes through ChunkedDecoder, a longer one is read on.
//!             _ => return conn.write_all(b"HTTP/1.1 501 Not Implemented\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
//!         };
//!         while filled < head_len + body_len {
//!             let n = conn.read(&mut buf[filled..head_len + body_len])?;
//!             if n == 0 {
//!                 return Ok(());
//!             }
//!             filled += n;
//!         }
//!         let target = req.target().as_bytes(&buf);
//!         let mut answer = [0u8; 256];
//!         let mut res = httpspan::ResponseWriter::new(&mut answer, 200).unwrap();
//!         res.header(b"Content-Type", b"text/plain").unwrap();
//!         let len = res.body(target).unwrap();
//!         conn.write_all(&answer[..len])?;
//!         if !req.keep_alive() {
//!             return Ok(());
//!         }
//!         // A pipelined request may follow in the buffer: move it to the front.
//!         buf.copy_within(head_len + body_len..filled, 0);
//!         filled -= head_len + body_len;
//!         req.reset();
//!     }
//! }
//!
//! # #[cfg(not(miri))] { // Miri has no sockets
//! let listener = TcpListener::bind("127.0.0.1:0")?;
//! let addr = listener.local_addr()?;
//! let server = std::thread::spawn(move || serve(listener.accept()?.0));
//! let mut client = TcpStream::connect(addr)?;
//! client.write_all(b"GET /a HTTP/1.1\r\nHost: x\r\n\r\nPOST /b HTTP/1.1\r\nHost: x\r\n")?;
//! client.write_all(b"Content-Length: 2\r\nConnection: close\r\n\r\nhi")?;
//! let mut answers = String::new();
//! client.read_to_string(&mut answers)?;
//! server.join().unwrap()?;
//! assert_eq!(answers, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n/a\
//!                      HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n/b");
//! # }
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! # Example: a byte stream with pipelined, chunked messages
//!
//! [`stream::Decoder`] drives heads, bodies, trailers and pipelining over input that arrives in
//! pieces of any size; see its module for an example.
//!
//! # Example: write a response
//!
//! [`ResponseWriter`] and [`RequestWriter`] write heads into your buffer and refuse anything
//! the parser would reject, so what they write is read back exactly:
//!
//! ```
//! let mut buf = [0u8; 128];
//! let mut res = httpspan::ResponseWriter::new(&mut buf, 404)?;
//! res.header(b"Content-Type", b"text/plain")?;
//! let len = res.body(b"gone")?;
//! assert_eq!(&buf[..len], &b"HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\n\
//!                            Content-Length: 4\r\n\r\ngone"[..]);
//! # Ok::<(), httpspan::WriteError>(())
//! ```
//!
//! # Why httpspan
//!
//! - **Strict by default.** Every choice the RFCs leave to a recipient is made against request
//!   smuggling: bare LF, obs-fold, whitespace before a colon, Content-Length with
//!   Transfer-Encoding, duplicate Content-Length, chunked not last: all are errors, each an
//!   [`ErrorKind`] that names its rule. [`Leniency`] options, off by default, each relax one
//!   of them where a deployment needs it.
//! - **Spans, not copies.** A [`Span`] is a `u16` offset and a `u16` length into your buffer.
//!   [`Request`] is 768 bytes with its 64 field slots, lives on the stack, and
//!   [`Request::reset`] clears only a few dozen of them.
//! - **Framing in the same pass.** Content-Length, Transfer-Encoding, Connection and Host are
//!   checked as their lines are read, so [`Request::framing`] and [`Request::keep_alive`] are
//!   answers, not further parsing.
//! - **Resumable.** On [`Status::Partial`], parsing resumes after the last complete line; bytes
//!   already accepted are never scanned again.
//! - **Errors you can act on.** Every [`Error`] has a stable [`ErrorKind`], the byte offset, the
//!   status a server should answer, and the RFC section it enforces.
//!
//! # Cargo features and SIMD
//!
//! The byte scans run on AVX-512, AVX2 or SSE4.2 (x86_64, chosen at run time), NEON (aarch64) or
//! SIMD128 (wasm32 built with `+simd128`), otherwise on a portable SWAR backend; a scalar
//! reference that every backend is tested against byte for byte is there too.
//! [`backend_name`] says which one is in use.
//!
//! - `std` (default): implements `std::error::Error` for [`Error`]. Without it the crate is
//!   `no_std` and uses only `core`.
//! - `tokio` (off): the module `codec`, `tokio_util` codecs for servers (`ServerCodec`) and
//!   clients (`ClientCodec`): heads over frozen `bytes::Bytes` and body data as `Bytes` slices,
//!   no body copies; messages written whole or streamed through the writers. The writers also
//!   append to a `bytes::BytesMut`.
//! - `http` (off): the modules `to_http`, conversions of parsed heads into the `http` crate's
//!   `request::Parts`, `response::Parts` and `HeaderMap`, and `from_http`, the way back to wire
//!   bytes through the writers (these allocate).
//! - `tower` (off, with `tokio` and `http`): the module `serve`, which serves a tower `Service`
//!   (an axum `Router`, for instance) over a connection with the codec, bodies streamed as
//!   `http_body::Body`.
//!
//! Without `tokio`, `http` and `tower` the crate has no dependencies.
//!
//! # Stability
//!
//! These are fixed for good, not only until the next minor release:
//!
//! - [`Span`] is two public `u16` fields, `off` and `len`, 4 bytes, `Copy`: a head or trailer
//!   section is at most 65535 bytes, and [`Limits`] cannot raise that. Larger sections would
//!   need a new type, never a wider `Span`.
//! - [`Request::known_bitmap`] is a `u64` with bit [`KnownHeader::slot`] set for each known
//!   header present. A known header keeps its slot; new ones (the enum is non-exhaustive) take
//!   the next free slots, and there is room for 63 in all (bit 63 is never a known header's).
//! - The enums that will grow ([`ErrorKind`], [`KnownHeader`], [`stream::Event`], [`Chunk`],
//!   the codec's frames and the error enums) are `#[non_exhaustive]`; those that say so in
//!   their docs ([`Status`], [`Framing`], [`Version`], [`stream::MessageKind`]) are exhaustive
//!   for good. The codec's message structs are built by their `new` functions, so that fields
//!   can be added.
//!
//! Two switches are for testing, supported but outside semver: the environment variable
//! `HTTPSPAN_BACKEND` (read once, at the first parse, with `std`) names the scanning backend to
//! use instead of the best one the CPU runs (`avx512`, `avx2`, `sse4.2`, `neon`, `simd128`,
//! `swar`, `scalar`; a name the CPU cannot run is ignored), and the hidden module `__backends`
//! lets tests and fuzzers list the backends, force one and run each kernel alone. Every backend
//! gives the same results, so neither changes what a parse returns; their names and items may
//! change in any release, and the changelog says when.

#![no_std]
#![deny(missing_docs)]
// docs.rs (which passes `--cfg docsrs`) marks each item that needs a feature with a badge.
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(any(test, feature = "std"))]
extern crate std;

mod chunked;
#[cfg(feature = "tokio")]
pub mod codec;
mod error;
mod framing;
mod head;
mod head_kind;
mod hop_by_hop;
#[cfg(feature = "http")]
mod http_conv;
mod known;
mod limits;
mod request;
mod response;
mod scan;
#[cfg(feature = "tower")]
pub mod serve;
mod span;
pub mod stream;
mod syntax;
mod trailers;
mod validate;
mod writer;

#[cfg(test)]
mod tests;

/// The examples of the crate's README (the page crates.io shows) compile and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub use chunked::{Chunk, ChunkLine, ChunkedDecoder};
pub use error::{Error, ErrorKind};
pub use framing::Framing;
pub use head::{unfold, Field, Status, Unfolded};
pub use hop_by_hop::{end_to_end_fields, end_to_end_trailers, is_hop_by_hop, EndToEndFields};
#[cfg(feature = "http")]
pub use http_conv::{from_http, to_http};
pub use known::KnownHeader;
pub use limits::{Leniency, Limits};
pub use request::Request;
pub use response::Response;
pub use span::Span;
pub use syntax::Version;
pub use trailers::Trailers;
pub use validate::{is_field_value, is_request_target, is_token};
pub use writer::{
    allowed_in_trailers, reason_phrase, write_chunk, write_chunk_header, write_chunk_header_in,
    write_chunk_in, write_empty_response, write_empty_response_in, Measure, RequestWriter,
    ResponseWriter, TrailerWriter, WriteError, WriteTarget, CHUNK_END, LAST_CHUNK,
};

/// The name of the scanning backend this process uses: `"avx512"`, `"avx2"`, `"sse4.2"`,
/// `"neon"`, `"simd128"`, `"swar"` (eight bytes a word, in portable code) or `"scalar"` (the
/// byte-at-a-time reference, only when asked for).
///
/// On x86_64 with the `std` feature the backend is chosen at the first parse from what the CPU
/// supports (AVX-512 needs AVX-512F, BW and VBMI2, and a crate built by Rust 1.89 or later); without
/// `std`, and on the other targets, from the target features the crate was
/// compiled with (NEON on aarch64, `+simd128` on wasm32). Building with
/// `RUSTFLAGS="--cfg httpspan_force_scalar"` (or under Miri) leaves only the portable backends,
/// SWAR and the scalar reference; so does a target without a SIMD backend.
/// Every backend gives exactly the same results; only the speed differs.
///
/// ```
/// let name = httpspan::backend_name();
/// assert!(["avx512", "avx2", "sse4.2", "neon", "simd128", "swar", "scalar"].contains(&name));
/// ```
#[must_use]
pub fn backend_name() -> &'static str {
    scan::backend_name()
}

// A test hook, supported but outside semver (the crate docs' "Stability" section).
#[doc(hidden)]
pub use scan::backends as __backends;
