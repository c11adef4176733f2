//! Guide §3.2.1.4 (Listing 3.6, Figure 3.9): strided copies.

use super::copy_sweep::SECTOR_GBPS;
use super::copy_sweep::{BYTE_COUNTING, Planned, buffer_len, measure};
use super::counter_evidence::{counted, evidence, sector_checks};
use super::sector_model;
use super::{Experiment, RunContext};
use crate::error::Result;
use crate::launchers::CopyKernel;
use crate::report::{Axis, Claim, ExperimentResult, LedgerRow, Metric, Report, Rule, SectionHooks, Spread, better_by};
use crate::report::{Bound, Series, Unit};
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
    fn bounds(&self, _result: &ExperimentResult, _series: &Series) -> Vec<Bound> {
        vec![Bound::headline(Unit::Dram), Bound::extra(SECTOR_GBPS, Unit::Dram)]
    }

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

    fn claims(&self) -> Vec<Claim> {
        vec![
            Claim {
                id: "bpg-3.2.1.4-stride-2",
                source: "Best Practices Guide §3.2.1.4",
                claim: "A stride of 2 halves effective bandwidth: half of each transaction is wasted".into(),
                rule: Rule::Factor { claimed: 2.0 },
                reads: "stride_copy · Rust: GB/s at stride 1 over GB/s at stride 2".into(),
                experiment: "stride",
            },
            Claim {
                id: "bpg-2.2.3-effective-vs-actual",
                source: "Best Practices Guide §2.2.3",
                claim: "The profiler's memory throughput counts every byte the memory moves, used or not; effective \
                    bandwidth counts only the bytes the algorithm needs, so it is lower, and their ratio estimates \
                    the bandwidth wasted by uncoalesced accesses"
                    .into(),
                rule: Rule::Factor {
                    claimed: sector_model::stride_copy_bytes(1 << 20, 32, F32_BYTES) as f64 / (8u64 << 20) as f64,
                },
                reads: "stride_copy · Rust at the largest stride with counters (`run --counters`): DRAM bytes counted \
                    over the bytes the copy uses, against the sector model's ratio (the claimed factor is the \
                    model's at that stride; shown here at stride 32)"
                    .into(),
                experiment: "stride",
            },
        ]
    }

    fn ledger(&self, result: &ExperimentResult, report: &Report) -> Vec<LedgerRow> {
        let Some(series) = result.series_of("stride_copy", Implementation::Rust) else {
            return Vec::new();
        };
        let (Some(p1), Some(p2)) = (series.at(1), series.at(2)) else {
            return Vec::new();
        };
        let (Some(factor), Some(s1), Some(s2)) = (better_by(&result.axis.metric, p1, p2), p1.median(), p2.median())
        else {
            return Vec::new();
        };
        let model = (sector_model::stride_copy_bytes as sector_model::SectorModel, F32_BYTES);
        let checks = evidence(sector_checks(series, &[1, 2], model, "stride"), result, report);
        let mut rows = vec![
            self.claims()[0]
                .grade(
                    factor,
                    format!("stride 1: {s1:.0} GB/s, stride 2: {s2:.0} GB/s; {}x", factor.text(2)),
                    result.device,
                )
                .with_counters(checks),
        ];
        rows.extend(effective_vs_actual_row(result, report));
        rows
    }
}

/// Bytes of the stride copy's element (`f32`).
const F32_BYTES: u64 = 4;

/// Guide §2.2.3 as a ledger row, where the counters were collected: at the
/// largest stride, the device-memory bytes the counters saw over the bytes
/// the copy uses (effective bandwidth's bytes), against the sector model's
/// ratio; the model itself checked against the counters.
fn effective_vs_actual_row(result: &ExperimentResult, report: &Report) -> Option<LedgerRow> {
    let series = result.series_of("stride_copy", Implementation::Rust)?;
    let (stride, point) = series
        .points
        .iter()
        .filter(|p| p.median().is_some())
        .filter_map(|p| Some((p.at.value()?, p)))
        .filter(|(_, p)| counted(p).and_then(|c| c.dram_bytes()).is_some())
        .max_by_key(|(s, _)| *s)?;
    let counted_bytes = counted(point)?.dram_bytes()?;
    let (effective, ms) = (point.median()?, point.median_ms()?);
    let useful = point.bytes as f64;
    let modelled = sector_model::stride_copy_bytes(point.elements, i32::try_from(stride).ok()?, F32_BYTES) as f64;
    let actual = counted_bytes / 1e9 / (ms / 1e3);
    let model = (sector_model::stride_copy_bytes as sector_model::SectorModel, F32_BYTES);
    let checks = evidence(sector_checks(series, &[stride], model, "stride"), result, report);
    let mut claim = Stride.claims().swap_remove(1);
    claim.rule = Rule::Factor {
        claimed: modelled / useful,
    };
    Some(
        claim
            .grade(
                Spread::exact(counted_bytes / useful),
                format!(
                    "Rust stride_copy at stride {stride}: effective {effective:.0} GB/s, actual {actual:.0} GB/s from \
                     the DRAM counters ({:.2}x; the sector model: {:.2}x)",
                    counted_bytes / useful,
                    modelled / useful
                ),
                result.device,
            )
            .with_counters(checks),
    )
}
