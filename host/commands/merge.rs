use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::merge::{self, MergedReport};
use crate::output_files::OutputFiles;
use crate::report::Report;

/// What `ptxsuite merge` did.
pub struct Merged {
    /// The terminal summary.
    pub text: String,
    /// Nodes named slow (the command's exit code is 3 when there is one).
    pub slow_nodes: usize,
    pub report: MergedReport,
}

/// `ptxsuite merge REPORT... --out DIR`: reads each node's report.json (schema 2, or 1
/// converted), merges them and writes merged.json and merged.md into `out_dir` (nowhere else; never
/// through a link, nor over one of the reports).
pub fn merge(reports: &[PathBuf], out_dir: &Path, threshold_percent: f64) -> Result<Merged> {
    if reports.is_empty() {
        return Err(Error::InvalidInput("merge needs at least one report.json".into()));
    }
    let loaded = reports
        .iter()
        .map(|path| Ok((path.display().to_string(), Report::load(path)?)))
        .collect::<Result<Vec<_>>>()?;
    let merged = merge::merge(&loaded, threshold_percent)?;
    let outputs = OutputFiles::protecting(reports);
    outputs.create_dir(out_dir)?;
    let files = [
        (out_dir.join("merged.json"), merged.to_json()),
        (out_dir.join("merged.md"), merge::markdown(&merged)),
    ];
    outputs.check_all(files.iter().map(|(path, _)| path.as_path()))?;
    for (path, text) in &files {
        outputs.write(path, text.as_bytes())?;
    }
    let mut text = merge::summary(&merged);
    text.push_str(&format!(
        "merged report written to {}\n",
        out_dir.join("merged.md").display()
    ));
    Ok(Merged {
        text,
        slow_nodes: merged.slow_nodes().len(),
        report: merged,
    })
}
