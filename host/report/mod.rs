//! The report: `report.json` (a versioned schema with device metadata and
//! typed results), `report.md` (tables, the documents' figures beside them,
//! the experiments' narratives) and SVG plots.
//!
//! The report knows no experiment by name: each result carries its axis, its
//! series keys and its status, and an experiment adds narrative and tables
//! through [`SectionHooks`].

mod axis;
pub mod ceilings;
pub mod comparison;
mod counted;
mod counter_check;
mod experiment_result;
mod finite_prose;
mod kernel_record;
mod ledger;
mod markdown;
mod pair_matrix;
mod plot_spec;
mod schema_v1;
mod section_hooks;
mod series_key;
mod status;
mod svg_plot;
mod telemetry_lines;
pub mod text_escape;
mod twin_gaps;
mod validation;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::facts::{DeviceInfo, Implementation, TelemetryRecord};
use crate::output_files::OutputFiles;
use crate::ptx;
use crate::run_settings::RunSettings;

pub use axis::{Axis, Metric, PlotKind, ReferenceLine, Scale};
pub use ceilings::{Bound, Ceiling, DeviceCeilings, Figure, Unit};
pub use counted::counted;
pub use counter_check::{COUNTER_TOLERANCE, CounterCheck, CounterEvidence};
pub use experiment_result::{Artifact, ExperimentResult, Point, Series, Waiver, Work, better_by, slower_by};
pub use finite_prose::{finite_cells, finite_sentences, has_nonfinite};
pub use kernel_record::KernelRecord;
pub use ledger::{Claim, DIRECTION_RULE, FACTOR_RULE, GONE_BAND, LedgerRow, Rule, Spread, UNDECIDED_RULE, Verdict};
pub use markdown::{element_matters, generic_table, point_cell, series_name, summary_cell};
pub use pair_matrix::{pair_gpus, pair_matrix, pair_matrix_markdown};
pub use plot_spec::{HeatMap, Panel, PlotLine, PlotPoint, PlotSpec, XTicks, series_points};
pub use section_hooks::{HooksLookup, SectionHooks, main_plot, no_hooks};
pub use series_key::{Devices, PointKey, SeriesKey};
pub use status::Status;
pub use svg_plot::{format_bytes, format_tick};
pub use telemetry_lines::{
    figures as telemetry_figures, header_rows as telemetry_rows, slowdowns as telemetry_slowdowns,
};
pub use twin_gaps::twin_gap;
pub use validation::{MAX_FIGURE, MAX_GPUS};

/// Identifies the file format.
pub const SCHEMA: &str = "ptxsuite-report";
/// The largest report.json `render`, `compare` and `merge` read.
pub const MAX_REPORT_BYTES: u64 = 64 << 20;
/// Bumped whenever a field changes meaning or is removed (added fields carry
/// `#[serde(default)]`, so older reports of the same version still load).
/// Version 1 reports are converted on load.
pub const SCHEMA_VERSION: u32 = 2;

/// The PTX the kernels ran from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PtxRecord {
    /// `.target` of the embedded PTX (`PTXSUITE_PTX_ARCH` at build time).
    pub target: String,
    /// `.version` (PTX ISA) of the embedded PTX.
    pub isa_version: String,
}

impl PtxRecord {
    pub fn embedded() -> Self {
        Self {
            target: ptx::PTX_ARCH.to_string(),
            isa_version: ptx::isa_version(ptx::KERNELS_PTX).unwrap_or("unknown").to_string(),
        }
    }
}

/// One implementation on this run's machine: measured, or waived and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImplementationRecord {
    pub implementation: Implementation,
    pub status: Status,
    /// What ran it (compiler, runtime and version), where known.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub detail: String,
}

/// Everything one `ptxsuite run` measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub schema: String,
    pub schema_version: u32,
    pub tool_version: String,
    pub generated_unix_s: u64,
    /// The machine's host name (what `merge` tells nodes apart by).
    #[serde(default)]
    pub host: String,
    pub ptx: PtxRecord,
    /// The GPUs of the run, by ordinal.
    pub devices: Vec<DeviceInfo>,
    pub settings: RunSettings,
    #[serde(default)]
    pub implementations: Vec<ImplementationRecord>,
    /// What the run did to the machine's setup that a reader should know (e.g. registering NVIDIA's OpenCL driver).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    pub kernels: Vec<KernelRecord>,
    pub experiments: Vec<ExperimentResult>,
    /// The documents' claims the run measured, with verdicts (see [`LedgerRow`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ledger: Vec<LedgerRow>,
    /// The run stopped early (Ctrl-C, a kernel past its time limit, an error):
    /// some experiments are not run or have only some of their points.
    #[serde(default)]
    pub partial: bool,
    /// Why a partial run stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// What NVML said about the GPUs and their clocks, power and temperature during the
    /// run, or why nothing (reports written before it have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub telemetry: Option<TelemetryRecord>,
}

/// Whether this build knows any experiment of `report` (so that its ledger
/// can be graded anew rather than taken as stored).
fn hooks_known(report: &Report, hooks: HooksLookup<'_>) -> bool {
    report.experiments.iter().any(|e| hooks(&e.name).is_some())
}

/// What `render` writes: report.md and one SVG per plot, never report.json.
#[derive(Debug)]
pub struct Rendered {
    pub files: Vec<(String, String)>,
}

impl Report {
    pub fn new(
        devices: Vec<DeviceInfo>,
        settings: &RunSettings,
        implementations: Vec<ImplementationRecord>,
        kernels: Vec<KernelRecord>,
        experiments: Vec<ExperimentResult>,
    ) -> Self {
        Self {
            schema: SCHEMA.to_string(),
            schema_version: SCHEMA_VERSION,
            tool_version: env!("CARGO_PKG_VERSION").to_string(),
            generated_unix_s: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0),
            host: host_name(),
            ptx: PtxRecord::embedded(),
            devices,
            settings: settings.clone(),
            implementations,
            notes: Vec::new(),
            kernels,
            experiments,
            ledger: Vec::new(),
            partial: false,
            stop_reason: None,
            telemetry: None,
        }
    }

    /// The ledger rows every experiment's hooks give for its results, in report order.
    pub fn compute_ledger(&self, hooks: HooksLookup<'_>) -> Vec<LedgerRow> {
        self.experiments
            .iter()
            .filter_map(|result| Some(hooks(&result.name)?.ledger(result, self)))
            .flatten()
            .collect()
    }

    /// Checks every figure against the ceiling of its unit
    /// ([`ceilings`]), failing the points that break one, then grades the
    /// ledger anew from what is left: what `run` does before it writes, and
    /// what `render` and `compare` do to a stored report. Returns how many
    /// points failed a ceiling.
    pub fn check_and_grade(&mut self, hooks: HooksLookup<'_>) -> usize {
        let mut failed = 0;
        let limits: Vec<DeviceCeilings> = self
            .devices
            .iter()
            .filter_map(|d| DeviceCeilings::of(self, d.ordinal.0))
            .collect();
        for result in &mut self.experiments {
            let (Some(hook), Some(device)) = (hooks(&result.name), result.device) else {
                continue;
            };
            let Some(ceilings) = limits.iter().find(|c| c.ordinal == device) else {
                continue;
            };
            let bounds: Vec<Vec<Bound>> = result.series.iter().map(|s| hook.bounds(result, s)).collect();
            failed += ceilings::check_result(result, ceilings, &bounds);
        }
        if hooks_known(self, hooks) {
            self.ledger = self.compute_ledger(hooks);
        }
        failed
    }

    /// Marks the report as partial, with why the run stopped.
    pub fn mark_partial(&mut self, reason: impl Into<String>) {
        self.partial = true;
        self.stop_reason = Some(reason.into());
    }

    /// The device of `ordinal`, if the report has it.
    pub fn device(&self, ordinal: usize) -> Option<&DeviceInfo> {
        self.devices.iter().find(|d| d.ordinal.0 == ordinal)
    }

    /// "name (status: reason)" for every experiment that is not ok.
    pub fn incomplete(&self) -> Vec<String> {
        self.experiments
            .iter()
            .filter(|e| !e.status.is_ok())
            .map(|e| format!("{} ({})", section_name(e), e.status))
            .collect()
    }

    /// Reads a report. `source` names the file in messages. Version 1 reports are
    /// converted; other schemas and versions, and figures no measurement can give
    /// (non-finite, negative, min > median, zero times), are refused.
    pub fn from_json(text: &str, source: &str) -> Result<Self> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| Error::Json {
            context: format!("{source} is not valid JSON"),
            source: e,
        })?;
        if value["schema"] != SCHEMA {
            return Err(Error::InvalidInput(format!(
                "{source} is not a ptxsuite report (its \"schema\" field is missing or different)"
            )));
        }
        let report = match value["schema_version"].as_u64() {
            Some(1) => schema_v1::convert(value, source)?,
            Some(2) => serde_json::from_value(value).map_err(|e| Error::Json {
                context: format!("{source} does not match the report schema version 2"),
                source: e,
            })?,
            _ => {
                return Err(Error::InvalidInput(format!(
                    "{source} has report schema version {}; this ptxsuite reads versions 1 and {SCHEMA_VERSION}",
                    value["schema_version"]
                )));
            }
        };
        validation::validate(&report).map_err(|why| Error::InvalidInput(format!("{source}: {why}")))?;
        Ok(report)
    }

    /// Reads `path` (see [`from_json`](Self::from_json)); a file above [`MAX_REPORT_BYTES`] is refused
    /// before it is parsed.
    pub fn load(path: &Path) -> Result<Self> {
        let bytes = read_capped(path, MAX_REPORT_BYTES)?;
        let text = String::from_utf8(bytes)
            .map_err(|_| Error::InvalidInput(format!("{} is not UTF-8 text", path.display())))?;
        Self::from_json(&text, &path.display().to_string())
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report always serializes")
    }

    /// The text of `report.md`.
    pub fn markdown(&self, hooks: HooksLookup<'_>) -> String {
        markdown::render(self, hooks)
    }

    /// report.md and the plots, in memory; every file name is checked first
    /// (names come from the report's contents).
    pub fn render(&self, hooks: HooksLookup<'_>) -> Result<Rendered> {
        let mut files = vec![("report.md".to_string(), self.markdown(hooks))];
        for result in &self.experiments {
            let base = plot_file_base(self, result);
            if let Some(spec) = main_plot(result, self, hooks) {
                files.push((format!("{base}.svg"), svg_plot::render(&spec)));
            }
            if let Some(h) = hooks(&result.name) {
                for spec in h.extra_plots(result, self) {
                    check_file_stem(&spec.suffix)?;
                    files.push((format!("{base}-{}.svg", spec.suffix), svg_plot::render(&spec)));
                }
            }
        }
        for (name, _) in &files {
            check_file_stem(name.trim_end_matches(".svg").trim_end_matches(".md"))?;
        }
        let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
        for (name, _) in &files {
            if !seen.insert(name.as_str()) {
                return Err(Error::InvalidInput(format!(
                    "the report holds two sections that would both be written to {name} (duplicated experiments?)"
                )));
            }
        }
        Ok(Rendered { files })
    }

    /// Writes `report.json`, then report.md and the plots, into `dir` (created if needed), as
    /// `outputs` allows (never through a link; every file checked before any is written).
    pub fn write(&self, dir: &Path, hooks: HooksLookup<'_>, outputs: &OutputFiles) -> Result<Vec<PathBuf>> {
        let mut rendered = self.render(hooks)?;
        rendered.files.insert(0, ("report.json".to_string(), self.to_json()));
        rendered.write(dir, outputs)
    }
}

impl Rendered {
    /// Writes every file into `dir` (created if needed), as `outputs` allows: every
    /// destination is checked before the first is written.
    pub fn write(&self, dir: &Path, outputs: &OutputFiles) -> Result<Vec<PathBuf>> {
        outputs.create_dir(dir)?;
        let paths: Vec<PathBuf> = self.files.iter().map(|(name, _)| dir.join(name)).collect();
        outputs.check_all(paths.iter().map(PathBuf::as_path))?;
        paths
            .iter()
            .zip(&self.files)
            .map(|(path, (_, text))| outputs.write(path, text.as_bytes()))
            .collect()
    }
}

/// A file name made from a report's contents must stay a plain name in the output folder.
fn check_file_stem(stem: &str) -> Result<()> {
    let ok = !stem.is_empty()
        && stem.len() <= 100
        && !stem.starts_with('.')
        && stem
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && !stem.contains("..");
    if ok {
        Ok(())
    } else {
        Err(Error::InvalidInput(format!(
            "the report names a section {stem:?}, which is not a safe file name (letters, digits, '-', '_' only); nothing was written"
        )))
    }
}

/// `offset`, or `offset-gpu1` in a report of several GPUs.
fn plot_file_base(report: &Report, result: &ExperimentResult) -> String {
    match result.device {
        Some(d) if report.devices.len() > 1 => format!("{}-gpu{d}", result.name),
        _ => result.name.clone(),
    }
}

/// `offset` or `offset (GPU 1)`.
pub fn section_name(result: &ExperimentResult) -> String {
    match result.device {
        Some(d) if d > 0 => format!("{} (GPU {d})", result.name),
        _ => result.name.clone(),
    }
}

/// Reads at most `limit` bytes of `path`: a larger file (or an endless stream) is refused.
pub fn read_capped(path: &Path, limit: u64) -> Result<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| Error::io(format!("cannot read {}", path.display()), e))?;
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(format!("cannot read {}", path.display()), e))?;
    if bytes.len() as u64 > limit {
        return Err(Error::InvalidInput(format!(
            "{} is larger than {} MiB, the most a report may be (a full run of an 8-GPU node writes a few MiB)",
            path.display(),
            limit >> 20
        )));
    }
    Ok(bytes)
}

/// This machine's host name (`/proc/sys/kernel/hostname`, `$HOSTNAME`), or "unknown".
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "unknown".into())
}
