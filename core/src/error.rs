//! Errors: what was wrong, where, which rule says so, and what a server should answer.

use core::fmt;

macro_rules! error_kinds {
    ($( $(#[$doc:meta])* $name:ident => ($status:expr, $rfc:expr, $msg:expr), )*) => {
        /// What made a message invalid. Stable: new kinds may be added, existing ones keep their
        /// meaning.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum ErrorKind {
            $( $(#[$doc])* $name, )*
        }

        impl ErrorKind {
            /// Every kind, in declaration order.
            pub const ALL: &'static [ErrorKind] = &[$(ErrorKind::$name,)*];

            /// The status code a server should answer a request that fails this way.
            pub const fn status(self) -> u16 {
                match self { $(ErrorKind::$name => $status,)* }
            }

            /// The section of the RFC whose rule the message broke, such as `"RFC 9112 5.1"`.
            pub const fn rfc(self) -> &'static str {
                match self { $(ErrorKind::$name => $rfc,)* }
            }

            /// A short lowercase description, without trailing punctuation.
            pub const fn message(self) -> &'static str {
                match self { $(ErrorKind::$name => $msg,)* }
            }

            /// A stable snake_case name for the kind, for logs and for other languages.
            pub const fn code(self) -> &'static str {
                match self { $(ErrorKind::$name => codes::$name,)* }
            }
        }

        #[allow(non_upper_case_globals)]
        mod codes {
            $( pub(super) const $name: &str = paste_code!($name); )*
        }
    };
}

// The snake_case codes are spelled out once here so that they stay stable even if a variant's
// Rust name is ever reworded.
macro_rules! paste_code {
    (BareLf) => {
        "bare_lf"
    };
    (BareCr) => {
        "bare_cr"
    };
    (Nul) => {
        "nul"
    };
    (TooManyEmptyLines) => {
        "too_many_empty_lines"
    };
    (WhitespaceBeforeFirstField) => {
        "whitespace_before_first_field"
    };
    (ObsFold) => {
        "obs_fold"
    };
    (InvalidMethod) => {
        "invalid_method"
    };
    (InvalidRequestLine) => {
        "invalid_request_line"
    };
    (InvalidTarget) => {
        "invalid_target"
    };
    (InvalidPercentEncoding) => {
        "invalid_percent_encoding"
    };
    (FragmentInTarget) => {
        "fragment_in_target"
    };
    (AsteriskFormNotOptions) => {
        "asterisk_form_not_options"
    };
    (AuthorityFormNotConnect) => {
        "authority_form_not_connect"
    };
    (ConnectNotAuthorityForm) => {
        "connect_not_authority_form"
    };
    (UserinfoInTarget) => {
        "userinfo_in_target"
    };
    (InvalidVersion) => {
        "invalid_version"
    };
    (UnsupportedVersion) => {
        "unsupported_version"
    };
    (InvalidStatusLine) => {
        "invalid_status_line"
    };
    (InvalidStatusCode) => {
        "invalid_status_code"
    };
    (InvalidReason) => {
        "invalid_reason"
    };
    (EmptyLineBeforeStatusLine) => {
        "empty_line_before_status_line"
    };
    (InvalidFieldName) => {
        "invalid_field_name"
    };
    (WhitespaceBeforeColon) => {
        "whitespace_before_colon"
    };
    (MissingColon) => {
        "missing_colon"
    };
    (InvalidFieldValue) => {
        "invalid_field_value"
    };
    (MissingHost) => {
        "missing_host"
    };
    (DuplicateHost) => {
        "duplicate_host"
    };
    (InvalidHost) => {
        "invalid_host"
    };
    (InvalidContentLength) => {
        "invalid_content_length"
    };
    (DuplicateContentLength) => {
        "duplicate_content_length"
    };
    (ContentLengthTooLarge) => {
        "content_length_too_large"
    };
    (ContentLengthWithTransferEncoding) => {
        "content_length_with_transfer_encoding"
    };
    (TransferEncodingInHttp10) => {
        "transfer_encoding_in_http10"
    };
    (InvalidTransferEncoding) => {
        "invalid_transfer_encoding"
    };
    (ChunkedNotLast) => {
        "chunked_not_last"
    };
    (ChunkedTwice) => {
        "chunked_twice"
    };
    (InvalidConnection) => {
        "invalid_connection"
    };
    (TargetTooLong) => {
        "target_too_long"
    };
    (HeadTooLarge) => {
        "head_too_large"
    };
    (TooManyFields) => {
        "too_many_fields"
    };
    (InvalidChunkSize) => {
        "invalid_chunk_size"
    };
    (ChunkSizeTooLong) => {
        "chunk_size_too_long"
    };
    (InvalidChunkExtension) => {
        "invalid_chunk_extension"
    };
    (ChunkExtensionTooLong) => {
        "chunk_extension_too_long"
    };
    (ChunkExtensionsTooLarge) => {
        "chunk_extensions_too_large"
    };
    (MissingChunkCrlf) => {
        "missing_chunk_crlf"
    };
    (TrailersTooLarge) => {
        "trailers_too_large"
    };
    (BodyTooLarge) => {
        "body_too_large"
    };
    (ParseAfterComplete) => {
        "parse_after_complete"
    };
    (BufferShorterThanParsed) => {
        "buffer_shorter_than_parsed"
    };
}

error_kinds! {
    /// A line ended in LF without CR before it.
    /// Relaxed by [`Leniency::bare_lf`](crate::Leniency::bare_lf).
    BareLf => (400, "RFC 9112 2.2", "bare LF line ending"),
    /// A CR was not followed by LF; the offset is the byte where LF was expected.
    BareCr => (400, "RFC 9112 2.2", "expected LF after CR"),
    /// A NUL byte in the head.
    Nul => (400, "RFC 9110 5.5", "NUL byte in head"),
    /// More than 2 empty lines before the request-line.
    TooManyEmptyLines => (400, "RFC 9112 2.2", "more than 2 empty lines before the request-line"),
    /// The first field line starts with whitespace.
    WhitespaceBeforeFirstField => (400, "RFC 9112 2.2", "whitespace at the start of the first field line"),
    /// A field line starts with SP or HTAB (obsolete line folding).
    /// Relaxed by [`Leniency::obs_fold`](crate::Leniency::obs_fold).
    ObsFold => (400, "RFC 9112 5.2", "obsolete line folding"),
    /// The method is not a token.
    InvalidMethod => (400, "RFC 9112 3.1", "invalid byte in method"),
    /// The request-line is not `method SP request-target SP HTTP-version`.
    /// Relaxed by [`Leniency::request_line_spaces`](crate::Leniency::request_line_spaces).
    InvalidRequestLine => (400, "RFC 9112 3", "request-line needs exactly one SP between its parts"),
    /// A byte that no request-target may contain.
    InvalidTarget => (400, "RFC 9112 3.2", "invalid request-target"),
    /// A `%` not followed by two hex digits; the offset is the first byte that is not one.
    InvalidPercentEncoding => (400, "RFC 3986 2.1", "percent sign not followed by two hex digits"),
    /// A `#` fragment in the request-target.
    FragmentInTarget => (400, "RFC 9112 3.2", "fragment in request-target"),
    /// `*` as the target of a method other than OPTIONS.
    AsteriskFormNotOptions => (400, "RFC 9112 3.2.4", "asterisk-form is only allowed with OPTIONS"),
    /// `host:port` as the target of a method other than CONNECT.
    AuthorityFormNotConnect => (400, "RFC 9112 3.2.3", "authority-form is only allowed with CONNECT"),
    /// CONNECT with a target that is not `host:port`.
    ConnectNotAuthorityForm => (400, "RFC 9112 3.2.3", "CONNECT needs an authority-form target"),
    /// `user@` in an http or https target.
    UserinfoInTarget => (400, "RFC 9110 4.2.4", "userinfo in an http(s) request-target"),
    /// The HTTP-version is not `HTTP/` DIGIT `.` DIGIT.
    InvalidVersion => (400, "RFC 9112 2.3", "malformed HTTP-version"),
    /// A well-formed HTTP-version other than HTTP/1.0 and HTTP/1.1.
    /// Relaxed by [`Leniency::unknown_version`](crate::Leniency::unknown_version).
    UnsupportedVersion => (505, "RFC 9110 15.6.6", "unsupported HTTP version"),
    /// The status-line is not `HTTP-version SP 3DIGIT SP reason-phrase`.
    InvalidStatusLine => (400, "RFC 9112 4", "malformed status-line"),
    /// The status code is not three digits from 100 to 599.
    InvalidStatusCode => (400, "RFC 9110 15", "status code must be three digits from 100 to 599"),
    /// A byte that a reason-phrase may not contain.
    InvalidReason => (400, "RFC 9112 4", "invalid byte in reason-phrase"),
    /// An empty line before a status-line.
    EmptyLineBeforeStatusLine => (400, "RFC 9112 2.2", "empty line before the status-line"),
    /// The field name is empty or has a byte that is not a token character.
    InvalidFieldName => (400, "RFC 9110 5.1", "invalid field name"),
    /// Whitespace between a field name and its colon.
    /// Relaxed by [`Leniency::space_before_colon`](crate::Leniency::space_before_colon).
    WhitespaceBeforeColon => (400, "RFC 9112 5.1", "whitespace between field name and colon"),
    /// A field line without a colon.
    MissingColon => (400, "RFC 9112 5", "field line without a colon"),
    /// A byte that a field value may not contain.
    InvalidFieldValue => (400, "RFC 9110 5.5", "invalid byte in field value"),
    /// An HTTP/1.1 request without Host.
    /// Relaxed by [`Leniency::missing_host`](crate::Leniency::missing_host).
    MissingHost => (400, "RFC 9112 3.2", "HTTP/1.1 request without Host"),
    /// More than one Host field line.
    DuplicateHost => (400, "RFC 9112 3.2", "more than one Host field"),
    /// A Host value that is not `uri-host [ ":" port ]`.
    InvalidHost => (400, "RFC 9112 3.2", "invalid Host value"),
    /// A Content-Length that is not 1*DIGIT.
    InvalidContentLength => (400, "RFC 9110 8.6", "non-digit in Content-Length"),
    /// More than one Content-Length field line.
    /// Relaxed by [`Leniency::duplicate_content_length`](crate::Leniency::duplicate_content_length).
    DuplicateContentLength => (400, "RFC 9112 6.3", "more than one Content-Length field"),
    /// A Content-Length above 2^63-1.
    ContentLengthTooLarge => (400, "RFC 9112 6.3", "declared length above 2^63-1"),
    /// Both Content-Length and Transfer-Encoding.
    ContentLengthWithTransferEncoding => (400, "RFC 9112 6.3", "both Content-Length and Transfer-Encoding"),
    /// Transfer-Encoding in an HTTP/1.0 message.
    TransferEncodingInHttp10 => (400, "RFC 9112 6.1", "transfer coding in an HTTP/1.0 message"),
    /// A Transfer-Encoding that is not a list of transfer-codings.
    InvalidTransferEncoding => (400, "RFC 9112 6.1", "invalid Transfer-Encoding"),
    /// A request whose last transfer coding is not chunked.
    ChunkedNotLast => (400, "RFC 9112 6.3", "chunked is not the last transfer coding of a request"),
    /// chunked applied more than once.
    ChunkedTwice => (400, "RFC 9112 7", "chunked applied more than once"),
    /// A Connection value that is not a list of tokens.
    InvalidConnection => (400, "RFC 9110 7.6.1", "invalid Connection value"),
    /// The request-line alone exceeds the head limit.
    TargetTooLong => (414, "RFC 9110 15.5.15", "request-line longer than the head limit"),
    /// The head exceeds the head limit.
    HeadTooLarge => (431, "RFC 6585 5", "head larger than the limit"),
    /// More field lines than the limit: the smaller of
    /// [`Limits::max_field_lines`](crate::Limits::max_field_lines) and the parser's field slots.
    TooManyFields => (431, "RFC 6585 5", "more field lines than the limit"),
    /// A chunk-size that is not 1*HEXDIG.
    InvalidChunkSize => (400, "RFC 9112 7.1", "invalid chunk-size"),
    /// A chunk-size of more than 16 hex digits.
    ChunkSizeTooLong => (400, "RFC 9112 7.1", "chunk-size longer than 16 hex digits"),
    /// A chunk-ext that is not `;` token [ `=` ( token / quoted-string ) ].
    InvalidChunkExtension => (400, "RFC 9112 7.1.1", "invalid chunk extension"),
    /// A chunk-ext longer than the limit.
    ChunkExtensionTooLong => (400, "RFC 9112 7.1.1", "chunk extension longer than the limit"),
    /// The chunk-ext bytes of all the chunk lines of one body, together, exceed the limit.
    ChunkExtensionsTooLarge => (400, "RFC 9112 7.1.1", "chunk extensions of a body larger than the limit"),
    /// Chunk data not followed by CRLF; the offset is the byte where CR was expected.
    MissingChunkCrlf => (400, "RFC 9112 7.1", "chunk data not followed by CRLF"),
    /// A trailer section longer than the limit.
    TrailersTooLarge => (431, "RFC 9112 7.1.2", "trailer section larger than the limit"),
    /// A body longer than the limit.
    BodyTooLarge => (413, "RFC 9110 15.5.14", "body larger than the limit"),
    /// A misuse of the parser, not a fault of the message: `parse` was called again after it
    /// returned [`Status::Complete`](crate::Status::Complete), without `reset()` in between.
    /// The offset is 0. Call `reset()` before parsing the next message.
    ParseAfterComplete => (500, "httpspan API", "parse called after a complete head without reset()"),
    /// A misuse of the parser, not a fault of the message: the buffer given to `parse` is
    /// shorter than the bytes an earlier call already read (only the newly read bytes were
    /// passed, say). The offset is the buffer's length. Pass the whole buffer from the message's
    /// first byte on each call.
    BufferShorterThanParsed => (500, "httpspan API", "buffer shorter than the bytes already parsed; pass the whole buffer from the message start"),
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

/// Why and where a message is invalid.
///
/// The offset counts bytes from the start of the buffer given to `parse` (for [`Request`],
/// [`Response`] and [`Trailers`]), of the input given to [`ChunkedDecoder::decode`], or of the
/// whole stream (for [`stream::Decoder`]). Errors are deterministic: a message fed in pieces
/// fails with the same error, at the same offset, as the whole message at once.
///
/// ```
/// let mut req = httpspan::Request::new();
/// let err = req.parse(b"GET / HTTP/1.1\r\nHost : a\r\n\r\n").unwrap_err();
/// assert_eq!(err.kind(), httpspan::ErrorKind::WhitespaceBeforeColon);
/// assert_eq!(err.offset(), 20);
/// assert_eq!(err.status(), 400);
/// assert_eq!(err.rfc(), "RFC 9112 5.1");
/// assert_eq!(err.to_string(), "whitespace between field name and colon at byte 20 (RFC 9112 5.1)");
/// ```
///
/// [`Request`]: crate::Request
/// [`Response`]: crate::Response
/// [`Trailers`]: crate::Trailers
/// [`ChunkedDecoder::decode`]: crate::ChunkedDecoder::decode
/// [`stream::Decoder`]: crate::stream::Decoder
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Error {
    kind: ErrorKind,
    offset: usize,
}

impl Error {
    #[inline]
    pub(crate) const fn new(kind: ErrorKind, offset: usize) -> Error {
        Error { kind, offset }
    }

    /// The same error with its offset moved by `base`, for errors found in a piece of a stream.
    /// Saturates where `usize` cannot hold a stream offset (beyond 4 GiB on 32-bit targets).
    #[inline]
    pub(crate) fn shifted(self, base: u64) -> Error {
        let offset = usize::try_from(base)
            .ok()
            .and_then(|base| self.offset.checked_add(base))
            .unwrap_or(usize::MAX);
        Error { offset, ..self }
    }

    /// What was wrong.
    #[inline]
    #[must_use]
    pub const fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The offset of the byte at which the input became invalid.
    #[inline]
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// The status code a server should answer: 400, 413, 414, 431 or 505 for a fault of the
    /// message; 500 for a misuse of the parser by the caller.
    #[inline]
    #[must_use]
    pub const fn status(&self) -> u16 {
        self.kind.status()
    }

    /// The RFC section whose rule the message broke.
    #[inline]
    #[must_use]
    pub const fn rfc(&self) -> &'static str {
        self.kind.rfc()
    }

    /// A short lowercase description.
    #[inline]
    #[must_use]
    pub const fn message(&self) -> &'static str {
        self.kind.message()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at byte {} ({})",
            self.kind.message(),
            self.offset,
            self.kind.rfc()
        )
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}
