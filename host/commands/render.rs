use std::path::Path;

use crate::error::Result;
use crate::experiments;
use crate::output_files::OutputFiles;
use crate::report::Report;

/// `ptxsuite render`: writes report.md and the plots of a saved report.json
/// into `out_dir` (default: the report's own folder). It never rewrites the
/// report.json itself, checks every file name before writing any, and refuses to
/// write through a link or over the report it reads.
pub fn render(report_path: &Path, out_dir: Option<&Path>) -> Result<String> {
    let mut report = Report::load(report_path)?;
    // A stored report is checked as a fresh one is: figures past their ceilings fail, the ledger is graded anew.
    report.check_and_grade(&experiments::hooks);
    let rendered = report.render(&experiments::hooks)?;
    let dir = out_dir
        .or_else(|| report_path.parent().filter(|p| !p.as_os_str().is_empty()))
        .unwrap_or(Path::new("."));
    let written = rendered.write(dir, &OutputFiles::protecting(&[report_path]))?;
    Ok(format!(
        "wrote {} (report.md and {}) to {}\n",
        crate::report::counted(written.len(), "file", "files"),
        crate::report::counted(written.len().saturating_sub(1), "plot", "plots"),
        dir.display()
    ))
}
