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
#[cfg(httpspan_swar)]
pub(crate) mod swar;

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

    /// Stage 1 of the head engine for the block of 64 bytes at `at`: bit `i` of the first mask
    /// set where byte `at + i` is not a `tchar`, of the second where it is not a field-value
    /// byte, and both bits set for every byte past the end of `bytes`.
    fn classify_fields(bytes: &[u8], at: usize) -> [u64; 2];
    /// [`classify_fields`](Kernels::classify_fields) for the field walk's own searches (see
    /// [`Engine::walk_fields_block`]): the same masks. Only the wasm module's SIMD128 kernels
    /// have one of their own.
    #[inline(always)]
    fn classify_fields_in_walk(bytes: &[u8], at: usize) -> [u64; 2] {
        Self::classify_fields(bytes, at)
    }
    /// Like [`classify_fields`](Kernels::classify_fields), for one [`ByteClass`]: bit `i` set
    /// where byte `at + i` is outside it.
    fn classify_one(bytes: &[u8], at: usize, class: ByteClass) -> u64;

    /// Whether the head engine, run with these kernels, asks for runs instead of classifying
    /// blocks (see [`Engine::SEARCHES`]).
    const SEARCHES: bool = false;
}

pub(crate) mod blocks;

/// One byte class of the grammar, as the single-class classifier and the run kernels take it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum ByteClass {
    /// `tchar` (RFC 9110 5.6.2).
    Token,
    /// Field-value bytes: VCHAR, obs-text, SP, HTAB (RFC 9110 5.5).
    Value,
    /// The request-target bytes of [`Kernels::target_len`].
    Target,
    /// The bytes of a reg-name but its percent-encodings: `unreserved / sub-delims`.
    RegName,
    /// Every byte but CR, LF and NUL.
    NotLineSpecial,
}

impl ByteClass {
    /// Every class, in the order of declaration: `ALL[class as usize]` is `class`.
    const ALL: [ByteClass; 5] = [
        ByteClass::Token,
        ByteClass::Value,
        ByteClass::Target,
        ByteClass::RegName,
        ByteClass::NotLineSpecial,
    ];

    /// The class numbered `id` (`class as u8`): the way back from a const parameter. Called in
    /// a `const` block, so that a number of no class fails the build.
    const fn from_id(id: u8) -> ByteClass {
        Self::ALL[id as usize]
    }

    /// The class's flag in the byte-class table.
    pub(crate) const fn flag(self) -> u8 {
        match self {
            ByteClass::Token => class::TOKEN,
            ByteClass::Value => class::VALUE,
            ByteClass::Target => class::TARGET,
            ByteClass::RegName => class::REG_NAME,
            ByteClass::NotLineSpecial => class::LINE_SPECIAL,
        }
    }

    /// Whether the class is the bytes that have the flag (or those that lack it).
    pub(crate) const fn present(self) -> bool {
        !matches!(self, ByteClass::NotLineSpecial)
    }
}

// `ALL` lists the classes in the order of their numbers, so `from_id` undoes `as u8`.
const _: () = {
    let mut i = 0;
    while i < ByteClass::ALL.len() {
        assert!(ByteClass::ALL[i] as usize == i);
        i += 1;
    }
};

/// The classes of field lines, in the order of the masks of
/// [`Kernels::classify_fields`]: `tchar` (the name ends at the first byte outside it, which must
/// be the colon) and field-value bytes (the value ends at the first byte outside them, which
/// must be the CR of the line end). The same two find the method and the line end of a
/// request-line and the reason phrase of a status-line.
pub(crate) const FIELD_CLASSES: [ByteClass; 2] = [ByteClass::Token, ByteClass::Value];

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

    /// Counts the bytes of a block that stage 1 classified: the 64 at `at`, or the rest of the
    /// buffer.
    pub(crate) fn add_block(bytes_len: usize, at: usize) {
        let seen = bytes_len.saturating_sub(at).min(64);
        SCANNED.with(|c| c.set(c.get() + seen));
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

/// The kernels of the head engine's hot loop, called through a value so that the loop can be
/// compiled once per backend with them inlined (see [`arch::with_engine`]). The short-input
/// path and the test counter are here, shared by every engine.
pub(crate) trait Engine: Copy {
    /// [`Kernels::line_special`] on at least [`SHORT`] bytes.
    fn line_special_long(self, bytes: &[u8]) -> usize;
    /// [`Kernels::classify_fields`], without the test counter (see [`blocks`]).
    fn fields_block(self, bytes: &[u8], at: usize) -> [u64; 2];
    /// [`fields_block`](Self::fields_block) for the one-pass field walk's searches: in the wasm
    /// module, whose walk calls the classifier elsewhere (its size counts), this one site
    /// inlines it, so that its constants stay in registers from block to block.
    #[inline(always)]
    fn walk_fields_block(self, bytes: &[u8], at: usize) -> [u64; 2] {
        self.fields_block(bytes, at)
    }
    /// [`Kernels::classify_one`], without the test counter (see [`blocks`]).
    fn one_class_block(self, bytes: &[u8], at: usize, class: ByteClass) -> u64;

    /// Whether the walk asks this engine for the length of a run ([`class_run`](Self::class_run))
    /// instead of classifying blocks: an engine without vector registers, which pays more for a
    /// block of masks than for scanning the few bytes the walk asks about (see the `swar` module).
    const SEARCHES: bool = false;
    /// Whether the walk's block cursor classified its whole buffer, shorter than one block,
    /// before the walk (see `FieldBlocks::whole`): a search is then a shift of the cached masks,
    /// and never loads a block. An engine of the small-head copy, [`WholeBuffer`].
    const WHOLE_BUFFER: bool = false;
    /// Whether the walk's block cursor classifies the block after the cached one ahead of the
    /// walk (see `scan::blocks`): where the head engine is compiled per backend (x86_64). The
    /// wasm module's single copy of the walk gains nothing from it but size.
    const CLASSIFIES_AHEAD: bool = false;
    /// Runs `task` in the engine's copy of the walk over whole blocks ([`WithEngine::run`]).
    #[inline(always)]
    fn whole_copy<T: WithEngine>(self, task: T) -> T::Output {
        task.run(self)
    }
    /// The length of the leading run of `bytes` inside `class`: a search of an engine that
    /// [`SEARCHES`](Self::SEARCHES), and the run kernels of the precise path on every engine. A
    /// byte at a time through the class table unless the engine has a faster kernel.
    #[inline(always)]
    fn class_run(self, bytes: &[u8], class: ByteClass) -> usize {
        scalar::class_len(bytes, class)
    }

    /// A run kernel of [`Kernels`] (`token_len`, `field_value_len`, `target_len`, ...) with this
    /// engine: inputs under [`SHORT`] on the inlined scalar kernel, longer ones with
    /// [`class_run`](Self::class_run).
    #[inline(always)]
    fn run(self, bytes: &[u8], class: ByteClass) -> usize {
        let stop = if bytes.len() < SHORT {
            scalar::class_len(bytes, class)
        } else {
            self.class_run(bytes, class)
        };
        #[cfg(test)]
        counter::add(bytes.len(), stop);
        stop
    }

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
}

/// `E` in the small-head copy of the head engine: a buffer under one block, classified whole
/// before the walk ([`Engine::WHOLE_BUFFER`]). Only an engine compiled per backend has that copy.
#[cfg_attr(not(httpspan_engine_per_backend), allow(dead_code))]
#[derive(Clone, Copy)]
pub(crate) struct WholeBuffer<E>(pub(crate) E);

impl<E: Engine> Engine for WholeBuffer<E> {
    #[inline(always)]
    fn line_special_long(self, bytes: &[u8]) -> usize {
        self.0.line_special_long(bytes)
    }

    #[inline(always)]
    fn fields_block(self, bytes: &[u8], at: usize) -> [u64; 2] {
        self.0.fields_block(bytes, at)
    }

    #[inline(always)]
    fn one_class_block(self, bytes: &[u8], at: usize, class: ByteClass) -> u64 {
        self.0.one_class_block(bytes, at, class)
    }

    const SEARCHES: bool = E::SEARCHES;
    const WHOLE_BUFFER: bool = true;

    #[inline(always)]
    fn class_run(self, bytes: &[u8], class: ByteClass) -> usize {
        self.0.class_run(bytes, class)
    }
}

/// A backend's [`Kernels`] as an engine: SWAR and the scalar reference everywhere, and NEON and
/// SIMD128, whose features are fixed at compile time. (The x86_64 SIMD backends have engines of
/// their own, entered through `#[target_feature]` functions; see `arch::generic::engine`.)
pub(crate) struct KernelsEngine<K>(core::marker::PhantomData<K>);

impl<K> KernelsEngine<K> {
    pub(crate) const NEW: Self = KernelsEngine(core::marker::PhantomData);
}

impl<K> Clone for KernelsEngine<K> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K> Copy for KernelsEngine<K> {}

impl<K: Kernels> Engine for KernelsEngine<K> {
    #[inline(always)]
    fn line_special_long(self, bytes: &[u8]) -> usize {
        K::line_special(bytes)
    }

    #[inline(always)]
    fn fields_block(self, bytes: &[u8], at: usize) -> [u64; 2] {
        K::classify_fields(bytes, at)
    }

    #[inline(always)]
    fn walk_fields_block(self, bytes: &[u8], at: usize) -> [u64; 2] {
        K::classify_fields_in_walk(bytes, at)
    }

    #[inline(always)]
    fn one_class_block(self, bytes: &[u8], at: usize, class: ByteClass) -> u64 {
        K::classify_one(bytes, at, class)
    }

    const SEARCHES: bool = K::SEARCHES;

    #[inline(always)]
    fn class_run(self, bytes: &[u8], class: ByteClass) -> usize {
        match class {
            ByteClass::Token => K::token_len(bytes),
            ByteClass::Value => K::field_value_len(bytes),
            ByteClass::Target => K::target_len(bytes),
            _ => scalar::class_len(bytes, class),
        }
    }
}

/// Work that runs with one [`Engine`], whichever the backend in use provides.
pub(crate) trait WithEngine {
    /// What the work returns.
    type Output;
    /// Does the work. Implementations should be `#[inline(always)]`, so that they compile into
    /// each backend's `#[target_feature]` entry point with its kernels.
    fn run<E: Engine>(self, engine: E) -> Self::Output;

    /// Whether the work's input is shorter than one block (under [`BLOCK`] bytes): where the
    /// engine is compiled per backend, such work runs through [`run_small`](Self::run_small), in
    /// an entry point of its own.
    #[cfg_attr(not(httpspan_engine_per_backend), allow(dead_code))]
    #[inline(always)]
    fn small_input(&self) -> bool {
        false
    }

    /// [`run`](Self::run) for work whose input [`small_input`](Self::small_input) found short.
    /// Implementations should be `#[inline(always)]` and tell the compiler that the input is
    /// short, so that this copy drops the whole-block code.
    #[cfg_attr(not(httpspan_engine_per_backend), allow(dead_code))]
    #[inline(always)]
    fn run_small<E: Engine>(self, engine: E) -> Self::Output
    where
        Self: Sized,
    {
        self.run(engine)
    }

    /// Whether the work may parse a head from the start of an input of a block or more (see
    /// [`head_from_start`](Self::head_from_start)): where the engine is compiled per backend,
    /// the dispatch asks such work that [`small_input`](Self::small_input) did not take, before
    /// it calls an entry point.
    #[cfg_attr(not(httpspan_engine_per_backend), allow(dead_code))]
    const MAY_PARSE_FROM_START: bool = false;

    /// The input, if the work parses a head from its start: a head that may end in the first
    /// block then runs through [`run_head_in_first_block`](Self::run_head_in_first_block), and
    /// a longer one, or a parse resumed, through [`run`](Self::run).
    #[cfg_attr(not(httpspan_engine_per_backend), allow(dead_code))]
    #[inline(always)]
    fn head_from_start(&self) -> Option<&[u8]> {
        None
    }

    /// [`run`](Self::run) for work whose head may end in the first block: the input
    /// [`head_from_start`](Self::head_from_start) gave has a CR LF CR LF there. A copy of the
    /// head engine for a head under one block, which parses the block's first `BLOCK - 1` bytes
    /// as a prefix of the input; implementations should be `#[inline(always)]`, and hand a head
    /// that does not end there to [`Engine::whole_copy`].
    #[cfg_attr(not(httpspan_engine_per_backend), allow(dead_code))]
    #[inline(always)]
    fn run_head_in_first_block<E: Engine>(self, engine: E) -> Self::Output
    where
        Self: Sized,
    {
        self.run(engine)
    }
}

/// The bytes of one block of stage 1, one bit of a `u64` mask each: an input shorter than this
/// is classified at once.
pub(crate) const BLOCK: usize = u64::BITS as usize;

/// Runs `task` with the engine of the backend in use. See [`arch::with_engine`].
#[inline(always)]
pub(crate) fn with_engine<T: WithEngine>(task: T) -> T::Output {
    arch::with_engine(task)
}

/// The length of the leading run of `bytes` inside the class numbered `CLASS` (`ByteClass as
/// u8`), for code outside the head engine's walk (a Connection list's elements, a chunk
/// extension, the writer's checks): inputs under [`SHORT`] on the inlined scalar kernel, longer
/// ones with the engine of the backend in use. The class is a const parameter so that the task
/// is the bytes alone, which the backend's entry point takes in two registers (a task that
/// named its class would go through memory), with the class's tables as constants.
#[inline]
pub(crate) fn class_len<const CLASS: u8>(bytes: &[u8]) -> usize {
    let stop = if bytes.len() < SHORT {
        scalar::class_len(bytes, const { ByteClass::from_id(CLASS) })
    } else {
        with_engine(ClassRun::<CLASS>(bytes))
    };
    #[cfg(test)]
    counter::add(bytes.len(), stop);
    stop
}

/// A call of [`class_len`] on at least [`SHORT`] bytes, to run with the backend's engine.
struct ClassRun<'a, const CLASS: u8>(&'a [u8]);

impl<const CLASS: u8> WithEngine for ClassRun<'_, CLASS> {
    type Output = usize;

    #[inline(always)]
    fn run<E: Engine>(self, engine: E) -> usize {
        // `class_len` took the short inputs already: straight to the backend's run kernel.
        engine.class_run(self.0, const { ByteClass::from_id(CLASS) })
    }
}

/// See [`Kernels::token_len`].
#[inline]
pub(crate) fn token_len(bytes: &[u8]) -> usize {
    class_len::<{ ByteClass::Token as u8 }>(bytes)
}

/// See [`Kernels::field_value_len`].
#[inline]
pub(crate) fn field_value_len(bytes: &[u8]) -> usize {
    class_len::<{ ByteClass::Value as u8 }>(bytes)
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

    /// Runs stage 1 of the named backend on the block of `bytes` at `at`, whichever backend is
    /// in use: the masks of the bytes that are not a `tchar`, not a field-value byte, not a
    /// request-target byte and not a reg-name byte, bit `i` for byte `at + i`, every bit past the
    /// end set. `None` if this CPU cannot run it. Compare with `classify("scalar", ..)` on any
    /// bytes.
    pub fn classify(name: &str, bytes: &[u8], at: usize) -> Option<[u64; 4]> {
        use super::ByteClass;
        let backend = Backend::named(name)?;
        let [not_token, not_value] = backend.classify_fields(bytes, at);
        let not_target = backend.classify_one(bytes, at, ByteClass::Target);
        let not_reg_name = backend.classify_one(bytes, at, ByteClass::RegName);
        Some([not_token, not_value, not_target, not_reg_name])
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
