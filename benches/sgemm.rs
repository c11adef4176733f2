//! criterion benchmarks of the matrix multiplies, timed with events: the
//! guide's six kernels at M = N = 4096 (throughput: compulsory bytes, as in
//! the report) and the general SGEMM family at 4096³ (throughput: 2·m·n·k
//! operations, shown by criterion as elements/s = FLOP/s) through the runners
//! the `sgemm` experiment uses (Rust, twins, cuBLAS). Without a GPU they
//! print that they were skipped and exit 0.

mod support;

use criterion::{BenchmarkId, Criterion, Throughput};
use ptxsuite::gpu::DeviceBuffer;
use ptxsuite::input_values::matrix_value;
use ptxsuite::launchers::{GuideMultiply, gemm_flops, gemm_runners, guide_multiply};
use ptxsuite::timing::{CudaTimer, time_per_launch};
use support::{duration_of, gpu_or_skip, one_sample_of};

const GUIDE_SIDE: u32 = 4096;
const SGEMM_SIDE: u32 = 4096;

fn main() {
    let Some(dut) = gpu_or_skip("sgemm") else {
        return;
    };
    let gpu = dut.gpu();
    let mut c = Criterion::default().configure_from_args();

    let (side, k) = (GUIDE_SIDE, 32u32);
    let a = DeviceBuffer::from_host(gpu, &vec![0.5f32; (side * k) as usize]).expect("A");
    let b = DeviceBuffer::from_host(gpu, &vec![0.25f32; (k * side) as usize]).expect("B");
    let mut out = DeviceBuffer::<f32>::uninit(gpu, (side * side) as usize).expect("C");
    let mut timer = CudaTimer::new(gpu).expect("events");
    let mut group = c.benchmark_group(format!("guide_matmul_{side}"));
    for kernel in GuideMultiply::ALL {
        group.throughput(Throughput::BytesDecimal(kernel.compulsory_bytes(side, side)));
        for imp in dut.ptx_implementations().0 {
            group.bench_function(BenchmarkId::new(kernel.kernel(), imp.label()), |bench| {
                bench.iter_custom(|iters| {
                    duration_of(
                        iters,
                        time_per_launch(&mut timer, &one_sample_of(iters), &mut || {
                            guide_multiply(&dut, imp, kernel, &a, &b, &mut out, side, side)
                        }),
                    )
                });
            });
        }
    }
    group.finish();

    let dims = (SGEMM_SIDE, SGEMM_SIDE, SGEMM_SIDE);
    let len = (SGEMM_SIDE * SGEMM_SIDE) as usize;
    let a: Vec<f32> = (0..len).map(|i| matrix_value(i, 3)).collect();
    let b: Vec<f32> = (0..len).map(|i| matrix_value(i, 4)).collect();
    let (mut runners, waived) = gemm_runners(&dut).expect("runners");
    for (implementation, why) in waived {
        println!("{} skipped: {why}", implementation.label());
    }
    let mut group = c.benchmark_group(format!("sgemm_{SGEMM_SIDE}"));
    group.throughput(Throughput::Elements(gemm_flops(dims)));
    group.sample_size(20);
    for runner in &mut runners {
        runner.load(&a, &b, dims).expect("operands");
        for entry in runner.entries() {
            group.bench_function(BenchmarkId::new(entry.kernel, entry.implementation.label()), |bench| {
                bench.iter_custom(|iters| duration_of(iters, runner.time(&entry, &one_sample_of(iters))));
            });
        }
    }
    group.finish();
    c.final_summary();
}
