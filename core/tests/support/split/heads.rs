//! The head parsers (`Request`, `Response`, `Trailers`) over growing prefixes: a resumed parse
//! and fresh parses of prefixes reach the result of one call on the whole buffer, and every span
//! of a completed head lies, in order, inside it with the bytes it claims.

use httpspan::{
    Error, Field, Framing, KnownHeader, Leniency, Limits, Request, Response, Span, Status,
    Trailers, Version,
};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::TestCaseError;

use super::{escape, is_tchar, is_ws, trim};

/// What a head parser reports after a complete parse.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// Request: method and target. Response: reason. Trailers: none.
    pub start: Vec<Span>,
    pub status: u16,
    pub version: Option<Version>,
    pub fields: Vec<Field>,
    pub gets: Vec<Option<Span>>,
    pub indexes: Vec<Option<usize>>,
    pub bitmap: u64,
    pub content_length: Option<u64>,
    pub chunked: bool,
    pub keep_alive: bool,
    pub framing: Option<Framing>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum HeadKind {
    Request,
    Response,
    Trailers,
}

pub trait HeadParser {
    const KIND: HeadKind;
    fn fresh(limits: &Limits) -> Self;
    fn parse_buf(&mut self, buf: &[u8]) -> Result<Status, Error>;
    fn snapshot(&self) -> Snapshot;
    fn find_in(&self, buf: &[u8], name: &[u8]) -> Option<Span>;
}

/// Implements `HeadParser` for the three parsers, which share these methods by name. `$extra`
/// fills in what only requests and responses have.
macro_rules! head_parser {
    ($ty:ident, $kind:ident, |$p:ident| $extra:expr) => {
        impl<const N: usize> HeadParser for $ty<N> {
            const KIND: HeadKind = HeadKind::$kind;
            fn fresh(limits: &Limits) -> Self {
                let mut p = Self::default();
                p.set_limits(limits);
                p.reset();
                p
            }
            fn parse_buf(&mut self, buf: &[u8]) -> Result<Status, Error> {
                self.parse(buf)
            }
            fn snapshot(&self) -> Snapshot {
                let $p = self;
                Snapshot {
                    fields: $p.fields().to_vec(),
                    gets: KnownHeader::ALL.iter().map(|&k| $p.value(k)).collect(),
                    indexes: KnownHeader::ALL
                        .iter()
                        .map(|&k| $p.known_index(k))
                        .collect(),
                    bitmap: $p.known_bitmap(),
                    ..$extra
                }
            }
            fn find_in(&self, buf: &[u8], name: &[u8]) -> Option<Span> {
                self.find(buf, name)
            }
        }
    };
}

/// The message-level part of a request's or response's snapshot.
pub fn semantics(
    version: Version,
    cl: Option<u64>,
    chunked: bool,
    keep: bool,
    framing: Framing,
) -> Snapshot {
    Snapshot {
        version: Some(version),
        content_length: cl,
        chunked,
        keep_alive: keep,
        framing: Some(framing),
        ..Snapshot::default()
    }
}

head_parser!(Request, Request, |p| Snapshot {
    start: vec![p.method(), p.target()],
    ..semantics(
        p.version(),
        p.content_length(),
        p.is_chunked(),
        p.keep_alive(),
        p.framing()
    )
});
head_parser!(Response, Response, |p| Snapshot {
    start: vec![p.reason()],
    status: p.status(),
    ..semantics(
        p.version(),
        p.content_length(),
        p.is_chunked(),
        p.keep_alive(),
        p.framing()
    )
});
head_parser!(Trailers, Trailers, |_p| Snapshot::default());

pub type Parsed = Result<(Status, Option<Snapshot>), Error>;

pub fn parse_once<P: HeadParser>(parser: &mut P, buf: &[u8]) -> Parsed {
    let status = parser.parse_buf(buf)?;
    Ok((status, status.is_complete().then(|| parser.snapshot())))
}

/// Checks a completed head: every span inside it, in order, with the bytes it claims. With
/// lenient options the exact layout of lines is not checked, only what every option keeps:
/// spans in order inside the head, token names, trimmed values without NUL.
pub fn check_spans<P: HeadParser>(
    parser: &P,
    buf: &[u8],
    head_len: usize,
    lenient: &Leniency,
) -> Result<(), TestCaseError> {
    let snap = parser.snapshot();
    let ctx = || escape(&buf[..head_len.min(buf.len())]);
    prop_assert!(
        head_len <= buf.len(),
        "head_len {} > {}",
        head_len,
        buf.len()
    );
    if *lenient != Leniency::STRICT {
        return check_lenient_spans(parser, &buf[..head_len], lenient);
    }
    let head = &buf[..head_len];
    match P::KIND {
        HeadKind::Trailers => prop_assert!(head.ends_with(b"\r\n"), "{}", ctx()),
        _ => prop_assert!(head.ends_with(b"\r\n\r\n"), "{}", ctx()),
    }
    // Where the field lines may start.
    let mut next_line = 0;
    match P::KIND {
        HeadKind::Request => {
            let (method, target) = (snap.start[0], snap.start[1]);
            prop_assert!(method.off <= 4 && !method.is_empty(), "method {:?}", method);
            prop_assert!(
                method.as_bytes(head).iter().all(|&b| is_tchar(b)),
                "{}",
                ctx()
            );
            prop_assert_eq!(head.get(method.end()), Some(&b' '), "{}", ctx());
            prop_assert_eq!(target.off as usize, method.end() + 1, "{}", ctx());
            prop_assert!(!target.is_empty(), "{}", ctx());
            prop_assert_eq!(head.get(target.end()), Some(&b' '), "{}", ctx());
            next_line = target.end() + 11;
            let version = &head[target.end() + 1..next_line];
            prop_assert!(
                version == b"HTTP/1.1\r\n" || version == b"HTTP/1.0\r\n",
                "{}",
                ctx()
            );
        }
        HeadKind::Response => {
            let reason = snap.start[0];
            prop_assert!(
                reason.off >= 12 && reason.end() + 4 <= head_len,
                "{}",
                ctx()
            );
            prop_assert!(head[reason.end()..].starts_with(b"\r\n"), "{}", ctx());
            next_line = reason.end() + 2;
            prop_assert!((100..=599).contains(&snap.status));
        }
        HeadKind::Trailers => {}
    }
    for (i, f) in snap.fields.iter().enumerate() {
        prop_assert!(
            f.name.off as usize >= next_line,
            "field {} name at {} before {}: {}",
            i,
            f.name.off,
            next_line,
            ctx()
        );
        prop_assert!(f.name.end() <= head_len && f.value.end() <= head_len);
        let name = f.name.as_bytes(head);
        prop_assert!(
            !name.is_empty() && name.iter().all(|&b| is_tchar(b)),
            "{}",
            ctx()
        );
        prop_assert_eq!(head[f.name.end()], b':', "{}", ctx());
        prop_assert!(f.value.off as usize > f.name.end(), "{}", ctx());
        prop_assert!(
            head[f.name.end() + 1..f.value.off as usize]
                .iter()
                .all(|&b| is_ws(b)),
            "{}",
            ctx()
        );
        let value = f.value.as_bytes(head);
        prop_assert!(value == trim(value), "untrimmed value {}", escape(value));
        prop_assert!(
            !value.iter().any(|&b| b == b'\r' || b == b'\n' || b == 0),
            "{}",
            ctx()
        );
        let after = &head[f.value.end()..];
        let ws = after.iter().take_while(|&&b| is_ws(b)).count();
        prop_assert!(after[ws..].starts_with(b"\r\n"), "{}", ctx());
        next_line = f.value.end() + ws + 2;
        prop_assert_eq!(f.known(), KnownHeader::from_name(name));
        // `find` gives the first field of that name; `get` the first of that known header.
        let first = snap
            .fields
            .iter()
            .find(|g| g.name.as_bytes(head).eq_ignore_ascii_case(name))
            .map(|g| g.value);
        prop_assert_eq!(parser.find_in(head, name), first, "find {}", escape(name));
    }
    prop_assert_eq!(next_line + 2, head_len, "{}", ctx());
    for (slot, &known) in KnownHeader::ALL.iter().enumerate() {
        let first = snap.fields.iter().find(|f| f.known() == Some(known));
        prop_assert_eq!(snap.gets[slot], first.map(|f| f.value));
    }
    prop_assert_eq!(parser.find_in(head, b"x-surely-absent-zz"), None);
    Ok(())
}

pub fn check_lenient_spans<P: HeadParser>(
    parser: &P,
    head: &[u8],
    lenient: &Leniency,
) -> Result<(), TestCaseError> {
    let snap = parser.snapshot();
    let ctx = || escape(head);
    prop_assert!(head.ends_with(b"\n"), "{}", ctx());
    let mut next = 0;
    for span in &snap.start {
        prop_assert!(
            span.off as usize >= next && span.end() <= head.len(),
            "{}",
            ctx()
        );
        next = span.end();
    }
    for f in &snap.fields {
        prop_assert!(f.name.off as usize >= next, "{}", ctx());
        prop_assert!(f.value.off as usize > f.name.end() && f.value.end() <= head.len());
        let name = f.name.as_bytes(head);
        prop_assert!(
            !name.is_empty() && name.iter().all(|&b| is_tchar(b)),
            "{}",
            ctx()
        );
        let between = &head[f.name.end()..f.value.off as usize];
        let colon = between.iter().position(|&b| b == b':');
        prop_assert!(colon.is_some(), "{}", ctx());
        let colon = colon.unwrap_or(0);
        prop_assert!(colon == 0 || lenient.space_before_colon, "{}", ctx());
        let value = f.value.as_bytes(head);
        let edge_ws = |b: &u8| is_ws(*b) || *b == b'\r' || *b == b'\n';
        prop_assert!(
            !value.first().is_some_and(edge_ws) && !value.last().is_some_and(edge_ws),
            "untrimmed value {}",
            escape(value)
        );
        prop_assert!(!value.contains(&0), "{}", ctx());
        let breaks = value.iter().any(|&b| b == b'\r' || b == b'\n');
        prop_assert!(!breaks || lenient.obs_fold, "{}", ctx());
        next = f.value.end();
        prop_assert_eq!(f.known(), KnownHeader::from_name(name));
    }
    Ok(())
}

/// `parse` resumed over growing prefixes, and fresh parsers on prefixes, agree with one call
/// on the whole buffer.
pub fn check_prefixes<P: HeadParser>(
    limits: &Limits,
    buf: &[u8],
    steps: &[Index],
    fresh_lens: &[Index],
) -> Result<Parsed, TestCaseError> {
    let mut whole_parser = P::fresh(limits);
    let whole = parse_once(&mut whole_parser, buf);
    let ctx = || format!("buffer {}, limits {:?}", escape(buf), limits);
    // A repeated call gives the same answer; after a complete head, the misuse error.
    let again = parse_once(&mut whole_parser, buf);
    if matches!(whole, Ok((Status::Complete { .. }, _))) {
        let kind = again.err().map(|e| e.kind());
        prop_assert_eq!(
            kind,
            Some(httpspan::ErrorKind::ParseAfterComplete),
            "{}",
            ctx()
        );
    } else {
        prop_assert_eq!(&again, &whole, "{}", ctx());
    }
    if let Ok((Status::Complete { head_len }, _)) = whole {
        check_spans(&whole_parser, buf, head_len, &limits.lenient)?;
    }

    // Every prefix, resumed.
    let mut resumed = P::fresh(limits);
    let mut last = Ok((Status::Partial, None));
    for k in 0..=buf.len() {
        last = parse_once(&mut resumed, &buf[..k]);
        if last != Ok((Status::Partial, None)) {
            break;
        }
    }
    prop_assert_eq!(&last, &whole, "every prefix, resumed: {}", ctx());
    if let Ok((Status::Complete { .. }, _)) = last {
        // Once complete, a longer buffer without `reset` is the caller's bug, and the parse
        // keeps its answer.
        let kind = resumed.parse_buf(buf).map_err(|e| e.kind());
        prop_assert_eq!(
            kind,
            Err(httpspan::ErrorKind::ParseAfterComplete),
            "{}",
            ctx()
        );
        prop_assert_eq!(Some(resumed.snapshot()), whole.clone().unwrap().1);
    }

    // Random increasing lengths, resumed.
    let mut lens: Vec<usize> = steps.iter().map(|i| i.index(buf.len() + 1)).collect();
    lens.sort_unstable();
    lens.push(buf.len());
    let mut resumed = P::fresh(limits);
    for &k in &lens {
        last = parse_once(&mut resumed, &buf[..k]);
        if last != Ok((Status::Partial, None)) {
            break;
        }
    }
    prop_assert_eq!(&last, &whole, "lengths {:?}, resumed: {}", lens, ctx());

    // Fresh parsers on prefixes: Partial up to some length, then the whole answer.
    let mut lens: Vec<usize> = fresh_lens.iter().map(|i| i.index(buf.len() + 1)).collect();
    lens.sort_unstable();
    let mut decided = None;
    for &k in &lens {
        let got = parse_once(&mut P::fresh(limits), &buf[..k]);
        if got == Ok((Status::Partial, None)) {
            prop_assert!(
                decided.is_none(),
                "prefix {} is Partial after prefix {:?} was not: {}",
                k,
                decided,
                ctx()
            );
            if let Ok((Status::Complete { head_len }, _)) = whole {
                prop_assert!(
                    k < head_len,
                    "prefix {} of a {}-byte head: {}",
                    k,
                    head_len,
                    ctx()
                );
            }
        } else {
            prop_assert_eq!(&got, &whole, "fresh parse of prefix {}: {}", k, ctx());
            decided.get_or_insert(k);
        }
    }
    Ok(whole)
}
