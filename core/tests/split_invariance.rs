//! Property tests: the parser's answer does not depend on how its input is cut up.
//!
//! Messages are generated from a small grammar of valid HTTP/1.1 (requests with odd method
//! tokens, percent-encoded targets, obs-text values, Content-Length and chunked bodies with
//! extensions and trailers, Connection lists, pipelining; responses with interim 1xx, bodies
//! delimited by length, chunks or the end of the stream). Every generated message is checked
//! against what was generated (the generator is a second oracle), and every generated or
//! mutated input is fed to `stream::Decoder` all at once, byte by byte and at random cut
//! points, which must all give the same outcomes; `Request::parse`, `Response::parse` and
//! `Trailers::parse` resumed over growing prefixes must reach the result of one call on the
//! whole buffer, and every span they return must lie, in order, inside the head.
//!
//! Mutated inputs are also parsed with random lenient options (`Limits::lenient`), under the
//! same invariants, and a property checks that leniency only ever turns errors into messages:
//! whatever the strict parser accepts, every option set reads the same way.
//!
//! The number of cases per property is proptest's default (256), or `PROPTEST_CASES`; 3 under
//! Miri.

use std::fmt;
use std::ops::Range;

use httpspan::stream::{buffer_len, Decoder, Event, MessageKind};
use httpspan::{
    Chunk, ChunkedDecoder, Error, ErrorKind, Field, Framing, KnownHeader, Leniency, Limits,
    Request, Response, Span, Status, Trailers, Version,
};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{select, Index};
use proptest::test_runner::TestCaseError;

// ------------------------------------------------------------------------------------------
// Bytes that print readably.

/// Bytes shown as an escaped string in assertion messages.
#[derive(Clone, PartialEq, Eq)]
struct B(Vec<u8>);

impl fmt::Debug for B {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&escape(&self.0))
    }
}

fn escape(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    for &b in bytes {
        match b {
            b'\r' => out.push_str("\\r"),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out.push('"');
    out
}

fn is_ws(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn trim(bytes: &[u8]) -> &[u8] {
    let start = bytes.iter().position(|&b| !is_ws(b)).unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|&b| !is_ws(b))
        .map_or(start, |i| i + 1);
    &bytes[start..end]
}

const TCHAR: &[u8] =
    b"!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

fn is_tchar(b: u8) -> bool {
    TCHAR.contains(&b)
}

// ------------------------------------------------------------------------------------------
// What the decoder produced, normalised so that different cuttings can be compared.

/// One field as the parser reported it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct FieldInfo {
    name: B,
    value: B,
    name_span: Span,
    value_span: Span,
}

/// A head as the decoder reported it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct HeadInfo {
    offset: u64,
    len: usize,
    method: B,
    target: B,
    status: u16,
    reason: B,
    version: Version,
    fields: Vec<FieldInfo>,
    content_length: Option<u64>,
    chunked: bool,
    keep_alive: bool,
    framing: Framing,
    interim: bool,
}

/// One message: its head, its body bytes joined, its trailers, whether it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Msg {
    head: HeadInfo,
    body: B,
    trailers: Option<(u64, Vec<FieldInfo>)>,
    ended: bool,
}

/// How the stream ended.
#[derive(Clone, Debug, PartialEq, Eq)]
enum End {
    Closed { position: u64 },
    Incomplete { position: u64 },
    Error { kind: ErrorKind, offset: usize },
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Trace {
    msgs: Vec<Msg>,
    end: End,
}

fn field_infos(fields: &[Field], buf: &[u8]) -> Vec<FieldInfo> {
    fields
        .iter()
        .map(|f| FieldInfo {
            name: B(f.name.as_bytes(buf).to_vec()),
            value: B(f.value.as_bytes(buf).to_vec()),
            name_span: f.name,
            value_span: f.value,
        })
        .collect()
}

fn capture_head(decoder: &Decoder<Vec<u8>>) -> HeadInfo {
    let buf = decoder.head_bytes();
    let offset = decoder.message_offset();
    if let Some(req) = decoder.request() {
        HeadInfo {
            offset,
            len: buf.len(),
            method: B(req.method().as_bytes(buf).to_vec()),
            target: B(req.target().as_bytes(buf).to_vec()),
            status: 0,
            reason: B(Vec::new()),
            version: req.version(),
            fields: field_infos(req.fields(), buf),
            content_length: req.content_length(),
            chunked: req.is_chunked(),
            keep_alive: req.keep_alive(),
            framing: req.framing(),
            interim: false,
        }
    } else {
        let res = decoder
            .response()
            .expect("a decoder parses requests or responses");
        HeadInfo {
            offset,
            len: buf.len(),
            method: B(Vec::new()),
            target: B(Vec::new()),
            status: res.status(),
            reason: B(res.reason().as_bytes(buf).to_vec()),
            version: res.version(),
            fields: field_infos(res.fields(), buf),
            content_length: res.content_length(),
            chunked: res.is_chunked(),
            keep_alive: res.keep_alive(),
            framing: res.framing(),
            interim: res.is_interim(),
        }
    }
}

/// How a decoder is built: the kind of stream, the limits, and the length of the buffer for
/// heads and trailers (`buffer_len(limits)` unless set).
#[derive(Clone, Copy, Debug)]
struct Setup {
    kind: MessageKind,
    limits: Limits,
    buf_len: Option<usize>,
}

/// Feeds `input` to a fresh decoder in pieces that end at `cuts` (sorted, duplicates give empty
/// pieces), then finishes the stream. `Err` describes a broken protocol promise.
fn decode_trace(
    setup: &Setup,
    methods: &[Vec<u8>],
    input: &[u8],
    cuts: &[usize],
) -> Result<Trace, String> {
    let Setup {
        kind,
        limits,
        buf_len,
    } = *setup;
    let buf = vec![0u8; buf_len.unwrap_or(buffer_len(&limits))];
    let mut decoder = Decoder::new(kind, buf, limits);
    let method_for = |n: usize| methods.get(n).map_or(&b"GET"[..], |m| &m[..]);
    let mut finals = 0;
    decoder.set_request_method(method_for(0));
    let mut msgs: Vec<Msg> = Vec::new();
    let mut budget = 8 * input.len() + 8 * cuts.len() + 64;
    let mut start = 0;
    let mut closed = false;
    let ends = cuts.iter().copied().chain(std::iter::once(input.len()));
    'pieces: for end in ends {
        let mut rest = &input[start..end];
        start = end;
        loop {
            budget = budget
                .checked_sub(1)
                .ok_or("the decoder stopped making progress")?;
            let (used, event) = match decoder.decode(rest) {
                Ok(step) => step,
                Err(e) => {
                    if decoder.decode(b"more") != Err(e) || decoder.finish() != Err(e) {
                        return Err(format!("the error {e:?} did not stick"));
                    }
                    return Ok(Trace {
                        msgs,
                        end: End::Error {
                            kind: e.kind(),
                            offset: e.offset(),
                        },
                    });
                }
            };
            if used > rest.len() {
                return Err(format!("decode consumed {used} of {} bytes", rest.len()));
            }
            let open = msgs.last_mut().filter(|m| !m.ended);
            match event {
                Event::Head => {
                    if open.is_some() {
                        return Err("a head inside an unfinished message".into());
                    }
                    msgs.push(Msg {
                        head: capture_head(&decoder),
                        body: B(Vec::new()),
                        trailers: None,
                        ended: false,
                    });
                }
                Event::Body(range) => {
                    if range.end > used {
                        return Err(format!("body range {range:?} past the {used} bytes used"));
                    }
                    let msg = open.ok_or("body outside a message")?;
                    msg.body.0.extend_from_slice(&rest[range]);
                }
                Event::Trailers => {
                    let msg = open.ok_or("trailers outside a message")?;
                    let bytes = decoder.trailer_bytes();
                    msg.trailers = Some((
                        decoder.trailer_offset(),
                        field_infos(decoder.trailers().fields(), bytes),
                    ));
                }
                Event::MessageEnd => {
                    let msg = open.ok_or("end of no message")?;
                    msg.ended = true;
                    if kind == MessageKind::Response && !msg.head.interim {
                        finals += 1;
                        decoder.set_request_method(method_for(finals));
                    }
                }
                Event::NeedMore => {
                    if used != rest.len() {
                        return Err(format!("NeedMore after {used} of {} bytes", rest.len()));
                    }
                    continue 'pieces;
                }
                Event::Closed => {
                    closed = true;
                    break 'pieces;
                }
                Event::Incomplete => return Err("decode returned Incomplete".into()),
                other => return Err(format!("unexpected event {other:?}")),
            }
            rest = &rest[used..];
        }
    }
    if closed {
        // Nothing after the close is read, however it arrives.
        let position = decoder.position();
        for piece in [&input[position as usize..], &b"GET / HTTP/1.1\r\n"[..]] {
            if decoder.decode(piece) != Ok((0, Event::Closed)) {
                return Err("decode read on after Closed".into());
            }
        }
        if decoder.finish() != Ok(Event::Closed) || decoder.position() != position {
            return Err("finish after Closed".into());
        }
        return Ok(Trace {
            msgs,
            end: End::Closed { position },
        });
    }
    loop {
        budget = budget.checked_sub(1).ok_or("finish did not end")?;
        match decoder.finish() {
            Ok(Event::MessageEnd) => {
                let msg = msgs
                    .last_mut()
                    .filter(|m| !m.ended)
                    .ok_or("finish ended no message")?;
                msg.ended = true;
            }
            Ok(Event::Incomplete) => {
                return Ok(Trace {
                    msgs,
                    end: End::Incomplete {
                        position: decoder.position(),
                    },
                })
            }
            Ok(Event::Closed) => {
                return Ok(Trace {
                    msgs,
                    end: End::Closed {
                        position: decoder.position(),
                    },
                })
            }
            Ok(other) => return Err(format!("finish returned {other:?}")),
            Err(e) => {
                return Ok(Trace {
                    msgs,
                    end: End::Error {
                        kind: e.kind(),
                        offset: e.offset(),
                    },
                })
            }
        }
    }
}

fn cut_points(picks: &[Index], len: usize) -> Vec<usize> {
    let mut cuts: Vec<usize> = picks.iter().map(|i| i.index(len + 1)).collect();
    cuts.sort_unstable();
    cuts
}

/// The trace all at once, checked equal to byte by byte and to each random cutting.
fn split_invariant_trace(
    setup: &Setup,
    methods: &[Vec<u8>],
    input: &[u8],
    cuttings: &[Vec<Index>],
) -> Result<Trace, TestCaseError> {
    let fail =
        |how: &str, e: String| TestCaseError::fail(format!("{how}: {e}\ninput: {}", escape(input)));
    let whole = decode_trace(setup, methods, input, &[]).map_err(|e| fail("whole", e))?;
    let bytewise: Vec<usize> = (1..input.len()).collect();
    let mut cuttings: Vec<Vec<usize>> = cuttings
        .iter()
        .map(|c| cut_points(c, input.len()))
        .collect();
    cuttings.push(bytewise);
    let (whole_cmp, whole_partial) = comparable(&whole);
    for cuts in &cuttings {
        let split = decode_trace(setup, methods, input, cuts)
            .map_err(|e| fail(&format!("cut at {cuts:?}"), e))?;
        let (split_cmp, split_partial) = comparable(&split);
        prop_assert_eq!(
            &split_cmp,
            &whole_cmp,
            "cut at {:?} differs from all at once; input {}, {:?}",
            cuts,
            escape(input),
            setup
        );
        let (a, b) = (&split_partial.0, &whole_partial.0);
        let n = a.len().min(b.len());
        prop_assert_eq!(
            &a[..n],
            &b[..n],
            "body bytes before the error differ; cut at {:?}, input {}, {:?}",
            cuts,
            escape(input),
            setup
        );
    }
    Ok(whole)
}

/// A trace as far as it must not depend on the cutting: all of it. Body data of a message that
/// then fails is streamed as it arrives, and a range that crosses `max_body_bytes` is reported up
/// to the limit before the error, so even the body before an error is the same in every split.
/// (The second element is kept for the byte-prefix check above, which equality implies.)
fn comparable(trace: &Trace) -> (Trace, B) {
    (trace.clone(), B(Vec::new()))
}

// ------------------------------------------------------------------------------------------
// Head parsers over growing prefixes.

/// What a head parser reports after a complete parse.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Snapshot {
    /// Request: method and target. Response: reason. Trailers: none.
    start: Vec<Span>,
    status: u16,
    version: Option<Version>,
    fields: Vec<Field>,
    gets: Vec<Option<Span>>,
    indexes: Vec<Option<usize>>,
    bitmap: u64,
    content_length: Option<u64>,
    chunked: bool,
    keep_alive: bool,
    framing: Option<Framing>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum HeadKind {
    Request,
    Response,
    Trailers,
}

trait HeadParser {
    const KIND: HeadKind;
    fn fresh(limits: &Limits) -> Self;
    fn parse_buf(&mut self, buf: &[u8]) -> Result<Status, Error>;
    fn snapshot(&self) -> Snapshot;
    fn find_in(&self, buf: &[u8], name: &[u8]) -> Option<Span>;
}

/// Implements `HeadParser` for the three parsers, which share these methods by name. `$extra`
/// fills in what only requests and responses have.
macro_rules! head_parser {
    ($ty:ident, $kind:ident, |$p:ident| $extra:expr) => {
        impl<const N: usize> HeadParser for $ty<N> {
            const KIND: HeadKind = HeadKind::$kind;
            fn fresh(limits: &Limits) -> Self {
                let mut p = Self::default();
                p.set_limits(limits);
                p.reset();
                p
            }
            fn parse_buf(&mut self, buf: &[u8]) -> Result<Status, Error> {
                self.parse(buf)
            }
            fn snapshot(&self) -> Snapshot {
                let $p = self;
                Snapshot {
                    fields: $p.fields().to_vec(),
                    gets: KnownHeader::ALL.iter().map(|&k| $p.get(k)).collect(),
                    indexes: KnownHeader::ALL
                        .iter()
                        .map(|&k| $p.known_index(k))
                        .collect(),
                    bitmap: $p.known_bitmap(),
                    ..$extra
                }
            }
            fn find_in(&self, buf: &[u8], name: &[u8]) -> Option<Span> {
                self.find(buf, name)
            }
        }
    };
}

/// The message-level part of a request's or response's snapshot.
fn semantics(
    version: Version,
    cl: Option<u64>,
    chunked: bool,
    keep: bool,
    framing: Framing,
) -> Snapshot {
    Snapshot {
        version: Some(version),
        content_length: cl,
        chunked,
        keep_alive: keep,
        framing: Some(framing),
        ..Snapshot::default()
    }
}

head_parser!(Request, Request, |p| Snapshot {
    start: vec![p.method(), p.target()],
    ..semantics(
        p.version(),
        p.content_length(),
        p.is_chunked(),
        p.keep_alive(),
        p.framing()
    )
});
head_parser!(Response, Response, |p| Snapshot {
    start: vec![p.reason()],
    status: p.status(),
    ..semantics(
        p.version(),
        p.content_length(),
        p.is_chunked(),
        p.keep_alive(),
        p.framing()
    )
});
head_parser!(Trailers, Trailers, |_p| Snapshot::default());

type Parsed = Result<(Status, Option<Snapshot>), Error>;

fn parse_once<P: HeadParser>(parser: &mut P, buf: &[u8]) -> Parsed {
    let status = parser.parse_buf(buf)?;
    Ok((status, status.is_complete().then(|| parser.snapshot())))
}

/// Checks a completed head: every span inside it, in order, with the bytes it claims. With
/// lenient options the exact layout of lines is not checked, only what every option keeps:
/// spans in order inside the head, token names, trimmed values without NUL.
fn check_spans<P: HeadParser>(
    parser: &P,
    buf: &[u8],
    head_len: usize,
    lenient: &Leniency,
) -> Result<(), TestCaseError> {
    let snap = parser.snapshot();
    let ctx = || escape(&buf[..head_len.min(buf.len())]);
    prop_assert!(
        head_len <= buf.len(),
        "head_len {} > {}",
        head_len,
        buf.len()
    );
    if *lenient != Leniency::STRICT {
        return check_lenient_spans(parser, &buf[..head_len], lenient);
    }
    let head = &buf[..head_len];
    match P::KIND {
        HeadKind::Trailers => prop_assert!(head.ends_with(b"\r\n"), "{}", ctx()),
        _ => prop_assert!(head.ends_with(b"\r\n\r\n"), "{}", ctx()),
    }
    // Where the field lines may start.
    let mut next_line = 0;
    match P::KIND {
        HeadKind::Request => {
            let (method, target) = (snap.start[0], snap.start[1]);
            prop_assert!(method.off <= 4 && !method.is_empty(), "method {:?}", method);
            prop_assert!(
                method.as_bytes(head).iter().all(|&b| is_tchar(b)),
                "{}",
                ctx()
            );
            prop_assert_eq!(head.get(method.end()), Some(&b' '), "{}", ctx());
            prop_assert_eq!(target.off as usize, method.end() + 1, "{}", ctx());
            prop_assert!(!target.is_empty(), "{}", ctx());
            prop_assert_eq!(head.get(target.end()), Some(&b' '), "{}", ctx());
            next_line = target.end() + 11;
            let version = &head[target.end() + 1..next_line];
            prop_assert!(
                version == b"HTTP/1.1\r\n" || version == b"HTTP/1.0\r\n",
                "{}",
                ctx()
            );
        }
        HeadKind::Response => {
            let reason = snap.start[0];
            prop_assert!(
                reason.off >= 12 && reason.end() + 4 <= head_len,
                "{}",
                ctx()
            );
            prop_assert!(head[reason.end()..].starts_with(b"\r\n"), "{}", ctx());
            next_line = reason.end() + 2;
            prop_assert!((100..=599).contains(&snap.status));
        }
        HeadKind::Trailers => {}
    }
    for (i, f) in snap.fields.iter().enumerate() {
        prop_assert!(
            f.name.off as usize >= next_line,
            "field {} name at {} before {}: {}",
            i,
            f.name.off,
            next_line,
            ctx()
        );
        prop_assert!(f.name.end() <= head_len && f.value.end() <= head_len);
        let name = f.name.as_bytes(head);
        prop_assert!(
            !name.is_empty() && name.iter().all(|&b| is_tchar(b)),
            "{}",
            ctx()
        );
        prop_assert_eq!(head[f.name.end()], b':', "{}", ctx());
        prop_assert!(f.value.off as usize > f.name.end(), "{}", ctx());
        prop_assert!(
            head[f.name.end() + 1..f.value.off as usize]
                .iter()
                .all(|&b| is_ws(b)),
            "{}",
            ctx()
        );
        let value = f.value.as_bytes(head);
        prop_assert!(value == trim(value), "untrimmed value {}", escape(value));
        prop_assert!(
            !value.iter().any(|&b| b == b'\r' || b == b'\n' || b == 0),
            "{}",
            ctx()
        );
        let after = &head[f.value.end()..];
        let ws = after.iter().take_while(|&&b| is_ws(b)).count();
        prop_assert!(after[ws..].starts_with(b"\r\n"), "{}", ctx());
        next_line = f.value.end() + ws + 2;
        prop_assert_eq!(f.known(), KnownHeader::from_name(name));
        // `find` gives the first field of that name; `get` the first of that known header.
        let first = snap
            .fields
            .iter()
            .find(|g| g.name.as_bytes(head).eq_ignore_ascii_case(name))
            .map(|g| g.value);
        prop_assert_eq!(parser.find_in(head, name), first, "find {}", escape(name));
    }
    prop_assert_eq!(next_line + 2, head_len, "{}", ctx());
    for (slot, &known) in KnownHeader::ALL.iter().enumerate() {
        let first = snap.fields.iter().find(|f| f.known() == Some(known));
        prop_assert_eq!(snap.gets[slot], first.map(|f| f.value));
    }
    prop_assert_eq!(parser.find_in(head, b"x-surely-absent-zz"), None);
    Ok(())
}

fn check_lenient_spans<P: HeadParser>(
    parser: &P,
    head: &[u8],
    lenient: &Leniency,
) -> Result<(), TestCaseError> {
    let snap = parser.snapshot();
    let ctx = || escape(head);
    prop_assert!(head.ends_with(b"\n"), "{}", ctx());
    let mut next = 0;
    for span in &snap.start {
        prop_assert!(
            span.off as usize >= next && span.end() <= head.len(),
            "{}",
            ctx()
        );
        next = span.end();
    }
    for f in &snap.fields {
        prop_assert!(f.name.off as usize >= next, "{}", ctx());
        prop_assert!(f.value.off as usize > f.name.end() && f.value.end() <= head.len());
        let name = f.name.as_bytes(head);
        prop_assert!(
            !name.is_empty() && name.iter().all(|&b| is_tchar(b)),
            "{}",
            ctx()
        );
        let between = &head[f.name.end()..f.value.off as usize];
        let colon = between.iter().position(|&b| b == b':');
        prop_assert!(colon.is_some(), "{}", ctx());
        let colon = colon.unwrap_or(0);
        prop_assert!(colon == 0 || lenient.space_before_colon, "{}", ctx());
        let value = f.value.as_bytes(head);
        let edge_ws = |b: &u8| is_ws(*b) || *b == b'\r' || *b == b'\n';
        prop_assert!(
            !value.first().is_some_and(edge_ws) && !value.last().is_some_and(edge_ws),
            "untrimmed value {}",
            escape(value)
        );
        prop_assert!(!value.contains(&0), "{}", ctx());
        let breaks = value.iter().any(|&b| b == b'\r' || b == b'\n');
        prop_assert!(!breaks || lenient.obs_fold, "{}", ctx());
        next = f.value.end();
        prop_assert_eq!(f.known(), KnownHeader::from_name(name));
    }
    Ok(())
}

/// `parse` resumed over growing prefixes, and fresh parsers on prefixes, agree with one call
/// on the whole buffer.
fn check_prefixes<P: HeadParser>(
    limits: &Limits,
    buf: &[u8],
    steps: &[Index],
    fresh_lens: &[Index],
) -> Result<Parsed, TestCaseError> {
    let mut whole_parser = P::fresh(limits);
    let whole = parse_once(&mut whole_parser, buf);
    let ctx = || format!("buffer {}, limits {:?}", escape(buf), limits);
    // A repeated call gives the same answer.
    prop_assert_eq!(&parse_once(&mut whole_parser, buf), &whole, "{}", ctx());
    if let Ok((Status::Complete { head_len }, _)) = whole {
        check_spans(&whole_parser, buf, head_len, &limits.lenient)?;
    }

    // Every prefix, resumed.
    let mut resumed = P::fresh(limits);
    let mut last = Ok((Status::Partial, None));
    for k in 0..=buf.len() {
        last = parse_once(&mut resumed, &buf[..k]);
        if last != Ok((Status::Partial, None)) {
            break;
        }
    }
    prop_assert_eq!(&last, &whole, "every prefix, resumed: {}", ctx());
    if let Ok((status @ Status::Complete { .. }, _)) = last {
        prop_assert_eq!(resumed.parse_buf(buf), Ok(status), "{}", ctx());
        prop_assert_eq!(Some(resumed.snapshot()), whole.clone().unwrap().1);
    }

    // Random increasing lengths, resumed.
    let mut lens: Vec<usize> = steps.iter().map(|i| i.index(buf.len() + 1)).collect();
    lens.sort_unstable();
    lens.push(buf.len());
    let mut resumed = P::fresh(limits);
    for &k in &lens {
        last = parse_once(&mut resumed, &buf[..k]);
        if last != Ok((Status::Partial, None)) {
            break;
        }
    }
    prop_assert_eq!(&last, &whole, "lengths {:?}, resumed: {}", lens, ctx());

    // Fresh parsers on prefixes: Partial up to some length, then the whole answer.
    let mut lens: Vec<usize> = fresh_lens.iter().map(|i| i.index(buf.len() + 1)).collect();
    lens.sort_unstable();
    let mut decided = None;
    for &k in &lens {
        let got = parse_once(&mut P::fresh(limits), &buf[..k]);
        if got == Ok((Status::Partial, None)) {
            prop_assert!(
                decided.is_none(),
                "prefix {} is Partial after prefix {:?} was not: {}",
                k,
                decided,
                ctx()
            );
            if let Ok((Status::Complete { head_len }, _)) = whole {
                prop_assert!(
                    k < head_len,
                    "prefix {} of a {}-byte head: {}",
                    k,
                    head_len,
                    ctx()
                );
            }
        } else {
            prop_assert_eq!(&got, &whole, "fresh parse of prefix {}: {}", k, ctx());
            decided.get_or_insert(k);
        }
    }
    Ok(whole)
}

// ------------------------------------------------------------------------------------------
// The grammar of valid messages.

/// A field line: name, and the raw value (with any surrounding whitespace) as sent.
#[derive(Clone, Debug)]
struct FieldSpec {
    name: B,
    raw: B,
}

/// A Connection field: its list items and the separators that follow each.
#[derive(Clone, Debug)]
struct ConnSpec {
    name: &'static str,
    items: Vec<(&'static str, &'static str)>,
    ows: (&'static str, &'static str),
}

#[derive(Clone, Debug)]
struct ExtSpec {
    before: &'static str,
    after_semi: &'static str,
    name: B,
    value: Option<(&'static str, &'static str, B)>,
}

#[derive(Clone, Debug)]
struct ChunkSpec {
    data: B,
    zeros: usize,
    upper: bool,
    exts: Vec<ExtSpec>,
}

#[derive(Clone, Debug)]
struct ChunkedSpec {
    te_name: &'static str,
    te_lines: &'static [&'static str],
    chunks: Vec<ChunkSpec>,
    last_zeros: usize,
    last_exts: Vec<ExtSpec>,
    trailers: Vec<FieldSpec>,
}

#[derive(Clone, Debug)]
enum BodySpec {
    /// No framing field: no body for a request, until close for a response.
    Plain(B),
    Length {
        name: &'static str,
        zeros: usize,
        ows: (&'static str, &'static str),
        data: B,
    },
    Chunked(ChunkedSpec),
    /// A response whose Transfer-Encoding does not end in chunked: until close.
    OtherCoding {
        te_lines: &'static [&'static str],
        data: B,
    },
}

#[derive(Clone, Debug)]
struct ReqSpec {
    leading: usize,
    method: B,
    target: B,
    http11: bool,
    host: Option<(&'static str, &'static str, B, &'static str)>,
    extras: Vec<(u8, FieldSpec)>,
    conns: Vec<(u8, ConnSpec)>,
    body: BodySpec,
    body_key: u8,
}

#[derive(Clone, Debug)]
struct InterimSpec {
    status: u16,
    reason: B,
    extras: Vec<FieldSpec>,
}

#[derive(Clone, Debug)]
struct ResSpec {
    interims: Vec<InterimSpec>,
    http11: bool,
    status: u16,
    reason: B,
    space_before_empty_reason: bool,
    extras: Vec<(u8, FieldSpec)>,
    conns: Vec<(u8, ConnSpec)>,
    body: BodySpec,
    body_key: u8,
    method: &'static str,
}

const METHODS: &[&str] = &[
    "GET",
    "POST",
    "PUT",
    "DELETE",
    "HEAD",
    "OPTIONS",
    "PATCH",
    "TRACE",
    "M-SEARCH",
    "PROPFIND",
    "get",
    "X",
    "BREW",
    "A1",
    "!#$%&'*+-.^_`|~",
    "connect",
];
const UNRESERVED_SUB: &[u8] =
    b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=";
const HEX: &[u8] = b"0123456789abcdefABCDEF";
const OWS: &[&str] = &["", "", " ", "\t", "  ", " \t "];
const BWS: &[&str] = &["", "", " ", "\t"];
const CONN_ITEMS: &[&str] = &[
    "close",
    "Close",
    "CLOSE",
    "keep-alive",
    "Keep-Alive",
    "keep-alive",
    "upgrade",
    "x-foo",
    "TE",
    "Upgrade",
    "x-bar",
];
const LIST_SEPS: &[&str] = &[",", ", ", " ,", " , ", ",,", ",\t"];
const HOSTS: &[&str] = &[
    "example.com",
    "localhost:8080",
    "127.0.0.1",
    "[::1]:443",
    "[2001:db8::7]",
    "ex%41mple.org",
    "",
    "h:",
    "a-b.c_d~e:65535",
    "!$&'()*+,;=",
];
const CHUNKED_TE: &[&[&str]] = &[
    &["chunked"],
    &["Chunked"],
    &["gzip, chunked"],
    &["gzip,chunked"],
    &["gzip", "chunked"],
    &[" x-y ;a=b , chunked"],
    &["deflate;level=\"1,2\", CHUNKED"],
    &[", chunked ,"],
];
const OTHER_TE: &[&[&str]] = &[
    &["gzip"],
    &["chunked, gzip"],
    &["x-custom"],
    &["chunked", "gzip"],
];
const SPECIAL_NAMES: &[&str] = &["host", "content-length", "transfer-encoding", "connection"];

fn token(len: Range<usize>) -> impl Strategy<Value = B> {
    vec(select(TCHAR), len).prop_map(B)
}

fn value_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        6 => 0x21u8..=0x7e,
        2 => 0x80u8..=0xff,
        1 => Just(b' '),
        1 => Just(b'\t'),
    ]
}

fn value_bytes(len: Range<usize>) -> impl Strategy<Value = B> {
    vec(value_byte(), len).prop_map(B)
}

fn pct() -> impl Strategy<Value = Vec<u8>> {
    (select(HEX), select(HEX)).prop_map(|(a, b)| vec![b'%', a, b])
}

fn target() -> impl Strategy<Value = B> {
    let path = prop_oneof![
        6 => select(UNRESERVED_SUB).prop_map(|b| vec![b]),
        1 => select(&b":@"[..]).prop_map(|b| vec![b]),
        1 => pct(),
        2 => Just(b"/".to_vec()),
    ];
    let query = prop_oneof![
        6 => select(UNRESERVED_SUB).prop_map(|b| vec![b]),
        2 => select(&b":@/?"[..]).prop_map(|b| vec![b]),
        1 => pct(),
    ];
    (vec(path, 0..16), proptest::option::of(vec(query, 0..12))).prop_map(|(path, query)| {
        let mut t = vec![b'/'];
        t.extend(path.concat());
        if let Some(q) = query {
            t.push(b'?');
            t.extend(q.concat());
        }
        B(t)
    })
}

fn method() -> impl Strategy<Value = B> {
    prop_oneof![
        3 => select(METHODS).prop_map(|m| B(m.as_bytes().to_vec())),
        1 => token(1..9),
    ]
    .prop_filter("CONNECT needs authority-form", |m| m.0 != b"CONNECT")
}

const TARGET_HOSTS: &[&str] = &[
    "example.com",
    "127.0.0.1",
    "[::1]",
    "[2001:db8::7]",
    "a-b.c_d~e",
    "ex%41mple",
];

/// A method and a request-target that go together: mostly origin-form with any method, and
/// sometimes absolute-form, `OPTIONS *` or `CONNECT host:port`.
fn method_and_target() -> impl Strategy<Value = (B, B)> {
    let absolute = (
        select(vec!["http", "https", "HTTP", "coap+tcp"]),
        select(TARGET_HOSTS),
        proptest::option::of(1u32..65536),
        proptest::option::of(target()),
    )
        .prop_map(|(scheme, host, port, path)| {
            let mut t = format!("{scheme}://{host}").into_bytes();
            if let Some(port) = port {
                t.extend(format!(":{port}").bytes());
            }
            if let Some(path) = path {
                t.extend(path.0);
            }
            B(t)
        });
    let authority = (select(TARGET_HOSTS), 0u32..65536)
        .prop_map(|(host, port)| B(format!("{host}:{port}").into_bytes()));
    prop_oneof![
        10 => (method(), target()),
        2 => (method(), absolute),
        1 => Just((B(b"OPTIONS".to_vec()), B(b"*".to_vec()))),
        1 => (Just(B(b"CONNECT".to_vec())), authority),
    ]
}

fn host_value() -> impl Strategy<Value = B> {
    prop_oneof![
        select(HOSTS).prop_map(|h| B(h.as_bytes().to_vec())),
        (
            vec(select(UNRESERVED_SUB), 1..10),
            proptest::option::of(vec(select(&b"0123456789"[..]), 0..6))
        )
            .prop_map(|(mut h, port)| {
                if let Some(port) = port {
                    h.push(b':');
                    h.extend(port);
                }
                B(h)
            }),
    ]
}

fn extra_field() -> impl Strategy<Value = FieldSpec> {
    let name = token(1..12).prop_filter("framing names are generated apart", |n| {
        !SPECIAL_NAMES
            .iter()
            .any(|s| n.0.eq_ignore_ascii_case(s.as_bytes()))
    });
    (name, value_bytes(0..24)).prop_map(|(name, raw)| FieldSpec { name, raw })
}

fn trailer_field() -> impl Strategy<Value = FieldSpec> {
    let name = prop_oneof![
        3 => token(1..12),
        1 => select(vec!["Content-Length", "Host", "Transfer-Encoding", "Connection"])
            .prop_map(|n| B(n.as_bytes().to_vec())),
    ];
    (name, value_bytes(0..24)).prop_map(|(name, raw)| FieldSpec { name, raw })
}

fn conn() -> impl Strategy<Value = ConnSpec> {
    (
        select(vec!["Connection", "connection", "CONNECTION"]),
        vec((select(CONN_ITEMS), select(LIST_SEPS)), 0..4),
        (select(OWS), select(OWS)),
    )
        .prop_map(|(name, items, ows)| ConnSpec { name, items, ows })
}

fn ext() -> impl Strategy<Value = ExtSpec> {
    let qdtext = prop_oneof![
        Just(b'\t'),
        Just(b' '),
        Just(0x21u8),
        0x23u8..=0x5b,
        0x5du8..=0x7e,
        0x80u8..=0xff,
    ];
    let quoted_part = prop_oneof![
        4 => qdtext.prop_map(|b| vec![b]),
        1 => value_byte().prop_map(|b| vec![b'\\', b]),
    ];
    let quoted = vec(quoted_part, 0..6).prop_map(|parts| {
        let mut q = vec![b'"'];
        q.extend(parts.concat());
        q.push(b'"');
        B(q)
    });
    let value = prop_oneof![token(1..6), quoted];
    (
        select(BWS),
        select(BWS),
        token(1..6),
        proptest::option::of((select(BWS), select(BWS), value)),
    )
        .prop_map(|(before, after_semi, name, value)| ExtSpec {
            before,
            after_semi,
            name,
            value,
        })
}

fn chunked() -> impl Strategy<Value = ChunkedSpec> {
    let chunk = (
        vec(any::<u8>(), 1..40),
        0..3usize,
        any::<bool>(),
        vec(ext(), 0..3),
    )
        .prop_map(|(data, zeros, upper, exts)| ChunkSpec {
            data: B(data),
            zeros,
            upper,
            exts,
        });
    (
        select(vec!["Transfer-Encoding", "transfer-encoding"]),
        select(CHUNKED_TE),
        vec(chunk, 0..4),
        1..4usize,
        vec(ext(), 0..2),
        vec(trailer_field(), 0..3),
    )
        .prop_map(
            |(te_name, te_lines, chunks, last_zeros, last_exts, trailers)| ChunkedSpec {
                te_name,
                te_lines,
                chunks,
                last_zeros,
                last_exts,
                trailers,
            },
        )
}

fn length_body() -> impl Strategy<Value = BodySpec> {
    (
        select(vec!["Content-Length", "content-length", "CONTENT-LENGTH"]),
        0..3usize,
        (select(OWS), select(OWS)),
        vec(any::<u8>(), 0..64),
    )
        .prop_map(|(name, zeros, ows, data)| BodySpec::Length {
            name,
            zeros,
            ows,
            data: B(data),
        })
}

fn request_body() -> impl Strategy<Value = BodySpec> {
    prop_oneof![
        1 => Just(BodySpec::Plain(B(Vec::new()))),
        1 => length_body(),
        2 => chunked().prop_map(BodySpec::Chunked),
    ]
}

fn response_body() -> impl Strategy<Value = BodySpec> {
    prop_oneof![
        1 => vec(any::<u8>(), 0..48).prop_map(|d| BodySpec::Plain(B(d))),
        2 => length_body(),
        2 => chunked().prop_map(BodySpec::Chunked),
        1 => (select(OTHER_TE), vec(any::<u8>(), 0..48))
            .prop_map(|(te_lines, d)| BodySpec::OtherCoding { te_lines, data: B(d) }),
    ]
}

prop_compose! {
    fn request_spec()(
        leading in 0..3usize,
        (method, target) in method_and_target(),
        http11 in prop::bool::weighted(0.8),
        host in (select(vec!["Host", "host", "HOST"]), select(OWS), host_value(), select(OWS)),
        omit_host in any::<bool>(),
        extras in vec((any::<u8>(), extra_field()), 0..6),
        conns in vec((any::<u8>(), conn()), 0..2),
        body in request_body(),
        body_key in any::<u8>(),
    ) -> ReqSpec {
        ReqSpec {
            leading,
            method,
            target,
            http11,
            host: (http11 || !omit_host).then_some(host),
            extras,
            conns,
            body,
            body_key,
        }
    }
}

prop_compose! {
    fn interim_spec()(
        status in select(vec![100u16, 102, 103]),
        reason in value_bytes(0..12),
        extras in vec(extra_field(), 0..3),
    ) -> InterimSpec {
        InterimSpec { status, reason, extras }
    }
}

prop_compose! {
    fn response_spec()(
        interims in vec(interim_spec(), 0..3),
        http11 in prop::bool::weighted(0.8),
        status in prop_oneof![
            3 => select(vec![200u16, 201, 204, 206, 301, 304, 400, 404, 500, 503, 599, 299, 101]),
            1 => 200u16..600,
        ],
        reason in prop_oneof![Just(B(Vec::new())), value_bytes(0..20)],
        space_before_empty_reason in any::<bool>(),
        extras in vec((any::<u8>(), extra_field()), 0..6),
        conns in vec((any::<u8>(), conn()), 0..2),
        body in response_body(),
        body_key in any::<u8>(),
        method in prop_oneof![
            6 => Just("GET"),
            2 => Just("POST"),
            2 => Just("HEAD"),
            1 => Just("CONNECT"),
        ],
    ) -> ResSpec {
        ResSpec {
            interims,
            http11,
            status,
            reason,
            space_before_empty_reason,
            extras,
            conns,
            body,
            body_key,
            method,
        }
    }
}

// ------------------------------------------------------------------------------------------
// Rendering a spec to bytes, and what the parser must report for it.

/// A field line rendered at `out[base..]`-relative position; returns what the parser reports.
fn push_field(out: &mut Vec<u8>, base: usize, name: &[u8], raw: &[u8]) -> FieldInfo {
    let line = out.len() - base;
    out.extend_from_slice(name);
    out.push(b':');
    out.extend_from_slice(raw);
    out.extend_from_slice(b"\r\n");
    let lead = raw.iter().take_while(|&&b| is_ws(b)).count();
    let value = trim(raw);
    FieldInfo {
        name: B(name.to_vec()),
        value: B(value.to_vec()),
        name_span: Span::new(line as u16, name.len() as u16),
        value_span: Span::new((line + name.len() + 1 + lead) as u16, value.len() as u16),
    }
}

fn ows_wrap(ows: (&str, &str), value: &[u8]) -> Vec<u8> {
    let mut v = ows.0.as_bytes().to_vec();
    v.extend_from_slice(value);
    v.extend_from_slice(ows.1.as_bytes());
    v
}

fn conn_value(c: &ConnSpec) -> Vec<u8> {
    let mut v = Vec::new();
    for (i, (item, sep)) in c.items.iter().enumerate() {
        v.extend_from_slice(item.as_bytes());
        if i + 1 < c.items.len() {
            v.extend_from_slice(sep.as_bytes());
        }
    }
    ows_wrap(c.ows, &v)
}

/// Keep-alive by version and Connection items (POLICY.md, Connection).
fn keep_alive(http11: bool, conns: &[(u8, ConnSpec)]) -> bool {
    let listed = |what: &str| {
        conns
            .iter()
            .flat_map(|(_, c)| c.items.iter())
            .any(|(item, _)| item.eq_ignore_ascii_case(what))
    };
    if listed("close") {
        false
    } else {
        http11 || listed("keep-alive")
    }
}

fn render_exts(out: &mut Vec<u8>, exts: &[ExtSpec]) {
    for e in exts {
        out.extend_from_slice(e.before.as_bytes());
        out.push(b';');
        out.extend_from_slice(e.after_semi.as_bytes());
        out.extend_from_slice(&e.name.0);
        if let Some((ws1, ws2, value)) = &e.value {
            out.extend_from_slice(ws1.as_bytes());
            out.push(b'=');
            out.extend_from_slice(ws2.as_bytes());
            out.extend_from_slice(&value.0);
        }
    }
}

/// A chunked body rendered onto `out`: the data, and the trailer section's range in `out`
/// with its fields.
struct RenderedChunked {
    data: Vec<u8>,
    body: Range<usize>,
    trailer_section: Range<usize>,
    trailers: Vec<FieldInfo>,
}

fn render_chunked(out: &mut Vec<u8>, spec: &ChunkedSpec) -> RenderedChunked {
    let start = out.len();
    let mut data = Vec::new();
    for c in &spec.chunks {
        let size = match c.upper {
            true => format!("{}{:X}", "0".repeat(c.zeros), c.data.0.len()),
            false => format!("{}{:x}", "0".repeat(c.zeros), c.data.0.len()),
        };
        out.extend_from_slice(size.as_bytes());
        render_exts(out, &c.exts);
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(&c.data.0);
        out.extend_from_slice(b"\r\n");
        data.extend_from_slice(&c.data.0);
    }
    out.extend_from_slice("0".repeat(spec.last_zeros).as_bytes());
    render_exts(out, &spec.last_exts);
    out.extend_from_slice(b"\r\n");
    let section = out.len();
    let trailers = spec
        .trailers
        .iter()
        .map(|f| push_field(out, section, &f.name.0, &f.raw.0))
        .collect();
    out.extend_from_slice(b"\r\n");
    RenderedChunked {
        data,
        body: start..out.len(),
        trailer_section: section..out.len(),
        trailers,
    }
}

/// One rendered message and what the decoder must report for it.
struct Rendered {
    msg: Msg,
    /// The decoder reads on after it.
    continues: bool,
    /// Stream offsets.
    range: Range<usize>,
    head_len: usize,
    chunked: Option<RenderedChunked>,
    /// The fields generated, for the oracle on `Request::parse`.
    method: Vec<u8>,
    target: Vec<u8>,
}

/// The framing fields of `body`, as (sort key, field line) pairs; the lines of one
/// Transfer-Encoding stay in order.
fn framing_fields(body: &BodySpec, http11: bool) -> Vec<(Vec<u8>, Vec<u8>)> {
    match body {
        BodySpec::Plain(_) => Vec::new(),
        BodySpec::Length {
            name,
            zeros,
            ows,
            data,
        } => {
            let value = format!("{}{}", "0".repeat(*zeros), data.0.len());
            vec![(name.as_bytes().to_vec(), ows_wrap(*ows, value.as_bytes()))]
        }
        BodySpec::Chunked(c) if http11 => c
            .te_lines
            .iter()
            .map(|l| (c.te_name.as_bytes().to_vec(), l.as_bytes().to_vec()))
            .collect(),
        BodySpec::OtherCoding { te_lines, .. } if http11 => te_lines
            .iter()
            .map(|l| (b"Transfer-Encoding".to_vec(), l.as_bytes().to_vec()))
            .collect(),
        // HTTP/1.0 has no Transfer-Encoding: the caller downgrades these.
        _ => unreachable!("downgraded before rendering"),
    }
}

/// HTTP/1.0 messages cannot be chunked: the same data with a Content-Length instead.
fn downgrade(body: &BodySpec, http11: bool) -> BodySpec {
    match body {
        BodySpec::Chunked(c) if !http11 => BodySpec::Length {
            name: "Content-Length",
            zeros: 0,
            ows: (" ", ""),
            data: B(c.chunks.iter().flat_map(|c| c.data.0.clone()).collect()),
        },
        BodySpec::OtherCoding { data, .. } if !http11 => BodySpec::Plain(data.clone()),
        other => other.clone(),
    }
}

/// The field lines of a head in wire order: extras, Connection and framing fields sorted by
/// their keys (stable, so the lines of one field keep their order).
fn ordered_fields(
    first: Vec<(Vec<u8>, Vec<u8>)>,
    extras: &[(u8, FieldSpec)],
    conns: &[(u8, ConnSpec)],
    framing: Vec<(Vec<u8>, Vec<u8>)>,
    framing_key: u8,
) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut keyed: Vec<(u8, Vec<u8>, Vec<u8>)> = Vec::new();
    for (k, f) in extras {
        keyed.push((*k, f.name.0.clone(), f.raw.0.clone()));
    }
    for (k, c) in conns {
        keyed.push((*k, c.name.as_bytes().to_vec(), conn_value(c)));
    }
    for (n, v) in framing {
        keyed.push((framing_key, n, v));
    }
    keyed.sort_by_key(|(k, _, _)| *k);
    first
        .into_iter()
        .chain(keyed.into_iter().map(|(_, n, v)| (n, v)))
        .collect()
}

fn render_request(out: &mut Vec<u8>, spec: &ReqSpec) -> Rendered {
    let start = out.len();
    for _ in 0..spec.leading {
        out.extend_from_slice(b"\r\n");
    }
    let version = if spec.http11 { "HTTP/1.1" } else { "HTTP/1.0" };
    out.extend_from_slice(&spec.method.0);
    out.push(b' ');
    out.extend_from_slice(&spec.target.0);
    out.push(b' ');
    out.extend_from_slice(version.as_bytes());
    out.extend_from_slice(b"\r\n");
    let body = downgrade(&spec.body, spec.http11);
    // Host first or anywhere: it gets a key like the others.
    let mut extras = spec.extras.clone();
    if let Some((name, ows1, value, ows2)) = &spec.host {
        let raw = ows_wrap((ows1, ows2), &value.0);
        extras.push((
            spec.body_key.wrapping_mul(7),
            FieldSpec {
                name: B(name.as_bytes().to_vec()),
                raw: B(raw),
            },
        ));
    }
    let lines = ordered_fields(
        Vec::new(),
        &extras,
        &spec.conns,
        framing_fields(&body, spec.http11),
        spec.body_key,
    );
    let fields: Vec<FieldInfo> = lines
        .iter()
        .map(|(n, v)| push_field(out, start, n, v))
        .collect();
    out.extend_from_slice(b"\r\n");
    let head_len = out.len() - start;
    let keep = keep_alive(spec.http11, &spec.conns);
    let (framing, content_length, is_chunked) = match &body {
        BodySpec::Plain(_) => (Framing::NoBody, None, false),
        BodySpec::Length { data, .. } => {
            let n = data.0.len() as u64;
            (Framing::Length(n), Some(n), false)
        }
        BodySpec::Chunked(_) => (Framing::Chunked, None, true),
        BodySpec::OtherCoding { .. } => unreachable!("requests have no other coding"),
    };
    let (data, chunked) = match &body {
        BodySpec::Length { data, .. } => {
            out.extend_from_slice(&data.0);
            (data.0.clone(), None)
        }
        BodySpec::Chunked(c) => {
            let r = render_chunked(out, c);
            (r.data.clone(), Some(r))
        }
        _ => (Vec::new(), None),
    };
    let trailers = chunked
        .as_ref()
        .filter(|c| !c.trailers.is_empty())
        .map(|c| (c.trailer_section.start as u64, c.trailers.clone()));
    let head = HeadInfo {
        offset: start as u64,
        len: head_len,
        method: spec.method.clone(),
        target: spec.target.clone(),
        status: 0,
        reason: B(Vec::new()),
        version: if spec.http11 {
            Version::Http11
        } else {
            Version::Http10
        },
        fields,
        content_length,
        chunked: is_chunked,
        keep_alive: keep,
        framing,
        interim: false,
    };
    Rendered {
        msg: Msg {
            head,
            body: B(data),
            trailers,
            ended: true,
        },
        continues: keep,
        range: start..out.len(),
        head_len,
        chunked,
        method: spec.method.0.clone(),
        target: spec.target.0.clone(),
    }
}

fn status_line(out: &mut Vec<u8>, http11: bool, status: u16, reason: &[u8], space: bool) {
    let version = if http11 { "HTTP/1.1" } else { "HTTP/1.0" };
    out.extend_from_slice(format!("{version} {status}").as_bytes());
    if space || !reason.is_empty() {
        out.push(b' ');
    }
    out.extend_from_slice(reason);
    out.extend_from_slice(b"\r\n");
}

fn render_interim(out: &mut Vec<u8>, spec: &InterimSpec) -> Rendered {
    let start = out.len();
    status_line(out, true, spec.status, &spec.reason.0, true);
    let fields = spec
        .extras
        .iter()
        .map(|f| push_field(out, start, &f.name.0, &f.raw.0))
        .collect();
    out.extend_from_slice(b"\r\n");
    let head_len = out.len() - start;
    Rendered {
        msg: Msg {
            head: HeadInfo {
                offset: start as u64,
                len: head_len,
                method: B(Vec::new()),
                target: B(Vec::new()),
                status: spec.status,
                reason: spec.reason.clone(),
                version: Version::Http11,
                fields,
                content_length: None,
                chunked: false,
                keep_alive: true,
                framing: Framing::NoBody,
                interim: true,
            },
            body: B(Vec::new()),
            trailers: None,
            ended: true,
        },
        continues: true,
        range: start..out.len(),
        head_len,
        chunked: None,
        method: Vec::new(),
        target: Vec::new(),
    }
}

fn render_response(out: &mut Vec<u8>, spec: &ResSpec) -> Rendered {
    let start = out.len();
    status_line(
        out,
        spec.http11,
        spec.status,
        &spec.reason.0,
        spec.space_before_empty_reason,
    );
    let body = downgrade(&spec.body, spec.http11);
    let lines = ordered_fields(
        Vec::new(),
        &spec.extras,
        &spec.conns,
        framing_fields(&body, spec.http11),
        spec.body_key,
    );
    let fields: Vec<FieldInfo> = lines
        .iter()
        .map(|(n, v)| push_field(out, start, n, v))
        .collect();
    out.extend_from_slice(b"\r\n");
    let head_len = out.len() - start;
    let status = spec.status;
    let switches = status == 101 || (spec.method == "CONNECT" && (200..300).contains(&status));
    let no_body =
        status < 200 || status == 204 || status == 304 || spec.method == "HEAD" || switches;
    let content_length = match &body {
        BodySpec::Length { data, .. } => Some(data.0.len() as u64),
        _ => None,
    };
    let framing = match (&body, no_body) {
        (_, true) => Framing::NoBody,
        (BodySpec::Length { data, .. }, false) => Framing::Length(data.0.len() as u64),
        (BodySpec::Chunked(_), false) => Framing::Chunked,
        (BodySpec::Plain(_) | BodySpec::OtherCoding { .. }, false) => Framing::UntilClose,
    };
    let (data, chunked) = match (&body, framing) {
        (_, Framing::NoBody) => (Vec::new(), None),
        (BodySpec::Length { data, .. }, _)
        | (BodySpec::Plain(data), _)
        | (BodySpec::OtherCoding { data, .. }, _) => {
            out.extend_from_slice(&data.0);
            (data.0.clone(), None)
        }
        (BodySpec::Chunked(c), _) => {
            let r = render_chunked(out, c);
            (r.data.clone(), Some(r))
        }
    };
    let keep = keep_alive(spec.http11, &spec.conns) && framing != Framing::UntilClose;
    let trailers = chunked
        .as_ref()
        .filter(|c| !c.trailers.is_empty())
        .map(|c| (c.trailer_section.start as u64, c.trailers.clone()));
    Rendered {
        msg: Msg {
            head: HeadInfo {
                offset: start as u64,
                len: head_len,
                method: B(Vec::new()),
                target: B(Vec::new()),
                status,
                reason: spec.reason.clone(),
                version: if spec.http11 {
                    Version::Http11
                } else {
                    Version::Http10
                },
                fields,
                content_length,
                // A response without a body is not chunked, whatever its fields say.
                chunked: framing == Framing::Chunked,
                keep_alive: keep,
                framing,
                interim: false,
            },
            body: B(data),
            trailers,
            ended: true,
        },
        continues: keep && !switches,
        range: start..out.len(),
        head_len,
        chunked,
        method: Vec::new(),
        target: Vec::new(),
    }
}

/// A whole stream: its bytes, the methods answered, each message rendered, and the trace
/// the decoder must produce.
struct Stream {
    kind: MessageKind,
    wire: Vec<u8>,
    methods: Vec<Vec<u8>>,
    rendered: Vec<Rendered>,
    expected: Trace,
}

/// Messages after one that closes the connection are still sent (and ignored), then `tail`;
/// nothing follows a body that runs to the end of the stream.
fn finish_stream(
    kind: MessageKind,
    mut wire: Vec<u8>,
    methods: Vec<Vec<u8>>,
    rendered: Vec<Rendered>,
    tail: &[u8],
) -> Stream {
    let mut msgs = Vec::new();
    let mut position = None;
    for r in &rendered {
        msgs.push(r.msg.clone());
        if !r.continues {
            if r.msg.head.framing == Framing::UntilClose {
                wire.truncate(r.range.end);
            } else {
                wire.extend_from_slice(tail);
                position = Some(r.range.end as u64);
            }
            break;
        }
    }
    let position = position.unwrap_or(wire.len() as u64);
    Stream {
        kind,
        wire,
        methods,
        rendered,
        expected: Trace {
            msgs,
            end: End::Closed { position },
        },
    }
}

fn request_stream(specs: &[ReqSpec], tail: &[u8]) -> Stream {
    let mut wire = Vec::new();
    let rendered = specs.iter().map(|s| render_request(&mut wire, s)).collect();
    finish_stream(MessageKind::Request, wire, Vec::new(), rendered, tail)
}

fn response_stream(specs: &[ResSpec], tail: &[u8]) -> Stream {
    let mut wire = Vec::new();
    let mut rendered = Vec::new();
    let mut methods = Vec::new();
    for s in specs {
        for i in &s.interims {
            rendered.push(render_interim(&mut wire, i));
        }
        rendered.push(render_response(&mut wire, s));
        methods.push(s.method.as_bytes().to_vec());
    }
    finish_stream(MessageKind::Response, wire, methods, rendered, tail)
}

fn requests() -> impl Strategy<Value = Stream> {
    (vec(request_spec(), 1..4), vec(any::<u8>(), 0..12))
        .prop_map(|(specs, tail)| request_stream(&specs, &tail))
}

fn responses() -> impl Strategy<Value = Stream> {
    (vec(response_spec(), 1..4), vec(any::<u8>(), 0..12))
        .prop_map(|(specs, tail)| response_stream(&specs, &tail))
}

impl fmt::Debug for Stream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} stream {} answering {:?}",
            self.kind,
            escape(&self.wire),
            self.methods.iter().map(|m| escape(m)).collect::<Vec<_>>()
        )
    }
}

// ------------------------------------------------------------------------------------------
// Mutations and limits.

#[derive(Clone, Debug)]
enum Mutation {
    Flip(Index, u8),
    Set(Index, u8),
    Insert(Index, u8),
    Delete(Index),
    /// The stream ends early.
    Truncate(Index),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let special = prop_oneof![
        4 => select(&b"\r\n\0 \t:,;\"=%"[..]),
        1 => any::<u8>(),
    ];
    prop_oneof![
        2 => (any::<Index>(), 1u8..=255).prop_map(|(i, x)| Mutation::Flip(i, x)),
        2 => (any::<Index>(), special.clone()).prop_map(|(i, b)| Mutation::Set(i, b)),
        3 => (any::<Index>(), special).prop_map(|(i, b)| Mutation::Insert(i, b)),
        2 => any::<Index>().prop_map(Mutation::Delete),
        1 => any::<Index>().prop_map(Mutation::Truncate),
    ]
}

fn mutate(mut input: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for m in mutations {
        match m {
            Mutation::Insert(i, b) => {
                let at = i.index(input.len() + 1);
                input.insert(at, *b);
            }
            _ if input.is_empty() => {}
            Mutation::Flip(i, x) => {
                let at = i.index(input.len());
                input[at] ^= x;
            }
            Mutation::Set(i, b) => {
                let at = i.index(input.len());
                input[at] = *b;
            }
            Mutation::Delete(i) => {
                let at = i.index(input.len());
                input.remove(at);
            }
            Mutation::Truncate(i) => {
                let at = i.index(input.len());
                input.truncate(at);
            }
        }
    }
    input
}

/// No option, one, or any set of them.
fn leniency() -> impl Strategy<Value = Leniency> {
    let any_set = vec(any::<bool>(), 7).prop_map(|on| {
        let mut lenient = Leniency::STRICT;
        for (name, _) in Leniency::NAMES.iter().zip(on).filter(|(_, on)| *on) {
            lenient.enable(name);
        }
        lenient
    });
    prop_oneof![
        2 => Just(Leniency::STRICT),
        1 => select(&Leniency::NAMES[..]).prop_map(|name| {
            let mut lenient = Leniency::STRICT;
            lenient.enable(name);
            lenient
        }),
        1 => any_set,
    ]
}

fn all_options() -> Leniency {
    let mut lenient = Leniency::STRICT;
    for name in Leniency::NAMES {
        lenient.enable(name);
    }
    lenient
}

/// The default limits, or small ones that generated messages run into, with any lenient
/// options.
fn limits() -> impl Strategy<Value = Limits> {
    (strict_limits(), leniency()).prop_map(|(mut limits, lenient)| {
        limits.lenient = lenient;
        limits
    })
}

/// The default limits, or small ones that generated messages run into.
fn strict_limits() -> impl Strategy<Value = Limits> {
    let d = Limits::DEFAULT;
    // Each limit is the default or a small one, so that every limit is met on its own.
    let small = (
        prop_oneof![Just(d.max_head_bytes), 16u16..400],
        prop_oneof![Just(d.max_field_lines), 1u16..10],
        prop_oneof![Just(d.max_chunk_ext_bytes), 0u32..40],
        prop_oneof![Just(d.max_trailer_bytes), 2u32..120],
        prop_oneof![Just(None), (0u64..120).prop_map(Some)],
    )
        .prop_map(|(head, lines, ext, trailer, body)| {
            let mut l = Limits::DEFAULT;
            l.max_head_bytes = head;
            l.max_field_lines = lines;
            l.max_chunk_ext_bytes = ext;
            l.max_trailer_bytes = trailer;
            l.max_body_bytes = body;
            l
        });
    prop_oneof![1 => Just(Limits::DEFAULT), 2 => small]
}

/// Mostly the buffer the limits need; sometimes a smaller one, which lowers them.
fn buf_len() -> impl Strategy<Value = Option<usize>> {
    prop_oneof![3 => Just(None), 1 => (1usize..400).prop_map(Some)]
}

// ------------------------------------------------------------------------------------------
// The properties.

fn cuttings() -> impl Strategy<Value = Vec<Vec<Index>>> {
    vec(vec(any::<Index>(), 0..8), 2..4)
}

fn prefix_lens() -> impl Strategy<Value = (Vec<Index>, Vec<Index>)> {
    (vec(any::<Index>(), 0..10), vec(any::<Index>(), 0..12))
}

/// Everything a valid stream must satisfy, with the generator as oracle.
fn check_valid(
    stream: &Stream,
    cuts: &[Vec<Index>],
    lens: &(Vec<Index>, Vec<Index>),
) -> Result<(), TestCaseError> {
    let limits = Limits::DEFAULT;
    let wire = &stream.wire;
    let setup = Setup {
        kind: stream.kind,
        limits,
        buf_len: None,
    };
    let trace = split_invariant_trace(&setup, &stream.methods, wire, cuts)?;
    prop_assert_eq!(&trace, &stream.expected, "input {}", escape(wire));
    // Leniency changes nothing in a message the strict parser accepts.
    let mut lenient = setup;
    lenient.limits.lenient = all_options();
    let trace = decode_trace(&lenient, &stream.methods, wire, &[]).map_err(TestCaseError::fail)?;
    prop_assert_eq!(
        &trace,
        &stream.expected,
        "all options, input {}",
        escape(wire)
    );

    // The first head on its own, from the start of the stream.
    let first = &stream.rendered[0];
    let complete = Ok(Status::Complete {
        head_len: first.head_len,
    });
    match stream.kind {
        MessageKind::Request => {
            let whole = check_prefixes::<Request>(&limits, wire, &lens.0, &lens.1)?;
            let (status, snap) = whole
                .map_err(|e| TestCaseError::fail(format!("{e:?} for valid {}", escape(wire))))?;
            prop_assert_eq!(Ok(status), complete);
            let snap = snap.unwrap();
            prop_assert_eq!(snap.start[0].as_bytes(wire), &first.method[..]);
            prop_assert_eq!(snap.start[1].as_bytes(wire), &first.target[..]);
            let got = field_infos(&snap.fields, wire);
            prop_assert_eq!(&got, &first.msg.head.fields);
            // With 4 slots, a fifth field line is reported at the empty line.
            let four = Request::<4>::fresh(&limits).parse(wire);
            let n = first.msg.head.fields.len();
            if n > 4 {
                let err = four.unwrap_err();
                prop_assert_eq!(err.kind(), ErrorKind::FieldSlotsExhausted);
                prop_assert_eq!(
                    err.offset(),
                    first.msg.head.fields[4].name_span.off as usize
                );
                prop_assert_eq!(err.needed_slots(), Some(n));
            } else {
                prop_assert_eq!(four, complete);
            }
        }
        MessageKind::Response => {
            let whole = check_prefixes::<Response>(&limits, wire, &lens.0, &lens.1)?;
            let (status, snap) = whole
                .map_err(|e| TestCaseError::fail(format!("{e:?} for valid {}", escape(wire))))?;
            prop_assert_eq!(Ok(status), complete);
            let snap = snap.unwrap();
            prop_assert_eq!(snap.status, first.msg.head.status);
            prop_assert_eq!(snap.start[0].as_bytes(wire), &first.msg.head.reason.0[..]);
            prop_assert_eq!(&field_infos(&snap.fields, wire), &first.msg.head.fields);
        }
    }

    // Each chunked body through a ChunkedDecoder, and its trailer section through Trailers.
    for r in &stream.rendered {
        let Some(c) = &r.chunked else { continue };
        if wire.len() < c.trailer_section.end {
            continue;
        }
        let body = &wire[c.body.start..];
        let mut decoder = ChunkedDecoder::new();
        let (mut pos, mut data) = (0, Vec::new());
        loop {
            let (used, chunk) = decoder
                .decode(&body[pos..], &limits)
                .map_err(|e| TestCaseError::fail(format!("{e:?} in {}", escape(body))))?;
            match chunk {
                Chunk::Data(range) => data.extend_from_slice(&body[pos..][range]),
                Chunk::TrailerSection => {
                    pos += used;
                    break;
                }
                Chunk::NeedMore => prop_assert!(false, "the whole body is there"),
                other => prop_assert!(false, "unexpected {:?}", other),
            }
            pos += used;
        }
        prop_assert!(decoder.is_done());
        prop_assert_eq!(B(data), B(c.data.clone()));
        prop_assert_eq!(c.body.start + pos, c.trailer_section.start);
        let section = &wire[c.trailer_section.start..];
        let whole = check_prefixes::<Trailers>(&limits, section, &lens.0, &lens.1)?;
        let (status, snap) = whole
            .map_err(|e| TestCaseError::fail(format!("{e:?} for trailers {}", escape(section))))?;
        prop_assert_eq!(
            status,
            Status::Complete {
                head_len: c.trailer_section.len()
            }
        );
        prop_assert_eq!(&field_infos(&snap.unwrap().fields, section), &c.trailers);
    }
    Ok(())
}

/// What any input must satisfy: split invariance of the decoder and of the head parsers.
fn check_any(
    setup: &Setup,
    methods: &[Vec<u8>],
    input: &[u8],
    cuts: &[Vec<Index>],
    lens: &(Vec<Index>, Vec<Index>),
    trailer_start: &Index,
) -> Result<(), TestCaseError> {
    split_invariant_trace(setup, methods, input, cuts)?;
    let limits = &setup.limits;
    match setup.kind {
        MessageKind::Request => {
            let _ = check_prefixes::<Request>(limits, input, &lens.0, &lens.1)?;
            let _ = check_prefixes::<Request<4>>(limits, input, &lens.0, &lens.1)?;
        }
        MessageKind::Response => {
            let _ = check_prefixes::<Response>(limits, input, &lens.0, &lens.1)?;
            let _ = check_prefixes::<Response<4>>(limits, input, &lens.0, &lens.1)?;
        }
    }
    let from = trailer_start.index(input.len() + 1);
    let _ = check_prefixes::<Trailers>(limits, &input[from..], &lens.0, &lens.1)?;
    Ok(())
}

/// Leniency only turns errors into messages: a strict trace that ends without an error is the
/// lenient trace, and one that ends in an error is where the lenient trace may go on, with the
/// same heads and the same complete messages before it.
fn check_lenient_extends_strict(
    setup: &Setup,
    methods: &[Vec<u8>],
    input: &[u8],
) -> Result<(), TestCaseError> {
    let strict = decode_trace(setup, methods, input, &[]).map_err(TestCaseError::fail)?;
    let mut lenient_setup = *setup;
    lenient_setup.limits.lenient = all_options();
    let lenient = decode_trace(&lenient_setup, methods, input, &[]).map_err(TestCaseError::fail)?;
    let ctx = || format!("input {}, {:?}", escape(input), setup);
    match strict.end {
        End::Error { .. } => {
            prop_assert!(lenient.msgs.len() >= strict.msgs.len(), "{}", ctx());
            for (s, l) in strict.msgs.iter().zip(&lenient.msgs) {
                prop_assert_eq!(&s.head, &l.head, "{}", ctx());
                if s.ended {
                    prop_assert_eq!(s, l, "{}", ctx());
                }
            }
        }
        _ => prop_assert_eq!(&lenient, &strict, "{}", ctx()),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        // Miri runs each case about a thousand times slower: a few cases still run every line.
        cases: if cfg!(miri) { 3 } else { ProptestConfig::default().cases },
        max_shrink_iters: 2048,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn valid_requests_parse_as_generated_however_split(
        stream in requests(),
        cuts in cuttings(),
        lens in prefix_lens(),
    ) {
        check_valid(&stream, &cuts, &lens)?;
    }

    #[test]
    fn valid_responses_parse_as_generated_however_split(
        stream in responses(),
        cuts in cuttings(),
        lens in prefix_lens(),
    ) {
        check_valid(&stream, &cuts, &lens)?;
    }

    #[test]
    fn mutated_requests_give_the_same_outcome_however_split(
        stream in requests(),
        mutations in vec(mutation(), 0..5),
        limits in limits(),
        buf_len in buf_len(),
        cuts in cuttings(),
        lens in prefix_lens(),
        trailer_start in any::<Index>(),
    ) {
        let input = mutate(stream.wire.clone(), &mutations);
        let setup = Setup { kind: stream.kind, limits, buf_len };
        check_any(&setup, &stream.methods, &input, &cuts, &lens, &trailer_start)?;
    }

    #[test]
    fn mutated_responses_give_the_same_outcome_however_split(
        stream in responses(),
        mutations in vec(mutation(), 0..5),
        limits in limits(),
        buf_len in buf_len(),
        cuts in cuttings(),
        lens in prefix_lens(),
        trailer_start in any::<Index>(),
    ) {
        let input = mutate(stream.wire.clone(), &mutations);
        let setup = Setup { kind: stream.kind, limits, buf_len };
        check_any(&setup, &stream.methods, &input, &cuts, &lens, &trailer_start)?;
    }

    #[test]
    fn leniency_only_turns_errors_into_messages(
        stream in prop_oneof![requests(), responses()],
        mutations in vec(mutation(), 0..5),
        limits in strict_limits(),
        buf_len in buf_len(),
    ) {
        let input = mutate(stream.wire.clone(), &mutations);
        let setup = Setup { kind: stream.kind, limits, buf_len };
        check_lenient_extends_strict(&setup, &stream.methods, &input)?;
    }
}
