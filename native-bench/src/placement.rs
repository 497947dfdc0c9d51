//! The placement-robust method (`tables --placements`): one figure per row that the linker's
//! placement of the code and a single run's luck do not decide.
//!
//! The same instructions time differently at another address (a loop that crosses a 32- or
//! 64-byte boundary, a branch that aliases another in the predictor), and two runs of one binary
//! differ too. So the method builds `tables` several ways that only move the code, runs every
//! build several times, interleaved, and reports per row the geometric mean over all those runs,
//! with the smallest and largest ratio beside it:
//!
//! ```text
//! for each placement p: build tables with p's RUSTFLAGS into target/placement/<p>
//! for run in 0..runs:
//!     for each build, in an order that rotates with `run`: tables --json (one record)
//! per line of the table: geometric mean of httpspan's time, of the other's, and of the ratio
//! ```

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::report::Record;

/// The builds: a name and the flags that move the code and nothing else.
pub const PLACEMENTS: [(&str, &str); 4] = [
    ("default", ""),
    ("align-functions-32", "-C llvm-args=-align-all-functions=5"),
    ("align-functions-64", "-C llvm-args=-align-all-functions=6"),
    ("align-loops-64", "-C llvm-args=-align-loops=64"),
];

/// Builds `tables` once per placement under `target` and returns the binaries, in the order of
/// [`PLACEMENTS`]. `RUSTFLAGS` already set (a `target-cpu`, say) is kept in front of each build's.
pub fn build(root: &Path, target: &Path) -> Result<Vec<PathBuf>, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let base = std::env::var("RUSTFLAGS").unwrap_or_default();
    let mut binaries = Vec::new();
    for (name, flags) in PLACEMENTS {
        let dir = target.join("placement").join(name);
        eprintln!("building tables with placement {name} in {}", dir.display());
        let status = Command::new(&cargo)
            .args(["build", "--quiet", "--release", "-p", "native-bench"])
            .args(["--bin", "tables", "--target-dir"])
            .arg(&dir)
            .env("RUSTFLAGS", format!("{base} {flags}").trim())
            .current_dir(root)
            .status()
            .map_err(|e| format!("cannot run {cargo}: {e}"))?;
        if !status.success() {
            return Err(format!("the build with placement {name} failed"));
        }
        binaries.push(dir.join("release").join("tables"));
    }
    Ok(binaries)
}

/// Runs each binary `runs` times, `tables --json --rounds rounds`, interleaved: run `r` starts
/// with build `r % builds`, so that no build always runs first or last. Returns every record.
pub fn run(binaries: &[PathBuf], runs: usize, rounds: usize) -> Result<Vec<Record>, String> {
    let mut records = Vec::new();
    for r in 0..runs {
        for k in 0..binaries.len() {
            let binary = &binaries[(r + k) % binaries.len()];
            eprintln!("run {} of {runs}: {}", r + 1, binary.display());
            let out = Command::new(binary)
                .args(["--json", "--rounds", &rounds.to_string()])
                .output()
                .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
            if !out.status.success() {
                return Err(format!(
                    "{} failed: {}",
                    binary.display(),
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
            let value: serde_json::Value = serde_json::from_slice(&out.stdout)
                .map_err(|e| format!("{}: not JSON: {e}", binary.display()))?;
            records.push(Record::from_json(&value)?);
        }
    }
    Ok(records)
}

/// The geometric mean of `values`, which are all above 0.
pub fn geometric_mean(values: &[f64]) -> f64 {
    let logs: f64 = values.iter().map(|v| v.ln()).sum();
    (logs / values.len() as f64).exp()
}

/// One line of the summary: the geometric means over the records, and the ratio's range.
pub struct Summary {
    /// What is measured, the input and the competitor, as in a [`Record`]'s line.
    pub title: String,
    /// See `title`.
    pub input: String,
    /// See `title`.
    pub competitor: String,
    /// The geometric mean of httpspan's fastest-round time, ns per operation.
    pub ours_ns: f64,
    /// The same for the competitor.
    pub theirs_ns: f64,
    /// The geometric mean of the per-record ratios (the competitor's time over httpspan's).
    pub ratio: f64,
    /// The smallest and the largest per-record ratio.
    pub ratio_range: (f64, f64),
}

/// Summarises records of the same rows, line by line. Fails if they do not hold the same lines.
pub fn summarise(records: &[Record]) -> Result<Vec<Summary>, String> {
    let first = records.first().ok_or("no record")?;
    let mut summaries = Vec::new();
    for (i, line) in first.lines.iter().enumerate() {
        let mut ours = Vec::new();
        let mut theirs = Vec::new();
        let mut ratios = Vec::new();
        for record in records {
            let other = record
                .lines
                .get(i)
                .filter(|o| o.title == line.title && o.input == line.input)
                .ok_or("the records hold different rows")?;
            ours.push(other.ours.min_ns);
            theirs.push(other.theirs.min_ns);
            ratios.push(other.ratio());
        }
        let low = ratios.iter().copied().fold(f64::INFINITY, f64::min);
        let high = ratios.iter().copied().fold(0.0, f64::max);
        summaries.push(Summary {
            title: line.title.clone(),
            input: line.input.clone(),
            competitor: line.competitor.clone(),
            ours_ns: geometric_mean(&ours),
            theirs_ns: geometric_mean(&theirs),
            ratio: geometric_mean(&ratios),
            ratio_range: (low, high),
        });
    }
    Ok(summaries)
}

/// The summary as a markdown table, headed by the method and the machine.
pub fn markdown(records: &[Record], summaries: &[Summary]) -> String {
    let mut out = String::new();
    if let Some(first) = records.first() {
        let _ = writeln!(out, "- CPU: {}", first.cpu);
        let _ = writeln!(out, "- httpspan backend: {}", first.backend);
        let _ = writeln!(out, "- commit: {}", first.commit);
        let _ = writeln!(
            out,
            "- method: {} builds that only move the code ({}) x {} interleaved runs of {} \
             rounds; geometric means over the {} records",
            PLACEMENTS.len(),
            PLACEMENTS.map(|(name, _)| name).join(", "),
            records.len() / PLACEMENTS.len(),
            first.rounds,
            records.len()
        );
    }
    let _ = writeln!(out);
    out.push_str(
        "| row | input | httpspan ns/op | compared with | ns/op | ratio | ratio range |\n",
    );
    out.push_str("| --- | --- | ---: | --- | ---: | ---: | ---: |\n");
    for s in summaries {
        let _ = writeln!(
            out,
            "| {} | {} | {:.1} | {} | {:.1} | {:.2}x | {:.2}-{:.2}x |",
            s.title,
            s.input,
            s.ours_ns,
            s.competitor,
            s.theirs_ns,
            s.ratio,
            s.ratio_range.0,
            s.ratio_range.1
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::Timing;
    use crate::report::Line;

    fn record(ours: f64, theirs: f64) -> Record {
        let timing = |ns| Timing {
            min_ns: ns,
            median_ns: ns,
        };
        Record {
            cpu: "cpu".into(),
            backend: "avx2".into(),
            rustc: "rustc".into(),
            date: "2026-01-01".into(),
            commit: "c".into(),
            load: ("0".into(), "0".into()),
            rounds: 10,
            note: String::new(),
            lines: vec![Line {
                title: "request parse".into(),
                input: "small".into(),
                bytes: 35,
                ours: timing(ours),
                competitor: "httparse".into(),
                competitor_bytes: 35,
                theirs: timing(theirs),
            }],
        }
    }

    #[test]
    fn the_summary_is_the_geometric_mean_with_the_range() {
        // Ratios 2 and 0.5: their geometric mean is 1, where an arithmetic mean says 1.25.
        let records = [record(10.0, 20.0), record(40.0, 20.0)];
        let summary = &summarise(&records).unwrap()[0];
        assert!((summary.ratio - 1.0).abs() < 1e-12);
        assert!((summary.ours_ns - 20.0).abs() < 1e-9);
        assert!((summary.theirs_ns - 20.0).abs() < 1e-9);
        assert_eq!(summary.ratio_range, (0.5, 2.0));
        let table = markdown(&records, &summarise(&records).unwrap());
        assert!(table
            .contains("| request parse | small | 20.0 | httparse | 20.0 | 1.00x | 0.50-2.00x |"));
    }

    #[test]
    fn records_of_different_rows_are_refused() {
        let mut other = record(1.0, 1.0);
        other.lines[0].input = "large".into();
        assert!(summarise(&[record(1.0, 1.0), other]).is_err());
        assert!(summarise(&[]).is_err());
    }
}
