//! `to_http` conversions: every field in order, folded values unfolded, every target form.

use httpspan::{Limits, Request, Response, Status};

fn parse(buf: &[u8], limits: Limits) -> Request {
    let mut req = Request::with_limits(limits);
    assert!(matches!(req.parse(buf), Ok(Status::Complete { .. })));
    req
}

#[test]
fn request_fields_keep_their_order_and_repeats() {
    let buf = b"PUT /a/b?c=d HTTP/1.0\r\nHost: h\r\nX-Many: 1\r\nx-many: 2\r\nX-Bytes: caf\xc3\xa9\r\n\r\n";
    let req = parse(buf, Limits::DEFAULT);
    let parts = httpspan::to_http::request_parts(&req, buf).unwrap();
    assert_eq!(parts.method, http::Method::PUT);
    assert_eq!(parts.uri.path_and_query().unwrap().as_str(), "/a/b?c=d");
    assert_eq!(parts.version, http::Version::HTTP_10);
    let many: Vec<_> = parts.headers.get_all("x-many").iter().collect();
    assert_eq!(many, ["1", "2"]);
    // obs-text is kept as bytes.
    assert_eq!(parts.headers["x-bytes"].as_bytes(), "café".as_bytes());
    assert_eq!(parts.headers.len(), 4);
}

#[test]
fn folded_values_are_unfolded() {
    let buf = b"GET / HTTP/1.1\r\nHost: h\r\nX-Fold: a\r\n  b\r\n\tc\r\n\r\n";
    let mut limits = Limits::DEFAULT;
    limits.lenient.obs_fold = true;
    let req = parse(buf, limits);
    let map = httpspan::to_http::header_map(req.fields(), buf).unwrap();
    assert_eq!(map["x-fold"], "a b c");
}

#[test]
fn responses_keep_status_version_and_fields() {
    let buf = b"HTTP/1.0 503 Busy\r\nRetry-After: 5\r\n\r\n";
    let mut res = Response::new();
    assert!(matches!(res.parse(buf), Ok(Status::Complete { .. })));
    let parts = httpspan::to_http::response_parts(&res, buf).unwrap();
    assert_eq!(parts.status, http::StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(parts.version, http::Version::HTTP_10);
    assert_eq!(parts.headers["retry-after"], "5");
}

#[test]
fn authority_and_asterisk_targets_convert() {
    // The target forms other than origin-form, which `http::Uri` represents as sent.
    for buf in [
        &b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"[..],
        &b"OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n"[..],
    ] {
        let req = parse(buf, Limits::DEFAULT);
        let parts = httpspan::to_http::request_parts(&req, buf).expect("http takes it");
        assert_eq!(parts.uri.to_string().as_bytes(), req.target().as_bytes(buf));
    }
}
