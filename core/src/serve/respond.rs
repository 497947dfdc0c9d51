//! Writing a service's response onto the connection's output buffer: the head through
//! [`from_http`](crate::from_http), then the body's frames as chunks or checked against the
//! Content-Length, then the trailers.

use bytes::{Buf, BytesMut};
use http::header::{self, HeaderMap};
use http::{Method, StatusCode};
use http_body::SizeHint;

use super::ServeError;
use crate::from_http::{self, BodyFraming};
use crate::writer::{
    allowed_in_trailers, write_chunk_header_in, ResponseWriter, TrailerWriter, WriteError,
    CHUNK_END,
};

/// What the request being answered means for its response.
#[derive(Clone, Copy, Debug)]
pub(super) struct Answering {
    /// A HEAD request: the head says what a GET would get, no body follows.
    pub head: bool,
    /// The client reads HTTP/1.1 (chunked) framing.
    pub http11: bool,
    /// The connection closes after this response.
    pub close: bool,
}

/// How a response's body goes on the wire.
#[derive(Debug)]
pub(super) struct BodyEncoder {
    framing: BodyFraming,
    /// Whether body bytes are sent at all (not for HEAD, 1xx, 204, 304).
    send: bool,
    /// Bytes still due under a Content-Length.
    remaining: u64,
    trailers: Option<HeaderMap>,
    /// The connection closes after the response.
    close: bool,
}

impl BodyEncoder {
    /// Whether the response has no body bytes to send.
    pub(super) fn is_bodiless(&self) -> bool {
        !self.send
    }

    /// Whether the connection closes after this response.
    pub(super) fn closes(&self) -> bool {
        self.close
    }

    /// Appends body data.
    pub(super) fn data(&mut self, data: impl Buf, out: &mut BytesMut) -> Result<(), ServeError> {
        let len = data.remaining();
        if !self.send || len == 0 {
            return Ok(());
        }
        match self.framing {
            BodyFraming::Length(_) => {
                self.remaining = self
                    .remaining
                    .checked_sub(len as u64)
                    .ok_or(ServeError::BodyLength)?;
            }
            BodyFraming::Chunked => {
                // Growing a `BytesMut` cannot fail short of memory, which aborts first.
                let _ = write_chunk_header_in(out, len as u64);
            }
            BodyFraming::None => {}
        }
        out.reserve(len + CHUNK_END.len());
        let mut data = data;
        while data.has_remaining() {
            let chunk = data.chunk();
            out.extend_from_slice(chunk);
            let n = chunk.len();
            data.advance(n);
        }
        if self.framing == BodyFraming::Chunked {
            out.extend_from_slice(CHUNK_END);
        }
        Ok(())
    }

    /// Keeps trailer fields for the end of a chunked body; other framings cannot carry them.
    pub(super) fn trailers(&mut self, trailers: HeaderMap) {
        match &mut self.trailers {
            Some(kept) => kept.extend(trailers),
            None => self.trailers = Some(trailers),
        }
    }

    /// Ends the body: the last chunk and the trailer section, or the check that the
    /// Content-Length was met.
    pub(super) fn finish(&mut self, out: &mut BytesMut) -> Result<(), ServeError> {
        if !self.send {
            return Ok(());
        }
        match self.framing {
            BodyFraming::Length(_) if self.remaining != 0 => Err(ServeError::BodyLength),
            BodyFraming::Chunked => {
                let trailers = self.trailers.take().unwrap_or_default();
                let mut end = TrailerWriter::new_in(out).map_err(write_error)?;
                // Fields a trailer section may not carry (RFC 9110 6.5.1) are dropped, not
                // refused: the body has been sent, and the answer cannot change any more.
                for (name, value) in trailers
                    .iter()
                    .filter(|(name, _)| allowed_in_trailers(name.as_str().as_bytes()))
                {
                    end.header(name.as_str().as_bytes(), value.as_bytes())
                        .map_err(write_error)?;
                }
                end.finish().map_err(write_error)?;
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// Appends the head of `parts` to `out`, and returns how its body is to be sent, chosen from
/// the status, the request and the body's size hint:
///
/// - 1xx and 204: no framing field and no body (a Content-Length in the map is dropped);
/// - 304 and responses to HEAD: the map's Content-Length (or, for HEAD, an exact size hint) is
///   written and no body is sent;
/// - otherwise the map's Content-Length, checked against the bytes the body gives; else the
///   map's `Transfer-Encoding: chunked`; else an exact size hint as Content-Length; else
///   chunked; to an HTTP/1.0 client, instead of chunked, a body that ends when the connection
///   closes.
pub(super) fn head(
    parts: &mut http::response::Parts,
    hint: &SizeHint,
    answering: Answering,
    out: &mut BytesMut,
) -> Result<BodyEncoder, ServeError> {
    let status = parts.status.as_u16();
    parts.version = http::Version::HTTP_11;
    let no_content = matches!(status, 100..=199 | 204);
    if no_content {
        parts.headers.remove(header::CONTENT_LENGTH);
        parts.headers.remove(header::TRANSFER_ENCODING);
    } else if parts.status == StatusCode::NOT_MODIFIED || answering.head {
        // No body follows, so no chunked framing either: a Transfer-Encoding would describe
        // a body that is not there.
        parts.headers.remove(header::TRANSFER_ENCODING);
    }
    let send = !(no_content || answering.head || parts.status == StatusCode::NOT_MODIFIED);
    let stated = BodyFraming::from_headers(&parts.headers)?;
    if stated == BodyFraming::Chunked && !answering.http11 {
        // An HTTP/1.0 client cannot read chunks: the body ends with the connection instead.
        parts.headers.remove(header::TRANSFER_ENCODING);
    }
    let framing = match stated {
        BodyFraming::Length(n) => BodyFraming::Length(n),
        _ if no_content => BodyFraming::None,
        _ if parts.status == StatusCode::NOT_MODIFIED => BodyFraming::None,
        BodyFraming::Chunked if send && answering.http11 => BodyFraming::Chunked,
        _ => match hint.exact() {
            Some(n) if !answering.head || n > 0 => BodyFraming::Length(n),
            _ if !send => BodyFraming::None,
            _ if answering.http11 => BodyFraming::Chunked,
            _ => BodyFraming::None,
        },
    };
    let close = answering.close || (send && framing == BodyFraming::None);
    let extra: &[(&[u8], &[u8])] = if close && !parts.headers.contains_key(header::CONNECTION) {
        &[(b"Connection", b"close")]
    } else {
        &[]
    };
    from_http::append(out, |buf| {
        from_http::write_response_head_with(parts, framing, extra, buf)
    })?;
    let remaining = match framing {
        BodyFraming::Length(n) => n,
        _ => 0,
    };
    Ok(BodyEncoder {
        framing,
        send,
        remaining,
        trailers: None,
        // After a 101 the bytes are another protocol's, which this server does not speak.
        close: close || parts.status == StatusCode::SWITCHING_PROTOCOLS,
    })
}

/// Appends the answer to a request that is refused with `status`: no content, and the
/// connection closes after it.
pub(super) fn refusal(status: u16, out: &mut BytesMut) {
    let mut buf = [0u8; 128];
    let written = ResponseWriter::new(&mut buf, status).and_then(|mut res| {
        res.header(b"Connection", b"close")?;
        if !matches!(status, 100..=199 | 204 | 304) {
            res.content_length(0)?;
        }
        res.finish()
    });
    // Every status an error gives (400 to 505) has a registered reason and fits in `buf`.
    if let Ok(len) = written {
        out.extend_from_slice(&buf[..len]);
    }
}

/// Whether `method` asks for the head alone.
pub(super) fn is_head(method: &Method) -> bool {
    method == Method::HEAD
}

/// A trailer the writer refused, as the serve loop reports it.
fn write_error(e: WriteError) -> ServeError {
    ServeError::Response(e.into())
}
