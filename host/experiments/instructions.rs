//! Instruction throughput (OpenCL Programming Guide §3.1.1, Best Practices
//! Guide §5.1): every throughput kernel of `kernels-gpu/src/instruction_throughput/`
//! (f32 add/multiply/FMA, f64 FMA, packed f16x2 FMA, i32 add/multiply/
//! multiply-add, the same multiply-add on i16 and i8 values, the 24-bit
//! multiply, u32 division and modulo by a run-time divisor against the
//! shift and mask, reciprocal and division exact and approximate, rsqrt
//! against the IEEE `1/sqrt`, the
//! SFU approximations, the device layer's accurate sine and exp, the
//! §5.1.3/§7.2.3 promotion pair, and the OpenCL guide §3.1.1.4's barrier), at small and (where the kernel's arguments
//! matter) large arguments, Rust and CUDA C: operations per second for the
//! GPU and per clock per SM, beside the published rates.
//!
//! Every launch is one full wave (the most resident 256-thread blocks on
//! every SM) of 8 independent chains per thread, its loop count calibrated
//! to about [`TARGET_LAUNCH_MS`]; the f32 FMA is also measured at fewer
//! warps per SM, to show where the configuration reaches the peak.

use crate::report::Bound;
use std::fmt::Write;

use kernels_gpu::instruction_throughput::{THROUGHPUT_BLOCK_THREADS, THROUGHPUT_CHAINS, ThroughputKernel};

use super::calibrated_launches::calibrate_by_probe;
use super::chain_check::chain_mismatch;
use super::counter_launch::count_point;
use super::implementation_sass::{ImplementationSass, sass_for};
use super::instruction_counters;
use super::sweep::each_point;
use super::throughput_sass::{self, SASS_CEILING, SASS_PER_CLOCK, ThroughputSass, stored_per_operation};
use super::{Experiment, RunContext};
use crate::counters::SASS_PER_ELEMENT;
use crate::error::Result;
use crate::facts::CudaOrdinal;
use crate::launchers::{
    ChainLaunch, ThroughputRunner, cc1_per_sm_per_clock, hopper_peak_per_sm_per_clock, suggested_params,
    throughput_runners,
};
use crate::reference::{ArgumentRange, f32_ulp_at};
use crate::report::{
    Axis, Claim, ExperimentResult, GONE_BAND, LedgerRow, Metric, PlotKind, Point, PointKey, Report, Rule, SectionHooks,
    Series, Spread, Verdict, Work, better_by,
};
use crate::run_settings::RunSettings;
use crate::sass::{PerOperation, SassClass};
use crate::stats::Summary;
use crate::testbed::Implementation;

pub struct Instructions;

/// Each timed launch is calibrated to about this long.
pub const TARGET_LAUNCH_MS: f64 = 0.5;

/// The run's settings with twice its samples, for the throughput points: the
/// ledger grades ratios of two rates that sit within 1% of a rule's edge
/// (mul24 against the 32-bit multiply: 1.057–1.062 against 1.05), and with
/// the default 11 samples the median's interval (the 2nd to the 10th) let one
/// run of three fall inside the run-to-run allowance; with 22 it is the 6th
/// to the 17th. A launch is about 0.5 ms: 22 samples cost some 10 s a run.
fn rate_settings(settings: &RunSettings) -> RunSettings {
    settings.with_samples_times(2)
}
/// The threads whose chains every point checks against the CPU reference (the first two warps).
const CHECKED_THREADS: u32 = 64;
/// The most rounds a launch may run.
const MAX_ITERATIONS: u32 = 1 << 24;
/// The variant of the f32 FMA series measured at fewer warps per SM.
pub const OCCUPANCY: &str = "warps per SM";

/// Extra figures of each point, by name.
pub const PER_SM_PER_CLOCK: &str = "op/clk/SM";
pub const PUBLISHED_CC90: &str = "published op/clk/SM (cc 9.0)";
pub const PERCENT_OF_PUBLISHED: &str = "% of published";
pub const PUBLISHED_CC1: &str = "OpenCL guide op/clk/SM (cc 1.x)";
pub const ITERATIONS: &str = "iterations";
pub const WARPS_PER_SM: &str = "warps per SM";
pub const DIFFERING_PERCENT: &str = "% of values unlike the f32 constant's (1 round)";
pub const MAX_DIFFERENCE_ULP: &str = "max difference from the f32 constant's (ulp, 1 round)";

const COUNTING: &str = "operations = threads × 8 chains × rounds per launch, one measured operation per chain per \
    round (an f16x2 FMA counts once: one instruction, two binary16 FMAs); Gop/s = 1e9 operations per second; \
    op/clk/SM = operations per second / SMs / the SM clock the device reports as its maximum";

/// The point key of an argument range: 0 small, 1 large.
pub fn range_key(range: ArgumentRange) -> PointKey {
    PointKey::Value(match range {
        ArgumentRange::Small => 0,
        ArgumentRange::Large => 1,
    })
}

/// The argument range of a point key.
pub fn range_at(at: PointKey) -> Option<ArgumentRange> {
    match at.value()? {
        0 => Some(ArgumentRange::Small),
        1 => Some(ArgumentRange::Large),
        _ => None,
    }
}

/// The element a series is keyed by.
fn element(kernel: ThroughputKernel) -> &'static str {
    use kernels_gpu::instruction_throughput::ChainElement;
    match kernel.element() {
        ChainElement::F32 => "f32",
        ChainElement::F64 => "f64",
        ChainElement::F16x2 => "f16x2",
        ChainElement::I32 => "i32",
        ChainElement::U32 => "u32",
    }
}

/// The argument ranges a kernel is measured at: large ones only where its
/// parameters change with them (the sines, cosines and exponentials).
pub fn measured_ranges(kernel: ThroughputKernel) -> Vec<ArgumentRange> {
    let mut ranges = vec![ArgumentRange::Small];
    if suggested_params(kernel, ArgumentRange::Small) != suggested_params(kernel, ArgumentRange::Large) {
        ranges.push(ArgumentRange::Large);
    }
    ranges
}

/// Operations per clock per SM from operations per second, the SM count and
/// the SM clock in kHz; `None` without a clock or SMs.
pub fn per_sm_per_clock(ops_per_second: f64, sms: i32, clock_khz: i64) -> Option<f64> {
    (sms > 0 && clock_khz > 0).then(|| ops_per_second / sms as f64 / (clock_khz as f64 * 1e3))
}

/// Instructions each measured operation issues to the pipe whose rate is
/// published: 2 where its companion runs on the same pipe (the shift's and
/// the mask's `add.s32` on the integer pipe, the literal multiply's second
/// `mul.f32`), else 1 (the SFU kernels' `add.f32` runs on the FMA pipe).
pub fn pipe_instructions_per_operation(kernel: ThroughputKernel) -> f64 {
    match kernel {
        ThroughputKernel::U32Shift | ThroughputKernel::U32Mask | ThroughputKernel::F32LiteralMul => 2.0,
        _ => 1.0,
    }
}

/// The published rate of `kernel`'s operation for a GPU of
/// `compute_capability`: the CUDA C Programming Guide's cc 9.0 instruction
/// rate, on cc 9.0 GPUs only, divided by the instructions each operation
/// issues to that pipe ([`pipe_instructions_per_operation`]).
pub fn published_rate(kernel: ThroughputKernel, compute_capability: (i32, i32)) -> Option<f64> {
    (compute_capability == (9, 0))
        .then(|| hopper_peak_per_sm_per_clock(kernel))
        .flatten()
        .map(|rate| rate / pipe_instructions_per_operation(kernel))
}

/// A throughput point from per-launch times: Gop/s per sample, the time,
/// and the per-SM figures beside the published ones.
pub fn throughput_point(
    at: PointKey,
    kernel: ThroughputKernel,
    (operations, times_ms): (u64, &[f64]),
    (sms, clock_khz, compute_capability): (i32, i64, (i32, i32)),
    failure: Option<String>,
) -> Option<Point> {
    let gops: Vec<f64> = times_ms.iter().map(|ms| operations as f64 / (ms * 1e6)).collect();
    let mut point = Point::measured(at, &gops, Work::default(), failure)?;
    point.elements = operations;
    point.time_ms = Summary::of(times_ms);
    if let Some(median) = point.median() {
        if let Some(rate) = per_sm_per_clock(median * 1e9, sms, clock_khz) {
            point.set_extra(PER_SM_PER_CLOCK, rate);
            if let Some(published) = published_rate(kernel, compute_capability) {
                point.set_extra(PUBLISHED_CC90, published);
                point.set_extra(PERCENT_OF_PUBLISHED, 100.0 * rate / published);
            }
        }
        if let Some(then) = cc1_per_sm_per_clock(kernel) {
            point.set_extra(PUBLISHED_CC1, then / pipe_instructions_per_operation(kernel));
        }
    }
    Some(point)
}

/// How many of `promoted` differ from `literal`, in percent, and by at most how many ulp.
pub fn promotion_difference(literal: &[f32], promoted: &[f32]) -> (f64, f64) {
    let mut differing = 0usize;
    let mut max_ulp = 0f64;
    for (&l, &p) in literal.iter().zip(promoted) {
        if l.to_bits() != p.to_bits() {
            differing += 1;
            max_ulp = max_ulp.max((p as f64 - l as f64).abs() / f32_ulp_at(l as f64));
        }
    }
    let percent = 100.0 * differing as f64 / literal.len().max(1) as f64;
    (percent, max_ulp)
}

impl Experiment for Instructions {
    fn name(&self) -> &'static str {
        "instructions"
    }
    fn title(&self) -> &'static str {
        "Instruction throughput: arithmetic, integer division, fast and accurate math"
    }
    fn source(&self) -> &'static str {
        "OpenCL Programming Guide 2.3, §3.1.1.1 and §3.1.1.4; CUDA C Best Practices Guide 4.0, §5.1.1–5.1.4 and §7.2.3"
    }
    fn points(&self) -> u64 {
        ThroughputKernel::ALL.len() as u64
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let axis = Axis::lines(
            "arguments (0 = small, 1 = large)",
            Metric::custom("throughput", "Gop/s", true),
        )
        .plot(PlotKind::None);
        let mut result = ctx.result(self, axis, COUNTING);
        let (runners, waived) = throughput_runners(ctx.device)?;
        result.waive(waived);
        let implementations: Vec<Implementation> = runners.iter().map(|r| r.implementation()).collect();
        let info = ctx.device.info();
        let sass = sass_for(&mut result, &implementations, info.architecture());
        let waves = plan_waves(&runners)?;
        let sms = info.multiprocessors.max(1) as u32;
        let most_blocks = waves.iter().map(|w| w.blocks).max().unwrap_or(sms);
        let mut bench = ThroughputBench::new(runners, most_blocks)?;
        let kernels = ThroughputKernel::ALL;
        each_point(ctx, kernels, (0, kernels.len()), |kernel| {
            for wave in waves.iter().filter(|w| w.kernel == kernel) {
                ctx.progress
                    .set_message(format!("{} · {}", kernel.entry(), wave.implementation.label()));
                let series = bench.measure_series(ctx, &mut result, wave, &sass)?;
                result.series.push(series);
                // The f32 FMA at 1, 2, 4, ... resident blocks per SM: where the configuration reaches the peak.
                if kernel == ThroughputKernel::F32Fma && wave.implementation == Implementation::Rust {
                    let hardware = hardware_of(ctx);
                    let rust = bench.runners[wave.runner].as_mut();
                    let occupancy = occupancy_series(ctx, rust, wave.blocks, hardware)?;
                    result.series.push(occupancy);
                }
            }
            Ok(())
        })?;
        describe(ctx, &mut result, most_blocks);
        Ok(result)
    }
}

/// The device's (SMs, SM clock in kHz, compute capability), for the per-SM figures.
fn hardware_of(ctx: &RunContext<'_>) -> (i32, i64, (i32, i32)) {
    let info = ctx.device.info();
    (info.multiprocessors, info.sm_clock_khz, info.compute_capability)
}

/// One kernel by one implementation (its runner's index), launched as a full wave of `blocks`.
struct Wave {
    kernel: ThroughputKernel,
    implementation: Implementation,
    runner: usize,
    blocks: u32,
}

/// Every kernel by every runner's implementation, with its full wave.
fn plan_waves(runners: &[Box<dyn ThroughputRunner + '_>]) -> Result<Vec<Wave>> {
    let mut waves = Vec::new();
    for kernel in ThroughputKernel::ALL {
        for (index, runner) in runners.iter().enumerate() {
            waves.push(Wave {
                kernel,
                implementation: runner.implementation(),
                runner: index,
                blocks: runner.wave_blocks(kernel)?,
            });
        }
    }
    Ok(waves)
}

/// The runners, each with outputs for the largest wave, and the literal f32
/// kernel's values by implementation (§7.2.3's comparison with the promoted kernel).
struct ThroughputBench<'g> {
    runners: Vec<Box<dyn ThroughputRunner + 'g>>,
    literal_values: Vec<(Implementation, Vec<f32>)>,
}

impl<'g> ThroughputBench<'g> {
    fn new(mut runners: Vec<Box<dyn ThroughputRunner + 'g>>, most_blocks: u32) -> Result<Self> {
        for runner in &mut runners {
            runner.allocate(most_blocks * THROUGHPUT_BLOCK_THREADS)?;
        }
        Ok(Self {
            runners,
            literal_values: Vec::new(),
        })
    }

    /// The series of one wave, a point per argument range; its SASS loop noted in `result`.
    fn measure_series(
        &mut self,
        ctx: &RunContext<'_>,
        result: &mut ExperimentResult,
        wave: &Wave,
        sass: &[ImplementationSass],
    ) -> Result<Series> {
        let (kernel, implementation) = (wave.kernel, wave.implementation);
        let mut series = Series::of(ctx.key(kernel.entry(), implementation, element(kernel)));
        series.label = format!("{} · {}", kernel.operation(), implementation.label());
        let kernel_sass = sass
            .iter()
            .find(|s| s.implementation == implementation)
            .and_then(|s| s.function(kernel.entry()));
        let kernel_sass = match kernel_sass {
            Some(function) => {
                let found = throughput_sass::throughput_sass(function, kernel);
                result.notes.push(match &found {
                    Some(s) => throughput_sass::note(
                        kernel.entry(),
                        implementation.label(),
                        s,
                        ctx.device.info().architecture(),
                    ),
                    None => format!(
                        "{} · {}: no SASS loop with its operation and a recognizable counter",
                        kernel.entry(),
                        implementation.label()
                    ),
                });
                found
            }
            None => None,
        };
        for range in measured_ranges(kernel) {
            if let Some(point) = self.measure_range(ctx, result, wave, range, kernel_sass.as_ref())? {
                series.points.push(point);
            }
        }
        Ok(series)
    }

    /// One point: the rounds calibrated, the launches timed, the first
    /// threads' chains checked; the SASS figures, §7.2.3's comparison and the
    /// counters (--counters) beside it.
    fn measure_range(
        &mut self,
        ctx: &RunContext<'_>,
        result: &mut ExperimentResult,
        wave: &Wave,
        range: ArgumentRange,
        kernel_sass: Option<&ThroughputSass>,
    ) -> Result<Option<Point>> {
        let info = ctx.device.info();
        let Wave {
            kernel,
            implementation,
            runner,
            blocks,
        } = *wave;
        let sms = info.multiprocessors.max(1) as u32;
        let params = suggested_params(kernel, range);
        let launch = |iterations| ChainLaunch {
            kernel,
            params,
            iterations,
            blocks,
        };
        let runner = self.runners[runner].as_mut();
        let iterations = calibrate_by_probe(TARGET_LAUNCH_MS, MAX_ITERATIONS, &mut |n| runner.probe_ms(launch(n)))?;
        let times = runner.time(launch(iterations), &rate_settings(ctx.settings))?;
        let got = runner.read_first_threads(kernel, blocks, CHECKED_THREADS)?;
        let failure = chain_mismatch(kernel, range, params, &got, CHECKED_THREADS, iterations);
        let operations = blocks as u64 * THROUGHPUT_BLOCK_THREADS as u64 * THROUGHPUT_CHAINS as u64 * iterations as u64;
        let Some(mut point) = throughput_point(
            range_key(range),
            kernel,
            (operations, &times),
            hardware_of(ctx),
            failure,
        ) else {
            return Ok(None);
        };
        point.set_extra(ITERATIONS, iterations as f64);
        point.set_extra(WARPS_PER_SM, (blocks / sms * THROUGHPUT_BLOCK_THREADS / 32) as f64);
        if let Some(s) = kernel_sass {
            let rate = point.extra.get(PER_SM_PER_CLOCK).copied();
            throughput_sass::record(&mut point, s, rate, info.architecture());
        }
        if matches!(
            kernel,
            ThroughputKernel::F32LiteralMul | ThroughputKernel::F64PromotedMul
        ) {
            self.compare_promotion(wave, range, &mut point)?;
        }
        let runner = self.runners[wave.runner].as_mut();
        let counted = count_point(ctx, result, implementation, &mut point, &mut || {
            runner.launch(launch(iterations))
        })?;
        if let Some(per) = counted.and_then(|c| c.thread_instructions_per(operations as f64)) {
            point.set_extra(SASS_PER_ELEMENT, per);
        }
        Ok(Some(point))
    }

    /// §7.2.3: the promoted kernel's results beside the literal one's, after one round each.
    fn compare_promotion(&mut self, wave: &Wave, range: ArgumentRange, point: &mut Point) -> Result<()> {
        let Wave {
            kernel,
            implementation,
            runner,
            blocks,
        } = *wave;
        let params = suggested_params(kernel, range);
        let runner = self.runners[runner].as_mut();
        runner.launch(ChainLaunch {
            kernel,
            params,
            iterations: 1,
            blocks,
        })?;
        let values = runner.read_all_f32(blocks)?;
        let first = runner.read_first_threads(kernel, blocks, CHECKED_THREADS)?;
        if let Some(why) = chain_mismatch(kernel, range, params, &first, CHECKED_THREADS, 1) {
            *point = Point::unmeasured(point.at, crate::report::Status::Failed(why));
        }
        if kernel == ThroughputKernel::F32LiteralMul {
            self.literal_values.push((implementation, values));
        } else if let Some((_, literal)) = self
            .literal_values
            .iter()
            .find(|l| l.0 == implementation && l.1.len() == values.len())
        {
            let (percent, ulp) = promotion_difference(literal, &values);
            point.set_extra(DIFFERING_PERCENT, percent);
            point.set_extra(MAX_DIFFERENCE_ULP, ulp);
        }
        Ok(())
    }
}

/// The setup: the waves, the rounds, the check, the clock of the per-clock figures.
fn describe(ctx: &RunContext<'_>, result: &mut ExperimentResult, most_blocks: u32) {
    let info = ctx.device.info();
    let sms = info.multiprocessors.max(1) as u32;
    let per_sm = most_blocks / sms;
    result.setup.push(format!(
        "{THROUGHPUT_CHAINS} independent chains per thread, {THROUGHPUT_BLOCK_THREADS} threads per block, one \
         full wave per launch (up to {per_sm} blocks = {} warps per SM on {sms} SMs), rounds calibrated to about \
         {TARGET_LAUNCH_MS} ms per launch; each point's first {CHECKED_THREADS} threads' chains checked against \
         the CPU reference (bit for bit for IEEE and integer operations)",
        per_sm * THROUGHPUT_BLOCK_THREADS / 32
    ));
    result.setup.push(format!(
        "per-clock figures at the SM clock the device reports as its maximum, {} MHz",
        info.sm_clock_khz / 1000
    ));
}

/// The f32 FMA (Rust) at 1, 2, 4, … blocks per SM up to a full wave of
/// `wave` blocks, with the full wave's rounds: points keyed by warps per SM.
fn occupancy_series(
    ctx: &RunContext<'_>,
    runner: &mut dyn ThroughputRunner,
    wave: u32,
    hardware: (i32, i64, (i32, i32)),
) -> Result<Series> {
    let kernel = ThroughputKernel::F32Fma;
    let sms = ctx.device.info().multiprocessors.max(1) as u32;
    let params = suggested_params(kernel, ArgumentRange::Small);
    let full = wave / sms;
    let launch = |iterations, blocks| ChainLaunch {
        kernel,
        params,
        iterations,
        blocks,
    };
    let iterations = calibrate_by_probe(TARGET_LAUNCH_MS, MAX_ITERATIONS, &mut |n| {
        runner.probe_ms(launch(n, wave))
    })?;
    let mut series = Series::new(
        ctx.key(kernel.entry(), Implementation::Rust, "f32").variant(OCCUPANCY),
        "f32 FMA · Rust, by warps per SM",
    );
    let mut per_sm = 1;
    while per_sm <= full.max(1) {
        let blocks = per_sm * sms;
        let times = runner.time(launch(iterations, blocks), ctx.settings)?;
        let got = runner.read_first_threads(kernel, blocks, CHECKED_THREADS)?;
        let failure = chain_mismatch(kernel, ArgumentRange::Small, params, &got, CHECKED_THREADS, iterations);
        let operations = blocks as u64 * THROUGHPUT_BLOCK_THREADS as u64 * THROUGHPUT_CHAINS as u64 * iterations as u64;
        let warps = per_sm * THROUGHPUT_BLOCK_THREADS / 32;
        series.points.extend(throughput_point(
            PointKey::Value(warps as i64),
            kernel,
            (operations, &times),
            hardware,
            failure,
        ));
        if per_sm == full {
            break;
        }
        per_sm = (per_sm * 2).min(full);
    }
    Ok(series)
}

/// The SM clock NVML measured during `result`'s run (MHz), if the report has telemetry.
fn measured_clock(result: &ExperimentResult, report: &Report) -> Option<Summary> {
    report
        .telemetry
        .as_ref()?
        .device(CudaOrdinal(result.device?))?
        .during(&result.name)?
        .sm_clock_mhz
}

/// The clock the device reports as its maximum (MHz).
fn reported_clock(result: &ExperimentResult, report: &Report) -> Option<f64> {
    let khz = report.device(result.device?)?.sm_clock_khz;
    (khz > 0).then(|| khz as f64 / 1e3)
}

/// What the per-clock figures use, and what NVML measured.
pub fn clock_statement(result: &ExperimentResult, report: &Report) -> String {
    let reported = reported_clock(result, report);
    let used = match reported {
        Some(mhz) => format!("The op/clk/SM figures use the SM clock the device reports as its maximum, {mhz:.0} MHz."),
        None => "The device reported no SM clock, so no per-clock figure is given.".into(),
    };
    let measured = match (measured_clock(result, report), reported) {
        (Some(clock), Some(mhz)) => format!(
            " NVML measured the SM clock at {:.0}–{:.0} MHz (median {:.0}) during this experiment; at that median the \
             per-clock figures would be {:.3}x those shown.",
            clock.min,
            clock.max,
            clock.median,
            mhz / clock.median
        ),
        (Some(clock), None) => format!(
            " NVML measured the SM clock at {:.0}–{:.0} MHz (median {:.0}) during this experiment.",
            clock.min, clock.max, clock.median
        ),
        (None, _) => {
            " No NVML telemetry was recorded for this experiment, so the clock during the run is not known.".into()
        }
    };
    format!("{used}{measured}")
}

/// The median Gop/s of `kernel` by `implementation` at `range`.
fn rate(
    result: &ExperimentResult,
    kernel: ThroughputKernel,
    implementation: Implementation,
    range: ArgumentRange,
) -> Option<f64> {
    rate_point(result, kernel, implementation, range)?.median()
}

/// The point of `kernel` by `implementation` at `range` (the plain series, not a variant).
pub fn rate_point(
    result: &ExperimentResult,
    kernel: ThroughputKernel,
    implementation: Implementation,
    range: ArgumentRange,
) -> Option<&Point> {
    result
        .series
        .iter()
        .find(|s| s.key.kernel == kernel.entry() && s.key.implementation == implementation && s.key.variant.is_empty())?
        .point(range_key(range))
}

/// How many times `fast`'s throughput `slow`'s is, with its spread.
fn rate_spread(
    result: &ExperimentResult,
    implementation: Implementation,
    (fast, fast_range): (ThroughputKernel, ArgumentRange),
    (slow, slow_range): (ThroughputKernel, ArgumentRange),
) -> Option<Spread> {
    better_by(
        &result.axis.metric,
        rate_point(result, fast, implementation, fast_range)?,
        rate_point(result, slow, implementation, slow_range)?,
    )
}

/// The one of two spreads with the smaller median (the weaker effect, which a claim about both must survive).
fn smaller(a: Spread, b: Spread) -> Spread {
    if a.median <= b.median { a } else { b }
}

/// `rate(fast) / rate(slow)` at `range` (how many times the first's throughput the second's is).
fn rate_ratio(
    result: &ExperimentResult,
    implementation: Implementation,
    (fast, fast_range): (ThroughputKernel, ArgumentRange),
    (slow, slow_range): (ThroughputKernel, ArgumentRange),
) -> Option<f64> {
    Some(rate(result, fast, implementation, fast_range)? / rate(result, slow, implementation, slow_range)?)
}

/// ", CUDA C: 3.1x" where the twin ran.
fn twin_ratio(
    result: &ExperimentResult,
    what: &str,
    fast: (ThroughputKernel, ArgumentRange),
    slow: (ThroughputKernel, ArgumentRange),
) -> String {
    rate_ratio(result, Implementation::CudaC, fast, slow)
        .map(|r| format!("; CUDA C twin{what}: {r:.2}x"))
        .unwrap_or_default()
}

const SMALL: ArgumentRange = ArgumentRange::Small;
const LARGE: ArgumentRange = ArgumentRange::Large;

/// The claims the experiment grades.
fn claims() -> Vec<Claim> {
    vec![
        Claim {
            id: "bpg-5.1.1-integer-division",
            source: "Best Practices Guide §5.1.1; OpenCL Programming Guide §3.1.1.1",
            claim: "Integer division and modulo by a run-time divisor are particularly costly; for a power of two, a \
                    shift and a mask do the same far faster"
                .into(),
            rule: Rule::Direction,
            reads: "u32_shift over u32_div and u32_mask over u32_rem · Rust, Gop/s at small arguments; the smaller \
                    ratio graded"
                .into(),
            experiment: "instructions",
        },
        Claim {
            id: "bpg-5.1.4-fast-math",
            source: "Best Practices Guide §5.1.4; OpenCL Programming Guide §3.1.1.1",
            claim: "__sinf and __expf (the SFU approximations) have much greater throughput than sinf and expf, at \
                    somewhat lower accuracy"
                .into(),
            rule: Rule::Direction,
            reads: "sin_approx over sin and exp_fast over exp (the device layer's sinf and expf) · Rust, Gop/s at \
                    small arguments; the smaller ratio graded"
                .into(),
            experiment: "instructions",
        },
        Claim {
            id: "bpg-5.1.4-argument-reduction",
            source: "Best Practices Guide §5.1.4; OpenCL Programming Guide §3.1.1.1",
            claim: "sinf becomes about an order of magnitude slower when its argument needs the slow (large-argument) \
                    reduction"
                .into(),
            rule: Rule::Factor { claimed: 10.0 },
            reads: "sin · Rust: Gop/s at small arguments over Gop/s at large ones".into(),
            experiment: "instructions",
        },
        Claim {
            id: "bpg-5.1.3-double-constant",
            source: "Best Practices Guide §5.1.3 and §7.2.3",
            claim: "A double-precision constant (1.02 without f) silently promotes single-precision arithmetic to \
                    double: extra conversions that cost time, and different results. In Rust it cannot be silent: \
                    the literal takes f32 from context and f32 × f64 does not compile, so the cost is measured with \
                    the promotion written out"
                .into(),
            rule: Rule::Direction,
            reads: "f32_literal_mul over f64_promoted_mul · Rust, Gop/s (rounds per second) at small arguments; where \
                    the SASS is known it must show the conversions (F2F) in the promoted loop, or the claim is gone"
                .into(),
            experiment: "instructions",
        },
        Claim {
            id: "bpg-5.1.2-rsqrt",
            source: "Best Practices Guide §5.1.2",
            claim: "Call rsqrtf() explicitly: the compiler turns 1.0f/sqrtf(x) into the reciprocal square root \
                    only where IEEE-754 semantics allow, so written out it stays the slower pair of IEEE operations"
                .into(),
            rule: Rule::Direction,
            reads: "rsqrt_approx over recip_sqrt_rn · Rust, Gop/s at small arguments".into(),
            experiment: "instructions",
        },
        Claim {
            id: "bpg-5.1.3-short-integers",
            source: "Best Practices Guide §5.1.3; OpenCL Programming Guide §3.1.1.1",
            claim: "Arithmetic on char or short needs its operands converted to int: extra instructions that cost \
                    time"
                .into(),
            rule: Rule::Direction,
            reads: "i32_mad over i16_mad and over i8_mad · Rust, Gop/s at small arguments; the smaller ratio graded"
                .into(),
            experiment: "instructions",
        },
        Claim {
            id: "ocl-3.1.1.1-mul24",
            source: "OpenCL Programming Guide §3.1.1.1",
            claim: "mul24 (8 per clock per SM on cc 1.x, against 2 for a 32-bit multiply) will be slower than 32-bit \
                    integer multiplication on future architectures"
                .into(),
            rule: Rule::Stated(MUL24_RULE),
            reads: "i32_mul over mul24 · Rust, Gop/s at small arguments, and both kernels' SASS instructions per \
                    multiply"
                .into(),
            experiment: "instructions",
        },
        Claim {
            id: "ocl-3.1.1.4-barrier",
            source: "OpenCL Programming Guide §3.1.1.4",
            claim: "A barrier where no thread has to wait costs little: the SM passes 8 threads through barrier() \
                    per clock (on cc 1.x as many as single-precision adds)"
                .into(),
            rule: Rule::AtLeast {
                holds_at: BARRIER_CC1_PER_SM_PER_CLOCK,
                weaker_at: BARRIER_CC1_PER_SM_PER_CLOCK / 2.0,
                unit: "op/clk/SM",
            },
            reads: "bar_sync · Rust, op/clk/SM (threads passing a barrier per clock per SM, a full wave of 256-thread \
                    blocks), its spread that of the Gop/s samples"
                .into(),
            experiment: "instructions",
        },
    ]
}

/// The OpenCL guide's barrier throughput on cc 1.x (§3.1.1.4), threads per clock per SM.
pub const BARRIER_CC1_PER_SM_PER_CLOCK: f64 = 8.0;

/// The SASS instructions per operation `kernel`'s small-argument point by `implementation` stores.
fn sass_per_operation(
    result: &ExperimentResult,
    kernel: ThroughputKernel,
    implementation: Implementation,
) -> Option<PerOperation> {
    stored_per_operation(rate_point(result, kernel, implementation, SMALL)?)
}

/// The SASS table: each kernel's steady loop per counted operation beside its rates.
fn sass_table(result: &ExperimentResult) -> Option<String> {
    let mut rows = String::new();
    for series in result.series.iter().filter(|s| s.key.variant.is_empty()) {
        let Some(kernel) = ThroughputKernel::ALL
            .into_iter()
            .find(|k| k.entry() == series.key.kernel)
        else {
            continue;
        };
        let Some(point) = series.point(range_key(SMALL)) else {
            continue;
        };
        let Some(per_op) = stored_per_operation(point) else {
            continue;
        };
        let extra = |name: &str| point.extra.get(name).copied();
        let _ = writeln!(
            rows,
            "| {} | {} | {:.0} | {:.2} | {} | {} | {} | {} |",
            kernel.operation(),
            series.key.implementation.label(),
            per_op.operations_per_pass,
            per_op.total,
            throughput_sass::class_text(&per_op),
            cell(extra(PER_SM_PER_CLOCK)),
            cell(extra(SASS_PER_CLOCK)),
            cell(extra(SASS_CEILING)),
        );
    }
    (!rows.is_empty()).then(|| {
        format!(
            "\n**What the GPU runs (SASS).** Each kernel's steady loop, assembled for this GPU (see the setup): the \
             counted operations one pass performs, its SASS instructions per operation in all and by class, and the \
             ceiling those instructions put on the rate (the tightest of the issue slots and the pipes' rates; cc \
             9.0 only); the SASS rate and the ceiling only for loops without branches, whose every instruction runs \
             on every pass; the opcodes are listed in the notes.\n\n| operation | implementation | operations per pass \
             | SASS instructions per operation | by class, per operation | op/clk/SM | SASS inst/clk/SM | ceiling \
             from the SASS, op/clk/SM |\n|---|---|---:|---:|---|---:|---:|---:|\n{rows}"
        )
    })
}

/// Why a rate above its published figure is possible: the SASS of each such kernel (Rust).
fn above_published_paragraph(result: &ExperimentResult, report: &Report) -> Option<String> {
    let (major, minor) = report.device(result.device?)?.compute_capability;
    let cc = (major.max(0) as u32, minor.max(0) as u32);
    let explained: Vec<String> = result
        .series
        .iter()
        .filter(|s| s.key.variant.is_empty() && s.key.implementation == Implementation::Rust)
        .filter_map(|series| {
            let kernel = ThroughputKernel::ALL
                .into_iter()
                .find(|k| k.entry() == series.key.kernel)?;
            let point = series.point(range_key(SMALL))?;
            let percent = *point.extra.get(PERCENT_OF_PUBLISHED)?;
            if percent <= 100.0 {
                return None;
            }
            let per_op = stored_per_operation(point)?;
            let ceiling = throughput_sass::stored_ceiling(point, cc)
                .map(|c| {
                    format!(
                        "; so at most {:.1} op/clk/SM, set by the {}: {:.2} of its instructions per operation at {:.0} \
                         per clock",
                        c.operations_per_clock_per_sm, c.limit, c.instructions_per_operation, c.limit_per_clock_per_sm
                    )
                })
                .unwrap_or_default();
            Some(format!(
                "{}: {:.1} op/clk/SM, {percent:.0}% of the published {:.0}; its loop issues {:.2} SASS instructions \
                 per operation ({}){ceiling}",
                kernel.operation(),
                point.extra.get(PER_SM_PER_CLOCK)?,
                point.extra.get(PUBLISHED_CC90)?,
                per_op.total,
                throughput_sass::class_text(&per_op),
            ))
        })
        .collect();
    (!explained.is_empty()).then(|| {
        format!(
            "**Above the published rate.** The published rates are per instruction and pipe; where a kernel beats \
             its figure, the SASS shows what the GPU issues instead of the one instruction per operation the table \
             assumes: {}.",
            explained.join("; ")
        )
    })
}
/// BPG §5.1.1: division and modulo by a run-time divisor against the shift and mask.
fn integer_division_row(result: &ExperimentResult) -> Option<LedgerRow> {
    use ThroughputKernel::*;
    let rust = Implementation::Rust;
    let division = rate_spread(result, rust, (U32Shift, SMALL), (U32Div, SMALL))?;
    let modulo = rate_spread(result, rust, (U32Mask, SMALL), (U32Rem, SMALL))?;
    let gops = |k| rate(result, k, rust, SMALL).unwrap_or(f64::NAN);
    let sass = [(U32Div, "/"), (U32Rem, "%"), (U32Shift, ">>"), (U32Mask, "&")]
        .into_iter()
        .map(|(k, op)| Some(format!("{op} {:.1}", sass_per_operation(result, k, rust)?.total)))
        .collect::<Option<Vec<_>>>()
        .map(|ops| format!("; SASS instructions per operation: {}", ops.join(", ")))
        .unwrap_or_default();
    Some(claims()[0].grade(
        smaller(division, modulo),
        format!(
            "Rust, u32 by a run-time 16: / {:.0} Gop/s vs >> {:.0} Gop/s ({}x), % {:.0} Gop/s vs & {:.0} Gop/s \
             ({}x){}{sass}",
            gops(U32Div),
            gops(U32Shift),
            division.text(2),
            gops(U32Rem),
            gops(U32Mask),
            modulo.text(2),
            twin_ratio(result, " (/ vs >>)", (U32Shift, SMALL), (U32Div, SMALL)),
        ),
        result.device,
    ))
}

/// The max ulp error the accuracy experiment measured for a function at small arguments, as text.
fn accuracy_text(report: &Report, result: &ExperimentResult, function: &str) -> Option<String> {
    let accuracy = report
        .experiments
        .iter()
        .find(|e| e.name == "accuracy" && e.device == result.device)?;
    let series = accuracy
        .series
        .iter()
        .find(|s| s.key.kernel == function && s.key.implementation == Implementation::Rust)?;
    let ulp = series.point(range_key(SMALL))?.median()?;
    Some(format!("{function} {ulp:.2} ulp"))
}

/// BPG §5.1.4: the intrinsics against the accurate functions, small arguments.
fn fast_math_row(result: &ExperimentResult, report: &Report) -> Option<LedgerRow> {
    use ThroughputKernel::*;
    let rust = Implementation::Rust;
    let sine = rate_spread(result, rust, (SinApprox, SMALL), (Sin, SMALL))?;
    let exp = rate_spread(result, rust, (ExpFast, SMALL), (Exp, SMALL))?;
    let errors: Vec<String> = ["sin_approx", "sin", "exp_fast", "exp"]
        .into_iter()
        .filter_map(|f| accuracy_text(report, result, f))
        .collect();
    let errors = if errors.is_empty() {
        String::new()
    } else {
        format!("; max error on small arguments: {}", errors.join(", "))
    };
    Some(claims()[1].grade(
        smaller(sine, exp),
        format!(
            "Rust, small arguments: sin.approx {}x the sine, exp via ex2.approx {}x the exp (the device layer's \
             functions){}{}{errors}",
            sine.text(2),
            exp.text(2),
            twin_ratio(result, " (__sinf vs sinf)", (SinApprox, SMALL), (Sin, SMALL)),
            twin_ratio(result, " (__expf vs expf)", (ExpFast, SMALL), (Exp, SMALL)),
        ),
        result.device,
    ))
}

/// BPG §5.1.4: the accurate sine's slow argument reduction.
fn argument_reduction_row(result: &ExperimentResult) -> Option<LedgerRow> {
    use ThroughputKernel::*;
    let rust = Implementation::Rust;
    let slowdown = rate_spread(result, rust, (Sin, SMALL), (Sin, LARGE))?;
    let approx = rate_ratio(result, rust, (SinApprox, SMALL), (SinApprox, LARGE))
        .map(|r| format!("; sin.approx small / large {r:.2}x"))
        .unwrap_or_default();
    Some(claims()[2].grade(
        slowdown,
        format!(
            "Rust's sine at |x| ≤ 2 vs near 10^6 (Payne–Hanek): {}x slower{approx}{}",
            slowdown.text(2),
            twin_ratio(result, " (sinf)", (Sin, SMALL), (Sin, LARGE)),
        ),
        result.device,
    ))
}

/// BPG §5.1.3 / §7.2.3: a double-precision constant in single-precision code.
fn double_constant_row(result: &ExperimentResult) -> Option<LedgerRow> {
    use ThroughputKernel::*;
    let rust = Implementation::Rust;
    let cost = rate_spread(result, rust, (F32LiteralMul, SMALL), (F64PromotedMul, SMALL))?;
    let differing = result
        .series
        .iter()
        .find(|s| s.key.kernel == F64PromotedMul.entry() && s.key.implementation == rust)
        .and_then(|s| s.point(range_key(SMALL)))
        .and_then(|p| p.extra.get(DIFFERING_PERCENT))
        .map(|p| format!("; {p:.1}% of one round's results differ from the f32 constant's"))
        .unwrap_or_default();
    let promoted = sass_per_operation(result, F64PromotedMul, rust);
    let literal = sass_per_operation(result, F32LiteralMul, rust);
    let sass = match (&promoted, &literal) {
        (Some(p), Some(l)) => {
            let of = |per_op: &PerOperation| {
                format!(
                    "{:.2} conversions (F2F), {:.2} FP64, {:.2} FP32",
                    per_op.of_class(SassClass::Conversion),
                    per_op.of_class(SassClass::Fp64),
                    per_op.of_class(SassClass::Fp32Arithmetic)
                )
            };
            format!(
                "; SASS instructions per round of a chain: {} promoted against {} with the f32 constant",
                of(p),
                of(l)
            )
        }
        _ => "; no SASS (waived): graded on the time alone".into(),
    };
    let converts = promoted
        .as_ref()
        .is_none_or(|p| p.of_class(SassClass::Conversion) > 0.0);
    let mut row = claims()[3].grade(
        cost,
        format!(
            "Rust, ((v as f64 · 1.02) as f32) · a vs (v · 1.02f32) · a: {}x the time per round{}{differing}{sass}",
            cost.text(2),
            twin_ratio(
                result,
                " (C's silent v * 1.02)",
                (F32LiteralMul, SMALL),
                (F64PromotedMul, SMALL)
            ),
        ),
        result.device,
    );
    if !converts {
        // Where the SASS is known it must show the conversions, or the claim is gone.
        row.verdict = Verdict::Gone;
    }
    Some(row)
}

/// "; SASS instructions per operation: a 1.0, b 2.0" for `kernels` where their SASS is known.
fn sass_text(result: &ExperimentResult, kernels: &[(ThroughputKernel, &str)]) -> String {
    kernels
        .iter()
        .map(|&(k, name)| {
            Some(format!(
                "{name} {:.2}",
                sass_per_operation(result, k, Implementation::Rust)?.total
            ))
        })
        .collect::<Option<Vec<_>>>()
        .map(|ops| format!("; SASS instructions per operation: {}", ops.join(", ")))
        .unwrap_or_default()
}

/// A row whose figure is kernel `a`'s Gop/s over kernel `b`'s (Rust, small arguments): both rates,
/// the factor, the CUDA C twin's ratio (`twin` names its pair) and both kernels' SASS per operation.
/// Each pair is (kernel, what it computes, its SASS label).
fn rate_pair_row(
    result: &ExperimentResult,
    claim: usize,
    (a, a_text, a_sass): (ThroughputKernel, &str, &str),
    (b, b_text, b_sass): (ThroughputKernel, &str, &str),
    twin: &str,
) -> Option<LedgerRow> {
    let rust = Implementation::Rust;
    let factor = rate_spread(result, rust, (a, SMALL), (b, SMALL))?;
    let gops = |k| rate(result, k, rust, SMALL).unwrap_or(f64::NAN);
    Some(claims()[claim].grade(
        factor,
        format!(
            "Rust: {a_text} {:.0} Gop/s vs {b_text} {:.0} Gop/s; {}x{}{}",
            gops(a),
            gops(b),
            factor.text(2),
            twin_ratio(result, twin, (a, SMALL), (b, SMALL)),
            sass_text(result, &[(a, a_sass), (b, b_sass)]),
        ),
        result.device,
    ))
}

/// BPG §5.1.2: rsqrtf against 1.0f / sqrtf(x).
fn rsqrt_row(result: &ExperimentResult) -> Option<LedgerRow> {
    use ThroughputKernel::*;
    rate_pair_row(
        result,
        4,
        (RsqrtApprox, "rsqrt.approx", "rsqrt"),
        (RecipSqrtRn, "1/sqrt (sqrt.rn, rcp.rn)", "1/sqrt"),
        " (rsqrtf vs 1.0f / sqrtf)",
    )
}

/// BPG §5.1.3: short and char arithmetic against int.
fn short_integers_row(result: &ExperimentResult) -> Option<LedgerRow> {
    use ThroughputKernel::*;
    let rust = Implementation::Rust;
    let short = rate_spread(result, rust, (I32Mad, SMALL), (I16Mad, SMALL))?;
    let char = rate_spread(result, rust, (I32Mad, SMALL), (I8Mad, SMALL))?;
    let gops = |k| rate(result, k, rust, SMALL).unwrap_or(f64::NAN);
    Some(claims()[5].grade(
        smaller(short, char),
        format!(
            "Rust multiply-adds: i32 {:.0} Gop/s, i16 {:.0} Gop/s ({}x), i8 {:.0} Gop/s ({}x){}{}",
            gops(I32Mad),
            gops(I16Mad),
            short.text(2),
            gops(I8Mad),
            char.text(2),
            twin_ratio(result, " (int vs short)", (I32Mad, SMALL), (I16Mad, SMALL)),
            sass_text(result, &[(I32Mad, "i32"), (I16Mad, "i16"), (I8Mad, "i8")]),
        ),
        result.device,
    ))
}

/// How the mul24 row is graded: the claim is about instructions, so SASS settles it and the time
/// only has to agree in direction (a 5% gap sits on the direction rule's edge run after run).
const MUL24_RULE: &str = "SASS rule: where the SASS is known, holds when mul24 takes more SASS instructions per \
    multiply than the 32-bit multiply and is not faster (time factor at least 1); gone when it is faster by less \
    than 1.05x, reversed beyond; where mul24 takes no more instructions, or the SASS is unknown, the direction rule";

/// OpenCL guide §3.1.1.1: mul24 against the 32-bit multiply, graded by [`MUL24_RULE`].
fn mul24_row(result: &ExperimentResult) -> Option<LedgerRow> {
    use ThroughputKernel::*;
    let rust = Implementation::Rust;
    let factor = rate_spread(result, rust, (I32Mul, SMALL), (Mul24, SMALL))?;
    let more_instructions = match (
        sass_per_operation(result, Mul24, rust),
        sass_per_operation(result, I32Mul, rust),
    ) {
        (Some(mul24), Some(mul)) => mul24.total > mul.total,
        _ => false,
    };
    let gops = |k| rate(result, k, rust, SMALL).unwrap_or(f64::NAN);
    Some(claims()[6].grade_many(
        &[factor],
        |v| match v[0] {
            t if !more_instructions => Rule::Direction.verdict_at(t),
            t if t >= 1.0 => Verdict::Holds,
            t if t > 1.0 / GONE_BAND => Verdict::Gone,
            _ => Verdict::Reversed,
        },
        format!(
            "Rust: mul.lo.s32 {:.0} Gop/s vs mul24.lo.s32 {:.0} Gop/s; {}x{}{}",
            gops(I32Mul),
            gops(Mul24),
            factor.text(2),
            twin_ratio(result, " (x * y vs __mul24)", (I32Mul, SMALL), (Mul24, SMALL)),
            sass_text(result, &[(I32Mul, "mul"), (Mul24, "mul24")]),
        ),
        result.device,
    ))
}

/// OpenCL guide §3.1.1.4: threads through a barrier per clock per SM, against the guide's 8.
fn barrier_row(result: &ExperimentResult) -> Option<LedgerRow> {
    use ThroughputKernel::*;
    let rust = Implementation::Rust;
    let point = rate_point(result, BarSync, rust, SMALL).filter(|p| p.status.is_ok())?;
    let gops = point.value?;
    let per_clock = *point.extra.get(PER_SM_PER_CLOCK)?;
    // The op/clk/SM figure is the median Gop/s scaled by the SMs and the clock: scale its spread alike.
    let scale = per_clock / gops.median;
    let figure = Spread {
        low: gops.median_interval().0 * scale,
        median: per_clock,
        high: gops.median_interval().1 * scale,
    };
    let add = rate_point(result, F32Add, rust, SMALL)
        .and_then(|p| p.extra.get(PER_SM_PER_CLOCK))
        .map(|add| {
            format!(
                "; the f32 add {add:.1} op/clk/SM, so a barrier costs {:.1} adds' issue (1 on cc 1.x)",
                add / per_clock
            )
        })
        .unwrap_or_default();
    let twin = rate_point(result, BarSync, Implementation::CudaC, SMALL)
        .and_then(|p| p.extra.get(PER_SM_PER_CLOCK))
        .map(|r| format!("; CUDA C twin (__syncthreads) {r:.1} op/clk/SM"))
        .unwrap_or_default();
    Some(claims()[7].grade(
        figure,
        format!(
            "Rust, bar.sync with every warp of the block arriving together: {} op/clk/SM ({:.0} Gop/s) against the \
             guide's {BARRIER_CC1_PER_SM_PER_CLOCK} on cc 1.x; the CUDA C Programming Guide gives no cc 9.0 figure{add}{twin}{}",
            figure.text(1),
            gops.median,
            sass_text(result, &[(BarSync, "bar.sync")]),
        ),
        result.device,
    ))
}

/// `x` with 3 significant figures (or "—").
fn cell(x: Option<f64>) -> String {
    match x {
        Some(v) if v >= 100.0 => format!("{v:.0}"),
        Some(v) if v >= 1.0 => format!("{v:.1}"),
        Some(v) => format!("{v:.3}"),
        None => "—".into(),
    }
}

impl SectionHooks for Instructions {
    /// Each kernel's operations per clock per SM within what the issue rates of its SASS allow.
    fn bounds(&self, _result: &ExperimentResult, _series: &Series) -> Vec<Bound> {
        vec![Bound::stored(PER_SM_PER_CLOCK, SASS_CEILING)]
    }

    fn narrative(&self, result: &ExperimentResult, report: &Report) -> Vec<String> {
        let mut out = vec![format!("**Clocks.** {}", clock_statement(result, report))];
        out.extend(above_published_paragraph(result, report));
        if let Some(occupancy) = result.variant(ThroughputKernel::F32Fma.entry(), Implementation::Rust, OCCUPANCY) {
            let figures: Vec<String> = occupancy
                .points
                .iter()
                .filter_map(|p| Some(format!("{} warps: {:.1}", p.at, p.extra.get(PER_SM_PER_CLOCK)?)))
                .collect();
            if !figures.is_empty() {
                let full = result
                    .series_of(ThroughputKernel::F32Fma.entry(), Implementation::Rust)
                    .and_then(|s| s.point(range_key(SMALL)))
                    .and_then(|p| p.extra.get(PERCENT_OF_PUBLISHED))
                    .map(|p| format!(" The configuration of the table reaches {p:.0}% of the published 128."))
                    .unwrap_or_default();
                out.push(format!(
                    "**Configuration.** f32 FMA op/clk/SM by resident warps per SM (8 chains per thread): {}.{full}",
                    figures.join(", ")
                ));
            }
        }
        out.push(
            "**Then vs now.** On compute capability 1.x (the OpenCL guide) an SM issued 8 single-precision \
             operations per clock and the SFU 1–2 transcendental ones; the ratio column sets each operation \
             against the f32 FMA then and now. The guides' promotion hazard (§7.2.3: `a * 1.02` with `float a` \
             computes in double) cannot happen silently in Rust: an unsuffixed literal takes its type from the \
             other operand, and `f32 * f64` is a type error, so the promoted kernel has to spell the conversions out \
             (its CUDA C twin keeps C's silent form)."
                .into(),
        );
        out
    }

    fn tables(&self, result: &ExperimentResult, report: &Report) -> Option<String> {
        let mut out = String::new();
        let clock = measured_clock(result, report);
        let reported = reported_clock(result, report);
        let nvml_column = clock.is_some() && reported.is_some();
        let _ = write!(
            out,
            "| operation | arguments | implementation | Gop/s (min–max) | op/clk/SM at {} MHz |",
            reported.map_or("—".into(), |m| format!("{m:.0}"))
        );
        if let Some(c) = clock.filter(|_| nvml_column) {
            let _ = write!(out, " op/clk/SM at NVML's {:.0} MHz |", c.median);
        }
        let _ = writeln!(
            out,
            " published cc 9.0 | % of published | vs f32 FMA now | vs f32 FMA on cc 1.x (OpenCL guide) | rounds |"
        );
        let _ = writeln!(
            out,
            "|---|---|---|---:|---:|{}---:|---:|---:|---:|---:|",
            if nvml_column { "---:|" } else { "" }
        );
        for series in result.series.iter().filter(|s| s.key.variant.is_empty()) {
            let Some(kernel) = ThroughputKernel::ALL
                .into_iter()
                .find(|k| k.entry() == series.key.kernel)
            else {
                continue;
            };
            for point in &series.points {
                let Some(range) = range_at(point.at) else { continue };
                let extra = |name: &str| point.extra.get(name).copied();
                let fma = rate(result, ThroughputKernel::F32Fma, series.key.implementation, SMALL);
                let now = point.median().zip(fma).map(|(r, f)| r / f);
                let then = extra(PUBLISHED_CC1).map(|r| r / 8.0);
                let value = match (&point.status, point.value) {
                    (_, Some(v)) => crate::report::summary_cell(&v),
                    (status, None) => status.label().to_string(),
                };
                let _ = write!(
                    out,
                    "| {} | {} | {} | {value} | {} |",
                    kernel.operation(),
                    range.label(),
                    series.key.implementation.label(),
                    cell(extra(PER_SM_PER_CLOCK)),
                );
                if let (Some(c), Some(m)) = (clock.filter(|_| nvml_column), reported) {
                    let _ = write!(out, " {} |", cell(extra(PER_SM_PER_CLOCK).map(|r| r * m / c.median)));
                }
                let _ = writeln!(
                    out,
                    " {} | {} | {} | {} | {} |",
                    cell(extra(PUBLISHED_CC90)),
                    cell(extra(PERCENT_OF_PUBLISHED)),
                    cell(now),
                    cell(then),
                    cell(extra(ITERATIONS)),
                );
            }
        }
        instruction_counters::table(result, &mut out);
        let promoted = result
            .series
            .iter()
            .filter(|s| s.key.kernel == ThroughputKernel::F64PromotedMul.entry())
            .filter_map(|s| {
                let p = s.point(range_key(SMALL))?;
                Some(format!(
                    "{}: {:.1}% of the values differ, by up to {:.1} ulp",
                    s.key.implementation.label(),
                    p.extra.get(DIFFERING_PERCENT)?,
                    p.extra.get(MAX_DIFFERENCE_ULP)?
                ))
            })
            .collect::<Vec<_>>();
        if !promoted.is_empty() {
            let _ = writeln!(
                out,
                "\n**§7.2.3, one round of the promoted multiply against the f32 constant's** (every chain of the \
                 full wave): {}.",
                promoted.join("; ")
            );
        }
        if let Some(table) = sass_table(result) {
            out.push_str(&table);
        }
        let _ = writeln!(
            out,
            "\nPublished rates: the CUDA C Programming Guide's cc 9.0 table (shown on cc 9.0 GPUs only), per \
             operation: halved for the shift, the mask and the f32-constant multiply, on the assumption that their \
             add or second multiply runs on the same pipe (the SASS table shows where ptxas issues it elsewhere); \
             the OpenCL guide's cc 1.x figures are relative to its 8 f32 operations per \
             clock. Division, modulo, the IEEE reciprocal and division and the accurate functions are instruction \
             sequences with no one published rate."
        );
        Some(out)
    }

    fn claims(&self) -> Vec<Claim> {
        claims()
    }

    fn ledger(&self, result: &ExperimentResult, report: &Report) -> Vec<LedgerRow> {
        [
            integer_division_row(result),
            fast_math_row(result, report),
            argument_reduction_row(result),
            double_constant_row(result),
            rsqrt_row(result),
            short_integers_row(result),
            mul24_row(result),
            barrier_row(result),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use kernels_gpu::instruction_throughput::ThroughputKernel;

    use super::{
        DIFFERING_PERCENT, PER_SM_PER_CLOCK, measured_ranges, per_sm_per_clock, promotion_difference, published_rate,
    };
    use crate::experiments::execution_fixtures::{rendered, report, result, series};
    use crate::reference::ArgumentRange;
    use crate::report::{ExperimentResult, Metric, SectionHooks, Series, Verdict};
    use crate::testbed::Implementation;

    /// A Rust series of `kernel` with Gop/s `small` (and `large`, if given).
    fn rates(kernel: ThroughputKernel, small: f64, large: Option<f64>) -> Series {
        let mut points = vec![(0, small)];
        points.extend(large.map(|l| (1, l)));
        series(kernel.entry(), Implementation::Rust, ("f32", ""), &points, &[])
    }

    fn instructions(series: Vec<Series>) -> ExperimentResult {
        result("instructions", Metric::custom("throughput", "Gop/s", true), series)
    }

    fn verdict(result: &ExperimentResult, id: &str) -> Option<Verdict> {
        let report = report(vec![result.clone()]);
        super::Instructions
            .ledger(result, &report)
            .into_iter()
            .find(|r| r.id == id)
            .map(|r| r.verdict)
    }

    #[test]
    fn per_clock_figures_and_published_rates() {
        // 33.8 Top/s on 132 SMs at 2 GHz is 128 per clock per SM.
        let rate = per_sm_per_clock(128.0 * 132.0 * 2e9, 132, 2_000_000).unwrap();
        assert!((rate - 128.0).abs() < 1e-9);
        assert_eq!(per_sm_per_clock(1e12, 132, 0), None);
        assert_eq!(published_rate(ThroughputKernel::F32Fma, (9, 0)), Some(128.0));
        assert_eq!(
            published_rate(ThroughputKernel::F32Fma, (8, 0)),
            None,
            "the table is Hopper's"
        );
        assert_eq!(published_rate(ThroughputKernel::U32Div, (9, 0)), None);
        // A shift and its add share the integer pipe's 64: 32 operations per clock.
        assert_eq!(published_rate(ThroughputKernel::U32Shift, (9, 0)), Some(32.0));
        assert_eq!(published_rate(ThroughputKernel::F32LiteralMul, (9, 0)), Some(64.0));
        assert_eq!(published_rate(ThroughputKernel::SinApprox, (9, 0)), Some(16.0));
    }

    #[test]
    fn large_arguments_only_where_the_parameters_change() {
        assert_eq!(measured_ranges(ThroughputKernel::F32Add), [ArgumentRange::Small]);
        assert_eq!(
            measured_ranges(ThroughputKernel::Sin),
            [ArgumentRange::Small, ArgumentRange::Large]
        );
        assert_eq!(measured_ranges(ThroughputKernel::RcpApprox).len(), 1);
    }

    #[test]
    fn promotion_differences_are_counted_in_ulp() {
        let literal = [1.0f32, 2.0, 3.0, 4.0];
        let mut promoted = literal;
        promoted[1] = f32::from_bits(2.0f32.to_bits() + 1);
        promoted[3] = f32::from_bits(4.0f32.to_bits() - 2);
        let (percent, ulp) = promotion_difference(&literal, &promoted);
        assert_eq!(percent, 50.0);
        assert!(
            (ulp - 1.0).abs() < 1e-9,
            "{ulp}: 2 ulp of the binade below 4 are 1 ulp of 4"
        );
        promoted[3] = f32::from_bits(4.0f32.to_bits() + 3);
        assert!((promotion_difference(&literal, &promoted).1 - 3.0).abs() < 1e-9);
        assert_eq!(promotion_difference(&literal, &literal), (0.0, 0.0));
    }

    #[test]
    fn integer_division_is_graded_on_the_smaller_ratio() {
        use ThroughputKernel::*;
        let id = "bpg-5.1.1-integer-division";
        let of = |div: f64, rem: f64| {
            instructions(vec![
                rates(U32Div, div, None),
                rates(U32Rem, rem, None),
                rates(U32Shift, 60.0, None),
                rates(U32Mask, 60.0, None),
            ])
        };
        assert_eq!(verdict(&of(10.0, 12.0), id), Some(Verdict::Holds), "6x and 5x");
        assert_eq!(
            verdict(&of(10.0, 40.0), id),
            Some(Verdict::Holds),
            "6x and 1.5x: no figure in the text, the direction holds"
        );
        assert_eq!(
            verdict(&of(10.0, 58.0), id),
            Some(Verdict::Gone),
            "6x and 1.03x: the smaller is graded"
        );
        assert_eq!(verdict(&of(60.0, 59.0), id), Some(Verdict::Gone));
        assert_eq!(verdict(&of(70.0, 80.0), id), Some(Verdict::Reversed));
        assert_eq!(
            verdict(&instructions(vec![rates(U32Div, 1.0, None)]), id),
            None,
            "no row without its kernels"
        );
    }

    #[test]
    fn fast_math_needs_both_functions_twice_as_fast() {
        use ThroughputKernel::*;
        let id = "bpg-5.1.4-fast-math";
        let of = |exp: f64| {
            instructions(vec![
                rates(SinApprox, 100.0, Some(100.0)),
                rates(Sin, 10.0, Some(1.0)),
                rates(ExpFast, 100.0, Some(100.0)),
                rates(Exp, exp, Some(exp)),
                rates(ExpAccurate, 1.0, Some(1.0)),
            ])
        };
        assert_eq!(verdict(&of(25.0), id), Some(Verdict::Holds));
        assert_eq!(
            verdict(&of(70.0), id),
            Some(Verdict::Holds),
            "exp 1.4x: faster, as claimed"
        );
        assert_eq!(verdict(&of(98.0), id), Some(Verdict::Gone), "exp 1.02x");
        assert_eq!(verdict(&of(100.0), id), Some(Verdict::Gone));
    }

    #[test]
    fn argument_reduction_is_a_claimed_factor_of_ten() {
        use ThroughputKernel::*;
        let id = "bpg-5.1.4-argument-reduction";
        let of = |large: f64| instructions(vec![rates(Sin, 60.0, Some(large))]);
        assert_eq!(verdict(&of(5.0), id), Some(Verdict::Holds), "12x");
        assert_eq!(verdict(&of(10.0), id), Some(Verdict::Holds), "6x, past halfway to 10");
        assert_eq!(verdict(&of(20.0), id), Some(Verdict::Weaker), "3x");
        assert_eq!(verdict(&of(60.0), id), Some(Verdict::Gone));
        assert_eq!(verdict(&instructions(vec![rates(Sin, 60.0, None)]), id), None);
    }

    #[test]
    fn the_promotion_is_graded_on_its_written_out_cost() {
        use ThroughputKernel::*;
        let id = "bpg-5.1.3-double-constant";
        let of = |promoted: f64| {
            let mut p = rates(F64PromotedMul, promoted, None);
            p.points[0].set_extra(DIFFERING_PERCENT, 17.0);
            instructions(vec![rates(F32LiteralMul, 60.0, None), p])
        };
        assert_eq!(verdict(&of(20.0), id), Some(Verdict::Holds), "3x");
        assert_eq!(
            verdict(&of(50.0), id),
            Some(Verdict::Holds),
            "1.2x: costs more, as claimed"
        );
        assert_eq!(verdict(&of(60.0), id), Some(Verdict::Gone));
        let report = report(vec![of(20.0)]);
        let row = super::Instructions
            .ledger(&report.experiments[0], &report)
            .into_iter()
            .find(|r| r.id == id)
            .unwrap();
        assert!(row.measured.contains("17.0%"), "{}", row.measured);
        assert!(row.claim.contains("cannot be silent"), "{}", row.claim);
    }

    /// `kernel`'s Rust series at `gops` with the op/clk/SM and published figures and the
    /// SASS of its loop in the recorded sm_90 listing stored as a run stores them.
    fn with_sass(kernel: ThroughputKernel, gops: f64, per_sm_per_clock: f64) -> Series {
        use crate::sass::parse_listing;
        let mut s = rates(kernel, gops, None);
        let point = &mut s.points[0];
        point.set_extra(PER_SM_PER_CLOCK, per_sm_per_clock);
        if let Some(published) = published_rate(kernel, (9, 0)) {
            point.set_extra(super::PUBLISHED_CC90, published);
            point.set_extra(super::PERCENT_OF_PUBLISHED, 100.0 * per_sm_per_clock / published);
        }
        let functions = parse_listing(include_str!("../../tests/fixtures/sass/sm90_nvdisasm.txt"));
        let function = functions.iter().find(|f| f.name == kernel.entry()).unwrap();
        let sass = super::throughput_sass::throughput_sass(function, kernel).unwrap();
        super::throughput_sass::record(point, &sass, Some(per_sm_per_clock), (9, 0));
        s
    }

    #[test]
    fn rates_above_the_published_ones_are_explained_by_the_sass() {
        use ThroughputKernel::*;
        let (markdown, _, _) = rendered(vec![instructions(vec![
            with_sass(I32Add, 28_000.0, 114.0),
            with_sass(U32Shift, 13_000.0, 52.5),
        ])]);
        assert!(markdown.contains("**Above the published rate.**"), "{markdown}");
        assert!(
            markdown.contains("i32 add: 114.0 op/clk/SM, 178% of the published 64; its loop issues 1.05 SASS"),
            "{markdown}"
        );
        assert!(
            markdown.contains("so at most 113.8 op/clk/SM, set by the integer ALU"),
            "{markdown}"
        );
        assert!(
            markdown.contains("so at most 52.5 op/clk/SM, set by the integer ALU"),
            "{markdown}"
        );
        assert!(markdown.contains("**What the GPU runs (SASS).**"), "{markdown}");
        assert!(
            markdown.contains("| i32 add | Rust | 64 | 1.05 | integer IMAD/IMUL (FMA-heavy pipe) 0.47, integer ALU"),
            "{markdown}"
        );
        // 114 op/clk/SM × 67/64 SASS instructions per operation.
        assert!(markdown.contains("| 114 | 119 | 114 |"), "{markdown}");
        let (plain, _, _) = rendered(vec![instructions(vec![rates(I32Add, 28_000.0, None)])]);
        assert!(!plain.contains("What the GPU runs"), "no SASS, no table");
    }

    #[test]
    fn the_promotion_needs_its_conversions_in_the_sass() {
        use ThroughputKernel::*;
        let id = "bpg-5.1.3-double-constant";
        let literal = rates(F32LiteralMul, 60.0, None);
        let promoted = with_sass(F64PromotedMul, 20.0, 10.0);
        let result = instructions(vec![literal.clone(), promoted.clone()]);
        assert_eq!(verdict(&result, id), Some(Verdict::Holds), "3x with F2F in the loop");
        let row_of = |result: ExperimentResult| {
            let report = report(vec![result]);
            super::Instructions
                .ledger(&report.experiments[0], &report)
                .into_iter()
                .find(|r| r.id == id)
                .unwrap()
        };
        let row = row_of(result);
        assert!(
            row.measured.contains("no SASS"),
            "the literal kernel has none: {}",
            row.measured
        );
        // The literal kernel's loop: 64 FMUL, IADD3, ISETP, BRA per 32 operations.
        let mut literal_sass = literal.clone();
        use crate::sass::{PerOperation, SassClass};
        let literal_loop = PerOperation {
            operations_per_pass: 32.0,
            total: 67.0 / 32.0,
            by_class: vec![
                (SassClass::Fp32Arithmetic, 2.0),
                (SassClass::IntegerAlu, 2.0 / 32.0),
                (SassClass::Control, 1.0 / 32.0),
            ],
        };
        for (name, value) in literal_loop.figures() {
            literal_sass.points[0].set_extra(&name, value);
        }
        let row = row_of(instructions(vec![literal_sass, promoted.clone()]));
        assert!(
            row.measured.contains(
                "SASS instructions per round of a chain: 2.00 conversions (F2F), 1.00 FP64, 1.00 FP32 promoted against \
                 0.00 conversions (F2F), 0.00 FP64, 2.00 FP32 with the f32 constant"
            ),
            "{}",
            row.measured
        );
        let mut no_conversion = promoted;
        no_conversion.points[0]
            .extra
            .remove(&PerOperation::class_figure(SassClass::Conversion));
        assert_eq!(
            verdict(&instructions(vec![literal, no_conversion]), id),
            Some(Verdict::Gone),
            "no F2F in the SASS: nothing is promoted"
        );
    }

    #[test]
    fn the_embedded_kernels_have_sass_where_the_tools_are() {
        let sass = crate::experiments::implementation_sass::implementation_sass(Implementation::Rust, (9, 0));
        if let Err(waived) = sass.module() {
            eprintln!("SKIPPED the embedded kernels' SASS: {waived}");
            return;
        }
        for kernel in ThroughputKernel::ALL {
            let function = sass.function(kernel.entry()).expect("every kernel assembled");
            let found = super::throughput_sass::throughput_sass(function, kernel)
                .unwrap_or_else(|| panic!("{kernel:?}: no steady loop"));
            assert!(found.per_operation.total >= 1.0, "{kernel:?}: {found:?}");
        }
    }

    #[test]
    fn the_table_states_the_clock_it_uses() {
        use ThroughputKernel::*;
        let mut fma = rates(F32Fma, 33_000.0, None);
        fma.points[0].set_extra(PER_SM_PER_CLOCK, 126.0);
        let (markdown, _, rows) = rendered(vec![instructions(vec![fma, rates(SinApprox, 4000.0, Some(4000.0))])]);
        assert!(markdown.contains("op/clk/SM at 1980 MHz"), "{markdown}");
        assert!(
            markdown.contains("use the SM clock the device reports as its maximum, 1980 MHz"),
            "{markdown}"
        );
        assert!(markdown.contains("No NVML telemetry was recorded"), "{markdown}");
        assert!(markdown.contains("| f32 FMA | small arguments | Rust |"), "{markdown}");
        assert!(markdown.contains("| sine, sin.approx.f32 (__sinf) | large arguments | Rust |"));
        assert!(rows.is_empty(), "no claim has all its kernels: {rows:?}");
    }

    #[test]
    fn nvml_clocks_are_stated_beside_the_reported_one() {
        use crate::facts::{
            CudaOrdinal, DeviceTelemetry, ExperimentTelemetry, MatchedBy, NvmlDeviceFacts, PcieLinkFacts,
            TelemetryRecord, TelemetrySummary,
        };
        use crate::stats::Summary;
        let mut fma = rates(ThroughputKernel::F32Fma, 33_000.0, None);
        fma.points[0].set_extra(PER_SM_PER_CLOCK, 99.0);
        let mut report = report(vec![instructions(vec![fma])]);
        let summary = TelemetrySummary {
            samples: 3,
            sm_clock_mhz: Summary::of(&[1755.0, 1650.0, 1650.0]),
            ..TelemetrySummary::default()
        };
        report.telemetry = Some(TelemetryRecord {
            source: "NVML".into(),
            interval_ms: 100,
            notes: Vec::new(),
            devices: vec![DeviceTelemetry {
                ordinal: CudaOrdinal(0),
                facts: NvmlDeviceFacts {
                    name: "Test GPU".into(),
                    uuid: String::new(),
                    pci: None,
                    matched_by: MatchedBy::Uuid,
                    pcie: PcieLinkFacts::default(),
                    nvlinks: Vec::new(),
                    max_sm_clock_mhz: Some(1980),
                    max_memory_clock_mhz: None,
                    power_limit_w: None,
                },
                run: summary.clone(),
                experiments: vec![ExperimentTelemetry {
                    experiment: "instructions".into(),
                    summary,
                }],
            }],
        });
        let statement = super::clock_statement(&report.experiments[0], &report);
        assert!(statement.contains("1650–1755 MHz (median 1650)"), "{statement}");
        assert!(statement.contains("1.200x those shown"), "{statement}");
        let table = super::Instructions.tables(&report.experiments[0], &report).unwrap();
        assert!(table.contains("op/clk/SM at NVML's 1650 MHz"), "{table}");
        // 99 at 1980 MHz is 118.8 at 1650 MHz.
        assert!(table.contains("| 99.0 | 119 |"), "{table}");
    }

    #[test]
    fn rsqrt_short_integers_and_mul24_are_graded_by_their_direction() {
        use ThroughputKernel::*;
        let int = |kernel: ThroughputKernel, gops: f64| {
            series(kernel.entry(), Implementation::Rust, ("i32", ""), &[(0, gops)], &[])
        };
        let of = |rsqrt: f64, ieee: f64, i16: f64, i8: f64, mul24: f64| {
            instructions(vec![
                rates(RsqrtApprox, rsqrt, None),
                rates(RecipSqrtRn, ieee, None),
                int(I32Mad, 16_000.0),
                int(I16Mad, i16),
                int(I8Mad, i8),
                int(I32Mul, 16_000.0),
                int(Mul24, mul24),
            ])
        };
        // What an H100 is expected to show: rsqrt well ahead, narrow integers and mul24 at par.
        let today = of(4000.0, 1500.0, 15_900.0, 16_000.0, 15_600.0);
        assert_eq!(verdict(&today, "bpg-5.1.2-rsqrt"), Some(Verdict::Holds), "2.7x");
        assert_eq!(
            verdict(&today, "bpg-5.1.3-short-integers"),
            Some(Verdict::Gone),
            "1.01x and 1.00x"
        );
        assert_eq!(verdict(&today, "ocl-3.1.1.1-mul24"), Some(Verdict::Gone), "1.03x");
        // The guides' picture: conversions cost, mul24 emulated at a third of the rate.
        let then = of(4000.0, 4100.0, 8000.0, 10_000.0, 5000.0);
        assert_eq!(verdict(&then, "bpg-5.1.2-rsqrt"), Some(Verdict::Gone), "0.98x");
        assert_eq!(
            verdict(&then, "bpg-5.1.3-short-integers"),
            Some(Verdict::Holds),
            "2x and 1.6x: the smaller holds"
        );
        assert_eq!(verdict(&then, "ocl-3.1.1.1-mul24"), Some(Verdict::Holds), "3.2x");
        let half = of(4000.0, 1500.0, 8000.0, 16_000.0, 20_000.0);
        assert_eq!(
            verdict(&half, "bpg-5.1.3-short-integers"),
            Some(Verdict::Gone),
            "the smaller ratio (i8's 1.0x) is graded"
        );
        assert_eq!(
            verdict(&half, "ocl-3.1.1.1-mul24"),
            Some(Verdict::Reversed),
            "mul24 faster"
        );
        // With the SASS known (H100: mul 1.05, mul24 2.05 instructions per multiply), a mul24 1.055x slower
        // holds whatever side of the direction rule's 1.05 edge the run lands on; 0.98x is gone.
        use crate::sass::{PerOperation, SassClass};
        let with_sass = |mul24_gops: f64, mul24_sass: f64| {
            let mut result = of(4000.0, 1500.0, 15_900.0, 16_000.0, mul24_gops);
            for (kernel, total) in [(I32Mul, 1.05), (Mul24, mul24_sass)] {
                let series = result
                    .series
                    .iter_mut()
                    .find(|s| s.key.kernel == kernel.entry())
                    .unwrap();
                let per_op = PerOperation {
                    operations_per_pass: 32.0,
                    total,
                    by_class: vec![(SassClass::IntegerMultiplyAdd, 1.0)],
                };
                for (name, value) in per_op.figures() {
                    series.points[0].set_extra(&name, value);
                }
            }
            result
        };
        for gops in [15_170.0, 15_150.0] {
            assert_eq!(
                verdict(&with_sass(gops, 2.05), "ocl-3.1.1.1-mul24"),
                Some(Verdict::Holds),
                "{gops}: twice the instructions, slower"
            );
        }
        assert_eq!(
            verdict(&with_sass(16_300.0, 2.05), "ocl-3.1.1.1-mul24"),
            Some(Verdict::Gone)
        );
        assert_eq!(
            verdict(&with_sass(15_400.0, 2.05), "ocl-3.1.1.1-mul24"),
            Some(Verdict::Holds)
        );
        assert_eq!(
            verdict(&with_sass(15_400.0, 1.05), "ocl-3.1.1.1-mul24"),
            Some(Verdict::Gone),
            "the same instructions: the direction rule, 1.04x is no effect"
        );
        let report = report(vec![today.clone()]);
        let rows = super::Instructions.ledger(&report.experiments[0], &report);
        let row = rows.iter().find(|r| r.id == "bpg-5.1.3-short-integers").unwrap();
        assert!(
            row.measured
                .contains("i32 16000 Gop/s, i16 15900 Gop/s (1.01x), i8 16000 Gop/s (1.00x)"),
            "{}",
            row.measured
        );
        assert_eq!(
            verdict(&instructions(vec![rates(RsqrtApprox, 1.0, None)]), "bpg-5.1.2-rsqrt"),
            None
        );
    }

    #[test]
    fn the_barrier_is_graded_by_its_rate_per_clock_against_the_guides_8() {
        use crate::experiments::ledger_fixtures::series_with_spread;
        use ThroughputKernel::*;
        // Gop/s samples (min, median, max) with the op/clk/SM of the median set as a run would.
        let barrier = |gops: [f64; 3], per_clock: f64| {
            let mut s = series_with_spread(BarSync.entry(), Implementation::Rust, &[(0, gops)]);
            s.points[0].set_extra(PER_SM_PER_CLOCK, per_clock);
            s
        };
        let mut add = rates(F32Add, 33_000.0, None);
        add.points[0].set_extra(PER_SM_PER_CLOCK, 128.0);
        let row = |gops, per_clock| {
            let r = instructions(vec![add.clone(), barrier(gops, per_clock)]);
            let report = report(vec![r.clone()]);
            super::Instructions
                .ledger(&r, &report)
                .into_iter()
                .find(|r| r.id == "ocl-3.1.1.4-barrier")
                .expect("the barrier row")
        };
        // 4224 Gop/s on 132 SMs at 2 GHz: 16 per clock per SM, twice the guide's 8.
        let fast = row([4100.0, 4224.0, 4300.0], 16.0);
        assert_eq!(fast.verdict, Verdict::Holds, "{}", fast.measured);
        let figure = fast.figure.expect("a figure");
        assert!((figure.median - 16.0).abs() < 1e-9);
        assert!((figure.low - 4100.0 * 16.0 / 4224.0).abs() < 1e-9, "{figure:?}");
        assert!(
            fast.measured.contains("a barrier costs 8.0 adds' issue"),
            "{}",
            fast.measured
        );
        assert_eq!(row([1500.0, 1584.0, 1600.0], 6.0).verdict, Verdict::Weaker, "6 of 8");
        assert_eq!(row([700.0, 792.0, 800.0], 3.0).verdict, Verdict::Gone, "3 of 8");
        assert_eq!(
            row([1000.0, 2112.0, 2200.0], 8.0).verdict,
            Verdict::Undecided,
            "the low end falls under 8"
        );
    }
}
