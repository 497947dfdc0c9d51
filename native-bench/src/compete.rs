//! The competitors: httparse and picohttpparser, asked the same questions as httpspan.
//!
//! Each is called as its fastest real users call it: httparse as hyper does, with
//! `parse_with_uninit_headers` (`parse_response_with_uninit_headers` for responses) over an uninitialised header array (nothing to fill per parse),
//! picohttpparser over an uninitialised `phr_header` array it fills itself; httpspan reuses its
//! parser, and resets it per parse.

use std::hint::black_box;
use std::mem::MaybeUninit;

use crate::{Case, Semantics};

/// Header slots given to the competitors, as many as httpspan's 64.
const SLOTS: usize = 64;

/// Header slots for httparse, uninitialised as hyper gives them.
fn uninit_headers<'b>() -> [MaybeUninit<httparse::Header<'b>>; SLOTS] {
    [const { MaybeUninit::uninit() }; SLOTS]
}

/// Parses a request with httparse and checks that all of `buf` was the head.
pub fn httparse_request(buf: &[u8]) -> usize {
    httparse_request_head(buf, buf.len())
}

/// Parses a request with httparse and checks that the head is the first `head_len` bytes of
/// `buf` (a body or the next request follows).
#[inline(always)]
pub fn httparse_request_head(buf: &[u8], head_len: usize) -> usize {
    let mut headers = uninit_headers();
    let mut req = httparse::Request::new(&mut []);
    let status = req
        .parse_with_uninit_headers(black_box(buf), &mut headers)
        .expect("valid request");
    assert_eq!(status, httparse::Status::Complete(head_len));
    black_box(&req);
    req.headers.len()
}

/// Parses a response with httparse and checks that all of `buf` was the head.
pub fn httparse_response(buf: &[u8]) -> usize {
    httparse_response_head(buf, buf.len())
}

/// Parses a response with httparse and checks that the head is the first `head_len` bytes of
/// `buf`.
#[inline(always)]
pub fn httparse_response_head(buf: &[u8], head_len: usize) -> usize {
    let mut headers = uninit_headers();
    let mut res = httparse::Response::new(&mut []);
    let status = httparse::ParserConfig::default()
        .parse_response_with_uninit_headers(&mut res, black_box(buf), &mut headers)
        .expect("valid response");
    assert_eq!(status, httparse::Status::Complete(head_len));
    black_box(&res);
    res.headers.len()
}

/// `bytes` without leading and trailing whitespace.
fn trim(bytes: &[u8]) -> &[u8] {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace());
    let end = bytes.iter().rposition(|b| !b.is_ascii_whitespace());
    match (start, end) {
        (Some(start), Some(end)) => &bytes[start..=end],
        _ => &[],
    }
}

/// The facts httpspan decides while parsing, computed the way an httparse user would: one pass
/// over the fields with case-insensitive compares.
fn semantics<'a>(version: u8, fields: impl Iterator<Item = (&'a [u8], &'a [u8])>) -> Semantics {
    let mut found = Semantics {
        content_length: None,
        chunked: false,
        keep_alive: version == 1,
    };
    for (name, value) in fields {
        if name.eq_ignore_ascii_case(b"content-length") {
            let digits = std::str::from_utf8(value).expect("ASCII");
            found.content_length = Some(digits.trim().parse().expect("a number"));
        } else if name.eq_ignore_ascii_case(b"transfer-encoding") {
            let last = value.rsplit(|&b| b == b',').next().unwrap_or(b"");
            found.chunked = trim(last).eq_ignore_ascii_case(b"chunked");
        } else if name.eq_ignore_ascii_case(b"connection") {
            for item in value.split(|&b| b == b',') {
                let item = trim(item);
                if item.eq_ignore_ascii_case(b"close") {
                    found.keep_alive = false;
                } else if item.eq_ignore_ascii_case(b"keep-alive") && version == 0 {
                    found.keep_alive = true;
                }
            }
        }
    }
    found
}

/// httparse, then the semantics from its fields.
pub fn httparse_request_semantics(buf: &[u8]) -> Semantics {
    let mut headers = uninit_headers();
    let mut req = httparse::Request::new(&mut []);
    let status = req
        .parse_with_uninit_headers(black_box(buf), &mut headers)
        .expect("valid request");
    assert_eq!(status, httparse::Status::Complete(buf.len()));
    let fields = req.headers.iter().map(|h| (h.name.as_bytes(), h.value));
    semantics(req.version.expect("complete"), fields)
}

/// httparse, then the semantics from its fields.
pub fn httparse_response_semantics(buf: &[u8]) -> Semantics {
    let mut headers = uninit_headers();
    let mut res = httparse::Response::new(&mut []);
    let status = httparse::ParserConfig::default()
        .parse_response_with_uninit_headers(&mut res, black_box(buf), &mut headers)
        .expect("valid response");
    assert_eq!(status, httparse::Status::Complete(buf.len()));
    let fields = res.headers.iter().map(|h| (h.name.as_bytes(), h.value));
    semantics(res.version.expect("complete"), fields)
}

/// Known-header lookup the way an httparse user does it: a linear case-insensitive scan of the
/// parsed fields, for each name.
pub fn httparse_linear_lookup(
    buf: &'static [u8],
    lookups: &'static [(httpspan::KnownHeader, &'static [u8]); 3],
    expected: [&'static [u8]; 3],
) -> Case {
    let headers: &'static mut [httparse::Header<'static>] =
        Box::leak(Box::new([httparse::EMPTY_HEADER; SLOTS]));
    let mut req = httparse::Request::new(headers);
    assert!(req.parse(buf).expect("valid").is_complete());
    let fields: &'static [httparse::Header<'static>] = req.headers;
    // The same slices of the buffer: pointer and length, as cheap as httpspan's check.
    let expected = expected.map(|v| Some((v.as_ptr(), v.len())));
    Case::new("httparse linear scan", 0, move || {
        for _ in 0..crate::REPEAT {
            let (fields, lookups) = black_box((fields, lookups));
            let found = lookups.map(|(_, name)| {
                fields
                    .iter()
                    .find(|h| h.name.as_bytes().eq_ignore_ascii_case(name))
                    .map(|h| (h.value.as_ptr(), h.value.len()))
            });
            assert_eq!(found, expected);
        }
    })
}

/// Decodes a chunked body with httparse's chunk-size parser; returns the data bytes.
pub fn httparse_chunked(mut body: &[u8]) -> usize {
    let mut data = 0;
    loop {
        let (used, size) = match httparse::parse_chunk_size(body).expect("valid") {
            httparse::Status::Complete(found) => found,
            httparse::Status::Partial => panic!("the whole body is there"),
        };
        body = &body[used..];
        if size == 0 {
            return data;
        }
        let size = size as usize;
        black_box(&body[..size]);
        data += size;
        assert_eq!(&body[size..size + 2], b"\r\n");
        body = &body[size + 2..];
    }
}

/// What a byte-at-a-time caller of httparse does: parse the whole prefix again on each byte.
pub fn httparse_byte_by_byte(buf: &[u8]) {
    for end in 1..=buf.len() {
        let mut headers = [httparse::EMPTY_HEADER; SLOTS];
        let mut req = httparse::Request::new(&mut headers);
        let status = req.parse(black_box(&buf[..end])).expect("valid prefix");
        assert_eq!(status.is_complete(), end == buf.len());
    }
}

pub use pico::{
    pico_request, pico_request_head, pico_request_semantics, pico_response, pico_response_head,
    pico_response_semantics,
};

/// picohttpparser through its C interface.
#[allow(unsafe_code)]
mod pico {
    use std::hint::black_box;
    use std::mem::MaybeUninit;
    use std::os::raw::{c_char, c_int};
    use std::ptr;

    use picohttpparser_sys::{phr_header, phr_parse_request, phr_parse_response};

    use super::{semantics, SLOTS};
    use crate::Semantics;

    /// Header slots for picohttpparser, which writes each one it reports before reading it.
    type Slots = [MaybeUninit<phr_header>; SLOTS];

    fn uninit_slots() -> Slots {
        [const { MaybeUninit::uninit() }; SLOTS]
    }

    /// The first `count` slots, which picohttpparser has written.
    fn written(headers: &Slots, count: usize) -> &[phr_header] {
        assert!(count <= SLOTS);
        // SAFETY: picohttpparser initialised the first `count` slots of the array it was given,
        // and `count` is within it.
        unsafe { std::slice::from_raw_parts(headers.as_ptr().cast::<phr_header>(), count) }
    }

    /// The fields of a parse, as byte slices.
    fn fields(headers: &[phr_header]) -> impl Iterator<Item = (&[u8], &[u8])> {
        headers.iter().map(|h| {
            // SAFETY: picohttpparser set each pointer and length to a range of the buffer it
            // parsed, which the caller still borrows.
            unsafe {
                (
                    std::slice::from_raw_parts(h.name.cast::<u8>(), h.name_len),
                    std::slice::from_raw_parts(h.value.cast::<u8>(), h.value_len),
                )
            }
        })
    }

    /// Parses a request whose head is the first `head_len` bytes of `buf`; returns its minor
    /// version and the number of fields.
    #[inline(always)]
    fn request(buf: &[u8], head_len: usize, headers: &mut Slots) -> (c_int, usize) {
        let (mut method, mut method_len) = (ptr::null::<c_char>(), 0);
        let (mut path, mut path_len) = (ptr::null::<c_char>(), 0);
        let mut minor: c_int = -1;
        let mut count = SLOTS;
        let buf = black_box(buf);
        // SAFETY: every pointer is to a live local or to `buf` with its true length, and
        // `count` is the length of `headers`.
        let used = unsafe {
            phr_parse_request(
                buf.as_ptr().cast(),
                buf.len(),
                &mut method,
                &mut method_len,
                &mut path,
                &mut path_len,
                &mut minor,
                headers.as_mut_ptr().cast::<phr_header>(),
                &mut count,
                0,
            )
        };
        assert_eq!(used, head_len as c_int);
        black_box((method, method_len, path, path_len));
        (minor, count)
    }

    /// Parses a response whose head is the first `head_len` bytes of `buf`; returns its minor
    /// version and the number of fields.
    #[inline(always)]
    fn response(buf: &[u8], head_len: usize, headers: &mut Slots) -> (c_int, usize) {
        let (mut minor, mut status): (c_int, c_int) = (-1, 0);
        let (mut msg, mut msg_len) = (ptr::null::<c_char>(), 0);
        let mut count = SLOTS;
        let buf = black_box(buf);
        // SAFETY: as in `request`.
        let used = unsafe {
            phr_parse_response(
                buf.as_ptr().cast(),
                buf.len(),
                &mut minor,
                &mut status,
                &mut msg,
                &mut msg_len,
                headers.as_mut_ptr().cast::<phr_header>(),
                &mut count,
                0,
            )
        };
        assert_eq!(used, head_len as c_int);
        black_box((status, msg, msg_len));
        (minor, count)
    }

    /// Parses a request and checks that all of `buf` was the head; returns the field count.
    pub fn pico_request(buf: &[u8]) -> usize {
        pico_request_head(buf, buf.len())
    }

    /// Parses a request and checks that the head is the first `head_len` bytes of `buf`;
    /// returns the field count.
    #[inline(always)]
    pub fn pico_request_head(buf: &[u8], head_len: usize) -> usize {
        let mut headers = uninit_slots();
        request(buf, head_len, &mut headers).1
    }

    /// Parses a response and checks that all of `buf` was the head; returns the field count.
    pub fn pico_response(buf: &[u8]) -> usize {
        pico_response_head(buf, buf.len())
    }

    /// Parses a response and checks that the head is the first `head_len` bytes of `buf`;
    /// returns the field count.
    #[inline(always)]
    pub fn pico_response_head(buf: &[u8], head_len: usize) -> usize {
        let mut headers = uninit_slots();
        response(buf, head_len, &mut headers).1
    }

    /// picohttpparser, then the semantics from its fields.
    pub fn pico_request_semantics(buf: &[u8]) -> Semantics {
        let mut headers = uninit_slots();
        let (minor, count) = request(buf, buf.len(), &mut headers);
        semantics(minor as u8, fields(written(&headers, count)))
    }

    /// picohttpparser, then the semantics from its fields.
    pub fn pico_response_semantics(buf: &[u8]) -> Semantics {
        let mut headers = uninit_slots();
        let (minor, count) = response(buf, buf.len(), &mut headers);
        semantics(minor as u8, fields(written(&headers, count)))
    }
}
