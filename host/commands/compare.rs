use std::path::Path;

use crate::error::{Error, Result};
use crate::experiments;
use crate::output_files::OutputFiles;
use crate::report::Report;
use crate::report::comparison::{compare as compare_reports, markdown, summary};

/// What `ptxsuite compare` found.
pub struct Comparison {
    /// The terminal summary.
    pub text: String,
    /// Points worse than the threshold, or newly failing.
    pub regressions: usize,
    /// The new report lost experiments, series or points the old one had, or is partial.
    pub lost_coverage: bool,
}

/// `ptxsuite compare OLD NEW`: per-point ratios by key; `markdown_out` receives the full table
/// (never written through a link, nor over OLD or NEW).
pub fn compare(old: &Path, new: &Path, threshold_percent: f64, markdown_out: Option<&Path>) -> Result<Comparison> {
    if !(threshold_percent.is_finite() && (0.0..100.0).contains(&threshold_percent)) {
        return Err(Error::InvalidInput(format!(
            "--threshold {threshold_percent} must be a percentage in [0, 100)"
        )));
    }
    let threshold = threshold_percent / 100.0;
    let (mut old_report, mut new_report) = (Report::load(old)?, Report::load(new)?);
    // Both are checked as a fresh report is: figures past their ceilings fail, ledgers are graded anew.
    old_report.check_and_grade(&experiments::hooks);
    new_report.check_and_grade(&experiments::hooks);
    let comparison = compare_reports(&old_report, &new_report);
    if comparison.points.is_empty() && comparison.lost.is_empty() {
        return Err(Error::InvalidInput(format!(
            "{} and {} have no point in common (different experiments?)",
            old.display(),
            new.display()
        )));
    }
    if let Some(path) = markdown_out {
        let text = markdown(&old_report, &new_report, &comparison, threshold);
        OutputFiles::protecting(&[old, new]).write(path, text.as_bytes())?;
    }
    Ok(Comparison {
        text: summary(&old_report, &new_report, &comparison, threshold),
        regressions: comparison.regressions(threshold).len(),
        lost_coverage: comparison.lost_coverage(),
    })
}
