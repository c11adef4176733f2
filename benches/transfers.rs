//! criterion benchmarks of pinned host↔device copies (256 MiB) and of the
//! staged copy/compute pipeline, timed with CUDA events, throughput in
//! decimal bytes (GB/s). Without a GPU they print that they were skipped.

mod support;

use criterion::{BenchmarkId, Criterion, Throughput};
use ptxsuite::experiments::overlap_model::chunk_ranges;
use ptxsuite::gpu::{DeviceBuffer, EventTimer, HostMemoryKind, PinnedBuffer};
use ptxsuite::launchers::fma_chain;
use support::{gpu_or_skip, gpu_time};

const BYTES: usize = 256 << 20;
const ITERATIONS: u32 = 256;

fn main() {
    let Some(gpu) = gpu_or_skip("transfers") else {
        return;
    };
    let len = BYTES / 4;
    let mut host = PinnedBuffer::<f32>::new(&gpu, len, HostMemoryKind::Pinned).expect("pinned buffer");
    let mut device = DeviceBuffer::<f32>::uninit(&gpu, len).expect("device buffer");
    let timer = EventTimer::new(&gpu).expect("events");
    let streams: Vec<_> = (0..8).map(|_| gpu.context().new_stream().expect("stream")).collect();
    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("pinned_256MiB");
    group.throughput(Throughput::BytesDecimal(BYTES as u64));
    let time = |iters: u64, launch: &mut dyn FnMut() -> ptxsuite::Result<()>| gpu_time(&gpu, &timer, iters, launch);
    group.bench_function("H2D", |b| {
        // SAFETY: neither buffer is touched until time_ms synchronizes the stream.
        b.iter_custom(|iters| {
            time(iters, &mut || unsafe {
                host.upload_async(0..len, &mut device, gpu.stream())
            })
        })
    });
    group.bench_function("D2H", |b| {
        // SAFETY: as above.
        b.iter_custom(|iters| {
            time(iters, &mut || unsafe {
                host.download_async(0..len, &device, gpu.stream())
            })
        })
    });
    group.finish();

    let mut group = c.benchmark_group("staged_pipeline_256MiB");
    group.throughput(Throughput::BytesDecimal(BYTES as u64));
    for n in [1u32, 2, 4, 8] {
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            b.iter_custom(|iters| {
                time(iters, &mut || {
                    for (i, chunk) in chunk_ranges(len, n, 256).into_iter().enumerate() {
                        let stream = &streams[i];
                        // SAFETY: the host buffer is not touched until the streams are synchronized below.
                        unsafe { host.upload_async(chunk.clone(), &mut device, stream)? };
                        fma_chain(&gpu, stream, &mut device, chunk, ITERATIONS)?;
                    }
                    for stream in &streams[..n as usize] {
                        gpu.watchdog().wait_for_stream(stream, "a staged pipeline stream")?;
                    }
                    Ok(())
                })
            })
        });
    }
    group.finish();
    c.final_summary();
}
