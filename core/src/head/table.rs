//! The field table and the known-header index: where a checked field line is stored, and how
//! a known header's first value is found in O(1).

use super::field::{Field, NOT_KNOWN};
use super::Head;
use crate::known::KnownHeader;
use crate::span::Span;

/// The bits of the presence bitmap, and the entries of the index array: one for each bit.
pub(super) const SLOTS: usize = u64::BITS as usize;
/// The presence bit of the unknown names, `NOT_KNOWN` taken modulo `SLOTS`: no known header's,
/// so that storing a field needs no test of its kind (see `Head::store_in_slot`).
const UNKNOWN_SLOT: usize = NOT_KNOWN as usize % SLOTS;
const _: () = assert!(
    crate::known::KNOWN_COUNT <= UNKNOWN_SLOT,
    "the unknown names' presence bit is no known header's"
);

impl<const N: usize> Head<N> {
    /// Stores a checked field line in `slot` (the next free one), and indexes its known header
    /// if it is the first of its name. The field-line bound is at most `N`, so a slot is always
    /// free; the caller counts it.
    #[inline(always)]
    pub(super) fn store_in_slot(&mut self, slot: usize, field: Field) {
        if let Some(entry) = self.fields.get_mut(slot) {
            *entry = field;
            // An unknown name's `NOT_KNOWN` becomes `UNKNOWN_SLOT`, no header's: the first such
            // field sets its bit and the others find it set, with no test of the field's kind.
            let known = field.known as usize % SLOTS;
            if self.present & (1 << known) == 0 {
                self.present |= 1 << known;
                self.index[known] = slot as u8;
            }
        }
    }

    pub(crate) fn fields(&self) -> &[Field] {
        &self.fields[..self.stored as usize]
    }

    #[inline]
    pub(crate) fn get(&self, known: KnownHeader) -> Option<Span> {
        // Read through the index rather than kept beside it, which would cost the field walk a
        // store per line for one load less here.
        let slot = known as usize;
        if self.present & (1 << slot) == 0 {
            return None;
        }
        self.fields.get(self.index[slot] as usize).map(|f| f.value)
    }

    pub(crate) fn find(&self, buf: &[u8], name: &[u8]) -> Option<Span> {
        match KnownHeader::from_name(name) {
            Some(known) => self.get(known),
            None => self
                .fields()
                .iter()
                .find(|f| f.name.as_bytes(buf).eq_ignore_ascii_case(name))
                .map(|f| f.value),
        }
    }

    pub(crate) fn known_bitmap(&self) -> u64 {
        self.present & !(1 << UNKNOWN_SLOT)
    }

    pub(crate) fn known_index(&self, known: KnownHeader) -> Option<usize> {
        let slot = known as usize;
        (self.present & (1 << slot) != 0).then(|| self.index[slot] as usize)
    }
}
