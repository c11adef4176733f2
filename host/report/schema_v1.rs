//! Reading reports of schema version 1 (ptxsuite 0.1, one GPU, series named
//! by display labels): each is converted into version 2 with the series keys
//! and axes that today's experiments give the same measurements, so `compare`
//! and `render` work across the change.

use serde::Deserialize;

use super::{
    Axis, Devices, ExperimentResult, KernelRecord, Metric, Point, PointKey, PtxRecord, Report, Scale, Series,
    SeriesKey, Status, Waiver,
};
use crate::error::{Error, Result};
use crate::facts::{DeviceInfo, Implementation};
use crate::run_settings::RunSettings;
use crate::stats::Summary;

#[derive(Deserialize)]
struct ReportV1 {
    tool_version: String,
    generated_unix_s: u64,
    ptx: PtxRecord,
    device: DeviceInfo,
    settings: RunSettings,
    kernels: Vec<KernelRecord>,
    experiments: Vec<SweepV1>,
    #[serde(default)]
    partial: bool,
    #[serde(default)]
    stop_reason: Option<String>,
    #[serde(default)]
    incomplete: Vec<String>,
}

#[derive(Deserialize)]
struct SweepV1 {
    experiment: String,
    title: String,
    guide_section: String,
    parameter: String,
    byte_counting: String,
    buffer_bytes: u64,
    block_threads: u32,
    series: Vec<SeriesV1>,
    notes: Vec<String>,
}

#[derive(Deserialize)]
struct SeriesV1 {
    name: String,
    kernel: String,
    implementation: Implementation,
    element: String,
    points: Vec<PointV1>,
}

#[derive(Deserialize)]
struct PointV1 {
    value: i64,
    elements: u64,
    bytes_per_launch: u64,
    #[serde(default)]
    flops_per_launch: Option<u64>,
    time_ms: Summary,
    effective_gbps: Option<Summary>,
    #[serde(default)]
    percent_of_theoretical: Option<f64>,
    #[serde(default)]
    sector_gbps: Option<f64>,
    verified: bool,
    #[serde(default)]
    failure: Option<String>,
}

/// The metric and x scale today's experiment of that name uses.
fn axis_of(experiment: &str, parameter: &str) -> Axis {
    let metric = match experiment {
        "sgemm" => Metric::Gflops,
        "streams" => Metric::Time,
        _ => Metric::Bandwidth,
    };
    let x_scale = match experiment {
        "transfers" | "zero-copy" | "sgemm" => Scale::Log2,
        _ => Scale::Linear,
    };
    let axis = Axis::lines(parameter, metric).x_scale(x_scale);
    match experiment {
        "matmul" | "ceiling" => axis.plot(super::PlotKind::None),
        _ => axis,
    }
}

/// The key today's experiments give the series that version 1 labelled `name`.
fn key_of(experiment: &str, s: &SeriesV1) -> SeriesKey {
    let mut key = SeriesKey::new(&s.kernel, s.implementation, &s.element).on(Devices::One(0));
    match (experiment, s.kernel.as_str()) {
        ("matvec", "vector_copy") => key.variant = "copy ceiling".into(),
        ("matmul", cublas) if cublas.starts_with("cublasSgemm") => {
            key.kernel = "cublasSgemm".into();
            key.variant = if cublas.contains('ᵀ') { "A·Aᵀ" } else { "A·B" }.into();
        }
        ("transfers", _) => {
            key.variant = s.name.split(" · ").nth(1).unwrap_or("").to_string();
        }
        ("zero-copy", _) => {
            key.variant = match s.name.as_str() {
                "kernel reads mapped host memory" => "reads mapped",
                "kernel writes mapped host memory" => "writes mapped",
                "H2D copy (pinned)" | "D2H copy (pinned)" => "pinned",
                "end to end: H2D + kernel + D2H" => "end to end: copies",
                "end to end: zero-copy kernel" => "end to end: zero copy",
                other => other,
            }
            .into();
        }
        ("streams", _) => {
            key.kernel = "fma_chain".into();
            key.variant = "staged".into();
        }
        _ => {}
    }
    key
}

fn point_of(metric: &Metric, p: &PointV1) -> Point {
    let status = if p.verified {
        Status::Ok
    } else {
        Status::Failed(p.failure.clone().unwrap_or_else(|| "failed verification".into()))
    };
    let value = match metric {
        _ if !p.verified => None,
        Metric::Bandwidth => p.effective_gbps,
        Metric::Gflops => p
            .flops_per_launch
            .map(|f| p.time_ms.map_decreasing(|ms| f as f64 / 1e9 / (ms / 1e3))),
        _ => Some(p.time_ms),
    };
    let mut point = Point {
        at: PointKey::Value(p.value),
        status,
        value,
        time_ms: Some(p.time_ms),
        elements: p.elements,
        bytes: p.bytes_per_launch,
        flops: p.flops_per_launch,
        extra: Default::default(),
        counters: Default::default(),
    };
    if let Some(g) = p.sector_gbps {
        point.set_extra("DRAM-sector GB/s", g);
    }
    if let Some(pct) = p.percent_of_theoretical {
        point.set_extra("% of peak", pct);
    }
    point
}

/// A version 1 report as version 2.
pub fn convert(value: serde_json::Value, source: &str) -> Result<Report> {
    let old: ReportV1 = serde_json::from_value(value).map_err(|e| Error::Json {
        context: format!("{source} does not match the report schema version 1"),
        source: e,
    })?;
    let experiments = old
        .experiments
        .into_iter()
        .map(|sweep| {
            let axis = axis_of(&sweep.experiment, &sweep.parameter);
            let status = old
                .incomplete
                .iter()
                .find(|i| i.starts_with(&format!("{} (", sweep.experiment)))
                .map(|i| {
                    let what = i[sweep.experiment.len() + 2..].trim_end_matches(')').to_string();
                    if what.starts_with("failed") {
                        Status::Failed(what)
                    } else {
                        Status::NotRun(what)
                    }
                })
                .unwrap_or(Status::Ok);
            let series = sweep
                .series
                .iter()
                .map(|s| Series {
                    key: key_of(&sweep.experiment, s),
                    label: s.name.clone(),
                    points: s.points.iter().map(|p| point_of(&axis.metric, p)).collect(),
                })
                .collect();
            let mut setup = Vec::new();
            if sweep.buffer_bytes > 0 {
                setup.push(format!("buffers of {} MiB", sweep.buffer_bytes >> 20));
            }
            if sweep.block_threads > 0 {
                setup.push(format!("{} threads per block", sweep.block_threads));
            }
            ExperimentResult {
                name: sweep.experiment,
                title: sweep.title,
                source: sweep.guide_section,
                device: Some(0),
                status,
                axis,
                byte_counting: sweep.byte_counting,
                setup,
                series,
                waived: Vec::<Waiver>::new(),
                notes: sweep.notes,
                artifacts: Vec::new(),
            }
        })
        .collect();
    Ok(Report {
        schema: super::SCHEMA.into(),
        schema_version: super::SCHEMA_VERSION,
        tool_version: old.tool_version,
        generated_unix_s: old.generated_unix_s,
        host: String::new(),
        ptx: old.ptx,
        devices: vec![old.device],
        settings: old.settings,
        implementations: Vec::new(),
        notes: Vec::new(),
        kernels: old.kernels,
        experiments,
        ledger: Vec::new(),
        partial: old.partial,
        stop_reason: old.stop_reason,
        telemetry: None,
    })
}
