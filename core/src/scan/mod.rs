//! The scanning kernels: the only code that looks at every byte of a head.
//!
//! Parsing a head is a handful of questions asked of long runs of bytes: where does this line
//! end (and is there a NUL or a bare CR before it), how many bytes from here are token bytes,
//! request-target bytes, field-value bytes. Each question is a kernel with one signature in the
//! [`Kernels`] trait. Everything else in the crate works on the answers, so a SIMD backend only
//! has to implement this trait and agree with [`scalar::Scalar`], the reference, byte for byte.
//!
//! Each kernel returns the length of the longest prefix of its input in one byte class. The
//! callers look at the byte that stopped the run to decide what it means (a colon, a space, an
//! error), which keeps the kernels free of grammar and easy to check exhaustively.

pub(crate) mod class;
pub(crate) mod scalar;

/// The kernels a backend provides. Each returns an index into `bytes`, `bytes.len()` when the
/// whole input belongs to the class.
pub(crate) trait Kernels {
    /// Index of the first CR, LF or NUL.
    fn line_special(bytes: &[u8]) -> usize;
    /// Length of the leading run of token characters (`tchar`, RFC 9110 5.6.2).
    fn token_len(bytes: &[u8]) -> usize;
    /// Length of the leading run of request-target characters: `unreserved`, `sub-delims`,
    /// `:`, `@`, `/` and `?` (RFC 3986). `%`, `[` and `]` stop the run so that the caller can
    /// check percent-encoding and IP-literals where they occur.
    fn target_len(bytes: &[u8]) -> usize;
    /// Length of the leading run of field-value characters: VCHAR, obs-text, SP and HTAB
    /// (RFC 9110 5.5). Reason phrases use the same class.
    fn field_value_len(bytes: &[u8]) -> usize;
}

/// The backend in use. Only the scalar reference exists so far.
type Active = scalar::Scalar;

#[cfg(test)]
pub(crate) mod counter {
    //! Counts the bytes the kernels examine, so a test can show that resuming never re-scans.
    // Per thread, so that tests running in parallel do not add to each other's counts.
    std::thread_local! {
        static SCANNED: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
    }

    pub(crate) fn add(bytes_len: usize, stop: usize) {
        let seen = if stop < bytes_len {
            stop + 1
        } else {
            bytes_len
        };
        SCANNED.with(|c| c.set(c.get() + seen));
    }

    pub(crate) fn take() -> usize {
        SCANNED.with(|c| c.replace(0))
    }
}

macro_rules! dispatch {
    ($( $(#[$doc:meta])* $name:ident ),*) => {$(
        $(#[$doc])*
        #[inline]
        pub(crate) fn $name(bytes: &[u8]) -> usize {
            let stop = <Active as Kernels>::$name(bytes);
            #[cfg(test)]
            counter::add(bytes.len(), stop);
            stop
        }
    )*};
}

dispatch! {
    /// See [`Kernels::line_special`].
    line_special,
    /// See [`Kernels::token_len`].
    token_len,
    /// See [`Kernels::target_len`].
    target_len,
    /// See [`Kernels::field_value_len`].
    field_value_len
}
