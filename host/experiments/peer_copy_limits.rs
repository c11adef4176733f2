//! `peer-copy-limits`: what limits a copy by SMs over the link between two
//! GPUs, and whether SMs can match the copy engine there (nvbandwidth's
//! `memcpy_read_sm` / `memcpy_write_sm` against its `memcpy_ce`).
//!
//! On the run's first two GPUs (source → destination), at the largest size
//! `peer` sweeps, one question at a time:
//! - **Blocks in flight.** `vector_copy` with a persistent grid of ¼, ½, 1,
//!   2, 4 and 8 blocks of 256 threads per SM (the grid-stride loop covers
//!   the rest), pulling (the destination's SMs read the source) and pushing
//!   (the source's SMs write the destination): how many threads, and so how
//!   many loads or stores in flight, a link needs.
//! - **The launch `peer` uses**: `vector_copy` as it is launched by default
//!   (many short blocks, [`vector_copy_blocks`]), pull and push.
//! - **Both GPUs' SMs at once**: the source pushes the first half while the
//!   destination pulls the second, each on its own stream, released together.
//!   If one GPU's side of the link (its SMs' requests) is the limit, two sides
//!   lift it; if the link itself is, they cannot.
//! - **The copy engines**: the source's alone (`peer`'s CE copy), and the
//!   source's and the destination's at once, half each, the same split.
//!
//! Every copy is checked on the destination, and every figure carries its
//! fraction of the source's copy engine. On four H200 every SM copy topped out
//! at 0.945 of the engine: the packet sizes' ratio (128-byte payloads for SM
//! requests, 256 for copy engines, a 16-byte header each: 0.944), as
//! `vector_copy`'s documentation explains. Bulk copies by the Tensor Memory
//! Accelerator (`cp.async.bulk`, CUDA C in `gpu-checks/tma_peer_copy.cu`)
//! stop at the same 0.94 on two H100: they are SM requests too.
//!
//! The copies are made and timed by the node-copies runner ([`NodeCopyRunner`]).

use super::peer::{NVLINK_GBPS, PeerBuffers, Theoretical, check_against_route};
use super::{Experiment, RunContext, Scope, peer_sizes};
use crate::error::{Error, Result};
use crate::facts::CudaOrdinal;
use crate::launchers::{KernelSet, NodeCopy, NodeCopyRunner, node_copy_runners};
use crate::report::{
    Axis, Devices, ExperimentResult, Metric, PlotKind, Point, PointKey, Scale, Series, SeriesKey, Status, Work,
};
use crate::report::{Report, SectionHooks};
use crate::testbed::{DeviceUnderTest, Implementation};
use kernels_gpu::global_memory::COPY_BLOCK_THREADS;

pub struct PeerCopyLimits;

/// Each point's figure over the source's copy engine alone.
pub const OF_COPY_ENGINE: &str = "of the source's copy engine";
/// Persistent grids: blocks of [`COPY_BLOCK_THREADS`] per SM, in quarters.
const QUARTER_BLOCKS_PER_SM: [u32; 6] = [1, 2, 4, 8, 16, 32];

/// One way of making the copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyWay {
    /// `vector_copy` on the destination, a persistent grid (x: blocks).
    PullPersistent,
    /// `vector_copy` on the source, a persistent grid (x: blocks).
    PushPersistent,
    /// `vector_copy` on the destination, launched as `peer` launches it.
    PullDefault,
    /// `vector_copy` on the source, launched as `peer` launches it.
    PushDefault,
    /// The source pushes the first half while the destination pulls the second.
    PushAndPull,
    /// The source's copy engine.
    CopyEngine,
    /// The source's and the destination's copy engines, half each.
    BothCopyEngines,
}

impl CopyWay {
    pub const ALL: [Self; 7] = [
        Self::PullPersistent,
        Self::PushPersistent,
        Self::PullDefault,
        Self::PushDefault,
        Self::PushAndPull,
        Self::CopyEngine,
        Self::BothCopyEngines,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Self::PullPersistent => "SM pull, persistent grid (x: blocks of 256)",
            Self::PushPersistent => "SM push, persistent grid (x: blocks of 256)",
            Self::PullDefault => "SM pull, as peer launches it",
            Self::PushDefault => "SM push, as peer launches it",
            Self::PushAndPull => "SMs of both GPUs: source pushes half, destination pulls half",
            Self::CopyEngine => "CE of the source",
            Self::BothCopyEngines => "CEs of both GPUs, half each",
        }
    }

    fn is_kernel(self) -> bool {
        !matches!(self, Self::CopyEngine | Self::BothCopyEngines)
    }

    fn variant(self) -> &'static str {
        match self {
            Self::PullPersistent => "pull, persistent grid",
            Self::PushPersistent => "push, persistent grid",
            Self::PullDefault => "pull",
            Self::PushDefault => "push",
            Self::PushAndPull => "push half, pull half",
            Self::CopyEngine => "one way",
            Self::BothCopyEngines => "both engines, half each",
        }
    }

    pub fn key(self, devices: Devices) -> SeriesKey {
        let (call, implementation) = if self.is_kernel() {
            ("vector_copy", Implementation::Rust)
        } else {
            ("cuMemcpyPeerAsync", Implementation::CopyEngine)
        };
        SeriesKey::new(call, implementation, "f32")
            .variant(self.variant())
            .on(devices)
    }
}

impl Experiment for PeerCopyLimits {
    fn name(&self) -> &'static str {
        "peer-copy-limits"
    }
    fn title(&self) -> &'static str {
        "What limits a copy by SMs between two GPUs (blocks in flight, push or pull, one side or both)"
    }
    fn source(&self) -> &'static str {
        "the guide's advice to keep enough memory operations in flight (§5.2), carried to the link between GPUs"
    }
    fn scope(&self) -> Scope {
        Scope::Node
    }
    fn points(&self) -> u64 {
        (2 * QUARTER_BLOCKS_PER_SM.len() + 5) as u64
    }
    fn requires(&self, ctx: &RunContext<'_>) -> std::result::Result<(), String> {
        ctx.testbed.needs_gpus(2)?;
        if peer_sizes(ctx.settings).is_empty() {
            return Err("peer copies need 1 MiB or more: --size-mib is below 1".into());
        }
        let devices = ctx.testbed.devices();
        let asking = |e: Error| format!("cannot ask the driver about peer access: {e}");
        let (runners, _) = node_copy_runners(&devices[..2], KernelSet::Rust).map_err(asking)?;
        for runner in &runners {
            for (from, to) in [(0, 1), (1, 0)] {
                if !runner.path(from, to).map_err(asking)?.access_supported {
                    return Err(format!(
                        "no peer access from GPU {} to GPU {}: kernels cannot address its memory",
                        devices[from].info().ordinal.0,
                        devices[to].info().ordinal.0
                    ));
                }
            }
        }
        Ok(())
    }

    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let devices = &ctx.testbed.devices()[..2];
        let bytes = *peer_sizes(ctx.settings).last().expect("requires() checked the sizes");
        let n = (bytes / 4) as usize;
        let axis = Axis::lines("blocks of the grid", Metric::Bandwidth)
            .x_scale(Scale::Log2)
            .plot(PlotKind::Lines);
        let mut result = ctx.result(
            self,
            axis,
            "the bytes copied, once (read on one GPU, written on the other); a split copy counts both halves' bytes \
             over the span from their release to the later half's end",
        );
        let (src_gpu, dst_gpu) = (devices[0].info().ordinal.0, devices[1].info().ordinal.0);
        let sms = devices[0].info().multiprocessors.max(1) as u32;
        result.setup.push(format!(
            "GPU {src_gpu} → GPU {dst_gpu}, {} MiB per copy; persistent grids of {} to {} blocks of {} threads \
             ({} SMs); the CE points sit at x = 1",
            bytes >> 20,
            grid_blocks(sms, QUARTER_BLOCKS_PER_SM[0]),
            grid_blocks(sms, QUARTER_BLOCKS_PER_SM[QUARTER_BLOCKS_PER_SM.len() - 1]),
            COPY_BLOCK_THREADS,
            sms
        ));
        let pair = Devices::Pair {
            src: src_gpu,
            dst: dst_gpu,
        };
        let (mut runners, _) = node_copy_runners(devices, KernelSet::Rust)?;
        for runner in &mut runners {
            runner.enable_peer_access(0, 1)?;
            runner.enable_peer_access(1, 0)?;
            let buffers = PeerBuffers::allocate(runner.as_mut(), n)?;
            // Stopped by Ctrl-C or not, what was measured is held to the route before it is shown.
            measure_every_way(ctx, (runner.as_mut(), &buffers), devices, &mut result, pair)?;
        }
        hold_to_the_route(ctx, &mut result, (src_gpu, dst_gpu));
        set_fractions_of_the_engine(&mut result, pair);
        result.notes.push(format!(
            "one warm-up, then {} samples of up to {} copies between events; the split copies are held by a \
             spin kernel until both halves are enqueued and timed from their release to the later half's end",
            ctx.settings.samples, ctx.settings.reps
        ));
        Ok(result)
    }
}

/// Every [`CopyWay`] (the persistent grids over the sweep of blocks per SM), a series each, into
/// `result`; on Ctrl-C it stops there, keeping the series so far.
fn measure_every_way(
    ctx: &RunContext<'_>,
    (runner, buffers): (&mut dyn NodeCopyRunner, &PeerBuffers),
    devices: &[DeviceUnderTest],
    result: &mut ExperimentResult,
    pair: Devices,
) -> Result<()> {
    let sms = devices[0].info().multiprocessors.max(1) as u32;
    let planned = PeerCopyLimits.points() as usize;
    let mut done = 0;
    for way in CopyWay::ALL {
        let mut series = Series::new(way.key(pair), way.label());
        let grids: Vec<Option<u32>> = match way {
            CopyWay::PullPersistent | CopyWay::PushPersistent => QUARTER_BLOCKS_PER_SM
                .iter()
                .map(|&q| Some(grid_blocks(sms, q)))
                .collect(),
            _ => vec![None],
        };
        for grid in grids {
            if ctx.stop_before(done, planned) {
                result.series.push(series);
                return Ok(());
            }
            ctx.progress.set_message(format!("peer-copy-limits: {}", way.label()));
            series.points.push(copy_point(runner, buffers, ctx, way, grid)?);
            ctx.progress.inc(1);
            done += 1;
        }
        result.series.push(series);
    }
    Ok(())
}

/// Every figure held to what NVML says the route carries (more is a measurement error, and fails
/// its point), the route's figure beside each; a note where NVML gives no route.
fn hold_to_the_route(ctx: &RunContext<'_>, result: &mut ExperimentResult, (src_gpu, dst_gpu): (usize, usize)) {
    let route = ctx.testbed.nvml().ok().and_then(|nvml| {
        nvml.interconnect()
            .nvlink_route(CudaOrdinal(src_gpu), CudaOrdinal(dst_gpu))
    });
    let Some(route) = route else {
        result.notes.push(
            "NVML gives no NVLink route between the two GPUs: the figures are not held to a link's figure".into(),
        );
        return;
    };
    let ceiling = Theoretical {
        gbps: route.gbps,
        how: format!("NVLink: the route's {:.0} GB/s", route.gbps),
    };
    for point in result.series.iter_mut().flat_map(|s| s.points.iter_mut()) {
        check_against_route(point, &ceiling);
        point.set_extra(NVLINK_GBPS, route.gbps);
    }
}

/// Each ok point's median over the source's copy engine alone, as [`OF_COPY_ENGINE`].
fn set_fractions_of_the_engine(result: &mut ExperimentResult, pair: Devices) {
    let engine = result
        .series(&CopyWay::CopyEngine.key(pair))
        .and_then(|s| s.points.first())
        .and_then(Point::median);
    let Some(engine) = engine else {
        return;
    };
    for point in result.series.iter_mut().flat_map(|s| s.points.iter_mut()) {
        if let Some(median) = point.median() {
            point.set_extra(OF_COPY_ENGINE, median / engine);
        }
    }
}

/// Blocks of a persistent grid with `quarters` / 4 blocks per SM, at least one.
fn grid_blocks(sms: u32, quarters: u32) -> u32 {
    (sms * quarters / 4).max(1)
}

/// The copy of every float of `buffers` from the first GPU to the second made `way` (with
/// `grid` blocks for a persistent grid), timed and checked.
fn copy_point(
    runner: &mut dyn NodeCopyRunner,
    buffers: &PeerBuffers,
    ctx: &RunContext<'_>,
    way: CopyWay,
    grid: Option<u32>,
) -> Result<Point> {
    let (src, dst) = (0, 1);
    let n = buffers.len();
    let bytes = n as u64 * 4;
    buffers.clear(runner, dst, src)?;
    let default_blocks = runner.default_blocks(src, Implementation::Rust, n as u64)?;
    let at = PointKey::Value(match way {
        CopyWay::CopyEngine | CopyWay::BothCopyEngines => 1,
        _ => grid.unwrap_or(default_blocks) as i64,
    });
    let (from, to) = (buffers.source(src), buffers.received(dst, src)?);
    // A split copy gives GB/s over its span; a single one its time per copy, which the point converts.
    let (split_gbps, times) = match way {
        CopyWay::PushAndPull | CopyWay::BothCopyEngines => {
            let first = (n / 2) & !3;
            let mut halves = Vec::with_capacity(2);
            // The first half is made on the source (push / its engine), the second on the destination.
            for (issuer, (start, count)) in [(src, (0, first)), (dst, (first, n - first))] {
                halves.push(if way == CopyWay::PushAndPull {
                    NodeCopy::Kernel {
                        issuer,
                        implementation: Implementation::Rust,
                        from,
                        to,
                        start,
                        count,
                        blocks: Some(runner.default_blocks(issuer, Implementation::Rust, count as u64)?),
                    }
                } else {
                    NodeCopy::Engine {
                        issuer,
                        from,
                        to,
                        start,
                        count,
                    }
                });
            }
            (runner.time_together(&halves, src, ctx.settings)?.total, Vec::new())
        }
        _ => {
            let issuer = match way {
                CopyWay::PullPersistent | CopyWay::PullDefault => dst,
                _ => src,
            };
            let copy = if way == CopyWay::CopyEngine {
                NodeCopy::Engine {
                    issuer,
                    from,
                    to,
                    start: 0,
                    count: n,
                }
            } else {
                NodeCopy::Kernel {
                    issuer,
                    implementation: Implementation::Rust,
                    from,
                    to,
                    start: 0,
                    count: n,
                    blocks: Some(grid.unwrap_or(default_blocks)),
                }
            };
            (Vec::new(), runner.time(&copy, ctx.settings)?)
        }
    };
    let failure = buffers.check(runner, dst, src, n)?;
    let work = Work::bytes(n as u64, bytes);
    let point = if times.is_empty() {
        Point::measured(at, &split_gbps, work, failure)
    } else {
        Point::timed(at, &Metric::Bandwidth, work, &times, failure)
    };
    Ok(point.unwrap_or_else(|| Point::unmeasured(at, Status::Failed("no finite figure".into()))))
}

impl SectionHooks for PeerCopyLimits {
    fn headline(&self, result: &ExperimentResult, _report: &Report) -> Option<String> {
        let best = |ways: &[CopyWay]| {
            result
                .series
                .iter()
                .filter(|s| ways.iter().any(|w| s.key == w.key(s.key.devices)))
                .flat_map(|s| s.points.iter())
                .filter_map(|p| p.extra.get(OF_COPY_ENGINE).copied())
                .reduce(f64::max)
        };
        let one_side = best(&[
            CopyWay::PullPersistent,
            CopyWay::PushPersistent,
            CopyWay::PullDefault,
            CopyWay::PushDefault,
        ])?;
        let both = best(&[CopyWay::PushAndPull]);
        Some(match both {
            Some(both) => format!(
                "SMs of one GPU reach {one_side:.2}× the copy engine at best; SMs of both GPUs, half each, {both:.2}×"
            ),
            None => format!("SMs of one GPU reach {one_side:.2}× the copy engine at best"),
        })
    }
}
