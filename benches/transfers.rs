//! criterion benchmarks of pinned host↔device copies (256 MiB) and of the
//! staged copy/compute pipeline (the `streams` experiment's, fenced the
//! same way), timed with events, throughput in decimal bytes (GB/s).
//! Without a GPU they print that they were skipped.

mod support;

use criterion::{BenchmarkId, Criterion, Throughput};
use ptxsuite::gpu::{DeviceBuffer, HostMemoryKind, PinnedBuffer};
use ptxsuite::launchers::{StagedPipeline, UploadOrder};
use ptxsuite::timing::{CudaTimer, time_per_launch};
use support::{duration_of, gpu_or_skip, one_sample_of};

const BYTES: usize = 256 << 20;
const ITERATIONS: u32 = 256;

fn main() {
    let Some(dut) = gpu_or_skip("transfers") else {
        return;
    };
    let gpu = dut.gpu();
    let len = BYTES / 4;
    let mut host = PinnedBuffer::<f32>::new(gpu, len, HostMemoryKind::Pinned).expect("pinned buffer");
    let mut device = DeviceBuffer::<f32>::uninit(gpu, len).expect("device buffer");
    let mut timer = CudaTimer::new(gpu).expect("events");
    let pipeline = StagedPipeline::new(gpu, 16).expect("streams");
    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("pinned_256MiB");
    group.throughput(Throughput::BytesDecimal(BYTES as u64));
    group.bench_function("H2D", |b| {
        b.iter_custom(|iters| {
            // SAFETY: neither buffer is touched by the host until the timer waits for the stream.
            duration_of(
                iters,
                time_per_launch(&mut timer, &one_sample_of(iters), &mut || unsafe {
                    host.upload_async(0..len, &mut device, gpu.stream())
                }),
            )
        })
    });
    group.bench_function("D2H", |b| {
        b.iter_custom(|iters| {
            // SAFETY: as above.
            duration_of(
                iters,
                time_per_launch(&mut timer, &one_sample_of(iters), &mut || unsafe {
                    host.download_async(0..len, &device, gpu.stream())
                }),
            )
        })
    });
    group.finish();

    let mut group = c.benchmark_group("staged_pipeline_256MiB");
    group.throughput(Throughput::BytesDecimal(BYTES as u64));
    for (order, name) in [
        (UploadOrder::AsListed, "as_listed"),
        (UploadOrder::Chained, "uploads_in_order"),
    ] {
        for n in [1u32, 2, 4, 8, 16] {
            group.bench_with_input(BenchmarkId::new(name, n), &n, |b, &n| {
                b.iter_custom(|iters| {
                    duration_of(
                        iters,
                        time_per_launch(&mut timer, &one_sample_of(iters), &mut || {
                            pipeline.enqueue(&dut, &host, &mut device, (n, order), ITERATIONS)
                        }),
                    )
                })
            });
        }
    }
    group.finish();
    c.final_summary();
}
