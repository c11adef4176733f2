//! Guide §3.2.1.3 (Listing 3.5, Figure 3.7): sequential but misaligned copies.

use super::copy_sweep::SECTOR_GBPS;
use super::copy_sweep::{BYTE_COUNTING, Planned, buffer_len, measure};
use super::counter_evidence::{evidence, sector_checks};
use super::sector_model;
use super::{Experiment, RunContext};
use crate::error::Result;
use crate::launchers::CopyKernel;
use crate::published_figures::OFFSET;
use crate::report::Panel;
use crate::report::{
    Axis, Claim, ExperimentResult, LedgerRow, Metric, PlotLine, PlotPoint, PlotSpec, Report, Rule, Scale, SectionHooks,
    better_by,
};
use crate::report::{Bound, Series, Unit};
use crate::testbed::Implementation;

pub struct Offset;

impl Experiment for Offset {
    fn name(&self) -> &'static str {
        "offset"
    }
    fn title(&self) -> &'static str {
        "Misaligned access: offset copy"
    }
    fn source(&self) -> &'static str {
        "CUDA C Best Practices Guide 4.0, §3.2.1.3, Listing 3.5, Figure 3.7"
    }
    fn points(&self) -> u64 {
        CopyKernel::Offset.sweep().len() as u64
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let kernel = CopyKernel::Offset;
        let mut result = ctx.result(self, Axis::lines("offset (elements)", Metric::Bandwidth), BYTE_COUNTING);
        let len = buffer_len::<f32>(ctx, kernel.room());
        result.setup.push(format!(
            "buffers of {} MiB each, 256 threads per block",
            (len * 4) >> 20
        ));
        measure::<f32>(
            ctx,
            &mut result,
            &[Planned::all(kernel)],
            kernel.sweep(),
            len,
            Some(sector_model::offset_copy_bytes),
        )?;
        Ok(result)
    }
}

/// The Rust series' median at each offset over its median at offset 0.
fn relative_to_aligned(result: &ExperimentResult) -> Option<Vec<PlotPoint>> {
    let series = result.series_of("offset_copy", Implementation::Rust)?;
    let base = series.median_at(0).filter(|b| *b > 0.0)?;
    Some(
        series
            .points
            .iter()
            .filter_map(|p| {
                let v = p.value?;
                Some(PlotPoint::new(
                    p.at.value()? as f64,
                    v.median / base,
                    v.min / base,
                    v.max / base,
                ))
            })
            .collect(),
    )
}

impl SectionHooks for Offset {
    fn bounds(&self, _result: &ExperimentResult, _series: &Series) -> Vec<Bound> {
        vec![Bound::headline(Unit::Dram), Bound::extra(SECTOR_GBPS, Unit::Dram)]
    }

    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        let Some(series) = result.series_of("offset_copy", Implementation::Rust) else {
            return Vec::new();
        };
        let (Some(base), Some(worst)) = (series.median_at(0), series.worst(&result.axis.metric)) else {
            return Vec::new();
        };
        let low = worst.median().unwrap_or(base);
        vec![format!(
            "**Then vs now.** The worst offset ({}) runs at {low:.1} GB/s, {:.2}x slower than offset 0 ({base:.1} \
             GB/s). On the guide's 8800 GTX (cc 1.0) a misaligned offset took the copy from 74 to 7 GB/s (the \
             guide calls it \"roughly 8x\"; its figures give 10.6x); on the GTX 280 (cc 1.3) from 120 to 70 GB/s \
             (1.7x). The second plot sets today's figures beside those ratios.",
            worst.at,
            base / low
        )]
    }

    fn extra_plots(&self, result: &ExperimentResult, _report: &Report) -> Vec<PlotSpec> {
        let Some(points) = relative_to_aligned(result) else {
            return Vec::new();
        };
        let ratio = |aligned: f64, misaligned: f64| misaligned / aligned;
        let [gtx8800_aligned, gtx8800_other, gtx280_aligned, gtx280_other] =
            [0, 1, 2, 3].map(|i| OFFSET[i].value.unwrap_or(1.0));
        vec![PlotSpec {
            suffix: "relative".into(),
            title: "Offset copy relative to offset 0: then and now".into(),
            x_label: "offset (elements)".into(),
            y_label: "bandwidth / bandwidth at offset 0".into(),
            x_scale: Scale::Linear,
            y_scale: Scale::Linear,
            panels: vec![Panel::of(
                vec![PlotLine {
                    label: "today: offset_copy · Rust".into(),
                    group: 0,
                    implementation: Implementation::Rust,
                    points,
                }],
                vec![
                    crate::report::ReferenceLine {
                        label: "GTX 280, misaligned (guide)".into(),
                        value: ratio(gtx280_aligned, gtx280_other),
                    },
                    crate::report::ReferenceLine {
                        label: "8800 GTX, misaligned (guide)".into(),
                        value: ratio(gtx8800_aligned, gtx8800_other),
                    },
                ],
            )],
            ..PlotSpec::default()
        }]
    }

    fn claims(&self) -> Vec<Claim> {
        vec![Claim {
            id: "bpg-3.2.1.3-misaligned",
            source: "Best Practices Guide §3.2.1.3",
            claim: "A warp reading from a misaligned start address loses most of its bandwidth (8800 GTX: 74 → 7 GB/s)"
                .into(),
            rule: Rule::Factor { claimed: 74.0 / 7.0 },
            reads: "offset_copy · Rust: GB/s at offset 0 over GB/s at the worst offset".into(),
            experiment: "offset",
        }]
    }

    fn ledger(&self, result: &ExperimentResult, report: &Report) -> Vec<LedgerRow> {
        let Some(series) = result.series_of("offset_copy", Implementation::Rust) else {
            return Vec::new();
        };
        let (Some(base), Some(worst)) = (series.at(0), series.worst(&result.axis.metric)) else {
            return Vec::new();
        };
        let Some(factor) = better_by(&result.axis.metric, base, worst) else {
            return Vec::new();
        };
        let gbps = |p: &crate::report::Point| p.median().unwrap_or(f64::NAN);
        let claim = &self.claims()[0];
        vec![
            claim
                .grade(
                    factor,
                    format!(
                        "offset 0: {:.0} GB/s, worst offset ({}): {:.0} GB/s; {}x",
                        gbps(base),
                        worst.at,
                        gbps(worst),
                        factor.text(2)
                    ),
                    result.device,
                )
                .with_counters(evidence(
                    sector_checks(
                        series,
                        &[0, worst.at.value().unwrap_or(0)],
                        (sector_model::offset_copy_bytes, 4),
                        "offset",
                    ),
                    result,
                    report,
                )),
        ]
    }
}
