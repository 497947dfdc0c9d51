//! The generated tables of docs/conformance.md: the smuggling matrix (ambiguous inputs, and
//! what httpspan, httparse and Node's llhttp make of each), and which vectors check each rule.
//!
//! Usage: `cargo run -q -p conformance --example matrix -- [--check] FILE`
//!
//! Rewrites the parts of FILE between `<!-- smuggling-matrix:begin -->` and
//! `<!-- smuggling-matrix:end -->`, and between `<!-- rule-vectors:begin -->` and
//! `<!-- rule-vectors:end -->`; with `--check`, only compares and exits with status 1 if the file
//! differs (`make conformance-matrix-check`, run by `make test`).
//!
//! The table is built column by column: a column is a title and one cell per row, from any
//! function of the rows. To add one (a lenient httpspan, say), add a line to `columns`.

#[path = "../peers/mod.rs"]
mod peers;

use std::process::ExitCode;

use std::collections::BTreeMap;
use std::path::Path;

use conformance::{decode_stream, every_option, load_dir, Case, Outcome};
use httpspan::stream::MessageKind;
use httpspan::{ErrorKind, Leniency};

/// One ambiguous input.
struct Row {
    /// What is ambiguous about it.
    what: &'static str,
    kind: MessageKind,
    input: &'static [u8],
}

const fn req(what: &'static str, input: &'static [u8]) -> Row {
    Row {
        what,
        kind: MessageKind::Request,
        input,
    }
}

const fn res(what: &'static str, input: &'static [u8]) -> Row {
    Row {
        what,
        kind: MessageKind::Response,
        input,
    }
}

/// The rows: each input is one connection's stream. Most are a POST whose framing is in doubt,
/// followed by bytes that a parser reading the other framing would take as a second request.
const ROWS: &[Row] = &[
    req("Content-Length and Transfer-Encoding (CL.TE)",
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n"),
    req("Transfer-Encoding and Content-Length (TE.CL)",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n8\r\nSMUGGLED\r\n0\r\n\r\n"),
    req("Content-Length with a space inside",
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1 0\r\n\r\n0123456789"),
    req("Content-Length with spaces around",
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length:  5 \r\n\r\nhello"),
    req("Content-Length with a plus sign",
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +5\r\n\r\nhello"),
    req("Content-Length negative",
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -5\r\n\r\nhello"),
    req("Content-Length in hex",
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0x5\r\n\r\nhello"),
    req("Content-Length twice, same value",
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello"),
    req("Content-Length twice, different values",
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 0\r\n\r\nhello"),
    req("Content-Length as a list `5, 5`",
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5, 5\r\n\r\nhello"),
    req("Content-Length above 2^64",
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 18446744073709551621\r\n\r\nhello"),
    req("Transfer-Encoding `chunked ` (trailing SP)",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked \r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    req("Transfer-Encoding `\\tchunked` (leading HTAB)",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding:\tchunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    req("Transfer-Encoding `Chunked`",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    req("Transfer-Encoding `chunked, identity`",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, identity\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    req("Transfer-Encoding `identity, chunked`",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: identity, chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    req("Transfer-Encoding `chunked, chunked`",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    req("Transfer-Encoding `xchunked`",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: xchunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    req("Transfer-Encoding `chunked;a=b`",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked;a=b\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    req("Transfer-Encoding with a vertical tab after `chunked`",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\x0b\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    req("Transfer-Encoding with a vertical tab before `chunked`",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: \x0bchunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    req("Transfer-Encoding obs-folded onto a second line",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding:\r\n chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    req("Transfer-Encoding in HTTP/1.0",
        b"POST / HTTP/1.0\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    req("Transfer-Encoding split over two field lines",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    req("Transfer-Encoding with whitespace before the colon",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding : chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    req("Content-Length with whitespace before the colon",
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length : 5\r\n\r\nhello"),
    req("chunk-size of 17 hex digits (overflows 64 bits)",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000005\r\nhello\r\n0\r\n\r\n"),
    req("chunk-size with leading zeros (17 digits)",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n00000000000000005\r\nhello\r\n0\r\n\r\n"),
    req("chunk-size with a `0x` prefix",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0x5\r\nhello\r\n0\r\n\r\n"),
    req("chunk-size with a space before CRLF",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5 \r\nhello\r\n0\r\n\r\n"),
    req("chunk-ext ending in a bare LF",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;a=b\nhello\r\n0\r\n\r\n"),
    req("chunk-ext with a bare LF inside a quoted value",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;a=\"b\nc\"\r\nhello\r\n0\r\n\r\n"),
    req("chunk data not followed by CRLF",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXX0\r\n\r\n"),
    req("chunk data followed by a bare LF",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\n0\r\n\r\n"),
    req("bare LF line ends throughout",
        b"POST / HTTP/1.1\nHost: a\nContent-Length: 5\n\nhello"),
    req("bare LF ending one field line",
        b"POST / HTTP/1.1\r\nHost: a\nContent-Length: 5\r\n\r\nhello"),
    req("bare CR ending a field line",
        b"POST / HTTP/1.1\r\nHost: a\rContent-Length: 5\r\n\r\nhello"),
    req("NUL in a field value",
        b"GET / HTTP/1.1\r\nHost: a\r\nX-A: a\x00b\r\n\r\n"),
    req("obs-fold in a field value",
        b"GET / HTTP/1.1\r\nHost: a\r\nX-A: a\r\n b\r\n\r\n"),
    req("whitespace before the first field line",
        b"GET / HTTP/1.1\r\n Host: a\r\n\r\n"),
    req("two spaces in the request-line",
        b"GET  / HTTP/1.1\r\nHost: a\r\n\r\n"),
    req("absolute-form with a different Host",
        b"GET http://a.example/ HTTP/1.1\r\nHost: b.example\r\n\r\n"),
    req("two Host fields", b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"),
    req("no Host in HTTP/1.1", b"GET / HTTP/1.1\r\n\r\n"),
    req("Host with userinfo", b"GET / HTTP/1.1\r\nHost: u@a\r\n\r\n"),
    req("fragment in the target", b"GET /a#b HTTP/1.1\r\nHost: a\r\n\r\n"),
    req("HTTP/1.2 request", b"GET / HTTP/1.2\r\nHost: a\r\n\r\n"),
    req("Content-Length in the trailer section",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nContent-Length: 5\r\n\r\n"),
    res("response with Content-Length and Transfer-Encoding",
        b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
    res("response with Transfer-Encoding `chunked, identity`",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, identity\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    res("response with two Content-Length values",
        b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 3\r\n\r\nhello"),
    res("status-line with bare LF",
        b"HTTP/1.1 200 OK\nContent-Length: 5\r\n\r\nhello"),
];

/// One column of the table.
struct Column {
    title: String,
    cells: Vec<String>,
}

fn escape_input(input: &[u8]) -> String {
    let mut out = String::new();
    for &b in input {
        match b {
            b'\r' => out.push_str("\\r"),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            b'|' => out.push_str("\\|"),
            b'`' => out.push_str("\\x60"),
            0x20..=0x7e => out.push(char::from(b)),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out
}

/// How a peer's reading of a stream is written in a cell: the body length of each message it
/// read, then how the stream ended.
enum End<'a> {
    /// Every byte was read into messages.
    Closed,
    /// The stream ended inside a message.
    Incomplete,
    /// Rejected with this error.
    Reject(&'a str),
}

fn stream_cell(bodies: &[usize], end: End) -> String {
    let accepted = (!bodies.is_empty()).then(|| {
        let noun = if bodies.len() == 1 {
            "message"
        } else {
            "messages"
        };
        let lengths: Vec<String> = bodies.iter().map(usize::to_string).collect();
        format!("{} {noun}, body bytes {}", bodies.len(), lengths.join("+"))
    });
    match (end, accepted) {
        (End::Reject(code), None) => format!("reject `{code}`"),
        (End::Reject(code), Some(accepted)) => format!("{accepted}, then reject `{code}`"),
        (End::Incomplete, None) => "incomplete".into(),
        (End::Incomplete, Some(accepted)) => format!("{accepted}, then incomplete"),
        (End::Closed, None) => "no message".into(),
        (End::Closed, Some(accepted)) => accepted,
    }
}

/// httpspan's stream decoder on each row, with the lenient options `lenient`.
fn httpspan_column(title: &str, lenient: Leniency) -> Column {
    let cells = ROWS
        .iter()
        .map(|row| {
            let case = Case::unnamed(row.kind, row.input, lenient);
            let outcomes = decode_stream(&case, &[]).expect("the decoder keeps its contract");
            let bodies: Vec<usize> = outcomes
                .iter()
                .filter_map(|o| match o {
                    Outcome::Message(m) => Some(m.body.len()),
                    _ => None,
                })
                .collect();
            let end = match outcomes.last() {
                Some(Outcome::Reject { code, .. }) => End::Reject(code),
                Some(Outcome::Incomplete) => End::Incomplete,
                _ => End::Closed,
            };
            stream_cell(&bodies, end)
        })
        .collect();
    Column {
        title: title.into(),
        cells,
    }
}

/// httparse parses heads only: its verdict on the head, and for a chunked body (by its
/// Transfer-Encoding as read plainly), its `parse_chunk_size` on the first chunk line.
fn httparse_column() -> Column {
    let cells = ROWS
        .iter()
        .map(|row| match peers::httparse_head(row.kind, row.input) {
            peers::HeadResult::Complete(head) => {
                let chunked = head.fields.iter().any(|(n, v)| {
                    n.eq_ignore_ascii_case(b"transfer-encoding")
                        && v.to_ascii_lowercase().ends_with(b"chunked")
                });
                if !chunked {
                    return "head accepted".into();
                }
                match httparse::parse_chunk_size(&row.input[head.len..]) {
                    Ok(httparse::Status::Complete((_, size))) => {
                        format!("head accepted; first chunk-size {size}")
                    }
                    Ok(httparse::Status::Partial) => "head accepted; chunk-size partial".into(),
                    Err(e) => format!("head accepted; chunk-size error `{e:?}`"),
                }
            }
            peers::HeadResult::Partial => "partial".into(),
            peers::HeadResult::Error(e) => format!("reject `{e}`"),
        })
        .collect();
    Column {
        title: "httparse 1.10".into(),
        cells,
    }
}

/// Node's llhttp, as its http server and client use it (strict settings).
fn llhttp_column() -> Column {
    let batch: Vec<(MessageKind, &str, Vec<u8>)> = ROWS
        .iter()
        .map(|row| (row.kind, "GET", row.input.to_vec()))
        .collect();
    let cells = match peers::llhttp(&batch) {
        Ok(llhttp) => llhttp
            .results
            .iter()
            .map(|r| {
                let bodies: Vec<usize> = r
                    .messages
                    .iter()
                    .map(|m| peers::latin1(&m["body"]).len())
                    .collect();
                let end = match r.end.as_str() {
                    "error" => End::Reject(&r.code),
                    "incomplete" => End::Incomplete,
                    _ => End::Closed,
                };
                stream_cell(&bodies, end)
            })
            .collect(),
        Err(why) => {
            eprintln!("warning: llhttp column left empty: {why}");
            vec!["(node not found)".into(); ROWS.len()]
        }
    };
    Column {
        title: "llhttp (Node)".into(),
        cells,
    }
}

/// The columns, left to right.
fn columns() -> Vec<Column> {
    vec![
        httpspan_column("httpspan", Leniency::STRICT),
        // Every leniency option at once: what stays rejected however lenient a user makes it.
        httpspan_column("httpspan, all lenient options", every_option()),
        httparse_column(),
        llhttp_column(),
    ]
}

fn table() -> String {
    let columns = columns();
    let mut out = String::from("| input | bytes |");
    for c in &columns {
        out.push_str(&format!(" {} |", c.title));
    }
    out.push_str("\n| --- | --- |");
    for _ in &columns {
        out.push_str(" --- |");
    }
    out.push('\n');
    for (i, row) in ROWS.iter().enumerate() {
        let kind = match row.kind {
            MessageKind::Request => "",
            MessageKind::Response => " (response)",
        };
        out.push_str(&format!(
            "| {}{kind} | `{}` |",
            row.what.replace('|', "\\|"),
            escape_input(row.input)
        ));
        for c in &columns {
            out.push_str(&format!(" {} |", c.cells[i]));
        }
        out.push('\n');
    }
    out
}

/// For each error kind, the vectors whose stream httpspan rejects with it, grouped by the first
/// two parts of their ids.
fn rule_vectors() -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("vectors");
    let mut by_kind: BTreeMap<&str, BTreeMap<String, usize>> = BTreeMap::new();
    for case in load_dir(&dir).into_iter().flatten() {
        let outcomes = decode_stream(&case, &[]).expect("the decoder keeps its contract");
        if let Some(Outcome::Reject { code, .. }) = outcomes.last() {
            let group: Vec<&str> = case.id.split('/').take(2).collect();
            *by_kind
                .entry(code)
                .or_default()
                .entry(group.join("/"))
                .or_default() += 1;
        }
    }
    let mut out =
        String::from("| error kind | RFC | vectors rejected with it (id prefix: cases) |\n");
    out.push_str("| --- | --- | --- |\n");
    for kind in ErrorKind::ALL {
        let groups = match by_kind.get(kind.code()) {
            Some(groups) => groups
                .iter()
                .map(|(group, n)| format!("`{group}`: {n}"))
                .collect::<Vec<_>>()
                .join(", "),
            None => "none".into(),
        };
        out.push_str(&format!(
            "| `{}` | {} | {groups} |\n",
            kind.code(),
            kind.rfc()
        ));
    }
    out
}

/// `text` with the lines between `name`'s begin and end markers replaced by `content`.
fn replace_section(text: &str, name: &str, content: &str) -> Result<String, String> {
    let begin = format!("<!-- {name}:begin -->");
    let end = format!("<!-- {name}:end -->");
    let (Some(b), Some(e)) = (text.find(&begin), text.find(&end)) else {
        return Err(format!("no {begin} ... {end} section"));
    };
    let start = b + begin.len();
    Ok(format!("{}\n{content}{}", &text[..start], &text[e..]))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (check, path) = match args.as_slice() {
        [flag, path] if flag == "--check" => (true, path),
        [path] => (false, path),
        _ => {
            eprintln!("usage: matrix [--check] FILE");
            return ExitCode::from(2);
        }
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let updated = replace_section(&text, "smuggling-matrix", &table())
        .and_then(|t| replace_section(&t, "rule-vectors", &rule_vectors()));
    let updated = match updated {
        Ok(updated) => updated,
        Err(e) => {
            eprintln!("error: {path}: {e}");
            return ExitCode::from(2);
        }
    };
    if check {
        if updated != text {
            eprintln!(
                "error: the generated tables in {path} are not what the generator writes: \
                 run `make conformance-matrix`"
            );
            return ExitCode::FAILURE;
        }
        println!("{path}: the generated tables are up to date");
    } else if updated != text {
        if let Err(e) = std::fs::write(path, updated) {
            eprintln!("error: {path}: {e}");
            return ExitCode::from(2);
        }
        println!("{path}: generated tables written");
    }
    ExitCode::SUCCESS
}
