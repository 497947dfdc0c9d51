//! The conformance runner: reads every `*.jsonl` vector file under the directories given,
//! feeds each case's input through `httpspan::stream::Decoder` all at once, one byte at a time,
//! and at seeded random split points, and compares the outcomes with the case's `expect`.
//!
//! Usage: `conformance [--filter TEXT] DIR...`, or `conformance --list-backends` to print the
//! scanning backends this CPU can run (the environment variable `HTTPSPAN_BACKEND` picks one).
//!
//! A case's optional `options` list turns on lenient settings for it (see
//! tests/vectors-gen/README.md); an unknown option name makes the case FAIL.
//!
//! Prints `FAIL id: what differed` for each failing case and closes with `N passed, N failed`;
//! the backend used goes to stderr.
//! Exits with status 1 if any case failed, 2 on a usage error.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use conformance::{load_dir, run_case};

fn main() -> ExitCode {
    let mut dirs = Vec::new();
    let mut filter = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--filter" => filter = args.next(),
            "--list-backends" => {
                for name in httpspan::__backends::available() {
                    println!("{name}");
                }
                return ExitCode::SUCCESS;
            }
            "-h" | "--help" => {
                println!("usage: conformance [--filter TEXT] DIR...");
                return ExitCode::SUCCESS;
            }
            _ => dirs.push(PathBuf::from(arg)),
        }
    }
    if dirs.is_empty() {
        eprintln!("usage: conformance [--filter TEXT] DIR...");
        return ExitCode::from(2);
    }
    let (mut passed, mut failed) = (0usize, 0usize);
    for dir in &dirs {
        if !Path::new(dir).is_dir() {
            eprintln!("error: {} is not a directory", dir.display());
            return ExitCode::from(2);
        }
        for loaded in load_dir(dir) {
            let case = match loaded {
                Ok(case) => case,
                Err(problem) => {
                    println!("FAIL {}: invalid vector: {}", problem.id, problem.message);
                    failed += 1;
                    continue;
                }
            };
            if filter.as_deref().is_some_and(|f| !case.id.contains(f)) {
                continue;
            }
            match run_case(&case) {
                Ok(()) => passed += 1,
                Err(why) => {
                    println!("FAIL {}: {}", case.id, why);
                    failed += 1;
                }
            }
        }
    }
    eprintln!("scanning backend: {}", httpspan::backend_name());
    println!("{passed} passed, {failed} failed");
    if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
