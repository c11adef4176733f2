//! The measurement loop every copy experiment shares.
//!
//! For each point and each series, as NVIDIA's transpose sample does: fill
//! the destination with a sentinel, one warm-up launch, then `samples`
//! samples of `reps` launches between two timing events; then read the
//! destination back and compare it, element for element, with the CPU
//! reference. The series of one point run back to back, so every
//! implementation sees the same clocks and temperature.

use super::RunContext;
use super::counter_launch::count_point;
use super::sector_model::SectorModel;
use crate::copy_element::{CopyElement, first_mismatch, pattern};
use crate::counters::DRAM_GBPS;
use crate::error::Result;
use crate::launchers::{CopyKernel, CopyReference, copy_runners};
use crate::report::{ExperimentResult, Metric, Point, PointKey, Series, Waiver, Work};
use crate::testbed::Implementation;

/// The modelled DRAM traffic over the measured time (the guide's actual bandwidth, from the addresses).
pub const SECTOR_GBPS: &str = "DRAM-sector GB/s";

/// How the copy experiments count bytes.
pub const BYTE_COUNTING: &str = "Br + Bw = one element read + one element written per element copied \
    (useful bytes only, as the guide counts: sectors fetched but unused lower the figure)";

/// One kernel of a copy experiment, by every implementation or by Rust alone.
#[derive(Clone, Copy)]
pub struct Planned {
    pub kernel: CopyKernel,
    pub rust_only: bool,
}

impl Planned {
    pub const fn all(kernel: CopyKernel) -> Self {
        Self {
            kernel,
            rust_only: false,
        }
    }

    pub const fn rust(kernel: CopyKernel) -> Self {
        Self {
            kernel,
            rust_only: true,
        }
    }
}

/// Buffer elements of `T` for the run's buffer size plus `room`.
pub fn buffer_len<T>(ctx: &RunContext<'_>, room: usize) -> usize {
    (ctx.settings.buffer_bytes(ctx.device.info()) / size_of::<T>() as u64) as usize + room
}

/// Measures every planned kernel on every implementation at every value,
/// with buffers of `len` elements, appending one series per (kernel,
/// implementation) to `result`.
pub fn measure<T: CopyElement + 'static>(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    plan: &[Planned],
    values: &[i32],
    len: usize,
    sector_model: Option<SectorModel>,
) -> Result<()> {
    let (mut runners, waived) = copy_runners::<T>(ctx.device, len)?;
    for (implementation, reason) in waived {
        let what = format!("{} kernels", implementation.label());
        if !result.waived.iter().any(|w| w.what == what) {
            result.waived.push(Waiver { what, reason });
        }
    }
    // (runner, implementation, kernel, index of its series in `result`)
    let mut series: Vec<(usize, Implementation, CopyKernel, usize)> = Vec::new();
    for planned in plan {
        let Some(entry) = planned.kernel.entry::<T>() else {
            continue;
        };
        for (r, runner) in runners.iter().enumerate() {
            for &implementation in runner.implementations() {
                if !planned.kernel.runs_on(implementation)
                    || (planned.rust_only && implementation != Implementation::Rust)
                {
                    continue;
                }
                let key = ctx.key(entry, implementation, T::NAME);
                result.series.push(Series::of(key));
                series.push((r, implementation, planned.kernel, result.series.len() - 1));
            }
        }
    }
    let input = pattern::<T>(len);
    let mut expected = vec![T::SENTINEL; len];
    let mut got = vec![T::SENTINEL; len];
    let theoretical = ctx.device.info().theoretical_bandwidth_gbps;
    let elem_bytes = size_of::<T>() as u64;
    // The reference output last computed: twins at the same point reuse it.
    let mut expected_for: Option<(CopyReference<T>, u64, i32)> = None;
    for (done, &value) in values.iter().enumerate() {
        if ctx.stop_before(done, values.len()) {
            break;
        }
        for &(r, implementation, kernel, index) in &series {
            let runner = &mut runners[r];
            ctx.progress
                .set_message(format!("{} {value}", result.series[index].label));
            let threads = kernel.threads(runner.buffer_len(), value);
            runner.fill_output(T::SENTINEL)?;
            let times_ms = runner.time(implementation, kernel, threads, value, ctx.settings)?;
            runner.read_output(&mut got)?;
            let reference = kernel.reference::<T>();
            let fresh = !matches!(expected_for, Some((f, t, v))
                if std::ptr::fn_addr_eq(f, reference) && t == threads && v == value);
            if fresh {
                expected.fill(T::SENTINEL);
                reference(&mut expected, &input, threads as usize, value.max(0) as usize);
                expected_for = Some((reference, threads, value));
            }
            let failure = first_mismatch(&got, &expected);
            let work = Work::bytes(threads, 2 * elem_bytes * threads); // Br + Bw
            let Some(mut point) = Point::timed(
                PointKey::Value(value as i64),
                &Metric::Bandwidth,
                work,
                &times_ms,
                failure,
            ) else {
                continue;
            };
            if let Some(gbps) = point.median()
                && theoretical > 0.0
            {
                point.set_extra("% of peak", 100.0 * gbps / theoretical);
            }
            if let (Some(model), Some(ms)) = (sector_model, point.median_ms()) {
                let sector_bytes = model(threads, value, elem_bytes);
                point.set_extra(SECTOR_GBPS, sector_bytes as f64 / 1e9 / (ms / 1e3));
            }
            // After the timed samples and the check: the counters of one more launch (--counters).
            let counted = count_point(ctx, result, implementation, &mut point, &mut || {
                runner.launch(implementation, kernel, threads, value)
            })?;
            if let (Some(bytes), Some(ms)) = (counted.and_then(|c| c.dram_bytes()), point.median_ms()) {
                point.set_extra(DRAM_GBPS, bytes / 1e9 / (ms / 1e3));
            }
            result.series[index].points.push(point);
        }
        ctx.progress.inc(1);
    }
    Ok(())
}
