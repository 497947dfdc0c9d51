//! The stream decoder fed in fuzzer-chosen pieces: the same outcomes (messages, bodies,
//! trailers, errors at the same offset) all at once, in those pieces and byte by byte; no
//! protocol violation (a range outside the input, NeedMore before the input is used up, no
//! progress); error offsets inside the stream.
//!
//! Input: a config byte (responses or requests, the method answered, leniency options), a count
//! byte, piece lengths, then the stream; `httpspan_fuzz::stream_input` gives the layout.
#![no_main]

use httpspan_fuzz::check_stream;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    check_stream(data);
});
