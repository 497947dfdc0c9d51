//! Byte classes of the HTTP grammar, as one 256-entry table of bit flags.
//!
//! This table is the single definition of which bytes each rule allows; the scalar kernels read
//! it, SIMD kernels are tested against it, and the grammar checks outside the kernels use it for
//! the few bytes they look at one by one.

/// `tchar` (RFC 9110 5.6.2).
pub(crate) const TOKEN: u8 = 1;
/// Request-target bytes handled by the kernel: `unreserved / sub-delims / ":" / "@" / "/" / "?"`.
pub(crate) const TARGET: u8 = 2;
/// Field-value bytes: `VCHAR / obs-text / SP / HTAB` (RFC 9110 5.5).
pub(crate) const VALUE: u8 = 4;
/// CR, LF and NUL: the bytes that end or poison a line.
pub(crate) const LINE_SPECIAL: u8 = 8;
/// `unreserved` (RFC 3986 2.3).
pub(crate) const UNRESERVED: u8 = 16;
/// `sub-delims` (RFC 3986 2.2).
pub(crate) const SUB_DELIM: u8 = 32;
/// `HEXDIG`.
pub(crate) const HEX: u8 = 64;
/// `qdtext` (RFC 9110 5.6.4).
pub(crate) const QDTEXT: u8 = 128;
/// The bytes of a reg-name (RFC 3986 3.2.2) but its percent-encodings: `unreserved /
/// sub-delims`.
pub(crate) const REG_NAME: u8 = UNRESERVED | SUB_DELIM;

const fn build() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut b = 0usize;
    while b < 256 {
        let c = b as u8;
        let alpha = c.is_ascii_alphabetic();
        let digit = c.is_ascii_digit();
        let unreserved = alpha || digit || matches!(c, b'-' | b'.' | b'_' | b'~');
        let sub_delim = matches!(
            c,
            b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
        );
        let tchar = alpha
            || digit
            || matches!(
                c,
                b'!' | b'#'
                    | b'$'
                    | b'%'
                    | b'&'
                    | b'\''
                    | b'*'
                    | b'+'
                    | b'-'
                    | b'.'
                    | b'^'
                    | b'_'
                    | b'`'
                    | b'|'
                    | b'~'
            );
        let vchar = c >= 0x21 && c <= 0x7e;
        let obs_text = c >= 0x80;
        let mut flags = 0;
        if tchar {
            flags |= TOKEN;
        }
        if unreserved || sub_delim || matches!(c, b':' | b'@' | b'/' | b'?') {
            flags |= TARGET;
        }
        if vchar || obs_text || c == b' ' || c == b'\t' {
            flags |= VALUE;
        }
        if matches!(c, b'\r' | b'\n' | 0) {
            flags |= LINE_SPECIAL;
        }
        if unreserved {
            flags |= UNRESERVED;
        }
        if sub_delim {
            flags |= SUB_DELIM;
        }
        if c.is_ascii_hexdigit() {
            flags |= HEX;
        }
        if c == b'\t'
            || c == b' '
            || c == 0x21
            || (c >= 0x23 && c <= 0x5b)
            || (c >= 0x5d && c <= 0x7e)
            || obs_text
        {
            flags |= QDTEXT;
        }
        t[b] = flags;
        b += 1;
    }
    t
}

/// The flags of every byte value, for compile-time use (the SIMD kernels' nibble tables).
pub(crate) const CLASS_TABLE: [u8; 256] = build();

/// The flags of every byte value.
pub(crate) static CLASS: [u8; 256] = CLASS_TABLE;

/// Whether `b` has any flag in `flags`.
#[inline(always)]
pub(crate) fn is_any(b: u8, flags: u8) -> bool {
    CLASS[b as usize] & flags != 0
}

/// Whether `b` has every flag in `flags`.
#[inline(always)]
pub(crate) fn is(b: u8, flags: u8) -> bool {
    CLASS[b as usize] & flags == flags
}

/// Whether `b` is SP or HTAB.
#[inline(always)]
pub(crate) const fn is_ws(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_match_the_rfc_grammar_by_hand() {
        // tchar: RFC 9110 5.6.2 lists exactly these 15 symbols plus DIGIT and ALPHA.
        let symbols = b"!#$%&'*+-.^_`|~";
        let tokens = (0..=255u8).filter(|&b| is(b, TOKEN)).count();
        assert_eq!(tokens, symbols.len() + 10 + 52);
        assert!(!is(b':', TOKEN) && !is(b' ', TOKEN) && !is(0x80, TOKEN));
        // field-value: 0x21..=0x7E, 0x80..=0xFF, SP, HTAB.
        let values = (0..=255u8).filter(|&b| is(b, VALUE)).count();
        assert_eq!(values, 94 + 128 + 2);
        assert!(!is(0x7f, VALUE) && !is(0, VALUE) && !is(b'\r', VALUE));
        // target: 66 unreserved + 11 sub-delims + ":@/?".
        let targets = (0..=255u8).filter(|&b| is(b, TARGET)).count();
        assert_eq!(targets, 66 + 11 + 4);
        for b in b"#%[]\"<>\\^`{|} " {
            assert!(!is(*b, TARGET), "{}", *b as char);
        }
    }
}
