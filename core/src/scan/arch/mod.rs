//! SIMD backends of the scanning kernels, and the choice among them.
//!
//! This is the only module with `unsafe` code: the intrinsics need it. Each backend implements the
//! few operations of [`vector::Vector`] for its registers; the kernels are written once, in
//! [`generic`], and each backend module instantiates them as `#[target_feature]` functions.
//!
//! | backend | registers | chosen |
//! | --- | --- | --- |
//! | AVX-512 | 64 and 32 bytes | x86_64 with AVX-512F, BW and VBMI2, at run time with `std`, else when compiled with them (Rust 1.89 or later) |
//! | AVX2 | 32 and 16 bytes | x86_64, the same way, when AVX-512 is missing |
//! | SSE4.2 | 16 bytes | x86_64, the same way, when AVX2 is missing |
//! | NEON | 16 bytes | aarch64, at compile time |
//! | SIMD128 | 16 bytes | wasm32 compiled with `+simd128` |
//! | SWAR | 8-byte words | otherwise (compiled where no SIMD backend is fixed at compile time), under Miri, and with `--cfg httpspan_force_scalar` |
//! | scalar | bytes | only when asked for: the reference the others are tested against |
//!
//! The choice is made once and cached in an atomic. With `std`, the environment variable
//! `HTTPSPAN_BACKEND` (read at that moment) may name another backend the CPU supports, so that
//! tests can run once per backend; [`force`] does the same from code.
#![allow(unsafe_code)]

use core::sync::atomic::{AtomicU8, Ordering};

use super::{Kernels, WithEngine};

/// Calls `$with!` with the signature of every kernel a backend provides: the one list of them.
/// Extra arguments go first, in brackets. Defined before the backend modules, which use it.
macro_rules! for_each_kernel {
    ($with:ident $(, $extra:tt)*) => {
        $with!(
            [$($extra),*]
            line_special(bytes: &[u8]) -> usize,
            token_len(bytes: &[u8]) -> usize,
            target_len(bytes: &[u8]) -> usize,
            field_value_len(bytes: &[u8]) -> usize,
            classify_fields(bytes: &[u8], at: usize) -> [u64; 2],
            classify_one(bytes: &[u8], at: usize, class: $crate::scan::ByteClass) -> u64
        );
    };
}

// The shared kernel code (with the nibble tables of the byte classes) and its vector operations.
#[cfg(httpspan_simd)]
mod generic;
#[cfg(httpspan_simd)]
mod vector;

#[cfg(httpspan_x86_64)]
mod x86_64;

#[cfg(httpspan_neon)]
mod aarch64;

#[cfg(httpspan_simd128)]
mod wasm32;

/// A scanning backend that this CPU can run.
///
/// INVARIANT: a `Backend` other than scalar exists only once its CPU feature has been confirmed
/// (at run time, or by the compile-time target features). The field is private to this module,
/// so no other code can make one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Backend(Kind);

/// Calls `$with!` with the one list of backends, best last: for each, the `cfg` that compiles
/// it (see `core/build.rs`), its `Kind` and number, its name, whether this CPU runs it, and how
/// its kernels are called (`safe(Type)`, a [`Kernels`] implementation, or `unsafe(module)`,
/// `#[target_feature]` functions that the CPU must support). Extra arguments go first.
macro_rules! for_each_backend {
    ($with:ident $(, $extra:tt)*) => {
        $with! {
            [$($extra),*]
            // The wasm module, whose size counts, compiles one engine: its best backend.
            [any(test, not(httpspan_one_engine))] Scalar = 1, "scalar", true, safe(super::scalar::Scalar);
            [httpspan_swar] Swar = 7, "swar", true, safe(super::swar::Swar);
            [httpspan_x86_64] Sse42 = 2, "sse4.2", x86_64_has!("sse4.2"), unsafe(x86_64::sse42);
            // BMI1 and BMI2 make the walk's bit scans and variable shifts one instruction each
            // (`tzcnt`, `shrx`); every CPU with AVX2 has them in practice.
            [httpspan_x86_64] Avx2 = 3, "avx2",
                x86_64_has!("avx2") && x86_64_has!("bmi1") && x86_64_has!("bmi2"),
                unsafe(x86_64::avx2);
            // The backend's code is AVX2 (its 32-byte vectors), BMI1 and BMI2, and AVX-512F
            // and BW. No VBMI2 instruction is used: VBMI2 marks the CPUs (Ice Lake, Zen 4 and
            // later) that keep their clock under 512-bit instructions, where the first AVX-512
            // ones (Skylake-SP to Cooper Lake) lower it, which can cost the code around a parse
            // more than the parse gains. simdjson's AVX-512 kernel asks for VBMI2 as well.
            [httpspan_avx512] Avx512 = 6, "avx512",
                x86_64_has!("avx2")
                    && x86_64_has!("bmi1")
                    && x86_64_has!("bmi2")
                    && x86_64_has!("avx512f")
                    && x86_64_has!("avx512bw")
                    && x86_64_has!("avx512vbmi2"),
                unsafe(x86_64::avx512);
            // Compiled in only when the target enables the feature.
            [httpspan_neon] Neon = 4, "neon", true, safe(aarch64::Neon);
            [httpspan_simd128] Simd128 = 5, "simd128", true, safe(wasm32::Simd128);
        }
    };
}

/// The kinds of backend, their table of those compiled in, and what each kind knows of itself.
macro_rules! kinds {
    ([] $([$cfg:meta] $kind:ident = $id:literal, $name:literal, $supported:expr, $how:ident $path:tt;)*) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u8)]
        enum Kind {
            $( #[cfg($cfg)] $kind = $id, )*
        }

        /// Every backend compiled into this build, best last.
        const COMPILED: &[Kind] = &[$( #[cfg($cfg)] Kind::$kind, )*];

        impl Kind {
            const fn name(self) -> &'static str {
                match self {
                    $( #[cfg($cfg)] Kind::$kind => $name, )*
                }
            }

            /// The kind whose number is `id`.
            #[inline(always)]
            const fn from_id(id: u8) -> Option<Kind> {
                match id {
                    $( #[cfg($cfg)] $id => Some(Kind::$kind), )*
                    _ => None,
                }
            }

            /// Whether this CPU can run the backend.
            fn is_supported(self) -> bool {
                match self {
                    $( #[cfg($cfg)] Kind::$kind => $supported, )*
                }
            }
        }
    };
}
for_each_backend!(kinds);

/// Whether the CPU has an x86_64 feature: asked at run time with `std`, else known at compile time.
#[cfg(httpspan_x86_64)]
macro_rules! x86_64_has {
    ($feature:tt) => {{
        #[cfg(feature = "std")]
        let has = std::is_x86_feature_detected!($feature);
        #[cfg(not(feature = "std"))]
        let has = cfg!(target_feature = $feature);
        has
    }};
}
#[cfg(httpspan_x86_64)]
use x86_64_has;

/// A method of [`Backend`] per kernel, which calls the kernel of its backend.
macro_rules! kernel_methods {
    ([] $($name:ident($($arg:ident: $ty:ty),*) -> $ret:ty),*) => {$(
        for_each_backend!(kernel_method, $name, ($($arg: $ty),*), ($($arg),*), $ret);
    )*};
}

/// One kernel's method of [`Backend`]: a match over the backends of [`for_each_backend`].
macro_rules! kernel_method {
    ([$name:ident, ($($param:tt)*), $args:tt, $ret:ty]
     $([$cfg:meta] $kind:ident = $id:literal, $bname:literal, $supported:expr, $how:ident $path:tt;)*) => {
        #[inline(always)]
        pub(crate) fn $name(self, $($param)*) -> $ret {
            match self.0 {
                $( #[cfg($cfg)] Kind::$kind => call_kernel!($how $path, $name, $args), )*
            }
        }
    };
}

/// A call of one backend's kernel.
macro_rules! call_kernel {
    (safe($ty:ty), $name:ident, ($($arg:expr),*)) => {
        <$ty as Kernels>::$name($($arg),*)
    };
    (unsafe($($module:ident)::+), $name:ident, ($($arg:expr),*)) => {
        // SAFETY: the Backend invariant: the CPU has the backend's feature.
        unsafe { $($module)::+::$name($($arg),*) }
    };
}

impl Backend {
    for_each_kernel!(kernel_methods);

    /// The backend's name: `avx512`, `avx2`, `sse4.2`, `neon`, `simd128` or `scalar`.
    pub(crate) const fn name(self) -> &'static str {
        self.0.name()
    }

    /// The backends this CPU can run, the scalar reference first.
    pub(crate) fn available() -> impl Iterator<Item = Backend> {
        COMPILED
            .iter()
            .filter(|kind| kind.is_supported())
            .map(|&kind| Backend(kind))
    }

    /// The backend this CPU can run with this name.
    pub(crate) fn named(name: &str) -> Option<Backend> {
        Backend::available().find(|b| b.name() == name)
    }
}

/// The chosen backend's `Kind` as a number, or 0 before the first choice.
static SELECTED: AtomicU8 = AtomicU8::new(0);

/// The backend in use, chosen on first use.
#[inline(always)]
pub(crate) fn selected() -> Backend {
    match Kind::from_id(SELECTED.load(Ordering::Relaxed)) {
        // Only `choose` and `force` store ids, and only of supported backends.
        Some(kind) => Backend(kind),
        None => choose(),
    }
}

/// The arms of [`with_engine`] for the backends entered through a `#[target_feature]` function,
/// best first (the list in reverse), each calling the entry point `$entry` of its engine.
#[cfg(httpspan_engine_per_backend)]
macro_rules! feature_engines {
    ([$task:ident, $id:ident, $entry:ident] $($backends:tt)*) => {
        feature_engines!(@reverse [$task, $id, $entry] [] $($backends)*)
    };
    (@reverse $args:tt [$($reversed:tt)*]
     [$cfg:meta] $kind:ident = $num:literal, $name:literal, $supported:expr, $how:ident $path:tt;
     $($rest:tt)*) => {
        feature_engines!(@reverse $args [[$cfg] $kind $how $path; $($reversed)*] $($rest)*)
    };
    (@reverse [$task:ident, $id:ident, $entry:ident] [$([$cfg:meta] $kind:ident $how:ident $path:tt;)*]) => {
        $( #[cfg($cfg)] feature_engine!($how $path, $kind, $task, $id, $entry); )*
    };
}

/// One arm of [`feature_engines`]: nothing for a backend whose kernels are safe to call.
#[cfg(httpspan_engine_per_backend)]
macro_rules! feature_engine {
    (unsafe($($module:ident)::+), $kind:ident, $task:ident, $id:ident, $entry:ident) => {
        if $id == Kind::$kind as u8 {
            // SAFETY: only `choose` and `force` store an id, and only that of a `Backend`,
            // which exists only once the CPU is known to have its feature.
            return unsafe { $($module)::+::$entry($task) };
        }
    };
    (safe($ty:ty), $kind:ident, $task:ident, $id:ident, $entry:ident) => {};
}

/// The arms of [`other_engines`]: a backend whose kernels are safe to call, as a
/// [`KernelsEngine`](super::KernelsEngine).
macro_rules! kernels_engines {
    ([$task:ident, $id:ident]
     $([$cfg:meta] $kind:ident = $num:literal, $name:literal, $supported:expr, $how:ident $path:tt;)*) => {
        $( #[cfg($cfg)] kernels_engine!($how $path, $kind, $task, $id); )*
    };
}

/// One arm of [`kernels_engines`]: nothing for a backend entered through `#[target_feature]`.
macro_rules! kernels_engine {
    (safe($ty:ty), $kind:ident, $task:ident, $id:ident) => {
        if $id == Kind::$kind as u8 {
            return $task.run(super::KernelsEngine::<$ty>::NEW);
        }
    };
    (unsafe($($module:ident)::+), $kind:ident, $task:ident, $id:ident) => {};
}

/// Runs `task` with the engine of the backend in use: the one place the choice is read. An
/// x86_64 SIMD backend runs the task in a `#[target_feature]` entry point into which its kernels
/// inline, so the head engine is compiled once per backend and its kernels never look the
/// backend up again.
#[inline(always)]
pub(crate) fn with_engine<T: WithEngine>(task: T) -> T::Output {
    let id = SELECTED.load(Ordering::Relaxed);
    // Which of a backend's entry points the task runs in does not depend on the backend: it is
    // decided once, then each entry has its own compare of the backend.
    #[cfg(httpspan_engine_per_backend)]
    match x86_64::entry_of(&task) {
        x86_64::Entry::Small => {
            for_each_backend!(feature_engines, task, id, run_small);
        }
        x86_64::Entry::HeadInFirstBlock => {
            for_each_backend!(feature_engines, task, id, run_head_in_first_block);
        }
        x86_64::Entry::Whole => {
            for_each_backend!(feature_engines, task, id, run_whole);
        }
    }
    other_engines(task, id)
}

/// [`with_engine`] with a backend whose kernels are safe to call (SWAR, scalar, and NEON or
/// SIMD128, fixed at compile time), or before the first choice. Out of line, so that the
/// dispatch every parse runs on x86_64 does not save registers around the SIMD engine's call
/// for these engines, and cold there, where they run only when asked for. `black_box` tells the
/// compiler the task may change here: where it could prove otherwise, it stored the task to the
/// stack before the compare chain, to pass that copy here, and copied it again in each SIMD arm.
#[inline(never)]
#[cfg_attr(httpspan_engine_per_backend, cold)]
fn other_engines<T: WithEngine>(mut task: T, id: u8) -> T::Output {
    core::hint::black_box(&mut task);
    for_each_backend!(kernels_engines, task, id);
    choose();
    with_engine(task)
}

/// Picks the best backend the CPU supports, or the one `HTTPSPAN_BACKEND` names (with `std`).
/// Reading the variable allocates once, and only when it is set.
#[cold]
#[inline(never)]
fn choose() -> Backend {
    // The first backend compiled in (the scalar reference, or the wasm module's one) runs on
    // every CPU.
    let backend =
        requested().unwrap_or_else(|| Backend::available().last().unwrap_or(Backend(COMPILED[0])));
    SELECTED.store(backend.0 as u8, Ordering::Relaxed);
    backend
}

/// The backend `HTTPSPAN_BACKEND` names, if it is set to one this CPU can run.
#[cfg(feature = "std")]
fn requested() -> Option<Backend> {
    let requested = std::env::var_os("HTTPSPAN_BACKEND")?;
    Backend::named(requested.to_str()?)
}

/// Without `std` there is no environment to read.
#[cfg(not(feature = "std"))]
fn requested() -> Option<Backend> {
    None
}

/// The scalar reference.
#[cfg(test)]
pub(crate) const SCALAR: Backend = Backend(Kind::Scalar);

/// Makes `backend` the one in use from now on, for every thread.
pub(crate) fn force(backend: Backend) {
    SELECTED.store(backend.0 as u8, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::ByteClass;

    type KernelFn = fn(Backend, &[u8]) -> usize;

    /// Each kernel with a byte inside its class, to fill the input around the byte under test.
    const KERNELS: [(&str, KernelFn, u8); 4] = [
        ("line_special", Backend::line_special, b'a'),
        ("token_len", Backend::token_len, b'a'),
        ("target_len", Backend::target_len, b'a'),
        ("field_value_len", Backend::field_value_len, b'a'),
    ];

    /// Lengths around every block boundary of 16- and 32-byte vectors: shorter than a vector, one
    /// vector, a vector and a tail, two of each, and the overlapping last load.
    fn lengths() -> impl Iterator<Item = usize> {
        (1..=66).chain([79, 80, 81, 95, 96, 97, 127, 128, 129])
    }

    /// The backends to check: all that this CPU runs, or only the one the suite runs with when
    /// the Makefile runs it once per backend.
    fn backends_under_test() -> std::vec::Vec<Backend> {
        match std::env::var("HTTPSPAN_BACKEND") {
            Ok(name) => Backend::named(&name).into_iter().collect(),
            Err(_) => Backend::available().collect(),
        }
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "every byte at every position is too slow under Miri; swar.rs samples its kernels there"
    )]
    fn every_byte_at_every_position_matches_scalar() {
        let mut buf = [0u8; 132];
        for backend in backends_under_test() {
            for (name, kernel, filler) in KERNELS {
                // The scalar kernel on the byte alone: whether it stops the run.
                let mut stops = [false; 256];
                for byte in 0..=255u8 {
                    stops[byte as usize] = kernel(SCALAR, &[byte]) == 0;
                }
                for len in lengths() {
                    // Unaligned starts as well: the loads are unaligned.
                    let start = len % 4;
                    buf.fill(filler);
                    let input = &mut buf[start..start + len];
                    // The positions where a vector, a block or the input begins or ends: the
                    // classifier under the kernels is checked at every position by
                    // `every_byte_at_every_position_classifies_as_scalar`.
                    let edges = [0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 65, 127, 128];
                    let positions =
                        edges
                            .into_iter()
                            .chain([len / 2, len.saturating_sub(2), len - 1]);
                    for pos in positions.filter(|&pos| pos < len) {
                        for byte in 0..=255u8 {
                            input[pos] = byte;
                            let want = if stops[byte as usize] { pos } else { len };
                            assert_eq!(
                                kernel(backend, input),
                                want,
                                "{} {name}: byte {byte:#04x} at {pos} of {len}",
                                backend.name()
                            );
                        }
                        input[pos] = filler;
                    }
                }
            }
        }
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "every byte at every position is too slow under Miri; swar.rs samples its kernels there"
    )]
    fn the_first_of_several_stops_is_found() {
        // A deterministic mix of class bytes and stops, at many lengths and offsets.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut buf = [0u8; 200];
        for backend in backends_under_test() {
            for (name, kernel, filler) in KERNELS {
                for round in 0..3000 {
                    buf.fill(filler);
                    let stops = (round % 4) + 1;
                    for _ in 0..stops {
                        let at = next() as usize % buf.len();
                        buf[at] = next() as u8;
                    }
                    let start = next() as usize % 8;
                    let len = next() as usize % (buf.len() - start);
                    let input = &buf[start..start + len];
                    assert_eq!(
                        kernel(backend, input),
                        kernel(SCALAR, input),
                        "{} {name}: {input:?}",
                        backend.name()
                    );
                }
            }
        }
    }

    /// Buffer lengths for the classifiers: under 16 bytes (scalar), under 64 (16-byte loads, the
    /// last overlapping), and longer ones whose last block is cut short (the 64 bytes that end
    /// the buffer, shifted), around every vector width.
    const CLASSIFY_LENGTHS: [usize; 16] = [
        1, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 95, 96, 127, 128, 150,
    ];

    #[test]
    #[cfg_attr(
        miri,
        ignore = "every byte at every position is too slow under Miri; swar.rs samples its kernels there"
    )]
    fn every_byte_at_every_position_classifies_as_scalar() {
        // Every byte value at every position of buffers of many lengths: input `v` of a
        // pattern holds byte `v + step * i` at position `i`, so over the 256 inputs each
        // position sees each value (two steps, so that neighbours differ). Each is classified
        // from block starts at and around the vector widths, in the middle and at the last
        // byte: every position is met inside a full block, in a block cut short, and in the
        // bytes an overlapping load reads twice.
        let mut buf = [0u8; 160];
        let backends = backends_under_test();
        for len in CLASSIFY_LENGTHS {
            let start = len % 3;
            let starts = [0, 1, 15, 16, 31, 33, 63, len / 2, len - 1, len];
            for step in [1usize, 7] {
                for v in 0..=255usize {
                    let input = &mut buf[start..start + len];
                    for (i, byte) in input.iter_mut().enumerate() {
                        *byte = (v + step * i) as u8;
                    }
                    for at in starts.into_iter().filter(|&at| at <= len) {
                        let fields = SCALAR.classify_fields(input, at);
                        let pieces = [ByteClass::Target, ByteClass::RegName]
                            .map(|class| SCALAR.classify_one(input, at, class));
                        for &backend in &backends {
                            let name = backend.name();
                            assert_eq!(
                                backend.classify_fields(input, at),
                                fields,
                                "{name} fields: {len} bytes from {v} by {step}, block at {at}"
                            );
                            for (class, want) in [ByteClass::Target, ByteClass::RegName]
                                .into_iter()
                                .zip(pieces)
                            {
                                assert_eq!(
                                    backend.classify_one(input, at, class),
                                    want,
                                    "{name} {class:?}: {len} bytes from {v} by {step}, block at {at}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_scalar_classifier_follows_the_class_table() {
        // The oracle itself, against the kernels it replaces: bit i is set exactly where the run
        // kernel of the class would stop at byte i, and past the end.
        let bytes: std::vec::Vec<u8> = (0..=255u8).chain(0..=255u8).collect();
        // Under Miri, fewer starts: windows of 64 from every 61st byte still cover every byte.
        for at in (0..bytes.len()).step_by(if cfg!(miri) { 61 } else { 7 }) {
            let [not_token, not_value] = SCALAR.classify_fields(&bytes, at);
            let not_target = SCALAR.classify_one(&bytes, at, ByteClass::Target);
            let not_reg_name = SCALAR.classify_one(&bytes, at, ByteClass::RegName);
            for i in 0..64 {
                let want = |kernel: fn(Backend, &[u8]) -> usize| match bytes.get(at + i) {
                    Some(&b) => kernel(SCALAR, &[b]) == 0,
                    None => true,
                };
                assert_eq!(
                    not_token >> i & 1 == 1,
                    want(Backend::token_len),
                    "{at}+{i}"
                );
                assert_eq!(
                    not_value >> i & 1 == 1,
                    want(Backend::field_value_len),
                    "{at}+{i}"
                );
                assert_eq!(
                    not_target >> i & 1 == 1,
                    want(Backend::target_len),
                    "{at}+{i}"
                );
                let reg_name = bytes
                    .get(at + i)
                    .is_some_and(|&b| b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=".contains(&b));
                assert_eq!(not_reg_name >> i & 1 == 1, !reg_name, "{at}+{i}");
            }
        }
    }

    #[test]
    fn this_machine_runs_a_simd_backend_where_one_is_compiled() {
        let names: std::vec::Vec<_> = Backend::available().map(Backend::name).collect();
        assert_eq!(names[0], "scalar");
        // Every compiled backend but AVX-512, which many x86_64 CPUs lack: the machines this
        // suite runs on have AVX2, and NEON and SIMD128 are compiled only where they run.
        let expected = COMPILED
            .iter()
            .filter(|&&kind| kind.name() != "avx512")
            .count();
        let without_avx512 = names.iter().filter(|&&name| name != "avx512").count();
        assert_eq!(without_avx512, expected, "compiled: {COMPILED:?}");
    }

    /// AVX-512 is offered exactly where the CPU has it (and the compiler built it): a detection
    /// that never saw it would leave the fastest backend unused without a word.
    #[test]
    #[cfg(httpspan_x86_64)]
    fn avx512_is_offered_where_the_cpu_has_it() {
        let has = std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vbmi2");
        assert_eq!(
            Backend::named("avx512").is_some(),
            has && cfg!(httpspan_avx512),
            "AVX2, BMI1, BMI2, AVX-512F, BW and VBMI2 on this CPU: {has}"
        );
    }

    /// The SIMD backend of a cross target is the one the tests run with: a `RUSTFLAGS` in the
    /// environment replaces the `+simd128` of `.cargo/config.toml` without a word.
    #[test]
    #[cfg(not(any(miri, httpspan_force_scalar)))]
    fn cross_targets_run_their_simd_backend() {
        let expected = match () {
            _ if cfg!(target_arch = "aarch64") => "neon",
            _ if cfg!(target_arch = "wasm32") => "simd128",
            _ => return,
        };
        assert_eq!(
            Backend::available().last().map(Backend::name),
            Some(expected)
        );
    }

    #[test]
    fn the_requested_backend_is_the_one_in_use() {
        // The Makefile runs the suite once per backend through this variable; a name this CPU
        // cannot run must not silently fall back to another backend.
        if let Ok(name) = std::env::var("HTTPSPAN_BACKEND") {
            assert_eq!(selected().name(), name);
        }
    }
}
