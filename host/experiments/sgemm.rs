//! General matrix multiply past the guide: the OpenCL guide's tiled kernel, a
//! register-blocked SGEMM, its split-K launch and its f16-storage variant, in
//! every implementation, against cuBLAS on square products from 1024³ to 8192³.

use crate::report::{Bound, Unit};
use std::fmt::Write;

use half::f16;

use super::sweep::each_point;
use super::{Experiment, RunContext};
use crate::error::Result;
use crate::input_values::matrix_value;
use crate::launchers::{self, GemmEntry, GemmOp, GemmRunner, SgemmKernel, cublas_reference, gemm_flops, gemm_runners};
use crate::reference;
use crate::report::{
    Axis, Claim, ExperimentResult, LedgerRow, Metric, PlotSpec, Point, PointKey, Report, Rule, Scale, SectionHooks,
    Series, Waiver, Work, better_by, point_cell,
};
use crate::run_settings::RunSettings;
use crate::testbed::Implementation;
use crate::timing::{SAMPLE_BUDGET_MS, paced};

pub struct Sgemm;

/// Square sizes `m = n = k`: 1024³–8192³, and 4095³, where no row is
/// 16-byte aligned and every tile has an edge (the kernels' slow paths).
pub const SIZES: [u32; 5] = [1024, 2048, 4095, 4096, 8192];

/// The largest size the untiled kernel runs at (it reads A and B 16 times
/// as often as the tiled one: at 8192³ one launch would take most of a second).
pub const NAIVE_LARGEST: u32 = 2048;

/// Elements of `C` checked against the f64 CPU reference at every point (corners, edges, spread).
const SAMPLED_ELEMENTS: usize = 512;

/// The positions of `C` checked on the CPU: the four corners, then a spread.
fn sampled_positions(m: usize, n: usize) -> Vec<(usize, usize)> {
    let mut positions = vec![(0, 0), (0, n - 1), (m - 1, 0), (m - 1, n - 1)];
    positions.extend((0..SAMPLED_ELEMENTS).map(|i| ((i * 7919 + 13) % m, (i * 104_729 + 7) % n)));
    positions
}

/// The first sampled element of `got` (row-major `m × n`) outside γ_k·Σ|a·b| of the f64 reference.
fn sampled_mismatch(got: &[f32], a: &[f32], b: &[f32], (m, n, k): (usize, usize, usize)) -> Option<String> {
    let bound = reference::dot_error_bound(k);
    sampled_positions(m, n).into_iter().find_map(|(row, col)| {
        let (expected, scale) = reference::matmul_element(a, b, (k, n), row, col);
        let g = got[row * n + col];
        let error = (g as f64 - expected as f64).abs();
        (error.is_nan() || error > bound * scale + 1e-30).then(|| {
            format!(
                "C[{row}][{col}] is {g} but the CPU reference says {expected} (error {error:.3e} > {:.3e})",
                bound * scale
            )
        })
    })
}

/// The first element of `got` farther from cuBLAS's result than two error bounds.
fn full_mismatch(got: &[f32], (expected, scale): &(Vec<f32>, Vec<f32>), n: usize, k: usize) -> Option<String> {
    let gamma = reference::dot_error_bound(k);
    got.iter()
        .zip(expected)
        .zip(scale)
        .enumerate()
        .find_map(|(i, ((g, e), s))| {
            // Each result is within γ·Σ|a·b| of the exact product; the f32 |A|·|B| is within γ of Σ|a·b|.
            let bound = 2.0 * gamma * *s as f64 * (1.0 + 2.0 * gamma) + 1e-30;
            let error = (*g as f64 - *e as f64).abs();
            (error.is_nan() || error > bound).then(|| {
                format!(
                    "C[{}][{}] is {g} but cuBLAS gives {e} (error {error:.3e} > {bound:.3e})",
                    i / n,
                    i % n
                )
            })
        })
}

fn label(entry: &GemmEntry) -> String {
    match entry.implementation {
        Implementation::Cublas if entry.f16_inputs() => "cublasGemmEx (f16 storage, 32F pedantic)".into(),
        Implementation::Cublas => entry.kernel.into(),
        other => format!("{} · {}", entry.kernel, other.label()),
    }
}

impl Experiment for Sgemm {
    fn name(&self) -> &'static str {
        "sgemm"
    }
    fn title(&self) -> &'static str {
        "General matrix multiply: tiled and register-blocked SGEMM against cuBLAS"
    }
    fn source(&self) -> &'static str {
        "OpenCL Programming Guide §2.5 (tiled C = AB) taken to a register-blocked SGEMM; cuBLAS as the vendor \
         baseline"
    }
    fn points(&self) -> u64 {
        SIZES.len() as u64
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let byte_counting = "compulsory bytes: A and B read once (4 or 2 bytes per element) and C written once (4 \
                             bytes); GFLOP/s counts 2·m·n·k operations per product";
        let axis = Axis::lines("m = n = k (elements)", Metric::Gflops).x_scale(Scale::Log2);
        let mut result = ctx.result(self, axis, byte_counting);
        let (mut runners, waived) = gemm_runners(ctx.device)?;
        for (implementation, reason) in waived {
            result.waived.push(Waiver {
                what: implementation.label().to_string(),
                reason,
            });
        }
        let mut plan = Vec::new();
        for (r, runner) in runners.iter().enumerate() {
            for entry in runner.entries() {
                let key = ctx.key(entry.kernel, entry.implementation, entry.element);
                result.series.push(Series::new(key, label(&entry)));
                plan.push((r, entry, result.series.len() - 1));
            }
        }
        let has_cublas = ctx.device.cublas().is_ok();
        let mut unsupported: Vec<String> = Vec::new();
        each_point(ctx, SIZES, (0, SIZES.len()), |size| {
            ctx.progress.set_message(format!("sgemm {size}³ inputs"));
            let inputs = Inputs::load(ctx, has_cublas, &mut runners, size)?;
            let mut got = vec![0.0f32; inputs.dims.0 * inputs.dims.1];
            for &(r, entry, index) in &plan {
                if entry.op == GemmOp::Sgemm(SgemmKernel::Naive) && size > NAIVE_LARGEST {
                    continue;
                }
                if let Some(why) = split_k_too_shallow(&entry, size) {
                    unsupported.push(format!("{} at {size}³: {why}", result.series[index].label));
                    continue;
                }
                let runner = &mut runners[r];
                ctx.progress
                    .set_message(format!("sgemm {size}³ {}", result.series[index].label));
                match measure_product(ctx, runner.as_mut(), &entry, &inputs, &mut got)? {
                    Measured::Point(point) => result.series[index].points.extend(point),
                    Measured::Unsupported(e) => unsupported.push(format!("{}: {e}", result.series[index].label)),
                }
            }
            Ok(())
        })?;
        unsupported.dedup();
        result
            .notes
            .extend(unsupported.into_iter().map(|u| format!("skipped: {u}")));
        describe(ctx, &mut result);
        Ok(result)
    }
}

/// Why the split-K series is not measured at `size`³, if `entry` is its and
/// `k = size` gives each split fewer than [`launchers::SPLIT_K_MIN_TILES`] `k` tiles.
fn split_k_too_shallow(entry: &GemmEntry, size: u32) -> Option<String> {
    let split_k = entry.op == GemmOp::Sgemm(SgemmKernel::RegisterBlockedSplitK);
    let plan = launchers::SPLIT_K_PLAN;
    (split_k && !launchers::split_k_deep_enough(size)).then(|| {
        format!(
            "k = {size} gives each of its {} splits fewer than {} k tiles of {}",
            plan.splits,
            launchers::SPLIT_K_MIN_TILES,
            plan.choice.tile.depth
        )
    })
}

/// cuBLAS's product and the scale of its error bound, per element.
type CublasReference = (Vec<f32>, Vec<f32>);

/// One size's inputs (as f32 and rounded to f16), loaded into every runner,
/// and cuBLAS's full references where cuBLAS is there.
struct Inputs {
    size: u32,
    dims: (usize, usize, usize),
    a: Vec<f32>,
    b: Vec<f32>,
    a16: Vec<f32>,
    b16: Vec<f32>,
    /// cuBLAS's products (and their error scales) of the f32 inputs and of the f16-rounded ones.
    full: Option<(CublasReference, CublasReference)>,
}

impl Inputs {
    fn load(
        ctx: &RunContext<'_>,
        has_cublas: bool,
        runners: &mut [Box<dyn GemmRunner + '_>],
        size: u32,
    ) -> Result<Self> {
        let dims = (size, size, size);
        let (mu, nu, ku) = (size as usize, size as usize, size as usize);
        let a: Vec<f32> = (0..mu * ku).map(|i| matrix_value(i, 3)).collect();
        let b: Vec<f32> = (0..ku * nu).map(|i| matrix_value(i, 4)).collect();
        let rounded = |x: &[f32]| x.iter().map(|v| f16::from_f32(*v).to_f32()).collect::<Vec<f32>>();
        let (a16, b16) = (rounded(&a), rounded(&b));
        for runner in runners.iter_mut() {
            runner.load(&a, &b, dims)?;
        }
        let full = if has_cublas {
            ctx.progress.set_message(format!("sgemm {size}³ references"));
            cublas_reference(ctx.device, (&a, &b), dims)?.zip(cublas_reference(ctx.device, (&a16, &b16), dims)?)
        } else {
            None
        };
        Ok(Self {
            size,
            dims: (mu, nu, ku),
            a,
            b,
            a16,
            b16,
            full,
        })
    }
}

/// What one product gave: its point (none without a time), or cuBLAS's refusal of f16 inputs.
enum Measured {
    Point(Option<Point>),
    Unsupported(crate::error::Error),
}

/// One product: C filled with NaN, timed with fewer launches per sample
/// where one launch is long, checked at sampled elements against the f64
/// reference and, with cuBLAS, in full against cuBLAS's.
fn measure_product(
    ctx: &RunContext<'_>,
    runner: &mut dyn GemmRunner,
    entry: &GemmEntry,
    inputs: &Inputs,
    got: &mut [f32],
) -> Result<Measured> {
    let (mu, nu, ku) = inputs.dims;
    runner.fill_c(f32::NAN)?; // every element must be written by this series
    // Fewer launches per sample where one launch is long (SAMPLE_BUDGET_MS of GPU time per sample at most).
    let probe = RunSettings {
        reps: 1,
        samples: 1,
        ..ctx.settings.clone()
    };
    let one_ms = match runner.time(entry, &probe) {
        Ok(ms) => ms[0],
        Err(e) if entry.implementation == Implementation::Cublas && entry.f16_inputs() => {
            return Ok(Measured::Unsupported(e));
        }
        Err(e) => return Err(e),
    };
    let times_ms = runner.time(entry, &paced(ctx.settings, one_ms))?;
    runner.read_c(got)?;
    let (a, b) = if entry.f16_inputs() {
        (&inputs.a16, &inputs.b16)
    } else {
        (&inputs.a, &inputs.b)
    };
    let failure = sampled_mismatch(got, a, b, (mu, nu, ku)).or_else(|| {
        let (f32_inputs, f16_inputs) = inputs.full.as_ref()?;
        let reference = if entry.f16_inputs() { f16_inputs } else { f32_inputs };
        full_mismatch(got, reference, nu, ku)
    });
    let bytes = entry.input_bytes() * (mu * ku + ku * nu) as u64 + 4 * (mu * nu) as u64;
    let size = inputs.size;
    let work = Work::bytes((mu * nu) as u64, bytes).with_flops(gemm_flops((size, size, size)));
    Ok(Measured::Point(Point::timed(
        PointKey::Value(size as i64),
        &Metric::Gflops,
        work,
        &times_ms,
        failure,
    )))
}

/// The notes and the setup: the checks, the tiles chosen at each size.
fn describe(ctx: &RunContext<'_>, result: &mut ExperimentResult) {
    result.notes.push(format!(
        "square products m = n = k; results checked at {} elements of C per point (corners and a spread) against \
         an f64 CPU reference within γ_k·Σ|a·b| (γ_8192 = {:.2e}), and, with cuBLAS, every element against \
         cuBLAS's product within 2γ_k·(|A|·|B|); the f16 series against references of the f16-rounded inputs; \
         up to {} launches per sample, fewer where one launch takes long ({SAMPLE_BUDGET_MS} ms of GPU time per \
         sample); cuBLAS in its default FP32 math mode (no tensor cores)",
        SAMPLED_ELEMENTS + 4,
        reference::dot_error_bound(8192),
        ctx.settings.reps
    ));
    let sms = ctx.device.info().multiprocessors.max(1) as u32;
    let tiles: Vec<String> = SIZES
        .iter()
        .map(|&s| {
            let plan = launchers::register_blocked_plan((s, s, s), sms);
            format!(
                "{s}³: {} ({} blocks, `{}`)",
                plan.label(),
                plan.blocks((s, s)),
                plan.entry((s, s, s))
            )
        })
        .collect();
    result.setup.push(format!(
        "register-blocked SGEMM, Rust and CUDA C alike: the block tile whose busiest SM has the least work on \
         {sms} SMs (host/launchers/sgemm/tile_choice.rs), with the unguarded `_whole_tiles` entry where the \
         shape is made of whole tiles and the `_guarded_edges` one (guards only in blocks crossing an edge of C) \
         otherwise, never split along k: {}",
        tiles.join("; ")
    ));
    let split_k = launchers::SPLIT_K_PLAN;
    let split_k_sizes: Vec<String> = SIZES
        .iter()
        .filter(|&&s| launchers::split_k_deep_enough(s))
        .map(|&s| format!("{s}³: {} blocks", split_k.blocks((s, s))))
        .collect();
    result.setup.push(format!(
        "split-K SGEMM (`{}`, its own series beside the unsplit register-blocked one), Rust and CUDA C alike: the {} tile at every size, {} blocks per tile of C each over its part of \
         k, adding into C zeroed by a memset timed with the launch; measured where each split gets at least {} k \
         tiles; {}",
        SgemmKernel::RegisterBlockedSplitK.kernel(),
        split_k.choice.label(),
        split_k.splits,
        launchers::SPLIT_K_MIN_TILES,
        split_k_sizes.join("; ")
    ));
    let warp_tiled: Vec<String> = SIZES
        .iter()
        .map(|&s| format!("{s}³: `{}`", launchers::warp_tiled_entry((s, s, s))))
        .collect();
    result.setup.push(format!(
        "warp-tiled SGEMM (`sgemm_warp_tiled`, its own series beside the register-blocked one), Rust and CUDA C \
         alike: the 128 × 128 × 16 tile at every size, warps of 64 × 32, two blocks of 256 threads per SM; {}",
        warp_tiled.join("; ")
    ));
    let (whole, guarded): (Vec<u32>, Vec<u32>) = SIZES
        .iter()
        .partition(|&&s| launchers::whole_register_blocked_tiles((s, s, s)));
    result.setup.push(format!(
        "f16-storage kernels (128 × 128 tile at every size): sizes made of whole 128 × 128 × 8 tiles              ({whole:?}) run the unguarded `_whole_tiles` entries, the others ({guarded:?}) the guarded ones"
    ));
}

/// A column of the ratios table: its header and the series `(kernel,
/// implementation)` whose median GFLOP/s it divides by another's.
struct RatioColumn {
    header: &'static str,
    over: (&'static str, Implementation),
    under: (&'static str, Implementation),
}

/// The ratios table's columns before the twins': each kernel against cuBLAS,
/// then split-K against the unsplit register-blocked kernel (below 1: what
/// splitting `k` costs on this GPU, above 1: what it gains).
fn ratio_columns() -> [RatioColumn; 6] {
    let (rust, cublas) = (Implementation::Rust, Implementation::Cublas);
    let split_k = SgemmKernel::RegisterBlockedSplitK.kernel();
    let column = |header, over, under| RatioColumn { header, over, under };
    [
        column(
            "register-blocked Rust / cuBLAS",
            ("sgemm_register_blocked", rust),
            ("cublasSgemm", cublas),
        ),
        column(
            "warp-tiled Rust / cuBLAS",
            ("sgemm_warp_tiled", rust),
            ("cublasSgemm", cublas),
        ),
        column("tiled Rust / cuBLAS", ("tiled_sgemm", rust), ("cublasSgemm", cublas)),
        column(
            "f16-storage Rust / cuBLAS f16",
            ("hgemm_f16_storage", rust),
            ("cublasGemmEx_f16", cublas),
        ),
        column("split-K Rust / cuBLAS", (split_k, rust), ("cublasSgemm", cublas)),
        column(
            "split-K Rust / register-blocked Rust",
            (split_k, rust),
            ("sgemm_register_blocked", rust),
        ),
    ]
}

fn ratio(numerator: Option<f64>, denominator: Option<f64>) -> String {
    match (numerator, denominator) {
        (Some(n), Some(d)) if d > 0.0 => format!("{:.3}", n / d),
        _ => "—".into(),
    }
}

/// The plot: GFLOP/s against size, each series a line through the sizes made of whole
/// 128 × 128 × 8 tiles; an unaligned size (4095³) is a different case on the same axis,
/// drawn as a lone marker rather than a dip in the line.
fn sgemm_plot(result: &ExperimentResult) -> Option<PlotSpec> {
    let mut spec = PlotSpec::of(result)?;
    let mut unaligned = Vec::new();
    for line in spec.panels.iter_mut().flat_map(|p| p.lines.iter_mut()) {
        for point in &mut line.points {
            let n = point.x as u32;
            if !launchers::whole_register_blocked_tiles((n, n, n)) {
                point.alone = true;
                if !unaligned.contains(&n) {
                    unaligned.push(n);
                }
            }
        }
    }
    if !unaligned.is_empty() {
        let sizes: Vec<String> = unaligned.iter().map(u32::to_string).collect();
        spec.x_label = format!(
            "{}; {}: not whole tiles, marked apart from the lines",
            spec.x_label,
            sizes.join(", ")
        );
    }
    Some(spec)
}

/// The OpenCL guide's §2.5 claim for tiling, graded at this size.
const TILING_GRADED_AT: i64 = NAIVE_LARGEST as i64;

/// The claims the experiment grades.
pub fn claims() -> Vec<Claim> {
    vec![Claim {
        id: "ocl-2.5-tiled-multiply",
        source: "OpenCL guide §2.5",
        claim: "Staging 16 × 16 tiles of A and B in local (shared) memory makes the matrix multiply faster than \
                reading a row of A and a column of B from global memory per element: A is read n / 16 times \
                instead of n, B m / 16 instead of m"
            .into(),
        rule: Rule::Direction,
        reads: format!(
            "tiled_sgemm · Rust over naive_sgemm · Rust, GFLOP/s at {TILING_GRADED_AT}³ (the CUDA C and OpenCL C twins' \
             ratios beside it)"
        ),
        experiment: "sgemm",
    }]
}

/// The ledger rows of an sgemm result (pure: tested on synthetic results).
pub fn ledger_rows(result: &ExperimentResult) -> Vec<LedgerRow> {
    let gain = |implementation| {
        better_by(
            &result.axis.metric,
            result.series_of("tiled_sgemm", implementation)?.at(TILING_GRADED_AT)?,
            result.series_of("naive_sgemm", implementation)?.at(TILING_GRADED_AT)?,
        )
    };
    let Some(rust) = gain(Implementation::Rust) else {
        return Vec::new();
    };
    let twins: Vec<String> = [Implementation::CudaC, Implementation::OpenClC]
        .into_iter()
        .filter_map(|i| Some(format!("{} {:.2}x", i.label(), gain(i)?.median)))
        .collect();
    let twins = if twins.is_empty() {
        String::new()
    } else {
        format!(" (the twins: {})", twins.join(", "))
    };
    vec![claims()[0].grade(
        rust,
        format!(
            "{TILING_GRADED_AT}³: the tiled kernel's GFLOP/s over the untiled one's {}x{twins}",
            rust.text(2)
        ),
        result.device,
    )]
}

impl SectionHooks for Sgemm {
    fn claims(&self) -> Vec<Claim> {
        claims()
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        ledger_rows(result)
    }

    /// The suite's kernels run FP32 on the CUDA cores; a vendor call may use other units.
    fn bounds(&self, _result: &ExperimentResult, series: &Series) -> Vec<Bound> {
        match series.key.implementation {
            Implementation::Rust | Implementation::CudaC | Implementation::OpenClC => vec![Bound::headline(Unit::Fp32)],
            _ => Vec::new(),
        }
    }

    fn plot(&self, result: &ExperimentResult, _report: &Report) -> Option<PlotSpec> {
        sgemm_plot(result)
    }

    fn headline(&self, result: &ExperimentResult, _report: &Report) -> Option<String> {
        let at = 4096;
        let blocked = result
            .series_of("sgemm_register_blocked", Implementation::Rust)?
            .median_at(at)?;
        let mut text = format!("register-blocked Rust SGEMM {:.1} TFLOP/s at 4096³", blocked / 1e3);
        if let Some(cublas) = result
            .series_of("cublasSgemm", Implementation::Cublas)
            .and_then(|s| s.median_at(at))
        {
            text.push_str(&format!(" ({:.3} of cuBLAS's {:.1})", blocked / cublas, cublas / 1e3));
        }
        if let Some(tiled) = result
            .series_of("tiled_sgemm", Implementation::Rust)
            .and_then(|s| s.median_at(at))
        {
            text.push_str(&format!("; the OpenCL guide's tiled kernel {:.1}", tiled / 1e3));
        }
        Some(text)
    }

    /// GFLOP/s of every series per size, then the ratios a reader looks for
    /// (against cuBLAS, split-K against unsplit, against each twin).
    fn tables(&self, result: &ExperimentResult, _report: &Report) -> Option<String> {
        let mut out = String::new();
        let sizes = result.values();
        let _ = write!(out, "| {} |", result.axis.parameter);
        for s in &result.series {
            let _ = write!(out, " {} GFLOP/s |", s.label);
        }
        let _ = writeln!(out);
        let _ = writeln!(out, "|{}", "---:|".repeat(1 + result.series.len()));
        for &size in &sizes {
            let _ = write!(out, "| {size} |");
            for s in &result.series {
                let _ = write!(out, " {} |", point_cell(s.at(size)));
            }
            let _ = writeln!(out);
        }
        let _ = writeln!(out, "\nCells: median (min–max over the samples).\n");
        let g = |kernel: &str, implementation, size| {
            result.series_of(kernel, implementation).and_then(|s| s.median_at(size))
        };
        let twins: Vec<Implementation> = [Implementation::CudaC, Implementation::OpenClC]
            .into_iter()
            .filter(|t| result.series.iter().any(|s| s.key.implementation == *t))
            .collect();
        let columns = ratio_columns();
        let kernels = [
            "sgemm_register_blocked",
            "sgemm_warp_tiled",
            "tiled_sgemm",
            "hgemm_f16_storage",
            SgemmKernel::RegisterBlockedSplitK.kernel(),
        ];
        let _ = write!(out, "| {} |", result.axis.parameter);
        for column in &columns {
            let _ = write!(out, " {} |", column.header);
        }
        // Each twin's columns: the kernels it has a series of (OpenCL C has no register-blocked twin).
        let twin_columns: Vec<(Implementation, &str)> = twins
            .iter()
            .flat_map(|&t| kernels.into_iter().map(move |k| (t, k)))
            .filter(|&(t, k)| result.series_of(k, t).is_some())
            .collect();
        for (t, k) in &twin_columns {
            let _ = write!(out, " {k} Rust / {} |", t.label());
        }
        let _ = writeln!(out);
        let _ = writeln!(out, "|---:|{}", "---:|".repeat(columns.len() + twin_columns.len()));
        let rust = Implementation::Rust;
        for &size in &sizes {
            let _ = write!(out, "| {size} |");
            for column in &columns {
                let ((over, i), (under, j)) = (column.over, column.under);
                let _ = write!(out, " {} |", ratio(g(over, i, size), g(under, j, size)));
            }
            for &(t, k) in &twin_columns {
                let _ = write!(out, " {} |", ratio(g(k, rust, size), g(k, t, size)));
            }
            let _ = writeln!(out);
        }
        let _ = writeln!(out, "\nRatios of median GFLOP/s.");
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::super::ledger_fixtures::{result, series, series_with_spread};
    use super::*;
    use crate::report::Verdict;

    /// GFLOP/s of the untiled and tiled kernels at 2048³, per implementation.
    fn tiling_result(pairs: &[(Implementation, f64, f64)]) -> ExperimentResult {
        let all = pairs
            .iter()
            .flat_map(|&(implementation, naive, tiled)| {
                [
                    series("naive_sgemm", implementation, "", &[(1024, naive), (2048, naive)], &[]),
                    series("tiled_sgemm", implementation, "", &[(2048, tiled), (4096, tiled)], &[]),
                ]
            })
            .collect();
        result("sgemm", Metric::Gflops, all)
    }

    #[test]
    fn tiling_is_graded_by_the_direction_rule() {
        let rows = ledger_rows(&tiling_result(&[
            (Implementation::Rust, 1000.0, 2500.0),
            (Implementation::CudaC, 1000.0, 2400.0),
            (Implementation::OpenClC, 900.0, 2700.0),
        ]));
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].id, "ocl-2.5-tiled-multiply");
        assert_eq!(rows[0].verdict, Verdict::Holds);
        assert!(rows[0].measured.contains("2.50x"), "{}", rows[0].measured);
        assert!(
            rows[0].measured.contains("CUDA C 2.40x") && rows[0].measured.contains("OpenCL C 3.00x"),
            "{}",
            rows[0].measured
        );
        let gone = ledger_rows(&tiling_result(&[(Implementation::Rust, 1000.0, 1020.0)]));
        assert_eq!(gone[0].verdict, Verdict::Gone, "2% is no effect");
        assert!(!gone[0].measured.contains("twins"), "{}", gone[0].measured);
        let reversed = ledger_rows(&tiling_result(&[(Implementation::Rust, 1000.0, 800.0)]));
        assert_eq!(reversed[0].verdict, Verdict::Reversed);
    }

    #[test]
    fn tiling_needs_both_kernels_at_the_graded_size() {
        let only_naive = result(
            "sgemm",
            Metric::Gflops,
            vec![series("naive_sgemm", Implementation::Rust, "", &[(2048, 1000.0)], &[])],
        );
        assert!(ledger_rows(&only_naive).is_empty());
        // A spread across 1.05 is undecided.
        let spread = result(
            "sgemm",
            Metric::Gflops,
            vec![
                series_with_spread("naive_sgemm", Implementation::Rust, &[(2048, [950.0, 1000.0, 1050.0])]),
                series_with_spread("tiled_sgemm", Implementation::Rust, &[(2048, [1000.0, 1080.0, 1150.0])]),
            ],
        );
        assert_eq!(ledger_rows(&spread)[0].verdict, Verdict::Undecided);
    }

    /// The cell of `header`'s column in the last row of `table` that starts with `| {at} |`.
    fn ratio_cell(table: &str, header: &str, at: i64) -> String {
        let cells = |line: &str| line.split('|').map(|c| c.trim().to_string()).collect::<Vec<_>>();
        let heads = table
            .lines()
            .find(|l| l.contains(header))
            .map(cells)
            .expect("the column");
        let column = heads.iter().position(|h| h == header).expect("the header");
        let row = table
            .lines()
            .rev()
            .find(|l| l.starts_with(&format!("| {at} |")))
            .map(cells)
            .expect("the row");
        row[column].clone()
    }

    #[test]
    fn the_ratios_read_split_k_against_the_unsplit_kernel_and_its_twin() {
        let split_k = SgemmKernel::RegisterBlockedSplitK.kernel();
        let (rust, cuda_c) = (Implementation::Rust, Implementation::CudaC);
        let result = result(
            "sgemm",
            Metric::Gflops,
            vec![
                series("sgemm_register_blocked", rust, "", &[(1024, 32800.0)], &[]),
                series(split_k, rust, "", &[(1024, 30300.0)], &[]),
                series(split_k, cuda_c, "", &[(1024, 30950.0)], &[]),
                series("cublasSgemm", Implementation::Cublas, "", &[(1024, 37600.0)], &[]),
            ],
        );
        let report = Report::new(vec![], &RunSettings::default(), vec![], vec![], vec![]);
        let table = Sgemm.tables(&result, &report).expect("a table");
        assert_eq!(
            ratio_cell(&table, "split-K Rust / register-blocked Rust", 1024),
            "0.924"
        );
        assert_eq!(ratio_cell(&table, "split-K Rust / cuBLAS", 1024), "0.806");
        assert_eq!(ratio_cell(&table, "register-blocked Rust / cuBLAS", 1024), "0.872");
        assert_eq!(ratio_cell(&table, &format!("{split_k} Rust / CUDA C"), 1024), "0.979");
        assert_eq!(ratio_cell(&table, "warp-tiled Rust / cuBLAS", 1024), "—");
    }

    #[test]
    fn split_k_is_measured_at_every_size() {
        let entry = GemmEntry {
            implementation: Implementation::Rust,
            op: GemmOp::Sgemm(SgemmKernel::RegisterBlockedSplitK),
            kernel: SgemmKernel::RegisterBlockedSplitK.kernel(),
            element: "f32",
        };
        for size in SIZES {
            assert_eq!(split_k_too_shallow(&entry, size), None, "{size}³");
        }
        let why = split_k_too_shallow(&entry, 240).expect("k = 240: 15 tiles in two splits");
        assert!(why.contains("fewer than 8 k tiles of 16"), "{why}");
        let unsplit = GemmEntry {
            op: GemmOp::Sgemm(SgemmKernel::RegisterBlocked),
            ..entry
        };
        assert_eq!(split_k_too_shallow(&unsplit, 16), None);
    }

    #[test]
    fn the_untiled_kernel_stops_below_the_largest_sizes() {
        assert!(SIZES.contains(&NAIVE_LARGEST));
        assert!(SIZES.iter().filter(|&&s| s <= NAIVE_LARGEST).count() >= 2);
    }
}
