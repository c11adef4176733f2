//! Guide §3.1.2: overlapping transfers with kernels. Listing 3.3a (copy the
//! whole array, then run the kernel) against 3.3b (the array cut into
//! `nStreams` chunks, each copied and processed in its own non-blocking
//! stream), for nStreams = 1..=16, beside the guide's model; and Listing 3.1
//! (host work overlapping an asynchronous copy and kernel).

use std::sync::Arc;
use std::time::Instant;

use cudarc::driver::{CudaStream, sys};
use indicatif::ProgressBar;

use super::overlap_model::{chunk_ranges, overlap_efficiency, staged_model_ms};
use super::{Experiment, RunSettings, SeriesResult, SweepPoint, SweepResult};
use crate::error::{DriverResultExt, Error, Result};
use crate::gpu::{DeviceBuffer, EventTimer, Gpu, HostMemoryKind, Implementation, PinnedBuffer};
use crate::launchers::fma_chain;
use crate::reference;
use crate::stats::Summary;

pub(super) const STREAMS: Experiment = Experiment {
    name: "streams",
    title: "Staged concurrent copy and execute (streams)",
    guide_section: "CUDA C Best Practices Guide 4.0, §3.1.2, Listings 3.1, 3.3a and 3.3b",
    points: 16,
    run,
};

const MAX_STREAMS: u32 = 16;
/// Iterations the kernel is calibrated from.
const PROBE_ITERATIONS: u32 = 64;
/// Check every this many elements against the CPU reference (the chain is long).
const CHECK_STRIDE: usize = 4097;

fn median(samples: &[f64]) -> f64 {
    Summary::of(samples).map_or(f64::NAN, |s| s.median)
}

/// The staged pipeline once: start event, each chunk copied and processed in its stream, stop event.
/// Returns the milliseconds between the two events.
pub(crate) fn staged_once(
    gpu: &Gpu,
    streams: &[Arc<CudaStream>],
    host: &PinnedBuffer<f32>,
    data: &mut DeviceBuffer<f32>,
    n: u32,
    iterations: u32,
) -> Result<f64> {
    let timing = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
    let start = gpu.stream().record_event(timing).during("cuEventRecord")?;
    for stream in &streams[..n as usize] {
        stream.wait(&start).during("cuStreamWaitEvent")?;
    }
    for (i, chunk) in chunk_ranges(data.len(), n, 256).into_iter().enumerate() {
        let stream = &streams[i];
        // SAFETY: neither buffer is touched by the host until the stop event below is synchronized.
        unsafe { host.upload_async(chunk.clone(), data, stream)? };
        fma_chain(gpu, stream, data, chunk, iterations)?;
    }
    for stream in &streams[..n as usize] {
        let done = stream.record_event(None).during("cuEventRecord")?;
        gpu.stream().wait(&done).during("cuStreamWaitEvent")?;
    }
    let stop = gpu.stream().record_event(timing).during("cuEventRecord")?;
    gpu.wait_for_event(&stop, "the staged copy-and-execute pipeline")?;
    Ok(start.elapsed_ms(&stop).during("cuEventElapsedTime")? as f64)
}

fn check_sampled(got: &[f32], source: &[f32], iterations: u32) -> Option<String> {
    (0..got.len()).step_by(CHECK_STRIDE).find_map(|i| {
        let expected = reference::fma_chain(source[i], iterations);
        (got[i].to_bits() != expected.to_bits())
            .then(|| format!("element {i} is {} but the CPU reference says {expected}", got[i]))
    })
}

fn point(value: i64, bytes: u64, times_ms: &[f64], failure: Option<String>) -> Result<SweepPoint> {
    SweepPoint::measured(value, bytes / 4, bytes, times_ms, failure)
        .ok_or_else(|| Error::InvalidInput("no finite timing samples".into()))
}

fn series(name: &str, kernel: &str, implementation: Implementation, points: Vec<SweepPoint>) -> SeriesResult {
    SeriesResult {
        name: name.into(),
        kernel: kernel.into(),
        implementation,
        element: "f32".into(),
        element_bytes: 4,
        points,
    }
}

fn run(gpu: &Gpu, settings: &RunSettings, progress: &ProgressBar) -> Result<SweepResult> {
    settings.validate()?;
    let len = (settings.buffer_bytes(gpu.info()).min(256 << 20) / 4) as usize;
    let bytes = 4 * len as u64;
    let mut host = PinnedBuffer::<f32>::new(gpu, len, HostMemoryKind::Pinned)?;
    for (i, x) in host.as_mut_slice().iter_mut().enumerate() {
        *x = (i % 1000) as f32 / 1000.0;
    }
    let source = host.as_slice().to_vec();
    let mut data = DeviceBuffer::<f32>::uninit(gpu, len)?;
    let timer = EventTimer::new(gpu)?;
    let samples = settings.samples as usize;
    let main = gpu.stream().clone();

    // Phase times in isolation: the whole transfer, the kernel at a probe length, then calibrated.
    let time = |work: &mut dyn FnMut() -> Result<()>| -> Result<Vec<f64>> {
        (0..samples).map(|_| timer.time_ms(&main, &mut *work)).collect()
    };
    let transfer = time(&mut || unsafe { host.upload_async(0..len, &mut data, gpu.stream()) })?;
    let probe = time(&mut || fma_chain(gpu, gpu.stream(), &mut data, 0..len, PROBE_ITERATIONS))?;
    let (transfer_ms, probe_ms) = (median(&transfer), median(&probe));
    let iterations = ((PROBE_ITERATIONS as f64 * transfer_ms / probe_ms).round() as u32).clamp(1, 1 << 20);
    let kernel = time(&mut || fma_chain(gpu, gpu.stream(), &mut data, 0..len, iterations))?;
    let kernel_ms = median(&kernel);

    // Listing 3.3a: the whole copy, then the kernel, on one stream.
    let sequential = time(&mut || {
        // SAFETY: the host buffer is not touched until time_ms synchronizes the stream.
        unsafe { host.upload_async(0..len, &mut data, gpu.stream())? };
        fma_chain(gpu, gpu.stream(), &mut data, 0..len, iterations)
    })?;
    let reference_result = data.to_host()?;
    let sequential_failure = check_sampled(&reference_result, &source, iterations);

    // Listing 3.3b for 1..=16 streams.
    let streams: Vec<Arc<CudaStream>> = (0..MAX_STREAMS)
        .map(|_| gpu.context().new_stream().during("cuStreamCreate"))
        .collect::<Result<_>>()?;
    let mut staged_points = Vec::new();
    let mut model_points = Vec::new();
    for n in 1..=MAX_STREAMS {
        if settings.stop.stop_before(n as usize - 1, MAX_STREAMS as usize) {
            break;
        }
        progress.set_message(format!("streams {n}"));
        data.fill(f32::NAN)?;
        let times: Vec<f64> = (0..samples)
            .map(|_| staged_once(gpu, &streams, &host, &mut data, n, iterations))
            .collect::<Result<_>>()?;
        let got = data.to_host()?;
        let failure = got
            .iter()
            .zip(&reference_result)
            .position(|(a, b)| a.to_bits() != b.to_bits())
            .map(|i| {
                format!(
                    "element {i} is {} but the sequential run gave {}",
                    got[i], reference_result[i]
                )
            })
            .or_else(|| sequential_failure.clone());
        staged_points.push(point(n as i64, bytes, &times, failure)?);
        let model = staged_model_ms(transfer_ms, kernel_ms, n);
        model_points.push(point(n as i64, bytes, &[model], None)?);
        progress.inc(1);
    }

    // Listing 3.1: host work while the GPU copies and computes.
    let gpu_ms = median(&sequential);
    let host_work = |target_ms: f64| {
        let start = Instant::now();
        let mut sum = 0.0f64;
        while start.elapsed().as_secs_f64() * 1e3 < target_ms {
            sum += source.iter().step_by(64).map(|&x| x as f64).sum::<f64>();
        }
        std::hint::black_box(sum);
        start.elapsed().as_secs_f64() * 1e3
    };
    let host_alone_ms = host_work(gpu_ms);
    let start = Instant::now();
    // SAFETY: the host buffer is not touched until the synchronization below.
    unsafe { host.upload_async(0..len, &mut data, gpu.stream())? };
    fma_chain(gpu, gpu.stream(), &mut data, 0..len, iterations)?;
    let host_during_ms = host_work(gpu_ms);
    gpu.synchronize()?;
    let together_ms = start.elapsed().as_secs_f64() * 1e3;

    let best = staged_points
        .iter()
        .filter_map(|p| p.effective_gbps.map(|_| (p.value, p.time_ms.median)))
        .min_by(|a, b| a.1.total_cmp(&b.1));
    let mut notes = vec![
        format!(
            "{} MiB of f32 from pinned memory; transfer alone {transfer_ms:.3} ms, kernel alone {kernel_ms:.3} ms \
             (fma_chain with {iterations} iterations, calibrated so the two are comparable); Listing 3.3a \
             (sequential) {gpu_ms:.3} ms",
            bytes >> 20
        ),
        format!(
            "Listing 3.1: GPU work {gpu_ms:.3} ms, host work {host_alone_ms:.3} ms alone and {host_during_ms:.3} ms \
             while the GPU ran; together {together_ms:.3} ms (serialized would be {:.3} ms, perfect overlap {:.3} ms)",
            gpu_ms + host_alone_ms,
            gpu_ms.max(host_alone_ms)
        ),
    ];
    if let Some((n, ms)) = best {
        let model = staged_model_ms(transfer_ms, kernel_ms, n as u32);
        notes.push(format!(
            "best staged: {n} streams, {ms:.3} ms vs the model's {model:.3} ms ({:+.1}%); overlap efficiency {:.0}%",
            100.0 * (ms / model - 1.0),
            100.0 * overlap_efficiency(transfer_ms, kernel_ms, ms)
        ));
    }
    notes.push(format!(
        "checked: the sequential result every {CHECK_STRIDE}th element against the CPU reference (bit for bit), \
         every staged result in full against the sequential one"
    ));
    Ok(SweepResult {
        experiment: STREAMS.name.to_string(),
        title: STREAMS.title.to_string(),
        guide_section: STREAMS.guide_section.to_string(),
        parameter: "streams".to_string(),
        byte_counting: "GB/s = bytes transferred host to device / total pipeline time".to_string(),
        buffer_bytes: bytes,
        block_threads: kernels_gpu::global_memory::COPY_BLOCK_THREADS,
        series: vec![
            series(
                "staged (Listing 3.3b)",
                "fma_chain",
                Implementation::Rust,
                staged_points,
            ),
            series(
                "model: max + min / nStreams",
                "model",
                Implementation::Model,
                model_points,
            ),
        ],
        notes,
    })
}
