//! Tests of the grammar functions, on their own.

use super::*;
use std::string::String;
use std::vec;
use std::vec::Vec;

fn version_strict(bytes: &[u8]) -> SyntaxResult<Version> {
    version(bytes, false)
}

#[test]
fn versions() {
    assert_eq!(version_strict(b"HTTP/1.1"), Ok(Version::Http11));
    assert_eq!(version_strict(b"HTTP/1.0"), Ok(Version::Http10));
    assert_eq!(
        version_strict(b"HTTP/2.0"),
        Err((ErrorKind::UnsupportedVersion, 0))
    );
    assert_eq!(
        version_strict(b"HTTP/0.9"),
        Err((ErrorKind::UnsupportedVersion, 0))
    );
    assert_eq!(
        version_strict(b"http/1.1"),
        Err((ErrorKind::InvalidVersion, 0))
    );
    assert_eq!(
        version_strict(b"HTTP/1.1 "),
        Err((ErrorKind::InvalidVersion, 8))
    );
    assert_eq!(
        version_strict(b"HTTP/1."),
        Err((ErrorKind::InvalidVersion, 7))
    );
    assert_eq!(
        version_strict(b"HTTP/11"),
        Err((ErrorKind::InvalidVersion, 6))
    );
}

#[test]
fn hosts() {
    for ok in [
        &b""[..],
        b"example.com",
        b"example.com:8080",
        b"example.com:",
        b"127.0.0.1",
        b"[::1]",
        b"[::1]:443",
        b"[2001:db8::7]",
        b"[1:2:3:4:5:6:7:8]",
        b"[::ffff:192.0.2.1]",
        b"[v1.fe80::a+en1]",
        b"ex%41mple",
    ] {
        assert_eq!(host(ok), Ok(()), "{}", String::from_utf8_lossy(ok));
    }
    for bad in [
        &b"a b"[..],
        b"user@example.com",
        b"example.com/path",
        b"example.com:80a",
        b"example.com:123456",
        b":80",
        b"[::1",
        b"[1:2:3:4:5:6:7:8:9]",
        b"[1::2::3]",
        b"[12345::]",
        b"[::1]x",
        b"ex%4mple",
        b"[::256.0.0.1]",
    ] {
        assert!(host(bad).is_err(), "{}", String::from_utf8_lossy(bad));
    }
}

#[test]
fn target_forms() {
    use MethodClass::*;
    let check = |m, t: &[u8]| {
        let (n, brackets) = target_bytes_outside_parse(t, false).unwrap();
        assert_eq!(n, t.len());
        target_form(m, t, brackets).map_err(|e| e.0)
    };
    assert_eq!(check(Other, b"/a/b?c=d/?"), Ok(()));
    assert_eq!(check(Other, b"http://example.com/x"), Ok(()));
    assert_eq!(check(Other, b"http://[::1]:80/x"), Ok(()));
    assert_eq!(check(Other, b"urn:isbn:0451450523"), Ok(()));
    assert_eq!(
        check(Other, b"a:1"),
        Err(ErrorKind::AuthorityFormNotConnect)
    );
    assert_eq!(
        check(Other, b"http://u@example.com/"),
        Err(ErrorKind::UserinfoInTarget)
    );
    assert_eq!(check(Other, b"http:/x"), Err(ErrorKind::InvalidTarget));
    assert_eq!(check(Other, b"http:///x"), Err(ErrorKind::InvalidTarget));
    assert_eq!(
        check(Other, b"example.com:80"),
        Err(ErrorKind::AuthorityFormNotConnect)
    );
    assert_eq!(check(Other, b"*"), Err(ErrorKind::AsteriskFormNotOptions));
    assert_eq!(check(Options, b"*"), Ok(()));
    assert_eq!(check(Connect, b"example.com:443"), Ok(()));
    assert_eq!(check(Connect, b"[::1]:443"), Ok(()));
    assert_eq!(
        check(Connect, b"/"),
        Err(ErrorKind::ConnectNotAuthorityForm)
    );
    assert_eq!(
        check(Connect, b"example.com"),
        Err(ErrorKind::ConnectNotAuthorityForm)
    );
    assert_eq!(
        check(Connect, b"http://a:1/"),
        Err(ErrorKind::ConnectNotAuthorityForm)
    );
    assert_eq!(check(Other, b"/[x]"), Err(ErrorKind::InvalidTarget));
    assert_eq!(
        target_bytes_outside_parse(b"/a%2", false),
        Err((ErrorKind::InvalidPercentEncoding, 4))
    );
    assert_eq!(
        target_bytes_outside_parse(b"/a%zz", false),
        Err((ErrorKind::InvalidPercentEncoding, 3))
    );
    assert_eq!(
        target_bytes_outside_parse(b"/a%4z", false),
        Err((ErrorKind::InvalidPercentEncoding, 4))
    );
    assert_eq!(target_bytes_outside_parse(b"/a#f", false), Ok((2, false)));
}

#[test]
fn content_lengths() {
    assert_eq!(content_length(b"0"), Ok(0));
    assert_eq!(content_length(b"007"), Ok(7));
    assert_eq!(content_length(b"9223372036854775807"), Ok(i64::MAX as u64));
    assert_eq!(
        content_length(b"9223372036854775808"),
        Err((ErrorKind::ContentLengthTooLarge, 0))
    );
    assert_eq!(
        content_length(b"99999999999999999999999"),
        Err((ErrorKind::ContentLengthTooLarge, 0))
    );
    assert_eq!(
        content_length(b""),
        Err((ErrorKind::InvalidContentLength, 0))
    );
    assert_eq!(
        content_length(b"+1"),
        Err((ErrorKind::InvalidContentLength, 0))
    );
    assert_eq!(
        content_length(b"1 2"),
        Err((ErrorKind::InvalidContentLength, 1))
    );
    assert_eq!(
        content_length(b"1,1"),
        Err((ErrorKind::InvalidContentLength, 1))
    );
}

#[test]
fn connection_options_are_tokens_or_the_offset_of_the_first_wrong_byte() {
    let options: Vec<_> = ConnectionOptions::new(b" close ,,\tX-Trace,").collect();
    assert_eq!(options, vec![Ok(&b"close"[..]), Ok(&b"X-Trace"[..])]);
    // `a b` is one element whose byte 2 (the SP) is not a token byte; the walk goes on.
    let options: Vec<_> = ConnectionOptions::new(b"keep-alive, a b,c").collect();
    assert_eq!(
        options,
        vec![Ok(&b"keep-alive"[..]), Err(13), Ok(&b"c"[..])]
    );
    assert_eq!(ConnectionOptions::new(b"\"x\"").next(), Some(Err(0)));
    assert_eq!(ConnectionOptions::new(b" , ").next(), None);
}

#[test]
fn lists_and_codings() {
    let items: Vec<_> = ListItems::new(b" gzip , ,chunked,").collect();
    assert_eq!(items, vec![(&b"gzip"[..], 1), (&b"chunked"[..], 9)]);
    let items: Vec<_> = ListItems::new(b"a;q=\"x,y\", b").map(|i| i.0).collect();
    assert_eq!(items, vec![&b"a;q=\"x,y\""[..], b"b"]);
    assert_eq!(transfer_coding(b"chunked"), Ok(&b"chunked"[..]));
    assert_eq!(transfer_coding(b"gzip ; q=1 ;a=\"b c\""), Ok(&b"gzip"[..]));
    assert!(transfer_coding(b"chunked;").is_err());
    assert!(transfer_coding(b"chunked x").is_err());
    assert!(transfer_coding(b"\"chunked\"").is_err());
    assert!(transfer_coding(b"a;b").is_err());
}

#[test]
fn quoted_strings() {
    assert_eq!(quoted_string(b"\"abc\" rest"), Some(5));
    assert_eq!(quoted_string(b"\"a\\\"b\""), Some(6));
    assert_eq!(quoted_string(b"\"abc"), None);
    assert_eq!(quoted_string(b"\"a\x01\""), None);
}

#[test]
fn status_codes_and_what_follows_them() {
    assert_eq!(status_code(b"200 OK"), Ok(200));
    assert_eq!(status_code(b"599"), Ok(599));
    let err = |i| Err((ErrorKind::InvalidStatusCode, i));
    assert_eq!(status_code(b"099"), err(0));
    assert_eq!(status_code(b"600"), err(0));
    assert_eq!(status_code(b"1x0"), err(1));
    assert_eq!(status_code(b"20"), err(2));
    assert_eq!(status_code(b""), err(0));
    assert_eq!(status_digits(*b"204"), Some(204));
    assert_eq!(status_digits(*b"20a"), None);
    assert_eq!(reason_offset(None), Some(0));
    assert_eq!(reason_offset(Some(&b' ')), Some(1));
    assert_eq!(reason_offset(Some(&b'0')), None);
    assert_eq!(reason_error(b'0'), ErrorKind::InvalidStatusCode);
    assert_eq!(reason_error(b'\t'), ErrorKind::InvalidStatusLine);
}
