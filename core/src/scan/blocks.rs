//! Stage 2's view of stage 1: a cursor that classifies the blocks of a buffer as the walk over
//! its lines reaches them, and answers "where is the next byte outside this class".
//!
//! ```text
//! next_outside(class, from):
//!     loop:
//!         if from lies in the cached block:
//!             bits = mask[class] >> (from - block)     // the bytes from `from` on
//!             if bits != 0: return from + trailing_zeros(bits)
//!             from = block + 64                         // the rest of the block is in the class
//!         if from >= len: return len
//!         cache the block at `from`: the one classified ahead if it starts there, else
//!             classify it (stage 1, lazily)
//!         classify the block after it, ahead               // x86_64; see below
//! ```
//!
//! Blocks start where the walk needs them, so a head followed by a long body classifies the
//! blocks of the head and one block of the body at most, and a parse classifies little it does
//! not walk into. The masks mark every byte past the end of the buffer as outside every class,
//! so a search stops at the end at the latest and the caller tells "incomplete" from "invalid"
//! by comparing with the length.
//!
//! Why one block ahead: the block after the cached one depends only on where the cached one
//! starts, so the CPU classifies it while the walk, a chain of dependent steps, goes through the
//! cached one, instead of putting the classifier's latency into that chain once per block. It
//! is on where the head engine is compiled per backend ([`Engine::CLASSIFIES_AHEAD`]).
//!
//! An engine without vector registers searches instead (see [`Engine::SEARCHES`]): each question
//! is a run from `from`, and nothing is cached.

use super::{ByteClass, Engine, BLOCK, FIELD_CLASSES};

/// The start of no block: every offset of a buffer lies 64 bytes or more past it (wrapping), so
/// the first search classifies, and so does the first block load (no offset is `NO_BLOCK + 64`).
const NO_BLOCK: usize = usize::MAX - (2 * BLOCK - 1);

/// Which mask of [`FieldBlocks`] a search reads: the class's position in [`FIELD_CLASSES`].
#[derive(Clone, Copy)]
enum FieldClass {
    Token = 0,
    Value = 1,
}
const _: () = assert!(
    matches!(FIELD_CLASSES[FieldClass::Token as usize], ByteClass::Token)
        && matches!(FIELD_CLASSES[FieldClass::Value as usize], ByteClass::Value),
    "a search reads the mask of its class"
);

/// The field-line classes (`tchar`, field-value bytes) of a buffer, one cached block at a time
/// and the block after it classified ahead.
#[derive(Clone, Copy)]
pub(crate) struct FieldBlocks<'a, E> {
    buf: &'a [u8],
    engine: E,
    /// Where the cached block starts; [`NO_BLOCK`] before the first.
    at: usize,
    /// The cached block's masks: not a `tchar`, not a field-value byte.
    masks: [u64; 2],
    /// The masks of the block after it, at `at + 64`.
    next: [u64; 2],
}

impl<'a, E: Engine> FieldBlocks<'a, E> {
    /// A cursor over `buf` that has classified nothing yet.
    #[inline(always)]
    pub(crate) fn new(engine: E, buf: &'a [u8]) -> Self {
        FieldBlocks {
            buf,
            engine,
            at: NO_BLOCK,
            masks: [0; 2],
            next: [0; 2],
        }
    }

    /// A cursor over `buf`, shorter than one block, that has classified all of it: its searches
    /// never load a block. For the small-head copy of the engine, with an engine that says so
    /// ([`Engine::WHOLE_BUFFER`]).
    #[inline(always)]
    pub(crate) fn whole(engine: E, buf: &'a [u8]) -> Self {
        debug_assert!(buf.len() < BLOCK && E::WHOLE_BUFFER);
        let mut blocks = Self::new(engine, buf);
        // Not needed for the result (a block at or past the end classifies as all outside), but
        // the small-head copy compiles to faster code with the test than without it.
        if !buf.is_empty() {
            blocks.load::<false>(0);
        }
        blocks
    }

    /// [`whole`](Self::whole) for `buf[..BLOCK - 1]`, where `buf` is a block or more: its
    /// first block classified in one whole-block read, with the last bit set, which is what
    /// classifying those `BLOCK - 1` bytes alone gives.
    #[inline(always)]
    pub(crate) fn whole_from_first_block(engine: E, buf: &'a [u8]) -> Self {
        debug_assert!(BLOCK <= buf.len() && E::WHOLE_BUFFER);
        #[cfg(test)]
        super::counter::add_block(buf.len(), 0);
        let (prefix, _) = buf.split_at(BLOCK - 1);
        let past_end = 1 << (BLOCK - 1);
        FieldBlocks {
            buf: prefix,
            engine,
            at: 0,
            masks: engine.fields_block(buf, 0).map(|mask| mask | past_end),
            next: [0; 2],
        }
    }

    /// The engine whose classifier fills the cursor.
    #[inline(always)]
    pub(crate) fn engine(&self) -> E {
        self.engine
    }

    /// The bytes the cursor classifies: for [`whole_from_first_block`](Self::whole_from_first_block),
    /// the prefix it parses.
    #[inline(always)]
    pub(crate) fn buf(&self) -> &'a [u8] {
        self.buf
    }

    /// The first byte at or after `from` that is not a `tchar`: `buf.len()` or past it if there
    /// is none.
    #[inline(always)]
    pub(crate) fn next_not_token(&mut self, from: usize) -> usize {
        self.next_outside::<false>(FieldClass::Token, from)
    }

    /// [`next_not_token`](Self::next_not_token) for the one-pass field walk, whose blocks come
    /// from [`Engine::walk_fields_block`].
    #[inline(always)]
    pub(crate) fn walk_next_not_token(&mut self, from: usize) -> usize {
        self.next_outside::<true>(FieldClass::Token, from)
    }

    /// The first byte at or after `from` that is not a field-value byte (VCHAR, obs-text, SP,
    /// HTAB): the CR of a valid field line. `buf.len()` or past it if there is none.
    #[inline(always)]
    pub(crate) fn next_not_value(&mut self, from: usize) -> usize {
        self.next_outside::<false>(FieldClass::Value, from)
    }

    /// [`next_not_value`](Self::next_not_value) for the one-pass field walk (see
    /// [`walk_next_not_token`](Self::walk_next_not_token)).
    #[inline(always)]
    pub(crate) fn walk_next_not_value(&mut self, from: usize) -> usize {
        self.next_outside::<true>(FieldClass::Value, from)
    }

    /// `IN_WALK`: the search is the one-pass field walk's (see [`Engine::walk_fields_block`]).
    #[inline(always)]
    fn next_outside<const IN_WALK: bool>(&mut self, class: FieldClass, mut from: usize) -> usize {
        if E::SEARCHES {
            return search(self.engine, self.buf, from, FIELD_CLASSES[class as usize]);
        }
        if E::WHOLE_BUFFER {
            // The block at 0 holds every byte of the buffer, and marks the bytes past its end,
            // up to the 64th, as outside: from an offset in it the search ends in it, and from
            // any other there is nothing to find (`from + 64` is past the end). No block to load.
            let bits = if from < BLOCK {
                self.masks[class as usize] >> from
            } else {
                0
            };
            return from + bits.trailing_zeros() as usize;
        }
        loop {
            let offset = from.wrapping_sub(self.at);
            if offset < BLOCK {
                let bits = self.masks[class as usize] >> offset;
                if bits != 0 {
                    return from + bits.trailing_zeros() as usize;
                }
                from = self.at + BLOCK;
            }
            if from >= self.buf.len() {
                return self.buf.len();
            }
            self.load::<IN_WALK>(from);
        }
    }

    /// Caches the block at `from` (the one classified ahead, if it starts there) and classifies
    /// the block after it, ahead of the walk (see the module docs). Inlined, so that the
    /// classifier's constants and the cached masks stay in registers: where the walk is compiled
    /// per backend (x86_64) and in the two one-pass paths of the wasm module, where a call per
    /// block would put the cursor behind a pointer.
    #[inline(always)]
    fn load<const IN_WALK: bool>(&mut self, from: usize) {
        self.masks = if E::CLASSIFIES_AHEAD && from == self.at.wrapping_add(BLOCK) {
            self.next
        } else {
            #[cfg(test)]
            super::counter::add_block(self.buf.len(), from);
            if IN_WALK {
                self.engine.walk_fields_block(self.buf, from)
            } else {
                self.engine.fields_block(self.buf, from)
            }
        };
        self.at = from;
        self.classify_ahead();
    }

    /// Classifies the block after the cached one, where the engine classifies ahead: the walk
    /// will need it next, and it waits on nothing the walk computes, so it runs beside the walk
    /// instead of in its way.
    #[inline(always)]
    fn classify_ahead(&mut self) {
        if E::CLASSIFIES_AHEAD {
            #[cfg(test)]
            super::counter::add_block(self.buf.len(), self.at + BLOCK);
            self.next = self.engine.fields_block(self.buf, self.at + BLOCK);
        }
    }
}

/// The first byte of `buf` at or after `from` outside `class`: `buf.len()` or past it if there
/// is none. A line has one piece of each such class (a request-target, a Host value), so its
/// blocks are not cached.
#[inline(always)]
pub(crate) fn next_outside_one<E: Engine>(
    engine: E,
    buf: &[u8],
    mut from: usize,
    class: ByteClass,
) -> usize {
    if E::SEARCHES {
        return search(engine, buf, from, class);
    }
    loop {
        if from >= buf.len() {
            return buf.len();
        }
        let bits = engine.one_class_block(buf, from, class);
        #[cfg(test)]
        super::counter::add_block(buf.len(), from);
        if bits != 0 {
            return from + bits.trailing_zeros() as usize;
        }
        from += BLOCK;
    }
}

/// The first byte of `buf` at or after `from` outside `class`, for an engine that searches
/// instead of classifying blocks ([`Engine::SEARCHES`]): `buf.len()` or past it if there is none.
#[inline(always)]
fn search<E: Engine>(engine: E, buf: &[u8], from: usize, class: ByteClass) -> usize {
    let rest = buf.get(from..).unwrap_or(&[]);
    let run = engine.class_run(rest, class);
    #[cfg(test)]
    super::counter::add(rest.len(), run);
    from + run
}
