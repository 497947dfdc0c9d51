//! A field line as spans, and its value with obs-folds read as spaces.

use crate::known::KnownHeader;
use crate::scan::class::is_ws;
use crate::span::Span;
use crate::syntax;

/// One field line: where its name and its value are in the buffer.
///
/// The value excludes leading and trailing SP and HTAB. Only with
/// [`Leniency::obs_fold`](crate::Leniency::obs_fold) can it span several lines: then read it
/// through [`unfold`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The field name, as sent.
    pub name: Span,
    /// The field value, trimmed.
    pub value: Span,
    /// The name's [`KnownHeader`] id, or [`NOT_KNOWN`].
    pub(super) known: u8,
}

/// The id of a name that is no known header's.
pub(super) const NOT_KNOWN: u8 = crate::known::NOT_KNOWN_ID;

impl Field {
    pub(super) const EMPTY: Field = Field {
        name: Span::EMPTY,
        value: Span::EMPTY,
        known: NOT_KNOWN,
    };

    /// The known header this field's name is, if any.
    #[inline]
    #[must_use]
    pub fn known(&self) -> Option<KnownHeader> {
        KnownHeader::ALL.get(self.known as usize).copied()
    }
}

/// A field value with each obs-fold replaced by one SP, as pieces of the value and `b" "`.
///
/// An obs-fold is a line break inside a field value, accepted only with
/// [`Leniency::obs_fold`]; the value's span then covers the raw bytes, line breaks included.
/// Here each run of SP, HTAB, CR and LF that holds a CR or LF (the line break and the
/// whitespace around it) becomes one SP, as RFC 9112 5.2 asks before a value is interpreted;
/// that is how the parser itself reads Content-Length, Transfer-Encoding, Connection and Host.
/// A value without CR or LF (every value in strict mode) comes back as one piece.
///
/// ```
/// let value = b"gzip,\r\n  chunked";
/// let pieces: Vec<&[u8]> = httpspan::unfold(value).collect();
/// assert_eq!(pieces.concat(), b"gzip, chunked");
/// ```
///
/// [`Leniency::obs_fold`]: crate::Leniency::obs_fold
#[must_use]
pub fn unfold(value: &[u8]) -> Unfolded<'_> {
    Unfolded { rest: value }
}

/// The iterator returned by [`unfold`].
#[derive(Clone, Debug)]
pub struct Unfolded<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for Unfolded<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        if self.rest.is_empty() {
            return None;
        }
        let Some(brk) = self.rest.iter().position(|&b| b == b'\r' || b == b'\n') else {
            return Some(core::mem::take(&mut self.rest));
        };
        let fold_start = self.rest[..brk]
            .iter()
            .rposition(|&b| !is_ws(b))
            .map_or(0, |i| i + 1);
        if fold_start > 0 {
            let (piece, rest) = self.rest.split_at(fold_start);
            self.rest = rest;
            return Some(piece);
        }
        let fold_len = self
            .rest
            .iter()
            .position(|&b| !syntax::is_folded_ws(b))
            .unwrap_or(self.rest.len());
        self.rest = &self.rest[fold_len..];
        Some(b" ")
    }
}
