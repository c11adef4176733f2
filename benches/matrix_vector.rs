//! criterion benchmarks of the whitepaper's matrix-vector versions on its own
//! shape (1100 × 60989), timed with events; throughput counts M + V + W in
//! decimal bytes. Every implementation the `matvec` experiment measures
//! (Rust, the twins, cuBLAS SGEMV), through its runners. Without a GPU they
//! print that they were skipped and exit 0.

mod support;

use criterion::{BenchmarkId, Criterion, Throughput};
use ptxsuite::input_values::matrix_value;
use ptxsuite::launchers::matvec_runners;
use support::{duration_of, gpu_or_skip, one_sample_of};

const WIDTH: u32 = 1100;
const HEIGHT: u32 = 60989;

fn main() {
    let Some(dut) = gpu_or_skip("matrix_vector") else {
        return;
    };
    let elements = (WIDTH * HEIGHT) as usize;
    let m: Vec<f32> = (0..elements).map(|i| matrix_value(i, 0)).collect();
    let v: Vec<f32> = (0..WIDTH as usize).map(|i| matrix_value(i, 1)).collect();
    let (mut runners, waived) = matvec_runners(&dut).expect("runners");
    for (implementation, why) in waived {
        println!("{} skipped: {why}", implementation.label());
    }
    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("matvec_1100x60989");
    group.throughput(Throughput::BytesDecimal(
        4 * (elements as u64 + WIDTH as u64 + HEIGHT as u64),
    ));
    for runner in &mut runners {
        runner.load(&m, &v, WIDTH, HEIGHT).expect("operands");
        for entry in runner.entries() {
            group.bench_function(BenchmarkId::new(entry.kernel, entry.implementation.label()), |b| {
                b.iter_custom(|iters| duration_of(iters, runner.time(&entry, &one_sample_of(iters))));
            });
        }
    }
    group.finish();
    c.final_summary();
}
