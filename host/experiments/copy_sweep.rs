//! The measurement loop shared by the copy sweeps (offset, stride, ...).
//!
//! For each point, as NVIDIA's transpose sample does: fill the destination
//! with a sentinel, one warm-up launch, then `samples` samples of `reps`
//! launches between two CUDA events; then copy the destination back and
//! compare it, element for element, with the CPU reference.

use indicatif::ProgressBar;
use kernels_gpu::global_memory::COPY_BLOCK_THREADS;

use super::{RunSettings, SweepPoint, SweepResult};
use crate::bandwidth::{effective_bandwidth_gbps, percent_of};
use crate::error::Result;
use crate::gpu::{DeviceBuffer, EventTimer, Gpu};
use crate::stats::Summary;

/// Written to the destination before each point; no input element has this value.
const SENTINEL: f32 = -1.0;

/// Launches one copy kernel: (gpu, out, in, threads, parameter).
pub(crate) type CopyLauncher = fn(&Gpu, &mut DeviceBuffer<f32>, &DeviceBuffer<f32>, u64, i32) -> Result<()>;
/// The CPU reference of the same kernel: (out, in, threads, parameter).
pub(crate) type CopyReference = fn(&mut [f32], &[f32], usize, usize);

/// What differs between two copy sweeps.
pub(crate) struct CopySweep {
    pub experiment: &'static str,
    pub title: &'static str,
    pub guide_section: &'static str,
    pub kernel: &'static str,
    pub parameter: &'static str,
    pub values: &'static [i32],
    /// Extra elements each buffer needs beyond the nominal size (offset room).
    pub extra_elements: usize,
    /// Threads to launch for a parameter value, given the nominal element count.
    pub threads: fn(usize, i32) -> u64,
    pub launch: CopyLauncher,
    pub reference: CopyReference,
}

/// Distinct, exactly representable, non-negative values: element `i` holds
/// `i mod 16777213` (a prime below 2^24).
fn input_pattern(len: usize) -> Vec<f32> {
    (0..len).map(|i| (i % 16_777_213) as f32).collect()
}

fn first_mismatch(got: &[f32], expected: &[f32]) -> Option<String> {
    got.iter()
        .zip(expected)
        .position(|(g, e)| g.to_bits() != e.to_bits())
        .map(|i| format!("element {i} is {} but the CPU reference says {}", got[i], expected[i]))
}

/// Threads for a copy of `elements` elements at `stride`, in whole blocks.
pub(crate) fn whole_blocks(elements: usize, stride: usize) -> u64 {
    let block = COPY_BLOCK_THREADS as u64;
    (elements as u64 / stride as u64) / block * block
}

pub(crate) fn run(gpu: &Gpu, settings: &RunSettings, sweep: &CopySweep, progress: &ProgressBar) -> Result<SweepResult> {
    settings.validate()?;
    let info = gpu.info();
    let buffer_bytes = settings.buffer_bytes(info);
    let elements = (buffer_bytes / 4) as usize;
    let len = elements + sweep.extra_elements;
    gpu.ensure_free_memory(2 * 4 * len as u64)?;

    let input = input_pattern(len);
    let idata = DeviceBuffer::from_host(gpu, &input)?;
    let mut odata = DeviceBuffer::<f32>::uninit(gpu, len)?;
    let mut expected = vec![SENTINEL; len];
    let mut got = vec![0.0f32; len];
    let timer = EventTimer::new(gpu)?;

    let mut points = Vec::with_capacity(sweep.values.len());
    for &value in sweep.values {
        progress.set_message(format!("{} {}={value}", sweep.experiment, sweep.parameter));
        let threads = (sweep.threads)(elements, value);
        odata.fill(SENTINEL)?;
        (sweep.launch)(gpu, &mut odata, &idata, threads, value)?; // warm-up
        gpu.synchronize()?;
        let mut times_ms = Vec::with_capacity(settings.samples as usize);
        for _ in 0..settings.samples {
            let ms = timer.time_ms(gpu.stream(), || {
                for _ in 0..settings.reps {
                    (sweep.launch)(gpu, &mut odata, &idata, threads, value)?;
                }
                Ok(())
            })?;
            times_ms.push(ms / settings.reps as f64);
        }
        gpu.synchronize()?;

        odata.copy_to_host(&mut got)?;
        expected.fill(SENTINEL);
        (sweep.reference)(&mut expected, &input, threads as usize, value as usize);
        let failure = first_mismatch(&got, &expected);

        let bytes_per_launch = 2 * 4 * threads; // Br + Bw: one f32 read and one written per thread
        let gbps: Vec<f64> = times_ms
            .iter()
            .map(|ms| effective_bandwidth_gbps(bytes_per_launch / 2, bytes_per_launch / 2, ms / 1e3))
            .collect();
        let time_ms = Summary::of(&times_ms).expect("samples >= 1 and event times are finite");
        let effective = if failure.is_none() { Summary::of(&gbps) } else { None };
        points.push(SweepPoint {
            value: value as i64,
            threads,
            bytes_per_launch,
            time_ms,
            percent_of_theoretical: effective.map(|g| percent_of(g.median, info.theoretical_bandwidth_gbps)),
            effective_gbps: effective,
            verified: failure.is_none(),
            failure,
        });
        progress.inc(1);
    }

    Ok(SweepResult {
        experiment: sweep.experiment.to_string(),
        title: sweep.title.to_string(),
        guide_section: sweep.guide_section.to_string(),
        kernel: sweep.kernel.to_string(),
        parameter: sweep.parameter.to_string(),
        byte_counting: "Br + Bw = 4 bytes read + 4 bytes written per thread (useful bytes only, as the guide counts; \
                        sectors fetched but not used are not counted)"
            .to_string(),
        buffer_bytes: 4 * len as u64,
        block_threads: COPY_BLOCK_THREADS,
        points,
    })
}
