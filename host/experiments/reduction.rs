//! The array sum (NVIDIA's CUDA samples' `reduction`): a shared-memory block
//! tree and a grid-stride warp-shuffle sum, in every implementation, beside
//! the copy ceiling for the same bytes, in one run.

use super::copy_sweep::{Planned, buffer_len, measure};
use super::{Experiment, RunContext};
use crate::error::Result;
use crate::input_values::sparse_ones;
use crate::launchers::{CopyKernel, reduction_runners};
use crate::report::{Axis, ExperimentResult, Metric, PlotKind, Point, PointKey, SectionHooks, Series, Waiver, Work};

pub struct Reduction;

impl Experiment for Reduction {
    fn name(&self) -> &'static str {
        "reduction"
    }
    fn title(&self) -> &'static str {
        "Array sum: shared-memory tree vs grid-stride warp shuffles"
    }
    fn source(&self) -> &'static str {
        "beyond the guides: NVIDIA's CUDA samples' reduction, against the copy ceiling"
    }
    fn points(&self) -> u64 {
        1
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let counting = "n x 4 bytes read once per sum (the partial sums written are not counted); the copy \
                        ceiling counts 2 x 4 bytes per element (read + write)";
        let axis = Axis::lines("buffer MiB", Metric::Bandwidth).plot(PlotKind::None);
        let mut result = ctx.result(self, axis, counting);
        let (mut runners, waived) = reduction_runners(ctx.device)?;
        for (implementation, reason) in waived {
            let what = implementation.label().to_string();
            result.waived.push(Waiver { what, reason });
        }
        let len = buffer_len::<f32>(ctx, 0);
        let mib = ((len * 4) >> 20) as i32;
        let x = sparse_ones(len);
        let exact: f64 = x.iter().map(|&v| v as f64).sum();
        let work = Work::bytes(len as u64, 4 * len as u64);
        for runner in runners.iter_mut() {
            runner.load(&x)?;
            for entry in runner.entries() {
                let key = ctx.key(entry.kernel.kernel(), entry.implementation, "f32");
                let mut series = Series::new(
                    key,
                    format!("{} · {}", entry.kernel.kernel(), entry.implementation.label()),
                );
                let times_ms = runner.time(&entry, ctx.settings)?;
                let got = runner.read_sum(&entry)?;
                let failure = (got != exact).then(|| format!("sum {got}, where the array holds {exact} ones"));
                if let Some(point) = Point::timed(
                    PointKey::Value(mib as i64),
                    &Metric::Bandwidth,
                    work,
                    &times_ms,
                    failure,
                ) {
                    series.points.push(point);
                }
                result.series.push(series);
            }
        }
        // The copy ceiling over the same buffer: what reading the array could cost at best.
        measure::<f32>(
            ctx,
            &mut result,
            &[Planned::rust(CopyKernel::Vector)],
            &[mib],
            len,
            None,
        )?;
        result.setup.push(format!("one array of {len} floats ({mib} MiB)"));
        result.notes.push(
            "each sum (the partial sums read back and added in f64 on the host) must equal the CPU's count exactly: \
             the array holds ones at one element in 256 (a hash picks which) and zeros elsewhere, so every partial \
             sum is an integer below 2^24 that f32 adds exactly in any order; the bytes read, and so the figure, do \
             not depend on the values"
                .into(),
        );
        Ok(result)
    }
}

impl SectionHooks for Reduction {}
