//! Where the writers put their bytes: a slice of fixed length, a growable buffer, or nowhere
//! (to learn the size first).

use super::{put, WriteError};

/// A place the writers can put their bytes, given to the `new_in` constructors
/// ([`ResponseWriter::new_in`](crate::ResponseWriter::new_in),
/// [`RequestWriter::new_in`](crate::RequestWriter::new_in),
/// [`TrailerWriter::new_in`](crate::TrailerWriter::new_in)) and to
/// [`write_empty_response_in`](crate::write_empty_response_in),
/// [`write_chunk_in`](crate::write_chunk_in) and
/// [`write_chunk_header_in`](crate::write_chunk_header_in):
///
/// - `[u8]` and `[u8; N]`: the bytes go at the start, as with the plain `new` constructors; a
///   buffer too small gives [`WriteError::BufferTooSmall`].
/// - `Vec<u8>` (with the `std` feature) and `bytes::BytesMut` (with the `tokio` feature): the
///   bytes are appended after what the buffer already holds, and the buffer grows as needed.
///   A call that is refused appends nothing, but the lines of a head given up before
///   `finish` stay: truncate the buffer back to its length before the writer started.
/// - [`Measure`]: the bytes go nowhere; the writer only counts them, so that the size of a
///   message is known before any room is set aside for it.
///
/// The lengths the writers return count the bytes they wrote themselves, from their start. The
/// trait is sealed: its method is the crate's own.
pub trait WriteTarget: sealed::Target {}

pub(crate) mod sealed {
    use super::WriteError;

    /// What a [`WriteTarget`](super::WriteTarget) does.
    pub trait Target {
        /// Puts `parts`, one after the other, after the `at` bytes the writer has already put,
        /// all or nothing. Returns `at` plus their length; a target that cannot hold them
        /// returns [`WriteError::BufferTooSmall`] with that sum.
        fn put_parts(&mut self, at: usize, parts: &[&[u8]]) -> Result<usize, WriteError>;
    }
}

impl WriteTarget for [u8] {}

impl sealed::Target for [u8] {
    #[inline(always)]
    fn put_parts(&mut self, at: usize, parts: &[&[u8]]) -> Result<usize, WriteError> {
        put(self, at, parts)
    }
}

impl<const N: usize> WriteTarget for [u8; N] {}

impl<const N: usize> sealed::Target for [u8; N] {
    #[inline(always)]
    fn put_parts(&mut self, at: usize, parts: &[&[u8]]) -> Result<usize, WriteError> {
        put(self, at, parts)
    }
}

/// The sum of the lengths of `parts`, and `at` plus it, saturating (a sum that overflows cannot
/// be held anywhere, and is reported as such).
#[inline]
pub(super) fn lengths(at: usize, parts: &[&[u8]]) -> (usize, usize) {
    let n = parts.iter().fold(0usize, |n, p| n.saturating_add(p.len()));
    (n, at.saturating_add(n))
}

#[cfg(feature = "std")]
impl WriteTarget for std::vec::Vec<u8> {}

#[cfg(feature = "std")]
impl sealed::Target for std::vec::Vec<u8> {
    #[inline]
    fn put_parts(&mut self, at: usize, parts: &[&[u8]]) -> Result<usize, WriteError> {
        let (n, end) = lengths(at, parts);
        // An allocation that fails is a buffer that could not grow: reported, not a panic.
        if self.try_reserve(n).is_err() {
            return Err(WriteError::BufferTooSmall { needed: end });
        }
        for part in parts {
            self.extend_from_slice(part);
        }
        Ok(end)
    }
}

#[cfg(feature = "tokio")]
impl WriteTarget for bytes::BytesMut {}

#[cfg(feature = "tokio")]
impl sealed::Target for bytes::BytesMut {
    #[inline]
    fn put_parts(&mut self, at: usize, parts: &[&[u8]]) -> Result<usize, WriteError> {
        let (n, end) = lengths(at, parts);
        // `reserve` panics only past `usize::MAX` bytes, which no real set of parts reaches;
        // the check keeps that out of reach for saturated sums too.
        if n > isize::MAX as usize - self.len() {
            return Err(WriteError::BufferTooSmall { needed: end });
        }
        self.reserve(n);
        for part in parts {
            self.extend_from_slice(part);
        }
        Ok(end)
    }
}

/// A [`WriteTarget`] that keeps nothing: writers given it check everything as usual and return
/// the lengths they would write, so the exact size of a message is known before any room is set
/// aside for it. Run the same calls again on the real buffer to write it.
///
/// ```
/// use httpspan::{Measure, ResponseWriter, WriteError, WriteTarget};
///
/// // The head, written the same way whatever the target.
/// fn head<T: WriteTarget + ?Sized>(target: &mut T, body: &[u8]) -> Result<usize, WriteError> {
///     let mut res = ResponseWriter::new_in(target, 431)?;
///     res.header(b"Content-Type", b"text/plain")?;
///     res.body(body)
/// }
///
/// let body = b"header section too large";
/// let size = head(&mut Measure, body)?;
/// let mut buf = vec![0u8; size];
/// assert_eq!(head(&mut buf[..], body)?, size);
/// assert!(buf.ends_with(b"\r\n\r\nheader section too large"));
/// # Ok::<(), WriteError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Measure;

impl WriteTarget for Measure {}

impl sealed::Target for Measure {
    #[inline]
    fn put_parts(&mut self, at: usize, parts: &[&[u8]]) -> Result<usize, WriteError> {
        Ok(lengths(at, parts).1)
    }
}
