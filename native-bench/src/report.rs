//! A run of the tables as a [`Record`]: the JSON kept in `native-bench/results/`, the markdown
//! table and the SVG bar chart of the ratios, all made from the record so that a table printed
//! by a run and the one rendered later from its file are the same text.

use std::fmt::Write as _;

use serde_json::{json, Value};

use crate::measure::Timing;
use crate::Row;

/// One run of the tables: where and how it was taken, and one line per competitor of each row.
pub struct Record {
    /// CPU model from /proc/cpuinfo, and the number of cores.
    pub cpu: String,
    /// httpspan's scanning backend.
    pub backend: String,
    /// The compiler that built the benchmarks.
    pub rustc: String,
    /// The day of the run, `YYYY-MM-DD` (UTC).
    pub date: String,
    /// The commit measured, with `+dirty` when the tree had changes.
    pub commit: String,
    /// The 1-minute load average before and after the run.
    pub load: (String, String),
    /// Measurement rounds.
    pub rounds: usize,
    /// What else to know about the run (other work on the machine, say); may be empty.
    pub note: String,
    /// httpspan against one competitor per line.
    pub lines: Vec<Line>,
}

/// One line of a table: httpspan against one competitor.
pub struct Line {
    /// What is measured.
    pub title: String,
    /// The input.
    pub input: String,
    /// Bytes per operation, 0 where throughput means nothing.
    pub bytes: usize,
    /// httpspan's time.
    pub ours: Timing,
    /// The competitor.
    pub competitor: String,
    /// Bytes per operation of the competitor.
    pub competitor_bytes: usize,
    /// The competitor's time.
    pub theirs: Timing,
}

impl Line {
    /// The competitor's time over httpspan's: above 1, httpspan is faster.
    pub fn ratio(&self) -> f64 {
        self.theirs.min_ns / self.ours.min_ns
    }
}

/// The rows' timings as lines, one per competitor.
pub fn lines(rows: &[Row], timings: &[Vec<Timing>]) -> Vec<Line> {
    let mut lines = Vec::new();
    for (row, timing) in rows.iter().zip(timings) {
        for (other, theirs) in row.others.iter().zip(&timing[1..]) {
            lines.push(Line {
                title: row.title.into(),
                input: row.input.clone(),
                bytes: row.ours.bytes,
                ours: timing[0].clone(),
                competitor: other.name.into(),
                competitor_bytes: other.bytes,
                theirs: theirs.clone(),
            });
        }
    }
    lines
}

/// The CPU model and the number of cores of this machine.
pub fn this_cpu() -> String {
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
    format!("{cpu}, {cores} cores")
}

/// The 1-minute load average, or `?`.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".into())
}

/// Today's date in UTC, `YYYY-MM-DD`.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Days since 1970-01-01 to a civil date (Howard Hinnant's `civil_from_days`).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The commit of the working tree, with `+dirty` when it has changes, or `unknown`.
pub fn this_commit() -> String {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .ok()
            .filter(|out| out.status.success())
            .and_then(|out| String::from_utf8(out.stdout).ok())
    };
    match git(&["rev-parse", "HEAD"]) {
        Some(commit) => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.trim().is_empty());
            format!("{}{}", commit.trim(), if dirty { "+dirty" } else { "" })
        }
        None => "unknown".into(),
    }
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn timing_json(t: &Timing) -> Value {
    json!({ "min_ns": round3(t.min_ns), "median_ns": round3(t.median_ns) })
}

fn text(v: &Value, key: &str) -> Result<String, String> {
    v[key]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("`{key}` missing or not a string"))
}

fn number(v: &Value, key: &str) -> Result<f64, String> {
    v[key]
        .as_f64()
        .ok_or_else(|| format!("`{key}` missing or not a number"))
}

fn timing(v: &Value, key: &str) -> Result<Timing, String> {
    Ok(Timing {
        min_ns: number(&v[key], "min_ns")?,
        median_ns: number(&v[key], "median_ns")?,
    })
}

impl Record {
    /// The record as the JSON kept in `native-bench/results/`.
    pub fn to_json(&self) -> String {
        let rows: Vec<Value> = self
            .lines
            .iter()
            .map(|l| {
                json!({
                    "row": l.title,
                    "input": l.input,
                    "bytes": l.bytes,
                    "httpspan": timing_json(&l.ours),
                    "competitor": l.competitor,
                    "competitor_bytes": l.competitor_bytes,
                    "competitor_timing": timing_json(&l.theirs),
                })
            })
            .collect();
        let record = json!({
            "platform": "native",
            "cpu": self.cpu,
            "backend": self.backend,
            "rustc": self.rustc,
            "date": self.date,
            "commit": self.commit,
            "load_average": [self.load.0, self.load.1],
            "rounds": self.rounds,
            "note": self.note,
            "rows": rows,
        });
        let mut out = serde_json::to_string_pretty(&record).expect("a JSON value serialises");
        out.push('\n');
        out
    }

    /// Reads a record written by [`Record::to_json`].
    pub fn from_json(v: &Value) -> Result<Record, String> {
        let rows = v["rows"].as_array().ok_or("`rows` missing")?;
        let lines = rows
            .iter()
            .map(|r| {
                Ok(Line {
                    title: text(r, "row")?,
                    input: text(r, "input")?,
                    bytes: number(r, "bytes")? as usize,
                    ours: timing(r, "httpspan")?,
                    competitor: text(r, "competitor")?,
                    competitor_bytes: number(r, "competitor_bytes")? as usize,
                    theirs: timing(r, "competitor_timing")?,
                })
            })
            .collect::<Result<_, String>>()?;
        let load = |i: usize| v["load_average"][i].as_str().unwrap_or("?").to_string();
        Ok(Record {
            cpu: text(v, "cpu")?,
            backend: text(v, "backend")?,
            rustc: text(v, "rustc")?,
            date: text(v, "date")?,
            commit: text(v, "commit")?,
            load: (load(0), load(1)),
            rounds: number(v, "rounds")? as usize,
            note: text(v, "note")?,
            lines,
        })
    }
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

/// The markdown table with its header: the machine and the method, then one line per
/// competitor. The date and commit stay in the record.
pub fn markdown(record: &Record) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "- CPU: {}", record.cpu);
    let _ = writeln!(out, "- httpspan backend: {}", record.backend);
    let _ = writeln!(out, "- compiler: {}", record.rustc);
    let _ = writeln!(
        out,
        "- heap allocations per httpspan operation: 0 on every row (counted before timing)"
    );
    let _ = writeln!(
        out,
        "- load average (1 min) before / after: {} / {}",
        record.load.0, record.load.1
    );
    if !record.note.is_empty() {
        let _ = writeln!(out, "- note: {}", record.note);
    }
    let _ = writeln!(
        out,
        "- method: {} interleaved rounds of ~0.2 ms batches per case; ns per operation of the \
         fastest round; ratio = other's time / httpspan's",
        record.rounds
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
    for l in &record.lines {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {:.2}x |",
            l.title,
            l.input,
            ns(&l.ours),
            gib_per_s(l.bytes, l.ours.min_ns),
            l.competitor,
            ns(&l.theirs),
            gib_per_s(l.competitor_bytes, l.theirs.min_ns),
            l.ratio()
        );
    }
    out
}

fn xml_text(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A horizontal bar chart of the ratios on a log scale, with the line at 1x (equal speed).
pub fn svg(record: &Record) -> String {
    const PLOT: f64 = 420.0;
    // A generous average width of a character of these labels at 12 px sans-serif (not a bound:
    // a label of capitals would be wider): the label column is as wide as its longest label, so
    // that none runs off the left edge (the writer rows' are long).
    const CHAR_WIDTH: f64 = 6.5;
    const BAR: f64 = 18.0;
    const GAP: f64 = 6.0;
    const TOP: f64 = 50.0;
    let lines = &record.lines;
    let labels: Vec<String> = lines
        .iter()
        .map(|l| format!("{} · {} vs {}", l.title, l.input, l.competitor))
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
        xml_text(&record.cpu),
        xml_text(&record.backend),
        xml_text(&record.rustc)
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
