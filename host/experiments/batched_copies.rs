//! Guide §3.1: "batch many small transfers into one". The same 4 MiB of
//! pinned host memory goes to the device as one copy, or as many copies of
//! a smaller piece each (4 KiB up): every copy pays the driver's and the
//! copy engine's fixed cost, so the many small copies take longer for the
//! same bytes. The family's runners (`host/launchers/batched_copies/`) hold
//! the buffers, copy and time.

use super::{Experiment, RunContext};
use crate::copy_element::{first_mismatch, pattern};
use crate::error::Result;
use crate::launchers::{CUDA_PINNED_PIECES, PieceCopyRunner, piece_copy_runners};
use crate::report::{Axis, Bound, ExperimentResult, Metric, Point, PointKey, Report, Scale, SectionHooks, Series};
use crate::report::{Claim, LedgerRow, Rule, Unit, Work, slower_by};
use crate::testbed::Implementation;

pub struct BatchedCopies;

/// The bytes every point moves.
const TOTAL_BYTES: u64 = 4 << 20;

/// The piece sizes swept, in bytes: 4 KiB to the whole 4 MiB (one copy).
fn piece_sizes() -> Vec<u64> {
    std::iter::successors(Some(4u64 << 10), |s| Some(s * 4))
        .take_while(|&s| s <= TOTAL_BYTES)
        .collect()
}

/// The series the ledger grades: (call, implementation, variant) of CUDA's pinned copies.
const KEY: (&str, Implementation, &str) = CUDA_PINNED_PIECES.key();

impl Experiment for BatchedCopies {
    fn name(&self) -> &'static str {
        "batched-copies"
    }
    fn title(&self) -> &'static str {
        "Batched transfers: 4 MiB as one copy or as many small ones"
    }
    fn source(&self) -> &'static str {
        "CUDA C Best Practices Guide 4.0, §3.1"
    }
    fn points(&self) -> u64 {
        piece_sizes().len() as u64
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let axis = Axis::lines("piece (KiB)", Metric::Bandwidth).x_scale(Scale::Log2);
        let mut result = ctx.result(self, axis, "the 4 MiB moved, whatever the number of copies");
        let len = (TOTAL_BYTES / 4) as usize;
        let source: Vec<f32> = pattern(len);
        let (mut runners, waived) = piece_copy_runners(ctx.device, &source)?;
        result.waive(waived);
        let mut series: Vec<Series> = runners
            .iter()
            .map(|runner| {
                let copies = runner.copies();
                let key = ctx.key(copies.call, copies.implementation, "f32");
                Series::new(key.variant(copies.variant), copies.label)
            })
            .collect();
        let pieces = piece_sizes();
        for (done, &piece) in pieces.iter().enumerate() {
            if ctx.stop_before(done, pieces.len()) {
                break;
            }
            ctx.progress
                .set_message(format!("batched-copies {} KiB pieces", piece >> 10));
            for (runner, series) in runners.iter_mut().zip(&mut series) {
                series.points.extend(measure(ctx, runner.as_mut(), piece, &source)?);
            }
            ctx.progress.inc(1);
        }
        result.series.extend(series);
        result.notes.push(format!(
            "every point moves {} MiB in {}-KiB to {}-KiB copies on one stream, checked against the source; \
             up to {} repetitions per sample",
            TOTAL_BYTES >> 20,
            pieces[0] >> 10,
            TOTAL_BYTES >> 10,
            ctx.settings.reps
        ));
        Ok(result)
    }
}

/// The point of copying `source` in pieces of `piece` bytes: timed, then the device's copy checked.
fn measure(
    ctx: &RunContext<'_>,
    runner: &mut dyn PieceCopyRunner,
    piece: u64,
    source: &[f32],
) -> Result<Option<Point>> {
    runner.clear_device()?;
    let times = runner.time((piece / 4) as usize, ctx.settings)?;
    let failure = first_mismatch(&runner.read_device()?, source);
    let at = PointKey::Value((piece >> 10) as i64);
    let work = Work::bytes(source.len() as u64, TOTAL_BYTES);
    Ok(Point::timed(at, &Metric::Bandwidth, work, &times, failure))
}

/// A piece size in KiB and its point.
type PiecePoint<'a> = (i64, &'a Point);

/// The smallest and the largest piece's points.
fn extremes(result: &ExperimentResult) -> Option<(PiecePoint<'_>, PiecePoint<'_>)> {
    let (call, implementation, variant) = KEY;
    let series = result.variant(call, implementation, variant)?;
    let measured = |p: &&Point| p.median().is_some();
    let small = series.points.iter().find(measured)?;
    let whole = series.points.iter().rev().find(measured)?;
    Some(((small.at.value()?, small), (whole.at.value()?, whole))).filter(|(s, w)| s.0 < w.0)
}

impl SectionHooks for BatchedCopies {
    fn bounds(&self, _result: &ExperimentResult, _series: &Series) -> Vec<Bound> {
        vec![Bound::headline(Unit::HostLink)]
    }

    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        let Some(((small, s), (whole, w))) = extremes(result) else {
            return Vec::new();
        };
        let (Some(s_gbps), Some(w_gbps)) = (s.median(), w.median()) else {
            return Vec::new();
        };
        vec![format!(
            "{} MiB as {}-KiB copies moves at {s_gbps:.1} GB/s; as {}-KiB copies at {w_gbps:.1} GB/s. Each copy \
             costs a fixed few microseconds before its bytes move, so many small copies pay it many times.",
            TOTAL_BYTES >> 20,
            small,
            whole
        )]
    }

    fn claims(&self) -> Vec<Claim> {
        vec![Claim {
            id: "bpg-3.1-batched-transfers",
            source: "Best Practices Guide §3.1",
            claim: "Batching many small host-to-device transfers into one larger transfer is significantly faster \
                    than making each transfer separately"
                .into(),
            rule: Rule::Direction,
            reads: "cuMemcpyHtoD, pinned: the time of 4 MiB as 4-KiB copies over the time of one 4-MiB copy".into(),
            experiment: "batched-copies",
        }]
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        let Some(((small, s), (whole, w))) = extremes(result) else {
            return Vec::new();
        };
        let (Some(factor), Some(s_ms), Some(w_ms)) = (slower_by(s, w), s.median_ms(), w.median_ms()) else {
            return Vec::new();
        };
        vec![self.claims()[0].grade(
            factor,
            format!(
                "{} MiB: {}-KiB copies {:.3} ms, {}-KiB copies {:.3} ms ({}x)",
                TOTAL_BYTES >> 20,
                small,
                s_ms,
                whole,
                w_ms,
                factor.text(1)
            ),
            result.device,
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::super::ledger_fixtures::{result, series};
    use super::{BatchedCopies, KEY, piece_sizes};
    use crate::report::{Metric, Report, SectionHooks, Verdict};
    use crate::run_settings::RunSettings;

    fn verdict(small_ms: f64, whole_ms: f64) -> Verdict {
        let (call, implementation, variant) = KEY;
        let mut s = series(call, implementation, variant, &[(4, 1.0), (4096, 1.0)], &[]);
        s.points[0].time_ms = crate::stats::Summary::of(&[small_ms]);
        s.points[1].time_ms = crate::stats::Summary::of(&[whole_ms]);
        let r = result("batched-copies", Metric::Bandwidth, vec![s]);
        let report = Report::new(Vec::new(), &RunSettings::default(), Vec::new(), Vec::new(), Vec::new());
        let rows = BatchedCopies.ledger(&r, &report);
        assert_eq!(rows.len(), 1);
        rows[0].verdict
    }

    #[test]
    fn the_graded_series_keeps_its_key() {
        let (call, implementation, variant) = KEY;
        assert_eq!(
            (call, implementation, variant),
            (
                "cuMemcpyHtoD",
                crate::testbed::Implementation::CopyEngine,
                "pinned, in pieces"
            )
        );
        assert_eq!(crate::launchers::CUDA_PINNED_PIECES.label, "H2D copies (pinned)");
    }

    #[test]
    fn pieces_run_from_4_kib_to_the_whole_buffer() {
        assert_eq!(
            piece_sizes(),
            vec![4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20]
        );
    }

    #[test]
    fn many_small_copies_slower_hold_and_equal_times_are_gone() {
        assert_eq!(verdict(2.5, 0.09), Verdict::Holds);
        assert_eq!(verdict(0.09, 0.09), Verdict::Gone);
        assert_eq!(verdict(0.05, 0.09), Verdict::Reversed);
    }
}
