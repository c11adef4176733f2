//! Synthetic results for the unit tests of the execution-claims
//! experiments (`instructions`, `accuracy`, `divergence`, `loop-counters`):
//! series with chosen medians and extra figures, as a run would have stored
//! them, and a report around them to render.

pub use super::ledger_fixtures::{device, result};
use crate::report::{ExperimentResult, LedgerRow, Point, PointKey, Report, Series, SeriesKey};
use crate::run_settings::RunSettings;
use crate::stats::Summary;
use crate::testbed::Implementation;

/// A series of `kernel` by `implementation` (element `element`, variant
/// `variant`) with one point per `(x, median)`: the median is both the
/// point's figure and its time in ms; `extras` are `(x, name, value)`.
pub fn series(
    kernel: &str,
    implementation: Implementation,
    (element, variant): (&str, &str),
    points: &[(i64, f64)],
    extras: &[(i64, &str, f64)],
) -> Series {
    let mut series = Series::of(SeriesKey::new(kernel, implementation, element).variant(variant));
    for &(x, median) in points {
        let mut point = Point::measured(PointKey::Value(x), &[median], Default::default(), None).expect("finite");
        point.time_ms = Summary::of(&[median]);
        for &(_, name, value) in extras.iter().filter(|e| e.0 == x) {
            point.set_extra(name, value);
        }
        series.points.push(point);
    }
    series
}

/// A report of [`device`] holding `results`.
pub fn report(results: Vec<ExperimentResult>) -> Report {
    Report::new(vec![device()], &RunSettings::default(), Vec::new(), Vec::new(), results)
}

/// `results` rendered with the registry's hooks: report.md, every file's name, and the ledger.
pub fn rendered(results: Vec<ExperimentResult>) -> (String, Vec<String>, Vec<LedgerRow>) {
    let report = report(results);
    let files = report.render(&super::hooks).expect("the report renders").files;
    let markdown = files
        .iter()
        .find(|(name, _)| name == "report.md")
        .expect("report.md")
        .1
        .clone();
    let names = files.into_iter().map(|(name, _)| name).collect();
    (markdown, names, report.compute_ledger(&super::hooks))
}
