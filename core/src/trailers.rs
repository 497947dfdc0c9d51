//! Trailer sections: the fields after the last chunk of a chunked body.

use crate::error::Error;
use crate::head::{field_accessors, Head, NoStartLine, Status};
use crate::head_kind::HeadKind;
use crate::limits::Limits;

/// A trailer section (RFC 9112 7.1.2), parsed in place with the same field rules as a head.
///
/// [`ChunkedDecoder`](crate::ChunkedDecoder) stops where the trailer section starts; parse it
/// from there with this type, like a head: call [`parse`](Self::parse) with a growing buffer
/// until it is complete. Trailer fields do not change framing or connection handling.
///
/// ```
/// use httpspan::{Status, Trailers};
/// let buf = b"Checksum: abc\r\n\r\n";
/// let mut trailers = Trailers::new();
/// assert_eq!(trailers.parse(buf)?, Status::Complete { head_len: buf.len() });
/// assert_eq!(trailers.find(buf, b"checksum").unwrap().as_bytes(buf), b"abc");
/// # Ok::<(), httpspan::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Trailers<const N: usize = 64> {
    head: Head<N>,
    line: NoStartLine,
}

impl Trailers {
    /// A trailer parser with 64 field slots and the default [`Limits`].
    #[must_use]
    pub const fn new() -> Self {
        Self::with_limits(Limits::DEFAULT)
    }

    /// A trailer parser with 64 field slots and the given limits (`max_field_lines` and
    /// `max_trailer_bytes` apply).
    #[must_use]
    pub const fn with_limits(limits: Limits) -> Self {
        Self::with_slots(limits)
    }
}

impl<const N: usize> Default for Trailers<N> {
    /// A trailer parser with `N` field slots and the default [`Limits`]: up to `N` field lines.
    fn default() -> Self {
        Self::with_slots(Limits::DEFAULT)
    }
}

impl<const N: usize> Trailers<N> {
    /// A trailer parser with `N` field slots and the given limits: field lines are bounded by
    /// the smaller of `N` and `limits.max_field_lines`, bytes by `limits.max_trailer_bytes`.
    #[must_use]
    pub const fn with_slots(limits: Limits) -> Self {
        Trailers {
            head: Head::new(HeadKind::Trailers, &limits),
            line: NoStartLine,
        }
    }

    /// Parses the trailer section at the start of `buf` (the bytes right after the last-chunk
    /// line), or resumes a parse that returned [`Status::Partial`]. `head_len` in
    /// [`Status::Complete`] is the length of the section, its final CRLF included. The same
    /// contract as [`Request::parse`](crate::Request::parse) holds: the whole buffer from the
    /// section's first byte on every call, and [`reset`](Self::reset) before the next section.
    ///
    /// # Errors
    ///
    /// The errors of [`Request::parse`](crate::Request::parse), for trailer field lines and the
    /// trailer limits.
    pub fn parse(&mut self, buf: &[u8]) -> Result<Status, Error> {
        self.head.parse(buf, &mut self.line)
    }

    /// Forgets the parsed section.
    pub fn reset(&mut self) {
        self.head.reset();
    }

    field_accessors!();
}
