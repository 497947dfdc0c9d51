//! The scalar backend: the reference every other backend must agree with.

use super::class::CLASS;
use super::{ByteClass, Kernels, FIELD_CLASSES};

/// Table-driven kernels, one byte at a time.
pub(crate) struct Scalar;

impl Scalar {
    /// Stage 1 for one block, a byte at a time: for each of `classes`, bit `i` set where byte
    /// `at + i` is outside it, and every bit past the end of `bytes`. The reference that each
    /// SIMD classifier must match bit for bit.
    #[inline]
    pub(crate) fn classify<const K: usize>(
        bytes: &[u8],
        at: usize,
        classes: [ByteClass; K],
    ) -> [u64; K] {
        // Each class as its flag in the byte-class table, and whether it is the bytes with the
        // flag or those without it: looked up once, not per byte.
        let (mut flags, mut present) = ([0; K], [true; K]);
        for ((flag, present), class) in flags.iter_mut().zip(&mut present).zip(classes) {
            (*flag, *present) = (class.flag(), class.present());
        }
        let mut masks = [u64::MAX; K];
        let block = bytes.get(at..).unwrap_or(&[]);
        for (i, &b) in block.iter().take(64).enumerate() {
            let class = CLASS[b as usize];
            for ((mask, flag), present) in masks.iter_mut().zip(flags).zip(present) {
                if (class & flag != 0) == present {
                    *mask &= !(1 << i);
                }
            }
        }
        masks
    }
}

/// Length of the leading run of `bytes` inside the [`ByteClass`] `$class`. A macro, so that the
/// class's flag and presence are constants (`const` blocks) wherever the kernel is compiled:
/// passed as a value, the class was not folded in the wasm module, which grew by 170 bytes.
macro_rules! run {
    ($bytes:expr, $class:expr) => {
        run_with($bytes, const { $class.flag() }, const { $class.present() })
    };
}

/// Length of the leading run of `bytes` inside `class`, a byte at a time. Inlined with a constant
/// class, the class's flag and presence fold.
#[inline(always)]
pub(crate) fn class_len(bytes: &[u8], class: ByteClass) -> usize {
    run_with(bytes, class.flag(), class.present())
}

/// Length of the leading run of `bytes` whose bytes have `flag` (or, with `present` false, lack
/// it).
#[inline(always)]
fn run_with(bytes: &[u8], flag: u8, present: bool) -> usize {
    bytes
        .iter()
        .position(|&b| (CLASS[b as usize] & flag != 0) != present)
        .unwrap_or(bytes.len())
}

impl Kernels for Scalar {
    #[inline]
    fn line_special(bytes: &[u8]) -> usize {
        run!(bytes, ByteClass::NotLineSpecial)
    }

    #[inline]
    fn token_len(bytes: &[u8]) -> usize {
        run!(bytes, ByteClass::Token)
    }

    #[inline]
    fn target_len(bytes: &[u8]) -> usize {
        run!(bytes, ByteClass::Target)
    }

    #[inline]
    fn field_value_len(bytes: &[u8]) -> usize {
        run!(bytes, ByteClass::Value)
    }

    #[inline]
    fn classify_fields(bytes: &[u8], at: usize) -> [u64; 2] {
        Scalar::classify(bytes, at, FIELD_CLASSES)
    }

    #[inline]
    fn classify_one(bytes: &[u8], at: usize, class: ByteClass) -> u64 {
        Scalar::classify(bytes, at, [class])[0]
    }
}
