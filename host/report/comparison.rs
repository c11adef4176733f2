//! Point-by-point comparison of two reports (`ptxsuite compare`).

use std::fmt::Write;

use super::Report;

/// One point present in both reports.
#[derive(Clone, Debug, PartialEq)]
pub struct PointComparison {
    pub experiment: String,
    pub series: String,
    pub parameter: String,
    pub value: i64,
    /// Median GB/s in the old and new report (`None` where that run failed verification).
    pub old_gbps: Option<f64>,
    pub new_gbps: Option<f64>,
}

impl PointComparison {
    /// New / old median bandwidth, when both were measured.
    pub fn ratio(&self) -> Option<f64> {
        match (self.old_gbps, self.new_gbps) {
            (Some(old), Some(new)) if old > 0.0 => Some(new / old),
            _ => None,
        }
    }

    /// Slower than `1 - threshold` of the old figure, or newly failing verification.
    pub fn is_regression(&self, threshold: f64) -> bool {
        match (self.old_gbps, self.new_gbps) {
            (Some(_), None) => true,
            _ => self.ratio().is_some_and(|r| r < 1.0 - threshold),
        }
    }
}

/// Every point of `new` that `old` also has, in `new`'s order, plus a count of unmatched points.
pub fn compare(old: &Report, new: &Report) -> (Vec<PointComparison>, usize) {
    let mut matched = Vec::new();
    let mut unmatched = 0;
    for sweep in &new.experiments {
        let old_sweep = old.experiments.iter().find(|s| s.experiment == sweep.experiment);
        for series in &sweep.series {
            let old_series = old_sweep.and_then(|s| s.series.iter().find(|o| o.name == series.name));
            for point in &series.points {
                match old_series.and_then(|s| s.point(point.value)) {
                    Some(old_point) => matched.push(PointComparison {
                        experiment: sweep.experiment.clone(),
                        series: series.name.clone(),
                        parameter: sweep.parameter.clone(),
                        value: point.value,
                        old_gbps: old_point.effective_gbps.map(|g| g.median),
                        new_gbps: point.effective_gbps.map(|g| g.median),
                    }),
                    None => unmatched += 1,
                }
            }
        }
    }
    (matched, unmatched)
}

fn gbps(value: Option<f64>) -> String {
    value.map(|g| format!("{g:.1}")).unwrap_or_else(|| "FAILED".into())
}

/// The full comparison as a Markdown table, regressions in bold.
pub fn markdown(old: &Report, new: &Report, points: &[PointComparison], threshold: f64) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# ptxsuite comparison\n");
    let _ = writeln!(
        out,
        "Old: {} (driver {}), new: {} (driver {}).",
        old.device.name,
        old.device.driver_version_string(),
        new.device.name,
        new.device.driver_version_string()
    );
    let _ = writeln!(
        out,
        "Regression: new median below {:.1}% of the old one, or a result that newly fails verification.\n",
        100.0 * (1.0 - threshold)
    );
    let _ = writeln!(
        out,
        "| experiment | series | point | old GB/s | new GB/s | new/old |\n|---|---|---|---:|---:|---:|"
    );
    for p in points {
        let ratio = p.ratio().map(|r| format!("{r:.3}")).unwrap_or_else(|| "—".into());
        let ratio = if p.is_regression(threshold) {
            format!("**{ratio}**")
        } else {
            ratio
        };
        let _ = writeln!(
            out,
            "| {} | {} | {}={} | {} | {} | {ratio} |",
            p.experiment,
            p.series,
            p.parameter,
            p.value,
            gbps(p.old_gbps),
            gbps(p.new_gbps)
        );
    }
    out
}

/// A terminal summary: one line per series (ratio range), then every regression.
pub fn summary(old: &Report, new: &Report, points: &[PointComparison], unmatched: usize, threshold: f64) -> String {
    let mut out = String::new();
    if old.device.name != new.device.name {
        let _ = writeln!(
            out,
            "note: comparing different GPUs: {} (old) and {} (new)",
            old.device.name, new.device.name
        );
    }
    let mut keys: Vec<(&str, &str)> = Vec::new();
    for p in points {
        if !keys.contains(&(p.experiment.as_str(), p.series.as_str())) {
            keys.push((p.experiment.as_str(), p.series.as_str()));
        }
    }
    for (experiment, series) in keys {
        let ratios: Vec<f64> = points
            .iter()
            .filter(|p| p.experiment == experiment && p.series == series)
            .filter_map(PointComparison::ratio)
            .collect();
        if let (Some(lo), Some(hi)) = (
            ratios.iter().copied().reduce(f64::min),
            ratios.iter().copied().reduce(f64::max),
        ) {
            let _ = writeln!(
                out,
                "{experiment:<14} {series:<48} new/old {lo:.3} .. {hi:.3} ({} points)",
                ratios.len()
            );
        }
    }
    let regressions: Vec<&PointComparison> = points.iter().filter(|p| p.is_regression(threshold)).collect();
    for p in &regressions {
        let ratio = p
            .ratio()
            .map(|r| format!("{r:.3}"))
            .unwrap_or_else(|| "now fails verification".into());
        let _ = writeln!(
            out,
            "REGRESSION {} / {} at {}={}: {} -> {} GB/s ({ratio})",
            p.experiment,
            p.series,
            p.parameter,
            p.value,
            gbps(p.old_gbps),
            gbps(p.new_gbps)
        );
    }
    let _ = writeln!(
        out,
        "{} points compared, {} regression(s) beyond {:.1}%, {unmatched} point(s) only in the new report",
        points.len(),
        regressions.len(),
        100.0 * threshold
    );
    out
}
