//! Best Practices Guide chapter 4: occupancy. §4.5's technique (the same
//! kernel launched with more and more dynamic shared memory it never reads,
//! so that fewer blocks fit on an SM, from the most down to one) on a copy
//! and on a latency-bound chase of dependent loads, against the theoretical
//! occupancy `cuOccupancyMaxActiveBlocksPerMultiprocessor` gives; and §4.4's
//! block sizes, 32 to 1024 threads including sizes that are not multiples of
//! 32 (48, 200, 1000: the kernels' tail guard covers them) and their
//! whole-warp neighbours.

use std::fmt::Write;

use super::sweep::each_point;
use super::{Experiment, RunContext};
use crate::copy_element::{first_mismatch, pattern};
use crate::error::Result;
use crate::launchers::{
    OCCUPANCY_BLOCK_THREADS, OccupancyKernel, OccupancyRunner, occupancy_runners, shared_bytes_for_resident_blocks,
};
use crate::reference::{chase_successors, follow_successors};
use crate::report::Panel;
use crate::report::{
    Axis, Claim, ExperimentResult, LedgerRow, Metric, PlotKind, PlotLine, PlotSpec, Point, PointKey, Report, Rule,
    Scale, SectionHooks, Series, Spread, Verdict, Work, better_by, point_cell,
};
use crate::testbed::Implementation;

pub struct Occupancy;

/// The block sizes of §4.4's sweep (48, 200 and 1000 are not whole warps;
/// 64, 224 and 1024 are the whole-warp sizes with the same warps).
pub const BLOCK_SIZES: [u32; 14] = [32, 48, 64, 96, 128, 192, 200, 224, 256, 384, 512, 768, 1000, 1024];
/// Dependent loads per thread of the chase.
const CHASE_STEPS: u32 = 32;
/// Steps of the shared-memory sweep's search for each resident-block count.
const SHARED_GRANULE: u32 = 1024;
/// Waves of the chase's threads at full occupancy.
const CHASE_WAVES: u32 = 2;

/// The series' variants.
pub const SHARED_SWEEP: &str = "shared-memory sweep";
pub const BLOCK_SWEEP: &str = "block-size sweep";

/// Extra figures.
pub const OCCUPANCY: &str = "occupancy %";
pub const BLOCKS_PER_SM: &str = "blocks/SM";
pub const SHARED_BYTES: &str = "dynamic shared B";
pub const IDLE_LANES: &str = "idle lanes %";

/// Two sweeps with keys of their own: no generic plot (each sweep has its own).
fn axis() -> Axis {
    Axis::lines(
        "theoretical occupancy (%) in the shared-memory sweep; threads per block in the block-size sweep",
        Metric::Bandwidth,
    )
    .plot(PlotKind::None)
}

/// The whole-warp block size with the same warps as `block` (`ceil(block / 32) × 32`).
pub fn whole_warp_partner(block: u32) -> u32 {
    block.div_ceil(32) * 32
}

/// What both kernels run on, on the host: the copy's input, the chase's
/// threads, its ring's size and the slots the CPU reference ends at.
struct Workload {
    n: u64,
    input: Vec<f32>,
    threads: u32,
    /// The chase ring's slots.
    slots: usize,
    expected_ends: Vec<u32>,
}

/// The runners of the family, each with `workload`'s arrays.
type Runners<'a> = [Box<dyn OccupancyRunner + 'a>];

/// One launch of `kernel` by `implementation` at `(block, shared)`, timed and checked.
fn measure(
    ctx: &RunContext<'_>,
    workload: &Workload,
    runner: &mut dyn OccupancyRunner,
    (kernel, implementation): (OccupancyKernel, Implementation),
    (block, shared): (u32, u32),
    at: i64,
) -> Result<Option<Point>> {
    runner.clear_output(kernel)?;
    let times_ms = runner.time(implementation, kernel, (block, shared), ctx.settings)?;
    let (failure, work) = match kernel {
        OccupancyKernel::Copy => {
            let Workload { n, input, .. } = workload;
            let got = runner.read_copy()?;
            (first_mismatch(&got, input), Work::bytes(*n, 8 * *n))
        }
        OccupancyKernel::Chase => {
            let Workload {
                threads, expected_ends, ..
            } = workload;
            let got = runner.read_ends()?;
            let failure = got.iter().zip(expected_ends.iter()).position(|(g, e)| g != e).map(|t| {
                format!(
                    "thread {t} ended at slot {}, the reference at {}",
                    got[t], expected_ends[t]
                )
            });
            let t = *threads as u64;
            (failure, Work::bytes(t, 4 * t * (CHASE_STEPS as u64 + 1)))
        }
    };
    Ok(Point::timed(
        PointKey::Value(at),
        &Metric::Bandwidth,
        work,
        &times_ms,
        failure,
    ))
}

/// Resident blocks per SM and theoretical occupancy of `kernel` by `implementation` at `(block, shared)`.
fn occupancy_of(
    ctx: &RunContext<'_>,
    runner: &dyn OccupancyRunner,
    (kernel, implementation): (OccupancyKernel, Implementation),
    (block, shared): (u32, u32),
) -> Result<(u32, f64)> {
    let blocks = runner.resident_blocks(implementation, kernel, (block, shared))?.max(0) as u32;
    let per_sm = ctx.device.info().max_threads_per_multiprocessor.max(1) as f64;
    Ok((blocks, (blocks * block) as f64 / per_sm))
}

impl Experiment for Occupancy {
    fn name(&self) -> &'static str {
        "occupancy"
    }
    fn title(&self) -> &'static str {
        "Occupancy: resident blocks and block sizes"
    }
    fn source(&self) -> &'static str {
        "CUDA C Best Practices Guide 4.0, §4.1, §4.4 (thread and block heuristics) and §4.5 (effects of shared memory)"
    }
    fn points(&self) -> u64 {
        (OccupancyKernel::ALL.len() * (8 + BLOCK_SIZES.len())) as u64
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let mut result = ctx.result(
            self,
            axis(),
            "the copy: one float read and one written per element (Br + Bw); the chase: 4 bytes per dependent load \
             and 4 written per thread",
        );
        let (mut runners, waived) = occupancy_runners(ctx.device)?;
        result.waive(waived);
        let workload = prepare(ctx, &mut runners)?;
        let info = ctx.device.info();
        let max_shared = (info.max_shared_memory_per_multiprocessor.max(0) as u32).saturating_sub(1024);
        let mut count = (0usize, self.points() as usize);
        // §4.5: more dynamic shared memory, fewer resident blocks.
        for kernel in OccupancyKernel::ALL {
            let plans = plan_shared_sweep(ctx, &mut result, &runners, kernel, max_shared)?;
            count.0 += sweep_shared_memory(ctx, &mut result, (&workload, &mut runners), kernel, &plans, count)?;
        }
        // §4.4: block sizes.
        for kernel in OccupancyKernel::ALL {
            let mut plans: Vec<(usize, Implementation, usize)> = Vec::new();
            for (r, runner) in runners.iter().enumerate() {
                for &implementation in runner.implementations() {
                    let key = ctx.key(kernel.kernel(), implementation, "f32").variant(BLOCK_SWEEP);
                    result.series.push(Series::of(key));
                    plans.push((r, implementation, result.series.len() - 1));
                }
            }
            count.0 += sweep_block_sizes(ctx, &mut result, (&workload, &mut runners), kernel, &plans, count)?;
        }
        result.setup.push(format!(
            "the copy: {} MiB of floats each way, one per thread; the chase: {} threads ({CHASE_WAVES} waves \
             at full occupancy) each taking {CHASE_STEPS} dependent loads through a random ring of {} slots \
             ({} MiB); shared-memory sweep: blocks of {OCCUPANCY_BLOCK_THREADS} threads with the least dynamic \
             shared memory (a multiple of {SHARED_GRANULE} bytes, up to {max_shared}) that leaves each count of \
             resident blocks per SM",
            (4 * workload.n) >> 20,
            workload.threads,
            workload.slots,
            (4 * workload.slots) >> 20
        ));
        result.notes.push(
            "Occupancy: resident warps per SM over the SM's maximum, from cuOccupancyMaxActiveBlocksPerMultiprocessor \
             for each kernel as its implementation was compiled. Every copy checked in full; every chase's end slot \
             checked against the CPU reference."
                .into(),
        );
        Ok(result)
    }
}

/// The copy's input at the run's buffer size; the chase's ring (twice the
/// L2, at least a slot a thread) and its expected ends; each runner given
/// its arrays.
fn prepare(ctx: &RunContext<'_>, runners: &mut Runners<'_>) -> Result<Workload> {
    let info = ctx.device.info();
    let n = (ctx.settings.buffer_bytes(info) / 4).min(i32::MAX as u64);
    let input: Vec<f32> = pattern(n as usize);
    let threads = info.multiprocessors.max(1) as u32 * info.max_threads_per_multiprocessor.max(1) as u32 * CHASE_WAVES;
    let slots = ((2 * info.l2_cache_bytes.max(0) as u64 / 4).clamp(1 << 20, 1 << 26) as usize).max(threads as usize);
    let successors = chase_successors(slots, 0x0cc0_9a7c);
    let expected_ends: Vec<u32> = (0..threads)
        .map(|t| follow_successors(&successors, t, CHASE_STEPS as u64))
        .collect();
    for runner in runners.iter_mut() {
        runner.prepare(&input, &successors, (threads, CHASE_STEPS))?;
    }
    Ok(Workload {
        n,
        input,
        threads,
        slots,
        expected_ends,
    })
}

/// One implementation's series of the shared-memory sweep: its runner, the
/// series and its (blocks per SM, shared bytes) levels.
type SharedPlan = (usize, Implementation, usize, Vec<(u32, u32)>);

/// The shared-memory sweep's series of `kernel`, one per implementation, with
/// the least dynamic shared memory for each count of resident blocks.
fn plan_shared_sweep(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    runners: &Runners<'_>,
    kernel: OccupancyKernel,
    max_shared: u32,
) -> Result<Vec<SharedPlan>> {
    let mut plans = Vec::new();
    for (r, runner) in runners.iter().enumerate() {
        for &implementation in runner.implementations() {
            let levels = shared_bytes_for_resident_blocks(max_shared, SHARED_GRANULE, |bytes| {
                runner.resident_blocks(implementation, kernel, (OCCUPANCY_BLOCK_THREADS, bytes))
            })?;
            let key = ctx.key(kernel.kernel(), implementation, "f32").variant(SHARED_SWEEP);
            result.series.push(Series::of(key));
            plans.push((r, implementation, result.series.len() - 1, levels));
        }
    }
    Ok(plans)
}

/// §4.5: `kernel` at each level of resident blocks, every implementation at
/// each; points `done..` of `total`. Returns the levels measured.
fn sweep_shared_memory(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    (workload, runners): (&Workload, &mut Runners<'_>),
    kernel: OccupancyKernel,
    plans: &[SharedPlan],
    (done, total): (usize, usize),
) -> Result<usize> {
    let most = plans.iter().map(|p| p.3.len()).max().unwrap_or(0);
    each_point(ctx, 0..most, (done, total), |level| {
        for &(r, implementation, series, ref levels) in plans {
            let Some(&(blocks, shared)) = levels.get(level) else {
                continue;
            };
            let runner = runners[r].as_mut();
            let launch = (OCCUPANCY_BLOCK_THREADS, shared);
            let (_, occupancy) = occupancy_of(ctx, runner, (kernel, implementation), launch)?;
            let at = (100.0 * occupancy).round() as i64;
            ctx.progress
                .set_message(format!("{} {at}%", result.series[series].label));
            let point = measure(ctx, workload, runner, (kernel, implementation), launch, at)?;
            if let Some(point) = point {
                let point = point
                    .with_extra(OCCUPANCY, 100.0 * occupancy)
                    .with_extra(BLOCKS_PER_SM, blocks as f64)
                    .with_extra(SHARED_BYTES, shared as f64);
                result.series[series].points.push(point);
            }
        }
        Ok(())
    })
}

/// §4.4: `kernel` at each block size, every implementation at each (plans:
/// runner, implementation, series); points `done..` of `total`. Returns the
/// sizes measured.
fn sweep_block_sizes(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    (workload, runners): (&Workload, &mut Runners<'_>),
    kernel: OccupancyKernel,
    plans: &[(usize, Implementation, usize)],
    (done, total): (usize, usize),
) -> Result<usize> {
    each_point(ctx, BLOCK_SIZES, (done, total), |block| {
        for &(r, implementation, series) in plans {
            let runner = runners[r].as_mut();
            ctx.progress
                .set_message(format!("{} {block}", result.series[series].label));
            let (blocks, occupancy) = occupancy_of(ctx, runner, (kernel, implementation), (block, 0))?;
            let point = measure(
                ctx,
                workload,
                runner,
                (kernel, implementation),
                (block, 0),
                block as i64,
            )?;
            if let Some(point) = point {
                let lanes = whole_warp_partner(block);
                let point = point
                    .with_extra(OCCUPANCY, 100.0 * occupancy)
                    .with_extra(BLOCKS_PER_SM, blocks as f64)
                    .with_extra(IDLE_LANES, 100.0 * (lanes - block) as f64 / lanes as f64);
                result.series[series].points.push(point);
            }
        }
        Ok(())
    })
}

/// The Rust series of `kernel` in `sweep`.
fn rust<'r>(result: &'r ExperimentResult, kernel: OccupancyKernel, sweep: &str) -> Option<&'r Series> {
    result.variant(kernel.kernel(), Implementation::Rust, sweep)
}

/// Bandwidth at the most occupancy over that at the least occupancy of at
/// least 50%, with both occupancies; `None` without such points.
pub fn gain_past_half(series: &Series) -> Option<(f64, i64, i64)> {
    let ok: Vec<(i64, f64)> = series
        .points
        .iter()
        .filter_map(|p| Some((p.at.value()?, p.median()?)))
        .collect();
    let half = ok.iter().filter(|(x, _)| *x >= 50).min_by_key(|(x, _)| *x)?;
    let top = ok.iter().max_by_key(|(x, _)| *x)?;
    Some((top.1 / half.1, half.0, top.0))
}

pub const OCCUPANCY_RULE: &str = "from the least occupancy of at least 50% to the most: holds when both the copy \
    and the chase gain at most 10%; weaker when one does; gone when neither does";

/// The verdict on "past 50% occupancy more does not help" from the copy's and the chase's gains.
pub fn occupancy_verdict(copy_gain: f64, chase_gain: f64) -> Verdict {
    let flat = |g: f64| g.is_finite() && g <= 1.10;
    match (flat(copy_gain), flat(chase_gain)) {
        (true, true) => Verdict::Holds,
        (false, false) => Verdict::Gone,
        _ => Verdict::Weaker,
    }
}

/// For one block-size series: the best of 128–256 threads over the best of
/// all, and the mean of each partial-warp size over its whole-warp partner.
pub fn block_size_figures(series: &Series) -> Option<(f64, f64)> {
    let at = |b: u32| series.median_at(b as i64);
    let best_all = series.points.iter().filter_map(|p| p.median()).fold(f64::NAN, f64::max);
    let best_start = BLOCK_SIZES
        .iter()
        .filter(|b| (128..=256).contains(*b))
        .filter_map(|&b| at(b))
        .fold(f64::NAN, f64::max);
    let ratios: Vec<f64> = BLOCK_SIZES
        .iter()
        .filter(|b| !b.is_multiple_of(32))
        .filter_map(|&b| Some(at(b)? / at(whole_warp_partner(b))?))
        .collect();
    if !(best_all.is_finite() && best_start.is_finite()) || ratios.is_empty() {
        return None;
    }
    Some((best_start / best_all, ratios.iter().sum::<f64>() / ratios.len() as f64))
}

pub const BLOCK_RULE: &str = "four checks, for the copy and the chase each: a block of 128–256 threads within 5% of \
    the best block size; the sizes that are not whole warps (48, 200, 1000) at least 3% slower on average than the \
    whole-warp sizes with the same warps (64, 224, 1024). Holds when all four pass; weaker when some do; gone when none does";

/// The verdict on §4.4's block sizes from each kernel's [`block_size_figures`].
pub fn block_size_verdict(figures: &[(f64, f64)]) -> Verdict {
    let passed = figures
        .iter()
        .flat_map(|&(start, partial)| [start >= 0.95, partial <= 0.97])
        .filter(|&ok| ok)
        .count();
    match passed {
        p if p == 2 * figures.len() && p > 0 => Verdict::Holds,
        0 => Verdict::Gone,
        _ => Verdict::Weaker,
    }
}

/// The claims the experiment grades.
pub fn claims() -> Vec<Claim> {
    vec![
        Claim {
            id: "bpg-4.1-occupancy-half",
            source: "Best Practices Guide §4.1, §4.4, §4.5",
            claim: "Past about 50% occupancy, more occupancy does not improve performance".into(),
            rule: Rule::Stated(OCCUPANCY_RULE),
            reads: "the copy and the chase · Rust, §4.5's shared-memory sweep: the figure at the most occupancy over \
                    at the least occupancy of at least 50%"
                .into(),
            experiment: "occupancy",
        },
        Claim {
            id: "bpg-4.4-block-size",
            source: "Best Practices Guide §4.4",
            claim: "Threads per block should be a multiple of 32 (partial warps waste lanes); 128 to 256 is a good \
                    start"
                .into(),
            rule: Rule::Stated(BLOCK_RULE),
            reads: "the copy and the chase · Rust, the block-size sweep (medians)".into(),
            experiment: "occupancy",
        },
    ]
}

/// The gain past half occupancy of a series with its spread: the figure at
/// the most occupancy over the least occupancy of at least 50%.
fn gain_spread(series: &Series, metric: &Metric) -> Option<Spread> {
    let ok: Vec<(i64, &Point)> = series
        .points
        .iter()
        .filter_map(|p| Some((p.at.value()?, p)).filter(|(_, p)| p.median().is_some()))
        .collect();
    let half = ok.iter().filter(|(x, _)| *x >= 50).min_by_key(|(x, _)| *x)?;
    let top = ok.iter().max_by_key(|(x, _)| *x)?;
    better_by(metric, top.1, half.1)
}

/// The ledger rows of an occupancy result (pure: tested on synthetic results).
pub fn ledger_rows(result: &ExperimentResult) -> Vec<LedgerRow> {
    let claims = claims();
    let mut rows = Vec::new();
    let gains = (
        rust(result, OccupancyKernel::Copy, SHARED_SWEEP).and_then(gain_past_half),
        rust(result, OccupancyKernel::Chase, SHARED_SWEEP).and_then(gain_past_half),
    );
    let spreads = (
        rust(result, OccupancyKernel::Copy, SHARED_SWEEP).and_then(|s| gain_spread(s, &result.axis.metric)),
        rust(result, OccupancyKernel::Chase, SHARED_SWEEP).and_then(|s| gain_spread(s, &result.axis.metric)),
    );
    if let ((Some(copy), Some(chase)), (Some(copy_spread), Some(chase_spread))) = (gains, spreads) {
        rows.push(claims[0].grade_many(
            &[copy_spread, chase_spread],
            |v| occupancy_verdict(v[0], v[1]),
            format!(
                "Rust, §4.5's sweep: the copy gains {}x from {}% to {}% occupancy; the latency-bound chase {}x from \
                 {}% to {}%",
                copy_spread.text(2),
                copy.1,
                copy.2,
                chase_spread.text(2),
                chase.1,
                chase.2
            ),
            result.device,
        ));
    }
    let figures: Vec<(&str, (f64, f64))> = [("copy", OccupancyKernel::Copy), ("chase", OccupancyKernel::Chase)]
        .into_iter()
        .filter_map(|(name, kind)| Some((name, block_size_figures(rust(result, kind, BLOCK_SWEEP)?)?)))
        .collect();
    if figures.len() == OccupancyKernel::ALL.len() {
        let measured = figures
            .iter()
            .map(|(name, (start, partial))| {
                format!(
                    "{name}: best of 128–256 threads {:.0}% of the best size, partial warps {partial:.3}x their \
                     whole-warp sizes",
                    100.0 * start
                )
            })
            .collect::<Vec<_>>()
            .join("; ");
        let exact: Vec<Spread> = figures
            .iter()
            .flat_map(|(_, (start, partial))| [Spread::exact(*start), Spread::exact(*partial)])
            .collect();
        rows.push(claims[1].grade_many(
            &exact,
            |v| block_size_verdict(&v.as_chunks::<2>().0.iter().map(|c| (c[0], c[1])).collect::<Vec<_>>()),
            format!("Rust: {measured} (medians)"),
            result.device,
        ));
    }
    rows
}

/// A plot of the series of `sweep` against their point keys.
fn sweep_plot(
    result: &ExperimentResult,
    sweep: &str,
    suffix: &str,
    title: &str,
    x_label: &str,
    x_scale: Scale,
) -> Option<PlotSpec> {
    let lines: Vec<PlotLine> = result
        .series
        .iter()
        .filter(|s| s.key.variant == sweep)
        .filter_map(|s| {
            PlotLine::of_series(
                s,
                if s.key.kernel == OccupancyKernel::Copy.kernel() {
                    0
                } else {
                    1
                },
                |x| x,
            )
        })
        .collect();
    (!lines.is_empty()).then(|| PlotSpec {
        suffix: suffix.into(),
        title: title.into(),
        x_label: x_label.into(),
        y_label: "effective bandwidth (GB/s)".into(),
        x_scale,
        y_scale: Scale::Log10,
        panels: vec![Panel::of(lines, Vec::new())],
        ..PlotSpec::default()
    })
}

impl SectionHooks for Occupancy {
    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        let mut text = String::from("**Then vs now.** ");
        for (name, kind) in [
            ("copy", OccupancyKernel::Copy),
            ("latency-bound chase", OccupancyKernel::Chase),
        ] {
            let Some(series) = rust(result, kind, SHARED_SWEEP) else {
                continue;
            };
            let points: Vec<(i64, f64)> = series
                .points
                .iter()
                .filter_map(|p| Some((p.at.value()?, p.median()?)))
                .collect();
            let (Some(low), Some(high)) = (points.iter().min_by_key(|p| p.0), points.iter().max_by_key(|p| p.0)) else {
                continue;
            };
            let _ = write!(
                text,
                "The {name} runs at {:.0} GB/s with {}% occupancy and {:.0} GB/s with {}%",
                low.1, low.0, high.1, high.0
            );
            if let Some((gain, half, top)) = gain_past_half(series) {
                let _ = write!(text, " ({gain:.2}x from {half}% to {top}%)");
            }
            text.push_str(". ");
        }
        text.push_str(
            "The guide: beyond about 50% occupancy more rarely pays, except where latency is what limits the \
             kernel; a copy keeps many loads in flight per warp, a chase only one.",
        );
        vec![text]
    }

    fn tables(&self, result: &ExperimentResult, _report: &Report) -> Option<String> {
        let mut out = String::new();
        for (sweep, heading, first) in [
            (
                SHARED_SWEEP,
                "§4.5: dynamic shared memory against resident blocks",
                "occupancy %",
            ),
            (
                BLOCK_SWEEP,
                "§4.4: threads per block (no dynamic shared memory)",
                "threads per block",
            ),
        ] {
            let columns: Vec<&Series> = result.series.iter().filter(|s| s.key.variant == sweep).collect();
            if columns.is_empty() {
                continue;
            }
            let _ = writeln!(out, "**{heading}**\n");
            let _ = write!(out, "| {first} |");
            for s in &columns {
                let _ = write!(out, " {} GB/s | blocks/SM |", s.label);
            }
            if sweep == BLOCK_SWEEP {
                let _ = write!(out, " idle lanes % |");
            }
            let extra = usize::from(sweep == BLOCK_SWEEP);
            let _ = writeln!(out, "\n|---:|{}", "---:|".repeat(2 * columns.len() + extra));
            let mut keys: Vec<i64> = columns
                .iter()
                .flat_map(|s| s.points.iter().filter_map(|p| p.at.value()))
                .collect();
            keys.sort_unstable_by(|a, b| if sweep == SHARED_SWEEP { b.cmp(a) } else { a.cmp(b) });
            keys.dedup();
            for at in keys {
                let _ = write!(out, "| {at} |");
                for s in &columns {
                    let point = s.at(at);
                    let blocks = point
                        .and_then(|p| p.extra.get(BLOCKS_PER_SM))
                        .map_or("—".into(), |b| format!("{b:.0}"));
                    let _ = write!(out, " {} | {blocks} |", point_cell(point));
                }
                if sweep == BLOCK_SWEEP {
                    let lanes = whole_warp_partner(at as u32);
                    let _ = write!(out, " {:.0} |", 100.0 * (lanes as i64 - at) as f64 / lanes as f64);
                }
                let _ = writeln!(out);
            }
            let _ = writeln!(out);
        }
        let _ = writeln!(out, "GB/s cells: median (min–max over the samples).");
        Some(out)
    }

    fn extra_plots(&self, result: &ExperimentResult, _report: &Report) -> Vec<PlotSpec> {
        [
            sweep_plot(
                result,
                SHARED_SWEEP,
                "shared",
                "Bandwidth against theoretical occupancy (§4.5's shared-memory sweep)",
                "theoretical occupancy (%)",
                Scale::Linear,
            ),
            sweep_plot(
                result,
                BLOCK_SWEEP,
                "blocks",
                "Bandwidth against threads per block (§4.4)",
                "threads per block (count)",
                Scale::Log2,
            ),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    fn claims(&self) -> Vec<Claim> {
        claims()
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        ledger_rows(result)
    }
}

#[cfg(test)]
mod tests {
    use super::super::ledger_fixtures::{result, series};
    use super::*;

    type Curve<'a> = &'a [(i64, f64)];

    fn occupancy_result(copy: Curve<'_>, chase: Curve<'_>, blocks: Option<(Curve<'_>, Curve<'_>)>) -> ExperimentResult {
        let mut all = vec![
            series(
                OccupancyKernel::Copy.kernel(),
                Implementation::Rust,
                SHARED_SWEEP,
                copy,
                &[],
            ),
            series(
                OccupancyKernel::Chase.kernel(),
                Implementation::Rust,
                SHARED_SWEEP,
                chase,
                &[],
            ),
        ];
        if let Some((copy, chase)) = blocks {
            all.push(series(
                OccupancyKernel::Copy.kernel(),
                Implementation::Rust,
                BLOCK_SWEEP,
                copy,
                &[],
            ));
            all.push(series(
                OccupancyKernel::Chase.kernel(),
                Implementation::Rust,
                BLOCK_SWEEP,
                chase,
                &[],
            ));
        }
        result("occupancy", Metric::Bandwidth, all)
    }

    #[test]
    fn the_gain_runs_from_the_least_occupancy_of_half_or_more_to_the_most() {
        let s = series(
            "k",
            Implementation::Rust,
            "",
            &[(13, 100.0), (38, 900.0), (50, 1000.0), (63, 1050.0), (100, 1080.0)],
            &[],
        );
        let (gain, from, to) = gain_past_half(&s).unwrap();
        assert!(
            (gain - 1.08).abs() < 1e-12 && (from, to) == (50, 100),
            "{gain} {from} {to}"
        );
        let below = series("k", Implementation::Rust, "", &[(13, 1.0), (38, 2.0)], &[]);
        assert_eq!(gain_past_half(&below), None);
    }

    #[test]
    fn occupancy_is_graded_on_both_kernels() {
        let flat = [(50, 1000.0), (100, 1050.0)];
        let rising = [(50, 1000.0), (100, 1900.0)];
        let rows = ledger_rows(&occupancy_result(&flat, &rising, None));
        assert_eq!(rows.len(), 1, "no block-size row without its series");
        assert_eq!(rows[0].verdict, Verdict::Weaker);
        assert!(
            rows[0].measured.contains("chase 1.90x from 50% to 100%"),
            "{}",
            rows[0].measured
        );
        assert_eq!(
            ledger_rows(&occupancy_result(&flat, &flat, None))[0].verdict,
            Verdict::Holds
        );
        assert_eq!(
            ledger_rows(&occupancy_result(&rising, &rising, None))[0].verdict,
            Verdict::Gone
        );
        assert_eq!(occupancy_verdict(1.10, f64::NAN), Verdict::Weaker);
    }

    /// A block-size sweep with `partial` the partial-warp sizes' share of their partners and `start` the 128–256 best's.
    fn sweep(start: f64, partial: f64) -> Vec<(i64, f64)> {
        BLOCK_SIZES
            .iter()
            .map(|&b| {
                let value = match b {
                    1024 => 1000.0,
                    128..=256 => 1000.0 * start,
                    _ => 900.0,
                };
                (b as i64, value)
            })
            .map(|(b, v)| match b {
                48 => (b, 900.0 * partial),
                200 => (b, 1000.0 * start * partial),
                1000 => (b, 1000.0 * partial),
                _ => (b, v),
            })
            .collect()
    }

    #[test]
    fn block_sizes_are_graded_by_four_checks() {
        let good = sweep(0.99, 0.9);
        let (start, partial) = block_size_figures(&series("k", Implementation::Rust, "", &good, &[])).unwrap();
        assert!(
            (start - 0.99).abs() < 1e-12 && (partial - 0.9).abs() < 1e-12,
            "{start} {partial}"
        );
        let flat = [(50, 1.0), (100, 1.0)];
        let rows = ledger_rows(&occupancy_result(&flat, &flat, Some((&good, &good))));
        assert_eq!(rows[1].id, "bpg-4.4-block-size");
        assert_eq!(rows[1].verdict, Verdict::Holds);
        let bad = sweep(0.5, 1.0);
        assert_eq!(
            ledger_rows(&occupancy_result(&flat, &flat, Some((&good, &bad))))[1].verdict,
            Verdict::Weaker
        );
        assert_eq!(
            ledger_rows(&occupancy_result(&flat, &flat, Some((&bad, &bad))))[1].verdict,
            Verdict::Gone
        );
        assert_eq!(block_size_verdict(&[(0.95, 0.97)]), Verdict::Holds, "the edges pass");
        assert_eq!(block_size_verdict(&[]), Verdict::Gone);
    }

    #[test]
    fn partial_warps_pair_with_the_whole_warps_of_the_same_count() {
        assert_eq!(whole_warp_partner(48), 64);
        assert_eq!(whole_warp_partner(200), 224);
        assert_eq!(whole_warp_partner(1000), 1024);
        assert_eq!(whole_warp_partner(96), 96);
        let partial: Vec<u32> = BLOCK_SIZES.iter().copied().filter(|b| !b.is_multiple_of(32)).collect();
        assert_eq!(partial, [48, 200, 1000]);
        assert!(partial.iter().all(|b| BLOCK_SIZES.contains(&whole_warp_partner(*b))));
    }

    #[test]
    fn the_section_renders_both_sweeps_and_their_rows() {
        let flat = [(100, 1000.0), (50, 990.0), (13, 300.0)];
        let good = sweep(0.99, 0.9);
        let mut r = occupancy_result(&flat, &flat, Some((&good, &good)));
        r.axis = axis();
        let (markdown, files, rows) = super::super::ledger_fixtures::rendered(r);
        assert!(
            markdown.contains("**§4.5: dynamic shared memory against resident blocks**"),
            "{markdown}"
        );
        assert!(markdown.contains("**§4.4: threads per block"), "{markdown}");
        assert!(
            markdown.contains("| 48 |") && markdown.contains(" 25 |"),
            "48 threads leave 25% of their lanes idle"
        );
        for file in ["occupancy-shared.svg", "occupancy-blocks.svg"] {
            assert!(files.contains(&file.to_string()), "{files:?}");
        }
        assert!(!files.contains(&"occupancy.svg".to_string()));
        assert_eq!(rows.len(), 2);
        assert!(rows.iter().all(|r| r.verdict == Verdict::Holds), "{rows:?}");
    }
}
