//! Tests that run inside the WebAssembly module, under `wasm-pack test --node` and
//! `wasm-pack test --headless --chrome` (`make wasm-pack-test`): the module is the SIMD128 build,
//! its allocator and parsers work there, and what they write is the layout the JavaScript reads.

use super::*;
use layout::*;
use wasm_bindgen_test::wasm_bindgen_test;

/// A request parser of the module that has parsed `buf`.
fn parsed_request(buf: &[u8]) -> HeadParser {
    let mut parser = HeadParser::new(false, &[]);
    parser.input(buf.len());
    parser.input[..buf.len()].copy_from_slice(buf);
    parser.parse(buf.len());
    parser
}

/// Decodes `piece` whole and returns the events in order, the body bytes, and what is left.
fn decode_all(decoder: &mut StreamDecoder, piece: &[u8]) -> (Vec<u32>, Vec<u8>) {
    decoder.input(piece.len());
    decoder.input[..piece.len()].copy_from_slice(piece);
    let (mut events, mut body) = (Vec::new(), Vec::new());
    loop {
        let event = decoder.decode();
        events.push(event);
        if event == EVENT_BODY {
            body.extend_from_slice(&decoder.input[decoder.body_start()..decoder.body_end()]);
        }
        if event == EVENT_NEED_MORE || event == EVENT_ERROR || event == EVENT_CLOSED {
            return (events, body);
        }
    }
}

#[wasm_bindgen_test]
fn the_module_is_the_simd128_build_and_scans_with_it() {
    assert!(
        simd128(),
        "built without +simd128: RUSTFLAGS replaced .cargo/config.toml's flags"
    );
    assert_eq!(httpspan::backend_name(), "simd128");
}

#[wasm_bindgen_test]
fn a_request_parsed_in_the_module_is_written_as_span_words() {
    let buf = b"POST /items HTTP/1.1\r\nHost: example.com\r\nContent-Length: 4\r\n\r\nbody";
    let parser = parsed_request(buf);
    assert_eq!(parser.spans[STATE], COMPLETE);
    assert_eq!(parser.spans[HEAD_LEN] as usize, buf.len() - 4);
    assert_eq!(parser.spans[CONTENT_LENGTH], 4);
    assert_eq!(parser.spans[FIELD_COUNT], 2);
}

#[wasm_bindgen_test]
fn an_error_in_the_module_carries_its_byte_offset() {
    let buf = b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n";
    let parser = parsed_request(buf);
    assert_eq!(parser.spans[STATE], FAILED);
    let expected = httpspan::Request::new().parse(buf).unwrap_err();
    assert_eq!(parser.spans[HEAD_LEN] as usize, expected.offset()); // a failed head: its offset
}

#[wasm_bindgen_test]
fn a_chunked_request_split_in_two_pieces_decodes_in_the_module() {
    let mut decoder = StreamDecoder::new(false, &[], false);
    let (first, mut body) = decode_all(
        &mut decoder,
        b"POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nab",
    );
    assert_eq!(first[0], EVENT_HEAD);
    let (second, rest) = decode_all(&mut decoder, b"c\r\n0\r\n\r\n");
    body.extend(rest);
    assert_eq!(body, b"abc");
    assert!(second.contains(&EVENT_MESSAGE_END), "{second:?}");
}
