//! NVML telemetry without a GPU: the sampler without libnvidia-ml says so
//! (and the report carries the note, never an error); a run's telemetry in
//! report.json, in report.md's header and sections (a power-capped run shows
//! it), and in `merge`'s node table.

mod synthetic_reports;

use std::time::Duration;

use ptxsuite::facts::{
    CudaOrdinal, LinkEnd, LinkSpeedSource, MatchedBy, NvLinkFacts, NvLinkVersion, NvmlDeviceFacts, PciLocation,
    PcieLinkFacts, TelemetryRecord, TelemetrySample,
};
use ptxsuite::nvml::{
    DEFAULT_SAMPLE_INTERVAL, ExperimentWindow, Nvml, NvmlError, NvmlGpus, SampleRound, TelemetrySampler,
};
use ptxsuite::report::{Report, no_hooks};
use synthetic_reports::{copy_result, device, node_report};

const POWER_CAP: u64 = 0x4;
const IDLE: u64 = 0x1;

#[test]
fn without_libnvidia_ml_the_sampler_says_so() {
    let gpus = Nvml::open_first(&["/nonexistent/lib64/libnvidia-ml.so.1"]).and_then(|nvml| NvmlGpus::with(nvml, &[]));
    let why = match &gpus {
        Err(e @ NvmlError::NotLoaded(_)) => e.to_string(),
        Err(other) => panic!("expected NotLoaded, got {other:?}"),
        Ok(_) => panic!("a library that does not exist was opened"),
    };
    let mut sampler = TelemetrySampler::start(gpus.as_ref().map_err(|_| why.as_str()), DEFAULT_SAMPLE_INTERVAL);
    assert!(!sampler.is_sampling());
    let window = sampler.begin();
    sampler.end(window, "offset", Some(0));
    let record = sampler.finish();
    assert!(record.devices.is_empty());
    assert_eq!(record.notes.len(), 1);
    assert!(
        record.notes[0].starts_with("no telemetry: NVML is not available: libnvidia-ml could not be loaded"),
        "{:?}",
        record.notes
    );

    // The report carries the note in its header; nothing fails.
    let mut report = node_report("n1", vec![copy_result(&[Some(3000.0)])]);
    report.telemetry = Some(record);
    let md = report.markdown(&no_hooks);
    assert!(md.contains("| Telemetry | no telemetry: NVML is not available"), "{md}");
    assert!(!md.contains("*Telemetry (NVML):*"));
}

#[test]
fn on_this_machine_nvml_opens_or_says_why() {
    // With an NVIDIA driver this opens NVML; without one (CI) it is a typed error, never a panic.
    match NvmlGpus::open(&[]) {
        Ok(gpus) => assert!(gpus.gpus().is_empty() && gpus.source().starts_with("NVML")),
        Err(NvmlError::NotLoaded(why)) => assert!(why.contains("libnvidia-ml.so.1"), "{why}"),
        Err(NvmlError::Call { call, .. }) => assert_eq!(call, "nvmlInit_v2"),
        Err(other) => panic!("unexpected {other:?}"),
    }
}

fn facts(bus: u32, peer_bus: u32) -> NvmlDeviceFacts {
    let pci = |bus| PciLocation {
        domain: 0,
        bus,
        device: 0,
    };
    NvmlDeviceFacts {
        name: "NVIDIA H100 80GB HBM3".into(),
        uuid: format!("GPU-{bus:x}"),
        pci: Some(pci(bus)),
        matched_by: MatchedBy::Uuid,
        pcie: PcieLinkFacts {
            max_generation: Some(5),
            max_width: Some(16),
            gpu_max_generation: Some(5),
            current_generation: Some(5),
            current_width: Some(16),
        },
        nvlinks: (0..4)
            .map(|link| NvLinkFacts {
                link,
                active: true,
                version: Some(NvLinkVersion::V4_0),
                speed_gbps: Some(25.0),
                speed_source: Some(LinkSpeedSource::Nvml),
                remote: LinkEnd::Gpu { pci: pci(peer_bus) },
            })
            .collect(),
        max_sm_clock_mhz: Some(1980),
        max_memory_clock_mhz: Some(2619),
        power_limit_w: Some(700.0),
    }
}

fn sample(sm: u32, watts: u32, bits: u64) -> TelemetrySample {
    TelemetrySample {
        sm_clock_mhz: Some(sm),
        memory_clock_mhz: Some(2619),
        power_mw: Some(watts * 1000),
        temperature_c: Some(30 + watts / 20),
        reason_bits: Some(bits),
        pcie_generation: Some(5),
    }
}

/// Two GPUs, sampled five times; GPU 0 is power-capped during `sgemm`.
fn throttled_record() -> TelemetryRecord {
    let rounds: Vec<SampleRound> = [
        (sample(345, 70, IDLE), sample(345, 70, IDLE)),
        (sample(1980, 450, 0), sample(345, 71, IDLE)),
        (sample(1980, 460, 0), sample(345, 70, IDLE)),
        (sample(1755, 699, POWER_CAP), sample(345, 70, IDLE)),
        (sample(1830, 700, POWER_CAP), sample(345, 70, IDLE)),
    ]
    .into_iter()
    .enumerate()
    .map(|(i, (a, b))| SampleRound {
        at_ms: 100.0 * i as f64,
        samples: vec![a, b],
    })
    .collect();
    let window = |experiment: &str, first_round, last_round| ExperimentWindow {
        experiment: experiment.into(),
        device: Some(0),
        first_round,
        last_round,
    };
    TelemetryRecord::build(
        "NVML (driver 580.82.07, NVML 13.580.82; libnvidia-ml.so.1)".into(),
        100,
        Vec::new(),
        vec![(CudaOrdinal(0), facts(0x18, 0x2a)), (CudaOrdinal(1), facts(0x2a, 0x18))],
        &rounds,
        &[window("ceiling", 1, 2), window("sgemm", 3, 4)],
    )
}

fn two_gpu_report() -> Report {
    let mut report = node_report("n1", vec![copy_result(&[Some(3000.0), Some(2900.0)])]);
    report.devices.push(device(1, "NVIDIA H100 80GB HBM3"));
    report.telemetry = Some(throttled_record());
    report
}

#[test]
fn a_power_capped_run_shows_in_the_header_and_the_sections() {
    let report = two_gpu_report();
    let md = report.markdown(&no_hooks);
    assert!(
        md.contains(
            "| GPU 0: during the run (NVML, 5 samples) | SM clock 345–1980 MHz (median 1830), memory clock 2619 MHz, \
             power 70–700 W (limit 700 W), 33–65 °C; power-capped during sgemm |"
        ),
        "{md}"
    );
    assert!(
        md.contains("| GPU 1: during the run (NVML, 5 samples) | SM clock 345 MHz, memory clock 2619 MHz, power 70–71 W (limit 700 W), 33 °C; no power or thermal slowdown seen |"),
        "{md}"
    );
    assert!(
        md.contains(
            "| GPU 0: links (NVML) | PCIe gen 5 ×16 (63.0 GB/s per direction); NVLink: 4 active links, NVLink 4.0, \
             25.0 GB/s each: 100.0 GB/s per direction (to GPU 1: 100.0 GB/s) |"
        ),
        "{md}"
    );
    assert!(md.contains("| Telemetry | NVML (driver 580.82.07"), "{md}");
    // The ceiling section (GPU 0) gets its own window: full clocks, no cap.
    assert!(
        md.contains("*Telemetry (NVML):* GPU 0: SM clock 1980 MHz, memory clock 2619 MHz, power 450–460 W, 52–53 °C over 2 samples."),
        "{md}"
    );
}

#[test]
fn telemetry_round_trips_through_report_json_and_old_reports_have_none() {
    let report = two_gpu_report();
    let text = report.to_json();
    assert!(text.contains("\"telemetry\""));
    assert!(text.contains("\"sw-power-cap\""));
    let loaded = Report::from_json(&text, "report.json").unwrap();
    // (The points' times may differ in their last bit: serde_json's default float parsing.)
    assert_eq!(loaded.telemetry, report.telemetry);
    assert_eq!(
        loaded
            .telemetry
            .unwrap()
            .interconnect()
            .nvlink_theoretical_gbps(CudaOrdinal(0), CudaOrdinal(1)),
        Some(100.0)
    );

    let mut old = node_report("n1", vec![copy_result(&[Some(3000.0)])]);
    old.telemetry = None;
    let old_text = old.to_json();
    assert!(!old_text.contains("telemetry"));
    let loaded = Report::from_json(&old_text, "old.json").unwrap();
    assert_eq!(loaded.telemetry, None);
    assert!(!loaded.markdown(&no_hooks).contains("Telemetry"));
}

#[test]
fn merge_shows_each_nodes_telemetry() {
    let throttled = two_gpu_report();
    let mut cool = node_report("n2", vec![copy_result(&[Some(3000.0), Some(2900.0)])]);
    cool.telemetry = Some(TelemetryRecord::unavailable("NVML is not available: test"));
    let merged = ptxsuite::merge::merge(
        &[("a/report.json".into(), throttled), ("b/report.json".into(), cool)],
        5.0,
    )
    .unwrap();
    assert!(
        merged.nodes[0].telemetry[0].starts_with("GPU 0: SM clock 345–1980 MHz")
            && merged.nodes[0].telemetry[0].ends_with("power-capped during sgemm"),
        "{:?}",
        merged.nodes[0].telemetry
    );
    assert_eq!(
        merged.nodes[1].telemetry,
        vec!["no telemetry: NVML is not available: test".to_string()]
    );
    assert!(ptxsuite::merge::markdown(&merged).contains("power-capped during sgemm"));
}

#[test]
fn a_sampler_stops_its_thread_when_dropped_early() {
    // Without NVML there is no thread; what matters here is that dropping never hangs or panics.
    let sampler = TelemetrySampler::start(Err("no NVML in this test"), Duration::from_millis(5));
    drop(sampler);
}
