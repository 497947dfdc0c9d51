//! The parsers httpspan is compared with, and the policy rules that explain where they differ.
//!
//! Shared by the differential test (`tests/differential.rs`) and the smuggling matrix
//! (`examples/matrix.rs`), which include this file by path: httparse is a dev-dependency, so
//! this code cannot live in the crate's library.
//!
//! - [`Head`]: what a head parser reported, the same shape for httpspan and httparse.
//! - [`llhttp`]: runs inputs through Node's built-in parser (`peers/llhttp.js`).
//! - [`Rule`]: the POLICY.md rules that make httpspan stricter than other parsers. Which rules
//!   an input breaks is worked out by [`rules_broken`] from the raw bytes, separately from the
//!   parser, so that a difference is explained only when the input really breaks the rule that
//!   httpspan's error names.

#![allow(dead_code)] // each includer uses a part

use std::io::Write as _;
use std::process::{Command, Stdio};

use conformance::trim_ows as trim;
use httpspan::stream::MessageKind;
use httpspan::{ErrorKind, Request, Response, Status};
use serde_json::Value;

/// A parsed head, as any of the parsers reports it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Head {
    /// Bytes of the head, final CRLF included.
    pub len: usize,
    /// Request method.
    pub method: Vec<u8>,
    /// Request target.
    pub target: Vec<u8>,
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    pub minor: u8,
    /// Response status.
    pub status: u16,
    /// Response reason.
    pub reason: Vec<u8>,
    /// Fields: name as sent, value without leading and trailing SP and HTAB.
    pub fields: Vec<(Vec<u8>, Vec<u8>)>,
}

/// What a head parser made of an input that ends where the stream ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeadResult {
    /// A complete head.
    Complete(Head),
    /// The input ends inside a head that could still be valid.
    Partial,
    /// Rejected, with the parser's name for the error.
    Error(String),
}

/// Field slots for both parsers: the default of httpspan.
pub const SLOTS: usize = 64;

/// httparse's reading of the head at the start of `input`, with its default settings.
pub fn httparse_head(kind: MessageKind, input: &[u8]) -> HeadResult {
    let mut headers = [httparse::EMPTY_HEADER; SLOTS];
    let pairs = |headers: &[httparse::Header]| {
        headers
            .iter()
            .map(|h| (h.name.as_bytes().to_vec(), trim(h.value).to_vec()))
            .collect()
    };
    match kind {
        MessageKind::Request => {
            let mut req = httparse::Request::new(&mut headers);
            match req.parse(input) {
                Ok(httparse::Status::Complete(len)) => HeadResult::Complete(Head {
                    len,
                    method: req.method.unwrap_or("").as_bytes().to_vec(),
                    target: req.path.unwrap_or("").as_bytes().to_vec(),
                    minor: req.version.unwrap_or(9),
                    fields: pairs(req.headers),
                    ..Head::default()
                }),
                Ok(httparse::Status::Partial) => HeadResult::Partial,
                Err(e) => HeadResult::Error(format!("{e:?}")),
            }
        }
        MessageKind::Response => {
            let mut res = httparse::Response::new(&mut headers);
            match res.parse(input) {
                Ok(httparse::Status::Complete(len)) => HeadResult::Complete(Head {
                    len,
                    minor: res.version.unwrap_or(9),
                    status: res.code.unwrap_or(0),
                    reason: res.reason.unwrap_or("").as_bytes().to_vec(),
                    fields: pairs(res.headers),
                    ..Head::default()
                }),
                Ok(httparse::Status::Partial) => HeadResult::Partial,
                Err(e) => HeadResult::Error(format!("{e:?}")),
            }
        }
    }
}

/// httpspan's reading of the head at the start of `input`, the stream ending after it: a head
/// cut short is an error when `check_truncated` says no continuation could be valid. Also
/// returns the Content-Length httpspan reported, and the error kind.
pub fn httpspan_head(
    kind: MessageKind,
    input: &[u8],
) -> (HeadResult, Option<u64>, Option<ErrorKind>) {
    let fields = |fields: &[httpspan::Field]| {
        fields
            .iter()
            .map(|f| {
                (
                    f.name.as_bytes(input).to_vec(),
                    f.value.as_bytes(input).to_vec(),
                )
            })
            .collect()
    };
    let minor = |v: httpspan::Version| u8::from(v == httpspan::Version::Http11);
    let (status, head, content_length, truncated) = match kind {
        MessageKind::Request => {
            let mut req = Request::new();
            let status = req.parse(input);
            let head = Head {
                method: req.method().as_bytes(input).to_vec(),
                target: req.target().as_bytes(input).to_vec(),
                minor: minor(req.version()),
                fields: fields(req.fields()),
                ..Head::default()
            };
            (
                status,
                head,
                req.content_length(),
                req.check_truncated(input),
            )
        }
        MessageKind::Response => {
            let mut res = Response::new();
            let status = res.parse(input);
            let head = Head {
                minor: minor(res.version()),
                status: res.status(),
                reason: res.reason().as_bytes(input).to_vec(),
                fields: fields(res.fields()),
                ..Head::default()
            };
            (
                status,
                head,
                res.content_length(),
                res.check_truncated(input),
            )
        }
    };
    match status {
        Ok(Status::Complete { head_len }) => (
            HeadResult::Complete(Head {
                len: head_len,
                ..head
            }),
            content_length,
            None,
        ),
        Ok(Status::Partial) => match truncated {
            Ok(()) => (HeadResult::Partial, None, None),
            Err(e) => (
                HeadResult::Error(e.kind().code().into()),
                None,
                Some(e.kind()),
            ),
        },
        Err(e) => (
            HeadResult::Error(e.kind().code().into()),
            None,
            Some(e.kind()),
        ),
    }
}

/// The Content-Length a head declares, read the plain way: the one Content-Length field, if it
/// is 1*DIGIT and fits.
pub fn declared_length(head: &Head) -> Option<u64> {
    let mut values = head
        .fields
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case(b"content-length"));
    let (_, value) = values.next()?;
    if values.next().is_some() || value.is_empty() || !value.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(value).ok()?.parse().ok()
}

/// What Node's llhttp made of one input: its messages and how the stream ended.
#[derive(Clone, Debug, PartialEq)]
pub struct LlhttpResult {
    /// The messages, as JSON objects (see `llhttp.js`).
    pub messages: Vec<Value>,
    /// `closed`, `incomplete` or `error`.
    pub end: String,
    /// For an error: llhttp's code, such as `HPE_INVALID_HEADER_TOKEN`.
    pub code: String,
}

/// What Node's llhttp made of a batch of inputs.
pub struct Llhttp {
    /// The methods llhttp accepts: it rejects any other token.
    pub methods: Vec<String>,
    /// One result per input.
    pub results: Vec<LlhttpResult>,
}

/// Runs each `(kind, request method, input)` through Node's llhttp in one `node` process, or
/// returns why it could not (no `node` on the PATH, say).
pub fn llhttp(inputs: &[(MessageKind, &str, Vec<u8>)]) -> Result<Llhttp, String> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/peers/llhttp.js");
    let mut child = Command::new("node")
        .args(["--no-deprecation", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run node: {e}"))?;
    let mut lines = String::new();
    for (kind, method, input) in inputs {
        let kind = match kind {
            MessageKind::Request => "request",
            MessageKind::Response => "response",
        };
        let input: String = input.iter().map(|&b| char::from(b)).collect();
        let line = serde_json::json!({ "kind": kind, "method": method, "input": input });
        lines.push_str(&line.to_string());
        lines.push('\n');
    }
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || stdin.write_all(lines.as_bytes()));
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    writer
        .join()
        .map_err(|_| "writer panicked")?
        .map_err(|e| e.to_string())?;
    if !output.status.success() {
        return Err(format!("node failed: {}", output.status));
    }
    let text = String::from_utf8(output.stdout).map_err(|e| e.to_string())?;
    let mut values = text
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).map_err(|e| e.to_string()));
    let methods = values.next().ok_or("node printed nothing")??["methods"]
        .as_array()
        .ok_or("no method list")?
        .iter()
        .map(|m| m.as_str().unwrap_or("").to_string())
        .collect();
    let results: Vec<LlhttpResult> = values
        .map(|v| {
            let v = v?;
            let s = |k: &str| v[k].as_str().unwrap_or("").to_string();
            Ok(LlhttpResult {
                messages: v["messages"].as_array().cloned().unwrap_or_default(),
                end: s("end"),
                code: s("code"),
            })
        })
        .collect::<Result<_, String>>()?;
    if results.len() != inputs.len() {
        return Err(format!(
            "node answered {} of {}",
            results.len(),
            inputs.len()
        ));
    }
    Ok(Llhttp { methods, results })
}

/// Where llhttp is stricter than httpspan, or reads a message differently by design: a
/// description of the llhttp rule, if `input` is a case of it (checked on the bytes) and
/// llhttp's error `code` is the one that rule gives.
pub fn llhttp_rule(
    kind: MessageKind,
    input: &[u8],
    code: &str,
    methods: &[String],
) -> Option<&'static str> {
    let head_end = input
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map_or(input.len(), |i| i + 4);
    let (head, body) = input.split_at(head_end);
    let start = head.split(|&b| b == b'\n').next().unwrap_or(b"");
    let mut parts = start.split(|&b| b == b' ');
    let method = parts.next().unwrap_or(b"");
    let target = parts.next().unwrap_or(b"");
    let lines = |bytes: &'_ [u8]| -> Vec<Vec<u8>> {
        bytes
            .split(|&b| b == b'\n')
            .map(|l| l.strip_suffix(b"\r").unwrap_or(l).to_vec())
            .collect()
    };
    let field = |name: &[u8]| -> Vec<Vec<u8>> {
        lines(head)
            .into_iter()
            .filter_map(|l| {
                let colon = l.iter().position(|&b| b == b':')?;
                l[..colon]
                    .eq_ignore_ascii_case(name)
                    .then(|| trim(&l[colon + 1..]).to_vec())
            })
            .collect()
    };
    let chunked = field(b"transfer-encoding")
        .iter()
        .any(|v| v.to_ascii_lowercase().ends_with(b"chunked"));
    let chunk_lines: Vec<Vec<u8>> = if chunked { lines(body) } else { Vec::new() };
    let request = kind == MessageKind::Request;
    match code {
        "HPE_INVALID_METHOD" if request && !methods.iter().any(|m| m.as_bytes() == method) => {
            Some("llhttp accepts only the methods it knows (RFC 9112 3.1 allows any token)")
        }
        "HPE_CHUNK_EXTENSIONS_OVERFLOW" if chunk_lines.iter().any(|l| l.len() > 16 * 1024) => {
            Some("llhttp limits chunk extensions to 16 KiB (httpspan: 64 KiB)")
        }
        "HPE_STRICT" | "HPE_INVALID_CHUNK_SIZE"
            if chunk_lines.iter().any(|l| {
                let size = l.iter().take_while(|b| b.is_ascii_hexdigit()).count();
                size > 0 && l[size..].iter().any(|&b| b == b' ' || b == b'\t')
            }) =>
        {
            Some("llhttp allows no whitespace in a chunk line (RFC 9112 7.1.1 allows BWS around ; and =)")
        }
        "HPE_INVALID_URL"
            if request
                && !target.starts_with(b"/")
                && !target.to_ascii_lowercase().starts_with(b"http")
                && method != b"CONNECT"
                && target != b"*" =>
        {
            Some("llhttp takes absolute-form only with http(s) (RFC 9112 3.2.2 allows any absolute-URI)")
        }
        "HPE_INVALID_TRANSFER_ENCODING"
            if field(b"transfer-encoding").iter().any(|v| {
                v.starts_with(b",") || v.ends_with(b",") || v.windows(2).any(|w| w == b",," )
                    || v.split(|&b| b == b',').any(|i| trim(i).is_empty())
            }) =>
        {
            Some("llhttp rejects empty list elements in Transfer-Encoding (RFC 9110 5.6.1.2 ignores them)")
        }
        "HPE_INVALID_CONTENT_LENGTH" | "HPE_INVALID_TRANSFER_ENCODING" | "HPE_UNEXPECTED_CONTENT_LENGTH"
            if chunked
                && chunk_lines.iter().any(|l| {
                    let l = l.to_ascii_lowercase();
                    l.starts_with(b"content-length") || l.starts_with(b"transfer-encoding")
                }) =>
        {
            Some("llhttp applies Content-Length and Transfer-Encoding rules to trailer fields (RFC 9110 6.5.1: trailers do not frame)")
        }
        "HPE_INVALID_CONTENT_LENGTH" | "HPE_INVALID_TRANSFER_ENCODING"
            if lines(head).iter().any(|l| {
                let lower = l.to_ascii_lowercase();
                (lower.starts_with(b"content-length:") || lower.starts_with(b"transfer-encoding:"))
                    && (l.contains(&b'\t') || l.windows(2).any(|w| w == b"  "))
            }) =>
        {
            Some("llhttp allows no HTAB or repeated SP around a Content-Length or Transfer-Encoding value (RFC 9110 5.5 allows OWS)")
        }
        "HPE_HEADER_OVERFLOW" if chunked && body.len() > 16 * 1024 => {
            Some("llhttp limits a trailer section to 16 KiB, Node's maxHeaderSize (httpspan: 64 KiB)")
        }
        _ => None,
    }
}

/// A Latin-1 JSON string as bytes.
pub fn latin1(v: &Value) -> Vec<u8> {
    v.as_str()
        .unwrap_or("")
        .chars()
        .map(|c| c as u32 as u8)
        .collect()
}

macro_rules! rules {
    ($( $name:ident => ($label:expr, $rfc:expr, [$($kind:ident),*]), )*) => {
        /// A rule of POLICY.md on which httpspan is stricter than a lenient parser.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Rule { $( $name, )* }

        impl Rule {
            /// Every rule.
            pub const ALL: &'static [Rule] = &[$(Rule::$name,)*];

            /// The rule in a few words.
            pub fn label(self) -> &'static str {
                match self { $(Rule::$name => $label,)* }
            }

            /// The RFC section.
            pub fn rfc(self) -> &'static str {
                match self { $(Rule::$name => $rfc,)* }
            }

            /// The rule whose breach httpspan reports as `kind`.
            pub fn of(kind: ErrorKind) -> Option<Rule> {
                match kind {
                    $( $(ErrorKind::$kind)|* => Some(Rule::$name), )*
                    _ => None,
                }
            }
        }
    };
}

rules! {
    BareLf => ("every line ends in CRLF: no bare LF", "RFC 9112 2.2", [BareLf]),
    BareCr => ("a CR is followed by LF", "RFC 9112 2.2", [BareCr]),
    Nul => ("no NUL in a head", "RFC 9110 5.5", [Nul]),
    EmptyLines => ("at most 2 empty lines before a request-line, none before a status-line",
        "RFC 9112 2.2", [TooManyEmptyLines, EmptyLineBeforeStatusLine]),
    ObsFold => ("no obs-fold, no whitespace before the first field", "RFC 9112 5.2",
        [ObsFold, WhitespaceBeforeFirstField]),
    RequestLine => ("exactly one SP between the parts of the request-line", "RFC 9112 3",
        [InvalidRequestLine]),
    Method => ("the method is a token", "RFC 9112 3.1", [InvalidMethod]),
    Target => ("request-target bytes, percent-encoding and form", "RFC 9112 3.2",
        [InvalidTarget, InvalidPercentEncoding, FragmentInTarget, AsteriskFormNotOptions,
         AuthorityFormNotConnect, ConnectNotAuthorityForm, UserinfoInTarget]),
    Version => ("HTTP/1.1 or HTTP/1.0 only", "RFC 9112 2.3", [InvalidVersion, UnsupportedVersion]),
    StatusLine => ("status-line: 3 digits from 100 to 599, reason bytes", "RFC 9112 4",
        [InvalidStatusLine, InvalidStatusCode, InvalidReason]),
    FieldName => ("a field line is a token name and a colon", "RFC 9110 5.1",
        [InvalidFieldName, MissingColon]),
    SpaceBeforeColon => ("no whitespace between field name and colon", "RFC 9112 5.1",
        [WhitespaceBeforeColon]),
    FieldValue => ("field-value bytes: VCHAR, obs-text, SP, HTAB", "RFC 9110 5.5",
        [InvalidFieldValue]),
    Host => ("one valid Host in an HTTP/1.1 request", "RFC 9112 3.2",
        [MissingHost, DuplicateHost, InvalidHost]),
    ContentLength => ("Content-Length is 1*DIGIT, at most 2^63-1", "RFC 9110 8.6",
        [InvalidContentLength, ContentLengthTooLarge]),
    DuplicateContentLength => ("Content-Length at most once, even with equal values",
        "RFC 9112 6.3", [DuplicateContentLength]),
    ClWithTe => ("not both Transfer-Encoding and Content-Length", "RFC 9112 6.3",
        [ContentLengthWithTransferEncoding]),
    TransferEncoding => ("Transfer-Encoding: tokens, chunked once and last, not in HTTP/1.0",
        "RFC 9112 6.1", [TransferEncodingInHttp10, InvalidTransferEncoding, ChunkedNotLast,
         ChunkedTwice]),
    Connection => ("Connection is a list of tokens", "RFC 9110 7.6.1", [InvalidConnection]),
    Limits => ("limits: 8 KiB of head, 64 field lines, 64 KiB of trailers", "RFC 6585 5",
        [TargetTooLong, HeadTooLarge, TooManyFields, TrailersTooLarge]),
    ChunkSize => ("chunk-size is 1 to 16 hex digits", "RFC 9112 7.1",
        [InvalidChunkSize, ChunkSizeTooLong]),
    ChunkExt => ("chunk-ext is ; token [= token / quoted-string], BWS only around ; and =",
        "RFC 9112 7.1.1", [InvalidChunkExtension, ChunkExtensionTooLong, ChunkExtensionsTooLarge]),
    ChunkData => ("chunk data is followed by CRLF", "RFC 9112 7.1", [MissingChunkCrlf]),
}

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn is_token(v: &[u8]) -> bool {
    !v.is_empty() && v.iter().all(|&b| is_tchar(b))
}

fn is_value_byte(b: u8) -> bool {
    b == b'\t' || (b' '..=b'~').contains(&b) || b >= 0x80
}

/// An origin-form target of plain pchar bytes, `/` and `?`, with valid percent-encoding.
fn plain_origin_form(target: &[u8]) -> bool {
    let pchar = |b: u8| b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?".contains(&b);
    target.first() == Some(&b'/')
        && target.iter().enumerate().all(|(i, &b)| {
            pchar(b)
                || (b == b'%'
                    && target
                        .get(i + 1..i + 3)
                        .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)))
        })
}

/// A Host value of the common shape: a name of letters, digits, `-` and `.`, and an optional
/// port of 1 to 5 digits; or empty.
fn plain_host(value: &[u8]) -> bool {
    let (name, port) = match value.iter().position(|&b| b == b':') {
        Some(i) => (&value[..i], Some(&value[i + 1..])),
        None => (value, None),
    };
    value.is_empty()
        || (!name.is_empty()
            && name
                .iter()
                .all(|&b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
            && port.is_none_or(|p| (1..=5).contains(&p.len()) && p.iter().all(u8::is_ascii_digit)))
}

/// List items, trimmed, empty ones dropped.
fn list_items(values: &[&[u8]]) -> Vec<Vec<u8>> {
    values
        .iter()
        .flat_map(|v| v.split(|&b| b == b','))
        .map(|i| trim(i).to_vec())
        .filter(|i| !i.is_empty())
        .collect()
}

/// The rules `input` breaks, read from its bytes with simple line splitting, apart from any
/// parser: the head is the lines up to the first empty one, split at LF (a CR before it
/// dropped).
pub fn rules_broken(kind: MessageKind, input: &[u8]) -> Vec<Rule> {
    let mut broken = Vec::new();
    let mut lines: Vec<&[u8]> = Vec::new();
    let mut head_end = input.len();
    let mut leading_empty = 0;
    let mut pos = 0;
    while pos < input.len() {
        let end = input[pos..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(input.len(), |i| pos + i);
        let line = &input[pos..end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        pos = end + 1;
        if line.is_empty() {
            if lines.is_empty() {
                leading_empty += 1;
                continue;
            }
            head_end = pos.min(input.len());
            break;
        }
        lines.push(line);
    }
    let head = &input[..head_end];
    let mut add = |rule: Rule, yes: bool| {
        if yes && !broken.contains(&rule) {
            broken.push(rule);
        }
    };
    add(
        Rule::BareLf,
        head.iter()
            .enumerate()
            .any(|(i, &b)| b == b'\n' && (i == 0 || head[i - 1] != b'\r')),
    );
    add(
        Rule::BareCr,
        head.iter()
            .enumerate()
            .any(|(i, &b)| b == b'\r' && head.get(i + 1) != Some(&b'\n')),
    );
    add(Rule::Nul, head.contains(&0));
    let request = kind == MessageKind::Request;
    add(
        Rule::EmptyLines,
        if request {
            leading_empty > 2
        } else {
            // A status-line never starts with CR or LF, whatever follows it.
            leading_empty > 0 || matches!(input.first(), Some(b'\r' | b'\n'))
        },
    );
    add(Rule::Limits, head.len() > 8192 || lines.len() > 65);
    let Some((&start, field_lines)) = lines.split_first() else {
        return broken;
    };
    let http10;
    if request {
        let parts: Vec<&[u8]> = start.split(|&b| b == b' ').collect();
        add(
            Rule::RequestLine,
            parts.len() != 3 || parts.iter().any(|p| p.is_empty()),
        );
        let method = parts[0];
        add(Rule::Method, !is_token(method));
        if let Some(target) = parts.get(1) {
            add(
                Rule::Target,
                !plain_origin_form(target) || method == b"CONNECT" || target.contains(&b'#'),
            );
        }
        let version = parts.last().copied().unwrap_or(b"");
        add(
            Rule::Version,
            version != b"HTTP/1.1" && version != b"HTTP/1.0",
        );
        http10 = version == b"HTTP/1.0";
    } else {
        let version = &start[..start.len().min(8)];
        add(
            Rule::Version,
            version != b"HTTP/1.1" && version != b"HTTP/1.0",
        );
        http10 = version == b"HTTP/1.0";
        let code = start.get(9..12).unwrap_or(b"");
        let plain_code = start.get(8) == Some(&b' ')
            && code.len() == 3
            && code.iter().all(u8::is_ascii_digit)
            && (&b"100"[..]..=&b"599"[..]).contains(&code);
        let reason_ok = match start.get(12) {
            None => true,
            Some(b' ') => start[13..].iter().all(|&b| is_value_byte(b)),
            Some(_) => false,
        };
        add(Rule::StatusLine, !(plain_code && reason_ok));
    }
    let mut fields: Vec<(&[u8], &[u8])> = Vec::new();
    for line in field_lines {
        if line[0] == b' ' || line[0] == b'\t' {
            add(Rule::ObsFold, true);
            continue;
        }
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            add(Rule::FieldName, true);
            continue;
        };
        let name = &line[..colon];
        let bare_name = trim(name);
        add(Rule::SpaceBeforeColon, bare_name.len() != name.len());
        add(Rule::FieldName, !is_token(bare_name));
        let value = &line[colon + 1..];
        add(Rule::FieldValue, !value.iter().all(|&b| is_value_byte(b)));
        fields.push((bare_name, trim(value)));
    }
    let values = |name: &[u8]| -> Vec<&[u8]> {
        fields
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| *v)
            .collect()
    };
    let lengths = values(b"content-length");
    let codings = values(b"transfer-encoding");
    add(Rule::DuplicateContentLength, lengths.len() > 1);
    add(
        Rule::ContentLength,
        lengths.iter().any(|v| {
            v.is_empty()
                || !v.iter().all(u8::is_ascii_digit)
                || std::str::from_utf8(v)
                    .ok()
                    .and_then(|s| s.parse::<u128>().ok())
                    .is_none_or(|n| n > i64::MAX as u128)
        }),
    );
    add(Rule::ClWithTe, !lengths.is_empty() && !codings.is_empty());
    let items = list_items(&codings);
    let chunked = items
        .iter()
        .filter(|i| i.eq_ignore_ascii_case(b"chunked"))
        .count();
    let chunked_last = items
        .last()
        .is_some_and(|i| i.eq_ignore_ascii_case(b"chunked"));
    add(
        Rule::TransferEncoding,
        !codings.is_empty()
            && (http10
                || chunked > 1
                || (request && !chunked_last)
                || items.iter().any(|i| !is_token(i))),
    );
    add(
        Rule::Connection,
        list_items(&values(b"connection"))
            .iter()
            .any(|i| !is_token(i)),
    );
    if request {
        let hosts = values(b"host");
        add(
            Rule::Host,
            (!http10 && hosts.len() != 1)
                || hosts.len() > 1
                || hosts.iter().any(|h| !plain_host(h)),
        );
    }
    if !codings.is_empty() {
        for rule in chunked_rules_broken(&input[head_end..]) {
            add(rule, true);
        }
    }
    broken
}

/// The chunk rules a chunked body breaks, read plainly: each chunk line is hex digits and
/// `;name=value` extensions of token bytes (no whitespace), the data is followed by CRLF, the
/// trailer section has at most 64 lines and 64 KiB.
fn chunked_rules_broken(body: &[u8]) -> Vec<Rule> {
    let mut broken = Vec::new();
    let mut pos = 0;
    loop {
        // A line cut off between its CR and LF is complete but for the LF, and judged.
        let (end, cut_at_cr) = match body[pos..].iter().position(|&b| b == b'\n') {
            Some(i) => (pos + i, false),
            None if body.len() > pos && body.ends_with(b"\r") => (body.len(), true),
            None => return broken,
        };
        let line = &body[pos..end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let digits = line.iter().take_while(|b| b.is_ascii_hexdigit()).count();
        if digits == 0 || digits > 16 {
            broken.push(Rule::ChunkSize);
            return broken;
        }
        let plain_ext = line[digits..].split(|&b| b == b';').skip(1).all(|ext| {
            let mut kv = ext.splitn(2, |&b| b == b'=');
            is_token(kv.next().unwrap_or(b"")) && kv.next().is_none_or(is_token)
        }) && (digits == line.len() || line[digits] == b';');
        if !plain_ext || line.len() - digits > 64 * 1024 {
            broken.push(Rule::ChunkExt);
            return broken;
        }
        if cut_at_cr {
            return broken;
        }
        let size = u64::from_str_radix(std::str::from_utf8(&line[..digits]).unwrap(), 16).unwrap();
        pos = end + 1;
        if size == 0 {
            let trailers = &body[pos..];
            let section =
                trailers
                    .windows(2)
                    .position(|w| w == b"\r\n")
                    .map_or(trailers.len(), |_| {
                        trailers
                            .windows(4)
                            .position(|w| w == b"\r\n\r\n")
                            .map_or(trailers.len(), |i| i + 4)
                    });
            let lines = trailers[..section].split(|&b| b == b'\n').count();
            if section > 64 * 1024 || lines > 66 {
                broken.push(Rule::Limits);
            }
            return broken;
        }
        let data_end = pos.saturating_add(size as usize);
        if data_end >= body.len() {
            return broken;
        }
        if !body[data_end..].starts_with(b"\r\n") && body.len() >= data_end + 2 {
            broken.push(Rule::ChunkData);
            return broken;
        }
        pos = data_end + 2;
        if pos >= body.len() {
            return broken;
        }
    }
}
