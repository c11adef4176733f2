//! Guide §3.2.1.4 (Listing 3.6, Figure 3.9): strided copies.

use super::copy_sweep::{BYTE_COUNTING, Planned, buffer_len, measure};
use super::sector_model;
use super::{Experiment, RunContext};
use crate::error::Result;
use crate::launchers::CopyKernel;
use crate::report::{Axis, ExperimentResult, LedgerRow, Metric, Report, SectionHooks};
use crate::testbed::Implementation;

pub struct Stride;

impl Experiment for Stride {
    fn name(&self) -> &'static str {
        "stride"
    }
    fn title(&self) -> &'static str {
        "Strided access: stride copy"
    }
    fn source(&self) -> &'static str {
        "CUDA C Best Practices Guide 4.0, §3.2.1.4, Listing 3.6, Figure 3.9"
    }
    fn points(&self) -> u64 {
        CopyKernel::Stride.sweep().len() as u64
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let kernel = CopyKernel::Stride;
        let peak = ctx.device.info().theoretical_bandwidth_gbps;
        let axis = Axis::lines("stride (elements)", Metric::Bandwidth).reference("theoretical peak", peak);
        let mut result = ctx.result(self, axis, BYTE_COUNTING);
        let len = buffer_len::<f32>(ctx, kernel.room());
        result.setup.push(format!(
            "buffers of {} MiB each (one size for every stride: the threads fall as 1/stride, and even at stride 32 \
             the sectors touched exceed L2), 256 threads per block",
            (len * 4) >> 20
        ));
        measure::<f32>(
            ctx,
            &mut result,
            &[Planned::all(kernel)],
            kernel.sweep(),
            len,
            Some(sector_model::stride_copy_bytes),
        )?;
        Ok(result)
    }
}

impl SectionHooks for Stride {
    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        let Some(series) = result.series_of("stride_copy", Implementation::Rust) else {
            return Vec::new();
        };
        let (Some(base), Some(worst)) = (series.median_at(1), series.worst(&result.axis.metric)) else {
            return Vec::new();
        };
        let low = worst.median().unwrap_or(base);
        let floor = base / 8.0;
        let mut text = format!(
            "**Then vs now.** The slowest stride ({}) runs at {low:.1} GB/s, {:.1}x slower than unit stride \
             ({base:.1} GB/s). Counting 32-byte sectors predicts unit-stride bandwidth divided by the stride up to \
             stride 8, then a floor of 1/8 ({floor:.1} GB/s here), since each 4-byte element then costs a whole \
             sector; the \"DRAM-sector GB/s\" column is that actual traffic over the measured time.",
            worst.at,
            base / low
        );
        if let (Some(s2), Some(s8)) = (series.median_at(2), series.median_at(8)) {
            text.push_str(&format!(
                " Measured: stride 2 gives {s2:.1} GB/s (model {:.1}), stride 8 gives {s8:.1} GB/s (model {floor:.1}).",
                base / 2.0
            ));
        }
        if low < 0.9 * floor {
            text.push_str(
                " Past stride 8 the measured figure falls below the sector model: sector counting alone does not \
                 explain the sparsest accesses.",
            );
        }
        text.push_str(" On cc 1.0 any stride above 1 cost 16 transactions per half warp.");
        vec![text]
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        let Some(series) = result.series_of("stride_copy", Implementation::Rust) else {
            return Vec::new();
        };
        let (Some(s1), Some(s2)) = (series.median_at(1), series.median_at(2)) else {
            return Vec::new();
        };
        vec![LedgerRow::factor(
            "bpg-3.2.1.4-stride-2",
            "Best Practices Guide §3.2.1.4",
            "A stride of 2 halves effective bandwidth: half of each transaction is wasted",
            2.0,
            s1 / s2,
            format!("stride 1: {s1:.0} GB/s, stride 2: {s2:.0} GB/s"),
            &result.name,
            result.device,
        )]
    }
}
