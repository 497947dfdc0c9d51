//! The hop-by-hop filter against a plain model of RFC 9110 7.6.1 on generated heads, and what it
//! keeps written by the request writer and parsed back unchanged.

#[path = "support/proptest_config.rs"]
mod proptest_config;

use httpspan::{end_to_end_fields, Request, RequestWriter, Status};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest_config::config;

/// Names the heads are made of: the hop-by-hop ones, end-to-end ones, and names that differ
/// from them only in case or by a letter.
const NAMES: &[&str] = &[
    "Connection",
    "connection",
    "Keep-Alive",
    "TE",
    "te",
    "Transfer-Encoding",
    "Upgrade",
    "Proxy-Connection",
    "Trailer",
    "Accept",
    "X-A",
    "x-a",
    "X-B",
    "X-Ab",
    "Tes",
    "Cookie",
];

/// What a proxy forwards, by the words of RFC 9110 7.6.1, with owned strings.
fn model(fields: &[(String, String)]) -> Vec<(String, String)> {
    const HOP: [&str; 6] = [
        "connection",
        "proxy-connection",
        "keep-alive",
        "te",
        "transfer-encoding",
        "upgrade",
    ];
    let named: Vec<String> = fields
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case("connection"))
        .flat_map(|(_, v)| v.split(','))
        .map(|o| o.trim_matches([' ', '\t']).to_ascii_lowercase())
        .filter(|o| !o.is_empty())
        .collect();
    fields
        .iter()
        .filter(|(n, _)| {
            let n = n.to_ascii_lowercase();
            !HOP.contains(&n.as_str()) && !named.contains(&n)
        })
        .cloned()
        .collect()
}

/// A field: a Connection value is a list of names with optional whitespace and empty elements;
/// any other value is a word.
fn field() -> impl Strategy<Value = (String, String)> {
    let list = vec((select(NAMES), select(&["", " ", "\t", " ,"][..])), 1..4).prop_map(|items| {
        items
            .iter()
            .map(|(n, ws)| format!("{ws}{n}"))
            .collect::<Vec<_>>()
            .join(",")
    });
    (select(NAMES), list, "[a-z0-9]{1,6}").prop_map(|(name, list, word)| {
        let value = if name.eq_ignore_ascii_case("connection") {
            list
        } else {
            word
        };
        (name.to_string(), value)
    })
}

proptest! {
    #![proptest_config(config(ProptestConfig::default().cases))]

    #[test]
    fn the_filter_keeps_what_the_model_keeps(fields in vec(field(), 0..12)) {
        let mut head = String::from("GET / HTTP/1.1\r\nHost: h\r\n");
        for (n, v) in &fields {
            head += &format!("{n}: {v}\r\n");
        }
        head += "\r\n";
        let buf = head.as_bytes();
        let mut req = Request::new();
        // Heads the parser refuses (Transfer-Encoding values that are not codings, a
        // Transfer-Encoding without chunked last) have nothing to forward.
        let Ok(Status::Complete { .. }) = req.parse(buf) else { return Ok(()) };
        let all: Vec<(String, String)> =
            [("Host".to_string(), "h".to_string())].into_iter().chain(fields.iter().cloned()).collect();
        let kept: Vec<(String, String)> = end_to_end_fields(req.fields(), buf)
            .map(|f| {
                let s = |b: &[u8]| String::from_utf8(b.to_vec()).unwrap();
                (s(f.name.as_bytes(buf)), s(f.value.as_bytes(buf)))
            })
            .collect();
        prop_assert_eq!(&kept, &model(&all));

        // What is kept, written again, parses back to the same fields.
        let mut out = Vec::new();
        let mut w = RequestWriter::new_in(&mut out, b"GET", b"/").unwrap();
        for (n, v) in &kept {
            w.header(n.as_bytes(), v.as_bytes()).unwrap();
        }
        let len = w.finish().unwrap();
        let mut again = Request::new();
        prop_assert_eq!(again.parse(&out), Ok(Status::Complete { head_len: len }));
        let back: Vec<(&[u8], &[u8])> =
            again.fields().iter().map(|f| (f.name.as_bytes(&out), f.value.as_bytes(&out))).collect();
        let expected: Vec<(&[u8], &[u8])> = kept.iter().map(|(n, v)| (n.as_bytes(), v.as_bytes())).collect();
        prop_assert_eq!(back, expected);
    }
}
