//! Guide §3.2.1.4 with the OpenCL guide's word sizes: strided copies of
//! 2-, 4-, 8- and 16-byte elements.

use super::copy_sweep::BYTE_COUNTING;
use super::copy_sweep::SECTOR_GBPS;
use super::offset_width::{all_widths, width_series, width_summary};
use super::{Experiment, RunContext};
use crate::error::Result;
use crate::launchers::CopyKernel;
use crate::report::{Axis, Claim, ExperimentResult, LedgerRow, Metric, Report, Rule, SectionHooks, Spread, better_by};
use crate::report::{Bound, Series, Unit};

pub struct StrideWidth;

/// The claims the experiment grades, all read at stride 1 (every width coalesced).
fn claims() -> Vec<Claim> {
    vec![
        Claim {
            id: "ocl-3.1.2.1-coalesced-8-byte",
            source: "OpenCL Programming Guide §3.1.2.1",
            claim: "Coalesced 8-byte words deliver a little less bandwidth than coalesced 4-byte words (cc 1.0/1.1)"
                .into(),
            rule: Rule::Direction,
            reads: "stride_copy · Rust at stride 1: GB/s of f32 over GB/s of f64".into(),
            experiment: "stride-width",
        },
        Claim {
            id: "ocl-3.1.2.1-coalesced-16-byte",
            source: "OpenCL Programming Guide §3.1.2.1",
            claim: "Coalesced 16-byte words deliver noticeably less bandwidth than coalesced 4-byte words (cc 1.0/1.1)"
                .into(),
            rule: Rule::Direction,
            reads: "stride_copy · Rust at stride 1: GB/s of f32 over GB/s of f32x4".into(),
            experiment: "stride-width",
        },
        Claim {
            id: "ocl-wp-scalar-vector-types",
            source: "OpenCL whitepaper, Instruction Optimizations (Scalar Architecture)",
            claim: "The architecture is scalar: vector types bring no performance benefit (use them for convenience), \
                    and more work-items are better than fewer with large vectors"
                .into(),
            rule: Rule::NoExtraCost {
                holds_within: 1.05,
                weaker_within: 1.5,
            },
            reads: "stride_copy · Rust at stride 1: GB/s of f32x4 (one float4 per work-item) over GB/s of f32 (one \
                    float per work-item, four times the work-items); a vector copy no faster holds"
                .into(),
            experiment: "stride-width",
        },
    ]
}

/// The stride-1 bandwidth of `a`'s elements over `b`'s (Rust), with its spread and the two figures.
fn coalesced_ratio(result: &ExperimentResult, a: &str, b: &str) -> Option<(Spread, f64, f64)> {
    let (pa, pb) = (width_series(result, a)?.at(1)?, width_series(result, b)?.at(1)?);
    Some((better_by(&result.axis.metric, pa, pb)?, pa.median()?, pb.median()?))
}

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

    fn claims(&self) -> Vec<Claim> {
        claims()
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        let claims = claims();
        let pairs = [("f32", "f64"), ("f32", "f32x4"), ("f32x4", "f32")];
        claims
            .iter()
            .zip(pairs)
            .filter_map(|(claim, (a, b))| {
                let (ratio, ga, gb) = coalesced_ratio(result, a, b)?;
                Some(claim.grade(
                    ratio,
                    format!(
                        "stride 1, Rust: {a} {ga:.0} GB/s, {b} {gb:.0} GB/s; {a} over {b} {}x",
                        ratio.text(2)
                    ),
                    result.device,
                ))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::ledger_fixtures::{rendered, result, series};
    use crate::report::{Metric, Verdict};
    use crate::testbed::Implementation;

    fn width(element: &str, coalesced: f64) -> crate::report::Series {
        let mut s = series(
            &format!("stride_copy_{element}"),
            Implementation::Rust,
            "",
            &[(1, coalesced), (2, coalesced / 2.0)],
            &[],
        );
        s.key.element = element.into();
        s
    }

    fn verdicts(f32: f64, f64: f64, f32x4: f64) -> Vec<(String, Verdict)> {
        let r = result(
            "stride-width",
            Metric::Bandwidth,
            vec![width("f32", f32), width("f64", f64), width("f32x4", f32x4)],
        );
        rendered(r).2.into_iter().map(|row| (row.id, row.verdict)).collect()
    }

    #[test]
    fn wide_words_and_vectors_are_graded_at_stride_one() {
        let v = |id: &str, list: &[(String, Verdict)]| list.iter().find(|r| r.0 == id).map(|r| r.1);
        // cc 1.0's picture: wider words a little slower, vectors no faster.
        let then = verdicts(80.0, 76.0, 60.0);
        assert_eq!(v("ocl-3.1.2.1-coalesced-8-byte", &then), Some(Verdict::Holds), "1.05x");
        assert_eq!(v("ocl-3.1.2.1-coalesced-16-byte", &then), Some(Verdict::Holds));
        assert_eq!(
            v("ocl-wp-scalar-vector-types", &then),
            Some(Verdict::Holds),
            "0.75x: no benefit"
        );
        // An H100's: the wide words are faster, so the vector copy is too.
        let now = verdicts(2400.0, 2900.0, 3000.0);
        assert_eq!(v("ocl-3.1.2.1-coalesced-8-byte", &now), Some(Verdict::Reversed));
        assert_eq!(v("ocl-3.1.2.1-coalesced-16-byte", &now), Some(Verdict::Reversed));
        assert_eq!(v("ocl-wp-scalar-vector-types", &now), Some(Verdict::Weaker), "1.25x");
        assert_eq!(
            v("ocl-wp-scalar-vector-types", &verdicts(1000.0, 1000.0, 2000.0)),
            Some(Verdict::Gone),
            "2x"
        );
        assert_eq!(
            v("ocl-3.1.2.1-coalesced-8-byte", &verdicts(1000.0, 1000.0, 1000.0)),
            Some(Verdict::Gone)
        );
    }
}
