//! The writer's round-trip check, shared by the property test (`tests/writer_roundtrip.rs`) and
//! fuzz targets (include this file with `#[path]`, build a [`Script`] with
//! [`Script::from_bytes`], and call [`check`]).
//!
//! A script says what to ask of a `ResponseWriter` or `RequestWriter`. [`check`] runs it, then
//! parses what was written and compares: every call the writer accepted must come back exactly
//! (start line, fields in order, framing, Content-Length, body), and every call it refused must
//! be one that the parser would reject with the same error kind, or one that breaks a rule the
//! writer states (leading whitespace in a value, a framing field through `header`, a body for a
//! status without content, a buffer too small for the bytes). The same script run into a `Vec`
//! and into `Measure` must give the same bytes and length, and the length measured must be
//! exactly the room the script needs in a slice.

use httpspan::{
    ErrorKind, Framing, Limits, Measure, Request, RequestWriter, Response, ResponseWriter, Status,
    Version, WriteError, WriteTarget,
};

/// The start line to write.
#[derive(Clone, Debug)]
pub enum Start {
    /// `ResponseWriter::new` (reason `None`) or `ResponseWriter::with_reason`.
    Response {
        /// The version, for `with_reason`; `new` writes HTTP/1.1.
        version: Version,
        /// The status code, valid or not.
        status: u16,
        /// The reason phrase, valid or not.
        reason: Option<Vec<u8>>,
    },
    /// `RequestWriter::with_version`.
    Request {
        /// The version.
        version: Version,
        /// The method, valid or not.
        method: Vec<u8>,
        /// The request-target, valid or not.
        target: Vec<u8>,
    },
}

/// One call on the writer.
#[derive(Clone, Debug)]
pub enum Op {
    /// `header(name, value)`
    Header(Vec<u8>, Vec<u8>),
    /// `header_u64(name, value)`
    HeaderU64(Vec<u8>, u64),
    /// `content_length(len)`
    ContentLength(u64),
    /// `chunked()`
    Chunked,
}

/// How the head ends.
#[derive(Clone, Debug)]
pub enum End {
    /// `finish()`
    Finish,
    /// `body(bytes)`
    Body(Vec<u8>),
}

/// What to write, and into how large a buffer.
#[derive(Clone, Debug)]
pub struct Script {
    /// The start line.
    pub start: Start,
    /// The calls between the start line and the end.
    pub ops: Vec<Op>,
    /// The last call.
    pub end: End,
    /// The buffer length, at most [`MAX_BUF`].
    pub buf_len: usize,
}

/// The largest buffer a script uses: every head written fits the parser's 64 KiB span limit.
pub const MAX_BUF: usize = 60_000;

impl Script {
    /// Reads a script from arbitrary bytes, as a fuzzer provides them. Every input gives a
    /// script.
    pub fn from_bytes(data: &[u8]) -> Script {
        let mut input = Cursor(data);
        let flags = input.byte();
        let version = match flags & 1 {
            0 => Version::Http11,
            _ => Version::Http10,
        };
        let start = if flags & 2 == 0 {
            let status = input.u16() % 1000;
            let reason = (flags & 4 != 0).then(|| input.piece(32));
            Start::Response {
                version,
                status,
                reason,
            }
        } else {
            Start::Request {
                version,
                method: input.piece(16),
                target: input.piece(64),
            }
        };
        let buf_len = match flags & 8 {
            0 => MAX_BUF,
            _ => usize::from(input.u16()) % MAX_BUF,
        };
        let mut ops = Vec::new();
        while !input.0.is_empty() && ops.len() < 200 {
            let op = match input.byte() % 6 {
                0 | 1 => Op::Header(input.piece(24), input.piece(48)),
                2 => Op::HeaderU64(input.piece(24), input.u64()),
                3 => Op::ContentLength(input.u64() >> (input.byte() % 64)),
                4 => Op::Chunked,
                _ => Op::Header(b"Host".to_vec(), input.piece(24)),
            };
            ops.push(op);
        }
        // The body is whatever the last header op's value was, so that one byte decides.
        let end = match (flags & 16, ops.last()) {
            (0, _) => End::Finish,
            (_, Some(Op::Header(_, value))) => End::Body(value.clone()),
            _ => End::Body(Vec::new()),
        };
        Script {
            start,
            ops,
            end,
            buf_len,
        }
    }
}

/// Reads numbers and length-prefixed pieces; past the end it reads zeros.
struct Cursor<'a>(&'a [u8]);

impl Cursor<'_> {
    fn byte(&mut self) -> u8 {
        let (&b, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        b
    }

    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }

    fn u64(&mut self) -> u64 {
        (0..8).fold(0, |n, _| n << 8 | u64::from(self.byte()))
    }

    /// Up to `max` bytes, the length given by the first.
    fn piece(&mut self, max: usize) -> Vec<u8> {
        let len = (usize::from(self.byte()) % (max + 1)).min(self.0.len());
        let (piece, rest) = self.0.split_at(len);
        self.0 = rest;
        piece.to_vec()
    }
}

// ------------------------------------------------------------------------------------------
// Oracles written from the RFC text, apart from the crate's byte-class table.

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn is_ws(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// RFC 9110 5.5 field-value: VCHAR, obs-text, SP, HTAB; no whitespace at either end.
fn value_ok(v: &[u8]) -> bool {
    let bytes_ok = v
        .iter()
        .all(|&b| (0x21..=0x7e).contains(&b) || b >= 0x80 || is_ws(b));
    let edges_ok = !v.first().is_some_and(|&b| is_ws(b)) && !v.last().is_some_and(|&b| is_ws(b));
    bytes_ok && edges_ok
}

fn trim_ws(mut v: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = v {
        match is_ws(*first) {
            true => v = rest,
            false => break,
        }
    }
    while let [rest @ .., last] = v {
        match is_ws(*last) {
            true => v = rest,
            false => break,
        }
    }
    v
}

fn name_ok(n: &[u8]) -> bool {
    !n.is_empty() && n.iter().all(|&b| is_tchar(b))
}

/// Parser limits wide enough that only the writer's output, not a limit, decides.
fn wide_limits() -> Limits {
    let mut limits = Limits::DEFAULT;
    limits.max_head_bytes = u16::MAX;
    limits.max_field_lines = 250;
    limits
}

/// Parses `head` (a start line and field lines, without the final CRLF, which this adds) with
/// the parser of the script's kind and returns its error kind, if any.
fn parser_error(request: bool, head: &[u8]) -> Option<ErrorKind> {
    let mut buf = head.to_vec();
    buf.extend_from_slice(b"\r\n");
    let result = match request {
        true => Request::<250>::default().with(wide_limits()).parse(&buf),
        false => Response::<250>::default().with(wide_limits()).parse(&buf),
    };
    result.err().map(|e| e.kind())
}

/// Sets limits on a fresh parser, inline.
trait WithLimits: Sized {
    fn with(self, limits: Limits) -> Self;
}

impl WithLimits for Request<250> {
    fn with(mut self, limits: Limits) -> Self {
        self.set_limits(&limits);
        self
    }
}

impl WithLimits for Response<250> {
    fn with(mut self, limits: Limits) -> Self {
        self.set_limits(&limits);
        self
    }
}

// ------------------------------------------------------------------------------------------
// Running a script.

/// Which call of a script.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Call {
    Start,
    Op(usize),
    End,
}

/// What running a script produced.
struct Run {
    /// The buffer after the run: `buf[..n]` holds what was written before any call that
    /// reported `n` bytes written.
    buf: Vec<u8>,
    /// Each refused call, with the bytes written before it.
    refused: Vec<(Call, usize, WriteError)>,
    /// The fields the writer accepted, as they should be parsed back.
    fields: Vec<(Vec<u8>, Vec<u8>)>,
    content_length: Option<u64>,
    chunked: bool,
    /// The length from `finish` or `body`, if the run got there.
    len: Option<usize>,
    /// The call that found the buffer too small, and the length it asked for.
    too_small: Option<(Call, usize)>,
}

/// Either writer, so that one loop drives both.
enum Writer<'a, T: WriteTarget + ?Sized> {
    Response(ResponseWriter<'a, T>),
    Request(RequestWriter<'a, T>),
}

impl<T: WriteTarget + ?Sized> Writer<'_, T> {
    fn written(&self) -> usize {
        match self {
            Writer::Response(w) => w.written(),
            Writer::Request(w) => w.written(),
        }
    }

    fn apply(&mut self, op: &Op) -> Result<(), WriteError> {
        macro_rules! call {
            ($w:ident => $e:expr) => {
                match self {
                    Writer::Response($w) => $e.map(drop),
                    Writer::Request($w) => $e.map(drop),
                }
            };
        }
        match op {
            Op::Header(name, value) => call!(w => w.header(name, value)),
            Op::HeaderU64(name, value) => call!(w => w.header_u64(name, *value)),
            Op::ContentLength(len) => call!(w => w.content_length(*len)),
            Op::Chunked => call!(w => w.chunked()),
        }
    }

    fn end(self, end: &End) -> Result<usize, WriteError> {
        match (end, self) {
            (End::Finish, Writer::Response(w)) => w.finish(),
            (End::Finish, Writer::Request(w)) => w.finish(),
            (End::Body(body), Writer::Response(w)) => w.body(body),
            (End::Body(body), Writer::Request(w)) => w.body(body),
        }
    }
}

fn field(name: &[u8], value: &[u8]) -> (Vec<u8>, Vec<u8>) {
    (name.to_vec(), value.to_vec())
}

/// The field line an op asks for, as the writer would write it.
fn op_field(op: &Op) -> (Vec<u8>, Vec<u8>) {
    match op {
        Op::Header(name, value) => field(name, value),
        Op::HeaderU64(name, value) => field(name, value.to_string().as_bytes()),
        Op::ContentLength(len) => field(b"Content-Length", len.to_string().as_bytes()),
        Op::Chunked => field(b"Transfer-Encoding", b"chunked"),
    }
}

/// Runs `script` into a slice of `buf_len` bytes.
fn run(script: &Script, buf_len: usize) -> Run {
    let mut buf = vec![0u8; buf_len];
    let mut out = run_in(script, &mut buf[..]);
    out.buf = buf;
    out
}

/// Runs `script` into `target`; the caller fills in `buf`.
fn run_in<T: WriteTarget + ?Sized>(script: &Script, target: &mut T) -> Run {
    let mut out = Run {
        buf: Vec::new(),
        refused: Vec::new(),
        fields: Vec::new(),
        content_length: None,
        chunked: false,
        len: None,
        too_small: None,
    };
    let refuse = |out: &mut Run, call, written, e| match e {
        WriteError::BufferTooSmall { needed } => out.too_small = Some((call, needed)),
        e => out.refused.push((call, written, e)),
    };
    let started = match &script.start {
        Start::Response {
            status,
            reason: None,
            ..
        } => ResponseWriter::new_in(target, *status).map(Writer::Response),
        Start::Response {
            version,
            status,
            reason: Some(reason),
        } => {
            ResponseWriter::with_reason_in(target, *version, *status, reason).map(Writer::Response)
        }
        Start::Request {
            version,
            method,
            target: request_target,
        } => RequestWriter::with_version_in(target, method, request_target, *version)
            .map(Writer::Request),
    };
    let mut writer = match started {
        Ok(w) => w,
        Err(e) => {
            refuse(&mut out, Call::Start, 0, e);
            return out;
        }
    };
    for (i, op) in script.ops.iter().enumerate() {
        let written = writer.written();
        if let Err(e) = writer.apply(op) {
            refuse(&mut out, Call::Op(i), written, e);
            if out.too_small.is_some() {
                return out;
            }
            continue;
        }
        let (name, value) = op_field(op);
        match op {
            Op::ContentLength(len) => out.content_length = Some(*len),
            Op::Chunked => out.chunked = true,
            _ => {}
        }
        out.fields.push((name, value));
    }
    let written = writer.written();
    match writer.end(&script.end) {
        Ok(len) => {
            out.len = Some(len);
            if let End::Body(body) = &script.end {
                out.content_length = Some(body.len() as u64);
                out.fields
                    .push(op_field(&Op::ContentLength(body.len() as u64)));
            }
        }
        Err(e) => refuse(&mut out, Call::End, written, e),
    }
    out
}

/// The start line's facts: the version and reason the writer writes, and whether the status
/// forbids framing fields (1xx, 204) or a body (those and 304).
struct StartFacts {
    request: bool,
    version: Version,
    reason: Vec<u8>,
    no_framing: bool,
    no_body: bool,
}

fn start_facts(start: &Start) -> StartFacts {
    match start {
        Start::Response {
            version,
            status,
            reason,
        } => {
            let no_framing = (100..200).contains(status) || *status == 204;
            StartFacts {
                request: false,
                version: if reason.is_some() {
                    *version
                } else {
                    Version::Http11
                },
                reason: reason
                    .clone()
                    .unwrap_or_else(|| httpspan::reason_phrase(*status).unwrap_or("").into()),
                no_framing,
                no_body: no_framing || *status == 304,
            }
        }
        Start::Request { version, .. } => StartFacts {
            request: true,
            version: *version,
            reason: Vec::new(),
            no_framing: false,
            no_body: false,
        },
    }
}

/// How far a script got, for tests that check the scripts reach what they should.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reached {
    /// The head was written, parsed and found identical.
    pub parsed_back: bool,
    /// Fields written (and, if `parsed_back`, read back).
    pub fields: usize,
    /// Calls refused (each checked against the parser).
    pub refused: usize,
    /// A call found the buffer too small.
    pub too_small: bool,
}

/// Runs `script` and checks the writer against the parser; the error describes the first
/// disagreement.
pub fn check(script: &Script) -> Result<Reached, String> {
    check_tampered(script, |_| {})
}

/// [`check`], with `tamper` applied to the written bytes before they are judged: a test of the
/// check itself.
pub fn check_tampered(script: &Script, tamper: impl Fn(&mut Vec<u8>)) -> Result<Reached, String> {
    let buf_len = script.buf_len.min(MAX_BUF);
    let mut run_ = run(script, buf_len);
    check_targets(script, &run_)?;
    tamper(&mut run_.buf);
    let facts = start_facts(&script.start);
    for &(call, written, error) in &run_.refused {
        check_refusal(script, &facts, &run_.buf[..written], call, error)
            .map_err(|e| format!("{call:?} refused with {error:?}: {e}"))?;
    }
    let mut reached = Reached {
        parsed_back: false,
        fields: run_.fields.len(),
        refused: run_.refused.len(),
        too_small: run_.too_small.is_some(),
    };
    if let Some((call, needed)) = run_.too_small {
        if needed <= buf_len {
            return Err(format!(
                "{call:?}: buffer of {buf_len} too small, but {needed} needed"
            ));
        }
        // With exactly the room asked for, the same call must get past that point.
        if needed <= MAX_BUF {
            if let Some((call2, needed2)) = run(script, needed).too_small {
                if call2 <= call || needed2 <= needed {
                    return Err(format!(
                        "{call:?} asked for {needed} bytes, then {call2:?} for {needed2}"
                    ));
                }
            }
        }
        return Ok(reached);
    }
    if let Some(len) = run_.len {
        check_parsed_back(script, &facts, &run_, len)?;
        reached.parsed_back = true;
    }
    Ok(reached)
}

/// The script run into a `Vec` writes what the slice run wrote, and run into `Measure` reports
/// the same lengths; the length measured is exactly the room the script needs: with it the run
/// ends there, and with one byte less the last call asks for it.
fn check_targets(script: &Script, in_slice: &Run) -> Result<(), String> {
    let mut grown = Vec::new();
    let in_vec = run_in(script, &mut grown);
    let measured = run_in(script, &mut Measure);
    if in_vec.too_small.is_some() || measured.too_small.is_some() {
        return Err("a growable target or Measure was too small".into());
    }
    if in_vec.len != measured.len || in_vec.refused != measured.refused {
        return Err(format!(
            "Vec and Measure disagree: {:?} {:?}",
            in_vec.len, measured.len
        ));
    }
    if let Some(len) = in_slice.len {
        if in_vec.len != Some(len) || grown[..] != in_slice.buf[..len] {
            return Err(format!("the Vec got other bytes than the slice ({len})"));
        }
    }
    let Some(len) = measured.len.filter(|&len| len <= MAX_BUF) else {
        return Ok(());
    };
    if run(script, len).len != Some(len) {
        return Err(format!("{len} bytes measured are not enough"));
    }
    match run(script, len - 1).too_small {
        Some((Call::End, needed)) if needed == len => Ok(()),
        other => Err(format!(
            "one byte short of the {len} measured, the run asked for {other:?}"
        )),
    }
}

/// A refusal is right when the bytes refused break a rule of RFC 9110 that the writer states,
/// or when the parser, given the head written so far and those bytes, rejects them with the same
/// error kind.
fn check_refusal(
    script: &Script,
    facts: &StartFacts,
    written: &[u8],
    call: Call,
    error: WriteError,
) -> Result<(), String> {
    let expect = |ok: bool, why: &str| if ok { Ok(()) } else { Err(why.to_string()) };
    // The field line the writer was asked for, if the call asks for one.
    let line = match (call, &script.end) {
        (Call::Start, _) => return check_start_refusal(&script.start, error),
        (Call::Op(i), _) => {
            let op = &script.ops[i];
            let (name, value) = op_field(op);
            let framing = matches!(op, Op::ContentLength(_) | Op::Chunked);
            match error {
                WriteError::Invalid(ErrorKind::InvalidFieldName) => {
                    return expect(!name_ok(&name), "the name is a token")
                }
                WriteError::Invalid(ErrorKind::InvalidFieldValue) => {
                    return expect(name_ok(&name) && !value_ok(&value), "the value is valid")
                }
                WriteError::FramingField => {
                    let framing_name = name.eq_ignore_ascii_case(b"content-length")
                        || name.eq_ignore_ascii_case(b"transfer-encoding");
                    return expect(!framing && framing_name, "no framing field by header");
                }
                WriteError::BodyNotAllowed => {
                    return expect(framing && facts.no_framing, "framing is allowed")
                }
                _ => Some((name, value)),
            }
        }
        (Call::End, End::Body(_)) if error == WriteError::BodyNotAllowed => {
            return expect(facts.no_body, "a body is allowed")
        }
        (Call::End, End::Body(body)) => Some(op_field(&Op::ContentLength(body.len() as u64))),
        (Call::End, End::Finish) => None,
    };
    let WriteError::Invalid(kind) = error else {
        return Err("unexpected error".into());
    };
    let mut raw = written.to_vec();
    if let Some((name, value)) = line {
        for piece in [&name[..], b": ", &value, b"\r\n"] {
            raw.extend_from_slice(piece);
        }
    }
    let got = parser_error(facts.request, &raw);
    expect(got == Some(kind), &format!("the parser says {got:?}"))
}

fn check_start_refusal(start: &Start, error: WriteError) -> Result<(), String> {
    let expect = |ok: bool, why: &str| if ok { Ok(()) } else { Err(why.to_string()) };
    match (start, error) {
        (Start::Response { status, .. }, WriteError::Invalid(ErrorKind::InvalidStatusCode)) => {
            expect(!(100..=599).contains(status), "the status is in range")
        }
        // A CR, LF or NUL in a reason or request-line is reported by the line rules (bare CR,
        // ...) rather than the part's own, so any rejection will do.
        (
            Start::Response {
                reason: Some(reason),
                ..
            },
            WriteError::Invalid(ErrorKind::InvalidReason),
        ) => {
            // A CR or LF would end the status-line early and put the rest of the reason where
            // field lines go (header injection): refused by the writer's own rule, whatever the
            // parser makes of the bytes after it (found by the writer fuzz target).
            if reason.iter().any(|&b| b == b'\r' || b == b'\n') {
                return Ok(());
            }
            let mut line = b"HTTP/1.1 200 ".to_vec();
            line.extend_from_slice(reason);
            line.extend_from_slice(b"\r\n");
            expect(
                parser_error(false, &line).is_some(),
                "the parser accepts it",
            )
        }
        (Start::Request { method, .. }, WriteError::Invalid(ErrorKind::InvalidMethod)) => {
            expect(!name_ok(method), "the method is a token")
        }
        (
            Start::Request {
                method,
                target,
                version,
            },
            WriteError::Invalid(_),
        ) => {
            let mut line = method.clone();
            for piece in [b" ", &target[..], b" ", version.as_str().as_bytes()] {
                line.extend_from_slice(piece);
            }
            line.extend_from_slice(b"\r\nHost: a\r\n");
            expect(name_ok(method), "the method is no token")?;
            expect(parser_error(true, &line).is_some(), "the parser accepts it")
        }
        _ => Err("unexpected error".into()),
    }
}

/// Whether a Connection field among `fields` lists `item`.
fn lists(fields: &[(Vec<u8>, Vec<u8>)], item: &[u8]) -> bool {
    fields.iter().any(|(n, v)| {
        n.eq_ignore_ascii_case(b"connection")
            && v.split(|&b| b == b',')
                .any(|i| trim_ws(i).eq_ignore_ascii_case(item))
    })
}

/// What the parser reads back must be what was written.
fn check_parsed_back(
    script: &Script,
    facts: &StartFacts,
    run: &Run,
    len: usize,
) -> Result<(), String> {
    let body: &[u8] = match &script.end {
        End::Body(body) => body,
        End::Finish => &[],
    };
    let head_len = len - body.len();
    let buf = &run.buf[..len];
    if &buf[head_len..] != body {
        return Err("the body is not after the head".into());
    }
    // RFC 9112 9.3, 6.3, decided from the fields written, not by the parser's code.
    let persistent = !lists(&run.fields, b"close")
        && (facts.version == Version::Http11 || lists(&run.fields, b"keep-alive"));
    let framed = match (run.chunked, run.content_length) {
        (true, _) => Some(Framing::Chunked),
        (false, Some(n)) => Some(Framing::Length(n)),
        (false, None) => None,
    };
    let complete = |status: Result<Status, httpspan::Error>| match status {
        Ok(Status::Complete { head_len: n }) if n == head_len => Ok(()),
        other => Err(format!("parsed {other:?}, written {head_len}")),
    };
    let (version, fields, parsed, want) = match &script.start {
        Start::Response { status, .. } => {
            let mut res = Response::<250>::default().with(wide_limits());
            complete(res.parse(buf))?;
            if res.status() != *status || res.reason().as_bytes(buf) != facts.reason {
                return Err(format!("status line {:?}", &buf[..res.reason().end()]));
            }
            let framing = match framed {
                _ if facts.no_body => Framing::NoBody,
                Some(framing) => framing,
                None => Framing::UntilClose,
            };
            let keep_alive = persistent && framing != Framing::UntilClose;
            (
                res.version(),
                res.fields().to_vec(),
                (res.framing(), res.content_length(), res.keep_alive()),
                (framing, run.content_length, keep_alive),
            )
        }
        Start::Request { method, target, .. } => {
            let mut req = Request::<250>::default().with(wide_limits());
            complete(req.parse(buf))?;
            if req.method().as_bytes(buf) != method || req.target().as_bytes(buf) != target {
                return Err("method or target differ".into());
            }
            let framing = framed.unwrap_or(Framing::NoBody);
            (
                req.version(),
                req.fields().to_vec(),
                (req.framing(), req.content_length(), req.keep_alive()),
                (framing, run.content_length, persistent),
            )
        }
    };
    let fields: Vec<_> = fields
        .iter()
        .map(|f| field(f.name.as_bytes(buf), f.value.as_bytes(buf)))
        .collect();
    if version != facts.version {
        return Err(format!("version {version:?}"));
    }
    if fields != run.fields {
        return Err(format!("fields {fields:?}, written {:?}", run.fields));
    }
    if parsed != want {
        return Err(format!(
            "framing, length, keep-alive {parsed:?}, expected {want:?}"
        ));
    }
    Ok(())
}
