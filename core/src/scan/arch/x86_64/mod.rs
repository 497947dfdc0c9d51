//! x86_64: AVX-512 (64-byte registers), AVX2 (32-byte registers) and SSE4.2 (16-byte
//! registers).

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::vector::Vector;

/// SSE4.2 backend: 16-byte blocks, then scalar.
pub(crate) mod sse42 {
    crate::scan::arch::generic::ladder!("sse4.2", __m128i, __m128i);
    crate::scan::arch::generic::engine!("sse4.2", __m128i, __m128i);
    use core::arch::x86_64::__m128i;
}

/// AVX2 backend: 32-byte blocks, then 16-byte blocks, then scalar.
pub(crate) mod avx2 {
    crate::scan::arch::generic::ladder!("avx2", __m256i, __m128i);
    crate::scan::arch::generic::engine!("avx2", __m256i, __m128i);
    use core::arch::x86_64::{__m128i, __m256i};
}

/// AVX-512 backend (AVX-512F and BW; chosen where the CPU has VBMI2 too, see
/// `Kind::is_supported`): a 64-byte block in one register, a buffer under one block in one
/// masked load; 32-byte vectors for what the ladder's run kernels meet under 64 bytes. Compiled
/// only where the compiler has the AVX-512 intrinsics stable (Rust 1.89; see `build.rs`).
#[cfg(httpspan_avx512)]
// Past the crate's `rust-version`: `build.rs` compiles this in only for Rust 1.89 or later.
#[allow(clippy::incompatible_msrv)]
pub(crate) mod avx512 {
    crate::scan::arch::generic::ladder!("avx2,avx512f,avx512bw", __m512i, __m256i);
    crate::scan::arch::generic::engine!("avx2,avx512f,avx512bw", __m512i, __m256i);
    use core::arch::x86_64::{__m256i, __m512i};
}

impl Vector for __m128i {
    const BYTES: usize = 16;
    type Mask = u32;

    #[inline(always)]
    unsafe fn splat(byte: u8) -> Self {
        // SAFETY: SSE2 is part of x86_64.
        unsafe { _mm_set1_epi8(byte as i8) }
    }

    #[inline(always)]
    unsafe fn table(bytes: &[u8; 16]) -> Self {
        // SAFETY: the array is 16 readable bytes; SSE2 is part of x86_64.
        unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }
    }

    #[inline(always)]
    unsafe fn load_unaligned(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees 16 readable bytes.
        unsafe { _mm_loadu_si128(ptr.cast()) }
    }

    #[inline(always)]
    unsafe fn cmpeq(self, other: Self) -> Self {
        // SAFETY: SSE2 is part of x86_64.
        unsafe { _mm_cmpeq_epi8(self, other) }
    }

    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: SSE2 is part of x86_64.
        unsafe { _mm_and_si128(self, other) }
    }

    #[inline(always)]
    unsafe fn high_nibbles(self) -> Self {
        // There is no byte shift: shift 16-bit lanes and drop the bits of the neighbour byte.
        // SAFETY: SSE2 is part of x86_64.
        unsafe { _mm_and_si128(_mm_srli_epi16(self, 4), _mm_set1_epi8(0x0f)) }
    }

    #[inline(always)]
    unsafe fn shuffle(self, indices: Self) -> Self {
        // SAFETY: the caller guarantees SSE4.2 (which includes SSSE3's pshufb).
        unsafe { _mm_shuffle_epi8(self, indices) }
    }

    #[inline(always)]
    unsafe fn movemask(self) -> u32 {
        // SAFETY: SSE2 is part of x86_64.
        unsafe { _mm_movemask_epi8(self) as u32 }
    }
}

impl Vector for __m256i {
    const BYTES: usize = 32;
    type Mask = u32;

    #[inline(always)]
    unsafe fn splat(byte: u8) -> Self {
        // SAFETY: the caller guarantees AVX2 (and so AVX).
        unsafe { _mm256_set1_epi8(byte as i8) }
    }

    #[inline(always)]
    unsafe fn table(bytes: &[u8; 16]) -> Self {
        // pshufb looks up within each 128-bit lane, so both lanes hold the table.
        // SAFETY: the array is 16 readable bytes; the caller guarantees AVX2.
        unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(bytes.as_ptr().cast())) }
    }

    #[inline(always)]
    unsafe fn load_unaligned(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees 32 readable bytes and AVX2.
        unsafe { _mm256_loadu_si256(ptr.cast()) }
    }

    #[inline(always)]
    unsafe fn cmpeq(self, other: Self) -> Self {
        // SAFETY: the caller guarantees AVX2.
        unsafe { _mm256_cmpeq_epi8(self, other) }
    }

    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: the caller guarantees AVX2.
        unsafe { _mm256_and_si256(self, other) }
    }

    #[inline(always)]
    unsafe fn high_nibbles(self) -> Self {
        // SAFETY: the caller guarantees AVX2.
        unsafe { _mm256_and_si256(_mm256_srli_epi16(self, 4), _mm256_set1_epi8(0x0f)) }
    }

    #[inline(always)]
    unsafe fn shuffle(self, indices: Self) -> Self {
        // SAFETY: the caller guarantees AVX2.
        unsafe { _mm256_shuffle_epi8(self, indices) }
    }

    #[inline(always)]
    unsafe fn movemask(self) -> u32 {
        // SAFETY: the caller guarantees AVX2.
        unsafe { _mm256_movemask_epi8(self) as u32 }
    }
}

// Past the crate's `rust-version`: `build.rs` compiles this in only for Rust 1.89 or later.
#[cfg(httpspan_avx512)]
#[allow(clippy::incompatible_msrv)]
impl Vector for __m512i {
    const BYTES: usize = 64;
    type Mask = u64;

    #[inline(always)]
    unsafe fn splat(byte: u8) -> Self {
        // SAFETY: the caller guarantees AVX-512F.
        unsafe { _mm512_set1_epi8(byte as i8) }
    }

    #[inline(always)]
    unsafe fn table(bytes: &[u8; 16]) -> Self {
        // pshufb looks up within each 128-bit lane, so all four lanes hold the table.
        // SAFETY: the array is 16 readable bytes; the caller guarantees AVX-512F.
        unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(bytes.as_ptr().cast())) }
    }

    #[inline(always)]
    unsafe fn load_unaligned(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees 64 readable bytes and AVX-512F.
        unsafe { _mm512_loadu_si512(ptr.cast()) }
    }

    #[inline(always)]
    unsafe fn load_prefix(ptr: *const u8, n: usize) -> Option<Self> {
        debug_assert!((1..=64).contains(&n));
        // A masked load reads only the bytes its mask selects: the others do not fault, even
        // past the end of a page.
        let selected = u64::MAX >> (64 - n);
        // SAFETY: the caller guarantees the `n` bytes from `ptr` readable, and AVX-512BW.
        Some(unsafe { _mm512_maskz_loadu_epi8(selected, ptr.cast()) })
    }

    #[inline(always)]
    unsafe fn cmpeq(self, other: Self) -> Self {
        // AVX-512 compares into a mask register; as a vector of 0 and 0xFF bytes, the compiler
        // fuses it with the `and` before it and the movemask after it (`vptestnmb`).
        // SAFETY: the caller guarantees AVX-512BW.
        unsafe { _mm512_movm_epi8(_mm512_cmpeq_epi8_mask(self, other)) }
    }

    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: the caller guarantees AVX-512F.
        unsafe { _mm512_and_si512(self, other) }
    }

    #[inline(always)]
    unsafe fn high_nibbles(self) -> Self {
        // SAFETY: the caller guarantees AVX-512BW.
        unsafe { _mm512_and_si512(_mm512_srli_epi16(self, 4), _mm512_set1_epi8(0x0f)) }
    }

    #[inline(always)]
    unsafe fn shuffle(self, indices: Self) -> Self {
        // SAFETY: the caller guarantees AVX-512BW.
        unsafe { _mm512_shuffle_epi8(self, indices) }
    }

    #[inline(always)]
    unsafe fn movemask(self) -> u64 {
        // SAFETY: the caller guarantees AVX-512BW.
        unsafe { _mm512_movepi8_mask(self) }
    }
}
