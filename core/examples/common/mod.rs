//! What the example servers (`server.rs` on threads, `tokio_server.rs` on tokio) answer, so
//! that both answer the same bytes.

use httpspan::{Request, Version};

/// Bodies above this get 413: without a bound, one request could take all our memory.
pub const MAX_BODY: u64 = 1 << 20;

/// The answer to one request, decided from its head: status, `text/plain` content, and the
/// Connection field where one is needed.
pub struct Route {
    /// The status code.
    pub status: u16,
    /// The content.
    pub content: Content,
    /// The Connection field, where one is needed.
    pub connection: Option<&'static [u8]>,
    /// For HEAD: announce the content's length, send no body.
    pub head_only: bool,
}

/// What an answer contains.
pub enum Content {
    /// These bytes.
    Fixed(&'static [u8]),
    /// The request's body (`POST /echo`).
    RequestBody,
}

impl Content {
    /// The bytes of the answer, given the request's body.
    pub fn bytes<'a>(&self, body: &'a [u8]) -> &'a [u8] {
        match self {
            Content::Fixed(bytes) => bytes,
            Content::RequestBody => body,
        }
    }
}

/// What to answer to `req` (whose spans index `head`). Decided from the head alone, so that a
/// server need not keep the head while the body arrives.
pub fn route(req: &Request, head: &[u8]) -> Route {
    let method = req.method().as_bytes(head);
    let (status, content) = match (method, req.target().as_bytes(head)) {
        // A transfer coding we cannot decode: RFC 9112 6.1 says 501.
        _ if req.has_other_codings() => (501, Content::Fixed(b"transfer coding not implemented\n")),
        (b"GET" | b"HEAD", b"/") => (200, Content::Fixed(b"hello\n")),
        (b"POST" | b"PUT", b"/echo") => (200, Content::RequestBody),
        (b"GET" | b"HEAD" | b"POST" | b"PUT" | b"DELETE" | b"OPTIONS", _) => {
            (404, Content::Fixed(b"not found\n"))
        }
        // RFC 9110 9.1: a method the server does not implement gets 501.
        _ => (501, Content::Fixed(b"method not implemented\n")),
    };
    // An HTTP/1.0 client keeps the connection only if told so (RFC 9112 9.3).
    let connection: Option<&'static [u8]> = match (req.keep_alive(), req.version()) {
        (false, _) => Some(b"close"),
        (true, Version::Http10) => Some(b"keep-alive"),
        (true, Version::Http11) => None,
    };
    Route {
        status,
        content,
        connection,
        head_only: method == b"HEAD",
    }
}

/// The interim answer to `Expect: 100-continue`.
pub const CONTINUE: &[u8] = b"HTTP/1.1 100 Continue\r\n\r\n";
