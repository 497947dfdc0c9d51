//! The tables: markdown, JSON, and an SVG bar chart of the ratios.

use std::fmt::Write as _;

use crate::measure::Timing;
use crate::Row;

/// Where and how the figures were taken.
pub struct Machine {
    /// CPU model, from /proc/cpuinfo.
    pub cpu: String,
    /// httpspan's scanning backend.
    pub backend: &'static str,
    /// The compiler that built the benchmarks.
    pub rustc: &'static str,
    /// The 1-minute load average before and after the run.
    pub load: (String, String),
    /// Measurement rounds.
    pub rounds: usize,
}

impl Machine {
    /// Reads what it can about this machine; `load` is filled in by the caller.
    pub fn this(rounds: usize) -> Machine {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|info| {
                info.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split(':').nth(1))
                    .map(|m| m.trim().to_string())
            })
            .unwrap_or_else(|| "unknown CPU".into());
        let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
        Machine {
            cpu: format!("{cpu}, {cores} cores"),
            backend: httpspan::backend_name(),
            rustc: env!("BENCH_RUSTC_VERSION"),
            load: (load_average(), String::new()),
            rounds,
        }
    }
}

/// The 1-minute load average, or `?`.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".into())
}

/// One line of a table: httpspan against one competitor.
pub struct Line<'a> {
    /// What is measured.
    pub title: &'a str,
    /// The input.
    pub input: &'a str,
    /// httpspan's case name (`httpspan`).
    pub ours_name: &'a str,
    /// httpspan's time.
    pub ours: &'a Timing,
    /// The competitor.
    pub theirs_name: &'a str,
    /// The competitor's time.
    pub theirs: &'a Timing,
    /// Bytes per operation, 0 where throughput means nothing.
    pub bytes: usize,
    /// Bytes per operation of the competitor.
    pub their_bytes: usize,
}

impl Line<'_> {
    /// The competitor's time over httpspan's: above 1, httpspan is faster.
    pub fn ratio(&self) -> f64 {
        self.theirs.min_ns / self.ours.min_ns
    }
}

/// The rows as lines, one per competitor.
pub fn lines<'a>(rows: &'a [Row], timings: &'a [Vec<Timing>]) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    for (row, timing) in rows.iter().zip(timings) {
        for (other, theirs) in row.others.iter().zip(&timing[1..]) {
            lines.push(Line {
                title: row.title,
                input: &row.input,
                ours_name: row.ours.name,
                ours: &timing[0],
                theirs_name: other.name,
                theirs,
                bytes: row.ours.bytes,
                their_bytes: other.bytes,
            });
        }
    }
    lines
}

fn gib_per_s(bytes: usize, ns: f64) -> String {
    if bytes == 0 {
        "".into()
    } else {
        format!("{:.2}", bytes as f64 / ns / 1.073_741_824)
    }
}

fn ns(t: &Timing) -> String {
    if t.min_ns < 10.0 {
        format!("{:.2}", t.min_ns)
    } else {
        format!("{:.1}", t.min_ns)
    }
}

/// The markdown table with its header.
pub fn markdown(machine: &Machine, lines: &[Line]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "- CPU: {}", machine.cpu);
    let _ = writeln!(out, "- httpspan backend: {}", machine.backend);
    let _ = writeln!(out, "- compiler: {}", machine.rustc);
    let _ = writeln!(
        out,
        "- heap allocations per httpspan operation: 0 on every row (counted before timing)"
    );
    let _ = writeln!(
        out,
        "- load average (1 min) before / after: {} / {}",
        machine.load.0, machine.load.1
    );
    let _ = writeln!(
        out,
        "- method: {} interleaved rounds of ~0.2 ms batches per case; ns per operation of the \
         fastest round; ratio = other's time / httpspan's",
        machine.rounds
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "| row | input | httpspan ns/op | GiB/s | compared with | ns/op | GiB/s | ratio |"
    );
    let _ = writeln!(
        out,
        "| --- | --- | ---: | ---: | --- | ---: | ---: | ---: |"
    );
    for l in lines {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {:.2}x |",
            l.title,
            l.input,
            ns(l.ours),
            gib_per_s(l.bytes, l.ours.min_ns),
            l.theirs_name,
            ns(l.theirs),
            gib_per_s(l.their_bytes, l.theirs.min_ns),
            l.ratio()
        );
    }
    out
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The same figures as JSON.
pub fn json(machine: &Machine, lines: &[Line]) -> String {
    let mut out = String::from("{\n");
    let _ = writeln!(out, "  \"cpu\": {},", json_string(&machine.cpu));
    let _ = writeln!(out, "  \"backend\": {},", json_string(machine.backend));
    let _ = writeln!(out, "  \"rustc\": {},", json_string(machine.rustc));
    let _ = writeln!(
        out,
        "  \"load_average\": [{}, {}],",
        json_string(&machine.load.0),
        json_string(&machine.load.1)
    );
    let _ = writeln!(out, "  \"rounds\": {},", machine.rounds);
    out.push_str("  \"rows\": [\n");
    for (i, l) in lines.iter().enumerate() {
        let _ = write!(
            out,
            "    {{\"row\": {}, \"input\": {}, \"bytes\": {}, \"httpspan_median_ns\": {:.3}, \
             \"httpspan_min_ns\": {:.3}, \"competitor\": {}, \"competitor_median_ns\": {:.3}, \
             \"competitor_min_ns\": {:.3}, \"ratio\": {:.3}}}",
            json_string(l.title),
            json_string(l.input),
            l.bytes,
            l.ours.median_ns,
            l.ours.min_ns,
            json_string(l.theirs_name),
            l.theirs.median_ns,
            l.theirs.min_ns,
            l.ratio()
        );
        out.push_str(if i + 1 < lines.len() { ",\n" } else { "\n" });
    }
    out.push_str("  ]\n}\n");
    out
}

fn xml_text(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A horizontal bar chart of the ratios on a log scale, with the line at 1x (equal speed).
pub fn svg(machine: &Machine, lines: &[Line]) -> String {
    const PLOT: f64 = 420.0;
    // A generous average width of a character of these labels at 12 px sans-serif (not a bound:
    // a label of capitals would be wider): the label column is as wide as its longest label, so
    // that none runs off the left edge (the writer rows' are long).
    const CHAR_WIDTH: f64 = 6.5;
    const BAR: f64 = 18.0;
    const GAP: f64 = 6.0;
    const TOP: f64 = 50.0;
    let labels: Vec<String> = lines
        .iter()
        .map(|l| format!("{} · {} vs {}", l.title, l.input, l.theirs_name))
        .collect();
    let longest = labels.iter().map(|t| t.chars().count()).max().unwrap_or(0);
    let label_width = (longest as f64 * CHAR_WIDTH + 16.0).max(200.0);
    // Log scale from 1/32x to 32x.
    let x = |ratio: f64| label_width + PLOT * (ratio.log2().clamp(-5.0, 5.0) + 5.0) / 10.0;
    let height = TOP + lines.len() as f64 * (BAR + GAP) + 40.0;
    let width = label_width + PLOT + 80.0;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         font-family=\"sans-serif\" font-size=\"12\">"
    );
    let _ = writeln!(
        out,
        "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\
         <text x=\"10\" y=\"20\" font-size=\"14\">httpspan speed-up (other's time / httpspan's; \
         log scale, right of 1x is faster)</text>\
         <text x=\"10\" y=\"38\" fill=\"#555\">{} · backend {} · {}</text>",
        xml_text(&machine.cpu),
        machine.backend,
        xml_text(machine.rustc)
    );
    for (i, (l, label)) in lines.iter().zip(&labels).enumerate() {
        let y = TOP + i as f64 * (BAR + GAP);
        let (from, to) = (x(1.0), x(l.ratio()));
        let (left, w) = if to >= from {
            (from, to - from)
        } else {
            (to, from - to)
        };
        let colour = if l.ratio() >= 1.0 {
            "#2b8a3e"
        } else {
            "#c92a2a"
        };
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\
             <rect x=\"{left:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{BAR}\" fill=\"{colour}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\">{:.2}x</text>",
            label_width - 8.0,
            y + BAR - 5.0,
            xml_text(label),
            left + w + 4.0,
            y + BAR - 5.0,
            l.ratio()
        );
    }
    let bottom = TOP + lines.len() as f64 * (BAR + GAP);
    for tick in [1.0 / 16.0, 0.25, 1.0, 4.0, 16.0] {
        let _ = writeln!(
            out,
            "<line x1=\"{0:.1}\" y1=\"{TOP}\" x2=\"{0:.1}\" y2=\"{bottom:.1}\" stroke=\"#888\" \
             stroke-dasharray=\"{1}\"/><text x=\"{0:.1}\" y=\"{2:.1}\" text-anchor=\"middle\">{3}x</text>",
            x(tick),
            if tick == 1.0 { "none" } else { "3,3" },
            bottom + 16.0,
            tick
        );
    }
    out.push_str("</svg>\n");
    out
}
