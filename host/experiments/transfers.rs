//! Guide §3.1.1: host↔device transfer bandwidth for each kind of host memory,
//! and device-to-device, over a size sweep (as NVIDIA's bandwidthTest and
//! nvbandwidth measure it).
//!
//! Pinned, write-combined and mapped memory: CUDA events around asynchronous
//! copies on the device's stream. Pageable memory: the host clock around
//! blocking copies (the driver stages them through its own pinned buffer, so
//! the GPU-side time would hide part of the cost).

use super::calibrated_launches::timed_launches;
use super::sweep::each_point;
use super::{Experiment, RunContext};
use crate::bandwidth::pcie_link_gbps;
use crate::copy_element::{first_mismatch, pattern};
use crate::error::Result;
use crate::gpu::{DeviceBuffer, HostMemoryKind, PinnedBuffer};
use crate::report::{
    Axis, ExperimentResult, Metric, Panel, PlotLine, PlotSpec, Point, PointKey, Report, Scale, SectionHooks, Series,
    Waiver, Work,
};
use crate::report::{Bound, Unit};
use crate::report::{Claim, LedgerRow, Rule, better_by};
use crate::testbed::Implementation;
use crate::timing::{CudaTimer, HostClock, SampleTimer, paced, probe_ms, time_per_launch};

pub struct Transfers;

const SMALLEST: u64 = 4 << 10;

/// 4 KiB, 16 KiB, ... up to `max` bytes.
pub fn transfer_sizes(max: u64) -> Vec<u64> {
    std::iter::successors(Some(SMALLEST), |s| Some(s * 4))
        .take_while(|&s| s <= max)
        .collect()
}

#[derive(Clone, Copy, PartialEq)]
enum Direction {
    HostToDevice,
    DeviceToHost,
    DeviceToDevice,
}

impl Direction {
    fn call(self) -> &'static str {
        match self {
            Self::HostToDevice => "cuMemcpyHtoD",
            Self::DeviceToHost => "cuMemcpyDtoH",
            Self::DeviceToDevice => "cuMemcpyDtoD",
        }
    }

    fn short(self) -> &'static str {
        match self {
            Self::HostToDevice => "H2D",
            Self::DeviceToHost => "D2H",
            Self::DeviceToDevice => "D2D",
        }
    }
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
        let (_near_gpu, placement) = crate::numa::bind_near_gpu(&ctx.device.info().pci_bus_id);
        result
            .setup
            .push(format!("host thread and buffers: {}", placement.describe()));
        let max_bytes = ctx.settings.buffer_mib.map_or(256 << 20, |mib| mib << 20).max(SMALLEST);
        let sizes = transfer_sizes(max_bytes);
        let kinds = host_memory_kinds(ctx, &mut result);
        let mut buffers = TransferBuffers::new(ctx, &kinds, *sizes.last().expect("at least 4 KiB"))?;
        let plan = plan_series(ctx, &mut result, &kinds);
        each_point(ctx, sizes.iter().copied(), (0, sizes.len()), |bytes| {
            ctx.progress.set_message(format!("transfers {} KiB", bytes >> 10));
            for (index, &(direction, kind)) in plan.iter().enumerate() {
                let point = buffers.measure(ctx, direction, kind, bytes)?;
                result.series[index].points.extend(point);
            }
            Ok(())
        })?;
        match ctx.device.opencl_or_waiver() {
            (Some(side), _) => opencl_series(ctx, side, &mut result, &sizes, &buffers.source)?,
            (None, Some(reason)) => result.waived.push(Waiver {
                what: "the OpenCL series".into(),
                reason,
            }),
            (None, None) => {}
        }
        describe(ctx, &mut result);
        Ok(result)
    }
}

/// Sizes in KiB, the PCIe link's theoretical rate where sysfs tells it.
fn axis(info: &crate::gpu::DeviceInfo) -> Axis {
    let mut axis = Axis::lines("size (KiB)", Metric::Bandwidth)
        .x_scale(Scale::Log2)
        .y_scale(Scale::Log10);
    if let Some(link) = info.pcie_link.as_deref().and_then(pcie_link_gbps) {
        axis = axis.reference("PCIe link, theoretical per direction", link);
    }
    axis
}

/// The host memory kinds measured: mapped memory only where the GPU can map it (else waived).
fn host_memory_kinds(ctx: &RunContext<'_>, result: &mut ExperimentResult) -> Vec<HostMemoryKind> {
    let info = ctx.device.info();
    let kinds: Vec<HostMemoryKind> = HostMemoryKind::ALL
        .into_iter()
        .filter(|&k| k != HostMemoryKind::Mapped || info.can_map_host_memory)
        .collect();
    if !info.can_map_host_memory {
        result.waived.push(Waiver {
            what: "the mapped-memory series".into(),
            reason: format!("{} cannot map host memory (canMapHostMemory = 0)", info.name),
        });
    }
    kinds
}

/// Each (direction, kind) series, in the result's order: both directions of
/// every host kind, then device to device.
fn plan_series(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    kinds: &[HostMemoryKind],
) -> Vec<(Direction, HostMemoryKind)> {
    let mut plan: Vec<(Direction, HostMemoryKind)> = Vec::new();
    for direction in [Direction::HostToDevice, Direction::DeviceToHost] {
        plan.extend(kinds.iter().map(|&k| (direction, k)));
    }
    plan.push((Direction::DeviceToDevice, HostMemoryKind::Pinned));
    for &(direction, kind) in &plan {
        let (variant, label) = match direction {
            Direction::DeviceToDevice => (String::new(), "D2D".to_string()),
            _ => (
                kind.label().to_string(),
                format!("{} · {}", direction.short(), kind.label()),
            ),
        };
        let key = ctx
            .key(direction.call(), Implementation::CopyEngine, "f32")
            .variant(variant);
        result.series.push(Series::new(key, label));
    }
    plan
}

/// The buffers of every copy, at the largest size, made before any timing.
struct TransferBuffers<'g> {
    source: Vec<f32>,
    device_a: DeviceBuffer<f32>,
    device_b: DeviceBuffer<f32>,
    pageable: Vec<f32>,
    pinned: Vec<PinnedBuffer<f32>>,
    events: CudaTimer<'g>,
}

impl<'g> TransferBuffers<'g> {
    fn new(ctx: &RunContext<'g>, kinds: &[HostMemoryKind], largest: u64) -> Result<Self> {
        let gpu = ctx.device.gpu();
        let elements = (largest / 4) as usize;
        let source: Vec<f32> = pattern(elements);
        let device_a = DeviceBuffer::from_host(gpu, &source)?;
        let device_b = DeviceBuffer::<f32>::uninit(gpu, elements)?;
        let pageable = source.clone(); // touched before any timing: no first-touch page faults in the samples
        let pinned: Vec<PinnedBuffer<f32>> = kinds
            .iter()
            .filter(|&&k| k != HostMemoryKind::Pageable)
            .map(|&k| PinnedBuffer::new(gpu, elements, k))
            .collect::<Result<_>>()?;
        Ok(Self {
            source,
            device_a,
            device_b,
            pageable,
            pinned,
            events: CudaTimer::new(gpu)?,
        })
    }

    /// One copy of `bytes` in `direction` from or to `kind`: the copy to
    /// time, the clock that times it, and the check afterwards.
    fn measure(
        &mut self,
        ctx: &RunContext<'_>,
        direction: Direction,
        kind: HostMemoryKind,
        bytes: u64,
    ) -> Result<Option<Point>> {
        let gpu = ctx.device.gpu();
        let count = (bytes / 4) as usize;
        let Self {
            source,
            device_a,
            device_b,
            pageable,
            pinned,
            events,
        } = self;
        let host = pinned.iter_mut().find(|p| p.kind() == kind);
        let mut clock = HostClock;
        let (times_ms, failure) = match (direction, kind, host) {
            (Direction::DeviceToDevice, _, _) => {
                device_b.fill(-1.0)?; // other data, so the check proves the copy happened
                let mut copy = || device_b.copy_from_device_async(device_a, count);
                let times = timed_launches(events, ctx.settings, &mut copy)?;
                (times, first_mismatch(&device_b.to_host()?[..count], &source[..count]))
            }
            (Direction::HostToDevice, HostMemoryKind::Pageable, _) => {
                let mut staging = DeviceBuffer::<f32>::uninit(gpu, count)?;
                let mut copy = || staging.copy_from_host(&pageable[..count]); // blocking
                let times = timed_pageable(&mut clock, ctx, &mut copy)?;
                (times, first_mismatch(&staging.to_host()?, &source[..count]))
            }
            (Direction::DeviceToHost, HostMemoryKind::Pageable, _) => {
                pageable[..count].fill(-1.0);
                let staging = DeviceBuffer::from_host(gpu, &source[..count])?;
                let mut copy = || staging.copy_to_host(&mut pageable[..count]); // blocking
                let times = timed_pageable(&mut clock, ctx, &mut copy)?;
                let failure = first_mismatch(&pageable[..count], &source[..count]);
                pageable[..count].copy_from_slice(&source[..count]);
                (times, failure)
            }
            (Direction::HostToDevice, _, Some(host)) => {
                device_b.fill(-1.0)?;
                host.as_mut_slice()[..count].copy_from_slice(&source[..count]);
                // SAFETY: neither buffer is touched by the host until the timer has waited for the copies.
                let mut copy = || unsafe { host.upload_async(0..count, device_b, gpu.stream()) };
                let times = timed_launches(events, ctx.settings, &mut copy)?;
                (times, first_mismatch(&device_b.to_host()?[..count], &source[..count]))
            }
            (Direction::DeviceToHost, _, Some(host)) => {
                host.as_mut_slice()[..count].fill(-1.0);
                // SAFETY: as above.
                let mut copy = || unsafe { host.download_async(0..count, device_a, gpu.stream()) };
                let times = timed_launches(events, ctx.settings, &mut copy)?;
                (times, first_mismatch(&host.as_slice()[..count], &source[..count]))
            }
            (_, _, None) => unreachable!("every non-pageable kind in the plan has a buffer"),
        };
        Ok(Point::timed(
            PointKey::Value((bytes >> 10) as i64),
            &Metric::Bandwidth,
            Work::bytes(count as u64, bytes),
            &times_ms,
            failure,
        ))
    }
}

/// The notes and the link: how each copy is timed, why pageable copies spread.
fn describe(ctx: &RunContext<'_>, result: &mut ExperimentResult) {
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

/// The OpenCL way (the whitepaper; OpenCL Programming Guide §3.3):
/// `clEnqueueWriteBuffer` / `clEnqueueReadBuffer` from ordinary host memory
/// (blocking, host clock, as the CUDA pageable series) and from a
/// `CL_MEM_ALLOC_HOST_PTR` buffer mapped with `clEnqueueMapBuffer` (the
/// documents' recipe for pinned memory; non-blocking, profiling events).
fn opencl_series(
    ctx: &RunContext<'_>,
    side: &crate::testbed::OpenClSide,
    result: &mut ExperimentResult,
    sizes: &[u64],
    source: &[f32],
) -> Result<()> {
    use crate::opencl::{ClBuffer, MappedHostBuffer};
    use crate::timing::OpenClTimer;
    let (context, queue) = (side.context(), side.queue());
    let len = source.len();
    let mut device = ClBuffer::<f32>::from_host(context, queue, source)?;
    let mut ordinary = source.to_vec();
    let mut pinned = MappedHostBuffer::<f32>::new(context, queue, len)?;
    pinned.as_mut_slice().copy_from_slice(source);
    let first = result.series.len();
    for (call, variant) in [
        ("clEnqueueWriteBuffer", "ordinary"),
        ("clEnqueueWriteBuffer", "ALLOC_HOST_PTR"),
        ("clEnqueueReadBuffer", "ordinary"),
        ("clEnqueueReadBuffer", "ALLOC_HOST_PTR"),
    ] {
        let direction = if call.contains("Write") { "H2D" } else { "D2H" };
        let key = ctx.key(call, Implementation::OpenClC, "f32").variant(variant);
        result
            .series
            .push(Series::new(key, format!("{direction} · OpenCL {variant}")));
    }
    for (done, &bytes) in sizes.iter().enumerate() {
        if ctx.stop_before(done, sizes.len()) {
            break;
        }
        ctx.progress
            .set_message(format!("OpenCL transfers {} KiB", bytes >> 10));
        let count = (bytes / 4) as usize;
        for index in 0..4 {
            let mut clock = HostClock;
            let mut events = OpenClTimer(queue);
            let (times, failure) = match index {
                0 => {
                    device.fill(queue, -1.0)?;
                    let mut copy = || Ok(device.write(queue, 0, &ordinary[..count])?);
                    let times = timed_launches(&mut clock, ctx.settings, &mut copy)?;
                    (
                        times,
                        first_mismatch(&device.to_host(queue)?[..count], &source[..count]),
                    )
                }
                1 => {
                    device.fill(queue, -1.0)?;
                    // SAFETY: neither buffer is touched by the host until the timer has finished the queue.
                    let mut copy =
                        || -> Result<()> { Ok(unsafe { pinned.upload_async(queue, 0..count, &mut device) }?) };
                    let times = timed_launches(&mut events, ctx.settings, &mut copy)?;
                    (
                        times,
                        first_mismatch(&device.to_host(queue)?[..count], &source[..count]),
                    )
                }
                2 => {
                    device.write(queue, 0, source)?;
                    ordinary[..count].fill(-1.0);
                    let mut copy = || Ok(device.read(queue, 0, &mut ordinary[..count])?);
                    let times = timed_launches(&mut clock, ctx.settings, &mut copy)?;
                    let failure = first_mismatch(&ordinary[..count], &source[..count]);
                    ordinary[..count].copy_from_slice(&source[..count]);
                    (times, failure)
                }
                _ => {
                    pinned.as_mut_slice()[..count].fill(-1.0);
                    // SAFETY: as above.
                    let mut copy = || -> Result<()> { Ok(unsafe { pinned.download_async(queue, 0..count, &device) }?) };
                    let times = timed_launches(&mut events, ctx.settings, &mut copy)?;
                    queue.finish()?;
                    (times, first_mismatch(&pinned.as_slice()[..count], &source[..count]))
                }
            };
            let at = PointKey::Value((bytes >> 10) as i64);
            if let Some(point) = Point::timed(
                at,
                &Metric::Bandwidth,
                Work::bytes(count as u64, bytes),
                &times,
                failure,
            ) {
                result.series[first + index].points.push(point);
            }
        }
        ctx.progress.inc(1);
    }
    result.notes.push(
        "OpenCL series: ordinary memory with blocking clEnqueueWrite/ReadBuffer timed by the host clock; \
         CL_MEM_ALLOC_HOST_PTR memory mapped once with clEnqueueMapBuffer, non-blocking copies timed by profiling \
         events (first command's start to last command's end)"
            .into(),
    );
    Ok(())
}

/// The samples of one copy with `clock`, paced by the length of one copy.
/// Samples of pageable copies: three times the run's, since the host clock and the CPU's staging
/// copy make them spread far more than the copy engines' event-timed figures.
pub const PAGEABLE_SAMPLE_FACTOR: u32 = 3;

fn timed_pageable(
    clock: &mut dyn SampleTimer,
    ctx: &RunContext<'_>,
    copy: &mut dyn FnMut() -> Result<()>,
) -> Result<Vec<f64>> {
    let one_ms = probe_ms(clock, copy)?;
    let mut settings = paced(ctx.settings, one_ms);
    settings.samples = settings.samples.saturating_mul(PAGEABLE_SAMPLE_FACTOR);
    time_per_launch(clock, &settings, copy)
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
