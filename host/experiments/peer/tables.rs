//! How `peer` reads in report.md: the links, one source × destination
//! matrix per test (nvbandwidth's layout), the all-to-one / one-to-all
//! figures, the size sweep; and the same matrices as JSON.

use std::fmt::Write;

use serde_json::{Value, json};

use super::{BOTH_TOTAL, NATIVE_ATOMICS, NVLINK_GBPS, NVLINK_LINKS, OF_NVLINK, PEER_ACCESS, PERFORMANCE_RANK};
use super::{Peer, PeerTest};
use crate::report::{
    Axis, Devices, ExperimentResult, Metric, PlotKind, PlotSpec, PointKey, Report, Scale, SectionHooks, Series,
    generic_table, pair_gpus, pair_matrix, pair_matrix_markdown, point_cell,
};
use crate::testbed::Implementation;

fn matrix_series(result: &ExperimentResult) -> impl Iterator<Item = &Series> {
    result.series.iter().filter(|s| s.key.devices == Devices::All)
}

fn sweep_series(result: &ExperimentResult) -> impl Iterator<Item = &Series> {
    result
        .series
        .iter()
        .filter(|s| matches!(s.key.devices, Devices::Pair { .. }))
}

fn hub_series(result: &ExperimentResult) -> impl Iterator<Item = &Series> {
    result
        .series
        .iter()
        .filter(|s| matches!(s.key.devices, Devices::One(_)))
}

/// The copy-engine matrix: its cells carry the pairs' facts.
fn copy_engine_matrix(result: &ExperimentResult) -> Option<&Series> {
    matrix_series(result).find(|s| PeerTest::of_key(&s.key) == Some(PeerTest::CopyEngine))
}

/// The GPUs (ordinals) the matrices name, in order: every table has a row per GPU of these only.
fn gpus(result: &ExperimentResult) -> Vec<usize> {
    let mut gpus: Vec<usize> = matrix_series(result).flat_map(pair_gpus).collect();
    gpus.sort_unstable();
    gpus.dedup();
    gpus
}

/// A fact of pair `src → dst` from the copy-engine matrix.
fn fact(result: &ExperimentResult, src: usize, dst: usize, name: &str) -> Option<f64> {
    copy_engine_matrix(result)?
        .point(PointKey::Pair { src, dst })?
        .extra
        .get(name)
        .copied()
}

/// A sub-result holding only `series`, drawn and tabled as lines against size.
fn sweep_result(result: &ExperimentResult) -> ExperimentResult {
    let mut sweep = result.clone();
    sweep.series = sweep_series(result).cloned().collect();
    sweep.axis = Axis::lines("size (MiB)", Metric::Bandwidth).x_scale(Scale::Log2);
    sweep.title = "Peer copies against size".into();
    sweep
}

/// `peer-matrices.json`: `{"size_bytes", "unit", "gpus", "matrices": {test: [[src][dst]]}, "vectors": {test: [hub]}}`
/// under nvbandwidth's test names (`null` where nothing was measured), twins under `<name>:<implementation>`;
/// rows and columns are the ordinals `0..gpus` (the run's GPUs).
pub fn matrices_json(result: &ExperimentResult, gpus: usize, size_bytes: u64) -> String {
    let ordinals: Vec<usize> = (0..gpus).collect();
    let mut matrices = serde_json::Map::new();
    for series in matrix_series(result) {
        let Some(test) = PeerTest::of_key(&series.key) else {
            continue;
        };
        let mut name = test.nvbandwidth_name().to_string();
        if test.is_kernel() && series.key.implementation != Implementation::Rust {
            let _ = write!(name, ":{}", series.key.implementation.label());
        }
        matrices.insert(name, json!(pair_matrix(series, &ordinals)));
    }
    let mut vectors = serde_json::Map::new();
    for test in PeerTest::HUB {
        let figures: Vec<Option<f64>> = (0..gpus)
            .map(|hub| {
                hub_series(result)
                    .find(|s| PeerTest::of_key(&s.key) == Some(test) && s.key.devices == Devices::One(hub))
                    .and_then(|s| s.points.first())
                    .and_then(|p| p.median())
            })
            .collect();
        vectors.insert(test.nvbandwidth_name().into(), json!(figures));
    }
    let document: Value = json!({
        "size_bytes": size_bytes,
        "unit": "GB/s",
        "gpus": gpus,
        "matrices": matrices,
        "vectors": vectors,
    });
    serde_json::to_string_pretty(&document).unwrap_or_default()
}

impl SectionHooks for Peer {
    fn headline(&self, result: &ExperimentResult, _report: &Report) -> Option<String> {
        let ce = copy_engine_matrix(result)?;
        let figures: Vec<f64> = ce.points.iter().filter_map(|p| p.median()).collect();
        let lo = figures.iter().copied().reduce(f64::min)?;
        let hi = figures.iter().copied().reduce(f64::max)?;
        let span = if hi - lo < 0.5 {
            format!("{hi:.0}")
        } else {
            format!("{lo:.0}–{hi:.0}")
        };
        Some(format!(
            "copy engines {span} GB/s between GPUs over {} pairs (largest size)",
            figures.len()
        ))
    }

    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        let figure = |test: PeerTest| {
            matrix_series(result)
                .find(|s| PeerTest::of_key(&s.key) == Some(test) && s.key.implementation != Implementation::CudaC)
                .and_then(|s| s.point(PointKey::Pair { src: 0, dst: 1 }))
                .and_then(|p| p.median())
        };
        let (Some(ce), Some(pull), Some(push)) = (
            figure(PeerTest::CopyEngine),
            figure(PeerTest::Pull),
            figure(PeerTest::Push),
        ) else {
            return Vec::new();
        };
        // Which way wins, in words only where the figures can say it (a tie is a tie).
        let margin = 100.0 * (pull.max(push) / pull.min(push) - 1.0);
        let winner = if !(margin.is_finite() && margin >= 0.05) {
            "level".to_string()
        } else {
            format!("{} wins by {margin:.1}%", if pull > push { "pull" } else { "push" })
        };
        let mut text = format!(
            "GPU 0 → GPU 1: the copy engine moves {ce:.0} GB/s; a Rust `vector_copy` on GPU 1 pulling from GPU 0 \
             moves {pull:.0} GB/s and one on GPU 0 pushing into GPU 1 {push:.0} GB/s ({winner})."
        );
        if let Some(link) = fact(result, 0, 1, NVLINK_GBPS) {
            let links = fact(result, 0, 1, NVLINK_LINKS).unwrap_or(0.0);
            let _ = write!(
                text,
                " NVML counts {links:.0} NVLinks between them, {link:.0} GB/s per direction on paper: the copy \
                 engine reaches {:.0}% of it, the faster kernel {:.0}%.",
                100.0 * ce / link,
                100.0 * pull.max(push) / link
            );
        }
        let both = matrix_series(result)
            .find(|s| PeerTest::of_key(&s.key) == Some(PeerTest::CopyEngineBothWays))
            .and_then(|s| s.point(PointKey::Pair { src: 0, dst: 1 }))
            .filter(|p| p.status.is_ok())
            .and_then(|p| p.extra.get(BOTH_TOTAL).copied());
        if let Some(both) = both {
            let _ = write!(
                text,
                " Both directions at once: {both:.0} GB/s in all ({:.2}x one way).",
                both / ce
            );
        }
        vec![text]
    }

    fn tables(&self, result: &ExperimentResult, _report: &Report) -> Option<String> {
        let gpus = gpus(result);
        let mut out = String::new();
        let _ = writeln!(out, "**Links** (the driver's peer attributes; NVML's NVLinks)\n");
        let _ = writeln!(
            out,
            "| pair | peer access | native atomics | rank | NVLinks | theoretical GB/s |"
        );
        let _ = writeln!(out, "|---|---|---|---:|---:|---:|");
        let yes = |v: Option<f64>| match v {
            Some(v) if v > 0.5 => "yes",
            Some(_) => "no",
            None => "—",
        };
        let number = |v: Option<f64>| v.map_or_else(|| "—".to_string(), |v| format!("{v:.0}"));
        for &src in &gpus {
            for dst in gpus.iter().copied().filter(|&d| d != src) {
                let _ = writeln!(
                    out,
                    "| GPU {src} → GPU {dst} | {} | {} | {} | {} | {} |",
                    yes(fact(result, src, dst, PEER_ACCESS)),
                    yes(fact(result, src, dst, NATIVE_ATOMICS)),
                    number(fact(result, src, dst, PERFORMANCE_RANK)),
                    number(fact(result, src, dst, NVLINK_LINKS)),
                    number(fact(result, src, dst, NVLINK_GBPS)),
                );
            }
        }
        let through_host = |src: usize, dst: usize| {
            (fact(result, src, dst, PEER_ACCESS) == Some(0.0)).then(|| "through host".to_string())
        };
        let size = result.values().into_iter().max().unwrap_or(0);
        for series in matrix_series(result) {
            let _ = writeln!(
                out,
                "\n**{}**, {size} MiB, GB/s (rows: source, columns: destination)\n",
                series.label
            );
            out.push_str(&pair_matrix_markdown(series, &gpus, &through_host));
            let shares: Vec<f64> = series
                .points
                .iter()
                .filter_map(|p| p.extra.get(OF_NVLINK).copied())
                .collect();
            if let (Some(lo), Some(hi)) = (
                shares.iter().copied().reduce(f64::min),
                shares.iter().copied().reduce(f64::max),
            ) {
                let _ = writeln!(out, "\n{lo:.0}–{hi:.0}% of the NVLink figure.");
            }
        }
        let hubs: Vec<&Series> = hub_series(result).collect();
        if !hubs.is_empty() {
            let _ = writeln!(out, "\n**Every other GPU at once**, {size} MiB per copy, GB/s in all\n");
            let _ = write!(out, "| GPU |");
            for test in PeerTest::HUB {
                let _ = write!(out, " {} |", test.label());
            }
            let _ = writeln!(out, "\n|---|{}", "---:|".repeat(PeerTest::HUB.len()));
            for &hub in &gpus {
                let _ = write!(out, "| GPU {hub} |");
                for test in PeerTest::HUB {
                    let point = hubs
                        .iter()
                        .find(|s| PeerTest::of_key(&s.key) == Some(test) && s.key.devices == Devices::One(hub))
                        .and_then(|s| s.points.first());
                    let _ = write!(out, " {} |", point_cell(point));
                }
                let _ = writeln!(out);
            }
        }
        let sweep = sweep_result(result);
        if !sweep.series.is_empty() {
            let _ = writeln!(out, "\n**Against size** (Rust kernels and copy engines)\n");
            out.push_str(&generic_table(&sweep));
        }
        Some(out)
    }

    fn extra_plots(&self, result: &ExperimentResult, _report: &Report) -> Vec<PlotSpec> {
        let sweep = sweep_result(result);
        let mut spec = match PlotSpec::of(&sweep) {
            Some(spec) if sweep.axis.plot == PlotKind::Lines => spec,
            _ => return Vec::new(),
        };
        spec.suffix = "sizes".into();
        vec![spec]
    }
}

#[cfg(test)]
mod tests {
    use super::{matrices_json, sweep_result};
    use crate::experiments::peer::{NVLINK_GBPS, PEER_ACCESS, PeerTest};
    use crate::report::{Axis, Devices, ExperimentResult, Metric, Point, PointKey, Series, Status, Work};
    use crate::testbed::Implementation;

    fn result() -> ExperimentResult {
        let mut series = Vec::new();
        let work = Work::bytes(1 << 28, 1 << 30);
        let mut ce = Series::of(PeerTest::CopyEngine.key(Implementation::Rust, Devices::All));
        for (src, dst, ms) in [(0, 1, 2.5), (1, 0, 2.0)] {
            let at = PointKey::Pair { src, dst };
            let point = Point::timed(at, &Metric::Bandwidth, work, &[ms; 3], None)
                .unwrap()
                .with_extra(PEER_ACCESS, 1.0)
                .with_extra(NVLINK_GBPS, 478.0);
            ce.points.push(point);
        }
        series.push(ce);
        let mut pull = Series::of(PeerTest::Pull.key(Implementation::CudaC, Devices::All));
        pull.points.push(Point::unmeasured(
            PointKey::Pair { src: 0, dst: 1 },
            Status::Waived("no peer access".into()),
        ));
        series.push(pull);
        let mut sweep = Series::of(PeerTest::Pull.key(Implementation::Rust, Devices::Pair { src: 0, dst: 1 }));
        sweep
            .points
            .push(Point::timed(PointKey::Value(1024), &Metric::Bandwidth, work, &[2.9; 3], None).unwrap());
        series.push(sweep);
        let mut hub = Series::of(PeerTest::CopyEngineAllToOne.key(Implementation::Rust, Devices::One(1)));
        hub.points
            .push(Point::measured(PointKey::Value(1024), &[400.0, 410.0, 405.0], work, None).unwrap());
        series.push(hub);
        ExperimentResult {
            name: "peer".into(),
            title: "peer".into(),
            source: String::new(),
            device: None,
            status: Status::Ok,
            axis: Axis::lines("size (MiB)", Metric::Bandwidth),
            byte_counting: String::new(),
            setup: vec![],
            series,
            waived: vec![],
            notes: vec![],
            artifacts: vec![],
        }
    }

    #[test]
    fn the_json_holds_one_matrix_per_test_under_nvbandwidths_names() {
        let json: serde_json::Value = serde_json::from_str(&matrices_json(&result(), 2, 1 << 30)).unwrap();
        let ce = &json["matrices"]["device_to_device_memcpy_write_ce"];
        assert!(ce[0][0].is_null());
        assert!((ce[0][1].as_f64().unwrap() - 429.4967).abs() < 1e-3, "{ce}");
        assert!((ce[1][0].as_f64().unwrap() - 536.8709).abs() < 1e-3);
        assert!(json["matrices"]["device_to_device_memcpy_read_sm:CUDA C"][0][1].is_null());
        let vector = &json["vectors"]["all_to_one_write_ce"];
        assert!(vector[0].is_null());
        assert_eq!(vector[1].as_f64(), Some(405.0));
        assert_eq!(json["gpus"], 2);
    }

    #[test]
    fn the_size_plot_holds_only_the_sweeps() {
        let sweep = sweep_result(&result());
        assert_eq!(sweep.series.len(), 1);
        assert!(matches!(sweep.series[0].key.devices, Devices::Pair { src: 0, dst: 1 }));
    }
}
