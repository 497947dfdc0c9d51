//! The parts of the split-invariance properties (`tests/split_invariance.rs`): the generator of
//! valid messages and its mutations, the renderer that also says what the parser must report,
//! the stream decoder fed in pieces, and the head parsers over growing prefixes. Here: bytes
//! that print readably, and the byte classes the checks share.

pub mod decode;
pub mod generator;
pub mod heads;
pub mod render;

use std::fmt;

/// Bytes shown as an escaped string in assertion messages.
#[derive(Clone, PartialEq, Eq)]
pub struct B(pub Vec<u8>);

impl fmt::Debug for B {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&escape(&self.0))
    }
}

pub fn escape(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    for &b in bytes {
        match b {
            b'\r' => out.push_str("\\r"),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out.push('"');
    out
}

pub fn is_ws(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

pub fn trim(bytes: &[u8]) -> &[u8] {
    let start = bytes.iter().position(|&b| !is_ws(b)).unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|&b| !is_ws(b))
        .map_or(start, |i| i + 1);
    &bytes[start..end]
}

pub const TCHAR: &[u8] =
    b"!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

pub fn is_tchar(b: u8) -> bool {
    TCHAR.contains(&b)
}
