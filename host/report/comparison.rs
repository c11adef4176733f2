//! Point-by-point comparison of two reports (`ptxsuite compare`), by key:
//! experiment and device, series key, point key. Display labels play no part.

use std::fmt::Write;

use super::{ExperimentResult, PointKey, Report, SeriesKey, section_name};

/// One point present in both reports.
#[derive(Clone, Debug, PartialEq)]
pub struct PointComparison {
    /// The experiment, with its GPU where not 0 (`offset`, `offset (GPU 1)`).
    pub experiment: String,
    pub series: SeriesKey,
    pub label: String,
    pub parameter: String,
    pub at: PointKey,
    pub unit: String,
    pub higher_is_better: bool,
    /// Median figure in the old and new report (`None` where that run failed its check).
    pub old: Option<f64>,
    pub new: Option<f64>,
}

impl PointComparison {
    /// How much faster the new run is: new / old for figures where higher is
    /// better, old / new for times. `None` unless both are positive.
    pub fn speedup(&self) -> Option<f64> {
        match (self.old, self.new) {
            (Some(old), Some(new)) if old > 0.0 && new > 0.0 => {
                Some(if self.higher_is_better { new / old } else { old / new })
            }
            _ => None,
        }
    }

    /// Slower than `1 - threshold` of the old figure, or newly failing its check.
    pub fn is_regression(&self, threshold: f64) -> bool {
        match (self.old, self.new) {
            (Some(_), None) => true,
            _ => self.speedup().is_some_and(|r| r < 1.0 - threshold),
        }
    }

    /// The old figure exists but is zero or negative: no ratio can be formed.
    pub fn is_incomparable(&self) -> bool {
        self.old.is_some_and(|o| o <= 0.0) || self.new.is_some_and(|n| n <= 0.0)
    }
}

/// What `compare` found, beyond the matched points.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Comparison {
    pub points: Vec<PointComparison>,
    /// Points of the new report the old one lacks.
    pub only_new: usize,
    /// Experiments, series and points the old report had and the new one lost.
    pub lost: Vec<String>,
    /// Experiments listed twice in one report (only the first is compared).
    pub duplicates: Vec<String>,
    /// The new report is partial (an interrupted run).
    pub new_partial: bool,
    /// Ledger claims whose verdict changed: "id: old → new".
    pub verdicts: Vec<String>,
}

impl Comparison {
    pub fn regressions(&self, threshold: f64) -> Vec<&PointComparison> {
        self.points.iter().filter(|p| p.is_regression(threshold)).collect()
    }

    /// Whether the new report covers less than the old one.
    pub fn lost_coverage(&self) -> bool {
        !self.lost.is_empty() || self.new_partial
    }
}

/// The experiments of a report once each, by (name, device); later duplicates are listed.
fn unique(report: &Report, which: &str, duplicates: &mut Vec<String>) -> Vec<(String, Option<usize>, usize)> {
    let mut seen: Vec<(String, Option<usize>, usize)> = Vec::new();
    for (i, e) in report.experiments.iter().enumerate() {
        if seen.iter().any(|(n, d, _)| *n == e.name && *d == e.device) {
            duplicates.push(format!("{} ({which} report)", section_name(e)));
        } else {
            seen.push((e.name.clone(), e.device, i));
        }
    }
    seen
}

fn find<'a>(
    report: &'a Report,
    index: &[(String, Option<usize>, usize)],
    e: &ExperimentResult,
) -> Option<&'a ExperimentResult> {
    index
        .iter()
        .find(|(n, d, _)| *n == e.name && *d == e.device)
        .map(|(_, _, i)| &report.experiments[*i])
}

/// Matches every point of `new` with `old` by key, and lists what `new` lost.
pub fn compare(old: &Report, new: &Report) -> Comparison {
    let mut comparison = Comparison {
        new_partial: new.partial,
        ..Comparison::default()
    };
    let old_index = unique(old, "old", &mut comparison.duplicates);
    let new_index = unique(new, "new", &mut comparison.duplicates);
    for &(_, _, i) in &new_index {
        let result = &new.experiments[i];
        let old_result = find(old, &old_index, result);
        for series in &result.series {
            let old_series = old_result.and_then(|o| o.series(&series.key));
            for point in &series.points {
                match old_series.and_then(|s| s.point(point.at)) {
                    Some(old_point) => comparison.points.push(PointComparison {
                        experiment: section_name(result),
                        series: series.key.clone(),
                        label: series.label.clone(),
                        parameter: result.axis.parameter.clone(),
                        at: point.at,
                        unit: result.axis.metric.unit().to_string(),
                        higher_is_better: result.axis.metric.higher_is_better(),
                        old: old_point.median(),
                        new: point.median(),
                    }),
                    None => comparison.only_new += 1,
                }
            }
        }
    }
    for row in &new.ledger {
        if let Some(before) = old.ledger.iter().find(|o| o.id == row.id && o.device == row.device)
            && before.verdict != row.verdict
        {
            comparison.verdicts.push(format!(
                "{}: {} → {} ({})",
                row.id,
                before.verdict.label(),
                row.verdict.label(),
                row.measured
            ));
        }
    }
    for &(_, _, i) in &old_index {
        let old_result = &old.experiments[i];
        let Some(new_result) = find(new, &new_index, old_result) else {
            comparison.lost.push(format!("experiment {}", section_name(old_result)));
            continue;
        };
        for series in &old_result.series {
            let Some(new_series) = new_result.series(&series.key) else {
                comparison
                    .lost
                    .push(format!("{} / {}", section_name(old_result), series.key));
                continue;
            };
            for point in &series.points {
                if new_series.point(point.at).is_none() {
                    comparison.lost.push(format!(
                        "{} / {} at {} {}",
                        section_name(old_result),
                        series.key,
                        old_result.axis.parameter,
                        point.at
                    ));
                }
            }
        }
    }
    comparison
}

fn figure(value: Option<f64>) -> String {
    value.map(|g| format!("{g:.3}")).unwrap_or_else(|| "FAILED".into())
}

/// The full comparison as a Markdown table, regressions in bold.
pub fn markdown(old: &Report, new: &Report, comparison: &Comparison, threshold: f64) -> String {
    let mut out = String::new();
    let name = |r: &Report| r.devices.first().map(|d| d.name.clone()).unwrap_or_default();
    let _ = writeln!(out, "# ptxsuite comparison\n");
    let _ = writeln!(
        out,
        "Old: {} ({}), new: {} ({}).",
        name(old),
        old.host,
        name(new),
        new.host
    );
    let _ = writeln!(
        out,
        "Regression: the new figure more than {:.1}% worse than the old one (lower where higher is better, higher \
         for times), or a result that newly fails its check.\n",
        100.0 * threshold
    );
    let _ = writeln!(
        out,
        "| experiment | series | point | old | new | unit | speed new/old |\n|---|---|---|---:|---:|---|---:|"
    );
    for p in &comparison.points {
        let ratio = p.speedup().map(|r| format!("{r:.3}")).unwrap_or_else(|| "—".into());
        let ratio = if p.is_regression(threshold) {
            format!("**{ratio}**")
        } else {
            ratio
        };
        let _ = writeln!(
            out,
            "| {} | {} | {}={} | {} | {} | {} | {ratio} |",
            p.experiment,
            p.label,
            p.parameter,
            p.at,
            figure(p.old),
            figure(p.new),
            p.unit
        );
    }
    if !comparison.lost.is_empty() {
        let _ = writeln!(out, "\n## Lost coverage\n");
        for lost in &comparison.lost {
            let _ = writeln!(out, "- {lost}");
        }
    }
    out
}

/// A terminal summary: one line per series (ratio range), then every
/// regression, every incomparable point, lost coverage and duplicates.
pub fn summary(old: &Report, new: &Report, comparison: &Comparison, threshold: f64) -> String {
    let mut out = String::new();
    let (old_gpu, new_gpu) = (
        old.devices.first().map(|d| d.name.as_str()).unwrap_or(""),
        new.devices.first().map(|d| d.name.as_str()).unwrap_or(""),
    );
    if old_gpu != new_gpu {
        let _ = writeln!(
            out,
            "note: comparing different GPUs: {old_gpu} (old) and {new_gpu} (new)"
        );
    }
    let mut keys: Vec<(&str, &SeriesKey, &str)> = Vec::new();
    for p in &comparison.points {
        if !keys.iter().any(|k| k.0 == p.experiment && k.1 == &p.series) {
            keys.push((&p.experiment, &p.series, &p.label));
        }
    }
    for (experiment, series, label) in keys {
        let ratios: Vec<f64> = comparison
            .points
            .iter()
            .filter(|p| p.experiment == experiment && &p.series == series)
            .filter_map(PointComparison::speedup)
            .collect();
        if let (Some(lo), Some(hi)) = (
            ratios.iter().copied().reduce(f64::min),
            ratios.iter().copied().reduce(f64::max),
        ) {
            let _ = writeln!(
                out,
                "{experiment:<16} {label:<48} new/old {lo:.3} .. {hi:.3} ({} points)",
                ratios.len()
            );
        }
    }
    let regressions = comparison.regressions(threshold);
    for p in &regressions {
        let ratio = p
            .speedup()
            .map(|r| format!("{r:.3}"))
            .unwrap_or_else(|| "now fails its check".into());
        let _ = writeln!(
            out,
            "REGRESSION {} / {} at {}={}: {} -> {} {} ({ratio})",
            p.experiment,
            p.label,
            p.parameter,
            p.at,
            figure(p.old),
            figure(p.new),
            p.unit
        );
    }
    for p in comparison.points.iter().filter(|p| p.is_incomparable()) {
        let _ = writeln!(
            out,
            "INCOMPARABLE {} / {} at {}={}: old {} new {} {} (a figure of zero or below has no ratio)",
            p.experiment,
            p.label,
            p.parameter,
            p.at,
            figure(p.old),
            figure(p.new),
            p.unit
        );
    }
    if comparison.new_partial {
        let _ = writeln!(
            out,
            "LOST COVERAGE: the new report is partial ({})",
            new.stop_reason.as_deref().unwrap_or("interrupted")
        );
    }
    for lost in &comparison.lost {
        let _ = writeln!(out, "LOST {lost}");
    }
    for verdict in &comparison.verdicts {
        let _ = writeln!(out, "VERDICT {verdict}");
    }
    for duplicate in &comparison.duplicates {
        let _ = writeln!(
            out,
            "note: experiment {duplicate} is listed twice; the first is compared"
        );
    }
    let _ = writeln!(
        out,
        "{} points compared, {} regression(s) beyond {:.1}%, {} point(s) only in the new report, {} lost from the old",
        comparison.points.len(),
        regressions.len(),
        100.0 * threshold,
        comparison.only_new,
        comparison.lost.len()
    );
    out
}
