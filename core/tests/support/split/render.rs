//! A spec rendered to bytes, with what the parser must report for it: the generator's second
//! role, the oracle of the valid-message properties.

use std::fmt;
use std::ops::Range;

use httpspan::stream::MessageKind;
use httpspan::{Framing, Span, Version};
use proptest::collection::vec;
use proptest::prelude::*;

use super::decode::{End, FieldInfo, HeadInfo, LineInfo, Msg, Trace};
use super::generator::{
    request_spec, response_spec, BodySpec, ChunkedSpec, ConnSpec, ExtSpec, FieldSpec, InterimSpec,
    ReqSpec, ResSpec,
};
use super::{escape, is_ws, trim, B};

/// A field line rendered at `out[base..]`-relative position; returns what the parser reports.
pub fn push_field(out: &mut Vec<u8>, base: usize, name: &[u8], raw: &[u8]) -> FieldInfo {
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

pub fn ows_wrap(ows: (&str, &str), value: &[u8]) -> Vec<u8> {
    let mut v = ows.0.as_bytes().to_vec();
    v.extend_from_slice(value);
    v.extend_from_slice(ows.1.as_bytes());
    v
}

pub fn conn_value(c: &ConnSpec) -> Vec<u8> {
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
pub fn keep_alive(http11: bool, conns: &[(u8, ConnSpec)]) -> bool {
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

pub fn render_exts(out: &mut Vec<u8>, exts: &[ExtSpec]) {
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
pub struct RenderedChunked {
    pub data: Vec<u8>,
    /// Each chunk line, the last chunk's too, as the decoder reports it.
    pub lines: Vec<LineInfo>,
    pub body: Range<usize>,
    pub trailer_section: Range<usize>,
    pub trailers: Vec<FieldInfo>,
}

pub fn render_chunked(out: &mut Vec<u8>, spec: &ChunkedSpec) -> RenderedChunked {
    let start = out.len();
    let mut data = Vec::new();
    let mut lines = Vec::new();
    let mut line = |out: &mut Vec<u8>, size: usize, digits: &str, exts: &[ExtSpec]| {
        let line_start = out.len();
        out.extend_from_slice(digits.as_bytes());
        render_exts(out, exts);
        let ext_len = out.len() - line_start - digits.len();
        out.extend_from_slice(b"\r\n");
        lines.push((
            line_start as u64,
            digits.len() as u8,
            ext_len as u32,
            2,
            size as u64,
        ));
    };
    for c in &spec.chunks {
        let size = c.data.0.len();
        let digits = match c.upper {
            true => format!("{}{size:X}", "0".repeat(c.zeros)),
            false => format!("{}{size:x}", "0".repeat(c.zeros)),
        };
        line(out, size, &digits, &c.exts);
        out.extend_from_slice(&c.data.0);
        out.extend_from_slice(b"\r\n");
        data.extend_from_slice(&c.data.0);
    }
    line(out, 0, &"0".repeat(spec.last_zeros), &spec.last_exts);
    let section = out.len();
    let trailers = spec
        .trailers
        .iter()
        .map(|f| push_field(out, section, &f.name.0, &f.raw.0))
        .collect();
    out.extend_from_slice(b"\r\n");
    RenderedChunked {
        data,
        lines,
        body: start..out.len(),
        trailer_section: section..out.len(),
        trailers,
    }
}

/// One rendered message and what the decoder must report for it.
pub struct Rendered {
    pub msg: Msg,
    /// The decoder reads on after it.
    pub continues: bool,
    /// Stream offsets.
    pub range: Range<usize>,
    pub head_len: usize,
    pub chunked: Option<RenderedChunked>,
    /// The fields generated, for the oracle on `Request::parse`.
    pub method: Vec<u8>,
    pub target: Vec<u8>,
}

/// The framing fields of `body`, as (sort key, field line) pairs; the lines of one
/// Transfer-Encoding stay in order.
pub fn framing_fields(body: &BodySpec, http11: bool) -> Vec<(Vec<u8>, Vec<u8>)> {
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

/// The field lines of a head and the empty line that ends it, as the parser must report them.
fn push_field_section(
    out: &mut Vec<u8>,
    base: usize,
    lines: &[(Vec<u8>, Vec<u8>)],
) -> Vec<FieldInfo> {
    let fields = lines
        .iter()
        .map(|(n, v)| push_field(out, base, n, v))
        .collect();
    out.extend_from_slice(b"\r\n");
    fields
}

/// HTTP/1.0 messages cannot be chunked: the same data with a Content-Length instead.
pub fn downgrade(body: &BodySpec, http11: bool) -> BodySpec {
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
pub fn ordered_fields(
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

pub fn render_request(out: &mut Vec<u8>, spec: &ReqSpec) -> Rendered {
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
    let fields = push_field_section(out, start, &lines);
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
            chunk_lines: Vec::new(),
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

pub fn status_line(out: &mut Vec<u8>, http11: bool, status: u16, reason: &[u8], space: bool) {
    let version = if http11 { "HTTP/1.1" } else { "HTTP/1.0" };
    out.extend_from_slice(format!("{version} {status}").as_bytes());
    if space || !reason.is_empty() {
        out.push(b' ');
    }
    out.extend_from_slice(reason);
    out.extend_from_slice(b"\r\n");
}

pub fn render_interim(out: &mut Vec<u8>, spec: &InterimSpec) -> Rendered {
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
            chunk_lines: Vec::new(),
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

pub fn render_response(out: &mut Vec<u8>, spec: &ResSpec) -> Rendered {
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
    let fields = push_field_section(out, start, &lines);
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
            chunk_lines: Vec::new(),
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
pub struct Stream {
    pub kind: MessageKind,
    pub wire: Vec<u8>,
    pub methods: Vec<Vec<u8>>,
    pub rendered: Vec<Rendered>,
    pub expected: Trace,
}

/// Messages after one that closes the connection are still sent (and ignored), then `tail`;
/// nothing follows a body that runs to the end of the stream.
pub fn finish_stream(
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

pub fn request_stream(specs: &[ReqSpec], tail: &[u8]) -> Stream {
    let mut wire = Vec::new();
    let rendered = specs.iter().map(|s| render_request(&mut wire, s)).collect();
    finish_stream(MessageKind::Request, wire, Vec::new(), rendered, tail)
}

pub fn response_stream(specs: &[ResSpec], tail: &[u8]) -> Stream {
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

pub fn requests() -> impl Strategy<Value = Stream> {
    (vec(request_spec(), 1..4), vec(any::<u8>(), 0..12))
        .prop_map(|(specs, tail)| request_stream(&specs, &tail))
}

pub fn responses() -> impl Strategy<Value = Stream> {
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
