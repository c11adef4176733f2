use std::path::Path;

use crate::error::{Error, Result};
use crate::report::Report;
use crate::report::comparison::{compare as compare_reports, markdown, summary};

/// What `ptxsuite compare` found.
pub struct Comparison {
    /// The terminal summary.
    pub text: String,
    /// Points slower than the threshold, or newly failing.
    pub regressions: usize,
}

fn load(path: &Path) -> Result<Report> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(format!("cannot read {}", path.display()), e))?;
    Report::from_json(&text).map_err(|e| Error::InvalidInput(format!("{}: {e}", path.display())))
}

/// `ptxsuite compare OLD NEW`: per-point ratios; `markdown_out` receives the full table.
pub fn compare(old: &Path, new: &Path, threshold_percent: f64, markdown_out: Option<&Path>) -> Result<Comparison> {
    if !(0.0..100.0).contains(&threshold_percent) {
        return Err(Error::InvalidInput(format!(
            "--threshold {threshold_percent} must be a percentage in [0, 100)"
        )));
    }
    let threshold = threshold_percent / 100.0;
    let (old_report, new_report) = (load(old)?, load(new)?);
    let (points, unmatched) = compare_reports(&old_report, &new_report);
    if points.is_empty() {
        return Err(Error::InvalidInput(format!(
            "{} and {} have no point in common (different experiments?)",
            old.display(),
            new.display()
        )));
    }
    if let Some(path) = markdown_out {
        std::fs::write(path, markdown(&old_report, &new_report, &points, threshold))
            .map_err(|e| Error::io(format!("cannot write {}", path.display()), e))?;
    }
    let regressions = points.iter().filter(|p| p.is_regression(threshold)).count();
    Ok(Comparison {
        text: summary(&old_report, &new_report, &points, unmatched, threshold),
        regressions,
    })
}
