//! wasm32: SIMD128 (16-byte registers), when the module is compiled with `+simd128`.

use core::arch::wasm32::*;

use super::vector::Vector;

/// SIMD128 backend: 16-byte blocks, then scalar.
pub(crate) mod simd128 {
    crate::scan::arch::generic::ladder!("simd128", v128, v128);
    use core::arch::wasm32::v128;
}

use super::generic::compile_time_kernels;
for_each_kernel!(compile_time_kernels, Simd128, simd128, "SIMD128");

impl Vector for v128 {
    const BYTES: usize = 16;
    type Mask = u32;

    #[inline(always)]
    unsafe fn splat(byte: u8) -> Self {
        u8x16_splat(byte)
    }

    #[inline(always)]
    unsafe fn table(bytes: &[u8; 16]) -> Self {
        // SAFETY: the array is 16 readable bytes; v128_load has no alignment requirement.
        unsafe { v128_load(bytes.as_ptr().cast()) }
    }

    #[inline(always)]
    unsafe fn load_unaligned(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees 16 readable bytes.
        unsafe { v128_load(ptr.cast()) }
    }

    #[inline(always)]
    unsafe fn cmpeq(self, other: Self) -> Self {
        u8x16_eq(self, other)
    }

    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        v128_and(self, other)
    }

    #[inline(always)]
    unsafe fn high_nibbles(self) -> Self {
        // As on x86_64: V8 compiles a byte shift (i8x16.shr_u) to a 16-bit shift and an `and`
        // with a mask it builds anew each time, in five instructions; this is the same two with
        // a constant the compiler keeps.
        v128_and(u16x8_shr(self, 4), u8x16_splat(0x0f))
    }

    #[inline(always)]
    unsafe fn shuffle(self, indices: Self) -> Self {
        u8x16_swizzle(self, indices)
    }

    #[inline(always)]
    unsafe fn movemask(self) -> u32 {
        u32::from(u8x16_bitmask(self))
    }
}
