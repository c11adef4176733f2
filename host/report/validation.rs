//! Checks a loaded report holds only what a run can write, so that rendering,
//! comparing and merging can trust it:
//!
//! * figures a measurement can give: finite, not negative, at most
//!   [`MAX_FIGURE`], min ≤ median ≤ max, times above 0, and the headline
//!   figure of a bandwidth, GFLOP/s or time axis above 0;
//! * GPUs: 1 to [`MAX_GPUS`] of them, each ordinal once, and every GPU a
//!   result or a pair point names among them (nothing is sized by a number
//!   the report did not declare);
//! * each experiment once per GPU;
//! * names (experiments, series keys and labels, units, parameters, files)
//!   without control characters or the characters that would break a
//!   Markdown table or an SVG file; free texts are escaped where they are
//!   written instead.

use std::collections::HashSet;

use super::{Metric, PointKey, Report};
use crate::stats::Summary;

/// The most GPUs a report may declare (a node; the largest today hold 8 to 16).
pub const MAX_GPUS: usize = 256;

/// The largest figure a report may hold, in any unit (GB/s, ms, ns, clocks, %,
/// an error's magnitude): past what `f32` holds (the accuracy experiment's
/// absolute errors of `2^x` near its overflow reach 1e31), and small enough
/// that sums and products of two figures stay finite.
pub const MAX_FIGURE: f64 = 1e100;

fn figure_ok(v: f64) -> bool {
    v.is_finite() && (0.0..=MAX_FIGURE).contains(&v)
}

fn summary_ok(s: &Summary, positive: bool) -> bool {
    let in_range = figure_ok(s.min) && figure_ok(s.median) && figure_ok(s.max);
    let ordered = s.min <= s.median && s.median <= s.max;
    let sign = !positive || s.min > 0.0;
    in_range && ordered && sign
}

/// Characters no name of a report may hold: controls (line breaks included), the
/// Unicode direction overrides, and `| < > \` and the backtick.
fn unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(c, '|' | '<' | '>' | '`' | '\\' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        || matches!(c, '\u{fffe}' | '\u{ffff}')
}

/// `Err` names `what` when `name` holds a character a run never writes into a name.
fn check_name(what: &str, name: &str) -> Result<(), String> {
    match name.chars().find(|&c| unsafe_char(c)) {
        Some(c) => Err(format!(
            "{what} {name:?} holds the character {c:?}, which no ptxsuite run writes into a name"
        )),
        None => Ok(()),
    }
}

/// `Err` names the first thing in `report` that no run writes.
pub fn validate(report: &Report) -> Result<(), String> {
    if report.devices.is_empty() {
        return Err("the report lists no GPU (\"devices\" is empty)".into());
    }
    if report.devices.len() > MAX_GPUS {
        return Err(format!(
            "the report lists {} GPUs; a node has at most {MAX_GPUS}",
            report.devices.len()
        ));
    }
    let mut ordinals = HashSet::new();
    for device in &report.devices {
        if !ordinals.insert(device.ordinal.0) {
            return Err(format!("GPU {} is listed twice", device.ordinal));
        }
        if !figure_ok(device.theoretical_bandwidth_gbps) {
            return Err(format!(
                "device {} has a theoretical bandwidth of {}",
                device.ordinal, device.theoretical_bandwidth_gbps
            ));
        }
    }
    for kernel in &report.kernels {
        if !(kernel.theoretical_occupancy.is_finite() && (0.0..=1.0).contains(&kernel.theoretical_occupancy)) {
            return Err(format!(
                "kernel {} has an occupancy of {}",
                kernel.name, kernel.theoretical_occupancy
            ));
        }
    }
    let mut experiments = HashSet::new();
    for result in &report.experiments {
        check_name("the experiment", &result.name)?;
        let section = super::section_name(result);
        if let Some(device) = result.device
            && !ordinals.contains(&device)
        {
            return Err(format!(
                "experiment {} ran on GPU {device}, which the report does not list",
                result.name
            ));
        }
        if !experiments.insert((result.name.as_str(), result.device)) {
            return Err(format!("experiment {section} is listed twice"));
        }
        check_name("the parameter", &result.axis.parameter)?;
        if let Metric::Custom { name, unit, .. } = &result.axis.metric {
            check_name("the metric", name)?;
            check_name("the unit", unit)?;
        }
        for artifact in &result.artifacts {
            check_name("the file", &artifact.file)?;
            if artifact.file.contains('/') || artifact.file.starts_with('.') || artifact.file.is_empty() {
                return Err(format!(
                    "{section}: the file {:?} is not a plain file name in the report's folder",
                    artifact.file
                ));
            }
        }
        // A zero bandwidth, GFLOP/s or time is no measurement (bytes and operations are counted, times
        // are above 0); custom figures (an error in ulp, a count) may be 0.
        let positive = !matches!(result.axis.metric, Metric::Custom { .. });
        for series in &result.series {
            check_name("the series label", &series.label)?;
            check_name("the kernel", &series.key.kernel)?;
            check_name("the element type", &series.key.element)?;
            check_name("the variant", &series.key.variant)?;
            for point in &series.points {
                let place = || format!("{section} / {} at {}", series.label, point.at);
                if let PointKey::Pair { src, dst } = point.at
                    && !(ordinals.contains(&src) && ordinals.contains(&dst))
                {
                    return Err(format!(
                        "{section} / {}: the point {src}→{dst} names a GPU the report does not list",
                        series.label
                    ));
                }
                if let Some(v) = &point.value
                    && !summary_ok(v, positive)
                {
                    return Err(format!(
                        "{}: the figure {} / {} / {} is not a measurement (non-finite, negative, {}above {MAX_FIGURE:e} \
                         or out of order)",
                        place(),
                        v.min,
                        v.median,
                        v.max,
                        if positive { "zero, " } else { "" }
                    ));
                }
                if let Some(t) = &point.time_ms
                    && !summary_ok(t, true)
                {
                    return Err(format!(
                        "{}: the time {} / {} / {} ms is not a measurement (times must be finite, above 0 and at most {MAX_FIGURE:e})",
                        place(),
                        t.min,
                        t.median,
                        t.max
                    ));
                }
                if let Some((name, value)) = point.extra.iter().find(|(_, v)| !figure_ok(**v)) {
                    return Err(format!("{}: {name} is {value}", place()));
                }
                if let Some((name, value)) = point.counters.iter().find(|(_, v)| !v.is_finite() || **v < 0.0) {
                    return Err(format!("{}: the counter {name} is {value}", place()));
                }
                for name in point.extra.keys() {
                    check_name("the figure", name)?;
                }
            }
        }
        for line in &result.axis.reference_lines {
            check_name("the reference line", &line.label)?;
            if !(figure_ok(line.value) && line.value > 0.0) {
                return Err(format!(
                    "{}: the reference line {:?} is at {}",
                    result.name, line.label, line.value
                ));
            }
        }
    }
    Ok(())
}
