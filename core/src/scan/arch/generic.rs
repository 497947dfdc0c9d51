//! The kernels, written once over [`Vector`]; each backend instantiates them with its registers.
//!
//! Every kernel asks the same question: the index of the first byte that stops a run. In
//! pseudo-code, for a vector width `W` and an input of at least `W` bytes:
//!
//! ```text
//! for each W-byte block at i (and once more for the last W bytes, overlapping):
//!     mask = stops(block)            // 0xFF for each byte that ends the run
//!     if mask != 0: return i + first set byte of mask
//! return len
//! ```
//!
//! Optimizations, in order of what they buy on HTTP heads:
//!
//! 1. The tail is one unaligned load of the last `W` bytes, which overlaps bytes already known not
//!    to stop the run, so the first stop it finds is the first of the input. No scalar tail loop.
//! 2. A class of bytes is tested with two 16-entry table lookups (one per nibble) and an `and`,
//!    whatever the class: the tables are built at compile time from the one byte-class table, so
//!    the grammar stays in `class.rs`.
//! 3. Inputs shorter than `W` go to a narrower vector, then to the scalar kernel (see
//!    [`ladder`]): short field values are common, and a scalar loop over a few bytes is cheaper
//!    than setting up a vector.

use super::vector::{MoveMask, Vector};
use crate::scan::class::{CLASS_TABLE, REG_NAME, TARGET, TOKEN, VALUE};
use crate::scan::PieceClass;
use crate::scan::scalar::Scalar;
use crate::scan::Kernels;

/// One byte class as two 16-entry tables for SIMD lookups: byte `b` is in the class exactly when
/// `low[b & 15] & high[b >> 4] != 0`.
///
/// For a high nibble `h` below 8, `high[h]` is the bit `1 << h` and `low[l]` has that bit when
/// byte `h * 16 + l` is in the class. The bytes 0x80..=0xFF must be all in the class (their
/// `high` entries are 0xFF) or all outside it (0). [`nibble_tables`] checks at compile time that
/// the two lookups agree with [`CLASS`](crate::scan::class::CLASS) on every byte.
pub(crate) struct NibbleTables {
    pub(crate) low: [u8; 16],
    pub(crate) high: [u8; 16],
}

const fn nibble_tables(flag: u8) -> NibbleTables {
    let mut tables = NibbleTables {
        low: [0; 16],
        high: [0; 16],
    };
    let mut h = 0;
    while h < 16 {
        tables.high[h] = if h < 8 {
            1 << h
        } else if CLASS_TABLE[h * 16] & flag != 0 {
            0xff
        } else {
            0
        };
        h += 1;
    }
    let mut b = 0;
    while b < 128 {
        if CLASS_TABLE[b] & flag != 0 {
            tables.low[b & 15] |= 1 << (b >> 4);
        }
        b += 1;
    }
    let mut b = 0;
    while b < 256 {
        let in_tables = tables.low[b & 15] & tables.high[b >> 4] != 0;
        assert!(
            in_tables == (CLASS_TABLE[b] & flag != 0),
            "this class cannot be expressed as nibble tables"
        );
        b += 1;
    }
    tables
}

/// [`TOKEN`] as nibble tables.
const TOKEN_TABLES: &NibbleTables = &nibble_tables(TOKEN);
/// [`TARGET`] as nibble tables.
const TARGET_TABLES: &NibbleTables = &nibble_tables(TARGET);
/// [`VALUE`] as nibble tables.
const VALUE_TABLES: &NibbleTables = &nibble_tables(VALUE);

/// What ends a run, as a vector operation on one block.
pub(crate) trait Stops<V: Vector>: Copy {
    /// 0xFF for each byte of `block` that ends the run, 0 for the others.
    ///
    /// # Safety
    /// The CPU supports the backend's feature.
    unsafe fn stops(self, block: V) -> V;
}

/// Stops at CR, LF and NUL: the end of a line, or a byte that makes it invalid.
#[derive(Clone, Copy)]
pub(crate) struct LineSpecial<V> {
    cr: V,
    lf: V,
    nul: V,
}

impl<V: Vector> LineSpecial<V> {
    /// # Safety
    /// The CPU supports the backend's feature.
    #[inline(always)]
    pub(crate) unsafe fn new() -> Self {
        // SAFETY: the caller guarantees the feature.
        unsafe {
            LineSpecial {
                cr: V::splat(b'\r'),
                lf: V::splat(b'\n'),
                nul: V::splat(0),
            }
        }
    }
}

impl<V: Vector> Stops<V> for LineSpecial<V> {
    #[inline(always)]
    unsafe fn stops(self, block: V) -> V {
        // SAFETY: the caller guarantees the feature.
        unsafe {
            block
                .cmpeq(self.cr)
                .or(block.cmpeq(self.lf))
                .or(block.cmpeq(self.nul))
        }
    }
}

/// Stops at the first byte outside a class given by its [`NibbleTables`]: a byte `b` is in the
/// class when `low[b & 15] & high[b >> 4] != 0`.
#[derive(Clone, Copy)]
pub(crate) struct OutsideClass<V> {
    low: V,
    high: V,
    low_nibble: V,
    zero: V,
}

impl<V: Vector> OutsideClass<V> {
    /// # Safety
    /// The CPU supports the backend's feature.
    #[inline(always)]
    pub(crate) unsafe fn new(tables: &NibbleTables) -> Self {
        // SAFETY: the caller guarantees the feature.
        unsafe {
            OutsideClass {
                low: V::table(&tables.low),
                high: V::table(&tables.high),
                low_nibble: V::splat(0x0f),
                zero: V::splat(0),
            }
        }
    }
}

impl<V: Vector> Stops<V> for OutsideClass<V> {
    #[inline(always)]
    unsafe fn stops(self, block: V) -> V {
        // SAFETY: the caller guarantees the feature.
        unsafe {
            let low = self.low.shuffle(block.and(self.low_nibble));
            let high = self.high.shuffle(block.high_nibbles());
            low.and(high).cmpeq(self.zero)
        }
    }
}

/// Index of the first byte of `bytes` that `stops` marks, or `bytes.len()`.
///
/// # Safety
/// The CPU supports the backend's feature, and `bytes.len() >= V::BYTES`.
#[inline(always)]
pub(crate) unsafe fn first_stop<V: Vector, S: Stops<V>>(bytes: &[u8], stops: S) -> usize {
    debug_assert!(bytes.len() >= V::BYTES);
    let len = bytes.len();
    let start = bytes.as_ptr();
    let last = len - V::BYTES;
    let mut i = 0;
    while i < last {
        // SAFETY: i < last = len - BYTES, so i..i + BYTES is inside `bytes`; the caller
        // guarantees the feature.
        let mask = unsafe { stops.stops(V::load_unaligned(start.add(i))).movemask() };
        if mask.has_non_zero() {
            return i + mask.first_offset();
        }
        i += V::BYTES;
    }
    // The last block overlaps bytes already checked, none of which stops the run, so its first
    // stop is the first of the input.
    // SAFETY: last + BYTES = len; the caller guarantees the feature.
    let mask = unsafe { stops.stops(V::load_unaligned(start.add(last))).movemask() };
    if mask.has_non_zero() {
        last + mask.first_offset()
    } else {
        len
    }
}

/// One kernel: what stops its run, and its scalar reference for inputs too short for a vector.
pub(crate) trait Run {
    /// The vector test.
    type Stops<V: Vector>: Stops<V>;
    /// The test's constants for vector type `V`.
    ///
    /// # Safety
    /// The CPU supports the backend's feature.
    unsafe fn stops<V: Vector>() -> Self::Stops<V>;
    /// The scalar kernel.
    fn scalar(bytes: &[u8]) -> usize;
}

macro_rules! runs {
    ($( $(#[$doc:meta])* $name:ident: $stops:ident ($($tables:expr)?) = $kernel:ident; )*) => {$(
        $(#[$doc])*
        pub(crate) struct $name;

        impl Run for $name {
            type Stops<V: Vector> = $stops<V>;
            #[inline(always)]
            unsafe fn stops<V: Vector>() -> $stops<V> {
                // SAFETY: the caller guarantees the feature.
                unsafe { $stops::new($($tables)?) }
            }
            #[inline(always)]
            fn scalar(bytes: &[u8]) -> usize {
                <Scalar as Kernels>::$kernel(bytes)
            }
        }
    )*};
}

runs! {
    /// [`Kernels::line_special`].
    LineSpecialRun: LineSpecial() = line_special;
    /// [`Kernels::token_len`].
    TokenRun: OutsideClass(TOKEN_TABLES) = token_len;
    /// [`Kernels::target_len`].
    TargetRun: OutsideClass(TARGET_TABLES) = target_len;
    /// [`Kernels::field_value_len`].
    ValueRun: OutsideClass(VALUE_TABLES) = field_value_len;
}

/// The kernel `R` on `bytes`: with the wide vector `W` if the input is at least that long, else
/// with the narrow vector `N`, else with the scalar kernel.
///
/// # Safety
/// The CPU supports the features of `W` and `N`.
#[inline(always)]
pub(crate) unsafe fn by_length<W: Vector, N: Vector, R: Run>(bytes: &[u8]) -> usize {
    if bytes.len() >= W::BYTES {
        // SAFETY: the caller guarantees the feature; the length is checked above.
        unsafe { first_stop::<W, _>(bytes, R::stops::<W>()) }
    } else if bytes.len() >= N::BYTES {
        // SAFETY: as above.
        unsafe { first_stop::<N, _>(bytes, R::stops::<N>()) }
    } else {
        R::scalar(bytes)
    }
}

/// Stage 1 of the head engine: the block of 64 bytes at `at` as one bit mask per byte class,
/// bit `i` set where byte `at + i` is outside the class.
///
/// ```text
/// classify(buf, at):
///     for each vector v of the block (2 of 32 bytes, or 4 of 16):
///         lo, hi = v & 0x0F, v >> 4
///         for each class c:                   // tables from class.rs, built at compile time
///             mask[c] |= movemask(low_c[lo] & high_c[hi] == 0) << (offset of v)
///     mask[c] |= every bit past the end of buf  // a search stops there as at a bad byte
/// ```
///
/// The classes are computed side by side from the same two nibble vectors, so they cost two
/// shuffles, an `and`, a compare and a movemask each. A block cut short by the end of the buffer
/// is never copied into a padded one:
///
/// 1. with 64 bytes or more in the buffer, the 64 bytes that end it are read (overlapping bytes
///    before `at`) and the masks shifted down;
/// 2. in a shorter buffer, vectors from `at` (the wide ones if the buffer holds one, else 16
///    bytes), the last ending at the buffer's end (overlapping the one before it), shifted into
///    place;
/// 3. in a buffer shorter than 16 bytes, the scalar classifier.
///
/// Stage 1 judges bytes only by class: where the colon, the CR or the LF must be is stage 2's
/// question, and so is every rule that spans bytes.
///
/// # Safety
/// The CPU supports the features of `W` and `N`.
#[inline(always)]
pub(crate) unsafe fn classify<W: Vector, N: Vector, C: Classes<K>, const K: usize>(
    bytes: &[u8],
    at: usize,
) -> [u64; K] {
    let len = bytes.len();
    if at >= len {
        return [u64::MAX; K];
    }
    let left = len - at;
    let past_end = if left >= 64 { 0 } else { u64::MAX << left };
    let ptr = bytes.as_ptr();
    let mut masks = [0u64; K];
    if len >= 64 {
        let start = if left >= 64 { at } else { len - 64 };
        // SAFETY: the caller guarantees the feature.
        let set = unsafe { ClassSet::<W, K>::new(C::TABLES) };
        let mut k = 0;
        while k < 64 {
            // SAFETY: start + 64 <= len, so the load is inside `bytes`; the caller guarantees
            // the feature.
            let outside = unsafe { set.outside(W::load_unaligned(ptr.add(start + k))) };
            for (mask, outside) in masks.iter_mut().zip(outside) {
                *mask |= outside << k;
            }
            k += W::BYTES;
        }
        for mask in &mut masks {
            *mask = *mask >> (at - start) | past_end;
        }
    } else if len >= W::BYTES {
        // SAFETY: the length is checked; the caller guarantees the feature.
        masks = unsafe { classify_short::<W, C, K>(bytes, at) };
    } else if len >= N::BYTES {
        // SAFETY: the length is checked; the caller guarantees the feature.
        masks = unsafe { classify_short::<N, C, K>(bytes, at) };
    } else {
        masks = Scalar::classify(bytes, at, C::FLAGS);
    }
    masks
}

/// [`classify`] in a buffer of fewer than 64 bytes but at least `V::BYTES`: vectors from `at`,
/// the last one ending at the buffer's end (overlapping the one before), each shifted into
/// place, and every bit past the end set.
///
/// # Safety
/// The CPU supports the feature of `V`, and `V::BYTES <= bytes.len() < 64`, `at < bytes.len()`.
#[inline(always)]
unsafe fn classify_short<V: Vector, C: Classes<K>, const K: usize>(
    bytes: &[u8],
    at: usize,
) -> [u64; K] {
    let (len, ptr) = (bytes.len(), bytes.as_ptr());
    debug_assert!(V::BYTES <= len && len < 64 && at < len);
    // SAFETY: the caller guarantees the feature.
    let set = unsafe { ClassSet::<V, K>::new(C::TABLES) };
    let mut masks = [0u64; K];
    let mut k = at;
    while k + V::BYTES <= len {
        // SAFETY: k + V::BYTES <= len; the caller guarantees the feature.
        let outside = unsafe { set.outside(V::load_unaligned(ptr.add(k))) };
        for (mask, outside) in masks.iter_mut().zip(outside) {
            *mask |= outside << (k - at);
        }
        k += V::BYTES;
    }
    if k < len {
        let last = len - V::BYTES;
        // SAFETY: last + V::BYTES = len; the caller guarantees the feature.
        let outside = unsafe { set.outside(V::load_unaligned(ptr.add(last))) };
        for (mask, outside) in masks.iter_mut().zip(outside) {
            *mask |= match last >= at {
                true => outside << (last - at),
                false => outside >> (at - last),
            };
        }
    }
    let past_end = u64::MAX << (len - at);
    for mask in &mut masks {
        *mask |= past_end;
    }
    masks
}

/// The byte classes one [`classify`] call computes.
pub(crate) trait Classes<const K: usize> {
    /// Each class as nibble tables.
    const TABLES: [&'static NibbleTables; K];
    /// Each class as its flag in [`CLASS_TABLE`], for the scalar classifier.
    const FLAGS: [u8; K];
}

/// The classes of field lines: `tchar` (the name ends at the first byte outside it, which must
/// be the colon) and field-value bytes (the value ends at the first byte outside them, which
/// must be the CR of the line end). The same two find the method and the line end of a
/// request-line and the reason phrase of a status-line.
pub(crate) struct FieldClasses;

impl Classes<2> for FieldClasses {
    const TABLES: [&'static NibbleTables; 2] = [TOKEN_TABLES, VALUE_TABLES];
    const FLAGS: [u8; 2] = [TOKEN, VALUE];
}

/// The request-target class, for the target of a request-line.
pub(crate) struct TargetClass;

impl Classes<1> for TargetClass {
    const TABLES: [&'static NibbleTables; 1] = [TARGET_TABLES];
    const FLAGS: [u8; 1] = [TARGET];
}

/// The reg-name class (but percent-encodings), for Host values.
pub(crate) struct RegNameClass;

impl Classes<1> for RegNameClass {
    const TABLES: [&'static NibbleTables; 1] = [&nibble_tables(REG_NAME)];
    const FLAGS: [u8; 1] = [REG_NAME];
}

/// [`classify`] of one [`PieceClass`]: a constant at every call in the head engine, so the
/// match folds away.
///
/// # Safety
/// The CPU supports the features of `W` and `N`.
#[inline(always)]
pub(crate) unsafe fn classify_piece<W: Vector, N: Vector>(
    bytes: &[u8],
    at: usize,
    class: PieceClass,
) -> u64 {
    // SAFETY: the caller guarantees the features.
    unsafe {
        match class {
            PieceClass::Target => classify::<W, N, TargetClass, 1>(bytes, at)[0],
            PieceClass::RegName => classify::<W, N, RegNameClass, 1>(bytes, at)[0],
        }
    }
}

/// The nibble tables of `K` classes in registers, with the constants their lookups need.
#[derive(Clone, Copy)]
struct ClassSet<V, const K: usize> {
    low: [V; K],
    high: [V; K],
    low_nibble: V,
    zero: V,
}

impl<V: Vector, const K: usize> ClassSet<V, K> {
    /// # Safety
    /// The CPU supports the backend's feature.
    #[inline(always)]
    unsafe fn new(tables: [&NibbleTables; K]) -> Self {
        // SAFETY: the caller guarantees the feature.
        unsafe {
            let zero = V::splat(0);
            let (mut low, mut high) = ([zero; K], [zero; K]);
            for ((low, high), tables) in low.iter_mut().zip(&mut high).zip(tables) {
                *low = V::table(&tables.low);
                *high = V::table(&tables.high);
            }
            ClassSet {
                low,
                high,
                low_nibble: V::splat(0x0f),
                zero,
            }
        }
    }

    /// For each class, bit `i` set where byte `i` of `v` is outside it.
    ///
    /// # Safety
    /// The CPU supports the backend's feature.
    #[inline(always)]
    unsafe fn outside(&self, v: V) -> [u64; K] {
        // SAFETY: the caller guarantees the feature.
        unsafe {
            let low_nibbles = v.and(self.low_nibble);
            let high_nibbles = v.high_nibbles();
            let mut outside = [0; K];
            for ((outside, low), high) in outside.iter_mut().zip(&self.low).zip(&self.high) {
                let in_class = low.shuffle(low_nibbles).and(high.shuffle(high_nibbles));
                *outside = in_class.cmpeq(self.zero).movemask().to_bits();
            }
            outside
        }
    }
}

/// Defines the four kernels of a backend as `#[target_feature]` functions over [`by_length`].
macro_rules! ladder {
    ($feature:literal, $wide:ty, $narrow:ty) => {
        $crate::scan::arch::generic::ladder!(@one $feature, $wide, $narrow,
            line_special: LineSpecialRun, token_len: TokenRun,
            target_len: TargetRun, field_value_len: ValueRun);
    };
    (@one $feature:literal, $wide:ty, $narrow:ty, $($name:ident: $run:ident),*) => {
        /// See `Kernels::classify_fields`.
        ///
        /// # Safety
        /// The CPU supports this backend's target feature.
        #[target_feature(enable = $feature)]
        pub(crate) unsafe fn classify_fields(bytes: &[u8], at: usize) -> [u64; 2] {
            use $crate::scan::arch::generic::{classify, FieldClasses};
            // SAFETY: the caller guarantees the feature, which both vector types need.
            unsafe { classify::<$wide, $narrow, FieldClasses, 2>(bytes, at) }
        }

        /// See `Kernels::classify_piece`.
        ///
        /// # Safety
        /// The CPU supports this backend's target feature.
        #[target_feature(enable = $feature)]
        pub(crate) unsafe fn classify_piece(
            bytes: &[u8],
            at: usize,
            class: $crate::scan::PieceClass,
        ) -> u64 {
            use $crate::scan::arch::generic::classify_piece;
            // SAFETY: the caller guarantees the feature, which both vector types need.
            unsafe { classify_piece::<$wide, $narrow>(bytes, at, class) }
        }
    $(
        /// See the kernel of the same name in `Kernels`.
        ///
        /// # Safety
        /// The CPU supports this backend's target feature.
        #[target_feature(enable = $feature)]
        pub(crate) unsafe fn $name(bytes: &[u8]) -> usize {
            // SAFETY: the caller guarantees the feature, which both vector types need.
            unsafe {
                $crate::scan::arch::generic::by_length::<
                    $wide,
                    $narrow,
                    $crate::scan::arch::generic::$run,
                >(bytes)
            }
        }
    )*};
}
pub(crate) use ladder;

/// Defines a backend's [`Engine`](crate::scan::Engine): a token that only this module can make,
/// and `run`, the `#[target_feature]` entry point that makes it and runs a task with it, so
/// that the task (the head engine's loop) compiles with the backend's kernels inlined.
#[cfg(target_arch = "x86_64")]
macro_rules! engine {
    ($feature:literal, $wide:ty, $narrow:ty) => {
        /// This backend's kernels as an engine.
        ///
        /// INVARIANT: one exists only inside [`run`], whose caller guarantees the CPU feature.
        /// The field is private to this module, so no other code can make one.
        #[derive(Clone, Copy)]
        pub(crate) struct Engine(());

        // The kernels are spelled out from `by_length` (always inlined) rather than calling the
        // `#[target_feature]` functions above, which the compiler may decline to inline: inlined,
        // their constants are loaded once per parse instead of once per line.
        impl $crate::scan::Engine for Engine {
            #[inline(always)]
            fn line_special_long(self, bytes: &[u8]) -> usize {
                use $crate::scan::arch::generic::{by_length, LineSpecialRun};
                // SAFETY: the Engine invariant: the CPU has the feature.
                unsafe { by_length::<$wide, $narrow, LineSpecialRun>(bytes) }
            }

            #[inline(always)]
            fn fields_block(self, bytes: &[u8], at: usize) -> [u64; 2] {
                use $crate::scan::arch::generic::{classify, FieldClasses};
                // SAFETY: the Engine invariant: the CPU has the feature.
                unsafe { classify::<$wide, $narrow, FieldClasses, 2>(bytes, at) }
            }

            #[inline(always)]
            fn piece_block(
                self,
                bytes: &[u8],
                at: usize,
                class: $crate::scan::PieceClass,
            ) -> u64 {
                use $crate::scan::arch::generic::classify_piece;
                // SAFETY: the Engine invariant: the CPU has the feature.
                unsafe { classify_piece::<$wide, $narrow>(bytes, at, class) }
            }
        }

        /// Runs `task` with this backend's engine, compiled for its feature.
        ///
        /// # Safety
        /// The CPU supports this backend's target feature.
        #[target_feature(enable = $feature)]
        pub(crate) unsafe fn run<T: $crate::scan::WithEngine>(task: T) -> T::Output {
            task.run(Engine(()))
        }
    };
}
#[cfg(target_arch = "x86_64")]
pub(crate) use engine;
