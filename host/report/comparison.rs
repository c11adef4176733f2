//! Point-by-point comparison of two reports (`ptxsuite compare`), by key:
//! experiment and device, series key, point key. Display labels play no part.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use super::text_escape::{markdown as md, terminal};
use super::{ExperimentResult, LedgerRow, Point, PointKey, Report, Series, SeriesKey, counted, section_name};

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

/// What identifies an experiment's result in a report: its name and GPU.
type ResultId<'a> = (&'a str, Option<usize>);

/// The experiments of a report once each, by (name, device), in report order; later duplicates are listed.
fn unique<'a>(report: &'a Report, which: &str, duplicates: &mut Vec<String>) -> Vec<&'a ExperimentResult> {
    let mut seen: HashSet<ResultId<'_>> = HashSet::new();
    let mut results = Vec::new();
    for e in &report.experiments {
        if seen.insert((&e.name, e.device)) {
            results.push(e);
        } else {
            duplicates.push(format!("{} ({which} report)", section_name(e)));
        }
    }
    results
}

/// The series of a result by key, the first of each key.
fn series_index(result: &ExperimentResult) -> HashMap<&SeriesKey, &Series> {
    let mut index = HashMap::new();
    for series in &result.series {
        index.entry(&series.key).or_insert(series);
    }
    index
}

/// The points of a series by key, the first of each key.
fn point_index(series: &Series) -> HashMap<PointKey, &Point> {
    let mut index = HashMap::new();
    for point in &series.points {
        index.entry(point.at).or_insert(point);
    }
    index
}

/// Matches every point of `new` with `old` by key, and lists what `new` lost
/// (every lookup through an index: linear in the reports' size).
pub fn compare(old: &Report, new: &Report) -> Comparison {
    let mut comparison = Comparison {
        new_partial: new.partial,
        ..Comparison::default()
    };
    let old_results = unique(old, "old", &mut comparison.duplicates);
    let new_results = unique(new, "new", &mut comparison.duplicates);
    let old_by_id: HashMap<ResultId<'_>, &ExperimentResult> =
        old_results.iter().map(|e| ((e.name.as_str(), e.device), *e)).collect();
    let new_by_id: HashMap<ResultId<'_>, &ExperimentResult> =
        new_results.iter().map(|e| ((e.name.as_str(), e.device), *e)).collect();
    for result in &new_results {
        let old_series = old_by_id
            .get(&(result.name.as_str(), result.device))
            .map(|o| series_index(o))
            .unwrap_or_default();
        for series in &result.series {
            let old_points = old_series.get(&series.key).map(|s| point_index(s)).unwrap_or_default();
            for point in &series.points {
                match old_points.get(&point.at) {
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
    let old_verdicts: HashMap<(&str, Option<usize>), &LedgerRow> = old
        .ledger
        .iter()
        .rev()
        .map(|o| ((o.id.as_str(), o.device), o))
        .collect();
    for row in &new.ledger {
        if let Some(before) = old_verdicts.get(&(row.id.as_str(), row.device))
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
    for old_result in &old_results {
        let Some(new_result) = new_by_id.get(&(old_result.name.as_str(), old_result.device)) else {
            comparison.lost.push(format!("experiment {}", section_name(old_result)));
            continue;
        };
        let new_series = series_index(new_result);
        for series in &old_result.series {
            let Some(new_series) = new_series.get(&series.key) else {
                comparison
                    .lost
                    .push(format!("{} / {}", section_name(old_result), series.key));
                continue;
            };
            let new_points = point_index(new_series);
            for point in &series.points {
                if !new_points.contains_key(&point.at) {
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
    let name = |r: &Report| md(r.devices.first().map(|d| d.name.as_str()).unwrap_or_default()).into_owned();
    let _ = writeln!(out, "# ptxsuite comparison\n");
    let _ = writeln!(
        out,
        "Old: {} ({}), new: {} ({}).",
        name(old),
        md(&old.host),
        name(new),
        md(&new.host)
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
            md(&p.experiment),
            md(&p.label),
            md(&p.parameter),
            p.at,
            figure(p.old),
            figure(p.new),
            md(&p.unit)
        );
    }
    if !comparison.lost.is_empty() {
        let _ = writeln!(out, "\n## Lost coverage\n");
        for lost in &comparison.lost {
            let _ = writeln!(out, "- {}", md(lost));
        }
    }
    out
}

/// A terminal summary: one line per series (ratio range), then every
/// regression, every incomparable point, lost coverage and duplicates.
pub fn summary(old: &Report, new: &Report, comparison: &Comparison, threshold: f64) -> String {
    let mut out = String::new();
    let (old_gpu, new_gpu) = (
        terminal(old.devices.first().map(|d| d.name.as_str()).unwrap_or("")),
        terminal(new.devices.first().map(|d| d.name.as_str()).unwrap_or("")),
    );
    if old_gpu != new_gpu {
        let _ = writeln!(
            out,
            "note: comparing different GPUs: {old_gpu} (old) and {new_gpu} (new)"
        );
    }
    // Per series (in the order the points came): the range of new / old, in one pass.
    let mut order: Vec<(&str, &SeriesKey)> = Vec::new();
    let mut ranges: HashMap<(&str, &SeriesKey), (&str, f64, f64, usize)> = HashMap::new();
    for p in &comparison.points {
        let key = (p.experiment.as_str(), &p.series);
        let entry = ranges.entry(key).or_insert_with(|| {
            order.push(key);
            (p.label.as_str(), f64::INFINITY, f64::NEG_INFINITY, 0)
        });
        if let Some(r) = p.speedup() {
            entry.1 = entry.1.min(r);
            entry.2 = entry.2.max(r);
            entry.3 += 1;
        }
    }
    for key in order {
        let (label, lo, hi, n) = ranges[&key];
        if n > 0 {
            let _ = writeln!(
                out,
                "{:<16} {label:<48} new/old {lo:.3} .. {hi:.3} ({})",
                key.0,
                counted(n, "point", "points")
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
            terminal(new.stop_reason.as_deref().unwrap_or("interrupted"))
        );
    }
    for lost in &comparison.lost {
        let _ = writeln!(out, "LOST {lost}");
    }
    for verdict in &comparison.verdicts {
        let _ = writeln!(out, "VERDICT {}", terminal(verdict));
    }
    for duplicate in &comparison.duplicates {
        let _ = writeln!(
            out,
            "note: experiment {duplicate} is listed twice; the first is compared"
        );
    }
    let _ = writeln!(
        out,
        "{} compared, {} beyond {:.1}%, {} only in the new report, {} lost from the old",
        counted(comparison.points.len(), "point", "points"),
        counted(regressions.len(), "regression", "regressions"),
        100.0 * threshold,
        counted(comparison.only_new, "point", "points"),
        comparison.lost.len()
    );
    out
}
