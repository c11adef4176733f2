//! Guide §3.2.1.4 with the OpenCL guide's word sizes: strided copies of
//! 2-, 4-, 8- and 16-byte elements.

use super::copy_sweep::BYTE_COUNTING;
use super::copy_sweep::SECTOR_GBPS;
use super::offset_width::{all_widths, width_summary};
use super::{Experiment, RunContext};
use crate::error::Result;
use crate::launchers::CopyKernel;
use crate::report::{Axis, ExperimentResult, Metric, Report, SectionHooks};
use crate::report::{Bound, Series, Unit};

pub struct StrideWidth;

impl Experiment for StrideWidth {
    fn name(&self) -> &'static str {
        "stride-width"
    }
    fn title(&self) -> &'static str {
        "Strided access by element width (2, 4, 8, 16 bytes)"
    }
    fn source(&self) -> &'static str {
        "Best Practices Guide §3.2.1.4 with the OpenCL guide's 4/8/16-byte words"
    }
    fn points(&self) -> u64 {
        4 * CopyKernel::Stride.sweep().len() as u64
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let peak = ctx.device.info().theoretical_bandwidth_gbps;
        let axis = Axis::lines("stride (elements)", Metric::Bandwidth).reference("theoretical peak", peak);
        let mut result = ctx.result(self, axis, BYTE_COUNTING);
        all_widths(ctx, &mut result, CopyKernel::Stride)?;
        Ok(result)
    }
}

impl SectionHooks for StrideWidth {
    fn bounds(&self, _result: &ExperimentResult, _series: &Series) -> Vec<Bound> {
        vec![Bound::headline(Unit::Dram), Bound::extra(SECTOR_GBPS, Unit::Dram)]
    }

    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        width_summary(result, 1, 2)
    }
}
