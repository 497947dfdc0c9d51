//! Grammar checks that run on the short pieces the kernels have delimited: versions, status
//! codes, Content-Length and the comma lists of Transfer-Encoding and Connection here, and the
//! request-target, its forms and hosts in `target.rs`.
//!
//! Every function here reports an error as `(ErrorKind, index)` with the index relative to its
//! input; the caller adds the piece's offset in the buffer.

use crate::error::ErrorKind;
use crate::scan;
use crate::scan::class::{self, is, is_ws};

mod target;

pub(crate) use target::{
    host, host_of_reg_name, target_bytes, target_bytes_outside_parse, target_form,
};

pub(crate) type SyntaxResult<T> = Result<T, (ErrorKind, usize)>;

/// The HTTP versions a message can have.
///
/// Exhaustive for good: HTTP/2 and HTTP/3 are not text, so no later version has this syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Version {
    /// `HTTP/1.0`
    Http10,
    /// `HTTP/1.1`
    Http11,
}

impl Version {
    /// The version as it appears on the wire.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Version::Http10 => "HTTP/1.0",
            Version::Http11 => "HTTP/1.1",
        }
    }
}

/// The SPs at the start of `bytes` that follow a separating SP of a start line: none in strict
/// mode, any number with [`Leniency::request_line_spaces`](crate::Leniency::request_line_spaces).
pub(crate) fn extra_sp(bytes: &[u8], request_line_spaces: bool) -> usize {
    match request_line_spaces {
        true => bytes.iter().take_while(|&&b| b == b' ').count(),
        false => 0,
    }
}

/// `HTTP/1.1` or `HTTP/1.0`, compared as one word; `None` for anything else, which
/// [`version`] judges.
#[inline(always)]
pub(crate) fn common_version(bytes: &[u8]) -> Option<Version> {
    const HTTP11: u64 = u64::from_le_bytes(*b"HTTP/1.1");
    const HTTP10: u64 = u64::from_le_bytes(*b"HTTP/1.0");
    match u64::from_le_bytes(*bytes.first_chunk::<8>()?) {
        HTTP11 if bytes.len() == 8 => Some(Version::Http11),
        HTTP10 if bytes.len() == 8 => Some(Version::Http10),
        _ => None,
    }
}

/// Parses exactly `HTTP/1.0` or `HTTP/1.1`, and with `minor_above_1` also `HTTP/1.2` to
/// `HTTP/1.9` as HTTP/1.1 ([`Leniency::unknown_version`](crate::Leniency::unknown_version)).
/// Any other `HTTP/DIGIT.DIGIT` is unsupported (505); anything else is malformed, reported at
/// its first wrong byte.
pub(crate) fn version(bytes: &[u8], minor_above_1: bool) -> SyntaxResult<Version> {
    // The common cases in one compare each; anything else takes the byte-wise check below,
    // which finds the offending byte.
    if let Some(version) = common_version(bytes) {
        return Ok(version);
    }
    const SHAPE: &[u8; 8] = b"HTTP/0.0";
    for (i, &want) in SHAPE.iter().enumerate() {
        let Some(&b) = bytes.get(i) else {
            return Err((ErrorKind::InvalidVersion, i));
        };
        let ok = if want == b'0' {
            b.is_ascii_digit()
        } else {
            b == want
        };
        if !ok {
            return Err((ErrorKind::InvalidVersion, i));
        }
    }
    if bytes.len() > 8 {
        return Err((ErrorKind::InvalidVersion, 8));
    }
    match (bytes[5], bytes[7]) {
        (b'1', b'1') => Ok(Version::Http11),
        (b'1', b'0') => Ok(Version::Http10),
        (b'1', _) if minor_above_1 => Ok(Version::Http11),
        _ => Err((ErrorKind::UnsupportedVersion, 0)),
    }
}

/// A status-code: three digits, from 100 to 599 (RFC 9110 15); `None` for anything else.
#[inline(always)]
pub(crate) fn status_digits(code: [u8; 3]) -> Option<u16> {
    let digits = code.map(|d| d.wrapping_sub(b'0'));
    if digits.iter().any(|&d| d > 9) {
        return None;
    }
    let status = digits
        .iter()
        .fold(0u16, |status, &d| status * 10 + u16::from(d));
    (100..=599).contains(&status).then_some(status)
}

/// The status-code at the start of `code` ([`status_digits`]), or the error and the offset of
/// the byte that is wrong: the first that is not a digit, or the code's first for a number out
/// of range.
pub(crate) fn status_code(code: &[u8]) -> SyntaxResult<u16> {
    if let Some(status) = code.first_chunk::<3>().and_then(|&c| status_digits(c)) {
        return Ok(status);
    }
    let digits = code
        .iter()
        .take(3)
        .take_while(|d| d.is_ascii_digit())
        .count();
    Err((
        ErrorKind::InvalidStatusCode,
        if digits < 3 { digits } else { 0 },
    ))
}

/// Where the reason phrase starts, counted from the byte after the status code, which is
/// `next`: right there when the line ends (many servers send no SP after the code, an empty
/// reason), or after an SP; `None` for any other byte, whose error [`reason_error`] gives.
#[inline(always)]
pub(crate) fn reason_offset(next: Option<&u8>) -> Option<usize> {
    match next {
        None => Some(0),
        Some(b' ') => Some(1),
        Some(_) => None,
    }
}

/// The error of a byte after the status code that [`reason_offset`] refuses: a fourth digit
/// makes the code wrong, anything else the line.
pub(crate) fn reason_error(b: u8) -> ErrorKind {
    match b.is_ascii_digit() {
        true => ErrorKind::InvalidStatusCode,
        false => ErrorKind::InvalidStatusLine,
    }
}

/// The methods whose names the grammar and the framing rules single out: CONNECT and OPTIONS
/// for the form of the request-target (RFC 9112 3.2), HEAD and CONNECT for the framing of the
/// response (RFC 9112 6.3). Method names are case-sensitive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MethodClass {
    Connect,
    Options,
    Head,
    Other,
}

impl MethodClass {
    #[inline]
    pub(crate) fn of(method: &[u8]) -> MethodClass {
        match method {
            b"CONNECT" => MethodClass::Connect,
            b"OPTIONS" => MethodClass::Options,
            b"HEAD" => MethodClass::Head,
            _ => MethodClass::Other,
        }
    }
}

/// The common Content-Length, one to eight digits, as a number; `None` for anything else, which
/// [`content_length`] decides. Inlined where the walk is, so that the common value makes no call
/// (a call there costs the walk its vector registers).
#[inline(always)]
pub(crate) fn few_digits(value: &[u8]) -> Option<u64> {
    if value.is_empty() || value.len() > 8 {
        return None;
    }
    let mut n = 0;
    for &b in value {
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        n = n * 10 + u64::from(digit);
    }
    Some(n)
}

/// Content-Length: 1*DIGIT, at most 2^63-1.
pub(crate) fn content_length(value: &[u8]) -> SyntaxResult<u64> {
    if value.is_empty() {
        return Err((ErrorKind::InvalidContentLength, 0));
    }
    // Up to 18 digits cannot pass 2^63 - 1: no overflow checks. Any other byte sends the value
    // to the loop below, which finds it.
    if value.len() <= 18 {
        let (mut n, mut digits) = (0u64, true);
        for &b in value {
            let d = b.wrapping_sub(b'0');
            digits &= d < 10;
            n = n.wrapping_mul(10).wrapping_add(u64::from(d));
        }
        if digits {
            return Ok(n);
        }
    }
    let mut n: u64 = 0;
    for (i, &b) in value.iter().enumerate() {
        if !b.is_ascii_digit() {
            return Err((ErrorKind::InvalidContentLength, i));
        }
        n = n
            .checked_mul(10)
            .and_then(|n| n.checked_add(u64::from(b - b'0')))
            .filter(|&n| n <= i64::MAX as u64)
            .ok_or((ErrorKind::ContentLengthTooLarge, 0))?;
    }
    Ok(n)
}

/// Content-Length as a comma list of equal numbers, for
/// [`Leniency::duplicate_content_length`](crate::Leniency::duplicate_content_length):
/// `1*DIGIT *( OWS "," OWS 1*DIGIT )`, every element equal to `seen` (the value of an earlier
/// Content-Length line) if given. `Err(None)` when two values differ.
pub(crate) fn content_length_list(
    value: &[u8],
    seen: Option<u64>,
) -> Result<u64, Option<(ErrorKind, usize)>> {
    let mut first = seen;
    let mut start = 0;
    for element in value.split(|&b| b == b',') {
        let (digits, lead) = trim_list_ws(element);
        let n = content_length(digits).map_err(|(k, i)| Some((k, start + lead + i)))?;
        if *first.get_or_insert(n) != n {
            return Err(None);
        }
        start += element.len() + 1;
    }
    Ok(first.unwrap_or(0))
}

/// Whitespace in a field value: SP and HTAB, and the CR and LF of an obs-fold, which a value
/// holds only with [`Leniency::obs_fold`](crate::Leniency::obs_fold). An obs-fold reads as
/// SP, and every grammar here treats a run of whitespace as it treats one SP.
pub(crate) fn is_folded_ws(b: u8) -> bool {
    is_ws(b) || b == b'\r' || b == b'\n'
}

/// A list element without the whitespace around it, and the offset of what is left.
fn trim_list_ws(element: &[u8]) -> (&[u8], usize) {
    let lead = skip_ws(element);
    let rest = &element[lead..];
    let trail = rest.iter().rev().take_while(|&&b| is_folded_ws(b)).count();
    (&rest[..rest.len() - trail], lead)
}

/// One element of a comma list (RFC 9110 5.6.1): its bytes without surrounding whitespace and
/// its offset. Empty elements are skipped, as recipients must accept them.
pub(crate) struct ListItems<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> ListItems<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        ListItems { bytes, pos: 0 }
    }
}

impl<'a> Iterator for ListItems<'a> {
    type Item = (&'a [u8], usize);

    fn next(&mut self) -> Option<Self::Item> {
        while self.pos < self.bytes.len() {
            let rest = &self.bytes[self.pos..];
            let len = quoted_aware_comma(rest);
            let start = self.pos;
            self.pos += len + 1;
            let item = &rest[..len];
            let (trimmed, lead) = trim_list_ws(item);
            if !trimmed.is_empty() {
                return Some((trimmed, start + lead));
            }
        }
        None
    }
}

/// The connection-options of a Connection value (RFC 9110 7.6.1: `#connection-option`, each a
/// token), in order: each option, or the offset of the first byte of an element that is not a
/// token. The parser's framing rules and the public hop-by-hop filter both read Connection
/// through it, so they agree on what a value names.
pub(crate) struct ConnectionOptions<'a> {
    items: ListItems<'a>,
}

impl<'a> ConnectionOptions<'a> {
    pub(crate) fn new(value: &'a [u8]) -> Self {
        ConnectionOptions {
            items: ListItems::new(value),
        }
    }
}

impl<'a> Iterator for ConnectionOptions<'a> {
    type Item = Result<&'a [u8], usize>;

    fn next(&mut self) -> Option<Self::Item> {
        let (item, off) = self.items.next()?;
        let len = scan::token_len(item);
        Some(if len == item.len() {
            Ok(item)
        } else {
            Err(off + len)
        })
    }
}

/// Index of the next comma outside a quoted-string, or the length.
fn quoted_aware_comma(bytes: &[u8]) -> usize {
    let mut quoted = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => quoted = !quoted,
            b'\\' if quoted => i += 1,
            b',' if !quoted => return i,
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

/// One transfer-coding: `token *( OWS ";" OWS token "=" ( token / quoted-string ) )`
/// (RFC 9112 6.1, RFC 9110 10.1.4). Returns the coding name.
pub(crate) fn transfer_coding(item: &[u8]) -> SyntaxResult<&[u8]> {
    let name_len = scan::token_len(item);
    if name_len == 0 {
        return Err((ErrorKind::InvalidTransferEncoding, 0));
    }
    let mut i = name_len;
    while i < item.len() {
        i += skip_ws(&item[i..]);
        if item.get(i) != Some(&b';') {
            return Err((ErrorKind::InvalidTransferEncoding, i));
        }
        i += 1;
        i += skip_ws(&item[i..]);
        let key = scan::token_len(&item[i..]);
        if key == 0 {
            return Err((ErrorKind::InvalidTransferEncoding, i));
        }
        i += key;
        if item.get(i) != Some(&b'=') {
            return Err((ErrorKind::InvalidTransferEncoding, i));
        }
        i += 1;
        let value = match item.get(i) {
            Some(b'"') => quoted_string(&item[i..]),
            _ => Some(scan::token_len(&item[i..])).filter(|&n| n > 0),
        };
        match value {
            Some(n) => i += n,
            None => return Err((ErrorKind::InvalidTransferEncoding, i)),
        }
    }
    Ok(&item[..name_len])
}

fn skip_ws(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|&&b| is_folded_ws(b)).count()
}

/// Where a quoted-string stands after one more byte (RFC 9110 5.6.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Quoted {
    /// Inside, after qdtext or a quoted-pair.
    Inside,
    /// After the backslash of a quoted-pair.
    Escaped,
    /// The closing DQUOTE.
    Closed,
    /// The byte cannot stand there.
    Invalid,
}

/// The grammar of a quoted-string after its opening DQUOTE, one byte at a time, so that a
/// decoder fed in pieces (chunk extensions) and a whole value (transfer-coding parameters) read
/// it alike: `*( qdtext / quoted-pair ) DQUOTE`, where a quoted-pair is `"\\"` and one of HTAB,
/// SP, VCHAR or obs-text.
#[inline]
pub(crate) fn quoted_step(escaped: bool, b: u8) -> Quoted {
    match (escaped, b) {
        (true, b) if is(b, class::VALUE) => Quoted::Inside,
        (true, _) => Quoted::Invalid,
        (false, b'"') => Quoted::Closed,
        (false, b'\\') => Quoted::Escaped,
        (false, b) if is(b, class::QDTEXT) => Quoted::Inside,
        (false, _) => Quoted::Invalid,
    }
}

/// Length of the quoted-string at the start of `bytes` (RFC 9110 5.6.4), or `None`. The line
/// breaks of an obs-fold, kept in a value read with `obs_fold`, count as the SP they stand for.
pub(crate) fn quoted_string(bytes: &[u8]) -> Option<usize> {
    if bytes.first() != Some(&b'"') {
        return None;
    }
    let mut escaped = false;
    for (i, &b) in bytes.iter().enumerate().skip(1) {
        let b = if is_folded_ws(b) { b' ' } else { b };
        match quoted_step(escaped, b) {
            Quoted::Closed => return Some(i + 1),
            Quoted::Invalid => return None,
            step => escaped = step == Quoted::Escaped,
        }
    }
    None
}

#[cfg(test)]
mod tests;
