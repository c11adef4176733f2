//! Synthetic results for the unit tests of the execution-claims
//! experiments (`instructions`, `accuracy`, `divergence`, `loop-counters`):
//! series with chosen medians and extra figures, as a run would have stored
//! them, and a report around them to render.

use crate::gpu::DeviceInfo;
use crate::report::{Axis, ExperimentResult, LedgerRow, Metric, Point, PointKey, Report, Series, SeriesKey, Status};
use crate::run_settings::RunSettings;
use crate::stats::Summary;
use crate::testbed::Implementation;

/// An ok result named `name` on GPU 0 with `series`.
pub fn result(name: &str, metric: Metric, series: Vec<Series>) -> ExperimentResult {
    ExperimentResult {
        name: name.into(),
        title: name.into(),
        source: String::new(),
        device: Some(0),
        status: Status::Ok,
        axis: Axis::lines("x", metric),
        byte_counting: String::new(),
        setup: Vec::new(),
        series,
        waived: Vec::new(),
        notes: Vec::new(),
        artifacts: Vec::new(),
    }
}

/// A series of `kernel` by `implementation` (element `element`, variant
/// `variant`) with one point per `(x, median)`: the median is both the
/// point's figure and its time in ms; `extras` are `(x, name, value)`.
pub fn series(
    kernel: &str,
    implementation: Implementation,
    (element, variant): (&str, &str),
    points: &[(i64, f64)],
    extras: &[(i64, &str, f64)],
) -> Series {
    let mut series = Series::of(SeriesKey::new(kernel, implementation, element).variant(variant));
    for &(x, median) in points {
        let mut point = Point::measured(PointKey::Value(x), &[median], Default::default(), None).expect("finite");
        point.time_ms = Summary::of(&[median]);
        for &(_, name, value) in extras.iter().filter(|e| e.0 == x) {
            point.set_extra(name, value);
        }
        series.points.push(point);
    }
    series
}

/// An H100-like GPU 0 (cc 9.0, 132 SMs, 1980 MHz).
pub fn device() -> DeviceInfo {
    DeviceInfo {
        ordinal: 0,
        name: "Test GPU".into(),
        compute_capability: (9, 0),
        multiprocessors: 132,
        l2_cache_bytes: 50 << 20,
        total_memory_bytes: 80 << 30,
        memory_clock_khz: 2_619_000,
        memory_bus_width_bits: 5120,
        sm_clock_khz: 1_980_000,
        theoretical_bandwidth_gbps: 3352.32,
        ecc_enabled: true,
        can_map_host_memory: true,
        async_copy_engines: 3,
        max_threads_per_multiprocessor: 2048,
        max_shared_memory_per_multiprocessor: 233_472,
        pci_bus_id: "0000:00:06".into(),
        max_texture_1d_linear_texels: 1 << 28,
        uuid: None,
        pcie_link: None,
        driver_version: 13000,
    }
}

/// A report of [`device`] holding `results`.
pub fn report(results: Vec<ExperimentResult>) -> Report {
    Report::new(vec![device()], &RunSettings::default(), Vec::new(), Vec::new(), results)
}

/// `results` rendered with the registry's hooks: report.md, every file's name, and the ledger.
pub fn rendered(results: Vec<ExperimentResult>) -> (String, Vec<String>, Vec<LedgerRow>) {
    let report = report(results);
    let files = report.render(&super::hooks).expect("the report renders").files;
    let markdown = files
        .iter()
        .find(|(name, _)| name == "report.md")
        .expect("report.md")
        .1
        .clone();
    let names = files.into_iter().map(|(name, _)| name).collect();
    (markdown, names, report.compute_ledger(&super::hooks))
}
