//! The field names of a head as they were spelled and ordered on the wire, which `http`'s
//! lower-case `HeaderMap` forgets.

use std::vec::Vec;

use crate::head::Field;

/// The field names of a head in the order and spelling they were received: `http` keeps names
/// lower-case and groups repeated names, so a head converted with
/// [`request_parts_keeping_names`](crate::to_http::request_parts_keeping_names) carries one of
/// these in its `Parts::extensions`, and [`from_http`](crate::from_http) writes the fields back
/// in this order and spelling.
///
/// Only the names are recorded; the values stay in the `HeaderMap`, which middleware may edit
/// freely: a field added later is written after the recorded ones with its lower-case name, and
/// a removed one is skipped.
///
/// ```
/// use httpspan::to_http::OriginalNames;
///
/// let mut names = OriginalNames::new();
/// names.push(b"X-Request-ID");
/// names.push(b"Host");
/// assert_eq!(names.iter().collect::<Vec<_>>(), [&b"X-Request-ID"[..], b"Host"]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct OriginalNames {
    /// Every name, one after the other.
    bytes: Vec<u8>,
    /// Where each name ends in `bytes`.
    ends: Vec<usize>,
}

impl OriginalNames {
    /// An empty record.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The names of `fields`, whose spans index `head`, in their order.
    #[must_use]
    pub fn from_fields(fields: &[Field], head: &[u8]) -> Self {
        let mut names = OriginalNames {
            bytes: Vec::with_capacity(fields.iter().map(|f| usize::from(f.name.len)).sum()),
            ends: Vec::with_capacity(fields.len()),
        };
        for field in fields {
            names.push(field.name.as_bytes(head));
        }
        names
    }

    /// Appends one name, as it should be spelled on the wire. A name that is not a token is
    /// refused later by the writer, like any invalid name.
    pub fn push(&mut self, name: &[u8]) {
        self.bytes.extend_from_slice(name);
        self.ends.push(self.bytes.len());
    }

    /// How many names are recorded (one per field line).
    #[must_use]
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether no name is recorded.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The names in their order.
    pub fn iter(&self) -> impl Iterator<Item = &[u8]> + '_ {
        let starts = core::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(self.ends.iter().copied())
            .map(|(start, end)| &self.bytes[start..end])
    }
}
