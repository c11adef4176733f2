//! Best Practices Guide §3.2.2.1 and the OpenCL guide §3.1.2.5: shared-memory
//! bank conflicts. Every bank kernel (4-, 8- and 16-byte reads and writes)
//! at strides 0 (every lane one element: the broadcast) to 32 elements, and
//! the `[32][pitch]` tile's column read at pitch 32 and the padded 33; per
//! point the GPU's GB/s (events around full-GPU launches), SM clocks per warp
//! request two ways (the events' time at the SM clock, and each SM's span of
//! `clock64` readings over its blocks), which must agree within 5%, the
//! shared-memory bytes per clock per SM (at most 128), and the passes
//! `reference::conflict_degree` says the pattern needs, beside the measured
//! slow-down. Each point runs as many rounds as keep a launch near the same
//! length (fewer where the model says a request takes more passes), so that
//! the launch's overhead stays a small share of the events' time. The
//! OpenCL guide makes these claims for OpenCL's `__local` memory (CUDA's
//! shared memory): the OpenCL C twins (`host/opencl_c/shared_memory_banks.cl`)
//! run the same points with the Rust kernel's grid on the same GPU's OpenCL
//! queue, timed by profiling events (GB/s, slow-downs, and clocks per request
//! at the SM clock the PTX point beside them measured: OpenCL C has no
//! `clock64`); the rows grade Rust and show the twins' figures beside it.

use std::fmt::Write;

use super::bank_counters;
use super::counter_launch::count_point;
use super::sm_spans::{RequestClocks, SmTime, sm_time};
use super::sweep::each_point;
use super::twin_ratios::twin_ratios;
use super::{Experiment, RunContext};
use crate::error::Result;
use crate::launchers::{
    BANK_BLOCK_THREADS, BankAccess, BankCase, BankKernel, BankRunner, BankTimes, bank_runners, kept_reps,
};
use crate::reference::{
    bank_read_checksum, bank_write_checksum, conflict_degree, narrow_read_checksum, permuted_read_checksum,
    split_read_checksum, struct_read_checksum,
};
use crate::report::{
    Axis, Bound, Claim, ExperimentResult, LedgerRow, Metric, Point, PointKey, Report, Rule, Scale, SectionHooks,
    Series, Spread, Unit, Waiver, Work, better_by,
};
use crate::testbed::Implementation;

pub struct BankConflicts;

/// Rounds of 32 accesses a lane per launch where a request takes one pass:
/// a point whose requests the model gives `p` passes runs `ROUND_BUDGET / p`
/// rounds (at least [`MIN_ROUNDS`]), so every launch lasts about as long
/// (some 130k SM clocks at one pass a clock: about 70 µs on an H100).
const ROUND_BUDGET: u32 = 256;
/// The fewest rounds a launch runs.
const MIN_ROUNDS: u32 = 8;
/// The strides of the strided kernels: 0 (broadcast) to 32 elements.
const STRIDES: std::ops::RangeInclusive<u32> = 0..=32;
/// The tile's pitches: unpadded and padded.
const PITCHES: [u32; 2] = [32, 33];
/// The permutation multiplier `bank_read_permuted` runs at (odd: a permutation).
pub const PERMUTATION_MULTIPLIER: u32 = 13;

/// Extra figures of each point, by name.
pub const BYTES_PER_CLOCK: &str = "B/clk/SM";
pub const CLOCKS_PER_REQUEST: &str = "SM clk per warp request";
pub const CLOCKS_PER_REQUEST_EVENTS: &str = "SM clk per warp request (events)";
pub const SM_CLOCK_MHZ: &str = "SM clock (MHz, clock64 / globaltimer)";
pub const ROUNDS_RUN: &str = "rounds";
pub const PASSES: &str = "passes (model)";
pub const SLOW_DOWN: &str = "slow-down";
pub const MODEL_SLOW_DOWN: &str = "model slow-down";

const BYTE_COUNTING: &str = "the bytes the lanes ask of shared memory: threads × rounds × the loads or stores a \
    round (32; a struct's members and a split value's halves each count) × the bytes of one (a broadcast counts every \
    lane's bytes; the write kernels' one salt load a round is not counted)";

/// The rounds a launch of `kernel` at `stride` runs: [`ROUND_BUDGET`] over
/// the model's passes a round (its passes a request × its requests a round / 32).
pub fn rounds_for(kernel: BankKernel, stride: u32) -> u32 {
    let passes_per_round = model_passes(kernel, stride).max(1) as u64 * kernel.requests_per_round();
    ((ROUND_BUDGET as u64 * 32 / passes_per_round) as u32).max(MIN_ROUNDS)
}

/// Every kernel the experiment runs: the strided and tile kernels, then the
/// OpenCL guide's other cases.
fn kernels() -> impl Iterator<Item = BankKernel> {
    BankKernel::ALL.into_iter().chain(BankKernel::GUIDE_CASES)
}

/// `b32`, `b64`, `b128`: the element of a series.
fn element(access: BankAccess) -> &'static str {
    match access {
        BankAccess::Bytes4 => "b32",
        BankAccess::Bytes8 => "b64",
        BankAccess::Bytes16 => "b128",
    }
}

/// The swept values of a kernel: strides, the tile's pitches, the guide's
/// cases' few points (the narrow reads at stride 1 and one element a word).
fn sweep(kernel: BankKernel) -> Vec<u32> {
    match kernel {
        BankKernel::TileColumnRead => PITCHES.to_vec(),
        BankKernel::NarrowRead(bytes) => vec![1, 4 / bytes],
        BankKernel::StructRead(_) | BankKernel::SplitHalvesRead => vec![1],
        BankKernel::PermutedRead => vec![PERMUTATION_MULTIPLIER],
        _ => STRIDES.collect(),
    }
}

/// Where the kernel's slow-down is measured from: stride 1, the padded
/// pitch, one narrow element a word; none for the cases graded against
/// another kernel.
fn conflict_free(kernel: BankKernel) -> Option<u32> {
    match kernel {
        BankKernel::TileColumnRead => Some(33),
        BankKernel::NarrowRead(bytes) => Some(4 / bytes),
        BankKernel::StructRead(_) | BankKernel::SplitHalvesRead | BankKernel::PermutedRead => None,
        _ => Some(1),
    }
}

/// The passes one warp request of `kernel` at `stride` (pitch) needs, by
/// the model: the lanes' first accesses (every access of a round sees the
/// banks as the first does; a tile column is a stride of `pitch` words).
pub fn model_passes(kernel: BankKernel, stride: u32) -> u32 {
    conflict_degree(&kernel.lane_addresses(stride), 4, 32, kernel.request_bytes())
}

/// The bytes shared memory serves for one warp request of `kernel` at
/// `stride`: the distinct 4-byte words its lanes touch × 4 (a broadcast
/// serves one element however many lanes read it).
pub fn served_bytes(kernel: BankKernel, stride: u32) -> u64 {
    let width = kernel.request_bytes();
    let mut words: Vec<u64> = kernel
        .lane_addresses(stride)
        .into_iter()
        .flat_map(|address| address / 4..=(address + width - 1) / 4)
        .collect();
    words.sort_unstable();
    words.dedup();
    4 * words.len() as u64
}

/// `None` if every checksum is what the reference says, else the first that
/// is not. The writes' per-thread shares are added up per block.
fn checksum_mismatch(
    kernel: BankKernel,
    (stride, rounds): (u32, u32),
    (block_threads, blocks): (u32, u32),
    got: &[u32],
) -> Option<String> {
    let words = kernel.access().bytes() / 4;
    match kernel {
        BankKernel::StridedWrite(_) => {
            let expected = bank_write_checksum(words, stride as u64, rounds as u64);
            got[..(blocks * block_threads) as usize]
                .chunks_exact(block_threads as usize)
                .map(|shares| shares.iter().fold(0u32, |sum, &s| sum.wrapping_add(s)))
                .enumerate()
                .find(|&(_, sum)| sum != expected)
                .map(|(b, sum)| format!("block {b} summed its table to {sum:#x}, the reference {expected:#x}"))
        }
        _ => {
            let lanes: Vec<u32> = (0..32)
                .map(|lane| expected_read_checksum(kernel, stride, rounds, lane))
                .collect();
            let threads = (block_threads * blocks) as usize;
            got[..threads]
                .iter()
                .enumerate()
                .find(|&(t, &sum)| sum != lanes[t % 32])
                .map(|(t, &sum)| format!("thread {t} summed {sum:#x}, the reference {:#x}", lanes[t % 32]))
        }
    }
}

/// The checksum every thread of lane `lane` of a read kernel must write
/// (the CPU references of `reference::shared_memory_banks`).
pub fn expected_read_checksum(kernel: BankKernel, stride: u32, rounds: u32, lane: u64) -> u32 {
    let (stride, rounds) = (stride as u64, rounds as u64);
    match kernel {
        BankKernel::NarrowRead(bytes) => narrow_read_checksum(bytes as u64, stride, rounds, lane),
        BankKernel::StructRead(members) => struct_read_checksum(members as u64, stride, rounds, lane),
        BankKernel::SplitHalvesRead => split_read_checksum(stride, rounds, lane),
        BankKernel::PermutedRead => permuted_read_checksum(stride, rounds, lane),
        BankKernel::TileColumnRead => bank_read_checksum(1, stride, 1, rounds, lane),
        _ => bank_read_checksum(kernel.access().bytes() / 4, stride, 32, rounds, lane),
    }
}

/// One (kernel, implementation) of the sweep and its launch.
struct Plan {
    kernel: BankKernel,
    implementation: Implementation,
    /// The runner that launches it.
    runner: usize,
    blocks_per_sm: u32,
    series: usize,
}

impl Experiment for BankConflicts {
    fn name(&self) -> &'static str {
        "bank-conflicts"
    }
    fn title(&self) -> &'static str {
        "Shared-memory bank conflicts and the broadcast"
    }
    fn source(&self) -> &'static str {
        "CUDA C Best Practices Guide 4.0, §3.2.2.1 (and §3.2.2.3's padded tile); OpenCL Programming Guide 2.3, §3.1.2.5"
    }
    fn points(&self) -> u64 {
        kernels().map(|k| sweep(k).len() as u64).sum()
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let axis = Axis::lines("stride (elements; the tile's pitch)", Metric::Bandwidth).y_scale(Scale::Log10);
        let mut result = ctx.result(self, axis, BYTE_COUNTING);
        let (runners, waived) = bank_runners(ctx.device)?;
        result.waived.extend(
            waived
                .into_iter()
                .map(|(implementation, reason)| Waiver::of_twins(implementation, reason)),
        );
        let plans = plan_series(ctx, &mut result, &runners)?;
        let mut bench = BankBench::new(ctx, &plans, runners)?;
        let points: Vec<(BankKernel, u32)> = kernels()
            .flat_map(|k| sweep(k).into_iter().map(move |s| (k, s)))
            .collect();
        let planned = points.len();
        each_point(ctx, points, (0, planned), |(kernel, stride)| {
            for plan in plans.iter().filter(|p| p.kernel == kernel) {
                ctx.progress
                    .set_message(format!("{} {stride}", result.series[plan.series].label));
                if let Some(point) = bench.measure(ctx, &mut result, plan, stride)? {
                    result.series[plan.series].points.push(point);
                }
            }
            Ok(())
        })?;
        for plan in &plans {
            add_slow_downs(&mut result.series[plan.series], plan.kernel);
        }
        describe(ctx, &mut result, &plans);
        Ok(result)
    }
}

/// The waiver of an implementation's twins left out of the run: `CUDA C twins`, `OpenCL C twins`.
/// Threads of a launch of `blocks` blocks of `kernel`, and the warp requests
/// each makes in `rounds` rounds.
fn requests(kernel: BankKernel, blocks: u32, rounds: u32) -> (u64, u64) {
    let threads = (BANK_BLOCK_THREADS * blocks) as u64;
    (threads, rounds as u64 * kernel.requests_per_round())
}

/// The bandwidth point of `kernel` at `stride` from its launches' times:
/// every thread's requests of `kernel.request_bytes()` counted.
fn stride_point(
    kernel: BankKernel,
    stride: u32,
    (blocks, rounds): (u32, u32),
    times_ms: &[f64],
    failure: Option<String>,
) -> Option<Point> {
    let (threads, requests_per_thread) = requests(kernel, blocks, rounds);
    let bytes = threads * requests_per_thread * kernel.request_bytes();
    Point::timed(
        PointKey::Value(stride as i64),
        &Metric::Bandwidth,
        Work::bytes(threads, bytes),
        times_ms,
        failure,
    )
}

/// Every (kernel, implementation) series, in the result's order, with the
/// blocks of its kernel that fit an SM (the OpenCL C twins, after the PTX
/// implementations where their runner is there, launch the Rust kernel's:
/// OpenCL reports no occupancy).
fn plan_series(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    runners: &[Box<dyn BankRunner + '_>],
) -> Result<Vec<Plan>> {
    let mut plans = Vec::new();
    for kernel in kernels() {
        for (r, runner) in runners.iter().enumerate() {
            for &implementation in runner.implementations() {
                let blocks_per_sm = runner.blocks_per_sm(implementation, kernel)?;
                let key = ctx.key(kernel.kernel(), implementation, element(kernel.access()));
                result.series.push(Series::of(key));
                plans.push(Plan {
                    kernel,
                    implementation,
                    runner: r,
                    blocks_per_sm,
                    series: result.series.len() - 1,
                });
            }
        }
    }
    Ok(plans)
}

/// The runners, their buffers reserved once for the largest wave, and the SM
/// clock the last PTX point measured (the OpenCL C twins' clocks per request
/// are their events' time at it).
struct BankBench<'r> {
    sms: u32,
    runners: Vec<Box<dyn BankRunner + 'r>>,
    clock_hz: Option<f64>,
}

impl<'r> BankBench<'r> {
    fn new(ctx: &RunContext<'_>, plans: &[Plan], mut runners: Vec<Box<dyn BankRunner + 'r>>) -> Result<Self> {
        let sms = ctx.device.info().multiprocessors.max(1) as u32;
        let max_blocks = plans.iter().map(|p| p.blocks_per_sm * sms).max().unwrap_or(sms);
        for runner in &mut runners {
            runner.reserve(max_blocks, ctx.settings)?;
        }
        Ok(Self {
            sms,
            runners,
            clock_hz: None,
        })
    }

    /// One point of `plan` at `stride`: a full wave timed, its checksums
    /// checked; then the figures of its spans (and its counters, --counters)
    /// where the implementation records spans, else its clocks by the events;
    /// `None` where it has no time.
    fn measure(
        &mut self,
        ctx: &RunContext<'_>,
        result: &mut ExperimentResult,
        plan: &Plan,
        stride: u32,
    ) -> Result<Option<Point>> {
        let kernel = plan.kernel;
        let case = BankCase {
            kernel,
            stride,
            rounds: rounds_for(kernel, stride),
            blocks: plan.blocks_per_sm * self.sms,
        };
        let runner = &mut self.runners[plan.runner];
        runner.fill_checksums(0)?;
        let timed = runner.time(plan.implementation, &case, ctx.settings)?;
        let checked = checksum_mismatch(
            kernel,
            (stride, case.rounds),
            (BANK_BLOCK_THREADS, case.blocks),
            &runner.read_checksums()?,
        );
        let point = match &timed.spans {
            Some(spans) => self.spans_point(&case, (&timed, spans), checked),
            None => self.events_point(&case, &timed.times_ms, checked),
        };
        let Some(mut point) = point else {
            return Ok(None);
        };
        point.set_extra(ROUNDS_RUN, case.rounds as f64);
        point.set_extra(PASSES, model_passes(kernel, stride) as f64);
        if timed.spans.is_some() {
            // After the timed samples and the check: the counters of one more launch (--counters).
            let runner = &mut self.runners[plan.runner];
            let counted = count_point(ctx, result, plan.implementation, &mut point, &mut || {
                runner.launch(plan.implementation, &case)
            })?;
            bank_counters::record(&mut point, counted.as_ref(), kernel);
        }
        Ok(Some(point))
    }

    /// The point of a case whose launches recorded their spans: the SM clocks
    /// per warp request two ways (which must agree), the bytes per clock and
    /// the SM clock, kept for the OpenCL C twins' point after it.
    fn spans_point(
        &mut self,
        case: &BankCase,
        (timed, spans): (&BankTimes, &[Vec<u64>]),
        checked: Option<String>,
    ) -> Option<Point> {
        let (kernel, blocks) = (case.kernel, case.blocks);
        let (_, requests_per_thread) = requests(kernel, blocks, case.rounds);
        let requests_per_block = (BANK_BLOCK_THREADS / 32) as f64 * requests_per_thread as f64;
        let spans: Vec<Option<SmTime>> = spans.iter().map(|w| sm_time(w, blocks as usize)).collect();
        let figures = RequestClocks::of(&spans, timed.reps, &timed.times_ms, blocks as f64 * requests_per_block);
        self.clock_hz = figures.clock_hz.or(self.clock_hz);
        let failure = checked.or_else(|| figures.failure(CLOCKS_PER_REQUEST));
        let mut point = stride_point(kernel, case.stride, (blocks, case.rounds), &timed.times_ms, failure)?;
        if let (Some(clocks), Some(by_events)) = (figures.by_spans, figures.by_events) {
            point.set_extra(CLOCKS_PER_REQUEST, clocks);
            point.set_extra(CLOCKS_PER_REQUEST_EVENTS, by_events);
            point.set_extra(BYTES_PER_CLOCK, served_bytes(kernel, case.stride) as f64 / clocks);
        }
        if let Some(hz) = figures.clock_hz {
            point.set_extra(SM_CLOCK_MHZ, hz / 1e6);
        }
        Some(point)
    }

    /// The point of a case without spans (the OpenCL C twins): its SM clocks
    /// per warp request by the events at the clock the PTX point before it measured.
    fn events_point(&self, case: &BankCase, times_ms: &[f64], checked: Option<String>) -> Option<Point> {
        let (threads, requests_per_thread) = requests(case.kernel, case.blocks, case.rounds);
        let mut point = stride_point(case.kernel, case.stride, (case.blocks, case.rounds), times_ms, checked)?;
        // Warp requests per SM: the wave's, spread over every SM.
        let requests_per_sm = (threads / 32) as f64 * requests_per_thread as f64 / self.sms as f64;
        if let (Some(hz), Some(ms)) = (self.clock_hz, point.median_ms()) {
            point.set_extra(CLOCKS_PER_REQUEST_EVENTS, ms * 1e-3 * hz / requests_per_sm);
            point.set_extra(SM_CLOCK_MHZ, hz / 1e6);
        }
        Some(point)
    }
}

/// The setup and the notes: the wave, the rounds, how each figure is taken and checked.
fn describe(ctx: &RunContext<'_>, result: &mut ExperimentResult, plans: &[Plan]) {
    let sms = ctx.device.info().multiprocessors.max(1) as u32;
    let per_sm: Vec<String> = plans
        .iter()
        .filter(|p| p.implementation == Implementation::Rust)
        .map(|p| format!("{} {}", p.kernel.kernel(), p.blocks_per_sm))
        .collect();
    result.setup.push(format!(
        "one full wave of blocks of {BANK_BLOCK_THREADS} threads ({sms} SMs × the blocks that fit: {}), \
         {ROUND_BUDGET} / (the model's passes) rounds of 32 accesses a lane (at least {MIN_ROUNDS}); the table is \
         the kernel's dynamic shared memory",
        per_sm.join(", ")
    ));
    result.notes.push(format!(
        "{CLOCKS_PER_REQUEST}: per launch, each SM's span from its blocks' earliest clock64 start to their latest \
         end (blocks sharing an SM do not always run side by side, so one block's own cycles undercount the \
         SM's time), summed over the SMs, over the warp requests of all blocks; per sample the mean of its {} \
         launches; the median. {CLOCKS_PER_REQUEST_EVENTS}: the events' time per launch at the SM clock the \
         blocks' clock64 and globaltimer readings give, over the warp requests per SM (each CUDA sample's start \
         event waits behind a 1 ms spin, so that its launches are all queued and the events hold no launch \
         latency). A launch's events time and its longest SM span must agree within 5% or the point fails. {BYTES_PER_CLOCK}: the distinct bytes a request touches (32 lanes × the access \
         width; one element for a broadcast) over {CLOCKS_PER_REQUEST}, at most 128 (32 banks × 4 bytes). {PASSES}: reference::conflict_degree (32 banks \
         of 4 bytes; 8-byte accesses served a half-warp and 16-byte ones a quarter-warp per pass). Slow-downs \
         (GB/s at stride 1 over GB/s here; the tile: pitch 33) and the ledger use the events' GB/s. Checksums of \
         every thread (reads) and every block's table (writes) checked against the CPU reference",
        kept_reps(ctx.settings)
    ));
    if plans.iter().any(|p| p.implementation == Implementation::OpenClC) {
        result.notes.push(format!(
            "OpenCL C twins (host/opencl_c/shared_memory_banks.cl: the table a `__local` argument of the same bytes) \
             on the same GPU's OpenCL queue, the Rust kernel's grid and rounds, timed by profiling events on the \
             in-order queue, checksums checked as above. OpenCL C has no clock64: their {CLOCKS_PER_REQUEST_EVENTS} \
             is the events' time at the SM clock the Rust or CUDA C point just before measured ({SM_CLOCK_MHZ}); \
             they have no {CLOCKS_PER_REQUEST} nor {BYTES_PER_CLOCK}"
        ));
    }
}

/// Sets each point's measured slow-down (the conflict-free point's GB/s over
/// its own: the same bytes per request, so the ratio of time per request) and
/// the model's, against the kernel's conflict-free point.
fn add_slow_downs(series: &mut Series, kernel: BankKernel) {
    let Some(base) = conflict_free(kernel) else {
        return;
    };
    let Some(base_gbps) = series.at(base as i64).and_then(Point::median) else {
        return;
    };
    let base_passes = model_passes(kernel, base) as f64;
    for point in &mut series.points {
        let Some(stride) = point.at.value() else {
            continue;
        };
        if let Some(gbps) = point.median() {
            point.set_extra(SLOW_DOWN, base_gbps / gbps);
        }
        point.set_extra(
            MODEL_SLOW_DOWN,
            model_passes(kernel, stride as u32) as f64 / base_passes,
        );
    }
}

/// A point's extra figure.
fn extra(series: &Series, at: i64, name: &str) -> Option<f64> {
    series.at(at)?.extra.get(name).copied()
}

fn cell(value: Option<f64>, digits: usize) -> String {
    value.map_or_else(|| "—".into(), |v| format!("{v:.digits$}"))
}

/// The Rust series of `kernel`.
fn rust(result: &ExperimentResult, kernel: BankKernel) -> Option<&Series> {
    result.series_of(kernel.kernel(), Implementation::Rust)
}

/// How many times slower `kernel` (Rust) is at `stride` than at `base`, from
/// the events' GB/s, with its spread.
fn slow_down(result: &ExperimentResult, kernel: BankKernel, stride: i64, base: i64) -> Option<Spread> {
    slow_down_of(result, Implementation::Rust, kernel, (stride, base))
}

/// [`slow_down`] of `implementation`'s series.
fn slow_down_of(
    result: &ExperimentResult,
    implementation: Implementation,
    kernel: BankKernel,
    (stride, base): (i64, i64),
) -> Option<Spread> {
    let series = result.series_of(kernel.kernel(), implementation)?;
    better_by(&result.axis.metric, series.at(base)?, series.at(stride)?)
}

/// The twins' medians of `figure` (a slow-down by implementation) beside a row.
fn twins_of(what: &str, figure: impl Fn(Implementation) -> Option<Spread>) -> String {
    twin_ratios(what, |implementation| figure(implementation).map(|f| f.median))
}

/// Measured slow-down of 4-byte reads at `stride` against stride 1 (Rust).
fn read_slow_down(result: &ExperimentResult, stride: i64) -> Option<Spread> {
    slow_down(result, BankKernel::StridedRead(BankAccess::Bytes4), stride, 1)
}

/// The rule of the broadcast's ledger row: the broadcast's time per request
/// over the conflict-free stride's.
pub const BROADCAST_RULE: Rule = Rule::NoExtraCost {
    holds_within: 1.10,
    weaker_within: 2.0,
};

impl SectionHooks for BankConflicts {
    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        let mut text = String::from("**Then vs now.** ");
        for access in BankAccess::ALL {
            let Some(series) = rust(result, BankKernel::StridedRead(access)) else {
                continue;
            };
            let (Some(worst), Some(bytes)) = (
                series
                    .points
                    .iter()
                    .filter_map(|p| Some((p.at.value()?, *p.extra.get(SLOW_DOWN)?)))
                    .max_by(|a, b| a.1.total_cmp(&b.1)),
                extra(series, 1, BYTES_PER_CLOCK),
            ) else {
                continue;
            };
            let _ = write!(
                text,
                "{}-byte reads move {bytes:.0} B/clk/SM at stride 1; the worst stride ({}) is {:.1}x slower \
                 (the model: {}x). ",
                access.bytes(),
                worst.0,
                worst.1,
                cell(extra(series, worst.0, MODEL_SLOW_DOWN), 0)
            );
        }
        if let (Some(two), Some(broadcast)) = (read_slow_down(result, 2), read_slow_down(result, 0)) {
            let _ = write!(
                text,
                "A 2-way conflict (4 bytes, stride 2) costs {:.2}x, the broadcast (stride 0) {:.2}x. ",
                two.median, broadcast.median
            );
        }
        if let Some(tile) = rust(result, BankKernel::TileColumnRead)
            && let Some(slow) = extra(tile, 32, SLOW_DOWN)
        {
            let _ = write!(
                text,
                "Reading a column of the unpadded [32][32] tile is {slow:.1}x slower than of the padded [32][33] \
                 one (§3.2.2.3's fix). "
            );
        }
        if let Some(bytes) = rust(result, BankKernel::NarrowRead(1))
            .and_then(|s| Some(extra(s, 1, CLOCKS_PER_REQUEST)? / extra(s, 4, CLOCKS_PER_REQUEST)?))
        {
            let _ = write!(
                text,
                "Bytes read four lanes to a word take {bytes:.2}x the clocks per request of one lane a word (the \
                 OpenCL guide's cc 1.x: 4x). "
            );
        }
        text.push_str(
            "The guides' cc 1.x GPUs had 16 banks and served a half-warp per pass; today's have 32 banks of 4 bytes \
             per SM.",
        );
        vec![text]
    }

    /// Per access width: the model's passes beside each read and write
    /// series' GB/s, clocks per request and slow-down; then the tile.
    fn tables(&self, result: &ExperimentResult, _report: &Report) -> Option<String> {
        let mut out = String::new();
        for access in BankAccess::ALL {
            let read = rust(result, BankKernel::StridedRead(access));
            let write = rust(result, BankKernel::StridedWrite(access));
            let Some(any) = read.or(write) else {
                continue;
            };
            let _ = writeln!(out, "**{}-byte accesses** (Rust; stride in elements)\n", access.bytes());
            let _ = writeln!(
                out,
                "| stride | passes (model) | read GB/s | read clk/request | read slow-down | write GB/s | write \
                 clk/request | write slow-down |"
            );
            let _ = writeln!(out, "|---:|---:|---:|---:|---:|---:|---:|---:|");
            for at in any.points.iter().filter_map(|p| p.at.value()) {
                let _ = write!(out, "| {at} | {} |", cell(extra(any, at, PASSES), 0));
                for series in [read, write] {
                    let point = series.and_then(|s| s.at(at));
                    let _ = write!(
                        out,
                        " {} | {} | {} |",
                        crate::report::point_cell(point),
                        cell(series.and_then(|s| extra(s, at, CLOCKS_PER_REQUEST)), 2),
                        cell(series.and_then(|s| extra(s, at, SLOW_DOWN)), 2)
                    );
                }
                let _ = writeln!(out);
            }
            let _ = writeln!(out);
        }
        if let Some(tile) = rust(result, BankKernel::TileColumnRead) {
            let _ = writeln!(out, "**Tile column read** (`[32][pitch]` words, Rust)\n");
            let _ = writeln!(
                out,
                "| pitch | passes (model) | GB/s | B/clk/SM | clk/request | slow-down vs pitch 33 |\n|---:|---:|---:|---:|---:|---:|"
            );
            for p in &tile.points {
                let Some(at) = p.at.value() else { continue };
                let _ = writeln!(
                    out,
                    "| {at} | {} | {} | {} | {} | {} |",
                    cell(extra(tile, at, PASSES), 0),
                    crate::report::point_cell(Some(p)),
                    cell(extra(tile, at, BYTES_PER_CLOCK), 1),
                    cell(extra(tile, at, CLOCKS_PER_REQUEST), 2),
                    cell(extra(tile, at, SLOW_DOWN), 2)
                );
            }
            let _ = writeln!(out);
        }
        let cases: Vec<&Series> = BankKernel::GUIDE_CASES
            .iter()
            .filter_map(|&k| rust(result, k))
            .collect();
        if !cases.is_empty() {
            let _ = writeln!(
                out,
                "**The OpenCL guide's other cases** (§3.1.2.5, Rust; a request is one load instruction)\n\n| kernel | \
                 at | passes (model) | GB/s | B/clk/SM | clk/request |\n|---|---:|---:|---:|---:|---:|"
            );
            for series in cases {
                for p in &series.points {
                    let Some(at) = p.at.value() else { continue };
                    let _ = writeln!(
                        out,
                        "| `{}` | {at} | {} | {} | {} | {} |",
                        series.key.kernel,
                        cell(extra(series, at, PASSES), 0),
                        crate::report::point_cell(Some(p)),
                        cell(extra(series, at, BYTES_PER_CLOCK), 1),
                        cell(extra(series, at, CLOCKS_PER_REQUEST), 2)
                    );
                }
            }
            let _ = writeln!(out);
        }
        out.push_str(&twins_table(result));
        let _ = writeln!(
            out,
            "GB/s cells: median (min–max over the samples). clk/request: SM clocks per warp request (one pass a \
             clock would give the model's passes)."
        );
        out.push_str(&bank_counters::table(result));
        Some(out)
    }

    fn bounds(&self, _result: &ExperimentResult, _series: &Series) -> Vec<Bound> {
        vec![
            Bound::extra(BYTES_PER_CLOCK, Unit::SharedMemory),
            Bound::extra(SM_CLOCK_MHZ, Unit::SmClock),
        ]
    }

    fn claims(&self) -> Vec<Claim> {
        claims()
    }

    fn ledger(&self, result: &ExperimentResult, report: &Report) -> Vec<LedgerRow> {
        ledger_rows(result)
            .into_iter()
            .map(|row| bank_counters::with_counters(row, result, report))
            .collect()
    }
}

/// Rust beside its CUDA C and OpenCL C twins, kernel by kernel: GB/s where
/// there is no conflict and the slow-downs the rows read; empty without twins.
fn twins_table(result: &ExperimentResult) -> String {
    let implementations = [Implementation::Rust, Implementation::CudaC, Implementation::OpenClC];
    if !result
        .series
        .iter()
        .any(|s| s.key.implementation != Implementation::Rust)
    {
        return String::new();
    }
    let mut out = String::from(
        "**Rust and its twins** (slow-downs from each implementation's own GB/s)\n\n| kernel | implementation | \
         GB/s conflict-free | stride 2 | stride 32 (tile: pitch 32) | broadcast (stride 0) |\n\
         |---|---|---:|---:|---:|---:|\n",
    );
    for kernel in BankKernel::ALL {
        let Some(base) = conflict_free(kernel) else { continue };
        for implementation in implementations {
            let Some(series) = result.series_of(kernel.kernel(), implementation) else {
                continue;
            };
            let slow = |at: i64| {
                let figure = match kernel {
                    BankKernel::TileColumnRead if at != 32 => None,
                    _ => slow_down_of(result, implementation, kernel, (at, base as i64)),
                };
                cell(figure.map(|f| f.median), 2)
            };
            let _ = writeln!(
                out,
                "| `{}` | {} | {} | {} | {} | {} |",
                kernel.kernel(),
                implementation.label(),
                crate::report::point_cell(series.at(base as i64)),
                slow(2),
                slow(32),
                slow(0)
            );
        }
    }
    out.push('\n');
    out
}

/// The claims the experiment grades.
pub fn claims() -> Vec<Claim> {
    let read = BankKernel::StridedRead(BankAccess::Bytes4);
    let tile = BankKernel::TileColumnRead;
    vec![
        Claim {
            id: "bpg-3.2.2.1-bank-conflicts",
            source: "Best Practices Guide §3.2.2.1; OpenCL guide §3.1.2.5",
            claim: "A shared-memory request whose addresses fall n to a bank is split into n conflict-free requests, \
                    dividing the bandwidth by n (a stride of 32 words: 32-way)"
                .into(),
            rule: Rule::Factor {
                claimed: model_passes(read, 32) as f64 / model_passes(read, 1) as f64,
            },
            reads: "bank_read_b32 · Rust: GB/s at stride 1 over GB/s at stride 32 (events), with the SMs' clock64 \
                    spans checked against them"
                .into(),
            experiment: "bank-conflicts",
        },
        Claim {
            id: "bpg-3.2.2.1-broadcast",
            source: "Best Practices Guide §3.2.2.1; OpenCL guide §3.1.2.5",
            claim: "Lanes reading the same shared-memory word are served at once (a broadcast): no conflict".into(),
            rule: BROADCAST_RULE,
            reads: "bank_read_b32 · Rust: GB/s at stride 1 over GB/s at stride 0 (every lane one word)".into(),
            experiment: "bank-conflicts",
        },
        Claim {
            id: "bpg-3.2.2.3-tile-column",
            source: "Best Practices Guide §3.2.2.3",
            claim: "Reading a column of a [32][32] tile of words is a 32-way bank conflict; padding the rows to 33 \
                    words removes it"
                .into(),
            rule: Rule::Factor {
                claimed: model_passes(tile, 32) as f64 / model_passes(tile, 33) as f64,
            },
            reads: "bank_tile_column_read · Rust: GB/s at pitch 33 over GB/s at pitch 32".into(),
            experiment: "bank-conflicts",
        },
    ]
    .into_iter()
    .chain(guide_case_claims())
    .collect()
}

/// What the OpenCL guide's §3.1.2.5 says of each of its other cases: id, the
/// claim, the rule, what the figure reads.
const GUIDE_CASES_SOURCE: &str = "OpenCL guide §3.1.2.5";

/// The claims of the OpenCL guide's other cases (narrow elements, doubles, structs, a permutation).
fn guide_case_claims() -> Vec<Claim> {
    let case = |id, claim: &str, rule, reads: &str| Claim {
        id,
        source: GUIDE_CASES_SOURCE,
        claim: claim.into(),
        rule,
        reads: reads.into(),
        experiment: "bank-conflicts",
    };
    let no_extra_cost = Rule::NoExtraCost {
        holds_within: 1.10,
        weaker_within: 2.0,
    };
    vec![
        case(
            "ocl-3.1.2.5-char-array",
            "Reading a char array at shared[base + tid] has bank conflicts (four lanes' bytes share a bank's word; \
             on cc 1.x one word was broadcast a pass: 4 passes), and shared[base + 4·tid] has none",
            Rule::Factor { claimed: 4.0 },
            "bank_read_b8 · Rust: GB/s at 4 bytes a lane over GB/s at 1 byte a lane (the same bytes a request)",
        ),
        case(
            "ocl-3.1.2.5-short-array",
            "16-bit elements, by the same rule as chars: two lanes' halves share a bank's word at shared[base + tid] \
             (2 passes on cc 1.x), none at shared[base + 2·tid]",
            Rule::Factor { claimed: 2.0 },
            "bank_read_b16 · Rust: GB/s at 2 halves a lane over GB/s at 1 half a lane",
        ),
        case(
            "ocl-3.1.2.5-double-array",
            "An array of doubles read at shared[base + tid] has 2-way bank conflicts: a request takes twice a \
             32-bit one's time",
            Rule::Factor { claimed: 2.0 },
            "time per warp request, bank_read_b64 over bank_read_b32, both at stride 1 (Rust; from their GB/s)",
        ),
        case(
            "ocl-3.1.2.5-split-double",
            "Splitting doubles into arrays of their high and low 32-bit halves avoids the conflict but may not help, \
             and will do worse than reading whole doubles on later GPUs",
            Rule::Direction,
            "bank_read_b64 over bank_read_split_b64, GB/s (the same 8 bytes a value; Rust): above 1 when the split \
             halves are slower",
        ),
        case(
            "ocl-3.1.2.5-struct-3-words",
            "A { float x, y, z; } struct array read at shared[base + tid] is three separate reads without bank \
             conflicts (each member three words apart)",
            no_extra_cost,
            "time per warp request, bank_read_struct3 over bank_read_b32 at stride 1 (Rust; the same 4 bytes a \
             lane)",
        ),
        case(
            "ocl-3.1.2.5-struct-2-words",
            "A { float x, y; } struct array read at shared[base + tid] is two separate reads with bank conflicts \
             (each member two words apart: 2-way)",
            Rule::Factor { claimed: 2.0 },
            "time per warp request, bank_read_struct2 over bank_read_b32 at stride 1 (Rust; the same 4 bytes a \
             lane)",
        ),
        case(
            "ocl-3.1.2.5-permutation",
            "Lanes reading the 32-bit words of one row in a random permutation have no bank conflicts (Figure 3-5)",
            no_extra_cost,
            "time per warp request, bank_read_permuted (multiplier 13) over bank_read_b32 at stride 1 (Rust)",
        ),
    ]
}

/// The ledger rows of a bank-conflicts result (pure: tested on synthetic results).
pub fn ledger_rows(result: &ExperimentResult) -> Vec<LedgerRow> {
    let claims = claims();
    let mut rows = Vec::new();
    if let (Some(conflicted), Some(two)) = (read_slow_down(result, 32), read_slow_down(result, 2)) {
        let clocks = rust(result, BankKernel::StridedRead(BankAccess::Bytes4))
            .and_then(|s| Some(extra(s, 32, CLOCKS_PER_REQUEST)? / extra(s, 1, CLOCKS_PER_REQUEST)?));
        let read = BankKernel::StridedRead(BankAccess::Bytes4);
        let twins = twins_of("stride 1 over stride 32", |i| slow_down_of(result, i, read, (32, 1)));
        rows.push(claims[0].grade(
            conflicted,
            format!(
                "4-byte reads, GB/s: stride 1 over stride 32 {}x (by the SMs' clock64 spans {}x), stride 2 {:.2}x{twins}",
                conflicted.text(2),
                cell(clocks, 2),
                two.median
            ),
            result.device,
        ));
    }
    if let Some(broadcast) = read_slow_down(result, 0) {
        let read = BankKernel::StridedRead(BankAccess::Bytes4);
        let twins = twins_of("the broadcast over stride 1", |i| slow_down_of(result, i, read, (0, 1)));
        rows.push(claims[1].grade(
            broadcast,
            format!(
                "4-byte reads, every lane one word: {}x the time per request of stride 1{twins}",
                broadcast.text(2)
            ),
            result.device,
        ));
    }
    if let Some(padded) = slow_down(result, BankKernel::TileColumnRead, 32, 33) {
        let tile = BankKernel::TileColumnRead;
        let twins = twins_of("pitch 32 over 33", |i| slow_down_of(result, i, tile, (32, 33)));
        rows.push(claims[2].grade(
            padded,
            format!(
                "column reads, pitch 32 over pitch 33: {}x the time per request{twins}",
                padded.text(2)
            ),
            result.device,
        ));
    }
    rows.extend(guide_case_rows(result));
    rows
}

/// Time per warp request of `a` (kernel, at) over `b`'s (both by
/// `implementation`), from their GB/s and the bytes one request reads:
/// `(GB/s b / GB/s a) · (bytes a / bytes b)`.
fn request_time_ratio(
    result: &ExperimentResult,
    implementation: Implementation,
    a: (BankKernel, i64),
    b: (BankKernel, i64),
) -> Option<Spread> {
    let series = |kernel: BankKernel| result.series_of(kernel.kernel(), implementation);
    let ratio = better_by(&result.axis.metric, series(b.0)?.at(b.1)?, series(a.0)?.at(a.1)?)?;
    let bytes = a.0.request_bytes() as f64 / b.0.request_bytes() as f64;
    Some(Spread {
        low: ratio.low * bytes,
        median: ratio.median * bytes,
        high: ratio.high * bytes,
    })
}

/// The figures of the OpenCL guide's other cases by `implementation`, in
/// [`guide_case_claims`]' order.
fn guide_case_figures(result: &ExperimentResult, implementation: Implementation) -> [Option<Spread>; 7] {
    use BankKernel::*;
    let word = (StridedRead(BankAccess::Bytes4), 1);
    let ratio = |a, b| request_time_ratio(result, implementation, a, b);
    [
        ratio((NarrowRead(1), 1), (NarrowRead(1), 4)),
        ratio((NarrowRead(2), 1), (NarrowRead(2), 2)),
        ratio((StridedRead(BankAccess::Bytes8), 1), word),
        // Two 4-byte requests a value against one 8-byte request: the GB/s ratio.
        ratio((SplitHalvesRead, 1), (StridedRead(BankAccess::Bytes8), 1)).map(|r| Spread {
            low: r.low * 2.0,
            median: r.median * 2.0,
            high: r.high * 2.0,
        }),
        ratio((StructRead(3), 1), word),
        ratio((StructRead(2), 1), word),
        ratio((PermutedRead, PERMUTATION_MULTIPLIER as i64), word),
    ]
}

/// The rows of the OpenCL guide's other cases, in [`guide_case_claims`]' order.
fn guide_case_rows(result: &ExperimentResult) -> Vec<LedgerRow> {
    let figures = guide_case_figures(result, Implementation::Rust);
    let twins = [Implementation::CudaC, Implementation::OpenClC].map(|i| guide_case_figures(result, i));
    let measured = [
        "1-byte reads: time per request at 1 byte a lane over 4 bytes a lane",
        "2-byte reads: time per request at 1 half a lane over 2 halves a lane",
        "time per request of 8-byte over 4-byte reads at stride 1",
        "time per 64-bit value, two 32-bit halves from two arrays over one 8-byte read",
        "time per member load of the 3-word struct over a stride-1 4-byte read",
        "time per member load of the 2-word struct over a stride-1 4-byte read",
        "time per request, permuted (multiplier 13) over stride 1",
    ];
    guide_case_claims()
        .iter()
        .zip(figures)
        .zip(measured)
        .enumerate()
        .filter_map(|(case, ((claim, figure), what))| {
            let figure = figure?;
            let twins = twins_of("the same", |implementation| match implementation {
                Implementation::CudaC => twins[0][case],
                Implementation::OpenClC => twins[1][case],
                _ => None,
            });
            Some(claim.grade(figure, format!("{what}: {}x{twins}", figure.text(2)), result.device))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::ledger_fixtures::{rendered, result, series, series_with_spread};
    use super::*;
    use crate::report::Verdict;

    /// The waivers of the twins the runners leave out keep the names the
    /// experiment gave them before it had runners.
    #[test]
    fn twins_left_out_are_waived_under_their_old_names() {
        let cuda = Waiver::of_twins(Implementation::CudaC, "NVRTC is missing".into());
        assert_eq!(
            (cuda.what.as_str(), cuda.reason.as_str()),
            ("CUDA C twins", "NVRTC is missing")
        );
        let opencl = Waiver::of_twins(Implementation::OpenClC, "no platform".into());
        assert_eq!(
            (opencl.what.as_str(), opencl.reason.as_str()),
            ("OpenCL C twins", "no platform")
        );
    }

    /// 4-byte reads whose time per request is `clocks` at each stride: GB/s = 8000 / clocks.
    fn bank_result(clocks: &[(i64, f64)]) -> ExperimentResult {
        let gbps: Vec<(i64, f64)> = clocks.iter().map(|&(x, c)| (x, 8000.0 / c)).collect();
        let extras: Vec<(i64, &str, f64)> = clocks.iter().map(|&(x, c)| (x, CLOCKS_PER_REQUEST, c)).collect();
        let reads = series("bank_read_b32", Implementation::Rust, "", &gbps, &extras);
        result("bank-conflicts", Metric::Bandwidth, vec![reads])
    }

    /// Rust series of `kernel` whose time per warp request is `clocks` at each point:
    /// GB/s = 32 lanes × the request's bytes / clocks.
    fn case_series(kernel: BankKernel, clocks: &[(i64, f64)]) -> Series {
        let bytes = 32.0 * kernel.request_bytes() as f64;
        let gbps: Vec<(i64, f64)> = clocks.iter().map(|&(x, c)| (x, bytes / c)).collect();
        series(kernel.kernel(), Implementation::Rust, "", &gbps, &[])
    }

    /// The guide's cases with these clocks per request: (b8 at 1, b16 at 1,
    /// b64, split, struct3, struct2, permuted); b8 at 4, b16 at 2 and b32 at 1 take 1.
    fn cases_result(clocks: [f64; 7]) -> ExperimentResult {
        use BankKernel::*;
        let [b8, b16, b64, split, struct3, struct2, permuted] = clocks;
        let all = vec![
            case_series(StridedRead(BankAccess::Bytes4), &[(1, 1.0)]),
            case_series(NarrowRead(1), &[(1, b8), (4, 1.0)]),
            case_series(NarrowRead(2), &[(1, b16), (2, 1.0)]),
            case_series(StridedRead(BankAccess::Bytes8), &[(1, b64)]),
            case_series(SplitHalvesRead, &[(1, split)]),
            case_series(StructRead(3), &[(1, struct3)]),
            case_series(StructRead(2), &[(1, struct2)]),
            case_series(PermutedRead, &[(PERMUTATION_MULTIPLIER as i64, permuted)]),
        ];
        result("bank-conflicts", Metric::Bandwidth, all)
    }

    fn case_verdicts(rows: &[LedgerRow]) -> Vec<(&str, Verdict)> {
        rows.iter()
            .filter(|r| r.id.starts_with("ocl-3.1.2.5"))
            .map(|r| (r.id.as_str(), r.verdict))
            .collect()
    }

    #[test]
    fn the_guides_cases_are_graded_by_what_it_says() {
        use Verdict::*;
        // Today's expectation: narrow elements share words, 64-bit loads take two passes,
        // the split halves two one-pass loads (the same time a value), struct2's members 2-way.
        let today = ledger_rows(&cases_result([1.0, 1.0, 2.0, 1.0, 1.0, 2.0, 1.0]));
        assert_eq!(
            case_verdicts(&today),
            [
                ("ocl-3.1.2.5-char-array", Gone),
                ("ocl-3.1.2.5-short-array", Gone),
                ("ocl-3.1.2.5-double-array", Holds),
                ("ocl-3.1.2.5-split-double", Gone),
                ("ocl-3.1.2.5-struct-3-words", Holds),
                ("ocl-3.1.2.5-struct-2-words", Holds),
                ("ocl-3.1.2.5-permutation", Holds),
            ]
        );
        let split = today.iter().find(|r| r.id == "ocl-3.1.2.5-split-double").unwrap();
        assert!(split.measured.contains("1.00x"), "{}", split.measured);
        // cc 1.x's figures: 4 and 2 passes for chars and shorts; the split halves slower than whole values.
        let then = ledger_rows(&cases_result([4.0, 2.0, 2.0, 1.5, 1.0, 2.0, 1.0]));
        let verdicts = case_verdicts(&then);
        assert_eq!(verdicts[0], ("ocl-3.1.2.5-char-array", Holds));
        assert_eq!(verdicts[1], ("ocl-3.1.2.5-short-array", Holds));
        assert_eq!(
            verdicts[3],
            ("ocl-3.1.2.5-split-double", Holds),
            "1.5x slower per value"
        );
        // Conflicts where the guide says none, none where it says some.
        let wrong = ledger_rows(&cases_result([1.0, 1.0, 1.0, 0.25, 1.5, 1.0, 3.0]));
        let verdicts = case_verdicts(&wrong);
        assert_eq!(verdicts[2].1, Gone, "a 64-bit request as fast as a 32-bit one");
        assert_eq!(verdicts[3].1, Reversed, "split halves faster than whole values");
        assert_eq!(verdicts[4].1, Weaker, "struct3 at 1.5x");
        assert_eq!(verdicts[5].1, Gone, "struct2 without conflicts");
        assert_eq!(verdicts[6].1, Gone, "a permutation at 3x");
    }

    #[test]
    fn the_rows_grade_rust_and_show_the_twins_beside_it() {
        let reads = |imp, worst: f64| {
            let gbps = [(0, 8000.0), (1, 8000.0), (2, 4000.0), (32, 8000.0 / worst)];
            series("bank_read_b32", imp, "", &gbps, &[])
        };
        let tile = |imp, worst: f64| {
            series(
                "bank_tile_column_read",
                imp,
                "",
                &[(32, 100.0 / worst), (33, 100.0)],
                &[],
            )
        };
        let r = result(
            "bank-conflicts",
            Metric::Bandwidth,
            vec![
                reads(Implementation::Rust, 32.0),
                reads(Implementation::OpenClC, 16.0),
                tile(Implementation::Rust, 32.0),
                tile(Implementation::CudaC, 31.0),
                tile(Implementation::OpenClC, 8.0),
            ],
        );
        let rows = ledger_rows(&r);
        let row = |id: &str| rows.iter().find(|r| r.id == id).unwrap();
        let conflicts = row("bpg-3.2.2.1-bank-conflicts");
        assert_eq!(conflicts.verdict, Verdict::Holds, "Rust's 32x graded");
        assert!(
            conflicts
                .measured
                .ends_with("; the twins, stride 1 over stride 32: OpenCL C: 16.00x"),
            "{}",
            conflicts.measured
        );
        assert!(
            row("bpg-3.2.2.1-broadcast")
                .measured
                .ends_with("; the twins, the broadcast over stride 1: OpenCL C: 1.00x")
        );
        let padded = row("bpg-3.2.2.3-tile-column");
        assert_eq!(padded.verdict, Verdict::Holds);
        assert!(
            padded
                .measured
                .ends_with("; the twins, pitch 32 over 33: CUDA C: 31.00x, OpenCL C: 8.00x"),
            "{}",
            padded.measured
        );
        let (markdown, _, _) = rendered(r);
        assert!(markdown.contains("**Rust and its twins**"), "{markdown}");
        assert!(markdown.contains("| `bank_read_b32` | OpenCL C | 8000"), "{markdown}");
        assert!(
            markdown.contains("| `bank_tile_column_read` | CUDA C | 100"),
            "{markdown}"
        );
    }

    #[test]
    fn the_guides_cases_show_the_twins_figures() {
        use BankKernel::*;
        let mut r = cases_result([1.0, 1.0, 2.0, 1.0, 1.0, 2.0, 1.0]);
        let opencl = |kernel: BankKernel, clocks: &[(i64, f64)]| {
            let mut s = case_series(kernel, clocks);
            s.key.implementation = Implementation::OpenClC;
            s
        };
        r.series.push(opencl(StridedRead(BankAccess::Bytes4), &[(1, 1.0)]));
        r.series.push(opencl(StructRead(2), &[(1, 3.0)]));
        let rows = ledger_rows(&r);
        let struct2 = rows.iter().find(|r| r.id == "ocl-3.1.2.5-struct-2-words").unwrap();
        assert_eq!(struct2.verdict, Verdict::Holds, "Rust's 2x graded");
        assert!(
            struct2
                .measured
                .ends_with("2.00x; the twins, the same: OpenCL C: 3.00x"),
            "{}",
            struct2.measured
        );
        let char_row = rows.iter().find(|r| r.id == "ocl-3.1.2.5-char-array").unwrap();
        assert!(!char_row.measured.contains("the twins"), "{}", char_row.measured);
    }

    #[test]
    fn the_cases_model_passes_and_rounds() {
        use BankKernel::*;
        assert_eq!(model_passes(NarrowRead(1), 1), 1, "four lanes share a word today");
        assert_eq!(model_passes(NarrowRead(2), 1), 1);
        assert_eq!(model_passes(StructRead(2), 1), 2, "members 2 words apart");
        assert_eq!(model_passes(StructRead(3), 1), 1);
        assert_eq!(model_passes(SplitHalvesRead, 1), 1);
        assert_eq!(model_passes(PermutedRead, PERMUTATION_MULTIPLIER), 1);
        assert_eq!(
            model_passes(PermutedRead, 2),
            1,
            "an even multiplier: lane pairs share words"
        );
        assert_eq!(served_bytes(PermutedRead, 2), 64);
        assert_eq!(served_bytes(NarrowRead(1), 1), 32, "8 words");
        assert_eq!(served_bytes(NarrowRead(1), 4), 128);
        assert_eq!(served_bytes(NarrowRead(2), 1), 64);
        assert_eq!(served_bytes(StructRead(3), 1), 128);
        // About as many passes a lane per launch as the strided kernels.
        for kernel in BankKernel::GUIDE_CASES {
            for stride in sweep(kernel) {
                let passes = rounds_for(kernel, stride) as u64
                    * kernel.requests_per_round()
                    * model_passes(kernel, stride) as u64;
                assert!(
                    (4096..=8192).contains(&passes),
                    "{kernel:?} at {stride}: {passes} passes a lane"
                );
            }
        }
        // No row without its points.
        let only_b8 = result(
            "bank-conflicts",
            Metric::Bandwidth,
            vec![case_series(NarrowRead(1), &[(1, 1.0), (4, 1.0)])],
        );
        assert_eq!(case_verdicts(&ledger_rows(&only_b8)).len(), 1);
    }

    #[test]
    fn the_model_gives_the_guides_strided_degrees() {
        let read = BankKernel::StridedRead(BankAccess::Bytes4);
        assert_eq!(model_passes(read, 1), 1);
        assert_eq!(model_passes(read, 2), 2);
        assert_eq!(model_passes(read, 32), 32);
        assert_eq!(model_passes(read, 0), 1, "the broadcast");
        assert_eq!(model_passes(BankKernel::TileColumnRead, 33), 1);
        assert_eq!(model_passes(BankKernel::TileColumnRead, 32), 32);
        assert_eq!(
            model_passes(BankKernel::StridedRead(BankAccess::Bytes8), 1),
            2,
            "two half-warps"
        );
    }

    #[test]
    fn a_broadcast_serves_one_element() {
        use BankAccess::*;
        assert_eq!(served_bytes(BankKernel::StridedRead(Bytes4), 1), 128);
        assert_eq!(served_bytes(BankKernel::StridedRead(Bytes8), 1), 256);
        assert_eq!(served_bytes(BankKernel::StridedRead(Bytes16), 32), 512);
        assert_eq!(served_bytes(BankKernel::StridedRead(Bytes8), 0), 8, "the broadcast");
        assert_eq!(served_bytes(BankKernel::StridedRead(Bytes4), 0), 4);
        assert_eq!(served_bytes(BankKernel::TileColumnRead, 33), 128);
    }

    #[test]
    fn rounds_keep_every_launch_about_as_long() {
        let read = BankKernel::StridedRead(BankAccess::Bytes4);
        assert_eq!(rounds_for(read, 1), 256);
        assert_eq!(rounds_for(read, 2), 128);
        assert_eq!(rounds_for(read, 32), 8);
        assert_eq!(rounds_for(BankKernel::StridedRead(BankAccess::Bytes16), 32), MIN_ROUNDS);
        for stride in STRIDES {
            let rounds = rounds_for(read, stride);
            let passes = rounds * model_passes(read, stride);
            assert!((128..=512).contains(&passes), "stride {stride}: {passes} passes a lane");
        }
    }

    #[test]
    fn conflicts_are_graded_by_the_factor_rule_and_the_broadcast_by_its_own() {
        let rows = ledger_rows(&bank_result(&[(0, 1.0), (1, 1.0), (2, 2.0), (32, 31.0)]));
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].id, "bpg-3.2.2.1-bank-conflicts");
        assert_eq!(rows[0].verdict, Verdict::Holds);
        assert!(rows[0].measured.contains("31.00x"), "{}", rows[0].measured);
        assert_eq!(rows[1].verdict, Verdict::Holds);

        let weaker = ledger_rows(&bank_result(&[(0, 1.5), (1, 1.0), (2, 1.2), (32, 8.0)]));
        assert_eq!(weaker[0].verdict, Verdict::Weaker, "8x of a claimed 32x");
        assert_eq!(weaker[1].verdict, Verdict::Weaker, "a broadcast at 1.5x");

        let gone = ledger_rows(&bank_result(&[(0, 30.0), (1, 1.0), (2, 1.0), (32, 1.01)]));
        assert_eq!(gone[0].verdict, Verdict::Gone);
        assert_eq!(gone[1].verdict, Verdict::Gone, "a serialised broadcast");
    }

    #[test]
    fn a_spread_across_the_threshold_is_undecided() {
        // Stride 1 at 8000 GB/s; stride 32 between 8000/20 and 8000/14: 14x–20x straddles 16.5x (halfway to 32).
        let reads = series_with_spread(
            "bank_read_b32",
            Implementation::Rust,
            &[
                (1, [7900.0, 8000.0, 8100.0]),
                (2, [3900.0, 4000.0, 4100.0]),
                (32, [400.0, 480.0, 570.0]),
            ],
        );
        let rows = ledger_rows(&result("bank-conflicts", Metric::Bandwidth, vec![reads]));
        assert_eq!(rows[0].verdict, Verdict::Undecided, "{rows:?}");
        assert!(
            rows[0].verdict_text().starts_with("undecided (13."),
            "{}",
            rows[0].verdict_text()
        );
    }

    #[test]
    fn the_broadcast_rule_has_stated_edges() {
        assert_eq!(BROADCAST_RULE.verdict_at(1.10), Verdict::Holds);
        assert_eq!(BROADCAST_RULE.verdict_at(1.11), Verdict::Weaker);
        assert_eq!(BROADCAST_RULE.verdict_at(2.0), Verdict::Weaker);
        assert_eq!(BROADCAST_RULE.verdict_at(2.01), Verdict::Gone);
        assert_eq!(BROADCAST_RULE.verdict_at(f64::NAN), Verdict::Failed);
    }

    #[test]
    fn no_rows_without_the_points_they_need() {
        assert!(ledger_rows(&bank_result(&[(1, 1.0)])).is_empty());
        let rows = ledger_rows(&bank_result(&[(0, 1.0), (1, 1.0)]));
        assert_eq!(rows.len(), 1, "the broadcast alone");
    }

    #[test]
    fn slow_downs_are_against_the_conflict_free_point() {
        let read = BankKernel::StridedRead(BankAccess::Bytes4);
        let mut s = series(
            "bank_read_b32",
            Implementation::Rust,
            "",
            &[(1, 8000.0), (2, 4000.0), (32, 250.0)],
            &[],
        );
        add_slow_downs(&mut s, read);
        assert_eq!(extra(&s, 2, SLOW_DOWN), Some(2.0));
        assert_eq!(extra(&s, 32, SLOW_DOWN), Some(32.0));
        assert_eq!(extra(&s, 32, MODEL_SLOW_DOWN), Some(32.0));
        assert_eq!(extra(&s, 1, SLOW_DOWN), Some(1.0));
    }

    #[test]
    fn checksums_are_checked_per_thread_and_per_block() {
        let read = BankKernel::StridedRead(BankAccess::Bytes4);
        let rounds = 12;
        let good: Vec<u32> = (0..64)
            .map(|t| bank_read_checksum(1, 3, 32, rounds as u64, t % 32))
            .collect();
        assert_eq!(checksum_mismatch(read, (3, rounds), (32, 2), &good), None);
        let mut bad = good.clone();
        bad[40] ^= 1;
        assert!(
            checksum_mismatch(read, (3, rounds), (32, 2), &bad)
                .unwrap()
                .contains("thread 40")
        );
        // Writes: each block's 32 threads' shares add up to the table's sum.
        let write = BankKernel::StridedWrite(BankAccess::Bytes8);
        let sum = bank_write_checksum(2, 5, rounds as u64);
        let mut shares = vec![0u32; 64];
        shares[0] = sum.wrapping_sub(7);
        shares[5] = 7;
        shares[32] = sum;
        assert_eq!(checksum_mismatch(write, (5, rounds), (32, 2), &shares), None);
        shares[33] = 1;
        assert!(
            checksum_mismatch(write, (5, rounds), (32, 2), &shares)
                .unwrap()
                .contains("block 1")
        );
    }

    #[test]
    fn the_section_renders_its_tables_plot_and_rows() {
        let read = BankKernel::StridedRead(BankAccess::Bytes4);
        let points: Vec<(i64, f64)> = (0..=32)
            .map(|s| (s, 8000.0 / model_passes(read, s as u32) as f64))
            .collect();
        let extras: Vec<(i64, &str, f64)> = (0..=32)
            .flat_map(|s| {
                let passes = model_passes(read, s as u32) as f64;
                [
                    (s, CLOCKS_PER_REQUEST, passes),
                    (s, PASSES, passes),
                    (s, BYTES_PER_CLOCK, 128.0 / passes),
                ]
            })
            .collect();
        let mut reads = series("bank_read_b32", Implementation::Rust, "", &points, &extras);
        add_slow_downs(&mut reads, read);
        let mut tile = series(
            "bank_tile_column_read",
            Implementation::Rust,
            "",
            &[(32, 250.0), (33, 8000.0)],
            &[],
        );
        add_slow_downs(&mut tile, BankKernel::TileColumnRead);
        let (markdown, files, rows) = rendered(result("bank-conflicts", Metric::Bandwidth, vec![reads, tile]));
        assert!(
            markdown.contains("**4-byte accesses**") && markdown.contains("**Tile column read**"),
            "{markdown}"
        );
        assert!(markdown.contains("the worst stride (32) is 32.0x slower"), "{markdown}");
        assert!(markdown.contains("padded [32][33] one"), "{markdown}");
        assert!(files.contains(&"bank-conflicts.svg".to_string()), "{files:?}");
        let ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "bpg-3.2.2.1-bank-conflicts",
                "bpg-3.2.2.1-broadcast",
                "bpg-3.2.2.3-tile-column"
            ]
        );
        assert!(rows.iter().all(|r| r.verdict == Verdict::Holds), "{rows:?}");
    }

    #[test]
    fn shared_memory_past_128_bytes_a_clock_fails_its_point() {
        use crate::report::{Ceiling, DeviceCeilings, Unit};
        let mut reads = series(
            "bank_read_b32",
            Implementation::Rust,
            "",
            &[(1, 30705.0), (32, 1041.0)],
            &[(1, BYTES_PER_CLOCK, 417.0), (32, BYTES_PER_CLOCK, 3.9)],
        );
        add_slow_downs(&mut reads, BankKernel::StridedRead(BankAccess::Bytes4));
        let mut r = result("bank-conflicts", Metric::Bandwidth, vec![reads]);
        let ceilings = DeviceCeilings {
            ordinal: 0,
            sm_clock_mhz: 1980.0,
            l2_bytes: 50 << 20,
            ceilings: vec![Ceiling {
                unit: Unit::SharedMemory,
                value: 128.0,
                source: "32 banks × 4 bytes".into(),
            }],
            experiment_clocks: Vec::new(),
        };
        let bounds: Vec<Vec<Bound>> = r.series.iter().map(|s| BankConflicts.bounds(&r, s)).collect();
        assert_eq!(crate::report::ceilings::check_result(&mut r, &ceilings, &bounds), 1);
        let failed = r.series[0].at(1).unwrap();
        assert!(
            failed.value.is_none() && failed.extra.is_empty(),
            "no figure of a failed point is shown"
        );
        assert!(
            failed
                .status
                .reason()
                .unwrap()
                .contains("417 B/clk/SM exceeds shared memory's 128")
        );
        assert!(ledger_rows(&r).is_empty(), "nothing graded from the failed point");
    }
}
