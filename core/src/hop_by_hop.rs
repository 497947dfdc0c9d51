//! The fields a proxy forwards: a parsed head's fields without the hop-by-hop ones (RFC 9110
//! 7.6.1).

use core::slice;

use crate::head::Field;
use crate::syntax::ConnectionOptions;

/// The fields that describe one connection, not the message, whether or not a Connection field
/// names them (RFC 9110 7.6.1): Connection itself, Proxy-Connection, Keep-Alive, TE,
/// Transfer-Encoding and Upgrade.
pub(crate) const HOP_BY_HOP: [&[u8]; 6] = [
    b"connection",
    b"proxy-connection",
    b"keep-alive",
    b"te",
    b"transfer-encoding",
    b"upgrade",
];

/// Whether the field `name` (compared case-insensitively) describes the connection rather than
/// the message, so that a proxy removes it before forwarding whatever the Connection field says
/// (RFC 9110 7.6.1): Connection, Proxy-Connection, Keep-Alive, TE, Transfer-Encoding and
/// Upgrade.
///
/// Not on the list, as RFC 9110 does not put them there: Trailer (it announces trailer fields,
/// which are forwarded with the body; a proxy that drops the trailers drops it too),
/// Proxy-Authenticate and Proxy-Authorization (a proxy that uses them removes them; proxies may
/// also relay them), and Content-Length (end to end, though a proxy that changes the framing
/// writes its own; see [`end_to_end_fields`]).
///
/// ```
/// assert!(httpspan::is_hop_by_hop(b"Keep-Alive"));
/// assert!(httpspan::is_hop_by_hop(b"transfer-encoding"));
/// assert!(!httpspan::is_hop_by_hop(b"Trailer"));
/// assert!(!httpspan::is_hop_by_hop(b"Content-Length"));
/// ```
#[must_use]
pub fn is_hop_by_hop(name: &[u8]) -> bool {
    HOP_BY_HOP.iter().any(|n| name.eq_ignore_ascii_case(n))
}

/// Whether `field` of the head in `buf` is a Connection line.
fn is_connection(field: &Field, buf: &[u8]) -> bool {
    field.name.as_bytes(buf).eq_ignore_ascii_case(b"connection")
}

/// The fields of a parsed head that a proxy forwards (RFC 9110 7.6.1): all of `fields`, in
/// order, except the hop-by-hop fields ([`is_hop_by_hop`]) and those that a Connection field of
/// the same head names as a connection option. `fields` and `buf` are a parsed
/// [`Request`](crate::Request) or [`Response`](crate::Response) (its `fields()`) and the buffer
/// it was parsed from.
///
/// The Connection values are read by the parser's own list rules (comma-separated tokens,
/// empty elements skipped, names compared case-insensitively), straight from the head: nothing
/// is allocated or copied, and each field is compared with the options of the Connection lines
/// only. Content-Length stays (it is end to end): a proxy that writes the message with
/// [`ResponseWriter`](crate::ResponseWriter) or [`RequestWriter`](crate::RequestWriter) gives
/// it to `content_length`, `chunked` or `body` instead, which write the framing.
///
/// ```
/// use httpspan::{end_to_end_fields, Request, ResponseWriter};
///
/// let buf = b"HTTP/1.1 200 OK\r\nConnection: keep-alive, X-Trace\r\nX-Trace: 1\r\n\
///             Keep-Alive: timeout=5\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok";
/// let mut res = httpspan::Response::new();
/// res.parse(buf).unwrap();
/// let forwarded: Vec<&[u8]> = end_to_end_fields(res.fields(), buf)
///     .map(|f| f.name.as_bytes(buf))
///     .collect();
/// assert_eq!(forwarded, [&b"Content-Type"[..], b"Content-Length"]);
///
/// // Copying them into a writer, with the framing written by the writer:
/// let mut out = [0u8; 128];
/// let mut writer = ResponseWriter::new(&mut out, res.status())?;
/// for field in end_to_end_fields(res.fields(), buf) {
///     let name = field.name.as_bytes(buf);
///     if !name.eq_ignore_ascii_case(b"content-length") {
///         writer.header(name, field.value.as_bytes(buf))?;
///     }
/// }
/// if let Some(len) = res.content_length() {
///     writer.content_length(len)?;
/// }
/// let len = writer.finish()?;
/// assert_eq!(
///     &out[..len],
///     b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n"
/// );
/// # Ok::<(), httpspan::WriteError>(())
/// ```
#[must_use]
pub fn end_to_end_fields<'a>(fields: &'a [Field], buf: &'a [u8]) -> EndToEndFields<'a> {
    end_to_end_trailers(fields, buf, fields, buf)
}

/// The trailer fields a proxy forwards: [`end_to_end_fields`] for a trailer section, whose
/// fields named by the Connection field of the message's head are removed too (RFC 9110 7.6.1
/// speaks of "header or trailer fields"). `trailers` and `trailer_buf` are a parsed
/// [`Trailers`](crate::Trailers) and its buffer; `head` and `head_buf` the message's head.
/// Connection lines inside the trailer section name nothing (the connection options are the
/// head's) and are removed as hop-by-hop fields.
///
/// ```
/// let head = b"HTTP/1.1 200 OK\r\nConnection: X-Hop\r\nTransfer-Encoding: chunked\r\n\r\n";
/// let mut res = httpspan::Response::new();
/// res.parse(head).unwrap();
/// let section = b"X-Hop: 1\r\nChecksum: abc\r\n\r\n";
/// let mut trailers = httpspan::Trailers::new();
/// trailers.parse(section).unwrap();
/// let forwarded: Vec<&[u8]> =
///     httpspan::end_to_end_trailers(trailers.fields(), section, res.fields(), head)
///         .map(|f| f.name.as_bytes(section))
///         .collect();
/// assert_eq!(forwarded, [b"Checksum"]);
/// ```
#[must_use]
pub fn end_to_end_trailers<'a>(
    trailers: &'a [Field],
    trailer_buf: &'a [u8],
    head: &'a [Field],
    head_buf: &'a [u8],
) -> EndToEndFields<'a> {
    // Only the stretch from the first Connection line to the last is searched for options, so
    // a head without one costs one pass here and no more.
    let connection = match head.iter().position(|f| is_connection(f, head_buf)) {
        Some(first) => {
            let from_first = &head[first..];
            // The first line is one, so the search back stops there at the latest.
            let last = from_first
                .iter()
                .rposition(|f| is_connection(f, head_buf))
                .unwrap_or(0);
            &from_first[..=last]
        }
        None => &[],
    };
    EndToEndFields {
        fields: trailers.iter(),
        buf: trailer_buf,
        connection,
        connection_buf: head_buf,
    }
}

/// The iterator returned by [`end_to_end_fields`] and [`end_to_end_trailers`]: the fields to
/// forward, in order.
#[derive(Clone, Debug)]
pub struct EndToEndFields<'a> {
    fields: slice::Iter<'a, Field>,
    buf: &'a [u8],
    /// The head's fields from its first Connection line to its last (empty without one).
    connection: &'a [Field],
    connection_buf: &'a [u8],
}

impl EndToEndFields<'_> {
    /// Whether a Connection line of the head names `name` as a connection option.
    fn named_by_connection(&self, name: &[u8]) -> bool {
        self.connection
            .iter()
            .filter(|f| is_connection(f, self.connection_buf))
            .flat_map(|f| ConnectionOptions::new(f.value.as_bytes(self.connection_buf)))
            // An element that is not a token (the parser refuses it in a head) names no field.
            .any(|option| option.is_ok_and(|option| option.eq_ignore_ascii_case(name)))
    }
}

impl Iterator for EndToEndFields<'_> {
    type Item = Field;

    fn next(&mut self) -> Option<Field> {
        while let Some(field) = self.fields.next() {
            let name = field.name.as_bytes(self.buf);
            if !is_hop_by_hop(name) && !self.named_by_connection(name) {
                return Some(*field);
            }
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, self.fields.size_hint().1)
    }
}

#[cfg(test)]
mod tests;
