//! The precise path: any line checked byte by byte, which finds the exact error and its offset
//! (and takes the lines the fast paths leave), and the check of a head that a stream cut short.

use super::field::Field;
use super::{Head, Phase, StartLine};
use crate::error::{Error, ErrorKind};
use crate::framing::LAST_WITH_MEANING;
use crate::head_kind::HeadKind;
use crate::known::KnownHeader;
use crate::scan::{self, class::is_ws, ByteClass, Engine, WithEngine};
use crate::span::Span;
use crate::syntax;

impl<const N: usize> Head<N> {
    /// Checks one field line, `buf[pos..end]`, applies what it means for framing and connection,
    /// and stores it.
    pub(super) fn field_line<E: Engine>(
        &mut self,
        kind: HeadKind,
        buf: &[u8],
        pos: usize,
        end: usize,
        engine: E,
    ) -> Result<(), Error> {
        let parts = self.field_parts(kind, &buf[pos..end], pos, engine)?;
        let known = KnownHeader::id_of_name(&buf[pos..pos + parts.0]);
        self.store_field(kind, buf, pos, parts, known, false)
    }

    /// Applies what a checked field line means for framing and connection, and stores it. `parts`
    /// are the name length and the value bounds, relative to the line's start `pos`.
    #[inline(always)]
    pub(super) fn store_field(
        &mut self,
        kind: HeadKind,
        buf: &[u8],
        pos: usize,
        (name_len, value_start, value_end): (usize, usize, usize),
        known: u8,
        host_checked: bool,
    ) -> Result<(), Error> {
        let line = &buf[pos..];
        // With obs-folds, the value holds the raw line breaks; the semantics read each fold as
        // whitespace, which is what `unfold` presents.
        if known <= LAST_WITH_MEANING as u8 && kind != HeadKind::Trailers {
            self.framing.apply(
                kind,
                self.version,
                &self.lenient,
                KnownHeader::ALL[known as usize],
                &line[value_start..value_end],
                pos,
                pos + value_start,
                host_checked,
            )?;
        }

        let field = Field {
            name: Span::from_range(pos, pos + name_len),
            value: Span::from_range(pos + value_start, pos + value_end),
            known,
        };
        self.store_in_slot(self.lines as usize, field);
        self.lines += 1;
        Ok(())
    }

    /// Splits a field line (non-empty, without its line end, starting at `pos`) into the length
    /// of its name and the bounds of its trimmed value, checking every byte and the line limit.
    /// A line cut short fails only at its end, so a truncated line can be checked too.
    ///
    /// A CR or LF in the line is part of an obs-fold: the line-end search lets no other through.
    pub(super) fn field_parts<E: Engine>(
        &self,
        kind: HeadKind,
        line: &[u8],
        pos: usize,
        engine: E,
    ) -> Result<(usize, usize, usize), Error> {
        if is_ws(line[0]) {
            let kind = match (kind, self.lines) {
                (HeadKind::Trailers, _) | (_, 1..) => ErrorKind::ObsFold,
                _ => ErrorKind::WhitespaceBeforeFirstField,
            };
            return Err(Error::new(kind, pos));
        }
        let name_len = engine.run(line, ByteClass::Token);
        let mut colon = name_len;
        if self.lenient.space_before_colon && name_len > 0 {
            colon += line[name_len..].iter().take_while(|&&b| is_ws(b)).count();
        }
        match line.get(colon) {
            Some(b':') if name_len > 0 => {}
            Some(b':') => return Err(Error::new(ErrorKind::InvalidFieldName, pos)),
            Some(b' ' | b'\t') => {
                return Err(Error::new(ErrorKind::WhitespaceBeforeColon, pos + name_len))
            }
            Some(_) => return Err(Error::new(ErrorKind::InvalidFieldName, pos + colon)),
            None => return Err(Error::new(ErrorKind::MissingColon, pos + colon)),
        }
        let folds = self.lenient.obs_fold;
        let value_ws = |b: u8| {
            if folds {
                syntax::is_folded_ws(b)
            } else {
                is_ws(b)
            }
        };
        let mut value_start = colon + 1;
        while value_start < line.len() && value_ws(line[value_start]) {
            value_start += 1;
        }
        let mut i = value_start;
        loop {
            i += engine.run(&line[i..], ByteClass::Value);
            match line.get(i) {
                None => break,
                Some(b'\r' | b'\n') if folds => i += 1,
                Some(_) => return Err(Error::new(ErrorKind::InvalidFieldValue, pos + i)),
            }
        }
        let mut value_end = line.len();
        while value_end > value_start && value_ws(line[value_end - 1]) {
            value_end -= 1;
        }
        if self.lines >= self.max_lines {
            return Err(Error::new(ErrorKind::TooManyFields, pos));
        }
        Ok((name_len, value_start, value_end))
    }

    /// For a head that the stream cut short after [`Status::Partial`]: the error in the bytes
    /// received, if they can no longer begin a valid head.
    ///
    /// The incomplete last line goes through the ordinary line parsers: an error before its end
    /// is final, one at its end only means the line ran out. A CR at the end is the start of the
    /// line's CRLF, so the line is complete but for its LF and every error counts. The meaning of
    /// fields (Content-Length syntax, duplicates) is judged only on complete values.
    ///
    /// With [`Leniency::obs_fold`] a field line is never complete at its line end, since an
    /// obs-fold could continue it: a line end that arrived, whole or in part, is set aside and the
    /// line judged on its bytes.
    ///
    /// [`Status::Partial`]: super::Status::Partial
    /// [`Leniency::obs_fold`]: crate::Leniency::obs_fold
    pub(crate) fn check_truncated<S: StartLine>(&self, buf: &[u8], start: &S) -> Result<(), Error> {
        scan::with_engine(TruncatedCheck {
            head: self,
            buf,
            start,
        })
    }

    /// [`check_truncated`](Self::check_truncated) with the kernels of `engine`.
    #[inline(always)]
    fn check_truncated_with<S: StartLine, E: Engine>(
        &self,
        buf: &[u8],
        start: &S,
        engine: E,
    ) -> Result<(), Error> {
        let pos = self.line_start as usize;
        let rest = buf.get(pos..).unwrap_or(&[]);
        if rest.is_empty() || matches!(self.phase, Phase::Leading | Phase::Done) {
            return Ok(());
        }
        // Only a field line that waits for the byte after its line end can end in LF.
        let (line, ended) = match rest {
            [line @ .., b'\r', b'\n'] | [line @ .., b'\n'] | [line @ .., b'\r'] => (line, true),
            _ => (rest, false),
        };
        let folds = self.lenient.obs_fold && self.phase == Phase::Fields && !line.is_empty();
        let complete = ended && !folds;
        let result = match self.phase {
            Phase::StartLine => start
                .clone()
                .parse(line, pos, &self.lenient, engine)
                .map(drop),
            Phase::Fields if line.is_empty() => self.check_complete(S::KIND, pos),
            Phase::Fields if complete => {
                self.clone()
                    .field_line(S::KIND, buf, pos, pos + line.len(), engine)
            }
            _ => self.field_parts(S::KIND, line, pos, engine).map(drop),
        };
        match result {
            Err(e) if complete || e.offset() < pos + line.len() => Err(e),
            _ => Ok(()),
        }
    }
}

/// A call of [`Head::check_truncated`], to run with the backend's engine.
struct TruncatedCheck<'a, const N: usize, S> {
    head: &'a Head<N>,
    buf: &'a [u8],
    start: &'a S,
}

impl<const N: usize, S: StartLine> WithEngine for TruncatedCheck<'_, N, S> {
    type Output = Result<(), Error>;

    #[inline(always)]
    fn run<E: Engine>(self, engine: E) -> Self::Output {
        self.head.check_truncated_with(self.buf, self.start, engine)
    }
}
