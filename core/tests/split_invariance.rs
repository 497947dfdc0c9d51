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
//! The number of cases per property is proptest's default (256), or `PROPTEST_CASES`; 2 under
//! Miri.
//!
//! The parts live in `tests/support/split/`: `generator.rs` (the grammar and the mutations),
//! `render.rs` (bytes and the expected report), `decode.rs` (the decoder under cuttings) and
//! `heads.rs` (the head parsers over prefixes). This file holds the properties.

#[path = "support/split/mod.rs"]
mod split;

use httpspan::stream::MessageKind;
use httpspan::{Chunk, ChunkedDecoder, ErrorKind, Limits, Request, Response, Status, Trailers};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::TestCaseError;

use split::decode::{
    decode_trace, decode_trace_reporting, field_infos, split_invariant_trace, End, Setup,
};
use split::generator::{all_options, buf_len, limits, mutate, mutation, strict_limits};
use split::heads::{check_prefixes, HeadParser};
use split::render::{requests, responses, Stream};
use split::{escape, B};

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
    // Reported chunk lines are where the generator wrote them.
    let trace = decode_trace_reporting(&setup, &stream.methods, wire, &[], true)
        .map_err(TestCaseError::fail)?;
    let mut expected = stream.expected.clone();
    for (msg, rendered) in expected.msgs.iter_mut().zip(&stream.rendered) {
        msg.chunk_lines = rendered
            .chunked
            .as_ref()
            .map_or(Vec::new(), |c| c.lines.clone());
    }
    prop_assert_eq!(&trace, &expected, "chunk lines, input {}", escape(wire));
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
            // With 4 slots, a fifth field line is one too many, whatever the limit says.
            let four = Request::<4>::fresh(&limits).parse(wire);
            let n = first.msg.head.fields.len();
            if n > 4 {
                let err = four.unwrap_err();
                prop_assert_eq!(err.kind(), ErrorKind::TooManyFields);
                prop_assert_eq!(
                    err.offset(),
                    first.msg.head.fields[4].name_span.off as usize
                );
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
        cases: if cfg!(miri) { 2 } else { ProptestConfig::default().cases },
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
