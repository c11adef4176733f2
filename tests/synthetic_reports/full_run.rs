//! A full run as a reader gets it, made here (no GPU): the version 1 report
//! of a real H100 run for the experiments it holds (offset to streams), and
//! for the others series with today's keys and figures shaped like the
//! README's H100 and H200 runs (13 transfer series from 4 KiB to 1 GiB, sgemm
//! at 1024³–8192³ and 4095³, the latency curve, occupancy sweeps, divergence,
//! the particles' block shapes); and a node of four GPUs for the pair plots.
//! What the plots and report.md of a real run look like is judged on these.

use ptxsuite::report::{
    Axis, Devices, ExperimentResult, Metric, PlotKind, Point, PointKey, Report, Scale, Series, SeriesKey, Status, Work,
};
use ptxsuite::testbed::Implementation;

use super::device;

const V1_REPORT: &str = include_str!("../fixtures/report_v1_h100.json");

/// A point of median `median` with samples 1% either side.
fn point(at: i64, median: f64) -> Point {
    Point::measured(
        PointKey::Value(at),
        &[median * 0.99, median, median * 1.01],
        Work::default(),
        None,
    )
    .unwrap()
}

fn series(kernel: &str, implementation: Implementation, element: &str, variant: &str, label: &str) -> Series {
    Series::new(SeriesKey::new(kernel, implementation, element).variant(variant), label)
}

fn result(name: &str, title: &str, axis: Axis, series: Vec<Series>) -> ExperimentResult {
    ExperimentResult {
        name: name.into(),
        title: title.into(),
        source: "synthetic, shaped like the README's H100 run".into(),
        device: Some(0),
        status: Status::Ok,
        axis,
        byte_counting: String::new(),
        setup: Vec::new(),
        series,
        waived: Vec::new(),
        notes: Vec::new(),
        artifacts: Vec::new(),
    }
}

/// Bandwidth of a copy of `kib` KiB that reaches `peak` GB/s with `latency_us` of setup.
fn ramp(kib: i64, peak: f64, latency_us: f64) -> f64 {
    let bytes = kib as f64 * 1024.0;
    bytes / (bytes / (peak * 1e9) + latency_us * 1e-6) / 1e9
}

/// transfers: H2D and D2H from four kinds of host memory, D2D, and OpenCL's four, 4 KiB–1 GiB.
fn transfers() -> ExperimentResult {
    let sizes: Vec<i64> = (0..10).map(|i| 4i64 << (2 * i)).collect();
    let mut all = Vec::new();
    for (call, short, peaks) in [
        ("cuMemcpyHtoD", "H2D", [6.3, 53.1, 53.0, 52.8]),
        ("cuMemcpyDtoH", "D2H", [11.2, 54.4, 54.3, 54.1]),
    ] {
        for (kind, peak) in ["pageable", "pinned", "write-combined", "mapped"]
            .into_iter()
            .zip(peaks)
        {
            let mut s = series(
                call,
                Implementation::CopyEngine,
                "f32",
                kind,
                &format!("{short} · {kind}"),
            );
            let latency = if kind == "pageable" { 12.0 } else { 2.5 };
            s.points = sizes.iter().map(|&k| point(k, ramp(k, peak, latency))).collect();
            all.push(s);
        }
    }
    let mut d2d = series("cuMemcpyDtoD", Implementation::CopyEngine, "f32", "", "D2D");
    d2d.points = sizes.iter().map(|&k| point(k, ramp(k, 1450.0, 3.0))).collect();
    all.push(d2d);
    for (call, short) in [("clEnqueueWriteBuffer", "H2D"), ("clEnqueueReadBuffer", "D2H")] {
        for (variant, peak) in [("ordinary", 6.6), ("ALLOC_HOST_PTR", 52.3)] {
            let mut s = series(
                call,
                Implementation::OpenClC,
                "f32",
                variant,
                &format!("{short} · OpenCL {variant}"),
            );
            s.points = sizes.iter().map(|&k| point(k, ramp(k, peak, 9.0))).collect();
            all.push(s);
        }
    }
    let axis = Axis::lines("size (KiB)", Metric::Bandwidth)
        .x_scale(Scale::Log2)
        .y_scale(Scale::Log10)
        .reference("PCIe link, theoretical per direction", 63.0);
    result(
        "transfers",
        "Host↔device transfers: pageable, pinned, write-combined and mapped memory",
        axis,
        all,
    )
}

/// sgemm at 1024³–8192³ and the unaligned 4095³, GFLOP/s.
fn sgemm() -> ExperimentResult {
    let sizes = [1024i64, 2048, 4095, 4096, 8192];
    let mut all = Vec::new();
    for (kernel, implementation, element, label, figures) in [
        (
            "tiled_sgemm",
            Implementation::Rust,
            "f32",
            "tiled_sgemm · Rust",
            [6900.0, 7900.0, 7200.0, 8100.0, 8000.0],
        ),
        (
            "tiled_sgemm",
            Implementation::CudaC,
            "f32",
            "tiled_sgemm · CUDA C",
            [6800.0, 7800.0, 7100.0, 8000.0, 7900.0],
        ),
        (
            "tiled_sgemm",
            Implementation::OpenClC,
            "f32",
            "tiled_sgemm · OpenCL C",
            [5600.0, 6300.0, 5800.0, 6600.0, 6500.0],
        ),
        (
            "sgemm_register_blocked",
            Implementation::Rust,
            "f32",
            "sgemm_register_blocked · Rust",
            [19000.0, 41000.0, 30500.0, 44400.0, 45000.0],
        ),
        (
            "sgemm_register_blocked",
            Implementation::CudaC,
            "f32",
            "sgemm_register_blocked · CUDA C",
            [21000.0, 42500.0, 31000.0, 45000.0, 45500.0],
        ),
        (
            "hgemm_f16_storage",
            Implementation::Rust,
            "f16",
            "hgemm_f16_storage · Rust",
            [18000.0, 40000.0, 29000.0, 43000.0, 44000.0],
        ),
        (
            "cublasSgemm",
            Implementation::Cublas,
            "f32",
            "cublasSgemm",
            [36000.0, 50200.0, 47000.0, 51500.0, 51000.0],
        ),
    ] {
        let mut s = series(kernel, implementation, element, "", label);
        s.points = sizes.iter().zip(figures).map(|(&n, g)| point(n, g)).collect();
        all.push(s);
    }
    result(
        "sgemm",
        "General matrix multiply: tiled and register-blocked SGEMM against cuBLAS",
        Axis::lines("m = n = k (elements)", Metric::Gflops).x_scale(Scale::Log2),
        all,
    )
}

/// latency: the pointer chase from 1 KiB to 4 GiB, 4 points per octave, SM clocks.
fn latency() -> ExperimentResult {
    let mut chase = series("pointer_chase", Implementation::Rust, "u32", "", "pointer_chase · Rust");
    let mut twin = series(
        "pointer_chase",
        Implementation::CudaC,
        "u32",
        "",
        "pointer_chase · CUDA C",
    );
    for k in 0..89 {
        let bytes = (1024.0 * 2f64.powf(k as f64 / 4.0)) as i64;
        let clocks = if bytes <= 192 << 10 {
            33.0
        } else if bytes <= 40 << 20 {
            262.0
        } else if bytes <= 2 << 30 {
            688.0
        } else {
            910.0
        };
        chase.points.push(point(bytes, clocks));
        twin.points.push(point(bytes, clocks * 1.01));
    }
    let mut shared = series(
        "shared_pointer_chase",
        Implementation::Rust,
        "u32",
        "",
        "shared_pointer_chase · Rust",
    );
    shared.points = (10..=17).map(|e| point(1 << e, 29.0)).collect();
    let axis = Axis::lines("working set (bytes)", Metric::custom("latency", "SM clk", false))
        .x_scale(Scale::Log2)
        .y_scale(Scale::Log10)
        .plot(PlotKind::None);
    result(
        "latency",
        "Memory latency: a dependent pointer chase over 1 KiB–4 GiB",
        axis,
        vec![chase, twin, shared],
    )
}

/// occupancy: the shared-memory sweep (by theoretical occupancy %) and the block sizes.
fn occupancy() -> ExperimentResult {
    let mut all = Vec::new();
    for (kernel, label, base) in [
        ("occupancy_copy", "occupancy_copy · Rust", 2950.0),
        ("occupancy_chase", "occupancy_chase · Rust", 1400.0),
    ] {
        let mut s = series(kernel, Implementation::Rust, "f32", "shared-memory sweep", label);
        s.points = [3, 6, 9, 12, 19, 25, 38, 50, 75, 100]
            .into_iter()
            .map(|pct| {
                point(
                    pct,
                    base * (pct as f64 / 100.0).powf(if base > 2000.0 { 0.15 } else { 0.8 }),
                )
            })
            .collect();
        all.push(s);
        let mut b = series(kernel, Implementation::Rust, "f32", "block-size sweep", label);
        b.points = [32, 48, 64, 128, 200, 256, 512, 1000, 1024]
            .into_iter()
            .map(|t| point(t, base * (1.0 - 0.3 / (t as f64 / 32.0))))
            .collect();
        all.push(b);
    }
    let axis = Axis::lines("occupancy", Metric::Bandwidth).plot(PlotKind::None);
    result("occupancy", "Occupancy: resident warps against bandwidth", axis, all)
}

/// divergence: k paths per warp, per lane and per warp, ms.
fn divergence() -> ExperimentResult {
    let mut all = Vec::new();
    for (kernel, label, per) in [
        ("divergent_lane_paths", "divergent_lane_paths · Rust", true),
        ("uniform_warp_paths", "uniform_warp_paths · Rust", false),
    ] {
        let mut s = series(kernel, Implementation::Rust, "f32", "", label);
        s.points = [1, 2, 4, 8, 16, 32]
            .into_iter()
            .map(|k| point(k, if per { 0.21 * k as f64 * 0.99 } else { 0.21 }))
            .collect();
        all.push(s);
    }
    let axis = Axis::lines("distinct paths per warp, k (count)", Metric::Time)
        .x_scale(Scale::Log2)
        .plot(PlotKind::None);
    result(
        "divergence",
        "Divergence: paths per lane against paths per warp",
        axis,
        all,
    )
}

/// particles: update rates of both systems at both populations for the notes' 12 block shapes.
fn particles() -> ExperimentResult {
    let mut all = Vec::new();
    let shapes = 12;
    for (kernel, system) in [("particle_fountain", "fountain"), ("particle_swarm", "swarm")] {
        for (variant, scale) in [("256x256", 17.4), ("4096x4096", 30.0)] {
            for implementation in [Implementation::Rust, Implementation::CudaC] {
                let mut s = series(
                    kernel,
                    implementation,
                    "f32x4",
                    variant,
                    &format!("{system} {variant} · {}", implementation.label()),
                );
                s.points = (1..=shapes)
                    .map(|row| {
                        point(
                            row,
                            scale
                                * [1.0, 0.97, 0.95, 0.96, 0.94, 0.9, 0.8, 0.45, 0.7, 0.2, 0.3, 0.06][row as usize - 1],
                        )
                    })
                    .collect();
                all.push(s);
            }
        }
    }
    let axis = Axis::lines("block", Metric::custom("particle update rate", "G updates/s", true)).plot(PlotKind::None);
    result(
        "particles",
        "Particles: the notes' fountain and swarm by block shape",
        axis,
        all,
    )
}

/// constant memory: SM clocks per warp read against distinct addresses per warp.
fn constant_memory() -> ExperimentResult {
    let mut all = Vec::new();
    for (variant, label, one, slope) in [
        ("constant", "ld.const · Rust", 8.0, 1.0),
        ("global-nc", "ld.global.nc · Rust", 30.0, 0.12),
        ("shared", "shared memory · Rust", 24.0, 0.02),
    ] {
        let mut s = series("constant_chase", Implementation::Rust, "u32", variant, label);
        s.points = [1, 2, 4, 8, 16, 32]
            .into_iter()
            .map(|n| point(n, one * (1.0 + slope * (n as f64 - 1.0))))
            .collect();
        all.push(s);
    }
    let axis = Axis::lines(
        "distinct addresses per warp request (count)",
        Metric::custom("cost per warp read", "SM clk", false),
    )
    .x_scale(Scale::Log2)
    .y_scale(Scale::Log10);
    result(
        "constant-memory",
        "Constant memory: broadcast against serialized reads",
        axis,
        all,
    )
}

/// The H100 run: the version 1 experiments with today's axes, then the rest.
pub fn h100_full_run() -> Report {
    let mut report = Report::from_json(V1_REPORT, "report_v1_h100.json").expect("the fixture loads");
    report.host = "h100-node".into();
    for e in &mut report.experiments {
        e.axis.parameter = match e.name.as_str() {
            "offset" => "offset (elements)".into(),
            "stride" => "stride (elements)".into(),
            "shift" => "shift (elements)".into(),
            "streams" => "streams (count)".into(),
            _ => e.axis.parameter.clone(),
        };
    }
    report
        .experiments
        .retain(|e| e.name != "transfers" && e.name != "sgemm");
    let at = report
        .experiments
        .iter()
        .position(|e| e.name == "zero-copy")
        .unwrap_or(0);
    report.experiments.insert(at, transfers());
    report.experiments.insert(at, sgemm());
    report
        .experiments
        .extend([constant_memory(), latency(), occupancy(), divergence(), particles()]);
    report
}

/// A node of four GPUs joined by NVLink: peer matrices (copy engine, Rust pull and push, CUDA C
/// pull, both directions), the size sweeps of GPU 0 → 1, and the link latency.
pub fn node_of_four() -> Report {
    let mut report = super::node_report("h100x4-node", Vec::new());
    report.devices = (0..4).map(|i| device(i, "NVIDIA H100 80GB HBM3")).collect();
    let mut all = Vec::new();
    let work = Work::bytes(1 << 28, 1 << 30);
    for (kernel, implementation, variant, label, base) in [
        (
            "cuMemcpyPeerAsync",
            Implementation::CopyEngine,
            "one way",
            "CE copy, one way",
            397.0,
        ),
        (
            "vector_copy",
            Implementation::Rust,
            "pull",
            "SM copy, pull (reads the peer) · Rust",
            375.0,
        ),
        (
            "vector_copy",
            Implementation::CudaC,
            "pull",
            "SM copy, pull (reads the peer) · CUDA C",
            375.0,
        ),
        (
            "vector_copy",
            Implementation::Rust,
            "push",
            "SM copy, push (writes the peer) · Rust",
            374.0,
        ),
    ] {
        let mut s = Series::new(
            SeriesKey::new(kernel, implementation, "f32")
                .variant(variant)
                .on(Devices::All),
            label,
        );
        for src in 0..4 {
            for dst in (0..4).filter(|&d| d != src) {
                let gbps = base * (1.0 - 0.01 * ((src + 2 * dst) % 3) as f64);
                let ms = (1u64 << 30) as f64 / 1e9 / gbps * 1e3;
                s.points.push(
                    Point::timed(
                        PointKey::Pair { src, dst },
                        &Metric::Bandwidth,
                        work,
                        &[ms * 1.002, ms, ms * 0.998],
                        None,
                    )
                    .unwrap(),
                );
            }
        }
        all.push(s);
    }
    for (implementation, variant, label, peak) in [
        (Implementation::CopyEngine, "one way", "CE copy, GPU 0 → GPU 1", 397.0),
        (Implementation::Rust, "pull", "SM pull, GPU 0 → GPU 1 · Rust", 375.0),
    ] {
        let kernel = if implementation == Implementation::CopyEngine {
            "cuMemcpyPeerAsync"
        } else {
            "vector_copy"
        };
        let mut s = Series::new(
            SeriesKey::new(kernel, implementation, "f32")
                .variant(variant)
                .on(Devices::Pair { src: 0, dst: 1 }),
            label,
        );
        s.points = (0..11)
            .map(|i| point(1 << i, ramp((1 << i) * 1024, peak, 8.0)))
            .collect();
        all.push(s);
    }
    report.experiments.push(ExperimentResult {
        name: "peer".into(),
        title: "Peer-to-peer copies between GPUs (nvbandwidth's device-to-device tests)".into(),
        source: "synthetic".into(),
        device: None,
        status: Status::Ok,
        axis: Axis::lines("size (MiB)", Metric::Bandwidth)
            .x_scale(Scale::Log2)
            .plot(PlotKind::HeatMap),
        byte_counting: String::new(),
        setup: Vec::new(),
        series: all,
        waived: Vec::new(),
        notes: Vec::new(),
        artifacts: Vec::new(),
    });
    report
}
