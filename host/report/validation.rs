//! Checks a loaded report holds only figures a measurement can give, so that
//! rendering and comparing can trust them (no NaN, no infinity, no negative
//! bandwidth, no min above its median, no zero time).

use super::Report;
use crate::stats::Summary;

fn summary_ok(s: &Summary, positive: bool) -> bool {
    let finite = s.min.is_finite() && s.median.is_finite() && s.max.is_finite();
    let ordered = s.min <= s.median && s.median <= s.max;
    let sign = if positive { s.min > 0.0 } else { s.min >= 0.0 };
    finite && ordered && sign
}

/// `Err` names the first figure that no measurement can give.
pub fn validate(report: &Report) -> Result<(), String> {
    for device in &report.devices {
        if !(device.theoretical_bandwidth_gbps.is_finite() && device.theoretical_bandwidth_gbps >= 0.0) {
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
    for result in &report.experiments {
        for series in &result.series {
            for point in &series.points {
                let place = || format!("{} / {} at {}", result.name, series.label, point.at);
                if let Some(v) = &point.value
                    && !summary_ok(v, false)
                {
                    return Err(format!(
                        "{}: the figure {} / {} / {} is not a measurement (non-finite, negative or out of order)",
                        place(),
                        v.min,
                        v.median,
                        v.max
                    ));
                }
                if let Some(t) = &point.time_ms
                    && !summary_ok(t, true)
                {
                    return Err(format!(
                        "{}: the time {} / {} / {} ms is not a measurement (times must be finite and above 0)",
                        place(),
                        t.min,
                        t.median,
                        t.max
                    ));
                }
                if let Some((name, value)) = point.extra.iter().find(|(_, v)| !v.is_finite() || **v < 0.0) {
                    return Err(format!("{}: {name} is {value}", place()));
                }
                if let Some((name, value)) = point.counters.iter().find(|(_, v)| !v.is_finite() || **v < 0.0) {
                    return Err(format!("{}: the counter {name} is {value}", place()));
                }
            }
        }
        for line in &result.axis.reference_lines {
            if !(line.value.is_finite() && line.value > 0.0) {
                return Err(format!(
                    "{}: the reference line {:?} is at {}",
                    result.name, line.label, line.value
                ));
            }
        }
    }
    Ok(())
}
