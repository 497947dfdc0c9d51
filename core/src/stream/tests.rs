//! Tests of the stream decoder through its public API.

use super::{Decoder, Event, MessageKind};
use crate::*;
use core::ops::Range;
use std::format;
use std::vec;
use std::vec::Vec;

/// Inside a head or a trailer section the decoder resumes at its first unaccepted line; in
/// a body, at the next byte.
#[test]
fn resume_offset_follows_heads_bodies_and_trailers() {
    let stream = b"GET / HTTP/1.1\r\nHost: a\r\n\r\nPOST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-T: 1\r\n";
    let mut decoder = Decoder::new(MessageKind::Request, vec![0; 1 << 16], Limits::DEFAULT);
    let mut seen = Vec::new();
    for (i, byte) in stream.iter().enumerate() {
        let mut piece: &[u8] = core::slice::from_ref(byte);
        loop {
            let (used, event) = decoder.decode(piece).unwrap();
            piece = &piece[used..];
            if matches!(event, Event::NeedMore) {
                break;
            }
        }
        seen.push((i + 1, decoder.resume_offset()));
    }
    let at = |n: usize| seen.iter().find(|&&(fed, _)| fed == n).unwrap().1;
    // In the first head, after "GET / HTTP/1.1\r\nHo": the Host line is pending.
    assert_eq!(at(18), 16);
    // In the second head, before its first CRLF.
    assert_eq!(at(30), 27);
    // In the chunked body, every byte is consumed as it comes.
    let body = stream.windows(5).position(|w| w == b"3\r\nab").unwrap();
    assert_eq!(at(body + 4), (body + 4) as u64);
    // In the trailer section, after "X-T: 1\r": the line is pending.
    assert_eq!(at(stream.len() - 1), (stream.len() - 8) as u64);
    assert_eq!(decoder.position(), stream.len() as u64);
}

/// Runs `input` through a decoder in one piece; returns the events (body ranges resolved
/// to bytes) or the error.
fn events<const N: usize>(
    decoder: &mut Decoder<Vec<u8>, N>,
    input: &[u8],
) -> (Vec<(Event, Vec<u8>)>, Option<Error>) {
    let mut out = Vec::new();
    let mut rest = input;
    loop {
        match decoder.decode(rest) {
            Ok((used, event)) => {
                let bytes = match &event {
                    Event::Body(r) => rest[r.clone()].to_vec(),
                    _ => Vec::new(),
                };
                let stop = matches!(event, Event::NeedMore | Event::Closed);
                out.push((event, bytes));
                rest = &rest[used..];
                if stop {
                    return (out, None);
                }
            }
            Err(e) => return (out, Some(e)),
        }
    }
}

#[test]
fn error_offsets_count_from_the_start_of_the_stream() {
    let first = b"GET /1 HTTP/1.1\r\nHost: a\r\n\r\n";
    let mut input = Vec::from(&first[..]);
    input.extend_from_slice(b"GET /2 HTTP/1.1\r\nHost : a\r\n\r\n");
    let mut decoder = Decoder::for_requests(vec![0; 256]);
    let (_, error) = events(&mut decoder, &input);
    let error = error.unwrap();
    assert_eq!(error.kind(), ErrorKind::WhitespaceBeforeColon);
    assert_eq!(error.offset(), first.len() + 21);
    // Nothing after a framing error is read: the same error comes back.
    assert_eq!(decoder.decode(b"GET / HTTP/1.1\r\n"), Err(error));
    assert_eq!(decoder.finish(), Err(error));
}

#[test]
fn body_limit_applies_to_every_framing() {
    let mut limits = Limits::DEFAULT;
    limits.max_body_bytes = Some(4);
    let cases: &[(MessageKind, &[u8], Option<usize>)] = &[
        (MessageKind::Request, b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nabcd", None),
        (MessageKind::Request, b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nabcde", Some(51)),
        (MessageKind::Request, b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n", Some(68)),
        (MessageKind::Response, b"HTTP/1.1 200 OK\r\n\r\nabcdef", Some(23)),
    ];
    for (kind, input, offset) in cases {
        for step in [input.len(), 1, 2, 3] {
            let mut decoder = Decoder::new(*kind, vec![0; 1024], limits);
            let (mut body, mut error) = (Vec::new(), None);
            for piece in input.chunks(step) {
                let (got, e) = events(&mut decoder, piece);
                got.iter()
                    .for_each(|(_, bytes)| body.extend_from_slice(bytes));
                if e.is_some() {
                    error = e;
                    break;
                }
            }
            let expected = offset.map(|o| (ErrorKind::BodyTooLarge, o));
            assert_eq!(
                error.map(|e| (e.kind(), e.offset())),
                expected,
                "step {step}"
            );
            // What comes out before the error is the part within the limit, however the
            // input is cut; a Content-Length above the limit fails before any body.
            let declared_too_large = input.windows(17).any(|w| w == b"Content-Length: 5");
            let want: &[u8] = if declared_too_large { b"" } else { b"abcd" };
            assert_eq!(body, want, "step {step}");
        }
    }
}

/// Found by fuzzing, like `a_head_at_the_limit_fails_at_the_first_byte_over_it`: a head
/// that filled the buffer exactly failed at the next stream offset before that byte came.
#[test]
fn a_full_buffer_fails_at_the_first_byte_that_does_not_fit() {
    let head = b"GET / HTTP/1.1\r\nHost: example.com\r\n\r\n";
    let mut decoder = Decoder::for_requests(vec![0; 20]);
    assert_eq!(decoder.decode(&head[..20]), Ok((20, Event::NeedMore)));
    let (_, error) = events(&mut decoder, &head[20..]);
    let error = error.unwrap();
    assert_eq!(
        (error.kind(), error.offset()),
        (ErrorKind::HeadTooLarge, 20)
    );
    // A stream that ends there has sent no byte over the limit: it is incomplete.
    let mut decoder = Decoder::for_requests(vec![0; 20]);
    assert_eq!(decoder.decode(&head[..20]), Ok((20, Event::NeedMore)));
    assert_eq!(decoder.finish(), Ok(Event::Incomplete));
}

#[test]
fn a_small_buffer_lowers_the_head_limit() {
    let mut decoder = Decoder::for_requests(vec![0; 20]);
    let (_, error) = events(&mut decoder, b"GET / HTTP/1.1\r\nHost: example.com\r\n\r\n");
    let error = error.unwrap();
    assert_eq!(
        (error.kind(), error.offset()),
        (ErrorKind::HeadTooLarge, 20)
    );
}

#[test]
fn closed_after_close_and_after_101() {
    let mut decoder = Decoder::for_requests(vec![0; 256]);
    let (got, _) = events(
        &mut decoder,
        b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nNOT HTTP",
    );
    let kinds: Vec<Event> = got.into_iter().map(|(e, _)| e).collect();
    assert_eq!(kinds, [Event::Head, Event::MessageEnd, Event::Closed]);
    assert_eq!(decoder.position(), 46);

    let mut decoder = Decoder::for_responses(vec![0; 256]);
    let (got, _) = events(
        &mut decoder,
        b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n\x81\x00",
    );
    let kinds: Vec<Event> = got.into_iter().map(|(e, _)| e).collect();
    assert_eq!(kinds, [Event::Head, Event::MessageEnd, Event::Closed]);
}

#[test]
fn finish_reports_until_close_bodies_and_incomplete_messages() {
    let mut decoder = Decoder::for_responses(vec![0; 256]);
    let (got, _) = events(&mut decoder, b"HTTP/1.0 200 OK\r\n\r\nall of it");
    assert_eq!(got.last().unwrap().0, Event::NeedMore);
    assert_eq!(got[1], (Event::Body(0..9), b"all of it".to_vec()));
    assert_eq!(decoder.finish(), Ok(Event::MessageEnd));
    assert_eq!(decoder.finish(), Ok(Event::Closed));

    let mut decoder = Decoder::for_requests(vec![0; 256]);
    events(&mut decoder, b"GET / HTTP/1.1\r\nHo");
    assert_eq!(decoder.finish(), Ok(Event::Incomplete));

    let mut decoder = Decoder::for_requests(vec![0; 256]);
    events(&mut decoder, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n\r\n");
    assert_eq!(decoder.finish(), Ok(Event::Closed));
}

#[test]
fn trailers_are_parsed_with_the_field_rules() {
    let mut decoder = Decoder::for_requests(vec![0; 256]);
    let input = b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\nChecksum: 1\r\nBad : x\r\n\r\n";
    let (_, error) = events(&mut decoder, input);
    let error = error.unwrap();
    assert_eq!(error.kind(), ErrorKind::WhitespaceBeforeColon);
    assert_eq!(&input[error.offset() - 3..error.offset()], b"Bad");

    let mut decoder = Decoder::for_requests(vec![0; 256]);
    let input =
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nChecksum: 1\r\n\r\n";
    let mut rest = &input[..];
    loop {
        let (used, event) = decoder.decode(rest).unwrap();
        rest = &rest[used..];
        if event == Event::Trailers {
            break;
        }
        assert_ne!(event, Event::NeedMore);
    }
    let bytes = decoder.trailer_bytes();
    assert_eq!(
        decoder
            .trailers()
            .find(bytes, b"checksum")
            .unwrap()
            .as_bytes(bytes),
        b"1"
    );
    assert_eq!(decoder.decode(rest), Ok((0, Event::MessageEnd)));
    // The next call starts the next message and forgets this one's trailers.
    assert_eq!(decoder.decode(rest), Ok((0, Event::NeedMore)));
    assert!(decoder.trailers().fields().is_empty());
}

/// A chunked request with `head_fields` field lines in its head and `trailer_fields` in its
/// trailer section.
fn many_fields(head_fields: usize, trailer_fields: usize) -> Vec<u8> {
    let mut input = b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n".to_vec();
    for i in 2..head_fields {
        input.extend_from_slice(format!("X-F{i}: {i}\r\n").as_bytes());
    }
    input.extend_from_slice(b"\r\n1\r\nx\r\n0\r\n");
    for i in 0..trailer_fields {
        input.extend_from_slice(format!("X-T{i}: {i}\r\n").as_bytes());
    }
    input.extend_from_slice(b"\r\n");
    input
}

/// `Decoder<B, N>` sizes its head and trailer parsers: with 128 slots and the limit raised to
/// match, 100 field lines in a head and in a trailer section are read.
#[test]
fn more_slots_take_more_field_lines() {
    let limits = Limits {
        max_field_lines: 128,
        ..Limits::DEFAULT
    };
    let mut decoder = Decoder::<_, 128>::with_slots(MessageKind::Request, vec![0; 1 << 16], limits);
    let input = many_fields(100, 100);
    let mut rest = &input[..];
    let mut seen = Vec::new();
    loop {
        let (used, event) = decoder.decode(rest).unwrap();
        rest = &rest[used..];
        match event {
            Event::Head => seen.push(decoder.request().unwrap().fields().len()),
            Event::Trailers => seen.push(decoder.trailers().fields().len()),
            Event::MessageEnd => break,
            _ => {}
        }
    }
    assert_eq!(seen, [100, 100]);
    let head = decoder.head_bytes();
    let last = decoder.request().unwrap().fields()[99];
    assert_eq!(last.name.as_bytes(head), b"X-F99");
}

/// The limit and the slots bound field lines together, the smaller bound holding: the default
/// decoder stops at its 64 slots, more slots take more lines, and a limit above the slots does
/// not.
#[test]
fn field_lines_past_the_limit_or_the_slots_fail() {
    let input = many_fields(65, 0);
    let mut default = Decoder::for_requests(vec![0; 1 << 16]);
    let (_, error) = events(&mut default, &input);
    assert_eq!(error.unwrap().kind(), ErrorKind::TooManyFields);

    let mut more_slots =
        Decoder::<_, 128>::with_slots(MessageKind::Request, vec![0; 1 << 16], Limits::DEFAULT);
    let (_, error) = events(&mut more_slots, &input);
    assert_eq!(error, None);

    let limits = Limits {
        max_field_lines: 200,
        ..Limits::DEFAULT
    };
    let mut few_slots =
        Decoder::<_, 128>::with_slots(MessageKind::Request, vec![0; 1 << 16], limits);
    let (_, error) = events(&mut few_slots, &many_fields(129, 0));
    assert_eq!(error.unwrap().kind(), ErrorKind::TooManyFields);
}

/// What a decoder reporting chunk lines says about a stream, in stream offsets: each chunk
/// line as `Line { start, size_end, ext_end, end, size }`, body data, trailer sections and
/// message ends, and the error if any.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Framed {
    Line {
        start: u64,
        size_end: u64,
        ext_end: u64,
        end: u64,
        size: u64,
    },
    Body(Range<u64>),
    Trailers(u64),
    End(u64),
    Error(ErrorKind, usize),
}

/// Feeds `pieces` (then the end of the stream) to a request decoder and collects what it
/// framed, adjacent body ranges merged so that the pieces' boundaries do not show.
fn framed<'a>(
    limits: Limits,
    lines: bool,
    pieces: impl IntoIterator<Item = &'a [u8]>,
) -> Vec<Framed> {
    let mut decoder = Decoder::new(MessageKind::Request, vec![0; 1 << 16], limits);
    decoder.report_chunk_lines(lines);
    let mut out: Vec<Framed> = Vec::new();
    let mut push = |framed: Framed| match (out.last_mut(), &framed) {
        (Some(Framed::Body(last)), Framed::Body(next)) if last.end == next.start => {
            last.end = next.end;
        }
        _ => out.push(framed),
    };
    for piece in pieces {
        let mut input = piece;
        loop {
            let base = decoder.position();
            let (used, event) = match decoder.decode(input) {
                Ok(step) => step,
                Err(e) => {
                    push(Framed::Error(e.kind(), e.offset()));
                    return out;
                }
            };
            match event {
                Event::ChunkLine(line) => {
                    let end = base + used as u64;
                    let start = end - line.line_len();
                    let size_end = start + u64::from(line.digits);
                    push(Framed::Line {
                        start,
                        size_end,
                        ext_end: size_end + u64::from(line.ext_len),
                        end,
                        size: line.size,
                    });
                }
                Event::Body(r) => push(Framed::Body(base + r.start as u64..base + r.end as u64)),
                Event::Trailers => push(Framed::Trailers(decoder.trailer_offset())),
                Event::MessageEnd => push(Framed::End(decoder.position())),
                Event::NeedMore | Event::Closed => break,
                _ => {}
            }
            input = &input[used..];
        }
    }
    loop {
        match decoder.finish() {
            Ok(Event::MessageEnd) => push(Framed::End(decoder.position())),
            Ok(_) => return out,
            Err(e) => {
                push(Framed::Error(e.kind(), e.offset()));
                return out;
            }
        }
    }
}

/// `stream` in one piece, in two at every split point, and a byte at a time: the same.
/// Every position in `0..=len`; under Miri, which runs each decode thousands of times slower,
/// the first few, the last and every ninth (the native runs check them all).
fn positions(len: usize) -> impl Iterator<Item = usize> {
    (0..=len).filter(move |&at| !cfg!(miri) || at <= 3 || at % 9 == 0 || at == len)
}

fn framed_in_any_split(limits: Limits, stream: &[u8]) -> Vec<Framed> {
    let whole = framed(limits, true, [stream]);
    for at in positions(stream.len()) {
        let (a, b) = stream.split_at(at);
        assert_eq!(framed(limits, true, [a, b]), whole, "split at {at}");
    }
    let bytes = stream.chunks(1);
    assert_eq!(framed(limits, true, bytes), whole, "byte by byte");
    whole
}

fn line(start: u64, size_end: u64, ext_end: u64, end: u64, size: u64) -> Framed {
    Framed::Line {
        start,
        size_end,
        ext_end,
        end,
        size,
    }
}

const CHUNKED_HEAD: &[u8] = b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n";

#[test]
fn chunk_lines_are_reported_in_stream_offsets_in_any_split() {
    let h = CHUNKED_HEAD.len() as u64;
    let body = b"5;a=\"x\\\"y\" ; b\r\nhello\r\n00a\r\n0123456789\r\n000;z=1\r\nT: 1\r\n\r\n";
    let stream = [CHUNKED_HEAD, body, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n"].concat();
    assert_eq!(
        framed_in_any_split(Limits::DEFAULT, &stream),
        [
            // `5`, then `;a="x\"y" ; b` (13 bytes), CRLF.
            line(h, h + 1, h + 14, h + 16, 5),
            Framed::Body(h + 16..h + 21),
            // After the data's CRLF: `00a` CRLF.
            line(h + 23, h + 26, h + 26, h + 28, 10),
            Framed::Body(h + 28..h + 38),
            // The last chunk, `000;z=1` CRLF, then the trailer section.
            line(h + 40, h + 43, h + 47, h + 49, 0),
            Framed::Trailers(h + 49),
            Framed::End(h + 57),
            Framed::End(stream.len() as u64),
        ]
    );
}

#[test]
fn chunk_lines_with_bare_lf_and_an_empty_trailer_section() {
    let mut limits = Limits::DEFAULT;
    limits.lenient.bare_lf = true;
    let h = CHUNKED_HEAD.len() as u64;
    let stream = [CHUNKED_HEAD, b"3\nabc\n2 ;e\r\nde\r\n0\n\n"].concat();
    assert_eq!(
        framed_in_any_split(limits, &stream),
        [
            line(h, h + 1, h + 1, h + 2, 3),
            Framed::Body(h + 2..h + 5),
            // The data ended with a bare LF: the next line starts one byte after it.
            line(h + 6, h + 7, h + 10, h + 12, 2),
            Framed::Body(h + 12..h + 14),
            line(h + 16, h + 17, h + 17, h + 18, 0),
            // An empty trailer section: the message ends after its line end.
            Framed::End(h + 19),
        ]
    );
}

#[test]
fn chunk_lines_stop_at_an_error_and_the_data_is_the_same_without_them() {
    let h = CHUNKED_HEAD.len() as u64;
    let stream = [CHUNKED_HEAD, b"2\r\nab\r\n3;=x\r\nabc\r\n0\r\n\r\n"].concat();
    let with = framed_in_any_split(Limits::DEFAULT, &stream);
    assert_eq!(
        with,
        [
            line(h, h + 1, h + 1, h + 3, 2),
            Framed::Body(h + 3..h + 5),
            Framed::Error(ErrorKind::InvalidChunkExtension, h as usize + 9),
        ]
    );
    let without = framed(Limits::DEFAULT, false, [&stream[..]]);
    let not_lines: Vec<Framed> = with
        .into_iter()
        .filter(|f| !matches!(f, Framed::Line { .. }))
        .collect();
    assert_eq!(without, not_lines);
}

/// Every line the decoder reports is one the default path decodes the same way: over the chunked
/// bodies of the other tests with pieces of every size, the data, trailers, ends and errors are
/// the same with and without lines, and the lines tile the body between the data.
#[test]
fn chunk_lines_tile_the_framing_between_the_data() {
    let mut lenient = Limits::DEFAULT;
    lenient.lenient.bare_lf = true;
    let bodies: &[&[u8]] = &[
        b"5;a=\"x\\\"y\" ; b\r\nhello\r\n00a\r\n0123456789\r\n000;z=1\r\nT: 1\r\n\r\n",
        b"3\nabc\n2 ;e\r\nde\r\n0\n\n",
        b"FFFFFFFFFFFFFFFF\r\nab",
        b"1\r\nx\r\n0\r\nT: 1\r\nU: 2\r\n\r\n",
    ];
    for body in bodies {
        let stream = [CHUNKED_HEAD, body].concat();
        for step in positions(stream.len()).filter(|&step| step > 0) {
            let with = framed(lenient, true, stream.chunks(step));
            let without = framed(lenient, false, stream.chunks(step));
            let others: Vec<Framed> = with
                .iter()
                .filter(|f| !matches!(f, Framed::Line { .. }))
                .cloned()
                .collect();
            assert_eq!(others, without, "step {step}");
            // Each line starts where the previous data and its line end left off.
            let mut at = CHUNKED_HEAD.len() as u64;
            for f in &with {
                match f {
                    Framed::Line { start, end, .. } => {
                        assert!(*start >= at && *start <= at + 2, "step {step}: {f:?}");
                        at = *end;
                    }
                    Framed::Body(r) => {
                        assert_eq!(r.start, at, "step {step}");
                        at = r.end;
                    }
                    _ => {}
                }
            }
        }
    }
}
