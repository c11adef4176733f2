//! `peer`: copies between the GPUs of a node, as nvbandwidth measures them.
//!
//! For every ordered pair (source → destination), over a size sweep: the
//! source's copy engine (`cuMemcpyPeerAsync`), a Rust `vector_copy` on the
//! destination reading the source's memory (pull) and one on the source
//! writing the destination's (push). At the largest size: the same kernels by
//! their twins, both directions at once (copy engines, and pulls), and every
//! other GPU into one / one into every other at once, by copy engines and by
//! kernels. Then the fabric at once ([`FabricTest`]): the bisection (GPU `i`
//! with GPU `i + N/2`, each half into the other and both ways together) and
//! all-to-all, by copy engines, pulls and pushes, each with its total and
//! every copy's own figure. Every copy is checked on its destination against
//! its source's pattern (each GPU sends a pattern of its own), and every
//! figure against what NVML says the links can carry ([`LinkFigures`]).
//!
//! Beside each pair: what the driver says of the path (peer access, native
//! atomics, performance rank) and what NVML says of the link (NVLink links
//! and their theoretical bandwidth). A pair without peer access is measured
//! by copy engines only, through host memory, and says so; its kernel copies
//! are waived.
//!
//! Every array, peer access, copy and timing is the node-copies runner's
//! ([`NodeCopyRunner`], `host/launchers/node_copies/`); this file plans the
//! copies, checks them and builds the series.

mod fabric_tests;
mod link_ceilings;
#[cfg(test)]
mod node_fixtures;
mod peer_buffers;
mod peer_tests;
mod tables;

pub use fabric_tests::{FabricPattern, FabricTest};
pub use link_ceilings::{LinkFigures, Theoretical, check as check_against_route};
pub use peer_buffers::{PeerBuffers, source_value};
pub use peer_tests::PeerTest;

use std::collections::BTreeMap;

use super::{Experiment, RunContext, Scope};
use crate::error::Result;
use crate::facts::CudaOrdinal;
use crate::launchers::{ConcurrentSamples, KernelSet, NodeCopy, NodeCopyRunner, PeerPath, node_copy_runners};
use crate::report::{
    Axis, Devices, ExperimentResult, Metric, PlotKind, Point, PointKey, Scale, Series, Status, Waiver, Work,
};
use crate::run_settings::RunSettings;
use crate::stats::Summary;
use crate::testbed::Implementation;

pub struct Peer;

/// Extra figures of the copy-engine matrix's cells: what the driver and NVML say of the pair.
pub const PEER_ACCESS: &str = "peer access (1 = yes)";
pub const NATIVE_ATOMICS: &str = "native atomics (1 = yes)";
pub const PERFORMANCE_RANK: &str = "performance rank";
pub const NVLINK_LINKS: &str = "NVLink links";
pub const NVLINK_GBPS: &str = "NVLink theoretical (GB/s)";
pub const OF_NVLINK: &str = "% of NVLink theoretical";
pub const BOTH_TOTAL: &str = "both directions, total (GB/s)";
/// Extra figures of a fabric test's total: what the links can carry for all its copies together.
pub const FABRIC_GBPS: &str = "links' theoretical, all copies (GB/s)";
pub const OF_FABRIC: &str = "% of the links' theoretical";

/// 1 MiB, 4 MiB, ... up to the run's buffer size, at most 1 GiB.
pub fn peer_sizes(settings: &RunSettings) -> Vec<u64> {
    let max = settings.buffer_mib.map_or(1 << 30, |mib| mib << 20).min(1 << 30);
    std::iter::successors(Some(1u64 << 20), |s| Some(s * 4))
        .take_while(|&s| s <= max)
        .collect()
}

/// What is known of the path from one GPU to another.
#[derive(Clone, Copy, Debug)]
struct PairPath {
    attributes: PeerPath,
    nvlink_links: Option<usize>,
    nvlink_gbps: Option<f64>,
}

/// The paths between every ordered pair of the testbed's GPUs, `[src][dst]` by their place in
/// the testbed (`None` on the diagonal), and each place's CUDA ordinal (what reports name GPUs by).
struct Paths {
    pairs: Vec<Vec<Option<PairPath>>>,
    ordinals: Vec<usize>,
    links: LinkFigures,
}

impl Paths {
    fn get(&self, src: usize, dst: usize) -> Option<&PairPath> {
        self.pairs.get(src)?.get(dst)?.as_ref()
    }

    /// Whether kernels on `from` may use `to`'s memory.
    fn access(&self, from: usize, to: usize) -> bool {
        self.get(from, to).is_some_and(|p| p.attributes.access_supported)
    }

    /// What the driver (through `runner`) and NVML say of the path between every ordered pair of the run's GPUs.
    fn query(ctx: &RunContext<'_>, runner: &dyn NodeCopyRunner) -> Result<Self> {
        let devices = ctx.testbed.devices();
        let gpus = devices.len();
        let ordinals: Vec<usize> = devices.iter().map(|d| d.info().ordinal.0).collect();
        let mut pairs = vec![vec![None; gpus]; gpus];
        for (src, row) in pairs.iter_mut().enumerate() {
            for (dst, cell) in row.iter_mut().enumerate() {
                if src == dst {
                    continue;
                }
                let attributes = runner.path(src, dst)?;
                let route = ctx.testbed.nvml().ok().and_then(|nvml| {
                    nvml.interconnect()
                        .nvlink_route(CudaOrdinal(ordinals[src]), CudaOrdinal(ordinals[dst]))
                });
                *cell = Some(PairPath {
                    attributes,
                    nvlink_links: route.map(|r| r.direct_links + r.switched_links),
                    nvlink_gbps: route.map(|r| r.gbps),
                });
            }
        }
        let interconnect = ctx.testbed.nvml().ok().map(|nvml| nvml.interconnect());
        let links = LinkFigures {
            routes: pairs
                .iter()
                .map(|row| row.iter().map(|p| p.and_then(|p| p.nvlink_gbps)).collect())
                .collect(),
            gpu_nvlink: ordinals
                .iter()
                .map(|&o| interconnect.as_ref().and_then(|i| i.nvlink_gbps(CudaOrdinal(o))))
                .collect(),
            pcie: ordinals
                .iter()
                .map(|&o| {
                    interconnect
                        .as_ref()
                        .and_then(|i| i.pcie_theoretical_gbps(CudaOrdinal(o)))
                })
                .collect(),
        };
        Ok(Self { pairs, ordinals, links })
    }

    /// Peer access on wherever it is supported, until the runner disables it.
    fn enable_access(&self, runner: &mut dyn NodeCopyRunner) -> Result<()> {
        let gpus = self.ordinals.len();
        for from in 0..gpus {
            for to in 0..gpus {
                if from != to && self.access(from, to) {
                    runner.enable_peer_access(from, to)?;
                }
            }
        }
        Ok(())
    }

    /// A line of setup per ordered pair ([`describe_path`]).
    fn describe(&self, nvml_missing: Option<&str>) -> Vec<String> {
        let gpus = self.ordinals.len();
        let mut lines = Vec::new();
        for src in 0..gpus {
            for dst in (0..gpus).filter(|&d| d != src) {
                let path = self.get(src, dst).expect("off-diagonal paths exist");
                lines.push(describe_path(
                    self.ordinals[src],
                    self.ordinals[dst],
                    path,
                    nvml_missing,
                ));
            }
        }
        lines
    }
}

/// The GPU that issues a one-way copy: the source for copy engines and pushes, the destination for pulls.
fn issuer(test: PeerTest, src: usize, dst: usize) -> usize {
    match test {
        PeerTest::Pull | PeerTest::PullBothWays => dst,
        _ => src,
    }
}

/// Why a kernel copy between `src` and `dst` cannot run, if it cannot.
fn kernel_waiver(paths: &Paths, test: PeerTest, src: usize, dst: usize) -> Option<String> {
    let (from, to) = if issuer(test, src, dst) == src {
        (src, dst)
    } else {
        (dst, src)
    };
    let (from_gpu, to_gpu) = (paths.ordinals[from], paths.ordinals[to]);
    (test.is_kernel() && !paths.access(from, to))
        .then(|| format!("no peer access from GPU {from_gpu} to GPU {to_gpu}: kernels cannot address its memory"))
}

/// The series' GPUs by CUDA ordinal: the run measures them by their place in the testbed, which
/// differs where `--device` lists some GPUs only (`0,2`).
fn renumber(series: &mut Series, ordinals: &[usize]) {
    series.key.devices = match series.key.devices {
        Devices::One(i) => Devices::One(ordinals[i]),
        Devices::Pair { src, dst } => Devices::Pair {
            src: ordinals[src],
            dst: ordinals[dst],
        },
        Devices::All => Devices::All,
    };
    for point in &mut series.points {
        if let PointKey::Pair { src, dst } = point.at {
            point.at = PointKey::Pair {
                src: ordinals[src],
                dst: ordinals[dst],
            };
        }
    }
}

impl Experiment for Peer {
    fn name(&self) -> &'static str {
        "peer"
    }
    fn title(&self) -> &'static str {
        "Peer-to-peer copies between GPUs (nvbandwidth's device-to-device tests)"
    }
    fn source(&self) -> &'static str {
        "the guide's transfer measurements (§3.1.1) carried to the links between GPUs, \
         measured as nvbandwidth measures them"
    }
    fn scope(&self) -> Scope {
        Scope::Node
    }
    fn points(&self) -> u64 {
        9
    }
    fn requires(&self, ctx: &RunContext<'_>) -> std::result::Result<(), String> {
        ctx.testbed.needs_gpus(2)?;
        if peer_sizes(ctx.settings).is_empty() {
            return Err("peer copies sweep 1 MiB and up: --size-mib is below 1".into());
        }
        Ok(())
    }

    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let devices = ctx.testbed.devices();
        let sizes = peer_sizes(ctx.settings);
        let largest = *sizes.last().expect("requires() checked the sweep");
        let axis = Axis::lines("size (MiB)", Metric::Bandwidth)
            .x_scale(Scale::Log2)
            .plot(PlotKind::HeatMap);
        let mut result = ctx.result(
            self,
            axis,
            "the bytes copied, once per copy (a copy reads them on one GPU and writes them on the other); \
             both-directions and all-at-once totals count every copy's bytes over the set's span (release to the last \
             copy's end, on one GPU's clock); each copy's own figure is its bytes over its own time",
        );
        let (mut runners, waived) = node_copy_runners(devices, KernelSet::WithTwins)?;
        result
            .waived
            .extend(waived.into_iter().map(|(twin, why)| Waiver::of_twins(twin, why)));
        for runner in &mut runners {
            measure_on(ctx, runner.as_mut(), &mut result, sizes.clone())?;
        }
        let ordinals: Vec<usize> = devices.iter().map(|d| d.info().ordinal.0).collect();
        write_matrices(ctx, &mut result, &ordinals, largest)?;
        result.notes.push(format!(
            "every copy checked on its destination against its source's own pattern; one warm-up, then {} samples \
             of up to {} copies between events (fewer where one copy is long); concurrent copies are held by a \
             spin kernel until all are enqueued; each copy is timed by its own GPU's events, the set from its release to the last copy's end",
            ctx.settings.samples, ctx.settings.reps
        ));
        Ok(result)
    }
}

/// The one-way tests at the largest size, a source × destination matrix per (test's place in
/// [`PeerTest::ONE_WAY`], implementation).
type Matrices = BTreeMap<(usize, Implementation), Series>;

/// Everything `peer` measures, on `runner`'s GPUs (the paths between them, peer access
/// wherever it is supported, the sweeps, matrices, both directions, hubs and the fabric),
/// into `result`'s setup and series.
fn measure_on(
    ctx: &RunContext<'_>,
    runner: &mut dyn NodeCopyRunner,
    result: &mut ExperimentResult,
    sizes: Vec<u64>,
) -> Result<()> {
    let largest = *sizes.last().expect("requires() checked the sweep");
    let paths = Paths::query(ctx, runner)?;
    paths.enable_access(runner)?;
    result.setup.extend(paths.describe(ctx.testbed.nvml().err()));
    result.setup.push(format!(
        "sizes {} MiB to {} MiB; the matrices, both-direction and all-at-once copies at {} MiB",
        sizes[0] >> 20,
        largest >> 20,
        largest >> 20
    ));
    result.setup.push(bisection_setup(&paths.ordinals));
    let buffers = PeerBuffers::allocate(runner, (largest / 4) as usize)?;
    let mut run = PeerRun {
        ctx,
        runner,
        buffers,
        paths,
        sizes,
    };
    let (mut matrices, sweeps, stopped) = run.one_way_sweeps()?;
    let (mut both_ways, mut hubs, mut fabric) = (Vec::new(), Vec::new(), Vec::new());
    if !stopped {
        both_ways = run.both_ways_at_once()?;
        hubs = run.hubs_at_once()?;
        fabric = run.fabric_at_once()?;
    }
    annotate_pairs(matrices.values_mut().chain(both_ways.iter_mut()), &run.paths);
    run.runner.disable_peer_access();
    result.series.extend(report_series(
        [matrices.into_values().collect(), both_ways, fabric, sweeps, hubs],
        &run.paths,
    ));
    Ok(())
}

/// What the steps of a run share: its context, the runner that copies, the buffers every
/// copy uses, the paths between the GPUs and the sizes swept.
struct PeerRun<'a, 'c> {
    ctx: &'a RunContext<'c>,
    runner: &'a mut dyn NodeCopyRunner,
    buffers: PeerBuffers,
    paths: Paths,
    sizes: Vec<u64>,
}

impl PeerRun<'_, '_> {
    fn largest(&self) -> u64 {
        *self.sizes.last().expect("requires() checked the sweep")
    }

    /// Every ordered pair (places in the run), sources in order.
    fn pairs(&self) -> Vec<(usize, usize)> {
        let gpus = self.paths.ordinals.len();
        (0..gpus)
            .flat_map(|src| (0..gpus).filter(move |&dst| dst != src).map(move |dst| (src, dst)))
            .collect()
    }

    /// One way, every ordered pair, over the sweep (Rust kernels), then the twins at the largest
    /// size; the largest size goes into the matrices. The matrices, each pair's sweep series,
    /// and whether Ctrl-C stopped the sweep (then nothing more is measured).
    fn one_way_sweeps(&mut self) -> Result<(Matrices, Vec<Series>, bool)> {
        let implementations = self.runner.implementations().to_vec();
        let (mut matrices, mut sweeps) = (Matrices::new(), Vec::new());
        let pairs = self.pairs();
        let planned = pairs.len() * self.sizes.len() + 3;
        for (pair_index, &pair) in pairs.iter().enumerate() {
            let first = (pair_index * self.sizes.len(), planned);
            if !self.pair_sweep(pair, first, &mut sweeps, &mut matrices)? {
                return Ok((matrices, sweeps, true));
            }
            self.pair_twins(pair, &implementations, &mut matrices)?;
        }
        Ok((matrices, sweeps, false))
    }

    /// The pair's one-way copies over the sweep, points `first..` of `planned`; false if
    /// Ctrl-C stopped it. The first pair advances the progress bar a step per size.
    fn pair_sweep(
        &mut self,
        (src, dst): (usize, usize),
        (first, planned): (usize, usize),
        sweeps: &mut Vec<Series>,
        matrices: &mut Matrices,
    ) -> Result<bool> {
        let (src_gpu, dst_gpu) = (self.paths.ordinals[src], self.paths.ordinals[dst]);
        let series = sweeps.len();
        for test in PeerTest::ONE_WAY {
            sweeps.push(Series::new(
                test.key(Implementation::Rust, Devices::Pair { src, dst }),
                format!("{} · GPU {src_gpu} → GPU {dst_gpu}", test.label()),
            ));
        }
        let largest = self.largest();
        for (done, bytes) in self.sizes.clone().into_iter().enumerate() {
            if self.ctx.stop_before(first + done, planned) {
                return Ok(false);
            }
            self.ctx
                .progress
                .set_message(format!("peer GPU {src_gpu} → GPU {dst_gpu}, {} MiB", bytes >> 20));
            for (index, test) in PeerTest::ONE_WAY.into_iter().enumerate() {
                let at = PointKey::Value((bytes >> 20) as i64);
                let point = self.one_way(test, Implementation::Rust, (src, dst), bytes, at)?;
                if bytes == largest {
                    let mut cell = point.clone();
                    cell.at = PointKey::Pair { src, dst };
                    matrix_of(matrices, index, test, Implementation::Rust).points.push(cell);
                }
                sweeps[series + index].points.push(point);
            }
            if first == 0 {
                self.ctx.progress.inc(1);
            }
        }
        Ok(true)
    }

    /// The pair's kernel copies by the twins of the Rust kernels, at the largest size.
    fn pair_twins(
        &mut self,
        (src, dst): (usize, usize),
        implementations: &[Implementation],
        matrices: &mut Matrices,
    ) -> Result<()> {
        let largest = self.largest();
        for &implementation in implementations.iter().filter(|&&i| i != Implementation::Rust) {
            for (index, test) in PeerTest::ONE_WAY.into_iter().enumerate().filter(|(_, t)| t.is_kernel()) {
                let at = PointKey::Pair { src, dst };
                let point = self.one_way(test, implementation, (src, dst), largest, at)?;
                matrix_of(matrices, index, test, implementation).points.push(point);
            }
        }
        Ok(())
    }

    /// One copy from `src` to `dst` of `bytes`, timed on the issuing GPU's stream, then checked.
    fn one_way(
        &mut self,
        test: PeerTest,
        implementation: Implementation,
        (src, dst): (usize, usize),
        bytes: u64,
        at: PointKey,
    ) -> Result<Point> {
        if let Some(why) = kernel_waiver(&self.paths, test, src, dst) {
            return Ok(Point::unmeasured(at, Status::Waived(why)));
        }
        let n = (bytes / 4) as usize;
        self.buffers.clear(self.runner, dst, src)?;
        let copy = peer_copy(&self.buffers, test, implementation, (src, dst), n)?;
        let times = self.runner.time(&copy, self.ctx.settings)?;
        let failure = self.buffers.check(self.runner, dst, src, n)?;
        Ok(
            Point::timed(at, &Metric::Bandwidth, Work::bytes(n as u64, bytes), &times, failure)
                .unwrap_or_else(|| Point::unmeasured(at, Status::Failed("no finite time".into()))),
        )
    }

    /// Every unordered pair both ways at once, a matrix per test of [`PeerTest::BOTH_WAYS`].
    fn both_ways_at_once(&mut self) -> Result<Vec<Series>> {
        self.ctx.progress.set_message("peer: both directions at once");
        let mut both_ways: Vec<Series> = PeerTest::BOTH_WAYS
            .iter()
            .map(|&t| matrix_series(t, Implementation::Rust))
            .collect();
        let largest = self.largest();
        for (a, b) in self.pairs().into_iter().filter(|(a, b)| a < b) {
            for (index, test) in PeerTest::BOTH_WAYS.into_iter().enumerate() {
                let points = self.both_directions(test, (a, b), largest)?;
                both_ways[index].points.extend(points);
            }
        }
        self.ctx.progress.inc(1);
        Ok(both_ways)
    }

    /// Every other GPU into each, and each into every other, at once: a series per test and GPU.
    fn hubs_at_once(&mut self) -> Result<Vec<Series>> {
        self.ctx.progress.set_message("peer: all into one, one into all");
        let largest = self.largest();
        let mut hubs = Vec::new();
        for test in PeerTest::HUB {
            for (hub, &hub_gpu) in self.paths.ordinals.clone().iter().enumerate() {
                let mut series = Series::new(
                    test.key(Implementation::Rust, Devices::One(hub)),
                    format!("{} · GPU {hub_gpu}", test.label()),
                );
                let point = self.hub_copy(test, hub, largest)?;
                series.points.push(point);
                hubs.push(series);
            }
        }
        self.ctx.progress.inc(1);
        Ok(hubs)
    }

    /// The fabric at once: every [`FabricTest`], a series each.
    fn fabric_at_once(&mut self) -> Result<Vec<Series>> {
        self.ctx.progress.set_message("peer: bisection and all to all");
        let largest = self.largest();
        let mut fabric = Vec::new();
        for test in FabricTest::all() {
            fabric.push(self.fabric_copy(test, largest)?);
        }
        self.ctx.progress.inc(1);
        Ok(fabric)
    }
}

/// A matrix series of `test` by `implementation`: kernels name their implementation.
fn matrix_series(test: PeerTest, implementation: Implementation) -> Series {
    let key = test.key(implementation, Devices::All);
    let label = if test.is_kernel() {
        format!("{} · {}", test.label(), implementation.label())
    } else {
        test.label().to_string()
    };
    Series::new(key, label)
}

/// The matrix of `test` (at `index` of [`PeerTest::ONE_WAY`]) by `implementation`, made on first use.
fn matrix_of(matrices: &mut Matrices, index: usize, test: PeerTest, implementation: Implementation) -> &mut Series {
    matrices
        .entry((index, implementation))
        .or_insert_with(|| matrix_series(test, implementation))
}

/// Link facts (on the one-way copy-engine cells) and fractions of the theoretical figure on
/// every pair cell of `series`.
fn annotate_pairs<'s>(series: impl Iterator<Item = &'s mut Series>, paths: &Paths) {
    for series in series {
        let facts = PeerTest::of_key(&series.key) == Some(PeerTest::CopyEngine);
        for point in &mut series.points {
            let PointKey::Pair { src, dst } = point.at else {
                continue;
            };
            if let Some(path) = paths.get(src, dst) {
                annotate(point, path, facts);
            }
        }
    }
}

/// The series in the report's order: the matrices first (the heat maps), both directions
/// (where measured), the fabric, then the sweeps and the hubs; each held to what its links
/// carry and its GPUs named by CUDA ordinal.
fn report_series(groups: [Vec<Series>; 5], paths: &Paths) -> Vec<Series> {
    let [matrices, both_ways, fabric, sweeps, hubs] = groups;
    let mut series: Vec<Series> = matrices;
    series.extend(both_ways.into_iter().filter(|s| !s.points.is_empty()));
    series.extend(fabric);
    series.extend(sweeps);
    series.extend(hubs);
    for series in &mut series {
        check_against_links(series, &paths.links);
        renumber(series, &paths.ordinals);
    }
    series
}

/// peer-matrices.json: every matrix and hub vector under nvbandwidth's names, GPUs by ordinal.
fn write_matrices(ctx: &RunContext<'_>, result: &mut ExperimentResult, ordinals: &[usize], largest: u64) -> Result<()> {
    let span = ordinals.iter().max().map_or(0, |&o| o + 1);
    let matrices_json = tables::matrices_json(result, span, largest);
    ctx.write_artifact(
        result,
        "peer-matrices.json",
        "every test's source × destination matrix and every all-to-one / one-to-all vector, GB/s (median), \
         under nvbandwidth's test names",
        false,
        matrices_json.as_bytes(),
    )
}

/// "GPU 0 → GPU 1: NVLink, 18 links, 477 GB/s per direction (NVML); peer access, native atomics, rank 0".
fn describe_path(src: usize, dst: usize, path: &PairPath, nvml_missing: Option<&str>) -> String {
    let link = match (path.nvlink_links, path.nvlink_gbps, nvml_missing) {
        (Some(links), Some(gbps), _) => format!("NVLink, {links} links, {gbps:.0} GB/s theoretical per direction"),
        (_, _, Some(why)) => format!("link unknown (NVML: {why})"),
        _ => "no NVLink route (NVML): PCIe or through the host".into(),
    };
    let a = &path.attributes;
    let access = if a.access_supported {
        "peer access"
    } else {
        "no peer access (copies go through the host)"
    };
    let atomics = if a.native_atomics {
        "native atomics"
    } else {
        "no native atomics"
    };
    format!(
        "GPU {src} → GPU {dst}: {link}; {access}, {atomics}, performance rank {}",
        a.performance_rank
    )
}

/// Adds the pair's facts (on copy-engine cells) and the fraction of the NVLink figure.
fn annotate(point: &mut Point, path: &PairPath, facts: bool) {
    if facts {
        let flag = |b: bool| if b { 1.0 } else { 0.0 };
        point.set_extra(PEER_ACCESS, flag(path.attributes.access_supported));
        point.set_extra(NATIVE_ATOMICS, flag(path.attributes.native_atomics));
        point.set_extra(PERFORMANCE_RANK, path.attributes.performance_rank as f64);
        if let Some(links) = path.nvlink_links {
            point.set_extra(NVLINK_LINKS, links as f64);
        }
        if let Some(gbps) = path.nvlink_gbps {
            point.set_extra(NVLINK_GBPS, gbps);
        }
    }
    if let (Some(gbps), Some(median)) = (path.nvlink_gbps, point.median()) {
        point.set_extra(OF_NVLINK, 100.0 * median / gbps);
    }
}

/// `test`'s copy of the first `n` floats of GPU `src`'s source into GPU `dst`'s array for it,
/// issued where `test` issues it: a copy engine, or `implementation`'s `vector_copy` (its default grid).
fn peer_copy(
    buffers: &PeerBuffers,
    test: PeerTest,
    implementation: Implementation,
    (src, dst): (usize, usize),
    n: usize,
) -> Result<NodeCopy> {
    let (issuer, from, to) = (issuer(test, src, dst), buffers.source(src), buffers.received(dst, src)?);
    Ok(if test.is_kernel() {
        NodeCopy::Kernel {
            issuer,
            implementation,
            from,
            to,
            start: 0,
            count: n,
            blocks: None,
        }
    } else {
        NodeCopy::Engine {
            issuer,
            from,
            to,
            start: 0,
            count: n,
        }
    })
}

/// "Bisection pairs GPU 0 ↔ GPU 4, ...": the partners by ordinal (and who sits out with an odd count).
fn bisection_setup(ordinals: &[usize]) -> String {
    let pairs: Vec<String> = FabricPattern::BisectionUp
        .copies(ordinals.len())
        .into_iter()
        .map(|(a, b)| format!("GPU {} ↔ GPU {}", ordinals[a], ordinals[b]))
        .collect();
    let mut text = format!(
        "bisection pairs {}; all to all makes {} copies at once",
        pairs.join(", "),
        ordinals.len() * ordinals.len().saturating_sub(1)
    );
    if ordinals.len() % 2 == 1
        && let Some(last) = ordinals.last()
    {
        text.push_str(&format!("; GPU {last} sits the bisection out"));
    }
    text
}

/// The copies (source, destination; places in the run) that made `point` of `series`: one for a pair's
/// figure, the hub's for all-to-one / one-to-all, the pattern's for a fabric test's total.
fn copies_of(series: &Series, point: &Point, gpus: usize) -> Vec<(usize, usize)> {
    match (series.key.devices, point.at) {
        (_, PointKey::Pair { src, dst }) | (Devices::Pair { src, dst }, _) => vec![(src, dst)],
        (Devices::One(hub), _) => {
            let into_hub = matches!(
                PeerTest::of_key(&series.key),
                Some(PeerTest::CopyEngineAllToOne | PeerTest::PushAllToOne)
            );
            (0..gpus)
                .filter(|&k| k != hub)
                .map(|k| if into_hub { (k, hub) } else { (hub, k) })
                .collect()
        }
        (Devices::All, PointKey::Value(_)) => FabricTest::of_key(&series.key)
            .map(|t| t.pattern.copies(gpus))
            .unwrap_or_default(),
    }
}

/// Fails every point of `series` (keyed by place in the run) whose figure the links cannot carry.
fn check_against_links(series: &mut Series, links: &LinkFigures) {
    let gpus = links.routes.len();
    for index in 0..series.points.len() {
        let copies = copies_of(series, &series.points[index], gpus);
        if let Some(ceiling) = links.of_copies(&copies) {
            link_ceilings::check(&mut series.points[index], &ceiling);
        }
    }
}

impl PeerRun<'_, '_> {
    /// `test`'s copies all at once: a point for the total (at the size, beside the links' theoretical
    /// figure for the whole set), then one per copy (at its pair: its own figure while the others run).
    /// Every copy is checked; one that fails fails the total too.
    fn fabric_copy(&mut self, test: FabricTest, bytes: u64) -> Result<Series> {
        let copies = test.pattern.copies(self.runner.gpus());
        let mut series = Series::new(test.key(), test.label());
        let at = PointKey::Value((bytes >> 20) as i64);
        if let Some(why) = copies
            .iter()
            .find_map(|&(src, dst)| kernel_waiver(&self.paths, test.copy, src, dst))
        {
            series.points.push(Point::unmeasured(at, Status::Waived(why)));
            return Ok(series);
        }
        for &(src, dst) in &copies {
            self.buffers.clear(self.runner, dst, src)?;
        }
        let samples = self.run_together(test.copy, &copies, bytes)?;
        let n = (bytes / 4) as usize;
        let mut failures = Vec::with_capacity(copies.len());
        for &(src, dst) in &copies {
            failures.push(self.buffers.check(self.runner, dst, src, n)?);
        }
        let first_failure = failures.iter().flatten().next().cloned();
        let count = copies.len() as u64;
        let mut total = Point::measured(
            at,
            &samples.total,
            Work::bytes(n as u64 * count, bytes * count),
            first_failure.clone(),
        )
        .unwrap_or_else(|| Point::unmeasured(at, Status::Failed("no finite figure".into())));
        if let (Some(theoretical), Some(median)) = (self.paths.links.of_copies(&copies), total.median()) {
            total.set_extra(FABRIC_GBPS, theoretical.gbps);
            total.set_extra(OF_FABRIC, 100.0 * median / theoretical.gbps);
        }
        series.points.push(total);
        for (index, &(src, dst)) in copies.iter().enumerate() {
            let pair = PointKey::Pair { src, dst };
            let failure = failures[index].clone().or_else(|| {
                first_failure
                    .as_ref()
                    .map(|_| "another copy of the set failed its check".to_string())
            });
            let mut point = Point::measured(pair, &samples.lanes[index], Work::bytes(n as u64, bytes), failure)
                .unwrap_or_else(|| Point::unmeasured(pair, Status::Failed("no finite figure".into())));
            if let Some(path) = self.paths.get(src, dst) {
                annotate(&mut point, path, false);
            }
            series.points.push(point);
        }
        Ok(series)
    }

    /// Copies `a → b` and `b → a` at once; a point for each direction (its own figure while
    /// the other runs), with the total of both on each.
    fn both_directions(&mut self, test: PeerTest, (a, b): (usize, usize), bytes: u64) -> Result<Vec<Point>> {
        let directions = [(a, b), (b, a)];
        let waiver = directions
            .iter()
            .find_map(|&(src, dst)| kernel_waiver(&self.paths, test, src, dst));
        if let Some(why) = waiver {
            return Ok(directions
                .iter()
                .map(|&(src, dst)| Point::unmeasured(PointKey::Pair { src, dst }, Status::Waived(why.clone())))
                .collect());
        }
        for &(src, dst) in &directions {
            self.buffers.clear(self.runner, dst, src)?;
        }
        let copies: Vec<(usize, usize)> = directions.to_vec();
        let samples = self.run_together(test, &copies, bytes)?;
        let n = (bytes / 4) as usize;
        let mut failures = Vec::new();
        for &(src, dst) in &directions {
            failures.push(self.buffers.check(self.runner, dst, src, n)?);
        }
        let all_ok = failures.iter().all(Option::is_none);
        let total = Summary::of(&samples.total).map(|s| s.median);
        let mut points = Vec::new();
        for (index, &(src, dst)) in directions.iter().enumerate() {
            let at = PointKey::Pair { src, dst };
            let failure = failures[index]
                .clone()
                .or_else(|| (!all_ok).then(|| "the copy in the other direction failed its check".to_string()));
            let mut point = Point::measured(at, &samples.lanes[index], Work::bytes(n as u64, bytes), failure)
                .unwrap_or_else(|| Point::unmeasured(at, Status::Failed("no finite figure".into())));
            if let Some(total) = total {
                point.set_extra(BOTH_TOTAL, total);
            }
            points.push(point);
        }
        Ok(points)
    }

    /// Every other GPU into `hub`, or `hub` into every other, at once: one point, the total.
    fn hub_copy(&mut self, test: PeerTest, hub: usize, bytes: u64) -> Result<Point> {
        let at = PointKey::Value((bytes >> 20) as i64);
        let into_hub = matches!(test, PeerTest::CopyEngineAllToOne | PeerTest::PushAllToOne);
        let copies: Vec<(usize, usize)> = (0..self.runner.gpus())
            .filter(|&k| k != hub)
            .map(|k| if into_hub { (k, hub) } else { (hub, k) })
            .collect();
        if let Some(why) = copies
            .iter()
            .find_map(|&(src, dst)| kernel_waiver(&self.paths, test, src, dst))
        {
            return Ok(Point::unmeasured(at, Status::Waived(why)));
        }
        for &(src, dst) in &copies {
            self.buffers.clear(self.runner, dst, src)?;
        }
        let samples = self.run_together(test, &copies, bytes)?;
        let n = (bytes / 4) as usize;
        let mut failure = None;
        for &(src, dst) in &copies {
            if let Some(why) = self.buffers.check(self.runner, dst, src, n)? {
                failure = Some(why);
                break;
            }
        }
        let copies_n = copies.len() as u64;
        Ok(Point::measured(
            at,
            &samples.total,
            Work::bytes(n as u64 * copies_n, bytes * copies_n),
            failure,
        )
        .unwrap_or_else(|| Point::unmeasured(at, Status::Failed("no finite figure".into()))))
    }

    /// Runs `copies` (source, destination) at once, each on a stream of its own on its issuing
    /// GPU (Rust kernels for kernel copies), released by a latch on the run's first GPU.
    fn run_together(&mut self, test: PeerTest, copies: &[(usize, usize)], bytes: u64) -> Result<ConcurrentSamples> {
        let n = (bytes / 4) as usize;
        let copies = copies
            .iter()
            .map(|&pair| peer_copy(&self.buffers, test, Implementation::Rust, pair, n))
            .collect::<Result<Vec<NodeCopy>>>()?;
        self.runner.time_together(&copies, 0, self.ctx.settings)
    }
}

#[cfg(test)]
mod tests {
    use super::{PeerTest, renumber};
    use crate::report::{Devices, Point, PointKey, Series, Status};
    use crate::testbed::Implementation;

    #[test]
    fn series_name_gpus_by_ordinal_not_by_place_in_the_run() {
        // `--device 0,2`: places 0 and 1 are GPUs 0 and 2.
        let ordinals = [0, 2];
        let mut matrix = Series::of(PeerTest::CopyEngine.key(Implementation::Rust, Devices::All));
        matrix
            .points
            .push(Point::unmeasured(PointKey::Pair { src: 1, dst: 0 }, Status::Ok));
        renumber(&mut matrix, &ordinals);
        assert_eq!(matrix.key.devices, Devices::All);
        assert_eq!(matrix.points[0].at, PointKey::Pair { src: 2, dst: 0 });
        let mut sweep = Series::of(PeerTest::Pull.key(Implementation::Rust, Devices::Pair { src: 0, dst: 1 }));
        sweep.points.push(Point::unmeasured(PointKey::Value(4), Status::Ok));
        renumber(&mut sweep, &ordinals);
        assert_eq!(sweep.key.devices, Devices::Pair { src: 0, dst: 2 });
        assert_eq!(sweep.points[0].at, PointKey::Value(4));
        let mut hub = Series::of(PeerTest::CopyEngineAllToOne.key(Implementation::Rust, Devices::One(1)));
        renumber(&mut hub, &ordinals);
        assert_eq!(hub.key.devices, Devices::One(2));
    }

    #[test]
    fn every_figure_of_eight_gpus_is_held_to_what_its_copies_links_carry() {
        use super::node_fixtures::{LINK_GBPS, node_result};
        use super::{FabricPattern, FabricTest, LinkFigures, check_against_links};
        let links = LinkFigures {
            routes: (0..8)
                .map(|s| (0..8).map(|d| (s != d).then_some(LINK_GBPS)).collect())
                .collect(),
            gpu_nvlink: vec![Some(LINK_GBPS); 8],
            pcie: vec![Some(63.0); 8],
        };
        let mut result = node_result(8, (None, 1.0));
        for series in &mut result.series {
            check_against_links(series, &links);
        }
        assert!(result.failures().next().is_none(), "380 GB/s copies fit 478 GB/s links");
        // A bisection total past 8 × 478 GB/s, a copy past 478, and a hub past one GPU's links.
        let mut result = node_result(8, (None, 1.0));
        // The total (point 0) three times the fixture's, and its first copy (190 GB/s) three times.
        let scale = |p: &mut Point, by: f64| {
            let mut v = p.value.unwrap();
            (v.min, v.median, v.max) = (v.min * by, v.median * by, v.max * by);
            p.value = Some(v);
        };
        for series in &mut result.series {
            if FabricTest::of_key(&series.key).is_some_and(|t| t.pattern == FabricPattern::Bisection) {
                scale(&mut series.points[0], 3.0);
                scale(&mut series.points[1], 3.0);
            }
            if series.key.devices == Devices::One(3) {
                scale(&mut series.points[0], 1.4);
            }
        }
        for series in &mut result.series {
            check_against_links(series, &links);
        }
        let failed: Vec<String> = result
            .failures()
            .map(|(s, p)| format!("{} at {}: {}", s.label, p.at, p.status.reason().unwrap_or("")))
            .collect();
        assert_eq!(failed.len(), 3 * 2 + 4, "{failed:#?}");
        assert!(
            failed
                .iter()
                .any(|f| f.contains("exceeds the links' theoretical 3824 GB/s")),
            "{failed:#?}"
        );
        assert!(
            failed.iter().any(|f| f.contains("the 1 receivers' links, 478 GB/s")),
            "{failed:#?}"
        );
        assert!(
            failed.iter().any(|f| f.contains("the 1 senders' links, 478 GB/s")),
            "{failed:#?}"
        );
    }
}
