//! The scanning kernels: the only code that looks at every byte of a head.
//!
//! Parsing a head is a handful of questions asked of long runs of bytes: where does this line
//! end (and is there a NUL or a bare CR before it), how many bytes from here are token bytes,
//! request-target bytes, field-value bytes. Each question is a kernel with one signature in the
//! [`Kernels`] trait. Everything else in the crate works on the answers, so a SIMD backend only
//! has to implement this trait and agree with [`scalar::Scalar`], the reference, byte for byte.
//!
//! Each kernel returns the length of the longest prefix of its input in one byte class. The
//! callers look at the byte that stopped the run to decide what it means (a colon, a space, an
//! error), which keeps the kernels free of grammar and easy to check exhaustively.

pub(crate) mod arch;
pub(crate) mod class;
pub(crate) mod scalar;

/// The kernels a backend provides. Each returns an index into `bytes`, `bytes.len()` when the
/// whole input belongs to the class.
pub(crate) trait Kernels {
    /// Index of the first CR, LF or NUL.
    fn line_special(bytes: &[u8]) -> usize;
    /// Length of the leading run of token characters (`tchar`, RFC 9110 5.6.2).
    fn token_len(bytes: &[u8]) -> usize;
    /// Length of the leading run of request-target characters: `unreserved`, `sub-delims`,
    /// `:`, `@`, `/` and `?` (RFC 3986). `%`, `[` and `]` stop the run so that the caller can
    /// check percent-encoding and IP-literals where they occur.
    fn target_len(bytes: &[u8]) -> usize;
    /// Length of the leading run of field-value characters: VCHAR, obs-text, SP and HTAB
    /// (RFC 9110 5.5). Reason phrases use the same class.
    fn field_value_len(bytes: &[u8]) -> usize;

    /// The two runs of a field line at the start of `bytes`, in one call: the token run of the
    /// name and, when a colon follows it, the field-value run after the colon and any SP/HTAB.
    /// Exactly `token_len` and `field_value_len` composed; a backend overrides it only to save
    /// a call.
    fn field_runs(bytes: &[u8]) -> FieldRuns {
        field_runs_with!(bytes, |name| Self::token_len(name), |value| {
            Self::field_value_len(value)
        })
    }
}

/// The runs of a field line found by [`Kernels::field_runs`], as indexes into its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FieldRuns {
    /// Length of the token run at the start: the name, if a colon follows.
    pub(crate) name_len: usize,
    /// Where the value starts, after the colon and any SP/HTAB; `name_len` if no colon follows
    /// the name.
    pub(crate) value_start: usize,
    /// Where the field-value run from `value_start` stops (a valid line's CR); `name_len` if no
    /// colon follows the name.
    pub(crate) stop: usize,
    /// Where the value ends without its trailing SP/HTAB: `stop` moved back over them, at least
    /// `value_start`.
    pub(crate) value_end: usize,
}

impl FieldRuns {
    /// Whether a colon follows the name.
    pub(crate) fn has_colon(&self) -> bool {
        self.value_start > self.name_len
    }
}

/// `field_runs` from a token kernel and a field-value kernel, written once for the scalar
/// default and the SIMD backends (whose kernels are `unsafe` expressions, not closures, so that
/// they inline into the backend's `#[target_feature]` function).
macro_rules! field_runs_with {
    ($bytes:expr, |$name:ident| $token:expr, |$value:ident| $value_run:expr) => {{
        let bytes: &[u8] = $bytes;
        let name_len = {
            let $name = bytes;
            $token
        };
        if bytes.get(name_len) == Some(&b':') {
            let mut value_start = name_len + 1;
            while value_start < bytes.len() && $crate::scan::class::is_ws(bytes[value_start]) {
                value_start += 1;
            }
            let $value = &bytes[value_start..];
            let stop = value_start + $value_run;
            let mut value_end = stop;
            while value_end > value_start && $crate::scan::class::is_ws(bytes[value_end - 1]) {
                value_end -= 1;
            }
            $crate::scan::FieldRuns {
                name_len,
                value_start,
                stop,
                value_end,
            }
        } else {
            $crate::scan::FieldRuns {
                name_len,
                value_start: name_len,
                stop: name_len,
                value_end: name_len,
            }
        }
    }};
}
pub(crate) use field_runs_with;

/// Inputs shorter than this stay on the scalar kernel, inlined into the caller: no backend has a
/// vector this narrow, and a call into a `#[target_feature]` function would cost more than the
/// few bytes.
pub(crate) const SHORT: usize = 16;

#[cfg(test)]
pub(crate) mod counter {
    //! Counts the bytes the kernels examine, so a test can show that resuming never re-scans.
    // Per thread, so that tests running in parallel do not add to each other's counts.
    std::thread_local! {
        static SCANNED: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
    }

    pub(crate) fn add(bytes_len: usize, stop: usize) {
        let seen = if stop < bytes_len {
            stop + 1
        } else {
            bytes_len
        };
        SCANNED.with(|c| c.set(c.get() + seen));
    }

    pub(crate) fn take() -> usize {
        SCANNED.with(|c| c.replace(0))
    }
}

macro_rules! dispatch {
    ($( $(#[$doc:meta])* $name:ident ),*) => {$(
        $(#[$doc])*
        #[inline]
        pub(crate) fn $name(bytes: &[u8]) -> usize {
            let stop = if bytes.len() < SHORT {
                <scalar::Scalar as Kernels>::$name(bytes)
            } else {
                arch::active::$name(bytes)
            };
            #[cfg(test)]
            counter::add(bytes.len(), stop);
            stop
        }
    )*};
}

/// The kernels of the head engine's hot loop, called through a value so that the loop can be
/// compiled once per backend with them inlined (see [`arch::with_engine`]). The short-input
/// path and the test counter are here, shared by every engine.
pub(crate) trait Engine: Copy {
    /// [`Kernels::line_special`] on at least [`SHORT`] bytes.
    fn line_special_long(self, bytes: &[u8]) -> usize;
    /// [`Kernels::field_runs`] on at least [`SHORT`] bytes.
    fn field_runs_long(self, bytes: &[u8]) -> FieldRuns;

    /// See [`Kernels::line_special`].
    #[inline(always)]
    fn line_special(self, bytes: &[u8]) -> usize {
        let stop = if bytes.len() < SHORT {
            <scalar::Scalar as Kernels>::line_special(bytes)
        } else {
            self.line_special_long(bytes)
        };
        #[cfg(test)]
        counter::add(bytes.len(), stop);
        stop
    }

    /// See [`Kernels::field_runs`].
    #[inline(always)]
    fn field_runs(self, bytes: &[u8]) -> FieldRuns {
        let runs = if bytes.len() < SHORT {
            <scalar::Scalar as Kernels>::field_runs(bytes)
        } else {
            self.field_runs_long(bytes)
        };
        #[cfg(test)]
        counter::add(bytes.len(), runs.stop);
        runs
    }
}

/// The backend in use, looked up on each call.
#[derive(Clone, Copy)]
pub(crate) struct Selected;

impl Engine for Selected {
    #[inline(always)]
    fn line_special_long(self, bytes: &[u8]) -> usize {
        arch::active::line_special(bytes)
    }

    #[inline(always)]
    fn field_runs_long(self, bytes: &[u8]) -> FieldRuns {
        arch::active::field_runs(bytes)
    }
}

/// The scalar reference as an engine, for the scalar instantiation of the head engine where the
/// backend is chosen at run time.
#[cfg(all(target_arch = "x86_64", not(any(miri, httpspan_force_scalar))))]
#[derive(Clone, Copy)]
pub(crate) struct ScalarEngine;

#[cfg(all(target_arch = "x86_64", not(any(miri, httpspan_force_scalar))))]
impl Engine for ScalarEngine {
    #[inline(always)]
    fn line_special_long(self, bytes: &[u8]) -> usize {
        <scalar::Scalar as Kernels>::line_special(bytes)
    }

    #[inline(always)]
    fn field_runs_long(self, bytes: &[u8]) -> FieldRuns {
        <scalar::Scalar as Kernels>::field_runs(bytes)
    }
}

/// Work that runs with one [`Engine`], whichever the backend in use provides.
pub(crate) trait WithEngine {
    /// What the work returns.
    type Output;
    /// Does the work. Implementations should be `#[inline(always)]`, so that they compile into
    /// each backend's `#[target_feature]` entry point with its kernels.
    fn run<E: Engine>(self, engine: E) -> Self::Output;
}

/// Runs `task` with the engine of the backend in use. See [`arch::with_engine`].
#[inline(always)]
pub(crate) fn with_engine<T: WithEngine>(task: T) -> T::Output {
    arch::with_engine(task)
}

dispatch! {
    /// See [`Kernels::token_len`].
    token_len,
    /// See [`Kernels::target_len`].
    target_len,
    /// See [`Kernels::field_value_len`].
    field_value_len
}

/// The name of the backend in use. See [`crate::backend_name`].
pub(crate) fn backend_name() -> &'static str {
    arch::selected().name()
}

/// Hooks for tests and fuzzers that run every backend and compare it with the scalar reference.
/// Not part of the stable API.
pub mod backends {
    use super::arch::{self, Backend};

    /// One of the scanning kernels.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Kernel {
        /// Index of the first CR, LF or NUL.
        LineSpecial,
        /// Length of the leading run of `tchar`.
        TokenLen,
        /// Length of the leading run of request-target bytes (`%`, `[`, `]` stop it).
        TargetLen,
        /// Length of the leading run of field-value bytes.
        FieldValueLen,
    }

    impl Kernel {
        /// Every kernel.
        pub const ALL: [Kernel; 4] = [
            Kernel::LineSpecial,
            Kernel::TokenLen,
            Kernel::TargetLen,
            Kernel::FieldValueLen,
        ];
    }

    /// The names of the backends this CPU can run, `"scalar"` (the reference) first.
    pub fn available() -> impl Iterator<Item = &'static str> {
        Backend::available().map(Backend::name)
    }

    /// Makes the named backend the one every parse in this process uses from now on. Returns
    /// `false`, changing nothing, if this CPU cannot run it or no such backend is compiled in.
    /// The environment variable `HTTPSPAN_BACKEND`, read once before the first parse, does the
    /// same without code. Switching while other threads parse is harmless: every backend gives
    /// the same results.
    pub fn force(name: &str) -> bool {
        Backend::named(name).map(arch::force).is_some()
    }

    /// Runs one kernel of the named backend on `bytes`, whichever backend is in use; `None` if
    /// this CPU cannot run it. Kernels accept any input, so the result can be compared with
    /// `scan("scalar", ..)` on any bytes.
    pub fn scan(name: &str, kernel: Kernel, bytes: &[u8]) -> Option<usize> {
        let backend = Backend::named(name)?;
        Some(match kernel {
            Kernel::LineSpecial => backend.line_special(bytes),
            Kernel::TokenLen => backend.token_len(bytes),
            Kernel::TargetLen => backend.target_len(bytes),
            Kernel::FieldValueLen => backend.field_value_len(bytes),
        })
    }
}
