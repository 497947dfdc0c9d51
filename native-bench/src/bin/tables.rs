//! Measures every benchmark row, interleaved, in one run and prints the table; or renders the
//! tables of docs/performance.md from the recorded runs.
//!
//! Usage:
//! - `tables [--rounds N] [--json] [--record] [--note TEXT] [--svg FILE]`: measures. Prints a
//!   markdown table (ns per operation, GiB/s, and each competitor's time over httpspan's) headed
//!   by the CPU, httpspan's backend and the compiler; `--json` prints the run's record instead
//!   (the same with the date, the commit and the median round); `--record` also writes the
//!   record to `native-bench/results/native-ARCH.json`, the data the doc's table is made from;
//!   `--note` adds a sentence about the run to the record; `--svg FILE` writes a bar chart of
//!   the ratios. Before timing, it checks that no httpspan case allocates, and fails if one does.
//! - `tables --placements [--runs N] [--rounds N]`: the placement-robust method (see
//!   [`native_bench::placement`]): builds this binary four ways that only move the code, runs
//!   each build N times (default 3), interleaved, and prints each row's geometric mean over
//!   those runs with the range of its ratio. What a before/after claim of a few percent needs.
//! - `tables --render-doc DOC`: rewrites DOC's generated tables from the records they name.
//! - `tables --check-doc DOC`: fails when DOC's generated tables differ from their records.

use std::path::Path;
use std::process::ExitCode;

use native_bench::measure::{allocations, measure};
use native_bench::placement;
use native_bench::report::{self, load_average, Record};

/// The workspace, which the records' paths are relative to.
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

fn usage() -> ExitCode {
    eprintln!(
        "usage: tables [--rounds N] [--json] [--record] [--note TEXT] [--svg FILE]\n       \
         tables --placements [--runs N] [--rounds N]\n       \
         tables --render-doc DOC | --check-doc DOC"
    );
    ExitCode::from(2)
}

/// Renders DOC's tables from their records, and writes DOC (`check` false) or compares it.
fn render_doc(doc: &str, check: bool) -> ExitCode {
    let text = match std::fs::read_to_string(doc) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: cannot read {doc}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let rendered = match native_bench::doc::render(&text, Path::new(ROOT)) {
        Ok(rendered) => rendered,
        Err(e) => {
            eprintln!("error: {doc}: {e}");
            return ExitCode::FAILURE;
        }
    };
    if check {
        if rendered != text {
            eprintln!(
                "error: the tables of {doc} differ from their records in native-bench/results/; \
                 run `make bench-doc`"
            );
            return ExitCode::FAILURE;
        }
        println!("the tables of {doc} match their records");
    } else if let Err(e) = std::fs::write(doc, rendered) {
        eprintln!("error: cannot write {doc}: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// The placement-robust method: every placement's build, `runs` interleaved runs each.
fn placements(runs: usize, rounds: usize) -> ExitCode {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| Path::new(ROOT).join("target"), Into::into);
    let outcome = placement::build(Path::new(ROOT), &target)
        .and_then(|binaries| placement::run(&binaries, runs, rounds))
        .and_then(|records| {
            placement::summarise(&records).map(|s| placement::markdown(&records, &s))
        });
    match outcome {
        Ok(table) => {
            print!("{table}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    let (mut json, mut record_file, mut note, mut svg, mut rounds) =
        (false, false, String::new(), None, 200);
    let (mut placement_runs, mut by_placement) = (3, false);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--json" => json = true,
            "--record" => record_file = true,
            "--note" => match args.next() {
                Some(text) => note = text,
                None => return usage(),
            },
            "--svg" => match args.next() {
                Some(file) => svg = Some(file),
                None => return usage(),
            },
            "--rounds" => match args.next().and_then(|n| n.parse::<usize>().ok()) {
                Some(n) if n > 0 => rounds = n,
                _ => return usage(),
            },
            "--placements" => by_placement = true,
            "--runs" => match args.next().and_then(|n| n.parse::<usize>().ok()) {
                Some(n) if n > 0 => placement_runs = n,
                _ => return usage(),
            },
            "--render-doc" | "--check-doc" => {
                return match args.next() {
                    Some(doc) => render_doc(&doc, arg == "--check-doc"),
                    None => usage(),
                }
            }
            _ => return usage(),
        }
    }
    if by_placement {
        return placements(placement_runs, rounds);
    }
    let load_before = load_average();
    let mut rows = native_bench::rows();
    // httpspan never allocates: a row where it does is a bug, not a figure.
    let counts = allocations(&mut rows);
    for (row, counts) in rows.iter().zip(counts) {
        if counts[0] != 0 {
            eprintln!(
                "error: {} / {}: httpspan allocated {} times",
                row.title, row.input, counts[0]
            );
            return ExitCode::FAILURE;
        }
    }
    let timings = measure(&mut rows, rounds);
    let record = Record {
        cpu: report::this_cpu(),
        backend: httpspan::backend_name().into(),
        rustc: env!("BENCH_RUSTC_VERSION").into(),
        date: report::today(),
        commit: report::this_commit(),
        load: (load_before, load_average()),
        rounds,
        note,
        lines: report::lines(&rows, &timings),
    };
    if json {
        print!("{}", record.to_json());
    } else {
        print!("{}", report::markdown(&record));
    }
    if record_file {
        let file = format!(
            "{ROOT}/native-bench/results/native-{}.json",
            std::env::consts::ARCH
        );
        if let Err(e) = std::fs::write(&file, record.to_json()) {
            eprintln!("error: cannot write {file}: {e}");
            return ExitCode::FAILURE;
        }
        eprintln!(
            "recorded in native-bench/results/native-{}.json",
            std::env::consts::ARCH
        );
    }
    if let Some(file) = svg {
        if let Err(e) = std::fs::write(&file, report::svg(&record)) {
            eprintln!("error: cannot write {file}: {e}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
