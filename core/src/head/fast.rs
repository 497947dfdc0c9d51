//! The paths that only say yes (stage 2): the usual start line and field lines read from the
//! block masks in one pass. Anything else, every error included, is left to the precise path
//! (`super::precise`), which accepts everything these accept with the same result.

use super::field::Field;
use super::{Head, Phase, StartLine};
use crate::error::Error;
use crate::framing::LAST_WITH_MEANING;
use crate::head_kind::HeadKind;
use crate::known::KnownHeader;
use crate::scan::blocks::{self, FieldBlocks};
use crate::scan::{class::is_ws, ByteClass, Engine};
use crate::span::Span;
use crate::syntax;

/// How many SP and HTAB end `bytes`.
#[inline]
fn trailing_ws(bytes: &[u8]) -> usize {
    bytes.iter().rev().take_while(|&&b| is_ws(b)).count()
}

impl<const N: usize> Head<N> {
    /// Whether the one-pass paths may take the current line: at its first attempt, or once its
    /// CRLF has arrived (the line-end search, resumed, stops at the CR and waits there for
    /// the LF). A line fed in many pieces is so classified at most twice, not once per piece,
    /// and a line completed by a byte-at-a-time feed is checked by the one-pass path too.
    #[inline(always)]
    pub(super) fn first_or_complete_attempt(&self, buf: &[u8]) -> bool {
        let from = self.scan_from as usize;
        from == self.line_start as usize || buf.get(from..from + 2) == Some(b"\r\n")
    }

    /// The common case of a start line, from the block masks: a valid line of the usual shape
    /// whose CRLF is in the buffer is parsed and `true` returned. Anything else returns `false`
    /// for the general path (`find_line_end`, then [`StartLine::parse`]), after recording how
    /// far the line is known to hold no CR, LF or NUL, so that those bytes are not searched
    /// twice. Only a line's first attempt, or one whose CRLF has arrived since, takes this path
    /// (see `first_or_complete_attempt`), so a line resumed many times is not classified many
    /// times.
    // One copy where the module's size counts (`httpspan_size_first`), inlined elsewhere.
    #[cfg_attr(not(httpspan_size_first), inline(always))]
    pub(super) fn start_line_in_one_pass<S: StartLine, E: Engine>(
        &mut self,
        buf: &[u8],
        start: &mut S,
        blocks: &mut FieldBlocks<'_, E>,
    ) -> bool {
        let pos = self.line_start as usize;
        if !self.first_or_complete_attempt(buf) {
            return false;
        }
        let end = buf.len().min(self.limit_end as usize);
        // Every byte of a valid start line is a field-value byte: the first that is not must
        // be the CR.
        let cr = blocks.next_not_value(pos);
        if cr + 1 < end && buf[cr] == b'\r' && buf[cr + 1] == b'\n' {
            if let Some(version) = start.parse_common(buf, pos, cr, blocks) {
                self.version = version;
                self.next_line(cr + 2, Phase::Fields);
                return true;
            }
        }
        // Field-value bytes are not CR, LF or NUL.
        self.scan_from = cr.min(end) as u32;
        false
    }

    /// The common case of field lines, from the block masks, line after line while they have
    /// the usual shape:
    ///
    /// ```text
    /// loop at pos, the start of a line:
    ///     colon = next non-tchar from pos
    ///     colon == pos: CR LF ends the head; anything else is not the usual shape
    ///     must be ':' after the name
    ///     skip one SP after the colon
    ///     cr = next non-field-value byte         // must be CR, then LF, within the limit
    ///     trim SP/HTAB around the value; look the name up; store the field; pos = cr + 2
    /// ```
    ///
    /// Each line that passes is checked in full: a name of `tchar`s, a colon, a value of
    /// field-value bytes and CRLF is exactly a valid field line. The first line that does not
    /// have this shape, or is incomplete, or meets a limit, is left to the general path
    /// (`find_line_end`, then `field_line`), which finds the exact error and offset; `false`
    /// then says so, after recording how far that line is known to hold no CR, LF or NUL. `true`
    /// when the head's empty line was reached. Only a line's first attempt, or one whose CRLF
    /// has arrived since, takes this path (see `first_or_complete_attempt`).
    ///
    /// The line and slot counts live in locals and are written back once, at the exit: little
    /// state is written per line.
    ///
    /// Requests and responses only: for a trailer section, rare and short, it returns `false`
    /// at once and the general path takes every line, which spares the wasm module a third copy
    /// of the walk (and the walk the trailers' rule that their fields mean nothing for framing).
    // Where the module's size counts (`httpspan_size_first`), one copy per head kind, with
    // `S::KIND` a constant in each; inlined elsewhere.
    #[cfg_attr(not(httpspan_size_first), inline(always))]
    pub(super) fn fields_in_one_pass<S: StartLine, E: Engine>(
        &mut self,
        buf: &[u8],
        shared: &mut FieldBlocks<'_, E>,
    ) -> Result<bool, Error> {
        let kind = S::KIND;
        let mut pos = self.line_start as usize;
        if kind == HeadKind::Trailers || !self.first_or_complete_attempt(buf) {
            return Ok(false);
        }
        // The bytes the head may occupy: a line is accepted only if its LF is among them.
        let head = &buf[..buf.len().min(self.limit_end as usize)];
        let mut lines = self.lines;
        // The cursor in a local, written back at the exit: where this function is a call (the
        // wasm module), its cached block then lives in locals rather than behind a pointer.
        let mut blocks = *shared;
        // How far the first line not accepted is known to hold no CR, LF or NUL.
        let mut clean_to = pos;
        let outcome = loop {
            let colon = blocks.walk_next_not_token(pos);
            if colon == pos {
                break Ok(head.get(pos..pos + 2) == Some(b"\r\n"));
            }
            // Token bytes are not CR, LF or NUL.
            clean_to = colon;
            // The colon and the byte after it, which a complete line has (its CR at the least).
            let value_start = match head.get(colon..colon + 2) {
                Some(&[b':', next]) if lines < self.max_lines => {
                    colon + 1 + usize::from(next == b' ')
                }
                _ => break Ok(false),
            };
            // From the byte after the colon, not from the value's start: the SP between them
            // is a value byte, so the CR is the same, and the search, which the next line's
            // waits on, does not wait on the load that tells the SP.
            let cr = blocks.walk_next_not_value(colon + 1);
            if head.get(cr..cr + 2) != Some(b"\r\n") {
                // Neither the colon nor value bytes are CR, LF or NUL.
                clean_to = cr;
                break Ok(false);
            }
            // More whitespace around the value than the one SP after the colon is rare. The only
            // field-value bytes at or below SP are SP and HTAB, and an empty value starts at the
            // CR: a value whose two ends are above SP has nothing to trim.
            let (value_start, value_end) = if head[value_start] > b' ' && head[cr - 1] > b' ' {
                (value_start, cr)
            } else {
                let value = &head[value_start..cr];
                let lead = value.iter().take_while(|&&b| is_ws(b)).count();
                (value_start + lead, cr - trailing_ws(&value[lead..]))
            };
            let known = KnownHeader::id_of_name(&head[pos..colon]);
            if known <= LAST_WITH_MEANING as u8 {
                // A Host value of a reg-name and a port is checked here, from a mask of its
                // bytes; any other goes through `syntax::host`.
                let host_checked = kind == HeadKind::Request
                    && known == KnownHeader::Host as u8
                    && value_start < value_end
                    && syntax::host_of_reg_name(
                        &head[value_start..value_end],
                        blocks::next_outside_one(
                            blocks.engine(),
                            head,
                            value_start,
                            ByteClass::RegName,
                        ) - value_start,
                    );
                if let Err(e) = self.framing.apply(
                    kind,
                    self.version,
                    &self.lenient,
                    KnownHeader::ALL[known as usize],
                    &head[value_start..value_end],
                    pos,
                    value_start,
                    host_checked,
                ) {
                    break Err(e);
                }
            }
            let field = Field {
                name: Span::from_range(pos, colon),
                value: Span::from_range(value_start, value_end),
                known,
            };
            self.store_in_slot(lines as usize, field);
            lines += 1;
            pos = cr + 2;
            clean_to = pos;
        };
        *shared = blocks;
        self.lines = lines;
        self.line_start = pos as u32;
        self.scan_from = clean_to.min(head.len()) as u32;
        if outcome? {
            self.check_complete(kind, pos)?;
            self.next_line(pos + 2, Phase::Done);
            return Ok(true);
        }
        Ok(false)
    }
}
