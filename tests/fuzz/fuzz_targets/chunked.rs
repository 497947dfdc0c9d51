//! Chunked bodies: the decoder gives the same data, end and errors however the body is cut;
//! an accepted body decodes to what a plain reading of its sizes gives; the trailer section
//! after it passes every head invariant. Reporting chunk lines changes none of that, and the
//! lines (their sizes, extensions and line ends in the body's bytes) are the same however the
//! body is cut.
#![no_main]

use httpspan::{Limits, Trailers};
use httpspan_fuzz::{
    check_head, cuts_from, decode_chunked, decode_chunked_lines, reference_chunked, ChunkedOutcome,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|body: &[u8]| {
    for limits in [Limits::DEFAULT, httpspan_fuzz::small_limits()] {
        let once = decode_chunked(body, std::iter::empty(), &limits);
        let bytewise = decode_chunked(body, 1..body.len(), &limits);
        assert_eq!(bytewise, once, "byte by byte differs");
        let split = decode_chunked(body, cuts_from(body, 3).into_iter(), &limits);
        assert_eq!(split, once, "a split decode differs");
        let (with_lines, lines) = decode_chunked_lines(body, std::iter::empty(), &limits);
        assert_eq!(with_lines, once, "reporting chunk lines changes the decode");
        let (bytewise_with_lines, bytewise_lines) =
            decode_chunked_lines(body, 1..body.len(), &limits);
        assert_eq!(
            bytewise_with_lines, once,
            "reporting chunk lines byte by byte changes the decode"
        );
        assert_eq!(bytewise_lines, lines, "chunk lines differ byte by byte");
        if let ChunkedOutcome::Done {
            data,
            trailer_start,
        } = &once
        {
            assert_eq!(reference_chunked(body), (data.clone(), *trailer_start));
            let sizes: u64 = lines.iter().map(|(_, line)| line.size).sum();
            assert_eq!(
                sizes,
                data.len() as u64,
                "the lines' sizes are not the data's length"
            );
            let last = lines
                .last()
                .expect("a complete body has its last chunk's line");
            assert!(
                last.1.size == 0 && last.0 <= *trailer_start,
                "the last line is not the 0 line"
            );
            check_head(&body[*trailer_start..], Trailers::new);
        }
    }
});
