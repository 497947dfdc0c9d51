//! The line engine: where the current line ends, within the head's byte limit, resumed where
//! the last search stopped.

use super::{Head, Phase, SPAN_LIMIT};
use crate::error::{Error, ErrorKind};
use crate::head_kind::HeadKind;
use crate::scan::{self, class::is_ws, Engine};

impl<const N: usize> Head<N> {
    /// The shortcut for a parse resumed inside a line with a few more bytes (a peer that sends
    /// a byte at a time): if they hold no CR, LF or NUL (but perhaps a CR as the very last byte)
    /// and stay below the byte limit, the line is still incomplete, which is all the full path
    /// would find, after more work. The search state advances past them exactly as the full
    /// path's line-end search would advance it.
    #[inline(always)]
    pub(super) fn resumes_without_line_end(&mut self, buf: &[u8]) -> bool {
        let (from, end) = (self.scan_from as usize, buf.len());
        // In a start line or a field line (at its start too: without a line end the one-pass
        // path finds the line incomplete and leaves it to the line-end search, which then
        // finds what this check finds; the line is judged by the general path once complete).
        let in_line = matches!(self.phase, Phase::StartLine | Phase::Fields);
        if !in_line || end < from || end - from >= scan::SHORT || end >= self.limit_end as usize {
            return false;
        }
        let new = &buf[from..];
        // Fewer than `SHORT` bytes: the scalar kernel, inlined, whatever the backend.
        let clean = scan::class_len::<{ scan::ByteClass::NotLineSpecial as u8 }>(new);
        self.scan_from = match new.get(clean) {
            None => end,
            // A CR that ends the buffer: its LF has not arrived, which is all the line-end
            // search would find too, and it would wait at the CR.
            Some(b'\r') if clean + 1 == new.len() => from + clean,
            Some(_) => return false,
        } as u32;
        true
    }

    /// The start of the head proper: from here on, its bytes count against the limit.
    #[inline(always)]
    pub(super) fn begin(&mut self, pos: usize, phase: Phase) {
        self.limit_end = (pos + self.max_bytes as usize).min(SPAN_LIMIT) as u32;
        self.scan_from = pos as u32;
        self.phase = phase;
    }

    /// Moves to the line that starts at `next`.
    #[inline(always)]
    pub(super) fn next_line(&mut self, next: usize, phase: Phase) {
        self.line_start = next as u32;
        // `phase` is a constant at every call, so this is a plain store.
        self.scan_from = match phase {
            Phase::Done => u32::MAX,
            _ => self.line_start,
        };
        self.phase = phase;
    }

    /// Finds the line end (CRLF, or with [`Leniency::bare_lf`] a bare LF) of the current line,
    /// continuing the search where the last call stopped: `Ok(Some((end, next)))` with the
    /// offset of the line end and of the next line, `Ok(None)` if the buffer ends first.
    ///
    /// With [`Leniency::obs_fold`], a line end inside a field line that is followed by SP or HTAB
    /// is an obs-fold and the line goes on, so a field line ends only once the byte after its
    /// line end has arrived. That byte lies within the limit or the head could not end in it.
    ///
    /// [`Leniency::bare_lf`]: crate::Leniency::bare_lf
    /// [`Leniency::obs_fold`]: crate::Leniency::obs_fold
    // Inlined, so that the kernels inline into the loop, except where the module's size counts
    // (`httpspan_size_first`).
    #[cfg_attr(not(httpspan_size_first), inline(always))]
    pub(super) fn find_line_end<E: Engine>(
        &mut self,
        kind: HeadKind,
        buf: &[u8],
        engine: E,
    ) -> Result<Option<(usize, usize)>, Error> {
        let limit = self.limit_end as usize;
        let end = buf.len().min(limit);
        let folds = self.lenient.obs_fold && self.phase == Phase::Fields;
        while (self.scan_from as usize) < end {
            let from = self.scan_from as usize;
            let i = from + engine.line_special(&buf[from..end]);
            if i == end {
                self.scan_from = end as u32;
                break;
            }
            let next = match buf[i] {
                b'\r' => match buf.get(i + 1) {
                    // The LF would be the first byte over the limit.
                    Some(_) if i + 1 >= limit => return Err(self.too_large(kind)),
                    Some(b'\n') => i + 2,
                    Some(_) => return Err(Error::new(ErrorKind::BareCr, i + 1)),
                    // The same, whether the LF has arrived or not.
                    None if i + 1 >= limit => return Err(self.too_large(kind)),
                    None => {
                        self.scan_from = i as u32;
                        return Ok(None);
                    }
                },
                b'\n' if self.lenient.bare_lf => i + 1,
                b'\n' => return Err(Error::new(ErrorKind::BareLf, i)),
                _ => return Err(Error::new(ErrorKind::Nul, i)),
            };
            if folds && i > self.line_start as usize {
                if next >= limit {
                    // Folded or not, the head cannot end within the limit.
                    return Err(self.too_large(kind));
                }
                match buf.get(next) {
                    Some(&b) if is_ws(b) => {
                        self.scan_from = (next + 1) as u32;
                        continue;
                    }
                    Some(_) => {}
                    None => {
                        // Resume at the line end: one or two bytes are looked at again.
                        self.scan_from = i as u32;
                        return Ok(None);
                    }
                }
            }
            return Ok(Some((i, next)));
        }
        // Every byte the head may occupy is here and none ends it: more bytes cannot help, so
        // a read loop is never asked to read into an empty slice. The offset is the first byte
        // over the limit, whether it has arrived or not, so that any split gives the same error.
        if buf.len() >= limit {
            return Err(self.too_large(kind));
        }
        Ok(None)
    }

    pub(super) fn too_large(&self, kind: HeadKind) -> Error {
        let kind = match (kind, self.phase) {
            (HeadKind::Trailers, _) => ErrorKind::TrailersTooLarge,
            (HeadKind::Request, Phase::StartLine) => ErrorKind::TargetTooLong,
            _ => ErrorKind::HeadTooLarge,
        };
        Error::new(kind, self.limit_end as usize)
    }
}
