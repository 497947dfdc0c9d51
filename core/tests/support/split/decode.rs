//! The stream decoder fed in pieces: a message stream cut at given points, what the decoder
//! reported (normalised so that different cuttings compare equal), and the check that every
//! cutting gives the trace of the whole input.

use httpspan::stream::{buffer_len, Decoder, Event, MessageKind};
use httpspan::{ErrorKind, Field, Framing, Limits, Span, Version};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::TestCaseError;

use super::{escape, B};

/// One field as the parser reported it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldInfo {
    pub name: B,
    pub value: B,
    pub name_span: Span,
    pub value_span: Span,
}

/// A head as the decoder reported it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeadInfo {
    pub offset: u64,
    pub len: usize,
    pub method: B,
    pub target: B,
    pub status: u16,
    pub reason: B,
    pub version: Version,
    pub fields: Vec<FieldInfo>,
    pub content_length: Option<u64>,
    pub chunked: bool,
    pub keep_alive: bool,
    pub framing: Framing,
    pub interim: bool,
}

/// A chunk line in stream offsets: its first byte, the lengths of its digits, chunk-ext and
/// line end, and its chunk-size.
pub type LineInfo = (u64, u8, u32, u8, u64);

/// One message: its head, its body bytes joined, its chunk lines (when reported), its trailers,
/// whether it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Msg {
    pub head: HeadInfo,
    pub body: B,
    pub chunk_lines: Vec<LineInfo>,
    pub trailers: Option<(u64, Vec<FieldInfo>)>,
    pub ended: bool,
}

/// How the stream ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    Closed { position: u64 },
    Incomplete { position: u64 },
    Error { kind: ErrorKind, offset: usize },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    pub msgs: Vec<Msg>,
    pub end: End,
}

pub fn field_infos(fields: &[Field], buf: &[u8]) -> Vec<FieldInfo> {
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

pub fn capture_head(decoder: &Decoder<Vec<u8>>) -> HeadInfo {
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
pub struct Setup {
    pub kind: MessageKind,
    pub limits: Limits,
    pub buf_len: Option<usize>,
}

/// Feeds `input` to a fresh decoder in pieces that end at `cuts` (sorted, duplicates give empty
/// pieces), then finishes the stream. `Err` describes a broken protocol promise.
pub fn decode_trace(
    setup: &Setup,
    methods: &[Vec<u8>],
    input: &[u8],
    cuts: &[usize],
) -> Result<Trace, String> {
    decode_trace_reporting(setup, methods, input, cuts, false)
}

/// [`decode_trace`], with chunk lines reported and recorded if `lines`.
pub fn decode_trace_reporting(
    setup: &Setup,
    methods: &[Vec<u8>],
    input: &[u8],
    cuts: &[usize],
    lines: bool,
) -> Result<Trace, String> {
    let Setup {
        kind,
        limits,
        buf_len,
    } = *setup;
    let buf = vec![0u8; buf_len.unwrap_or(buffer_len(&limits))];
    let mut decoder = Decoder::new(kind, buf, limits);
    decoder.report_chunk_lines(lines);
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
                        chunk_lines: Vec::new(),
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
                Event::ChunkLine(line) => {
                    let msg = open.ok_or("a chunk line outside a message")?;
                    if !lines || msg.head.framing != Framing::Chunked {
                        return Err(format!("{line:?} not asked for, or not in a chunked body"));
                    }
                    let end = decoder.position();
                    let start = end
                        .checked_sub(line.line_len())
                        .ok_or("a chunk line longer than the stream")?;
                    msg.chunk_lines.push((
                        start,
                        line.digits,
                        line.ext_len,
                        line.eol_len,
                        line.size,
                    ));
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

pub fn cut_points(picks: &[Index], len: usize) -> Vec<usize> {
    let mut cuts: Vec<usize> = picks.iter().map(|i| i.index(len + 1)).collect();
    cuts.sort_unstable();
    cuts
}

/// The trace all at once, checked equal to byte by byte and to each random cutting.
pub fn split_invariant_trace(
    setup: &Setup,
    methods: &[Vec<u8>],
    input: &[u8],
    cuttings: &[Vec<Index>],
) -> Result<Trace, TestCaseError> {
    let fail =
        |how: &str, e: String| TestCaseError::fail(format!("{how}: {e}\ninput: {}", escape(input)));
    let whole = decode_trace(setup, methods, input, &[]).map_err(|e| fail("whole", e))?;
    // With chunk lines reported, the rest of the trace is the same.
    let whole_lines = decode_trace_reporting(setup, methods, input, &[], true)
        .map_err(|e| fail("whole, with lines", e))?;
    let mut without_lines = whole_lines.clone();
    without_lines
        .msgs
        .iter_mut()
        .for_each(|m| m.chunk_lines.clear());
    prop_assert_eq!(
        &without_lines,
        &whole,
        "lines change the trace of {}",
        escape(input)
    );
    let bytewise: Vec<usize> = (1..input.len()).collect();
    let mut cuttings: Vec<Vec<usize>> = cuttings
        .iter()
        .map(|c| cut_points(c, input.len()))
        .collect();
    cuttings.push(bytewise);
    // Every cutting is fed both ways: plain, and reporting chunk lines.
    for (lines, expected) in [(false, &whole), (true, &whole_lines)] {
        let (whole_cmp, whole_partial) = comparable(expected);
        for cuts in &cuttings {
            let split = decode_trace_reporting(setup, methods, input, cuts, lines)
                .map_err(|e| fail(&format!("cut at {cuts:?}, lines {lines}"), e))?;
            let (split_cmp, split_partial) = comparable(&split);
            prop_assert_eq!(
                &split_cmp,
                &whole_cmp,
                "cut at {:?} (lines {}) differs from all at once; input {}, {:?}",
                cuts,
                lines,
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
    }
    Ok(whole)
}

/// A trace as far as it must not depend on the cutting: all of it. Body data of a message that
/// then fails is streamed as it arrives, and a range that crosses `max_body_bytes` is reported up
/// to the limit before the error, so even the body before an error is the same in every split.
/// (The second element is kept for the byte-prefix check above, which equality implies.)
pub fn comparable(trace: &Trace) -> (Trace, B) {
    (trace.clone(), B(Vec::new()))
}
