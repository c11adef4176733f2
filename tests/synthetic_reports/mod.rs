//! Reports made in the tests (no GPU): devices, points of known figures,
//! results and whole reports of a named host.

#![allow(dead_code)]

use ptxsuite::facts::CudaOrdinal;
use ptxsuite::gpu::DeviceInfo;
use ptxsuite::report::{Axis, ExperimentResult, Metric, Point, PointKey, Report, Series, SeriesKey, Status, Work};
use ptxsuite::run_settings::RunSettings;
use ptxsuite::testbed::Implementation;

pub fn device(ordinal: usize, name: &str) -> DeviceInfo {
    DeviceInfo {
        ordinal: CudaOrdinal(ordinal),
        name: name.into(),
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
        pci_bus_id: format!("0000:{:02x}:00", 0x18 + ordinal),
        max_texture_1d_linear_texels: 1 << 28,
        uuid: Some(format!("GPU-00112233-4455-6677-8899-aabbccddee{ordinal:02x}")),
        pcie_link: Some("32.0 GT/s PCIe x16".into()),
        driver_version: 13000,
    }
}

const BYTES: u64 = 64 << 20;

/// A bandwidth point of `gbps` (median; samples 1% either side), or a failed one for `None`.
pub fn bandwidth_point(at: i64, gbps: Option<f64>) -> Point {
    let ms = |g: f64| BYTES as f64 / 1e9 / g * 1e3;
    match gbps {
        Some(g) => Point::timed(
            PointKey::Value(at),
            &Metric::Bandwidth,
            Work::bytes(BYTES / 8, BYTES),
            &[ms(g * 1.01), ms(g), ms(g * 0.99)],
            None,
        ),
        None => Point::timed(
            PointKey::Value(at),
            &Metric::Bandwidth,
            Work::bytes(BYTES / 8, BYTES),
            &[1.0],
            Some("element 3 differs from the CPU reference".into()),
        ),
    }
    .unwrap()
}

/// A time point of `ms` milliseconds.
pub fn time_point(at: i64, ms: f64) -> Point {
    Point::timed(PointKey::Value(at), &Metric::Time, Work::default(), &[ms, ms, ms], None).unwrap()
}

/// A series of `kernel` by Rust on GPU `device` with `points`.
pub fn series(kernel: &str, device: usize, points: Vec<Point>) -> Series {
    let mut s =
        Series::of(SeriesKey::new(kernel, Implementation::Rust, "f32").on(ptxsuite::report::Devices::One(device)));
    s.points = points;
    s
}

/// An experiment result on GPU `device`.
pub fn result(name: &str, device: usize, metric: Metric, series: Vec<Series>) -> ExperimentResult {
    ExperimentResult {
        name: name.into(),
        title: format!("The {name} experiment"),
        source: "a test".into(),
        device: Some(device),
        status: Status::Ok,
        axis: Axis::lines("size", metric),
        byte_counting: "Br + Bw".into(),
        setup: Vec::new(),
        series,
        waived: Vec::new(),
        notes: Vec::new(),
        artifacts: Vec::new(),
    }
}

/// A copy experiment on GPU 0 whose points 0..figures.len() have these GB/s.
pub fn copy_result(figures: &[Option<f64>]) -> ExperimentResult {
    let points = figures
        .iter()
        .enumerate()
        .map(|(i, g)| bandwidth_point(i as i64, *g))
        .collect();
    result("ceiling", 0, Metric::Bandwidth, vec![series("vector_copy", 0, points)])
}

/// A report of `host` with one H100 and `experiments`.
pub fn node_report(host: &str, experiments: Vec<ExperimentResult>) -> Report {
    let mut report = Report::new(
        vec![device(0, "NVIDIA H100 80GB HBM3")],
        &RunSettings::default(),
        Vec::new(),
        Vec::new(),
        experiments,
    );
    report.host = host.into();
    report
}

pub mod full_run;
