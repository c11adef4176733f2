//! Guide §4.4, execution configuration: the same work (a million `fma_chain`
//! elements, a grid-stride loop) launched as grids of half as many blocks
//! as SMs, one block per SM, four per SM, and thousands of blocks. With
//! fewer blocks than SMs, SMs sit idle; with one 256-thread block per SM,
//! eight warps cannot hide the FMA latency; with thousands of blocks every
//! SM holds as many as fit.

use super::{Experiment, RunContext};
use crate::error::Result;
use crate::launchers::{FmaChainGrid, FmaChainRunner, fma_chain_runners};
use crate::report::{Axis, Claim, ExperimentResult, LedgerRow, Metric, Point, PointKey, Report, Rule, SectionHooks};
use crate::report::{Scale, Series, Work, slower_by};
use crate::testbed::Implementation;
use kernels_gpu::streams::{FMA_CHAIN_A, FMA_CHAIN_B};

pub struct GridShape;

/// Elements of the work, the same for every grid.
const ELEMENTS: usize = 1 << 20;

/// Dependent FMAs per element per launch.
const ITERATIONS: u32 = 4096;

/// The grids: half the SMs, the SMs, four per SM, and one block per 256 elements (4096).
fn grids(multiprocessors: u32) -> [u32; 4] {
    let sms = multiprocessors.max(2);
    [sms / 2, sms, 4 * sms, (ELEMENTS / 256) as u32]
}

/// What every element holds after `launches` launches from 0 (the host's reference).
fn reference(launches: u64) -> f32 {
    // Past 200 000 steps the map sits at its fixed point: no need to step further.
    let steps = (launches * ITERATIONS as u64).min(400_000);
    (0..steps).fold(0.0f32, |x, _| x.mul_add(FMA_CHAIN_A, FMA_CHAIN_B))
}

impl Experiment for GridShape {
    fn name(&self) -> &'static str {
        "grid-shape"
    }
    fn title(&self) -> &'static str {
        "Grid shape: the same work as fewer blocks than SMs, one per SM, or thousands"
    }
    fn source(&self) -> &'static str {
        "CUDA C Best Practices Guide 4.0, §4.4"
    }
    fn points(&self) -> u64 {
        4
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let axis = Axis::lines("blocks", Metric::Time).x_scale(Scale::Log2);
        let mut result = ctx.result(self, axis, "");
        let sms = ctx.device.info().multiprocessors.max(1) as u32;
        // The guide's grids are CUDA's: the Rust kernel's series.
        let (runners, waived) = fma_chain_runners(ctx.device, &[Implementation::Rust])?;
        result.waive(waived);
        for mut runner in runners {
            runner.allocate(ELEMENTS)?;
            let key = ctx
                .key("fma_chain", runner.implementation(), "f32")
                .variant("grid-stride");
            let mut series = Series::new(key, "fma_chain, 2^20 elements, 256-thread blocks");
            for (done, blocks) in grids(sms).into_iter().enumerate() {
                if ctx.stop_before(done, 4) {
                    break;
                }
                ctx.progress.set_message(format!("grid-shape {blocks} blocks"));
                series.points.extend(measure(ctx, runner.as_mut(), blocks)?);
                ctx.progress.inc(1);
            }
            result.series.push(series);
        }
        result
            .setup
            .push(format!("{sms} SMs; grids of {:?} blocks of 256 threads", grids(sms)));
        result.notes.push(format!(
            "{ITERATIONS} dependent FMAs per element per launch; every element checked against the host's \
             reference after one launch from 0 (after the timed launches it would sit at the map's fixed point)"
        ));
        Ok(result)
    }
}

/// One point: the work as `blocks` blocks, timed, then checked after one launch from 0.
fn measure(ctx: &RunContext<'_>, runner: &mut dyn FmaChainRunner, blocks: u32) -> Result<Option<Point>> {
    let grid = FmaChainGrid::Blocks(blocks);
    let times = runner.time(grid, ITERATIONS, ctx.settings)?;
    // Checked after one more launch from 0: the timed launches drive the map to its fixed point,
    // where an element skipped by some launches would look right.
    runner.fill(0.0)?;
    runner.launch(grid, ITERATIONS)?;
    let got = runner.read()?;
    let expected = reference(1);
    let failure = got
        .iter()
        .position(|&x| (x - expected).abs() > 1e-5 * expected.abs().max(1.0))
        .map(|i| format!("element {i} is {}, expected {expected}", got[i]));
    let work = Work::bytes(ELEMENTS as u64, 8 * ELEMENTS as u64);
    Ok(Point::timed(
        PointKey::Value(blocks as i64),
        &Metric::Time,
        work,
        &times,
        failure,
    ))
}

/// The points of the four grids, in the order of [`grids`].
fn grid_points(result: &ExperimentResult) -> Option<[(i64, &Point); 4]> {
    let series = result.variant("fma_chain", Implementation::Rust, "grid-stride")?;
    let measured: Vec<(i64, &Point)> = series
        .points
        .iter()
        .filter_map(|p| Some((p.at.value()?, p)).filter(|(_, p)| p.median().is_some()))
        .collect();
    measured.try_into().ok()
}

impl SectionHooks for GridShape {
    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        let Some(points) = grid_points(result) else {
            return Vec::new();
        };
        let times: Vec<String> = points
            .iter()
            .filter_map(|(blocks, p)| Some(format!("{blocks} blocks {:.3} ms", p.median()?)))
            .collect();
        vec![format!(
            "The same work: {}. Fewer blocks than SMs leave SMs idle; one block per SM leaves each with too few \
             warps to hide the FMA latency; thousands of blocks fill every SM.",
            times.join(", ")
        )]
    }

    fn claims(&self) -> Vec<Claim> {
        vec![
            Claim {
                id: "bpg-4.4-blocks-over-sms",
                source: "Best Practices Guide §4.4",
                claim: "A grid needs more blocks than there are SMs, so that every SM has a block to execute".into(),
                rule: Rule::Direction,
                reads: "fma_chain · Rust, the same work: the time as half as many blocks as SMs over one block per SM"
                    .into(),
                experiment: "grid-shape",
            },
            Claim {
                id: "bpg-4.4-thousands-of-blocks",
                source: "Best Practices Guide §4.4",
                claim: "Several blocks active per SM, and thousands in the grid, keep the hardware busier than one \
                        block per SM"
                    .into(),
                rule: Rule::Direction,
                reads: "fma_chain · Rust, the same work: the time as one block per SM over 4096 blocks".into(),
                experiment: "grid-shape",
            },
        ]
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        let Some([(half, h), (sms, s), _, (many, m)]) = grid_points(result) else {
            return Vec::new();
        };
        let ms = |p: &Point| p.median().unwrap_or(f64::NAN);
        let claims = self.claims();
        let mut rows = Vec::new();
        if let Some(factor) = slower_by(h, s) {
            let text = format!(
                "{half} blocks {:.3} ms, {sms} blocks {:.3} ms ({}x)",
                ms(h),
                ms(s),
                factor.text(2)
            );
            rows.push(claims[0].grade(factor, text, result.device));
        }
        if let Some(factor) = slower_by(s, m) {
            let text = format!(
                "{sms} blocks {:.3} ms, {many} blocks {:.3} ms ({}x)",
                ms(s),
                ms(m),
                factor.text(2)
            );
            rows.push(claims[1].grade(factor, text, result.device));
        }
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::super::ledger_fixtures::{result, series};
    use super::{GridShape, grids, reference};
    use crate::report::{Metric, Report, SectionHooks, Verdict};
    use crate::run_settings::RunSettings;
    use crate::stats::Summary;
    use crate::testbed::Implementation;

    fn verdicts(ms: [f64; 4]) -> Vec<Verdict> {
        let points: Vec<(i64, f64)> = grids(132).iter().zip(ms).map(|(&b, t)| (b as i64, t)).collect();
        let mut s = series("fma_chain", Implementation::Rust, "grid-stride", &points, &[]);
        for (point, t) in s.points.iter_mut().zip(ms) {
            point.time_ms = Summary::of(&[t]);
        }
        let r = result("grid-shape", Metric::Time, vec![s]);
        let report = Report::new(Vec::new(), &RunSettings::default(), Vec::new(), Vec::new(), Vec::new());
        GridShape.ledger(&r, &report).iter().map(|row| row.verdict).collect()
    }

    #[test]
    fn grids_run_from_half_the_sms_to_thousands() {
        assert_eq!(grids(132), [66, 132, 528, 4096]);
        assert_eq!(grids(1), [1, 2, 8, 4096]);
    }

    #[test]
    fn idle_sms_and_one_block_per_sm_are_slower() {
        assert_eq!(
            verdicts([0.58, 0.29, 0.15, 0.145]),
            vec![Verdict::Holds, Verdict::Holds]
        );
        assert_eq!(verdicts([0.29, 0.29, 0.29, 0.29]), vec![Verdict::Gone, Verdict::Gone]);
    }

    #[test]
    fn the_reference_counts_every_launch() {
        let one = reference(1);
        assert!((one - 10.0 * (1.0 - 0.9999f32.powi(4096))).abs() < 1e-3, "{one}");
        assert!(reference(2) > one);
        assert_eq!(reference(1000), reference(2000), "both at the fixed point");
    }
}
