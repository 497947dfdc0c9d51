//! The SWAR backend ("SIMD within a register"): the kernels a word of eight bytes at a time, in
//! portable safe code, for targets without a SIMD backend (the wasm module for engines without
//! SIMD128, CPUs other than x86_64 and aarch64, x86_64 CPUs without SSE4.2).
//!
//! Its engine does not classify blocks. Without vector shuffles a 64-byte block costs hundreds
//! of instructions to classify into two masks, while the walk only
//! asks for the next byte outside a class from a given offset. So the engine answers that
//! question by scanning from the offset ([`Engine::SEARCHES`](super::Engine::SEARCHES)): a field
//! value, the longest run of a line, a word at a time; a field name, a dozen bytes on average, a
//! byte at a time through the class table, which is as fast as any word test of the irregular
//! `tchar` set.
//!
//! A word test sets bit 7 of the first byte of the word that stops the run, exactly; it may set
//! it in later bytes too (a borrow out of a stopping byte can flag the next), so only the first
//! set bit is read. That is the classic test for a zero byte, `(x - 0x01..) & !x & 0x80..`, whose
//! borrows only run from a flagged byte upwards.
//!
//! ```text
//! run_len(bytes):
//!     for each whole word w of 8 bytes at i:
//!         stops = bit 7 of the first byte of w outside the class (and maybe of later ones)
//!         if stops != 0: return i + trailing_zeros(stops) / 8
//!     the last bytes one at a time
//! ```
//!
//! [`Scalar`] stays the reference: tests compare every kernel of this backend with it on every
//! byte value at every position.

use super::class::{CLASS, TARGET, TOKEN};
use super::scalar::Scalar;
use super::{ByteClass, Kernels};

/// The SWAR kernels. See the module docs.
pub(crate) struct Swar;

/// The bytes of a word.
const WORD: usize = 8;

/// A word of eight bytes, each `b`.
const fn splat(b: u8) -> u64 {
    u64::from_le_bytes([b; WORD])
}

const ONES: u64 = splat(0x01);
const HIGH: u64 = splat(0x80);

/// The eight bytes of `bytes` at `i` as a word, the first byte lowest: `trailing_zeros` of a
/// mask of it counts from the first byte on every target.
#[inline(always)]
fn word(bytes: &[u8], i: usize) -> u64 {
    let mut w = [0; WORD];
    w.copy_from_slice(&bytes[i..i + WORD]);
    u64::from_le_bytes(w)
}

/// Bit 7 of the first zero byte of `w`, and perhaps of later ones.
#[inline(always)]
fn first_zero(w: u64) -> u64 {
    w.wrapping_sub(ONES) & !w & HIGH
}

/// Bit 7 of the first byte of `w` that is CR, LF or NUL, and perhaps of later ones: the first
/// zero of `w`, `w ^ CR` or `w ^ LF`.
#[inline(always)]
fn first_line_special(w: u64) -> u64 {
    first_zero(w) | first_zero(w ^ splat(b'\r')) | first_zero(w ^ splat(b'\n'))
}

/// Bit 7 of the first byte of `w` that is a control byte (below 0x20) or DEL, and perhaps of
/// later ones. HTAB is one of them and a field-value byte: the caller looks at the byte.
#[inline(always)]
fn first_control(w: u64) -> u64 {
    // `b - 0x20` sets bit 7 for b below 0x20, and for b from 0xA0 up, which `!w` clears.
    let below_sp = w.wrapping_sub(splat(0x20)) & !w & HIGH;
    below_sp | first_zero(w ^ splat(0x7f))
}

/// The index of the byte whose bit 7 is the lowest set bit of `stops`, a word test's result.
#[inline(always)]
fn first_flagged(stops: u64) -> usize {
    (stops.trailing_zeros() / 8) as usize
}

/// Length of the leading run of `bytes` whose class-table entries have `flag`: a byte at a time,
/// eight to an iteration.
// Inlined where the head engine is compiled per backend (x86_64); one copy elsewhere, for the
// wasm module's size.
#[cfg_attr(httpspan_engine_per_backend, inline(always))]
#[cfg_attr(not(httpspan_engine_per_backend), inline)]
fn table_run(bytes: &[u8], flag: u8) -> usize {
    let outside = |b: &u8| CLASS[*b as usize] & flag == 0;
    let mut i = 0;
    while let Some(chunk) = bytes.get(i..i + WORD) {
        // A loop of fixed length, which the compiler unrolls: no test of the length per byte.
        if let Some(j) = chunk.iter().position(outside) {
            return i + j;
        }
        i += WORD;
    }
    i + bytes[i..]
        .iter()
        .position(outside)
        .unwrap_or(bytes.len() - i)
}

// Each kernel is one copy in the wasm module, whose size counts, and inlined elsewhere.
impl Kernels for Swar {
    const SEARCHES: bool = true;

    #[cfg_attr(httpspan_one_engine, inline(never))]
    #[cfg_attr(not(httpspan_one_engine), inline)]
    fn line_special(bytes: &[u8]) -> usize {
        let mut i = 0;
        while i + WORD <= bytes.len() {
            let stops = first_line_special(word(bytes, i));
            if stops != 0 {
                return i + first_flagged(stops);
            }
            i += WORD;
        }
        i + Scalar::line_special(&bytes[i..])
    }

    /// A byte at a time through the class table (see the module docs), eight bytes to an
    /// iteration.
    #[cfg_attr(httpspan_one_engine, inline(never))]
    #[cfg_attr(not(httpspan_one_engine), inline)]
    fn token_len(bytes: &[u8]) -> usize {
        table_run(bytes, TOKEN)
    }

    /// As [`token_len`](Self::token_len): a request-target's class is as irregular as `tchar`.
    #[cfg_attr(httpspan_one_engine, inline(never))]
    #[cfg_attr(not(httpspan_one_engine), inline)]
    fn target_len(bytes: &[u8]) -> usize {
        table_run(bytes, TARGET)
    }

    #[cfg_attr(httpspan_one_engine, inline(never))]
    #[cfg_attr(not(httpspan_one_engine), inline)]
    fn field_value_len(bytes: &[u8]) -> usize {
        let mut i = 0;
        while i + WORD <= bytes.len() {
            let stops = first_control(word(bytes, i));
            if stops == 0 {
                i += WORD;
                continue;
            }
            let at = i + first_flagged(stops);
            // HTAB, the one control byte in a value, is rare: the search goes on after it.
            if bytes[at] != b'\t' {
                return at;
            }
            i = at + 1;
        }
        i + Scalar::field_value_len(&bytes[i..])
    }

    /// The reference's classifier: this backend's engine searches instead (see the module
    /// docs), so the block classifiers serve only the hooks that compare backends.
    #[inline]
    fn classify_fields(bytes: &[u8], at: usize) -> [u64; 2] {
        <Scalar as Kernels>::classify_fields(bytes, at)
    }

    /// As [`classify_fields`](Self::classify_fields).
    #[inline]
    fn classify_one(bytes: &[u8], at: usize, class: ByteClass) -> u64 {
        <Scalar as Kernels>::classify_one(bytes, at, class)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte value at every position of inputs of up to three words and a tail, among
    /// bytes inside the class, alone, after HTAB (which the value search steps over) and before
    /// the same byte three further on: the word tests must stop exactly where the byte loop
    /// stops.
    #[test]
    fn every_byte_at_every_position_stops_as_the_byte_loop() {
        type Kernel = fn(&[u8]) -> usize;
        let kernels: [(Kernel, Kernel); 4] = [
            (Swar::line_special, Scalar::line_special),
            (Swar::token_len, Scalar::token_len),
            (Swar::target_len, Scalar::target_len),
            (Swar::field_value_len, Scalar::field_value_len),
        ];
        // Under Miri, which runs this backend's engine and whose every step costs, a sample: the
        // bytes at the edges of the classes, and lengths up to a word and a byte.
        let bytes = (0..=255u8)
            .filter(|&b| !cfg!(miri) || b"\0\t\n\r\x1f \"(:\x7e\x7f\x80\xa0\xff".contains(&b));
        let bytes: std::vec::Vec<u8> = bytes.collect();
        let longest = if cfg!(miri) { 9 } else { 27 };
        let mut compared = 0;
        for (swar, scalar) in kernels {
            for len in 0..=longest {
                for at in 0..len {
                    for &b in &bytes {
                        for variant in 0..3 {
                            let mut bytes = [b'a'; 27];
                            bytes[at] = b;
                            match variant {
                                0 => {}
                                1 if at > 0 => bytes[at - 1] = b'\t',
                                2 if at + 3 < len => bytes[at + 3] = b,
                                _ => continue,
                            }
                            let input = &bytes[..len];
                            assert_eq!(
                                swar(input),
                                scalar(input),
                                "byte {b:#04x} at {at} of {len}, variant {variant}"
                            );
                            compared += 1;
                        }
                    }
                }
            }
        }
        assert!(
            compared > if cfg!(miri) { 3_000 } else { 300_000 },
            "{compared}"
        );
    }

    /// Runs of field-value bytes that include HTAB and obs-text, whose neighbours a borrow or a
    /// carry could mislead.
    #[test]
    fn value_runs_through_htab_and_obs_text() {
        let value = b"a\tb\x80\xff\x7e \t\t\x21\x20\x09zzzzzzz\r\n";
        assert_eq!(Swar::field_value_len(value), value.len() - 2);
        assert_eq!(
            Swar::field_value_len(b"\x09\x09\x09\x09\x09\x09\x09\x09\x7f"),
            8
        );
        assert_eq!(
            Swar::line_special(b"\x80\x8d\x8a\xff\x0e\x0c\x0b\x0f\x01\x00"),
            9
        );
    }
}
