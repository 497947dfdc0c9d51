//! The terminal inspector: shows how httpspan sees a stream of HTTP/1.1 messages.
//!
//! ```text
//! cargo run -p httpspan --example inspect -- [--request | --response] [--method M]
//!     [--lenient NAME]... [FILE]
//! ```
//!
//! Reads FILE (or standard input) as the raw bytes of one connection, and prints each message's
//! parts and fields with their spans (`offset+length`, counted from the start of the input),
//! the known-header slots, the framing and the body. For an error it prints the offending line
//! with a caret under the byte, the error kind, the status a server should answer, and the RFC
//! section. The kind of message is guessed from the first bytes unless given. Each
//! `--lenient NAME` turns on one lenient option (`bare_lf`, `obs_fold`, ...: see
//! docs/leniency.md); an obs-folded value is shown raw and unfolded.

use std::fmt::Write as _;
use std::io::Read as _;
use std::process::ExitCode;

use httpspan::stream::{Decoder, Event, MessageKind, DEFAULT_BUFFER_LEN};
use httpspan::{Error, Field, KnownHeader, Leniency, Limits, Span};

const USAGE: &str =
    "usage: inspect [--request | --response] [--method M] [--lenient NAME]... [FILE]";

/// What the command line asks for.
pub struct Args {
    /// Requests or responses; guessed from the input when `None`.
    pub kind: Option<MessageKind>,
    /// The method the responses answer.
    pub method: Vec<u8>,
    /// The input file, or standard input when `None`.
    pub path: Option<String>,
    /// The limits, with the lenient options asked for.
    pub limits: Limits,
    /// `--help` was given.
    pub help: bool,
}

/// Reads the arguments (without the program name). `Err` says what is wrong.
pub fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Args, String> {
    let mut parsed = Args {
        kind: None,
        method: b"GET".to_vec(),
        path: None,
        limits: Limits::DEFAULT,
        help: false,
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--request" => parsed.kind = Some(MessageKind::Request),
            "--response" => parsed.kind = Some(MessageKind::Response),
            "--method" => parsed.method = args.next().unwrap_or_default().into_bytes(),
            "--lenient" => {
                let name = args.next().unwrap_or_default();
                if !parsed.limits.lenient.enable(&name) {
                    return Err(format!(
                        "unknown lenient option {name:?}; one of {}",
                        Leniency::NAMES.join(", ")
                    ));
                }
            }
            "-h" | "--help" => parsed.help = true,
            _ => parsed.path = Some(arg),
        }
    }
    Ok(parsed)
}

fn main() -> ExitCode {
    let Args {
        kind,
        method,
        path,
        limits,
        help,
    } = match parse_args(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(e) => {
            eprintln!("error: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if help {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let input = match &path {
        Some(p) => std::fs::read(p).map_err(|e| format!("{p}: {e}")),
        None => {
            let mut buf = Vec::new();
            std::io::stdin()
                .read_to_end(&mut buf)
                .map(|_| buf)
                .map_err(|e| format!("stdin: {e}"))
        }
    };
    let input = match input {
        Ok(input) => input,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let kind = kind.unwrap_or(if input.starts_with(b"HTTP/") {
        MessageKind::Response
    } else {
        MessageKind::Request
    });
    let mut out = String::new();
    let ok = inspect(&input, kind, &method, &limits, &mut out);
    print!("{out}");
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Decodes `input` with `limits` and writes the report; returns false if the input was
/// rejected. (Public so that `tests/inspect.rs` can check the report.)
pub fn inspect(
    input: &[u8],
    kind: MessageKind,
    method: &[u8],
    limits: &Limits,
    out: &mut String,
) -> bool {
    let on: Vec<&str> = Leniency::NAMES
        .into_iter()
        .filter(|name| {
            // An option is on when turning it on changes nothing.
            let mut with = limits.lenient;
            with.enable(name);
            with == limits.lenient
        })
        .collect();
    if !on.is_empty() {
        let _ = writeln!(out, "lenient: {}", on.join(", "));
    }
    let mut decoder = Decoder::new(kind, vec![0u8; DEFAULT_BUFFER_LEN], *limits);
    decoder.set_request_method(method);
    let mut rest = input;
    let mut count = 0;
    let mut body = BodySummary::default();
    loop {
        let step = if rest.is_empty() {
            decoder.finish().map(|e| (0, e))
        } else {
            decoder.decode(rest)
        };
        let (used, event) = match step {
            Ok(step) => step,
            Err(e) => {
                error_report(input, &e, out);
                return false;
            }
        };
        match event {
            Event::Head => {
                count += 1;
                body = BodySummary::default();
                head_report(&decoder, count, out);
            }
            Event::Body(range) => {
                let at = (input.len() - rest.len() + range.start) as u64;
                body.add(at, &rest[range]);
            }
            Event::Trailers => {
                // The body comes before its trailers on the wire, and in the report.
                body.report(out);
                let base = decoder.trailer_offset();
                let buf = decoder.trailer_bytes();
                let _ = writeln!(
                    out,
                    "  trailers   {} at byte {base}",
                    decoder.trailers().fields().len()
                );
                fields_report(decoder.trailers().fields(), buf, base, out);
            }
            Event::MessageEnd => body.report(out),
            Event::Closed => {
                let left = input.len() as u64 - decoder.position();
                if left > 0 {
                    let _ = writeln!(out, "\n{left} bytes after the last message are not HTTP/1.1 to this decoder (connection closed or switched protocols)");
                }
                break;
            }
            Event::Incomplete => {
                let _ = writeln!(
                    out,
                    "\nincomplete: the input ends inside message {}",
                    count.max(1)
                );
                break;
            }
            // NeedMore, and events this inspector does not show.
            _ => {}
        }
        rest = &rest[used..];
    }
    if count == 0 {
        out.push_str("no message in the input\n");
    }
    true
}

/// The body of the current message: its length, where it starts, and its first bytes.
#[derive(Default)]
struct BodySummary {
    len: u64,
    start: Option<u64>,
    preview: Vec<u8>,
    reported: bool,
}

impl BodySummary {
    fn add(&mut self, at: u64, bytes: &[u8]) {
        self.start.get_or_insert(at);
        self.len += bytes.len() as u64;
        let room = 64usize.saturating_sub(self.preview.len());
        self.preview.extend(bytes.iter().take(room));
    }

    /// Writes the body line, once per message.
    fn report(&mut self, out: &mut String) {
        if std::mem::replace(&mut self.reported, true) {
            return;
        }
        match self.start {
            Some(start) => {
                let preview = escape(&self.preview, 64);
                let _ = writeln!(
                    out,
                    "  body       {} bytes, first at byte {start}: {preview}",
                    self.len
                );
            }
            None => out.push_str("  body       none\n"),
        }
    }
}

fn head_report<B: AsRef<[u8]> + AsMut<[u8]>>(decoder: &Decoder<B>, n: usize, out: &mut String) {
    let buf = decoder.head_bytes();
    let base = decoder.message_offset();
    let span = |s: Span| format!("{}+{}", base + u64::from(s.off), s.len);
    let (fields, bitmap, index, framing, keep_alive, chunked, length) =
        if let Some(req) = decoder.request() {
            let _ = writeln!(
                out,
                "request {n}: head of {} bytes at byte {base}",
                buf.len()
            );
            let _ = writeln!(
                out,
                "  method     {:<11} {}",
                span(req.method()),
                escape(req.method().as_bytes(buf), 200)
            );
            let _ = writeln!(
                out,
                "  target     {:<11} {}",
                span(req.target()),
                escape(req.target().as_bytes(buf), 200)
            );
            let _ = writeln!(out, "  version    {:<11} {}", "", req.version().as_str());
            let index = known_slots(|k| req.known_index(k));
            (
                req.fields(),
                req.known_bitmap(),
                index,
                req.framing(),
                req.keep_alive(),
                req.is_chunked(),
                req.content_length(),
            )
        } else if let Some(res) = decoder.response() {
            let _ = writeln!(
                out,
                "response {n}: head of {} bytes at byte {base}",
                buf.len()
            );
            let _ = writeln!(out, "  version    {:<11} {}", "", res.version().as_str());
            let _ = writeln!(out, "  status     {:<11} {}", "", res.status());
            let _ = writeln!(
                out,
                "  reason     {:<11} {}",
                span(res.reason()),
                escape(res.reason().as_bytes(buf), 200)
            );
            let index = known_slots(|k| res.known_index(k));
            (
                res.fields(),
                res.known_bitmap(),
                index,
                res.framing(),
                res.keep_alive(),
                res.is_chunked(),
                res.content_length(),
            )
        } else {
            return;
        };
    let _ = writeln!(out, "  fields     {}", fields.len());
    fields_report(fields, buf, base, out);
    let present: Vec<String> = index
        .iter()
        .map(|(k, i)| format!("{}=#{i}", k.name()))
        .collect();
    let _ = writeln!(
        out,
        "  known      bitmap {bitmap:#018x}: {}",
        if present.is_empty() {
            "none".into()
        } else {
            present.join(" ")
        }
    );
    let length = length.map_or("none".to_string(), |n| n.to_string());
    let _ = writeln!(out, "  framing    {framing:?}, content-length {length}, chunked {chunked}, keep-alive {keep_alive}");
}

/// The known headers present, with the index of their first field, from the parser's O(1)
/// index.
fn known_slots(index_of: impl Fn(KnownHeader) -> Option<usize>) -> Vec<(KnownHeader, usize)> {
    KnownHeader::ALL
        .iter()
        .filter_map(|&k| Some((k, index_of(k)?)))
        .collect()
}

fn fields_report(fields: &[Field], buf: &[u8], base: u64, out: &mut String) {
    for (i, f) in fields.iter().enumerate() {
        let at = |s: Span| format!("{}+{}", base + u64::from(s.off), s.len);
        let known = f.known().map_or(String::new(), |k| {
            format!("  [known slot {}: {}]", k.slot(), k.name())
        });
        let value = f.value.as_bytes(buf);
        let _ = writeln!(
            out,
            "    #{i:<3} {:<11} {:<11} {}: {}{known}",
            at(f.name),
            at(f.value),
            escape(f.name.as_bytes(buf), 60),
            escape(value, 80),
        );
        if value.iter().any(|&b| b == b'\r' || b == b'\n') {
            let unfolded = httpspan::unfold(value).collect::<Vec<_>>().concat();
            let _ = writeln!(out, "         unfolded {}", escape(&unfolded, 80));
        }
    }
}

/// Prints the line holding the error with a caret under the offending byte.
fn error_report(input: &[u8], e: &Error, out: &mut String) {
    let offset = e.offset().min(input.len());
    let line_start = input[..offset]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line_end = input[offset..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(input.len(), |i| offset + i + 1);
    let line_no = input[..line_start].iter().filter(|&&b| b == b'\n').count() + 1;
    let before = escape_raw(&input[line_start..offset]);
    let shown = escape_raw(&input[line_start..line_end]);
    let _ = writeln!(
        out,
        "error: {} ({}, {})",
        e.message(),
        e.kind().code(),
        e.rfc()
    );
    let _ = writeln!(out, "  a server answers {}", e.status());
    let _ = writeln!(
        out,
        "  at byte {}, line {line_no}, column {}",
        e.offset(),
        offset - line_start + 1
    );
    let gutter = line_no.to_string().len();
    let _ = writeln!(out, "  {:gutter$} |", "");
    let _ = writeln!(out, "  {line_no} | {shown}");
    let _ = writeln!(
        out,
        "  {:gutter$} | {}^",
        "",
        " ".repeat(before.chars().count())
    );
}

fn escape_raw(bytes: &[u8]) -> String {
    let mut s = String::new();
    for &b in bytes {
        match b {
            b'\r' => s.push_str("\\r"),
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            0x20..=0x7e => s.push(b as char),
            _ => {
                let _ = write!(s, "\\x{b:02x}");
            }
        }
    }
    s
}

fn escape(bytes: &[u8], max: usize) -> String {
    let mut s = format!("\"{}\"", escape_raw(&bytes[..bytes.len().min(max)]));
    if bytes.len() > max {
        let _ = write!(s, "... ({} bytes)", bytes.len());
    }
    s
}
