//! The report's telemetry lines: per GPU its links and what its clocks,
//! power and temperature did during the run (and per experiment), with the
//! experiments during which a power or thermal limit held the clocks down.

use super::{ExperimentResult, Report};
use crate::facts::{ClockEventReason, DeviceTelemetry, TelemetryRecord, TelemetrySummary};
use crate::stats::Summary;

/// `1755–1980 MHz`, or `1980 MHz` when every sample agreed.
fn range(s: &Summary, unit: &str) -> String {
    if (s.max - s.min).abs() < 0.5 {
        format!("{:.0} {unit}", s.median)
    } else {
        format!("{:.0}–{:.0} {unit}", s.min, s.max)
    }
}

/// "SM clock 1755–1980 MHz (median 1905), memory clock 2619 MHz, power 120–699 W (limit 700 W), 41–58 °C".
pub fn figures(summary: &TelemetrySummary, power_limit_w: Option<f64>) -> String {
    let mut parts = Vec::new();
    if let Some(sm) = &summary.sm_clock_mhz {
        let median = if (sm.max - sm.min).abs() < 0.5 {
            String::new()
        } else {
            format!(" (median {:.0})", sm.median)
        };
        parts.push(format!("SM clock {}{median}", range(sm, "MHz")));
    }
    if let Some(memory) = &summary.memory_clock_mhz {
        parts.push(format!("memory clock {}", range(memory, "MHz")));
    }
    if let Some(power) = &summary.power_w {
        let limit = power_limit_w.map(|w| format!(" (limit {w:.0} W)")).unwrap_or_default();
        parts.push(format!("power {}{limit}", range(power, "W")));
    }
    if let Some(t) = &summary.temperature_c {
        parts.push(range(t, "°C"));
    }
    if let Some(generation) = &summary.pcie_generation
        && generation.max - generation.min >= 0.5
    {
        parts.push(format!("PCIe gen {:.0}–{:.0}", generation.min, generation.max));
    }
    if parts.is_empty() {
        "no figure reported".into()
    } else {
        parts.join(", ")
    }
}

/// "power-capped during sgemm, ceiling; thermal slowdown during sgemm", or that none was seen.
pub fn slowdowns(device: &DeviceTelemetry) -> String {
    let mut seen: Vec<(ClockEventReason, Vec<&str>)> = Vec::new();
    for experiment in &device.experiments {
        for count in experiment.summary.slowdowns() {
            match seen.iter_mut().find(|(r, _)| *r == count.reason) {
                Some((_, names)) => {
                    if !names.contains(&experiment.experiment.as_str()) {
                        names.push(&experiment.experiment);
                    }
                }
                None => seen.push((count.reason, vec![&experiment.experiment])),
            }
        }
    }
    // A slowdown between experiments still counts.
    for count in device.run.slowdowns() {
        if !seen.iter().any(|(r, _)| *r == count.reason) {
            seen.push((count.reason, Vec::new()));
        }
    }
    if seen.is_empty() {
        return if device.run.reason_samples > 0 {
            "no power or thermal slowdown seen".into()
        } else {
            "clock event reasons not reported".into()
        };
    }
    seen.sort_by_key(|(r, _)| *r);
    seen.iter()
        .map(|(reason, names)| {
            if names.is_empty() {
                format!("{reason} between experiments")
            } else {
                format!("{reason} during {}", names.join(", "))
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// "links: PCIe gen 5 ×16 (63.0 GB/s per direction); NVLink: 18 active links, …; to GPU 1: 450.0 GB/s".
fn links(record: &TelemetryRecord, device: &DeviceTelemetry) -> String {
    let mut text = format!("PCIe {}", device.facts.pcie.describe());
    match device.facts.describe_nvlinks() {
        Some(nvlinks) => {
            text.push_str(&format!("; NVLink: {nvlinks}"));
            let interconnect = record.interconnect();
            let peers: Vec<String> = record
                .devices
                .iter()
                .filter_map(|other| {
                    let route = interconnect.nvlink_route(device.ordinal, other.ordinal)?;
                    let via = if route.switched_links > 0 { " via NVSwitch" } else { "" };
                    Some(format!("to GPU {}: {:.1} GB/s{via}", other.ordinal, route.gbps))
                })
                .collect();
            if !peers.is_empty() {
                text.push_str(&format!(" ({})", peers.join(", ")));
            }
        }
        None => text.push_str("; no NVLink"),
    }
    text
}

/// The header rows `(label, text)` of the telemetry: where it comes from or why there is none,
/// then per GPU its links and its run.
pub fn header_rows(report: &Report) -> Vec<(String, String)> {
    let Some(record) = &report.telemetry else {
        return Vec::new();
    };
    let mut rows = Vec::new();
    if !record.source.is_empty() {
        rows.push((
            "Telemetry".to_string(),
            format!(
                "{}, every {} ms and at each experiment's start and end",
                record.source, record.interval_ms
            ),
        ));
    }
    for note in &record.notes {
        rows.push(("Telemetry".to_string(), note.clone()));
    }
    let several = report.devices.len() > 1;
    for device in &record.devices {
        let gpu = if several {
            format!("GPU {}", device.ordinal)
        } else {
            "GPU".into()
        };
        rows.push((format!("{gpu}: links (NVML)"), links(record, device)));
        rows.push((
            format!("{gpu}: during the run (NVML, {} samples)", device.run.samples),
            format!(
                "{}; {}",
                figures(&device.run, device.facts.power_limit_w),
                slowdowns(device)
            ),
        ));
    }
    rows
}

/// The line an experiment's section gets: what each of its GPUs did while it ran.
pub fn section_line(report: &Report, result: &ExperimentResult) -> Option<String> {
    let record = report.telemetry.as_ref()?;
    let lines: Vec<String> = record
        .devices
        .iter()
        .filter(|d| result.device.is_none_or(|ordinal| ordinal == d.ordinal.0))
        .filter_map(|d| {
            let summary = d.during(&result.name)?;
            let mut line = format!(
                "GPU {}: {} over {} samples",
                d.ordinal,
                figures(summary, None),
                summary.samples
            );
            let slow: Vec<String> = summary
                .slowdowns()
                .map(|c| format!("{} in {} of {} samples", c.reason, c.samples, summary.samples))
                .collect();
            if !slow.is_empty() {
                line.push_str(&format!("; {}", slow.join(", ")));
            }
            Some(line)
        })
        .collect();
    (!lines.is_empty()).then(|| format!("*Telemetry (NVML):* {}.", lines.join("; ")))
}
