//! `report.md`: what a reader needs to trust and interpret the numbers.

use std::fmt::Write;

use super::{Report, guide_figures};
use crate::experiments::SweepResult;

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
        "| kernel | registers | local (spill) B | static shared B | block | blocks/SM | occupancy |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|");
    for k in &report.kernels {
        let r = &k.resources;
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {} | {} | {:.0}% |",
            k.name,
            r.registers_per_thread,
            r.local_bytes_per_thread,
            r.static_shared_bytes,
            k.block_threads,
            k.active_blocks_per_sm,
            100.0 * k.theoretical_occupancy
        );
    }
    let _ = writeln!(out);
}

/// One sentence comparing the worst point with the best aligned one.
fn then_vs_now(sweep: &SweepResult) -> Option<String> {
    let base = sweep.points.first()?.effective_gbps?.median;
    let worst = sweep
        .points
        .iter()
        .filter_map(|p| p.effective_gbps.map(|g| (p.value, g.median)))
        .min_by(|a, b| a.1.total_cmp(&b.1))?;
    let ratio = base / worst.1;
    Some(match sweep.experiment.as_str() {
        "offset" => format!(
            "The worst offset ({}) runs at {:.1} GB/s, {:.2}x slower than offset 0 ({:.1} GB/s). On the guide's 8800 GTX \
             (cc 1.0) a misaligned offset cost about 10x (74 → 7 GB/s), on the GTX 280 (cc 1.3) about 1.7x (120 → 70 GB/s).",
            worst.0, worst.1, ratio, base
        ),
        "stride" => {
            // 32-byte sectors: below stride 8 a warp's 32 f32s span 4 * stride sectors, so the
            // useful fraction is 1/stride; from stride 8 on each element costs a whole sector (1/8).
            let model_floor = base / 8.0;
            let at = |s: i64| sweep.point(s).and_then(|p| p.effective_gbps).map(|g| g.median);
            let mut text = format!(
                "The slowest stride ({}) runs at {:.1} GB/s, {:.1}x slower than unit stride ({:.1} GB/s). \
                 Counting 32-byte sectors predicts unit-stride bandwidth divided by the stride up to stride 8, \
                 then a floor of 1/8 ({:.1} GB/s here), since each 4-byte element then costs a whole sector.",
                worst.0, worst.1, ratio, base, model_floor
            );
            if let (Some(s2), Some(s8)) = (at(2), at(8)) {
                text.push_str(&format!(
                    " Measured: stride 2 gives {:.1} GB/s (model {:.1}), stride 8 gives {:.1} GB/s (model {:.1}).",
                    s2,
                    base / 2.0,
                    s8,
                    model_floor
                ));
            }
            if worst.1 < 0.9 * model_floor {
                text.push_str(
                    " Past stride 8 the measured figure falls below the sector model: sector counting alone \
                     does not explain the sparsest accesses.",
                );
            }
            text.push_str(" On cc 1.0 any stride above 1 cost 16 transactions per half warp.");
            text
        }
        _ => return None,
    })
}

fn sweep_section(sweep: &SweepResult, out: &mut String) {
    let _ = writeln!(out, "## {} — `{}`\n", sweep.title, sweep.kernel);
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
    let _ = writeln!(
        out,
        "| {} | threads | GB/s min | GB/s median | GB/s max | % of peak | ms/launch (median) | verified |",
        sweep.parameter
    );
    let _ = writeln!(out, "|---:|---:|---:|---:|---:|---:|---:|:---:|");
    for p in &sweep.points {
        let (min, median, max) = match p.effective_gbps {
            Some(g) => (
                format!("{:.1}", g.min),
                format!("{:.1}", g.median),
                format!("{:.1}", g.max),
            ),
            None => ("—".into(), "—".into(), "—".into()),
        };
        let pct = p
            .percent_of_theoretical
            .map(|v| format!("{v:.1}"))
            .unwrap_or_else(|| "—".into());
        let verified = if p.verified {
            "yes".to_string()
        } else {
            format!("**FAILED**: {}", p.failure.as_deref().unwrap_or(""))
        };
        let _ = writeln!(
            out,
            "| {} | {} | {min} | {median} | {max} | {pct} | {:.4} | {verified} |",
            p.value, p.threads, p.time_ms.median
        );
    }
    let _ = writeln!(out);
}

/// The whole Markdown report.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    header(report, &mut out);
    kernels(report, &mut out);
    for sweep in &report.experiments {
        sweep_section(sweep, &mut out);
    }
    out
}
