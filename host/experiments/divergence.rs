//! Best Practices Guide §6.1–6.2, OpenCL Programming Guide §3.1.1.2:
//! control flow. Warps whose lanes take k = 1, 2, 4, … 32 distinct paths of
//! equal length (`divergent_lane_paths`) against the same k paths chosen per
//! warp (`uniform_warp_paths`: no warp diverges), and a short if/else that
//! the compiler predicates (`short_branch_predicated`) against a long one it
//! must branch around (`long_branch_divergent`), each with every warp going
//! one way (select mask 0) and with every warp split in half (mask 1). The
//! SASS of each branch kernel's loop (what the GPU runs, where `ptxas` and
//! `nvdisasm` are present) and its PTX are read for selects, predicated
//! instructions, branches and convergence barriers, so the report shows what
//! the compiler did; the predication row is graded on the SASS. The OpenCL
//! guide makes these claims for OpenCL, so the OpenCL C twins
//! (`host/opencl_c/divergence.cl`) run the same points on the same GPU's
//! OpenCL queue as a third series; the rows grade Rust and show the CUDA C
//! and OpenCL C twins' ratios beside it.

use std::fmt::Write;

use kernels_gpu::divergence::{DIVERGENCE_BLOCK_THREADS, MAX_PATHS};

use super::calibrated_launches::calibrate_by_probe;
use super::counter_evidence::evidence;
use super::counter_launch::count_point;
use super::implementation_ptx::implementation_entry;
use super::implementation_sass::{ImplementationSass, sass_for, sass_waiver};
use super::twin_ratios::twin_ratios;
use super::{Experiment, RunContext};
use crate::counters::SASS_PER_WARP;
use crate::error::Result;
use crate::launchers::{ControlFlow, DivergenceRunner, branch_kernel, divergence_runners, paths_kernel};
use crate::ptx::{loops, opcode_of};
use crate::reference::{BranchLength, PathChoice, branch_reference, paths_reference};
use crate::report::Panel;
use crate::report::{
    Axis, Claim, CounterCheck, ExperimentResult, LedgerRow, Metric, PlotKind, PlotLine, PlotPoint, PlotSpec, Point,
    PointKey, Report, Rule, Scale, SectionHooks, Series, Verdict, Waiver, Work, slower_by,
};
use crate::sass::{SassClass, SassCounts, SassFunction};
use crate::testbed::Implementation;

pub struct Divergence;

/// Each point's launches are calibrated so that one path (or the long
/// if/else with every warp one way) takes about this long.
pub const TARGET_LAUNCH_MS: f64 = 0.25;
/// The numbers of distinct paths per warp.
pub const PATHS: [u32; 6] = [1, 2, 4, 8, 16, 32];
/// Select masks of the branch kernels: every warp one way, every warp split in half.
pub const MASKS: [u32; 2] = [0, 1];
/// The threads every point checks against the CPU reference: 32 warps, so every path of both choices.
const CHECKED_THREADS: u32 = 1024;
const MAX_ITERATIONS: u32 = 1 << 22;

/// Extra figures, by name.
pub const MS_PER_PATH: &str = "ms per path";
pub const SELECTS: &str = "PTX selp in the loop";
pub const PREDICATED: &str = "PTX predicated instructions in the loop (not branches)";
pub const SIDE_BRANCHES: &str = "PTX branches in the loop besides its back edge";
pub const LOOP_INSTRUCTIONS: &str = "PTX instructions in the loop";
pub const SASS_SELECTS: &str = "SASS selects (SEL, FSEL) in the loop";
pub const SASS_PREDICATED: &str = "SASS predicated instructions in the loop (not branches)";
pub const SASS_SIDE_BRANCHES: &str = "SASS branches in the loop besides its back edge";
pub const SASS_CONVERGENCE: &str = "SASS convergence barriers in the loop (BSSY, BSYNC, WARPSYNC, BREAK)";
pub const SASS_LOOP_INSTRUCTIONS: &str = "SASS instructions in the loop";

const _: () = assert!(PATHS[PATHS.len() - 1] == MAX_PATHS);

/// What the compiler made of an if/else inside a loop: the largest loop's
/// selects, predicated non-branch instructions, branches and size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BranchShape {
    pub selects: usize,
    pub predicated: usize,
    /// Every `bra` (SASS: `BRA`) in the loop, its back edge included.
    pub branches: usize,
    pub instructions: usize,
    /// SASS only: `BSSY`/`BSYNC` around a divergent branch, `WARPSYNC`, `BREAK` (0 in PTX).
    pub convergence: usize,
}

impl BranchShape {
    /// Branches besides the loop's own back edge.
    pub fn side_branches(&self) -> usize {
        self.branches.saturating_sub(1)
    }

    /// Whether the if/else became predication: no branch but the back
    /// edge, and selects or predicated instructions in its place.
    pub fn is_predicated(&self) -> bool {
        self.side_branches() == 0 && self.selects + self.predicated > 0
    }
}

/// The [`BranchShape`] of the largest loop of a function's PTX.
pub fn branch_shape(function_ptx: &str) -> Option<BranchShape> {
    let largest = loops(function_ptx).into_iter().max_by_key(|l| l.len())?;
    Some(BranchShape {
        selects: largest.count("selp"),
        predicated: largest
            .instructions
            .iter()
            .filter(|line| line.starts_with('@') && !opcode_of(line).starts_with("bra"))
            .count(),
        branches: largest.count("bra"),
        instructions: largest.len(),
        convergence: 0,
    })
}

/// The [`BranchShape`] of a branch kernel's SASS: its steady loop (the one
/// with the most FP32 arithmetic, innermost first), with `SEL`/`FSEL` as
/// selects and guarded non-branch instructions as predicated.
pub fn sass_branch_shape(function: &SassFunction) -> Option<BranchShape> {
    let steady = function.steady_loop(|i| SassClass::of(&i.opcode) == SassClass::Fp32Arithmetic)?;
    let counts = SassCounts::of(steady.instructions.iter().copied());
    Some(BranchShape {
        selects: counts.selects,
        predicated: counts.predicated,
        branches: counts.branches,
        instructions: counts.instructions,
        convergence: counts.convergence,
    })
}

/// The first of `got` (the first `CHECKED_THREADS` threads) unlike `expected`.
fn mismatch(got: &[f32], expected: &[f32]) -> Option<String> {
    got.iter()
        .zip(expected)
        .position(|(g, e)| g.to_bits() != e.to_bits())
        .map(|t| format!("thread {t} stored {}, the CPU reference {}", got[t], expected[t]))
}

impl Experiment for Divergence {
    fn name(&self) -> &'static str {
        "divergence"
    }
    fn title(&self) -> &'static str {
        "Divergence and predication: paths per warp, short and long branches"
    }
    fn source(&self) -> &'static str {
        "CUDA C Best Practices Guide 4.0, §6.1 and §6.2; OpenCL Programming Guide 2.3, §3.1.1.2"
    }
    fn points(&self) -> u64 {
        (2 * PATHS.len() + 2 * MASKS.len()) as u64
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let axis = Axis::lines(
            "distinct paths per warp (k); select mask for the branches",
            Metric::Time,
        )
        .x_scale(Scale::Log2)
        .plot(PlotKind::None);
        let mut result = ctx.result(self, axis, "");
        let (mut runners, waived) = divergence_runners(ctx.device)?;
        result.waived.extend(
            waived
                .into_iter()
                .map(|(implementation, reason)| Waiver::of_twins(implementation, reason)),
        );
        let implementations: Vec<Implementation> = runners.iter().map(|r| r.implementation()).collect();
        let ptx: Vec<Implementation> = implementations.iter().copied().filter(|&i| has_ptx(i)).collect();
        let sass = sass_for(&mut result, &ptx, ctx.device.info().architecture());
        let mut count = PointCount {
            done: 0,
            total: self.points() as usize * runners.len(),
            first: implementations.first().copied(),
        };
        for runner in &mut runners {
            measure_paths(ctx, &mut result, runner.as_mut(), &mut count)?;
            measure_branches(ctx, &mut result, runner.as_mut(), &mut count, &sass)?;
            result.setup.extend(runner.setup());
        }
        result.notes.push(format!(
            "every point's first {CHECKED_THREADS} threads (32 warps: every path of both choices) checked bit for \
             bit against the CPU reference; the PTX counts are of each kernel's largest loop (Rust: the embedded \
             PTX; CUDA C: NVRTC's), the SASS counts of its loop with the most FP32 arithmetic; the OpenCL C twins \
             (host/opencl_c/divergence.cl, on the same GPU's OpenCL queue, timed by profiling events, the Rust \
             kernel's grid) have neither"
        ));
        Ok(result)
    }
}

/// Whether `implementation`'s kernels are PTX (Rust, CUDA C): those have PTX and SASS counts.
fn has_ptx(implementation: Implementation) -> bool {
    matches!(implementation, Implementation::Rust | Implementation::CudaC)
}

/// The points measured so far of every implementation; the progress bar
/// counts the points of one implementation (the first).
struct PointCount {
    done: usize,
    total: usize,
    first: Option<Implementation>,
}

impl PointCount {
    /// `false` on Ctrl-C (stop before this point); else counts it.
    fn next(&mut self, ctx: &RunContext<'_>) -> bool {
        if ctx.stop_before(self.done, self.total) {
            return false;
        }
        self.done += 1;
        true
    }

    /// After a point of `implementation`.
    fn measured(&self, ctx: &RunContext<'_>, implementation: Implementation) {
        if Some(implementation) == self.first {
            ctx.progress.inc(1);
        }
    }
}

/// What the first `threads` threads store after `iterations` rounds of `what`, by the CPU.
fn reference(what: ControlFlow, threads: u32, iterations: u32) -> Vec<f32> {
    match what {
        ControlFlow::Paths(choice, paths) => paths_reference(choice, threads, paths, iterations),
        ControlFlow::Branch(length, mask) => branch_reference(length, threads, mask, iterations),
    }
}

/// Times `what` (output cleared to NaN first) and checks the first
/// [`CHECKED_THREADS`] threads against the CPU: the point at `at`, `None`
/// where it has no time.
fn time_point(
    ctx: &RunContext<'_>,
    runner: &mut dyn DivergenceRunner,
    (what, iterations): (ControlFlow, u32),
    at: i64,
) -> Result<Option<Point>> {
    let threads = runner.blocks() * DIVERGENCE_BLOCK_THREADS;
    let checked = CHECKED_THREADS.min(threads);
    runner.clear_output()?;
    let times = runner.time(what, iterations, ctx.settings)?;
    let failure = mismatch(&runner.read_output(checked)?, &reference(what, checked, iterations));
    let work = Work::bytes(threads as u64, 0);
    Ok(Point::timed(PointKey::Value(at), &Metric::Time, work, &times, failure))
}

/// The SASS instructions per warp of one more launch of `what` (Rust and CUDA C, `run --counters`).
fn count_instructions(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    runner: &mut dyn DivergenceRunner,
    point: &mut Point,
    (what, iterations): (ControlFlow, u32),
) -> Result<()> {
    let implementation = runner.implementation();
    let counted = count_point(ctx, result, implementation, point, &mut || {
        runner.launch(what, iterations)
    })?;
    if let Some(per_warp) = counted.and_then(|c| c.instructions_per_warp()) {
        point.set_extra(SASS_PER_WARP, per_warp);
    }
    Ok(())
}

/// Paths: the rounds calibrated on one path, the same for every k and both choices.
fn measure_paths(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    runner: &mut dyn DivergenceRunner,
    count: &mut PointCount,
) -> Result<()> {
    let implementation = runner.implementation();
    let one_path = ControlFlow::Paths(PathChoice::ByLane, 1);
    let iterations = calibrate_by_probe(TARGET_LAUNCH_MS, MAX_ITERATIONS, &mut |n| runner.probe_ms(one_path, n))?;
    for choice in [PathChoice::ByLane, PathChoice::ByWarp] {
        let mut series = Series::of(ctx.key(paths_kernel(choice), implementation, "f32"));
        for paths in PATHS {
            if !count.next(ctx) {
                break;
            }
            ctx.progress
                .set_message(format!("{} {paths} · {}", paths_kernel(choice), implementation.label()));
            let launch = (ControlFlow::Paths(choice, paths), iterations);
            if let Some(mut point) = time_point(ctx, runner, launch, paths as i64)? {
                if let (PathChoice::ByLane, Some(ms)) = (choice, point.median()) {
                    point.set_extra(MS_PER_PATH, ms / paths as f64);
                }
                count_instructions(ctx, result, runner, &mut point, launch)?;
                series.points.push(point);
            }
            count.measured(ctx, implementation);
        }
        result.series.push(series);
    }
    result.setup.push(format!(
        "{}: {} blocks of {DIVERGENCE_BLOCK_THREADS} threads (one full wave), {iterations} rounds of 4 FMAs per path",
        implementation.label(),
        runner.blocks()
    ));
    Ok(())
}

/// Branches: the rounds calibrated on the long if/else with every warp one
/// way; each point carries its loop's PTX and SASS shape (Rust and CUDA C).
fn measure_branches(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    runner: &mut dyn DivergenceRunner,
    count: &mut PointCount,
    sass: &[ImplementationSass],
) -> Result<()> {
    let implementation = runner.implementation();
    let long_uniform = ControlFlow::Branch(BranchLength::Long, 0);
    let iterations = calibrate_by_probe(TARGET_LAUNCH_MS, MAX_ITERATIONS, &mut |n| {
        runner.probe_ms(long_uniform, n)
    })?;
    for length in [BranchLength::Short, BranchLength::Long] {
        let entry = branch_kernel(length);
        let shape = implementation_entry(implementation, entry)
            .as_deref()
            .and_then(branch_shape);
        let sass_shape = sass
            .iter()
            .find(|s| s.implementation == implementation)
            .and_then(|s| s.function(entry))
            .and_then(sass_branch_shape);
        let mut series = Series::of(ctx.key(entry, implementation, "f32"));
        for mask in MASKS {
            if !count.next(ctx) {
                break;
            }
            ctx.progress
                .set_message(format!("{entry} mask {mask} · {}", implementation.label()));
            let launch = (ControlFlow::Branch(length, mask), iterations);
            if let Some(mut point) = time_point(ctx, runner, launch, mask as i64)? {
                set_shape_extras(&mut point, shape, sass_shape);
                count_instructions(ctx, result, runner, &mut point, launch)?;
                series.points.push(point);
            }
            count.measured(ctx, implementation);
        }
        result.series.push(series);
    }
    result.setup.push(format!(
        "{}: the if/else kernels run {iterations} rounds on 4 values per thread",
        implementation.label()
    ));
    Ok(())
}

/// A branch point's extra figures: its loop's PTX shape and SASS shape, where known.
fn set_shape_extras(point: &mut Point, shape: Option<BranchShape>, sass_shape: Option<BranchShape>) {
    if let Some(shape) = shape {
        point.set_extra(SELECTS, shape.selects as f64);
        point.set_extra(PREDICATED, shape.predicated as f64);
        point.set_extra(SIDE_BRANCHES, shape.side_branches() as f64);
        point.set_extra(LOOP_INSTRUCTIONS, shape.instructions as f64);
    }
    if let Some(shape) = sass_shape {
        point.set_extra(SASS_SELECTS, shape.selects as f64);
        point.set_extra(SASS_PREDICATED, shape.predicated as f64);
        point.set_extra(SASS_SIDE_BRANCHES, shape.side_branches() as f64);
        point.set_extra(SASS_CONVERGENCE, shape.convergence as f64);
        point.set_extra(SASS_LOOP_INSTRUCTIONS, shape.instructions as f64);
    }
}

/// The median time of `kernel` by `implementation` at `x`.
fn time_at(result: &ExperimentResult, kernel: &str, implementation: Implementation, x: i64) -> Option<f64> {
    result.series_of(kernel, implementation)?.median_at(x)
}

/// The largest k both path series measured.
fn largest_paths(result: &ExperimentResult, implementation: Implementation) -> Option<i64> {
    let lane = result.series_of(paths_kernel(PathChoice::ByLane), implementation)?;
    lane.points
        .iter()
        .filter(|p| p.median().is_some())
        .filter_map(|p| p.at.value())
        .filter(|&k| k > 1)
        .max()
}

/// The point of `kernel` by `implementation` at `x`.
fn point_at<'a>(
    result: &'a ExperimentResult,
    kernel: &str,
    implementation: Implementation,
    x: i64,
) -> Option<&'a Point> {
    result.series_of(kernel, implementation)?.at(x)
}

/// The claims the experiment grades.
fn claims() -> Vec<Claim> {
    vec![
        Claim {
            id: "bpg-6.1-divergent-paths",
            source: "Best Practices Guide §6.1; OpenCL Programming Guide §3.1.1.2",
            claim: "Lanes of one warp that take different paths are serialized: k distinct paths of equal length cost \
                    k times one"
                .into(),
            rule: Rule::Factor {
                claimed: MAX_PATHS as f64,
            },
            reads: format!(
                "{} · Rust: time at the most paths measured (k = {MAX_PATHS}) over time at k = 1",
                paths_kernel(PathChoice::ByLane)
            ),
            experiment: "divergence",
        },
        Claim {
            id: "bpg-6.1-warp-aligned",
            source: "Best Practices Guide §6.1; OpenCL Programming Guide §3.1.1.2",
            claim: "A condition aligned with warps (threadIdx / warpSize) makes no warp diverge: the same paths cost \
                    no more than one"
                .into(),
            rule: Rule::NoExtraCost {
                holds_within: 1.10,
                weaker_within: 1.5,
            },
            reads: format!(
                "{} · Rust: the largest time over k over the time at k = 1",
                paths_kernel(PathChoice::ByWarp)
            ),
            experiment: "divergence",
        },
        Claim {
            id: "bpg-6.2-predication",
            source: "Best Practices Guide §6.2; OpenCL Programming Guide §3.1.1.2",
            claim: "The compiler predicates a short if/else (at most 4–7 instructions a side) instead of branching, \
                    so no warp diverges on it"
                .into(),
            rule: Rule::NoExtraCost {
                holds_within: 1.10,
                weaker_within: 1.5,
            },
            reads: format!(
                "{} · Rust: time with warps split in half over all one way; graded only where its SASS (its PTX \
                 where the SASS tools are missing) has no branch besides the loop's back edge (gone otherwise)",
                branch_kernel(BranchLength::Short)
            ),
            experiment: "divergence",
        },
    ]
}

/// BPG §6.1: k divergent paths cost k times one.
fn serialization_row(result: &ExperimentResult) -> Option<LedgerRow> {
    let rust = Implementation::Rust;
    let lane = paths_kernel(PathChoice::ByLane);
    let k = largest_paths(result, rust)?;
    let one = time_at(result, lane, rust, 1)?;
    let many = time_at(result, lane, rust, k)?;
    let factor = slower_by(point_at(result, lane, rust, k)?, point_at(result, lane, rust, 1)?)?;
    let middle = [4, 8]
        .into_iter()
        .filter_map(|m| Some(format!("k = {m}: {:.2}x", time_at(result, lane, rust, m)? / one)))
        .collect::<Vec<_>>()
        .join(", ");
    let twins = twin_ratios(&format!("{k} paths over one"), |i| {
        Some(time_at(result, lane, i, k)? / time_at(result, lane, i, 1)?)
    });
    let mut claim = claims().swap_remove(0);
    claim.rule = Rule::Factor { claimed: k as f64 };
    Some(claim.grade(
        factor,
        format!(
            "Rust, lanes on {k} paths: {many:.3} ms vs {one:.3} ms on one path ({}x; {middle}){twins}",
            factor.text(2)
        ),
        result.device,
    ))
}

/// The largest time of `kernel` by `implementation` over its time at k = 1.
fn worst_over_one(result: &ExperimentResult, kernel: &str, implementation: Implementation) -> Option<f64> {
    let series = result.series_of(kernel, implementation)?;
    let one = series.median_at(1)?;
    series
        .points
        .iter()
        .filter_map(|p| p.median())
        .map(|ms| ms / one)
        .max_by(f64::total_cmp)
}

/// BPG §6.1: the same paths chosen per warp do not diverge.
fn warp_aligned_row(result: &ExperimentResult) -> Option<LedgerRow> {
    let rust = Implementation::Rust;
    let warp = paths_kernel(PathChoice::ByWarp);
    let one = point_at(result, warp, rust, 1)?;
    let (worst_k, worst) = result
        .series_of(warp, rust)?
        .points
        .iter()
        .filter_map(|p| Some((p.at.value()?, slower_by(p, one)?)))
        .max_by(|a, b| a.1.median.total_cmp(&b.1.median))?;
    let k = largest_paths(result, rust)?;
    let lane_k = time_at(result, paths_kernel(PathChoice::ByLane), rust, k)?;
    let warp_k = time_at(result, warp, rust, k)?;
    let twins = twin_ratios("per warp, at worst over one path", |i| worst_over_one(result, warp, i));
    Some(claims()[1].grade(
        worst,
        format!(
            "Rust, paths chosen per warp: at worst {}x one path (k = {worst_k}); at k = {k} {warp_k:.3} ms \
             against {lane_k:.3} ms when chosen per lane{twins}",
            worst.text(3)
        ),
        result.device,
    ))
}

/// The [`BranchShape`] a branch kernel's points carry (from the PTX of its implementation).
fn stored_shape(result: &ExperimentResult, kernel: &str, implementation: Implementation) -> Option<BranchShape> {
    let point = result.series_of(kernel, implementation)?.points.first()?;
    let count = |name: &str| point.extra.get(name).map(|&v| v as usize);
    let side_branches = count(SIDE_BRANCHES)?;
    Some(BranchShape {
        selects: count(SELECTS)?,
        predicated: count(PREDICATED)?,
        branches: side_branches + 1,
        instructions: count(LOOP_INSTRUCTIONS)?,
        convergence: 0,
    })
}

/// The SASS [`BranchShape`] a branch kernel's points carry, if the run had SASS.
fn stored_sass_shape(result: &ExperimentResult, kernel: &str, implementation: Implementation) -> Option<BranchShape> {
    let point = result.series_of(kernel, implementation)?.points.first()?;
    let count = |name: &str| point.extra.get(name).map(|&v| v as usize);
    Some(BranchShape {
        selects: count(SASS_SELECTS)?,
        predicated: count(SASS_PREDICATED)?,
        branches: count(SASS_SIDE_BRANCHES)? + 1,
        instructions: count(SASS_LOOP_INSTRUCTIONS)?,
        convergence: count(SASS_CONVERGENCE)?,
    })
}

/// A branch kernel's SASS counts, as text.
fn sass_shape_text(result: &ExperimentResult, kernel: &str, implementation: Implementation) -> Option<String> {
    let shape = stored_sass_shape(result, kernel, implementation)?;
    Some(format!(
        "{} predicated, {} selects, {} branches besides the back edge, {} convergence barriers (BSSY/BSYNC) in {} \
         instructions",
        shape.predicated,
        shape.selects,
        shape.side_branches(),
        shape.convergence,
        shape.instructions
    ))
}

/// A branch kernel's PTX counts, as text.
fn shape_text(result: &ExperimentResult, kernel: &str, implementation: Implementation) -> Option<String> {
    let shape = stored_shape(result, kernel, implementation)?;
    Some(format!(
        "{} selp, {} other predicated, {} branches besides the back edge in {} instructions",
        shape.selects,
        shape.predicated,
        shape.side_branches(),
        shape.instructions
    ))
}

/// BPG §6.2: a short if/else is predicated, so splitting warps costs nothing.
fn predication_row(result: &ExperimentResult) -> Option<LedgerRow> {
    let rust = Implementation::Rust;
    let short = branch_kernel(BranchLength::Short);
    let long = branch_kernel(BranchLength::Long);
    let ptx = stored_shape(result, short, rust);
    let (is_predicated, graded_on) = match stored_sass_shape(result, short, rust) {
        Some(sass) => (
            sass.is_predicated(),
            format!("SASS: {}", sass_shape_text(result, short, rust).unwrap_or_default()),
        ),
        None => (
            ptx?.is_predicated(),
            format!(
                "no SASS ({}), graded on the PTX",
                sass_waiver(result).unwrap_or("its loop was not found")
            ),
        ),
    };
    let split = slower_by(point_at(result, short, rust, 1)?, point_at(result, short, rust, 0)?)?;
    let long_split = time_at(result, long, rust, 1)
        .zip(time_at(result, long, rust, 0))
        .map(|(s, u)| {
            let sass = sass_shape_text(result, long, rust)
                .map(|t| format!("SASS: {t}; PTX: "))
                .unwrap_or_default();
            format!(
                "; the long if/else ({sass}{}) split/uniform {:.2}x",
                shape_text(result, long, rust).unwrap_or_default(),
                s / u
            )
        })
        .unwrap_or_default();
    let twin = shape_text(result, short, Implementation::CudaC)
        .map(|t| format!("; CUDA C twin's short if/else: {t}"))
        .unwrap_or_default();
    let twin_splits = twin_ratios("short if/else split / one way", |i| {
        Some(time_at(result, short, i, 1)? / time_at(result, short, i, 0)?)
    });
    let claim = &claims()[2];
    let measured = format!(
        "Rust short if/else, {graded_on}; PTX: {}; warps split in half / all one way {}x{long_split}{twin}\
         {twin_splits}",
        shape_text(result, short, rust).unwrap_or_default(),
        split.text(2)
    );
    let mut row = claim.grade(split, measured, result.device);
    if !is_predicated {
        // The claim is about the compiler: a branch kept is the claim gone, whatever the times say.
        row.verdict = Verdict::Gone;
    }
    Some(row)
}

/// "Since Volta …" for the GPU of `result`.
fn scheduling_paragraph(result: &ExperimentResult, report: &Report) -> String {
    let cc = result
        .device
        .and_then(|d| report.device(d))
        .map(|d| d.compute_capability);
    let era = match cc {
        Some((major, minor)) if major >= 7 => format!(
            "This GPU (cc {major}.{minor}) schedules threads independently (Volta on): each thread has its own \
             program counter, so the paths of a diverged warp may interleave and need not reconverge where the \
             branches rejoin unless `__syncwarp()` or a `.sync` warp primitive says so. The cost the guides \
             describe is unchanged: a warp issues one path's instruction for that path's lanes at a time, so k \
             paths still take k times one."
        ),
        Some((major, minor)) => format!(
            "This GPU (cc {major}.{minor}) predates independent thread scheduling: a diverged warp runs its paths \
             one after another and reconverges at the branches' join (a per-warp reconvergence stack), as the \
             guides describe."
        ),
        None => "Since Volta (cc 7.0) threads are scheduled independently: a diverged warp's paths may interleave \
                 and reconverge only where the code asks (`__syncwarp()`), but a warp still issues one path at a \
                 time, so k paths cost k times one."
            .into(),
    };
    format!("**Independent thread scheduling.** {era}")
}

impl SectionHooks for Divergence {
    fn narrative(&self, result: &ExperimentResult, report: &Report) -> Vec<String> {
        let mut out = vec![scheduling_paragraph(result, report)];
        let rust = Implementation::Rust;
        if let (Some(short), Some(long)) = (
            shape_text(result, branch_kernel(BranchLength::Short), rust),
            shape_text(result, branch_kernel(BranchLength::Long), rust),
        ) {
            out.push(format!(
                "**What the PTX has.** The short if/else (one operation a side): {short}. The long one (8 dependent \
                 FMAs a side): {long}. The guides' rule: the compiler predicates when a side has at most 4 \
                 instructions (7 where it expects divergence)."
            ));
        }
        if let (Some(short), Some(long)) = (
            sass_shape_text(result, branch_kernel(BranchLength::Short), rust),
            sass_shape_text(result, branch_kernel(BranchLength::Long), rust),
        ) {
            out.push(format!(
                "**What the GPU runs (SASS).** ptxas makes the final choice: the short if/else has {short}; the long \
                 one {long}. A predicated instruction (`@P0` / `@!P0`) is issued for the whole warp and does nothing \
                 in lanes whose predicate is false; `BSSY`/`BSYNC` bracket a branch after which a split warp \
                 reconverges."
            ));
        }
        out
    }

    fn tables(&self, result: &ExperimentResult, _report: &Report) -> Option<String> {
        let mut out = String::new();
        let implementations: Vec<Implementation> =
            [Implementation::Rust, Implementation::CudaC, Implementation::OpenClC]
                .into_iter()
                .filter(|&i| result.series_of(paths_kernel(PathChoice::ByLane), i).is_some())
                .collect();
        let _ = writeln!(
            out,
            "| k | implementation | per lane: ms (min–max) | ms per path | × one path | per warp: ms (min–max) | × one \
             path | per lane / per warp |"
        );
        let _ = writeln!(out, "|---:|---|---:|---:|---:|---:|---:|---:|");
        for &implementation in &implementations {
            let lane = result.series_of(paths_kernel(PathChoice::ByLane), implementation);
            let warp = result.series_of(paths_kernel(PathChoice::ByWarp), implementation);
            for k in PATHS {
                let k = k as i64;
                fn at(s: Option<&Series>, k: i64) -> Option<&Point> {
                    s.and_then(|s| s.at(k))
                }
                let base = |s: Option<&Series>| s.and_then(|s| s.median_at(1));
                let ratio = |s: Option<&Series>| match (s.and_then(|s| s.median_at(k)), base(s)) {
                    (Some(t), Some(b)) => format!("{:.2}", t / b),
                    _ => "—".into(),
                };
                let per_path = at(lane, k)
                    .and_then(|p| p.extra.get(MS_PER_PATH))
                    .map_or("—".into(), |ms| format!("{ms:.3}"));
                let lane_over_warp = match (lane.and_then(|s| s.median_at(k)), warp.and_then(|s| s.median_at(k))) {
                    (Some(l), Some(w)) => format!("{:.2}", l / w),
                    _ => "—".into(),
                };
                let _ = writeln!(
                    out,
                    "| {k} | {} | {} | {per_path} | {} | {} | {} | {lane_over_warp} |",
                    implementation.label(),
                    crate::report::point_cell(at(lane, k)),
                    ratio(lane),
                    crate::report::point_cell(at(warp, k)),
                    ratio(warp),
                );
            }
        }
        let _ = writeln!(
            out,
            "\n| if/else | implementation | all one way (mask 0) ms | split in half (mask 1) ms | split / one way | \
             SASS: predicated | selects | branches besides the back edge | BSSY/BSYNC | loop instructions | PTX: selp \
             | other predicated | branches besides the back edge | loop instructions |"
        );
        let _ = writeln!(
            out,
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        );
        for &implementation in &implementations {
            for length in [BranchLength::Short, BranchLength::Long] {
                let Some(series) = result.series_of(branch_kernel(length), implementation) else {
                    continue;
                };
                let extra = |name: &str| {
                    series
                        .points
                        .first()
                        .and_then(|p| p.extra.get(name))
                        .map_or("—".into(), |v| format!("{v:.0}"))
                };
                let ratio = match (series.median_at(1), series.median_at(0)) {
                    (Some(s), Some(u)) => format!("{:.2}", s / u),
                    _ => "—".into(),
                };
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {ratio} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                    branch_kernel(length),
                    implementation.label(),
                    crate::report::point_cell(series.at(0)),
                    crate::report::point_cell(series.at(1)),
                    extra(SASS_PREDICATED),
                    extra(SASS_SELECTS),
                    extra(SASS_SIDE_BRANCHES),
                    extra(SASS_CONVERGENCE),
                    extra(SASS_LOOP_INSTRUCTIONS),
                    extra(SELECTS),
                    extra(PREDICATED),
                    extra(SIDE_BRANCHES),
                    extra(LOOP_INSTRUCTIONS),
                );
            }
        }
        counters_table(result, &implementations, &mut out);
        Some(out)
    }

    fn extra_plots(&self, result: &ExperimentResult, _report: &Report) -> Vec<PlotSpec> {
        let mut lines = Vec::new();
        for (group, choice) in [PathChoice::ByLane, PathChoice::ByWarp].into_iter().enumerate() {
            for series in result.series.iter().filter(|s| s.key.kernel == paths_kernel(choice)) {
                lines.extend(PlotLine::of_series(series, group, |x| x));
            }
        }
        // k times one path, from the Rust per-lane time at k = 1.
        if let Some(one) = time_at(result, paths_kernel(PathChoice::ByLane), Implementation::Rust, 1) {
            lines.push(PlotLine {
                label: "k × one path (full serialization)".into(),
                group: 2,
                implementation: Implementation::Model,
                points: PATHS
                    .iter()
                    .map(|&k| {
                        let y = one * k as f64;
                        PlotPoint::new(k as f64, y, y, y)
                    })
                    .collect(),
            });
        }
        if lines.is_empty() {
            return Vec::new();
        }
        vec![PlotSpec {
            suffix: "paths".into(),
            title: "k distinct paths per warp: per lane (divergent) vs per warp (aligned)".into(),
            x_label: "distinct paths per warp, k (count)".into(),
            y_label: "time per launch (ms)".into(),
            x_scale: Scale::Log2,
            y_scale: Scale::Log10,
            panels: vec![Panel::of(lines, Vec::new())],
            ..PlotSpec::default()
        }]
    }

    fn claims(&self) -> Vec<Claim> {
        claims()
    }

    fn ledger(&self, result: &ExperimentResult, report: &Report) -> Vec<LedgerRow> {
        [
            serialization_row(result),
            warp_aligned_row(result),
            predication_row(result),
        ]
        .into_iter()
        .flatten()
        .map(|row| {
            let check = instruction_check(result, &row.id);
            row.with_counters(evidence(vec![check], result, report))
        })
        .collect()
    }
}

/// The SASS instructions per warp the counters saw for `kernel` (Rust) at `x`.
fn per_warp(result: &ExperimentResult, kernel: &str, x: i64) -> Option<f64> {
    result
        .series_of(kernel, Implementation::Rust)?
        .at(x)?
        .extra
        .get(SASS_PER_WARP)
        .copied()
}

/// What each row infers from times, checked in instructions: k divergent paths
/// issue k times one path's warp instructions, paths chosen per warp no more
/// than one, and the predicated if/else as many split as uniform.
fn instruction_check(result: &ExperimentResult, id: &str) -> Option<CounterCheck> {
    let lane = paths_kernel(PathChoice::ByLane);
    let warp = paths_kernel(PathChoice::ByWarp);
    let short = branch_kernel(BranchLength::Short);
    let k = largest_paths(result, Implementation::Rust)?;
    let (what, modelled, kernel, x, base) = match id {
        "bpg-6.1-divergent-paths" => (
            format!("SASS instructions per warp, {k} paths per lane over one"),
            k as f64,
            lane,
            k,
            1,
        ),
        "bpg-6.1-warp-aligned" => (
            format!("SASS instructions per warp, {k} paths per warp over one"),
            1.0,
            warp,
            k,
            1,
        ),
        "bpg-6.2-predication" => (
            "SASS instructions per warp, short if/else split over uniform".to_string(),
            1.0,
            short,
            1,
            0,
        ),
        _ => return None,
    };
    Some(CounterCheck::new(
        what,
        modelled,
        per_warp(result, kernel, x)? / per_warp(result, kernel, base)?,
    ))
}

/// The counters' table: SASS instructions per warp of every path count and
/// branch point, where the run collected them.
fn counters_table(result: &ExperimentResult, implementations: &[Implementation], out: &mut String) {
    let counted_any = result
        .series
        .iter()
        .any(|s| s.points.iter().any(|p| p.extra.contains_key(SASS_PER_WARP)));
    if !counted_any {
        return;
    }
    let cell = |s: Option<&Series>, x: i64| {
        s.and_then(|s| s.at(x))
            .and_then(|p| p.extra.get(SASS_PER_WARP))
            .map_or("—".into(), |v| format!("{v:.0}"))
    };
    let times = |s: Option<&Series>, x: i64, base: i64| {
        let get = |x| {
            s.and_then(|s| s.at(x))
                .and_then(|p| p.extra.get(SASS_PER_WARP))
                .copied()
        };
        match (get(x), get(base)) {
            (Some(v), Some(b)) if b > 0.0 => format!("{:.2}", v / b),
            _ => "—".into(),
        }
    };
    let _ = writeln!(
        out,
        "\n**Hardware counters**: SASS instructions executed per warp (CUPTI, one more launch of each point)\n\n\
         | k | implementation | per lane | × one path | per warp | × one path |\n|---:|---|---:|---:|---:|---:|"
    );
    for &implementation in implementations {
        let lane = result.series_of(paths_kernel(PathChoice::ByLane), implementation);
        let warp = result.series_of(paths_kernel(PathChoice::ByWarp), implementation);
        for k in PATHS.map(i64::from) {
            let _ = writeln!(
                out,
                "| {k} | {} | {} | {} | {} | {} |",
                implementation.label(),
                cell(lane, k),
                times(lane, k, 1),
                cell(warp, k),
                times(warp, k, 1)
            );
        }
    }
    let _ = writeln!(
        out,
        "\n| if/else | implementation | all one way (mask 0) | split in half (mask 1) | split / one way |\n\
         |---|---|---:|---:|---:|"
    );
    for &implementation in implementations {
        for length in [BranchLength::Short, BranchLength::Long] {
            let series = result.series_of(branch_kernel(length), implementation);
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                branch_kernel(length),
                implementation.label(),
                cell(series, 0),
                cell(series, 1),
                times(series, 1, 0)
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{
        LOOP_INSTRUCTIONS, PREDICATED, SASS_CONVERGENCE, SASS_LOOP_INSTRUCTIONS, SASS_PREDICATED, SASS_SELECTS,
        SASS_SIDE_BRANCHES, SELECTS, SIDE_BRANCHES, branch_shape,
    };
    use crate::experiments::execution_fixtures::{rendered, report, result, series};
    use crate::experiments::implementation_ptx::implementation_entry;
    use crate::launchers::{branch_kernel, paths_kernel};
    use crate::reference::{BranchLength, PathChoice};
    use crate::report::{ExperimentResult, Metric, SectionHooks, Series, Verdict};
    use crate::testbed::Implementation;

    fn paths(choice: PathChoice, times: &[(i64, f64)]) -> Series {
        series(paths_kernel(choice), Implementation::Rust, ("f32", ""), times, &[])
    }

    /// A branch kernel's series: times at masks 0 and 1 and the PTX counts `(selects, side branches)`.
    fn branches(length: BranchLength, uniform: f64, split: f64, (selects, side): (f64, f64)) -> Series {
        let extras: Vec<(i64, &str, f64)> = [0, 1]
            .into_iter()
            .flat_map(|x| {
                [
                    (x, SELECTS, selects),
                    (x, PREDICATED, 0.0),
                    (x, SIDE_BRANCHES, side),
                    (x, LOOP_INSTRUCTIONS, 20.0),
                ]
            })
            .collect();
        series(
            branch_kernel(length),
            Implementation::Rust,
            ("f32", ""),
            &[(0, uniform), (1, split)],
            &extras,
        )
    }

    fn divergence(series: Vec<Series>) -> ExperimentResult {
        result("divergence", Metric::Time, series)
    }

    fn verdict(result: &ExperimentResult, id: &str) -> Option<Verdict> {
        let report = report(vec![result.clone()]);
        super::Divergence
            .ledger(result, &report)
            .into_iter()
            .find(|r| r.id == id)
            .map(|r| r.verdict)
    }

    /// Lane times `k^exponent` ms and warp times `warp(k)`.
    fn sweep(exponent: f64, warp: impl Fn(f64) -> f64) -> ExperimentResult {
        let ks = [1, 2, 4, 8, 16, 32];
        let lane: Vec<(i64, f64)> = ks.iter().map(|&k| (k, (k as f64).powf(exponent))).collect();
        let aligned: Vec<(i64, f64)> = ks.iter().map(|&k| (k, warp(k as f64))).collect();
        divergence(vec![
            paths(PathChoice::ByLane, &lane),
            paths(PathChoice::ByWarp, &aligned),
        ])
    }

    #[test]
    fn divergent_paths_are_graded_against_k_times_one() {
        let id = "bpg-6.1-divergent-paths";
        assert_eq!(verdict(&sweep(1.0, |_| 1.0), id), Some(Verdict::Holds), "32x");
        assert_eq!(
            verdict(&sweep(0.9, |_| 1.0), id),
            Some(Verdict::Holds),
            "22.6x, past halfway"
        );
        assert_eq!(verdict(&sweep(0.5, |_| 1.0), id), Some(Verdict::Weaker), "5.7x");
        assert_eq!(verdict(&sweep(0.0, |_| 1.0), id), Some(Verdict::Gone));
    }

    #[test]
    fn warp_aligned_paths_must_stay_near_one_path() {
        let id = "bpg-6.1-warp-aligned";
        assert_eq!(verdict(&sweep(1.0, |_| 1.0), id), Some(Verdict::Holds));
        assert_eq!(
            verdict(&sweep(1.0, |k| 1.0 + 0.003 * k), id),
            Some(Verdict::Holds),
            "1.096x at k = 32"
        );
        assert_eq!(
            verdict(&sweep(1.0, |k| 1.0 + 0.01 * k), id),
            Some(Verdict::Weaker),
            "1.32x"
        );
        assert_eq!(
            verdict(&sweep(1.0, |k| k / 4.0 + 0.75), id),
            Some(Verdict::Gone),
            "8.75x"
        );
    }

    #[test]
    fn predication_needs_the_ptx_and_the_times() {
        let id = "bpg-6.2-predication";
        let of = |short: Series| divergence(vec![short, branches(BranchLength::Long, 1.0, 2.0, (0.0, 2.0))]);
        let predicated = |split| branches(BranchLength::Short, 1.0, split, (4.0, 0.0));
        assert_eq!(verdict(&of(predicated(1.02)), id), Some(Verdict::Holds));
        assert_eq!(verdict(&of(predicated(1.3)), id), Some(Verdict::Weaker));
        assert_eq!(verdict(&of(predicated(1.8)), id), Some(Verdict::Gone));
        let branching = branches(BranchLength::Short, 1.0, 1.0, (0.0, 1.0));
        assert_eq!(verdict(&of(branching), id), Some(Verdict::Gone), "a branch kept");
        let nothing = branches(BranchLength::Short, 1.0, 1.0, (0.0, 0.0));
        assert_eq!(
            verdict(&of(nothing), id),
            Some(Verdict::Gone),
            "neither selects nor predicates"
        );
        let report = report(vec![of(predicated(1.0))]);
        let row = &super::Divergence.ledger(&report.experiments[0], &report)[0];
        assert!(
            row.measured.contains("4 selp, 0 other predicated, 0 branches"),
            "{}",
            row.measured
        );
        assert!(row.measured.contains("split/uniform 2.00x"), "{}", row.measured);
    }

    /// `series` with SASS counts `(predicated, side branches, convergence barriers)` stored at both masks.
    fn with_sass(mut series: Series, (predicated, side, convergence): (f64, f64, f64)) -> Series {
        for point in &mut series.points {
            point.set_extra(SASS_SELECTS, 0.0);
            point.set_extra(SASS_PREDICATED, predicated);
            point.set_extra(SASS_SIDE_BRANCHES, side);
            point.set_extra(SASS_CONVERGENCE, convergence);
            point.set_extra(SASS_LOOP_INSTRUCTIONS, 46.0);
        }
        series
    }

    #[test]
    fn predication_is_graded_on_the_sass_where_there_is_sass() {
        let id = "bpg-6.2-predication";
        let long = with_sass(branches(BranchLength::Long, 1.0, 2.0, (0.0, 2.0)), (0.0, 8.0, 8.0));
        // The PTX keeps a branch, but ptxas predicates it: SASS decides.
        let ptx_branch = branches(BranchLength::Short, 1.0, 1.02, (0.0, 1.0));
        let result = divergence(vec![with_sass(ptx_branch.clone(), (16.0, 0.0, 0.0)), long.clone()]);
        assert_eq!(verdict(&result, id), Some(Verdict::Holds));
        let row = &super::Divergence.ledger(&result, &report(vec![result.clone()]))[0];
        assert!(
            row.measured
                .contains("SASS: 16 predicated, 0 selects, 0 branches besides the back edge, 0 convergence"),
            "{}",
            row.measured
        );
        assert!(
            row.measured.contains("the long if/else (SASS: 0 predicated"),
            "{}",
            row.measured
        );
        // The PTX predicates, the SASS branches: gone.
        let ptx_predicated = branches(BranchLength::Short, 1.0, 1.0, (4.0, 0.0));
        let result = divergence(vec![with_sass(ptx_predicated.clone(), (0.0, 2.0, 2.0)), long]);
        assert_eq!(verdict(&result, id), Some(Verdict::Gone));
        // No SASS: the PTX, with the waiver's reason.
        let mut ptx_only = divergence(vec![ptx_predicated, branches(BranchLength::Long, 1.0, 2.0, (0.0, 2.0))]);
        ptx_only.waived.push(crate::report::Waiver {
            what: "SASS evidence (Rust)".into(),
            reason: "nvdisasm not found".into(),
        });
        assert_eq!(verdict(&ptx_only, id), Some(Verdict::Holds));
        let row = &super::Divergence.ledger(&ptx_only, &report(vec![ptx_only.clone()]))[0];
        assert!(
            row.measured.contains("no SASS (nvdisasm not found), graded on the PTX"),
            "{}",
            row.measured
        );
        let mut full = sweep(1.0, |_| 1.0);
        full.series.push(with_sass(ptx_branch, (16.0, 0.0, 0.0)));
        full.series.push(with_sass(
            branches(BranchLength::Long, 1.0, 2.0, (0.0, 2.0)),
            (0.0, 8.0, 8.0),
        ));
        let (markdown, _, _) = rendered(vec![full]);
        assert!(markdown.contains("**What the GPU runs (SASS).**"), "{markdown}");
        assert!(markdown.contains("| 16 | 0 | 0 | 0 | 46 |"), "{markdown}");
    }

    #[test]
    fn the_recorded_sass_predicates_the_short_if_else_only() {
        let functions = crate::sass::parse_listing(include_str!("../../tests/fixtures/sass/sm90_nvdisasm.txt"));
        let shape = |length| {
            let f = functions.iter().find(|f| f.name == branch_kernel(length)).unwrap();
            super::sass_branch_shape(f).unwrap()
        };
        let short = shape(BranchLength::Short);
        assert!(short.is_predicated(), "{short:?}");
        assert_eq!((short.predicated, short.convergence), (16, 0));
        let long = shape(BranchLength::Long);
        assert!(!long.is_predicated(), "{long:?}");
        assert_eq!((long.side_branches(), long.convergence), (8, 8));
    }

    #[test]
    fn the_embedded_ptx_predicates_the_short_if_else_only() {
        let shape =
            |length| branch_shape(&implementation_entry(Implementation::Rust, branch_kernel(length)).unwrap()).unwrap();
        let short = shape(BranchLength::Short);
        let long = shape(BranchLength::Long);
        assert!(short.is_predicated(), "{short:?}");
        assert!(short.selects >= 4, "{short:?}");
        assert!(!long.is_predicated(), "{long:?}");
        assert!(long.side_branches() >= 1, "{long:?}");
    }

    #[test]
    fn the_report_has_the_tables_the_plot_and_the_scheduling_paragraph() {
        let mut result = sweep(1.0, |_| 1.0);
        result.series.push(branches(BranchLength::Short, 1.0, 1.0, (4.0, 0.0)));
        result.series.push(branches(BranchLength::Long, 1.0, 2.0, (0.0, 2.0)));
        let (markdown, files, rows) = rendered(vec![result]);
        assert!(markdown.contains("schedules threads independently"), "{markdown}");
        assert!(markdown.contains("| 32 | Rust |"), "{markdown}");
        assert!(markdown.contains("| short_branch_predicated | Rust |"), "{markdown}");
        assert!(files.iter().any(|f| f.ends_with("-paths.svg")), "{files:?}");
        assert_eq!(rows.len(), 3, "{rows:?}");
    }

    #[test]
    fn the_rows_grade_rust_and_show_the_opencl_twin_beside_it() {
        let ks = [1, 2, 4, 8, 16, 32];
        let mut result = sweep(1.0, |_| 1.0);
        let opencl = |kernel, times: Vec<(i64, f64)>| series(kernel, Implementation::OpenClC, ("f32", ""), &times, &[]);
        // The OpenCL C twin: 16x at k = 32 per lane, 1.5x at worst per warp; its short if/else 1.25x split.
        let lane = ks.iter().map(|&k| (k, (k as f64 / 2.0).max(1.0))).collect();
        result.series.push(opencl(paths_kernel(PathChoice::ByLane), lane));
        result.series.push(opencl(
            paths_kernel(PathChoice::ByWarp),
            ks.iter().map(|&k| (k, if k == 8 { 1.5 } else { 1.0 })).collect(),
        ));
        result.series.push(branches(BranchLength::Short, 1.0, 1.0, (4.0, 0.0)));
        result.series.push(branches(BranchLength::Long, 1.0, 2.0, (0.0, 2.0)));
        result
            .series
            .push(opencl(branch_kernel(BranchLength::Short), vec![(0, 2.0), (1, 2.5)]));
        let report = report(vec![result.clone()]);
        let rows = super::Divergence.ledger(&result, &report);
        let measured = |id: &str| rows.iter().find(|r| r.id == id).unwrap().measured.clone();
        let paths = measured("bpg-6.1-divergent-paths");
        assert!(
            paths.contains("the twins, 32 paths over one: OpenCL C: 16.00x"),
            "{paths}"
        );
        assert!(!paths.contains("CUDA C:"), "no CUDA C series: {paths}");
        let aligned = measured("bpg-6.1-warp-aligned");
        assert!(
            aligned.contains("per warp, at worst over one path: OpenCL C: 1.50x"),
            "{aligned}"
        );
        let short = measured("bpg-6.2-predication");
        assert!(
            short.contains("short if/else split / one way: OpenCL C: 1.25x"),
            "{short}"
        );
        // The rows still grade Rust: 32x, no extra cost, predicated.
        assert!(rows.iter().all(|r| r.verdict == Verdict::Holds), "{rows:?}");
        let (markdown, _, _) = rendered(vec![result]);
        assert!(markdown.contains("| 32 | OpenCL C |"), "{markdown}");
        assert!(
            markdown.contains("| short_branch_predicated | OpenCL C |"),
            "{markdown}"
        );
    }

    #[test]
    fn the_twins_ptx_is_read_the_same_way_where_nvrtc_is_here() {
        if let Err(why) = crate::testbed::compile_twins() {
            eprintln!("SKIPPED the twins' PTX: {why}");
            return;
        }
        for length in [BranchLength::Short, BranchLength::Long] {
            let text = implementation_entry(Implementation::CudaC, branch_kernel(length)).expect("the twin");
            let shape = branch_shape(&text).expect("a loop");
            eprintln!("CUDA C {length:?}: {shape:?}");
            assert!(shape.instructions > 0);
        }
        let long = implementation_entry(Implementation::CudaC, branch_kernel(BranchLength::Long)).unwrap();
        assert!(
            !branch_shape(&long).unwrap().is_predicated(),
            "8 FMAs a side cannot be predicated away"
        );
    }
}
