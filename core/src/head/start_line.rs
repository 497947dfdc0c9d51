//! What the engine needs to know of the line a head starts with: how to parse it.

use crate::error::Error;
use crate::head_kind::HeadKind;
use crate::limits::Leniency;
use crate::scan::blocks::FieldBlocks;
use crate::scan::Engine;
use crate::syntax::Version;

/// The start line of a head: parsed once its line is complete. Parsing a line cut short must
/// fail only at its end (see [`Head::check_truncated`](super::Head::check_truncated)).
pub(crate) trait StartLine: Clone {
    const KIND: HeadKind;
    /// Parses `line` (without its line end), which starts at `base` in the buffer, with the
    /// kernels of `engine`.
    fn parse<E: Engine>(
        &mut self,
        line: &[u8],
        base: usize,
        lenient: &Leniency,
        engine: E,
    ) -> Result<Version, Error>;

    /// The common shape of the line `buf[pos..cr]`, checked from the block masks: its version
    /// if the line is valid in that shape, `None` for [`parse`](StartLine::parse) to decide.
    /// The caller has found `cr` as the first byte from `pos` that is not a field-value byte,
    /// and checked that it is a CR followed by LF.
    ///
    /// Everything it accepts, `parse` accepts with the same result under any [`Leniency`]:
    /// the fast path only says yes.
    #[inline(always)]
    fn parse_common<E: Engine>(
        &mut self,
        _buf: &[u8],
        _pos: usize,
        _cr: usize,
        _blocks: &mut FieldBlocks<'_, E>,
    ) -> Option<Version> {
        None
    }
}

/// Trailer sections have no start line.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct NoStartLine;

impl StartLine for NoStartLine {
    const KIND: HeadKind = HeadKind::Trailers;
    fn parse<E: Engine>(
        &mut self,
        _: &[u8],
        _: usize,
        _: &Leniency,
        _: E,
    ) -> Result<Version, Error> {
        Ok(Version::Http11)
    }
}
