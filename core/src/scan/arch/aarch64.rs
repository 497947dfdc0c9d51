//! aarch64: NEON (16-byte registers), part of every aarch64 CPU.

use core::arch::aarch64::*;

use super::vector::{MoveMask, Vector};

/// NEON backend: 16-byte blocks, then scalar.
pub(crate) mod neon {
    crate::scan::arch::generic::ladder!("neon", uint8x16_t, uint8x16_t);
    use core::arch::aarch64::uint8x16_t;
}

use super::generic::compile_time_kernels;
for_each_kernel!(compile_time_kernels, Neon, neon, "NEON");

/// NEON has no movemask: a narrowing shift leaves four bits per byte in a `u64` instead.
#[derive(Clone, Copy)]
pub(crate) struct NeonMask(u64);

impl MoveMask for NeonMask {
    #[inline(always)]
    fn to_bits(self) -> u64 {
        // Each byte's nibble is 0 or 0xF: keep one bit of each and pack them together, halving
        // the distance between neighbours at each step (16 nibbles into 16 bits).
        let mut m = self.0 & 0x1111_1111_1111_1111;
        m = (m | m >> 3) & 0x0303_0303_0303_0303;
        m = (m | m >> 6) & 0x000f_000f_000f_000f;
        m = (m | m >> 12) & 0x0000_00ff_0000_00ff;
        (m | m >> 24) & 0xffff
    }
}

impl Vector for uint8x16_t {
    const BYTES: usize = 16;
    type Mask = NeonMask;

    #[inline(always)]
    unsafe fn splat(byte: u8) -> Self {
        // SAFETY: NEON is part of aarch64.
        unsafe { vdupq_n_u8(byte) }
    }

    #[inline(always)]
    unsafe fn table(bytes: &[u8; 16]) -> Self {
        // SAFETY: the array is 16 readable bytes.
        unsafe { vld1q_u8(bytes.as_ptr()) }
    }

    #[inline(always)]
    unsafe fn load_unaligned(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees 16 readable bytes.
        unsafe { vld1q_u8(ptr) }
    }

    #[inline(always)]
    unsafe fn cmpeq(self, other: Self) -> Self {
        // SAFETY: NEON is part of aarch64.
        unsafe { vceqq_u8(self, other) }
    }

    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: NEON is part of aarch64.
        unsafe { vandq_u8(self, other) }
    }

    #[inline(always)]
    unsafe fn high_nibbles(self) -> Self {
        // SAFETY: NEON is part of aarch64.
        unsafe { vshrq_n_u8(self, 4) }
    }

    #[inline(always)]
    unsafe fn shuffle(self, indices: Self) -> Self {
        // SAFETY: NEON is part of aarch64.
        unsafe { vqtbl1q_u8(self, indices) }
    }

    #[inline(always)]
    unsafe fn movemask(self) -> NeonMask {
        // Shifting each 16-bit lane right by 4 and narrowing keeps the high nibble of its low
        // byte and the low nibble of its high byte: four bits per byte.
        // SAFETY: NEON is part of aarch64.
        unsafe {
            let narrowed = vshrn_n_u16(vreinterpretq_u16_u8(self), 4);
            NeonMask(vget_lane_u64(vreinterpret_u64_u8(narrowed), 0))
        }
    }
}
