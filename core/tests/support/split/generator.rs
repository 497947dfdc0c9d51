//! The generator: a small grammar of valid HTTP/1.1 messages as proptest strategies (specs of
//! requests and responses, their fields, bodies and chunks), the mutations that break them, and
//! the limits and lenient options to parse them with.

use std::ops::Range;

use httpspan::{Leniency, Limits};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{select, Index};

use super::{B, TCHAR};

/// A field line: name, and the raw value (with any surrounding whitespace) as sent.
#[derive(Clone, Debug)]
pub struct FieldSpec {
    pub name: B,
    pub raw: B,
}

/// A Connection field: its list items and the separators that follow each.
#[derive(Clone, Debug)]
pub struct ConnSpec {
    pub name: &'static str,
    pub items: Vec<(&'static str, &'static str)>,
    pub ows: (&'static str, &'static str),
}

#[derive(Clone, Debug)]
pub struct ExtSpec {
    pub before: &'static str,
    pub after_semi: &'static str,
    pub name: B,
    pub value: Option<(&'static str, &'static str, B)>,
}

#[derive(Clone, Debug)]
pub struct ChunkSpec {
    pub data: B,
    pub zeros: usize,
    pub upper: bool,
    pub exts: Vec<ExtSpec>,
}

#[derive(Clone, Debug)]
pub struct ChunkedSpec {
    pub te_name: &'static str,
    pub te_lines: &'static [&'static str],
    pub chunks: Vec<ChunkSpec>,
    pub last_zeros: usize,
    pub last_exts: Vec<ExtSpec>,
    pub trailers: Vec<FieldSpec>,
}

#[derive(Clone, Debug)]
pub enum BodySpec {
    /// No framing field: no body for a request, until close for a response.
    Plain(B),
    Length {
        name: &'static str,
        zeros: usize,
        ows: (&'static str, &'static str),
        data: B,
    },
    Chunked(ChunkedSpec),
    /// A response whose Transfer-Encoding does not end in chunked: until close.
    OtherCoding {
        te_lines: &'static [&'static str],
        data: B,
    },
}

#[derive(Clone, Debug)]
pub struct ReqSpec {
    pub leading: usize,
    pub method: B,
    pub target: B,
    pub http11: bool,
    pub host: Option<(&'static str, &'static str, B, &'static str)>,
    pub extras: Vec<(u8, FieldSpec)>,
    pub conns: Vec<(u8, ConnSpec)>,
    pub body: BodySpec,
    pub body_key: u8,
}

#[derive(Clone, Debug)]
pub struct InterimSpec {
    pub status: u16,
    pub reason: B,
    pub extras: Vec<FieldSpec>,
}

#[derive(Clone, Debug)]
pub struct ResSpec {
    pub interims: Vec<InterimSpec>,
    pub http11: bool,
    pub status: u16,
    pub reason: B,
    pub space_before_empty_reason: bool,
    pub extras: Vec<(u8, FieldSpec)>,
    pub conns: Vec<(u8, ConnSpec)>,
    pub body: BodySpec,
    pub body_key: u8,
    pub method: &'static str,
}

pub const METHODS: &[&str] = &[
    "GET",
    "POST",
    "PUT",
    "DELETE",
    "HEAD",
    "OPTIONS",
    "PATCH",
    "TRACE",
    "M-SEARCH",
    "PROPFIND",
    "get",
    "X",
    "BREW",
    "A1",
    "!#$%&'*+-.^_`|~",
    "connect",
];
pub const UNRESERVED_SUB: &[u8] =
    b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=";
pub const HEX: &[u8] = b"0123456789abcdefABCDEF";
pub const OWS: &[&str] = &["", "", " ", "\t", "  ", " \t "];
pub const BWS: &[&str] = &["", "", " ", "\t"];
pub const CONN_ITEMS: &[&str] = &[
    "close",
    "Close",
    "CLOSE",
    "keep-alive",
    "Keep-Alive",
    "keep-alive",
    "upgrade",
    "x-foo",
    "TE",
    "Upgrade",
    "x-bar",
];
pub const LIST_SEPS: &[&str] = &[",", ", ", " ,", " , ", ",,", ",\t"];
pub const HOSTS: &[&str] = &[
    "example.com",
    "localhost:8080",
    "127.0.0.1",
    "[::1]:443",
    "[2001:db8::7]",
    "ex%41mple.org",
    "",
    "h:",
    "a-b.c_d~e:65535",
    "!$&'()*+,;=",
];
pub const CHUNKED_TE: &[&[&str]] = &[
    &["chunked"],
    &["Chunked"],
    &["gzip, chunked"],
    &["gzip,chunked"],
    &["gzip", "chunked"],
    &[" x-y ;a=b , chunked"],
    &["deflate;level=\"1,2\", CHUNKED"],
    &[", chunked ,"],
];
pub const OTHER_TE: &[&[&str]] = &[
    &["gzip"],
    &["chunked, gzip"],
    &["x-custom"],
    &["chunked", "gzip"],
];
pub const SPECIAL_NAMES: &[&str] = &["host", "content-length", "transfer-encoding", "connection"];

pub fn token(len: Range<usize>) -> impl Strategy<Value = B> {
    vec(select(TCHAR), len).prop_map(B)
}

pub fn value_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        6 => 0x21u8..=0x7e,
        2 => 0x80u8..=0xff,
        1 => Just(b' '),
        1 => Just(b'\t'),
    ]
}

pub fn value_bytes(len: Range<usize>) -> impl Strategy<Value = B> {
    vec(value_byte(), len).prop_map(B)
}

pub fn pct() -> impl Strategy<Value = Vec<u8>> {
    (select(HEX), select(HEX)).prop_map(|(a, b)| vec![b'%', a, b])
}

pub fn target() -> impl Strategy<Value = B> {
    let path = prop_oneof![
        6 => select(UNRESERVED_SUB).prop_map(|b| vec![b]),
        1 => select(&b":@"[..]).prop_map(|b| vec![b]),
        1 => pct(),
        2 => Just(b"/".to_vec()),
    ];
    let query = prop_oneof![
        6 => select(UNRESERVED_SUB).prop_map(|b| vec![b]),
        2 => select(&b":@/?"[..]).prop_map(|b| vec![b]),
        1 => pct(),
    ];
    (vec(path, 0..16), proptest::option::of(vec(query, 0..12))).prop_map(|(path, query)| {
        let mut t = vec![b'/'];
        t.extend(path.concat());
        if let Some(q) = query {
            t.push(b'?');
            t.extend(q.concat());
        }
        B(t)
    })
}

pub fn method() -> impl Strategy<Value = B> {
    prop_oneof![
        3 => select(METHODS).prop_map(|m| B(m.as_bytes().to_vec())),
        1 => token(1..9),
    ]
    .prop_filter("CONNECT needs authority-form", |m| m.0 != b"CONNECT")
}

pub const TARGET_HOSTS: &[&str] = &[
    "example.com",
    "127.0.0.1",
    "[::1]",
    "[2001:db8::7]",
    "a-b.c_d~e",
    "ex%41mple",
];

/// A method and a request-target that go together: mostly origin-form with any method, and
/// sometimes absolute-form, `OPTIONS *` or `CONNECT host:port`.
pub fn method_and_target() -> impl Strategy<Value = (B, B)> {
    let absolute = (
        select(vec!["http", "https", "HTTP", "coap+tcp"]),
        select(TARGET_HOSTS),
        proptest::option::of(1u32..65536),
        proptest::option::of(target()),
    )
        .prop_map(|(scheme, host, port, path)| {
            let mut t = format!("{scheme}://{host}").into_bytes();
            if let Some(port) = port {
                t.extend(format!(":{port}").bytes());
            }
            if let Some(path) = path {
                t.extend(path.0);
            }
            B(t)
        });
    let authority = (select(TARGET_HOSTS), 0u32..65536)
        .prop_map(|(host, port)| B(format!("{host}:{port}").into_bytes()));
    prop_oneof![
        10 => (method(), target()),
        2 => (method(), absolute),
        1 => Just((B(b"OPTIONS".to_vec()), B(b"*".to_vec()))),
        1 => (Just(B(b"CONNECT".to_vec())), authority),
    ]
}

pub fn host_value() -> impl Strategy<Value = B> {
    prop_oneof![
        select(HOSTS).prop_map(|h| B(h.as_bytes().to_vec())),
        (
            vec(select(UNRESERVED_SUB), 1..10),
            proptest::option::of(vec(select(&b"0123456789"[..]), 0..6))
        )
            .prop_map(|(mut h, port)| {
                if let Some(port) = port {
                    h.push(b':');
                    h.extend(port);
                }
                B(h)
            }),
    ]
}

pub fn extra_field() -> impl Strategy<Value = FieldSpec> {
    let name = token(1..12).prop_filter("framing names are generated apart", |n| {
        !SPECIAL_NAMES
            .iter()
            .any(|s| n.0.eq_ignore_ascii_case(s.as_bytes()))
    });
    (name, value_bytes(0..24)).prop_map(|(name, raw)| FieldSpec { name, raw })
}

pub fn trailer_field() -> impl Strategy<Value = FieldSpec> {
    let name = prop_oneof![
        3 => token(1..12),
        1 => select(vec!["Content-Length", "Host", "Transfer-Encoding", "Connection"])
            .prop_map(|n| B(n.as_bytes().to_vec())),
    ];
    (name, value_bytes(0..24)).prop_map(|(name, raw)| FieldSpec { name, raw })
}

pub fn conn() -> impl Strategy<Value = ConnSpec> {
    (
        select(vec!["Connection", "connection", "CONNECTION"]),
        vec((select(CONN_ITEMS), select(LIST_SEPS)), 0..4),
        (select(OWS), select(OWS)),
    )
        .prop_map(|(name, items, ows)| ConnSpec { name, items, ows })
}

pub fn ext() -> impl Strategy<Value = ExtSpec> {
    let qdtext = prop_oneof![
        Just(b'\t'),
        Just(b' '),
        Just(0x21u8),
        0x23u8..=0x5b,
        0x5du8..=0x7e,
        0x80u8..=0xff,
    ];
    let quoted_part = prop_oneof![
        4 => qdtext.prop_map(|b| vec![b]),
        1 => value_byte().prop_map(|b| vec![b'\\', b]),
    ];
    let quoted = vec(quoted_part, 0..6).prop_map(|parts| {
        let mut q = vec![b'"'];
        q.extend(parts.concat());
        q.push(b'"');
        B(q)
    });
    let value = prop_oneof![token(1..6), quoted];
    (
        select(BWS),
        select(BWS),
        token(1..6),
        proptest::option::of((select(BWS), select(BWS), value)),
    )
        .prop_map(|(before, after_semi, name, value)| ExtSpec {
            before,
            after_semi,
            name,
            value,
        })
}

pub fn chunked() -> impl Strategy<Value = ChunkedSpec> {
    let chunk = (
        vec(any::<u8>(), 1..40),
        0..3usize,
        any::<bool>(),
        vec(ext(), 0..3),
    )
        .prop_map(|(data, zeros, upper, exts)| ChunkSpec {
            data: B(data),
            zeros,
            upper,
            exts,
        });
    (
        select(vec!["Transfer-Encoding", "transfer-encoding"]),
        select(CHUNKED_TE),
        vec(chunk, 0..4),
        1..4usize,
        vec(ext(), 0..2),
        vec(trailer_field(), 0..3),
    )
        .prop_map(
            |(te_name, te_lines, chunks, last_zeros, last_exts, trailers)| ChunkedSpec {
                te_name,
                te_lines,
                chunks,
                last_zeros,
                last_exts,
                trailers,
            },
        )
}

pub fn length_body() -> impl Strategy<Value = BodySpec> {
    (
        select(vec!["Content-Length", "content-length", "CONTENT-LENGTH"]),
        0..3usize,
        (select(OWS), select(OWS)),
        vec(any::<u8>(), 0..64),
    )
        .prop_map(|(name, zeros, ows, data)| BodySpec::Length {
            name,
            zeros,
            ows,
            data: B(data),
        })
}

pub fn request_body() -> impl Strategy<Value = BodySpec> {
    prop_oneof![
        1 => Just(BodySpec::Plain(B(Vec::new()))),
        1 => length_body(),
        2 => chunked().prop_map(BodySpec::Chunked),
    ]
}

pub fn response_body() -> impl Strategy<Value = BodySpec> {
    prop_oneof![
        1 => vec(any::<u8>(), 0..48).prop_map(|d| BodySpec::Plain(B(d))),
        2 => length_body(),
        2 => chunked().prop_map(BodySpec::Chunked),
        1 => (select(OTHER_TE), vec(any::<u8>(), 0..48))
            .prop_map(|(te_lines, d)| BodySpec::OtherCoding { te_lines, data: B(d) }),
    ]
}

prop_compose! {
    pub fn request_spec()(
        leading in 0..3usize,
        (method, target) in method_and_target(),
        http11 in prop::bool::weighted(0.8),
        host in (select(vec!["Host", "host", "HOST"]), select(OWS), host_value(), select(OWS)),
        omit_host in any::<bool>(),
        extras in vec((any::<u8>(), extra_field()), 0..6),
        conns in vec((any::<u8>(), conn()), 0..2),
        body in request_body(),
        body_key in any::<u8>(),
    ) -> ReqSpec {
        ReqSpec {
            leading,
            method,
            target,
            http11,
            host: (http11 || !omit_host).then_some(host),
            extras,
            conns,
            body,
            body_key,
        }
    }
}

prop_compose! {
    pub fn interim_spec()(
        status in select(vec![100u16, 102, 103]),
        reason in value_bytes(0..12),
        extras in vec(extra_field(), 0..3),
    ) -> InterimSpec {
        InterimSpec { status, reason, extras }
    }
}

prop_compose! {
    pub fn response_spec()(
        interims in vec(interim_spec(), 0..3),
        http11 in prop::bool::weighted(0.8),
        status in prop_oneof![
            3 => select(vec![200u16, 201, 204, 206, 301, 304, 400, 404, 500, 503, 599, 299, 101]),
            1 => 200u16..600,
        ],
        reason in prop_oneof![Just(B(Vec::new())), value_bytes(0..20)],
        space_before_empty_reason in any::<bool>(),
        extras in vec((any::<u8>(), extra_field()), 0..6),
        conns in vec((any::<u8>(), conn()), 0..2),
        body in response_body(),
        body_key in any::<u8>(),
        method in prop_oneof![
            6 => Just("GET"),
            2 => Just("POST"),
            2 => Just("HEAD"),
            1 => Just("CONNECT"),
        ],
    ) -> ResSpec {
        ResSpec {
            interims,
            http11,
            status,
            reason,
            space_before_empty_reason,
            extras,
            conns,
            body,
            body_key,
            method,
        }
    }
}

// ------------------------------------------------------------------------------------------
// Mutations and limits.

#[derive(Clone, Debug)]
pub enum Mutation {
    Flip(Index, u8),
    Set(Index, u8),
    Insert(Index, u8),
    Delete(Index),
    /// The stream ends early.
    Truncate(Index),
}

pub fn mutation() -> impl Strategy<Value = Mutation> {
    let special = prop_oneof![
        4 => select(&b"\r\n\0 \t:,;\"=%"[..]),
        1 => any::<u8>(),
    ];
    prop_oneof![
        2 => (any::<Index>(), 1u8..=255).prop_map(|(i, x)| Mutation::Flip(i, x)),
        2 => (any::<Index>(), special.clone()).prop_map(|(i, b)| Mutation::Set(i, b)),
        3 => (any::<Index>(), special).prop_map(|(i, b)| Mutation::Insert(i, b)),
        2 => any::<Index>().prop_map(Mutation::Delete),
        1 => any::<Index>().prop_map(Mutation::Truncate),
    ]
}

pub fn mutate(mut input: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for m in mutations {
        match m {
            Mutation::Insert(i, b) => {
                let at = i.index(input.len() + 1);
                input.insert(at, *b);
            }
            _ if input.is_empty() => {}
            Mutation::Flip(i, x) => {
                let at = i.index(input.len());
                input[at] ^= x;
            }
            Mutation::Set(i, b) => {
                let at = i.index(input.len());
                input[at] = *b;
            }
            Mutation::Delete(i) => {
                let at = i.index(input.len());
                input.remove(at);
            }
            Mutation::Truncate(i) => {
                let at = i.index(input.len());
                input.truncate(at);
            }
        }
    }
    input
}

/// No option, one, or any set of them.
pub fn leniency() -> impl Strategy<Value = Leniency> {
    let any_set = vec(any::<bool>(), 7).prop_map(|on| {
        let mut lenient = Leniency::STRICT;
        for (name, _) in Leniency::NAMES.iter().zip(on).filter(|(_, on)| *on) {
            lenient.enable(name);
        }
        lenient
    });
    prop_oneof![
        2 => Just(Leniency::STRICT),
        1 => select(&Leniency::NAMES[..]).prop_map(|name| {
            let mut lenient = Leniency::STRICT;
            lenient.enable(name);
            lenient
        }),
        1 => any_set,
    ]
}

pub fn all_options() -> Leniency {
    let mut lenient = Leniency::STRICT;
    for name in Leniency::NAMES {
        lenient.enable(name);
    }
    lenient
}

/// The default limits, or small ones that generated messages run into, with any lenient
/// options.
pub fn limits() -> impl Strategy<Value = Limits> {
    (strict_limits(), leniency()).prop_map(|(mut limits, lenient)| {
        limits.lenient = lenient;
        limits
    })
}

/// The default limits, or small ones that generated messages run into.
pub fn strict_limits() -> impl Strategy<Value = Limits> {
    let d = Limits::DEFAULT;
    // Each limit is the default or a small one, so that every limit is met on its own.
    let small = (
        prop_oneof![Just(d.max_head_bytes), 16u16..400],
        prop_oneof![Just(d.max_field_lines), 1u16..10],
        prop_oneof![Just(d.max_chunk_ext_bytes), 0u32..40],
        prop_oneof![Just(d.max_trailer_bytes), 2u32..120],
        prop_oneof![Just(None), (0u64..120).prop_map(Some)],
    )
        .prop_map(|(head, lines, ext, trailer, body)| {
            let mut l = Limits::DEFAULT;
            l.max_head_bytes = head;
            l.max_field_lines = lines;
            l.max_chunk_ext_bytes = ext;
            l.max_trailer_bytes = trailer;
            l.max_body_bytes = body;
            l
        });
    prop_oneof![1 => Just(Limits::DEFAULT), 2 => small]
}

/// Mostly the buffer the limits need; sometimes a smaller one, which lowers them.
pub fn buf_len() -> impl Strategy<Value = Option<usize>> {
    prop_oneof![3 => Just(None), 1 => (1usize..400).prop_map(Some)]
}
