//! Tests of the stream decoder through its public API.

use super::{Decoder, Event, MessageKind};
use crate::*;
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
