//! criterion benchmarks of the matrix multiplies, timed with CUDA events:
//! the guide's six kernels at M = N = 4096 (throughput: compulsory bytes,
//! as in the report) and the general SGEMMs at 4096³ (throughput: 2·m·n·k
//! operations, shown by criterion as elements/s = FLOP/s), Rust, CUDA C twins
//! (with NVRTC) and cuBLAS (when present). Without a GPU they print that they
//! were skipped and exit 0.

mod support;

use criterion::{BenchmarkId, Criterion, Throughput};
use half::f16;
use ptxsuite::gpu::{CublasHandle, DeviceBuffer, EventTimer};
use ptxsuite::launchers::{GuideMultiply, SgemmKernel, gemm_flops, guide_multiply, hgemm_f16_storage, sgemm};
use support::{gpu_or_skip, gpu_time};

const GUIDE_SIDE: u32 = 4096;
const SGEMM_SIDE: u32 = 4096;

fn main() {
    let Some(gpu) = gpu_or_skip("matrix_multiply") else {
        return;
    };
    let (implementations, note) = gpu.kernel_implementations();
    if let Some(why) = note {
        println!("CUDA C twins skipped: {why}");
    }
    let cublas = CublasHandle::new(&gpu)
        .map_err(|e| println!("cuBLAS baselines skipped: {e}"))
        .ok();
    let timer = EventTimer::new(&gpu).expect("events");
    let time = |iters: u64, launch: &mut dyn FnMut() -> ptxsuite::Result<()>| gpu_time(&gpu, &timer, iters, launch);
    let mut c = Criterion::default().configure_from_args();

    let (side, k) = (GUIDE_SIDE, 32u32);
    let a = DeviceBuffer::from_host(&gpu, &vec![0.5f32; (side * k) as usize]).expect("A");
    let b = DeviceBuffer::from_host(&gpu, &vec![0.25f32; (k * side) as usize]).expect("B");
    let mut out = DeviceBuffer::<f32>::uninit(&gpu, (side * side) as usize).expect("C");
    let mut group = c.benchmark_group(format!("guide_matmul_{side}"));
    for kernel in GuideMultiply::ALL {
        group.throughput(Throughput::BytesDecimal(kernel.compulsory_bytes(side, side)));
        for &imp in &implementations {
            group.bench_function(BenchmarkId::new(kernel.kernel(), imp.label()), |bench| {
                let mut launch = || guide_multiply(&gpu, imp, kernel, &a, &b, &mut out, side, side);
                launch().expect("warm-up");
                bench.iter_custom(|iters| time(iters, &mut launch));
            });
        }
    }
    group.finish();

    let dims = (SGEMM_SIDE, SGEMM_SIDE, SGEMM_SIDE);
    let len = (SGEMM_SIDE * SGEMM_SIDE) as usize;
    let a = DeviceBuffer::from_host(&gpu, &vec![0.5f32; len]).expect("A");
    let b = DeviceBuffer::from_host(&gpu, &vec![0.25f32; len]).expect("B");
    let a16 = DeviceBuffer::from_host(&gpu, &vec![f16::from_f32(0.5); len]).expect("A f16");
    let b16 = DeviceBuffer::from_host(&gpu, &vec![f16::from_f32(0.25); len]).expect("B f16");
    let mut out = DeviceBuffer::<f32>::uninit(&gpu, len).expect("C");
    let mut group = c.benchmark_group(format!("sgemm_{SGEMM_SIDE}"));
    group.throughput(Throughput::Elements(gemm_flops(dims)));
    group.sample_size(20);
    for &imp in &implementations {
        for kernel in SgemmKernel::ALL {
            group.bench_function(BenchmarkId::new(kernel.kernel(), imp.label()), |bench| {
                let mut launch = || sgemm(&gpu, imp, kernel, &a, &b, &mut out, dims);
                launch().expect("warm-up");
                bench.iter_custom(|iters| time(iters, &mut launch));
            });
        }
        group.bench_function(BenchmarkId::new("hgemm_f16_storage", imp.label()), |bench| {
            let mut launch = || hgemm_f16_storage(&gpu, imp, &a16, &b16, &mut out, dims);
            launch().expect("warm-up");
            bench.iter_custom(|iters| time(iters, &mut launch));
        });
    }
    if let Some(cublas) = &cublas {
        group.bench_function("cublasSgemm", |bench| {
            let mut launch = || cublas.sgemm_row_major(&a, &b, &mut out, dims);
            launch().expect("warm-up");
            bench.iter_custom(|iters| time(iters, &mut launch));
        });
    }
    group.finish();
    c.final_summary();
}
