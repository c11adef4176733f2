use serde::{Deserialize, Serialize};

use crate::stats::Summary;

/// One measured point of a sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    /// The swept parameter (offset, stride, ...).
    pub value: i64,
    /// Threads launched (one element each).
    pub threads: u64,
    /// Bytes counted for effective bandwidth per launch: `Br + Bw`.
    pub bytes_per_launch: u64,
    /// Milliseconds per launch over the samples.
    pub time_ms: Summary,
    /// Effective bandwidth over the samples, GB/s (1e9). `None` when the
    /// result failed verification: no figure is reported from a wrong result.
    pub effective_gbps: Option<Summary>,
    /// Median effective bandwidth as % of the theoretical peak.
    pub percent_of_theoretical: Option<f64>,
    /// Whether the output matched the CPU reference exactly.
    pub verified: bool,
    /// The first mismatch, when not verified.
    pub failure: Option<String>,
}

/// A whole sweep, as it appears in `report.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepResult {
    pub experiment: String,
    pub title: String,
    pub guide_section: String,
    pub kernel: String,
    /// Name of the swept parameter.
    pub parameter: String,
    /// How `bytes_per_launch` is counted.
    pub byte_counting: String,
    pub buffer_bytes: u64,
    pub block_threads: u32,
    pub points: Vec<SweepPoint>,
}

impl SweepResult {
    pub fn all_verified(&self) -> bool {
        self.points.iter().all(|p| p.verified)
    }

    /// The point for a parameter value.
    pub fn point(&self, value: i64) -> Option<&SweepPoint> {
        self.points.iter().find(|p| p.value == value)
    }
}
