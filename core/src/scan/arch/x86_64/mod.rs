//! x86_64: AVX-512 (64-byte registers), AVX2 (32-byte registers) and SSE4.2 (16-byte
//! registers).

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::vector::Vector;

/// Which entry point of its backend's engine a task runs in (see `generic::engine!`), decided
/// once before the backend's dispatch, since it does not depend on the backend.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Entry {
    /// `run_small`: the input is under one block.
    Small,
    /// `run_head_in_first_block`: a head parsed from the start of a longer input ends in its
    /// first block (a short head followed by its body or by the next message).
    HeadInFirstBlock,
    /// `run_whole`: anything else.
    Whole,
}

/// The entry point `task` runs in. Where the head ends is one LF mask of the first 64 bytes,
/// with the SSE2 vectors every x86_64 CPU has, so it needs no feature of the backend's.
#[inline(always)]
pub(crate) fn entry_of<T: crate::scan::WithEngine>(task: &T) -> Entry {
    use crate::scan::arch::generic::empty_line_end_in_first;
    if task.small_input() {
        Entry::Small
    } else if T::MAY_PARSE_FROM_START
        // SAFETY: SSE2 is part of x86_64.
        && task.head_from_start().is_some_and(|bytes| unsafe {
            empty_line_end_in_first::<__m128i>(bytes).is_some()
        })
    {
        Entry::HeadInFirstBlock
    } else {
        Entry::Whole
    }
}

/// SSE4.2 backend: 16-byte blocks, then scalar.
pub(crate) mod sse42 {
    crate::scan::arch::generic::ladder!("sse4.2", __m128i, __m128i);
    crate::scan::arch::generic::engine!("sse4.2", __m128i, __m128i);
    use core::arch::x86_64::__m128i;
}

/// AVX2 backend: 32-byte blocks, then 16-byte blocks, then scalar; with BMI1 and BMI2 (see
/// `Kind::is_supported`).
pub(crate) mod avx2 {
    crate::scan::arch::generic::ladder!("avx2,bmi1,bmi2", __m256i, __m128i);
    crate::scan::arch::generic::engine!("avx2,bmi1,bmi2", __m256i, __m128i);
    use core::arch::x86_64::{__m128i, __m256i};
}

/// AVX-512 backend (AVX-512F and BW, with BMI1 and BMI2; chosen where the CPU has VBMI2 too, see
/// `Kind::is_supported`): a 64-byte block in one register, a buffer under one block in one
/// masked load; 32-byte vectors for what the ladder's run kernels meet under 64 bytes. Compiled
/// only where the compiler has the AVX-512 intrinsics stable (Rust 1.89; see `build.rs`).
#[cfg(httpspan_avx512)]
// Past the crate's `rust-version`: `build.rs` compiles this in only for Rust 1.89 or later.
#[allow(clippy::incompatible_msrv)]
pub(crate) mod avx512 {
    crate::scan::arch::generic::ladder!("avx2,bmi1,bmi2,avx512f,avx512bw", __m512i, __m256i);
    crate::scan::arch::generic::engine!("avx2,bmi1,bmi2,avx512f,avx512bw", __m512i, __m256i);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::arch::generic::empty_line_end_in_first;

    /// `empty_line_end_in_first` with each vector width this CPU runs.
    fn ends(bytes: &[u8]) -> std::vec::Vec<Option<usize>> {
        // SAFETY: SSE2 is part of x86_64.
        let mut ends = std::vec![unsafe { empty_line_end_in_first::<__m128i>(bytes) }];
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2.
            ends.push(unsafe { empty_line_end_in_first::<__m256i>(bytes) });
        }
        #[cfg(httpspan_avx512)]
        if std::is_x86_feature_detected!("avx512bw") {
            // SAFETY: the CPU has AVX-512F and BW.
            ends.push(unsafe { empty_line_end_in_first::<__m512i>(bytes) });
        }
        ends
    }

    /// What every width must answer: one past the first CR LF CR LF if it ends under 64 bytes,
    /// unless an LF, any byte and an LF start before it (bare-LF lines: then `None`).
    fn contract(bytes: &[u8]) -> Option<usize> {
        let block = bytes.get(..64)?;
        let empty_line = (0..60).find(|&i| &block[i..i + 4] == b"\r\n\r\n")?;
        let lf_pair = (0..60).find(|&i| block[i + 1] == b'\n' && block[i + 3] == b'\n');
        (lf_pair == Some(empty_line)).then_some(empty_line + 4)
    }

    #[test]
    #[cfg_attr(miri, ignore = "vector intrinsics on every input: too slow under Miri")]
    fn the_head_end_in_the_first_block_is_found_at_every_width() {
        let mut inputs: std::vec::Vec<std::vec::Vec<u8>> = std::vec::Vec::new();
        // The empty line at every offset, alone and after a bare-LF line.
        for at in 0..70 {
            let mut buf = std::vec![b'a'; 80];
            buf[at..at + 4].copy_from_slice(b"\r\n\r\n");
            inputs.push(buf.clone());
            if at >= 3 {
                buf[at - 3..at].copy_from_slice(b"\na\n");
                inputs.push(buf);
            }
        }
        // Runs of CR, LF and other bytes, from a fixed xorshift sequence.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            let len = 64 + (state % 17) as usize;
            let buf = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    [b'\r', b'\n', b'\r', b'\n', b'a', b' '][(state % 6) as usize]
                })
                .collect();
            inputs.push(buf);
        }
        // A short buffer has no first block to look in.
        inputs.push(b"HTTP/1.1 200 OK\r\n\r\n".to_vec());
        let mut found = 0;
        for buf in &inputs {
            let expected = contract(buf);
            for end in ends(buf) {
                assert_eq!(end, expected, "{buf:?}");
            }
            found += usize::from(expected.is_some());
        }
        assert!(found > 1_000, "{found} of {}", inputs.len());
    }
}
