//! Chunked bodies: the decoder gives the same data, end and errors however the body is cut;
//! an accepted body decodes to what a plain reading of its sizes gives; the trailer section
//! after it passes every head invariant.
#![no_main]

use httpspan::{Limits, Trailers};
use httpspan_fuzz::{check_head, cuts_from, decode_chunked, reference_chunked, ChunkedOutcome};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|body: &[u8]| {
    for limits in [Limits::DEFAULT, httpspan_fuzz::small_limits()] {
        let once = decode_chunked(body, std::iter::empty(), &limits);
        let bytewise = decode_chunked(body, 1..body.len(), &limits);
        assert_eq!(bytewise, once, "byte by byte differs");
        let split = decode_chunked(body, cuts_from(body, 3).into_iter(), &limits);
        assert_eq!(split, once, "a split decode differs");
        if let ChunkedOutcome::Done {
            data,
            trailer_start,
        } = &once
        {
            assert_eq!(reference_chunked(body), (data.clone(), *trailer_start));
            check_head(&body[*trailer_start..], Trailers::new);
        }
    }
});
