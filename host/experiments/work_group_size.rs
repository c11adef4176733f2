//! OpenCL Programming Guide §3.2 (and the whitepaper's NDRange section):
//! set the work-group size explicitly rather than leave it to the runtime (a
//! NULL `local_work_size` in `clEnqueueNDRangeKernel`). The same OpenCL C
//! `fma_chain`, one work-item per element, in 256-wide work-groups and in
//! work-groups the runtime chooses, over 2^20 work-items (a global size
//! every work-group size divides, so the runtime is free) and over the prime
//! 1048573 (the runtime must pick a divisor: 1, under OpenCL 1.2's uniform
//! work-groups).

use super::{Experiment, RunContext};
use crate::copy_element::pattern;
use crate::error::{Error, Result};
use crate::launchers::{FmaChainGrid, FmaChainRunner, fma_chain_runners};
use crate::reference;
use crate::report::{Axis, Claim, ExperimentResult, LedgerRow, Metric, Point, PointKey, Report, Rule, SectionHooks};
use crate::report::{Series, Work, slower_by};
use crate::testbed::Implementation;

pub struct WorkGroupSize;

/// Work-items (elements): a power of two, then a prime near it.
const ELEMENTS: [usize; 2] = [1 << 20, 1_048_573];

/// Dependent FMAs per element per launch (about 0.15 ms a launch on an H100 in 256-wide work-groups).
const ITERATIONS: u32 = 4096;

/// The two ways the work-groups are sized: (variant, grid).
const CHOICES: [(&str, FmaChainGrid); 2] = [
    ("256-wide work-groups", FmaChainGrid::PerElement(256)),
    ("runtime-chosen (NULL)", FmaChainGrid::RuntimeChosen),
];

/// Every how many elements the result is checked against the CPU reference (and the last).
const CHECK_STRIDE: usize = 997;

impl Experiment for WorkGroupSize {
    fn name(&self) -> &'static str {
        "work-group-size"
    }
    fn title(&self) -> &'static str {
        "Work-group size: explicit 256-wide work-groups or the OpenCL runtime's choice (NULL local size)"
    }
    fn source(&self) -> &'static str {
        "NVIDIA OpenCL Programming Guide 2.3, §3.2; OpenCL whitepaper, NDRange optimization"
    }
    fn points(&self) -> u64 {
        (ELEMENTS.len() * CHOICES.len()) as u64
    }
    fn requires(&self, ctx: &RunContext<'_>) -> std::result::Result<(), String> {
        ctx.device.opencl().map(|_| ())
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let mut result = ctx.result(self, Axis::lines("work-items", Metric::Time), "");
        // The claim is OpenCL's: the OpenCL C twin's series.
        let (runners, waived) = fma_chain_runners(ctx.device, &[Implementation::OpenClC])?;
        if runners.is_empty() {
            let why = waived.into_iter().map(|(_, why)| why).next();
            return Err(Error::Waived(
                why.unwrap_or_else(|| "OpenCL C twins not selected (--impl)".into()),
            ));
        }
        result.waive(waived);
        let mut done = 0;
        for mut runner in runners {
            for (variant, grid) in CHOICES {
                let key = ctx.key("fma_chain", runner.implementation(), "f32").variant(variant);
                let label = format!("{} fma_chain, {variant}", runner.implementation().label());
                let mut series = Series::new(key, label);
                for n in ELEMENTS {
                    if ctx.stop_before(done, self.points() as usize) {
                        break;
                    }
                    ctx.progress.set_message(format!("work-group-size {n}, {variant}"));
                    series.points.extend(measure(ctx, runner.as_mut(), n, grid)?);
                    done += 1;
                    ctx.progress.inc(1);
                }
                result.series.push(series);
            }
        }
        result.notes.push(format!(
            "{ITERATIONS} dependent FMAs per work-item per launch, one work-item per element (the 256-wide launch \
             rounds the global size up to a multiple of 256; the kernel guards the tail); timed with the queue's \
             profiling events; after timing, one launch from fresh input checked every {CHECK_STRIDE}th element \
             (and the last) against the CPU reference, bit for bit. The runtime's chosen size is not reported by \
             OpenCL: the times tell it"
        ));
        Ok(result)
    }
}

/// One point: `n` elements launched in `grid` (256-wide work-groups, or the runtime's choice).
fn measure(
    ctx: &RunContext<'_>,
    runner: &mut dyn FmaChainRunner,
    n: usize,
    grid: FmaChainGrid,
) -> Result<Option<Point>> {
    let input: Vec<f32> = pattern(n);
    runner.allocate(n)?;
    runner.write(&input)?;
    let times = runner.time(grid, ITERATIONS, ctx.settings)?;
    runner.write(&input)?;
    runner.launch(grid, ITERATIONS)?;
    let got = runner.read()?;
    let failure = (0..n).step_by(CHECK_STRIDE).chain([n - 1]).find_map(|i| {
        let expected = reference::fma_chain(input[i], ITERATIONS);
        (got[i].to_bits() != expected.to_bits())
            .then(|| format!("element {i} is {} but the CPU reference says {expected}", got[i]))
    });
    let work = Work::bytes(n as u64, 8 * n as u64).with_flops(2 * ITERATIONS as u64 * n as u64);
    Ok(Point::timed(
        PointKey::Value(n as i64),
        &Metric::Time,
        work,
        &times,
        failure,
    ))
}

/// The points of both choices at `n` elements: (256-wide, runtime-chosen).
fn pair(result: &ExperimentResult, n: usize) -> Option<(&Point, &Point)> {
    let point = |(variant, _): (&str, FmaChainGrid)| {
        result
            .variant("fma_chain", Implementation::OpenClC, variant)?
            .point(PointKey::Value(n as i64))
            .filter(|p| p.median().is_some())
    };
    Some((point(CHOICES[0])?, point(CHOICES[1])?))
}

/// "n work-items: 256-wide a ms, runtime-chosen b ms (r x)", if both were measured.
fn pair_text(result: &ExperimentResult, n: usize) -> Option<String> {
    let (explicit, chosen) = pair(result, n)?;
    let (a, b) = (explicit.median()?, chosen.median()?);
    Some(format!(
        "{n} work-items: 256-wide work-groups {a:.3} ms, runtime-chosen {b:.3} ms ({:.2}x)",
        b / a
    ))
}

impl SectionHooks for WorkGroupSize {
    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        let texts: Vec<String> = ELEMENTS.iter().filter_map(|&n| pair_text(result, n)).collect();
        if texts.is_empty() {
            return Vec::new();
        }
        vec![format!(
            "{}. Where every work-group size divides the global size the runtime may pick a good one; where \
             none does (a prime) it must launch tiny work-groups, and the kernel crawls.",
            texts.join("; ")
        )]
    }

    fn claims(&self) -> Vec<Claim> {
        vec![Claim {
            id: "opencl-3.2-explicit-work-group-size",
            source: "OpenCL Programming Guide §3.2; OpenCL whitepaper, NDRange optimization",
            claim: "Applications should set the work-group size explicitly rather than let the OpenCL \
                    implementation choose it (a NULL local_work_size)"
                .into(),
            rule: Rule::Direction,
            reads: "fma_chain · OpenCL C, 2^20 work-items (a global size every work-group size divides): the time \
                    with a NULL local size over 256-wide work-groups (the prime 1048573 shown beside)"
                .into(),
            experiment: "work-group-size",
        }]
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        let Some((explicit, chosen)) = pair(result, ELEMENTS[0]) else {
            return Vec::new();
        };
        let (Some(factor), Some(graded)) = (slower_by(chosen, explicit), pair_text(result, ELEMENTS[0])) else {
            return Vec::new();
        };
        let beside = pair_text(result, ELEMENTS[1]).map_or(String::new(), |text| format!("; {text}"));
        vec![self.claims()[0].grade(factor, format!("{graded}{beside}"), result.device)]
    }
}

#[cfg(test)]
mod tests {
    use super::super::ledger_fixtures::{result, series};
    use super::{CHOICES, ELEMENTS, WorkGroupSize};
    use crate::report::{LedgerRow, Metric, Report, SectionHooks, Verdict};
    use crate::run_settings::RunSettings;
    use crate::stats::Summary;
    use crate::testbed::Implementation;

    /// The row from (256-wide, runtime-chosen) milliseconds at 2^20 and at the prime.
    fn row(power_of_two: (f64, f64), prime: (f64, f64)) -> LedgerRow {
        let mut cases = Vec::new();
        for (i, (variant, _)) in CHOICES.into_iter().enumerate() {
            let ms = [[power_of_two.0, prime.0], [power_of_two.1, prime.1]][i];
            let points = [(ELEMENTS[0] as i64, ms[0]), (ELEMENTS[1] as i64, ms[1])];
            let mut s = series("fma_chain", Implementation::OpenClC, variant, &points, &[]);
            for (p, ms) in s.points.iter_mut().zip(ms) {
                p.time_ms = Summary::of(&[ms]);
            }
            cases.push(s);
        }
        let r = result("work-group-size", Metric::Time, cases);
        let report = Report::new(Vec::new(), &RunSettings::default(), Vec::new(), Vec::new(), Vec::new());
        let mut rows = WorkGroupSize.ledger(&r, &report);
        assert_eq!(rows.len(), 1);
        rows.remove(0)
    }

    #[test]
    fn the_runtimes_choice_is_graded_where_it_is_free() {
        // The runtime picks a good size at 2^20: the advice is gone there, whatever the prime shows.
        let r = row((0.150, 0.152), (0.151, 4.8));
        assert_eq!(r.verdict, Verdict::Gone);
        assert!(
            r.measured
                .contains("1048573 work-items: 256-wide work-groups 0.151 ms, runtime-chosen 4.800 ms (31.79x)"),
            "{}",
            r.measured
        );
        // It picks a poor one: the advice holds.
        assert_eq!(row((0.150, 0.300), (0.151, 4.8)).verdict, Verdict::Holds);
        // It beats 256: reversed.
        assert_eq!(row((0.150, 0.120), (0.151, 4.8)).verdict, Verdict::Reversed);
    }
}
