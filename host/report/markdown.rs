//! `report.md`: what a reader needs to trust and interpret the numbers, in
//! the order a reader wants it: the contents, the headline findings (the
//! ledger's verdicts and each experiment's figure), the ledger, the run's
//! machine and method, a section per experiment, then the kernels' resources.
//! Every section is built the same way from the typed results; an
//! experiment's [`SectionHooks`](super::SectionHooks) add its narrative, its
//! tables and its headline.
//!
//! Every text read from the report is escaped for Markdown here
//! ([`text_escape`](super::text_escape)); every sentence and table an
//! experiment writes passes [`finite_prose`](super::finite_prose).

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use super::text_escape::{markdown as md, markdown_code};
use super::{
    DeviceCeilings, ExperimentResult, HooksLookup, Metric, Point, PointKey, Report, Series, Status, Verdict, counted,
    finite_cells, finite_sentences, main_plot, plot_file_base, twin_gap,
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

/// A figure with the precision that suits its magnitude ("3000", "53.1", "0.862").
fn figure(value: f64) -> String {
    if value.abs() >= 100.0 {
        format!("{value:.0}")
    } else if value.abs() >= 1.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.3}")
    }
}

/// Text for a link's or an image's text: escaped, brackets too.
fn link_text(text: &str) -> String {
    md(text).replace('[', "\\[").replace(']', "\\]")
}

/// Whether the series of `result` move more than one element type (only then do labels name it).
pub fn element_matters(result: &ExperimentResult) -> bool {
    let mut elements = result.series.iter().map(|s| s.key.element.as_str());
    let first = elements.next();
    elements.any(|e| Some(e) != first)
}

/// A series' name in a table or legend: its label, with its element type where that tells
/// series apart (`with_element`: [`element_matters`] of its result).
pub fn series_name(series: &Series, with_element: bool) -> String {
    if with_element {
        format!("{} [{}]", series.label, series.key.element)
    } else {
        series.label.clone()
    }
}

/// Headings and their anchors, as GitHub makes them (lower case, punctuation dropped,
/// spaces as hyphens, repeats numbered).
#[derive(Default)]
struct Anchors {
    seen: HashMap<String, usize>,
}

impl Anchors {
    fn anchor(&mut self, heading: &str) -> String {
        let slug: String = heading
            .to_lowercase()
            .chars()
            .filter(|&c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = self.seen.entry(slug.clone()).or_insert(0);
        let anchor = if *n == 0 { slug.clone() } else { format!("{slug}-{n}") };
        *n += 1;
        anchor
    }
}

/// An experiment's heading: its title, and its GPU when the run had several.
fn section_heading(result: &ExperimentResult, report: &Report) -> String {
    let gpu = match result.device {
        Some(d) if report.devices.len() > 1 => format!(" — GPU {d}"),
        _ => String::new(),
    };
    format!("{}{gpu}", md(&result.title))
}

/// The experiments in report order, grouped under `# The node` and `# GPU n` when the run had several GPUs.
fn groups(report: &Report) -> Vec<(Option<String>, Vec<&ExperimentResult>)> {
    if report.devices.len() <= 1 {
        return vec![(None, report.experiments.iter().collect())];
    }
    let mut by_device: HashMap<Option<usize>, Vec<&ExperimentResult>> = HashMap::new();
    for result in &report.experiments {
        by_device.entry(result.device).or_default().push(result);
    }
    let mut groups = vec![(
        Some("The node".to_string()),
        by_device.remove(&None).unwrap_or_default(),
    )];
    for device in &report.devices {
        groups.push((
            Some(format!("GPU {}: {}", device.ordinal, device.name)),
            by_device.remove(&Some(device.ordinal.0)).unwrap_or_default(),
        ));
    }
    groups
}

/// The ledger rows: the stored ones, or (for reports that stored none) the ones the hooks compute now.
fn ledger_rows<'a>(
    report: &'a Report,
    hooks: HooksLookup<'_>,
    computed: &'a mut Vec<super::LedgerRow>,
) -> &'a [super::LedgerRow] {
    if report.ledger.is_empty() {
        *computed = report.compute_ledger(hooks);
        computed
    } else {
        &report.ledger
    }
}

const HEADLINE: &str = "Headline findings";
const LEDGER: &str = "The guides' claims, then and now";
const THE_RUN: &str = "The run: GPUs, software, method";
const KERNELS: &str = "Kernels: registers, memory, occupancy";

fn title(report: &Report, out: &mut String) {
    let _ = writeln!(out, "# ptxsuite report\n");
    let gpus: Vec<String> = report.devices.iter().map(|d| md(&d.name).into_owned()).collect();
    let mut models = gpus.clone();
    models.dedup();
    let machine = if models.len() == 1 && gpus.len() > 1 {
        format!("{} × {}", gpus.len(), models[0])
    } else {
        gpus.join(", ")
    };
    let _ = writeln!(
        out,
        "{machine}{}; {} ({}); ptxsuite {}.\n",
        if report.host.is_empty() {
            String::new()
        } else {
            format!(" on {}", md(&report.host))
        },
        counted(report.experiments.len(), "experiment", "experiments"),
        counted(
            report.experiments.iter().map(|e| e.series.len()).sum(),
            "series",
            "series"
        ),
        md(&report.tool_version)
    );
    if report.partial {
        let incomplete = report.incomplete();
        let _ = writeln!(
            out,
            "> **Partial report: the run was interrupted** ({}). Incomplete experiments: {}. The figures below are \
             what was measured before it stopped.\n",
            md(report.stop_reason.as_deref().unwrap_or("reason not recorded")),
            if incomplete.is_empty() {
                "none recorded".to_string()
            } else {
                md(&incomplete.join("; ")).into_owned()
            }
        );
    }
}

fn contents(report: &Report, has_ledger: bool, out: &mut String) {
    let mut anchors = Anchors::default();
    let link = |anchors: &mut Anchors, text: &str, heading: &str| {
        format!("[{}](#{})", link_text(text), anchors.anchor(heading))
    };
    let _ = writeln!(out, "**Contents**\n");
    let _ = writeln!(out, "- {}", link(&mut anchors, HEADLINE, HEADLINE));
    if has_ledger {
        let _ = writeln!(out, "- {}", link(&mut anchors, LEDGER, LEDGER));
    }
    let _ = writeln!(out, "- {}", link(&mut anchors, THE_RUN, THE_RUN));
    for (group, results) in groups(report) {
        if results.is_empty() {
            continue;
        }
        // In the order the headings come: the group's, then its sections'.
        let group = group.map(|g| link(&mut anchors, &g, &g));
        let entries: Vec<String> = results
            .iter()
            .map(|r| link(&mut anchors, &r.name, &section_heading(r, report)))
            .collect();
        let _ = writeln!(
            out,
            "- {}: {}",
            group.as_deref().unwrap_or("Experiments"),
            entries.join(" · ")
        );
    }
    if !report.kernels.is_empty() {
        let _ = writeln!(out, "- {}", link(&mut anchors, KERNELS, KERNELS));
    }
    let _ = writeln!(out);
}

/// The generic headline of an experiment: its best figure where higher is better, with the
/// series and point it comes from, and its share of the plot's theoretical peak where it has one.
fn generic_headline(result: &ExperimentResult) -> Option<String> {
    let metric = &result.axis.metric;
    if !metric.higher_is_better() || matches!(metric, Metric::Time) {
        return None;
    }
    let (series, point, best) = result
        .series
        .iter()
        .flat_map(|s| s.points.iter().filter_map(move |p| Some((s, p, p.median()?))))
        .filter(|(_, _, v)| *v > 0.0)
        .max_by(|a, b| a.2.total_cmp(&b.2))?;
    let mut text = format!(
        "best {} {} ({} at {})",
        figure(best),
        md(metric.unit()),
        md(&series.label),
        at_point(&result.axis.parameter, point.at)
    );
    if let Some(peak) = result
        .axis
        .reference_lines
        .iter()
        .find(|r| r.label.contains("theoretical") && r.value >= best)
    {
        let _ = write!(
            text,
            ", {:.1}% of the {} ({})",
            100.0 * best / peak.value,
            md(&peak.label),
            figure(peak.value)
        );
    }
    Some(text)
}

/// "offset 1 (elements)": a point of the axis `parameter` ("offset (elements)", "buffer MiB").
fn at_point(parameter: &str, at: PointKey) -> String {
    match parameter.rsplit_once(" (") {
        Some((name, unit)) if unit.ends_with(')') => format!("{} {at} ({}", md(name), md(unit)),
        _ => format!("{} {at}", md(parameter)),
    }
}

/// The plural of a verdict for a count ("2 hold", "1 holds").
fn verdicts(n: usize, verdict: Verdict) -> String {
    match (verdict, n) {
        (Verdict::Holds, 1) => "1 holds".into(),
        (Verdict::Holds, n) => format!("{n} hold"),
        (v, n) => format!("{n} {}", v.label()),
    }
}

/// "2 stronger, 5 hold, 1 undecided": the rows of each verdict, in the ledger's order of verdicts.
fn verdict_counts(rows: &[super::LedgerRow]) -> Vec<String> {
    [
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
        (n > 0).then(|| verdicts(n, v))
    })
    .collect()
}

fn headline(report: &Report, hooks: HooksLookup<'_>, rows: &[super::LedgerRow], out: &mut String) {
    let _ = writeln!(out, "## {HEADLINE}\n");
    if !rows.is_empty() {
        let counts = verdict_counts(rows);
        let _ = writeln!(
            out,
            "**The documents' claims on this run:** {} of {} ([the ledger](#{})).\n",
            counts.join(", "),
            counted(rows.len(), "claim", "claims"),
            Anchors::default().anchor(LEDGER)
        );
    }
    let several = report.devices.len() > 1;
    for result in &report.experiments {
        if !result.status.is_ok() && result.series.is_empty() {
            continue;
        }
        // The experiment's own headline, else what its first ledger row measured, else its best figure.
        let from_ledger = || {
            rows.iter()
                .find(|r| r.experiment == result.name && r.device == result.device)
                .map(|r| format!("{} (the documents' claim: {})", md(&r.measured), r.verdict.label()))
        };
        let line = hooks(&result.name)
            .and_then(|h| h.headline(result, report))
            .or_else(from_ledger)
            .or_else(|| generic_headline(result))
            .and_then(|line| finite_sentences(&line));
        if let Some(line) = line {
            let gpu = match result.device {
                Some(d) if several => format!(" (GPU {d})"),
                _ => String::new(),
            };
            let _ = writeln!(out, "- **{}**{gpu}: {line}", md(&result.name));
        }
    }
    let _ = writeln!(out);
}

fn the_run(report: &Report, out: &mut String) {
    let _ = writeln!(out, "## {THE_RUN}\n");
    let _ = writeln!(out, "| | |\n|---|---|");
    if !report.host.is_empty() {
        let _ = writeln!(out, "| Host | {} |", md(&report.host));
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
            md(&d.name),
            d.sm_name(),
            d.multiprocessors,
            md(&d.pci_bus_id),
            d.uuid.as_deref().map(|u| format!(", {}", md(u))).unwrap_or_default()
        );
        let _ = writeln!(
            out,
            "| {gpu}: clocks (peak, as the driver reports) | SM {}, memory {} |",
            mhz(d.sm_clock_khz),
            mhz(d.memory_clock_khz)
        );
        let theoretical = if d.theoretical_bandwidth_gbps > 0.0 && d.memory_clock_khz > 0 && d.memory_bus_width_bits > 0
        {
            format!(
                "{:.1} GB/s = {} × {} bit / 8 × 2 (DDR) / 1e9",
                d.theoretical_bandwidth_gbps,
                mhz(d.memory_clock_khz),
                d.memory_bus_width_bits
            )
        } else {
            "not known (the driver reported no memory clock or bus width)".into()
        };
        let _ = writeln!(out, "| {gpu}: theoretical bandwidth | {theoretical} |");
        let _ = writeln!(
            out,
            "| {gpu}: memory | {:.1} GiB, ECC {}; L2 {:.1} MiB; host link {} |",
            d.total_memory_bytes as f64 / (1u64 << 30) as f64,
            if d.ecc_enabled { "on" } else { "off" },
            d.l2_cache_bytes as f64 / (1 << 20) as f64,
            md(d.pcie_link.as_deref().unwrap_or("not readable from sysfs"))
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
            md(&report.ptx.target),
            md(&report.ptx.isa_version),
            d.sm_name()
        );
    }
    for (label, text) in super::telemetry_lines::header_rows(report) {
        let _ = writeln!(out, "{}", finite_cells(&format!("| {} | {} |", md(&label), md(&text))));
    }
    for note in &report.notes {
        let _ = writeln!(out, "| Note | {} |", md(note));
    }
    for i in &report.implementations {
        let _ = writeln!(
            out,
            "| {} | {}{} |",
            i.implementation.label(),
            md(&i.status.to_string()),
            if i.detail.is_empty() {
                String::new()
            } else {
                format!(" ({})", md(&i.detail))
            }
        );
    }
    let _ = writeln!(
        out,
        "| ptxsuite | {} (report schema {} v{}) |",
        md(&report.tool_version),
        md(&report.schema),
        report.schema_version
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "**Method.** Each point: outputs filled with a sentinel, one warm-up launch, then {} of {} \
         between two timing events (CUDA events on a non-blocking stream; OpenCL profiling events) unless a section \
         says otherwise; cells give median (min–max) over the samples of the per-launch figure. The outputs are then \
         compared with a CPU reference; a point that fails shows no figure. GB = 1e9 bytes. Effective bandwidth is \
         the guide's `(Br + Bw) / 1e9 / seconds`.\n",
        counted(report.settings.samples as usize, "sample", "samples"),
        counted(report.settings.reps as usize, "launch", "launches")
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
    let _ = writeln!(out, "## {KERNELS}\n");
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
            "| {} | {} |{} {} | {} | {} | {} | {} | {} | {:.0}% |",
            markdown_code(&k.name),
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
            let mut seen: HashSet<&str> = HashSet::new();
            for p in &s.points {
                for name in p.extra.keys() {
                    if name != unit && seen.insert(name) {
                        names.push(name.clone());
                    }
                }
            }
            names
        })
        .unwrap_or_default();
    let with_element = element_matters(result);
    let _ = write!(out, "| {} |", md(&result.axis.parameter));
    for s in &result.series {
        let _ = write!(out, " {} {} |", md(&series_name(s, with_element)), md(unit));
    }
    for (rust, twin) in &pairs {
        let element = if with_element {
            format!(" [{}]", rust.key.element)
        } else {
            String::new()
        };
        let _ = write!(
            out,
            " {}{element} Rust/{} |",
            md(&rust.key.kernel),
            twin.key.implementation.label()
        );
    }
    for name in &extras {
        let _ = write!(out, " {} ({}) |", md(name), md(&result.series[0].label));
    }
    let _ = writeln!(out);
    let columns = 1 + result.series.len() + pairs.len() + extras.len();
    let _ = writeln!(out, "|{}", "---:|".repeat(columns));
    let points: Vec<HashMap<PointKey, &Point>> = result
        .series
        .iter()
        .map(|s| s.points.iter().map(|p| (p.at, p)).collect())
        .collect();
    for at in result.point_keys() {
        let mut row = format!("| {at} |");
        for index in &points {
            let _ = write!(row, " {} |", point_cell(index.get(&at).copied()));
        }
        for (rust, twin) in &pairs {
            match result.rust_over(rust, twin, at) {
                Some(r) => {
                    let _ = write!(row, " {r:.3} |");
                }
                None => {
                    let _ = write!(row, " — |");
                }
            }
        }
        for name in &extras {
            let value = points[0].get(&at).and_then(|p| p.extra.get(name));
            let _ = write!(
                row,
                " {} |",
                value.map(|v| format!("{v:.1}")).unwrap_or_else(|| "—".into())
            );
        }
        let _ = writeln!(out, "{}", finite_cells(&row));
    }
    let _ = writeln!(out, "\nCells: median (min–max over the samples), {}.", md(unit));
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
    twins.sort();
    twins.dedup();
    for implementation in twins {
        let mut ratios: Vec<(String, PointKey, f64)> = Vec::new();
        for (rust, twin) in pairs.iter().filter(|(_, t)| t.key.implementation == implementation) {
            for p in &rust.points {
                if let Some(r) = result.rust_over(rust, twin, p.at).filter(|r| r.is_finite()) {
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
        let sentence = format!(
            "**Rust vs {label}.** Rust / {label} ranges {:.3} to {highest:.3} over {} (the figure's ratio, \
             inverted for times); {within} of them within 3% or faster; lowest: {} at {} {}.",
            lowest.2,
            counted(ratios.len(), "point", "points"),
            md(&lowest.0),
            md(&result.axis.parameter),
            lowest.1
        );
        if let Some(sentence) = finite_sentences(&sentence) {
            let _ = writeln!(out, "{sentence}\n");
        }
        // One sentence per kernel, at its point farthest from parity.
        for (rust, twin) in pairs.iter().filter(|(_, t)| t.key.implementation == implementation) {
            let worst = rust
                .points
                .iter()
                .filter_map(|p| Some((p.at, result.rust_over(rust, twin, p.at)?)))
                .max_by(|a, b| (a.1.ln().abs()).total_cmp(&b.1.ln().abs()));
            if let Some((at, _)) = worst
                && let Some(gap) = twin_gap(result, &report.kernels, (rust, twin), at)
                && let Some(gap) = finite_sentences(&gap)
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
    let _ = writeln!(out, "## {}\n", section_heading(result, report));
    match &result.status {
        Status::Ok => {}
        Status::Waived(why) => {
            let _ = writeln!(out, "**Waived:** {}\n", md(why));
        }
        Status::NotRun(why) => {
            let _ = writeln!(out, "**Not run / incomplete:** {}\n", md(why));
        }
        Status::Failed(why) => {
            let _ = writeln!(out, "**FAILED:** {}\n", md(why));
        }
    }
    let _ = writeln!(out, "Reproduces {}.", md(&result.source));
    if !result.setup.is_empty() {
        let setup: Vec<String> = result.setup.iter().map(|s| md(s).into_owned()).collect();
        let _ = writeln!(out, "Setup: {}.", setup.join("; "));
    }
    if !result.byte_counting.is_empty() {
        let _ = writeln!(out, "Bytes counted: {}.", md(&result.byte_counting));
    }
    let _ = writeln!(out);
    if result.series.is_empty() {
        return;
    }
    let base = plot_file_base(report, result);
    let hook = hooks(&result.name);
    if main_plot(result, report, hooks).is_some() {
        let _ = writeln!(out, "![{}]({base}.svg)\n", link_text(&result.title));
    }
    if let Some(h) = hook {
        for spec in h.extra_plots(result, report) {
            let _ = writeln!(out, "![{}]({base}-{}.svg)\n", link_text(&spec.title), spec.suffix);
        }
        for paragraph in h.narrative(result, report) {
            if let Some(paragraph) = finite_sentences(&paragraph) {
                let _ = writeln!(out, "{paragraph}\n");
            }
        }
    }
    for artifact in &result.artifacts {
        if artifact.inline {
            let _ = writeln!(out, "![{}]({})\n", link_text(&artifact.caption), artifact.file);
        } else {
            let _ = writeln!(out, "[{}]({})\n", link_text(&artifact.caption), artifact.file);
        }
    }
    for w in &result.waived {
        let _ = writeln!(out, "*Waived:* {} — {}\n", md(&w.what), md(&w.reason));
    }
    for note in &result.notes {
        let _ = writeln!(out, "*Note:* {}\n", md(note));
    }
    if let Some(line) = super::telemetry_lines::section_line(report, result).and_then(|l| finite_sentences(&md(&l))) {
        let _ = writeln!(out, "{line}\n");
    }
    published(result, out);
    match hook.and_then(|h| h.tables(result, report)) {
        Some(tables) => out.push_str(&finite_cells(&tables)),
        None => out.push_str(&generic_table(result)),
    }
    let _ = writeln!(out);
    twin_summary(result, report, out);
    for (series, point) in result.failures() {
        let _ = writeln!(
            out,
            "**FAILED** {} at {} {}: {}\n",
            md(&series.label),
            md(&result.axis.parameter),
            point.at,
            md(point.status.reason().unwrap_or(""))
        );
    }
}

/// The physical ceilings every figure was checked against, per GPU, and the
/// points that broke one.
fn ceilings(report: &Report, out: &mut String) {
    let tables: Vec<DeviceCeilings> = report
        .devices
        .iter()
        .filter_map(|d| DeviceCeilings::of(report, d.ordinal.0))
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
    let _ = writeln!(out, "## {LEDGER}\n");
    let _ = writeln!(
        out,
        "Each row: a claim of the source documents in our words, what this run measured (and where), and a verdict \
         computed from the measurement by the rule in the last column (`ptxsuite claims` lists every claim and what \
         it reads). The {}. The {}. Where the documents give no factor, only the direction is graded. Spread: \
         {} (**undecided**). A row whose figures failed a check (a physical ceiling, two measures that disagree, \
         a wrong result) is **failed** and not graded.\n",
        super::FACTOR_RULE,
        super::DIRECTION_RULE,
        super::UNDECIDED_RULE
    );
    let _ = writeln!(
        out,
        "{} graded: {}.\n",
        counted(rows.len(), "claim", "claims"),
        verdict_counts(rows).join(", ")
    );
    let several = report.devices.len() > 1;
    let _ = writeln!(
        out,
        "| source | claim | measured |{} verdict | rule |\n|---|---|---|{}---|---|",
        if several { " GPU |" } else { "" },
        if several { "---:|" } else { "" }
    );
    for row in rows {
        let line = format!(
            "| {} | {} | {} ({}) |{} **{}** | {} |",
            md(&row.source),
            md(&row.claim),
            md(&row.measured),
            markdown_code(&row.experiment),
            if several {
                format!(
                    " {} |",
                    row.device.map(|d| d.to_string()).unwrap_or_else(|| "node".into())
                )
            } else {
                String::new()
            },
            md(&row.verdict_text()),
            md(&row.rule)
        );
        let _ = writeln!(out, "{}", finite_cells(&line));
    }
    let _ = writeln!(out);
}

/// The whole Markdown report: the title, the contents, the headline findings,
/// the ledger, the run, a section per experiment (grouped by GPU when the run
/// had several), then the kernels.
pub fn render(report: &Report, hooks: HooksLookup<'_>) -> String {
    let mut out = String::new();
    let mut computed = Vec::new();
    let rows = ledger_rows(report, hooks, &mut computed);
    title(report, &mut out);
    contents(report, !rows.is_empty(), &mut out);
    headline(report, hooks, rows, &mut out);
    ledger(report, hooks, &mut out);
    ceilings(report, &mut out);
    the_run(report, &mut out);
    for (group, results) in groups(report) {
        if let Some(group) = group {
            if results.is_empty() {
                continue;
            }
            let _ = writeln!(out, "# {}\n", md(&group));
        }
        for result in results {
            section(result, report, hooks, &mut out);
        }
    }
    kernels(report, &mut out);
    out
}
