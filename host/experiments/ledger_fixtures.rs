//! Synthetic results for the unit tests of the experiments' ledger rules:
//! series of points with chosen medians and extra figures, as a run would
//! have stored them.

use crate::report::{Axis, ExperimentResult, Metric, Point, PointKey, Series, SeriesKey, Status, Work};
use crate::testbed::Implementation;

/// An ok result of `name` with `series` on GPU 0.
pub fn result(name: &str, metric: Metric, series: Vec<Series>) -> ExperimentResult {
    ExperimentResult {
        name: name.into(),
        title: name.into(),
        source: String::new(),
        device: Some(0),
        status: Status::Ok,
        axis: Axis::lines("x", metric),
        byte_counting: String::new(),
        setup: Vec::new(),
        series,
        waived: Vec::new(),
        notes: Vec::new(),
        artifacts: Vec::new(),
    }
}

/// A series of `kernel` by `implementation` with `variant`, one point per
/// `(x, median)`, each carrying the `extras` given for its x.
pub fn series(
    kernel: &str,
    implementation: Implementation,
    variant: &str,
    points: &[(i64, f64)],
    extras: &[(i64, &str, f64)],
) -> Series {
    let key = SeriesKey::new(kernel, implementation, "f32").variant(variant);
    let mut series = Series::of(key);
    for &(x, median) in points {
        let mut point = Point::measured(PointKey::Value(x), &[median], Work::default(), None).expect("a finite sample");
        point.time_ms = crate::stats::Summary::of(&[1.0]);
        for &(_, name, value) in extras.iter().filter(|e| e.0 == x) {
            point.set_extra(name, value);
        }
        series.points.push(point);
    }
    series
}
