//! The OpenCL whitepaper's "current GPUs execute one kernel at a time":
//! `k` one-block kernels (one SM each, half a millisecond) enqueued on one
//! stream, then on a stream each; the same with the CUDA C twin, and with
//! the OpenCL C twin on one in-order queue, then on a queue each (the
//! whitepaper's own model). On one stream (queue) they run one after another
//! (k times one kernel); on a stream each a GPU that runs kernels
//! concurrently (every one since Fermi) runs them side by side, in about
//! the time of one.

use super::calibrated_launches::timed_launches;
use super::stream_fan_out::{FAN_BLOCK, FAN_ITERATIONS, fan_mismatch, fan_out};
use super::{Experiment, RunContext};
use crate::error::Result;
use crate::gpu::{DeviceBuffer, KindedStream, StreamKind};
use crate::launchers::opencl_fma_chain;
use crate::opencl::{ClBuffer, ClQueue};
use crate::report::{Axis, Claim, ExperimentResult, LedgerRow, Metric, Point, PointKey, Report, Rule, SectionHooks};
use crate::report::{GONE_BAND, Series, Waiver, Work, slower_by};
use crate::testbed::{Implementation, OpenClSide};
use crate::timing::{CudaTimer, HostClock, SampleTimer};

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
        let (implementations, waived) = ctx.device.ptx_implementations();
        for reason in waived {
            let what = "the CUDA C twin's series".into();
            result.waived.push(Waiver { what, reason });
        }
        for implementation in implementations {
            streams_series(ctx, implementation, &mut result)?;
        }
        match ctx.device.opencl_or_waiver() {
            (Some(side), _) => queues_series(ctx, side, &mut result)?,
            (None, Some(reason)) => result.waived.push(Waiver {
                what: "the OpenCL C twin on in-order queues".into(),
                reason,
            }),
            (None, None) => {}
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

/// The CUDA series of `implementation`: every kernel count on one stream and on a stream each.
fn streams_series(ctx: &RunContext<'_>, implementation: Implementation, result: &mut ExperimentResult) -> Result<()> {
    let (dut, gpu) = (ctx.device, ctx.device.gpu());
    let most = *KERNELS.iter().max().unwrap_or(&1);
    let streams: Vec<KindedStream> = (0..most)
        .map(|_| KindedStream::new(gpu, StreamKind::NonBlocking))
        .collect::<Result<_>>()?;
    let mut data = DeviceBuffer::<f32>::uninit(gpu, most * FAN_BLOCK)?;
    let mut timer = CudaTimer::new(gpu)?;
    let mut done = 0;
    for (variant, lanes) in LAYOUTS {
        let key = ctx.key("fma_chain", implementation, "f32").variant(variant);
        let mut series = Series::new(key, format!("one-block fma_chain kernels, {variant}"));
        for &kernels in &KERNELS {
            if ctx.stop_before(done, KERNELS.len() * LAYOUTS.len()) {
                break;
            }
            let label = implementation.label();
            ctx.progress
                .set_message(format!("concurrent-kernels {label} {kernels}, {variant}"));
            data.fill(0.0)?;
            let lanes = &streams[..lanes.min(kernels)];
            let mut enqueue = || fan_out(dut, implementation, lanes, &mut data, kernels, &mut |_| Ok(()));
            let times = timed(ctx, &mut timer, &mut enqueue)?;
            gpu.synchronize()?;
            let failure = fan_mismatch(&data.to_host()?, kernels);
            series.points.extend(point(kernels, &times, failure));
            done += 1;
            ctx.progress.inc(1);
        }
        result.series.push(series);
    }
    Ok(())
}

/// The OpenCL C twin's series: every kernel count on one in-order queue and on
/// a queue each, each sample the host clock around the enqueues, a `clFlush`
/// of every queue used (so none waits for another's `clFinish` to be
/// submitted) and a `clFinish` of each.
fn queues_series(ctx: &RunContext<'_>, side: &OpenClSide, result: &mut ExperimentResult) -> Result<()> {
    let most = *KERNELS.iter().max().unwrap_or(&1);
    let queues: Vec<ClQueue> = (0..most)
        .map(|_| ClQueue::new(side.context()))
        .collect::<std::result::Result<_, _>>()?;
    let mut data = ClBuffer::<f32>::new(side.context(), most * FAN_BLOCK)?;
    let mut done = 0;
    for (variant, lanes) in LAYOUTS {
        let key = ctx.key("fma_chain", Implementation::OpenClC, "f32").variant(variant);
        let mut series = Series::new(
            key,
            format!("one-work-group fma_chain kernels, {}", opencl_label(variant)),
        );
        for &kernels in &KERNELS {
            if ctx.stop_before(done, KERNELS.len() * LAYOUTS.len()) {
                break;
            }
            ctx.progress.set_message(format!(
                "concurrent-kernels OpenCL C {kernels}, {}",
                opencl_label(variant)
            ));
            data.fill(&queues[0], 0.0)?;
            queues[0].finish()?;
            let used = &queues[..lanes.min(kernels)];
            let mut enqueue = || -> Result<()> {
                for k in 0..kernels {
                    let queue = &used[k % used.len()];
                    opencl_fma_chain(
                        side,
                        queue,
                        &mut data,
                        k * FAN_BLOCK..(k + 1) * FAN_BLOCK,
                        FAN_ITERATIONS,
                        1,
                    )?;
                }
                used.iter().try_for_each(|queue| queue.flush())?;
                Ok(used.iter().try_for_each(|queue| queue.finish())?)
            };
            let times = timed(ctx, &mut HostClock, &mut enqueue)?;
            let failure = fan_mismatch(&data.to_host(&queues[0])?, kernels);
            series.points.extend(point(kernels, &times, failure));
            done += 1;
            ctx.progress.inc(1);
        }
        result.series.push(series);
    }
    Ok(())
}

/// Samples of `enqueue` on `timer`, paced to the time one takes.
fn timed(
    ctx: &RunContext<'_>,
    timer: &mut dyn SampleTimer,
    enqueue: &mut dyn FnMut() -> Result<()>,
) -> Result<Vec<f64>> {
    timed_launches(timer, ctx.settings, enqueue)
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
