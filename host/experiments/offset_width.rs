//! Guide §3.2.1.3 with the OpenCL guide's word sizes: misaligned copies of
//! 2-, 4-, 8- and 16-byte elements.

use super::copy_sweep::SECTOR_GBPS;
use crate::report::{Bound, Series, Unit};
use half::f16;
use kernels_gpu::device::F32x4;

use super::copy_sweep::{BYTE_COUNTING, Planned, measure};
use super::{Experiment, RunContext, sector_model};
use crate::error::Result;
use crate::launchers::CopyKernel;
use crate::report::{Axis, Claim, ExperimentResult, LedgerRow, Metric, Report, Rule, SectionHooks, better_by};
use crate::testbed::Implementation;

pub struct OffsetWidth;

/// Every width's series of `kernel` (f16, f32, f64, f32x4), each on buffers of the run's size.
/// The bytes of each width's buffers: half the run's default (4 × L2
/// instead of 8: still several times the L2, and the width sweeps make 12
/// series of 32 or 33 points each, 80–90 s a run at 8 × L2 on an H100), or
/// what `--size-mib` asks for.
fn width_buffer_bytes(ctx: &RunContext<'_>) -> u64 {
    let bytes = ctx.settings.buffer_bytes(ctx.device.info());
    match ctx.settings.buffer_mib {
        Some(_) => bytes,
        None => (bytes / 2).max(64 << 20),
    }
}

/// Elements of `T` in a width buffer, plus the sweep's room.
fn width_len<T>(ctx: &RunContext<'_>, room: usize) -> usize {
    (width_buffer_bytes(ctx) / size_of::<T>() as u64) as usize + room
}

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
        width_len::<f16>(ctx, room),
        Some(model),
    )?;
    measure::<f32>(
        ctx,
        result,
        &plan,
        kernel.sweep(),
        width_len::<f32>(ctx, room),
        Some(model),
    )?;
    measure::<f64>(
        ctx,
        result,
        &plan,
        kernel.sweep(),
        width_len::<f64>(ctx, room),
        Some(model),
    )?;
    measure::<F32x4>(
        ctx,
        result,
        &plan,
        kernel.sweep(),
        width_len::<F32x4>(ctx, room),
        Some(model),
    )?;
    result.setup.push(format!(
        "buffers of {} MiB each whatever the width (4 × L2 unless --size-mib says), 256 threads per block, one \
         element per thread",
        width_buffer_bytes(ctx) >> 20
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

/// The Rust series of `element` ("f16", "f32", "f64", "f32x4") in a width result.
pub fn width_series<'a>(result: &'a ExperimentResult, element: &str) -> Option<&'a Series> {
    result
        .series
        .iter()
        .find(|s| s.key.implementation == Implementation::Rust && s.key.element == element && s.key.variant.is_empty())
}

/// The OpenCL guide's cc 1.0/1.1 figures for non-coalesced words (§3.1.2.1): by how many times a
/// non-coalesced access is slower than a coalesced one, by word width, with the elements measured.
const UNCOALESCED: [(&str, &str, &str, &str, f64); 3] = [
    (
        "ocl-3.1.2.1-uncoalesced-4-byte",
        "4-byte",
        "f32",
        "an order of magnitude",
        10.0,
    ),
    (
        "ocl-3.1.2.1-uncoalesced-8-byte",
        "8-byte",
        "f64",
        "about four times",
        4.0,
    ),
    (
        "ocl-3.1.2.1-uncoalesced-16-byte",
        "16-byte",
        "f32x4",
        "about two times",
        2.0,
    ),
];

/// The claims the experiment grades.
fn claims() -> Vec<Claim> {
    UNCOALESCED
        .into_iter()
        .map(|(id, width, element, words, factor)| Claim {
            id,
            source: "OpenCL Programming Guide §3.1.2.1",
            claim: format!(
                "On cc 1.0/1.1 a half-warp of {width} words that is not coalesced (here: misaligned) gets {words} \
                 less bandwidth than a coalesced one"
            ),
            rule: Rule::Factor { claimed: factor },
            reads: format!(
                "offset_copy ({element}) · Rust: GB/s at offset 0 over GB/s at the typical misaligned offset (the \
                 median of offsets 1 and up: the worst of 31 is picked from noise)"
            ),
            experiment: "offset-width",
        })
        .collect()
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

    fn claims(&self) -> Vec<Claim> {
        claims()
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        claims()
            .iter()
            .zip(UNCOALESCED)
            .filter_map(|(claim, (_, _, element, _, _))| {
                let series = width_series(result, element)?;
                let aligned = series.at(0)?;
                let typical = series.typical(|p| p.at.value() != Some(0))?;
                let worst = series.worst(&result.axis.metric)?;
                let factor = better_by(&result.axis.metric, aligned, typical)?;
                Some(claim.grade(
                    factor,
                    format!(
                        "{element}: offset 0 {:.0} GB/s, the typical misaligned offset ({}) {:.0} GB/s; {}x (the \
                         worst, offset {}: {:.0} GB/s)",
                        aligned.median()?,
                        typical.at,
                        typical.median()?,
                        factor.text(2),
                        worst.at,
                        worst.median()?,
                    ),
                    result.device,
                ))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::execution_fixtures::report;
    use super::super::ledger_fixtures::{rendered, result, series};
    use super::OffsetWidth;
    use crate::report::{Metric, SectionHooks, Verdict};
    use crate::testbed::Implementation;

    /// A width series: `aligned` GB/s at offset 0, `misaligned` the typical of offsets 1 to 3 (offset 1 a tenth
    /// slower: the worst, which must not decide the row).
    fn width(element: &str, aligned: f64, misaligned: f64) -> crate::report::Series {
        let mut s = series(
            &format!("offset_copy_{element}"),
            Implementation::Rust,
            "",
            &[
                (0, aligned),
                (1, misaligned * 0.9),
                (2, misaligned),
                (3, misaligned * 1.1),
            ],
            &[],
        );
        s.key.element = element.into();
        s
    }

    #[test]
    fn each_width_is_graded_by_its_own_figure() {
        let r = result(
            "offset-width",
            Metric::Bandwidth,
            vec![
                width("f32", 2400.0, 240.0),
                width("f64", 2900.0, 2800.0),
                width("f32x4", 3000.0, 1000.0),
                width("f32", 1.0, 1.0),
            ],
        );
        let rows = OffsetWidth.ledger(&r, &report(vec![r.clone()]));
        let verdicts: Vec<(&str, Verdict)> = rows.iter().map(|row| (row.id.as_str(), row.verdict)).collect();
        assert_eq!(
            verdicts,
            [
                ("ocl-3.1.2.1-uncoalesced-4-byte", Verdict::Holds),
                ("ocl-3.1.2.1-uncoalesced-8-byte", Verdict::Gone),
                ("ocl-3.1.2.1-uncoalesced-16-byte", Verdict::Stronger),
            ],
            "10x of 10, 1.04x of 4, 3x of 2 (the first f32 series is read)"
        );
        assert!(
            rows[0]
                .measured
                .contains("the typical misaligned offset (2) 240 GB/s; 10.00x (the worst, offset 1: 216 GB/s)"),
            "{}",
            rows[0].measured
        );
        let only_f64 = result("offset-width", Metric::Bandwidth, vec![width("f64", 2900.0, 725.0)]);
        let (_, _, rows) = rendered(only_f64);
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(rows[0].verdict, Verdict::Holds, "4x, through the report's ledger");
    }
}
