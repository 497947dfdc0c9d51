//! Stage 1 and the run kernels, written once over [`Vector`]; each backend instantiates them
//! with its registers.
//!
//! Everything here answers one question, "which bytes of this block are outside a class", as a
//! 64-bit mask per 64-byte block ([`classify`]). The head engine walks the masks of the field
//! classes (see `scan::blocks`); the run kernels (`token_len`, `field_value_len`, ...) are the
//! first set bit of one class's masks:
//!
//! ```text
//! run_len(bytes, class):
//!     for each 64-byte block at `at`:
//!         mask = classify(bytes, at, class)   // bits past the end of `bytes` are set
//!         if mask != 0: return at + trailing_zeros(mask)
//! ```
//!
//! Optimizations, in order of what they buy on HTTP heads:
//!
//! 1. A class of bytes is tested with two 16-entry table lookups (one per nibble) and an `and`,
//!    whatever the class: the tables are built at compile time from the one byte-class table, so
//!    the grammar stays in `class.rs`. Several classes share the nibble extraction.
//! 2. A block cut short by the end of the buffer is never copied into a padded one: the loads
//!    overlap bytes already classified (see [`classify`]).
//! 3. Inputs shorter than 16 bytes go to the scalar kernel before any dispatch (`scan::SHORT`):
//!    a scalar loop over a few bytes is cheaper than setting up a vector.

use super::vector::{MoveMask, Vector};
use crate::scan::class::CLASS_TABLE;
use crate::scan::scalar::Scalar;
use crate::scan::{ByteClass, FIELD_CLASSES};

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

const fn nibble_tables(class: ByteClass) -> NibbleTables {
    let (flag, present) = (class.flag(), class.present());
    let mut tables = NibbleTables {
        low: [0; 16],
        high: [0; 16],
    };
    let mut h = 0;
    while h < 16 {
        tables.high[h] = if h < 8 {
            1 << h
        } else if (CLASS_TABLE[h * 16] & flag != 0) == present {
            0xff
        } else {
            0
        };
        h += 1;
    }
    let mut b = 0;
    while b < 128 {
        if (CLASS_TABLE[b] & flag != 0) == present {
            tables.low[b & 15] |= 1 << (b >> 4);
        }
        b += 1;
    }
    let mut b = 0;
    while b < 256 {
        let in_tables = tables.low[b & 15] & tables.high[b >> 4] != 0;
        assert!(
            in_tables == ((CLASS_TABLE[b] & flag != 0) == present),
            "this class cannot be expressed as nibble tables"
        );
        b += 1;
    }
    tables
}

/// Each class of [`ByteClass`] as nibble tables.
const TOKEN_TABLES: &NibbleTables = &nibble_tables(ByteClass::Token);
const TARGET_TABLES: &NibbleTables = &nibble_tables(ByteClass::Target);
const VALUE_TABLES: &NibbleTables = &nibble_tables(ByteClass::Value);
const REG_NAME_TABLES: &NibbleTables = &nibble_tables(ByteClass::RegName);
const NOT_LINE_SPECIAL_TABLES: &NibbleTables = &nibble_tables(ByteClass::NotLineSpecial);

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
/// 2. in a shorter buffer, with 64-byte registers (AVX-512), one masked load of the whole
///    buffer, which reads nothing past it, and the masks shifted down;
/// 3. else vectors from `at` (the wide ones if the buffer holds one, else 16 bytes), the last
///    ending at the buffer's end (overlapping the one before it), shifted into place;
/// 4. in a buffer shorter than 16 bytes, the scalar classifier.
///
/// Stage 1 judges bytes only by class: where the colon, the CR or the LF must be is stage 2's
/// question, and so is every rule that spans bytes.
///
/// # Safety
/// The CPU supports the features of `W` and `N`.
#[inline(always)]
pub(crate) unsafe fn classify<W: Vector, N: Vector, const K: usize>(
    bytes: &[u8],
    at: usize,
    classes: &Classes<K>,
) -> [u64; K] {
    let len = bytes.len();
    if at >= len {
        return [u64::MAX; K];
    }
    let left = len - at;
    let past_end = if left >= 64 { 0 } else { u64::MAX << left };
    let ptr = bytes.as_ptr();
    let mut masks = [0u64; K];
    if len < 64 {
        // A buffer under one block, where the registers have masked loads: one load of the
        // whole buffer, and the masks shifted down to `at`. The load does not depend on `at`,
        // so the compiler may hoist it out of a walk's loop.
        // SAFETY: the `len` bytes from `ptr` are `bytes`; the caller guarantees the feature.
        if let Some(v) = unsafe { W::load_prefix(ptr, len) } {
            // SAFETY: the caller guarantees the feature.
            let outside = unsafe { ClassSet::<W, K>::new(classes.tables).outside(v) };
            for (mask, outside) in masks.iter_mut().zip(outside) {
                *mask = outside >> at | past_end;
            }
            return masks;
        }
    }
    if len >= 64 {
        // A whole block from `at`, or the 64 bytes that end the buffer, shifted down to `at`
        // (a whole block by 0, with no bit past the end: a shift costs less than a branch).
        let start = if left >= 64 { at } else { len - 64 };
        // SAFETY: start + 64 <= len; the caller guarantees the feature.
        masks = unsafe { classify_block::<W, K>(bytes, start, classes) };
        for mask in &mut masks {
            *mask = *mask >> (at - start) | past_end;
        }
    } else if len >= W::BYTES {
        // SAFETY: the length is checked; the caller guarantees the feature.
        masks = unsafe { classify_short::<W, K>(bytes, at, classes) };
    } else if len >= N::BYTES {
        // SAFETY: the length is checked; the caller guarantees the feature.
        masks = unsafe { classify_short::<N, K>(bytes, at, classes) };
    } else {
        masks = Scalar::classify(bytes, at, classes.classes);
    }
    masks
}

/// Where a head parsed from the start of `bytes` ends, if the walk can tell from its first 64
/// bytes alone: one past the first CR LF CR LF if it ends under 64 bytes. `None` if there is
/// none, if `bytes` is shorter than 64, or if two LFs one byte apart come before it (bare-LF
/// lines, which a head of CR LF lines never holds): the walk over whole blocks then finds the
/// end. One compare per vector rather than `classify_one`'s table lookups, because it runs in
/// front of every head parsed from the start of a longer buffer.
///
/// ```text
/// lf    = LF mask of bytes[..64]
/// start = first i with lf[i + 1] and lf[i + 3]
/// Some(start + 4) if start + 4 < 64 and bytes[start..start + 4] == CR LF CR LF
/// ```
///
/// # Safety
/// The CPU supports the feature of `V`.
#[cfg(httpspan_engine_per_backend)]
#[inline(always)]
pub(crate) unsafe fn empty_line_end_in_first<V: Vector>(bytes: &[u8]) -> Option<usize> {
    let block = bytes.first_chunk::<64>()?;
    // SAFETY: the caller guarantees the feature.
    let lf = unsafe { V::splat(b'\n') };
    let mut lfs = 0u64;
    let mut k = 0;
    while k < 64 {
        // SAFETY: k + V::BYTES <= 64, so the load is inside `block`; the caller guarantees the
        // feature.
        unsafe {
            let v = V::load_unaligned(block.as_ptr().add(k));
            lfs |= v.cmpeq(lf).movemask().to_bits() << k;
        }
        k += V::BYTES;
    }
    let start = ((lfs & lfs >> 2) >> 1).trailing_zeros() as usize;
    (start + 4 < 64 && block.get(start..start + 4) == Some(b"\r\n\r\n")).then_some(start + 4)
}

/// The masks of the 64 bytes at `start`, all inside `bytes`.
///
/// # Safety
/// The CPU supports the feature of `V`, and `start + 64 <= bytes.len()`.
#[inline(always)]
pub(crate) unsafe fn classify_block<V: Vector, const K: usize>(
    bytes: &[u8],
    start: usize,
    classes: &Classes<K>,
) -> [u64; K] {
    debug_assert!(start + 64 <= bytes.len());
    // SAFETY: the caller guarantees the feature.
    let set = unsafe { ClassSet::<V, K>::new(classes.tables) };
    let mut masks = [0u64; K];
    let mut k = 0;
    while k < 64 {
        // SAFETY: start + 64 <= len, so the load is inside `bytes`; the caller guarantees the
        // feature.
        let outside = unsafe { set.outside(V::load_unaligned(bytes.as_ptr().add(start + k))) };
        for (mask, outside) in masks.iter_mut().zip(outside) {
            *mask |= outside << k;
        }
        k += V::BYTES;
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
unsafe fn classify_short<V: Vector, const K: usize>(
    bytes: &[u8],
    at: usize,
    classes: &Classes<K>,
) -> [u64; K] {
    let (len, ptr) = (bytes.len(), bytes.as_ptr());
    debug_assert!(V::BYTES <= len && len < 64 && at < len);
    // SAFETY: the caller guarantees the feature.
    let set = unsafe { ClassSet::<V, K>::new(classes.tables) };
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

/// The byte classes one [`classify`] call computes: each as nibble tables, and the classes
/// themselves for the scalar classifier. Values, not types: where the classes are constants
/// (the head engine's calls) the compiler folds them in, and one copy of `classify` serves every
/// single-class question where they are not (the wasm module's size counts).
pub(crate) struct Classes<const K: usize> {
    tables: [&'static NibbleTables; K],
    classes: [ByteClass; K],
}

/// The classes of field lines ([`FIELD_CLASSES`]) as classifier input.
pub(crate) const FIELD_CLASS_SET: Classes<2> = classes(FIELD_CLASSES);

/// `list` as classifier input: its classes and their nibble tables.
const fn classes<const K: usize>(list: [ByteClass; K]) -> Classes<K> {
    let mut tables = [TOKEN_TABLES; K];
    let mut i = 0;
    while i < K {
        tables[i] = tables_of(list[i]);
        i += 1;
    }
    Classes {
        tables,
        classes: list,
    }
}

/// The nibble tables of `class`.
#[inline(always)]
const fn tables_of(class: ByteClass) -> &'static NibbleTables {
    match class {
        ByteClass::Token => TOKEN_TABLES,
        ByteClass::Value => VALUE_TABLES,
        ByteClass::Target => TARGET_TABLES,
        ByteClass::RegName => REG_NAME_TABLES,
        ByteClass::NotLineSpecial => NOT_LINE_SPECIAL_TABLES,
    }
}

/// The classifier input of one [`ByteClass`], for the single-class calls: [`classes`] of one,
/// written out.
#[inline(always)]
const fn one_class(class: ByteClass) -> Classes<1> {
    Classes {
        tables: [tables_of(class)],
        classes: [class],
    }
}

/// [`classify`] of one [`ByteClass`].
///
/// # Safety
/// The CPU supports the features of `W` and `N`.
#[inline(always)]
pub(crate) unsafe fn classify_one<W: Vector, N: Vector>(
    bytes: &[u8],
    at: usize,
    class: ByteClass,
) -> u64 {
    // SAFETY: the caller guarantees the features.
    unsafe { classify::<W, N, 1>(bytes, at, &one_class(class))[0] }
}

/// The length of the leading run of `bytes` inside `class`: the first set bit of the class's
/// masks, block after block (see the module docs). For the x86_64 engines, into which it
/// inlines; the backends' entry points have their own loop over their shared classifier.
///
/// # Safety
/// The CPU supports the features of `W` and `N`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) unsafe fn run_len<W: Vector, N: Vector>(bytes: &[u8], class: ByteClass) -> usize {
    let mut at = 0;
    while at < bytes.len() {
        // SAFETY: the caller guarantees the features.
        let outside = unsafe { classify_one::<W, N>(bytes, at, class) };
        if outside != 0 {
            // Bits past the end are set: a run that reaches the end stops there.
            return at + outside.trailing_zeros() as usize;
        }
        at += 64;
    }
    bytes.len()
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

/// Defines a backend's `#[target_feature]` entry points: the block classifiers and the run
/// kernels over them.
macro_rules! ladder {
    ($feature:literal, $wide:ty, $narrow:ty) => {
        $crate::scan::arch::generic::ladder!(@one $feature, $wide, $narrow,
            line_special: NotLineSpecial, token_len: Token,
            target_len: Target, field_value_len: Value);
    };
    (@one $feature:literal, $wide:ty, $narrow:ty, $($name:ident: $class:ident),*) => {
        /// See `Kernels::classify_fields`.
        ///
        /// # Safety
        /// The CPU supports this backend's target feature.
        #[target_feature(enable = $feature)]
        pub(crate) unsafe fn classify_fields(bytes: &[u8], at: usize) -> [u64; 2] {
            use $crate::scan::arch::generic::{classify, FIELD_CLASS_SET};
            // SAFETY: the caller guarantees the feature, which both vector types need.
            unsafe { classify::<$wide, $narrow, 2>(bytes, at, &FIELD_CLASS_SET) }
        }

        /// See `Kernels::classify_fields_in_walk`: a whole block classified in the walk, where
        /// the module's size keeps the classifier out of line elsewhere; a block cut short by
        /// the end of the buffer (once per head at most) through `classify_fields`.
        ///
        /// # Safety
        /// The CPU supports this backend's target feature.
        #[cfg(httpspan_size_first)]
        #[target_feature(enable = $feature)]
        #[inline]
        pub(crate) unsafe fn classify_fields_in_walk(bytes: &[u8], at: usize) -> [u64; 2] {
            use $crate::scan::arch::generic::{classify_block, FIELD_CLASS_SET};
            if bytes.len().saturating_sub(at) >= 64 {
                // SAFETY: at + 64 <= len; the caller guarantees the feature.
                unsafe { classify_block::<$wide, 2>(bytes, at, &FIELD_CLASS_SET) }
            } else {
                // SAFETY: the caller guarantees the feature.
                unsafe { classify_fields(bytes, at) }
            }
        }

        /// See `Kernels::classify_one`. Out of line where the backend is fixed at compile time:
        /// the run kernels and the head engine's pieces share this one copy (the wasm module's
        /// size counts).
        ///
        /// # Safety
        /// The CPU supports this backend's target feature.
        #[target_feature(enable = $feature)]
        #[cfg_attr(not(target_arch = "x86_64"), inline(never))]
        pub(crate) unsafe fn classify_one(
            bytes: &[u8],
            at: usize,
            class: $crate::scan::ByteClass,
        ) -> u64 {
            // SAFETY: the caller guarantees the feature, which both vector types need.
            unsafe { $crate::scan::arch::generic::classify_one::<$wide, $narrow>(bytes, at, class) }
        }

        /// The length of the leading run of `bytes` inside `class`: the first set bit of the
        /// class's masks, block after block.
        ///
        /// # Safety
        /// The CPU supports this backend's target feature.
        #[target_feature(enable = $feature)]
        unsafe fn run_len(bytes: &[u8], class: $crate::scan::ByteClass) -> usize {
            let mut at = 0;
            while at < bytes.len() {
                // SAFETY: the caller guarantees the feature.
                let outside = unsafe { classify_one(bytes, at, class) };
                if outside != 0 {
                    // Bits past the end are set: a run that reaches the end stops there.
                    return at + outside.trailing_zeros() as usize;
                }
                at += 64;
            }
            bytes.len()
        }
    $(
        /// See the kernel of the same name in `Kernels`.
        ///
        /// # Safety
        /// The CPU supports this backend's target feature.
        #[target_feature(enable = $feature)]
        pub(crate) unsafe fn $name(bytes: &[u8]) -> usize {
            // SAFETY: the caller guarantees the feature.
            unsafe { run_len(bytes, $crate::scan::ByteClass::$class) }
        }
    )*};
}
pub(crate) use ladder;

/// Defines `$name`, the safe [`Kernels`](crate::scan::Kernels) interface to the kernels of
/// `$module`, a backend whose feature the target enables at compile time (NEON, SIMD128), for
/// the head engine's [`KernelsEngine`](crate::scan::KernelsEngine). Called through
/// `for_each_kernel!`, which supplies the kernels' signatures.
#[cfg(not(target_arch = "x86_64"))]
macro_rules! compile_time_kernels {
    ([$name:ident, $module:ident, $feature:literal]
     $($kernel:ident($($arg:ident: $ty:ty),*) -> $ret:ty),*) => {
        #[doc = concat!("The ", $feature, " kernels behind the safe `Kernels` interface.")]
        #[derive(Clone, Copy)]
        pub(crate) struct $name;

        impl $crate::scan::Kernels for $name {
            $(
                #[inline(always)]
                fn $kernel($($arg: $ty),*) -> $ret {
                    // SAFETY: build.rs compiles this backend in only when the target enables
                    // its feature, which every CPU that runs the program then has.
                    unsafe { $module::$kernel($($arg),*) }
                }
            )*

            #[cfg(httpspan_size_first)]
            #[inline(always)]
            fn classify_fields_in_walk(bytes: &[u8], at: usize) -> [u64; 2] {
                // SAFETY: as for the kernels above.
                unsafe { $module::classify_fields_in_walk(bytes, at) }
            }
        }
    };
}
#[cfg(not(target_arch = "x86_64"))]
pub(crate) use compile_time_kernels;

/// Defines a backend's [`Engine`](crate::scan::Engine): a token that only this module can make,
/// and the `#[target_feature]` entry points that make it and run a task with it (`run_small`,
/// `run_head_in_first_block`, `run_whole`; `arch::with_engine` picks one), so that the task
/// (the head engine's loop) compiles with the backend's kernels inlined.
#[cfg(target_arch = "x86_64")]
macro_rules! engine {
    ($feature:literal, $wide:ty, $narrow:ty) => {
        /// This backend's kernels as an engine.
        ///
        /// INVARIANT: one exists only inside this module's entry points (`run_small`,
        /// `run_head_in_first_block`, `run_whole`), whose callers guarantee the CPU feature.
        /// The field is private to this module, so no other code can make one.
        #[derive(Clone, Copy)]
        pub(crate) struct Engine(());

        // The kernels are spelled out from `run_len` and `classify` (always inlined) rather than
        // calling the `#[target_feature]` functions above, which the compiler may decline to
        // inline: inlined, their constants are loaded once per parse instead of once per line.
        impl $crate::scan::Engine for Engine {
            const CLASSIFIES_AHEAD: bool = true;

            #[inline(always)]
            fn whole_copy<T: $crate::scan::WithEngine>(self, task: T) -> T::Output {
                // SAFETY: the Engine invariant: the CPU has the feature.
                unsafe { run_whole(task) }
            }

            #[inline(always)]
            fn line_special_long(self, bytes: &[u8]) -> usize {
                use $crate::scan::{arch::generic::run_len, ByteClass};
                // SAFETY: the Engine invariant: the CPU has the feature.
                unsafe { run_len::<$wide, $narrow>(bytes, ByteClass::NotLineSpecial) }
            }

            #[inline(always)]
            fn fields_block(self, bytes: &[u8], at: usize) -> [u64; 2] {
                use $crate::scan::arch::generic::{classify, FIELD_CLASS_SET};
                // SAFETY: the Engine invariant: the CPU has the feature.
                unsafe { classify::<$wide, $narrow, 2>(bytes, at, &FIELD_CLASS_SET) }
            }

            #[inline(always)]
            fn one_class_block(
                self,
                bytes: &[u8],
                at: usize,
                class: $crate::scan::ByteClass,
            ) -> u64 {
                use $crate::scan::arch::generic::classify_one;
                // SAFETY: the Engine invariant: the CPU has the feature.
                unsafe { classify_one::<$wide, $narrow>(bytes, at, class) }
            }

            /// The precise path's runs: a call of this backend's kernel, with no lookup of the
            /// backend, and out of line, so that the walk's code stays as it is.
            #[inline(always)]
            fn class_run(self, bytes: &[u8], class: $crate::scan::ByteClass) -> usize {
                // SAFETY: the Engine invariant: the CPU has the feature.
                unsafe { run_len(bytes, class) }
            }
        }

        /// The entry point of work whose input may span blocks (`x86_64::Entry::Whole`); the
        /// dispatch (`arch::with_engine`) picks one of the three.
        ///
        /// # Safety
        /// The CPU supports this backend's target feature.
        #[target_feature(enable = $feature)]
        #[inline(never)]
        pub(crate) unsafe fn run_whole<T: $crate::scan::WithEngine>(task: T) -> T::Output {
            task.run(Engine(()))
        }

        /// The entry point of work whose input is under one block: a copy of the head engine of its
        /// own, which the bound on the input's length frees of the whole-block code, and whose
        /// registers are allocated for a head that fits in one block.
        ///
        /// # Safety
        /// The CPU supports this backend's target feature.
        #[target_feature(enable = $feature)]
        #[inline(never)]
        pub(crate) unsafe fn run_small<T: $crate::scan::WithEngine>(task: T) -> T::Output {
            task.run_small(Engine(()))
        }

        /// The entry point of a head that ends in the first block of a longer input: a copy of
        /// the head engine for a head under one block, as `run_small` is.
        ///
        /// # Safety
        /// The CPU supports this backend's target feature.
        #[target_feature(enable = $feature)]
        #[inline(never)]
        pub(crate) unsafe fn run_head_in_first_block<T: $crate::scan::WithEngine>(
            task: T,
        ) -> T::Output {
            task.run_head_in_first_block(Engine(()))
        }
    };
}
#[cfg(target_arch = "x86_64")]
pub(crate) use engine;
