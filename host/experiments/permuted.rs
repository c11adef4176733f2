//! Best Practices Guide §3.2.1.1: a warp reading the words of its own
//! aligned segment in a scrambled order, against the in-order copy.

use super::copy_sweep::SECTOR_GBPS;
use super::copy_sweep::{BYTE_COUNTING, Planned, buffer_len, measure};
use super::sector_model;
use super::{Experiment, RunContext};
use crate::error::Result;
use crate::launchers::CopyKernel;
use crate::report::{Axis, Claim, ExperimentResult, LedgerRow, Metric, Point, Report, Rule, SectionHooks, better_by};
use crate::report::{Bound, Series, Unit};
use crate::testbed::Implementation;

pub struct Permuted;

/// The claim: a permutation inside a segment costs nothing from cc 1.2 on.
fn claim() -> Claim {
    Claim {
        id: "bpg-3.2.1.1-permuted",
        source: "Best Practices Guide §3.2.1.1",
        claim: "Threads reading the words of one aligned segment in a permuted order still cost one transaction \
                (cc 1.2 and later; 16 serialized ones on cc 1.0/1.1)"
            .into(),
        rule: Rule::NoExtraCost {
            holds_within: 1.05,
            weaker_within: 1.5,
        },
        reads: "permuted_copy · Rust: GB/s at key 0 (in order) over GB/s at the slowest permuted key".into(),
        experiment: "permuted",
    }
}

/// The in-order point (key 0) and the slowest permuted one of `series`.
fn in_order_and_slowest(series: &Series) -> Option<(&Point, &Point)> {
    let in_order = series.at(0)?;
    let slowest = series
        .points
        .iter()
        .filter(|p| p.at.value() != Some(0))
        .filter_map(|p| Some((p, p.median()?)))
        .min_by(|a, b| a.1.total_cmp(&b.1))?
        .0;
    Some((in_order, slowest))
}

impl Experiment for Permuted {
    fn name(&self) -> &'static str {
        "permuted"
    }
    fn title(&self) -> &'static str {
        "Permuted access within an aligned segment"
    }
    fn source(&self) -> &'static str {
        "CUDA C Best Practices Guide 4.0, §3.2.1.1, Figure 3.4"
    }
    fn points(&self) -> u64 {
        CopyKernel::Permuted.sweep().len() as u64
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let kernel = CopyKernel::Permuted;
        let axis = Axis::lines("permutation key (0 = in order)", Metric::Bandwidth);
        let mut result = ctx.result(self, axis, BYTE_COUNTING);
        let len = buffer_len::<f32>(ctx, kernel.room());
        result.setup.push(format!(
            "buffers of {} MiB each, 256 threads per block; lane l of each warp reads word \
             (l·(2·key + 1)) mod 32 XOR key of its warp's aligned 128-byte segment and writes word l",
            (len * 4) >> 20
        ));
        let model = Some(sector_model::permuted_copy_bytes as sector_model::SectorModel);
        measure::<f32>(ctx, &mut result, &[Planned::all(kernel)], kernel.sweep(), len, model)?;
        Ok(result)
    }
}

impl SectionHooks for Permuted {
    fn bounds(&self, _result: &ExperimentResult, _series: &Series) -> Vec<Bound> {
        vec![Bound::headline(Unit::Dram), Bound::extra(SECTOR_GBPS, Unit::Dram)]
    }

    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        let Some((in_order, slowest)) = result
            .series_of("permuted_copy", Implementation::Rust)
            .and_then(in_order_and_slowest)
        else {
            return Vec::new();
        };
        let (Some(base), Some(low)) = (in_order.median(), slowest.median()) else {
            return Vec::new();
        };
        vec![format!(
            "**Then vs now.** In order the copy runs at {base:.1} GB/s; the slowest permutation (key {}) at \
             {low:.1} GB/s ({:+.1}%). Every warp still touches the same four 32-byte sectors per 128 bytes, so \
             coalescing does not care which lane asks for which word, as the guide says of cc 1.2 and later; \
             on cc 1.0/1.1 the same permutation split a half warp into 16 transactions.",
            slowest.at,
            100.0 * (low / base - 1.0)
        )]
    }

    fn headline(&self, result: &ExperimentResult, _report: &Report) -> Option<String> {
        let (in_order, slowest) = in_order_and_slowest(result.series_of("permuted_copy", Implementation::Rust)?)?;
        let (base, low) = (in_order.median()?, slowest.median()?);
        Some(format!(
            "a warp reading its segment permuted: {low:.0} GB/s at the slowest key against {base:.0} GB/s in order \
             ({:.3}x)",
            base / low
        ))
    }

    fn claims(&self) -> Vec<Claim> {
        vec![claim()]
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        let Some((in_order, slowest)) = result
            .series_of("permuted_copy", Implementation::Rust)
            .and_then(in_order_and_slowest)
        else {
            return Vec::new();
        };
        let (Some(base), Some(low), Some(cost)) = (
            in_order.median(),
            slowest.median(),
            better_by(&result.axis.metric, in_order, slowest),
        ) else {
            return Vec::new();
        };
        vec![claim().grade(
            cost,
            format!(
                "in order: {base:.0} GB/s; slowest permutation (key {}): {low:.0} GB/s; {}x",
                slowest.at,
                cost.text(3)
            ),
            result.device,
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::super::ledger_fixtures::{rendered, result, series};
    use crate::report::{Metric, Verdict};
    use crate::testbed::Implementation;

    fn verdict(points: &[(i64, f64)]) -> Option<(Verdict, String)> {
        let s = series("permuted_copy", Implementation::Rust, "", points, &[]);
        let rows = rendered(result("permuted", Metric::Bandwidth, vec![s])).2;
        rows.into_iter()
            .find(|r| r.id == "bpg-3.2.1.1-permuted")
            .map(|r| (r.verdict, r.measured))
    }

    #[test]
    fn a_permutation_is_graded_against_the_in_order_copy() {
        // Today's picture: every key within a percent of key 0.
        let today = verdict(&[(0, 2900.0), (1, 2890.0), (6, 2880.0), (31, 2910.0)]).expect("a row");
        assert_eq!(today.0, Verdict::Holds, "{}", today.1);
        assert!(today.1.contains("key 6"), "the slowest key is named: {}", today.1);
        // A permuted key 20% slower: weaker; cc 1.1's 16 transactions (several x): gone.
        assert_eq!(verdict(&[(0, 1000.0), (6, 830.0)]).map(|v| v.0), Some(Verdict::Weaker));
        assert_eq!(verdict(&[(0, 74.0), (6, 7.0)]).map(|v| v.0), Some(Verdict::Gone));
        // A permutation faster than in order is no extra cost either.
        assert_eq!(verdict(&[(0, 1000.0), (6, 1020.0)]).map(|v| v.0), Some(Verdict::Holds));
        let s = series(
            "permuted_copy",
            Implementation::Rust,
            "",
            &[(0, 2000.0), (6, 1990.0)],
            &[],
        );
        let markdown = rendered(result("permuted", Metric::Bandwidth, vec![s])).0;
        assert!(
            markdown.contains("1990 GB/s at the slowest key against 2000 GB/s in order (1.005x)"),
            "{markdown}"
        );
        // Without the in-order point there is nothing to grade.
        assert_eq!(verdict(&[(6, 1000.0), (10, 1000.0)]), None);
    }
}
