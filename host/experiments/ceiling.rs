//! The copy ceiling: the suite's best-practice Rust copy, its twins and the
//! driver's `cuMemcpyDtoDAsync`, on the same buffers in the same run.

use super::copy_sweep::SECTOR_GBPS;
use super::copy_sweep::{BYTE_COUNTING, Planned, buffer_len, measure};
use super::{Experiment, RunContext};
use crate::error::Result;
use crate::launchers::CopyKernel;
use crate::report::{Axis, ExperimentResult, Metric, PlotKind, Report, SectionHooks};
use crate::report::{Bound, Series, Unit};
use crate::testbed::Implementation;

pub struct Ceiling;

impl Experiment for Ceiling {
    fn name(&self) -> &'static str {
        "ceiling"
    }
    fn title(&self) -> &'static str {
        "Copy ceiling: vectorized grid-stride copy vs cuMemcpyDtoD"
    }
    fn source(&self) -> &'static str {
        "beyond the guide: the best a copy can do on this GPU"
    }
    fn points(&self) -> u64 {
        1
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let axis = Axis::lines("buffer MiB", Metric::Bandwidth).plot(PlotKind::None);
        let mut result = ctx.result(self, axis, BYTE_COUNTING);
        let len = buffer_len::<f32>(ctx, 0);
        let mib = ((len * 4) >> 20) as i32;
        result.setup.push(format!("buffers of {mib} MiB each"));
        let plan = [Planned::all(CopyKernel::Vector), Planned::all(CopyKernel::DriverCopy)];
        measure::<f32>(ctx, &mut result, &plan, &[mib], len, None)?;
        Ok(result)
    }
}

impl SectionHooks for Ceiling {
    fn bounds(&self, _result: &ExperimentResult, _series: &Series) -> Vec<Bound> {
        vec![Bound::headline(Unit::Dram), Bound::extra(SECTOR_GBPS, Unit::Dram)]
    }

    fn headline(&self, result: &ExperimentResult, report: &Report) -> Option<String> {
        let at = *result.values().first()?;
        let vector = result.series_of("vector_copy", Implementation::Rust)?.median_at(at)?;
        let mut text = format!("the Rust `vector_copy` moves {vector:.0} GB/s");
        if let Some(peak) = result
            .device
            .and_then(|d| report.device(d))
            .map(|d| d.theoretical_bandwidth_gbps)
            .filter(|p| *p >= vector)
        {
            text.push_str(&format!(
                ", {:.1}% of the theoretical {peak:.0} GB/s",
                100.0 * vector / peak
            ));
        }
        if let Some(driver) = result
            .series_of("cuMemcpyDtoDAsync", Implementation::CopyEngine)
            .and_then(|s| s.median_at(at))
        {
            text.push_str(&format!("; the driver's copy {driver:.0} GB/s"));
        }
        Some(text)
    }

    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        let Some(&value) = result.values().first() else {
            return Vec::new();
        };
        let figure = |kernel, implementation| {
            result
                .series_of(kernel, implementation)
                .and_then(|s| s.median_at(value))
        };
        let (Some(vector), Some(driver)) = (
            figure("vector_copy", Implementation::Rust),
            figure("cuMemcpyDtoDAsync", Implementation::CopyEngine),
        ) else {
            return Vec::new();
        };
        let mut text = format!(
            "The Rust vectorized copy moves {vector:.1} GB/s, {:.3}x the driver's cuMemcpyDtoDAsync ({driver:.1} \
             GB/s) on the same buffers.",
            vector / driver
        );
        for twin in [Implementation::CudaC, Implementation::OpenClC] {
            if let Some(other) = figure("vector_copy", twin) {
                text.push_str(&format!(
                    " Its {} twin moves {other:.1} GB/s ({:.3}x).",
                    twin.label(),
                    other / driver
                ));
            }
        }
        vec![text]
    }
}
