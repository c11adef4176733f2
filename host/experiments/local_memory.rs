//! Best Practices Guide §3.2.3 and the OpenCL guide §3.1.2.2: local memory.
//! The same per-thread work over a 64-word array kept in registers (indices
//! known at compile time), in local memory (indices only known at run time)
//! and partly spilled (a launch bound too tight for the array), at growing
//! threads per SM (so the local arrays outgrow L1), with the JIT's own
//! local bytes and spills beside the throughput. The OpenCL guide makes the
//! claim for OpenCL, whose name for the array is `__private`: the OpenCL C
//! twins of the registers and run-time-indexed kernels
//! (`host/opencl_c/local_memory.cl`) run the same points on the same GPU's
//! OpenCL queue, timed by profiling events; the row grades Rust and shows
//! the twins' slow-downs beside it.

use std::fmt::Write;

use kernels_gpu::local_memory::LOCAL_ARRAY_WORDS;

use super::counter_evidence::{counted, evidence};
use super::counter_launch::count_point;
use super::jit_spill_report::spill_bytes;
use super::sweep::each_point;
use super::twin_ratios::twin_ratios;
use super::{Experiment, RunContext};
use crate::counters::LOCAL_BYTES_PER_THREAD;
use crate::error::Result;
use crate::launchers::{
    LOCAL_ARRAY_BLOCK_THREADS, LocalArrayCase, LocalArrayKernel, LocalArrayRunner, local_array_runners, opencl,
};
use crate::reference;
use crate::report::{
    Axis, Claim, CounterCheck, ExperimentResult, LedgerRow, Metric, Point, PointKey, Report, Rule, Scale, SectionHooks,
    Series, Spread, Verdict, Work, point_cell,
};
use crate::run_settings::RunSettings;
use crate::stats::Summary;
use crate::testbed::Implementation;

pub struct LocalMemory;

/// Blocks launched per SM: x = threads per SM.
const BLOCKS_PER_SM: [u32; 5] = [1, 2, 4, 8, 16];
/// Rounds over the array per launch.
const ROUNDS: u32 = 64;
/// Threads checked against the CPU reference: every this many, and the last.
const CHECK_STRIDE: usize = 61;

/// Extra figures.
pub const LOCAL_GBPS: &str = "local GB/s";
pub const RELATIVE: &str = "x registers";
pub const LOCAL_BYTES: &str = "local B/thread (JIT)";
pub const SPILL_STORES: &str = "spill stores B (JIT)";
pub const SPILL_LOADS: &str = "spill loads B (JIT)";

fn metric() -> Metric {
    Metric::custom("array-word updates", "G/s", true)
}

/// Local-memory bytes one thread of the dynamic-index kernel moves: the
/// array's fill, then a load and a store of every word each round.
fn local_bytes_per_thread(rounds: u32) -> u64 {
    4 * LOCAL_ARRAY_WORDS as u64 * (1 + 2 * rounds as u64)
}

/// `None` when every checked thread wrote the reference's value.
fn mismatch(got: &[u32], threads: usize) -> Option<String> {
    (0..threads)
        .step_by(CHECK_STRIDE)
        .chain(std::iter::once(threads - 1))
        .find_map(|t| {
            let expected = reference::local_array(t as u32, 0, ROUNDS);
            (got[t] != expected).then(|| format!("thread {t} wrote {:#x}, the reference {expected:#x}", got[t]))
        })
}

impl Experiment for LocalMemory {
    fn name(&self) -> &'static str {
        "local-memory"
    }
    fn title(&self) -> &'static str {
        "Local memory: a run-time-indexed array and register spills"
    }
    fn source(&self) -> &'static str {
        "CUDA C Best Practices Guide 4.0, §3.2.3 (and §4.4 on spills); OpenCL Programming Guide 2.3, §3.1.2.2"
    }
    fn points(&self) -> u64 {
        BLOCKS_PER_SM.len() as u64
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let axis = Axis::lines("threads launched per SM (count)", metric()).x_scale(Scale::Log2);
        let mut result = ctx.result(
            self,
            axis,
            &format!(
                "local GB/s: the dynamic-index kernel's local-memory bytes, 4 × {LOCAL_ARRAY_WORDS} × (1 + 2 × \
                 rounds) a thread (the array's fill, then a load and a store of each word a round)"
            ),
        );
        let sms = ctx.device.info().multiprocessors.max(1) as u32;
        let max_threads = BLOCKS_PER_SM.iter().max().copied().unwrap_or(1) * sms * LOCAL_ARRAY_BLOCK_THREADS;
        let (mut runners, waived) = local_array_runners(ctx.device, max_threads as usize)?;
        result.waive(waived);
        let opencl = runners
            .iter()
            .any(|r| r.implementations().contains(&Implementation::OpenClC));
        let plans = plan_series(&runners);
        for &(kernel, implementation, _) in &plans {
            result
                .series
                .push(Series::of(ctx.key(kernel.kernel(), implementation, "u32")));
        }
        each_point(ctx, BLOCKS_PER_SM, (0, BLOCKS_PER_SM.len()), |per_sm| {
            for (index, &(kernel, implementation, r)) in plans.iter().enumerate() {
                ctx.progress
                    .set_message(format!("{} {per_sm} blocks/SM", result.series[index].label));
                let case = case_of(kernel, per_sm * sms);
                let runner = runners[r].as_mut();
                if let Some(point) = measure(ctx, &mut result, (runner, implementation), (per_sm, &case))? {
                    result.series[index].points.push(point);
                }
            }
            Ok(())
        })?;
        add_relative(&mut result);
        describe(ctx, &mut result, opencl);
        Ok(result)
    }
}

/// Every (kernel, implementation) series in the result's order, with the
/// index of the runner that measures it: kernel by kernel, each runner's
/// implementations in turn (the PTX ones, then the OpenCL C twins), where
/// the runner has that kernel.
fn plan_series(runners: &[Box<dyn LocalArrayRunner + '_>]) -> Vec<(LocalArrayKernel, Implementation, usize)> {
    let mut plans = Vec::new();
    for kernel in LocalArrayKernel::ALL {
        for (r, runner) in runners.iter().enumerate().filter(|(_, runner)| runner.runs(kernel)) {
            plans.extend(
                runner
                    .implementations()
                    .iter()
                    .map(|&implementation| (kernel, implementation, r)),
            );
        }
    }
    plans
}

/// The launch of `kernel` on `blocks` blocks: shift 0, [`ROUNDS`] rounds.
fn case_of(kernel: LocalArrayKernel, blocks: u32) -> LocalArrayCase {
    LocalArrayCase {
        kernel,
        shift: 0,
        rounds: ROUNDS,
        block_threads: LOCAL_ARRAY_BLOCK_THREADS,
        blocks,
    }
}

/// One point of `case` (at `per_sm` blocks per SM) by `implementation`:
/// [`timed_case`], then the counters (--counters) of one more launch where
/// the runner's kernels run on the device's CUDA context; `None` where it has no time.
fn measure(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    (runner, implementation): (&mut dyn LocalArrayRunner, Implementation),
    (per_sm, case): (u32, &LocalArrayCase),
) -> Result<Option<Point>> {
    let Some(mut point) = timed_case((runner, implementation), (per_sm, case), ctx.settings)? else {
        return Ok(None);
    };
    if runner.on_cuda_context() {
        let counted = count_point(ctx, result, implementation, &mut point, &mut || {
            runner.launch(implementation, case)
        })?;
        if let Some(bytes) = counted.and_then(|c| c.local_bytes()) {
            point.set_extra(LOCAL_BYTES_PER_THREAD, bytes / case.threads() as f64);
        }
    }
    Ok(Some(point))
}

/// `case` by `implementation` at `per_sm` blocks (work-groups) per SM:
/// timed (events), checked, with the local (private) bytes a thread its
/// compiler states and the spills its log gives (the JIT's info log;
/// NVIDIA's OpenCL build log with `-cl-nv-verbose`) beside it; `None` where
/// it has no time.
fn timed_case(
    (runner, implementation): (&mut dyn LocalArrayRunner, Implementation),
    (per_sm, case): (u32, &LocalArrayCase),
    settings: &RunSettings,
) -> Result<Option<Point>> {
    let (kernel, threads) = (case.kernel, case.threads());
    runner.fill_out(0)?;
    let times_ms = runner.time(implementation, case, settings)?;
    let failure = mismatch(&runner.read_out()?, threads);
    let Some(mut point) = timed_point(kernel, (per_sm, threads), &times_ms, failure) else {
        return Ok(None);
    };
    if let Some(bytes) = runner.local_bytes(implementation, kernel)? {
        point.set_extra(LOCAL_BYTES, bytes);
    }
    if let Some((stores, loads)) = runner
        .compiler_log(implementation, kernel)
        .and_then(|log| spill_bytes(log, kernel.kernel()))
    {
        point.set_extra(SPILL_STORES, stores as f64);
        point.set_extra(SPILL_LOADS, loads as f64);
    }
    Ok(Some(point))
}

/// The point of `kernel` at `per_sm` blocks (work-groups) per SM of
/// `threads` in all from its milliseconds per launch: G updates/s, and the
/// local GB/s of the run-time-indexed array; `None` where it has no time.
fn timed_point(
    kernel: LocalArrayKernel,
    (per_sm, threads): (u32, usize),
    times_ms: &[f64],
    failure: Option<String>,
) -> Option<Point> {
    let updates = threads as f64 * ROUNDS as f64 * LOCAL_ARRAY_WORDS as f64;
    let samples: Vec<f64> = times_ms.iter().map(|ms| updates / 1e9 / (ms / 1e3)).collect();
    let local = match kernel {
        LocalArrayKernel::DynamicIndex => threads as u64 * local_bytes_per_thread(ROUNDS),
        _ => 0,
    };
    let at = PointKey::Value((per_sm * LOCAL_ARRAY_BLOCK_THREADS) as i64);
    let mut point = Point::measured(at, &samples, Work::bytes(threads as u64, local), failure)?;
    point.time_ms = Summary::of(times_ms);
    if let Some(ms) = point.median_ms()
        && local > 0
    {
        point.set_extra(LOCAL_GBPS, local as f64 / 1e9 / (ms / 1e3));
    }
    Some(point)
}

/// The setup and the notes: the blocks and rounds, the figure, the check, the spills.
fn describe(ctx: &RunContext<'_>, result: &mut ExperimentResult, opencl: bool) {
    let sms = ctx.device.info().multiprocessors.max(1) as u32;
    result.setup.push(format!(
        "blocks of {LOCAL_ARRAY_BLOCK_THREADS} threads, 1 to {} per SM ({sms} SMs); each thread {ROUNDS} rounds \
         over its {LOCAL_ARRAY_WORDS}-word array; the dynamic-index kernel with shift 0, so all three compute \
         the same values",
        BLOCKS_PER_SM.iter().max().copied().unwrap_or(1)
    ));
    result.notes.push(format!(
        "array-word updates: threads × {ROUNDS} rounds × {LOCAL_ARRAY_WORDS} words per launch over its time \
         (CUDA events); every {CHECK_STRIDE}th thread's value (and the last's) checked against the CPU \
         reference. {LOCAL_BYTES}: CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES; spills: the JIT's info log. The spilled \
         kernel's launch bound (1024 threads, one block per SM: 64 registers a thread) applies on the \
         architectures kernels_gpu::launch_bounds lists; elsewhere it runs unbounded"
    ));
    if opencl {
        result.notes.push(format!(
            "OpenCL C twins (host/opencl_c/local_memory.cl, a `__private` array) on the same GPU's OpenCL queue, \
             the same work-groups, timed by profiling events on the in-order queue, checked as above; {LOCAL_BYTES} \
             there is the compiler's CL_KERNEL_PRIVATE_MEM_SIZE, the spills its build log's (-cl-nv-verbose). \
             OpenCL C cannot state local_array_spilled's per-kernel launch bound: its twin is built in a program of \
             its own under -cl-nv-maxrregcount {} (the registers a thread the bound leaves), where the device has \
             cl_nv_compiler_options",
            opencl::SPILL_REGISTER_CAP
        ));
    }
}

/// Sets every point's throughput relative to the registers kernel of the same implementation at the same x.
fn add_relative(result: &mut ExperimentResult) {
    let registers: Vec<(Implementation, Vec<(PointKey, f64)>)> = result
        .series
        .iter()
        .filter(|s| s.key.kernel == LocalArrayKernel::Registers.kernel())
        .map(|s| {
            let medians = s.points.iter().filter_map(|p| Some((p.at, p.median()?))).collect();
            (s.key.implementation, medians)
        })
        .collect();
    for series in &mut result.series {
        let Some((_, base)) = registers.iter().find(|(i, _)| *i == series.key.implementation) else {
            continue;
        };
        for point in &mut series.points {
            if let (Some(&(_, b)), Some(v)) = (base.iter().find(|(at, _)| *at == point.at), point.median()) {
                point.set_extra(RELATIVE, v / b);
            }
        }
    }
}

/// The rule of the local-memory row.
pub const LOCAL_RULE: &str = "at the most threads per SM: gone when the run-time-indexed array costs under 1.05x \
    the registers version, or its local traffic runs above 4x the device memory's theoretical bandwidth (served by \
    the caches); holds when that traffic runs at most at the theoretical bandwidth (as if every access went to \
    device memory); weaker in between";

/// The verdict on "local memory is as slow as global memory" from the
/// registers-over-local slow-down and the local traffic's GB/s over the
/// device memory's theoretical GB/s.
pub fn local_memory_verdict(slow_down: f64, over_device_memory: f64) -> Verdict {
    if !(slow_down.is_finite() && over_device_memory.is_finite()) {
        return Verdict::Gone;
    }
    if slow_down < 1.05 || over_device_memory > 4.0 {
        Verdict::Gone
    } else if over_device_memory <= 1.0 {
        Verdict::Holds
    } else {
        Verdict::Weaker
    }
}

fn rust(result: &ExperimentResult, kernel: LocalArrayKernel) -> Option<&Series> {
    result.series_of(kernel.kernel(), Implementation::Rust)
}

impl SectionHooks for LocalMemory {
    fn narrative(&self, result: &ExperimentResult, report: &Report) -> Vec<String> {
        let (Some(registers), Some(dynamic)) = (
            rust(result, LocalArrayKernel::Registers),
            rust(result, LocalArrayKernel::DynamicIndex),
        ) else {
            return Vec::new();
        };
        let mut text = String::from("**Then vs now.** ");
        for p in &dynamic.points {
            let (Some(x), Some(relative), Some(gbps)) = (p.at.value(), p.extra.get(RELATIVE), p.extra.get(LOCAL_GBPS))
            else {
                continue;
            };
            if registers.at(x).is_none() {
                continue;
            }
            let _ = write!(
                text,
                "{x} threads/SM: local memory at {gbps:.0} GB/s, the array {:.2}x slower than in registers. ",
                1.0 / relative
            );
        }
        if let Some(peak) = result
            .device
            .and_then(|d| report.device(d))
            .map(|d| d.theoretical_bandwidth_gbps)
        {
            let _ = write!(text, "The device memory's theoretical bandwidth is {peak:.0} GB/s. ");
        }
        if let Some(spilled) = rust(result, LocalArrayKernel::Spilled)
            && let Some(p) = spilled.points.last()
        {
            let stores = p.extra.get(SPILL_STORES).map_or("?".into(), |b| format!("{b:.0}"));
            let _ = write!(
                text,
                "Under its launch bound the spilled kernel keeps {stores} bytes a thread in local memory (JIT) and \
                 runs at {:.2}x the registers version. ",
                p.extra.get(RELATIVE).copied().unwrap_or(f64::NAN)
            );
        }
        text.push_str("The guides' local memory was uncached device memory (cc 1.x); today it is cached in L1 and L2.");
        vec![text]
    }

    fn tables(&self, result: &ExperimentResult, _report: &Report) -> Option<String> {
        let mut out = String::new();
        let counted_any = result
            .series
            .iter()
            .any(|s| s.points.iter().any(|p| p.extra.contains_key(LOCAL_BYTES_PER_THREAD)));
        let _ = writeln!(
            out,
            "| series | threads/SM | G updates/s | x registers | local GB/s | local B/thread (JIT) | spill stores / \
             loads B (JIT) |{}\n|---|---:|---:|---:|---:|---:|---:|{}",
            if counted_any {
                " local B/thread moved (model / counters) |"
            } else {
                ""
            },
            if counted_any { "---:|" } else { "" }
        );
        for s in &result.series {
            for p in &s.points {
                let get =
                    |name: &str, digits: usize| p.extra.get(name).map_or("—".into(), |v| format!("{v:.digits$}"));
                let moved = if counted_any {
                    // No model where the local traffic is the JIT's spilling (the point counts no local bytes
                    // of its own, yet the JIT gave the kernel local memory): only the counters know it.
                    let spills = p.bytes == 0 && p.extra.get(LOCAL_BYTES).is_some_and(|&b| b > 0.0);
                    let model = match p.elements {
                        0 => "—".to_string(),
                        _ if spills => "— (spills)".to_string(),
                        threads => format!("{:.0}", p.bytes as f64 / threads as f64),
                    };
                    format!(" {model} / {} |", get(LOCAL_BYTES_PER_THREAD, 0))
                } else {
                    String::new()
                };
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {} | {} | {} / {} |{moved}",
                    s.label,
                    p.at,
                    point_cell(Some(p)),
                    get(RELATIVE, 2),
                    get(LOCAL_GBPS, 0),
                    get(LOCAL_BYTES, 0),
                    get(SPILL_STORES, 0),
                    get(SPILL_LOADS, 0)
                );
            }
        }
        let _ = writeln!(out, "\nG updates/s: median (min–max over the samples).");
        Some(out)
    }

    fn claims(&self) -> Vec<Claim> {
        vec![claim()]
    }

    fn ledger(&self, result: &ExperimentResult, report: &Report) -> Vec<LedgerRow> {
        let peak = result
            .device
            .and_then(|d| report.device(d))
            .map_or(f64::NAN, |d| d.theoretical_bandwidth_gbps);
        ledger_rows(result, peak)
            .into_iter()
            .map(|row| row.with_counters(evidence(vec![local_bytes_check(result)], result, report)))
            .collect()
    }
}

/// The row's point (the dynamic-index kernel at the most threads per SM):
/// its modelled local-memory bytes against the counted ones.
fn local_bytes_check(result: &ExperimentResult) -> Option<CounterCheck> {
    let dynamic = rust(result, LocalArrayKernel::DynamicIndex)?;
    let (x, point) = dynamic
        .points
        .iter()
        .filter_map(|p| Some((p.at.value()?, p)))
        .filter(|(_, p)| p.extra.contains_key(RELATIVE) && p.extra.contains_key(LOCAL_GBPS))
        .max_by_key(|(x, _)| *x)?;
    Some(CounterCheck::new(
        format!("local-memory bytes per launch at {x} threads/SM"),
        point.bytes as f64,
        counted(point)?.local_bytes()?,
    ))
}

/// The ledger row of a local-memory result, given the device memory's
/// theoretical GB/s (pure: tested on synthetic results).
pub fn ledger_rows(result: &ExperimentResult, theoretical_gbps: f64) -> Vec<LedgerRow> {
    let Some(dynamic) = rust(result, LocalArrayKernel::DynamicIndex) else {
        return Vec::new();
    };
    let Some((x, point)) = dynamic
        .points
        .iter()
        .filter_map(|p| Some((p.at.value()?, p)))
        .filter(|(_, p)| p.extra.contains_key(RELATIVE) && p.extra.contains_key(LOCAL_GBPS))
        .max_by_key(|(x, _)| *x)
    else {
        return Vec::new();
    };
    let (relative, gbps) = (point.extra[RELATIVE], point.extra[LOCAL_GBPS]);
    let slow_down = 1.0 / relative;
    let over = gbps / theoretical_gbps;
    let twins = twin_ratios(
        &format!("slower than in registers at {x} threads/SM"),
        |implementation| {
            let twin = result.series_of(LocalArrayKernel::DynamicIndex.kernel(), implementation)?;
            Some(1.0 / twin.at(x)?.extra.get(RELATIVE)?)
        },
    );
    vec![claim().grade_many(
        &[Spread::exact(slow_down), Spread::exact(over)],
        |v| local_memory_verdict(v[0], v[1]),
        format!(
            "{x} threads/SM: the run-time-indexed array {slow_down:.2}x slower than in registers; its local traffic \
             {gbps:.0} GB/s = {over:.2}x the device memory's theoretical {theoretical_gbps:.0} GB/s (medians){twins}"
        ),
        result.device,
    )]
}

/// The claim the experiment grades.
pub fn claim() -> Claim {
    Claim {
        id: "bpg-3.2.3-local-memory",
        source: "Best Practices Guide §3.2.3; OpenCL guide §3.1.2.2",
        claim: "Local memory (arrays indexed at run time, spilled registers) is off-chip: as slow as global memory"
            .into(),
        rule: Rule::Stated(LOCAL_RULE),
        reads: "local_array_dynamic_index · Rust at the most threads per SM: its time over the registers version's, \
                and its local traffic's GB/s over the device memory's theoretical bandwidth"
            .into(),
        experiment: "local-memory",
    }
}

#[cfg(test)]
mod tests {
    use super::super::ledger_fixtures::{result, series};
    use super::*;

    /// A runner whose launches write the CPU reference's words (one of them
    /// wrong, for `corrupt`) in `ms` each, with stated local bytes and log.
    struct FakeRunner {
        implementations: Vec<Implementation>,
        spilled: bool,
        corrupt: bool,
        out: Vec<u32>,
        launched: Option<LocalArrayCase>,
    }

    fn fake(implementations: &[Implementation], spilled: bool) -> FakeRunner {
        FakeRunner {
            implementations: implementations.to_vec(),
            spilled,
            corrupt: false,
            out: vec![0; 4 * 128 * 2],
            launched: None,
        }
    }

    const SPILL_LOG: &str = "ptxas info    : Function properties for local_array_spilled\n\
        ptxas         .     0 bytes stack frame, 52 bytes spill stores, 28 bytes spill loads\n";

    impl LocalArrayRunner for FakeRunner {
        fn implementations(&self) -> &[Implementation] {
            &self.implementations
        }
        fn runs(&self, kernel: LocalArrayKernel) -> bool {
            kernel != LocalArrayKernel::Spilled || self.spilled
        }
        fn on_cuda_context(&self) -> bool {
            false
        }
        fn fill_out(&mut self, value: u32) -> Result<()> {
            self.out.fill(value);
            Ok(())
        }
        fn launch(&mut self, _: Implementation, case: &LocalArrayCase) -> Result<()> {
            for (t, word) in self.out[..case.threads()].iter_mut().enumerate() {
                *word = reference::local_array(t as u32, case.shift, case.rounds);
            }
            if self.corrupt {
                self.out[case.threads() - 1] ^= 1;
            }
            self.launched = Some(*case);
            Ok(())
        }
        fn time(
            &mut self,
            implementation: Implementation,
            case: &LocalArrayCase,
            settings: &RunSettings,
        ) -> Result<Vec<f64>> {
            self.launch(implementation, case)?;
            Ok(vec![2.0; settings.samples as usize])
        }
        fn read_out(&mut self) -> Result<Vec<u32>> {
            Ok(self.out.clone())
        }
        fn local_bytes(&self, _: Implementation, kernel: LocalArrayKernel) -> Result<Option<f64>> {
            Ok((kernel != LocalArrayKernel::Registers).then_some(256.0))
        }
        fn compiler_log(&self, _: Implementation, _: LocalArrayKernel) -> Option<&str> {
            Some(SPILL_LOG)
        }
    }

    #[test]
    fn series_run_kernel_by_kernel_each_runner_s_implementations_where_it_has_the_kernel() {
        let runners: Vec<Box<dyn LocalArrayRunner>> = vec![
            Box::new(fake(&[Implementation::Rust, Implementation::CudaC], true)),
            Box::new(fake(&[Implementation::OpenClC], false)),
        ];
        use Implementation::{CudaC, OpenClC, Rust};
        use LocalArrayKernel::{DynamicIndex, Registers, Spilled};
        assert_eq!(
            plan_series(&runners),
            [
                (Registers, Rust, 0),
                (Registers, CudaC, 0),
                (Registers, OpenClC, 1),
                (DynamicIndex, Rust, 0),
                (DynamicIndex, CudaC, 0),
                (DynamicIndex, OpenClC, 1),
                (Spilled, Rust, 0),
                (Spilled, CudaC, 0),
            ],
            "no spilled twin: no OpenCL C series of the spilled kernel"
        );
    }

    #[test]
    fn a_timed_case_is_checked_and_carries_its_compiler_s_figures() {
        let settings = RunSettings {
            samples: 3,
            ..RunSettings::default()
        };
        let mut runner = fake(&[Implementation::Rust], true);
        let case = case_of(LocalArrayKernel::DynamicIndex, 4);
        let point = timed_case((&mut runner, Implementation::Rust), (2, &case), &settings)
            .unwrap()
            .unwrap();
        assert!(point.status.is_ok(), "{:?}", point.status);
        assert_eq!(point.at, PointKey::Value(256), "2 blocks per SM of 128 threads");
        // 512 threads × 64 rounds × 64 words in 2 ms.
        let expected = 512.0 * 64.0 * 64.0 / 1e9 / 2e-3;
        assert!(
            (point.median().unwrap() - expected).abs() < 1e-9,
            "{:?}",
            point.median()
        );
        assert_eq!(point.bytes, 512 * local_bytes_per_thread(ROUNDS));
        assert_eq!(point.extra[LOCAL_BYTES], 256.0);
        assert!(!point.extra.contains_key(SPILL_STORES), "the log names another kernel");
        let spilled = timed_case(
            (&mut runner, Implementation::Rust),
            (2, &case_of(LocalArrayKernel::Spilled, 4)),
            &settings,
        )
        .unwrap()
        .unwrap();
        assert_eq!(spilled.bytes, 0, "no local traffic of its own: the JIT's spills");
        assert_eq!((spilled.extra[SPILL_STORES], spilled.extra[SPILL_LOADS]), (52.0, 28.0));
        let registers = timed_case(
            (&mut runner, Implementation::Rust),
            (2, &case_of(LocalArrayKernel::Registers, 4)),
            &settings,
        )
        .unwrap()
        .unwrap();
        assert!(!registers.extra.contains_key(LOCAL_BYTES), "no figure stated");
        runner.corrupt = true;
        let failed = timed_case((&mut runner, Implementation::Rust), (2, &case), &settings)
            .unwrap()
            .unwrap();
        assert!(
            failed
                .status
                .reason()
                .is_some_and(|r| r.starts_with("thread 511 wrote")),
            "{:?}",
            failed.status
        );
    }

    #[test]
    fn the_rule_has_stated_edges() {
        assert_eq!(local_memory_verdict(1.04, 0.5), Verdict::Gone, "no cost");
        assert_eq!(local_memory_verdict(3.0, 4.01), Verdict::Gone, "cache speed");
        assert_eq!(local_memory_verdict(3.0, 1.0), Verdict::Holds);
        assert_eq!(local_memory_verdict(3.0, 1.01), Verdict::Weaker);
        assert_eq!(local_memory_verdict(3.0, 4.0), Verdict::Weaker);
        assert_eq!(local_memory_verdict(f64::NAN, 1.0), Verdict::Gone);
    }

    #[test]
    fn the_row_uses_the_point_with_the_most_threads() {
        let dynamic = series(
            "local_array_dynamic",
            Implementation::Rust,
            "",
            &[(128, 10.0), (2048, 20.0)],
            &[
                (128, RELATIVE, 0.9),
                (128, LOCAL_GBPS, 500.0),
                (2048, RELATIVE, 0.25),
                (2048, LOCAL_GBPS, 9000.0),
            ],
        );
        let r = result("local-memory", metric(), vec![dynamic]);
        let rows = ledger_rows(&r, 3000.0);
        assert_eq!(rows.len(), 1);
        assert!(rows[0].measured.starts_with("2048 threads/SM"), "{}", rows[0].measured);
        assert!(rows[0].measured.contains("4.00x slower"), "{}", rows[0].measured);
        assert_eq!(rows[0].verdict, Verdict::Weaker, "3x the peak");
        assert_eq!(ledger_rows(&r, 1000.0)[0].verdict, Verdict::Gone, "9x the peak");
        assert_eq!(ledger_rows(&r, 10000.0)[0].verdict, Verdict::Holds);
        assert_eq!(
            ledger_rows(&r, f64::NAN)[0].verdict,
            Verdict::Failed,
            "no device figure: not graded"
        );
    }

    #[test]
    fn relative_figures_are_against_the_registers_kernel_of_the_same_implementation() {
        let mut r = result(
            "local-memory",
            metric(),
            vec![
                series("local_array_registers", Implementation::Rust, "", &[(128, 8.0)], &[]),
                series("local_array_dynamic", Implementation::Rust, "", &[(128, 2.0)], &[]),
                series("local_array_registers", Implementation::CudaC, "", &[(128, 4.0)], &[]),
                series("local_array_dynamic", Implementation::CudaC, "", &[(128, 2.0)], &[]),
            ],
        );
        add_relative(&mut r);
        let get = |i: usize| r.series[i].points[0].extra.get(RELATIVE).copied();
        assert_eq!(get(0), Some(1.0));
        assert_eq!(get(1), Some(0.25));
        assert_eq!(get(3), Some(0.5));
    }

    #[test]
    fn the_row_grades_rust_and_shows_the_twins_slow_downs_beside_it() {
        let at = |imp, rel: f64| {
            series(
                "local_array_dynamic",
                imp,
                "",
                &[(2048, 10.0)],
                &[(2048, RELATIVE, rel), (2048, LOCAL_GBPS, 9000.0)],
            )
        };
        let rust_only = result("local-memory", metric(), vec![at(Implementation::Rust, 0.25)]);
        let alone = ledger_rows(&rust_only, 3000.0);
        assert!(!alone[0].measured.contains("the twins"), "{}", alone[0].measured);
        let r = result(
            "local-memory",
            metric(),
            vec![
                at(Implementation::Rust, 0.25),
                at(Implementation::CudaC, 0.2),
                at(Implementation::OpenClC, 0.125),
            ],
        );
        let rows = ledger_rows(&r, 3000.0);
        assert!(
            rows[0]
                .measured
                .ends_with("; the twins, slower than in registers at 2048 threads/SM: CUDA C: 5.00x, OpenCL C: 8.00x"),
            "{}",
            rows[0].measured
        );
        assert!(
            rows[0].measured.contains("4.00x slower"),
            "Rust graded: {}",
            rows[0].measured
        );
        assert_eq!(rows[0].verdict, alone[0].verdict);
    }

    #[test]
    fn the_local_traffic_is_the_fill_and_a_load_and_store_a_word_a_round() {
        assert_eq!(local_bytes_per_thread(0), 256);
        assert_eq!(local_bytes_per_thread(64), 256 * 129);
    }

    #[test]
    fn the_section_renders_its_table_and_row() {
        let extras = [
            (2048, RELATIVE, 0.5),
            (2048, LOCAL_GBPS, 20000.0),
            (2048, LOCAL_BYTES, 256.0),
        ];
        let r = result(
            "local-memory",
            metric(),
            vec![
                series(
                    "local_array_registers",
                    Implementation::Rust,
                    "",
                    &[(2048, 100.0)],
                    &[(2048, RELATIVE, 1.0)],
                ),
                series(
                    "local_array_dynamic",
                    Implementation::Rust,
                    "",
                    &[(2048, 50.0)],
                    &extras,
                ),
            ],
        );
        let (markdown, files, rows) = super::super::ledger_fixtures::rendered(r);
        assert!(markdown.contains("| local_array_dynamic · Rust | 2048 |"), "{markdown}");
        assert!(
            markdown.contains("the array 2.00x slower than in registers"),
            "{markdown}"
        );
        assert!(files.contains(&"local-memory.svg".to_string()), "{files:?}");
        assert_eq!(rows.len(), 1);
        assert_eq!(
            rows[0].verdict,
            Verdict::Gone,
            "about 6x the device memory's bandwidth: the caches"
        );
    }
}
