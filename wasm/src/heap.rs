//! The module's memory allocator: size classes with free lists, in place of the standard
//! library's dlmalloc, which was about 7 KB of the module (3.4 KB gzipped).
//!
//! The module allocates little and rarely: per parser or decoder its state, its span words, its
//! input buffer (which grows to the largest piece written into it) and, for a decoder, its head
//! buffer; besides, wasm-bindgen copies the limits and request methods JavaScript passes, for
//! the length of a call. So a simple scheme serves:
//!
//! - every request is rounded up to a power of two of at least 16 bytes, its size class;
//! - a freed block goes onto its class's free list (the link is kept in its first word) and is
//!   handed out again by the next request of that class; blocks are never split or merged;
//! - a class with an empty list takes a fresh block from the end of the heap, which grows the
//!   memory by whole 64 KiB pages when it runs out.
//!
//! Memory taken for one class stays with that class, so the heap holds at most about twice the
//! bytes live at the peak of each class (a server creating and freeing a decoder per
//! connection reuses the same blocks). Every block starts on a 16-byte boundary; a request for a
//! larger alignment (none is made here) gets a null pointer, which Rust reports as an
//! allocation failure.

use core::alloc::{GlobalAlloc, Layout};
use core::arch::wasm32;
use core::cell::Cell;
use core::ptr;

#[cfg(target_feature = "atomics")]
compile_error!("the module's allocator is single-threaded: build without the atomics feature");

/// Alignment of every block (and the smallest block size).
const ALIGN: usize = 16;
/// log2 of the smallest block.
const MIN_CLASS: u32 = ALIGN.trailing_zeros();
/// Size classes: block sizes `1 << class` for every class a 32-bit address space can hold.
const CLASSES: usize = usize::BITS as usize;
/// Bytes in a page of wasm memory.
const PAGE: usize = 65_536;
/// Pages in a 4 GiB memory.
const MAX_PAGES: usize = 65_536;

/// The allocator: one free list per size class, and the free end of the heap.
pub struct Heap {
    /// Address of the first free block of each class, or 0; each free block's first word is the
    /// address of the next one.
    free: [Cell<usize>; CLASSES],
    /// The first byte never handed out (0 before the first allocation).
    top: Cell<usize>,
    /// The end of the memory the heap may use: `top..end` is free.
    end: Cell<usize>,
}

// SAFETY: wasm32-unknown-unknown without the atomics feature (see the compile_error above) runs
// the module on one thread, so the cells are never accessed from two threads.
#[allow(unsafe_code)]
unsafe impl Sync for Heap {}

impl Heap {
    /// An empty heap: it starts at the end of the memory it finds on its first allocation, so
    /// it never touches the stack or the static data below.
    pub const fn new() -> Heap {
        Heap {
            free: [const { Cell::new(0) }; CLASSES],
            top: Cell::new(0),
            end: Cell::new(0),
        }
    }

    /// A fresh block of `size` bytes (a multiple of [`ALIGN`]) from the end of the heap, or 0
    /// when the memory cannot grow.
    #[inline(never)]
    fn carve(&self, size: usize) -> usize {
        let mut top = self.top.get();
        if top == 0 {
            top = wasm32::memory_size(0) * PAGE;
            self.end.set(top);
        }
        if self.end.get() - top < size {
            let pages = (size - (self.end.get() - top)).div_ceil(PAGE);
            // Memory stays below its last page, so no address or sum here overflows 32 bits.
            if wasm32::memory_size(0) + pages >= MAX_PAGES {
                return 0;
            }
            let old = wasm32::memory_grow(0, pages);
            if old == usize::MAX {
                return 0;
            }
            // Only this allocator grows the memory, so the new pages follow `end`; if something
            // else grew it in between, the heap continues on the new pages.
            if old * PAGE != self.end.get() {
                top = old * PAGE;
            }
            self.end.set((old + pages) * PAGE);
        }
        self.top.set(top + size);
        top
    }
}

impl Default for Heap {
    fn default() -> Heap {
        Heap::new()
    }
}

/// The size class of a request of `size` bytes, aligned to `align`, or `None` if no block can
/// serve it.
#[inline]
fn class_of(size: usize, align: usize) -> Option<u32> {
    let bits = usize::BITS - size.saturating_sub(1).leading_zeros();
    // A layout's size is at most `isize::MAX`, so `bits` is at most 31: the largest class holds
    // 2 GiB, and `1 << class` fits.
    (align <= ALIGN && bits < usize::BITS).then_some(bits.max(MIN_CLASS))
}

// SAFETY: `alloc` returns either null or a block of at least `layout.size()` bytes aligned to
// `ALIGN >= layout.align()` that no other live allocation overlaps: blocks come either from
// `carve`, which hands out each byte of `top..end` once, or from a free list, which only holds
// blocks of that same size class that were deallocated (so no longer in use). `dealloc` gets the
// layout the block was allocated with (the GlobalAlloc contract), hence the same class.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Heap {
    // Out of line, as the others: the module's size is a target, and allocations are rare.
    #[inline(never)]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some(class) = class_of(layout.size(), layout.align()) else {
            return ptr::null_mut();
        };
        let list = &self.free[class as usize];
        let block = list.get();
        if block != 0 {
            // SAFETY: `block` is a free block of this class (at least 16 bytes, 16-aligned)
            // whose first word `dealloc` set to the next free block.
            list.set(unsafe { (block as *const usize).read() });
            return block as *mut u8;
        }
        self.carve(1 << class) as *mut u8
    }

    #[inline(never)]
    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        let Some(class) = class_of(layout.size(), layout.align()) else {
            return;
        };
        let list = &self.free[class as usize];
        // SAFETY: `block` came from `alloc` with this layout, so it is a block of this class
        // (at least 16 bytes, 16-aligned), and the caller no longer uses it: its first word
        // can hold the link to the next free block.
        unsafe { block.cast::<usize>().write(list.get()) };
        list.set(block as usize);
    }

    #[inline(never)]
    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A block whose class serves the new size too stays where it is.
        let class = class_of(layout.size(), layout.align());
        if class.is_some() && class == class_of(new_size, layout.align()) {
            return block;
        }
        // SAFETY: `new_size` with the block's alignment is a valid layout (the realloc contract).
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        // SAFETY: the layout has a non-zero size (realloc's contract).
        let new = unsafe { self.alloc(new_layout) };
        if !new.is_null() {
            // SAFETY: both blocks hold at least the smaller size, and distinct blocks do not
            // overlap; the old one is then freed with the layout it was allocated with.
            unsafe {
                ptr::copy_nonoverlapping(block, new, layout.size().min(new_size));
                self.dealloc(block, layout);
            }
        }
        new
    }
}
