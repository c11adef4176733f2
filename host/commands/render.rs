use std::path::Path;

use crate::error::{Error, Result};
use crate::report::Report;

/// `ptxsuite render`: rewrites report.md and the plots from a saved report.json.
pub fn render(report_path: &Path, out_dir: Option<&Path>) -> Result<String> {
    let text = std::fs::read_to_string(report_path)
        .map_err(|e| Error::io(format!("cannot read {}", report_path.display()), e))?;
    let report = Report::from_json(&text)?;
    let dir = out_dir.or_else(|| report_path.parent()).unwrap_or(Path::new("."));
    report.write(dir)?;
    Ok(format!("report written to {}\n", dir.join("report.md").display()))
}
