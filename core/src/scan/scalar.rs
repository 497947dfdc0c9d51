//! The scalar backend: the reference every other backend must agree with.

use super::class::{CLASS, LINE_SPECIAL, TARGET, TOKEN, VALUE};
use super::Kernels;

/// Table-driven kernels, one byte at a time.
pub(crate) struct Scalar;

/// Length of the leading run of bytes that have `flag`, or (with `want = false`) that lack it.
#[inline(always)]
fn run(bytes: &[u8], flag: u8, want: bool) -> usize {
    bytes
        .iter()
        .position(|&b| (CLASS[b as usize] & flag != 0) != want)
        .unwrap_or(bytes.len())
}

impl Kernels for Scalar {
    #[inline]
    fn line_special(bytes: &[u8]) -> usize {
        run(bytes, LINE_SPECIAL, false)
    }

    #[inline]
    fn token_len(bytes: &[u8]) -> usize {
        run(bytes, TOKEN, true)
    }

    #[inline]
    fn target_len(bytes: &[u8]) -> usize {
        run(bytes, TARGET, true)
    }

    #[inline]
    fn field_value_len(bytes: &[u8]) -> usize {
        run(bytes, VALUE, true)
    }
}
