//! Guide §3.2.1.3 with the OpenCL guide's word sizes: misaligned copies of
//! 2-, 4-, 8- and 16-byte elements.

use super::copy_sweep::SECTOR_GBPS;
use crate::report::{Bound, Series, Unit};
use half::f16;
use kernels_gpu::device::F32x4;

use super::copy_sweep::{BYTE_COUNTING, Planned, buffer_len, measure};
use super::{Experiment, RunContext, sector_model};
use crate::error::Result;
use crate::launchers::CopyKernel;
use crate::report::{Axis, ExperimentResult, Metric, Report, SectionHooks};
use crate::testbed::Implementation;

pub struct OffsetWidth;

/// Every width's series of `kernel` (f16, f32, f64, f32x4), each on buffers of the run's size.
pub fn all_widths(ctx: &RunContext<'_>, result: &mut ExperimentResult, kernel: CopyKernel) -> Result<()> {
    let plan = [Planned::all(kernel)];
    let model = match kernel {
        CopyKernel::Stride => sector_model::stride_copy_bytes,
        _ => sector_model::offset_copy_bytes,
    };
    let room = kernel.room();
    measure::<f16>(
        ctx,
        result,
        &plan,
        kernel.sweep(),
        buffer_len::<f16>(ctx, room),
        Some(model),
    )?;
    measure::<f32>(
        ctx,
        result,
        &plan,
        kernel.sweep(),
        buffer_len::<f32>(ctx, room),
        Some(model),
    )?;
    measure::<f64>(
        ctx,
        result,
        &plan,
        kernel.sweep(),
        buffer_len::<f64>(ctx, room),
        Some(model),
    )?;
    measure::<F32x4>(
        ctx,
        result,
        &plan,
        kernel.sweep(),
        buffer_len::<F32x4>(ctx, room),
        Some(model),
    )?;
    result.setup.push(format!(
        "buffers of {} MiB each whatever the width, 256 threads per block, one element per thread",
        ctx.settings.buffer_bytes(ctx.device.info()) >> 20
    ));
    Ok(())
}

/// One sentence per width: the figure at `first`, the drop to `second`, the worst point.
pub fn width_summary(result: &ExperimentResult, first: i64, second: i64) -> Vec<String> {
    let parts: Vec<String> = result
        .series
        .iter()
        .filter(|s| s.key.implementation == Implementation::Rust)
        .filter_map(|s| {
            let a = s.median_at(first)?;
            let b = s.median_at(second)?;
            let worst = s.worst(&result.axis.metric)?;
            let low = worst.median()?;
            Some(format!(
                "{}: {a:.0} GB/s at {first}, {:.2}x less at {second}, worst at {}: {low:.0} GB/s ({:.2}x)",
                s.key.element,
                a / b,
                worst.at,
                a / low
            ))
        })
        .collect();
    if parts.is_empty() {
        return Vec::new();
    }
    vec![format!(
        "**By element width** ({}; Rust kernels, median): {}. With one element per thread, narrow elements are \
         limited by memory instructions rather than bytes (compare the aligned figures). A 32-byte sector holds \
         16, 8, 4 or 2 of these elements, so wider elements waste fewer bytes per misaligned warp and reach the \
         one-element-per-sector floor at smaller strides.",
        result.axis.parameter,
        parts.join("; ")
    )]
}

impl Experiment for OffsetWidth {
    fn name(&self) -> &'static str {
        "offset-width"
    }
    fn title(&self) -> &'static str {
        "Misaligned access by element width (2, 4, 8, 16 bytes)"
    }
    fn source(&self) -> &'static str {
        "Best Practices Guide §3.2.1.3 with the OpenCL guide's 4/8/16-byte words"
    }
    fn points(&self) -> u64 {
        4 * CopyKernel::Offset.sweep().len() as u64
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let peak = ctx.device.info().theoretical_bandwidth_gbps;
        let axis = Axis::lines("offset (elements)", Metric::Bandwidth).reference("theoretical peak", peak);
        let mut result = ctx.result(self, axis, BYTE_COUNTING);
        all_widths(ctx, &mut result, CopyKernel::Offset)?;
        Ok(result)
    }
}

impl SectionHooks for OffsetWidth {
    fn bounds(&self, _result: &ExperimentResult, _series: &Series) -> Vec<Bound> {
        vec![Bound::headline(Unit::Dram), Bound::extra(SECTOR_GBPS, Unit::Dram)]
    }

    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        width_summary(result, 0, 1)
    }
}
