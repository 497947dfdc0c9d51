//! The rows of the tables, one criterion benchmark per case:
//! `cargo bench -p native-bench` (all) or `cargo bench -p native-bench -- 'request parse'`.

use criterion::{criterion_main, Criterion, Throughput};

fn all_rows(c: &mut Criterion) {
    for row in native_bench::rows() {
        let mut group = c.benchmark_group(format!("{} / {}", row.title, row.input));
        for mut case in std::iter::once(row.ours).chain(row.others) {
            if case.bytes > 0 {
                group.throughput(Throughput::Bytes(case.bytes as u64));
            }
            group.bench_function(case.name, |b| b.iter(&mut case.run));
        }
        group.finish();
    }
}

// criterion_group! defines an undocumented function.
#[allow(missing_docs)]
mod group {
    criterion::criterion_group!(benches, super::all_rows);
}
use group::benches;
criterion_main!(benches);
