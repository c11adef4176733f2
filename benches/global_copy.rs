//! criterion benchmarks of the guide's copy kernels, timed on the GPU with
//! CUDA events (`iter_custom`), throughput in bytes so criterion prints GB/s
//! of effective bandwidth (Br + Bw).
//!
//! On a machine with no GPU they print that they were skipped and exit 0.

use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput};
use ptxsuite::experiments::RunSettings;
use ptxsuite::gpu::{DeviceBuffer, EventTimer, Gpu};
use ptxsuite::{Result, launchers};

type Launch = fn(&Gpu, &mut DeviceBuffer<f32>, &DeviceBuffer<f32>, u64, i32) -> Result<()>;

/// Times `iters` launches between two events; GPU time, not wall clock.
fn gpu_time(gpu: &Gpu, timer: &EventTimer, iters: u64, mut launch: impl FnMut() -> Result<()>) -> Duration {
    let ms = timer
        .time_ms(gpu.stream(), || {
            for _ in 0..iters {
                launch()?;
            }
            Ok(())
        })
        .expect("timed launches");
    Duration::from_secs_f64(ms / 1e3)
}

fn bench_sweep(
    c: &mut Criterion,
    gpu: &Gpu,
    name: &str,
    values: &[i32],
    threads_for: fn(usize, i32) -> u64,
    launch: Launch,
) {
    let elements = (RunSettings::default().buffer_bytes(gpu.info()) / 4) as usize;
    let len = elements + 32;
    let idata = DeviceBuffer::from_host(gpu, &vec![1.0f32; len]).expect("input buffer");
    let mut odata = DeviceBuffer::<f32>::uninit(gpu, len).expect("output buffer");
    let timer = EventTimer::new(gpu).expect("events");
    let mut group = c.benchmark_group(name);
    for &value in values {
        let threads = threads_for(elements, value);
        group.throughput(Throughput::BytesDecimal(2 * 4 * threads)); // GB = 1e9 B
        group.bench_with_input(BenchmarkId::from_parameter(value), &value, |b, &value| {
            launch(gpu, &mut odata, &idata, threads, value).expect("warm-up launch");
            b.iter_custom(|iters| gpu_time(gpu, &timer, iters, || launch(gpu, &mut odata, &idata, threads, value)));
        });
    }
    group.finish();
}

fn main() {
    let gpu = match Gpu::open(0) {
        Ok(gpu) => gpu,
        Err(e) => {
            println!("global_copy benchmarks skipped: {e}");
            return;
        }
    };
    let mut c = Criterion::default().configure_from_args();
    bench_sweep(
        &mut c,
        &gpu,
        "offset_copy",
        &[0, 1, 8, 16, 32],
        |n, _| n as u64 / 256 * 256,
        launchers::offset_copy,
    );
    bench_sweep(
        &mut c,
        &gpu,
        "stride_copy",
        &[1, 2, 4, 8, 16, 32],
        |n, s| (n as u64 / s as u64) / 256 * 256,
        launchers::stride_copy,
    );
    c.final_summary();
}
