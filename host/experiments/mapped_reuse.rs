//! Guide §3.1.3: mapped (zero-copy) host memory is not cached on the device
//! between kernels, so every read of it crosses the host link again. A
//! kernel reads a mapped buffer once; two kernels read it twice; against
//! them, one pinned copy to the device and two kernels reading the device
//! copy. Zero copy pays off for data read once; data read twice is better
//! copied.

use super::transfers::transfer_sizes;
use super::{Experiment, RunContext};
use crate::copy_element::{first_mismatch, pattern};
use crate::error::{Error, Result};
use crate::launchers::{ArrayId, KernelSet, MappedRunner, MappedStep, Memory, mapped_runners};
use crate::report::{Axis, Claim, ExperimentResult, LedgerRow, Metric, Point, PointKey, Report, Rule, SectionHooks};
use crate::report::{Bound, Figure, Scale, Series, Unit, Work, slower_by};
use crate::run_settings::RunSettings;
use crate::testbed::Implementation;

pub struct MappedReuse;

/// The implementation measured: the suite's own `vector_copy`.
const RUST: Implementation = Implementation::Rust;

/// The extra figure every point carries: the bytes it moved over the host link per second.
const LINK_GBPS: &str = "host link GB/s";
/// How many times the run's samples a point takes: on an H100 two outliers of 11 (8 ms against 5.3)
/// stretched the 256 MiB row's interval to 1.51–2.85x in one run of three. A point costs well under a second.
const SAMPLE_FACTOR: u32 = 3;

/// The cases: (variant, reads of the input, whether it is copied to the device first).
const CASES: [(&str, u32, bool); 3] = [
    ("mapped, read once", 1, false),
    ("mapped, read twice", 2, false),
    ("copied once, read twice", 2, true),
];

/// Sizes: 64 and 256 MiB (both past an H100's 50 MiB of L2), within the run's buffer size.
fn sizes(settings: &RunSettings) -> Vec<u64> {
    let max = settings.buffer_mib.map_or(256 << 20, |mib| mib << 20).min(256 << 20);
    transfer_sizes(max).into_iter().filter(|&s| s >= 64 << 20).collect()
}

impl Experiment for MappedReuse {
    fn name(&self) -> &'static str {
        "mapped-reuse"
    }
    fn title(&self) -> &'static str {
        "Zero copy read twice: mapped host memory crosses the link on every read"
    }
    fn source(&self) -> &'static str {
        "CUDA C Best Practices Guide 4.0, §3.1.3"
    }
    fn points(&self) -> u64 {
        2 * CASES.len() as u64
    }
    fn requires(&self, ctx: &RunContext<'_>) -> std::result::Result<(), String> {
        if !ctx.device.info().can_map_host_memory {
            return Err(format!("{} cannot map host memory", ctx.device.info().name));
        }
        if sizes(ctx.settings).is_empty() {
            return Err("mapped-reuse needs 64 MiB: --size-mib is below 64".into());
        }
        Ok(())
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let axis = Axis::lines("size (MiB)", Metric::Time).x_scale(Scale::Log2);
        let mut result = ctx.result(self, axis, "");
        let sizes = sizes(ctx.settings);
        let len = (*sizes
            .last()
            .ok_or_else(|| Error::InvalidInput("no size to measure".into()))?
            / 4) as usize;
        let source: Vec<f32> = pattern(len);
        let (mut runners, _) = mapped_runners(ctx.device, KernelSet::Rust)?;
        for runner in &mut runners {
            let arrays = ReuseArrays::new(runner.as_mut(), &source)?;
            for case in CASES {
                let variant = case.0;
                let mut series = Series::new(ctx.key("vector_copy", RUST, "f32").variant(variant), variant);
                for (done, &bytes) in sizes.iter().enumerate() {
                    if ctx.stop_before(done, sizes.len()) {
                        break;
                    }
                    ctx.progress
                        .set_message(format!("mapped-reuse {} MiB, {variant}", bytes >> 20));
                    series
                        .points
                        .extend(arrays.measure(runner.as_mut(), ctx, case, bytes, &source)?);
                    ctx.progress.inc(1);
                }
                result.series.push(series);
            }
        }
        result.notes.push(
            "each read is one vector_copy of the whole input into a device buffer; every point's output checked \
             against the input"
                .into(),
        );
        Ok(result)
    }
}

/// The arrays of every case at the largest size, made before any timing: the
/// input in mapped and in pinned memory, its device copy and the output.
struct ReuseArrays {
    mapped: ArrayId,
    pinned: ArrayId,
    staged: ArrayId,
    out: ArrayId,
}

impl ReuseArrays {
    fn new(runner: &mut dyn MappedRunner, source: &[f32]) -> Result<Self> {
        let len = source.len();
        let mapped = runner.array(Memory::Mapped, len)?;
        runner.write(mapped, source)?;
        let pinned = runner.array(Memory::Pinned, len)?;
        runner.write(pinned, source)?;
        let staged = runner.array(Memory::Device, len)?;
        let out = runner.array(Memory::Device, len)?;
        Ok(Self {
            mapped,
            pinned,
            staged,
            out,
        })
    }

    /// The steps of one run of `(reads, copied)` over `n` floats: the pinned copy first if
    /// `copied`, then `reads` kernels reading the input into the output.
    fn steps(&self, (reads, copied): (u32, bool), n: usize) -> Vec<MappedStep> {
        let mut steps = Vec::new();
        let from = if copied {
            steps.push(MappedStep::Copy {
                from: self.pinned,
                to: self.staged,
                n,
            });
            self.staged
        } else {
            self.mapped
        };
        let read = MappedStep::VectorCopy {
            implementation: RUST,
            from,
            to: self.out,
            n: n as u64,
        };
        steps.extend((0..reads).map(|_| read));
        steps
    }

    /// One case at `bytes`: the output reset, the case timed, the output checked against the input.
    fn measure(
        &self,
        runner: &mut dyn MappedRunner,
        ctx: &RunContext<'_>,
        (_, reads, copied): (&str, u32, bool),
        bytes: u64,
        source: &[f32],
    ) -> Result<Option<Point>> {
        let n = (bytes / 4) as usize;
        runner.fill(self.out, self.out.len(), -1.0)?;
        let settings = ctx.settings.with_samples_times(SAMPLE_FACTOR);
        let times = runner.time(&self.steps((reads, copied), n), &settings)?;
        let failure = first_mismatch(&runner.read(self.out, n)?, &source[..n]);
        let work = Work::bytes(n as u64, bytes * reads as u64);
        let at = PointKey::Value((bytes >> 20) as i64);
        let mut point = Point::timed(at, &Metric::Time, work, &times, failure);
        // Bytes over the link: every read of mapped memory, or the one copy.
        let link_bytes = if copied { bytes } else { bytes * reads as u64 };
        if let Some(p) = point.as_mut()
            && let Some(ms) = p.median()
        {
            p.set_extra(LINK_GBPS, link_bytes as f64 / 1e9 / (ms / 1e3));
        }
        Ok(point)
    }
}

/// The largest size measured in every case: (MiB, points in the order of [`CASES`]).
fn largest(result: &ExperimentResult) -> Option<(i64, [&Point; 3])> {
    let series: Option<Vec<_>> = CASES
        .iter()
        .map(|(variant, _, _)| result.variant("vector_copy", Implementation::Rust, variant))
        .collect();
    let series = series?;
    series[0].points.iter().rev().find_map(|p| {
        let points = [p, series[1].point(p.at)?, series[2].point(p.at)?];
        points
            .iter()
            .all(|q| q.median().is_some())
            .then_some((p.at.value()?, points))
    })
}

impl SectionHooks for MappedReuse {
    fn bounds(&self, _result: &ExperimentResult, _series: &Series) -> Vec<Bound> {
        vec![Bound {
            figure: Figure::Extra(LINK_GBPS),
            unit: Unit::HostLink,
            stored_ceiling: None,
        }]
    }

    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        let Some((at, [once, twice, copied])) = largest(result) else {
            return Vec::new();
        };
        let (Some(a), Some(b), Some(c)) = (once.median(), twice.median(), copied.median()) else {
            return Vec::new();
        };
        vec![format!(
            "At {at} MiB one kernel reading mapped memory takes {a:.2} ms, two take {b:.2} ms ({:.2}x): the second \
             read crosses the link again. Copying the data once and reading the device copy twice takes {c:.2} ms.",
            b / a
        )]
    }

    fn claims(&self) -> Vec<Claim> {
        vec![
            Claim {
                id: "bpg-3.1.3-mapped-reread",
                source: "Best Practices Guide §3.1.3",
                claim: "Mapped host memory is not cached on the device: every read of it crosses the host link \
                        again, so reading it twice costs twice"
                    .into(),
                rule: Rule::Factor { claimed: 2.0 },
                reads: "vector_copy · Rust at the largest size: two kernels reading mapped memory over one".into(),
                experiment: "mapped-reuse",
            },
            Claim {
                id: "bpg-3.1.3-zero-copy-read-once",
                source: "Best Practices Guide §3.1.3",
                claim: "Zero copy is a gain only for data read once: data read more than once is better copied to \
                        the device"
                    .into(),
                rule: Rule::Direction,
                reads: "vector_copy · Rust at the largest size: two kernels on mapped memory over one pinned copy \
                        plus two kernels on the device copy"
                    .into(),
                experiment: "mapped-reuse",
            },
        ]
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        let Some((at, [once, twice, copied])) = largest(result) else {
            return Vec::new();
        };
        let ms = |p: &Point| p.median().unwrap_or(f64::NAN);
        let claims = self.claims();
        let mut rows = Vec::new();
        if let Some(factor) = slower_by(twice, once) {
            let measured = format!(
                "{at} MiB: mapped read once {:.2} ms, twice {:.2} ms ({}x)",
                ms(once),
                ms(twice),
                factor.text(2)
            );
            rows.push(claims[0].grade(factor, measured, result.device));
        }
        if let Some(factor) = slower_by(twice, copied) {
            let measured = format!(
                "{at} MiB read twice: from mapped memory {:.2} ms, copied once first {:.2} ms ({}x)",
                ms(twice),
                ms(copied),
                factor.text(2)
            );
            rows.push(claims[1].grade(factor, measured, result.device));
        }
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::super::ledger_fixtures::{result, series};
    use super::{CASES, MappedReuse};
    use crate::report::{Metric, Report, SectionHooks, Verdict};
    use crate::run_settings::RunSettings;
    use crate::stats::Summary;
    use crate::testbed::Implementation;

    fn verdicts(once: f64, twice: f64, copied: f64) -> (Verdict, Verdict) {
        let mut cases = Vec::new();
        for ((variant, _, _), ms) in CASES.iter().zip([once, twice, copied]) {
            let mut s = series("vector_copy", Implementation::Rust, variant, &[(256, ms)], &[]);
            s.points[0].time_ms = Summary::of(&[ms]);
            cases.push(s);
        }
        let r = result("mapped-reuse", Metric::Time, cases);
        let report = Report::new(Vec::new(), &RunSettings::default(), Vec::new(), Vec::new(), Vec::new());
        let rows = MappedReuse.ledger(&r, &report);
        assert_eq!(rows.len(), 2);
        (rows[0].verdict, rows[1].verdict)
    }

    #[test]
    fn a_second_read_over_the_link_costs_twice_and_copying_first_wins() {
        // 256 MiB over a 25 GB/s link: 10.7 ms a read; one copy plus two DRAM reads: 10.7 + 0.4 ms.
        assert_eq!(verdicts(10.7, 21.4, 11.1), (Verdict::Holds, Verdict::Holds));
        // Cached between kernels: the second read is free and zero copy still wins.
        assert_eq!(verdicts(10.7, 10.8, 11.1), (Verdict::Gone, Verdict::Gone));
        assert_eq!(verdicts(10.7, 10.8, 21.0), (Verdict::Gone, Verdict::Reversed));
    }
}
