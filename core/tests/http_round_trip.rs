//! `to_http` then `from_http`: a parsed head converted to `http` parts and written back parses
//! to the same head, with the names' spelling and order when they were kept; and the framing
//! rules of `from_http`.

use http::header::{HeaderValue, CONTENT_LENGTH, TRANSFER_ENCODING};
use httpspan::from_http::{
    request_bytes, request_head, response_bytes, response_head, BodyFraming, FromHttpError,
};
use httpspan::to_http::{self, OriginalNames};
use httpspan::{Request, Response, Status, WriteError};
use proptest::prelude::*;

/// A head as compared: start line pieces and every field line, name and value as bytes.
type Fields = Vec<(Vec<u8>, Vec<u8>)>;

fn fields_of(fields: &[httpspan::Field], buf: &[u8]) -> Fields {
    fields
        .iter()
        .map(|f| {
            (
                f.name.as_bytes(buf).to_vec(),
                f.value.as_bytes(buf).to_vec(),
            )
        })
        .collect()
}

fn parse_request(buf: &[u8]) -> (Request, usize) {
    let mut req = Request::new();
    match req.parse(buf) {
        Ok(Status::Complete { head_len }) => (req, head_len),
        other => panic!("{other:?} for {:?}", String::from_utf8_lossy(buf)),
    }
}

fn parse_response(buf: &[u8]) -> Response {
    let mut res = Response::new();
    match res.parse(buf) {
        Ok(Status::Complete { .. }) => res,
        other => panic!("{other:?} for {:?}", String::from_utf8_lossy(buf)),
    }
}

/// The same fields grouped by name in the order of each name's first line, names lower-case:
/// what a `HeaderMap` keeps.
fn grouped(fields: &Fields) -> Fields {
    let mut out: Fields = Vec::new();
    let mut names: Vec<Vec<u8>> = Vec::new();
    for (name, _) in fields {
        let lower = name.to_ascii_lowercase();
        if !names.contains(&lower) {
            names.push(lower);
        }
    }
    for name in names {
        for (n, v) in fields {
            if n.eq_ignore_ascii_case(&name) {
                out.push((name.clone(), v.clone()));
            }
        }
    }
    out
}

/// A field name: a token of letters, digits and `-`, in any case, never a framing field or
/// Host.
fn name() -> impl Strategy<Value = Vec<u8>> {
    "[A-Za-z][A-Za-z0-9-]{0,12}"
        .prop_filter("not a field the writer frames", |n| {
            let lower = n.to_ascii_lowercase();
            !["content-length", "transfer-encoding", "host", "connection"].contains(&&*lower)
        })
        .prop_map(String::into_bytes)
}

/// A field value: visible bytes and inner spaces, obs-text included.
fn value() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop_oneof![0x21u8..=0x7e, Just(b' '), 0x80u8..=0xff], 0..20).prop_map(
        |mut v| {
            while v.last() == Some(&b' ') {
                v.pop();
            }
            while v.first() == Some(&b' ') {
                v.remove(0);
            }
            v
        },
    )
}

/// Field lines, some names repeated (so a map groups them), and a body length or none.
fn fields() -> impl Strategy<Value = (Fields, Option<u64>, usize)> {
    let pool = prop::collection::vec(name(), 1..4);
    (pool, prop::collection::vec((0usize..4, value()), 0..8))
        .prop_map(|(pool, lines)| {
            lines
                .into_iter()
                .map(|(i, v)| (pool[i % pool.len()].clone(), v))
                .collect::<Fields>()
        })
        .prop_flat_map(|lines| {
            let len = lines.len();
            (Just(lines), prop::option::of(0u64..100_000), 0..=len)
        })
}

fn method() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["GET", "POST", "PUT", "DELETE", "PATCH", "X-CUSTOM"])
}

fn target() -> impl Strategy<Value = String> {
    "(/[a-z0-9._~-]{0,8}){1,3}(\\?[a-z0-9=&]{0,10})?"
}

/// The head's bytes: start line, then `lines` with a Content-Length line at `at` when
/// `length` is given.
fn head(start: &str, host: bool, lines: &Fields, length: Option<u64>, at: usize) -> Vec<u8> {
    let mut buf = format!("{start}\r\n").into_bytes();
    if host {
        buf.extend_from_slice(b"Host: example.com\r\n");
    }
    for (i, (name, value)) in lines.iter().enumerate() {
        if i == at {
            if let Some(n) = length {
                buf.extend_from_slice(format!("Content-Length: {n}\r\n").as_bytes());
            }
        }
        buf.extend_from_slice(name);
        buf.extend_from_slice(b": ");
        buf.extend_from_slice(value);
        buf.extend_from_slice(b"\r\n");
    }
    if at == lines.len() {
        if let Some(n) = length {
            buf.extend_from_slice(format!("Content-Length: {n}\r\n").as_bytes());
        }
    }
    buf.extend_from_slice(b"\r\n");
    buf
}

proptest! {
    #[test]
    fn requests_round_trip(
        method in method(),
        target in target(),
        http11 in any::<bool>(),
        (lines, length, at) in fields(),
        keep in any::<bool>(),
    ) {
        let version = if http11 { "HTTP/1.1" } else { "HTTP/1.0" };
        let wire = head(&format!("{method} {target} {version}"), http11, &lines, length, at);
        let (req, _) = parse_request(&wire);
        let parts = match keep {
            true => to_http::request_parts_keeping_names(&req, &wire).unwrap(),
            false => to_http::request_parts(&req, &wire).unwrap(),
        };
        let framing = BodyFraming::from_headers(&parts.headers).unwrap();
        let written = request_head(&parts, framing).unwrap();
        let (again, head_len) = parse_request(&written);
        prop_assert_eq!(head_len, written.len());
        prop_assert_eq!(again.method().as_bytes(&written), method.as_bytes());
        prop_assert_eq!(again.target().as_bytes(&written), target.as_bytes());
        prop_assert_eq!(again.version(), req.version());
        prop_assert_eq!(again.framing(), req.framing());
        let before = fields_of(req.fields(), &wire);
        let after = fields_of(again.fields(), &written);
        if keep {
            // Every line in its place and spelling; the bytes are the same.
            prop_assert_eq!(&after, &before);
            prop_assert_eq!(&written, &wire);
        } else {
            prop_assert_eq!(grouped(&after), grouped(&before));
        }
    }

    #[test]
    fn responses_round_trip(
        status in prop::sample::select(vec![200u16, 201, 203, 301, 404, 418, 431, 500, 599]),
        (lines, length, at) in fields(),
    ) {
        let reason = httpspan::reason_phrase(status).unwrap_or("");
        let wire = head(&format!("HTTP/1.1 {status} {reason}"), false, &lines, length, at);
        let res = parse_response(&wire);
        let parts = to_http::response_parts_keeping_names(&res, &wire).unwrap();
        let framing = BodyFraming::from_headers(&parts.headers).unwrap();
        let written = response_head(&parts, framing).unwrap();
        prop_assert_eq!(&written, &wire);
    }
}

fn request_parts(wire: &[u8], keep: bool) -> http::request::Parts {
    let (req, head_len) = parse_request(wire);
    match keep {
        true => to_http::request_parts_keeping_names(&req, &wire[..head_len]).unwrap(),
        false => to_http::request_parts(&req, &wire[..head_len]).unwrap(),
    }
}

#[test]
fn a_content_length_in_the_map_is_checked_not_repeated() {
    let parts = request_parts(
        b"POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\n",
        false,
    );
    let written = request_bytes(&parts, b"abc").unwrap();
    assert_eq!(
        written,
        b"POST /a HTTP/1.1\r\nhost: h\r\nContent-Length: 3\r\n\r\nabc"
    );
    assert_eq!(
        request_bytes(&parts, b"abcd"),
        Err(FromHttpError::ContentLength)
    );
    assert_eq!(
        request_head(&parts, BodyFraming::Chunked),
        Err(FromHttpError::ContentLength)
    );
    assert_eq!(
        request_head(&parts, BodyFraming::None),
        Err(FromHttpError::ContentLength)
    );
    // An invalid value is refused, as the parser would.
    let mut parts = parts;
    parts
        .headers
        .insert(CONTENT_LENGTH, HeaderValue::from_static("+3"));
    assert_eq!(
        request_head(&parts, BodyFraming::Length(3)),
        Err(FromHttpError::ContentLength)
    );
    // So is one past the parser's largest length (2^63 - 1), which it refuses as too large.
    parts.headers.insert(
        CONTENT_LENGTH,
        HeaderValue::from_static("9223372036854775808"),
    );
    assert_eq!(
        BodyFraming::from_headers(&parts.headers),
        Err(FromHttpError::ContentLength)
    );
}

#[test]
fn transfer_encoding_must_be_chunked_alone() {
    let mut parts = request_parts(
        b"POST /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n",
        true,
    );
    assert_eq!(
        request_head(&parts, BodyFraming::Chunked).unwrap(),
        b"POST /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
    );
    assert_eq!(
        request_head(&parts, BodyFraming::Length(1)),
        Err(FromHttpError::TransferEncoding)
    );
    parts
        .headers
        .insert(TRANSFER_ENCODING, HeaderValue::from_static("gzip, chunked"));
    assert_eq!(
        request_head(&parts, BodyFraming::Chunked),
        Err(FromHttpError::TransferEncoding)
    );
    assert_eq!(
        BodyFraming::from_headers(&parts.headers),
        Err(FromHttpError::TransferEncoding)
    );
}

#[test]
fn kept_names_survive_edits_to_the_map() {
    let wire = b"GET / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\nX-B: 2\r\nx-a: 3\r\nX-Gone: 4\r\n\r\n";
    let mut parts = request_parts(wire, true);
    assert_eq!(parts.extensions.get::<OriginalNames>().unwrap().len(), 5);
    // Interleaved repeats keep their places.
    assert_eq!(
        request_head(&parts, BodyFraming::None).unwrap(),
        wire.to_vec()
    );
    parts.headers.remove("x-gone");
    parts.headers.append("x-a", HeaderValue::from_static("5"));
    parts.headers.insert("x-new", HeaderValue::from_static("6"));
    assert_eq!(
        request_head(&parts, BodyFraming::None).unwrap(),
        b"GET / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\nX-B: 2\r\nx-a: 3\r\nx-a: 5\r\nx-new: 6\r\n\r\n"
    );
}

#[test]
fn targets_and_host_come_from_the_uri() {
    let (parts, ()) = http::Request::get("http://example.com:8080/p?q=1")
        .body(())
        .unwrap()
        .into_parts();
    assert_eq!(
        request_head(&parts, BodyFraming::None).unwrap(),
        b"GET http://example.com:8080/p?q=1 HTTP/1.1\r\nHost: example.com:8080\r\n\r\n"
    );
    // Userinfo in a target is refused, as the parser refuses it (RFC 9110 4.2.4).
    let (parts, ()) = http::Request::get("http://user@example.com/")
        .body(())
        .unwrap()
        .into_parts();
    assert_eq!(
        request_head(&parts, BodyFraming::None),
        Err(FromHttpError::Write(WriteError::Invalid(
            httpspan::ErrorKind::UserinfoInTarget
        )))
    );
    for wire in [
        &b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"[..],
        b"OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n",
        b"GET http://example.com/x HTTP/1.1\r\nHost: example.com\r\n\r\n",
    ] {
        let parts = request_parts(wire, true);
        assert_eq!(request_head(&parts, BodyFraming::None).unwrap(), wire);
    }
    // Without an authority or a Host field, an HTTP/1.1 request is refused.
    let (parts, ()) = http::Request::get("/").body(()).unwrap().into_parts();
    assert_eq!(
        request_head(&parts, BodyFraming::None),
        Err(FromHttpError::Write(WriteError::Invalid(
            httpspan::ErrorKind::MissingHost
        )))
    );
}

#[test]
fn versions_other_than_http1_are_refused() {
    let (parts, ()) = http::Response::builder()
        .version(http::Version::HTTP_2)
        .body(())
        .unwrap()
        .into_parts();
    assert_eq!(
        response_head(&parts, BodyFraming::None),
        Err(FromHttpError::Version)
    );
}

#[test]
fn responses_without_content_have_no_framing() {
    let (parts, ()) = http::Response::builder()
        .status(204)
        .body(())
        .unwrap()
        .into_parts();
    assert_eq!(
        response_bytes(&parts, b"").unwrap(),
        b"HTTP/1.1 204 No Content\r\n\r\n"
    );
    assert_eq!(
        response_bytes(&parts, b"x"),
        Err(FromHttpError::Write(WriteError::BodyNotAllowed))
    );
    // 304 announces the length of what it does not send.
    let (parts, ()) = http::Response::builder()
        .status(304)
        .body(())
        .unwrap()
        .into_parts();
    assert_eq!(
        response_bytes(&parts, b"abc").unwrap(),
        b"HTTP/1.1 304 Not Modified\r\nContent-Length: 3\r\n\r\n"
    );
    // HTTP/1.0 responses keep their version and registered reason.
    let (parts, ()) = http::Response::builder()
        .version(http::Version::HTTP_10)
        .status(404)
        .body(())
        .unwrap()
        .into_parts();
    assert_eq!(
        response_bytes(&parts, b"").unwrap(),
        b"HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n"
    );
}

#[test]
fn large_heads_grow_the_buffer() {
    let (mut parts, ()) = http::Request::get("/").body(()).unwrap().into_parts();
    parts.headers.insert("host", HeaderValue::from_static("h"));
    let big = "v".repeat(10_000);
    parts
        .headers
        .insert("x-big", HeaderValue::from_str(&big).unwrap());
    let written = request_head(&parts, BodyFraming::None).unwrap();
    assert_eq!(written.len(), 16 + 9 + (7 + big.len() + 2) + 2);
    let mut small = [0u8; 64];
    assert!(matches!(
        httpspan::from_http::write_request_head(&parts, BodyFraming::None, &mut small),
        Err(FromHttpError::Write(WriteError::BufferTooSmall { .. }))
    ));
}
