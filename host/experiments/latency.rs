//! Best Practices Guide §5.2 ("400 to 600 clock cycles" of device-memory
//! latency), §3.2.2 (shared memory's latency far below it) and §3.2.6 / §4.3
//! (a register read-after-write dependency of "about 24 cycles"): a
//! single-thread pointer chase over working sets from 1 KiB to 4 GiB (the
//! staircase of L1, L2, device memory and the TLB steps), the same chase in
//! shared memory, and a chain of dependent FMAs; in SM clocks (`clock64`)
//! and nanoseconds (`%globaltimer`) per step.
//!
//! **Budget**: [`POINTS_PER_OCTAVE`] working sets per doubling (89 from 1 KiB
//! to 4 GiB); each ring's image is built on the host and uploaded (26 GiB
//! in all, the largest share of the time), then walked by every
//! implementation. Estimated 30–60 s on an H100 at the default settings;
//! `--size-mib` caps the largest working set.

use std::fmt::Write;

use kernels_gpu::latency::FMA_LATENCY_UNROLL;

use super::latency_ring_plan::{RingPlan, SLOT_BYTES, ring_plan};
use super::launch_outputs::{TimedLaunches, kept_reps, launches_of, median_of, sample_means};
use super::sweep::each_point;
use super::{Experiment, RunContext};
use crate::error::Result;
use crate::launchers::{LatencyRunner, latency_runners};
use crate::reference::{
    self, LATENCY_MAX_WORKING_SET, LatencyPlateau, MemoryLevel, chase_successors, follow_successors, latency_levels,
    latency_plateaus, latency_working_sets,
};
use crate::report::{
    Axis, Bound, Claim, ExperimentResult, LedgerRow, Metric, PlotKind, PlotLine, PlotSpec, Point, PointKey,
    ReferenceLine, Report, Rule, Scale, SectionHooks, Series, Spread, Unit, Work, summary_cell,
};
use crate::report::{Panel, XTicks};
use crate::stats::Summary;
use crate::testbed::Implementation;

pub struct Latency;

/// Working sets per doubling of the device-memory chase.
pub const POINTS_PER_OCTAVE: u32 = 4;
/// The shared-memory chase's working sets.
const SHARED_SETS: [u64; 6] = [1 << 10, 2 << 10, 4 << 10, 8 << 10, 16 << 10, 32 << 10];
/// Timed steps of a shared-memory chase launch.
const SHARED_STEPS: u32 = 2048;
/// Trips of `fma_latency`'s loop (each `FMA_LATENCY_UNROLL` dependent FMAs).
const FMA_TRIPS: u32 = 256;
/// `(x, multiplier, addend)` of the FMA chain.
const FMA_ARGS: (f32, f32, f32) = (1.0, 0.999_9, 0.001);
/// The FMA chain's point: it has no working set.
pub const FMA_AT: i64 = 0;
/// The rings' shuffle seed (with the working set mixed in).
const SEED: u64 = 0x1a7e_5c1e;
/// Plateaus: points within this share of the run's median, at least `PLATEAU_POINTS` of them.
const PLATEAU_TOLERANCE: f64 = 0.12;
const PLATEAU_POINTS: usize = 3;

/// The extra figure: nanoseconds per step.
pub const NANOSECONDS: &str = "ns";
/// The extra figure: the SM clock the cycles and nanoseconds imply.
pub const SM_CLOCK_MHZ: &str = "SM clock (MHz, clock64 / globaltimer)";

pub const CHASE: &str = "pointer_chase";
pub const SHARED_CHASE: &str = "shared_pointer_chase";
pub const FMA: &str = "fma_latency";

/// Published H100 microbenchmark figures, SM cycles (low, high), by level.
const PUBLISHED_H100: [(&str, f64, f64); 3] = [
    ("L1", 32.0, 41.0),
    ("L2", 265.0, 480.0),
    ("device memory", 480.0, 660.0),
];

fn metric() -> Metric {
    Metric::custom("latency", "SM clk", false)
}

/// Working sets in bytes; no generic plot (the curve plot shows KiB, without the FMA point).
fn axis() -> Axis {
    Axis::lines("working set (bytes)", metric())
        .x_scale(Scale::Log2)
        .y_scale(Scale::Log10)
        .plot(PlotKind::None)
}

/// `1 KiB`, `1.5 MiB`, `4 GiB`.
pub fn size_label(bytes: u64) -> String {
    let units = [("GiB", 30), ("MiB", 20), ("KiB", 10)];
    for (unit, shift) in units {
        if bytes >= 1 << shift {
            let value = bytes as f64 / (1u64 << shift) as f64;
            return if value.fract() == 0.0 {
                format!("{value:.0} {unit}")
            } else {
                format!("{value:.1} {unit}")
            };
        }
    }
    format!("{bytes} B")
}

/// Per-launch figures (cycles, ns per step) of latency-kernel outputs, as per-sample means.
fn per_step(written: &[Vec<u64>], steps: u64, reps: u32) -> (Vec<f64>, Option<f64>) {
    let cycles: Vec<f64> = written.iter().map(|w| w[1] as f64 / steps as f64).collect();
    let ns: Vec<f64> = written.iter().map(|w| w[2] as f64 / steps as f64).collect();
    (sample_means(&cycles, reps), median_of(&sample_means(&ns, reps)))
}

/// A point from per-step samples, with its event times and nanoseconds.
fn latency_point(
    at: i64,
    samples: &[f64],
    ns: Option<f64>,
    times_ms: &[f64],
    steps: u64,
    failure: Option<String>,
) -> Option<Point> {
    let mut point = Point::measured(PointKey::Value(at), samples, Work::bytes(steps, steps * 8), failure)?;
    point.time_ms = Summary::of(times_ms);
    if let Some(ns) = ns {
        point.set_extra(NANOSECONDS, ns);
        // The clock the two readings imply: checked against NVML's (ceilings).
        if let Some(cycles) = point.median().filter(|_| ns > 0.0) {
            point.set_extra(SM_CLOCK_MHZ, cycles / ns * 1e3);
        }
    }
    Some(point)
}

impl Experiment for Latency {
    fn name(&self) -> &'static str {
        "latency"
    }
    fn title(&self) -> &'static str {
        "Latency: device memory, caches, shared memory and dependent FMAs"
    }
    fn source(&self) -> &'static str {
        "CUDA C Best Practices Guide 4.0, §5.2 (400–600 cycles), §3.2.2, §3.2.6 and §4.3 (about 24 cycles)"
    }
    fn points(&self) -> u64 {
        (22 * POINTS_PER_OCTAVE + 1) as u64 + SHARED_SETS.len() as u64 + 1
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let mut result = ctx.result(self, axis(), "8 bytes read per step (the figure is SM clocks per step)");
        let (mut runners, waived) = latency_runners(ctx.device)?;
        result.waive(waived);
        let sets = device_working_sets(ctx, &runners)?;
        let plans = plan_series(ctx, &mut result, &runners);
        let total = sets.len() + SHARED_SETS.len() + 1;
        let rings = chase_device_memory(ctx, &mut result, &mut runners, &plans, &sets, total)?;
        chase_shared_memory(ctx, &mut result, &mut runners, &plans, (sets.len(), total))?;
        if !ctx.stop_before(total - 1, total) {
            chain_fmas(ctx, &mut result, &mut runners, &plans)?;
            ctx.progress.inc(1);
        }
        describe(ctx, &mut result, &sets, &rings);
        Ok(result)
    }
}

/// The family's runners on the device under test.
type Runners<'a> = [Box<dyn LatencyRunner + 'a>];

/// The device-memory chase's working sets: up to the run's buffer size
/// (`--size-mib`) or [`LATENCY_MAX_WORKING_SET`], at most half the free memory.
fn device_working_sets(ctx: &RunContext<'_>, runners: &Runners<'_>) -> Result<Vec<u64>> {
    let mut free = u64::MAX;
    for runner in runners {
        free = free.min(runner.free_memory()?);
    }
    let max_bytes = ctx
        .settings
        .buffer_mib
        .map_or(LATENCY_MAX_WORKING_SET, |mib| mib << 20)
        .min(free / 2);
    Ok(latency_working_sets(max_bytes, POINTS_PER_OCTAVE, SLOT_BYTES))
}

/// One implementation's three series (their indices in the result), and its runner's place.
struct ImplementationSeries {
    runner: usize,
    implementation: Implementation,
    chase: usize,
    shared_chase: usize,
    fma: usize,
}

/// The series of every runner's implementations, in the result's order.
fn plan_series(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    runners: &Runners<'_>,
) -> Vec<ImplementationSeries> {
    let mut index = |kernel: &str, implementation: Implementation, element: &str| {
        result.series.push(Series::of(ctx.key(kernel, implementation, element)));
        result.series.len() - 1
    };
    let mut plans = Vec::new();
    for (runner, implementations) in runners.iter().map(|r| r.implementations()).enumerate() {
        for &implementation in implementations {
            plans.push(ImplementationSeries {
                runner,
                implementation,
                chase: index(CHASE, implementation, "u64"),
                shared_chase: index(SHARED_CHASE, implementation, "u32"),
                fma: index(FMA, implementation, "f32"),
            });
        }
    }
    plans
}

/// The device-memory rings walked: their image bytes and where the cold walks begin.
struct RingsWalked {
    image_bytes: u64,
    cold_from: Option<u64>,
}

/// The device-memory chase, working set by working set, every implementation at each.
fn chase_device_memory(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    runners: &mut Runners<'_>,
    plans: &[ImplementationSeries],
    sets: &[u64],
    total: usize,
) -> Result<RingsWalked> {
    let l2 = ctx.device.info().l2_cache_bytes.max(0) as u64;
    let launches = launches_of(ctx.settings) as u64 * plans.len() as u64;
    let mut rings = RingsWalked {
        image_bytes: 0,
        cold_from: None,
    };
    each_point(ctx, sets.iter().copied(), (0, total), |set| {
        let plan = ring_plan(set, l2, launches);
        if plan.cold && rings.cold_from.is_none() {
            rings.cold_from = Some(plan.bytes());
        }
        let successors = chase_successors(plan.slots as usize, SEED ^ set);
        for runner in runners.iter_mut() {
            runner.load_pointer_ring(&successors, plan.slot_bytes)?;
        }
        rings.image_bytes += plan.bytes();
        let mut slot = 0u32;
        for series in plans {
            let implementation = series.implementation;
            ctx.progress.set_message(format!(
                "pointer_chase · {} {}",
                implementation.label(),
                size_label(set)
            ));
            let runner = runners[series.runner].as_mut();
            let point = chase_ring(ctx, (runner, implementation), &plan, &successors, &mut slot)?;
            result.series[series.chase].points.extend(point);
        }
        Ok(())
    })?;
    Ok(rings)
}

/// One implementation's point of the device-memory chase over the loaded
/// ring of `plan`, from `slot` (left where its last launch ended): primed
/// (warm rings), the L2 flushed (cold ones), timed, every launch's end checked.
fn chase_ring(
    ctx: &RunContext<'_>,
    (runner, implementation): (&mut dyn LatencyRunner, Implementation),
    plan: &RingPlan,
    successors: &[u32],
    slot: &mut u32,
) -> Result<Option<Point>> {
    if plan.prime_steps > 0 {
        runner.prime(implementation, *slot as u64, plan.prime_steps as u32)?;
        *slot = follow_successors(successors, *slot, plan.prime_steps + 1);
    }
    if plan.cold {
        runner.flush_l2()?; // 2 × L2 of writes: the ring's lines leave the L2
    }
    let mut ends = Vec::new();
    let mut start = || {
        let start = *slot;
        *slot = follow_successors(successors, start, (plan.warmup + plan.count) as u64);
        ends.push(*slot);
        start as u64
    };
    let TimedLaunches {
        times_ms,
        written,
        reps,
    } = runner.time_pointer_chase(implementation, &mut start, (plan.warmup, plan.count), ctx.settings)?;
    let failure = first_wrong_end(runner, &written, &ends)?;
    let (samples, ns) = per_step(&written, plan.count as u64, reps);
    let at = plan.bytes() as i64;
    Ok(latency_point(at, &samples, ns, &times_ms, plan.count as u64, failure))
}

/// The first launch whose chase ended elsewhere than the ring's slot `ends[k]`.
fn first_wrong_end(runner: &dyn LatencyRunner, written: &[Vec<u64>], ends: &[u32]) -> Result<Option<String>> {
    for (k, (w, &end)) in written.iter().zip(ends).enumerate() {
        let expected = runner.slot_address(end as u64)?;
        if w[0] != expected {
            return Ok(Some(format!(
                "launch {k} ended at {:#x}, the ring's slot {end} is {expected:#x}",
                w[0]
            )));
        }
    }
    Ok(None)
}

/// The same chase in shared memory, points `first..` of `total`; returns the working sets measured.
fn chase_shared_memory(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    runners: &mut Runners<'_>,
    plans: &[ImplementationSeries],
    (first, total): (usize, usize),
) -> Result<usize> {
    each_point(ctx, SHARED_SETS, (first, total), |bytes| {
        let slots = (bytes / 4) as usize;
        let successors = chase_successors(slots, SEED ^ bytes);
        for runner in runners.iter_mut() {
            runner.load_slot_ring(&successors)?;
        }
        let warmup = slots as u32;
        let end = follow_successors(&successors, 0, (warmup + SHARED_STEPS) as u64) as u64;
        for series in plans {
            let implementation = series.implementation;
            ctx.progress.set_message(format!(
                "shared_pointer_chase · {} {}",
                implementation.label(),
                size_label(bytes)
            ));
            let TimedLaunches {
                times_ms,
                written,
                reps,
            } = runners[series.runner].time_shared_chase(implementation, 0, (warmup, SHARED_STEPS), ctx.settings)?;
            let failure = written
                .iter()
                .position(|w| w[0] != end)
                .map(|k| format!("launch {k} ended at slot {}, the reference at {end}", written[k][0]));
            let (samples, ns) = per_step(&written, SHARED_STEPS as u64, reps);
            result.series[series.shared_chase].points.extend(latency_point(
                bytes as i64,
                &samples,
                ns,
                &times_ms,
                SHARED_STEPS as u64,
                failure,
            ));
        }
        Ok(())
    })
}

/// Dependent FMAs, by every implementation.
fn chain_fmas(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    runners: &mut Runners<'_>,
    plans: &[ImplementationSeries],
) -> Result<()> {
    let fmas = (FMA_TRIPS * FMA_LATENCY_UNROLL) as u64;
    let (x, m, a) = FMA_ARGS;
    let expected = reference::fma_latency(x, m, a, fmas).to_bits() as u64;
    for series in plans {
        let implementation = series.implementation;
        ctx.progress
            .set_message(format!("fma_latency · {}", implementation.label()));
        let TimedLaunches {
            times_ms,
            written,
            reps,
        } = runners[series.runner].time_fma_chain(implementation, FMA_ARGS, FMA_TRIPS, ctx.settings)?;
        let failure = written.iter().position(|w| w[0] != expected).map(|k| {
            format!(
                "launch {k} ended with bits {:#x}, the CPU reference {expected:#x}",
                written[k][0]
            )
        });
        let (samples, ns) = per_step(&written, fmas, reps);
        result.series[series.fma]
            .points
            .extend(latency_point(FMA_AT, &samples, ns, &times_ms, fmas, failure));
    }
    Ok(())
}

/// The setup and the notes: the working sets, the rings, how a figure is taken and checked.
fn describe(ctx: &RunContext<'_>, result: &mut ExperimentResult, sets: &[u64], rings: &RingsWalked) {
    let l2 = ctx.device.info().l2_cache_bytes.max(0) as u64;
    result.setup.push(format!(
        "{} working sets from 1 KiB to {} ({POINTS_PER_OCTAVE} per octave), one thread walking a ring of \
         {SLOT_BYTES}-byte slots (larger past {} slots) in a random cyclic order; {} of ring images built on \
         the host; rings up to the L2 ({}) walked warm after an untimed lap, larger ones cold (the L2 \
         flushed, no slot visited twice){}; the budget: {POINTS_PER_OCTAVE} points per octave keep the experiment \
         near 30–60 s on an H100 at the default settings",
        sets.len(),
        size_label(sets.last().copied().unwrap_or(0)),
        super::latency_ring_plan::MAX_SLOTS,
        size_label(rings.image_bytes),
        size_label(l2),
        rings
            .cold_from
            .map_or(String::new(), |b| format!(": from {}", size_label(b)))
    ));
    result.setup.push(format!(
        "shared memory: rings of 4-byte slots, 1 to 32 KiB, {SHARED_STEPS} steps after a lap; dependent FMAs: \
         {FMA_TRIPS} × {FMA_LATENCY_UNROLL} a launch; the FMA chain has no working set (point {FMA_AT})"
    ));
    result.notes.push(format!(
        "SM clocks from clock64 and ns from %globaltimer around the timed steps of each launch, over the steps; \
         per sample the mean of {} launches. Every launch's end checked against the CPU reference (the ring's \
         slot, the FMA chain's bits)",
        kept_reps(ctx.settings)
    ));
}

/// The Rust device-memory chase as (working set, cycles) points.
fn curve(result: &ExperimentResult) -> Vec<(u64, f64)> {
    result
        .series_of(CHASE, Implementation::Rust)
        .map(|s| {
            s.points
                .iter()
                .filter_map(|p| Some((u64::try_from(p.at.value()?).ok()?, p.median()?)))
                .collect()
        })
        .unwrap_or_default()
}

/// The curve's plateaus named as levels of the memory hierarchy.
pub fn levels(result: &ExperimentResult, l2_bytes: u64) -> Vec<(MemoryLevel, LatencyPlateau)> {
    latency_levels(
        &latency_plateaus(&curve(result), PLATEAU_TOLERANCE, PLATEAU_POINTS),
        l2_bytes,
    )
}

/// The median nanoseconds of the Rust chase's points within a plateau.
fn plateau_ns(result: &ExperimentResult, plateau: &LatencyPlateau) -> Option<f64> {
    let ns: Vec<f64> = chase_points_within(result, (plateau.from_bytes, plateau.to_bytes))
        .filter_map(|p| p.extra.get(NANOSECONDS).copied())
        .collect();
    median_of(&ns)
}

/// The Rust chase's points whose working sets lie in `from..=to` bytes.
fn chase_points_within(result: &ExperimentResult, (from, to): (u64, u64)) -> impl Iterator<Item = &Point> {
    result
        .series_of(CHASE, Implementation::Rust)
        .into_iter()
        .flat_map(|s| s.points.iter())
        .filter(move |p| p.at.value().is_some_and(|x| (from as i64..=to as i64).contains(&x)))
}

/// Device memory's latency: the first device-memory plateau, else the
/// median of the points at 4 × L2 and beyond; with where it comes from.
pub fn device_memory_latency(result: &ExperimentResult, l2_bytes: u64) -> Option<(f64, (u64, u64), String)> {
    if let Some((_, plateau)) = levels(result, l2_bytes)
        .into_iter()
        .find(|(level, _)| *level == MemoryLevel::DeviceMemory { step: 0 })
    {
        let ns = plateau_ns(result, &plateau).map_or(String::new(), |ns| format!(", {ns:.0} ns"));
        return Some((
            plateau.cycles,
            (plateau.from_bytes, plateau.to_bytes),
            format!(
                "the device-memory plateau, {} to {}: {:.0} SM clocks{ns}",
                size_label(plateau.from_bytes),
                size_label(plateau.to_bytes),
                plateau.cycles
            ),
        ));
    }
    let beyond: Vec<(u64, f64)> = curve(result)
        .into_iter()
        .filter(|&(bytes, _)| l2_bytes > 0 && bytes >= 4 * l2_bytes)
        .collect();
    let cycles = median_of(&beyond.iter().map(|&(_, c)| c).collect::<Vec<_>>())?;
    let range = (beyond.first()?.0, beyond.last()?.0);
    Some((
        cycles,
        range,
        format!(
            "no plateau found; the median of the {} working sets from 4 × L2 on: {cycles:.0} SM clocks",
            beyond.len()
        ),
    ))
}

/// The Rust FMA chain's cycles per FMA.
fn fma_cycles(result: &ExperimentResult) -> Option<f64> {
    result.series_of(FMA, Implementation::Rust)?.median_at(FMA_AT)
}

/// The L2 size of the result's device, from the report.
fn l2_of(result: &ExperimentResult, report: &Report) -> u64 {
    result
        .device
        .and_then(|d| report.device(d))
        .map_or(0, |d| d.l2_cache_bytes.max(0) as u64)
}

/// The rule of "device memory costs 400–600 cycles": holds from three quarters of 400.
pub const MEMORY_RULE: Rule = Rule::AtLeast {
    holds_at: 300.0,
    weaker_at: 100.0,
    unit: "SM clocks (three quarters of the guide's 400)",
};
/// The rule of "a dependent FMA waits about 24 cycles": holds from three quarters of 24.
pub const FMA_RULE: Rule = Rule::AtLeast {
    holds_at: 18.0,
    weaker_at: 2.0,
    unit: "SM clocks (three quarters of 24; fewer warps hide less)",
};

/// The claims the experiment grades.
pub fn claims() -> Vec<Claim> {
    vec![
        Claim {
            id: "bpg-5.2-memory-latency",
            source: "Best Practices Guide §5.2 (and §3.2.2.1)",
            claim: "A read from (uncached) device memory costs 400 to 600 clock cycles of latency".into(),
            rule: MEMORY_RULE,
            reads:
                "pointer_chase · Rust: SM clocks per step on the device-memory plateau (else the median from 4 × L2 \
                    on), clock64 checked against the events' time and the global timer"
                    .into(),
            experiment: "latency",
        },
        Claim {
            id: "bpg-3.2.6-fma-latency",
            source: "Best Practices Guide §3.2.6, §4.3",
            claim: "A register read-after-write dependency (an arithmetic result used by the next instruction) costs \
                    about 24 cycles"
                .into(),
            rule: FMA_RULE,
            reads: "fma_latency · Rust, one thread: SM clocks per dependent FMA".into(),
            experiment: "latency",
        },
        Claim {
            id: "bpg-3.2.2-shared-latency",
            source: "Best Practices Guide §3.2.2",
            claim:
                "Shared memory, being on chip, has a latency roughly 100 times lower than (uncached) device memory, \
                    without bank conflicts"
                    .into(),
            rule: Rule::Factor { claimed: 100.0 },
            reads: "pointer_chase · Rust, SM clocks per step on the device-memory plateau (as bpg-5.2-memory-latency) \
                    over shared_pointer_chase · Rust, the median of its working sets' SM clocks per step"
                .into(),
            experiment: "latency",
        },
    ]
}

/// The Rust shared-memory chase over all its working sets: the lowest
/// sample, the median of the points' medians, the highest sample.
fn shared_spread(result: &ExperimentResult) -> Option<Spread> {
    let values: Vec<Summary> = result
        .series_of(SHARED_CHASE, Implementation::Rust)?
        .points
        .iter()
        .filter(|p| p.status.is_ok())
        .filter_map(|p| p.value)
        .collect();
    Some(Spread {
        low: values.iter().map(|v| v.min).fold(f64::INFINITY, f64::min),
        median: median_of(&values.iter().map(|v| v.median).collect::<Vec<_>>())?,
        high: values.iter().map(|v| v.max).fold(f64::NEG_INFINITY, f64::max),
    })
}

/// The spread of the Rust chase's points over `from..=to` bytes: the lowest
/// low end of their medians' intervals, the given median, the highest high end.
fn plateau_spread(result: &ExperimentResult, range: (u64, u64), median: f64) -> Spread {
    let values: Vec<crate::stats::Summary> = chase_points_within(result, range).filter_map(|p| p.value).collect();
    if values.is_empty() {
        return Spread::exact(median);
    }
    Spread {
        low: values
            .iter()
            .map(|v| v.median_interval().0)
            .fold(f64::INFINITY, f64::min),
        median,
        high: values
            .iter()
            .map(|v| v.median_interval().1)
            .fold(f64::NEG_INFINITY, f64::max),
    }
}

/// The ledger rows of a latency result on a GPU of `l2_bytes` (pure: tested on synthetic results).
pub fn ledger_rows(result: &ExperimentResult, l2_bytes: u64) -> Vec<LedgerRow> {
    let claims = claims();
    let mut rows = Vec::new();
    if let Some((cycles, range, measured)) = device_memory_latency(result, l2_bytes) {
        rows.push(claims[0].grade(
            plateau_spread(result, range, cycles),
            format!("pointer chase, Rust: {measured}"),
            result.device,
        ));
    }
    if let Some(point) = result.series_of(FMA, Implementation::Rust).and_then(|s| s.at(FMA_AT))
        && let Some(spread) = point.spread()
    {
        rows.push(claims[1].grade(
            spread,
            format!("{} SM clocks per dependent FMA (Rust, one thread)", spread.text(2)),
            result.device,
        ));
    }
    if let (Some((cycles, range, _)), Some(shared)) = (device_memory_latency(result, l2_bytes), shared_spread(result)) {
        let memory = plateau_spread(result, range, cycles);
        let factor = Spread {
            low: memory.low / shared.high,
            median: memory.median / shared.median,
            high: memory.high / shared.low,
        };
        rows.push(claims[2].grade(
            factor,
            format!(
                "Rust chases: device memory {:.0} SM clocks ({} to {}), shared memory {:.0} SM clocks per step; {}x",
                memory.median,
                size_label(range.0),
                size_label(range.1),
                shared.median,
                factor.text(1)
            ),
            result.device,
        ));
    }
    rows
}

impl SectionHooks for Latency {
    fn bounds(&self, _result: &ExperimentResult, _series: &Series) -> Vec<Bound> {
        vec![Bound::extra(SM_CLOCK_MHZ, Unit::SmClock)]
    }

    fn claims(&self) -> Vec<Claim> {
        claims()
    }

    fn narrative(&self, result: &ExperimentResult, report: &Report) -> Vec<String> {
        let l2 = l2_of(result, report);
        let mut text = String::from("**Then vs now.** ");
        for (level, plateau) in levels(result, l2) {
            let ns = plateau_ns(result, &plateau).map_or(String::new(), |ns| format!(" ({ns:.0} ns)"));
            let _ = write!(
                text,
                "{}: {:.0} SM clocks{ns} from {} to {}. ",
                level.label(),
                plateau.cycles,
                size_label(plateau.from_bytes),
                size_label(plateau.to_bytes)
            );
        }
        let shared = result
            .series_of(SHARED_CHASE, Implementation::Rust)
            .and_then(|s| median_of(&s.points.iter().filter_map(Point::median).collect::<Vec<_>>()));
        if let Some(shared) = shared {
            let _ = write!(text, "Shared memory: {shared:.0} SM clocks");
            if let Some((memory, _, _)) = device_memory_latency(result, l2) {
                let _ = write!(text, ", {:.0}x below device memory", memory / shared);
            }
            text.push_str(". ");
        }
        if let Some(fma) = fma_cycles(result) {
            let _ = write!(
                text,
                "A dependent FMA waits {fma:.1} SM clocks (the guides: about 24, hidden by 192 threads on cc 1.x and \
                 up to 768 on cc 2.0). "
            );
        }
        text.push_str(
            "The guide's 400–600 cycles were uncached device memory on cc 1.x; today caches and address \
                       translation make a staircase.",
        );
        vec![text]
    }

    fn tables(&self, result: &ExperimentResult, report: &Report) -> Option<String> {
        let l2 = l2_of(result, report);
        let mut out = String::new();
        let found = levels(result, l2);
        if !found.is_empty() {
            let _ = writeln!(
                out,
                "**Levels** (plateaus of the Rust chase: points within {:.0}% of the run's median, at least \
                 {PLATEAU_POINTS}; a second L2 step is the far half of an L2 split in two, as on the A100 and H100; \
                 device-memory steps past the first are address-translation misses)\n",
                100.0 * PLATEAU_TOLERANCE
            );
            let _ = writeln!(
                out,
                "| level | working sets | SM clocks | ns | published H100 (SM clocks) |\n|---|---|---:|---:|---:|"
            );
            for (level, plateau) in &found {
                let published = PUBLISHED_H100
                    .iter()
                    .find(|(name, _, _)| match level {
                        MemoryLevel::L1 => *name == "L1",
                        MemoryLevel::L2 { .. } => *name == "L2",
                        MemoryLevel::DeviceMemory { step } => *name == "device memory" && *step == 0,
                    })
                    .map_or("—".into(), |(_, lo, hi)| format!("{lo:.0}–{hi:.0}"));
                let _ = writeln!(
                    out,
                    "| {} | {} – {} ({} points) | {:.0} | {} | {published} |",
                    level.label(),
                    size_label(plateau.from_bytes),
                    size_label(plateau.to_bytes),
                    plateau.points,
                    plateau.cycles,
                    plateau_ns(result, plateau).map_or("—".into(), |ns| format!("{ns:.0}"))
                );
            }
            let _ = writeln!(out);
        }
        let columns: Vec<&Series> = result
            .series
            .iter()
            .filter(|s| s.key.kernel == CHASE || s.key.kernel == SHARED_CHASE)
            .collect();
        let _ = write!(out, "| working set |");
        for s in &columns {
            let _ = write!(out, " {} SM clk | ns |", s.label);
        }
        let _ = writeln!(out, "\n|---:|{}", "---:|---:|".repeat(columns.len()));
        let mut keys: Vec<i64> = columns
            .iter()
            .flat_map(|s| s.points.iter().filter_map(|p| p.at.value()))
            .collect();
        keys.sort_unstable();
        keys.dedup();
        for at in keys {
            let _ = write!(out, "| {} |", size_label(at as u64));
            for s in &columns {
                let point = s.at(at);
                let _ = write!(
                    out,
                    " {} | {} |",
                    crate::report::point_cell(point),
                    point
                        .and_then(|p| p.extra.get(NANOSECONDS))
                        .map_or("—".into(), |ns| format!("{ns:.1}"))
                );
            }
            let _ = writeln!(out);
        }
        let _ = writeln!(out);
        for s in result.series.iter().filter(|s| s.key.kernel == FMA) {
            if let Some(p) = s.at(FMA_AT) {
                let _ = writeln!(
                    out,
                    "Dependent FMA, {}: {} SM clocks, {} ns per FMA.\n",
                    s.key.implementation.label(),
                    p.value.map_or("—".into(), |v| summary_cell(&v)),
                    p.extra.get(NANOSECONDS).map_or("—".into(), |ns| format!("{ns:.2}"))
                );
            }
        }
        let _ = writeln!(out, "Cells: median (min–max over the samples), SM clocks per step.");
        Some(out)
    }

    fn extra_plots(&self, result: &ExperimentResult, _report: &Report) -> Vec<PlotSpec> {
        let lines: Vec<PlotLine> = result
            .series
            .iter()
            .filter(|s| s.key.kernel == CHASE || s.key.kernel == SHARED_CHASE)
            .filter_map(|s| PlotLine::of_series(s, if s.key.kernel == CHASE { 0 } else { 1 }, |bytes| bytes / 1024.0))
            .collect();
        if lines.is_empty() {
            return Vec::new();
        }
        vec![PlotSpec {
            suffix: "curve".into(),
            title: "Dependent-load latency against working set".into(),
            x_label: "working set (KiB)".into(),
            y_label: "latency (SM clocks)".into(),
            x_scale: Scale::Log2,
            y_scale: Scale::Log10,
            x_ticks: XTicks::Bytes { unit_bytes: 1024 },
            panels: vec![Panel::of(
                lines,
                vec![
                    ReferenceLine {
                        label: "the guide: 400 cycles".into(),
                        value: 400.0,
                    },
                    ReferenceLine {
                        label: "the guide: 600 cycles".into(),
                        value: 600.0,
                    },
                ],
            )],
            ..PlotSpec::default()
        }]
    }

    fn ledger(&self, result: &ExperimentResult, report: &Report) -> Vec<LedgerRow> {
        ledger_rows(result, l2_of(result, report))
    }
}

#[cfg(test)]
mod tests {
    use super::super::ledger_fixtures::{result, series};
    use super::*;
    use crate::report::Verdict;

    /// A staircase: L1 40, L2 260, device memory 600, a TLB step at 900.
    fn staircase() -> Vec<(i64, f64)> {
        (0..24)
            .map(|k| {
                let bytes = 1i64 << (10 + k);
                let cycles = match bytes {
                    b if b <= 128 << 10 => 40.0,
                    b if b <= 32 << 20 => 260.0,
                    b if b <= 512 << 20 => 600.0,
                    _ => 900.0,
                };
                (bytes, cycles)
            })
            .collect()
    }

    fn latency_result(chase: &[(i64, f64)], fma: Option<f64>) -> ExperimentResult {
        let extras: Vec<(i64, &str, f64)> = chase.iter().map(|&(x, c)| (x, NANOSECONDS, c / 2.0)).collect();
        let mut all = vec![series(CHASE, Implementation::Rust, "", chase, &extras)];
        if let Some(f) = fma {
            all.push(series(FMA, Implementation::Rust, "", &[(FMA_AT, f)], &[]));
        }
        result("latency", metric(), all)
    }

    #[test]
    fn the_staircase_is_read_as_levels() {
        let r = latency_result(&staircase(), None);
        let found = levels(&r, 50 << 20);
        let names: Vec<MemoryLevel> = found.iter().map(|(l, _)| *l).collect();
        assert_eq!(
            names,
            [
                MemoryLevel::L1,
                MemoryLevel::L2 { step: 0 },
                MemoryLevel::DeviceMemory { step: 0 },
                MemoryLevel::DeviceMemory { step: 1 }
            ]
        );
        let (cycles, _, text) = device_memory_latency(&r, 50 << 20).unwrap();
        assert_eq!(cycles, 600.0);
        assert!(text.contains("64 MiB to 512 MiB") && text.contains("300 ns"), "{text}");
    }

    #[test]
    fn memory_and_fma_latencies_are_graded_by_their_rules() {
        let rows = ledger_rows(&latency_result(&staircase(), Some(4.0)), 50 << 20);
        assert_eq!(rows.len(), 2);
        assert_eq!(
            (rows[0].id.as_str(), rows[0].verdict),
            ("bpg-5.2-memory-latency", Verdict::Holds)
        );
        assert_eq!(
            (rows[1].id.as_str(), rows[1].verdict),
            ("bpg-3.2.6-fma-latency", Verdict::Weaker)
        );
        assert_eq!(MEMORY_RULE.verdict_at(299.0), Verdict::Weaker);
        assert_eq!(MEMORY_RULE.verdict_at(300.0), Verdict::Holds);
        assert_eq!(MEMORY_RULE.verdict_at(99.0), Verdict::Gone);
        assert_eq!(FMA_RULE.verdict_at(24.0), Verdict::Holds);
        assert_eq!(FMA_RULE.verdict_at(17.9), Verdict::Weaker);
        assert_eq!(FMA_RULE.verdict_at(1.0), Verdict::Gone);
        assert_eq!(FMA_RULE.verdict_at(f64::NAN), Verdict::Failed);
    }

    #[test]
    fn without_a_plateau_device_memory_is_the_median_past_four_l2s() {
        // Rising everywhere: no three points agree.
        let rising: Vec<(i64, f64)> = (0..12).map(|k| (1i64 << (20 + k), 100.0 * 1.5f64.powi(k))).collect();
        let r = latency_result(&rising, None);
        let (cycles, _, text) = device_memory_latency(&r, 1 << 24).unwrap();
        // 64 MiB (k = 6) and up: 6 points, k = 6..=11, median between k = 8 and 9.
        assert_eq!(cycles, (100.0 * 1.5f64.powi(8) + 100.0 * 1.5f64.powi(9)) / 2.0);
        assert!(text.starts_with("no plateau"), "{text}");
        assert!(ledger_rows(&latency_result(&[], None), 1 << 24).is_empty());
    }

    #[test]
    fn sizes_read_as_binary_units() {
        assert_eq!(size_label(1 << 10), "1 KiB");
        assert_eq!(size_label(1536), "1.5 KiB");
        assert_eq!(size_label(4 << 30), "4 GiB");
        assert_eq!(size_label(100), "100 B");
    }

    #[test]
    fn the_section_renders_levels_the_curve_plot_and_rows() {
        let mut r = latency_result(&staircase(), Some(4.2));
        r.axis = axis();
        r.series.push(series(
            SHARED_CHASE,
            Implementation::Rust,
            "",
            &[(1024, 30.0), (2048, 30.0)],
            &[],
        ));
        let (markdown, files, rows) = super::super::ledger_fixtures::rendered(r);
        assert!(markdown.contains("**Levels**"), "{markdown}");
        assert!(
            markdown.contains("| device memory | 64 MiB – 512 MiB (4 points) | 600 | 300 | 480–660 |"),
            "{markdown}"
        );
        assert!(markdown.contains("Dependent FMA, Rust: 4.2"), "{markdown}");
        assert!(
            markdown.contains("Shared memory: 30 SM clocks, 20x below device memory"),
            "{markdown}"
        );
        assert!(files.contains(&"latency-curve.svg".to_string()), "{files:?}");
        assert!(
            !files.contains(&"latency.svg".to_string()),
            "the main plot is off: {files:?}"
        );
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[2].id, "bpg-3.2.2-shared-latency");
    }

    #[test]
    fn shared_memory_is_graded_against_the_device_memory_plateau() {
        let with_shared = |cycles: &[f64]| {
            let mut r = latency_result(&staircase(), None);
            let points: Vec<(i64, f64)> = cycles.iter().enumerate().map(|(i, &c)| (1024 << i, c)).collect();
            r.series
                .push(series(SHARED_CHASE, Implementation::Rust, "", &points, &[]));
            ledger_rows(&r, 50 << 20)
                .into_iter()
                .find(|row| row.id == "bpg-3.2.2-shared-latency")
        };
        // Device memory 600 SM clocks: 6 is 100x, 12 is 50x (weaker below 50.5), 30 is 20x.
        let row = with_shared(&[6.0, 6.0, 6.0]).unwrap();
        assert_eq!(row.verdict, Verdict::Holds, "{}", row.measured);
        assert!(row.measured.contains("shared memory 6 SM clocks"), "{}", row.measured);
        assert_eq!(with_shared(&[3.0, 3.0]).unwrap().verdict, Verdict::Stronger, "200x");
        assert_eq!(
            with_shared(&[30.0, 29.0, 31.0]).unwrap().verdict,
            Verdict::Weaker,
            "20x"
        );
        assert_eq!(
            with_shared(&[11.0, 13.0]).unwrap().verdict,
            Verdict::Undecided,
            "46x to 55x straddles 50.5"
        );
        assert_eq!(with_shared(&[600.0]).unwrap().verdict, Verdict::Gone);
        assert!(with_shared(&[]).is_none(), "no shared chase, no row");
    }
}
