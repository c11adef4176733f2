//! The matrix-multiply sections of `report.md`: the guide's Tables 3.2 and
//! 3.3 beside today's measurements.

use std::fmt::Write;

use super::KernelRecord;
use super::markdown::section_head;
use super::twin_gaps::twin_gaps;
use crate::experiments::{SeriesResult, SweepPoint, SweepResult};
use crate::gpu::Implementation;
use crate::launchers::GuideMultiply;

/// `median (min–max)` of a summary-like triple, or a dash / FAILED.
fn figure(point: Option<&SweepPoint>, pick: impl Fn(&SweepPoint) -> Option<crate::stats::Summary>) -> String {
    match point {
        Some(p) if !p.verified => "**FAILED**".into(),
        Some(p) => pick(p)
            .map(|s| format!("{:.1} ({:.0}–{:.0})", s.median, s.min, s.max))
            .unwrap_or_else(|| "—".into()),
        None => "—".into(),
    }
}

fn ratio(numerator: Option<f64>, denominator: Option<f64>, digits: usize) -> String {
    match (numerator, denominator) {
        (Some(n), Some(d)) if d > 0.0 => format!("{:.digits$}", n / d),
        _ => "—".into(),
    }
}

fn median_time(series: Option<&SeriesResult>, value: i64) -> Option<f64> {
    series
        .and_then(|s| s.point(value))
        .filter(|p| p.verified)
        .map(|p| p.time_ms.median)
}

/// Tables 3.2 and 3.3: one row per guide kernel, Rust and CUDA C side by side.
pub(super) fn guide_multiply_section(sweep: &SweepResult, kernels: &[KernelRecord], out: &mut String) {
    section_head(sweep, false, out);
    let Some(value) = sweep.values().first().copied() else {
        return;
    };
    for (table, aat) in [("Table 3.2: C = AB", false), ("Table 3.3: C = AAᵀ", true)] {
        let _ = writeln!(out, "**{table}** (M = N = {value})\n");
        let _ = writeln!(
            out,
            "| optimization | GTX 280 GB/s | 8800 GB/s | Rust ms | Rust GB/s | Rust GFLOP/s | speedup | CUDA C GB/s | \
             Rust/CUDA C |"
        );
        let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for kernel in GuideMultiply::ALL.into_iter().filter(|k| k.is_aat() == aat) {
            let rust = sweep.series_for(kernel.kernel(), Implementation::Rust);
            let cuda = sweep.series_for(kernel.kernel(), Implementation::CudaC);
            let baseline = sweep.series_for(kernel.baseline().kernel(), Implementation::Rust);
            let point = rust.and_then(|s| s.point(value));
            let (gtx280, gtx8800) = kernel.guide_gbps();
            let _ = writeln!(
                out,
                "| {} (`{}`) | {gtx280} | {gtx8800} | {} | {} | {} | {} | {} | {} |",
                kernel.label(),
                kernel.kernel(),
                median_time(rust, value)
                    .map(|t| format!("{t:.3}"))
                    .unwrap_or_else(|| "—".into()),
                figure(point, |p| p.effective_gbps),
                figure(point, SweepPoint::gflops),
                ratio(median_time(baseline, value), median_time(rust, value), 1) + "x",
                figure(cuda.and_then(|s| s.point(value)), |p| p.effective_gbps),
                ratio(
                    rust.and_then(|s| s.median_gbps(value)),
                    cuda.and_then(|s| s.median_gbps(value)),
                    3
                ),
            );
        }
        if let Some(cublas) = sweep
            .series
            .iter()
            .find(|s| s.implementation == Implementation::Cublas && s.kernel.contains('ᵀ') == aat)
        {
            let point = cublas.point(value);
            let _ = writeln!(
                out,
                "| {} | — | — | {} | {} | {} | — | — | — |",
                cublas.name,
                median_time(Some(cublas), value)
                    .map(|t| format!("{t:.3}"))
                    .unwrap_or_else(|| "—".into()),
                figure(point, |p| p.effective_gbps),
                figure(point, SweepPoint::gflops),
            );
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(
        out,
        "Cells: median (min–max over the samples); speedup: the unoptimized Rust kernel's median time over this \
         one's.\n"
    );
    for gap in twin_gaps(sweep, kernels, value, GuideMultiply::ALL.map(|k| k.kernel())) {
        let _ = writeln!(out, "**Rust vs CUDA C.** {gap}\n");
    }
    for s in &sweep.series {
        for p in s.points.iter().filter(|p| !p.verified) {
            let _ = writeln!(out, "**FAILED** {}: {}\n", s.name, p.failure.as_deref().unwrap_or(""));
        }
    }
}

/// Median GFLOP/s of a series at `value`, if measured and verified.
fn median_gflops(series: Option<&SeriesResult>, value: i64) -> Option<f64> {
    series?.point(value)?.gflops().map(|g| g.median)
}

/// The general SGEMM section: GFLOP/s of every series per size, then the
/// ratios a reader looks for (against cuBLAS, against the CUDA C twin).
pub(super) fn sgemm_section(sweep: &SweepResult, out: &mut String) {
    section_head(sweep, true, out);
    let sizes = sweep.values();
    let _ = write!(out, "| {} |", sweep.parameter);
    for s in &sweep.series {
        let _ = write!(out, " {} GFLOP/s |", s.name);
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "|{}", "---:|".repeat(1 + sweep.series.len()));
    for &size in &sizes {
        let _ = write!(out, "| {size} |");
        for s in &sweep.series {
            let _ = write!(out, " {} |", figure(s.point(size), SweepPoint::gflops));
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(out, "\nCells: median (min–max over the samples).\n");

    let cublas = sweep.series_for("cublasSgemm", Implementation::Cublas);
    let cublas_f16 = sweep.series_for("cublasGemmEx_f16", Implementation::Cublas);
    let rust = |kernel: &str| sweep.series_for(kernel, Implementation::Rust);
    let twin = |kernel: &str| sweep.series_for(kernel, Implementation::CudaC);
    let _ = writeln!(
        out,
        "| {} | register-blocked Rust / cuBLAS | tiled Rust / cuBLAS | f16-storage Rust / cuBLAS f16 | \
         register-blocked Rust / CUDA C | tiled Rust / CUDA C | f16-storage Rust / CUDA C |",
        sweep.parameter
    );
    let _ = writeln!(out, "|---:|---:|---:|---:|---:|---:|---:|");
    for &size in &sizes {
        let g = |s: Option<&SeriesResult>| median_gflops(s, size);
        let _ = writeln!(
            out,
            "| {size} | {} | {} | {} | {} | {} | {} |",
            ratio(g(rust("sgemm_register_blocked")), g(cublas), 3),
            ratio(g(rust("tiled_sgemm")), g(cublas), 3),
            ratio(g(rust("hgemm_f16_storage")), g(cublas_f16), 3),
            ratio(g(rust("sgemm_register_blocked")), g(twin("sgemm_register_blocked")), 3),
            ratio(g(rust("tiled_sgemm")), g(twin("tiled_sgemm")), 3),
            ratio(g(rust("hgemm_f16_storage")), g(twin("hgemm_f16_storage")), 3),
        );
    }
    let _ = writeln!(out, "\nRatios of median GFLOP/s.\n");
    for s in &sweep.series {
        for p in s.points.iter().filter(|p| !p.verified) {
            let why = p.failure.as_deref().unwrap_or("");
            let _ = writeln!(out, "**FAILED** {} at {} {}: {why}\n", s.name, sweep.parameter, p.value);
        }
    }
}
