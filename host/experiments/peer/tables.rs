//! How `peer` reads in report.md: the links, one source × destination
//! matrix per test (nvbandwidth's layout), the all-to-one / one-to-all
//! figures, the bisection and all-to-all, the size sweep; and the same
//! figures as JSON. Every table keeps to a row per GPU (or per test), so that
//! eight GPUs read as well as two: 56 pairs become matrices, never lists.

use std::fmt::Write;

use serde_json::{Value, json};

use super::{BOTH_TOTAL, NATIVE_ATOMICS, NVLINK_GBPS, NVLINK_LINKS, OF_NVLINK, PEER_ACCESS, PERFORMANCE_RANK};
use super::{FABRIC_GBPS, FabricPattern, FabricTest, OF_FABRIC, Peer, PeerTest};
use crate::report::{
    Axis, Devices, ExperimentResult, Metric, PlotKind, PlotSpec, Point, PointKey, Report, Scale, SectionHooks, Series,
    generic_table, pair_gpus, pair_matrix, pair_matrix_markdown, point_cell,
};
use crate::stats::Summary;
use crate::testbed::Implementation;

/// The source × destination matrices (one test, every ordered pair): every series over all GPUs but the
/// bisection and all-to-all tests (a report's matrix of a test this build does not know still shows).
fn matrix_series(result: &ExperimentResult) -> impl Iterator<Item = &Series> {
    result
        .series
        .iter()
        .filter(|s| s.key.devices == Devices::All && FabricTest::of_key(&s.key).is_none())
}

/// The bisection and all-to-all tests, in the order they ran.
fn fabric_series(result: &ExperimentResult) -> impl Iterator<Item = (FabricTest, &Series)> {
    result
        .series
        .iter()
        .filter_map(|s| Some((FabricTest::of_key(&s.key)?, s)))
}

/// A fabric test's total: its one point at a size.
fn fabric_total(series: &Series) -> Option<&Point> {
    series.points.iter().find(|p| matches!(p.at, PointKey::Value(_)))
}

/// The copies of a fabric test, each its own figure while the others ran.
fn fabric_copies(series: &Series) -> impl Iterator<Item = &Point> {
    series.points.iter().filter(|p| matches!(p.at, PointKey::Pair { .. }))
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

/// `peer-matrices.json`: `{"size_bytes", "unit", "gpus", "matrices": {test: [[src][dst]]}, "vectors": {test: [hub]},
/// "fabric": {test: {"total", "theoretical", "copies": [{"src", "dst", "gbps"}]}}}` under nvbandwidth's test names
/// (`null` where nothing was measured), twins under `<name>:<implementation>`; rows and columns are the ordinals
/// `0..gpus` (the run's GPUs).
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
    let mut fabric = serde_json::Map::new();
    for (test, series) in fabric_series(result) {
        let total = fabric_total(series);
        let copies: Vec<Value> = fabric_copies(series)
            .filter_map(|p| match p.at {
                PointKey::Pair { src, dst } => Some(json!({"src": src, "dst": dst, "gbps": p.median()})),
                PointKey::Value(_) => None,
            })
            .collect();
        fabric.insert(
            test.nvbandwidth_name(),
            json!({
                "total": total.and_then(Point::median),
                "theoretical": total.and_then(|p| p.extra.get(FABRIC_GBPS).copied()),
                "copies": copies,
            }),
        );
    }
    let document: Value = json!({
        "size_bytes": size_bytes,
        "unit": "GB/s",
        "gpus": gpus,
        "matrices": matrices,
        "vectors": vectors,
        "fabric": fabric,
    });
    serde_json::to_string_pretty(&document).unwrap_or_default()
}

/// "yes", "no", or "—" for a 0/1 fact.
fn yes(v: Option<f64>) -> &'static str {
    match v {
        Some(v) if v > 0.5 => "yes",
        Some(_) => "no",
        None => "—",
    }
}

/// The links: NVML's theoretical GB/s (and NVLink count) as a matrix, and the driver's peer facts in a
/// line where every pair shares them (else as a matrix of their own).
fn links_table(result: &ExperimentResult, gpus: &[usize], out: &mut String) {
    let pairs: Vec<(usize, usize)> = gpus
        .iter()
        .flat_map(|&s| gpus.iter().filter(move |&&d| d != s).map(move |&d| (s, d)))
        .collect();
    let _ = writeln!(
        out,
        "**Links**, NVML's theoretical GB/s per direction (NVLinks), rows: source, columns: destination\n"
    );
    let _ = write!(out, "| src \\ dst |");
    for dst in gpus {
        let _ = write!(out, " GPU {dst} |");
    }
    let _ = writeln!(out, "\n|---|{}", "---:|".repeat(gpus.len()));
    for &src in gpus {
        let _ = write!(out, "| GPU {src} |");
        for &dst in gpus {
            let cell = if src == dst {
                "—".to_string()
            } else {
                match (
                    fact(result, src, dst, NVLINK_GBPS),
                    fact(result, src, dst, NVLINK_LINKS),
                ) {
                    (Some(gbps), Some(links)) => format!("{gbps:.0} ({links:.0})"),
                    (Some(gbps), None) => format!("{gbps:.0}"),
                    _ => "no NVLink".to_string(),
                }
            };
            let _ = write!(out, " {cell} |");
        }
        let _ = writeln!(out);
    }
    let facts = |(s, d): (usize, usize)| {
        format!(
            "peer access {}, native atomics {}, performance rank {}",
            yes(fact(result, s, d, PEER_ACCESS)),
            yes(fact(result, s, d, NATIVE_ATOMICS)),
            fact(result, s, d, PERFORMANCE_RANK).map_or_else(|| "—".to_string(), |r| format!("{r:.0}"))
        )
    };
    let mut kinds: Vec<(String, Vec<(usize, usize)>)> = Vec::new();
    for &pair in &pairs {
        let text = facts(pair);
        match kinds.iter_mut().find(|(k, _)| *k == text) {
            Some((_, list)) => list.push(pair),
            None => kinds.push((text, vec![pair])),
        }
    }
    let _ = writeln!(out);
    match kinds.as_slice() {
        [] => {}
        [(text, _)] => {
            let _ = writeln!(out, "Every pair (the driver): {text}.");
        }
        _ => {
            for (text, list) in &kinds {
                let names: Vec<String> = list.iter().map(|(s, d)| format!("{s}→{d}")).collect();
                let _ = writeln!(out, "- {text}: {}", names.join(", "));
            }
        }
    }
}

/// All-to-one and one-to-all: a row per GPU, a column per test.
fn hub_table(result: &ExperimentResult, gpus: &[usize], size: i64, out: &mut String) {
    let hubs: Vec<&Series> = hub_series(result).collect();
    if hubs.is_empty() {
        return;
    }
    let others = gpus.len().saturating_sub(1);
    let _ = writeln!(
        out,
        "\n**Every other GPU at once** ({others} peer{}), {size} MiB per copy, GB/s in all\n",
        if others == 1 { "" } else { "s" }
    );
    let _ = write!(out, "| GPU |");
    for test in PeerTest::HUB {
        let _ = write!(out, " {} |", test.label());
    }
    let _ = writeln!(out, "\n|---|{}", "---:|".repeat(PeerTest::HUB.len()));
    for &hub in gpus {
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

/// The slowest and fastest copies of a fabric test: "331–352 (slowest GPU 3 → GPU 7)".
fn copy_spread(series: &Series) -> String {
    let figures: Vec<(f64, PointKey)> = fabric_copies(series)
        .filter_map(|p| Some((p.median()?, p.at)))
        .collect();
    let slowest = figures.iter().min_by(|a, b| a.0.total_cmp(&b.0));
    let fastest = figures.iter().map(|f| f.0).reduce(f64::max);
    match (slowest, fastest) {
        (Some(&(lo, PointKey::Pair { src, dst })), Some(hi)) => {
            format!("{lo:.0}–{hi:.0} (slowest GPU {src} → GPU {dst})")
        }
        _ => "—".into(),
    }
}

/// The bisection and all-to-all: a row per test with its total beside the links' figure, then the
/// bisection's pairs (a row per copy) and all-to-all's copies as matrices.
fn fabric_tables(result: &ExperimentResult, gpus: &[usize], size: i64, out: &mut String) {
    let fabric: Vec<(FabricTest, &Series)> = fabric_series(result).collect();
    if fabric.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n**The fabric at once**, {size} MiB per copy: every copy of a test runs at the same time; the total is all \
         the bytes over the set's span (release to last end, one GPU's clock), not the sum of each copy's figure\n"
    );
    let _ = writeln!(
        out,
        "| test | nvbandwidth name | copies | total GB/s | links' theoretical GB/s | % of it | each copy, GB/s |"
    );
    let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---|");
    for (test, series) in &fabric {
        let total = fabric_total(series);
        let extra = |name: &str| {
            total
                .filter(|p| p.status.is_ok())
                .and_then(|p| p.extra.get(name).copied())
                .map_or_else(|| "—".to_string(), |v| format!("{v:.0}"))
        };
        let _ = writeln!(
            out,
            "| {} | `{}` | {} | {} | {} | {} | {} |",
            test.label(),
            test.nvbandwidth_name(),
            fabric_copies(series).count(),
            point_cell(total),
            extra(FABRIC_GBPS),
            extra(OF_FABRIC),
            copy_spread(series)
        );
    }
    // The bisection pair by pair: a row per copy, a column per kind of copy.
    let bisection: Vec<&(FabricTest, &Series)> = fabric
        .iter()
        .filter(|(t, _)| matches!(t.pattern, FabricPattern::BisectionUp | FabricPattern::BisectionDown))
        .collect();
    if !bisection.is_empty() {
        let _ = writeln!(
            out,
            "\n**Bisection, copy by copy** (each half into the other; GB/s of each copy while its half's others run)\n"
        );
        let _ = write!(out, "| copy | links' GB/s |");
        for copy in PeerTest::ONE_WAY {
            let _ = write!(out, " {} |", copy.label());
        }
        let _ = writeln!(out, "\n|---|---:|{}", "---:|".repeat(PeerTest::ONE_WAY.len()));
        for pattern in [FabricPattern::BisectionUp, FabricPattern::BisectionDown] {
            let of = |copy: PeerTest| {
                bisection
                    .iter()
                    .find(|(t, _)| t.pattern == pattern && t.copy == copy)
                    .map(|(_, s)| *s)
            };
            let Some(first) = PeerTest::ONE_WAY.into_iter().find_map(of) else {
                continue;
            };
            for at in fabric_copies(first).map(|p| p.at) {
                let PointKey::Pair { src, dst } = at else { continue };
                let link = fact(result, src, dst, NVLINK_GBPS).map_or_else(|| "—".to_string(), |v| format!("{v:.0}"));
                let _ = write!(out, "| GPU {src} → GPU {dst} | {link} |");
                for copy in PeerTest::ONE_WAY {
                    let _ = write!(out, " {} |", point_cell(of(copy).and_then(|s| s.point(at))));
                }
                let _ = writeln!(out);
            }
        }
    }
    for (test, series) in &fabric {
        if test.pattern == FabricPattern::AllToAll && fabric_copies(series).next().is_some() {
            let _ = writeln!(
                out,
                "\n**{}**, each copy while all {} run, GB/s (rows: source, columns: destination)\n",
                test.label(),
                fabric_copies(series).count()
            );
            out.push_str(&pair_matrix_markdown(series, gpus, &|_, _| None));
        }
    }
}

/// The sweeps of many pairs: a row per size, a column per test, each cell the median over the pairs
/// with the slowest and fastest pair's figures, and which pair was slowest at the largest size.
fn sweep_summary(sweep: &ExperimentResult, out: &mut String) {
    let tests: Vec<PeerTest> = PeerTest::ONE_WAY
        .into_iter()
        .filter(|t| sweep.series.iter().any(|s| PeerTest::of_key(&s.key) == Some(*t)))
        .collect();
    let sizes = sweep.values();
    let _ = write!(out, "| size (MiB) |");
    for test in &tests {
        let _ = write!(out, " {}: median of pairs (slowest–fastest) |", test.label());
    }
    let _ = writeln!(out, "\n|---:|{}", "---:|".repeat(tests.len()));
    for &size in &sizes {
        let _ = write!(out, "| {size} |");
        for &test in &tests {
            let figures: Vec<f64> = sweep
                .series
                .iter()
                .filter(|s| PeerTest::of_key(&s.key) == Some(test))
                .filter_map(|s| s.median_at(size))
                .collect();
            let cell = Summary::of(&figures).map_or_else(
                || "—".to_string(),
                |s| format!("{:.0} ({:.0}–{:.0})", s.median, s.min, s.max),
            );
            let _ = write!(out, " {cell} |");
        }
        let _ = writeln!(out);
    }
    if let Some(&largest) = sizes.last() {
        for &test in &tests {
            let slowest = sweep
                .series
                .iter()
                .filter(|s| PeerTest::of_key(&s.key) == Some(test))
                .filter_map(|s| Some((s.median_at(largest)?, s.key.devices)))
                .min_by(|a, b| a.0.total_cmp(&b.0));
            if let Some((gbps, Devices::Pair { src, dst })) = slowest {
                let _ = writeln!(
                    out,
                    "\n{} at {largest} MiB: slowest pair GPU {src} → GPU {dst}, {gbps:.0} GB/s.",
                    test.label()
                );
            }
        }
    }
}

/// The fabric at once in words: the bisection and all-to-all by copy engines against the links' figure.
fn fabric_narrative(result: &ExperimentResult) -> Option<String> {
    let total = |pattern: FabricPattern, copy: PeerTest| {
        let (_, series) = fabric_series(result).find(|(t, _)| t.pattern == pattern && t.copy == copy)?;
        let point = fabric_total(series).filter(|p| p.status.is_ok())?;
        Some((
            point.median()?,
            point.extra.get(FABRIC_GBPS).copied(),
            fabric_copies(series).count(),
        ))
    };
    let (bisection, link, copies) = total(FabricPattern::Bisection, PeerTest::CopyEngine)?;
    let gpus = gpus(result);
    let pairs: Vec<String> = FabricPattern::BisectionUp
        .copies(gpus.len())
        .iter()
        .map(|&(a, b)| format!("{} ↔ {}", gpus[a], gpus[b]))
        .collect();
    let mut text = format!(
        "The bisection (GPUs {}, {copies} copies at once, both ways) moves {bisection:.0} GB/s by copy engines",
        pairs.join(", ")
    );
    if let Some(link) = link {
        let _ = write!(
            text,
            ", {:.0}% of the {link:.0} GB/s NVML's links allow",
            100.0 * bisection / link
        );
    }
    if let Some((all, link, copies)) = total(FabricPattern::AllToAll, PeerTest::CopyEngine) {
        let _ = write!(text, "; all to all ({copies} copies at once) {all:.0} GB/s");
        if let Some(link) = link {
            let _ = write!(text, " of {link:.0}");
        }
    }
    text.push('.');
    Some(text)
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
        let mut line = format!(
            "copy engines {span} GB/s between GPUs over {} pairs (largest size)",
            figures.len()
        );
        let bisection = fabric_series(result)
            .find(|(t, _)| t.pattern == FabricPattern::Bisection && t.copy == PeerTest::CopyEngine)
            .and_then(|(_, s)| fabric_total(s))
            .filter(|p| p.status.is_ok());
        if let Some(total) = bisection.and_then(Point::median) {
            let _ = write!(line, "; bisection {total:.0} GB/s in all");
            if let Some(share) = bisection.and_then(|p| p.extra.get(OF_FABRIC)) {
                let _ = write!(line, " ({share:.0}% of the links)");
            }
        }
        Some(line)
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
        let mut paragraphs = vec![text];
        paragraphs.extend(fabric_narrative(result));
        paragraphs
    }

    fn tables(&self, result: &ExperimentResult, _report: &Report) -> Option<String> {
        let gpus = gpus(result);
        let mut out = String::new();
        links_table(result, &gpus, &mut out);
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
        hub_table(result, &gpus, size, &mut out);
        fabric_tables(result, &gpus, size, &mut out);
        let sweep = sweep_result(result);
        if !sweep.series.is_empty() {
            let _ = writeln!(out, "\n**Against size** (Rust kernels and copy engines)\n");
            if gpus.len() <= 2 {
                out.push_str(&generic_table(&sweep));
            } else {
                sweep_summary(&sweep, &mut out);
            }
        }
        Some(out)
    }

    fn plot(&self, result: &ExperimentResult, _report: &Report) -> Option<PlotSpec> {
        // The matrices and all-to-all's copies as heat maps; a bisection's few cells are its table's.
        let mut maps = result.clone();
        maps.series.retain(|s| match FabricTest::of_key(&s.key) {
            Some(test) => test.pattern == FabricPattern::AllToAll,
            None => s.key.devices == Devices::All,
        });
        PlotSpec::of(&maps)
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

    mod eight_gpus {
        use super::super::{fabric_series, fabric_total, matrices_json};
        use crate::experiments::peer::node_fixtures::{LINK_GBPS, SIZE_MIB, node_result};
        use crate::experiments::peer::{FabricPattern, Peer, PeerTest};
        use crate::report::{PointKey, Report, SectionHooks};
        use crate::run_settings::RunSettings;

        fn report() -> Report {
            Report::new(vec![], &RunSettings::default(), vec![], vec![], vec![])
        }

        /// The table that follows the line starting with `title` (its rows, header first).
        fn table_after<'t>(text: &'t str, title: &str) -> Vec<&'t str> {
            let start = text.find(title).unwrap_or_else(|| panic!("no {title} in\n{text}"));
            text[start..]
                .lines()
                .skip_while(|l| !l.starts_with('|'))
                .take_while(|l| l.starts_with('|'))
                .collect()
        }

        #[test]
        fn matrices_are_eight_by_eight_with_an_empty_diagonal() {
            let result = node_result(8, (None, 1.0));
            let text = Peer.tables(&result, &report()).unwrap();
            for title in [
                "**CE copy, one way**",
                "**SM copy, pull (reads the peer)**",
                "**SM copy, push (writes the peer)**",
                "**Links**",
                "**CE copies, all to all**",
            ] {
                let rows = table_after(&text, title);
                assert_eq!(rows.len(), 10, "{title}: header, rule, 8 GPUs\n{}", rows.join("\n"));
                assert_eq!(
                    rows[0],
                    "| src \\ dst | GPU 0 | GPU 1 | GPU 2 | GPU 3 | GPU 4 | GPU 5 | GPU 6 | GPU 7 |"
                );
                for (gpu, row) in rows[2..].iter().enumerate() {
                    let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
                    assert_eq!(cells.len(), 9, "{row}");
                    assert_eq!(cells[0], format!("GPU {gpu}"));
                    for (dst, cell) in cells[1..].iter().enumerate() {
                        assert_eq!(*cell == "—", dst == gpu, "{title} {gpu} → {dst}: {cell}");
                    }
                }
            }
            // The links read as a matrix and one line of facts, not 56 rows.
            let links = table_after(&text, "**Links**");
            assert!(links[2].contains("| 478 (18) |"), "{}", links[2]);
            assert!(text.contains("Every pair (the driver): peer access yes, native atomics yes, performance rank 0."));
            // No table row grows past what a reader can take in.
            let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
            assert!(widest < 260, "a line of {widest} characters");
        }

        #[test]
        fn the_hubs_list_every_gpu_with_seven_peers_and_the_sweep_is_summarised() {
            let result = node_result(8, (None, 1.0));
            let text = Peer.tables(&result, &report()).unwrap();
            assert!(text.contains("**Every other GPU at once** (7 peers)"), "{text}");
            let hubs = table_after(&text, "**Every other GPU at once**");
            assert_eq!(hubs.len(), 10);
            assert!(hubs[9].starts_with("| GPU 7 |"));
            // 56 pairs × 3 tests of sweeps: a row per size, a column per test.
            let sweep = table_after(&text, "**Against size**");
            assert_eq!(sweep.len(), 5, "{}", sweep.join("\n"));
            assert_eq!(sweep[0].matches('|').count(), 5);
            assert!(sweep[4].starts_with(&format!("| {SIZE_MIB} |")));
        }

        #[test]
        fn a_held_back_gpu_is_named_in_the_sweep_and_the_fabric_tables() {
            let result = node_result(8, (Some(5), 0.6));
            let text = Peer.tables(&result, &report()).unwrap();
            let slowest: Vec<&str> = text.lines().filter(|l| l.contains("slowest pair")).collect();
            assert_eq!(slowest.len(), 3);
            assert!(
                slowest.iter().all(|l| l.contains("GPU 5 →") || l.contains("→ GPU 5,")),
                "{slowest:?}"
            );
            let fabric = table_after(&text, "**The fabric at once**");
            let bisect = fabric.iter().find(|r| r.contains("`bisect_write_ce`")).unwrap();
            assert!(
                bisect.contains("slowest GPU 1 → GPU 5") || bisect.contains("slowest GPU 5 → GPU 1"),
                "{bisect}"
            );
        }

        #[test]
        fn the_bisection_pairs_each_gpu_with_the_one_four_places_on() {
            let result = node_result(8, (None, 1.0));
            let text = Peer.tables(&result, &report()).unwrap();
            if std::env::var_os("PEER_PRINT_TABLES").is_some() {
                println!("{text}");
            }
            let rows = table_after(&text, "**Bisection, copy by copy**");
            let copies: Vec<&str> = rows[2..]
                .iter()
                .map(|r| r.trim_matches('|').split('|').next().unwrap().trim())
                .collect();
            assert_eq!(
                copies,
                [
                    "GPU 0 → GPU 4",
                    "GPU 1 → GPU 5",
                    "GPU 2 → GPU 6",
                    "GPU 3 → GPU 7",
                    "GPU 4 → GPU 0",
                    "GPU 5 → GPU 1",
                    "GPU 6 → GPU 2",
                    "GPU 7 → GPU 3"
                ]
            );
            let fabric = table_after(&text, "**The fabric at once**");
            assert_eq!(fabric.len(), 2 + 12, "a row per test");
            let bisect = fabric.iter().find(|r| r.contains("`bisect_write_ce`")).unwrap();
            let cells: Vec<&str> = bisect.trim_matches('|').split('|').map(str::trim).collect();
            assert_eq!(cells[2], "8", "both halves at once: 8 copies");
            assert_eq!(cells[4], format!("{:.0}", 8.0 * LINK_GBPS));
            let narrative = Peer.narrative(&result, &report());
            assert!(
                narrative
                    .iter()
                    .any(|p| p.contains("The bisection (GPUs 0 ↔ 4, 1 ↔ 5, 2 ↔ 6, 3 ↔ 7, 8 copies at once")),
                "{narrative:?}"
            );
            let headline = Peer.headline(&result, &report()).unwrap();
            assert!(
                headline.contains("over 56 pairs") && headline.contains("bisection"),
                "{headline}"
            );
        }

        #[test]
        fn the_json_holds_eight_by_eight_matrices_and_every_fabric_copy() {
            let result = node_result(8, (None, 1.0));
            let json: serde_json::Value = serde_json::from_str(&matrices_json(&result, 8, 1 << 28)).unwrap();
            let ce = json["matrices"]["device_to_device_memcpy_write_ce"].as_array().unwrap();
            assert_eq!(ce.len(), 8);
            assert!(ce.iter().all(|row| row.as_array().unwrap().len() == 8));
            assert!(ce[3][3].is_null() && ce[3][4].is_number());
            assert_eq!(json["vectors"]["all_to_one_write_ce"].as_array().unwrap().len(), 8);
            let bisect = &json["fabric"]["bisect_write_ce"];
            assert_eq!(bisect["copies"].as_array().unwrap().len(), 8);
            assert_eq!(bisect["copies"][0]["dst"], 4);
            assert_eq!(
                json["fabric"]["all_to_all_read_sm"]["copies"].as_array().unwrap().len(),
                56
            );
            let (_, up) = fabric_series(&result)
                .find(|(t, _)| t.pattern == FabricPattern::BisectionUp && t.copy == PeerTest::Push)
                .unwrap();
            assert!(fabric_total(up).is_some_and(|p| matches!(p.at, PointKey::Value(_))));
        }

        #[test]
        fn two_gpus_keep_their_tables() {
            let result = node_result(2, (None, 1.0));
            let text = Peer.tables(&result, &report()).unwrap();
            assert_eq!(table_after(&text, "**CE copy, one way**").len(), 4);
            let rows = table_after(&text, "**Bisection, copy by copy**");
            assert_eq!(rows.len(), 4, "0 → 1 and 1 → 0");
            let fabric = table_after(&text, "**The fabric at once**");
            let all = fabric.iter().find(|r| r.contains("`all_to_all_write_ce`")).unwrap();
            assert!(all.contains("| 2 |"), "both directions at once: {all}");
            // Few sweeps: the generic table, a column per series.
            let sweep = table_after(&text, "**Against size**");
            assert!(sweep[0].contains("GPU 1 → GPU 0"), "{}", sweep[0]);
        }
    }
}
