//! The guide's shared-memory matrix multiplies (§3.2.2.2–3.2.2.3, Tables 3.2
//! and 3.3): each kernel in Rust and as its twins, with cuBLAS SGEMM on the
//! same product as the vendor's figure.

use std::fmt::Write;

use kernels_gpu::guide_multiply::TILE_DIM;

use super::sweep::each_point;
use super::{Experiment, RunContext};
use crate::error::Result;
use crate::input_values::matrix_value;
use crate::launchers::{GuideLaunch, GuideMultiply, GuideMultiplyRunner, guide_multiply_runners};
use crate::published_figures::{GUIDE_TABLE_DEVICES, MATMUL, value_of};
use crate::reference;
use crate::report::{
    Axis, Claim, ExperimentResult, LedgerRow, Metric, PlotKind, Point, PointKey, Report, Rule, SectionHooks, Series,
    SeriesKey, Work, better_by, point_cell, summary_cell,
};
use crate::testbed::Implementation;

pub struct Matmul;

/// Largest `M = N`: `C`'s `M × N` indices are `int` in the guide's kernels.
const MAX_SIDE: u64 = 46336;

/// `M = N`, a multiple of `TILE_DIM`, such that `C` (`M × N` floats) fills
/// about `buffer_bytes`: large enough to fill the GPU many times over.
pub fn guide_side(buffer_bytes: u64) -> u32 {
    let t = TILE_DIM as u64;
    let side = ((buffer_bytes / 4) as f64).sqrt() as u64;
    (side / t * t).clamp(t, MAX_SIDE) as u32
}

fn cublas_variant(aat: bool) -> &'static str {
    if aat { "A·Aᵀ" } else { "A·B" }
}

impl Experiment for Matmul {
    fn name(&self) -> &'static str {
        "matmul"
    }
    fn title(&self) -> &'static str {
        "Shared-memory matrix multiply: the guide's C = AB and C = AAᵀ kernels"
    }
    fn source(&self) -> &'static str {
        "CUDA C Best Practices Guide §3.2.2.2–3.2.2.3, Listings 3.7–3.11, Tables 3.2 and 3.3"
    }
    fn points(&self) -> u64 {
        2
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let byte_counting = "compulsory bytes: A (and B) read once and C written once, (M·K + K·N + M·N) × 4 for \
                             C = AB and (M·K + M·M) × 4 for C = AAᵀ; the guide does not state its count, and any \
                             fixed count gives the same speedups. GFLOP/s counts 2·K operations per element of C";
        let axis = Axis::lines("M = N", Metric::Bandwidth).plot(PlotKind::None);
        let mut result = ctx.result(self, axis, byte_counting);
        let (mut runners, waived) = guide_multiply_runners(ctx.device)?;
        result.waive(waived);
        let side = guide_side(ctx.settings.buffer_bytes(ctx.device.info()));
        let mut product = Product::new(side);
        for runner in &mut runners {
            runner.load(&product.a, &product.b, side)?;
        }
        // Table 3.2 (C = AB), then Table 3.3 (C = AAᵀ): one reference each, computed once.
        each_point(ctx, [false, true], (0, 2), |aat| {
            ctx.progress.set_message(format!(
                "matmul reference {side} x {side}{}",
                if aat { " (AAᵀ)" } else { "" }
            ));
            let reference = product.reference(aat);
            for runner in &mut runners {
                for launch in runner.launches(aat) {
                    let series = product.measure(ctx, runner.as_mut(), (launch, aat), &reference)?;
                    result.series.push(series);
                }
            }
            Ok(())
        })?;
        describe(&mut result, side);
        Ok(result)
    }
}

/// The guide's product at one size: the inputs on the host and the buffer C is read back into.
struct Product {
    side: u32,
    a: Vec<f32>,
    b: Vec<f32>,
    got: Vec<f32>,
}

impl Product {
    /// M = N = `side`, K = TILE_DIM.
    fn new(side: u32) -> Self {
        let (mu, nu, ku) = (side as usize, side as usize, TILE_DIM as usize);
        Self {
            side,
            a: (0..mu * ku).map(|i| matrix_value(i, 1)).collect(),
            b: (0..ku * nu).map(|i| matrix_value(i, 2)).collect(),
            got: vec![0.0f32; mu * nu],
        }
    }

    /// The f64 CPU reference of C = AB or C = AAᵀ, and its error scales.
    fn reference(&self, aat: bool) -> (Vec<f32>, Vec<f64>) {
        let (mu, nu, ku) = (self.side as usize, self.side as usize, TILE_DIM as usize);
        if aat {
            reference::matmul_aat(&self.a, mu, ku)
        } else {
            reference::matmul(&self.a, &self.b, mu, ku, nu)
        }
    }

    /// One launch's series (of C = AAᵀ where `aat`) by `runner`: C from NaN, timed, every element checked.
    fn measure(
        &mut self,
        ctx: &RunContext<'_>,
        runner: &mut dyn GuideMultiplyRunner,
        (launch, aat): (GuideLaunch, bool),
        (expected, scale): &(Vec<f32>, Vec<f64>),
    ) -> Result<Series> {
        let (m, n, k) = (self.side, self.side, TILE_DIM);
        let (nu, ku) = (n as usize, k as usize);
        let peak = ctx.device.info().theoretical_bandwidth_gbps;
        let (key, label, shape_of) = match launch {
            GuideLaunch::Kernel(kernel, imp) => (
                ctx.key(kernel.kernel(), imp, "f32"),
                format!("{} · {}", kernel.kernel(), imp.label()),
                kernel,
            ),
            GuideLaunch::Cublas { aat } => (
                ctx.key("cublasSgemm", Implementation::Cublas, "f32")
                    .variant(cublas_variant(aat)),
                format!("cublasSgemm ({})", cublas_variant(aat)),
                if aat {
                    GuideMultiply::SimpleAat
                } else {
                    GuideMultiply::Simple
                },
            ),
        };
        ctx.progress.set_message(format!("matmul {label}"));
        runner.fill_c(f32::NAN)?; // every element must be written by this series
        let times_ms = runner.time(launch, ctx.settings)?;
        let got = &mut self.got;
        runner.read_c(got)?;
        let columns = if aat { m as usize } else { nu };
        let failure = reference::matmul_mismatch(got, expected, scale, ku, columns);
        let work = Work::bytes(got.len() as u64, shape_of.compulsory_bytes(m, n)).with_flops(shape_of.flops(m, n));
        let mut series = Series::new(key, label);
        if let Some(mut point) = Point::timed(
            PointKey::Value(self.side as i64),
            &Metric::Bandwidth,
            work,
            &times_ms,
            failure,
        ) {
            if let Some(gbps) = point.median() {
                point.set_extra("% of peak", 100.0 * gbps / peak.max(f64::MIN_POSITIVE));
            }
            series.points.push(point);
        }
        Ok(series)
    }
}

/// The setup and the notes: the shape, why A stays in L2, the check.
fn describe(result: &mut ExperimentResult, side: u32) {
    let (mu, ku) = (side as usize, TILE_DIM as usize);
    result.setup.push(format!(
        "M = N = {side} (C fills the run's buffer size; --size-mib changes it), K = TILE_DIM = {TILE_DIM}; \
         blocks of {TILE_DIM} x {TILE_DIM} threads, one per {TILE_DIM} x {TILE_DIM} tile of C"
    ));
    result.notes.push(format!(
        "A ({:.1} MiB) and B are small enough to stay in L2, so the kernels are bound by writing C and by \
         on-chip traffic, as on the guide's GPUs (whose caches did not hold A)",
        (mu * ku * 4) as f64 / (1 << 20) as f64
    ));
    result.notes.push(format!(
        "every element of C checked against an f64 CPU reference within γ_K·Σ|a·b| (γ_{TILE_DIM} = {:.2e}: the \
         worst-case f32 dot-product error in any order)",
        reference::dot_error_bound(ku)
    ));
}

fn ratio(numerator: Option<f64>, denominator: Option<f64>, digits: usize) -> String {
    match (numerator, denominator) {
        (Some(n), Some(d)) if d > 0.0 => format!("{:.digits$}", n / d),
        _ => "—".into(),
    }
}

/// Every step of the guide's Tables 3.2 and 3.3, in order (before, after).
const STEPS: [(GuideMultiply, GuideMultiply); 4] = [
    (GuideMultiply::Simple, GuideMultiply::Coalesced),
    (GuideMultiply::Coalesced, GuideMultiply::SharedAb),
    (GuideMultiply::SimpleAat, GuideMultiply::CoalescedAat),
    (GuideMultiply::CoalescedAat, GuideMultiply::CoalescedAatPadded),
];

/// The claims the experiment grades: one per step of Tables 3.2 and 3.3,
/// each against the GTX 280's speedup for that step.
pub fn claims() -> Vec<Claim> {
    let guide = |kernel: GuideMultiply| value_of(MATMUL, kernel.kernel(), GUIDE_TABLE_DEVICES[0].1).unwrap_or(f64::NAN);
    let texts = [
        (
            "bpg-3.2.2.2-coalesced-tile",
            "Best Practices Guide §3.2.2.2, Table 3.2",
            "Staging a tile of A in shared memory to coalesce its reads speeds C = AB up",
        ),
        (
            "bpg-3.2.2.2-shared-ab",
            "Best Practices Guide §3.2.2.2, Table 3.2",
            "Tiles of both A and B in shared memory remove redundant reads",
        ),
        (
            "bpg-3.2.2.3-coalesced-aat",
            "Best Practices Guide §3.2.2.3, Table 3.3",
            "Reading Aᵀ through a transposed tile in shared memory instead of strided loads speeds C = AAᵀ up",
        ),
        (
            "bpg-3.2.2.3-padded-tile",
            "Best Practices Guide §3.2.2.3, Table 3.3",
            "Padding the transposed tile to [32][33] removes its bank conflicts",
        ),
    ];
    texts
        .into_iter()
        .zip(STEPS)
        .map(|((id, source, claim), (before, after))| Claim {
            id,
            source,
            claim: format!("{claim} (GTX 280: {:.1} → {:.1} GB/s)", guide(before), guide(after)),
            rule: Rule::Factor {
                claimed: guide(after) / guide(before),
            },
            reads: format!("`{}` · Rust over `{}` · Rust, GB/s", after.kernel(), before.kernel()),
            experiment: "matmul",
        })
        .collect()
}

impl SectionHooks for Matmul {
    /// Tables 3.2 and 3.3: one row per guide kernel, the guide's figures,
    /// Rust's, and Rust over each twin.
    fn tables(&self, result: &ExperimentResult, _report: &Report) -> Option<String> {
        let value = *result.values().first()?;
        let mut out = String::new();
        let twins: Vec<Implementation> = [Implementation::CudaC, Implementation::OpenClC]
            .into_iter()
            .filter(|t| result.series.iter().any(|s| s.key.implementation == *t))
            .collect();
        let ms = |s: Option<&Series>| s.and_then(|s| s.at(value)).and_then(|p| p.median_ms());
        let gflops = |s: Option<&Series>| -> String {
            s.and_then(|s| s.at(value))
                .and_then(|p| p.extra.get("GFLOP/s").copied())
                .map(|g| format!("{g:.1}"))
                .unwrap_or_else(|| "—".into())
        };
        for (table, aat) in [("Table 3.2: C = AB", false), ("Table 3.3: C = AAᵀ", true)] {
            let _ = writeln!(out, "**{table}** (M = N = {value})\n");
            let _ = write!(out, "| optimization |");
            for (short, _) in GUIDE_TABLE_DEVICES {
                let _ = write!(out, " {short} GB/s |");
            }
            let _ = write!(out, " Rust ms | Rust GB/s | Rust GFLOP/s | speedup |");
            for t in &twins {
                let _ = write!(out, " {} GB/s | Rust/{} |", t.label(), t.label());
            }
            let _ = writeln!(out);
            let _ = writeln!(
                out,
                "|---|{}",
                "---:|".repeat(GUIDE_TABLE_DEVICES.len() + 4 + 2 * twins.len())
            );
            for kernel in GuideMultiply::ALL.into_iter().filter(|k| k.is_aat() == aat) {
                let rust = result.series_of(kernel.kernel(), Implementation::Rust);
                let baseline = result.series_of(kernel.baseline().kernel(), Implementation::Rust);
                let _ = write!(out, "| {} (`{}`) |", kernel.label(), kernel.kernel());
                for (_, device) in GUIDE_TABLE_DEVICES {
                    let figure = value_of(MATMUL, kernel.kernel(), device);
                    let _ = write!(
                        out,
                        " {} |",
                        figure.map(|f| format!("{f}")).unwrap_or_else(|| "—".into())
                    );
                }
                let point = rust.and_then(|s| s.at(value));
                let _ = write!(
                    out,
                    " {} | {} | {} | {}x |",
                    ms(rust).map(|t| format!("{t:.3}")).unwrap_or_else(|| "—".into()),
                    point_cell(point),
                    gflops(rust),
                    ratio(ms(baseline), ms(rust), 1)
                );
                for &t in &twins {
                    let twin = result.series_of(kernel.kernel(), t);
                    let rel = match (rust, twin) {
                        (Some(r), Some(o)) => result.rust_over(r, o, PointKey::Value(value)),
                        _ => None,
                    };
                    let _ = write!(
                        out,
                        " {} | {} |",
                        point_cell(twin.and_then(|s| s.at(value))),
                        rel.map(|r| format!("{r:.3}")).unwrap_or_else(|| "—".into())
                    );
                }
                let _ = writeln!(out);
            }
            let key = SeriesKey::new("cublasSgemm", Implementation::Cublas, "f32");
            if let Some(cublas) = result
                .series
                .iter()
                .find(|s| s.key.kernel == key.kernel && s.key.variant == cublas_variant(aat))
            {
                let point = cublas.at(value);
                let _ = writeln!(
                    out,
                    "| {} |{} {} | {} | {} | — |{}",
                    cublas.label,
                    " — |".repeat(GUIDE_TABLE_DEVICES.len()),
                    ms(Some(cublas))
                        .map(|t| format!("{t:.3}"))
                        .unwrap_or_else(|| "—".into()),
                    point
                        .and_then(|p| p.value)
                        .map(|v| summary_cell(&v))
                        .unwrap_or_else(|| "—".into()),
                    gflops(Some(cublas)),
                    " — | — |".repeat(twins.len())
                );
            }
            let _ = writeln!(out);
        }
        let _ = writeln!(
            out,
            "Cells: median (min–max over the samples); speedup: the unoptimized Rust kernel's median time over this \
             one's."
        );
        Some(out)
    }

    fn claims(&self) -> Vec<Claim> {
        claims()
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        let Some(&value) = result.values().first() else {
            return Vec::new();
        };
        let point = |kernel: GuideMultiply| result.series_of(kernel.kernel(), Implementation::Rust)?.at(value);
        claims()
            .iter()
            .zip(STEPS)
            .filter_map(|(claim, (before, after))| {
                let (b, a) = (point(before)?, point(after)?);
                let factor = better_by(&result.axis.metric, a, b)?;
                Some(claim.grade(
                    factor,
                    format!(
                        "`{}` {:.0} GB/s → `{}` {:.0} GB/s (Rust): {}x",
                        before.kernel(),
                        b.median()?,
                        after.kernel(),
                        a.median()?,
                        factor.text(2)
                    ),
                    result.device,
                ))
            })
            .collect()
    }
}
