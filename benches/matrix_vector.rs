//! criterion benchmarks of the whitepaper's matrix-vector versions on its own
//! shape (1100 × 60989), timed with CUDA events; throughput counts M + V + W
//! in decimal bytes. Rust, CUDA C twins (with NVRTC) and cuBLAS SGEMV (when
//! present). Without a GPU they print that they were skipped and exit 0.

mod support;

use criterion::{BenchmarkId, Criterion, Throughput};
use ptxsuite::gpu::{CublasHandle, DeviceBuffer, EventTimer};
use ptxsuite::launchers::{MatVecVersion, matvec};
use support::{gpu_or_skip, gpu_time};

const WIDTH: u32 = 1100;
const HEIGHT: u32 = 60989;

fn main() {
    let Some(gpu) = gpu_or_skip("matrix_vector") else {
        return;
    };
    let (implementations, note) = gpu.kernel_implementations();
    if let Some(why) = note {
        println!("CUDA C twins skipped: {why}");
    }
    let elements = (WIDTH * HEIGHT) as usize;
    let m = DeviceBuffer::from_host(&gpu, &vec![0.5f32; elements]).expect("matrix");
    let v = DeviceBuffer::from_host(&gpu, &vec![0.25f32; WIDTH as usize]).expect("vector");
    let mut w = DeviceBuffer::<f32>::uninit(&gpu, HEIGHT as usize).expect("result");
    let timer = EventTimer::new(&gpu).expect("events");
    let time = |iters: u64, launch: &mut dyn FnMut() -> ptxsuite::Result<()>| gpu_time(&gpu, &timer, iters, launch);
    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("matvec_1100x60989");
    group.throughput(Throughput::BytesDecimal(
        4 * (elements as u64 + WIDTH as u64 + HEIGHT as u64),
    ));
    for version in MatVecVersion::ALL {
        for &imp in &implementations {
            let id = BenchmarkId::new(version.kernel(), imp.label());
            group.bench_function(id, |b| {
                let mut launch = || matvec(&gpu, imp, version, &m, WIDTH, HEIGHT, &v, &mut w);
                launch().expect("warm-up");
                b.iter_custom(|iters| time(iters, &mut launch));
            });
        }
    }
    match CublasHandle::new(&gpu) {
        Ok(cublas) => {
            group.bench_function("cublasSgemv", |b| {
                let mut launch = || cublas.sgemv_row_major(&m, WIDTH, HEIGHT, &v, &mut w);
                launch().expect("warm-up");
                b.iter_custom(|iters| time(iters, &mut launch));
            });
        }
        Err(why) => println!("cuBLAS baseline skipped: {why}"),
    }
    group.finish();
    c.final_summary();
}
