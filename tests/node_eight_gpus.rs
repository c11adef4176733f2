//! A node of eight GPUs without a GPU: `peer` results made here for 8 GPUs,
//! rendered into report.md (8 × 8 matrices, hubs of 7 peers, no list of 56
//! pairs where a matrix belongs), written and read back as report.json, and
//! two such nodes merged: the node whose GPU 5 is held back is named, with
//! the pairs that make it slow, and the other is not.

mod synthetic_reports;

use ptxsuite::experiments::{PeerTest, hooks};
use ptxsuite::merge::{markdown, merge, summary};
use ptxsuite::report::{
    Axis, Devices, ExperimentResult, Metric, PlotKind, Point, PointKey, Report, Scale, Series, Status, Work,
};
use ptxsuite::run_settings::RunSettings;
use ptxsuite::testbed::Implementation;
use synthetic_reports::device;

const GPUS: usize = 8;
const MIB: i64 = 256;

/// One copy src → dst, GB/s: 380 by copy engines, less by kernels; `held` of it where GPU 5 takes part.
fn figure(copy: PeerTest, src: usize, dst: usize, held: f64) -> f64 {
    let base = match copy {
        PeerTest::Pull => 360.0,
        PeerTest::Push => 350.0,
        _ => 380.0,
    };
    let jitter = 1.0 + 0.002 * ((src * GPUS + dst) % 3) as f64;
    base * jitter * if src == 5 || dst == 5 { held } else { 1.0 }
}

fn point(at: PointKey, gbps: f64, copies: u64) -> Point {
    let bytes = (MIB as u64) << 20;
    Point::measured(
        at,
        &[gbps * 0.99, gbps, gbps * 1.01],
        Work::bytes(copies * bytes / 4, copies * bytes),
        None,
    )
    .unwrap()
}

/// A `peer` result of 8 GPUs: the one-way matrices, the size sweeps of all 56 pairs, all-to-one and one-to-all.
fn peer_result(held: f64) -> ExperimentResult {
    let pairs: Vec<(usize, usize)> = (0..GPUS)
        .flat_map(|s| (0..GPUS).filter(move |&d| d != s).map(move |d| (s, d)))
        .collect();
    let mut series = Vec::new();
    for copy in PeerTest::ONE_WAY {
        let mut matrix = Series::new(copy.key(Implementation::Rust, Devices::All), copy.label());
        for &(src, dst) in &pairs {
            let at = PointKey::Pair { src, dst };
            let mut cell = point(at, figure(copy, src, dst, held), 1);
            if copy == PeerTest::CopyEngine {
                cell = cell
                    .with_extra("peer access (1 = yes)", 1.0)
                    .with_extra("NVLink links", 18.0)
                    .with_extra("NVLink theoretical (GB/s)", 478.0);
            }
            matrix.points.push(cell);
        }
        series.push(matrix);
    }
    for &(src, dst) in &pairs {
        for copy in PeerTest::ONE_WAY {
            let mut sweep = Series::new(
                copy.key(Implementation::Rust, Devices::Pair { src, dst }),
                format!("{} · GPU {src} → GPU {dst}", copy.label()),
            );
            for mib in [4, 64, MIB] {
                let gbps = figure(copy, src, dst, held) * (mib as f64 / MIB as f64).powf(0.05);
                sweep.points.push(point(PointKey::Value(mib), gbps, 1));
            }
            series.push(sweep);
        }
    }
    for test in PeerTest::HUB {
        for hub in 0..GPUS {
            let mut vector = Series::new(
                test.key(Implementation::Rust, Devices::One(hub)),
                format!("{} · GPU {hub}", test.label()),
            );
            let gbps = 420.0 * if hub == 5 { held } else { 1.0 };
            vector.points.push(point(PointKey::Value(MIB), gbps, GPUS as u64 - 1));
            series.push(vector);
        }
    }
    ExperimentResult {
        name: "peer".into(),
        title: "Peer-to-peer copies between GPUs".into(),
        source: "a test".into(),
        device: None,
        status: Status::Ok,
        axis: Axis::lines("size (MiB)", Metric::Bandwidth)
            .x_scale(Scale::Log2)
            .plot(PlotKind::HeatMap),
        byte_counting: "the bytes copied".into(),
        setup: Vec::new(),
        series,
        waived: Vec::new(),
        notes: Vec::new(),
        artifacts: Vec::new(),
    }
}

fn node(host: &str, held: f64) -> Report {
    let devices = (0..GPUS).map(|o| device(o, "NVIDIA H100 80GB HBM3")).collect();
    let mut report = Report::new(
        devices,
        &RunSettings::default(),
        Vec::new(),
        Vec::new(),
        vec![peer_result(held)],
    );
    report.host = host.into();
    report
}

/// The table after the line that starts with `title`.
fn table_after<'t>(text: &'t str, title: &str) -> Vec<&'t str> {
    let start = text.find(title).unwrap_or_else(|| panic!("no {title}"));
    text[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .collect()
}

#[test]
fn report_md_shows_eight_by_eight_matrices_and_every_gpu_once() {
    let report = Report::from_json(&node("node-a", 1.0).to_json(), "report.json").unwrap();
    let md = report.markdown(&hooks);
    let ce = table_after(&md, "**CE copy, one way**");
    assert_eq!(ce.len(), 2 + GPUS);
    assert_eq!(
        ce[0],
        "| src \\ dst | GPU 0 | GPU 1 | GPU 2 | GPU 3 | GPU 4 | GPU 5 | GPU 6 | GPU 7 |"
    );
    for (gpu, row) in ce[2..].iter().enumerate() {
        let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
        assert_eq!(cells.len(), 1 + GPUS, "{row}");
        assert_eq!(cells[1 + gpu], "—", "the diagonal: {row}");
        assert!(
            cells.iter().skip(1).filter(|c| **c != "—").all(|c| c.starts_with("38")),
            "{row}"
        );
    }
    let links = table_after(&md, "**Links**");
    assert_eq!(links.len(), 2 + GPUS, "the links as a matrix, not 56 rows");
    let hubs = table_after(&md, "**Every other GPU at once** (7 peers)");
    assert_eq!(hubs.len(), 2 + GPUS);
    // The sweeps of 56 pairs × 3 copies: a row per size, not 168 columns.
    let sweep = table_after(&md, "**Against size**");
    assert_eq!(sweep.len(), 2 + 3);
    assert!(md.contains("over 56 pairs"), "the headline counts the pairs");
    // No table line a reader cannot take in (prose paragraphs may run long).
    let widest = md
        .lines()
        .filter(|l| l.starts_with('|'))
        .map(|l| l.chars().count())
        .max()
        .unwrap();
    assert!(widest < 260, "a table line of {widest} characters");
}

#[test]
fn a_node_with_one_gpu_held_back_is_named_by_its_pairs() {
    let reports = vec![
        ("results/node-a/report.json".to_string(), node("node-a", 1.0)),
        ("results/node-b/report.json".to_string(), node("node-b", 0.7)),
        ("results/node-c/report.json".to_string(), node("node-c", 1.0)),
    ];
    let merged = merge(&reports, 5.0).unwrap();
    let slow: Vec<&str> = merged.slow_nodes().iter().map(|n| n.name.as_str()).collect();
    assert_eq!(slow, ["node-b"]);
    let node_b = &merged.nodes[1];
    assert_eq!(node_b.gpus.len(), GPUS);
    // Named for every pair with GPU 5 (7 each way × 3 copies), GPU 5's four hubs and the three
    // matrices (a quarter of their cells at 0.7: a geometric mean of 0.91); for nothing else.
    assert_eq!(node_b.slow_series.len(), 42 + 4 + 3, "{:#?}", node_b.slow_series);
    let pair_series: Vec<&str> = node_b
        .slow_series
        .iter()
        .map(|s| s.label.as_str())
        .filter(|l| l.contains(" → "))
        .collect();
    assert_eq!(
        pair_series.len(),
        14 * 3,
        "7 pairs each way × 3 copies: {pair_series:#?}"
    );
    assert!(pair_series.iter().all(|l| l.contains("GPU 5")), "{pair_series:#?}");
    let hubs: Vec<&str> = node_b
        .slow_series
        .iter()
        .map(|s| s.label.as_str())
        .filter(|l| l.ends_with("· GPU 5"))
        .collect();
    assert_eq!(hubs.len(), 4, "{hubs:?}");
    let text = summary(&merged);
    assert!(text.contains("1 slow node beyond 5%: node-b"), "{text}");
    assert!(text.contains("SLOW node-b: peer"), "{text}");
    assert!(markdown(&merged).contains("| **SLOW** node-b |"));
    assert!(merged.nodes[0].slow_series.is_empty() && merged.nodes[2].slow_series.is_empty());
}

#[test]
fn two_eight_gpu_nodes_merge_point_by_point() {
    let reports = vec![
        ("a/report.json".to_string(), node("a", 1.0)),
        ("b/report.json".to_string(), node("b", 1.0)),
    ];
    let merged = merge(&reports, 5.0).unwrap();
    // 3 matrices × 56 cells, 168 sweeps × 3 sizes, 32 hubs.
    assert_eq!(merged.points.len(), 3 * 56 + 168 * 3 + 32);
    assert!(merged.points.iter().all(|p| p.nodes.len() == 2 && p.missing.is_empty()));
    assert!(merged.slow_nodes().is_empty());
}
