//! Combines the reports of several nodes point by point: each point's
//! figures across nodes, and each node's standing against the median.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use super::slow_nodes::{below_threshold, geometric_mean, relative_figure, rule};
use super::{MERGED_SCHEMA, MERGED_SCHEMA_VERSION, MergedPoint, MergedReport, NodeFigure, NodeSummary, SlowSeries};
use crate::error::{Error, Result};
use crate::report::{PointKey, Report, SeriesKey, telemetry_figures, telemetry_slowdowns};
use crate::stats::Summary;

/// What identifies a point across reports.
type PointId<'a> = (&'a str, Option<usize>, &'a SeriesKey, PointKey);

/// A point as gathered: its description and each node's figure (`None`: failed its check).
struct Gathered {
    point: MergedPoint,
    figures: Vec<(usize, Option<f64>)>,
}

/// The node's name: its report's host, or for a report without one (schema 1) its folder's name.
fn node_name(path: &str, report: &Report) -> String {
    let host = report.host.trim();
    if !host.is_empty() {
        return host.to_string();
    }
    Path::new(path)
        .parent()
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| path.to_string())
}

/// The GPUs a report names by UUID, in its order; empty when any lacks one (reports before UUIDs).
fn gpu_uuids(report: &Report) -> Vec<&str> {
    let uuids: Vec<&str> = report.devices.iter().filter_map(|d| d.uuid.as_deref()).collect();
    if uuids.len() == report.devices.len() {
        uuids
    } else {
        Vec::new()
    }
}

/// Each report's node name ([`node_name`]). Cloud machines often share a host name
/// (two lets of one kind both say `vm`): reports of one host name whose GPUs are
/// all different by UUID are different nodes, named `host (first GPU's UUID)`.
/// Two reports of one host are refused (overlapping hosts) when a GPU is in both,
/// or when either names its GPUs without UUIDs.
fn distinct_node_names(reports: &[(String, Report)]) -> Result<Vec<String>> {
    let hosts: Vec<String> = reports.iter().map(|(path, r)| node_name(path, r)).collect();
    let mut names = hosts.clone();
    for i in 0..reports.len() {
        for j in 0..i {
            if hosts[i] != hosts[j] {
                continue;
            }
            let (mine, theirs) = (gpu_uuids(&reports[i].1), gpu_uuids(&reports[j].1));
            let shared = mine.is_empty() || theirs.is_empty() || mine.iter().any(|u| theirs.contains(u));
            if shared {
                return Err(Error::InvalidInput(format!(
                    "overlapping hosts: {} and {} both come from host {}{}; give one report per node",
                    reports[j].0,
                    reports[i].0,
                    crate::report::text_escape::terminal(&hosts[i]),
                    if mine.is_empty() || theirs.is_empty() {
                        ""
                    } else {
                        " and share a GPU"
                    }
                )));
            }
            for k in [i, j] {
                let first = gpu_uuids(&reports[k].1)[0];
                names[k] = format!("{} ({})", hosts[k], crate::report::text_escape::terminal(first));
            }
        }
    }
    Ok(names)
}

/// One line per GPU of the node's telemetry, or the notes saying why there is none.
fn telemetry_lines(report: &Report) -> Vec<String> {
    let Some(record) = &report.telemetry else {
        return Vec::new();
    };
    let mut lines: Vec<String> = record.notes.clone();
    for device in &record.devices {
        lines.push(format!(
            "GPU {}: {}; {}",
            device.ordinal,
            telemetry_figures(&device.run, device.facts.power_limit_w),
            telemetry_slowdowns(device)
        ));
    }
    lines
}

/// Merges `reports` (each with the file it came from), one per node. Two reports of one host
/// are refused (overlapping hosts); `threshold_percent` is how far below the median a node may be.
pub fn merge(reports: &[(String, Report)], threshold_percent: f64) -> Result<MergedReport> {
    if !(threshold_percent.is_finite() && (0.0..100.0).contains(&threshold_percent)) {
        return Err(Error::InvalidInput(format!(
            "--threshold {threshold_percent} must be a percentage in [0, 100)"
        )));
    }
    if reports.is_empty() {
        return Err(Error::InvalidInput("merge needs at least one report".into()));
    }
    let threshold = threshold_percent / 100.0;
    let names = distinct_node_names(reports)?;
    let mut notes = Vec::new();
    let mut gathered: Vec<Gathered> = Vec::new();
    let mut index: HashMap<PointId<'_>, usize> = HashMap::new();
    for (node, (_, report)) in reports.iter().enumerate() {
        let mut seen: HashSet<(&str, Option<usize>)> = HashSet::new();
        for result in &report.experiments {
            if !seen.insert((result.name.as_str(), result.device)) {
                notes.push(format!(
                    "{}: experiment {} is listed twice; the first is merged",
                    names[node],
                    crate::report::section_name(result)
                ));
                continue;
            }
            for series in &result.series {
                for point in &series.points {
                    let figure = match (point.median(), point.status.is_failed()) {
                        (_, true) => None,
                        (Some(v), false) => Some(v),
                        // Waived or not run: the node does not have the point.
                        (None, false) => continue,
                    };
                    let id: PointId<'_> = (&result.name, result.device, &series.key, point.at);
                    let slot = *index.entry(id).or_insert_with(|| {
                        gathered.push(Gathered {
                            point: MergedPoint {
                                experiment: result.name.clone(),
                                device: result.device,
                                series: series.key.clone(),
                                label: series.label.clone(),
                                parameter: result.axis.parameter.clone(),
                                at: point.at,
                                unit: result.axis.metric.unit().to_string(),
                                higher_is_better: result.axis.metric.higher_is_better(),
                                across_nodes: None,
                                nodes: Vec::new(),
                                missing: Vec::new(),
                            },
                            figures: Vec::new(),
                        });
                        gathered.len() - 1
                    });
                    // A point listed twice in one report counts once, as its first.
                    if gathered[slot].figures.last().is_none_or(|(n, _)| *n != node) {
                        gathered[slot].figures.push((node, figure));
                    }
                }
            }
        }
    }
    let points: Vec<MergedPoint> = gathered.into_iter().map(|g| judge(g, &names, threshold)).collect();
    let nodes = summarise_nodes(reports, &names, &points, threshold);
    notes.extend(differences(reports, &names));

    let mut gpu_models: Vec<String> = reports
        .iter()
        .flat_map(|(_, r)| r.devices.iter().map(|d| d.name.clone()))
        .collect();
    gpu_models.sort();
    gpu_models.dedup();
    if gpu_models.len() > 1 {
        notes.push(format!(
            "the nodes have different GPUs ({}): their figures differ for that reason too",
            gpu_models.join(", ")
        ));
    }
    if reports.len() == 1 {
        notes.push("one node only: nothing to compare it with".into());
    }
    Ok(MergedReport {
        schema: MERGED_SCHEMA.into(),
        schema_version: MERGED_SCHEMA_VERSION,
        tool_version: env!("CARGO_PKG_VERSION").into(),
        generated_unix_s: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0),
        threshold_percent,
        rule: rule(threshold_percent),
        nodes,
        points,
        notes,
    })
}

/// Min / median / max across nodes, and each node's relative figure against the median.
fn judge(gathered: Gathered, names: &[String], threshold: f64) -> MergedPoint {
    let Gathered { mut point, figures } = gathered;
    let values: Vec<f64> = figures.iter().filter_map(|(_, v)| *v).collect();
    point.across_nodes = Summary::of(&values);
    let compared = values.len() >= 2;
    let median = point.across_nodes.map(|s| s.median);
    point.nodes = figures
        .iter()
        .map(|&(node, value)| {
            let relative = match (value, median) {
                (Some(v), Some(m)) if compared => relative_figure(v, m, point.higher_is_better),
                _ => None,
            };
            NodeFigure {
                node: names[node].clone(),
                value,
                relative,
                slow: value.is_none() || relative.is_some_and(|r| below_threshold(r, threshold)),
            }
        })
        .collect();
    let mut present = vec![false; names.len()];
    for &(node, _) in &figures {
        present[node] = true;
    }
    point.missing = names
        .iter()
        .zip(present)
        .filter(|(_, present)| !present)
        .map(|(name, _)| name.clone())
        .collect();
    point
}

/// What one node's figures add up to, gathered in one pass over the points.
#[derive(Default)]
struct NodeTally<'a> {
    relatives: Vec<f64>,
    /// Per series, in the order the points came: its relative figures and failed points.
    series: Vec<(&'a MergedPoint, Vec<f64>, usize)>,
    index: HashMap<(&'a str, Option<usize>, &'a SeriesKey), usize>,
}

/// Every node's standing: overall, and per series where it is slow (linear in the points' figures).
fn summarise_nodes(
    reports: &[(String, Report)],
    names: &[String],
    points: &[MergedPoint],
    threshold: f64,
) -> Vec<NodeSummary> {
    let node_of: HashMap<&str, usize> = names.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
    let mut tallies: Vec<NodeTally<'_>> = names.iter().map(|_| NodeTally::default()).collect();
    for p in points {
        for figure in &p.nodes {
            let Some(&node) = node_of.get(figure.node.as_str()) else {
                continue;
            };
            let tally = &mut tallies[node];
            let next = tally.series.len();
            let slot = *tally
                .index
                .entry((p.experiment.as_str(), p.device, &p.series))
                .or_insert(next);
            if slot == next {
                tally.series.push((p, Vec::new(), 0));
            }
            if let Some(r) = figure.relative {
                tally.relatives.push(r);
                tally.series[slot].1.push(r);
            }
            if figure.value.is_none() {
                tally.series[slot].2 += 1;
            }
        }
    }
    reports
        .iter()
        .zip(names)
        .zip(tallies)
        .map(|(((path, report), name), tally)| {
            let slow_series = tally
                .series
                .iter()
                .filter_map(|(p, relatives, failed)| {
                    let relative = geometric_mean(relatives);
                    let slow = *failed > 0 || relative.is_some_and(|r| below_threshold(r, threshold));
                    slow.then(|| SlowSeries {
                        experiment: p.experiment.clone(),
                        device: p.device,
                        label: p.label.clone(),
                        relative,
                        points: relatives.len(),
                        failed: *failed,
                    })
                })
                .collect();
            NodeSummary {
                name: name.clone(),
                report: path.clone(),
                gpus: report
                    .devices
                    .iter()
                    .map(|d| format!("GPU {}: {}", d.ordinal, d.name))
                    .collect(),
                tool_version: report.tool_version.clone(),
                partial: report.partial,
                telemetry: telemetry_lines(report),
                compared_points: tally.relatives.len(),
                relative: geometric_mean(&tally.relatives),
                slow_series,
            }
        })
        .collect()
}

/// Notes on what differs between the nodes' runs besides the nodes: the ptxsuite version and
/// the PTX target the kernels were built for ("0.3.0 (node-a, node-b); 0.2.0 (node-c)").
fn differences(reports: &[(String, Report)], names: &[String]) -> Vec<String> {
    let grouped = |what: &dyn Fn(&Report) -> String| {
        let mut groups: BTreeMap<String, Vec<&str>> = BTreeMap::new();
        for ((_, report), name) in reports.iter().zip(names) {
            groups.entry(what(report)).or_default().push(name);
        }
        (groups.len() > 1).then(|| {
            groups
                .iter()
                .map(|(value, nodes)| format!("{value} ({})", nodes.join(", ")))
                .collect::<Vec<_>>()
                .join("; ")
        })
    };
    let mut notes = Vec::new();
    if let Some(versions) = grouped(&|r| r.tool_version.clone()) {
        notes.push(format!(
            "the reports come from different ptxsuite versions: {versions}; an experiment may measure or count              differently from one version to another"
        ));
    }
    if let Some(targets) = grouped(&|r| format!("{} (PTX ISA {})", r.ptx.target, r.ptx.isa_version)) {
        notes.push(format!(
            "the kernels were built for different PTX targets: {targets}; the driver compiles each for its GPU,              so the same kernel may run different code"
        ));
    }
    notes
}
