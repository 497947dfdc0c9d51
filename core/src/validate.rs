//! Public validators for the pieces of a message that applications build themselves: method
//! names, field names and values, request-targets.
//!
//! Each is the parser's own rule, run by the same scanning kernels (so a SIMD backend speeds
//! these up too): a piece that passes is one the parser accepts and reports back unchanged.

use crate::error::ErrorKind;
use crate::scan::{self, class::is_ws};
use crate::syntax::{self, MethodClass};

/// Whether `bytes` is a token (RFC 9110 5.6.2): one or more of ``!#$%&'*+-.^_`|~``, digits and
/// letters.
///
/// Methods, field names, cookie names and transfer-coding names share this rule.
///
/// ```
/// assert!(httpspan::is_token(b"X-Request-Id"));
/// assert!(httpspan::is_token(b"PATCH"));
/// assert!(!httpspan::is_token(b"Bad Name"));
/// assert!(!httpspan::is_token(b"")); // a token has at least one byte
/// ```
#[inline]
#[must_use]
pub fn is_token(bytes: &[u8]) -> bool {
    !bytes.is_empty() && scan::token_len(bytes) == bytes.len()
}

/// Whether `bytes` is a field value (RFC 9110 5.5): any number of VCHAR, obs-text (0x80 to 0xFF),
/// SP and HTAB, neither starting nor ending with SP or HTAB. The empty value is one.
///
/// CR, LF, NUL and the other control bytes are refused, so a value that passes cannot end its
/// line early or smuggle a field line in. Leading and trailing whitespace is refused because a
/// recipient strips it: the value would not arrive as written.
///
/// ```
/// assert!(httpspan::is_field_value(b"text/html; charset=utf-8"));
/// assert!(httpspan::is_field_value(b""));
/// assert!(!httpspan::is_field_value(b"a\r\nSet-Cookie: x=1"));
/// assert!(!httpspan::is_field_value(b" padded "));
/// ```
#[inline]
#[must_use]
pub fn is_field_value(bytes: &[u8]) -> bool {
    match (bytes.first(), bytes.last()) {
        (Some(&first), Some(&last)) if is_ws(first) || is_ws(last) => false,
        _ => scan::field_value_len(bytes) == bytes.len(),
    }
}

/// Whether `target` is a request-target that httpspan accepts with `method` (RFC 9112 3.2):
/// origin-form (`/path?query`) or absolute-form (`http://host/path`) for most methods,
/// authority-form (`host:port`) only and always with `CONNECT`, asterisk-form (`*`) only with
/// `OPTIONS`. Every `%` must be followed by two hex digits; a fragment (`#`) is refused.
///
/// The answer is exactly the parser's: a request-line with this method and target is accepted
/// (within the head limit) if and only if this returns `true`. Only `CONNECT` and `OPTIONS`
/// (case-sensitive, as methods are) change the forms allowed; the method itself is not checked,
/// use [`is_token`] for that.
///
/// ```
/// use httpspan::is_request_target;
/// assert!(is_request_target(b"GET", b"/search?q=caf%C3%A9"));
/// assert!(is_request_target(b"GET", b"http://example.com/"));
/// assert!(is_request_target(b"CONNECT", b"example.com:443"));
/// assert!(is_request_target(b"OPTIONS", b"*"));
/// assert!(!is_request_target(b"GET", b"*"));
/// assert!(!is_request_target(b"GET", b"/a b"));
/// assert!(!is_request_target(b"GET", b"/100%"));
/// assert!(!is_request_target(b"GET", b"/page#section"));
/// ```
#[inline]
#[must_use]
pub fn is_request_target(method: &[u8], target: &[u8]) -> bool {
    request_target(method, target).is_ok()
}

/// Checks `target` as the request-line parser does, and returns the kind of error it would
/// report.
pub(crate) fn request_target(method: &[u8], target: &[u8]) -> Result<(), ErrorKind> {
    if target.is_empty() {
        return Err(ErrorKind::InvalidRequestLine);
    }
    let (len, brackets) =
        syntax::target_bytes_outside_parse(target, false).map_err(|(kind, _)| kind)?;
    match target.get(len) {
        None => {
            syntax::target_form(MethodClass::of(method), target, brackets).map_err(|(kind, _)| kind)
        }
        Some(b'#') => Err(ErrorKind::FragmentInTarget),
        Some(_) => Err(ErrorKind::InvalidTarget),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::class::{is, TOKEN, VALUE};
    use crate::{Request, Status};
    use std::string::String;
    use std::vec::Vec;

    /// The slow, obvious reading of the class table, one byte at a time.
    fn all_in(bytes: &[u8], flag: u8) -> bool {
        bytes.iter().all(|&b| is(b, flag))
    }

    /// Inputs that put byte `b` at the start, the middle and the end, at offsets around the
    /// 16- and 32-byte blocks a SIMD kernel reads.
    fn placements(b: u8, filler: u8) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        // Under Miri (scalar only, and slow), the short lengths: no block boundaries to meet.
        let lens: &[usize] = if cfg!(miri) {
            &[1, 2, 3]
        } else {
            &[1, 2, 3, 15, 16, 17, 31, 32, 33, 64]
        };
        for &len in lens {
            for at in [0, len / 2, len - 1] {
                let mut v = std::vec![filler; len];
                v[at] = b;
                out.push(v);
            }
        }
        out
    }

    #[test]
    fn is_token_agrees_with_the_class_table_for_every_byte() {
        assert!(!is_token(b""));
        for b in crate::tests::every_byte() {
            for input in placements(b, b'a') {
                assert_eq!(is_token(&input), all_in(&input, TOKEN), "byte {b:#04x}");
            }
        }
    }

    #[test]
    fn is_field_value_agrees_with_the_class_table_for_every_byte() {
        assert!(is_field_value(b""));
        for b in crate::tests::every_byte() {
            for input in placements(b, b'v') {
                let edges_ok = !is_ws(input[0]) && !is_ws(input[input.len() - 1]);
                let want = all_in(&input, VALUE) && edges_ok;
                assert_eq!(is_field_value(&input), want, "byte {b:#04x} in {input:?}");
            }
        }
    }

    /// What the parser says of `method SP target SP HTTP/1.1`: accepted with exactly this target,
    /// or not.
    fn parser_accepts(method: &[u8], target: &[u8]) -> bool {
        let mut buf = Vec::new();
        buf.extend_from_slice(method);
        buf.push(b' ');
        buf.extend_from_slice(target);
        buf.extend_from_slice(b" HTTP/1.1\r\nHost: a\r\n\r\n");
        let mut req = Request::new();
        match req.parse(&buf) {
            Ok(Status::Complete { .. }) => {
                assert_eq!(req.target().as_bytes(&buf), target);
                true
            }
            Ok(Status::Partial) => unreachable!("the head is complete"),
            Err(_) => false,
        }
    }

    #[test]
    fn is_request_target_agrees_with_the_parser_for_every_byte() {
        let templates: &[&[u8]] = &[
            b"%",
            b"/%",
            b"/a%_",
            b"/a%4%",
            b"/?q=%",
            b"/abcdefghijklmno%pqrstuvwxyz0123456789",
            b"%:443",
            b"ex%mple.com:443",
            b"example.com:%",
            b"[::%]:443",
            b"http://%/",
            b"http://h%/",
            b"http://h/%",
            b"http://[::1]/%",
            b"ht%p://h/",
            b"urn:%",
            b"*%",
        ];
        let mut accepted = 0;
        for (m, method) in [&b"GET"[..], b"OPTIONS", b"CONNECT"]
            .into_iter()
            .enumerate()
        {
            // Under Miri, each template with one of the methods in turn.
            let templates = templates
                .iter()
                .enumerate()
                .filter(|&(t, _)| !cfg!(miri) || t % 3 == m)
                .map(|(_, template)| template);
            for template in templates {
                for b in crate::tests::every_byte() {
                    let target: Vec<u8> = template
                        .iter()
                        .map(|&t| if t == b'%' { b } else { t })
                        .collect();
                    let want = parser_accepts(method, &target);
                    accepted += usize::from(want);
                    assert_eq!(
                        is_request_target(method, &target),
                        want,
                        "{} {}",
                        String::from_utf8_lossy(method),
                        String::from_utf8_lossy(&target)
                    );
                }
            }
        }
        // The templates are not all rejections: a good share of targets must pass (of the
        // sampled bytes, under Miri).
        let enough = if cfg!(miri) { 40 } else { 1000 };
        assert!(accepted > enough, "only {accepted} accepted");
        for (method, target) in [
            (&b"GET"[..], &b""[..]),
            (b"GET", b"/a%2"),
            (b"GET", b"/a%2g"),
            (b"GET", b"/%41"),
            (b"OPTIONS", b"*"),
            (b"GET", b"*"),
            (b"GET", b"example.com:80"),
            (b"CONNECT", b"/"),
            (b"GET", b"http://user@example.com/"),
        ] {
            assert_eq!(
                is_request_target(method, target),
                parser_accepts(method, target),
                "{}",
                String::from_utf8_lossy(target)
            );
        }
    }
}
