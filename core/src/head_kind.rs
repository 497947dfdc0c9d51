//! Which kind of head is parsed: what the head engine and the framing rules both branch on, so
//! it lives apart from either.

/// Which kind of head the engine is parsing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HeadKind {
    Request,
    Response,
    Trailers,
}
