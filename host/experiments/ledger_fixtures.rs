//! Synthetic results for the unit tests of the experiments' ledger rules:
//! series of points with chosen medians and extra figures, as a run would
//! have stored them.

use crate::report::{Axis, ExperimentResult, Metric, Point, PointKey, Series, SeriesKey, Status, Work};
use crate::testbed::Implementation;

/// An ok result of `name` with `series` on GPU 0.
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

/// A series of `kernel` by `implementation` with `variant`, one point per
/// `(x, median)`, each carrying the `extras` given for its x.
pub fn series(
    kernel: &str,
    implementation: Implementation,
    variant: &str,
    points: &[(i64, f64)],
    extras: &[(i64, &str, f64)],
) -> Series {
    let key = SeriesKey::new(kernel, implementation, "f32").variant(variant);
    let mut series = Series::of(key);
    for &(x, median) in points {
        let mut point = Point::measured(PointKey::Value(x), &[median], Work::default(), None).expect("a finite sample");
        point.time_ms = crate::stats::Summary::of(&[1.0]);
        for &(_, name, value) in extras.iter().filter(|e| e.0 == x) {
            point.set_extra(name, value);
        }
        series.points.push(point);
    }
    series
}

/// A series of `kernel` by `implementation`, one point per `(x, [min, median, max])` of its samples.
pub fn series_with_spread(kernel: &str, implementation: Implementation, points: &[(i64, [f64; 3])]) -> Series {
    let key = SeriesKey::new(kernel, implementation, "f32");
    let mut series = Series::of(key);
    for &(x, samples) in points {
        let mut point = Point::measured(PointKey::Value(x), &samples, Work::default(), None).expect("finite samples");
        point.time_ms = crate::stats::Summary::of(&[1.0]);
        series.points.push(point);
    }
    series
}

/// An H100-like GPU 0 (132 SMs, 50 MiB of L2, 3352 GB/s).
pub fn device() -> crate::facts::DeviceInfo {
    crate::facts::DeviceInfo {
        ordinal: crate::facts::CudaOrdinal(0),
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

/// `result` rendered in a report of [`device`] with the registry's hooks:
/// report.md's text, the names of every file written, and the ledger's rows.
pub fn rendered(result: ExperimentResult) -> (String, Vec<String>, Vec<crate::report::LedgerRow>) {
    let settings = crate::run_settings::RunSettings::default();
    let report = crate::report::Report::new(vec![device()], &settings, Vec::new(), Vec::new(), vec![result]);
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
