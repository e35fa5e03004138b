//! criterion benchmarks of the generator: load, check and generate a synthetic contract set of
//! 10, 100 and 1,000 tools sharing one definitions file (`schemcp_bench::synthetic`), as
//! `build.rs` does (`Builder::generate`: load, typify, prettyplease; no file written).
//!
//! Run with `cargo bench -p schemcp-bench --bench codegen`; `./scripts/bench` reads the medians
//! from `target/criterion/codegen/*/new/estimates.json`.

use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use schemcp_bench::synthetic;

fn codegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("codegen");
    // A 1,000-tool run takes about a second: ten samples are plenty and keep the run short.
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    for n in [10, 100, 1000] {
        let dir = tempfile::tempdir().expect("a temporary folder");
        synthetic::write_schemas(dir.path(), n).expect("writing the synthetic schemas");
        let builder = schemcp_build::Builder::new().schemas_dir(dir.path());
        group.bench_with_input(BenchmarkId::new("generate", n), &builder, |b, builder| {
            b.iter(|| {
                let generated = builder.generate().expect("the synthetic set generates");
                assert!(generated.warnings.is_empty());
                generated
            })
        });
    }
    group.finish();
}

criterion_group!(benches, codegen);
criterion_main!(benches);
