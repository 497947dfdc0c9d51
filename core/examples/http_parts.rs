//! Parses a request head with httpspan and hands it to `http` crate code as
//! `http::request::Parts`, the type tower and axum middleware take.
//!
//! ```text
//! cargo run -p httpspan --features http --example http_parts [FILE]
//! ```
//!
//! FILE holds a raw request (CRLF line ends); without one, a built-in request is used.

use httpspan::{Request, Status};

const SAMPLE: &[u8] = b"POST /api/items?dry-run=1 HTTP/1.1\r\nHost: example.com\r\n\
    Content-Type: application/json\r\nAccept: application/json\r\nAccept: text/plain\r\n\
    Content-Length: 2\r\n\r\n{}";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let input = match std::env::args_os().nth(1) {
        Some(path) => std::fs::read(path)?,
        None => SAMPLE.to_vec(),
    };
    let mut req = Request::new();
    let Status::Complete { head_len } = req.parse(&input)? else {
        return Err("the input ends inside the head".into());
    };
    // Everything up to here borrowed `input`; the conversion copies into owned `http` types.
    let parts = httpspan::to_http::request_parts(&req, &input[..head_len])?;
    println!("{} {} {:?}", parts.method, parts.uri, parts.version);
    for (name, value) in &parts.headers {
        println!("{name}: {value:?}");
    }
    println!("({} body bytes follow the head)", input.len() - head_len);
    Ok(())
}
