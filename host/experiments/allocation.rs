//! Best Practices Guide §3.3: allocating and freeing device memory is
//! expensive, so keep buffers and reuse them. The cost of a `cuMemAlloc` +
//! `cuMemFree` pair at sizes from 4 KiB to 256 MiB, beside today's answer,
//! the stream-ordered allocator (`cuMemAllocAsync` + `cuMemFreeAsync` from
//! the device's default pool, its release threshold raised so that freed
//! memory stays pooled), and, for scale, what reusing a kept buffer costs
//! (a 4-byte copy into it and back) and one kernel launch waited for.
//!
//! Everything here is timed by the host clock: `cuMemAlloc` and `cuMemFree`
//! block the calling thread, so device events would not see their cost. The
//! family's runners (`host/launchers/allocation/`) allocate, launch and time.

use super::sweep::each_point;
use super::{Experiment, RunContext};
use crate::error::{Error, Result};
use crate::launchers::AllocationCase as Case;
use crate::launchers::{AllocationRunner, CaseReadBack, allocation_runners, stream_ordered_pools};
use crate::report::{
    Axis, Claim, ExperimentResult, LedgerRow, Metric, Point, PointKey, Report, Rule, Scale, SectionHooks, Series,
    Spread, Work,
};
use crate::run_settings::RunSettings;

pub struct Allocation;

/// The sizes swept, in bytes: 4 KiB, 64 KiB, 1 MiB, 16 MiB and 256 MiB.
pub const SIZES: [u64; 5] = [4 << 10, 64 << 10, 1 << 20, 16 << 20, 256 << 20];

/// The size the ledger grades at (a typical working buffer).
pub const GRADED_BYTES: u64 = 1 << 20;

/// The extra figure of the pooled points: what the pool held from the device after the samples.
pub const POOL_RESERVED_MIB: &str = "pool reserved after the samples (MiB)";

/// The odd size allocated beside a point of `bytes`.
pub type OddSize = fn(u64) -> u64;

/// The extra figures of the `cuMemAlloc` points (§3.2.1.2): the alignment of
/// an allocation of an odd size made beside the point's, by the size it takes
/// at the point's size (all multiples of 4 bytes, none a power of two).
pub const ODD_SIZE_ALIGNMENTS: [(&str, OddSize); 2] = [
    ("alignment of a cuMemAlloc of size + 4 B (B)", |bytes| bytes + 4),
    ("alignment of a cuMemAlloc of size/1024 + 4 B (B)", |bytes| {
        bytes / 1024 + 4
    }),
];

/// The largest power of two dividing `address` (0 for a null address).
pub fn address_alignment(address: u64) -> u64 {
    if address == 0 { 0 } else { 1 << address.trailing_zeros() }
}

/// The allocations of the [`ODD_SIZE_ALIGNMENTS`] sizes beside `bytes`: (size, the value written into it).
pub fn odd_sizes(bytes: u64) -> Vec<(u64, u32)> {
    ODD_SIZE_ALIGNMENTS
        .iter()
        .enumerate()
        .map(|(index, (_, size))| (size(bytes), probe_value(size(bytes), 8 + index)))
        .collect()
}

/// The alignments of the odd-size allocations from what a runner read back
/// ((address, value) of each of `sizes`), and why the first that failed did.
pub fn odd_size_check(sizes: &[(u64, u32)], read: &[(u64, u32)]) -> (Vec<u64>, Option<String>) {
    let failure = sizes
        .iter()
        .zip(read)
        .find_map(|(&(size, wrote), &(_, got))| probe_mismatch("an odd-size cuMemAlloc allocation", size, wrote, got));
    (
        read.iter().map(|&(address, _)| address_alignment(address)).collect(),
        failure,
    )
}

/// The sizes of [`SIZES`] a run measures: those within `--size-mib` where it is given.
pub fn sizes(settings: &RunSettings) -> Vec<u64> {
    let cap = settings.buffer_mib.map_or(u64::MAX, |mib| mib.saturating_mul(1 << 20));
    SIZES.into_iter().filter(|&s| s <= cap).collect()
}

/// The value written into allocation `index` at `bytes` to prove it usable (never 0, differs per point).
pub fn probe_value(bytes: u64, index: usize) -> u32 {
    0xA110_C000 ^ (bytes as u32).rotate_left(7) ^ index as u32
}

/// How many times the run's samples a point takes: host-clock samples of a few
/// microseconds catch the OS's interruptions, and with the default 11 the
/// median's interval (the 2nd to the 10th) let two of them carry the 1 MiB
/// row's ratio from 0.47 to 1.02 in one run of three on an H100. With 55 it
/// is the 21st to the 35th; every sample costs well under a millisecond.
pub const HOST_CLOCK_SAMPLE_FACTOR: u32 = 5;

/// `None` when `got` is what was written, else why the point fails.
pub fn probe_mismatch(what: &str, bytes: u64, wrote: u32, got: u32) -> Option<String> {
    (got != wrote)
        .then(|| format!("{what} of {bytes} bytes: wrote {wrote:#010x} into its last word, read back {got:#010x}"))
}

/// `None` when a case's proof read back what it should (`wrote` in a memory
/// case's last word, 1 from the one-element copy), else why the point fails.
pub fn proof_failure(case: Case, bytes: u64, wrote: u32, read: CaseReadBack) -> Option<String> {
    let memory = match case {
        Case::AllocFree => "a cuMemAlloc allocation",
        Case::PooledAllocFree => "a pooled allocation",
        Case::Reuse | Case::LaunchAndWait => "the kept buffer",
    };
    match read {
        CaseReadBack::LastWord(got) => probe_mismatch(memory, bytes, wrote, got),
        CaseReadBack::CopiedElement(got) => (got != 1.0).then(|| format!("the one-element copy wrote {got}, not 1")),
    }
}

impl Experiment for Allocation {
    fn name(&self) -> &'static str {
        "allocation"
    }
    fn title(&self) -> &'static str {
        "Allocation: cuMemAlloc/cuMemFree against the stream-ordered pool, reuse and a launch"
    }
    fn source(&self) -> &'static str {
        "CUDA C Best Practices Guide 4.0, §3.3"
    }
    fn points(&self) -> u64 {
        SIZES.len() as u64
    }
    fn requires(&self, ctx: &RunContext<'_>) -> std::result::Result<(), String> {
        if sizes(ctx.settings).is_empty() {
            return Err("allocation sweeps 4 KiB and up: --size-mib leaves no size".into());
        }
        match stream_ordered_pools(ctx.device) {
            Ok(true) => Ok(()),
            Ok(false) => Err(format!(
                "{} has no stream-ordered memory pools (MEMORY_POOLS_SUPPORTED = 0)",
                ctx.device.info().name
            )),
            Err(e) => Err(format!("cannot ask whether the device has memory pools: {e}")),
        }
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let axis = Axis::lines("size (KiB)", Metric::custom("time per pair", "µs", false))
            .x_scale(Scale::Log2)
            .y_scale(Scale::Log10);
        let mut result = ctx.result(
            self,
            axis,
            "microseconds per allocate/free pair (or per reuse, or per launch), host clock, the stream waited for \
             at the end of each sample",
        );
        let sizes = sizes(ctx.settings);
        let largest = *sizes
            .last()
            .ok_or_else(|| Error::InvalidInput("allocation needs at least one size".into()))?;
        let (mut runners, waived) = allocation_runners(ctx.device, largest)?;
        result.waive(waived);
        for case in runners.iter().flat_map(|_| Case::ALL) {
            let (kernel, implementation, variant) = case.key();
            result.series.push(Series::new(
                ctx.key(kernel, implementation, "bytes").variant(variant),
                case.label(),
            ));
        }
        each_point(ctx, sizes.iter().copied(), (0, sizes.len()), |bytes| {
            ctx.progress.set_message(format!("allocation {} KiB", bytes >> 10));
            for (at, runner) in runners.iter_mut().enumerate() {
                for (index, case) in Case::ALL.into_iter().enumerate() {
                    let point = measure(ctx, runner.as_mut(), case, bytes, index)?;
                    result.series[at * Case::ALL.len() + index].points.extend(point);
                }
            }
            Ok(())
        })?;
        drop(runners);
        result.setup.push(
            "the stream-ordered cases draw from the device's default memory pool with its release threshold set to \
             the maximum (freed memory stays in the pool across synchronizations); the threshold is put back and \
             the pool trimmed afterwards"
                .into(),
        );
        result.notes.push(format!(
            "at every size one allocation of each kind was written (its last 32-bit word) and read back before \
             timing; up to {} pairs per sample, fewer where one is long",
            ctx.settings.reps
        ));
        Ok(result)
    }
}

/// Proof that `case`'s memory at `bytes` is real (the value `wrote` read
/// back), with the odd sizes' alignments beside a `cuMemAlloc` point:
/// `Some(why)` where it was not.
fn prove(runner: &mut dyn AllocationRunner, case: Case, bytes: u64, wrote: u32) -> Result<(Option<String>, Vec<u64>)> {
    let failure = proof_failure(case, bytes, wrote, runner.prove(case, bytes, wrote)?);
    if case != Case::AllocFree {
        return Ok((failure, Vec::new()));
    }
    let odd = odd_sizes(bytes);
    let (alignments, odd_failure) = odd_size_check(&odd, &runner.odd_sizes(&odd)?);
    Ok((failure.or(odd_failure), alignments))
}

/// The point of `case` at `bytes` (its `index` among the cases): proved,
/// then timed with the host clock, the stream waited for at the end of each sample.
fn measure(
    ctx: &RunContext<'_>,
    runner: &mut dyn AllocationRunner,
    case: Case,
    bytes: u64,
    index: usize,
) -> Result<Option<Point>> {
    let wrote = probe_value(bytes, index);
    let (failure, alignments) = prove(runner, case, bytes, wrote)?;
    let settings = ctx.settings.with_samples_times(HOST_CLOCK_SAMPLE_FACTOR);
    let times_ms = runner.time(case, bytes, wrote, &settings)?;
    let micros: Vec<f64> = times_ms.iter().map(|ms| ms * 1e3).collect();
    let at = PointKey::Value((bytes >> 10) as i64);
    let Some(mut point) = Point::measured(at, &micros, Work::bytes(1, bytes), failure) else {
        return Ok(None);
    };
    point.time_ms = crate::stats::Summary::of(&times_ms);
    for ((name, _), alignment) in ODD_SIZE_ALIGNMENTS.iter().zip(&alignments) {
        point.set_extra(name, *alignment as f64);
    }
    if case == Case::PooledAllocFree {
        point.set_extra(
            POOL_RESERVED_MIB,
            runner.pool_reserved_bytes()? as f64 / (1 << 20) as f64,
        );
    }
    Ok(Some(point))
}

/// The point of `case` at `kib`.
fn point(result: &ExperimentResult, case: Case, kib: i64) -> Option<&Point> {
    let (kernel, implementation, variant) = case.key();
    result
        .variant(kernel, implementation, variant)?
        .at(kib)
        .filter(|p| p.status.is_ok())
}

/// `a / b` of two cases' microseconds at `kib`, with its spread.
fn ratio(result: &ExperimentResult, a: Case, b: Case, kib: i64) -> Option<Spread> {
    Some(Spread::ratio(
        point(result, a, kib)?.value?,
        point(result, b, kib)?.value?,
    ))
}

/// The median µs of `case` at `kib`.
fn micros(result: &ExperimentResult, case: Case, kib: i64) -> Option<f64> {
    point(result, case, kib)?.median()
}

/// "4 KiB 12 µs, 64 KiB 13 µs, …" of `case` over the sizes measured.
fn sweep_text(result: &ExperimentResult, case: Case) -> String {
    result
        .values()
        .into_iter()
        .filter_map(|kib| Some(format!("{} {:.1} µs", size_text(kib), micros(result, case, kib)?)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// "4 KiB", "16 MiB".
fn size_text(kib: i64) -> String {
    if kib >= 1024 {
        format!("{} MiB", kib / 1024)
    } else {
        format!("{kib} KiB")
    }
}

/// The claims the experiment grades.
fn claims() -> Vec<Claim> {
    vec![
        Claim {
            id: "bpg-3.3-allocation-cost",
            source: "Best Practices Guide §3.3",
            claim: "Allocating and freeing device memory (cudaMalloc/cudaFree, cuMemAlloc/cuMemFree) is expensive: \
                    keep buffers and reuse or sub-allocate them"
                .into(),
            rule: Rule::Direction,
            reads: "at 1 MiB: the µs of one cuMemAlloc + cuMemFree pair over one kernel launch waited for (the unit \
                    of GPU work an allocation is weighed against; reusing a kept buffer costs no call at all)"
                .into(),
            experiment: "allocation",
        },
        Claim {
            id: "bpg-3.3-stream-ordered-pool",
            source: "Best Practices Guide §3.3 (today's answer: the stream-ordered allocator, CUDA 11.2)",
            claim: "The stream-ordered allocator's pool (cuMemAllocAsync/cuMemFreeAsync, memory kept pooled) makes \
                    an allocate/free pair much cheaper than cuMemAlloc/cuMemFree"
                .into(),
            rule: Rule::Direction,
            reads: "at 1 MiB: the µs of a cuMemAlloc + cuMemFree pair over a pooled cuMemAllocAsync + \
                    cuMemFreeAsync pair"
                .into(),
            experiment: "allocation",
        },
        Claim {
            id: "bpg-3.2.1.2-allocation-alignment",
            source: "Best Practices Guide §3.2.1.2",
            claim: "Memory from the runtime's allocator (cudaMalloc, cuMemAlloc underneath) is aligned to at least \
                    256 bytes"
                .into(),
            rule: Rule::AtLeast {
                holds_at: 256.0,
                weaker_at: 128.0,
                unit: "bytes",
            },
            reads: "the largest power of two dividing each address of cuMemAlloc allocations of odd sizes (size + 4 \
                    and size/1024 + 4 bytes at every size swept, 8 B to 256 MiB + 4 B): the smallest, exact"
                .into(),
            experiment: "allocation",
        },
    ]
}

/// The (bytes, alignment) of every odd-size allocation recorded on the `cuMemAlloc` points, smallest size first.
fn odd_size_alignments_of(result: &ExperimentResult) -> Vec<(u64, u64)> {
    let (kernel, implementation, variant) = Case::AllocFree.key();
    let Some(series) = result.variant(kernel, implementation, variant) else {
        return Vec::new();
    };
    let mut found: Vec<(u64, u64)> = series
        .points
        .iter()
        .filter(|p| p.status.is_ok())
        .filter_map(|p| Some((p.at.value()? as u64 * 1024, p)))
        .flat_map(|(bytes, p)| {
            ODD_SIZE_ALIGNMENTS
                .iter()
                .filter_map(move |(name, size)| Some((size(bytes), *p.extra.get(*name)? as u64)))
        })
        .collect();
    found.sort_unstable();
    found
}

/// The alignment row: the smallest alignment of the odd-size allocations, an exact count.
fn alignment_row(result: &ExperimentResult, claim: &Claim) -> Option<LedgerRow> {
    let found = odd_size_alignments_of(result);
    let &(at, smallest) = found.iter().min_by_key(|(bytes, alignment)| (*alignment, *bytes))?;
    let each = found
        .iter()
        .map(|(bytes, alignment)| format!("{bytes} B: {alignment}"))
        .collect::<Vec<_>>()
        .join(", ");
    Some(claim.grade(
        Spread::exact(smallest as f64),
        format!(
            "{} cuMemAlloc allocations of odd sizes: every address a multiple of {smallest} bytes (the least \
             aligned: {at} B); by size, the largest power of two dividing the address: {each}",
            found.len()
        ),
        result.device,
    ))
}

/// The rows from a result (one with the cases' series keyed as [`Case::key`]).
pub fn ledger_rows(result: &ExperimentResult) -> Vec<LedgerRow> {
    let kib = (GRADED_BYTES >> 10) as i64;
    let claims = claims();
    let mut rows = Vec::new();
    if let (Some(factor), Some(pair), Some(launch)) = (
        ratio(result, Case::AllocFree, Case::LaunchAndWait, kib),
        micros(result, Case::AllocFree, kib),
        micros(result, Case::LaunchAndWait, kib),
    ) {
        let reuse = micros(result, Case::Reuse, kib)
            .map(|r| format!("; reusing a kept buffer (a 4-byte copy in and out) {r:.1} µs"))
            .unwrap_or_default();
        rows.push(claims[0].grade(
            factor,
            format!(
                "1 MiB: cuMemAlloc + cuMemFree {pair:.1} µs vs a kernel launch waited for {launch:.1} µs ({}x){reuse}; \
                 all sizes: {}",
                factor.text(2),
                sweep_text(result, Case::AllocFree)
            ),
            result.device,
        ));
    }
    if let (Some(factor), Some(pair), Some(pooled)) = (
        ratio(result, Case::AllocFree, Case::PooledAllocFree, kib),
        micros(result, Case::AllocFree, kib),
        micros(result, Case::PooledAllocFree, kib),
    ) {
        rows.push(claims[1].grade(
            factor,
            format!(
                "1 MiB: cuMemAlloc + cuMemFree {pair:.1} µs vs pooled cuMemAllocAsync + cuMemFreeAsync {pooled:.2} µs \
                 ({}x); pooled at all sizes: {}",
                factor.text(1),
                sweep_text(result, Case::PooledAllocFree)
            ),
            result.device,
        ));
    }
    rows.extend(alignment_row(result, &claims[2]));
    rows
}

impl SectionHooks for Allocation {
    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        let (Some(&first), Some(&last)) = (result.values().first(), result.values().last()) else {
            return Vec::new();
        };
        let at = |case, kib| micros(result, case, kib);
        let (Some(small), Some(large), Some(pooled_small), Some(pooled_large), Some(launch)) = (
            at(Case::AllocFree, first),
            at(Case::AllocFree, last),
            at(Case::PooledAllocFree, first),
            at(Case::PooledAllocFree, last),
            at(Case::LaunchAndWait, first),
        ) else {
            return Vec::new();
        };
        vec![format!(
            "A cuMemAlloc + cuMemFree pair takes {small:.1} µs at {} and {large:.1} µs at {}, against \
             {launch:.1} µs for launching a kernel and waiting for it. From a memory pool that keeps what was freed, \
             the same pair costs {pooled_small:.2} µs and {pooled_large:.2} µs: where buffers cannot simply be kept, \
             allocating in stream order from a pool is today's way to reuse memory.",
            size_text(first),
            size_text(last)
        )]
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
    use super::{
        Case, GRADED_BYTES, ODD_SIZE_ALIGNMENTS, address_alignment, ledger_rows, odd_size_check, odd_sizes,
        probe_mismatch, probe_value, proof_failure, sizes,
    };
    use crate::experiments::ledger_fixtures::{result, series_with_spread};
    use crate::launchers::CaseReadBack;
    use crate::report::{Metric, Verdict};
    use crate::run_settings::RunSettings;

    /// A result with every case at 1 MiB at the µs given (min, median, max).
    fn synthetic(alloc: [f64; 3], pooled: [f64; 3], launch: [f64; 3]) -> crate::report::ExperimentResult {
        let kib = (GRADED_BYTES >> 10) as i64;
        let series = [
            (Case::AllocFree, alloc),
            (Case::PooledAllocFree, pooled),
            (Case::Reuse, [9.0, 10.0, 11.0]),
            (Case::LaunchAndWait, launch),
        ]
        .map(|(case, samples)| {
            let (kernel, implementation, variant) = case.key();
            let mut s = series_with_spread(kernel, implementation, &[(kib, samples)]);
            s.key = s.key.variant(variant);
            s
        });
        result(
            "allocation",
            Metric::custom("time per pair", "µs", false),
            series.to_vec(),
        )
    }

    #[test]
    fn expensive_allocation_and_a_cheap_pool_hold() {
        let rows = ledger_rows(&synthetic([300.0, 310.0, 320.0], [0.9, 1.0, 1.1], [8.0, 9.0, 10.0]));
        assert_eq!(rows.len(), 2, "no alignments recorded: no alignment row");
        assert_eq!(rows[0].id, "bpg-3.3-allocation-cost");
        assert_eq!(rows[0].verdict, Verdict::Holds);
        let figure = rows[0].figure.expect("a figure");
        assert!((figure.median - 310.0 / 9.0).abs() < 1e-9);
        assert_eq!(rows[1].id, "bpg-3.3-stream-ordered-pool");
        assert_eq!(rows[1].verdict, Verdict::Holds);
        assert!((rows[1].figure.expect("a figure").median - 310.0).abs() < 1e-9);
    }

    #[test]
    fn allocation_cheaper_than_a_launch_is_reversed_and_a_slow_pool_gone() {
        let rows = ledger_rows(&synthetic([3.09, 3.1, 3.11], [3.08, 3.1, 3.12], [8.0, 9.0, 10.0]));
        assert_eq!(rows[0].verdict, Verdict::Reversed);
        assert_eq!(rows[1].verdict, Verdict::Gone);
    }

    #[test]
    fn spreads_that_straddle_the_band_are_undecided() {
        let rows = ledger_rows(&synthetic([8.0, 9.5, 12.0], [5.0, 9.5, 11.0], [8.0, 9.0, 10.0]));
        assert_eq!(rows[0].verdict, Verdict::Undecided);
        assert_eq!(rows[1].verdict, Verdict::Undecided);
    }

    #[test]
    fn a_failed_case_gives_no_row() {
        let mut failed = synthetic([300.0, 310.0, 320.0], [0.9, 1.0, 1.1], [8.0, 9.0, 10.0]);
        failed.series[3].points[0].status = crate::report::Status::Failed("wrong copy".into());
        let rows = ledger_rows(&failed);
        assert_eq!(rows.len(), 1, "only the pool row reads no launch");
        assert_eq!(rows[0].id, "bpg-3.3-stream-ordered-pool");
    }

    #[test]
    fn the_section_renders_with_its_narrative_plot_and_rows() {
        use crate::experiments::execution_fixtures::rendered;
        // Two sizes of every case, as a run stores them.
        let mut r = synthetic([300.0, 310.0, 320.0], [0.9, 1.0, 1.1], [8.0, 9.0, 10.0]);
        for series in &mut r.series {
            let mut larger = series.points[0].clone();
            larger.at = crate::report::PointKey::Value(256 << 10);
            series.points.push(larger);
        }
        let (markdown, files, rows) = rendered(vec![r]);
        assert!(
            markdown.contains("A cuMemAlloc + cuMemFree pair takes 310.0 µs at 1 MiB and 310.0 µs at 256 MiB"),
            "{markdown}"
        );
        assert!(files.iter().any(|f| f.ends_with(".svg")), "{files:?}");
        assert_eq!(
            rows.iter().filter(|r| r.id.starts_with("bpg-3.3-")).count(),
            2,
            "{rows:?}"
        );
    }

    /// `synthetic`'s result with the odd-size alignments given on its cuMemAlloc point (1 MiB).
    fn with_alignments(alignments: [f64; 2]) -> crate::report::ExperimentResult {
        let mut r = synthetic([300.0, 310.0, 320.0], [0.9, 1.0, 1.1], [8.0, 9.0, 10.0]);
        for ((name, _), alignment) in ODD_SIZE_ALIGNMENTS.iter().zip(alignments) {
            r.series[0].points[0].set_extra(name, alignment);
        }
        r
    }

    fn alignment_verdict(alignments: [f64; 2]) -> Option<(Verdict, String)> {
        ledger_rows(&with_alignments(alignments))
            .into_iter()
            .find(|r| r.id == "bpg-3.2.1.2-allocation-alignment")
            .map(|r| (r.verdict, r.measured))
    }

    #[test]
    fn alignment_is_the_largest_power_of_two_dividing_the_address() {
        assert_eq!(address_alignment(0x7f00_0020_0000), 0x20_0000);
        assert_eq!(address_alignment(0x7f00_0000_0300), 0x100);
        assert_eq!(address_alignment(0x7f00_0000_0204), 4);
        assert_eq!(address_alignment(0), 0);
        // The odd sizes at 1 MiB: 1 MiB + 4 and 1 KiB + 4 bytes, whole words, no power of two.
        let sizes: Vec<u64> = ODD_SIZE_ALIGNMENTS.iter().map(|(_, size)| size(1 << 20)).collect();
        assert_eq!(sizes, [(1 << 20) + 4, 1028]);
    }

    #[test]
    fn the_smallest_alignment_of_the_odd_sizes_grades_the_256_byte_claim() {
        let (verdict, measured) = alignment_verdict([2097152.0, 512.0]).expect("a row");
        assert_eq!(verdict, Verdict::Holds);
        assert!(
            measured.contains("a multiple of 512 bytes (the least aligned: 1028 B)"),
            "{measured}"
        );
        assert!(measured.contains("1048580 B: 2097152"), "{measured}");
        assert_eq!(alignment_verdict([256.0, 4096.0]).map(|v| v.0), Some(Verdict::Holds));
        assert_eq!(alignment_verdict([128.0, 4096.0]).map(|v| v.0), Some(Verdict::Weaker));
        assert_eq!(alignment_verdict([4096.0, 16.0]).map(|v| v.0), Some(Verdict::Gone));
        // Without the figures (an older report) there is no row, and the others stay.
        let rows = ledger_rows(&synthetic([300.0, 310.0, 320.0], [0.9, 1.0, 1.1], [8.0, 9.0, 10.0]));
        assert_eq!(rows.len(), 2);
    }

    #[test]
    fn sizes_respect_the_buffer_cap() {
        let all = RunSettings::default();
        assert_eq!(sizes(&all).len(), 5);
        let small = RunSettings {
            buffer_mib: Some(16),
            ..RunSettings::default()
        };
        assert_eq!(sizes(&small), vec![4 << 10, 64 << 10, 1 << 20, 16 << 20]);
    }

    #[test]
    fn a_probe_that_reads_back_something_else_fails() {
        let wrote = probe_value(1 << 20, 1);
        assert_ne!(wrote, 0);
        assert_ne!(probe_value(1 << 20, 2), wrote);
        assert!(probe_mismatch("x", 1 << 20, wrote, wrote).is_none());
        assert!(probe_mismatch("x", 1 << 20, wrote, 0).is_some_and(|m| m.contains("read back 0x00000000")));
    }

    #[test]
    fn a_proof_fails_where_the_word_or_the_copied_element_is_wrong() {
        let wrote = probe_value(4096, 0);
        for case in [Case::AllocFree, Case::PooledAllocFree, Case::Reuse] {
            assert_eq!(proof_failure(case, 4096, wrote, CaseReadBack::LastWord(wrote)), None);
        }
        let pooled = proof_failure(Case::PooledAllocFree, 4096, wrote, CaseReadBack::LastWord(0));
        assert!(pooled.is_some_and(|m| m.starts_with("a pooled allocation of 4096 bytes")));
        let kept = proof_failure(Case::Reuse, 4096, wrote, CaseReadBack::LastWord(1));
        assert!(kept.is_some_and(|m| m.starts_with("the kept buffer of 4096 bytes")));
        let launch = |got| proof_failure(Case::LaunchAndWait, 4096, wrote, CaseReadBack::CopiedElement(got));
        assert_eq!(launch(1.0), None);
        assert_eq!(launch(0.0).as_deref(), Some("the one-element copy wrote 0, not 1"));
    }

    #[test]
    fn odd_sizes_give_their_alignments_and_the_first_wrong_word() {
        let odd = odd_sizes(1 << 20);
        assert_eq!(
            odd,
            [
                ((1 << 20) + 4, probe_value((1 << 20) + 4, 8)),
                (1028, probe_value(1028, 9))
            ]
        );
        let read = [(0x7f00_0020_0000, odd[0].1), (0x7f00_0000_0300, odd[1].1)];
        assert_eq!(odd_size_check(&odd, &read), (vec![0x20_0000, 0x100], None));
        let (alignments, failure) = odd_size_check(&odd, &[(0x7f00_0020_0000, 5), (0x7f00_0000_0300, 6)]);
        assert_eq!(alignments, [0x20_0000, 0x100]);
        let failure = failure.expect("a wrong word fails");
        assert!(
            failure.starts_with("an odd-size cuMemAlloc allocation of 1048580 bytes"),
            "{failure}"
        );
    }
}
