//! Writing a service's response onto the connection's output buffer: the head through
//! [`from_http`](crate::from_http), then the body's frames through the codec's streaming
//! encoder, as chunks with their trailers or checked against the Content-Length.

use bytes::{Buf, BytesMut};
use http::header::{self, HeaderMap};
use http_body::SizeHint;

use std::vec::Vec;

use super::ServeError;
use crate::codec::{BodyLength, BodyPart, CodecError, Outgoing};
use crate::framing::{self, Content};
use crate::from_http::{self, BodyFraming};
use crate::writer::{allowed_in_trailers, ResponseWriter};

/// What the request being answered means for its response.
#[derive(Clone, Copy, Debug)]
pub(super) struct Answering {
    /// What the request's method means for the response: after HEAD the head says what a
    /// GET would get and no body follows; a 2xx answer to CONNECT opens a tunnel.
    pub method: framing::Answering,
    /// The client reads HTTP/1.1 (chunked) framing.
    pub http11: bool,
    /// The connection closes after this response.
    pub close: bool,
}

/// How a response's body goes on the wire: the codec's streaming encoder, which writes the
/// chunks and the trailer section and holds the body to its Content-Length.
#[derive(Debug)]
pub(super) struct BodyEncoder {
    outgoing: Outgoing,
    /// Whether body bytes are sent at all (not for HEAD, 1xx, 204, 304, a tunnel).
    send: bool,
    trailers: Option<HeaderMap>,
    /// The connection closes after the response.
    close: bool,
    /// The response switches the connection to another protocol: a 101, or a 2xx to CONNECT.
    switches: bool,
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

    /// Whether the connection carries another protocol after this response.
    pub(super) fn switches_protocols(&self) -> bool {
        self.switches
    }

    /// Appends body data.
    pub(super) fn data(
        &mut self,
        mut data: impl Buf,
        out: &mut BytesMut,
    ) -> Result<(), ServeError> {
        let len = data.remaining();
        if data.chunk().len() == len {
            return self.encode(BodyPart::Data(data.chunk()), out);
        }
        // A frame in pieces is gathered, so that it goes out as one chunk.
        let data = data.copy_to_bytes(len);
        self.encode(BodyPart::Data(&data), out)
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
        let trailers = self.trailers.take().unwrap_or_default();
        // Fields a trailer section may not carry (RFC 9110 6.5.1) are dropped, not refused:
        // the body has been sent, and the answer cannot change any more.
        let fields: Vec<(&[u8], &[u8])> = trailers
            .iter()
            .map(|(name, value)| (name.as_str().as_bytes(), value.as_bytes()))
            .filter(|(name, _)| allowed_in_trailers(name))
            .collect();
        if !fields.is_empty() && self.outgoing == Outgoing::Chunked {
            self.encode(BodyPart::Trailers(&fields), out)?;
        }
        self.encode(BodyPart::End, out)
    }

    fn encode(&mut self, part: BodyPart<'_>, out: &mut BytesMut) -> Result<(), ServeError> {
        self.outgoing.encode(part, out).map_err(|e| match e {
            CodecError::Write(e) => ServeError::Response(e.into()),
            // Data beyond the Content-Length (or where it is 0), or an end short of it: the
            // only refusals a body can cause after the head this module wrote.
            _ => ServeError::BodyLength,
        })
    }
}

/// Appends the head of `parts` to `out`, and returns how its body is to be sent, chosen from
/// the status, the request and the body's size hint:
///
/// - 1xx, 204 and a 2xx answer to CONNECT: no framing field and no body (a Content-Length in
///   the map is dropped);
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
    parts.version = http::Version::HTTP_11;
    let status = parts.status.as_u16();
    // After a 101 or a 2xx answer to CONNECT the bytes are another protocol's, which this
    // server does not speak: the head alone, without framing (RFC 9110 9.3.6), then the close.
    let switches = framing::switches_protocols(status, answering.method);
    let content = match switches {
        true => Content::None,
        false => framing::response_content(status),
    };
    let head_only = answering.method == framing::Answering::Head;
    if content == Content::None {
        parts.headers.remove(header::CONTENT_LENGTH);
        parts.headers.remove(header::TRANSFER_ENCODING);
    } else if content == Content::FieldsOnly || head_only {
        // No body follows, so no chunked framing either: a Transfer-Encoding would describe
        // a body that is not there.
        parts.headers.remove(header::TRANSFER_ENCODING);
    }
    let send = content == Content::Allowed && !head_only;
    let stated = BodyFraming::from_headers(&parts.headers)?;
    if stated == BodyFraming::Chunked && !answering.http11 {
        // An HTTP/1.0 client cannot read chunks: the body ends with the connection instead.
        parts.headers.remove(header::TRANSFER_ENCODING);
    }
    let framing = match stated {
        BodyFraming::Length(n) => BodyFraming::Length(n),
        _ if content != Content::Allowed => BodyFraming::None,
        BodyFraming::Chunked if send && answering.http11 => BodyFraming::Chunked,
        _ => match hint.exact() {
            Some(n) if !head_only || n > 0 => BodyFraming::Length(n),
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
    let start = out.len();
    if let Err(e) = from_http::write_response_head_in(parts, framing, extra, out) {
        // All or nothing: the refusal's answer must not follow half a head.
        out.truncate(start);
        return Err(e.into());
    }
    let length = match framing {
        BodyFraming::Length(n) => BodyLength::Fixed(n),
        BodyFraming::Chunked => BodyLength::Chunked,
        BodyFraming::None => BodyLength::UntilClose,
    };
    Ok(BodyEncoder {
        outgoing: Outgoing::after_head(send, length),
        send,
        trailers: None,
        close: close || switches,
        switches,
    })
}

/// Appends the answer to a request that is refused with `status`: no content, and the
/// connection closes after it.
pub(super) fn refusal(status: u16, out: &mut BytesMut) {
    let mut buf = [0u8; 128];
    let written = ResponseWriter::new(&mut buf, status).and_then(|mut res| {
        res.header(b"Connection", b"close")?;
        if framing::response_content(status) == Content::Allowed {
            res.content_length(0)?;
        }
        res.finish()
    });
    // Every status an error gives (400 to 505) has a registered reason and fits in `buf`.
    if let Ok(len) = written {
        out.extend_from_slice(&buf[..len]);
    }
}
