use serde::{Deserialize, Serialize};

use crate::gpu::Implementation;
use crate::stats::Summary;

/// One measured point of one series.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    /// The swept parameter (offset, stride, shift, ...).
    pub value: i64,
    /// Elements copied per launch (one per thread in the guide's kernels).
    pub elements: u64,
    /// Bytes counted for effective bandwidth per launch: `Br + Bw` (useful bytes).
    pub bytes_per_launch: u64,
    /// DRAM traffic per launch if every 32-byte sector touched moves once
    /// (reads + writes), computed from the addresses; `None` where not modelled.
    pub sector_bytes_per_launch: Option<u64>,
    /// Floating-point operations per launch, for compute kernels (GFLOP/s is
    /// derived from it and `time_ms`: [`SweepPoint::gflops`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flops_per_launch: Option<u64>,
    /// Milliseconds per launch over the samples.
    pub time_ms: Summary,
    /// Effective bandwidth over the samples, GB/s (1e9). `None` when the
    /// result failed verification: no figure is reported from a wrong result.
    pub effective_gbps: Option<Summary>,
    /// Median effective bandwidth as % of the theoretical peak.
    pub percent_of_theoretical: Option<f64>,
    /// `sector_bytes_per_launch` over the median time, GB/s.
    pub sector_gbps: Option<f64>,
    /// Whether the output matched the CPU reference bit for bit.
    pub verified: bool,
    /// The first mismatch, when not verified.
    pub failure: Option<String>,
}

impl SweepPoint {
    /// A point from per-launch times: `bytes` counted per launch give the
    /// bandwidth of each sample; a `failure` withholds the bandwidth (no
    /// figure is reported from a wrong result). `None` without finite samples.
    pub fn measured(value: i64, elements: u64, bytes: u64, times_ms: &[f64], failure: Option<String>) -> Option<Self> {
        let time_ms = Summary::of(times_ms)?;
        let gbps: Vec<f64> = times_ms.iter().map(|ms| bytes as f64 / 1e9 / (ms / 1e3)).collect();
        let effective_gbps = if failure.is_none() { Summary::of(&gbps) } else { None };
        Some(Self {
            value,
            elements,
            bytes_per_launch: bytes,
            sector_bytes_per_launch: None,
            flops_per_launch: None,
            time_ms,
            effective_gbps,
            percent_of_theoretical: None,
            sector_gbps: None,
            verified: failure.is_none(),
            failure,
        })
    }

    /// Records the floating-point operations of one launch.
    pub fn with_flops(mut self, flops: u64) -> Self {
        self.flops_per_launch = Some(flops);
        self
    }

    /// GFLOP/s (1e9 operations per second) over the samples, for verified
    /// points of compute kernels.
    pub fn gflops(&self) -> Option<Summary> {
        let flops = self.flops_per_launch? as f64;
        self.verified
            .then(|| self.time_ms.map_decreasing(|ms| flops / 1e9 / (ms / 1e3)))
    }

    /// Sets `percent_of_theoretical` from the median bandwidth.
    pub fn with_peak(mut self, theoretical_gbps: f64) -> Self {
        self.percent_of_theoretical = self
            .effective_gbps
            .map(|g| crate::bandwidth::percent_of(g.median, theoretical_gbps));
        self
    }
}

/// One kernel (or the driver's copy) measured over the sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeriesResult {
    /// `kernel · implementation`, as plots and tables name it.
    pub name: String,
    pub kernel: String,
    pub implementation: Implementation,
    /// Element type moved (`f16`, `f32`, `f64`, `f32x4`).
    pub element: String,
    pub element_bytes: u32,
    pub points: Vec<SweepPoint>,
}

/// A whole experiment, as it appears in `report.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepResult {
    pub experiment: String,
    pub title: String,
    pub guide_section: String,
    /// Name of the swept parameter.
    pub parameter: String,
    /// How `bytes_per_launch` is counted.
    pub byte_counting: String,
    /// Bytes of each of the two buffers.
    pub buffer_bytes: u64,
    pub block_threads: u32,
    pub series: Vec<SeriesResult>,
    /// What was skipped and why (e.g. no NVRTC for the CUDA C twins).
    pub notes: Vec<String>,
}

impl SweepResult {
    pub fn all_verified(&self) -> bool {
        self.series.iter().all(|s| s.points.iter().all(|p| p.verified))
    }

    /// A series by kernel, implementation and element.
    pub fn series_for(&self, kernel: &str, implementation: Implementation) -> Option<&SeriesResult> {
        self.series
            .iter()
            .find(|s| s.kernel == kernel && s.implementation == implementation)
    }

    /// A series by its display name.
    pub fn series_named(&self, name: &str) -> Option<&SeriesResult> {
        self.series.iter().find(|s| s.name == name)
    }

    /// The parameter values, in sweep order.
    pub fn values(&self) -> Vec<i64> {
        self.series
            .first()
            .map(|s| s.points.iter().map(|p| p.value).collect())
            .unwrap_or_default()
    }
}

impl SeriesResult {
    pub fn point(&self, value: i64) -> Option<&SweepPoint> {
        self.points.iter().find(|p| p.value == value)
    }

    /// Median effective GB/s at `value`, if measured and verified.
    pub fn median_gbps(&self, value: i64) -> Option<f64> {
        self.point(value).and_then(|p| p.effective_gbps).map(|g| g.median)
    }
}
