//! Combines the reports of several nodes point by point: each point's
//! figures across nodes, and each node's standing against the median.

use std::collections::HashMap;
use std::path::Path;

use super::slow_nodes::{below_threshold, geometric_mean, relative_figure, rule};
use super::{MERGED_SCHEMA, MERGED_SCHEMA_VERSION, MergedPoint, MergedReport, NodeFigure, NodeSummary, SlowSeries};
use crate::error::{Error, Result};
use crate::report::{PointKey, Report, SeriesKey, telemetry_figures, telemetry_slowdowns};
use crate::stats::Summary;

/// What identifies a point across reports.
type PointId = (String, Option<usize>, SeriesKey, PointKey);

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
    let names: Vec<String> = reports.iter().map(|(path, r)| node_name(path, r)).collect();
    for (i, name) in names.iter().enumerate() {
        if let Some(j) = names[..i].iter().position(|n| n == name) {
            return Err(Error::InvalidInput(format!(
                "overlapping hosts: {} and {} both come from host {name}; give one report per node",
                reports[j].0, reports[i].0
            )));
        }
    }
    let mut notes = Vec::new();
    let mut gathered: Vec<Gathered> = Vec::new();
    let mut index: HashMap<PointId, usize> = HashMap::new();
    for (node, (_, report)) in reports.iter().enumerate() {
        let mut seen: Vec<(&str, Option<usize>)> = Vec::new();
        for result in &report.experiments {
            if seen.contains(&(result.name.as_str(), result.device)) {
                notes.push(format!(
                    "{}: experiment {} is listed twice; the first is merged",
                    names[node],
                    crate::report::section_name(result)
                ));
                continue;
            }
            seen.push((&result.name, result.device));
            for series in &result.series {
                for point in &series.points {
                    let figure = match (point.median(), point.status.is_failed()) {
                        (_, true) => None,
                        (Some(v), false) => Some(v),
                        // Waived or not run: the node does not have the point.
                        (None, false) => continue,
                    };
                    let id: PointId = (result.name.clone(), result.device, series.key.clone(), point.at);
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
                    gathered[slot].figures.push((node, figure));
                }
            }
        }
    }
    let points: Vec<MergedPoint> = gathered.into_iter().map(|g| judge(g, &names, threshold)).collect();
    let nodes = reports
        .iter()
        .enumerate()
        .map(|(node, (path, report))| summarise_node(&names[node], path, report, &points, threshold))
        .collect();

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
    point.missing = names
        .iter()
        .enumerate()
        .filter(|(node, _)| !figures.iter().any(|(n, _)| n == node))
        .map(|(_, name)| name.clone())
        .collect();
    point
}

/// A node's standing: overall, and per series where it is slow.
fn summarise_node(name: &str, path: &str, report: &Report, points: &[MergedPoint], threshold: f64) -> NodeSummary {
    let mine = |p: &MergedPoint| p.nodes.iter().find(|f| f.node == name).cloned();
    let relatives: Vec<f64> = points.iter().filter_map(|p| mine(p)?.relative).collect();
    // Series in the order the points came.
    let mut series: Vec<(&str, Option<usize>, &SeriesKey, &str)> = Vec::new();
    for p in points {
        if !series
            .iter()
            .any(|s| s.0 == p.experiment && s.1 == p.device && s.2 == &p.series)
        {
            series.push((&p.experiment, p.device, &p.series, &p.label));
        }
    }
    let slow_series = series
        .into_iter()
        .filter_map(|(experiment, device, key, label)| {
            let figures: Vec<_> = points
                .iter()
                .filter(|p| p.experiment == experiment && p.device == device && &p.series == key)
                .filter_map(mine)
                .collect();
            let relatives: Vec<f64> = figures.iter().filter_map(|f| f.relative).collect();
            let failed = figures.iter().filter(|f| f.value.is_none()).count();
            let relative = geometric_mean(&relatives);
            let slow = failed > 0 || relative.is_some_and(|r| below_threshold(r, threshold));
            slow.then(|| SlowSeries {
                experiment: experiment.to_string(),
                device,
                label: label.to_string(),
                relative,
                points: relatives.len(),
                failed,
            })
        })
        .collect();
    NodeSummary {
        name: name.to_string(),
        report: path.to_string(),
        gpus: report
            .devices
            .iter()
            .map(|d| format!("GPU {}: {}", d.ordinal, d.name))
            .collect(),
        tool_version: report.tool_version.clone(),
        partial: report.partial,
        telemetry: telemetry_lines(report),
        compared_points: relatives.len(),
        relative: geometric_mean(&relatives),
        slow_series,
    }
}
