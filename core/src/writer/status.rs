//! The registered status codes and their reason phrases, and whole responses without a body:
//! compile-time constants for the registered codes, the general writer for the others.

use super::{ResponseWriter, WriteError, WriteTarget};
use crate::framing::{self, Content};

macro_rules! status_codes {
    ($( $code:literal => $reason:literal, )*) => {
        /// The reason phrase of a status code registered by RFC 9110 15 (and 103, 428, 429, 431,
        /// 451 and 511 from RFCs 8297, 6585 and 7725), or `None`.
        ///
        /// ```
        /// assert_eq!(httpspan::reason_phrase(404), Some("Not Found"));
        /// assert_eq!(httpspan::reason_phrase(431), Some("Request Header Fields Too Large"));
        /// assert_eq!(httpspan::reason_phrase(299), None);
        /// ```
        pub const fn reason_phrase(status: u16) -> Option<&'static str> {
            match status {
                $( $code => Some($reason), )*
                _ => None,
            }
        }

        /// The whole HTTP/1.1 status line of a registered code, CRLF included, built at
        /// compile time so that the common case is one copy.
        #[inline]
        pub(super) const fn status_line(status: u16) -> Option<&'static [u8]> {
            match status {
                $( $code => Some(concat!("HTTP/1.1 ", $code, " ", $reason, "\r\n").as_bytes()), )*
                _ => None,
            }
        }

        /// The whole HTTP/1.1 response of a registered code with `Content-Length: 0`, built at
        /// compile time. Only for codes whose responses may have content (not 1xx, 204, 304).
        #[inline]
        const fn empty_response(status: u16) -> Option<&'static [u8]> {
            match status {
                $( $code => Some(
                    concat!("HTTP/1.1 ", $code, " ", $reason, "\r\nContent-Length: 0\r\n\r\n")
                        .as_bytes()
                ), )*
                _ => None,
            }
        }
    };
}

status_codes! {
    100 => "Continue",
    101 => "Switching Protocols",
    103 => "Early Hints",
    200 => "OK",
    201 => "Created",
    202 => "Accepted",
    203 => "Non-Authoritative Information",
    204 => "No Content",
    205 => "Reset Content",
    206 => "Partial Content",
    300 => "Multiple Choices",
    301 => "Moved Permanently",
    302 => "Found",
    303 => "See Other",
    304 => "Not Modified",
    305 => "Use Proxy",
    307 => "Temporary Redirect",
    308 => "Permanent Redirect",
    400 => "Bad Request",
    401 => "Unauthorized",
    402 => "Payment Required",
    403 => "Forbidden",
    404 => "Not Found",
    405 => "Method Not Allowed",
    406 => "Not Acceptable",
    407 => "Proxy Authentication Required",
    408 => "Request Timeout",
    409 => "Conflict",
    410 => "Gone",
    411 => "Length Required",
    412 => "Precondition Failed",
    413 => "Content Too Large",
    414 => "URI Too Long",
    415 => "Unsupported Media Type",
    416 => "Range Not Satisfiable",
    417 => "Expectation Failed",
    421 => "Misdirected Request",
    422 => "Unprocessable Content",
    426 => "Upgrade Required",
    428 => "Precondition Required",
    429 => "Too Many Requests",
    431 => "Request Header Fields Too Large",
    451 => "Unavailable For Legal Reasons",
    500 => "Internal Server Error",
    501 => "Not Implemented",
    502 => "Bad Gateway",
    503 => "Service Unavailable",
    504 => "Gateway Timeout",
    505 => "HTTP Version Not Supported",
    511 => "Network Authentication Required",
}

/// Writes a whole HTTP/1.1 response without a body into `buf`: the status line with the
/// registered reason phrase (see [`reason_phrase`]), `Content-Length: 0` (none in a 1xx, 204 or
/// 304 response, which has no content) and the empty line. Returns its length.
///
/// For a registered status code whose response may have content, the response is a
/// compile-time constant copied after one bounds check: the cheapest answer a server can send.
/// Other codes go through [`ResponseWriter`], with the same result. `status` must be from 100
/// to 599. A buffer too small is refused with the length of the whole response, and nothing is
/// written.
///
/// ```
/// let mut buf = [0u8; 64];
/// let len = httpspan::write_empty_response(&mut buf, 200)?;
/// assert_eq!(&buf[..len], b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
/// let len = httpspan::write_empty_response(&mut buf, 204)?;
/// assert_eq!(&buf[..len], b"HTTP/1.1 204 No Content\r\n\r\n");
/// # Ok::<(), httpspan::WriteError>(())
/// ```
///
/// # Errors
///
/// [`WriteError::Invalid`] for a status outside 100 to 599;
/// [`WriteError::BufferTooSmall`] when `buf` has no room; nothing usable is written then.
#[inline]
pub fn write_empty_response(buf: &mut [u8], status: u16) -> Result<usize, WriteError> {
    // The commonest answer of all as a fixed-size copy, which compiles to a few register moves.
    if status == 200 {
        let Some(dst) = buf.first_chunk_mut::<{ OK_EMPTY.len() }>() else {
            return Err(WriteError::BufferTooSmall {
                needed: OK_EMPTY.len(),
            });
        };
        *dst = OK_EMPTY;
        return Ok(OK_EMPTY.len());
    }
    write_empty_response_slice(buf, status)
}

/// [`write_empty_response`] into any [`WriteTarget`]: appended to a `Vec<u8>` or `BytesMut`,
/// or only measured with [`Measure`](super::Measure).
///
/// ```
/// let mut out = Vec::new();
/// httpspan::write_empty_response_in(&mut out, 404)?;
/// httpspan::write_empty_response_in(&mut out, 304)?;
/// assert_eq!(
///     out,
///     b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\nHTTP/1.1 304 Not Modified\r\n\r\n"
/// );
/// # Ok::<(), httpspan::WriteError>(())
/// ```
///
/// # Errors
///
/// [`WriteError::Invalid`] for a status outside 100 to 599;
/// [`WriteError::BufferTooSmall`] when the target cannot hold it (a slice too short).
#[inline]
pub fn write_empty_response_in<T: WriteTarget + ?Sized>(
    target: &mut T,
    status: u16,
) -> Result<usize, WriteError> {
    let has_content = framing::response_content(status) == Content::Allowed;
    if let Some(response) = empty_response(status).filter(|_| has_content) {
        return target.put_parts(0, &[response]);
    }
    // The rest is written on the stack first, so that the target gets all of it or nothing and
    // a target too small learns the whole length.
    let mut response = [0u8; EMPTY_RESPONSE_MAX];
    let len = written_empty_response(&mut response, status)?;
    target.put_parts(0, &[&response[..len]])
}

/// [`write_empty_response_in`] into a slice, out of line: the 200 answer is the one to keep
/// small where [`write_empty_response`] is inlined.
#[inline(never)]
fn write_empty_response_slice(buf: &mut [u8], status: u16) -> Result<usize, WriteError> {
    write_empty_response_in(buf, status)
}

/// The longest response [`write_empty_response`] writes: the longest registered reason phrase
/// and `Content-Length: 0`, with room to spare.
const EMPTY_RESPONSE_MAX: usize = 96;

/// A response of `status` without content written by the general writer, for the codes that
/// have no compile-time constant.
#[inline(never)]
fn written_empty_response(buf: &mut [u8], status: u16) -> Result<usize, WriteError> {
    let mut res = ResponseWriter::new(buf, status)?;
    if framing::response_content(status) == Content::Allowed {
        res.content_length(0)?;
    }
    res.finish()
}

/// `empty_response(200)` as an array, so that its copy has a length known at compile time.
const OK_EMPTY: [u8; OK_EMPTY_LEN] = {
    let Some(response) = empty_response(200) else {
        panic!("200 is a registered status code")
    };
    let mut bytes = [0u8; OK_EMPTY_LEN];
    let mut i = 0;
    while i < OK_EMPTY_LEN {
        bytes[i] = response[i];
        i += 1;
    }
    bytes
};
const OK_EMPTY_LEN: usize = match empty_response(200) {
    Some(response) => response.len(),
    None => 0,
};
