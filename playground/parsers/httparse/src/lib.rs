//! httparse, compiled to wasm32 for the playground's compare view (playground/src/lib/parsers/).
//!
//! The module has no imports. The page writes the input into the buffer [`input_buffer`]
//! returns, then asks for one head ([`parse_head`]), one chunk-size line ([`parse_chunk_size`])
//! or one trailer section ([`parse_trailers`]) at a time, at the offset it chooses: httparse
//! reads heads and chunk sizes only, so the stream loop and the body framing are the caller's
//! (the page does what hyper does with httparse's answer, and marks that as derived).
//!
//! Every answer is a list of `u32` in [`output_buffer`]: a status word first (0 complete,
//! 1 partial, 2 error), then, when complete, the bytes read and the parts as (offset, length)
//! pairs counted from the start of the input; for an error, the index of the error in
//! [`ERROR_NAMES`].

use std::cell::RefCell;

/// The most field lines one head may have (hyper's default).
pub const MAX_HEADERS: usize = 100;

/// httparse's error kinds, in the order of the indices [`parse_head`] reports.
pub const ERROR_NAMES: [&str; 8] = [
    "HeaderName",
    "HeaderValue",
    "NewLine",
    "Status",
    "Token",
    "TooManyHeaders",
    "Version",
    "ChunkSize",
];

/// httparse's `ParserConfig` settings, in the order of the bits of [`parse_head_with`]'s
/// `options` (bit 0 first); all off is httparse's default.
pub const OPTION_NAMES: [&str; 7] = [
    "allow_multiple_spaces_in_request_line_delimiters",
    "allow_space_before_first_header_name",
    "ignore_invalid_headers_in_requests",
    "allow_spaces_after_header_name_in_responses",
    "allow_obsolete_multiline_headers_in_responses",
    "allow_multiple_spaces_in_response_status_delimiters",
    "ignore_invalid_headers_in_responses",
];

/// The parser configuration the bits of `options` turn on (see [`OPTION_NAMES`]).
fn config(options: u32) -> httparse::ParserConfig {
    let on = |bit: u32| options & (1 << bit) != 0;
    let mut config = httparse::ParserConfig::default();
    config
        .allow_multiple_spaces_in_request_line_delimiters(on(0))
        .allow_space_before_first_header_name(on(1))
        .ignore_invalid_headers_in_requests(on(2))
        .allow_spaces_after_header_name_in_responses(on(3))
        .allow_obsolete_multiline_headers_in_responses(on(4))
        .allow_multiple_spaces_in_response_status_delimiters(on(5))
        .ignore_invalid_headers_in_responses(on(6));
    config
}

const COMPLETE: u32 = 0;
const PARTIAL: u32 = 1;
const ERROR: u32 = 2;

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static OUTPUT: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}

fn error_index(error: httparse::Error) -> u32 {
    let name = match error {
        httparse::Error::HeaderName => "HeaderName",
        httparse::Error::HeaderValue => "HeaderValue",
        httparse::Error::NewLine => "NewLine",
        httparse::Error::Status => "Status",
        httparse::Error::Token => "Token",
        httparse::Error::TooManyHeaders => "TooManyHeaders",
        httparse::Error::Version => "Version",
    };
    ERROR_NAMES.iter().position(|n| *n == name).unwrap_or(0) as u32
}

/// Offset and length of `part`, a slice of `input`.
fn span(input: &[u8], part: &[u8]) -> [u32; 2] {
    [
        (part.as_ptr() as usize - input.as_ptr() as usize) as u32,
        part.len() as u32,
    ]
}

fn push_headers(out: &mut Vec<u32>, input: &[u8], headers: &[httparse::Header<'_>]) {
    out.push(headers.len() as u32);
    for h in headers {
        out.extend(span(input, h.name.as_bytes()));
        out.extend(span(input, h.value));
    }
}

/// What one head parse found, as the words of the output buffer.
fn head_words(input: &[u8], start: usize, request: bool, options: u32) -> Vec<u32> {
    let config = config(options);
    let bytes = &input[start.min(input.len())..];
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut out = Vec::new();
    if request {
        let mut req = httparse::Request::new(&mut headers);
        match config.parse_request(&mut req, bytes) {
            Ok(httparse::Status::Complete(n)) => {
                out.extend([COMPLETE, n as u32]);
                out.extend(span(input, req.method.unwrap_or("").as_bytes()));
                out.extend(span(input, req.path.unwrap_or("").as_bytes()));
                out.push(u32::from(req.version.unwrap_or(0)));
                push_headers(&mut out, input, req.headers);
            }
            Ok(httparse::Status::Partial) => out.push(PARTIAL),
            Err(e) => out.extend([ERROR, error_index(e)]),
        }
    } else {
        let mut resp = httparse::Response::new(&mut headers);
        match config.parse_response(&mut resp, bytes) {
            Ok(httparse::Status::Complete(n)) => {
                out.extend([COMPLETE, n as u32]);
                out.push(u32::from(resp.version.unwrap_or(0)));
                out.push(u32::from(resp.code.unwrap_or(0)));
                out.extend(span(input, resp.reason.unwrap_or("").as_bytes()));
                push_headers(&mut out, input, resp.headers);
            }
            Ok(httparse::Status::Partial) => out.push(PARTIAL),
            Err(e) => out.extend([ERROR, error_index(e)]),
        }
    }
    out
}

fn answer(words: impl FnOnce(&[u8]) -> Vec<u32>) -> *const u32 {
    let words = INPUT.with(|input| words(&input.borrow()));
    OUTPUT.with(|out| {
        let mut out = out.borrow_mut();
        *out = words;
        out.as_ptr()
    })
}

/// A buffer of `len` bytes for the input; its address in the module's memory.
#[allow(unsafe_code)] // `no_mangle` only: the page calls the function by this name.
#[no_mangle]
pub extern "C" fn input_buffer(len: usize) -> *mut u8 {
    INPUT.with(|input| {
        let mut input = input.borrow_mut();
        input.clear();
        input.resize(len, 0);
        input.as_mut_ptr()
    })
}

/// The address of the last answer (its first word is the status).
#[allow(unsafe_code)] // `no_mangle` only: the page calls the function by this name.
#[no_mangle]
pub extern "C" fn output_buffer() -> *const u32 {
    OUTPUT.with(|out| out.borrow().as_ptr())
}

/// Parses one request head (`request` 1) or response head (0) starting at byte `start`.
///
/// Complete: `[0, bytes read, method, target, minor version, n, n × (name, value)]` for a
/// request (each part an offset and a length), `[0, bytes read, minor version, status, reason,
/// n, n × (name, value)]` for a response.
#[allow(unsafe_code)] // `no_mangle` only: the page calls the function by this name.
#[no_mangle]
pub extern "C" fn parse_head(request: u32, start: usize) -> *const u32 {
    answer(|input| head_words(input, start, request != 0, 0))
}

/// [`parse_head`] with httparse's parser options: bit k of `options` turns on
/// [`OPTION_NAMES`]`[k]`.
#[allow(unsafe_code)] // `no_mangle` only: the page calls the function by this name.
#[no_mangle]
pub extern "C" fn parse_head_with(request: u32, start: usize, options: u32) -> *const u32 {
    answer(|input| head_words(input, start, request != 0, options))
}

/// Parses one chunk-size line at byte `start`: complete gives `[0, bytes read, size low 32
/// bits, size high 32 bits]`.
#[allow(unsafe_code)] // `no_mangle` only: the page calls the function by this name.
#[no_mangle]
pub extern "C" fn parse_chunk_size(start: usize) -> *const u32 {
    answer(
        |input| match httparse::parse_chunk_size(&input[start.min(input.len())..]) {
            Ok(httparse::Status::Complete((n, size))) => {
                vec![COMPLETE, n as u32, size as u32, (size >> 32) as u32]
            }
            Ok(httparse::Status::Partial) => vec![PARTIAL],
            Err(httparse::InvalidChunkSize) => vec![ERROR, ERROR_NAMES.len() as u32 - 1],
        },
    )
}

/// Parses a trailer section (field lines and the empty line) at byte `start`: complete gives
/// `[0, bytes read, n, n × (name, value)]`.
#[allow(unsafe_code)] // `no_mangle` only: the page calls the function by this name.
#[no_mangle]
pub extern "C" fn parse_trailers(start: usize) -> *const u32 {
    answer(|input| {
        let bytes = &input[start.min(input.len())..];
        let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
        match httparse::parse_headers(bytes, &mut headers) {
            Ok(httparse::Status::Complete((n, fields))) => {
                let mut out = vec![COMPLETE, n as u32];
                push_headers(&mut out, input, fields);
                out
            }
            Ok(httparse::Status::Partial) => vec![PARTIAL],
            Err(e) => vec![ERROR, error_index(e)],
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &[u8], f: impl FnOnce() -> *const u32) -> Vec<u32> {
        INPUT.with(|i| *i.borrow_mut() = input.to_vec());
        f();
        OUTPUT.with(|o| o.borrow().clone())
    }

    #[test]
    fn request_head_spans_count_from_the_input() {
        let w = run(b"xxGET /a HTTP/1.1\r\nHost: h\r\n\r\n", || parse_head(1, 2));
        assert_eq!(w[..9], [COMPLETE, 28, 2, 3, 6, 2, 1, 1, 19]);
    }

    #[test]
    fn options_relax_what_the_default_refuses() {
        let spaced = b"GET  /  HTTP/1.1\r\nHost: h\r\n\r\n";
        assert_eq!(run(spaced, || parse_head(1, 0))[0], ERROR);
        assert_eq!(run(spaced, || parse_head_with(1, 0, 1))[0], COMPLETE);
        // An invalid field line is skipped: one field (Host) is left.
        let invalid = b"GET / HTTP/1.1\r\nBad Name: x\r\nHost: h\r\n\r\n";
        assert_eq!(run(invalid, || parse_head(1, 0))[0], ERROR);
        let w = run(invalid, || parse_head_with(1, 0, 1 << 2));
        assert_eq!((w[0], w[7]), (COMPLETE, 1));
    }

    #[test]
    fn errors_and_chunk_sizes() {
        assert_eq!(
            run(b"GET / HTTP/1.1\r\nA B: c\r\n\r\n", || parse_head(1, 0)),
            [ERROR, 0]
        );
        assert_eq!(run(b"GET / HTTP/1.1\r\n", || parse_head(1, 0)), [PARTIAL]);
        assert_eq!(
            run(b"1f;x\r\n", || parse_chunk_size(0)),
            [COMPLETE, 6, 31, 0]
        );
        assert_eq!(run(b"zz\r\n", || parse_chunk_size(0)), [ERROR, 7]);
    }
}
