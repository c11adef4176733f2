//! Best Practices Guide §6.3: signed against unsigned loop counters. The
//! guide's loop, `out[i] = in[offset + stride·i]`, run by every thread on its
//! own column (coalesced across a warp) with `i32`, `u32` and `usize`
//! counters in Rust (and `i32` with unchecked arithmetic: C's `int`), and
//! `int`, `unsigned` and `size_t` in the CUDA C twin: the time per launch
//! over buffers several times L2, and the instructions per copied element of
//! each kernel's steady loop from its SASS for this GPU (what it runs; where
//! `ptxas` and `nvdisasm` are present) beside its PTX (Rust: the embedded
//! module; CUDA C: NVRTC's), so the reason for any difference is visible.

use std::fmt::Write;

use kernels_gpu::loop_counters::LOOP_COUNTER_BLOCK_THREADS;

use super::counter_evidence::evidence;
use super::counter_launch::count_point;
use super::implementation_ptx::implementation_entry;
use super::implementation_sass::{ImplementationSass, sass_for, sass_waiver};
use super::sweep::each_point;
use super::{Experiment, RunContext};
use crate::copy_element::{first_mismatch, pattern};
use crate::counters::SASS_PER_ELEMENT as COUNTED_PER_ELEMENT;
use crate::error::Result;
use crate::launchers::{LoopCounter, LoopCounterRunner, StridedLoop, loop_counter_grid, loop_counter_runners};
use crate::ptx::{PtxLoop, loop_with_most, opcode_of};
use crate::reference::strided_loop;
use crate::report::{
    Axis, Claim, CounterCheck, ExperimentResult, LedgerRow, Metric, PlotKind, Point, PointKey, Report, Rule,
    SectionHooks, Series, Spread, Work, slower_by,
};
use crate::sass::{SassCounts, SassFunction};
use crate::testbed::Implementation;

pub struct LoopCounters;

/// The guide's `offset`, in elements (128 bytes: the loop stays coalesced).
const OFFSET: u64 = 32;
/// The most elements per buffer: every index fits an `i32`.
const MAX_ELEMENTS: u64 = 1 << 28;

/// Extra figures, by name.
pub const PER_ELEMENT: &str = "PTX instructions per element";
pub const LOOP_INSTRUCTIONS: &str = "PTX instructions in the loop";
pub const ELEMENTS_PER_PASS: &str = "elements per pass of the loop";
pub const SASS_PER_ELEMENT: &str = "SASS instructions per element";
pub const SASS_LOOP_INSTRUCTIONS: &str = "SASS instructions in the loop";

const COUNTING: &str = "8 bytes per copied element (one 4-byte read, one 4-byte write)";

/// The steady loop of a loop-counter kernel's PTX: its instructions, and the
/// elements one pass copies (its stores).
#[derive(Clone, Debug, PartialEq)]
pub struct LoopBody {
    pub instructions: usize,
    pub elements: usize,
    /// Opcodes with their counts, in the order they first appear.
    pub opcodes: Vec<(String, usize)>,
}

impl LoopBody {
    pub fn per_element(&self) -> f64 {
        self.instructions as f64 / self.elements.max(1) as f64
    }

    /// "ld.global.nc.f32 ×4, st.global.f32 ×4, add.s64 ×8, …".
    pub fn listing(&self) -> String {
        self.opcodes
            .iter()
            .map(|(op, n)| if *n == 1 { op.clone() } else { format!("{op} ×{n}") })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Opcodes of `body` with their counts, in order of first appearance.
fn opcode_counts(body: &PtxLoop<'_>) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for line in &body.instructions {
        let op = opcode_of(line);
        let op = if line.starts_with('@') {
            format!("@p {op}")
        } else {
            op.to_string()
        };
        match counts.iter_mut().find(|(o, _)| *o == op) {
            Some((_, n)) => *n += 1,
            None => counts.push((op, 1)),
        }
    }
    counts
}

/// The loop of a kernel's PTX that stores the most: the steady loop.
pub fn loop_body(function_ptx: &str) -> Option<LoopBody> {
    let body = loop_with_most(function_ptx, "st.global")?;
    Some(LoopBody {
        instructions: body.len(),
        elements: body.count("st.global"),
        opcodes: opcode_counts(&body),
    })
}

/// The steady loop of a loop-counter kernel's SASS: the loop with the most
/// global stores (`STG`), innermost first.
pub fn sass_loop_body(function: &SassFunction) -> Option<LoopBody> {
    let steady = function.steady_loop(|i| i.is("STG"))?;
    let counts = SassCounts::of(steady.instructions.iter().copied());
    Some(LoopBody {
        instructions: counts.instructions,
        elements: counts.count(&["STG"]),
        opcodes: counts.by_opcode,
    })
}

/// The elements per buffer, the threads' count of elements (`n`) and the
/// stride for a buffer of `bytes` and `threads` threads: `stride = threads`
/// (each warp's accesses coalesced), `n` as large as fits.
pub fn loop_plan(bytes: u64, threads: u64) -> (u64, u64) {
    let elements = (bytes / 4).min(MAX_ELEMENTS);
    let n = (elements / threads.max(1)).max(1);
    (n, threads)
}

impl Experiment for LoopCounters {
    fn name(&self) -> &'static str {
        "loop-counters"
    }
    fn title(&self) -> &'static str {
        "Loop counters: signed, unsigned and pointer-sized"
    }
    fn source(&self) -> &'static str {
        "CUDA C Best Practices Guide 4.0, §6.3"
    }
    fn points(&self) -> u64 {
        LoopCounter::ALL.len() as u64
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let axis = Axis::lines("buffer MiB", Metric::Bandwidth).plot(PlotKind::None);
        let mut result = ctx.result(self, axis, COUNTING);
        let (copy, input) = StridedCopy::plan(ctx)?;
        let (mut runners, waived) = loop_counter_runners(ctx.device, copy.launch, &input, copy.elements as usize)?;
        drop(input);
        result.waive(waived);
        let ptx: Vec<Implementation> = runners
            .iter()
            .flat_map(|runner| runner.implementations().to_vec())
            .filter(|&implementation| has_ptx(implementation))
            .collect();
        let sass = sass_for(&mut result, &ptx, ctx.device.info().architecture());
        let counters = LoopCounter::ALL;
        each_point(ctx, counters, (0, counters.len()), |counter| {
            for runner in &mut runners {
                for implementation in runner.implementations().to_vec() {
                    let series = copy.measure(ctx, &mut result, (runner.as_mut(), implementation), counter, &sass)?;
                    result.series.push(series);
                }
            }
            Ok(())
        })?;
        result.setup.push(copy.setup());
        Ok(result)
    }
}

/// Whether `implementation`'s kernels are PTX (Rust, CUDA C): those have PTX and SASS loops.
fn has_ptx(implementation: Implementation) -> bool {
    matches!(implementation, Implementation::Rust | Implementation::CudaC)
}

/// The strided copy every counter runs: one full wave, each thread `n`
/// elements of its column `stride` apart, and the CPU reference's output.
struct StridedCopy {
    launch: StridedLoop,
    elements: u64,
    expected: Vec<f32>,
}

impl StridedCopy {
    /// The copy for the device's grid and the run's buffer size, and its input.
    fn plan(ctx: &RunContext<'_>) -> Result<(Self, Vec<f32>)> {
        let blocks = loop_counter_grid(ctx.device)?;
        let threads = blocks as u64 * LOOP_COUNTER_BLOCK_THREADS as u64;
        let (n, stride) = loop_plan(ctx.settings.buffer_bytes(ctx.device.info()), threads);
        let elements = n * stride;
        let input: Vec<f32> = pattern(elements as usize + OFFSET as usize);
        let mut expected = vec![f32::NAN; elements as usize];
        strided_loop(&mut expected, &input, threads, n, OFFSET, stride);
        let launch = StridedLoop {
            blocks,
            n,
            offset: OFFSET,
            stride,
        };
        Ok((
            Self {
                launch,
                elements,
                expected,
            },
            input,
        ))
    }

    /// MiB per buffer (the points' position).
    fn mib(&self) -> u64 {
        (self.elements * 4) >> 20
    }

    /// The setup line: the grid, the loop and the buffers.
    fn setup(&self) -> String {
        let StridedLoop { blocks, n, stride, .. } = self.launch;
        let mib = self.mib();
        format!(
            "{blocks} blocks of {LOOP_COUNTER_BLOCK_THREADS} threads (one full wave), each thread copying n = {n} \
             elements of its column: out[t + {stride}·i] = in[{OFFSET} + t + {stride}·i]; {mib} MiB per buffer; \
             every output checked against the CPU reference"
        )
    }

    /// The series of `counter`'s kernel by `implementation`: its one point
    /// (timed, checked, the loop's bodies and the counters beside it), or
    /// none where it has no time.
    fn measure(
        &self,
        ctx: &RunContext<'_>,
        result: &mut ExperimentResult,
        (runner, implementation): (&mut dyn LoopCounterRunner, Implementation),
        counter: LoopCounter,
        sass: &[ImplementationSass],
    ) -> Result<Series> {
        ctx.progress
            .set_message(format!("{} · {}", counter.kernel(), implementation.label()));
        let mut series = Series::new(
            ctx.key(counter.kernel(), implementation, "f32"),
            format!("{} · {}", counter.label(), implementation.label()),
        );
        if let Some(mut point) = self.time(ctx, runner, (counter, implementation))? {
            record_loop_bodies(result, &mut point, (counter, implementation), sass);
            self.count(ctx, result, &mut point, runner, (counter, implementation))?;
            series.points.push(point);
        }
        Ok(series)
    }

    /// The copy from NaN, timed and checked in full; `None` where it has no time.
    fn time(
        &self,
        ctx: &RunContext<'_>,
        runner: &mut dyn LoopCounterRunner,
        (counter, implementation): (LoopCounter, Implementation),
    ) -> Result<Option<Point>> {
        runner.clear_output()?;
        let times = runner.time(implementation, counter, ctx.settings)?;
        let failure = first_mismatch(&runner.read_output()?, &self.expected);
        let work = Work::bytes(self.elements, 8 * self.elements);
        Ok(Point::timed(
            PointKey::Value(self.mib() as i64),
            &Metric::Bandwidth,
            work,
            &times,
            failure,
        ))
    }

    /// The counters of one more launch (--counters): SASS instructions per element.
    fn count(
        &self,
        ctx: &RunContext<'_>,
        result: &mut ExperimentResult,
        point: &mut Point,
        runner: &mut dyn LoopCounterRunner,
        (counter, implementation): (LoopCounter, Implementation),
    ) -> Result<()> {
        let counted = count_point(ctx, result, implementation, point, &mut || {
            runner.launch(implementation, counter)
        })?;
        if let Some(per) = counted.and_then(|c| c.thread_instructions_per(self.elements as f64)) {
            point.set_extra(COUNTED_PER_ELEMENT, per);
        }
        Ok(())
    }
}

/// The loop's PTX and SASS bodies beside the point, each listed in a note.
fn record_loop_bodies(
    result: &mut ExperimentResult,
    point: &mut Point,
    (counter, implementation): (LoopCounter, Implementation),
    sass: &[ImplementationSass],
) {
    if let Some(body) = implementation_entry(implementation, counter.kernel())
        .as_deref()
        .and_then(loop_body)
    {
        point.set_extra(PER_ELEMENT, body.per_element());
        point.set_extra(LOOP_INSTRUCTIONS, body.instructions as f64);
        point.set_extra(ELEMENTS_PER_PASS, body.elements as f64);
        result.notes.push(format!(
            "{} · {}: {} PTX instructions per pass of {} element(s): {}",
            counter.kernel(),
            implementation.label(),
            body.instructions,
            body.elements,
            body.listing()
        ));
    }
    if let Some(body) = sass
        .iter()
        .find(|s| s.implementation == implementation)
        .and_then(|s| s.function(counter.kernel()))
        .and_then(sass_loop_body)
    {
        point.set_extra(SASS_PER_ELEMENT, body.per_element());
        point.set_extra(SASS_LOOP_INSTRUCTIONS, body.instructions as f64);
        result.notes.push(format!(
            "{} · {}: {} SASS instructions per pass of {} element(s): {}",
            counter.kernel(),
            implementation.label(),
            body.instructions,
            body.elements,
            body.listing()
        ));
    }
}

/// The median time of `counter`'s kernel by `implementation` (its one point).
fn time_of(result: &ExperimentResult, counter: LoopCounter, implementation: Implementation) -> Option<f64> {
    result
        .series_of(counter.kernel(), implementation)?
        .points
        .first()?
        .median_ms()
}

/// The PTX instructions per element of `counter`'s kernel by `implementation`.
fn per_element(result: &ExperimentResult, counter: LoopCounter, implementation: Implementation) -> Option<f64> {
    figure(result, counter, implementation, PER_ELEMENT)
}

/// The extra figure `name` of `counter`'s kernel by `implementation`.
fn figure(result: &ExperimentResult, counter: LoopCounter, implementation: Implementation, name: &str) -> Option<f64> {
    result
        .series_of(counter.kernel(), implementation)?
        .points
        .first()?
        .extra
        .get(name)
        .copied()
}

/// The claims the experiment grades: the guide's claim, and its reason counted in the code.
fn claims() -> Vec<Claim> {
    vec![
        Claim {
            id: "bpg-6.3-signed-counters",
            source: "Best Practices Guide §6.3",
            claim: "A signed loop counter is slightly faster than an unsigned one: signed overflow is undefined, so \
                    the compiler may strength-reduce stride·i; unsigned overflow wraps, so it may not"
                .into(),
            rule: Rule::Direction,
            reads: "loop_counter_u32 over loop_counter_i32_unchecked · Rust, time per launch (Rust's i32 with \
                    unchecked arithmetic is the counter with C's int semantics; Rust's plain i32 wraps like unsigned)"
                .into(),
            experiment: "loop-counters",
        },
        Claim {
            id: "bpg-6.3-signed-counter-instructions",
            source: "Best Practices Guide §6.3",
            claim: "The reason signed counters are faster: with a signed (overflow-undefined) counter the compiler \
                    can emit fewer instructions per iteration than with an unsigned one, whose wrap-around it must \
                    preserve"
                .into(),
            rule: Rule::Direction,
            reads: "loop_counter_u32 over loop_counter_i32_unchecked · Rust: instructions per copied element of the \
                    loop with the most stores, in the SASS the GPU runs (the PTX only where the SASS tools are \
                    missing)"
                .into(),
            experiment: "loop-counters",
        },
    ]
}

/// "i32 (wrapping) 6.75, u32 (wrapping) 6.75, …": `name` of every Rust counter that has it.
fn per_counter(result: &ExperimentResult, name: &str) -> Option<String> {
    let counts: Vec<String> = LoopCounter::ALL
        .into_iter()
        .filter_map(|c| {
            Some(format!(
                "{} {:.2}",
                c.label(),
                figure(result, c, Implementation::Rust, name)?
            ))
        })
        .collect();
    (!counts.is_empty()).then(|| counts.join(", "))
}

/// BPG §6.3's reason: with C's signed counter the compiler emits fewer
/// instructions per iteration than with an unsigned one. Graded on the SASS
/// (what the GPU runs), on the PTX where the SASS was waived.
fn signed_counter_code_row(result: &ExperimentResult) -> Option<LedgerRow> {
    let rust = Implementation::Rust;
    let sass = (
        figure(result, LoopCounter::U32, rust, SASS_PER_ELEMENT),
        figure(result, LoopCounter::I32Unchecked, rust, SASS_PER_ELEMENT),
    );
    let (unsigned, signed, graded_on) = match sass {
        (Some(u), Some(i)) => (u, i, "SASS".to_string()),
        _ => (
            per_element(result, LoopCounter::U32, rust)?,
            per_element(result, LoopCounter::I32Unchecked, rust)?,
            format!(
                "PTX (no SASS: {})",
                sass_waiver(result).unwrap_or("the kernels' SASS loops were not found")
            ),
        ),
    };
    let ratio = unsigned / signed;
    let sass_all = per_counter(result, SASS_PER_ELEMENT)
        .map(|t| format!("SASS per element: {t}; "))
        .unwrap_or_default();
    let ptx_all = per_counter(result, PER_ELEMENT).unwrap_or_default();
    Some(claims()[1].grade(
        Spread::exact(ratio),
        format!(
            "Rust, instructions per copied element graded on the {graded_on}: u32 {unsigned:.2} vs i32 with C's \
             signed semantics {signed:.2} ({ratio:.2}x); {sass_all}PTX per element: {ptx_all}"
        ),
        result.device,
    ))
}

/// BPG §6.3: a signed counter beats an unsigned one.
fn signed_counter_row(result: &ExperimentResult) -> Option<LedgerRow> {
    let rust = Implementation::Rust;
    let unsigned = time_of(result, LoopCounter::U32, rust)?;
    let signed = time_of(result, LoopCounter::I32Unchecked, rust)?;
    let first = |counter: LoopCounter| result.series_of(counter.kernel(), rust)?.points.first();
    let factor = slower_by(first(LoopCounter::U32)?, first(LoopCounter::I32Unchecked)?)?;
    let measured = unsigned / signed;
    let counts: Vec<String> = LoopCounter::ALL
        .into_iter()
        .filter_map(|c| Some(format!("{} {:.1}", c.label(), per_element(result, c, rust)?)))
        .collect();
    let sass = per_counter(result, SASS_PER_ELEMENT)
        .map(|t| format!("; SASS instructions per element: {t}"))
        .unwrap_or_default();
    let wrapping = time_of(result, LoopCounter::I32, rust)
        .map(|t| format!("; the wrapping i32 {:.3}x", unsigned / t))
        .unwrap_or_default();
    let twin = match (
        time_of(result, LoopCounter::U32, Implementation::CudaC),
        time_of(result, LoopCounter::I32, Implementation::CudaC),
    ) {
        (Some(u), Some(i)) => format!(
            "; CUDA C unsigned / int {:.3}x ({} vs {} PTX instructions per element)",
            u / i,
            per_element(result, LoopCounter::U32, Implementation::CudaC).map_or("—".into(), |p| format!("{p:.1}")),
            per_element(result, LoopCounter::I32, Implementation::CudaC).map_or("—".into(), |p| format!("{p:.1}")),
        ),
        _ => String::new(),
    };
    Some(claims()[0].grade(
        factor,
        format!(
            "Rust, time of u32 over i32 with C's signed semantics (unchecked): {}x (medians {measured:.3}x)\
             {wrapping}{sass}; PTX instructions per element: {}{twin}",
            factor.text(3),
            counts.join(", ")
        ),
        result.device,
    ))
}

impl SectionHooks for LoopCounters {
    fn narrative(&self, _result: &ExperimentResult, _report: &Report) -> Vec<String> {
        vec![
            "**Rust's counters.** The guide's argument is C's: `int` overflow is undefined, so the compiler may widen \
             `stride*i` to 64 bits and turn it into a pointer increment; `unsigned` overflow wraps, so each index is \
             computed in 32 bits and widened every iteration. In Rust (release builds) both `i32` and `u32` \
             arithmetic wrap, so neither gets that licence; `usize` indices need no widening at all, and `i32` with \
             `unchecked_*` arithmetic gets C's licence back. The instructions per element below show what each \
             counter costs, in the SASS the GPU runs (ptxas turns PTX's 64-bit index arithmetic into pairs of 32-bit \
             instructions, so the PTX counts can rank the counters differently) and in the PTX; the loop moves 8 \
             bytes per element, so on a GPU whose memory is the bottleneck the instruction difference need not show \
             in the time."
                .into(),
        ]
    }

    fn tables(&self, result: &ExperimentResult, _report: &Report) -> Option<String> {
        let mut out = String::new();
        let counted_any = result
            .series
            .iter()
            .any(|s| s.points.iter().any(|p| p.extra.contains_key(COUNTED_PER_ELEMENT)));
        let _ = writeln!(
            out,
            "| counter | implementation | ms (min–max) | GB/s (min–max) | SASS instructions per element | SASS loop \
             instructions | PTX instructions per element | PTX loop instructions | elements per pass |{}",
            if counted_any {
                " SASS instructions per element (counters) |"
            } else {
                ""
            }
        );
        let _ = writeln!(
            out,
            "|---|---|---:|---:|---:|---:|---:|---:|---:|{}",
            if counted_any { "---:|" } else { "" }
        );
        for series in &result.series {
            let Some(counter) = LoopCounter::ALL.into_iter().find(|c| c.kernel() == series.key.kernel) else {
                continue;
            };
            let point = series.points.first();
            let extra = |name: &str, digits: usize| {
                point
                    .and_then(|p| p.extra.get(name))
                    .map_or("—".into(), |v| format!("{v:.digits$}"))
            };
            let ms = point
                .and_then(|p| p.time_ms.filter(|_| p.status.is_ok()))
                .map_or("—".into(), |t| format!("{:.3} ({:.3}–{:.3})", t.median, t.min, t.max));
            let label = match (counter, series.key.implementation) {
                (LoopCounter::I32 | LoopCounter::I32Unchecked, Implementation::CudaC) => "int",
                (LoopCounter::U32, Implementation::CudaC) => "unsigned",
                (LoopCounter::Usize, Implementation::CudaC) => "size_t",
                _ => counter.label(),
            };
            let _ = writeln!(
                out,
                "| {label} (`{}`) | {} | {ms} | {} | {} | {} | {} | {} | {} |{}",
                counter.kernel(),
                series.key.implementation.label(),
                crate::report::point_cell(point),
                extra(SASS_PER_ELEMENT, 2),
                extra(SASS_LOOP_INSTRUCTIONS, 0),
                extra(PER_ELEMENT, 2),
                extra(LOOP_INSTRUCTIONS, 0),
                extra(ELEMENTS_PER_PASS, 0),
                if counted_any {
                    format!(" {} |", extra(COUNTED_PER_ELEMENT, 2))
                } else {
                    String::new()
                }
            );
        }
        let _ = writeln!(
            out,
            "\nThe CUDA C twin of the unchecked i32 kernel is the same `int` loop as `loop_counter_i32`. Each loop's \
             instructions are listed in the notes above."
        );
        Some(out)
    }

    fn claims(&self) -> Vec<Claim> {
        claims()
    }

    fn ledger(&self, result: &ExperimentResult, report: &Report) -> Vec<LedgerRow> {
        [
            signed_counter_row(result),
            signed_counter_code_row(result)
                .map(|row| row.with_counters(evidence(vec![instruction_ratio_check(result)], result, report))),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

/// The inference the row's explanation rests on, the PTX's instructions per
/// element of the wrapping u32 counter over the unchecked i32 one (Rust),
/// against the same ratio of the SASS instructions the counters saw.
fn instruction_ratio_check(result: &ExperimentResult) -> Option<CounterCheck> {
    let rust = Implementation::Rust;
    let figure = |counter: LoopCounter, name: &str| -> Option<f64> {
        result
            .series_of(counter.kernel(), rust)?
            .points
            .first()?
            .extra
            .get(name)
            .copied()
    };
    let ratio = |name: &str| Some(figure(LoopCounter::U32, name)? / figure(LoopCounter::I32Unchecked, name)?);
    // The model: the loop's static SASS (its PTX where the SASS tools were missing); the witness: instructions executed.
    let (modelled, from) = match ratio(SASS_PER_ELEMENT) {
        Some(sass) => (sass, "SASS"),
        None => (ratio(PER_ELEMENT)?, "PTX"),
    };
    Some(CounterCheck::new(
        format!("instructions per element, u32 over unchecked i32 ({from} loop / executed, counters)"),
        modelled,
        ratio(COUNTED_PER_ELEMENT)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::{PER_ELEMENT, SASS_PER_ELEMENT, loop_body, loop_plan};
    use crate::experiments::execution_fixtures::{rendered, report, result, series};
    use crate::experiments::implementation_ptx::implementation_entry;
    use crate::launchers::LoopCounter;
    use crate::report::{ExperimentResult, Metric, SectionHooks, Series, Verdict};
    use crate::testbed::Implementation;

    fn counter(counter: LoopCounter, ms: f64, per_element: f64) -> Series {
        series(
            counter.kernel(),
            Implementation::Rust,
            ("f32", ""),
            &[(400, ms)],
            &[(400, PER_ELEMENT, per_element)],
        )
    }

    fn loop_counters(u32_ms: f64, unchecked_ms: f64) -> ExperimentResult {
        result(
            "loop-counters",
            Metric::Bandwidth,
            vec![
                counter(LoopCounter::I32, u32_ms, 9.0),
                counter(LoopCounter::U32, u32_ms, 9.0),
                counter(LoopCounter::Usize, unchecked_ms, 5.0),
                counter(LoopCounter::I32Unchecked, unchecked_ms, 5.0),
            ],
        )
    }

    fn verdict(result: &ExperimentResult) -> Option<Verdict> {
        let report = report(vec![result.clone()]);
        let rows = super::LoopCounters.ledger(result, &report);
        rows.iter()
            .find(|r| r.id == "bpg-6.3-signed-counters")
            .map(|r| r.verdict)
    }

    #[test]
    fn signed_counters_are_graded_on_c_semantics() {
        assert_eq!(verdict(&loop_counters(1.10, 1.0)), Some(Verdict::Holds));
        assert_eq!(verdict(&loop_counters(1.0, 1.0)), Some(Verdict::Gone));
        assert_eq!(verdict(&loop_counters(0.9, 1.0)), Some(Verdict::Reversed));
        let report = report(vec![loop_counters(1.0, 1.0)]);
        let row = &super::LoopCounters.ledger(&report.experiments[0], &report)[0];
        assert!(row.measured.contains("u32 (wrapping) 9.0"), "{}", row.measured);
        assert!(row.measured.contains("usize 5.0"), "{}", row.measured);
    }

    #[test]
    fn the_plan_fills_the_buffer_with_whole_columns() {
        let (n, stride) = loop_plan(400 << 20, 270_336);
        assert_eq!(stride, 270_336);
        assert_eq!(n, (400 << 20) / 4 / 270_336);
        assert!(n * stride <= (400 << 20) / 4);
        assert_eq!(loop_plan(16, 1024).0, 1, "at least one element per thread");
    }

    #[test]
    fn wrapping_32_bit_counters_cost_more_instructions_per_element() {
        let per = |c: LoopCounter| {
            loop_body(&implementation_entry(Implementation::Rust, c.kernel()).unwrap())
                .unwrap()
                .per_element()
        };
        for wrapping in [LoopCounter::I32, LoopCounter::U32] {
            for reduced in [LoopCounter::Usize, LoopCounter::I32Unchecked] {
                assert!(per(wrapping) > per(reduced), "{wrapping:?} vs {reduced:?}");
            }
        }
        let body = loop_body(&implementation_entry(Implementation::Rust, LoopCounter::U32.kernel()).unwrap()).unwrap();
        assert!(body.listing().contains("st.global"), "{}", body.listing());
        assert_eq!(body.opcodes.iter().map(|(_, n)| n).sum::<usize>(), body.instructions);
    }

    #[test]
    fn the_table_lists_every_counter() {
        let (markdown, _, rows) = rendered(vec![loop_counters(1.0, 1.0)]);
        assert!(
            markdown.contains("| usize (`loop_counter_usize`) | Rust |"),
            "{markdown}"
        );
        assert!(markdown.contains("Rust's counters"), "{markdown}");
        assert_eq!(rows.len(), 2);
    }

    /// [`loop_counters`] with the SASS per element of the recorded sm_90 listing's loops stored.
    fn with_sass(u32_sass: f64, unchecked_sass: f64) -> ExperimentResult {
        let mut result = loop_counters(1.0, 1.0);
        for series in &mut result.series {
            let per = match series.key.kernel.as_str() {
                "loop_counter_u32" | "loop_counter_i32" => u32_sass,
                "loop_counter_i32_unchecked" => unchecked_sass,
                _ => 7.75,
            };
            series.points[0].set_extra(SASS_PER_ELEMENT, per);
        }
        result
    }

    fn code_row(result: &ExperimentResult) -> crate::report::LedgerRow {
        let report = report(vec![result.clone()]);
        super::LoopCounters
            .ledger(result, &report)
            .into_iter()
            .find(|r| r.id == "bpg-6.3-signed-counter-instructions")
            .expect("the row")
    }

    #[test]
    fn the_code_row_is_graded_on_sass_and_falls_back_to_ptx() {
        let row = code_row(&with_sass(6.75, 5.25));
        assert_eq!(row.verdict, Verdict::Holds);
        assert!(
            row.measured
                .contains("graded on the SASS: u32 6.75 vs i32 with C's signed semantics 5.25 (1.29x)")
        );
        assert!(
            row.measured.contains("PTX per element: i32 (wrapping) 9.00"),
            "{}",
            row.measured
        );
        assert_eq!(code_row(&with_sass(5.25, 5.25)).verdict, Verdict::Gone);
        assert_eq!(code_row(&with_sass(5.0, 6.0)).verdict, Verdict::Reversed);
        // Without SASS: the PTX counts (9 vs 5) and the waiver's reason.
        let mut ptx_only = loop_counters(1.0, 1.0);
        ptx_only.waived.push(crate::report::Waiver {
            what: "SASS evidence (Rust)".into(),
            reason: "ptxas not found".into(),
        });
        let row = code_row(&ptx_only);
        assert_eq!(row.verdict, Verdict::Holds);
        assert!(
            row.measured.contains("graded on the PTX (no SASS: ptxas not found)"),
            "{}",
            row.measured
        );
        let time_row = &super::LoopCounters.ledger(&with_sass(6.75, 5.25), &report(vec![]))[0];
        assert!(
            time_row
                .measured
                .contains("SASS instructions per element: i32 (wrapping) 6.75"),
            "{}",
            time_row.measured
        );
    }

    #[test]
    fn the_recorded_sass_loops_count_their_elements() {
        let functions = crate::sass::parse_listing(include_str!("../../tests/fixtures/sass/sm90_nvdisasm.txt"));
        let per = |name: &str| {
            let f = functions.iter().find(|f| f.name == name).unwrap();
            super::sass_loop_body(f).unwrap()
        };
        let unsigned = per("loop_counter_u32");
        assert_eq!((unsigned.instructions, unsigned.elements), (27, 4));
        assert!(unsigned.listing().contains("STG.E ×4"), "{}", unsigned.listing());
        assert_eq!(per("loop_counter_i32_unchecked").per_element(), 5.25);
    }

    #[test]
    fn the_twins_loops_are_found_where_nvrtc_is_here() {
        if let Err(why) = crate::testbed::compile_twins() {
            eprintln!("SKIPPED the twins' PTX: {why}");
            return;
        }
        for counter in LoopCounter::ALL {
            let text = implementation_entry(Implementation::CudaC, counter.kernel()).expect("the twin");
            let body = loop_body(&text).expect("a loop with stores");
            eprintln!(
                "CUDA C {counter:?}: {:.2} per element: {}",
                body.per_element(),
                body.listing()
            );
            assert!(body.elements >= 1 && body.instructions > body.elements);
        }
    }
}
