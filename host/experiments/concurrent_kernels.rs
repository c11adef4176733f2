//! The OpenCL whitepaper's "current GPUs execute one kernel at a time":
//! `k` one-block kernels (one SM each, half a millisecond) enqueued on one
//! stream, then on a stream each; the same with the CUDA C twin, and with
//! the OpenCL C twin on one in-order queue, then on a queue each (the
//! whitepaper's own model). On one stream (queue) they run one after another
//! (k times one kernel); on a stream each a GPU that runs kernels
//! concurrently (every one since Fermi) runs them side by side, in about
//! the time of one.

use super::stream_fan_out::fan_mismatch;
use super::{Experiment, RunContext};
use crate::error::Result;
use crate::launchers::{FAN_BLOCK, FAN_ITERATIONS, FanOut, FanOutRunner, Lanes, fan_out_runners};
use crate::report::{Axis, Claim, ExperimentResult, LedgerRow, Metric, Point, PointKey, Report, Rule, SectionHooks};
use crate::report::{GONE_BAND, Series, Waiver, Work, slower_by};
use crate::testbed::Implementation;

pub struct ConcurrentKernels;

/// Kernels per point.
const KERNELS: [usize; 3] = [1, 4, 16];

/// The two ways the kernels are enqueued: (variant, streams or in-order queues).
const LAYOUTS: [(&str, usize); 2] = [("one stream", 1), ("a stream each", 16)];

/// What each series of the OpenCL C twin says its layout is.
fn opencl_label(variant: &str) -> &'static str {
    if variant == LAYOUTS[0].0 {
        "one in-order queue"
    } else {
        "an in-order queue each"
    }
}

impl Experiment for ConcurrentKernels {
    fn name(&self) -> &'static str {
        "concurrent-kernels"
    }
    fn title(&self) -> &'static str {
        "Concurrent kernels: small kernels on one stream or on a stream each"
    }
    fn source(&self) -> &'static str {
        "OpenCL whitepaper (\"one kernel at a time\"); CUDA C Best Practices Guide 4.0, §3.1.2's streams"
    }
    fn points(&self) -> u64 {
        (KERNELS.len() * LAYOUTS.len()) as u64
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let mut result = ctx.result(self, Axis::lines("kernels", Metric::Time), "");
        let most = *KERNELS.iter().max().unwrap_or(&1);
        let (mut runners, waived) = fan_out_runners(ctx.device, most)?;
        for (implementation, reason) in waived {
            let what = match implementation {
                Implementation::OpenClC => "the OpenCL C twin on in-order queues",
                _ => "the CUDA C twin's series",
            };
            result.waived.push(Waiver {
                what: what.into(),
                reason,
            });
        }
        for runner in &mut runners {
            runner_series(ctx, runner.as_mut(), &mut result)?;
        }
        result.notes.push(format!(
            "each kernel is one block (work-group) of {FAN_BLOCK} threads running {FAN_ITERATIONS} dependent FMAs \
             per thread, on its own block of a buffer; the CUDA streams are forked from and joined back to the \
             suite's stream, which the timing events are on; the OpenCL queues are flushed, then finished, inside \
             host-clock samples (profiling events do not span queues); every point's buffer checked against the \
             host's reference"
        ));
        Ok(result)
    }
}

/// `runner`'s series: every kernel count on one lane (stream or in-order
/// queue) and on a lane each.
fn runner_series(ctx: &RunContext<'_>, runner: &mut dyn FanOutRunner, result: &mut ExperimentResult) -> Result<()> {
    let implementation = runner.implementation();
    let mut done = 0;
    for (variant, lanes) in LAYOUTS {
        let key = ctx.key("fma_chain", implementation, "f32").variant(variant);
        let (block, layout) = match runner.lanes() {
            Lanes::Streams => ("block", variant),
            Lanes::InOrderQueues => ("work-group", opencl_label(variant)),
        };
        let mut series = Series::new(key, format!("one-{block} fma_chain kernels, {layout}"));
        for &kernels in &KERNELS {
            if ctx.stop_before(done, KERNELS.len() * LAYOUTS.len()) {
                break;
            }
            let label = implementation.label();
            ctx.progress
                .set_message(format!("concurrent-kernels {label} {kernels}, {layout}"));
            runner.clear()?;
            let fan = FanOut {
                kernels,
                lanes: lanes.min(kernels),
            };
            let times = runner.time(fan, ctx.settings)?;
            let failure = fan_mismatch(&runner.read()?, kernels);
            series.points.extend(point(kernels, &times, failure));
            done += 1;
            ctx.progress.inc(1);
        }
        result.series.push(series);
    }
    Ok(())
}

/// The point of `kernels` kernels: their time per sample, or why their buffer was wrong.
fn point(kernels: usize, times: &[f64], failure: Option<String>) -> Option<Point> {
    let work = Work::bytes((kernels * FAN_BLOCK) as u64, 0);
    Point::timed(PointKey::Value(kernels as i64), &Metric::Time, work, times, failure)
}

/// The most kernels `implementation` measured on both layouts: (kernels, one stream, a stream each).
fn widest(result: &ExperimentResult, implementation: Implementation) -> Option<(i64, &Point, &Point)> {
    let one = result.variant("fma_chain", implementation, LAYOUTS[0].0)?;
    let each = result.variant("fma_chain", implementation, LAYOUTS[1].0)?;
    one.points.iter().rev().find_map(|p| {
        Some((p.at.value()?, p, each.point(p.at)?))
            .filter(|(k, a, b)| *k > 1 && a.median().is_some() && b.median().is_some())
    })
}

/// "k kernels: one stream a ms, a stream each b ms (g x)" for `implementation`, if measured.
fn widest_text(result: &ExperimentResult, implementation: Implementation) -> Option<String> {
    let (k, one, each) = widest(result, implementation)?;
    let (a, b) = (one.median()?, each.median()?);
    let (one_name, each_name) = if implementation == Implementation::OpenClC {
        ("one queue", "a queue each")
    } else {
        ("one stream", "a stream each")
    };
    Some(format!(
        "{k} one-block kernels: {one_name} {a:.3} ms, {each_name} {b:.3} ms ({:.1}x)",
        a / b
    ))
}

/// The twins' figures beside the Rust one, "; CUDA C: …; OpenCL C: …" (empty without twins).
fn twins_text(result: &ExperimentResult) -> String {
    [Implementation::CudaC, Implementation::OpenClC]
        .into_iter()
        .filter_map(|twin| Some(format!("; {}: {}", twin.label(), widest_text(result, twin)?)))
        .collect()
}

impl SectionHooks for ConcurrentKernels {
    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        let Some(rust) = widest_text(result, Implementation::Rust) else {
            return Vec::new();
        };
        vec![format!(
            "Rust: {rust}{}. The GPU runs kernels of different streams (queues) side by side when their blocks \
             fit beside each other, so a run of small kernels is no longer bound to one kernel at a time.",
            twins_text(result)
        )]
    }

    fn claims(&self) -> Vec<Claim> {
        vec![Claim {
            id: "whitepaper-one-kernel-at-a-time",
            source: "OpenCL whitepaper, task parallelism",
            claim: "A GPU executes one kernel at a time: kernels enqueued on separate queues gain nothing from \
                    being separate"
                .into(),
            rule: Rule::NoExtraCost {
                holds_within: GONE_BAND,
                weaker_within: 1.5,
            },
            reads: "fma_chain · Rust, 16 one-block kernels: the time on one stream over the time on a stream each \
                    (the CUDA C twin and the OpenCL C twin on one in-order queue vs a queue each shown beside it)"
                .into(),
            experiment: "concurrent-kernels",
        }]
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        let Some((_, one, each)) = widest(result, Implementation::Rust) else {
            return Vec::new();
        };
        let (Some(gain), Some(rust)) = (slower_by(one, each), widest_text(result, Implementation::Rust)) else {
            return Vec::new();
        };
        let measured = format!("Rust: {rust}{}", twins_text(result));
        vec![self.claims()[0].grade(gain, measured, result.device)]
    }
}

#[cfg(test)]
mod tests {
    use super::super::ledger_fixtures::{result, series};
    use super::{ConcurrentKernels, LAYOUTS};
    use crate::report::{LedgerRow, Metric, Report, SectionHooks, Verdict};
    use crate::run_settings::RunSettings;
    use crate::stats::Summary;
    use crate::testbed::Implementation;

    /// The ledger row from Rust's 16-kernel times, with `twins`' (implementation, one, each) beside them.
    fn row(one_ms: f64, each_ms: f64, twins: &[(Implementation, f64, f64)]) -> LedgerRow {
        let mut layouts = Vec::new();
        let all = [(Implementation::Rust, one_ms, each_ms)]
            .into_iter()
            .chain(twins.iter().copied());
        for (implementation, one, each) in all {
            for ((variant, _), ms) in LAYOUTS.into_iter().zip([one, each]) {
                let mut s = series("fma_chain", implementation, variant, &[(1, 0.5), (16, ms)], &[]);
                s.points[1].time_ms = Summary::of(&[ms]);
                layouts.push(s);
            }
        }
        let r = result("concurrent-kernels", Metric::Time, layouts);
        let report = Report::new(Vec::new(), &RunSettings::default(), Vec::new(), Vec::new(), Vec::new());
        let mut rows = ConcurrentKernels.ledger(&r, &report);
        assert_eq!(rows.len(), 1);
        rows.remove(0)
    }

    fn verdict(one_ms: f64, each_ms: f64) -> Verdict {
        row(one_ms, each_ms, &[]).verdict
    }

    #[test]
    fn kernels_side_by_side_make_the_claim_gone() {
        // 16 kernels of 0.5 ms: serialized on one stream, concurrent on sixteen.
        assert_eq!(verdict(8.0, 0.55), Verdict::Gone);
        assert_eq!(verdict(8.0, 7.9), Verdict::Holds);
        assert_eq!(verdict(8.0, 6.5), Verdict::Weaker);
    }

    #[test]
    fn the_row_grades_rust_and_shows_the_twins_beside_it() {
        // OpenCL's queues serialized (a driver that runs one queue at a time) do not change Rust's verdict.
        let twins = [(Implementation::CudaC, 8.0, 0.56), (Implementation::OpenClC, 8.1, 8.0)];
        let row = row(8.0, 0.55, &twins);
        assert_eq!(row.verdict, Verdict::Gone);
        assert!(
            row.measured
                .starts_with("Rust: 16 one-block kernels: one stream 8.000 ms"),
            "{}",
            row.measured
        );
        assert!(
            row.measured
                .contains("CUDA C: 16 one-block kernels: one stream 8.000 ms, a stream each 0.560 ms (14.3x)"),
            "{}",
            row.measured
        );
        assert!(
            row.measured
                .contains("OpenCL C: 16 one-block kernels: one queue 8.100 ms, a queue each 8.000 ms (1.0x)"),
            "{}",
            row.measured
        );
    }
}
