//! Configurable limits, with the defaults of the conformance policy, and the lenient settings
//! that relax single rules of it.

/// Limits that bound the work and memory a message can demand.
///
/// Every limit is inclusive: a message exactly at the limit is accepted. The defaults are those
/// of httpspan's conformance policy. A buffer that holds a whole limit's worth of bytes without
/// the end of the head or trailer section fails at once: `parse` never returns
/// [`Status::Partial`](crate::Status::Partial) for input that more bytes could not complete.
///
/// | limit | default | bounds | error past it |
/// | --- | --- | --- | --- |
/// | [`max_field_lines`](Self::max_field_lines) | 255, so the parser's `N` slots (64) bound | field lines of a head or a trailer section | `TooManyFields` (431) |
/// | [`max_head_bytes`](Self::max_head_bytes) | 8192 | bytes of a head, start line through the final CRLF | `HeadTooLarge` (431), or `TargetTooLong` (414) within the request-line |
/// | [`max_chunk_ext_bytes`](Self::max_chunk_ext_bytes) | 65536 | chunk-ext bytes of one chunk line | `ChunkExtensionTooLong` (400) |
/// | [`max_body_chunk_ext_bytes`](Self::max_body_chunk_ext_bytes) | 262144 | chunk-ext bytes of all the chunk lines of one body | `ChunkExtensionsTooLarge` (400) |
/// | [`max_trailer_bytes`](Self::max_trailer_bytes) | 65536 | bytes of a trailer section | `TrailersTooLarge` (431) |
/// | [`max_body_bytes`](Self::max_body_bytes) | none | decoded body bytes (in [`stream::Decoder`](crate::stream::Decoder)) | `BodyTooLarge` (413) |
///
/// Field lines are bounded by the smaller of `max_field_lines` and the number of field slots
/// `N` of the parser ([`Request<N>`](crate::Request), [`Response<N>`](crate::Response),
/// [`Trailers<N>`](crate::Trailers)): every line within the bound has a slot. The slots are the
/// one way to take more field lines, `max_field_lines` the way to take fewer:
/// `Request::<128>::default()` reads up to 128 field lines, and so does
/// `Request::<128>::with_slots(limits)` unless `limits.max_field_lines` is lower. The slots
/// cost memory whether used or not; each is 8 bytes, and on 64-bit targets a parser is
///
/// | `N` (field slots) | `Request<N>`, `Response<N>` | `Trailers<N>` |
/// | ---: | ---: | ---: |
/// | 8 | 208 bytes | 200 bytes |
/// | 16 | 288 bytes | 280 bytes |
/// | 32 | 448 bytes | 440 bytes |
/// | 64 (the default) | 768 bytes | 760 bytes |
/// | 128 | 1408 bytes | 1400 bytes |
///
/// Fields can be set directly:
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
    /// Field lines in a head or a trailer section, Host included. The parser's `N` field slots
    /// bound them too, and the smaller bound holds: the default, 255 (the most slots a parser
    /// can have), leaves the bound to `N`, which is 64 unless chosen otherwise. Set it to take
    /// fewer lines than the slots hold; to take more, give the parser more slots.
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
    /// Bytes of chunk-ext over all the chunk lines of one body, counted as for
    /// `max_chunk_ext_bytes`: extensions carry no data, so without a total a body of tiny
    /// chunks could make a server read extensions without end. Default 262144 (256 KiB), four
    /// lines at `max_chunk_ext_bytes`, as much as a server discards of an unread body
    /// (`serve::Options::max_discard_bytes`, Go's `maxPostHandlerReadBytes`); hyper refuses
    /// past 16 KiB.
    pub max_body_chunk_ext_bytes: u32,
    /// Bytes of a trailer section, from the byte after the last-chunk line through the CRLF that
    /// ends it. Default 65536; at most 65536 can be honoured, since trailer spans are 4 bytes too.
    pub max_trailer_bytes: u32,
    /// Bytes of one message body after transfer decoding, or `None` for no limit (the default).
    /// Enforced by [`stream::Decoder`](crate::stream::Decoder).
    pub max_body_bytes: Option<u64>,
    /// Rules of the strict policy to relax; all off by default ([`Leniency::STRICT`]).
    pub lenient: Leniency,
}

impl Limits {
    /// The defaults of the conformance policy.
    pub const DEFAULT: Limits = Limits {
        max_field_lines: 255,
        max_head_bytes: 8192,
        max_chunk_ext_bytes: 64 * 1024,
        max_body_chunk_ext_bytes: 256 * 1024,
        max_trailer_bytes: 64 * 1024,
        max_body_bytes: None,
        lenient: Leniency::STRICT,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// Lenient settings: each one relaxes exactly one rule of the strict policy, for requests,
/// responses and trailer sections alike. All are off by default.
///
/// Every relaxed rule exists because some peer reads the relaxed input differently, which is
/// what request smuggling feeds on: turn an option on only when every other parser on the path
/// (proxies, load balancers, the origin) reads the input the same way. Whatever is turned on,
/// Content-Length with Transfer-Encoding stays an error, a message still parses the same however
/// its bytes are split, and no byte is scanned more often than in strict mode.
///
/// ```
/// use httpspan::{Limits, Request, Status};
///
/// let buf = b"GET / HTTP/1.1\nHost: a\n\n";
/// assert!(Request::new().parse(buf).is_err());
/// let mut limits = Limits::default();
/// limits.lenient.bare_lf = true;
/// assert_eq!(Request::with_limits(limits).parse(buf)?, Status::Complete { head_len: 24 });
/// # Ok::<(), httpspan::Error>(())
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Leniency {
    /// A bare LF ends a line as CRLF does: start lines, field lines, the empty line that ends a
    /// head or trailer section, empty lines before a request-line, chunk-size lines and the line
    /// end after chunk data. A CR not followed by LF stays an error (`bare_cr`).
    ///
    /// Relaxes RFC 9112 2.2 ("a recipient MAY recognize a single LF as a line terminator").
    /// Risk: a peer that ends lines only at CRLF sees one long line where this parser sees two,
    /// so a field hidden behind a bare LF (say, a second Content-Length or a chunk-ext ending in
    /// LF) exists for one of them only.
    pub bare_lf: bool,
    /// A field line may continue on the next line when that line starts with SP or HTAB (an
    /// obs-fold: `OWS CRLF RWS`, or `OWS LF RWS` with `bare_lf`). The value span then covers the
    /// raw folded bytes; [`unfold`](crate::unfold) presents it with each obs-fold, whitespace
    /// around it included, replaced by one SP, which is the value that Content-Length,
    /// Transfer-Encoding, Connection and Host are interpreted as. A first field line that starts
    /// with whitespace stays an error, and so does a fold inside a field name or after the
    /// empty line.
    ///
    /// Relaxes RFC 9112 5.2 (obs-fold is obsolete; a recipient may replace each one with SP).
    /// Risk: a peer that rejects or ignores the continuation line, or reads it as a field of its
    /// own, sees other fields or values (an obs-folded `Transfer-Encoding` is a classic).
    pub obs_fold: bool,
    /// Whitespace (SP, HTAB) between a field name and its colon is accepted and is not part of
    /// the name: `Host : a` is a Host field.
    ///
    /// Relaxes RFC 9112 5.1 (a server MUST reject such a request; a proxy MUST remove the
    /// whitespace from a response). Risk: a peer that keeps the whitespace in the name does not
    /// recognise `Transfer-Encoding :` or `Content-Length :` and frames the body differently.
    pub space_before_colon: bool,
    /// More than one SP between the parts of a request-line, and between the version and the
    /// code of a status-line. HTAB and other whitespace stay errors, and so does whitespace before
    /// the method or after the version; the SPs between status code and reason phrase already
    /// belong to the reason (decision 21).
    ///
    /// Relaxes RFC 9112 3 and 4 (exactly one SP; recipients MAY parse on whitespace
    /// boundaries). Risk: a peer that splits at each single SP reads another target or version.
    pub request_line_spaces: bool,
    /// An HTTP/1.1 request without Host is accepted. More than one Host, or an invalid one,
    /// stays an error.
    ///
    /// Relaxes RFC 9112 3.2 (a server MUST answer 400). Risk: with no Host, a proxy and an
    /// origin may route the request to different virtual hosts.
    pub missing_host: bool,
    /// Several Content-Length field lines, or a comma list in one, are accepted when every
    /// value is the same decimal number (`5`, `05` and `5, 5` agree). Each element must be
    /// `1*DIGIT` (an empty one is an error), and values that differ stay an error.
    ///
    /// Relaxes RFC 9112 6.3 rule 5 as RFC 9110 8.6 allows (a recipient MAY replace a list of
    /// identical values by one). Risk: small, since every peer that accepts the message gets
    /// the same length; a peer that rejects it, or reads a response until close instead,
    /// disagrees on where the message ends.
    pub duplicate_content_length: bool,
    /// A request-line or status-line version `HTTP/1.2` to `HTTP/1.9` is accepted and treated
    /// as HTTP/1.1 ([`Version::Http11`](crate::Version::Http11)). Other majors (`HTTP/2.0`,
    /// `HTTP/0.9`) stay `unsupported_version`, and anything that is not `HTTP/DIGIT.DIGIT` stays
    /// `invalid_version`.
    ///
    /// Relaxes the policy's "HTTP/1.0 or HTTP/1.1 only" as RFC 9110 2.5 and RFC 9112 2.3 advise
    /// (process a higher minor version as the highest one implemented). Risk: a peer that reads
    /// an unknown version as HTTP/1.0 disagrees on keep-alive and on whether Transfer-Encoding
    /// is allowed.
    pub unknown_version: bool,
    /// A request-target may hold the visible bytes that RFC 3986 allows nowhere in a URI but
    /// some clients send unescaped (curl sends `|` as typed): `"`, `<`, `>`, `\`, `^`,
    /// `` ` ``, `{`, `|` and `}`, and a `%` not followed by two hex digits (`/%zz`), which is
    /// then an ordinary byte of the target. The target is reported as sent. `#` stays a
    /// fragment error; controls, SP, DEL and bytes above 0x7F stay errors; and the host of an
    /// absolute-form or authority-form target keeps its own grammar.
    ///
    /// Relaxes RFC 9112 3.2 and RFC 3986 2 (the target is a URI reference; `%` starts a
    /// pct-encoded octet). Risk: a peer that rejects these bytes, or a router that decodes the
    /// target, sees another request or none; a lone `%` decodes differently from one decoder to
    /// the next.
    pub target_unsafe_bytes: bool,
    /// Always 0. It keeps the struct at 9 bytes: at 8, the compiler holds a head's copy as one
    /// 64-bit word and the field walk pays for that on every field line.
    spacer: u8,
}

impl core::fmt::Debug for Leniency {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Leniency")
            .field("bare_lf", &self.bare_lf)
            .field("obs_fold", &self.obs_fold)
            .field("space_before_colon", &self.space_before_colon)
            .field("request_line_spaces", &self.request_line_spaces)
            .field("missing_host", &self.missing_host)
            .field("duplicate_content_length", &self.duplicate_content_length)
            .field("unknown_version", &self.unknown_version)
            .field("target_unsafe_bytes", &self.target_unsafe_bytes)
            .finish()
    }
}

impl Leniency {
    /// Every rule enforced: the default.
    pub const STRICT: Leniency = Leniency {
        bare_lf: false,
        obs_fold: false,
        space_before_colon: false,
        request_line_spaces: false,
        missing_host: false,
        duplicate_content_length: false,
        unknown_version: false,
        target_unsafe_bytes: false,
        spacer: 0,
    };

    /// The option names, as the fields are named, with a setter for each: for command lines,
    /// configuration files and test vectors.
    pub const NAMES: [&'static str; 8] = [
        "bare_lf",
        "obs_fold",
        "space_before_colon",
        "request_line_spaces",
        "missing_host",
        "duplicate_content_length",
        "unknown_version",
        "target_unsafe_bytes",
    ];

    /// Turns on the option called `name` (one of [`NAMES`](Self::NAMES)). Returns `false`, and
    /// changes nothing, for an unknown name.
    ///
    /// ```
    /// let mut lenient = httpspan::Leniency::STRICT;
    /// assert!(lenient.enable("obs_fold"));
    /// assert!(lenient.obs_fold);
    /// assert!(!lenient.enable("obs-fold"));
    /// ```
    pub fn enable(&mut self, name: &str) -> bool {
        let flag = match name {
            "bare_lf" => &mut self.bare_lf,
            "obs_fold" => &mut self.obs_fold,
            "space_before_colon" => &mut self.space_before_colon,
            "request_line_spaces" => &mut self.request_line_spaces,
            "missing_host" => &mut self.missing_host,
            "duplicate_content_length" => &mut self.duplicate_content_length,
            "unknown_version" => &mut self.unknown_version,
            "target_unsafe_bytes" => &mut self.target_unsafe_bytes,
            _ => return false,
        };
        *flag = true;
        true
    }
}
