//! Guide §3.1.1: host↔device transfer bandwidth for each kind of host memory,
//! and device-to-device, over a size sweep (as NVIDIA's bandwidthTest and
//! nvbandwidth measure it), in CUDA and in OpenCL.
//!
//! The procedure, for each programming model's runner
//! ([`TransferRunner`](crate::launchers::TransferRunner)): buffers at the
//! largest size made before any timing, then at each size, for each copy,
//! the destination filled with other data, the copy timed, the destination
//! read back and checked against the source. Page-locked memory: device
//! events around asynchronous copies. Pageable memory: the host clock around
//! blocking copies (the driver stages them through its own pinned buffer, so
//! the GPU-side time would hide part of the cost).

use super::sweep::each_point;
use super::{Experiment, RunContext};
use crate::bandwidth::pcie_link_gbps;
use crate::copy_element::{first_mismatch, pattern};
use crate::error::Result;
use crate::launchers::{PAGEABLE_SAMPLE_FACTOR, TransferDirection, TransferEntry, TransferRunner, transfer_runners};
use crate::report::{
    Axis, ExperimentResult, Metric, Panel, PlotLine, PlotSpec, Point, PointKey, Report, Scale, SectionHooks, Series,
    Work,
};
use crate::report::{Bound, Unit};
use crate::report::{Claim, LedgerRow, Rule, better_by};
use crate::testbed::Implementation;

pub struct Transfers;

const SMALLEST: u64 = 4 << 10;

/// 4 KiB, 16 KiB, ... up to `max` bytes.
pub fn transfer_sizes(max: u64) -> Vec<u64> {
    std::iter::successors(Some(SMALLEST), |s| Some(s * 4))
        .take_while(|&s| s <= max)
        .collect()
}

impl Experiment for Transfers {
    fn name(&self) -> &'static str {
        "transfers"
    }
    fn title(&self) -> &'static str {
        "Host↔device transfers: pageable, pinned, write-combined and mapped memory"
    }
    fn source(&self) -> &'static str {
        "CUDA C Best Practices Guide 4.0, §3.1.1 (pinned memory), Figure 3.1's setting"
    }
    fn points(&self) -> u64 {
        10
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let info = ctx.device.info();
        let mut result = ctx.result(self, axis(info), "bytes copied per transfer, once");
        // The host thread and every host buffer on the GPU's NUMA node (where the host has several):
        // pageable copies run through the CPU, so where it runs and where the pages are counts.
        let (_near_gpu, placement) = crate::numa::bind_near_gpu(&info.pci_bus_id);
        result
            .setup
            .push(format!("host thread and buffers: {}", placement.describe()));
        let max_bytes = ctx.settings.buffer_mib.map_or(256 << 20, |mib| mib << 20).max(SMALLEST);
        let sizes = transfer_sizes(max_bytes);
        let (mut runners, waived) = transfer_runners(ctx.device)?;
        result.waive(waived);
        let source: Vec<f32> = pattern((*sizes.last().expect("at least 4 KiB") / 4) as usize);
        for runner in &mut runners {
            runner.prepare(&source)?;
            let entries = runner.entries();
            let first = result.series.len();
            result.series.extend(entries.iter().map(|entry| series(ctx, entry)));
            each_point(ctx, sizes.iter().copied(), (0, sizes.len()), |bytes| {
                ctx.progress
                    .set_message(format!("{} {} KiB", runner.name(), bytes >> 10));
                for (index, entry) in entries.iter().enumerate() {
                    let point = measure(ctx, runner.as_mut(), entry, bytes, &source)?;
                    result.series[first + index].points.extend(point);
                }
                Ok(())
            })?;
        }
        describe(ctx, &mut result);
        Ok(result)
    }
}

/// Sizes in KiB, the PCIe link's theoretical rate where sysfs tells it.
fn axis(info: &crate::facts::DeviceInfo) -> Axis {
    let mut axis = Axis::lines("size (KiB)", Metric::Bandwidth)
        .x_scale(Scale::Log2)
        .y_scale(Scale::Log10);
    if let Some(link) = info.pcie_link.as_deref().and_then(pcie_link_gbps) {
        axis = axis.reference("PCIe link, theoretical per direction", link);
    }
    axis
}

/// The series of one copy: keyed by its call and host memory, labelled by direction and memory.
fn series(ctx: &RunContext<'_>, entry: &TransferEntry) -> Series {
    let direction = entry.direction.short();
    let label = match (entry.direction, entry.implementation) {
        (TransferDirection::DeviceToDevice, _) => direction.to_string(),
        (_, Implementation::OpenClC) => format!("{direction} · OpenCL {}", entry.variant),
        _ => format!("{direction} · {}", entry.variant),
    };
    let key = ctx.key(entry.call, entry.implementation, "f32").variant(entry.variant);
    Series::new(key, label)
}

/// One copy of `bytes`: timed, then its destination checked against the source.
fn measure(
    ctx: &RunContext<'_>,
    runner: &mut dyn TransferRunner,
    entry: &TransferEntry,
    bytes: u64,
    source: &[f32],
) -> Result<Option<Point>> {
    let count = (bytes / 4) as usize;
    let times_ms = runner.time(entry, count, ctx.settings)?;
    let failure = first_mismatch(&runner.read_back(entry, count)?, &source[..count]);
    Ok(Point::timed(
        PointKey::Value((bytes >> 10) as i64),
        &Metric::Bandwidth,
        Work::bytes(count as u64, bytes),
        &times_ms,
        failure,
    ))
}

/// The notes and the link: how each copy is timed, why pageable copies spread.
fn describe(ctx: &RunContext<'_>, result: &mut ExperimentResult) {
    if result
        .series
        .iter()
        .any(|s| s.key.implementation == Implementation::OpenClC)
    {
        result.notes.push(
            "OpenCL series: ordinary memory with blocking clEnqueueWrite/ReadBuffer timed by the host clock; \
             CL_MEM_ALLOC_HOST_PTR memory mapped once with clEnqueueMapBuffer, non-blocking copies timed by profiling \
             events (first command's start to last command's end)"
                .into(),
        );
    }
    result.notes.push(format!(
        "pageable copies timed with the host clock around blocking copies, the others with CUDA events around \
         async copies on a non-blocking stream; up to {} copies per sample, fewer where one copy is long",
        ctx.settings.reps
    ));
    result.notes.push(format!(
        "pageable copies are the CPU's work as much as the GPU's: the driver copies the pages through its own \
         pinned staging buffers with the CPU, so their figures move with the host's memory bandwidth, the \
         NUMA placement of thread and pages, page faults (the buffer is written before timing) and whatever \
         else the host runs; they take {PAGEABLE_SAMPLE_FACTOR}x the samples, and min–max shows their spread"
    ));
    match &ctx.device.info().pcie_link {
        Some(link) => result.setup.push(format!("the GPU's PCIe link (sysfs): {link}")),
        None => result
            .notes
            .push("the GPU's link could not be read from sysfs (NVLink-C2C or a non-Linux host?)".into()),
    }
}

/// Which panel of the plot a transfer series belongs to, by its call.
fn direction_of(kernel: &str) -> Option<usize> {
    match kernel {
        "cuMemcpyHtoD" | "clEnqueueWriteBuffer" => Some(0),
        "cuMemcpyDtoH" | "clEnqueueReadBuffer" => Some(1),
        "cuMemcpyDtoD" => Some(2),
        _ => None,
    }
}

/// The plot: a panel per direction (host → device, device → host, device ↔ device), each
/// with a y axis of its own (D2D runs at device-memory speed, 50x the link), the lines
/// named by host memory and coloured alike in both PCIe panels, the link's theoretical
/// figure on those two only.
fn transfers_plot(result: &ExperimentResult) -> Option<PlotSpec> {
    let mut spec = PlotSpec::of(result)?;
    let titles = ["host → device", "device → host", "device ↔ device"];
    let mut panels: Vec<Panel> = titles
        .iter()
        .map(|t| Panel {
            title: t.to_string(),
            ..Panel::default()
        })
        .collect();
    let mut kinds: Vec<String> = Vec::new();
    for series in &result.series {
        let Some(panel) = direction_of(&series.key.kernel) else {
            continue;
        };
        let points = crate::report::series_points(series);
        if points.is_empty() {
            continue;
        }
        let label = match (panel, series.key.implementation) {
            (2, _) => "device memory (cuMemcpyDtoD)".to_string(),
            (_, Implementation::OpenClC) => format!("OpenCL, {}", series.key.variant),
            _ => format!("{} memory", series.key.variant),
        };
        let group = kinds.iter().position(|k| *k == label).unwrap_or_else(|| {
            kinds.push(label.clone());
            kinds.len() - 1
        });
        panels[panel].lines.push(PlotLine {
            label,
            group,
            implementation: series.key.implementation,
            points,
        });
    }
    for panel in &mut panels[..2] {
        panel.reference_lines = result.axis.reference_lines.clone();
    }
    panels.retain(|p| !p.lines.is_empty());
    if panels.is_empty() {
        return None;
    }
    spec.panels = panels;
    spec.x_label = "size of each copy".into();
    Some(spec)
}

impl SectionHooks for Transfers {
    /// Host-to-device and device-to-host copies cross the host link; device-to-device ones stay in DRAM.
    fn bounds(&self, _result: &ExperimentResult, series: &Series) -> Vec<Bound> {
        match series.key.kernel.as_str() {
            "cuMemcpyHtoD" | "cuMemcpyDtoH" => vec![Bound::headline(Unit::HostLink)],
            "cuMemcpyDtoD" => vec![Bound::headline(Unit::Dram)],
            _ => Vec::new(),
        }
    }

    fn plot(&self, result: &ExperimentResult, _report: &Report) -> Option<PlotSpec> {
        transfers_plot(result)
    }

    fn headline(&self, result: &ExperimentResult, _report: &Report) -> Option<String> {
        // The largest size measured in both directions, pinned.
        let pinned = |call: &str| result.variant(call, Implementation::CopyEngine, "pinned");
        let (h2d, d2h) = (pinned("cuMemcpyHtoD")?, pinned("cuMemcpyDtoH")?);
        let (at, up, down) = h2d
            .points
            .iter()
            .rev()
            .find_map(|p| Some((p.at.value()?, p.median()?, d2h.point(p.at)?.median()?)))?;
        let mut text = format!(
            "pinned memory {up:.1} GB/s host → device and {down:.1} GB/s device → host at {}",
            crate::report::format_bytes(at as f64 * 1024.0)
        );
        if let Some(link) = result.axis.reference_lines.first() {
            text.push_str(&format!(
                " ({:.0}% of the link's theoretical {:.1} GB/s)",
                100.0 * up.max(down) / link.value,
                link.value
            ));
        }
        if let Some(pageable) = result
            .variant("cuMemcpyHtoD", Implementation::CopyEngine, "pageable")
            .and_then(|s| s.median_at(at))
        {
            text.push_str(&format!("; pageable {pageable:.1} GB/s host → device"));
        }
        Some(text)
    }

    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        // The guide's point: pinned memory is what lets the copy engines run at link speed.
        let at = 256 * 1024; // KiB
        let best = result
            .series
            .iter()
            .filter(|s| s.key.variant == "pinned")
            .flat_map(|s| s.points.iter().filter_map(|p| p.median()))
            .fold(0.0f64, f64::max);
        let get = |call: &str, variant: &str| {
            result
                .variant(call, Implementation::CopyEngine, variant)
                .and_then(|s| s.median_at(at))
        };
        let (Some(h2d), Some(d2h)) = (get("cuMemcpyHtoD", "pinned"), get("cuMemcpyDtoH", "pinned")) else {
            return Vec::new();
        };
        let mut text = format!(
            "At 256 MiB pinned memory moves {h2d:.1} GB/s host to device and {d2h:.1} GB/s device to host: {:.1}% \
             and {:.1}% of the best pinned figure measured ({best:.1} GB/s).",
            100.0 * h2d / best,
            100.0 * d2h / best
        );
        if let Some(link) = result.axis.reference_lines.first() {
            text.push_str(&format!(
                " The link's theoretical figure is {:.1} GB/s each way ({:.0}% reached).",
                link.value,
                100.0 * h2d.max(d2h) / link.value
            ));
        }
        if let (Some(p_h2d), Some(p_d2h)) = (get("cuMemcpyHtoD", "pageable"), get("cuMemcpyDtoH", "pageable")) {
            text.push_str(&format!(
                " Pageable memory gives {p_h2d:.1} and {p_d2h:.1} GB/s ({:.2}x and {:.2}x of pinned), the staging \
                 copy the guide's §3.1.1 warns about.",
                p_h2d / h2d,
                p_d2h / d2h
            ));
        }
        vec![text]
    }

    fn claims(&self) -> Vec<Claim> {
        vec![Claim {
            id: "bpg-3.1.1-pinned",
            source: "Best Practices Guide §3.1.1",
            claim: "Pinned (page-locked) host memory gives the highest transfer bandwidth; pageable memory is staged \
                    through a pinned buffer"
                .into(),
            rule: Rule::Direction,
            reads: "cuMemcpyHtoD · copy engine at 256 MiB: GB/s from pinned memory over GB/s from pageable memory"
                .into(),
            experiment: "transfers",
        }]
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        let at = 256 * 1024; // KiB
        let get = |call: &str, variant: &str| result.variant(call, Implementation::CopyEngine, variant)?.at(at);
        let (Some(pinned), Some(pageable)) = (get("cuMemcpyHtoD", "pinned"), get("cuMemcpyHtoD", "pageable")) else {
            return Vec::new();
        };
        let (Some(factor), Some(p), Some(q)) = (
            better_by(&result.axis.metric, pinned, pageable),
            pinned.median(),
            pageable.median(),
        ) else {
            return Vec::new();
        };
        vec![self.claims()[0].grade(
            factor,
            format!(
                "H2D at 256 MiB: pinned {p:.1} GB/s, pageable {q:.1} GB/s ({}x)",
                factor.text(2)
            ),
            result.device,
        )]
    }
}
