//! Parses one input many times, for `valgrind --tool=callgrind` instruction counts:
//! `cargo build --release -p native-bench --example profile` then
//! `valgrind --tool=callgrind target/release/examples/profile request-large 1000`.
//! `httparse:request-large` (or `pico:`) runs a competitor on the same input instead;
//! `feed:request-large` feeds httpspan the request one byte more per call.
//! `request-small+body` parses the small request followed by 1 KiB of body, and
//! `request-small+pipelined` followed by a second copy of itself (either small input).
//! `chunked:body` (or `httparse-chunked:body`) decodes the 64 x 1 KiB chunked body of the
//! tables instead.
//! `native-bench/callgrind.sh` (or `make callgrind`) prints the table of instructions per parse;
//! `native-bench/stepcount.sh` counts one parse's by stepping it in gdb. `--backend` prints the
//! backend httpspan runs on.

use std::hint::black_box;

use httpspan::{Request, Response, Status};
use native_bench::inputs;

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "request-large".into());
    if which == "--backend" {
        println!("{}", httpspan::backend_name());
        return;
    }
    let times: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(1000);
    let (parser, input) = which
        .split_once(':')
        .unwrap_or(("httpspan", which.as_str()));
    if parser.ends_with("chunked") {
        let body = native_bench::chunked_body();
        for _ in 0..times {
            let data = match parser {
                "chunked" => native_bench::decode_chunked(black_box(&body)),
                "httparse-chunked" => native_bench::compete::httparse_chunked(black_box(&body)),
                _ => panic!("unknown parser {parser}"),
            };
            assert_eq!(data, 64 * 1024);
        }
        return;
    }
    let (input, after) = input.split_once('+').unwrap_or((input, ""));
    let head = match input {
        "request-small" => inputs::REQUEST_SMALL,
        "request-medium" => inputs::REQUEST_MEDIUM,
        "request-large" => inputs::REQUEST_LARGE,
        "response-small" => inputs::RESPONSE_SMALL,
        "response-medium" => inputs::RESPONSE_MEDIUM,
        "response-large" => inputs::RESPONSE_LARGE,
        other => panic!("unknown input {other}"),
    };
    let followed = match after {
        "" => head.to_vec(),
        "body" => [head, &[b'x'; 1024][..]].concat(),
        "pipelined" => [head, head].concat(),
        other => panic!("unknown input +{other}"),
    };
    let buf = &followed[..];
    let head_len = head.len();
    let request = input.starts_with("request");
    if parser == "feed" {
        // The byte-by-byte row: a parse call per byte received.
        let mut req = Request::new();
        for _ in 0..times {
            req.reset();
            for end in 1..buf.len() {
                assert_eq!(req.parse(black_box(&buf[..end])), Ok(Status::Partial));
            }
            assert_eq!(req.parse(black_box(buf)), Ok(Status::Complete { head_len }));
        }
    } else if parser != "httpspan" {
        let parse: fn(&[u8], usize) -> usize = match (parser, request) {
            ("httparse", true) => native_bench::compete::httparse_request_head,
            ("httparse", false) => native_bench::compete::httparse_response_head,
            ("pico", true) => native_bench::compete::pico_request_head,
            ("pico", false) => native_bench::compete::pico_response_head,
            _ => panic!("unknown parser {parser}"),
        };
        for _ in 0..times {
            traced_competitor(parse, buf, head_len);
        }
    } else if request {
        let mut req = Request::new();
        for _ in 0..times {
            traced_request(&mut req, buf, head_len);
        }
    } else {
        let mut res = Response::new();
        for _ in 0..times {
            traced_response(&mut res, buf, head_len);
        }
    }
}

// One parse each, as the `tables` rows time it (reset, parse, check), in a function of its
// own: `native-bench/stepcount.sh` counts the instructions of one call of a `traced_` function.

#[inline(never)]
fn traced_request(req: &mut Request, buf: &[u8], head_len: usize) {
    req.reset();
    assert_eq!(req.parse(black_box(buf)), Ok(Status::Complete { head_len }));
}

#[inline(never)]
fn traced_response(res: &mut Response, buf: &[u8], head_len: usize) {
    res.reset();
    assert_eq!(res.parse(black_box(buf)), Ok(Status::Complete { head_len }));
}

#[inline(never)]
fn traced_competitor(parse: fn(&[u8], usize) -> usize, buf: &[u8], head_len: usize) {
    black_box(parse(buf, head_len));
}
