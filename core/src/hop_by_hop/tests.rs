//! Tests of the hop-by-hop filter on parsed heads.

use super::*;
use crate::{Request, Response, Trailers};
use std::vec::Vec;

/// The names of the fields `end_to_end_fields` keeps from the request `head`.
fn kept(head: &[u8]) -> Vec<&[u8]> {
    let mut req = Request::new();
    req.parse(head).unwrap();
    end_to_end_fields(req.fields(), head)
        .map(|f| f.name.as_bytes(head))
        .collect()
}

#[test]
fn the_six_hop_by_hop_fields_go_in_any_case_and_the_rest_stay_in_order() {
    let head = b"GET / HTTP/1.1\r\nHost: a\r\nCONNECTION: keep-alive\r\nkeep-ALIVE: timeout=5\r\n\
                 Accept: */*\r\nProxy-Connection: close\r\nTe: trailers\r\nUpgrade: websocket\r\n\
                 Trailer: Checksum\r\nProxy-Authorization: Basic x\r\nX-B: 2\r\nX-A: 1\r\n\r\n";
    assert_eq!(
        kept(head),
        [
            &b"Host"[..],
            b"Accept",
            b"Trailer",
            b"Proxy-Authorization",
            b"X-B",
            b"X-A"
        ]
    );
}

#[test]
fn fields_named_by_any_connection_line_go_too() {
    // Several Connection lines, empty elements, whitespace and any case; an end-to-end field
    // named as an option goes as well, as RFC 9110 7.6.1 asks.
    let head = b"GET / HTTP/1.1\r\nX-Early: 0\r\nConnection: , x-one ,,\tX-TWO\r\nHost: a\r\n\
                 X-One: 1\r\nX-Two: 2\r\nX-Three: 3\r\nConnection: accept\r\nAccept: */*\r\n\
                 X-On: 4\r\n\r\n";
    assert_eq!(kept(head), [&b"X-Early"[..], b"Host", b"X-Three", b"X-On"]);
}

#[test]
fn a_head_without_connection_loses_only_the_fixed_list() {
    let head = b"GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\n\r\n";
    assert_eq!(kept(head), [&b"Host"[..], b"X-A"]);
    let head = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
    assert_eq!(kept(head), [&b"Host"[..]]);
}

#[test]
fn responses_are_filtered_the_same_way() {
    let head = b"HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade, x-hop\r\n\
                 Upgrade: websocket\r\nX-Hop: 1\r\nSec-WebSocket-Accept: abc\r\n\r\n";
    let mut res = Response::new();
    res.parse(head).unwrap();
    let kept: Vec<&[u8]> = end_to_end_fields(res.fields(), head)
        .map(|f| f.name.as_bytes(head))
        .collect();
    assert_eq!(kept, [&b"Sec-WebSocket-Accept"[..]]);
}

#[test]
fn trailers_lose_the_fields_the_heads_connection_names() {
    let head = b"HTTP/1.1 200 OK\r\nConnection: x-hop\r\nTransfer-Encoding: chunked\r\n\r\n";
    let mut res = Response::new();
    res.parse(head).unwrap();
    // The trailer section's own Connection line names nothing: X-Other stays.
    let section = b"x-hop: 1\r\nConnection: x-other\r\nX-Other: 2\r\nChecksum: abc\r\n\r\n";
    let mut trailers = Trailers::new();
    trailers.parse(section).unwrap();
    let kept: Vec<&[u8]> = end_to_end_trailers(trailers.fields(), section, res.fields(), head)
        .map(|f| f.name.as_bytes(section))
        .collect();
    assert_eq!(kept, [&b"X-Other"[..], b"Checksum"]);
}

#[test]
fn values_come_back_with_their_fields() {
    let head =
        b"GET / HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\nAccept: text/html\r\n\r\n";
    let mut req = Request::new();
    req.parse(head).unwrap();
    let fields: Vec<(&[u8], &[u8])> = end_to_end_fields(req.fields(), head)
        .map(|f| (f.name.as_bytes(head), f.value.as_bytes(head)))
        .collect();
    assert_eq!(
        fields,
        [
            (&b"Host"[..], &b"example.com"[..]),
            (b"Accept", b"text/html")
        ]
    );
}

#[test]
fn is_hop_by_hop_is_the_list_and_nothing_near_it() {
    for name in HOP_BY_HOP {
        assert!(is_hop_by_hop(name));
        assert!(!is_hop_by_hop(&name[1..]));
    }
    for name in [
        &b"Trailer"[..],
        b"Content-Length",
        b"Upgrade-Insecure-Requests",
        b"tes",
        b"",
    ] {
        assert!(!is_hop_by_hop(name));
    }
}
