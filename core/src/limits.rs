//! Configurable limits, with the defaults of the conformance policy.

/// Limits that bound the work and memory a message can demand.
///
/// Every limit is inclusive: a message exactly at the limit is accepted. The defaults are those
/// of httpspan's conformance policy. Fields can be set directly:
///
/// ```
/// let mut limits = httpspan::Limits::default();
/// limits.max_head_bytes = 4096;
/// limits.max_body_bytes = Some(1 << 20);
/// let req = httpspan::Request::with_limits(limits);
/// # let _ = req;
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Field lines in a head or a trailer section, Host included. Default 64.
    pub max_field_lines: u16,
    /// Bytes of a head, from the first byte of the request-line or status-line through the CRLF
    /// that ends the head. Default 8192. The `u16` is the 64 KiB bound that lets every [`Span`]
    /// fit in 4 bytes; for the same reason no byte of a head may lie at buffer offset 65536 or
    /// beyond, so with a limit within 4 bytes of 65535 the empty lines skipped before a
    /// request-line count against it too.
    ///
    /// [`Span`]: crate::Span
    pub max_head_bytes: u16,
    /// Bytes of the chunk-ext of one chunk line, from the byte after the chunk-size through the
    /// byte before its CRLF. Default 65536.
    pub max_chunk_ext_bytes: u32,
    /// Bytes of a trailer section, from the byte after the last-chunk line through the CRLF that
    /// ends it. Default 65536; at most 65536 can be honoured, since trailer spans are 4 bytes too.
    pub max_trailer_bytes: u32,
    /// Bytes of one message body after transfer decoding, or `None` for no limit (the default).
    /// Enforced by [`stream::Decoder`](crate::stream::Decoder).
    pub max_body_bytes: Option<u64>,
}

impl Limits {
    /// The defaults of the conformance policy.
    pub const DEFAULT: Limits = Limits {
        max_field_lines: 64,
        max_head_bytes: 8192,
        max_chunk_ext_bytes: 64 * 1024,
        max_trailer_bytes: 64 * 1024,
        max_body_bytes: None,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}
