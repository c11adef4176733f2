//! The measurement loop shared by every copy sweep.
//!
//! For each point and each series, as NVIDIA's transpose sample does: fill
//! the destination with a sentinel, one warm-up launch, then `samples`
//! samples of `reps` launches between two CUDA events; then copy the
//! destination back and compare it, element for element, with the CPU
//! reference. The series of one point run back to back, so Rust and CUDA C
//! see the same clocks and temperature.

use indicatif::ProgressBar;

use super::launch_timing::time_per_launch;
use super::{RunSettings, SeriesResult, SweepPoint};
use crate::copy_element::{CopyElement, first_mismatch, pattern};
use crate::error::Result;
use crate::gpu::{DeviceBuffer, EventTimer, Gpu, Implementation};

/// Enqueues one launch: (out, in, elements, parameter).
pub(crate) type LaunchFn<'a, T> = Box<dyn Fn(&mut DeviceBuffer<T>, &DeviceBuffer<T>, u64, i32) -> Result<()> + 'a>;

/// One kernel to measure at every point.
pub(crate) struct SeriesSpec<'a, T: crate::gpu::DeviceCopy> {
    pub kernel: &'static str,
    pub implementation: Implementation,
    /// Elements copied per launch at a parameter value, given the nominal element count.
    pub elements: fn(usize, i32) -> u64,
    pub launch: LaunchFn<'a, T>,
    /// The CPU reference: (out, in, elements, parameter).
    pub reference: Reference<T>,
}

/// A CPU reference: (out, in, elements, parameter).
pub(crate) type Reference<T> = fn(&mut [T], &[T], usize, usize);

/// DRAM bytes per launch if each 32-byte sector touched moves once: (elements, parameter, element bytes).
pub(crate) type SectorModel = fn(u64, i32, u64) -> u64;

/// Host and device buffers of a sweep: the run's buffer size plus `extra` elements of room.
pub(crate) struct SweepBuffers<T: CopyElement> {
    pub input: Vec<T>,
    pub idata: DeviceBuffer<T>,
    pub odata: DeviceBuffer<T>,
}

impl<T: CopyElement> SweepBuffers<T> {
    pub fn new(gpu: &Gpu, settings: &RunSettings, extra: usize) -> Result<Self> {
        settings.validate()?;
        let elements = (settings.buffer_bytes(gpu.info()) / size_of::<T>() as u64) as usize;
        let len = elements + extra;
        gpu.ensure_free_memory(2 * (len * size_of::<T>()) as u64)?;
        let input = pattern::<T>(len);
        let idata = DeviceBuffer::from_host(gpu, &input)?;
        let odata = DeviceBuffer::uninit(gpu, len)?;
        Ok(Self { input, idata, odata })
    }
}

/// Threads for a copy of `elements` elements at `stride`, in whole blocks of 256.
pub(crate) fn whole_blocks(elements: usize, stride: usize) -> u64 {
    let block = kernels_gpu::global_memory::COPY_BLOCK_THREADS as u64;
    (elements as u64 / stride as u64) / block * block
}

/// Measures every series at every value.
#[allow(clippy::too_many_arguments)]
pub(crate) fn measure<T: CopyElement>(
    gpu: &Gpu,
    settings: &RunSettings,
    values: &[i32],
    sector_model: Option<SectorModel>,
    input: &[T],
    idata: &DeviceBuffer<T>,
    odata: &mut DeviceBuffer<T>,
    series: &[SeriesSpec<'_, T>],
    progress: &ProgressBar,
) -> Result<Vec<SeriesResult>> {
    let theoretical = gpu.info().theoretical_bandwidth_gbps;
    let timer = EventTimer::new(gpu)?;
    let mut expected = vec![T::SENTINEL; input.len()];
    let mut got = vec![T::SENTINEL; input.len()];
    let elem_bytes = size_of::<T>() as u64;
    let mut results: Vec<SeriesResult> = series
        .iter()
        .map(|s| SeriesResult {
            name: format!("{} · {}", s.kernel, s.implementation.label()),
            kernel: s.kernel.to_string(),
            implementation: s.implementation,
            element: T::NAME.to_string(),
            element_bytes: elem_bytes as u32,
            points: Vec::with_capacity(values.len()),
        })
        .collect();
    let nominal = input.len();
    // The reference output last computed: series sharing a reference (Rust and
    // CUDA C twins) at the same point reuse it.
    let mut expected_for: Option<(Reference<T>, u64, i32)> = None;
    for (done, &value) in values.iter().enumerate() {
        if settings.stop.stop_before(done, values.len()) {
            break;
        }
        for (spec, result) in series.iter().zip(&mut results) {
            progress.set_message(format!("{} {value}", result.name));
            let elements = (spec.elements)(nominal, value);
            odata.fill(T::SENTINEL)?;
            let times_ms = time_per_launch(gpu, &timer, settings, || (spec.launch)(odata, idata, elements, value))?;
            gpu.synchronize()?;
            odata.copy_to_host(&mut got)?;
            let fresh = !matches!(expected_for, Some((f, e, v))
                if std::ptr::fn_addr_eq(f, spec.reference) && e == elements && v == value);
            if fresh {
                expected.fill(T::SENTINEL);
                (spec.reference)(&mut expected, input, elements as usize, value as usize);
                expected_for = Some((spec.reference, elements, value));
            }
            let failure = first_mismatch(&got, &expected);

            let bytes_per_launch = 2 * elem_bytes * elements; // Br + Bw
            let mut point = SweepPoint::measured(value as i64, elements, bytes_per_launch, &times_ms, failure)
                .expect("samples >= 1 and event times are finite")
                .with_peak(theoretical);
            if let Some(model) = sector_model {
                let sector_bytes = model(elements, value, elem_bytes);
                point.sector_bytes_per_launch = Some(sector_bytes);
                point.sector_gbps = point
                    .verified
                    .then(|| sector_bytes as f64 / 1e9 / (point.time_ms.median / 1e3));
            }
            result.points.push(point);
        }
        progress.inc(1);
    }
    Ok(results)
}
