//! `link-latency`: how long one dependent load takes when the memory is a
//! peer GPU's (over NVLink or PCIe) or the host's (mapped, over PCIe), beside
//! the reader's own device memory: the `latency` experiment's single-thread
//! `pointer_chase` (the same kernel; it only takes an address), on rings laid
//! out in each kind of memory, in nanoseconds (`%globaltimer`) and SM clocks.
//!
//! Two working sets: one every L2 holds (walked warm: a lap first), one
//! past every L2 (walked cold: no slot twice within a launch), so a reader
//! sees what caching, if any, the remote memory gets.

use std::fmt::Write;

use super::{Experiment, RunContext, Scope};
use crate::error::Result;
use crate::launchers::{ChaseRing, LinkChaseRunner, RingMemory, link_chase_runners};
use crate::reference::{chase_successors, follow_successors};
use crate::report::{
    Axis, Devices, ExperimentResult, Metric, Point, PointKey, Report, Scale, SectionHooks, Series, SeriesKey, Waiver,
    Work, pair_matrix_markdown, point_cell,
};
use crate::testbed::{DeviceUnderTest, Implementation};

pub struct LinkLatency;

/// Working sets: 4 MiB (inside every L2 of the GPUs measured) and 256 MiB (past all of them).
pub const WORKING_SETS: [u64; 2] = [4 << 20, 256 << 20];
/// Bytes per slot: each step its own 128-byte line and, at 256 MiB, 1 Mi links.
fn slot_bytes(working_set: u64) -> u64 {
    if working_set > 64 << 20 { 256 } else { 128 }
}
/// Timed steps per launch.
const STEPS: u32 = 2048;
const SEED: u64 = 0x6c69_6e6b;
pub const CYCLES: &str = "SM clk";

/// Where a ring lives, as seen from the reading GPU (GPUs by CUDA ordinal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RingPlace {
    /// The reader's own device memory.
    Local,
    /// Another GPU's device memory, over the link between them.
    Peer(usize),
    /// Page-locked host memory mapped into the reader's address space.
    Host,
}

impl RingPlace {
    pub fn key(self, implementation: Implementation, reader: usize) -> SeriesKey {
        let (variant, devices) = match self {
            Self::Local => ("device memory", Devices::One(reader)),
            Self::Peer(owner) => (
                "peer memory",
                Devices::Pair {
                    src: owner,
                    dst: reader,
                },
            ),
            Self::Host => ("mapped host memory", Devices::One(reader)),
        };
        SeriesKey::new("pointer_chase", implementation, "u64")
            .variant(variant)
            .on(devices)
    }

    fn label(self, reader: usize) -> String {
        match self {
            Self::Local => format!("GPU {reader} reads its own memory"),
            Self::Peer(owner) => format!("GPU {reader} reads GPU {owner}'s memory"),
            Self::Host => format!("GPU {reader} reads mapped host memory"),
        }
    }
}

/// (SM cycles, ns) per step of a chase, or why the chase is wrong.
type StepFigures = std::result::Result<(f64, f64), String>;

/// A ring a runner laid out at the addresses the reader sees, with its successors for checking.
struct Ring<'r> {
    placed: Box<dyn ChaseRing + 'r>,
    successors: Vec<u32>,
}

impl<'r> Ring<'r> {
    fn build(
        ctx: &RunContext<'_>,
        (runner, reader): (&'r dyn LinkChaseRunner, &'r DeviceUnderTest),
        place: RingPlace,
        working_set: u64,
    ) -> Result<Self> {
        let slot_bytes = slot_bytes(working_set);
        let successors = chase_successors((working_set / slot_bytes) as usize, SEED ^ working_set);
        let memory = match place {
            RingPlace::Local => RingMemory::Own,
            RingPlace::Peer(owner) => RingMemory::Peer(
                ctx.testbed
                    .devices()
                    .iter()
                    .find(|d| d.info().ordinal.0 == owner)
                    .ok_or_else(|| crate::error::Error::InvalidInput(format!("GPU {owner} is not in the run")))?,
            ),
            RingPlace::Host => RingMemory::MappedHost,
        };
        Ok(Self {
            placed: runner.place_ring(reader, memory, &successors, slot_bytes)?,
            successors,
        })
    }

    /// Chases from `slot`: `warmup` untimed and `count` timed steps; the slot reached and
    /// (cycles, ns) per timed step, or a failure if the chase ended elsewhere.
    fn chase(
        &mut self,
        implementation: Implementation,
        slot: u32,
        (warmup, count): (u32, u32),
    ) -> Result<(u32, StepFigures)> {
        let words = self.placed.chase(implementation, slot, (warmup, count))?;
        let end = follow_successors(&self.successors, slot, (warmup + count) as u64);
        let expected = self.placed.slot_address(end);
        let figures = if words[0] != expected {
            Err(format!(
                "the chase ended at {:#x}; the ring's slot {end} is {expected:#x}",
                words[0]
            ))
        } else {
            Ok((words[1] as f64 / count as f64, words[2] as f64 / count as f64))
        };
        Ok((end, figures))
    }

    /// A point per implementation chasing this ring from `dut`, in order, each chase
    /// continuing where the last ended: a warm-up launch (a lap of a ring the L2 holds: every
    /// line in whatever cache holds it), then `--samples` timed launches of [`STEPS`] steps.
    fn measure(
        &mut self,
        ctx: &RunContext<'_>,
        dut: &DeviceUnderTest,
        implementations: &[Implementation],
        working_set: u64,
    ) -> Result<Vec<Point>> {
        let warm = working_set <= dut.info().l2_cache_bytes.max(0) as u64;
        let mut slot = 0u32;
        let mut points = Vec::with_capacity(implementations.len());
        for &implementation in implementations {
            let lap = if warm { self.successors.len() as u32 } else { 0 };
            slot = self.chase(implementation, slot, (lap, 1))?.0;
            let (cycles, ns, failure) = self.timed_chases(ctx, implementation, &mut slot)?;
            points.push(latency_point(working_set, &cycles, &ns, failure));
        }
        Ok(points)
    }

    /// `--samples` timed chases of [`STEPS`] steps from `slot` (left where the last ended):
    /// (SM cycles, ns) per step of each, until one fails its check (then why).
    fn timed_chases(
        &mut self,
        ctx: &RunContext<'_>,
        implementation: Implementation,
        slot: &mut u32,
    ) -> Result<(Vec<f64>, Vec<f64>, Option<String>)> {
        let (mut cycles, mut ns) = (Vec::new(), Vec::new());
        for _ in 0..ctx.settings.samples.max(1) {
            let (end, figures) = self.chase(implementation, *slot, (0, STEPS))?;
            *slot = end;
            match figures {
                Ok((c, t)) => {
                    cycles.push(c);
                    ns.push(t);
                }
                Err(why) => return Ok((cycles, ns, Some(why))),
            }
        }
        Ok((cycles, ns, None))
    }
}

/// The point of one ring at `working_set`: ns per step, the median SM clocks beside it. A
/// failed chase withholds every figure (Point::measured and set_extra see to it).
fn latency_point(working_set: u64, cycles: &[f64], ns: &[f64], failure: Option<String>) -> Point {
    let at = PointKey::Value((working_set >> 20) as i64);
    let work = Work::bytes(STEPS as u64, STEPS as u64 * 8);
    let mut point = Point::measured(at, ns, work, failure.clone()).unwrap_or_else(|| {
        Point::unmeasured(
            at,
            crate::report::Status::Failed(failure.unwrap_or_else(|| "no finite figure".into())),
        )
    });
    if let Some(summary) = crate::stats::Summary::of(cycles) {
        point.set_extra(CYCLES, summary.median);
    }
    point
}

impl Experiment for LinkLatency {
    fn name(&self) -> &'static str {
        "link-latency"
    }
    fn title(&self) -> &'static str {
        "Latency over the links: a peer GPU's memory and host memory beside local device memory"
    }
    fn source(&self) -> &'static str {
        "the guide's 400–600-cycle memory latency (§5.2) carried over NVLink and PCIe; nvbandwidth's latency tests"
    }
    fn scope(&self) -> Scope {
        Scope::Node
    }
    fn points(&self) -> u64 {
        (self::WORKING_SETS.len() * 3) as u64
    }
    fn requires(&self, ctx: &RunContext<'_>) -> std::result::Result<(), String> {
        match ctx.testbed.devices().iter().find(|d| !d.info().can_map_host_memory) {
            Some(d) => Err(format!("GPU {} cannot map host memory", d.info().ordinal)),
            None => Ok(()),
        }
    }

    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let devices = ctx.testbed.devices();
        let axis = Axis::lines("working set (MiB)", Metric::custom("latency", "ns", false)).x_scale(Scale::Log2);
        let mut result = ctx.result(self, axis, "");
        let (mut runners, waived) = link_chase_runners(ctx.device);
        result.waive(waived);
        if devices.len() < 2 {
            result.waived.push(Waiver {
                what: "a peer GPU's memory".into(),
                reason: ctx.testbed.needs_gpus(2).err().unwrap_or_default(),
            });
        }
        let places = ring_places(ctx, &mut result, &mut runners)?;
        let implementations: Vec<Implementation> = runners.iter().flat_map(|r| r.implementations().to_vec()).collect();
        result.series.extend(ring_series(&places, &implementations));
        let points = WORKING_SETS
            .iter()
            .flat_map(|&working_set| places.iter().map(move |&place| (working_set, place)));
        for (index, (working_set, (reader, gpu, place))) in points.enumerate() {
            if ctx.stop_before(index, places.len() * WORKING_SETS.len()) {
                break;
            }
            ctx.progress.set_message(format!(
                "link-latency: {} , {} MiB",
                place.label(gpu),
                working_set >> 20
            ));
            chase_place(ctx, &mut result, &runners, (&devices[reader], gpu, place), working_set)?;
            // The bar counts the first GPU's places only.
            if reader == 0 {
                ctx.progress.inc(1);
            }
        }
        drop(runners); // and the peer access they enabled
        result.setup.push(setup_text(ctx.settings.samples));
        Ok(result)
    }
}

/// Every runner's points of one ring at `working_set`, read by `dut` (CUDA ordinal `gpu`) from
/// `place`, each added to its series.
fn chase_place(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    runners: &[Box<dyn LinkChaseRunner>],
    (dut, gpu, place): (&DeviceUnderTest, usize, RingPlace),
    working_set: u64,
) -> Result<()> {
    for runner in runners {
        let mut ring = Ring::build(ctx, (runner.as_ref(), dut), place, working_set)?;
        let points = ring.measure(ctx, dut, runner.implementations(), working_set)?;
        for (&implementation, point) in runner.implementations().iter().zip(points) {
            let key = place.key(implementation, gpu);
            if let Some(series) = result.series.iter_mut().find(|s| s.key == key) {
                series.points.push(point);
            }
        }
    }
    Ok(())
}

/// A ring the run chases: (the reader's place in the testbed, its CUDA ordinal, the ring's place).
type RingAt = (usize, usize, RingPlace);

/// A series per ring and implementation, in order.
fn ring_series(places: &[RingAt], implementations: &[Implementation]) -> Vec<Series> {
    let mut series = Vec::new();
    for &(_, gpu, place) in places {
        for &implementation in implementations {
            series.push(Series::new(
                place.key(implementation, gpu),
                format!("{} · {}", place.label(gpu), implementation.label()),
            ));
        }
    }
    series
}

/// How the rings are laid out and walked.
fn setup_text(samples: u32) -> String {
    format!(
        "one thread, {STEPS} dependent 8-byte loads per launch through a random cyclic ring; slots of 128 bytes \
         (256 at 256 MiB); rings inside the L2 walked warm (a lap first), larger ones cold; host rings pinned \
         on the reader's NUMA node where the host has several; {samples} launches per point"
    )
}

/// Every ring the run chases, in order: for each GPU its own memory, each peer it can read (peer
/// access enabled by the runners, which hold it; a waiver for each it cannot), then host memory.
fn ring_places(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    runners: &mut [Box<dyn LinkChaseRunner>],
) -> Result<Vec<RingAt>> {
    let devices = ctx.testbed.devices();
    let mut places = Vec::new();
    for (index, reader) in devices.iter().enumerate() {
        let gpu = reader.info().ordinal.0;
        places.push((index, gpu, RingPlace::Local));
        for owner in devices.iter().filter(|o| o.info().ordinal.0 != gpu) {
            let owner_gpu = owner.info().ordinal.0;
            let mut reached = true;
            for runner in runners.iter_mut() {
                reached &= runner.reach_peer(reader, owner)?;
            }
            if reached {
                places.push((index, gpu, RingPlace::Peer(owner_gpu)));
            } else {
                result.waived.push(Waiver {
                    what: format!("GPU {gpu} reading GPU {owner_gpu}'s memory"),
                    reason: "no peer access between them".into(),
                });
            }
        }
        places.push((index, gpu, RingPlace::Host));
    }
    Ok(places)
}

impl SectionHooks for LinkLatency {
    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        let Some(&big) = result.values().iter().max() else {
            return Vec::new();
        };
        let ns = |place: RingPlace| {
            result
                .series(&place.key(Implementation::Rust, 0))
                .and_then(|s| s.median_at(big))
        };
        let (Some(local), Some(host)) = (ns(RingPlace::Local), ns(RingPlace::Host)) else {
            return Vec::new();
        };
        let mut text = format!(
            "At {big} MiB, one dependent load from GPU 0's own memory takes {local:.0} ns; from mapped host memory \
             {host:.0} ns ({:.1}x)",
            host / local
        );
        if let Some(peer) = ns(RingPlace::Peer(1)) {
            let _ = write!(text, "; from GPU 1's memory {peer:.0} ns ({:.1}x)", peer / local);
        }
        text.push_str(
            ". Bandwidth over a link hides this latency with thousands of loads in flight; a kernel that \
             chases pointers across it pays it on every step.",
        );
        vec![text]
    }

    fn tables(&self, result: &ExperimentResult, _report: &Report) -> Option<String> {
        let sets = result.values();
        let mut out = String::new();
        let _ = write!(out, "| memory read |");
        for set in &sets {
            let _ = write!(out, " {set} MiB: ns | {set} MiB: SM clk |");
        }
        let _ = writeln!(out, "\n|---|{}", "---:|".repeat(2 * sets.len()));
        for series in result.series.iter().filter(|s| !is_peer(s)) {
            let _ = write!(out, "| {} |", series.label);
            for &set in &sets {
                let point = series.at(set);
                let _ = write!(out, " {} | {} |", point_cell(point), cycles_cell(point));
            }
            let _ = writeln!(out);
        }
        let _ = writeln!(out, "\nCells: median (min–max over the launches) per load.");
        out.push_str(&peer_matrices(result, &sets));
        Some(out)
    }
}

/// Whether `series` reads a peer GPU's memory (keyed by the pair: owner, reader).
fn is_peer(series: &Series) -> bool {
    matches!(series.key.devices, Devices::Pair { .. })
}

/// The median SM clocks per load of a point whose check passed, or a dash.
fn cycles_cell(point: Option<&Point>) -> String {
    point
        .filter(|p| p.status.is_ok())
        .and_then(|p| p.extra.get(CYCLES))
        .map_or_else(|| "—".to_string(), |c| format!("{c:.0}"))
}

/// The peer reads as source × destination matrices (as `peer` shows its copies), one per
/// implementation and working set: rows the GPU whose memory is read, columns the reader,
/// each cell ns per load with its SM clocks beside; empty where nothing was measured.
fn peer_matrices(result: &ExperimentResult, sets: &[i64]) -> String {
    let peers: Vec<&Series> = result.series.iter().filter(|s| is_peer(s)).collect();
    let mut implementations: Vec<Implementation> = Vec::new();
    for series in &peers {
        if !implementations.contains(&series.key.implementation) {
            implementations.push(series.key.implementation);
        }
    }
    let mut gpus: Vec<usize> = result
        .series
        .iter()
        .flat_map(|s| match s.key.devices {
            Devices::One(gpu) => vec![gpu],
            Devices::Pair { src, dst } => vec![src, dst],
            Devices::All => Vec::new(),
        })
        .collect();
    gpus.sort_unstable();
    gpus.dedup();
    let mut out = String::new();
    for implementation in implementations {
        for &set in sets {
            let mut matrix = Series::of(RingPlace::Peer(0).key(implementation, 0).on(Devices::All));
            for series in peers.iter().filter(|s| s.key.implementation == implementation) {
                let (Devices::Pair { src, dst }, Some(point)) = (series.key.devices, series.at(set)) else {
                    continue;
                };
                let mut cell = point.clone();
                cell.at = PointKey::Pair { src, dst };
                matrix.points.push(cell);
            }
            if matrix.points.is_empty() {
                continue;
            }
            let cycles = |src, dst| {
                let point = matrix.points.iter().find(|p| p.at == PointKey::Pair { src, dst })?;
                let clocks = point.extra.get(CYCLES).filter(|_| point.status.is_ok())?;
                Some(format!("{clocks:.0} SM clk"))
            };
            let _ = write!(
                out,
                "\n**A peer GPU's memory at {set} MiB, {}**: ns per load (SM clocks), rows the GPU whose memory \
                 is read, columns the reader.\n\n{}",
                implementation.label(),
                pair_matrix_markdown(&matrix, &gpus, &cycles)
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{CYCLES, LinkLatency, RingPlace, STEPS, slot_bytes};
    use crate::report::{
        Axis, Devices, ExperimentResult, Metric, Point, PointKey, Report, SectionHooks, Series, Status, Work,
    };
    use crate::run_settings::RunSettings;
    use crate::testbed::Implementation;

    #[test]
    fn rings_keep_a_line_per_step_and_peers_key_by_owner_and_reader() {
        assert_eq!(slot_bytes(4 << 20), 128);
        assert_eq!((256u64 << 20) / slot_bytes(256 << 20), 1 << 20);
        let key = RingPlace::Peer(1).key(Implementation::Rust, 0);
        assert_eq!(key.devices, Devices::Pair { src: 1, dst: 0 });
        assert_ne!(
            RingPlace::Local.key(Implementation::Rust, 0),
            RingPlace::Host.key(Implementation::Rust, 0)
        );
    }

    /// A run on 8 GPUs (made here, no GPU): GPU g reads its own memory in 600 + g ns, GPU
    /// `owner`'s in 1000 + 10 × owner + reader ns (GPU 2 reading GPU 5's fails its check), and
    /// host memory in 2000 ns; SM clocks twice the ns.
    fn eight_gpu_result() -> ExperimentResult {
        let mut series = Vec::new();
        let point = |mib: i64, ns: f64, failure: Option<String>| {
            let work = Work::bytes(STEPS as u64, STEPS as u64 * 8);
            Point::measured(PointKey::Value(mib), &[ns, ns, ns], work, failure)
                .unwrap()
                .with_extra(CYCLES, 2.0 * ns)
        };
        for reader in 0..8 {
            let mut places = vec![(RingPlace::Local, 600.0 + reader as f64)];
            for owner in (0..8).filter(|&o| o != reader) {
                places.push((RingPlace::Peer(owner), 1000.0 + (10 * owner + reader) as f64));
            }
            places.push((RingPlace::Host, 2000.0));
            for (place, ns) in places {
                let mut s = Series::new(place.key(Implementation::Rust, reader), place.label(reader));
                let failure = (place == RingPlace::Peer(5) && reader == 2).then(|| "the chase ended elsewhere".into());
                for mib in [4, 256] {
                    s.points.push(point(mib, ns, failure.clone()));
                }
                series.push(s);
            }
        }
        ExperimentResult {
            name: "link-latency".into(),
            title: String::new(),
            source: String::new(),
            device: None,
            status: Status::Ok,
            axis: Axis::lines("working set (MiB)", Metric::custom("latency", "ns", false)),
            byte_counting: String::new(),
            setup: vec![],
            series,
            waived: vec![],
            notes: vec![],
            artifacts: vec![],
        }
    }

    #[test]
    fn eight_gpus_read_each_others_memory_in_src_by_dst_matrices() {
        let result = eight_gpu_result();
        let report = Report::new(vec![], &RunSettings::default(), vec![], vec![], vec![]);
        let text = LinkLatency.tables(&result, &report).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // The list keeps each GPU's own and host memory: 16 rows, no peer row.
        let list_rows = lines
            .iter()
            .take_while(|l| !l.starts_with("Cells"))
            .filter(|l| l.starts_with("| GPU"))
            .count();
        assert_eq!(list_rows, 16, "{text}");
        assert!(!text.contains("reads GPU 5's memory"), "{text}");
        assert!(
            text.contains("| GPU 3 reads its own memory | 603 (603–603) | 1206 |"),
            "{text}"
        );
        // One matrix per working set, 8 × 8, rows the owner, columns the reader.
        let headers: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].starts_with("| src \\ dst |"))
            .collect();
        assert_eq!(headers.len(), 2, "{text}");
        assert_eq!(
            lines[headers[0]],
            "| src \\ dst | GPU 0 | GPU 1 | GPU 2 | GPU 3 | GPU 4 | GPU 5 | GPU 6 | GPU 7 |"
        );
        assert!(lines[headers[0] - 2].contains("at 4 MiB"), "{text}");
        let rows = &lines[headers[1] + 2..headers[1] + 10];
        let cells = |row: &str| -> Vec<String> { row.split('|').map(|c| c.trim().to_string()).collect() };
        // GPU 3's memory (row 3) read by GPU 5 (column 5; cells[0] is empty, cells[1] the row's name).
        let row3 = cells(rows[3]);
        assert_eq!(row3[1], "GPU 3");
        assert_eq!(row3[2 + 3], "—", "the diagonal is each GPU's own memory, listed above");
        assert_eq!(row3[2 + 5], "1035 (1035–1035) (2070 SM clk)");
        assert_eq!(cells(rows[7])[2], "1070 (1070–1070) (2140 SM clk)");
        // A failed chase shows no figure, nor its clocks.
        assert_eq!(cells(rows[5])[2 + 2], "**FAILED**");
    }
}
