//! The OpenCL whitepaper's "current GPUs execute one kernel at a time":
//! `k` one-block kernels (one SM each, half a millisecond) enqueued on one
//! stream, then on a stream each. On one stream they run one after another
//! (k times one kernel); on a stream each a GPU that runs kernels
//! concurrently (every one since Fermi) runs them side by side, in about
//! the time of one.

use super::stream_fan_out::{FAN_BLOCK, fan_mismatch, fan_out};
use super::{Experiment, RunContext};
use crate::error::Result;
use crate::gpu::{DeviceBuffer, KindedStream, StreamKind};
use crate::report::{Axis, Claim, ExperimentResult, LedgerRow, Metric, Point, PointKey, Report, Rule, SectionHooks};
use crate::report::{GONE_BAND, Series, Work, slower_by};
use crate::testbed::Implementation;
use crate::timing::{CudaTimer, paced, probe_ms, time_per_launch};

pub struct ConcurrentKernels;

/// Kernels per point.
const KERNELS: [usize; 3] = [1, 4, 16];

/// The two ways the kernels are enqueued: (variant, streams).
const LAYOUTS: [(&str, usize); 2] = [("one stream", 1), ("a stream each", 16)];

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
        let (dut, gpu) = (ctx.device, ctx.device.gpu());
        let most = *KERNELS.iter().max().unwrap_or(&1);
        let streams: Vec<KindedStream> = (0..most)
            .map(|_| KindedStream::new(gpu, StreamKind::NonBlocking))
            .collect::<Result<_>>()?;
        let mut data = DeviceBuffer::<f32>::uninit(gpu, most * FAN_BLOCK)?;
        let mut timer = CudaTimer::new(gpu)?;
        let mut done = 0;
        for (variant, lanes) in LAYOUTS {
            let key = ctx.key("fma_chain", Implementation::Rust, "f32").variant(variant);
            let mut series = Series::new(key, format!("one-block fma_chain kernels, {variant}"));
            for &kernels in &KERNELS {
                if ctx.stop_before(done, self.points() as usize) {
                    break;
                }
                ctx.progress
                    .set_message(format!("concurrent-kernels {kernels}, {variant}"));
                data.fill(0.0)?;
                let lanes = &streams[..lanes.min(kernels)];
                let mut enqueue = || fan_out(dut, lanes, &mut data, kernels, &mut |_| Ok(()));
                let one_ms = probe_ms(&mut timer, &mut enqueue)?;
                let times = time_per_launch(&mut timer, &paced(ctx.settings, one_ms), &mut enqueue)?;
                gpu.synchronize()?;
                let failure = fan_mismatch(&data.to_host()?, kernels);
                let at = PointKey::Value(kernels as i64);
                let work = Work::bytes((kernels * FAN_BLOCK) as u64, 0);
                series
                    .points
                    .extend(Point::timed(at, &Metric::Time, work, &times, failure));
                done += 1;
                ctx.progress.inc(1);
            }
            result.series.push(series);
        }
        result.notes.push(format!(
            "each kernel is one block of {FAN_BLOCK} threads running {} dependent FMAs per thread, on its own \
             block of a buffer; the streams are forked from and joined back to the suite's stream, which the \
             timing events are on; every point's buffer checked against the host's reference",
            super::stream_fan_out::FAN_ITERATIONS
        ));
        Ok(result)
    }
}

/// The most kernels measured on both layouts: (kernels, one stream, a stream each).
fn widest(result: &ExperimentResult) -> Option<(i64, &Point, &Point)> {
    let one = result.variant("fma_chain", Implementation::Rust, LAYOUTS[0].0)?;
    let each = result.variant("fma_chain", Implementation::Rust, LAYOUTS[1].0)?;
    one.points.iter().rev().find_map(|p| {
        Some((p.at.value()?, p, each.point(p.at)?))
            .filter(|(k, a, b)| *k > 1 && a.median().is_some() && b.median().is_some())
    })
}

impl SectionHooks for ConcurrentKernels {
    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        let Some((k, one, each)) = widest(result) else {
            return Vec::new();
        };
        let (Some(a), Some(b)) = (one.median(), each.median()) else {
            return Vec::new();
        };
        vec![format!(
            "{k} one-block kernels take {a:.3} ms on one stream and {b:.3} ms on a stream each ({:.1}x): the GPU \
             runs kernels of different streams side by side when their blocks fit beside each other, so a run of \
             small kernels is no longer bound to one kernel at a time.",
            a / b
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
            reads: "fma_chain · Rust, 16 one-block kernels: the time on one stream over the time on a stream each"
                .into(),
            experiment: "concurrent-kernels",
        }]
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        let Some((k, one, each)) = widest(result) else {
            return Vec::new();
        };
        let Some(gain) = slower_by(one, each) else {
            return Vec::new();
        };
        let (Some(a), Some(b)) = (one.median(), each.median()) else {
            return Vec::new();
        };
        vec![self.claims()[0].grade(
            gain,
            format!(
                "{k} one-block kernels: one stream {a:.3} ms, a stream each {b:.3} ms ({}x)",
                gain.text(1)
            ),
            result.device,
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::super::ledger_fixtures::{result, series};
    use super::{ConcurrentKernels, LAYOUTS};
    use crate::report::{Metric, Report, SectionHooks, Verdict};
    use crate::run_settings::RunSettings;
    use crate::stats::Summary;
    use crate::testbed::Implementation;

    fn verdict(one_ms: f64, each_ms: f64) -> Verdict {
        let mut layouts = Vec::new();
        for ((variant, _), ms) in LAYOUTS.into_iter().zip([one_ms, each_ms]) {
            let mut s = series("fma_chain", Implementation::Rust, variant, &[(1, 0.5), (16, ms)], &[]);
            s.points[1].time_ms = Summary::of(&[ms]);
            layouts.push(s);
        }
        let r = result("concurrent-kernels", Metric::Time, layouts);
        let report = Report::new(Vec::new(), &RunSettings::default(), Vec::new(), Vec::new(), Vec::new());
        let rows = ConcurrentKernels.ledger(&r, &report);
        assert_eq!(rows.len(), 1);
        rows[0].verdict
    }

    #[test]
    fn kernels_side_by_side_make_the_claim_gone() {
        // 16 kernels of 0.5 ms: serialized on one stream, concurrent on sixteen.
        assert_eq!(verdict(8.0, 0.55), Verdict::Gone);
        assert_eq!(verdict(8.0, 7.9), Verdict::Holds);
        assert_eq!(verdict(8.0, 6.5), Verdict::Weaker);
    }
}
