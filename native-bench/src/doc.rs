//! The generated tables of docs/performance.md. Each region from a line
//! `<!-- table from native-bench/results/NAME.json -->` to the line `<!-- end of table -->`
//! is the table of that recorded run: a native record written by `tables --record`, or a wasm
//! record written by `native-bench/record-wasm.mjs`. [`render`] rewrites every region from its
//! file; the doc is checked by comparing it with its rendering.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::Value;

use crate::report::{self, Record};

const BEGIN: &str = "<!-- table from ";
const BEGIN_END: &str = " -->";
const END: &str = "<!-- end of table -->";

/// The doc with every generated region rendered again from its record, whose path is relative
/// to `root` (the workspace).
pub fn render(doc: &str, root: &Path) -> Result<String, String> {
    let mut out = String::new();
    let mut lines = doc.split_inclusive('\n');
    let mut regions = 0;
    while let Some(line) = lines.next() {
        out.push_str(line);
        let Some(file) = line
            .trim_end()
            .strip_prefix(BEGIN)
            .and_then(|rest| rest.strip_suffix(BEGIN_END))
        else {
            continue;
        };
        let text = std::fs::read_to_string(root.join(file))
            .map_err(|e| format!("cannot read {file}: {e}"))?;
        let record: Value =
            serde_json::from_str(&text).map_err(|e| format!("{file}: not JSON: {e}"))?;
        let table = table(&record).map_err(|e| format!("{file}: {e}"))?;
        out.push('\n');
        out.push_str(&table);
        out.push('\n');
        // Skip the old region up to its end marker, which is kept.
        loop {
            match lines.next() {
                Some(old) if old.trim_end() == END => {
                    out.push_str(old);
                    break;
                }
                Some(_) => {}
                None => return Err(format!("no `{END}` after the table from {file}")),
            }
        }
        regions += 1;
    }
    if regions == 0 {
        return Err(format!("no `{BEGIN}FILE{BEGIN_END}` line in the doc"));
    }
    Ok(out)
}

/// The markdown of one record, by its platform.
fn table(record: &Value) -> Result<String, String> {
    match record["platform"].as_str() {
        Some("native") => Ok(report::markdown(&Record::from_json(record)?)),
        Some("wasm") => wasm_markdown(record),
        _ => Err("`platform` is neither \"native\" nor \"wasm\"".into()),
    }
}

/// The table of a run of `wasm/bench/bench.mjs`: ns per parse of every contender (the fastest
/// batch), then the ratios as the bench printed them (from its unrounded times).
fn wasm_markdown(record: &Value) -> Result<String, String> {
    let field = |key: &str| {
        record[key]
            .as_str()
            .ok_or_else(|| format!("`{key}` missing or not a string"))
    };
    let names: Vec<&str> = record["contenders"]
        .as_array()
        .ok_or("`contenders` missing")?
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let ratios: Vec<(&str, &str)> = record["ratios"]
        .as_array()
        .ok_or("`ratios` missing")?
        .iter()
        .filter_map(|pair| Some((pair[0].as_str()?, pair[1].as_str()?)))
        .collect();
    let rows = record["rows"].as_array().ok_or("`rows` missing")?;
    let mut out = String::new();
    let _ = writeln!(out, "- runtime: {}", field("runtime")?);
    let _ = writeln!(out, "- CPU: {}", field("cpu")?);
    let _ = writeln!(out, "- httpspan module: {}", field("module")?);
    let _ = writeln!(
        out,
        "- load average (1 min) before / after: {} / {}",
        record["load_average"][0].as_str().unwrap_or("?"),
        record["load_average"][1].as_str().unwrap_or("?")
    );
    if let Some(note) = record["note"].as_str().filter(|n| !n.is_empty()) {
        let _ = writeln!(out, "- note: {note}");
    }
    let _ = writeln!(
        out,
        "- method: {} interleaved rounds of ~2 ms batches per contender; ns per parse of the \
         fastest batch; a ratio is the first's time over the second's",
        record["rounds"]
    );
    let _ = writeln!(out);
    let mut head = String::from("| input |");
    let mut rule = String::from("| --- |");
    for name in &names {
        let _ = write!(head, " {name} |");
        rule.push_str(" ---: |");
    }
    for (a, b) in &ratios {
        let _ = write!(head, " {a} / {b} |");
        rule.push_str(" ---: |");
    }
    let _ = writeln!(out, "{head}\n{rule}");
    for row in rows {
        let input = row["input"].as_str().ok_or("a row without `input`")?;
        let ns = |name: &str| row["min_ns"][name].as_f64();
        let _ = write!(out, "| {input} |");
        for name in &names {
            match ns(name) {
                Some(t) => write!(out, " {t:.0} |"),
                None => write!(out, " |"),
            }
            .expect("writing to a String");
        }
        for i in 0..ratios.len() {
            match row["ratios"][i].as_f64() {
                Some(ratio) => write!(out, " {ratio:.2}x |"),
                None => write!(out, " |"),
            }
            .expect("writing to a String");
        }
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::Timing;
    use crate::report::Line;

    fn record() -> Record {
        let timing = |min_ns| Timing {
            min_ns,
            median_ns: min_ns + 1.0,
        };
        Record {
            cpu: "a CPU, 2 cores".into(),
            backend: "avx2".into(),
            rustc: "rustc 1.0.0".into(),
            date: "2026-01-01".into(),
            commit: "0".repeat(40),
            load: ("0.10".into(), "0.20".into()),
            rounds: 3,
            note: String::new(),
            lines: vec![Line {
                title: "request parse".into(),
                input: "small (35 B)".into(),
                bytes: 35,
                ours: timing(20.0),
                competitor: "httparse".into(),
                competitor_bytes: 35,
                theirs: timing(30.0),
            }],
        }
    }

    /// A record read back from its JSON renders as the run printed it, and a doc's region is
    /// replaced by that table while the text around it stays.
    #[test]
    fn a_region_is_the_table_of_its_record() {
        let record = record();
        let json = record.to_json();
        let value: Value = serde_json::from_str(&json).unwrap();
        let table = report::markdown(&Record::from_json(&value).unwrap());
        assert_eq!(table, report::markdown(&record));
        assert!(table.contains(
            "| request parse | small (35 B) | 20.0 | 1.63 | httparse | 30.0 | 1.09 | 1.50x |"
        ));

        let dir = std::env::temp_dir().join(format!("native-bench-doc-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("run.json"), json).unwrap();
        let doc =
            format!("# Title\n\ntext\n\n{BEGIN}run.json{BEGIN_END}\nstale table\n{END}\nafter\n");
        let rendered = render(&doc, &dir).unwrap();
        assert_eq!(
            rendered,
            format!("# Title\n\ntext\n\n{BEGIN}run.json{BEGIN_END}\n\n{table}\n{END}\nafter\n")
        );
        assert_eq!(render(&rendered, &dir).unwrap(), rendered);
        assert!(render("no region\n", &dir).is_err());
        assert!(render(&format!("{BEGIN}run.json{BEGIN_END}\nno end\n"), &dir).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
