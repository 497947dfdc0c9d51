//! The writer round trip: the fuzzer's bytes decode to a script of calls on a `ResponseWriter`
//! or `RequestWriter`; what the writer accepts must parse back exactly as written, and what it
//! refuses must be what the parser rejects (core/tests/support/writer_script.rs, shared with
//! the property test).
#![no_main]

#[path = "../../../core/tests/support/writer_script.rs"]
#[allow(dead_code)]
mod writer_script;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = writer_script::check(&writer_script::Script::from_bytes(data)) {
        panic!("{e}");
    }
});
