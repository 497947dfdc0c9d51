//! Reading conformance vectors (see `shared/conformance/FORMAT.md`) and running them through
//! httpspan's stream decoder. The binary in `main.rs` is the command-line runner; the tests in
//! `tests/` reuse the loader.
//!
//! Besides FORMAT.md's keys, a case may carry `"options": ["bare_lf", ...]`, the
//! [`Leniency`] options to turn on for it (tests/vectors-gen/README.md); an unknown name makes
//! the case invalid. Field values are compared after [`httpspan::unfold`], which changes only
//! values holding an obs-fold.

/// The Rust examples of the repository's README compile and run as doctests (the crate's own
/// README, core/README.md, is tested by the crate, from its package).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct WorkspaceReadmeDoctests;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use httpspan::stream::{Decoder, Event, MessageKind};
use httpspan::{Leniency, Limits};
use serde_json::Value;

/// One test case.
#[derive(Debug, Clone)]
pub struct Case {
    /// The case's unique id.
    pub id: String,
    /// Requests or responses.
    pub kind: MessageKind,
    /// The raw bytes of the stream.
    pub input: Vec<u8>,
    /// For responses: the method of each request answered, one per final response.
    pub request_methods: Vec<Vec<u8>>,
    /// The expected outcomes, one per message.
    pub expect: Vec<Expected>,
    /// The lenient options the case turns on (`options`); strict when absent.
    pub lenient: Leniency,
}

impl Case {
    /// A case without id or expectations, for decoding an input that is not a vector (a
    /// generated or fuzzed one): `input` as `kind` under `lenient`, responses answering GET.
    pub fn unnamed(kind: MessageKind, input: &[u8], lenient: Leniency) -> Case {
        Case {
            id: String::new(),
            kind,
            input: input.to_vec(),
            request_methods: Vec::new(),
            expect: Vec::new(),
            lenient,
        }
    }

    /// The limits the case runs with: the defaults, with its lenient options on.
    pub fn limits(&self) -> Limits {
        let mut limits = Limits::DEFAULT;
        limits.lenient = self.lenient;
        limits
    }
}

/// Every lenient option on at once.
pub fn every_option() -> Leniency {
    let mut lenient = Leniency::STRICT;
    for name in Leniency::NAMES {
        lenient.enable(name);
    }
    lenient
}

/// SP and HTAB trimmed from both ends, for the plain readings of field values that the
/// differential test and the fuzz checks compare the parser with.
pub fn trim_ows(mut v: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = v {
        v = rest;
    }
    while let [rest @ .., b' ' | b'\t'] = v {
        v = rest;
    }
    v
}

/// An expected outcome.
#[derive(Debug, Clone)]
pub enum Expected {
    /// A message whose listed fields must match.
    Message(serde_json::Map<String, Value>),
    /// An error at this message.
    Reject,
    /// The stream ends inside this message.
    Incomplete,
}

/// An outcome the decoder produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A complete message.
    Message(Message),
    /// An error; nothing after it was read.
    Reject {
        /// The error's kind code.
        code: &'static str,
        /// The error's stream offset.
        offset: usize,
    },
    /// The stream ended inside the message.
    Incomplete,
}

/// What a complete message was parsed as.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Message {
    /// Request method.
    pub method: Vec<u8>,
    /// Request target.
    pub target: Vec<u8>,
    /// `HTTP/1.0` or `HTTP/1.1`.
    pub version: &'static str,
    /// Response status.
    pub status: u16,
    /// Response reason.
    pub reason: Vec<u8>,
    /// Fields, name as sent and value trimmed and unfolded.
    pub headers: Vec<(Vec<u8>, Vec<u8>)>,
    /// The body after transfer decoding.
    pub body: Vec<u8>,
    /// Trailer fields.
    pub trailers: Vec<(Vec<u8>, Vec<u8>)>,
    /// The declared Content-Length.
    pub content_length: Option<u64>,
    /// Whether the body is chunked.
    pub chunked: bool,
    /// Whether the connection stays open.
    pub keep_alive: bool,
    /// A 1xx interim response.
    pub interim: bool,
}

/// A vector that could not be read.
#[derive(Debug)]
pub struct LoadProblem {
    /// The case id, or `file:line` when there is none.
    pub id: String,
    /// What is wrong.
    pub message: String,
}

/// Every `*.jsonl` file under `dir`, recursively, sorted by path.
pub fn vector_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "jsonl") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Every case of every vector file under `dir`, in file and line order.
pub fn load_dir(dir: &Path) -> Vec<Result<Case, LoadProblem>> {
    let mut cases = Vec::new();
    for file in vector_files(dir) {
        let text = match std::fs::read_to_string(&file) {
            Ok(text) => text,
            Err(e) => {
                cases.push(Err(LoadProblem {
                    id: file.display().to_string(),
                    message: e.to_string(),
                }));
                continue;
            }
        };
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let place = format!("{}:{}", file.display(), n + 1);
            cases.push(parse_case(line).map_err(|(id, message)| LoadProblem {
                id: id.unwrap_or(place),
                message,
            }));
        }
    }
    cases
}

fn latin1(s: &str) -> Result<Vec<u8>, String> {
    s.chars()
        .map(|c| {
            u8::try_from(u32::from(c))
                .map_err(|_| format!("code point U+{:04X} above U+00FF", u32::from(c)))
        })
        .collect()
}

fn parse_case(line: &str) -> Result<Case, (Option<String>, String)> {
    let value: Value = serde_json::from_str(line).map_err(|e| (None, format!("not JSON: {e}")))?;
    let obj = value
        .as_object()
        .ok_or((None, "not a JSON object".to_string()))?;
    let id = obj
        .get("id")
        .and_then(Value::as_str)
        .ok_or((None, "no string `id`".to_string()))?
        .to_string();
    let bad = |m: String| (Some(id.clone()), m);
    let kind = match obj.get("kind").and_then(Value::as_str) {
        Some("request") => MessageKind::Request,
        Some("response") => MessageKind::Response,
        other => {
            return Err(bad(format!(
                "`kind` must be \"request\" or \"response\", not {other:?}"
            )))
        }
    };
    let input = obj
        .get("input")
        .and_then(Value::as_str)
        .ok_or_else(|| bad("no string `input`".into()))?;
    let input = latin1(input).map_err(|m| bad(format!("input: {m}")))?;
    let mut request_methods = Vec::new();
    if let Some(methods) = obj.get("request_method") {
        let list = methods
            .as_array()
            .ok_or_else(|| bad("`request_method` must be a list".into()))?;
        for m in list {
            let m = m
                .as_str()
                .ok_or_else(|| bad("`request_method` entries must be strings".into()))?;
            request_methods.push(latin1(m).map_err(&bad)?);
        }
    }
    let expect = match obj.get("expect") {
        Some(Value::String(s)) if s == "reject" => vec![Expected::Reject],
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| match item {
                Value::String(s) if s == "reject" => Ok(Expected::Reject),
                Value::String(s) if s == "incomplete" => Ok(Expected::Incomplete),
                Value::Object(m) => Ok(Expected::Message(m.clone())),
                other => Err(bad(format!("unknown outcome {other}"))),
            })
            .collect::<Result<_, _>>()?,
        other => {
            return Err(bad(format!(
                "`expect` must be \"reject\" or a list, not {other:?}"
            )))
        }
    };
    let mut lenient = Leniency::STRICT;
    if let Some(options) = obj.get("options") {
        let list = options
            .as_array()
            .ok_or_else(|| bad("`options` must be a list".into()))?;
        for name in list {
            let name = name
                .as_str()
                .ok_or_else(|| bad("`options` entries must be strings".into()))?;
            if !lenient.enable(name) {
                return Err(bad(format!("unknown option `{name}`")));
            }
        }
    }
    for key in obj.keys() {
        if !matches!(
            key.as_str(),
            "id" | "kind" | "input" | "request_method" | "expect" | "why" | "options"
        ) {
            return Err(bad(format!("unknown key `{key}`")));
        }
    }
    Ok(Case {
        id,
        kind,
        input,
        request_methods,
        expect,
        lenient,
    })
}

/// Feeds `input` to a fresh decoder in pieces ending at `cuts` (sorted offsets), returning the
/// outcomes, or a description of a protocol violation by the decoder.
pub fn decode_stream(case: &Case, cuts: &[usize]) -> Result<Vec<Outcome>, String> {
    let mut decoder = Decoder::new(
        case.kind,
        vec![0u8; httpspan::stream::DEFAULT_BUFFER_LEN],
        case.limits(),
    );
    let mut finals = 0;
    let method_for = |n: usize| case.request_methods.get(n).map_or(&b"GET"[..], |m| &m[..]);
    decoder.set_request_method(method_for(0));
    let mut outcomes = Vec::new();
    let mut current = Message::default();
    let mut start = 0;
    let mut budget = 16 * case.input.len() + 1024;
    let ends = cuts
        .iter()
        .copied()
        .chain(std::iter::once(case.input.len()));
    'pieces: for end in ends {
        let mut rest = &case.input[start..end];
        start = end;
        loop {
            budget = budget
                .checked_sub(1)
                .ok_or("the decoder stopped making progress")?;
            let (used, event) = match decoder.decode(rest) {
                Ok(step) => step,
                Err(e) => {
                    outcomes.push(Outcome::Reject {
                        code: e.kind().code(),
                        offset: e.offset(),
                    });
                    return Ok(outcomes);
                }
            };
            if used > rest.len() {
                return Err(format!("decode consumed {used} of {} bytes", rest.len()));
            }
            match event {
                Event::Head => current = capture_head(&decoder),
                Event::Body(range) => {
                    let bytes = rest
                        .get(range.clone())
                        .ok_or(format!("body range {range:?} outside the input"))?;
                    current.body.extend_from_slice(bytes);
                }
                Event::Trailers => {
                    let bytes = decoder.trailer_bytes();
                    current.trailers = field_pairs(decoder.trailers().fields(), bytes);
                }
                Event::MessageEnd => {
                    if case.kind == MessageKind::Response && !current.interim {
                        finals += 1;
                        decoder.set_request_method(method_for(finals));
                    }
                    outcomes.push(Outcome::Message(std::mem::take(&mut current)));
                }
                Event::NeedMore => {
                    if used != rest.len() {
                        return Err(format!(
                            "NeedMore after consuming {used} of {} bytes",
                            rest.len()
                        ));
                    }
                    continue 'pieces;
                }
                Event::Closed => return Ok(outcomes),
                Event::Incomplete => return Err("decode returned Incomplete".into()),
                other => return Err(format!("unexpected event {other:?}")),
            }
            rest = &rest[used..];
        }
    }
    loop {
        budget = budget.checked_sub(1).ok_or("finish did not end")?;
        match decoder.finish() {
            Ok(Event::MessageEnd) => outcomes.push(Outcome::Message(std::mem::take(&mut current))),
            Ok(Event::Incomplete) => {
                outcomes.push(Outcome::Incomplete);
                return Ok(outcomes);
            }
            Ok(Event::Closed) => return Ok(outcomes),
            Ok(other) => return Err(format!("finish returned {other:?}")),
            Err(e) => {
                outcomes.push(Outcome::Reject {
                    code: e.kind().code(),
                    offset: e.offset(),
                });
                return Ok(outcomes);
            }
        }
    }
}

fn capture_head<B: AsRef<[u8]> + AsMut<[u8]>>(decoder: &Decoder<B>) -> Message {
    let buf = decoder.head_bytes();
    let pairs = |fields: &[httpspan::Field]| field_pairs(fields, buf);
    if let Some(req) = decoder.request() {
        Message {
            method: req.method().as_bytes(buf).to_vec(),
            target: req.target().as_bytes(buf).to_vec(),
            version: req.version().as_str(),
            headers: pairs(req.fields()),
            content_length: req.content_length(),
            chunked: req.is_chunked(),
            keep_alive: req.keep_alive(),
            ..Message::default()
        }
    } else if let Some(res) = decoder.response() {
        Message {
            version: res.version().as_str(),
            status: res.status(),
            reason: res.reason().as_bytes(buf).to_vec(),
            headers: pairs(res.fields()),
            content_length: res.content_length(),
            chunked: res.is_chunked(),
            keep_alive: res.keep_alive(),
            interim: res.is_interim(),
            ..Message::default()
        }
    } else {
        Message::default()
    }
}

/// Each field's name as sent and its value with every obs-fold replaced by one SP.
fn field_pairs(fields: &[httpspan::Field], buf: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    fields
        .iter()
        .map(|f| {
            let value = httpspan::unfold(f.value.as_bytes(buf)).collect::<Vec<_>>();
            (f.name.as_bytes(buf).to_vec(), value.concat())
        })
        .collect()
}

/// A small deterministic generator (SplitMix64), seeded (from the case id, here) so that a
/// failure reproduces. The differential test generates its inputs with it too.
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Seeded random cut points for `len` bytes: pieces of varied size, from 1 byte to about a
/// third of the input.
pub fn random_cuts(id: &str, seed: u64, len: usize) -> Vec<usize> {
    let hash = id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let mut rng = SplitMix(hash ^ seed.wrapping_mul(0xA24B_AED4_963E_E407));
    let max_piece = (len / 3).max(1) as u64;
    let mut cuts = Vec::new();
    let mut pos = 0;
    loop {
        pos += 1 + (rng.next_u64() % max_piece) as usize;
        if pos >= len {
            return cuts;
        }
        cuts.push(pos);
    }
}

/// How many random splittings each case is fed in.
pub const RANDOM_SPLITS: u64 = 4;

/// Runs one case in every feeding mode; `Err` says what differed.
pub fn run_case(case: &Case) -> Result<(), String> {
    let splits = (0..RANDOM_SPLITS).map(|seed| random_cuts(&case.id, seed, case.input.len()));
    let whole = decode_every_way(case, splits)?;
    compare(case, &whole)
}

/// Decodes the case all at once, byte by byte and in the pieces each of `splits` cuts it
/// into: the outcomes, which must be the same every way; `Err` says what differed, or the
/// decoder's protocol violation.
pub fn decode_every_way(
    case: &Case,
    splits: impl IntoIterator<Item = Vec<usize>>,
) -> Result<Vec<Outcome>, String> {
    let whole = decode_stream(case, &[]).map_err(|e| format!("all at once: {e}"))?;
    let byte_cuts: Vec<usize> = (1..case.input.len()).collect();
    let bytewise = decode_stream(case, &byte_cuts).map_err(|e| format!("byte by byte: {e}"))?;
    if bytewise != whole {
        return Err(format!(
            "byte by byte gave {}, all at once gave {}",
            describe_all(&bytewise),
            describe_all(&whole)
        ));
    }
    for cuts in splits {
        let split = decode_stream(case, &cuts).map_err(|e| format!("split at {cuts:?}: {e}"))?;
        if split != whole {
            return Err(format!(
                "split at {cuts:?} gave {}, all at once gave {}",
                describe_all(&split),
                describe_all(&whole)
            ));
        }
    }
    Ok(whole)
}

fn compare(case: &Case, got: &[Outcome]) -> Result<(), String> {
    let mut problems = Vec::new();
    for (i, expected) in case.expect.iter().enumerate() {
        let n = i + 1;
        let Some(outcome) = got.get(i) else {
            problems.push(format!(
                "message {n}: expected {}, got nothing",
                describe_expected(expected)
            ));
            break;
        };
        match (expected, outcome) {
            (Expected::Reject, Outcome::Reject { .. })
            | (Expected::Incomplete, Outcome::Incomplete) => {}
            (Expected::Message(fields), Outcome::Message(msg)) => {
                for (key, want) in fields {
                    if let Some(diff) = compare_field(key, want, msg) {
                        problems.push(format!("message {n}: {diff}"));
                    }
                }
            }
            (expected, outcome) => {
                problems.push(format!(
                    "message {n}: expected {}, got {}",
                    describe_expected(expected),
                    describe(outcome)
                ));
                break;
            }
        }
    }
    if got.len() > case.expect.len() && problems.is_empty() {
        let extra: Vec<String> = got[case.expect.len()..].iter().map(describe).collect();
        problems.push(format!(
            "{} more outcome(s) than expected: {}",
            extra.len(),
            extra.join(", ")
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

fn pairs_from(value: &Value) -> Option<Vec<(Vec<u8>, Vec<u8>)>> {
    value
        .as_array()?
        .iter()
        .map(|pair| {
            let pair = pair.as_array()?;
            match pair.as_slice() {
                [Value::String(n), Value::String(v)] => Some((latin1(n).ok()?, latin1(v).ok()?)),
                _ => None,
            }
        })
        .collect()
}

fn compare_field(key: &str, want: &Value, msg: &Message) -> Option<String> {
    let bytes_field = |got: &[u8]| match want.as_str().map(latin1) {
        Some(Ok(w)) if w == got => None,
        Some(Ok(w)) => Some(format!(
            "{key}: expected {}, got {}",
            escape(&w),
            escape(got)
        )),
        _ => Some(format!("{key}: the vector's value is not a Latin-1 string")),
    };
    let pairs_field = |got: &[(Vec<u8>, Vec<u8>)]| match pairs_from(want) {
        Some(w) if w == got => None,
        Some(w) => Some(format!(
            "{key}: expected {}, got {}",
            describe_pairs(&w),
            describe_pairs(got)
        )),
        None => Some(format!(
            "{key}: the vector's value is not a list of [name, value]"
        )),
    };
    match key {
        "method" => bytes_field(&msg.method),
        "target" => bytes_field(&msg.target),
        "reason" => bytes_field(&msg.reason),
        "body" => bytes_field(&msg.body),
        "version" => match want.as_str() {
            Some(w) if w == msg.version => None,
            _ => Some(format!("version: expected {want}, got {}", msg.version)),
        },
        "status" => match want.as_u64() {
            Some(w) if w == u64::from(msg.status) => None,
            _ => Some(format!("status: expected {want}, got {}", msg.status)),
        },
        "headers" => pairs_field(&msg.headers),
        "trailers" => pairs_field(&msg.trailers),
        "content_length" => {
            let got = msg.content_length.map_or(Value::Null, Value::from);
            (got != *want).then(|| format!("content_length: expected {want}, got {got}"))
        }
        "chunked" => (Value::Bool(msg.chunked) != *want)
            .then(|| format!("chunked: expected {want}, got {}", msg.chunked)),
        "keep_alive" => (Value::Bool(msg.keep_alive) != *want)
            .then(|| format!("keep_alive: expected {want}, got {}", msg.keep_alive)),
        other => Some(format!("unknown expectation `{other}`")),
    }
}

/// Bytes as a quoted string with `\r`, `\n`, `\t` and `\xNN` escapes, cut at 80 bytes.
pub fn escape(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    for &b in bytes.iter().take(80) {
        match b {
            b'\r' => out.push_str("\\r"),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\x{b:02x}");
            }
        }
    }
    if bytes.len() > 80 {
        let _ = write!(out, "...({} bytes)", bytes.len());
    }
    out.push('"');
    out
}

fn describe_pairs(pairs: &[(Vec<u8>, Vec<u8>)]) -> String {
    let items: Vec<String> = pairs
        .iter()
        .map(|(n, v)| format!("[{}, {}]", escape(n), escape(v)))
        .collect();
    format!("[{}]", items.join(", "))
}

fn describe(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Reject { code, offset } => format!("reject ({code} at byte {offset})"),
        Outcome::Incomplete => "incomplete".into(),
        Outcome::Message(m) if m.status != 0 => {
            format!("response {} {}", m.status, escape(&m.reason))
        }
        Outcome::Message(m) => format!("request {} {}", escape(&m.method), escape(&m.target)),
    }
}

fn describe_all(outcomes: &[Outcome]) -> String {
    let items: Vec<String> = outcomes.iter().map(describe).collect();
    format!("[{}]", items.join(", "))
}

fn describe_expected(expected: &Expected) -> String {
    match expected {
        Expected::Reject => "reject".into(),
        Expected::Incomplete => "incomplete".into(),
        Expected::Message(_) => "a message".into(),
    }
}
