//! Spans: where a part of a message lies in the caller's buffer.

use core::ops::Range;

/// A part of a message, as an offset and a length into the buffer that was parsed.
///
/// A span is 4 bytes. Heads are limited to 64 KiB by construction, so both numbers fit in a
/// `u16`. A span never owns or borrows the bytes: pass the same buffer that was parsed to
/// [`Span::as_bytes`] to read them.
///
/// ```
/// let buf = b"GET /index.html HTTP/1.1\r\nHost: a\r\n\r\n";
/// let mut req = httpspan::Request::new();
/// req.parse(buf)?;
/// assert_eq!(req.target(), httpspan::Span { off: 4, len: 11 });
/// assert_eq!(req.target().as_bytes(buf), b"/index.html");
/// # Ok::<(), httpspan::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// Offset of the first byte.
    pub off: u16,
    /// Number of bytes.
    pub len: u16,
}

impl Span {
    /// The empty span at offset 0.
    pub const EMPTY: Span = Span { off: 0, len: 0 };

    /// A span of `len` bytes starting at `off`.
    #[inline]
    #[must_use]
    pub const fn new(off: u16, len: u16) -> Span {
        Span { off, len }
    }

    /// Builds a span from buffer positions the parser has already bounded to 64 KiB.
    #[inline]
    pub(crate) const fn from_range(start: usize, end: usize) -> Span {
        Span {
            off: start as u16,
            len: (end - start) as u16,
        }
    }

    /// Offset one past the last byte.
    #[inline]
    #[must_use]
    pub const fn end(self) -> usize {
        self.off as usize + self.len as usize
    }

    /// Whether the span covers no bytes.
    #[inline]
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.len == 0
    }

    /// The span as a range of buffer indices.
    #[inline]
    #[must_use]
    pub const fn range(self) -> Range<usize> {
        self.off as usize..self.end()
    }

    /// The bytes of `buf` that this span covers, or `None` if `buf` is too short.
    #[inline]
    #[must_use]
    pub fn get(self, buf: &[u8]) -> Option<&[u8]> {
        buf.get(self.range())
    }

    /// The bytes of `buf` that this span covers.
    ///
    /// Pass the buffer that was parsed. With a buffer too short to hold the span the result is
    /// empty rather than a panic; use [`Span::get`] to tell the two apart.
    #[inline]
    #[must_use]
    pub fn as_bytes(self, buf: &[u8]) -> &[u8] {
        self.get(buf).unwrap_or(&[])
    }
}
