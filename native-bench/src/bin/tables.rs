//! Measures every benchmark row, interleaved, in one run and prints the table.
//!
//! Usage: `cargo run --release -p native-bench --bin tables [--json] [--svg FILE] [--rounds N]`
//!
//! Prints a markdown table (ns per operation, GiB/s, and each competitor's time over httpspan's)
//! headed by the CPU, httpspan's backend and the compiler; `--json` prints the same as JSON;
//! `--svg FILE` also writes a bar chart of the ratios. Before timing, it checks that no
//! httpspan case allocates, and fails if one does.

use std::process::ExitCode;

use native_bench::measure::{allocations, measure};
use native_bench::report::{self, load_average, Machine};

fn usage() -> ExitCode {
    eprintln!("usage: tables [--json] [--svg FILE] [--rounds N]");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let (mut json, mut svg, mut rounds) = (false, None, 200);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--json" => json = true,
            "--svg" => match args.next() {
                Some(file) => svg = Some(file),
                None => return usage(),
            },
            "--rounds" => match args.next().and_then(|n| n.parse::<usize>().ok()) {
                Some(n) if n > 0 => rounds = n,
                _ => return usage(),
            },
            _ => return usage(),
        }
    }
    let mut machine = Machine::this(rounds);
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
    machine.load.1 = load_average();
    let lines = report::lines(&rows, &timings);
    if json {
        print!("{}", report::json(&machine, &lines));
    } else {
        print!("{}", report::markdown(&machine, &lines));
    }
    if let Some(file) = svg {
        if let Err(e) = std::fs::write(&file, report::svg(&machine, &lines)) {
            eprintln!("error: cannot write {file}: {e}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
