//! Parses a request head with httpspan, hands it to `http` crate code as
//! `http::request::Parts` (the type tower and axum middleware take), and writes it back as
//! HTTP/1.1 bytes with the names spelled as they came.
//!
//! ```text
//! cargo run -p httpspan --features http --example http_parts [FILE]
//! ```
//!
//! FILE holds a raw request (CRLF line ends); without one, a built-in request is used.

use httpspan::from_http::{self, BodyFraming};
use httpspan::{Request, Status};

const SAMPLE: &[u8] = b"POST /api/items?dry-run=1 HTTP/1.1\r\nHost: example.com\r\n\
    Content-Type: application/json\r\nAccept: application/json\r\nX-Request-ID: 7\r\n\
    Accept: text/plain\r\nContent-Length: 2\r\n\r\n{}";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let input = match std::env::args_os().nth(1) {
        Some(path) => std::fs::read(path)?,
        None => SAMPLE.to_vec(),
    };
    let mut req = Request::new();
    let Status::Complete { head_len } = req.parse(&input)? else {
        return Err("the input ends inside the head".into());
    };
    // Everything up to here borrowed `input`; the conversion copies into owned `http` types,
    // and records the names' spelling and order beside them.
    let mut parts = httpspan::to_http::request_parts_keeping_names(&req, &input[..head_len])?;
    println!("{} {} {:?}", parts.method, parts.uri, parts.version);
    for (name, value) in &parts.headers {
        println!("{name}: {value:?}");
    }
    println!("({} body bytes follow the head)", input.len() - head_len);

    // What middleware might do, then the head on the wire again: the framing the map states,
    // checked by the writer; the names as they came, the added one lower-case.
    parts
        .headers
        .insert("via", http::HeaderValue::from_static("1.1 example"));
    let framing = BodyFraming::from_headers(&parts.headers)?;
    let head = from_http::request_head(&parts, framing)?;
    println!(
        "\nwritten back:\n{}",
        String::from_utf8_lossy(&head).trim_end()
    );
    Ok(())
}
