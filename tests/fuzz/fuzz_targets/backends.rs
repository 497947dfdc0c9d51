//! Every SIMD backend this CPU can run against the scalar reference: each block classifier
//! (stage 1 of the head engine) from every offset of the first block and at every block start,
//! each kernel on the raw input (and on every suffix of a block's width, so each byte meets
//! every lane), then whole
//! request and response heads and a chunked body parsed under each backend must give exactly
//! the scalar outcome.
#![no_main]

use httpspan::__backends::{available, classify, force, scan, Kernel};
use httpspan::{Limits, Request};
use httpspan_fuzz::{decode_chunked, outcome, ResponseTo};
use libfuzzer_sys::fuzz_target;

/// The widest vector (AVX2): suffixes up to this far cover every lane position.
const WIDEST: usize = 32;

fn parse_all(data: &[u8]) -> impl PartialEq + std::fmt::Debug {
    (
        outcome(&mut Request::new(), data),
        outcome(&mut ResponseTo::new(b"GET"), data),
        decode_chunked(data, std::iter::empty(), &Limits::default()),
    )
}

/// A classifier block holds 64 bytes.
const BLOCK: usize = 64;

fuzz_target!(|data: &[u8]| {
    let backends: Vec<&str> = available().collect();
    // Every offset of the first block (each byte in each bit position), then each block start
    // and the end, where the last block is cut short.
    let starts = (0..data.len().min(BLOCK))
        .chain((BLOCK..data.len()).step_by(BLOCK))
        .chain([data.len()]);
    for at in starts {
        let reference = classify("scalar", data, at);
        for &backend in &backends {
            assert_eq!(classify(backend, data, at), reference, "{backend} classify at {at}");
        }
    }
    for kernel in Kernel::ALL {
        for start in 0..data.len().min(WIDEST) {
            let bytes = &data[start..];
            let reference = scan("scalar", kernel, bytes);
            for &backend in &backends {
                assert_eq!(
                    scan(backend, kernel, bytes),
                    reference,
                    "{backend} {kernel:?} at {start}"
                );
            }
        }
    }
    assert!(force("scalar"));
    let reference = parse_all(data);
    for &backend in &backends[1..] {
        assert!(force(backend));
        assert_eq!(parse_all(data), reference, "{backend} against scalar");
    }
    assert!(force("scalar"));
});
