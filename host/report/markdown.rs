//! `report.md`: what a reader needs to trust and interpret the numbers.

use std::fmt::Write;

use super::{Report, guide_figures};
use crate::experiments::{SeriesResult, SweepPoint, SweepResult};
use crate::gpu::Implementation;

fn mhz(khz: i64) -> String {
    if khz > 0 {
        format!("{} MHz", khz / 1000)
    } else {
        "not reported".into()
    }
}

fn header(report: &Report, out: &mut String) {
    let d = &report.device;
    let _ = writeln!(out, "# ptxsuite report\n");
    if report.partial {
        let _ = writeln!(
            out,
            "> **Partial report: the run was interrupted** ({}). Incomplete experiments: {}. The figures below are \
             what was measured before it stopped.\n",
            report.stop_reason.as_deref().unwrap_or("reason not recorded"),
            if report.incomplete.is_empty() {
                "none recorded".to_string()
            } else {
                report.incomplete.join("; ")
            }
        );
    }
    let _ = writeln!(out, "| | |\n|---|---|");
    let _ = writeln!(
        out,
        "| GPU | {} ({}, {} SMs, PCI {}) |",
        d.name,
        d.sm_name(),
        d.multiprocessors,
        d.pci_bus_id
    );
    let _ = writeln!(
        out,
        "| Driver | CUDA {} ({}) |",
        d.driver_version_string(),
        d.driver_version
    );
    let _ = writeln!(
        out,
        "| Clocks (peak, as the driver reports) | SM {}, memory {} |",
        mhz(d.sm_clock_khz),
        mhz(d.memory_clock_khz)
    );
    let _ = writeln!(
        out,
        "| Theoretical bandwidth | {:.1} GB/s = {} × {} bit / 8 × 2 (DDR) / 1e9 |",
        d.theoretical_bandwidth_gbps,
        mhz(d.memory_clock_khz),
        d.memory_bus_width_bits
    );
    let _ = writeln!(
        out,
        "| L2 cache | {:.1} MiB |",
        d.l2_cache_bytes as f64 / (1 << 20) as f64
    );
    let _ = writeln!(
        out,
        "| Memory | {:.1} GiB, ECC {} |",
        d.total_memory_bytes as f64 / (1u64 << 30) as f64,
        if d.ecc_enabled { "on" } else { "off" }
    );
    let _ = writeln!(
        out,
        "| PTX | target {}, ISA {} (JIT-compiled by the driver for {}) |",
        report.ptx.target,
        report.ptx.isa_version,
        d.sm_name()
    );
    let _ = writeln!(
        out,
        "| ptxsuite | {} (report schema {} v{}) |",
        report.tool_version, report.schema, report.schema_version
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "**Method.** Each point: destination filled with a sentinel, one warm-up launch, then {} samples of {} launches \
         between two CUDA events (`CU_EVENT_DEFAULT`) on a non-blocking stream; the tables give min / median / max over \
         the samples of the per-launch figure. The destination is then copied back and compared element by element \
         with a CPU reference; a point that fails shows no bandwidth. GB = 1e9 bytes. Effective bandwidth is the \
         guide's `(Br + Bw) / 1e9 / seconds`.\n",
        report.settings.samples, report.settings.reps
    );
}

fn kernels(report: &Report, out: &mut String) {
    let _ = writeln!(out, "## Kernels\n");
    let _ = writeln!(
        out,
        "| kernel | implementation | registers | local (spill) B | static shared B | block | dynamic shared B | blocks/SM | occupancy |"
    );
    let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for k in &report.kernels {
        let r = &k.resources;
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {} | {} | {} | {} | {:.0}% |",
            k.name,
            k.implementation.label(),
            r.registers_per_thread,
            r.local_bytes_per_thread,
            r.static_shared_bytes,
            k.block_threads,
            k.dynamic_shared_bytes,
            k.active_blocks_per_sm,
            100.0 * k.theoretical_occupancy
        );
    }
    let _ = writeln!(out);
}

fn median(series: Option<&SeriesResult>, value: i64) -> Option<f64> {
    series.and_then(|s| s.median_gbps(value))
}

/// The value with the lowest median bandwidth in a series.
fn worst(series: &SeriesResult) -> Option<(i64, f64)> {
    series
        .points
        .iter()
        .filter_map(|p| p.effective_gbps.map(|g| (p.value, g.median)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
}

/// A paragraph comparing today's measurements with the guide's cc 1.x story.
fn then_vs_now(sweep: &SweepResult) -> Option<String> {
    let rust = |kernel: &str| sweep.series_for(kernel, Implementation::Rust);
    Some(match sweep.experiment.as_str() {
        "offset" => {
            let series = rust("offset_copy")?;
            let base = series.median_gbps(0)?;
            let (at, low) = worst(series)?;
            format!(
                "The worst offset ({at}) runs at {low:.1} GB/s, {:.2}x slower than offset 0 ({base:.1} GB/s). On the \
                 guide's 8800 GTX (cc 1.0) a misaligned offset cost about 10x (74 → 7 GB/s), on the GTX 280 (cc 1.3) \
                 about 1.7x (120 → 70 GB/s).",
                base / low
            )
        }
        "stride" => {
            let series = rust("stride_copy")?;
            let base = series.median_gbps(1)?;
            let (at, low) = worst(series)?;
            let floor = base / 8.0;
            let mut text = format!(
                "The slowest stride ({at}) runs at {low:.1} GB/s, {:.1}x slower than unit stride ({base:.1} GB/s). \
                 Counting 32-byte sectors predicts unit-stride bandwidth divided by the stride up to stride 8, then a \
                 floor of 1/8 ({floor:.1} GB/s here), since each 4-byte element then costs a whole sector; the \
                 \"DRAM-sector GB/s\" column is that actual traffic over the measured time.",
                base / low
            );
            if let (Some(s2), Some(s8)) = (series.median_gbps(2), series.median_gbps(8)) {
                text.push_str(&format!(
                    " Measured: stride 2 gives {s2:.1} GB/s (model {:.1}), stride 8 gives {s8:.1} GB/s (model {floor:.1}).",
                    base / 2.0
                ));
            }
            if low < 0.9 * floor {
                text.push_str(
                    " Past stride 8 the measured figure falls below the sector model: sector counting alone does not \
                     explain the sparsest accesses.",
                );
            }
            text.push_str(" On cc 1.0 any stride above 1 cost 16 transactions per half warp.");
            text
        }
        "shift" => {
            let plain = rust("shift_copy")?;
            let texture = rust("texture_shift_copy")?;
            let (at, low) = worst(plain)?;
            let base = plain.median_gbps(0)?;
            let tex_at = texture.median_gbps(at)?;
            let offset_at = median(rust("offset_copy"), at);
            let mut text = format!(
                "At its worst shift ({at}) the plain shifted read runs at {low:.1} GB/s ({:.1}% below shift 0, \
                 {base:.1} GB/s); the texture path gives {tex_at:.1} GB/s there ({:+.1}% vs plain loads).",
                100.0 * (1.0 - low / base),
                100.0 * (tex_at / low - 1.0)
            );
            if let Some(offset) = offset_at {
                text.push_str(&format!(
                    " offset_copy, with misaligned reads and writes, gives {offset:.1} GB/s."
                ));
            }
            text.push_str(
                " On cc 1.x the texture path was the cure for misaligned reads; since Maxwell textures and L1 share \
                 one cache, so it buys nothing.",
            );
            text
        }
        "offset-width" | "stride-width" => {
            let (first, second) = if sweep.experiment == "offset-width" {
                (0, 1)
            } else {
                (1, 2)
            };
            let parts: Vec<String> = sweep
                .series
                .iter()
                .filter(|s| s.implementation == Implementation::Rust)
                .filter_map(|s| {
                    let a = s.median_gbps(first)?;
                    let b = s.median_gbps(second)?;
                    let (at, low) = worst(s)?;
                    Some(format!(
                        "{} ({} B): {a:.0} GB/s at {first}, {:.2}x less at {second}, worst at {at}: {low:.0} GB/s ({:.2}x)",
                        s.element,
                        s.element_bytes,
                        a / b,
                        a / low
                    ))
                })
                .collect();
            format!(
                "By element width ({}; Rust kernels, median): {}. With one element per thread, narrow elements are \
                 limited by memory instructions rather than bytes (compare the aligned figures). A 32-byte sector \
                 holds 16, 8, 4 or 2 of these elements, so wider elements waste fewer bytes per misaligned warp \
                 and reach the one-element-per-sector floor at smaller strides.",
                sweep.parameter,
                parts.join("; ")
            )
        }
        "transfers" => {
            // The guide's point: pinned memory is what lets the copy engines run at link speed.
            let at = 256 * 1024; // KiB
            let best = sweep
                .series
                .iter()
                .filter(|s| s.name.contains("pinned"))
                .flat_map(|s| s.points.iter().filter_map(|p| p.effective_gbps.map(|g| g.median)))
                .fold(0.0f64, f64::max);
            let get = |name: &str| sweep.series_named(name).and_then(|s| s.median_gbps(at));
            let (h2d, d2h) = (get("H2D · pinned")?, get("D2H · pinned")?);
            let mut text = format!(
                "At 256 MiB pinned memory moves {h2d:.1} GB/s host to device and {d2h:.1} GB/s device to host: \
                 {:.1}% and {:.1}% of the best pinned figure measured ({best:.1} GB/s).",
                100.0 * h2d / best,
                100.0 * d2h / best
            );
            if let (Some(p_h2d), Some(p_d2h)) = (get("H2D · pageable"), get("D2H · pageable")) {
                text.push_str(&format!(
                    " Pageable memory gives {p_h2d:.1} and {p_d2h:.1} GB/s ({:.2}x and {:.2}x of pinned), the staging \
                     copy the guide's §3.1.1 warns about.",
                    p_h2d / h2d,
                    p_d2h / d2h
                ));
            }
            text
        }
        "zero-copy" => {
            let at = *sweep.values().last()?;
            let get = |name: &str| sweep.series_named(name).and_then(|s| s.median_gbps(at));
            let (read, write) = (
                get("kernel reads mapped host memory")?,
                get("kernel writes mapped host memory")?,
            );
            let (up, down) = (get("H2D copy (pinned)")?, get("D2H copy (pinned)")?);
            let point = |name: &str| {
                sweep
                    .series_named(name)
                    .and_then(|s| s.point(at))
                    .map(|p| p.time_ms.median)
            };
            let (explicit, zero) = (
                point("end to end: H2D + kernel + D2H")?,
                point("end to end: zero-copy kernel")?,
            );
            format!(
                "At {at} MiB a kernel reading mapped host memory gets {read:.1} GB/s and one writing it {write:.1} GB/s, \
                 against {up:.1} / {down:.1} GB/s for pinned copies by the copy engines. End to end, zero copy takes \
                 {zero:.3} ms where H2D + kernel + D2H take {explicit:.3} ms ({:.2}x): with data read and written \
                 once, the link is the limit either way and zero copy overlaps the two directions.",
                explicit / zero
            )
        }
        "ceiling" => {
            let value = *sweep.values().first()?;
            let vector = median(rust("vector_copy"), value)?;
            let driver = median(sweep.series_for("cuMemcpyDtoDAsync", Implementation::Driver), value)?;
            let mut text = format!(
                "The Rust vectorized copy moves {vector:.1} GB/s, {:.3}x the driver's cuMemcpyDtoDAsync \
                 ({driver:.1} GB/s) on the same buffers.",
                vector / driver
            );
            if let Some(cuda) = median(sweep.series_for("vector_copy", Implementation::CudaC), value) {
                text.push_str(&format!(
                    " Its CUDA C twin moves {cuda:.1} GB/s ({:.3}x).",
                    cuda / driver
                ));
            }
            text
        }
        _ => return None,
    })
}

/// Rust / CUDA C median ratios for every kernel measured both ways.
fn twin_pairs(sweep: &SweepResult) -> Vec<(&SeriesResult, &SeriesResult)> {
    sweep
        .series
        .iter()
        .filter(|s| s.implementation == Implementation::Rust)
        .filter_map(|rust| {
            sweep
                .series
                .iter()
                .find(|c| c.implementation == Implementation::CudaC && c.kernel == rust.kernel)
                .map(|cuda| (rust, cuda))
        })
        .collect()
}

fn cell(point: Option<&SweepPoint>) -> String {
    match point {
        Some(SweepPoint {
            effective_gbps: Some(g),
            ..
        }) => format!("{:.1} ({:.0}–{:.0})", g.median, g.min, g.max),
        Some(_) => "**FAILED**".into(),
        None => "—".into(),
    }
}

/// One line per point whose result failed verification, with the first mismatch.
fn failures(sweep: &SweepResult, out: &mut String) {
    for s in &sweep.series {
        for p in s.points.iter().filter(|p| !p.verified) {
            let why = p.failure.as_deref().unwrap_or("");
            let _ = writeln!(out, "\n**FAILED** {} at {} {}: {why}", s.name, sweep.parameter, p.value);
        }
    }
}

/// A section's title, what it reproduces, how bytes are counted, its plot
/// (where it has one) and its notes.
pub(super) fn section_head(sweep: &SweepResult, plot: bool, out: &mut String) {
    let _ = writeln!(out, "## {}\n", sweep.title);
    let _ = writeln!(
        out,
        "Reproduces {}. Bytes counted: {}.\n",
        sweep.guide_section, sweep.byte_counting
    );
    if plot {
        let _ = writeln!(out, "![{}]({}.svg)\n", sweep.title, sweep.experiment);
    }
    for note in &sweep.notes {
        let _ = writeln!(out, "*Note:* {note}\n");
    }
}

/// The matrix-vector section, shaped like the whitepaper's Table 1: one row
/// per version, the GTX 285 time beside each shape's measurements.
fn matvec_section(sweep: &SweepResult, kernels: &[super::KernelRecord], out: &mut String) {
    section_head(sweep, true, out);
    let heights = sweep.values();
    let ceiling = sweep.series.iter().find(|s| s.kernel == "vector_copy");
    for &height in &heights {
        let best = sweep
            .series
            .iter()
            .filter(|s| s.kernel.starts_with("matvec_") && s.implementation == Implementation::Rust)
            .filter_map(|s| s.median_gbps(height).map(|g| (s, g)))
            .max_by(|a, b| a.1.total_cmp(&b.1));
        if let (Some((series, gbps)), Some(copy)) = (best, median(ceiling, height)) {
            let _ = writeln!(
                out,
                "**Height {height}.** Best Rust version: {} at {gbps:.1} GB/s = {:.1}% of the copy ceiling measured \
                 in the same run ({copy:.1} GB/s).\n",
                series.name,
                100.0 * gbps / copy
            );
        }
    }
    let _ = write!(out, "| version | GTX 285 ms |");
    for &h in &heights {
        let _ = write!(out, " h={h}: ms | GB/s | speedup vs Listing 2 | Rust/CUDA C |");
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "|---|---:|{}", "---:|---:|---:|---:|".repeat(heights.len()));
    for s in &sweep.series {
        // Speedups are over Listing 2 of the same implementation.
        let listing2 = sweep.series_for("matvec_row_per_thread", s.implementation);
        let paper = crate::launchers::MatVecVersion::ALL
            .iter()
            .find(|v| v.kernel() == s.kernel && s.kernel.starts_with("matvec_"))
            .and_then(|v| v.gtx285_ms())
            .map(|ms| format!("{ms}"))
            .unwrap_or_else(|| "—".into());
        let _ = write!(out, "| {} | {paper} |", s.name);
        for &h in &heights {
            let point = s.point(h);
            let ms = point
                .map(|p| format!("{:.3}", p.time_ms.median))
                .unwrap_or_else(|| "—".into());
            let baseline = listing2.and_then(|b| b.point(h)).map(|p| p.time_ms.median);
            let speedup = match (baseline, point) {
                (Some(b), Some(p)) if s.kernel.starts_with("matvec_") => format!("{:.1}x", b / p.time_ms.median),
                _ => "—".into(),
            };
            let twin = match s.implementation {
                Implementation::Rust => sweep
                    .series_for(&s.kernel, Implementation::CudaC)
                    .and_then(|c| Some(s.median_gbps(h)? / c.median_gbps(h)?))
                    .map(|r| format!("{r:.3}"))
                    .unwrap_or_else(|| "—".into()),
                _ => "—".into(),
            };
            let _ = write!(out, " {ms} | {} | {speedup} | {twin} |", cell(point));
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(out, "\nGB/s cells: median (min–max over the samples).\n");
    for &height in &heights {
        let names = crate::launchers::MatVecVersion::ALL.map(|v| v.kernel());
        for gap in super::twin_gaps::twin_gaps(sweep, kernels, height, names) {
            let _ = writeln!(out, "**Rust vs CUDA C, height {height}.** {gap}\n");
        }
    }
    failures(sweep, out);
    let _ = writeln!(out);
}

/// The streams section: time per nStreams against the guide's model.
fn streams_section(sweep: &SweepResult, out: &mut String) {
    section_head(sweep, true, out);
    let (Some(staged), Some(model)) = (sweep.series.first(), sweep.series.get(1)) else {
        return;
    };
    let _ = writeln!(
        out,
        "| streams | staged ms (min–max) | model ms | measured / model | verified |"
    );
    let _ = writeln!(out, "|---:|---:|---:|---:|:---:|");
    for p in &staged.points {
        let model_ms = model.point(p.value).map(|m| m.time_ms.median);
        let ratio = model_ms
            .map(|m| format!("{:.3}", p.time_ms.median / m))
            .unwrap_or_else(|| "—".into());
        let verified = if p.verified {
            "yes".to_string()
        } else {
            format!("**FAILED**: {}", p.failure.as_deref().unwrap_or(""))
        };
        let _ = writeln!(
            out,
            "| {} | {:.3} ({:.3}–{:.3}) | {} | {ratio} | {verified} |",
            p.value,
            p.time_ms.median,
            p.time_ms.min,
            p.time_ms.max,
            model_ms.map(|m| format!("{m:.3}")).unwrap_or_else(|| "—".into())
        );
    }
    let _ = writeln!(out);
}

fn sweep_section(sweep: &SweepResult, kernels: &[super::KernelRecord], out: &mut String) {
    if sweep.experiment == "matvec" {
        return matvec_section(sweep, kernels, out);
    }
    if sweep.experiment == "streams" {
        return streams_section(sweep, out);
    }
    if sweep.experiment == "matmul" {
        return super::matmul_tables::guide_multiply_section(sweep, kernels, out);
    }
    if sweep.experiment == "sgemm" {
        return super::matmul_tables::sgemm_section(sweep, out);
    }
    let _ = writeln!(out, "## {}\n", sweep.title);
    let _ = writeln!(
        out,
        "Reproduces {}. Buffers of {:.0} MiB each, {} threads per block.",
        sweep.guide_section,
        sweep.buffer_bytes as f64 / (1 << 20) as f64,
        sweep.block_threads
    );
    let _ = writeln!(out, "Bytes counted: {}.\n", sweep.byte_counting);
    let _ = writeln!(out, "![{}]({}.svg)\n", sweep.title, sweep.experiment);
    if let Some(text) = then_vs_now(sweep) {
        let _ = writeln!(out, "**Then vs now.** {text}\n");
    }
    for note in &sweep.notes {
        let _ = writeln!(out, "*Note:* {note}\n");
    }
    let pairs = twin_pairs(sweep);
    if !pairs.is_empty() {
        let ratios: Vec<(String, i64, f64)> = pairs
            .iter()
            .flat_map(|(rust, cuda)| {
                rust.points.iter().filter_map(move |p| {
                    Some((
                        rust.name.clone(),
                        p.value,
                        p.effective_gbps?.median / cuda.median_gbps(p.value)?,
                    ))
                })
            })
            .collect();
        if let Some(lowest) = ratios.iter().min_by(|a, b| a.2.total_cmp(&b.2)) {
            let highest = ratios.iter().map(|r| r.2).fold(f64::MIN, f64::max);
            let within = ratios.iter().filter(|r| r.2 >= 0.97).count();
            let _ = writeln!(
                out,
                "**Rust vs CUDA C.** Rust / CUDA C median bandwidth ranges {:.3} to {highest:.3} over {} points; \
                 {within} of them within 3% or faster; lowest: {} at {} {}.\n",
                lowest.2,
                ratios.len(),
                lowest.0,
                sweep.parameter,
                lowest.1
            );
        }
    }
    let figures = guide_figures(&sweep.experiment);
    if !figures.is_empty() {
        let _ = writeln!(out, "The guide's figures (from its text):\n");
        let _ = writeln!(out, "| device | case | effective GB/s |\n|---|---|---:|");
        for f in figures {
            let gbps = f.gbps.map(|g| format!("{g}")).unwrap_or_else(|| "(plot only)".into());
            let _ = writeln!(out, "| {} | {} | {} |", f.device, f.case, gbps);
        }
        let _ = writeln!(out);
    }
    let modelled = sweep
        .series
        .first()
        .is_some_and(|s| s.points.iter().any(|p| p.sector_gbps.is_some()));
    let _ = write!(out, "| {} |", sweep.parameter);
    for s in &sweep.series {
        let _ = write!(out, " {} [{}] GB/s |", s.name, s.element);
    }
    for (rust, _) in &pairs {
        let _ = write!(out, " {} [{}] Rust/CUDA C |", rust.kernel, rust.element);
    }
    if modelled {
        let _ = write!(out, " DRAM-sector GB/s ({}) |", sweep.series[0].name);
    }
    let _ = writeln!(out);
    let columns = 1 + sweep.series.len() + pairs.len() + usize::from(modelled);
    let _ = writeln!(out, "|{}", "---:|".repeat(columns));
    for value in sweep.values() {
        let _ = write!(out, "| {value} |");
        for s in &sweep.series {
            let _ = write!(out, " {} |", cell(s.point(value)));
        }
        for (rust, cuda) in &pairs {
            match (rust.median_gbps(value), cuda.median_gbps(value)) {
                (Some(r), Some(c)) => {
                    let _ = write!(out, " {:.3} |", r / c);
                }
                _ => {
                    let _ = write!(out, " — |");
                }
            }
        }
        if modelled {
            let sector = sweep.series[0].point(value).and_then(|p| p.sector_gbps);
            let _ = write!(
                out,
                " {} |",
                sector.map(|g| format!("{g:.1}")).unwrap_or_else(|| "—".into())
            );
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(out, "\nCells: median GB/s (min–max over the samples).");
    failures(sweep, out);
    let _ = writeln!(out);
}

/// The whole Markdown report.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    header(report, &mut out);
    kernels(report, &mut out);
    for sweep in &report.experiments {
        sweep_section(sweep, &report.kernels, &mut out);
    }
    out
}
