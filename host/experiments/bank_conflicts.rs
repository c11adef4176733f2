//! Best Practices Guide §3.2.2.1 and the OpenCL guide §3.1.2.5: shared-memory
//! bank conflicts. Every bank kernel (4-, 8- and 16-byte reads and writes)
//! at strides 0 (every lane one element: the broadcast) to 32 elements, and
//! the `[32][pitch]` tile's column read at pitch 32 and the padded 33; per
//! point the GPU's GB/s (events around full-GPU launches), the shared-memory
//! bytes per clock per SM and SM clocks per warp request (each block's
//! `clock64`), and the passes `reference::conflict_degree` says the pattern
//! needs, beside the measured slow-down.

use std::fmt::Write;

use kernels_gpu::shared_memory_banks::bank_shared_bytes;

use super::bank_counters;
use super::counter_launch::count_point;
use super::launch_outputs::{LaunchOutputs, TimedLaunches, kept_reps, median_of, sample_means};
use super::{Experiment, RunContext};
use crate::error::Result;
use crate::gpu::DeviceBuffer;
use crate::launchers::{BANK_BLOCK_THREADS, BankAccess, BankKernel, bank_kernel};
use crate::reference::{bank_read_checksum, bank_write_checksum, conflict_degree, strided_lane_addresses};
use crate::report::{
    Axis, ExperimentResult, LedgerRow, Metric, Point, PointKey, Report, Scale, SectionHooks, Series, Verdict, Work,
};
use crate::testbed::Implementation;
use crate::timing::CudaTimer;

pub struct BankConflicts;

/// Rounds of 32 accesses a lane per launch.
const ROUNDS: u32 = 32;
/// The strides of the strided kernels: 0 (broadcast) to 32 elements.
const STRIDES: std::ops::RangeInclusive<u32> = 0..=32;
/// The tile's pitches: unpadded and padded.
const PITCHES: [u32; 2] = [32, 33];
/// Warp accesses a lane makes per round.
const ACCESSES_PER_ROUND: u64 = 32;

/// Extra figures of each point, by name.
pub const BYTES_PER_CLOCK: &str = "B/clk/SM";
pub const CLOCKS_PER_REQUEST: &str = "SM clk per warp request";
pub const PASSES: &str = "passes (model)";
pub const SLOW_DOWN: &str = "slow-down";
pub const MODEL_SLOW_DOWN: &str = "model slow-down";

const BYTE_COUNTING: &str = "the bytes the lanes ask of shared memory: threads × rounds × 32 accesses × the access \
    width (a broadcast counts every lane's bytes; the write kernels' one salt load a round is not counted)";

/// `b32`, `b64`, `b128`: the element of a series.
fn element(access: BankAccess) -> &'static str {
    match access {
        BankAccess::Bytes4 => "b32",
        BankAccess::Bytes8 => "b64",
        BankAccess::Bytes16 => "b128",
    }
}

/// The swept values of a kernel: strides, or the tile's pitches.
fn sweep(kernel: BankKernel) -> Vec<u32> {
    match kernel {
        BankKernel::TileColumnRead => PITCHES.to_vec(),
        _ => STRIDES.collect(),
    }
}

/// Where the kernel's slow-down is measured from: stride 1, or the padded pitch.
fn conflict_free(kernel: BankKernel) -> u32 {
    match kernel {
        BankKernel::TileColumnRead => 33,
        _ => 1,
    }
}

/// The passes one warp request of `kernel` at `stride` (pitch) needs, by
/// the model: the lanes' first accesses (every access of a round sees the
/// banks as the first does; a tile column is a stride of `pitch` words).
pub fn model_passes(kernel: BankKernel, stride: u32) -> u32 {
    let width = kernel.access().bytes();
    conflict_degree(&strided_lane_addresses(stride as u64, width), 4, 32, width)
}

/// `None` if every checksum is what the reference says, else the first that is not.
fn checksum_mismatch(
    kernel: BankKernel,
    stride: u32,
    (block_threads, blocks): (u32, u32),
    got: &[u32],
) -> Option<String> {
    let words = kernel.access().bytes() / 4;
    match kernel {
        BankKernel::StridedWrite(_) => {
            let expected = bank_write_checksum(words, stride as u64, ROUNDS as u64);
            got[..blocks as usize].iter().position(|&sum| sum != expected).map(|b| {
                format!(
                    "block {b} summed its table to {:#x}, the reference {expected:#x}",
                    got[b]
                )
            })
        }
        _ => {
            let step = if kernel == BankKernel::TileColumnRead { 1 } else { 32 };
            let lanes: Vec<u32> = (0..32)
                .map(|lane| bank_read_checksum(words, stride as u64, step, ROUNDS as u64, lane))
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

/// One (kernel, implementation) of the sweep and its launch.
struct Plan {
    kernel: BankKernel,
    implementation: Implementation,
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
        BankKernel::ALL.iter().map(|&k| sweep(k).len() as u64).sum()
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let axis = Axis::lines("stride (elements; the tile's pitch)", Metric::Bandwidth).y_scale(Scale::Log10);
        let mut result = ctx.result(self, axis, BYTE_COUNTING);
        let implementations = ctx.ptx_implementations(&mut result);
        let dut = ctx.device;
        let sms = dut.info().multiprocessors.max(1) as u32;
        let mut plans = Vec::new();
        for kernel in BankKernel::ALL {
            for &implementation in &implementations {
                let shared = bank_shared_bytes(kernel.access().bytes() as usize);
                let blocks_per_sm = dut
                    .kernel(implementation, kernel.kernel())?
                    .max_active_blocks_per_sm(BANK_BLOCK_THREADS, shared)?
                    .max(1) as u32;
                let key = ctx.key(kernel.kernel(), implementation, element(kernel.access()));
                result.series.push(Series::of(key));
                plans.push(Plan {
                    kernel,
                    implementation,
                    blocks_per_sm,
                    series: result.series.len() - 1,
                });
            }
        }
        let max_blocks = plans.iter().map(|p| p.blocks_per_sm * sms).max().unwrap_or(sms);
        let mut outputs = LaunchOutputs::<u64>::for_settings(dut.gpu(), ctx.settings, max_blocks as usize)?;
        let mut checksums = DeviceBuffer::<u32>::uninit(dut.gpu(), (max_blocks * BANK_BLOCK_THREADS) as usize)?;
        // The clocks of the counters pass's launches (--counters), read by no one.
        let mut counter_cycles = DeviceBuffer::<u64>::uninit(dut.gpu(), max_blocks as usize)?;
        let mut timer = CudaTimer::new(dut.gpu())?;
        let points: Vec<(BankKernel, u32)> = BankKernel::ALL
            .into_iter()
            .flat_map(|k| sweep(k).into_iter().map(move |s| (k, s)))
            .collect();
        for (done, &(kernel, stride)) in points.iter().enumerate() {
            if ctx.stop_before(done, points.len()) {
                break;
            }
            for plan in plans.iter().filter(|p| p.kernel == kernel) {
                ctx.progress
                    .set_message(format!("{} {stride}", result.series[plan.series].label));
                let blocks = plan.blocks_per_sm * sms;
                checksums.fill(0)?;
                let TimedLaunches {
                    times_ms,
                    written,
                    reps,
                } = outputs.time(&mut timer, ctx.settings, &mut |cycles| {
                    bank_kernel(
                        dut,
                        plan.implementation,
                        kernel,
                        stride,
                        ROUNDS,
                        (BANK_BLOCK_THREADS, blocks),
                        cycles,
                        &mut checksums,
                    )
                })?;
                let failure = checksum_mismatch(kernel, stride, (BANK_BLOCK_THREADS, blocks), &checksums.to_host()?);
                let per_launch: Vec<f64> = written
                    .iter()
                    .filter_map(|w| median_of(&w[..blocks as usize].iter().map(|&c| c as f64).collect::<Vec<_>>()))
                    .collect();
                let cycles = median_of(&sample_means(&per_launch, reps));
                let width = kernel.access().bytes();
                let threads = (BANK_BLOCK_THREADS * blocks) as u64;
                let bytes = threads * ROUNDS as u64 * ACCESSES_PER_ROUND * width;
                let Some(mut point) = Point::timed(
                    PointKey::Value(stride as i64),
                    &Metric::Bandwidth,
                    Work::bytes(threads, bytes),
                    &times_ms,
                    failure,
                ) else {
                    continue;
                };
                // Warp requests each SM serves while its blocks run side by side.
                let requests = plan.blocks_per_sm as f64
                    * (BANK_BLOCK_THREADS / 32) as f64
                    * ROUNDS as f64
                    * ACCESSES_PER_ROUND as f64;
                if let Some(cycles) = cycles.filter(|&c| c > 0.0) {
                    point.set_extra(CLOCKS_PER_REQUEST, cycles / requests);
                    point.set_extra(BYTES_PER_CLOCK, requests * 32.0 * width as f64 / cycles);
                }
                point.set_extra(PASSES, model_passes(kernel, stride) as f64);
                let counted = count_point(ctx, &mut result, plan.implementation, &mut point, &mut || {
                    let shape = (BANK_BLOCK_THREADS, blocks);
                    bank_kernel(
                        dut,
                        plan.implementation,
                        kernel,
                        stride,
                        ROUNDS,
                        shape,
                        &mut counter_cycles,
                        &mut checksums,
                    )
                })?;
                bank_counters::record(&mut point, counted.as_ref(), kernel);
                result.series[plan.series].points.push(point);
            }
            ctx.progress.inc(1);
        }
        for plan in &plans {
            add_slow_downs(&mut result.series[plan.series], plan.kernel);
        }
        let per_sm: Vec<String> = plans
            .iter()
            .filter(|p| p.implementation == Implementation::Rust)
            .map(|p| format!("{} {}", p.kernel.kernel(), p.blocks_per_sm))
            .collect();
        result.setup.push(format!(
            "one full wave of blocks of {BANK_BLOCK_THREADS} threads ({sms} SMs × the blocks that fit: {}), {ROUNDS} \
             rounds of 32 accesses a lane; the table is the kernel's dynamic shared memory",
            per_sm.join(", ")
        ));
        result.notes.push(format!(
            "{BYTES_PER_CLOCK} and {CLOCKS_PER_REQUEST}: each block's SM cycles over its rounds (clock64, between \
             barriers), the median over the blocks of each launch, then the mean of each sample's {} launches (the \
             GB/s's samples); the blocks of an SM run side by side, so an SM serves all of their requests in that time. \
             {PASSES}: reference::conflict_degree (32 banks of 4 bytes; 8-byte accesses served a half-warp and \
             16-byte ones a quarter-warp per pass). Slow-downs are against stride 1 (the tile: pitch 33). \
             Checksums of every thread (reads) or block (writes) checked against the CPU reference",
            kept_reps(ctx.settings)
        ));
        Ok(result)
    }
}

/// Sets each point's measured and modelled slow-down against the kernel's conflict-free point.
fn add_slow_downs(series: &mut Series, kernel: BankKernel) {
    let base = conflict_free(kernel);
    let Some(base_point) = series.at(base as i64) else {
        return;
    };
    let base_clocks = base_point.extra.get(CLOCKS_PER_REQUEST).copied();
    let base_passes = model_passes(kernel, base) as f64;
    for point in &mut series.points {
        let Some(stride) = point.at.value() else {
            continue;
        };
        if let (Some(base), Some(&clocks)) = (base_clocks, point.extra.get(CLOCKS_PER_REQUEST)) {
            point.set_extra(SLOW_DOWN, clocks / base);
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

/// Measured slow-down of 4-byte reads at `stride` against stride 1 (Rust).
fn read_slow_down(result: &ExperimentResult, stride: i64) -> Option<f64> {
    let series = rust(result, BankKernel::StridedRead(BankAccess::Bytes4))?;
    Some(extra(series, stride, CLOCKS_PER_REQUEST)? / extra(series, 1, CLOCKS_PER_REQUEST)?)
}

/// The rule of the broadcast's ledger row.
pub const BROADCAST_RULE: &str = "holds when every lane reading one word costs at most 1.10x the conflict-free \
    stride 1 (in SM clocks per warp request); weaker up to 2x; gone beyond (the broadcast is serialised)";

/// The verdict on "a broadcast is free" from the broadcast's cost over the conflict-free stride's.
pub fn broadcast_verdict(ratio: f64) -> Verdict {
    if !(ratio.is_finite() && ratio > 0.0) {
        Verdict::Gone
    } else if ratio <= 1.10 {
        Verdict::Holds
    } else if ratio <= 2.0 {
        Verdict::Weaker
    } else {
        Verdict::Gone
    }
}

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
                "A 2-way conflict (4 bytes, stride 2) costs {two:.2}x, the broadcast (stride 0) {broadcast:.2}x. "
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
        let _ = writeln!(
            out,
            "GB/s cells: median (min–max over the samples). clk/request: SM clocks per warp request (one pass a \
             clock would give the model's passes)."
        );
        out.push_str(&bank_counters::table(result));
        Some(out)
    }

    fn ledger(&self, result: &ExperimentResult, report: &Report) -> Vec<LedgerRow> {
        ledger_rows(result)
            .into_iter()
            .map(|row| bank_counters::with_counters(row, result, report))
            .collect()
    }
}

/// The ledger rows of a bank-conflicts result (pure: tested on synthetic results).
pub fn ledger_rows(result: &ExperimentResult) -> Vec<LedgerRow> {
    let mut rows = Vec::new();
    let read = BankKernel::StridedRead(BankAccess::Bytes4);
    if let (Some(conflicted), Some(two)) = (read_slow_down(result, 32), read_slow_down(result, 2)) {
        let claimed = model_passes(read, 32) as f64 / model_passes(read, 1) as f64;
        rows.push(LedgerRow::factor(
            "bpg-3.2.2.1-bank-conflicts",
            "Best Practices Guide §3.2.2.1; OpenCL guide §3.1.2.5",
            "A shared-memory request whose addresses fall n to a bank is split into n conflict-free requests, \
             dividing the bandwidth by n (a stride of 32 words: 32-way)",
            claimed,
            conflicted,
            format!(
                "4-byte reads, SM clocks per warp request: stride 32 {conflicted:.2}x stride 1, stride 2 {two:.2}x"
            ),
            &result.name,
            result.device,
        ));
    }
    if let Some(broadcast) = read_slow_down(result, 0) {
        rows.push(LedgerRow {
            id: "bpg-3.2.2.1-broadcast".into(),
            source: "Best Practices Guide §3.2.2.1; OpenCL guide §3.1.2.5".into(),
            claim: "Lanes reading the same shared-memory word are served at once (a broadcast): no conflict".into(),
            measured: format!("4-byte reads, every lane one word: {broadcast:.2}x the clocks of stride 1"),
            verdict: broadcast_verdict(broadcast),
            rule: BROADCAST_RULE.into(),
            experiment: result.name.clone(),
            device: result.device,
        });
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::super::ledger_fixtures::{rendered, result, series};
    use super::*;

    fn bank_result(clocks: &[(i64, f64)]) -> ExperimentResult {
        let extras: Vec<(i64, &str, f64)> = clocks.iter().map(|&(x, c)| (x, CLOCKS_PER_REQUEST, c)).collect();
        let reads = series("bank_read_b32", Implementation::Rust, "", clocks, &extras);
        result("bank-conflicts", Metric::Bandwidth, vec![reads])
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
    fn the_broadcast_rule_has_stated_edges() {
        assert_eq!(broadcast_verdict(1.10), Verdict::Holds);
        assert_eq!(broadcast_verdict(1.11), Verdict::Weaker);
        assert_eq!(broadcast_verdict(2.0), Verdict::Weaker);
        assert_eq!(broadcast_verdict(2.01), Verdict::Gone);
        assert_eq!(broadcast_verdict(f64::NAN), Verdict::Gone);
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
            &[(1, 1.0), (2, 1.0), (32, 1.0)],
            &[
                (1, CLOCKS_PER_REQUEST, 1.5),
                (2, CLOCKS_PER_REQUEST, 3.0),
                (32, CLOCKS_PER_REQUEST, 48.0),
            ],
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
        let good: Vec<u32> = (0..64)
            .map(|t| bank_read_checksum(1, 3, 32, ROUNDS as u64, t % 32))
            .collect();
        assert_eq!(checksum_mismatch(read, 3, (32, 2), &good), None);
        let mut bad = good.clone();
        bad[40] ^= 1;
        assert!(checksum_mismatch(read, 3, (32, 2), &bad).unwrap().contains("thread 40"));
        let write = BankKernel::StridedWrite(BankAccess::Bytes8);
        let sum = bank_write_checksum(2, 5, ROUNDS as u64);
        assert_eq!(checksum_mismatch(write, 5, (32, 2), &[sum, sum, 0]), None);
        assert!(checksum_mismatch(write, 5, (32, 2), &[sum, 0]).is_some());
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
        let tile_extras = [(32, CLOCKS_PER_REQUEST, 32.0), (33, CLOCKS_PER_REQUEST, 1.0)];
        let mut tile = series(
            "bank_tile_column_read",
            Implementation::Rust,
            "",
            &[(32, 250.0), (33, 8000.0)],
            &tile_extras,
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
        assert_eq!(ids, ["bpg-3.2.2.1-bank-conflicts", "bpg-3.2.2.1-broadcast"]);
        assert!(rows.iter().all(|r| r.verdict == Verdict::Holds), "{rows:?}");
    }
}
