//! `report.md`: what a reader needs to trust and interpret the numbers. Every
//! section is built the same way from the typed results; an experiment's
//! [`SectionHooks`](super::SectionHooks) add its narrative and its tables.

use std::fmt::Write;

use super::{
    DeviceCeilings, ExperimentResult, HooksLookup, PlotSpec, Point, PointKey, Report, Status, Verdict, plot_file_base,
    twin_gap,
};
use crate::published_figures;
use crate::stats::Summary;

fn mhz(khz: i64) -> String {
    if khz > 0 {
        format!("{} MHz", khz / 1000)
    } else {
        "not reported".into()
    }
}

/// `median (min–max)` with a precision that suits the magnitude.
pub fn summary_cell(s: &Summary) -> String {
    let digits = if s.median.abs() >= 100.0 {
        0
    } else if s.median.abs() >= 1.0 {
        1
    } else {
        3
    };
    format!("{:.d$} ({:.d$}–{:.d$})", s.median, s.min, s.max, d = digits)
}

/// A point's table cell: its figure, or why there is none.
pub fn point_cell(point: Option<&Point>) -> String {
    match point {
        Some(Point { value: Some(v), .. }) => summary_cell(v),
        Some(Point {
            status: Status::Failed(_),
            ..
        }) => "**FAILED**".into(),
        Some(Point {
            status: Status::Waived(_),
            ..
        }) => "waived".into(),
        Some(_) | None => "—".into(),
    }
}

fn header(report: &Report, out: &mut String) {
    let _ = writeln!(out, "# ptxsuite report\n");
    if report.partial {
        let incomplete = report.incomplete();
        let _ = writeln!(
            out,
            "> **Partial report: the run was interrupted** ({}). Incomplete experiments: {}. The figures below are \
             what was measured before it stopped.\n",
            report.stop_reason.as_deref().unwrap_or("reason not recorded"),
            if incomplete.is_empty() {
                "none recorded".to_string()
            } else {
                incomplete.join("; ")
            }
        );
    }
    let _ = writeln!(out, "| | |\n|---|---|");
    if !report.host.is_empty() {
        let _ = writeln!(out, "| Host | {} |", report.host);
    }
    for d in &report.devices {
        let gpu = if report.devices.len() > 1 {
            format!("GPU {}", d.ordinal)
        } else {
            "GPU".into()
        };
        let _ = writeln!(
            out,
            "| {gpu} | {} ({}, {} SMs, PCI {}{}) |",
            d.name,
            d.sm_name(),
            d.multiprocessors,
            d.pci_bus_id,
            d.uuid.as_deref().map(|u| format!(", {u}")).unwrap_or_default()
        );
        let _ = writeln!(
            out,
            "| {gpu}: clocks (peak, as the driver reports) | SM {}, memory {} |",
            mhz(d.sm_clock_khz),
            mhz(d.memory_clock_khz)
        );
        let _ = writeln!(
            out,
            "| {gpu}: theoretical bandwidth | {:.1} GB/s = {} × {} bit / 8 × 2 (DDR) / 1e9 |",
            d.theoretical_bandwidth_gbps,
            mhz(d.memory_clock_khz),
            d.memory_bus_width_bits
        );
        let _ = writeln!(
            out,
            "| {gpu}: memory | {:.1} GiB, ECC {}; L2 {:.1} MiB; host link {} |",
            d.total_memory_bytes as f64 / (1u64 << 30) as f64,
            if d.ecc_enabled { "on" } else { "off" },
            d.l2_cache_bytes as f64 / (1 << 20) as f64,
            d.pcie_link.as_deref().unwrap_or("not readable from sysfs")
        );
    }
    if let Some(d) = report.devices.first() {
        let _ = writeln!(
            out,
            "| Driver | CUDA {} ({}) |",
            d.driver_version_string(),
            d.driver_version
        );
        let _ = writeln!(
            out,
            "| PTX | target {}, ISA {} (JIT-compiled by the driver for {}) |",
            report.ptx.target,
            report.ptx.isa_version,
            d.sm_name()
        );
    }
    for (label, text) in super::telemetry_lines::header_rows(report) {
        let _ = writeln!(out, "| {label} | {text} |");
    }
    for note in &report.notes {
        let _ = writeln!(out, "| Note | {note} |");
    }
    for i in &report.implementations {
        let _ = writeln!(
            out,
            "| {} | {}{} |",
            i.implementation.label(),
            i.status,
            if i.detail.is_empty() {
                String::new()
            } else {
                format!(" ({})", i.detail)
            }
        );
    }
    let _ = writeln!(
        out,
        "| ptxsuite | {} (report schema {} v{}) |",
        report.tool_version, report.schema, report.schema_version
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "**Method.** Each point: outputs filled with a sentinel, one warm-up launch, then {} samples of {} launches \
         between two timing events (CUDA events on a non-blocking stream; OpenCL profiling events) unless a section \
         says otherwise; cells give median (min–max) over the samples of the per-launch figure. The outputs are then \
         compared with a CPU reference; a point that fails shows no figure. GB = 1e9 bytes. Effective bandwidth is \
         the guide's `(Br + Bw) / 1e9 / seconds`.\n",
        report.settings.samples, report.settings.reps
    );
    if report.settings.counters {
        let _ = writeln!(out, "{}\n", super::counter_check::COUNTERS_METHOD);
    }
}

fn kernels(report: &Report, out: &mut String) {
    if report.kernels.is_empty() {
        return;
    }
    let several = report.devices.len() > 1;
    let _ = writeln!(out, "## Kernels\n");
    let _ = writeln!(
        out,
        "| kernel | implementation |{} registers | local (spill) B | static shared B | block | dynamic shared B | blocks/SM | occupancy |",
        if several { " GPU |" } else { "" }
    );
    let _ = writeln!(
        out,
        "|---|---|{}---:|---:|---:|---:|---:|---:|---:|",
        if several { "---:|" } else { "" }
    );
    for k in &report.kernels {
        let r = &k.resources;
        let _ = writeln!(
            out,
            "| `{}` | {} |{} {} | {} | {} | {} | {} | {} | {:.0}% |",
            k.name,
            k.implementation.label(),
            if several {
                format!(" {} |", k.device)
            } else {
                String::new()
            },
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

/// The generic table: a row per point, a column per series, then a Rust /
/// twin ratio per kernel measured both ways, then the first series' extra figures.
pub fn generic_table(result: &ExperimentResult) -> String {
    let mut out = String::new();
    let unit = result.axis.metric.unit();
    let pairs = result.twin_pairs();
    let pairs: Vec<_> = pairs
        .into_iter()
        .filter(|(_, t)| t.key.implementation.is_kernel_twin())
        .collect();
    let extras: Vec<String> = result
        .series
        .first()
        .map(|s| {
            let mut names: Vec<String> = Vec::new();
            for p in &s.points {
                for name in p.extra.keys() {
                    if !names.contains(name) && name != unit {
                        names.push(name.clone());
                    }
                }
            }
            names
        })
        .unwrap_or_default();
    let _ = write!(out, "| {} |", result.axis.parameter);
    for s in &result.series {
        let _ = write!(out, " {} [{}] {unit} |", s.label, s.key.element);
    }
    for (rust, twin) in &pairs {
        let _ = write!(
            out,
            " {} [{}] Rust/{} |",
            rust.key.kernel,
            rust.key.element,
            twin.key.implementation.label()
        );
    }
    for name in &extras {
        let _ = write!(out, " {name} ({}) |", result.series[0].label);
    }
    let _ = writeln!(out);
    let columns = 1 + result.series.len() + pairs.len() + extras.len();
    let _ = writeln!(out, "|{}", "---:|".repeat(columns));
    for at in result.point_keys() {
        let _ = write!(out, "| {at} |");
        for s in &result.series {
            let _ = write!(out, " {} |", point_cell(s.point(at)));
        }
        for (rust, twin) in &pairs {
            match result.rust_over(rust, twin, at) {
                Some(r) => {
                    let _ = write!(out, " {r:.3} |");
                }
                None => {
                    let _ = write!(out, " — |");
                }
            }
        }
        for name in &extras {
            let value = result.series[0].point(at).and_then(|p| p.extra.get(name));
            let _ = write!(
                out,
                " {} |",
                value.map(|v| format!("{v:.1}")).unwrap_or_else(|| "—".into())
            );
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(out, "\nCells: median (min–max over the samples), {unit}.");
    out
}

/// Per twin implementation: the range of Rust / twin over all points, and
/// the gap sentences for the kernels more than 3% apart.
fn twin_summary(result: &ExperimentResult, report: &Report, out: &mut String) {
    let pairs: Vec<_> = result
        .twin_pairs()
        .into_iter()
        .filter(|(_, t)| t.key.implementation.is_kernel_twin())
        .collect();
    let mut twins: Vec<_> = pairs.iter().map(|(_, t)| t.key.implementation).collect();
    twins.dedup();
    twins.sort();
    twins.dedup();
    for implementation in twins {
        let mut ratios: Vec<(String, PointKey, f64)> = Vec::new();
        for (rust, twin) in pairs.iter().filter(|(_, t)| t.key.implementation == implementation) {
            for p in &rust.points {
                if let Some(r) = result.rust_over(rust, twin, p.at) {
                    ratios.push((rust.label.clone(), p.at, r));
                }
            }
        }
        let Some(lowest) = ratios.iter().min_by(|a, b| a.2.total_cmp(&b.2)) else {
            continue;
        };
        let highest = ratios.iter().map(|r| r.2).fold(f64::MIN, f64::max);
        let within = ratios.iter().filter(|r| r.2 >= 0.97).count();
        let label = implementation.label();
        let _ = writeln!(
            out,
            "**Rust vs {label}.** Rust / {label} ranges {:.3} to {highest:.3} over {} points (the figure's ratio, \
             inverted for times); {within} of them within 3% or faster; lowest: {} at {} {}.\n",
            lowest.2,
            ratios.len(),
            lowest.0,
            result.axis.parameter,
            lowest.1
        );
        // One sentence per kernel, at its point farthest from parity.
        for (rust, twin) in pairs.iter().filter(|(_, t)| t.key.implementation == implementation) {
            let worst = rust
                .points
                .iter()
                .filter_map(|p| Some((p.at, result.rust_over(rust, twin, p.at)?)))
                .max_by(|a, b| (a.1.ln().abs()).total_cmp(&b.1.ln().abs()));
            if let Some((at, _)) = worst
                && let Some(gap) = twin_gap(result, &report.kernels, (rust, twin), at)
            {
                let _ = writeln!(out, "- {gap}");
            }
        }
        let _ = writeln!(out);
    }
}

fn published(result: &ExperimentResult, out: &mut String) {
    let figures = published_figures::for_experiment(&result.name);
    if figures.is_empty() {
        return;
    }
    let _ = writeln!(out, "The documents' figures (from their text):\n");
    let _ = writeln!(out, "| document | device | case | figure |\n|---|---|---|---:|");
    for f in figures {
        let value = f
            .value
            .map(|v| format!("{v} {}", f.unit))
            .unwrap_or_else(|| "(plot only)".into());
        let _ = writeln!(
            out,
            "| {} {} | {} | {} | {value} |",
            f.document.title(),
            f.section,
            f.device,
            f.case
        );
    }
    let _ = writeln!(out);
}

fn section(result: &ExperimentResult, report: &Report, hooks: HooksLookup<'_>, out: &mut String) {
    let gpu = match result.device {
        Some(d) if report.devices.len() > 1 => format!(" — GPU {d}"),
        _ => String::new(),
    };
    let _ = writeln!(out, "## {}{gpu}\n", result.title);
    match &result.status {
        Status::Ok => {}
        Status::Waived(why) => {
            let _ = writeln!(out, "**Waived:** {why}\n");
        }
        Status::NotRun(why) => {
            let _ = writeln!(out, "**Not run / incomplete:** {why}\n");
        }
        Status::Failed(why) => {
            let _ = writeln!(out, "**FAILED:** {why}\n");
        }
    }
    let _ = writeln!(out, "Reproduces {}.", result.source);
    if !result.setup.is_empty() {
        let _ = writeln!(out, "Setup: {}.", result.setup.join("; "));
    }
    if !result.byte_counting.is_empty() {
        let _ = writeln!(out, "Bytes counted: {}.", result.byte_counting);
    }
    let _ = writeln!(out);
    if result.series.is_empty() {
        return;
    }
    let base = plot_file_base(report, result);
    if PlotSpec::of(result).is_some() {
        let _ = writeln!(out, "![{}]({base}.svg)\n", result.title);
    }
    let hook = hooks(&result.name);
    if let Some(h) = hook {
        for spec in h.extra_plots(result, report) {
            let _ = writeln!(out, "![{}]({base}-{}.svg)\n", spec.title, spec.suffix);
        }
        for paragraph in h.narrative(result, report) {
            let _ = writeln!(out, "{paragraph}\n");
        }
    }
    for artifact in &result.artifacts {
        if artifact.inline {
            let _ = writeln!(out, "![{}]({})\n", artifact.caption, artifact.file);
        } else {
            let _ = writeln!(out, "[{}]({})\n", artifact.caption, artifact.file);
        }
    }
    for w in &result.waived {
        let _ = writeln!(out, "*Waived:* {} — {}\n", w.what, w.reason);
    }
    for note in &result.notes {
        let _ = writeln!(out, "*Note:* {note}\n");
    }
    if let Some(line) = super::telemetry_lines::section_line(report, result) {
        let _ = writeln!(out, "{line}\n");
    }
    published(result, out);
    match hook.and_then(|h| h.tables(result, report)) {
        Some(tables) => out.push_str(&tables),
        None => out.push_str(&generic_table(result)),
    }
    let _ = writeln!(out);
    twin_summary(result, report, out);
    for (series, point) in result.failures() {
        let _ = writeln!(
            out,
            "**FAILED** {} at {} {}: {}\n",
            series.label,
            result.axis.parameter,
            point.at,
            point.status.reason().unwrap_or("")
        );
    }
}

/// The physical ceilings every figure was checked against, per GPU, and the
/// points that broke one.
fn ceilings(report: &Report, out: &mut String) {
    let tables: Vec<DeviceCeilings> = report
        .devices
        .iter()
        .filter_map(|d| DeviceCeilings::of(report, d.ordinal))
        .collect();
    if tables.iter().all(|t| t.ceilings.is_empty()) {
        return;
    }
    let _ = writeln!(out, "## Physical ceilings\n");
    let _ = writeln!(
        out,
        "Every figure is checked against the ceiling of its unit before it is shown or graded (allowing {:.0}% for \
         clock error); a figure past its ceiling fails its point with the reason.\n",
        100.0 * super::ceilings::CEILING_TOLERANCE
    );
    let several = tables.len() > 1;
    let _ = writeln!(
        out,
        "|{} unit | ceiling | from |\n|{}---|---:|---|",
        if several { " GPU |" } else { "" },
        if several { "---:|" } else { "" }
    );
    for table in &tables {
        for c in &table.ceilings {
            let _ = writeln!(
                out,
                "|{} {} | {:.1} {} | {} |",
                if several {
                    format!(" {} |", table.ordinal)
                } else {
                    String::new()
                },
                c.unit.name(),
                c.value,
                c.unit.measure(),
                c.source
            );
        }
    }
    let broken: Vec<String> = report
        .experiments
        .iter()
        .flat_map(|e| {
            e.failures()
                .filter_map(|(s, p)| {
                    let why = p.status.reason()?;
                    why.contains("not a finding")
                        .then(|| format!("{} {} at {}: {why}", e.name, s.label, p.at))
                })
                .collect::<Vec<_>>()
        })
        .collect();
    let _ = writeln!(
        out,
        "\nFigures past their ceilings in this report: {}.\n",
        if broken.is_empty() {
            "none".to_string()
        } else {
            format!("{} ({})", broken.len(), broken.join("; "))
        }
    );
}

/// "The guides' claims, then and now": the ledger the run stored, or (for
/// reports that stored none) the one the experiments' hooks compute now.
fn ledger(report: &Report, hooks: HooksLookup<'_>, out: &mut String) {
    let computed;
    let rows = if report.ledger.is_empty() {
        computed = report.compute_ledger(hooks);
        &computed
    } else {
        &report.ledger
    };
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(out, "## The guides' claims, then and now\n");
    let _ = writeln!(
        out,
        "Each row: a claim of the source documents in our words, what this run measured (and where), and a verdict \
         computed from the measurement by the rule in the last column (`ptxsuite claims` lists every claim and what \
         it reads). The {}. The {}. Where the documents give no factor, only the direction is graded. The \
         verdict is **undecided** when {}. A row whose figures failed a check (a physical ceiling, two measures \
         that disagree, a wrong result) is **failed** and not graded.\n",
        super::FACTOR_RULE,
        super::DIRECTION_RULE,
        super::UNDECIDED_RULE.trim_start_matches("every figure is graded at ")
    );
    let counts: Vec<String> = [
        Verdict::Stronger,
        Verdict::Holds,
        Verdict::Weaker,
        Verdict::Gone,
        Verdict::Reversed,
        Verdict::Undecided,
        Verdict::Failed,
    ]
    .into_iter()
    .filter_map(|v| {
        let n = rows.iter().filter(|r| r.verdict == v).count();
        (n > 0).then(|| format!("{n} {}", v.label()))
    })
    .collect();
    let _ = writeln!(out, "{} claims graded: {}.\n", rows.len(), counts.join(", "));
    let several = report.devices.len() > 1;
    let _ = writeln!(
        out,
        "| source | claim | measured |{} verdict | rule |\n|---|---|---|{}---|---|",
        if several { " GPU |" } else { "" },
        if several { "---:|" } else { "" }
    );
    for row in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} (`{}`) |{} **{}** | {} |",
            row.source,
            row.claim,
            row.measured,
            row.experiment,
            if several {
                format!(
                    " {} |",
                    row.device.map(|d| d.to_string()).unwrap_or_else(|| "node".into())
                )
            } else {
                String::new()
            },
            row.verdict_text(),
            row.rule
        );
    }
    let _ = writeln!(out);
}

/// The whole Markdown report: the header, the ledger, the kernels, then a
/// section per experiment (grouped by GPU when the run had several).
pub fn render(report: &Report, hooks: HooksLookup<'_>) -> String {
    let mut out = String::new();
    header(report, &mut out);
    ledger(report, hooks, &mut out);
    ceilings(report, &mut out);
    kernels(report, &mut out);
    if report.devices.len() > 1 {
        let _ = writeln!(out, "# The node\n");
        for result in report.experiments.iter().filter(|e| e.device.is_none()) {
            section(result, report, hooks, &mut out);
        }
        for device in &report.devices {
            let _ = writeln!(out, "# GPU {}: {}\n", device.ordinal, device.name);
            for result in report.experiments.iter().filter(|e| e.device == Some(device.ordinal)) {
                section(result, report, hooks, &mut out);
            }
        }
    } else {
        for result in &report.experiments {
            section(result, report, hooks, &mut out);
        }
    }
    out
}
