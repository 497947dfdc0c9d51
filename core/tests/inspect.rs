//! The terminal inspector (`examples/inspect.rs`) checked on its report: spans, known-header
//! slots, framing, and the caret under an error's byte.

#[allow(dead_code)] // the example's `main` is not called here
#[path = "../examples/inspect.rs"]
mod inspect;

use httpspan::stream::MessageKind;
use httpspan::Limits;

fn report(input: &[u8], kind: MessageKind) -> (bool, String) {
    lenient_report(input, kind, &[])
}

fn lenient_report(input: &[u8], kind: MessageKind, options: &[&str]) -> (bool, String) {
    let mut limits = Limits::DEFAULT;
    for name in options {
        assert!(limits.lenient.enable(name), "{name}");
    }
    let mut out = String::new();
    let ok = inspect::inspect(input, kind, b"GET", &limits, &mut out);
    (ok, out)
}

#[test]
fn a_request_is_shown_with_spans_slots_and_framing() {
    let input = b"POST /a?b HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nX-Custom: v\r\n\r\nhi";
    let (ok, out) = report(input, MessageKind::Request);
    assert!(ok, "{out}");
    for line in [
        "request 1: head of 63 bytes at byte 0",
        "  method     0+4         \"POST\"",
        "  target     5+4         \"/a?b\"",
        "    #0   20+4        26+1        \"Host\": \"x\"  [known slot 0: host]",
        "    #2   48+8        58+1        \"X-Custom\": \"v\"",
        "  known      bitmap 0x0000000000000003: host=#0 content-length=#1",
        "  framing    Length(2), content-length 2, chunked false, keep-alive true",
        "  body       2 bytes, first at byte 63: \"hi\"",
    ] {
        assert!(
            out.lines().any(|l| l == line),
            "missing {line:?} in:\n{out}"
        );
    }
}

#[test]
fn an_error_has_a_caret_under_its_byte() {
    let input = b"GET / HTTP/1.1\r\nHost: a\r\nX-Bad: a\x01b\r\n\r\n";
    let (ok, out) = report(input, MessageKind::Request);
    assert!(!ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "error: invalid byte in field value (invalid_field_value, RFC 9110 5.5)"
    );
    assert_eq!(lines[1], "  a server answers 400");
    assert_eq!(lines[2], "  at byte 33, line 3, column 9");
    let shown = lines
        .iter()
        .position(|l| l.starts_with("  3 | "))
        .expect("the line is shown");
    assert_eq!(lines[shown], "  3 | X-Bad: a\\x01b\\r\\n");
    let caret = lines[shown + 1].find('^').expect("a caret");
    assert_eq!(
        &lines[shown][caret..caret + 4],
        "\\x01",
        "the caret points at the byte"
    );
}

#[test]
fn pipelined_responses_and_what_follows_a_close() {
    let input =
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nEtag: 1\r\n\r\n\
                  HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\nleftover";
    let (ok, out) = report(input, MessageKind::Response);
    assert!(ok, "{out}");
    assert!(
        out.contains("response 1: head of 47 bytes at byte 0"),
        "{out}"
    );
    let body = out
        .find("  body       3 bytes, first at byte 50: \"abc\"")
        .expect("the body");
    let trailers = out.find("  trailers   1 at byte 58").expect("the trailers");
    assert!(
        body < trailers,
        "the body is shown before its trailers:\n{out}"
    );
    let etag = "    #0   58+4        64+1        \"Etag\": \"1\"  [known slot 45: etag]";
    assert!(out.contains(etag), "{out}");
    assert!(
        out.contains("response 2: head of 57 bytes at byte 69"),
        "{out}"
    );
    assert!(
        out.contains("\n8 bytes after the last message are not HTTP/1.1"),
        "{out}"
    );
}

#[test]
fn lenient_options_are_named_and_folded_values_shown_unfolded() {
    let input = b"GET / HTTP/1.1\nHost: a\nX: one\r\n two\n\n";
    let (ok, out) = report(input, MessageKind::Request);
    assert!(!ok);
    assert!(
        out.starts_with("error: bare LF line ending (bare_lf, "),
        "{out}"
    );
    let (ok, out) = lenient_report(input, MessageKind::Request, &["bare_lf", "obs_fold"]);
    assert!(ok, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "lenient: bare_lf, obs_fold");
    let field = lines
        .iter()
        .position(|l| l.starts_with("    #1   "))
        .expect("the folded field");
    assert_eq!(
        lines[field],
        "    #1   23+1        26+9        \"X\": \"one\\r\\n two\""
    );
    assert_eq!(lines[field + 1], "         unfolded \"one two\"");
}

#[test]
fn lenient_flags_are_read_and_unknown_names_refused() {
    let args = |list: &[&str]| inspect::parse_args(list.iter().map(|a| a.to_string()));
    let parsed = args(&[
        "--lenient",
        "obs_fold",
        "--request",
        "--lenient",
        "missing_host",
        "f",
    ])
    .expect("valid arguments");
    let mut expected = Limits::DEFAULT;
    expected.lenient.enable("obs_fold");
    expected.lenient.enable("missing_host");
    assert_eq!(parsed.limits, expected);
    assert_eq!(parsed.path.as_deref(), Some("f"));
    assert_eq!(args(&[]).expect("no arguments").limits, Limits::DEFAULT);
    for bad in [&["--lenient", "obs-fold"][..], &["--lenient"]] {
        let err = args(bad).err().expect("refused");
        assert!(err.starts_with("unknown lenient option"), "{err}");
    }
}
