//! Guide §3.1.2: an operation in the default stream begins only after every
//! earlier operation in any stream, and no later operation in any stream
//! begins until it ends. `k` one-block kernels, each on its own blocking
//! stream, run side by side; a one-word memset in the legacy default stream
//! between each two kernels chains them one after another. The same memset
//! in the per-thread default stream (nvcc `--default-stream per-thread`), or
//! between non-blocking streams, leaves them side by side.

use super::stream_fan_out::fan_mismatch;
use super::{Experiment, RunContext};
use crate::error::Result;
use crate::launchers::{CudaFanOutRunner, FAN_BLOCK, FAN_MARK, FanOut, FanOutRunner, FanStream};
use crate::report::{Axis, Claim, ExperimentResult, LedgerRow, Metric, Point, PointKey, Report, Rule, SectionHooks};
use crate::report::{Series, Work, slower_by};
use crate::testbed::Implementation;

pub struct DefaultStream;

/// Kernels per point, each on a stream of its own.
const KERNELS: [usize; 2] = [2, 8];

/// The cases: (variant, the kernels' streams, the stream of the memset between them).
const CASES: [(&str, FanStream, Option<FanStream>); 4] = [
    ("blocking streams", FanStream::Blocking, None),
    (
        "blocking streams, legacy default-stream memset between",
        FanStream::Blocking,
        Some(FanStream::LegacyDefault),
    ),
    (
        "blocking streams, per-thread default-stream memset between",
        FanStream::Blocking,
        Some(FanStream::PerThreadDefault),
    ),
    (
        "non-blocking streams, legacy default-stream memset between",
        FanStream::NonBlocking,
        Some(FanStream::LegacyDefault),
    ),
];

impl Experiment for DefaultStream {
    fn name(&self) -> &'static str {
        "default-stream"
    }
    fn title(&self) -> &'static str {
        "The default stream: a legacy default-stream operation between kernels of other streams"
    }
    fn source(&self) -> &'static str {
        "CUDA C Best Practices Guide 4.0, §3.1.2"
    }
    fn points(&self) -> u64 {
        (KERNELS.len() * CASES.len()) as u64
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let mut result = ctx.result(self, Axis::lines("kernels", Metric::Time), "");
        let most = *KERNELS.iter().max().unwrap_or(&1);
        let mut runner = CudaFanOutRunner::new(ctx.device, Implementation::Rust, most, CASES[0].1)?;
        let mut done = 0;
        for (variant, lanes, between) in CASES {
            runner.set_streams(lanes, between)?;
            let key = ctx.key("fma_chain", Implementation::Rust, "f32").variant(variant);
            let mut series = Series::new(key, format!("one-block kernels, {variant}"));
            for &kernels in &KERNELS {
                if ctx.stop_before(done, self.points() as usize) {
                    break;
                }
                ctx.progress.set_message(format!("default-stream {kernels}, {variant}"));
                runner.clear()?;
                let times = runner.time(
                    FanOut {
                        kernels,
                        lanes: kernels,
                    },
                    ctx.settings,
                )?;
                let expected_mark = if between.is_some() {
                    u32::from_ne_bytes([FAN_MARK; 4])
                } else {
                    0
                };
                let failure = fan_mismatch(&runner.read()?, kernels).or_else(|| {
                    let got = runner.read_mark().ok()?;
                    (got != expected_mark).then(|| format!("the memset left {got:#x}, expected {expected_mark:#x}"))
                });
                let work = Work::bytes((kernels * FAN_BLOCK) as u64, 0);
                series.points.extend(Point::timed(
                    PointKey::Value(kernels as i64),
                    &Metric::Time,
                    work,
                    &times,
                    failure,
                ));
                done += 1;
                ctx.progress.inc(1);
            }
            result.series.push(series);
        }
        result.notes.push(
            "each kernel runs on its own stream; the streams are forked from and joined back to the suite's \
             (non-blocking) stream, which the timing events are on; a 4-byte memset sits between each two kernels \
             where the case says so; every point checked against the host's reference"
                .into(),
        );
        Ok(result)
    }
}

/// The most kernels where a case and the plain blocking streams were both measured: (kernels, case, plain).
fn against_plain<'a>(result: &'a ExperimentResult, variant: &str) -> Option<(i64, &'a Point, &'a Point)> {
    let plain = result.variant("fma_chain", Implementation::Rust, CASES[0].0)?;
    let case = result.variant("fma_chain", Implementation::Rust, variant)?;
    case.points.iter().rev().find_map(|p| {
        Some((p.at.value()?, p, plain.point(p.at)?)).filter(|(_, a, b)| a.median().is_some() && b.median().is_some())
    })
}

impl SectionHooks for DefaultStream {
    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        let ratios: Vec<String> = CASES[1..]
            .iter()
            .filter_map(|(variant, _, _)| {
                let (k, case, plain) = against_plain(result, variant)?;
                Some(format!(
                    "{variant}: {:.2}x the plain time at {k} kernels",
                    case.median()? / plain.median()?
                ))
            })
            .collect();
        if ratios.is_empty() {
            return Vec::new();
        }
        vec![format!(
            "Against the kernels on blocking streams alone — {}. The legacy default stream still serializes \
             everything around it; the per-thread default stream and non-blocking streams are how modern code \
             keeps its streams concurrent.",
            ratios.join("; ")
        )]
    }

    fn claims(&self) -> Vec<Claim> {
        vec![Claim {
            id: "bpg-3.1.2-default-stream-blocks",
            source: "Best Practices Guide §3.1.2",
            claim: "An operation in the default stream begins only after all earlier calls in any stream, and no \
                    call in any stream begins until it finishes: kernels of other streams around it cannot overlap"
                .into(),
            rule: Rule::Factor { claimed: 8.0 },
            reads: "fma_chain · Rust, 8 one-block kernels on 8 blocking streams: the time with a legacy \
                    default-stream memset between each two over the time without (claimed: 8, fully serialized)"
                .into(),
            experiment: "default-stream",
        }]
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        let Some((k, legacy, plain)) = against_plain(result, CASES[1].0) else {
            return Vec::new();
        };
        let (Some(factor), Some(a), Some(b)) = (slower_by(legacy, plain), legacy.median(), plain.median()) else {
            return Vec::new();
        };
        let mut claim = self.claims().swap_remove(0);
        // Fully serialized, k kernels take k times one.
        claim.rule = Rule::Factor { claimed: k as f64 };
        vec![claim.grade(
            factor,
            format!(
                "{k} kernels on {k} blocking streams: {b:.3} ms alone, {a:.3} ms with legacy default-stream memsets \
                 between them ({}x)",
                factor.text(2)
            ),
            result.device,
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::super::ledger_fixtures::{result, series};
    use super::{CASES, DefaultStream};
    use crate::report::{Metric, Report, SectionHooks, Verdict};
    use crate::run_settings::RunSettings;
    use crate::stats::Summary;
    use crate::testbed::Implementation;

    fn verdict(plain_ms: f64, legacy_ms: f64) -> Verdict {
        let mut cases = Vec::new();
        for ((variant, _, _), ms) in CASES[..2].iter().zip([plain_ms, legacy_ms]) {
            let mut s = series("fma_chain", Implementation::Rust, variant, &[(8, ms)], &[]);
            s.points[0].time_ms = Summary::of(&[ms]);
            cases.push(s);
        }
        let r = result("default-stream", Metric::Time, cases);
        let report = Report::new(Vec::new(), &RunSettings::default(), Vec::new(), Vec::new(), Vec::new());
        let rows = DefaultStream.ledger(&r, &report);
        assert_eq!(rows.len(), 1);
        rows[0].verdict
    }

    #[test]
    fn a_serializing_default_stream_holds_and_an_overlapping_one_is_gone() {
        assert_eq!(verdict(0.5, 4.0), Verdict::Holds);
        assert_eq!(verdict(0.5, 0.51), Verdict::Gone);
        assert_eq!(verdict(0.5, 1.0), Verdict::Weaker);
    }
}
