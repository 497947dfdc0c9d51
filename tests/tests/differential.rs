//! Differential tests: httpspan against httparse (heads) and against Node's llhttp (whole
//! streams), on the vectors' inputs, seeded mutations of them, and generated messages.
//!
//! Where both parsers accept, they must agree on method, target, version, fields and
//! Content-Length (and, against llhttp, on the body). Where one rejects and the other does not,
//! the difference must be explained: httpspan's error names a POLICY.md rule ([`Rule`]), and
//! the input must break that rule when read plainly from its bytes (`rules_broken`). Any other
//! difference fails the test. Each test prints how many inputs fell in each class.
//!
//! Run with `cargo test -p conformance --test differential -- --nocapture` to see the
//! summaries.

#[path = "../peers/mod.rs"]
mod peers;

use std::collections::BTreeMap;
use std::path::Path;

use conformance::{decode_stream, load_dir, Case, Outcome, SplitMix};
use httpspan::stream::MessageKind;
use peers::{
    declared_length, httparse_head, httpspan_head, llhttp, llhttp_rule, rules_broken, HeadResult,
    Rule,
};

/// Mutants made from each vector's input.
const MUTANTS_PER_SEED: usize = 6;
/// Messages made by the generator.
const GENERATED: usize = 6000;

/// Bytes and fragments that matter to smuggling, for mutations and generated messages.
const DICTIONARY: &[&[u8]] = &[
    b"\r\n",
    b"\n",
    b"\r",
    b" ",
    b"\t",
    b"\x0b",
    b"\x0c",
    b"\0",
    b":",
    b" :",
    b",",
    b";",
    b"\"",
    b"%",
    b"%0",
    b"#",
    b"?",
    b"@",
    b"*",
    b"-",
    b"+",
    b"0x",
    b"\x80",
    b"\xff",
    b"\x7f",
    b"\r\n ",
    b"\r\n\t",
    b"chunked",
    b"Chunked",
    b"identity",
    b"gzip",
    b"Content-Length: ",
    b"Transfer-Encoding: ",
    b"Host: ",
    b"Connection: close",
    b"HTTP/1.1",
    b"HTTP/1.0",
    b"\r\n\r\n",
    b"0\r\n\r\n",
    b"99999999999999999999",
];

/// A mutant of `seed`: one to three insertions of dictionary entries, deletions, byte changes
/// or duplicated lines.
fn mutate(rng: &mut SplitMix, seed: &[u8]) -> Vec<u8> {
    let mut out = seed.to_vec();
    for _ in 0..1 + rng.next_u64() % 3 {
        let at = (rng.next_u64() % (out.len() as u64 + 1)) as usize;
        match rng.next_u64() % 4 {
            0 => {
                let word = DICTIONARY[(rng.next_u64() % DICTIONARY.len() as u64) as usize];
                out.splice(at..at, word.iter().copied());
            }
            1 => {
                let end = (at + 1 + (rng.next_u64() % 4) as usize).min(out.len());
                out.drain(at..end);
            }
            2 if at < out.len() => out[at] = rng.next_u64() as u8,
            _ => {
                // Repeat the line that `at` is in.
                let start = out[..at]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                let end = out[at..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(out.len(), |i| at + i + 1);
                let line = out[start..end].to_vec();
                out.splice(end..end, line);
            }
        }
    }
    out
}

fn pick<'a>(rng: &mut SplitMix, items: &[&'a [u8]]) -> &'a [u8] {
    items[(rng.next_u64() % items.len() as u64) as usize]
}

/// A generated message: a start line and fields drawn from variants that parsers are known to
/// read differently, mostly well-formed.
fn generate(rng: &mut SplitMix) -> (MessageKind, Vec<u8>) {
    let request = !rng.next_u64().is_multiple_of(3);
    let mut out = Vec::new();
    let eol = |rng: &mut SplitMix| -> &'static [u8] {
        match rng.next_u64() % 40 {
            0 => b"\n",
            1 => b"\r",
            _ => b"\r\n",
        }
    };
    let version = pick(
        rng,
        &[
            b"HTTP/1.1",
            b"HTTP/1.1",
            b"HTTP/1.1",
            b"HTTP/1.0",
            b"HTTP/1.2",
            b"HTTP/2.0",
            b"http/1.1",
        ],
    );
    if request {
        let (method, target): (&[u8], &[u8]) = match rng.next_u64() % 10 {
            0 => (
                b"CONNECT",
                pick(rng, &[b"a.example:443", b"/x", b"a.example"]),
            ),
            1 => (b"OPTIONS", pick(rng, &[b"*", b"/"])),
            2 => (
                pick(rng, &[b"GET", b"POST"]),
                pick(
                    rng,
                    &[
                        b"http://a.example/x",
                        b"http://u@a.example/",
                        b"https://a.example:8443/?q",
                        b"http:/x",
                        b"*",
                        b"a.example:80",
                    ],
                ),
            ),
            _ => (
                pick(
                    rng,
                    &[
                        b"GET",
                        b"POST",
                        b"PUT",
                        b"DELETE",
                        b"get",
                        b"G(T",
                        b"PROPFIND",
                    ],
                ),
                pick(
                    rng,
                    &[
                        b"/",
                        b"/a/b?c=d",
                        b"/%41",
                        b"/%zz",
                        b"/a#frag",
                        b"/a b",
                        b"/\x80",
                        b"/a|b",
                        b"/{x}",
                        b"/a\"b",
                        b"//a",
                        b"/a?b?c",
                        b"/[::1]",
                        b"/a\\b",
                    ],
                ),
            ),
        };
        out.extend_from_slice(method);
        out.extend_from_slice(pick(rng, &[b" ", b" ", b" ", b" ", b"  ", b"\t"]));
        out.extend_from_slice(target);
        out.extend_from_slice(pick(rng, &[b" ", b" ", b" ", b" ", b"  "]));
        out.extend_from_slice(version);
    } else {
        out.extend_from_slice(version);
        out.push(b' ');
        out.extend_from_slice(pick(
            rng,
            &[
                b"200", b"200", b"204", b"304", b"101", b"100", b"404", b"099", b"600", b"2000",
                b"20",
            ],
        ));
        out.extend_from_slice(pick(
            rng,
            &[b" OK", b" OK", b"", b" ", b" \x80ok", b" a\x01b"],
        ));
    }
    out.extend_from_slice(eol(rng));
    let host: &[&[u8]] = &[
        b"Host: a.example",
        b"Host: a.example:8080",
        b"Host: ",
        b"Host: a b",
        b"Host: u@a",
        b"Host: [::1]:80",
        b"Host: :80",
    ];
    let framing: &[&[u8]] = &[
        b"Content-Length: 5",
        b"Content-Length: 0",
        b"Content-Length:  5 ",
        b"Content-Length: +5",
        b"Content-Length: -1",
        b"Content-Length: 5,5",
        b"Content-Length: 5, 5",
        b"Content-Length: 0x5",
        b"Content-Length: 5 5",
        b"Content-Length: 99999999999999999999",
        b"Content-Length: 9223372036854775808",
        b"Content-Length:",
        b"Content-Length : 5",
        b"Transfer-Encoding: chunked",
        b"Transfer-Encoding: Chunked",
        b"Transfer-Encoding: chunked ",
        b"Transfer-Encoding:\tchunked",
        b"Transfer-Encoding: chunked, identity",
        b"Transfer-Encoding: identity, chunked",
        b"Transfer-Encoding: gzip, chunked",
        b"Transfer-Encoding: gzip",
        b"Transfer-Encoding: chunked\x0b",
        b"Transfer-Encoding: \x0bchunked",
        b"Transfer-Encoding: chunked;a=b",
        b"Transfer-Encoding: chunked, chunked",
        b"Transfer-Encoding : chunked",
        b"Transfer-Encoding: xchunked",
        b"Transfer-Encoding:\r\n chunked",
    ];
    let other: &[&[u8]] = &[
        b"Connection: close",
        b"Connection: keep-alive",
        b"Connection: close x",
        b"Connection: ,close,",
        b"X-A: b",
        b"X-A: b\x7f",
        b"X-A: \x80\xff",
        b"X-A: a\0b",
        b"X-A:",
        b"X A: b",
        b"X-A b",
        b"\tX-A: b",
        b" folded",
        b"X-A: b\r\n c",
        b"Accept: */*",
    ];
    let lines = rng.next_u64() % 6;
    for i in 0..lines {
        let line = match rng.next_u64() % 4 {
            0 if request && i == 0 => pick(rng, host),
            0 | 1 => pick(rng, framing),
            _ => pick(rng, other),
        };
        out.extend_from_slice(line);
        out.extend_from_slice(eol(rng));
    }
    if request && !rng.next_u64().is_multiple_of(8) {
        out.extend_from_slice(b"Host: a.example\r\n");
    }
    out.extend_from_slice(eol(rng));
    out.extend_from_slice(pick(
        rng,
        &[b"", b"hello", b"5\r\nhello\r\n0\r\n\r\n", b"0\r\n\r\n"],
    ));
    (
        if request {
            MessageKind::Request
        } else {
            MessageKind::Response
        },
        out,
    )
}

/// The inputs: every vector's, mutants of each, and generated messages. Deterministic.
fn inputs() -> Vec<(MessageKind, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("vectors");
    let seeds: Vec<Case> = load_dir(&dir).into_iter().map(|c| c.unwrap()).collect();
    assert!(
        seeds.len() > 1000,
        "the vectors were not found in {}",
        dir.display()
    );
    let mut rng = SplitMix(0x5EED);
    let mut all = Vec::new();
    for seed in &seeds {
        all.push((seed.kind, seed.input.clone()));
        for _ in 0..MUTANTS_PER_SEED {
            all.push((seed.kind, mutate(&mut rng, &seed.input)));
        }
    }
    for _ in 0..GENERATED {
        let (kind, message) = generate(&mut rng);
        all.push((kind, message.clone()));
        all.push((kind, mutate(&mut rng, &message)));
    }
    all
}

/// Counts per class, printed as a table, and the unexplained differences.
#[derive(Default)]
struct Summary {
    classes: BTreeMap<String, usize>,
    unexplained: Vec<String>,
}

impl Summary {
    fn count(&mut self, class: impl Into<String>) {
        *self.classes.entry(class.into()).or_default() += 1;
    }

    fn explain(&mut self, kind: MessageKind, input: &[u8], rule: Option<Rule>, what: String) {
        let broken = rules_broken(kind, input);
        match rule {
            Some(rule) if broken.contains(&rule) => self.count(format!(
                "httpspan stricter: {} ({})",
                rule.label(),
                rule.rfc()
            )),
            _ => self.unexplained.push(format!(
                "{what}; rules broken: {broken:?}; input {}",
                conformance::escape(input)
            )),
        }
    }

    fn finish(self, peer: &str, total: usize) {
        println!("httpspan against {peer}: {total} inputs");
        for (class, n) in &self.classes {
            println!("{n:>8}  {class}");
        }
        let shown: Vec<&String> = self.unexplained.iter().take(25).collect();
        assert!(
            self.unexplained.is_empty(),
            "{} differences with {peer} that no rule explains, such as:\n{}",
            self.unexplained.len(),
            shown
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

#[test]
fn httparse_differs_only_where_the_policy_is_stricter() {
    let inputs = inputs();
    let mut summary = Summary::default();
    for (kind, input) in &inputs {
        let (ours, content_length, error) = httpspan_head(*kind, input);
        let theirs = httparse_head(*kind, input);
        match (&ours, &theirs) {
            (HeadResult::Complete(a), HeadResult::Complete(b)) => {
                // httparse's reason is a `&str`: one with obs-text (bytes 0x80 to 0xFF) comes
                // out empty.
                let mut b = b.clone();
                let reason_obs_text = a.reason.iter().any(|&b| b >= 0x80);
                if reason_obs_text && b.reason.is_empty() {
                    b.reason.clone_from(&a.reason);
                }
                if *a != b || content_length != declared_length(&b) {
                    summary.unexplained.push(format!(
                        "both accept but differ: httpspan {a:?} (length {content_length:?}), \
                         httparse {b:?}; input {}",
                        conformance::escape(input)
                    ));
                } else if reason_obs_text {
                    summary.count(
                        "agree: both accept, same head (httparse drops a reason with obs-text)",
                    );
                } else {
                    summary.count("agree: both accept, same head");
                }
            }
            (HeadResult::Error(_), HeadResult::Error(_)) => summary.count("agree: both reject"),
            (HeadResult::Partial, HeadResult::Partial) => {
                summary.count("agree: both need more bytes")
            }
            (HeadResult::Error(code), _) => {
                let what = format!("httpspan rejects ({code}), httparse gives {theirs:?}");
                summary.explain(*kind, input, error.and_then(Rule::of), what);
            }
            (_, HeadResult::Error(e)) => summary.unexplained.push(format!(
                "httparse rejects ({e}), httpspan gives {ours:?}; input {}",
                conformance::escape(input)
            )),
            _ => summary.unexplained.push(format!(
                "httpspan gives {ours:?}, httparse {theirs:?}; input {}",
                conformance::escape(input)
            )),
        }
    }
    summary.finish("httparse 1.10", inputs.len());
}

/// httpspan's first outcome for a whole stream, through the conformance runner's decoder, with
/// the default, strict policy the peers are compared with; `None` when the stream held no
/// message (nothing, or only empty lines).
fn httpspan_stream(kind: MessageKind, input: &[u8]) -> Option<Outcome> {
    let case = Case::unnamed(kind, input, httpspan::Leniency::STRICT);
    let outcomes = decode_stream(&case, &[]).expect("the decoder keeps its contract");
    outcomes.into_iter().next()
}

/// Whether httpspan's message and llhttp's (a JSON object of `llhttp.js`) agree, the body
/// aside.
fn same_head(kind: MessageKind, ours: &conformance::Message, theirs: &serde_json::Value) -> bool {
    let fields: Vec<(Vec<u8>, Vec<u8>)> = theirs["headers"]
        .as_array()
        .map(|pairs| {
            pairs
                .iter()
                .map(|p| (peers::latin1(&p[0]), peers::latin1(&p[1])))
                .collect()
        })
        .unwrap_or_default();
    ours.version == theirs["version"].as_str().unwrap_or("")
        && ours.headers == fields
        && (kind == MessageKind::Response
            || (ours.method == peers::latin1(&theirs["method"])
                && ours.target == peers::latin1(&theirs["url"])))
}

#[test]
fn llhttp_differs_only_where_a_rule_explains_it() {
    let inputs = inputs();
    let batch: Vec<(MessageKind, &str, Vec<u8>)> =
        inputs.iter().map(|(k, i)| (*k, "GET", i.clone())).collect();
    let llhttp = match llhttp(&batch) {
        Ok(llhttp) => llhttp,
        Err(why) => {
            // CI has Node; a machine without it skips this comparison and says so.
            println!("llhttp comparison skipped: {why}");
            return;
        }
    };
    let mut summary = Summary::default();
    for ((kind, input), theirs) in inputs.iter().zip(&llhttp.results) {
        let ours = httpspan_stream(*kind, input);
        let unexplained = || {
            format!(
                "httpspan gives {ours:?}, llhttp {theirs:?}; input {}",
                conformance::escape(input)
            )
        };
        let llhttp_rule = (theirs.end == "error")
            .then(|| llhttp_rule(*kind, input, &theirs.code, &llhttp.methods))
            .flatten();
        match (&ours, theirs.messages.first()) {
            (Some(Outcome::Message(m)), Some(t)) if same_head(*kind, m, t) => {
                if m.body == peers::latin1(&t["body"]) {
                    summary.count("agree: both accept, same message");
                } else if t["upgrade"] == true {
                    summary.count(
                        "differ by design: llhttp stops after a CONNECT or Upgrade request, \
                         httpspan reads its body (decision 9)",
                    );
                } else {
                    summary.unexplained.push(unexplained());
                }
            }
            (None, None) if theirs.end == "closed" => summary.count("agree: no message"),
            (Some(Outcome::Reject { .. }), None) if theirs.end == "error" => {
                summary.count("agree: both reject")
            }
            (Some(Outcome::Incomplete), None) if theirs.end == "incomplete" => {
                summary.count("agree: both incomplete")
            }
            (Some(Outcome::Message(_) | Outcome::Incomplete), None) if llhttp_rule.is_some() => {
                summary.count(format!(
                    "llhttp stricter: {}",
                    llhttp_rule.unwrap_or_default()
                ));
            }
            (Some(Outcome::Incomplete), None)
                if theirs.end == "error" && !input.ends_with(b"\n") =>
            {
                summary.count(
                    "differ in timing: the stream ends inside a line, which httpspan judges \
                     once complete (decision 24) and llhttp byte by byte",
                );
            }
            (Some(Outcome::Incomplete), None)
                if theirs.end == "closed"
                    && *kind == MessageKind::Request
                    && input.iter().all(|&b| b == b'\r' || b == b'\n')
                    && input.ends_with(b"\r") =>
            {
                summary.count(
                    "differ by design: a stream of empty lines ending in a lone CR is an empty \
                     line cut short for httpspan (decision 23), nothing for llhttp",
                );
            }
            (Some(Outcome::Reject { code, .. }), _) => {
                let kind_of = httpspan::ErrorKind::ALL
                    .iter()
                    .copied()
                    .find(|k| k.code() == *code);
                let what = format!("httpspan rejects ({code}), llhttp gives {theirs:?}");
                summary.explain(*kind, input, kind_of.and_then(Rule::of), what);
            }
            _ => summary.unexplained.push(unexplained()),
        }
    }
    summary.finish("llhttp (Node's http_parser)", inputs.len());
}
