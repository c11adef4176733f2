//! `merged.json`: the per-node reports of a cluster combined point by point.
//! Its own small schema, versioned like the report's.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::report::{PointKey, SeriesKey};
use crate::stats::Summary;

/// Identifies the file format.
pub const MERGED_SCHEMA: &str = "ptxsuite-merged";
/// Bumped whenever a field changes meaning or is removed (added fields carry `#[serde(default)]`).
pub const MERGED_SCHEMA_VERSION: u32 = 1;

/// One node's figure at a point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeFigure {
    pub node: String,
    /// The median of the node's samples; `None` where its check failed.
    pub value: Option<f64>,
    /// The node's figure over the median across nodes, inverted for times (1 = the median,
    /// below 1 = slower); `None` without a figure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relative: Option<f64>,
    /// More than the threshold below the median, or failed.
    #[serde(default)]
    pub slow: bool,
}

/// One point (experiment, GPU, series, point key) across the nodes that measured it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MergedPoint {
    pub experiment: String,
    /// The GPU ordinal the result ran on; `None` for experiments of the whole node.
    pub device: Option<usize>,
    pub series: SeriesKey,
    pub label: String,
    pub parameter: String,
    pub at: PointKey,
    pub unit: String,
    pub higher_is_better: bool,
    /// Min / median / max of the nodes' figures (`None` when no node has one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub across_nodes: Option<Summary>,
    /// Every node that has the point, in node order.
    pub nodes: Vec<NodeFigure>,
    /// Nodes whose report lacks the point.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
}

/// A series on which a node is slower than the threshold allows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SlowSeries {
    pub experiment: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<usize>,
    pub label: String,
    /// Geometric mean of the node's relative figures over the series' points (`None` when
    /// every one of them failed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relative: Option<f64>,
    /// Points of the series the node has a figure for.
    pub points: usize,
    /// Points whose check failed on this node.
    #[serde(default)]
    pub failed: usize,
}

/// One node (one report).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeSummary {
    /// Its host name (or, for a report without one, its folder's name).
    pub name: String,
    /// The report file it came from.
    pub report: String,
    /// "GPU 0: NVIDIA H100 80GB HBM3", one per GPU.
    pub gpus: Vec<String>,
    pub tool_version: String,
    /// The run stopped early (Ctrl-C, an error).
    #[serde(default)]
    pub partial: bool,
    /// Its telemetry, one line per GPU (clock range, power, throttling seen), or why none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub telemetry: Vec<String>,
    /// Points compared with at least one other node.
    pub compared_points: usize,
    /// Geometric mean of its relative figures over every compared point.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relative: Option<f64>,
    /// Series on which it is slow; the node is slow if there is any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slow_series: Vec<SlowSeries>,
}

impl NodeSummary {
    pub fn is_slow(&self) -> bool {
        !self.slow_series.is_empty()
    }
}

/// Everything `ptxsuite merge` found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MergedReport {
    pub schema: String,
    pub schema_version: u32,
    pub tool_version: String,
    pub generated_unix_s: u64,
    /// How far below the median (percent) a node's figure may be.
    pub threshold_percent: f64,
    /// The rule, in words.
    pub rule: String,
    pub nodes: Vec<NodeSummary>,
    pub points: Vec<MergedPoint>,
    /// What a reader should know (different GPUs across nodes, duplicated experiments).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl MergedReport {
    /// The nodes named slow.
    pub fn slow_nodes(&self) -> Vec<&NodeSummary> {
        self.nodes.iter().filter(|n| n.is_slow()).collect()
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a merged report always serializes")
    }

    /// Reads a `merged.json`; other schemas and versions are refused.
    pub fn from_json(text: &str, source: &str) -> Result<Self> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| Error::Json {
            context: format!("{source} is not valid JSON"),
            source: e,
        })?;
        if value["schema"] != MERGED_SCHEMA || value["schema_version"] != MERGED_SCHEMA_VERSION {
            return Err(Error::InvalidInput(format!(
                "{source} is not a {MERGED_SCHEMA} file of version {MERGED_SCHEMA_VERSION}"
            )));
        }
        serde_json::from_value(value).map_err(|e| Error::Json {
            context: format!("{source} does not match the merged schema"),
            source: e,
        })
    }
}
