//! The stream decoder fed in fuzzer-chosen pieces: the same outcomes (messages, bodies,
//! trailers, errors at the same offset) all at once, in those pieces and byte by byte; no
//! protocol violation (a range outside the input, NeedMore before the input is used up, no
//! progress); error offsets inside the stream.
//!
//! Input: a config byte (bit 0: responses; bits 1-2: the method answered, GET, HEAD or
//! CONNECT), a count byte k (mod 16), k piece lengths (one byte each, 0 read as 256), then the
//! stream.
#![no_main]

use httpspan_fuzz::check_stream;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    check_stream(data);
});
