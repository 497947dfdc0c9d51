//! Request heads: every invariant of `httpspan_fuzz::check_head`, with the default parser and
//! with one of 4 slots and small limits (so slot exhaustion and the limits are reached).
#![no_main]

use httpspan::Request;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    httpspan_fuzz::check_head(data, Request::new);
    httpspan_fuzz::check_head(data, || {
        let mut small = Request::<4>::default();
        small.set_limits(&httpspan_fuzz::small_limits());
        small
    });
});
