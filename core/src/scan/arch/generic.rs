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
use crate::scan::class::{CLASS_TABLE, TARGET, TOKEN, VALUE};
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
static TOKEN_TABLES: NibbleTables = nibble_tables(TOKEN);
/// [`TARGET`] as nibble tables.
static TARGET_TABLES: NibbleTables = nibble_tables(TARGET);
/// [`VALUE`] as nibble tables.
static VALUE_TABLES: NibbleTables = nibble_tables(VALUE);

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
    TokenRun: OutsideClass(&TOKEN_TABLES) = token_len;
    /// [`Kernels::target_len`].
    TargetRun: OutsideClass(&TARGET_TABLES) = target_len;
    /// [`Kernels::field_value_len`].
    ValueRun: OutsideClass(&VALUE_TABLES) = field_value_len;
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

/// `Kernels::field_runs` with the wide vector `W` and the narrow vector `N` (see [`by_length`]).
///
/// When the name ends inside the first `W` bytes, as nearly all names do, both runs start from
/// that one block: its token stops give the name, and its value stops, taken from the value's
/// start on, give the value's end if it lies in the block too. Otherwise the value run goes on
/// with [`by_length`] from the end of the block (every byte before it is a value byte), and a
/// name longer than the block takes the two kernels one after the other.
///
/// # Safety
/// The CPU supports the features of `W` and `N`.
#[inline(always)]
pub(crate) unsafe fn field_runs<W: Vector, N: Vector>(bytes: &[u8]) -> crate::scan::FieldRuns {
    use crate::scan::class::is_ws;
    use crate::scan::FieldRuns;
    if bytes.len() >= W::BYTES {
        // SAFETY: the length is checked above; the caller guarantees the feature.
        let (token_stops, value_stops, not_ws) = unsafe {
            let block = W::load_unaligned(bytes.as_ptr());
            let ws = block.cmpeq(W::splat(b' ')).or(block.cmpeq(W::splat(b'\t')));
            (
                TokenRun::stops::<W>().stops(block).movemask(),
                ValueRun::stops::<W>().stops(block).movemask(),
                ws.movemask().invert(),
            )
        };
        if token_stops.has_non_zero() {
            let name_len = token_stops.first_offset();
            if bytes[name_len] != b':' {
                return FieldRuns {
                    name_len,
                    value_start: name_len,
                    stop: name_len,
                    value_end: name_len,
                };
            }
            // The first byte after the colon that is not SP/HTAB, if the block has one.
            let mut value_start = if name_len + 1 < W::BYTES {
                not_ws.clear_below(name_len + 1).first_offset()
            } else {
                W::BYTES
            };
            if value_start >= W::BYTES {
                value_start = W::BYTES;
                while value_start < bytes.len() && is_ws(bytes[value_start]) {
                    value_start += 1;
                }
            }
            if value_start < W::BYTES {
                let in_block = value_stops.clear_below(value_start);
                if in_block.has_non_zero() {
                    let stop = in_block.first_offset();
                    // The last byte before the stop that is not SP/HTAB, if the value has one.
                    let kept = not_ws.clear_below(value_start).keep_below(stop);
                    let value_end = if kept.has_non_zero() {
                        kept.last_offset() + 1
                    } else {
                        value_start
                    };
                    return FieldRuns {
                        name_len,
                        value_start,
                        stop,
                        value_end,
                    };
                }
            }
            // The value goes on past the block: every byte from `value_start` to the block's
            // end is a value byte.
            let from = value_start.max(W::BYTES);
            // SAFETY: the caller guarantees the feature.
            let stop = from + unsafe { by_length::<W, N, ValueRun>(&bytes[from..]) };
            let mut value_end = stop;
            while value_end > value_start && is_ws(bytes[value_end - 1]) {
                value_end -= 1;
            }
            return FieldRuns {
                name_len,
                value_start,
                stop,
                value_end,
            };
        }
    }
    crate::scan::field_runs_with!(
        bytes,
        // SAFETY: the caller guarantees the feature, which both vector types need.
        |name| unsafe { by_length::<W, N, TokenRun>(name) },
        // SAFETY: as above.
        |value| unsafe { by_length::<W, N, ValueRun>(value) }
    )
}

/// Defines the four kernels of a backend as `#[target_feature]` functions over [`by_length`].
macro_rules! ladder {
    ($feature:literal, $wide:ty, $narrow:ty) => {
        $crate::scan::arch::generic::ladder!(@one $feature, $wide, $narrow,
            line_special: LineSpecialRun, token_len: TokenRun,
            target_len: TargetRun, field_value_len: ValueRun);
    };
    (@one $feature:literal, $wide:ty, $narrow:ty, $($name:ident: $run:ident),*) => {
        /// See `Kernels::field_runs`: both runs in one call, with both vector widths.
        ///
        /// # Safety
        /// The CPU supports this backend's target feature.
        #[target_feature(enable = $feature)]
        pub(crate) unsafe fn field_runs(bytes: &[u8]) -> $crate::scan::FieldRuns {
            // SAFETY: the caller guarantees the feature, which both vector types need.
            unsafe { $crate::scan::arch::generic::field_runs::<$wide, $narrow>(bytes) }
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
            fn field_runs_long(self, bytes: &[u8]) -> $crate::scan::FieldRuns {
                // SAFETY: the Engine invariant: the CPU has the feature.
                unsafe { $crate::scan::arch::generic::field_runs::<$wide, $narrow>(bytes) }
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
