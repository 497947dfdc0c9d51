//! Times every case of every row, interleaved, so that a disturbance (another process, a
//! frequency change) lands on all of them alike instead of on whichever ran at that moment.

use std::time::{Duration, Instant};

use crate::Row;

/// The timings of one case, in nanoseconds per operation.
#[derive(Clone, Debug)]
pub struct Timing {
    /// The median over the rounds.
    pub median_ns: f64,
    /// The fastest round: what the tables report. On a shared machine a round can lose the CPU
    /// or share its caches with other work, which only ever adds time, so the fastest round is
    /// the closest to the cost of the code itself (the reasoning of Python's `timeit`).
    pub min_ns: f64,
}

/// How long a batch of calls should take; long enough for `Instant` to be precise.
const BATCH: Duration = Duration::from_micros(200);

/// How many calls of `run` take about [`BATCH`].
fn calibrate(run: &mut dyn FnMut()) -> u64 {
    let mut calls = 1u64;
    loop {
        let start = Instant::now();
        for _ in 0..calls {
            run();
        }
        let elapsed = start.elapsed();
        if elapsed >= BATCH / 4 {
            let per_call = elapsed.as_nanos() as f64 / calls as f64;
            return ((BATCH.as_nanos() as f64 / per_call) as u64).max(1);
        }
        calls *= 2;
    }
}

/// Times every case: `rounds` rounds, each running one batch of every case, in an order that
/// rotates from round to round. Returns, per row, httpspan's timing and then the competitors'.
pub fn measure(rows: &mut [Row], rounds: usize) -> Vec<Vec<Timing>> {
    let mut cases: Vec<_> = rows
        .iter_mut()
        .flat_map(|row| std::iter::once(&mut row.ours).chain(row.others.iter_mut()))
        .collect();
    let calls: Vec<u64> = cases.iter_mut().map(|c| calibrate(&mut c.run)).collect();
    let mut samples = vec![Vec::with_capacity(rounds); cases.len()];
    for round in 0..rounds {
        for k in 0..cases.len() {
            let i = (k + round) % cases.len();
            let case = &mut cases[i];
            let start = Instant::now();
            for _ in 0..calls[i] {
                (case.run)();
            }
            let elapsed = start.elapsed().as_nanos() as f64;
            samples[i].push(elapsed / (calls[i] as f64 * case.ops as f64));
        }
    }
    let mut timings = samples.into_iter().map(|mut s| {
        s.sort_by(f64::total_cmp);
        Timing {
            median_ns: s[s.len() / 2],
            min_ns: s[0],
        }
    });
    rows.iter()
        .map(|row| timings.by_ref().take(1 + row.others.len()).collect())
        .collect()
}

/// Heap allocations made by one call of each case, per row: httpspan's first, then the
/// competitors'. The closures were built before, so only the operation itself is counted.
pub fn allocations(rows: &mut [Row]) -> Vec<Vec<u64>> {
    rows.iter_mut()
        .map(|row| {
            std::iter::once(&mut row.ours)
                .chain(row.others.iter_mut())
                .map(|case| allocation_counter::measure(&mut case.run).count_total)
                .collect()
        })
        .collect()
}
