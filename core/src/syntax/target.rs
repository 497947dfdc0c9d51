//! The request-target (RFC 3986, RFC 9112 3.2): its bytes and percent-encodings, its form for
//! the method, and the authority and host grammar that the Host field shares.

use super::{MethodClass, SyntaxResult};
use crate::error::ErrorKind;
use crate::scan::class::{self, is, HEX, SUB_DELIM, UNRESERVED};
use crate::scan::{self, ByteClass, Engine};

/// [`target_bytes`] outside a parse (the writer's check of a target), with the engine of the
/// backend in use.
pub(crate) fn target_bytes_outside_parse(
    bytes: &[u8],
    unsafe_bytes: bool,
) -> SyntaxResult<(usize, bool)> {
    scan::with_engine(TargetRun {
        bytes,
        unsafe_bytes,
    })
}

/// A call of [`target_bytes`], to run with the backend's engine.
struct TargetRun<'a> {
    bytes: &'a [u8],
    unsafe_bytes: bool,
}

impl scan::WithEngine for TargetRun<'_> {
    type Output = SyntaxResult<(usize, bool)>;

    #[inline(always)]
    fn run<E: Engine>(self, engine: E) -> Self::Output {
        target_bytes(self.bytes, self.unsafe_bytes, engine)
    }
}

/// Length of the leading run of request-target bytes, checking each `%` for two hex digits and
/// noting whether `[` or `]` appeared (they are legal only in the host of an absolute-form or
/// authority-form target, which the form checks verify). With `unsafe_bytes`
/// ([`Leniency::target_unsafe_bytes`](crate::Leniency::target_unsafe_bytes)), the visible
/// bytes RFC 3986 leaves out (see [`is_unsafe_target_byte`]) and a `%` without two hex digits
/// are target bytes too. The engine runs the strict class either way: the lenient bytes stop
/// its run and are taken here, so every backend gives the same answer.
pub(crate) fn target_bytes<E: Engine>(
    bytes: &[u8],
    unsafe_bytes: bool,
    engine: E,
) -> SyntaxResult<(usize, bool)> {
    let mut i = 0;
    let mut brackets = false;
    loop {
        i += engine.run(&bytes[i..], ByteClass::Target);
        match bytes.get(i) {
            Some(b'%') => match pct_encoded(bytes, i) {
                Ok(()) => i += 3,
                Err(_) if unsafe_bytes => i += 1,
                Err(e) => return Err(e),
            },
            Some(b'[' | b']') => {
                brackets = true;
                i += 1;
            }
            Some(&b) if unsafe_bytes && is_unsafe_target_byte(b) => i += 1,
            _ => return Ok((i, brackets)),
        }
    }
}

/// The visible ASCII bytes that RFC 3986 allows nowhere in a URI but some clients send
/// unescaped in a request-target (curl sends `|` as typed): `"`, `<`, `>`, `\`, `^`, `` ` ``,
/// `{`, `|` and `}`. `#` is not one: it starts a fragment.
#[inline]
pub(crate) const fn is_unsafe_target_byte(b: u8) -> bool {
    matches!(
        b,
        b'"' | b'<' | b'>' | b'\\' | b'^' | b'`' | b'{' | b'|' | b'}'
    )
}

/// Checks the two hex digits after the `%` at `bytes[i]`. The error points at the first byte
/// that is not a hex digit (the end of `bytes` if they run out): where the input became invalid.
#[inline]
fn pct_encoded(bytes: &[u8], i: usize) -> SyntaxResult<()> {
    let hex = bytes[i + 1..]
        .iter()
        .take(2)
        .take_while(|&&b| is(b, HEX))
        .count();
    match hex {
        2 => Ok(()),
        _ => Err((ErrorKind::InvalidPercentEncoding, i + 1 + hex)),
    }
}

/// Checks the form of a request-target whose bytes are already in the target class, against the
/// method (RFC 9112 3.2). `brackets` says whether `[` or `]` occurred.
pub(crate) fn target_form(method: MethodClass, target: &[u8], brackets: bool) -> SyntaxResult<()> {
    let first = target.first().copied();
    if method == MethodClass::Connect {
        return authority(target, false).map_err(|_| (ErrorKind::ConnectNotAuthorityForm, 0));
    }
    match first {
        Some(b'/') => match brackets {
            false => Ok(()),
            true => Err((ErrorKind::InvalidTarget, find_bracket(target))),
        },
        Some(b'*') if target.len() == 1 => match method {
            MethodClass::Options => Ok(()),
            _ => Err((ErrorKind::AsteriskFormNotOptions, 0)),
        },
        // `example.com:80` also matches the absolute-URI grammar (scheme `example.com`), but it
        // is authority-form, which only CONNECT may use.
        _ if authority(target, false).is_ok() => Err((ErrorKind::AuthorityFormNotConnect, 0)),
        _ => absolute_form(target),
    }
}

fn find_bracket(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&b| b == b'[' || b == b']')
        .unwrap_or(0)
}

/// absolute-form: `scheme ":" hier-part [ "?" query ]` (RFC 3986 4.3), with the http(s) rules
/// of RFC 9110 4.2: an authority with a non-empty host and no userinfo.
fn absolute_form(target: &[u8]) -> SyntaxResult<()> {
    let scheme_len = target
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))
        .unwrap_or(target.len());
    if scheme_len == 0 || !target[0].is_ascii_alphabetic() {
        return Err((ErrorKind::InvalidTarget, 0));
    }
    if target.get(scheme_len) != Some(&b':') {
        return Err((ErrorKind::InvalidTarget, scheme_len));
    }
    let scheme = &target[..scheme_len];
    let is_http = scheme.eq_ignore_ascii_case(b"http") || scheme.eq_ignore_ascii_case(b"https");
    let rest = &target[scheme_len + 1..];
    let base = scheme_len + 1;
    if let Some(after) = rest.strip_prefix(b"//") {
        let auth_len = after
            .iter()
            .position(|&b| b == b'/' || b == b'?')
            .unwrap_or(after.len());
        let auth = &after[..auth_len];
        let auth_base = base + 2;
        if let Some(at) = auth.iter().rposition(|&b| b == b'@') {
            if is_http {
                return Err((ErrorKind::UserinfoInTarget, auth_base + at));
            }
            userinfo(&auth[..at]).map_err(|(k, i)| (k, auth_base + i))?;
            authority(&auth[at + 1..], true).map_err(|(k, i)| (k, auth_base + at + 1 + i))?;
        } else {
            if is_http && auth.first().map_or(true, |&b| b == b':') {
                return Err((ErrorKind::InvalidTarget, auth_base));
            }
            authority(auth, true).map_err(|(k, i)| (k, auth_base + i))?;
        }
        let path_base = auth_base + auth_len;
        match after[auth_len..]
            .iter()
            .position(|&b| b == b'[' || b == b']')
        {
            Some(i) => Err((ErrorKind::InvalidTarget, path_base + i)),
            None => Ok(()),
        }
    } else if is_http {
        Err((ErrorKind::InvalidTarget, base))
    } else {
        match rest.iter().position(|&b| b == b'[' || b == b']') {
            Some(i) => Err((ErrorKind::InvalidTarget, base + i)),
            None => Ok(()),
        }
    }
}

fn userinfo(bytes: &[u8]) -> SyntaxResult<()> {
    match reg_name_len(bytes, true)? {
        n if n == bytes.len() => Ok(()),
        n => Err((ErrorKind::InvalidTarget, n)),
    }
}

/// Length of the leading run of `unreserved / pct-encoded / sub-delims` (RFC 3986 3.2.2's
/// reg-name), with `:` too when `colon` is set (userinfo, 3.2.1). Each `%` is checked.
fn reg_name_len(bytes: &[u8], colon: bool) -> SyntaxResult<usize> {
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if class::is_any(b, UNRESERVED | SUB_DELIM) || (colon && b == b':') {
            i += 1;
        } else if b == b'%' {
            pct_encoded(bytes, i)?;
            i += 3;
        } else {
            break;
        }
    }
    Ok(i)
}

/// `uri-host [ ":" port ]` (RFC 3986 3.2.2, 3.2.3), port at most 5 digits. With
/// `port_optional = false` the `":" port` part must be present, as authority-form requires.
pub(crate) fn authority(bytes: &[u8], port_optional: bool) -> SyntaxResult<()> {
    let host_len = if bytes.first() == Some(&b'[') {
        let close = bytes
            .iter()
            .position(|&b| b == b']')
            .ok_or((ErrorKind::InvalidTarget, bytes.len()))?;
        if !ip_literal(&bytes[1..close]) {
            return Err((ErrorKind::InvalidTarget, 1));
        }
        close + 1
    } else {
        reg_name_len(bytes, false)?
    };
    // reg-name may be empty, but a port (or the port authority-form requires) with no host
    // names nothing.
    if host_len == 0 && (!port_optional || bytes.first() == Some(&b':')) {
        return Err((ErrorKind::InvalidTarget, 0));
    }
    match bytes.get(host_len) {
        None if port_optional => Ok(()),
        None => Err((ErrorKind::InvalidTarget, host_len)),
        Some(b':') => {
            let port = &bytes[host_len + 1..];
            match port.iter().position(|b| !b.is_ascii_digit()) {
                Some(i) => Err((ErrorKind::InvalidTarget, host_len + 1 + i)),
                None if port.len() > 5 => Err((ErrorKind::InvalidTarget, host_len + 6)),
                None => Ok(()),
            }
        }
        Some(_) => Err((ErrorKind::InvalidTarget, host_len)),
    }
}

/// The inside of `[...]`: an IPv6address or an IPvFuture (RFC 3986 3.2.2).
fn ip_literal(bytes: &[u8]) -> bool {
    match bytes.first() {
        Some(b'v' | b'V') => {
            let hex = bytes[1..].iter().take_while(|&&b| is(b, HEX)).count();
            let rest = &bytes[1 + hex..];
            hex > 0
                && rest.len() > 1
                && rest[0] == b'.'
                && rest[1..]
                    .iter()
                    .all(|&b| is(b, UNRESERVED) || is(b, SUB_DELIM) || b == b':')
        }
        _ => ipv6(bytes),
    }
}

/// IPv6address: up to 8 groups of 1 to 4 hex digits, at most one `::`, optionally ending in an
/// IPv4 address that counts as two groups.
fn ipv6(bytes: &[u8]) -> bool {
    let mut doubles = bytes.windows(2).enumerate().filter(|(_, w)| *w == b"::");
    match (doubles.next(), doubles.next()) {
        (None, _) => groups(bytes, true) == Some(8),
        (Some((i, _)), None) => match (groups(&bytes[..i], false), groups(&bytes[i + 2..], true)) {
            (Some(head), Some(tail)) => head + tail <= 7,
            _ => false,
        },
        // Two "::" (":::" counts as two overlapping ones) are never valid.
        (Some(_), Some(_)) => false,
    }
}

/// Counts `h16` groups separated by `:`, the last of which may be an IPv4 address (two
/// groups) when `ipv4_tail` allows it. Empty input is zero groups.
fn groups(bytes: &[u8], ipv4_tail: bool) -> Option<usize> {
    if bytes.is_empty() {
        return Some(0);
    }
    let mut count = 0;
    let mut parts = bytes.split(|&b| b == b':').peekable();
    while let Some(part) = parts.next() {
        let last = parts.peek().is_none();
        if last && ipv4_tail && part.contains(&b'.') {
            if !ipv4(part) {
                return None;
            }
            count += 2;
        } else {
            if part.is_empty() || part.len() > 4 || !part.iter().all(|&b| is(b, HEX)) {
                return None;
            }
            count += 1;
        }
    }
    Some(count)
}

fn ipv4(bytes: &[u8]) -> bool {
    let mut octets = 0;
    for part in bytes.split(|&b| b == b'.') {
        let ok = !part.is_empty()
            && part.len() <= 3
            && part.iter().all(u8::is_ascii_digit)
            && (part.len() == 1 || part[0] != b'0')
            && part.iter().fold(0u32, |n, &d| n * 10 + u32::from(d - b'0')) <= 255;
        if !ok {
            return false;
        }
        octets += 1;
    }
    octets == 4
}

/// Whether a non-empty Host value is a reg-name without percent-encodings and an optional
/// port, given `reg_name_len`, the length of its leading run of `unreserved / sub-delims`
/// bytes (from a mask): the common shape, which [`host`] accepts too. `false` sends the value
/// to [`host`], which decides.
#[inline(always)]
pub(crate) fn host_of_reg_name(value: &[u8], reg_name_len: usize) -> bool {
    match value.get(reg_name_len..) {
        Some([]) => true,
        Some([b':', port @ ..]) => {
            reg_name_len > 0 && port.len() <= 5 && port.iter().all(u8::is_ascii_digit)
        }
        _ => false,
    }
}

/// A Host value: empty, or `uri-host [ ":" port ]` (RFC 9112 3.2, RFC 3986 3.2.2).
pub(crate) fn host(value: &[u8]) -> SyntaxResult<()> {
    if value.is_empty() {
        return Ok(());
    }
    authority(value, true).map_err(|(_, i)| (ErrorKind::InvalidHost, i))
}
