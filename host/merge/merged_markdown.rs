//! `merged.md` and the terminal summary of `ptxsuite merge`: the nodes, the
//! slow ones with the series that make them slow, then every point's figures
//! across nodes.

use std::fmt::Write;

use super::{MergedPoint, MergedReport, NodeSummary};
use crate::report::counted;
use crate::report::text_escape::{markdown as md, markdown_code, terminal};

/// Per-node columns up to this many nodes; past it the table names the nodes below the threshold.
const MAX_NODE_COLUMNS: usize = 12;

fn figure(value: f64) -> String {
    if value.abs() >= 100.0 {
        format!("{value:.0}")
    } else if value.abs() >= 1.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.3}")
    }
}

fn relative(value: Option<f64>) -> String {
    value.map_or_else(|| "—".into(), |r| format!("{r:.3}"))
}

/// `offset`, `offset (GPU 1)`.
fn section(experiment: &str, device: Option<usize>) -> String {
    match device {
        Some(d) => format!("{experiment} (GPU {d})"),
        None => experiment.to_string(),
    }
}

/// "ceiling (GPU 0) / vector_copy · Rust: 0.812 of the median over 9 points, 1 failed".
fn slow_series_lines(node: &NodeSummary) -> Vec<String> {
    node.slow_series
        .iter()
        .map(|s| {
            let mut line = format!("{} / {}: ", section(&s.experiment, s.device), s.label);
            match s.relative {
                Some(r) => line.push_str(&format!(
                    "{r:.3} of the median over {}",
                    counted(s.points, "point", "points")
                )),
                None => line.push_str("no figure"),
            }
            if s.failed > 0 {
                line.push_str(&format!(
                    ", {} failed {} check",
                    s.failed,
                    if s.failed == 1 { "its" } else { "their" }
                ));
            }
            line
        })
        .collect()
}

fn cell(point: &MergedPoint, node: &str) -> String {
    match point.nodes.iter().find(|f| f.node == node) {
        None => "—".into(),
        Some(f) if f.value.is_some_and(|v| !v.is_finite()) => "—".into(),
        Some(f) => {
            let text = f.value.map_or_else(|| "FAILED".into(), figure);
            if f.slow { format!("**{text}**") } else { text }
        }
    }
}

/// The whole `merged.md`.
pub fn markdown(merged: &MergedReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# ptxsuite cluster report\n");
    let _ = writeln!(
        out,
        "{}; threshold {}%. Rule: {}.\n",
        counted(merged.nodes.len(), "node", "nodes"),
        merged.threshold_percent,
        md(&merged.rule)
    );
    for note in &merged.notes {
        let _ = writeln!(out, "*Note:* {}\n", md(note));
    }
    let _ = writeln!(out, "## Nodes\n");
    let _ = writeln!(
        out,
        "| node | GPUs | points compared | relative figure (geometric mean) | slow series | telemetry | report |\n|---|---|---:|---:|---:|---|---|"
    );
    for node in &merged.nodes {
        let lines = |lines: &[String]| {
            lines
                .iter()
                .map(|l| md(l).into_owned())
                .collect::<Vec<_>>()
                .join("<br>")
        };
        let _ = writeln!(
            out,
            "| {}{} | {} | {} | {} | {} | {} | {}{} |",
            if node.is_slow() { "**SLOW** " } else { "" },
            md(&node.name),
            lines(&node.gpus),
            node.compared_points,
            relative(node.relative),
            node.slow_series.len(),
            if node.telemetry.is_empty() {
                "—".to_string()
            } else {
                crate::report::finite_cells(&lines(&node.telemetry))
            },
            markdown_code(&node.report),
            if node.partial { " (partial run)" } else { "" }
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "## Slow nodes\n");
    let slow = merged.slow_nodes();
    if slow.is_empty() {
        let _ = writeln!(
            out,
            "None: every node is within {}% of the median on every series.\n",
            merged.threshold_percent
        );
    }
    for node in slow {
        let _ = writeln!(out, "- **{}**:", md(&node.name));
        for line in slow_series_lines(node) {
            let _ = writeln!(out, "  - {}", md(&line));
        }
    }
    let _ = writeln!(out);
    let names: Vec<&str> = merged.nodes.iter().map(|n| n.name.as_str()).collect();
    let columns = names.len() <= MAX_NODE_COLUMNS;
    let mut current: Option<(String, Option<usize>)> = None;
    for point in &merged.points {
        let here = (point.experiment.clone(), point.device);
        if current.as_ref() != Some(&here) {
            let _ = writeln!(out, "\n## {}\n", md(&section(&point.experiment, point.device)));
            let _ = write!(out, "| series | {} | unit | min | median | max |", md(&point.parameter));
            if columns {
                for name in &names {
                    let _ = write!(out, " {} |", md(name));
                }
                let _ = writeln!(out, "\n|---|---:|---|---:|---:|---:|{}", "---:|".repeat(names.len()));
            } else {
                let _ = writeln!(out, " below the threshold |\n|---|---:|---|---:|---:|---:|---|");
            }
            current = Some(here);
        }
        let (min, median, max) = point
            .across_nodes
            .map(|s| (figure(s.min), figure(s.median), figure(s.max)))
            .unwrap_or_else(|| ("—".into(), "—".into(), "—".into()));
        let _ = write!(
            out,
            "| {} | {} | {} | {min} | {median} | {max} |",
            md(&point.label),
            point.at,
            md(&point.unit)
        );
        if columns {
            for name in &names {
                let _ = write!(out, " {} |", cell(point, name));
            }
        } else {
            let slow: Vec<String> = point
                .nodes
                .iter()
                .filter(|f| f.slow)
                .map(|f| md(&f.node).into_owned())
                .collect();
            let _ = write!(out, " {} |", slow.join(", "));
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(
        out,
        "\nCells: each node's median figure; **bold**: more than {}% below the median of the nodes (or failed); — : \
         the node's report lacks the point.",
        merged.threshold_percent
    );
    out
}

/// The terminal summary: one line per node, then the slow nodes and why.
pub fn summary(merged: &MergedReport) -> String {
    let mut out = String::new();
    let names: Vec<String> = merged.nodes.iter().map(|n| terminal(&n.name).into_owned()).collect();
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(4).max(4);
    for (node, name) in merged.nodes.iter().zip(&names) {
        let _ = writeln!(
            out,
            "{name:<width$}  {} compared, relative figure {}, {} slow series{}",
            counted(node.compared_points, "point", "points"),
            relative(node.relative),
            node.slow_series.len(),
            if node.partial { " (partial run)" } else { "" }
        );
    }
    for note in &merged.notes {
        let _ = writeln!(out, "note: {}", terminal(note));
    }
    for node in merged.slow_nodes() {
        let name = terminal(&node.name);
        for line in slow_series_lines(node) {
            let _ = writeln!(out, "SLOW {name}: {}", terminal(&line));
        }
        for telemetry in &node.telemetry {
            let _ = writeln!(out, "  {name} telemetry: {}", terminal(telemetry));
        }
    }
    let slow = merged.slow_nodes();
    let _ = writeln!(
        out,
        "{}, {}; {} beyond {}%{}",
        counted(merged.nodes.len(), "node", "nodes"),
        counted(merged.points.len(), "point", "points"),
        counted(slow.len(), "slow node", "slow nodes"),
        merged.threshold_percent,
        if slow.is_empty() {
            String::new()
        } else {
            format!(
                ": {}",
                slow.iter()
                    .map(|n| terminal(&n.name).into_owned())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    );
    out
}
