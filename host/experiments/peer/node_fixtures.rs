//! A `peer` result of a node made in the tests (no GPU): `gpus` GPUs behind
//! NVSwitches, 478 GB/s of NVLink each, every test of a real run at known
//! figures; one GPU may be held back (its copies at a fraction of the rest).

use super::{
    FABRIC_GBPS, FabricTest, NATIVE_ATOMICS, NVLINK_GBPS, NVLINK_LINKS, OF_FABRIC, PEER_ACCESS, PERFORMANCE_RANK,
    PeerTest,
};
use crate::report::{Axis, Devices, ExperimentResult, Metric, PlotKind, Point, PointKey, Scale, Series, Status, Work};
use crate::testbed::Implementation;

pub const LINK_GBPS: f64 = 478.0;
pub const SIZE_MIB: i64 = 256;

/// The figure of one copy src → dst: 380 GB/s by copy engines, a little less by kernels,
/// `slow.1` of it where `slow.0` sends or receives; each pair a little apart (as real pairs are).
pub fn figure(copy: PeerTest, src: usize, dst: usize, slow: (Option<usize>, f64)) -> f64 {
    let base = match copy {
        PeerTest::Pull => 360.0,
        PeerTest::Push => 350.0,
        _ => 380.0,
    };
    let jitter = 1.0 + 0.001 * ((src * 8 + dst) % 5) as f64;
    let held = if slow.0 == Some(src) || slow.0 == Some(dst) {
        slow.1
    } else {
        1.0
    };
    base * jitter * held
}

fn point(at: PointKey, gbps: f64, copies: u64) -> Point {
    let bytes = (SIZE_MIB as u64) << 20;
    Point::measured(
        at,
        &[gbps * 0.99, gbps, gbps * 1.005],
        Work::bytes(copies * bytes / 4, copies * bytes),
        None,
    )
    .unwrap()
}

/// Every series a run of `peer` on `gpus` GPUs gives (ordinals 0..gpus), GPU `slow.0` held back to `slow.1`.
pub fn node_result(gpus: usize, slow: (Option<usize>, f64)) -> ExperimentResult {
    let pairs: Vec<(usize, usize)> = (0..gpus)
        .flat_map(|s| (0..gpus).filter(move |&d| d != s).map(move |d| (s, d)))
        .collect();
    let mut series = Vec::new();
    for copy in PeerTest::ONE_WAY {
        let mut matrix = Series::new(copy.key(Implementation::Rust, Devices::All), copy.label());
        for &(src, dst) in &pairs {
            let at = PointKey::Pair { src, dst };
            let mut cell = point(at, figure(copy, src, dst, slow), 1);
            if copy == PeerTest::CopyEngine {
                cell = cell
                    .with_extra(PEER_ACCESS, 1.0)
                    .with_extra(NATIVE_ATOMICS, 1.0)
                    .with_extra(PERFORMANCE_RANK, 0.0)
                    .with_extra(NVLINK_LINKS, 18.0)
                    .with_extra(NVLINK_GBPS, LINK_GBPS);
            }
            matrix.points.push(cell);
        }
        series.push(matrix);
    }
    for test in FabricTest::all() {
        let copies = test.pattern.copies(gpus);
        let mut fabric = Series::new(test.key(), test.label());
        let figures: Vec<f64> = copies
            .iter()
            .map(|&(s, d)| figure(test.copy, s, d, slow) / (copies.len() as f64 / 4.0).max(1.0))
            .collect();
        let total: f64 = figures.iter().sum();
        let theoretical = LINK_GBPS * copies.len().min(gpus) as f64;
        fabric.points.push(
            point(PointKey::Value(SIZE_MIB), total, copies.len() as u64)
                .with_extra(FABRIC_GBPS, theoretical)
                .with_extra(OF_FABRIC, 100.0 * total / theoretical),
        );
        for (&(src, dst), &gbps) in copies.iter().zip(&figures) {
            fabric.points.push(point(PointKey::Pair { src, dst }, gbps, 1));
        }
        series.push(fabric);
    }
    for &(src, dst) in &pairs {
        for copy in PeerTest::ONE_WAY {
            let mut sweep = Series::new(
                copy.key(Implementation::Rust, Devices::Pair { src, dst }),
                format!("{} · GPU {src} → GPU {dst}", copy.label()),
            );
            for mib in [1, 16, SIZE_MIB] {
                let gbps = figure(copy, src, dst, slow) * (mib as f64 / SIZE_MIB as f64).powf(0.1);
                sweep.points.push(point(PointKey::Value(mib), gbps, 1));
            }
            series.push(sweep);
        }
    }
    for test in PeerTest::HUB {
        for hub in 0..gpus {
            let mut vector = Series::new(test.key(Implementation::Rust, Devices::One(hub)), test.label());
            let gbps = figure(PeerTest::CopyEngine, hub, hub, slow) * 1.1;
            vector
                .points
                .push(point(PointKey::Value(SIZE_MIB), gbps, gpus as u64 - 1));
            series.push(vector);
        }
    }
    ExperimentResult {
        name: "peer".into(),
        title: "Peer-to-peer copies between GPUs".into(),
        source: String::new(),
        device: None,
        status: Status::Ok,
        axis: Axis::lines("size (MiB)", Metric::Bandwidth)
            .x_scale(Scale::Log2)
            .plot(PlotKind::HeatMap),
        byte_counting: String::new(),
        setup: vec![],
        series,
        waived: vec![],
        notes: vec![],
        artifacts: vec![],
    }
}
