//! Best Practices Guide §3.2.5 and the OpenCL guide §3.1.2.3: constant
//! memory. A warp walks a table with 1, 2, 4 … 32 distinct addresses per
//! request, read from the constant bank (`ld.const`), through the read-only
//! data cache (`ld.global.nc`) and from shared memory; one warp alone (each
//! step's latency and serialisation) and full SMs (the throughput), in SM
//! clocks per warp read from each block's `clock64`. The OpenCL guide makes
//! the claim for OpenCL's `__constant` memory: the OpenCL C twins
//! (`host/opencl_c/constant_memory.cl`) run the same points on the same GPU's
//! OpenCL queue, their cost taken from profiling events at the SM clock the
//! Rust and CUDA C launches beside them measured (OpenCL C has no `clock64`);
//! the row grades Rust and shows the twins' factors beside it.

use std::fmt::Write;

use super::launch_outputs::{TimedLaunches, kept_reps, sample_means};
use super::sm_spans::{RequestClocks, SmTime, sm_time};
use super::sweep::each_point;
use super::twin_ratios::twin_ratios;
use super::{Experiment, RunContext};
use crate::error::Result;
use crate::launchers::{
    CONSTANT_CHASE_BLOCK_THREADS, CONSTANT_CHASE_TABLE_WORDS, ChaseCase, ChaseRunner, ChaseTiming, ConstantSpace,
    constant_chase_runners,
};
use crate::reference::{constant_chase_links, constant_chase_sum};
use crate::report::{
    Axis, Bound, Claim, ExperimentResult, LedgerRow, Metric, Point, PointKey, Report, Rule, Scale, SectionHooks,
    Series, Unit, Work, better_by, summary_cell,
};
use crate::run_settings::RunSettings;
use crate::stats::Summary;
use crate::testbed::Implementation;

pub struct ConstantMemory;

/// Distinct addresses per warp request.
const DISTINCT: [u32; 6] = [1, 2, 4, 8, 16, 32];

/// Extra figures of each point, by name.
pub const COST_BY_EVENTS: &str = "SM clk per warp read (events)";
pub const SM_CLOCK_MHZ: &str = "SM clock (MHz, clock64 / globaltimer)";
pub const STEPS: &str = "steps";

/// How many warps read at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Load {
    /// One warp on one SM: a step is the request's latency plus its serialisation.
    OneWarp,
    /// A full wave of blocks: the SM's throughput.
    FullSms,
}

impl Load {
    const ALL: [Self; 2] = [Self::OneWarp, Self::FullSms];

    fn variant(self) -> &'static str {
        match self {
            Load::OneWarp => "one warp",
            Load::FullSms => "full SMs",
        }
    }

    fn block_threads(self) -> u32 {
        match self {
            Load::OneWarp => 32,
            Load::FullSms => CONSTANT_CHASE_BLOCK_THREADS,
        }
    }

    /// Steps a lane takes per launch of `space` at `distinct` addresses:
    /// full SMs reading the constant bank take fewer the more addresses a
    /// read has (its cost grows with them), so that every launch lasts about
    /// as long (some 1M SM clocks at two clocks a read: about 0.5 ms on an
    /// H100), long enough for the events to time it within a few percent.
    fn steps(self, space: ConstantSpace, distinct: u32) -> u32 {
        match (self, space) {
            (Load::OneWarp, _) => 2048,
            (Load::FullSms, ConstantSpace::Constant) => (8192 / distinct.max(1)).max(256),
            (Load::FullSms, _) => 8192,
        }
    }
}

fn space_label(space: ConstantSpace) -> &'static str {
    match space {
        ConstantSpace::Constant => "constant (ld.const)",
        ConstantSpace::GlobalReadOnly => "read-only cache (ld.global.nc)",
        ConstantSpace::Shared => "shared memory",
    }
}

/// The cost metric of every series.
fn metric() -> Metric {
    Metric::custom("cost per warp read", "SM clk", false)
}

/// One series of the sweep and how it launches: by which runner, on how many blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Plan {
    space: ConstantSpace,
    implementation: Implementation,
    load: Load,
    runner: usize,
    blocks: u32,
    series: usize,
}

impl Experiment for ConstantMemory {
    fn name(&self) -> &'static str {
        "constant-memory"
    }
    fn title(&self) -> &'static str {
        "Constant memory: the cost of distinct addresses in a warp"
    }
    fn source(&self) -> &'static str {
        "CUDA C Best Practices Guide 4.0, §3.2.5; OpenCL Programming Guide 2.3, §3.1.2.3"
    }
    fn points(&self) -> u64 {
        (Load::ALL.len() * DISTINCT.len()) as u64
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let axis = Axis::lines("distinct addresses per warp request (count)", metric())
            .x_scale(Scale::Log2)
            .y_scale(Scale::Log10);
        let mut result = ctx.result(
            self,
            axis,
            "4 bytes per lane per step read (the figure is SM clocks, not bytes)",
        );
        let (runners, waived) = constant_chase_runners(ctx.device)?;
        result.waive(waived);
        let opencl = runners
            .iter()
            .any(|r| r.implementations().contains(&Implementation::OpenClC));
        let sms = ctx.device.info().multiprocessors.max(1) as u32;
        let plans = plan_series(&runners, sms)?;
        for plan in &plans {
            result.series.push(series_of(ctx, plan));
        }
        let mut chase = ChaseBench::new(runners, &plans, ctx.settings)?;
        let sweep: Vec<(Load, u32)> = Load::ALL
            .into_iter()
            .flat_map(|load| DISTINCT.into_iter().map(move |d| (load, d)))
            .collect();
        let planned = sweep.len();
        each_point(ctx, sweep, (0, planned), |(load, distinct)| {
            for plan in plans.iter().filter(|p| p.load == load) {
                ctx.progress
                    .set_message(format!("{} {distinct}", result.series[plan.series].label));
                if let Some(point) = chase.measure(ctx.settings, sms as f64, plan, distinct)? {
                    result.series[plan.series].points.push(point);
                }
            }
            Ok(())
        })?;
        describe(ctx, &mut result, opencl);
        Ok(result)
    }
}

/// Every (load, space, implementation) series, in the result's order (the
/// runners' implementations in their order: the PTX ones, then the OpenCL C
/// twins), with its blocks: one, or a full wave of the kernel's occupancy on
/// `sms` SMs (as the runner gives it: the twins launch the Rust kernel's).
fn plan_series(runners: &[Box<dyn ChaseRunner + '_>], sms: u32) -> Result<Vec<Plan>> {
    let mut plans = Vec::new();
    for load in Load::ALL {
        for space in ConstantSpace::ALL {
            for (r, runner) in runners.iter().enumerate() {
                for &implementation in runner.implementations() {
                    let blocks_per_sm = runner.blocks_per_sm(implementation, space, load.block_threads())?;
                    let blocks = match load {
                        Load::OneWarp => 1,
                        Load::FullSms => blocks_per_sm * sms,
                    };
                    plans.push(Plan {
                        space,
                        implementation,
                        load,
                        runner: r,
                        blocks,
                        series: plans.len(),
                    });
                }
            }
        }
    }
    Ok(plans)
}

/// The series of `plan`, keyed and labelled.
fn series_of(ctx: &RunContext<'_>, plan: &Plan) -> Series {
    let (space, implementation, load) = (plan.space, plan.implementation, plan.load);
    let key = ctx.key(space.kernel(), implementation, "u32").variant(load.variant());
    let label = format!(
        "{} · {} ({})",
        space_label(space),
        implementation.label(),
        load.variant()
    );
    Series::new(key, label)
}

/// The runners with the table and the buffers for the largest plan, the
/// table's links, and the SM clock the last clocked point measured (the
/// events-only twins' cost is their events' time at it).
struct ChaseBench<'g> {
    runners: Vec<Box<dyn ChaseRunner + 'g>>,
    links: Vec<u32>,
    clock_hz: Option<f64>,
}

impl<'g> ChaseBench<'g> {
    /// Every runner prepared for the largest plan.
    fn new(mut runners: Vec<Box<dyn ChaseRunner + 'g>>, plans: &[Plan], settings: &RunSettings) -> Result<Self> {
        let links = constant_chase_links(CONSTANT_CHASE_TABLE_WORDS);
        let max_blocks = plans.iter().map(|p| p.blocks).max().unwrap_or(1);
        let max_threads = plans
            .iter()
            .map(|p| p.blocks * p.load.block_threads())
            .max()
            .unwrap_or(32);
        for runner in &mut runners {
            runner.prepare(&links, (max_threads, max_blocks), settings)?;
        }
        Ok(Self {
            runners,
            links,
            clock_hz: None,
        })
    }

    /// One point of `plan` at `distinct` addresses on `sms` SMs: timed, every
    /// thread's sum checked, the SM clocks per warp read; `None` where it has
    /// no time (or a launch's blocks left no span). A runner without clocks
    /// times one warp's launches one by one (so no gap between launches counts).
    fn measure(&mut self, settings: &RunSettings, sms: f64, plan: &Plan, distinct: u32) -> Result<Option<Point>> {
        let load = plan.load;
        let case = ChaseCase {
            space: plan.space,
            distinct,
            steps: load.steps(plan.space, distinct),
            block_threads: load.block_threads(),
            blocks: plan.blocks,
        };
        let runner = &mut self.runners[plan.runner];
        let settings = match (runner.records_spans(), load) {
            (false, Load::OneWarp) => RunSettings {
                reps: 1,
                ..settings.clone()
            },
            _ => settings.clone(),
        };
        runner.fill_sums(0)?;
        let timing = runner.time(plan.implementation, &case, &settings)?;
        let sums = runner.read_sums()?;
        let failure = sum_mismatch(&self.links, distinct, case.steps, &sums[..case.threads() as usize]);
        Ok(match timing {
            ChaseTiming::Clocked(timed) => clocked_point(&mut self.clock_hz, &case, load, timed, failure),
            ChaseTiming::Events(times_ms) => events_point(self.clock_hz, &case, (load, sms), &times_ms, failure),
        })
    }
}

/// The point of a clocked run of `case`: the SM clocks per warp read from
/// the blocks' spans (full SMs: checked against the events' time); the
/// SM clock it measured kept in `clock_hz`; `None` where a launch's blocks left no span.
fn clocked_point(
    clock_hz: &mut Option<f64>,
    case: &ChaseCase,
    load: Load,
    timed: TimedLaunches<u64>,
    failure: Option<String>,
) -> Option<Point> {
    let TimedLaunches {
        times_ms,
        written,
        reps,
    } = timed;
    let (threads, steps) = (case.threads(), case.steps);
    // Warp reads of all blocks: per SM, its span over its blocks' reads.
    let reads = steps as f64 * (threads / 32) as f64;
    let spans: Vec<Option<SmTime>> = written.iter().map(|w| sm_time(w, case.blocks as usize)).collect();
    let per_launch: Vec<Option<f64>> = spans.iter().map(|t| t.map(|t| t.span_cycles / reads)).collect();
    let per_launch = per_launch.into_iter().collect::<Option<Vec<f64>>>()?;
    let samples = sample_means(&per_launch, reps);
    // Full SMs: the events' time must tell the same cost (one warp's launch is too short for events).
    let figures = RequestClocks::of(&spans, reps, &times_ms, reads);
    *clock_hz = figures.clock_hz.or(*clock_hz);
    let failure = failure.or_else(|| match load {
        Load::FullSms => figures.failure("SM clocks per warp read"),
        Load::OneWarp => None,
    });
    let work = Work::bytes(threads as u64, threads as u64 * steps as u64 * 4);
    let mut point = Point::measured(PointKey::Value(case.distinct as i64), &samples, work, failure)?;
    point.time_ms = Summary::of(&times_ms);
    if load == Load::FullSms {
        if let Some(by_events) = figures.by_events {
            point.set_extra(COST_BY_EVENTS, by_events);
        }
        if let Some(hz) = figures.clock_hz {
            point.set_extra(SM_CLOCK_MHZ, hz / 1e6);
        }
    }
    point.set_extra(STEPS, steps as f64);
    Some(point)
}

/// The point of an events-only run of `case` (the OpenCL C twins) on `sms`
/// SMs: the SM clocks per warp read at `clock_hz`, the clock the point
/// before it measured (failed without one); `None` where it has no time.
fn events_point(
    clock_hz: Option<f64>,
    case: &ChaseCase,
    (load, sms): (Load, f64),
    times_ms: &[f64],
    failure: Option<String>,
) -> Option<Point> {
    let (threads, steps) = (case.threads(), case.steps);
    // Warp reads per SM: one warp's on its SM, or the full wave's spread over every SM.
    let reads_per_sm = match load {
        Load::OneWarp => steps as f64,
        Load::FullSms => steps as f64 * (threads / 32) as f64 / sms,
    };
    let (samples, failure) = match clock_hz {
        Some(hz) => (
            times_ms.iter().map(|ms| ms * 1e-3 * hz / reads_per_sm).collect(),
            failure,
        ),
        None => (
            times_ms.to_vec(),
            failure.or(Some("no SM clock measured beside it (no Rust or CUDA C point)".into())),
        ),
    };
    let work = Work::bytes(threads as u64, threads as u64 * steps as u64 * 4);
    let mut point = Point::measured(PointKey::Value(case.distinct as i64), &samples, work, failure)?;
    point.time_ms = Summary::of(times_ms);
    if let Some(hz) = clock_hz {
        point.set_extra(SM_CLOCK_MHZ, hz / 1e6);
    }
    point.set_extra(STEPS, steps as f64);
    Some(point)
}

/// The first thread of `got` (each thread's sum, in order) whose sum is not
/// the CPU's: a thread's sum depends only on its lane, so one reference per lane.
fn sum_mismatch(links: &[u32], distinct: u32, steps: u32, got: &[u32]) -> Option<String> {
    let expected: Vec<u32> = (0..32)
        .map(|lane| constant_chase_sum(links, distinct, lane, steps))
        .collect();
    got.iter().enumerate().find_map(|(t, &sum)| {
        let expected = expected[t % 32];
        (sum != expected).then(|| format!("thread {t} summed {sum}, the reference {expected}"))
    })
}

/// The setup and the notes: the table, the loads, how the cost is taken and checked.
fn describe(ctx: &RunContext<'_>, result: &mut ExperimentResult, opencl: bool) {
    result.setup.push(format!(
        "a table of {CONSTANT_CHASE_TABLE_WORDS} words, link w → w + 32, lane l starting at word l mod \
         distinct; one warp: one block of 32 threads, {} steps; full SMs: a full wave of blocks of \
         {CONSTANT_CHASE_BLOCK_THREADS} threads, 8192 steps (the constant bank: 8192 / distinct, at least 256)",
        Load::OneWarp.steps(ConstantSpace::Constant, 1)
    ));
    result.notes.push(
        "The Rust kernel reads the constant bank through a file-scope global_asm! `.const` array read with \
         `ld.const` (SASS LDC): rustc's nvptx target places no Rust static in the constant space. The CUDA C \
         twin reads its `__constant__` array (same name and size), measured beside it. Each launch first copies \
         the table into the module's array in stream order (inside the events' time, outside the kernel's clock)."
            .into(),
    );
    result.notes.push(format!(
        "cost per warp read: per launch, each SM's span from its blocks' earliest clock64 start to their latest \
         end (blocks sharing an SM need not run side by side), summed over the SMs, over the warp reads of all \
         blocks; per sample the mean of {} launches. Full SMs: the events' time of a launch at the SM clock the \
         blocks' clock64 and globaltimer readings give must agree within 5% with its longest SM span (the \
         launch ends with its slowest SM), or the point fails (the events include the table's copy into the \
         constant array, a few microseconds against launches of some 0.5 ms); {COST_BY_EVENTS} is the events' \
         time over the reads per SM. One warp: clock64 alone (the launch is too short for events). Every lane's sum checked against \
         the CPU reference",
        kept_reps(ctx.settings)
    ));
    if opencl {
        result.notes.push(format!(
            "OpenCL C twins (host/opencl_c/constant_memory.cl: the table as a `__constant` argument, a read-only \
             `__global restrict` pointer, a `__local` copy) on the same GPU's OpenCL queue, the Rust kernel's \
             blocks: OpenCL C has no clock64, so their cost is the profiling events' time per launch at the SM \
             clock the Rust or CUDA C point measured just before ({SM_CLOCK_MHZ}), over the warp reads per SM \
             (full SMs: the wave's over the SMs; one warp: its own, each launch timed alone, so no gap between \
             launches counts, but the launch's own start and end do). Every work-item's sum checked as above"
        ));
    }
}

/// The series of `space` by `implementation` under `load`.
fn find(
    result: &ExperimentResult,
    space: ConstantSpace,
    implementation: Implementation,
    load: Load,
) -> Option<&Series> {
    result.variant(space.kernel(), implementation, load.variant())
}

/// Cost at 32 distinct addresses over the cost at 1.
fn serialisation(series: &Series) -> Option<f64> {
    Some(series.median_at(32)? / series.median_at(1)?)
}

impl SectionHooks for ConstantMemory {
    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        let mut text = String::from("**Then vs now.** ");
        for load in Load::ALL {
            let Some(constant) = find(result, ConstantSpace::Constant, Implementation::Rust, load) else {
                continue;
            };
            let (Some(one), Some(factor)) = (constant.median_at(1), serialisation(constant)) else {
                continue;
            };
            let others: Vec<String> = [ConstantSpace::GlobalReadOnly, ConstantSpace::Shared]
                .into_iter()
                .filter_map(|space| {
                    let s = find(result, space, Implementation::Rust, load)?;
                    Some(format!("{} {:.2}x", space_label(space), serialisation(s)?))
                })
                .collect();
            let _ = write!(
                text,
                "{}: one address costs {one:.2} SM clocks per warp read from the constant bank, 32 addresses \
                 {factor:.1}x that (the guides: 32x, each address served in turn)",
                load.variant()
            );
            if !others.is_empty() {
                let _ = write!(text, "; from 1 to 32 addresses {}", others.join(", "));
            }
            text.push_str(". ");
        }
        text.push_str(
            "The guides counted the addresses per half-warp (cc 1.x); today a warp's request is served whole.",
        );
        vec![text]
    }

    /// One row per distinct count: each space's cost (Rust), the CUDA C
    /// twin's constant-bank cost, per load.
    fn tables(&self, result: &ExperimentResult, _report: &Report) -> Option<String> {
        let mut out = String::new();
        for load in Load::ALL {
            let columns: Vec<(&str, &Series)> = [
                (ConstantSpace::Constant, Implementation::Rust, "constant · Rust"),
                (ConstantSpace::Constant, Implementation::CudaC, "constant · CUDA C"),
                (ConstantSpace::Constant, Implementation::OpenClC, "constant · OpenCL C"),
                (
                    ConstantSpace::GlobalReadOnly,
                    Implementation::Rust,
                    "ld.global.nc · Rust",
                ),
                (ConstantSpace::Shared, Implementation::Rust, "shared · Rust"),
            ]
            .into_iter()
            .filter_map(|(space, imp, label)| Some((label, find(result, space, imp, load)?)))
            .collect();
            let Some(first) = columns.first() else {
                continue;
            };
            let _ = writeln!(out, "**{}** (SM clocks per warp read)\n", load.variant());
            let _ = write!(out, "| distinct addresses |");
            for (label, _) in &columns {
                let _ = write!(out, " {label} |");
            }
            let _ = writeln!(out, " constant · Rust, x one address |");
            let _ = writeln!(out, "|---:|{}---:|", "---:|".repeat(columns.len()));
            for at in first.1.points.iter().filter_map(|p| p.at.value()) {
                let _ = write!(out, "| {at} |");
                for (_, series) in &columns {
                    let cell = series
                        .at(at)
                        .and_then(|p| p.value)
                        .map_or("—".into(), |v| summary_cell(&v));
                    let _ = write!(out, " {cell} |");
                }
                let factor = find(result, ConstantSpace::Constant, Implementation::Rust, load)
                    .and_then(|s| Some(s.median_at(at)? / s.median_at(1)?));
                let _ = writeln!(out, " {} |", factor.map_or("—".into(), |f| format!("{f:.2}")));
            }
            let _ = writeln!(out);
        }
        let _ = writeln!(out, "Cells: median (min–max over the samples).");
        Some(out)
    }

    fn bounds(&self, _result: &ExperimentResult, _series: &Series) -> Vec<Bound> {
        vec![Bound::extra(SM_CLOCK_MHZ, Unit::SmClock)]
    }

    fn claims(&self) -> Vec<Claim> {
        vec![claim()]
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        ledger_rows(result)
    }
}

/// The claim the experiment grades.
pub fn claim() -> Claim {
    Claim {
        id: "bpg-3.2.5-constant-addresses",
        source: "Best Practices Guide §3.2.5; OpenCL guide §3.1.2.3",
        claim:
            "A constant-cache read costs in proportion to the distinct addresses a warp reads: 32 addresses cost 32 \
                times one"
                .into(),
        rule: Rule::Factor { claimed: 32.0 },
        reads: "constant_chase · Rust, full SMs: SM clocks per warp read at 32 distinct addresses over at 1 (the SMs' \
                clock64 spans, checked against the events' time)"
            .into(),
        experiment: "constant-memory",
    }
}

/// The ledger row of a constant-memory result (pure: tested on synthetic results).
pub fn ledger_rows(result: &ExperimentResult) -> Vec<LedgerRow> {
    let Some(full) = find(result, ConstantSpace::Constant, Implementation::Rust, Load::FullSms) else {
        return Vec::new();
    };
    let (Some(one), Some(thirty_two)) = (full.at(1), full.at(32)) else {
        return Vec::new();
    };
    let (Some(factor), Some(c1), Some(c32)) = (
        better_by(&result.axis.metric, one, thirty_two),
        one.median(),
        thirty_two.median(),
    ) else {
        return Vec::new();
    };
    let mut measured = format!(
        "constant bank, full SMs: {c1:.2} SM clocks per warp read at 1 address, {c32:.2} at 32 ({}x)",
        factor.text(1)
    );
    if let Some(factor) =
        find(result, ConstantSpace::Constant, Implementation::Rust, Load::OneWarp).and_then(serialisation)
    {
        let _ = write!(measured, "; one warp alone: {factor:.1}x");
    }
    measured.push_str(&twin_ratios(
        "constant memory, full SMs, 32 addresses over 1",
        |implementation| find(result, ConstantSpace::Constant, implementation, Load::FullSms).and_then(serialisation),
    ));
    vec![claim().grade(factor, measured, result.device)]
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use super::super::ledger_fixtures::{result, series};
    use super::*;
    use crate::report::Verdict;

    fn constant_result(full: &[(i64, f64)], one_warp: &[(i64, f64)]) -> ExperimentResult {
        result(
            "constant-memory",
            metric(),
            vec![
                series("constant_chase", Implementation::Rust, "full SMs", full, &[]),
                series("constant_chase", Implementation::Rust, "one warp", one_warp, &[]),
            ],
        )
    }

    /// A runner of fixed occupancy whose timing runs take `ms` a launch,
    /// summing as the kernels do (or wrongly, for `corrupt`); it keeps the reps it was timed with.
    struct FakeRunner {
        implementations: Vec<Implementation>,
        per_sm: u32,
        spans: bool,
        ms: f64,
        corrupt: bool,
        links: Vec<u32>,
        last: Option<ChaseCase>,
        reps_seen: Rc<RefCell<Vec<u32>>>,
    }

    fn fake(implementations: &[Implementation], per_sm: u32, spans: bool) -> FakeRunner {
        FakeRunner {
            implementations: implementations.to_vec(),
            per_sm,
            spans,
            ms: 0.5,
            corrupt: false,
            links: Vec::new(),
            last: None,
            reps_seen: Rc::default(),
        }
    }

    impl ChaseRunner for FakeRunner {
        fn implementations(&self) -> &[Implementation] {
            &self.implementations
        }
        fn records_spans(&self) -> bool {
            self.spans
        }
        fn blocks_per_sm(&self, _: Implementation, _: ConstantSpace, _: u32) -> Result<u32> {
            Ok(self.per_sm)
        }
        fn prepare(&mut self, links: &[u32], _: (u32, u32), _: &RunSettings) -> Result<()> {
            self.links = links.to_vec();
            Ok(())
        }
        fn fill_sums(&mut self, _: u32) -> Result<()> {
            Ok(())
        }
        fn time(&mut self, _: Implementation, case: &ChaseCase, settings: &RunSettings) -> Result<ChaseTiming> {
            self.last = Some(*case);
            self.reps_seen.borrow_mut().push(settings.reps);
            Ok(ChaseTiming::Events(vec![self.ms; settings.samples as usize]))
        }
        fn read_sums(&mut self) -> Result<Vec<u32>> {
            let case = self.last.expect("timed first");
            let mut sums: Vec<u32> = (0..case.threads())
                .map(|t| constant_chase_sum(&self.links, case.distinct, t % 32, case.steps))
                .collect();
            if self.corrupt {
                sums[case.threads() as usize - 1] ^= 1;
            }
            Ok(sums)
        }
    }

    #[test]
    fn series_run_load_by_load_space_by_space_each_runner_s_implementations_in_turn() {
        let runners: Vec<Box<dyn ChaseRunner>> = vec![
            Box::new(fake(&[Implementation::Rust, Implementation::CudaC], 4, true)),
            Box::new(fake(&[Implementation::OpenClC], 2, false)),
        ];
        let plans = plan_series(&runners, 10).unwrap();
        assert_eq!(plans.len(), Load::ALL.len() * ConstantSpace::ALL.len() * 3);
        let order: Vec<(Load, ConstantSpace, Implementation, usize, u32)> = plans
            .iter()
            .map(|p| (p.load, p.space, p.implementation, p.runner, p.blocks))
            .collect();
        assert_eq!(
            order[..4],
            [
                (Load::OneWarp, ConstantSpace::Constant, Implementation::Rust, 0, 1),
                (Load::OneWarp, ConstantSpace::Constant, Implementation::CudaC, 0, 1),
                (Load::OneWarp, ConstantSpace::Constant, Implementation::OpenClC, 1, 1),
                (Load::OneWarp, ConstantSpace::GlobalReadOnly, Implementation::Rust, 0, 1),
            ]
        );
        assert_eq!(
            order[9..12],
            [
                (Load::FullSms, ConstantSpace::Constant, Implementation::Rust, 0, 40),
                (Load::FullSms, ConstantSpace::Constant, Implementation::CudaC, 0, 40),
                (Load::FullSms, ConstantSpace::Constant, Implementation::OpenClC, 1, 20),
            ],
            "a full wave: the runner's blocks per SM times the SMs"
        );
        assert!(plans.iter().enumerate().all(|(i, p)| p.series == i));
    }

    #[test]
    fn events_only_points_take_the_last_clock_time_one_warp_launches_alone_and_check_every_sum() {
        let settings = RunSettings {
            reps: 20,
            samples: 3,
            ..RunSettings::default()
        };
        let events_only = fake(&[Implementation::OpenClC], 2, false);
        let reps_seen = events_only.reps_seen.clone();
        let runners: Vec<Box<dyn ChaseRunner>> = vec![Box::new(events_only)];
        let plans = plan_series(&runners, 4).unwrap();
        let mut bench = ChaseBench::new(runners, &plans, &settings).unwrap();
        let one_warp = plans.iter().find(|p| p.load == Load::OneWarp).unwrap();
        let no_clock = bench.measure(&settings, 4.0, one_warp, 4).unwrap().unwrap();
        assert!(
            no_clock.status.reason().is_some_and(|r| r.contains("no SM clock")),
            "{:?}",
            no_clock.status
        );
        bench.clock_hz = Some(1e9);
        let point = bench.measure(&settings, 4.0, one_warp, 4).unwrap().unwrap();
        assert!(point.status.is_ok(), "{:?}", point.status);
        // 0.5 ms at 1 GHz over one warp's 2048 reads on its SM.
        let expected = 0.5e-3 * 1e9 / 2048.0;
        assert!(
            (point.median().unwrap() - expected).abs() < 1e-9,
            "{:?}",
            point.median()
        );
        assert_eq!(point.extra[SM_CLOCK_MHZ], 1000.0);
        let full = plans.iter().find(|p| p.load == Load::FullSms).unwrap();
        let point = bench.measure(&settings, 4.0, full, 1).unwrap().unwrap();
        // A wave of 8 blocks of 256 threads: 64 warps of 8192 steps over 4 SMs.
        let expected = 0.5e-3 * 1e9 / (8192.0 * 64.0 / 4.0);
        assert!(
            (point.median().unwrap() - expected).abs() < 1e-9,
            "{:?}",
            point.median()
        );
        assert_eq!(
            *reps_seen.borrow(),
            [1, 1, 20],
            "one warp: each launch alone; full SMs: the run's reps"
        );
        let mut corrupt = fake(&[Implementation::OpenClC], 2, false);
        corrupt.corrupt = true;
        let mut bench = ChaseBench::new(vec![Box::new(corrupt)], &plans, &settings).unwrap();
        bench.clock_hz = Some(1e9);
        let failed = bench.measure(&settings, 4.0, full, 1).unwrap().unwrap();
        assert!(
            failed
                .status
                .reason()
                .is_some_and(|r| r.starts_with("thread 2047 summed")),
            "{:?}",
            failed.status
        );
    }

    #[test]
    fn serialisation_is_graded_by_the_factor_rule() {
        let rows = constant_result(&[(1, 1.0), (32, 30.0)], &[(1, 20.0), (32, 80.0)]);
        let rows = ledger_rows(&rows);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].verdict, Verdict::Holds);
        assert!(
            rows[0].measured.contains("one warp alone: 4.0x"),
            "{}",
            rows[0].measured
        );
        let weaker = ledger_rows(&constant_result(&[(1, 2.0), (32, 10.0)], &[]));
        assert_eq!(weaker[0].verdict, Verdict::Weaker);
        let gone = ledger_rows(&constant_result(&[(1, 2.0), (32, 2.02)], &[]));
        assert_eq!(gone[0].verdict, Verdict::Gone);
    }

    #[test]
    fn the_row_grades_rust_and_shows_the_twins_factors_beside_it() {
        let full = |imp, thirty_two: f64| series("constant_chase", imp, "full SMs", &[(1, 2.0), (32, thirty_two)], &[]);
        let r = result(
            "constant-memory",
            metric(),
            vec![
                full(Implementation::Rust, 4.0),
                full(Implementation::CudaC, 62.0),
                full(Implementation::OpenClC, 63.0),
            ],
        );
        let rows = ledger_rows(&r);
        assert_eq!(
            rows[0].verdict,
            Verdict::Weaker,
            "Rust's 2x is graded, not the twins' 31x"
        );
        assert!(
            rows[0].measured.ends_with(
                "; the twins, constant memory, full SMs, 32 addresses over 1: CUDA C: 31.00x, OpenCL C: 31.50x"
            ),
            "{}",
            rows[0].measured
        );
        let (markdown, _, _) = super::super::ledger_fixtures::rendered(r);
        assert!(markdown.contains("constant · OpenCL C"), "{markdown}");
    }

    #[test]
    fn no_row_without_both_ends_of_the_full_sms_series() {
        assert!(ledger_rows(&constant_result(&[(1, 1.0)], &[(1, 1.0), (32, 9.0)])).is_empty());
        assert!(ledger_rows(&result("constant-memory", metric(), vec![])).is_empty());
    }

    #[test]
    fn the_section_renders_a_table_per_load_and_its_row() {
        let curve: Vec<(i64, f64)> = DISTINCT.iter().map(|&d| (d as i64, 2.0 * d as f64)).collect();
        let r = result(
            "constant-memory",
            metric(),
            vec![
                series("constant_chase", Implementation::Rust, "full SMs", &curve, &[]),
                series(
                    "constant_chase_global_nc",
                    Implementation::Rust,
                    "full SMs",
                    &curve,
                    &[],
                ),
                series("constant_chase", Implementation::Rust, "one warp", &curve, &[]),
            ],
        );
        let (markdown, files, rows) = super::super::ledger_fixtures::rendered(r);
        assert!(
            markdown.contains("**full SMs**") && markdown.contains("**one warp**"),
            "{markdown}"
        );
        assert!(markdown.contains("32 addresses 32.0x that"), "{markdown}");
        assert!(files.contains(&"constant-memory.svg".to_string()), "{files:?}");
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].verdict, Verdict::Holds);
    }
}
