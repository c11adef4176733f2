//! `host-links`: host ↔ GPU over each GPU's own link, as nvbandwidth's
//! host-device tests measure it, one GPU at a time and every GPU at once
//! (the node's aggregate, which the host's memory and root complexes may
//! cap below the sum of the links).
//!
//! Copy engines (`cuMemcpyHtoDAsync` / `DtoHAsync` from page-locked memory,
//! each direction and both at once) and SMs (a Rust `vector_copy` reading or
//! writing mapped host memory). Each GPU's host buffers are pinned while the
//! thread is bound to the GPU's NUMA node where the host has several, so
//! they sit next to the GPU's root port. Every copy is checked. The arrays,
//! copies and timings are the node-copies runner's ([`NodeCopyRunner`]).

use std::fmt::Write;

use super::sweep::each_point;
use super::transfers::transfer_sizes;
use super::{Experiment, RunContext, Scope};
use crate::copy_element::{first_mismatch, pattern};
use crate::error::Result;
use crate::launchers::{KernelSet, NodeArray, NodeCopy, NodeCopyRunner, node_copy_runners};
use crate::numa::{HostPlacement, bind_near_gpu};
use crate::report::{
    Axis, Devices, ExperimentResult, Metric, PlotKind, Point, PointKey, Report, SectionHooks, Series, SeriesKey,
    Status, Waiver, Work, point_cell,
};
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};

pub struct HostLinks;

/// The size of every copy: the largest of `transfers`' sweep (so the two compare), at most 1 GiB.
pub fn host_link_bytes(settings: &RunSettings) -> Option<u64> {
    let max = settings.buffer_mib.map_or(1 << 30, |mib| mib << 20).min(1 << 30);
    transfer_sizes(max).last().copied().filter(|&b| b >= 1 << 20)
}

pub const PCIE_GBPS: &str = "PCIe theoretical (GB/s)";
pub const OF_PCIE: &str = "% of PCIe theoretical";
pub const SUM_ALONE: &str = "sum of each GPU alone (GB/s)";

/// One of the copies between host and GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostTest {
    Upload,
    Download,
    BothWays,
    KernelReads,
    KernelWrites,
}

impl HostTest {
    pub const ALL: [Self; 5] = [
        Self::Upload,
        Self::Download,
        Self::BothWays,
        Self::KernelReads,
        Self::KernelWrites,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Self::Upload => "CE host → GPU",
            Self::Download => "CE GPU → host",
            Self::BothWays => "CE both directions",
            Self::KernelReads => "SM reads host (host → GPU)",
            Self::KernelWrites => "SM writes host (GPU → host)",
        }
    }

    /// nvbandwidth's name for the test.
    pub fn nvbandwidth_name(self) -> &'static str {
        match self {
            Self::Upload => "host_to_device_memcpy_ce",
            Self::Download => "device_to_host_memcpy_ce",
            Self::BothWays => "host_to_device_bidirectional_memcpy_ce",
            Self::KernelReads => "host_to_device_memcpy_sm",
            Self::KernelWrites => "device_to_host_memcpy_sm",
        }
    }

    pub fn key(self, devices: Devices) -> SeriesKey {
        let (call, implementation, variant) = match self {
            Self::Upload => ("cuMemcpyHtoD", Implementation::CopyEngine, "pinned"),
            Self::Download => ("cuMemcpyDtoH", Implementation::CopyEngine, "pinned"),
            Self::BothWays => ("cuMemcpyHtoD+DtoH", Implementation::CopyEngine, "both directions"),
            Self::KernelReads => ("vector_copy", Implementation::Rust, "reads mapped host"),
            Self::KernelWrites => ("vector_copy", Implementation::Rust, "writes mapped host"),
        };
        SeriesKey::new(call, implementation, "f32").variant(variant).on(devices)
    }

    /// Copies this test makes per GPU at once.
    fn copies(self) -> u64 {
        if self == Self::BothWays { 2 } else { 1 }
    }
}

/// One GPU's arrays, the runner's: host memory pinned (and mapped) near it, device memory on it.
struct LinkBuffers {
    /// The GPU's place in the run.
    gpu: usize,
    host_in: NodeArray,
    host_out: NodeArray,
    device_in: NodeArray,
    device_out: NodeArray,
    placement: HostPlacement,
}

impl LinkBuffers {
    fn allocate(
        runner: &mut dyn NodeCopyRunner,
        (gpu, dut): (usize, &DeviceUnderTest),
        source: &[f32],
    ) -> Result<Self> {
        let len = source.len();
        let (guard, placement) = bind_near_gpu(&dut.info().pci_bus_id);
        let host_in = runner.host_array(gpu, len)?;
        runner.write(host_in, source)?;
        let host_out = runner.host_array(gpu, len)?;
        drop(guard);
        let device_in = runner.device_array(gpu, len)?;
        runner.write(device_in, source)?;
        Ok(Self {
            gpu,
            host_in,
            host_out,
            device_in,
            device_out: runner.device_array(gpu, len)?,
            placement,
        })
    }

    fn clear(&self, runner: &mut dyn NodeCopyRunner) -> Result<()> {
        runner.fill(self.host_out, -1.0)?;
        runner.fill(self.device_out, -1.0)
    }

    /// The destinations `test` wrote, against the source. The GPU must be idle.
    fn check(&self, runner: &mut dyn NodeCopyRunner, test: HostTest, source: &[f32]) -> Result<Option<String>> {
        let mut mismatch = |array: NodeArray| -> Result<Option<String>> {
            let mut held = vec![0f32; array.len()];
            runner.read(array, 0, &mut held)?;
            Ok(first_mismatch(&held, source))
        };
        Ok(match test {
            HostTest::Upload | HostTest::KernelReads => mismatch(self.device_out)?,
            HostTest::Download | HostTest::KernelWrites => mismatch(self.host_out)?,
            HostTest::BothWays => match mismatch(self.device_out)? {
                None => mismatch(self.host_out)?,
                found => found,
            },
        })
    }

    /// The copies of `test` on this GPU, of `n` floats each (two for both directions).
    fn copies(&self, test: HostTest, n: usize) -> Vec<NodeCopy> {
        let engine = |from, to| NodeCopy::Engine {
            issuer: self.gpu,
            from,
            to,
            start: 0,
            count: n,
        };
        let kernel = |from, to| NodeCopy::Kernel {
            issuer: self.gpu,
            implementation: Implementation::Rust,
            from,
            to,
            start: 0,
            count: n,
            blocks: None,
        };
        match test {
            HostTest::Upload => vec![engine(self.host_in, self.device_out)],
            HostTest::Download => vec![engine(self.device_in, self.host_out)],
            HostTest::BothWays => vec![
                engine(self.host_in, self.device_out),
                engine(self.device_in, self.host_out),
            ],
            HostTest::KernelReads => vec![kernel(self.host_in, self.device_out)],
            HostTest::KernelWrites => vec![kernel(self.device_in, self.host_out)],
        }
    }
}

impl Experiment for HostLinks {
    fn name(&self) -> &'static str {
        "host-links"
    }
    fn title(&self) -> &'static str {
        "Host links: every GPU alone and all at once (nvbandwidth's host-device tests)"
    }
    fn source(&self) -> &'static str {
        "the guide's pinned transfers and zero copy (§3.1.1, §3.1.3) on every GPU of the node, \
         measured as nvbandwidth measures them"
    }
    fn scope(&self) -> Scope {
        Scope::Node
    }
    fn points(&self) -> u64 {
        6
    }
    fn requires(&self, ctx: &RunContext<'_>) -> std::result::Result<(), String> {
        if host_link_bytes(ctx.settings).is_none() {
            return Err("host links are measured at 1 MiB and up: --size-mib is below 1".into());
        }
        if let Some(dut) = ctx.testbed.devices().iter().find(|d| !d.info().can_map_host_memory) {
            return Err(format!(
                "GPU {} cannot map host memory (canMapHostMemory = 0)",
                dut.info().ordinal
            ));
        }
        Ok(())
    }

    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let devices = ctx.testbed.devices();
        let bytes = host_link_bytes(ctx.settings).expect("requires() checked the size");
        let mut result = ctx.result(
            self,
            Axis::lines("size (MiB)", Metric::Bandwidth).plot(PlotKind::None),
            "the bytes crossing each link, once per copy; both directions and all GPUs at once count every \
             copy's bytes over the set's span (release to the last copy's end, on one GPU's clock)",
        );
        let source: Vec<f32> = pattern((bytes / 4) as usize);
        let plan = (devices.len() + 1, bytes, source.as_slice());
        let (mut runners, _) = node_copy_runners(devices, KernelSet::Rust)?;
        for runner in &mut runners {
            measure_on(ctx, runner.as_mut(), &mut result, plan)?;
        }
        result.notes.push(format!(
            "every copy checked; one GPU alone: events around up to {} copies on its stream (as `transfers` times \
             them), both directions and all GPUs at once: every copy on its own stream, held by a spin kernel until \
             all are enqueued, each timed by its own events",
            ctx.settings.reps
        ));
        Ok(result)
    }
}

/// (points planned, bytes per copy, the pattern every copy carries).
type Plan<'a> = (usize, u64, &'a [f32]);

/// Every GPU's arrays on `runner`, then every test on each GPU alone and on all at once
/// (waived with one GPU), into `result`'s setup and series.
fn measure_on(
    ctx: &RunContext<'_>,
    runner: &mut dyn NodeCopyRunner,
    result: &mut ExperimentResult,
    plan: Plan<'_>,
) -> Result<()> {
    let (devices, (_, bytes, source)) = (ctx.testbed.devices(), plan);
    let mut buffers = Vec::with_capacity(devices.len());
    for gpu in devices.iter().enumerate() {
        buffers.push(LinkBuffers::allocate(runner, gpu, source)?);
    }
    result.setup.extend(placement_setup(ctx, &buffers));
    result.setup.push(format!("{} MiB per copy", bytes >> 20));
    let alone = each_gpu_alone(ctx, runner, &buffers, plan)?;
    let mut together = Vec::new();
    if devices.len() < 2 {
        result.waived.push(Waiver {
            what: "all GPUs at once".into(),
            reason: ctx.testbed.needs_gpus(2).err().unwrap_or_default(),
        });
    } else {
        each_point(ctx, [()], (devices.len(), devices.len() + 1), |()| {
            together = all_gpus_at_once(ctx, runner, &buffers, plan, &alone)?;
            Ok(())
        })?;
    }
    result.series.extend(alone);
    result.series.extend(together);
    Ok(())
}

/// Where each GPU's host memory sits and what its PCIe link carries.
fn placement_setup(ctx: &RunContext<'_>, buffers: &[LinkBuffers]) -> Vec<String> {
    ctx.testbed
        .devices()
        .iter()
        .zip(buffers)
        .map(|(dut, b)| {
            let pcie = ctx
                .testbed
                .pcie_theoretical_gbps(dut.info().ordinal)
                .map_or_else(String::new, |g| format!(", PCIe {g:.1} GB/s per direction (NVML)"));
            format!(
                "GPU {}: host memory {}{pcie}",
                dut.info().ordinal,
                b.placement.describe()
            )
        })
        .collect()
}

/// Every test on every GPU alone, a point each (one point of the plan per GPU).
fn each_gpu_alone(
    ctx: &RunContext<'_>,
    runner: &mut dyn NodeCopyRunner,
    buffers: &[LinkBuffers],
    plan: Plan<'_>,
) -> Result<Vec<Series>> {
    let devices = ctx.testbed.devices();
    let mut alone = Vec::new();
    each_point(ctx, devices.iter().zip(buffers), (0, plan.0), |(dut, b)| {
        let ordinal = dut.info().ordinal;
        ctx.progress.set_message(format!("host-links GPU {ordinal}"));
        for test in HostTest::ALL {
            let mut point = alone_point(ctx, runner, b, test, plan)?;
            if let Some(pcie) = ctx.testbed.pcie_theoretical_gbps(ordinal) {
                point.set_extra(PCIE_GBPS, pcie);
                if let Some(median) = point.median() {
                    point.set_extra(OF_PCIE, 100.0 * median / (pcie * test.copies() as f64));
                }
            }
            let mut series = Series::new(
                test.key(Devices::One(ordinal.0)),
                format!("{} · GPU {ordinal}", test.label()),
            );
            series.points.push(point);
            alone.push(series);
        }
        Ok(())
    })?;
    Ok(alone)
}

/// `test` on one GPU alone, checked: one-way copies timed on the GPU's stream, both directions
/// as two concurrent lanes.
fn alone_point(
    ctx: &RunContext<'_>,
    runner: &mut dyn NodeCopyRunner,
    b: &LinkBuffers,
    test: HostTest,
    (_, bytes, source): Plan<'_>,
) -> Result<Point> {
    let n = source.len();
    let at = PointKey::Value((bytes >> 20) as i64);
    b.clear(runner)?;
    let copies = b.copies(test, n);
    Ok(if test == HostTest::BothWays {
        let samples = runner.time_together(&copies, b.gpu, ctx.settings)?;
        let failure = b.check(runner, test, source)?;
        Point::measured(at, &samples.total, Work::bytes(2 * n as u64, 2 * bytes), failure)
    } else {
        // The same copy the concurrent lane makes, here on the GPU's own stream between its events.
        let times = runner.time(&copies[0], ctx.settings)?;
        let failure = b.check(runner, test, source)?;
        Point::timed(at, &Metric::Bandwidth, Work::bytes(n as u64, bytes), &times, failure)
    }
    .unwrap_or_else(|| Point::unmeasured(at, Status::Failed("no finite figure".into()))))
}

/// Every test on all GPUs at once, a point each, beside the sum of each GPU's figure alone.
fn all_gpus_at_once(
    ctx: &RunContext<'_>,
    runner: &mut dyn NodeCopyRunner,
    buffers: &[LinkBuffers],
    plan: Plan<'_>,
    alone: &[Series],
) -> Result<Vec<Series>> {
    ctx.progress.set_message("host-links: all GPUs at once");
    let mut together = Vec::new();
    for test in HostTest::ALL {
        let mut point = together_point(ctx, runner, buffers, test, plan)?;
        let sum: Option<f64> = alone
            .iter()
            .filter(|s| same_test(s, test))
            .map(|s| s.points.first().and_then(Point::median))
            .sum();
        if let Some(sum) = sum {
            point.set_extra(SUM_ALONE, sum);
        }
        let mut series = Series::new(test.key(Devices::All), format!("{} · all GPUs at once", test.label()));
        series.points.push(point);
        together.push(series);
    }
    Ok(together)
}

/// `test` on every GPU at once, every copy on its own stream; the total, failed by the first
/// GPU whose copy fails its check.
fn together_point(
    ctx: &RunContext<'_>,
    runner: &mut dyn NodeCopyRunner,
    buffers: &[LinkBuffers],
    test: HostTest,
    (_, bytes, source): Plan<'_>,
) -> Result<Point> {
    let devices = ctx.testbed.devices();
    let n = source.len();
    let at = PointKey::Value((bytes >> 20) as i64);
    for b in buffers {
        b.clear(runner)?;
    }
    let copies: Vec<NodeCopy> = buffers.iter().flat_map(|b| b.copies(test, n)).collect();
    let samples = runner.time_together(&copies, 0, ctx.settings)?;
    let mut failure = None;
    for (dut, b) in devices.iter().zip(buffers) {
        if failure.is_none() {
            failure = b
                .check(runner, test, source)?
                .map(|why| format!("GPU {}: {why}", dut.info().ordinal));
        }
    }
    let copies = test.copies() * devices.len() as u64;
    let work = Work::bytes(n as u64 * copies, bytes * copies);
    Ok(Point::measured(at, &samples.total, work, failure)
        .unwrap_or_else(|| Point::unmeasured(at, Status::Failed("no finite figure".into()))))
}

fn same_test(series: &Series, test: HostTest) -> bool {
    let key = test.key(series.key.devices);
    series.key == key
}

impl SectionHooks for HostLinks {
    fn headline(&self, result: &ExperimentResult, _report: &Report) -> Option<String> {
        let figure = |test: HostTest, devices: Devices| {
            result
                .series(&test.key(devices))
                .and_then(|s| s.points.first())
                .and_then(Point::median)
        };
        let alone: Vec<(usize, f64)> = result
            .series
            .iter()
            .filter_map(|s| match s.key.devices {
                Devices::One(gpu) if s.key == HostTest::Upload.key(Devices::One(gpu)) => {
                    Some((gpu, s.points.first()?.median()?))
                }
                _ => None,
            })
            .collect();
        let first = alone.first()?;
        let mut text = format!("host → GPU {}: {:.1} GB/s alone", first.0, first.1);
        if let Some(all) = figure(HostTest::Upload, Devices::All) {
            text.push_str(&format!("; all {} GPUs at once {all:.1} GB/s in all", alone.len()));
        }
        Some(text)
    }

    fn narrative(&self, result: &ExperimentResult, report: &Report) -> Vec<String> {
        let mut out = Vec::new();
        let figure = |test: HostTest, devices: Devices| {
            result
                .series(&test.key(devices))
                .and_then(|s| s.points.first())
                .and_then(Point::median)
        };
        // Against `transfers` in the same report, GPU by GPU.
        let mut gaps = Vec::new();
        for device in &report.devices {
            let ordinal = device.ordinal.0;
            let transfers = report
                .experiments
                .iter()
                .find(|r| r.name == "transfers" && r.device.unwrap_or(0) == ordinal);
            // `transfers` sweeps KiB, this experiment states MiB.
            let size = result.values().into_iter().max().and_then(|mib| mib.checked_mul(1024));
            for (test, call) in [(HostTest::Upload, "cuMemcpyHtoD"), (HostTest::Download, "cuMemcpyDtoH")] {
                let here = figure(test, Devices::One(ordinal));
                let there = transfers
                    .and_then(|t| t.variant(call, Implementation::CopyEngine, "pinned"))
                    .zip(size)
                    .and_then(|(s, size)| s.median_at(size));
                if let (Some(here), Some(there)) = (here, there) {
                    gaps.push(format!(
                        "GPU {ordinal} {}: {here:.1} GB/s here, {there:.1} in `transfers` ({:+.1}%)",
                        test.label(),
                        100.0 * (here / there - 1.0)
                    ));
                }
            }
        }
        if !gaps.is_empty() {
            out.push(format!(
                "The same pinned copies as `transfers`, at its largest size: {}.",
                gaps.join("; ")
            ));
        }
        let all = figure(HostTest::Upload, Devices::All);
        let sum = result
            .series(&HostTest::Upload.key(Devices::All))
            .and_then(|s| s.points.first())
            .and_then(|p| p.extra.get(SUM_ALONE).copied());
        if let (Some(all), Some(sum)) = (all, sum) {
            out.push(format!(
                "All GPUs uploading at once move {all:.1} GB/s, {:.0}% of the {sum:.1} GB/s their links move \
                 one at a time: {}.",
                100.0 * all / sum,
                if all >= 0.95 * sum {
                    "the host keeps up with every link"
                } else {
                    "the host side (memory, root complexes, NUMA) caps the node below the sum of its links"
                }
            ));
        }
        out
    }

    fn tables(&self, result: &ExperimentResult, _report: &Report) -> Option<String> {
        let mut rows: Vec<Devices> = Vec::new();
        for series in &result.series {
            if !rows.contains(&series.key.devices) {
                rows.push(series.key.devices);
            }
        }
        let mut out = String::new();
        let _ = write!(out, "| GPUs |");
        for test in HostTest::ALL {
            let _ = write!(out, " {} GB/s |", test.label());
        }
        let _ = writeln!(out, " PCIe theoretical GB/s |");
        let _ = writeln!(out, "|---|{}---:|", "---:|".repeat(HostTest::ALL.len()));
        for devices in rows {
            let _ = write!(out, "| {devices} |");
            let mut pcie = None;
            for test in HostTest::ALL {
                let point = result.series(&test.key(devices)).and_then(|s| s.points.first());
                pcie = pcie.or_else(|| point.and_then(|p| p.extra.get(PCIE_GBPS).copied()));
                let mut cell = point_cell(point);
                if let Some(sum) = point.and_then(|p| p.extra.get(SUM_ALONE)) {
                    let _ = write!(cell, " (alone: {sum:.1} summed)");
                }
                let _ = write!(out, " {cell} |");
            }
            let _ = writeln!(out, " {} |", pcie.map_or_else(|| "—".into(), |g| format!("{g:.1}")));
        }
        let _ = writeln!(
            out,
            "\nCells: median (min–max over the samples). nvbandwidth's names: {}.",
            HostTest::ALL
                .iter()
                .map(|t| format!("{} = `{}`", t.label(), t.nvbandwidth_name()))
                .collect::<Vec<_>>()
                .join(", ")
        );
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::{HostTest, host_link_bytes};
    use crate::report::Devices;
    use crate::run_settings::RunSettings;

    #[test]
    fn host_links_copy_what_transfers_copies_at_its_largest_size() {
        let mut settings = RunSettings::default();
        assert_eq!(host_link_bytes(&settings), Some(1 << 30));
        settings.buffer_mib = Some(300);
        assert_eq!(host_link_bytes(&settings), Some(256 << 20));
        settings.buffer_mib = Some(0);
        assert_eq!(host_link_bytes(&settings), None);
    }

    #[test]
    fn each_test_has_its_own_key() {
        let mut keys: Vec<_> = HostTest::ALL.iter().map(|t| t.key(Devices::All)).collect();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), HostTest::ALL.len());
    }
}
