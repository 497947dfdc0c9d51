//! The scalar backend: the reference every other backend must agree with.

use super::class::{CLASS, LINE_SPECIAL, TARGET, TOKEN, VALUE};
use super::{ByteClass, Kernels};

/// Table-driven kernels, one byte at a time.
pub(crate) struct Scalar;

impl Scalar {
    /// Stage 1 for one block, a byte at a time: for each class (the bytes with its flag, or with
    /// `present` false those without it), bit `i` set where byte `at + i` is outside it, and every
    /// bit past the end of `bytes`. The reference that each SIMD classifier must match bit for
    /// bit.
    #[inline]
    pub(crate) fn classify<const K: usize>(
        bytes: &[u8],
        at: usize,
        flags: [u8; K],
        present: [bool; K],
    ) -> [u64; K] {
        let block = bytes.get(at..).unwrap_or(&[]);
        let len = block.len().min(64);
        // Every bit set, then each byte inside a class clears its bit: plain indexed loops,
        // which Miri, running this for every parse it checks, steps through fastest.
        let mut masks = [u64::MAX; K];
        let mut i = 0;
        while i < len {
            let class = CLASS[block[i] as usize];
            let mut c = 0;
            while c < K {
                if (class & flags[c] != 0) == present[c] {
                    masks[c] &= !(1 << i);
                }
                c += 1;
            }
            i += 1;
        }
        masks
    }
}

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

    #[inline]
    fn classify_fields(bytes: &[u8], at: usize) -> [u64; 2] {
        Scalar::classify(bytes, at, [TOKEN, VALUE], [true; 2])
    }

    #[inline]
    fn classify_one(bytes: &[u8], at: usize, class: ByteClass) -> u64 {
        Scalar::classify(bytes, at, [class.flag()], [class.present()])[0]
    }
}
