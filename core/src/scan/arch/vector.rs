//! The few vector operations the kernels need, named after the instructions they stand for.
//!
//! Every method is `unsafe` because it is an intrinsic that needs a CPU feature: the caller must
//! know the feature is present (checked at run time, or enabled at compile time). None of them is
//! `#[target_feature]`; they are `#[inline(always)]` so that they inline into the
//! `#[target_feature]` entry points of each backend and compile to the right instructions.

/// A bit mask with one group of bits per byte of a [`Vector`], set where a comparison held.
///
/// x86 and wasm get one bit per byte from a movemask instruction; NEON has none, so its mask
/// keeps four bits per byte (from a narrowing shift) instead of paying to convert.
pub(crate) trait MoveMask: Copy {
    /// One bit per byte, byte `i` at bit `i`: the form the block classifier combines into a
    /// 64-bit mask per 64-byte block.
    fn to_bits(self) -> u64;
}

/// A SIMD register of `BYTES` bytes.
pub(crate) trait Vector: Copy {
    /// Width in bytes.
    const BYTES: usize;
    /// The mask [`movemask`](Vector::movemask) produces.
    type Mask: MoveMask;

    /// Every byte set to `byte` (`_mm_set1_epi8`, `vdupq_n_u8`, `u8x16_splat`).
    ///
    /// # Safety
    /// The CPU supports the backend's feature.
    unsafe fn splat(byte: u8) -> Self;

    /// A 16-byte table repeated into every 128-bit lane, for [`shuffle`](Vector::shuffle).
    ///
    /// # Safety
    /// The CPU supports the backend's feature.
    unsafe fn table(bytes: &[u8; 16]) -> Self;

    /// `BYTES` bytes read from `ptr`, which need not be aligned (`_mm_loadu_si128`, `vld1q_u8`,
    /// `v128_load`).
    ///
    /// # Safety
    /// The CPU supports the backend's feature, and `ptr..ptr + BYTES` is readable.
    unsafe fn load_unaligned(ptr: *const u8) -> Self;

    /// The `n` bytes at `ptr` (`1 <= n <= BYTES`) with the rest of the register zero, reading
    /// no byte past `ptr + n`: `Some` where the instruction set has masked loads (AVX-512),
    /// `None` elsewhere, which the compiler folds away.
    ///
    /// # Safety
    /// The CPU supports the backend's feature, and `ptr..ptr + n` is readable.
    #[inline(always)]
    unsafe fn load_prefix(ptr: *const u8, n: usize) -> Option<Self> {
        let _ = (ptr, n);
        None
    }

    /// 0xFF where the bytes are equal, 0 elsewhere (`pcmpeqb`, `vceqq_u8`, `u8x16_eq`).
    ///
    /// # Safety
    /// The CPU supports the backend's feature.
    unsafe fn cmpeq(self, other: Self) -> Self;

    /// Bitwise and (`pand`, `vandq_u8`, `v128_and`).
    ///
    /// # Safety
    /// The CPU supports the backend's feature.
    unsafe fn and(self, other: Self) -> Self;

    /// Each byte shifted right by four: its high nibble (`psrlw` and a mask, `vshrq_n_u8`,
    /// `u8x16_shr`).
    ///
    /// # Safety
    /// The CPU supports the backend's feature.
    unsafe fn high_nibbles(self) -> Self;

    /// `self[indices[i]]` within each 128-bit lane, for indices below 16 (`pshufb`,
    /// `vqtbl1q_u8`, `u8x16_swizzle`).
    ///
    /// # Safety
    /// The CPU supports the backend's feature.
    unsafe fn shuffle(self, indices: Self) -> Self;

    /// The mask of the bytes that are 0xFF; every byte must be 0 or 0xFF (`pmovmskb`, `vshrn`,
    /// `u8x16_bitmask`).
    ///
    /// # Safety
    /// The CPU supports the backend's feature.
    unsafe fn movemask(self) -> Self::Mask;
}

/// Masks with one bit per byte, as x86 and wasm movemask instructions produce.
impl MoveMask for u32 {
    #[inline(always)]
    fn to_bits(self) -> u64 {
        u64::from(self)
    }
}

/// Masks with one bit per byte of a 64-byte register, as AVX-512's mask registers hold them.
impl MoveMask for u64 {
    #[inline(always)]
    fn to_bits(self) -> u64 {
        self
    }
}
