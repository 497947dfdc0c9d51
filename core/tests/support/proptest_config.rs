//! The configuration of the writer and hop-by-hop property tests, shared by the test files that
//! include this file with `#[path]`.

use proptest::test_runner::Config as ProptestConfig;

/// `cases` cases, or 3 under Miri: Miri checks memory access, which a few cases exercise as well
/// as many, and runs each about a thousand times slower. Failures are printed, not saved to a
/// file (Miri's isolation has no file system).
pub fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases: if cfg!(miri) { 3 } else { cases },
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}
